// `statecore-js/specify` on a feature's directory (docs/specify.md § Files): the index's helpers
// rewrite index.md in place (untouched lines byte for byte, people's edits kept), a broken
// index.md is refused and never replaced, and `applyArtifacts` writes an agent's files only when
// the whole batch is safe. python/tests/test_specify_host.py is its twin.
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { tempDir } from "./helpers/procs.mjs";

const require = createRequire(import.meta.url);
const specify = require("../lib/host/specify.cjs");
const core = require("../lib/generated/core-node.cjs");

const NOW = "2026-11-24T12:00:00Z";

function feature(t) {
  const dir = path.join(tempDir(t), "specs", "005-user-auth");
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

test("a workflow on a feature directory keeps a person's edits", async (t) => {
  const dir = feature(t);
  const started = await specify.start(dir, { now: NOW });
  assert.equal(started.changed, true);
  assert.equal(started.result.resume.action, "scaffold");
  const indexMd = specify.indexPath(dir);
  assert.ok(fs.readFileSync(indexMd, "utf8").startsWith("# Feature Index\n"));
  specify.setLoopStatusSync(dir, "spec_writing", null, { now: NOW });
  specify.setLoopStatusSync(dir, "validating", null, { now: NOW });
  specify.addGapsSync(
    dir,
    [
      { priority: "Critical", chk_source: "CHK001", fr_reference: "FR-001", question: "Which auth?" },
      { priority: "Minor", chk_source: "CHK002", fr_reference: "FR-002", question: "Color?" },
    ],
    { now: NOW },
  );
  const edited = fs.readFileSync(indexMd, "utf8").replace("## Gap Priority Queue\n", "## Gap Priority Queue\n\nEdited by hand.\n");
  fs.writeFileSync(indexMd, edited);
  const asked = specify.startClarifyingSync(dir, { now: NOW });
  assert.deepEqual(asked.result.clarifications.map((c) => c.id), ["C1.1"]);
  const after = fs.readFileSync(indexMd, "utf8");
  assert.ok(after.includes("Edited by hand.\n"));
  assert.ok(after.includes("| Critical | G-001 | CHK001 | FR-001 | Which auth? | clarifying | 0 | C1.1 |"));
  assert.ok(after.includes("| Minor | G-002 | CHK002 | FR-002 | Color? | deferred | 0 | - |"));
  assert.equal(specify.readIndexSync(dir).document.priority_loop_state.loop_status, "clarifying");
  assert.equal(specify.resumePointSync(dir).action, "collect_answers");
});

test("a broken index.md is refused and left as it is", (t) => {
  const dir = feature(t);
  specify.startSync(dir, { now: NOW });
  const indexMd = specify.indexPath(dir);
  const broken = fs.readFileSync(indexMd, "utf8") + "\n## Gap Priority Queue 2\n\n| A | B |\n|---|---|\n| 1 | 2 | 3 |\n";
  fs.writeFileSync(indexMd, broken);
  assert.throws(
    () => specify.setLoopStatusSync(dir, "spec_writing", null, { now: NOW }),
    (e) => e instanceof core.ParseError && e.details.line === broken.split("\n").length - 1,
  );
  assert.equal(fs.readFileSync(indexMd, "utf8"), broken);
  assert.equal(specify.readIndexSync(dir).warnings[0].code, "W_UNPARSEABLE");
});

test("artifacts are written atomically and checked as a batch", async (t) => {
  const dir = feature(t);
  fs.writeFileSync(path.join(dir, "old.md"), "old\n");
  const applied = await specify.applyArtifacts(
    dir,
    [
      { operation: "create", path: "specs/005-user-auth/spec.md", content: "# Spec\n" },
      { operation: "update", path: "checklists/requirements.md", content: "- [ ] CHK001\n" },
      { operation: "delete", path: "old.md" },
      { operation: "delete", path: "never.md" },
    ],
    "005-user-auth",
  );
  assert.deepEqual(applied.map((a) => a.result), ["written", "written", "deleted", "absent"]);
  assert.equal(fs.readFileSync(path.join(dir, "spec.md"), "utf8"), "# Spec\n");
  assert.equal(fs.readFileSync(path.join(dir, "checklists", "requirements.md"), "utf8"), "- [ ] CHK001\n");
  assert.equal(fs.existsSync(path.join(dir, "old.md")), false);
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.includes(".tmp-")), []);
});

for (const bad of ["../escape.md", "/etc/passwd", "a/../../x.md", ".workflow/index.md", "c:\\x.md", "x\u001b.md"]) {
  test(`a refused path refuses the whole batch: ${JSON.stringify(bad)}`, (t) => {
    const dir = feature(t);
    const batch = [
      { operation: "create", path: "spec.md", content: "first\n" },
      { operation: "create", path: bad, content: "evil\n" },
    ];
    assert.throws(
      () => specify.applyArtifactsSync(dir, batch),
      (e) => e instanceof core.PathUnsafeError && e.code === "E_PATH_UNSAFE" && e.path === "/1/path",
    );
    assert.deepEqual(fs.readdirSync(dir), []);
    assert.equal(fs.existsSync(path.join(dir, "..", "escape.md")), false);
  });
}

test("a symbolic link on the way is refused", (t) => {
  const dir = feature(t);
  const outside = path.join(dir, "..", "..", "outside");
  fs.mkdirSync(outside);
  fs.symlinkSync(outside, path.join(dir, "checklists"), "dir");
  fs.symlinkSync(path.join(outside, "target.md"), path.join(dir, "spec.md"));
  for (const p of ["checklists/requirements.md", "spec.md"]) {
    const batch = [
      { operation: "create", path: "fine.md", content: "x" },
      { operation: "update", path: p, content: "evil" },
    ];
    assert.throws(
      () => specify.applyArtifactsSync(dir, batch),
      (e) => e.code === "E_PATH_UNSAFE" && e.details.reason === "symlink" && e.details.path === p,
    );
  }
  assert.deepEqual(fs.readdirSync(outside), []);
  assert.equal(fs.existsSync(path.join(dir, "fine.md")), false);
});

test("a file where a directory must be is refused", (t) => {
  const dir = feature(t);
  fs.writeFileSync(path.join(dir, "checklists"), "a file\n");
  assert.throws(
    () => specify.applyArtifactsSync(dir, [{ operation: "create", path: "checklists/x.md", content: "x" }]),
    (e) => e.code === "E_FILE_TYPE",
  );
  assert.equal(fs.readFileSync(path.join(dir, "checklists"), "utf8"), "a file\n");
});

test("the seed's gap rules on a feature directory: a new gap starts pending, deferred is for Minor gaps, a status statecore does not know stops the check", (t) => {
  const dir = feature(t);
  const indexMd = specify.indexPath(dir);
  specify.startSync(dir, { now: NOW });
  specify.setLoopStatusSync(dir, "spec_writing", null, { now: NOW });
  specify.setLoopStatusSync(dir, "validating", null, { now: NOW });
  specify.addGapsSync(dir, [{ priority: "Critical", fr_reference: "FR-001", question: "Which auth?", status: "resolved", stale: 2 }], { now: NOW });
  assert.ok(fs.readFileSync(indexMd, "utf8").includes("| Critical | G-001 | - | FR-001 | Which auth? | pending | 0 | - |"));
  const before = fs.readFileSync(indexMd, "utf8");
  assert.throws(
    () => specify.setGapStatusSync(dir, "G-001", "deferred", null, { now: NOW }),
    (e) => e instanceof core.TransitionError && e.path === "/gap_priority_queue/0/status" && e.details.gap === "G-001",
  );
  assert.equal(fs.readFileSync(indexMd, "utf8"), before);
  // A person writes a status statecore does not know: the check never counts it as closed.
  fs.writeFileSync(indexMd, before.replace("| Which auth? | pending |", "| Which auth? | done |"));
  const edited = fs.readFileSync(indexMd, "utf8");
  for (const call of [() => specify.checkTerminationSync(dir), () => specify.endIterationSync(dir, { now: NOW })]) {
    assert.throws(call, (e) => e.code === "E_ARGUMENT" && e.path === "/gap_priority_queue/0/status" && e.details.status === "done");
  }
  assert.equal(fs.readFileSync(indexMd, "utf8"), edited);
});

for (const bad of ["specs/005-user-auth", "specs/005-user-auth/", "specs/005-user-auth/.", "specs/005-user-auth//"]) {
  test(`the feature's directory itself is refused as an artifact: ${JSON.stringify(bad)}`, (t) => {
    const dir = feature(t);
    assert.throws(
      () => specify.applyArtifactsSync(dir, [{ operation: "create", path: bad, content: "x" }], "005-user-auth"),
      (e) => e instanceof core.PathUnsafeError && e.path === "/0/path" && e.details.reason === "empty",
    );
    assert.deepEqual(fs.readdirSync(dir), []);
  });
}
