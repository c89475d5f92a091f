#!/usr/bin/env bash
# Packaging tests (docs/conventions.md § Tests): install the packed artifacts into clean directories and
# use them as a user would. Run after scripts/build-wasm.sh (and the Python build).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- npm ---
# `npm pack` the package, install the tarball into an empty project, and require/import it.
[ -f npm/dist/node/statecore_bg.wasm ] || { echo "packaging: npm/dist missing: run scripts/build-wasm.sh" >&2; exit 1; }
(cd npm && npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/statecore-*.tgz)
# The browser's modules (combined and per protocol), as users download them, within their size
# limits (docs/performance.md § wasm size).
.venv/bin/python scripts/check_web_size.py "$tarball"

# Only lib/ and dist/ (+ package.json, README, LICENSE) are shipped; no tests, no sources.
listing=$(tar -tzf "$tarball")
for want in package/package.json package/LICENSE package/README.md \
            package/dist/THIRD-PARTY-NOTICES.txt package/dist/viewer/THIRD-PARTY-NOTICES.txt \
            package/lib/node.cjs package/lib/node.mjs package/lib/generated/web.mjs \
            package/lib/index.d.ts package/lib/generated/web.d.mts package/lib/generated/core.d.ts \
            package/lib/host/fctry.cjs package/lib/generated/fctry.mjs package/lib/generated/fctry.d.ts \
            package/lib/host/hivemind.cjs package/lib/generated/hivemind.mjs package/lib/generated/hivemind.d.ts \
            package/lib/host/agency.cjs package/lib/generated/agency.mjs package/lib/generated/agency.d.ts \
            package/lib/generated/generated.mjs package/lib/binding/web-init.mjs package/lib/generated/web-modules.mjs \
            package/lib/binding/api.mjs package/lib/host/host.cjs package/lib/store/store.cjs \
            package/lib/cli/run.cjs package/lib/view/server.cjs package/lib/mcp/server.cjs package/lib/generated/mcp-tools.json \
            package/schemas/fctry.state.json \
            package/dist/node/statecore.js package/dist/node/statecore_bg.wasm \
            package/dist/node/api.cjs package/dist/web/statecore.js package/dist/web/statecore_bg.wasm \
            package/dist/statusline/statecore.js package/dist/statusline/statecore_bg.wasm; do
  grep -qx "$want" <<<"$listing" || { echo "packaging: $want missing from $tarball" >&2; exit 1; }
done
if grep -E '^package/(test|build|node_modules)/' <<<"$listing"; then
  echo "packaging: unexpected files in $tarball" >&2; exit 1
fi
# The one runtime dependency is chokidar (exact version), for the watchers only.
node -e '
  const p = require(process.argv[1]);
  const deps = Object.keys(p.dependencies ?? {});
  if (deps.length !== 1 || deps[0] !== "chokidar" || !/^\d+\.\d+\.\d+$/.test(p.dependencies.chokidar))
    throw new Error(`statecore must have exactly one runtime dependency, chokidar at an exact version: ${JSON.stringify(p.dependencies)}`);
  if (p.optionalDependencies && Object.keys(p.optionalDependencies).length)
    throw new Error("statecore must have no optional dependencies");
  // Two optional peers: pg, loaded only by the PostgresStore of statecore/store (docs/store.md),
  // and the MCP SDK, loaded only by `statecore mcp` (docs/mcp.md).
  const peers = JSON.stringify(p.peerDependencies ?? {});
  const optional = JSON.stringify(p.peerDependenciesMeta ?? {});
  const wantPeers = { "@modelcontextprotocol/sdk": ">=1.32 <2", pg: ">=8.11" };
  const wantOptional = { "@modelcontextprotocol/sdk": { optional: true }, pg: { optional: true } };
  if (peers !== JSON.stringify(wantPeers) || optional !== JSON.stringify(wantOptional))
    throw new Error(`statecore must have two optional peer dependencies, the MCP SDK and pg: ${peers} ${optional}`);
  if (p.scripts && (p.scripts.install || p.scripts.postinstall || p.scripts.preinstall))
    throw new Error("statecore must have no install scripts");
' "$repo/npm/package.json"

# The docs ship inside the package (docs/NAME.md and the built site, docs/site/), so the
# `docs/NAME.md § Section` references of its README and type declarations resolve offline.
.venv/bin/python scripts/check_shipped_docs.py "$tarball" package/
tar -xzOf "$tarball" package/LICENSE | cmp -s - LICENSE || { echo "packaging: the tarball's LICENSE is not the repository's" >&2; exit 1; }
# Third-party code shipped with its licence texts: the crates in the wasm, the viewer's bundle.
for pair in "dist/THIRD-PARTY-NOTICES.txt:xxhash-rust" "dist/viewer/THIRD-PARTY-NOTICES.txt:dompurify" \
            "dist/viewer/THIRD-PARTY-NOTICES.txt:mermaid" "dist/viewer/THIRD-PARTY-NOTICES.txt:preact"; do
  # Read whole first: `grep -q` stops early, and tar's SIGPIPE would fail the pipeline.
  notices=$(tar -xzOf "$tarball" "package/${pair%%:*}")
  grep -q "^${pair#*:} [0-9]" <<<"$notices" \
    || { echo "packaging: ${pair%%:*} does not list ${pair#*:}" >&2; exit 1; }
done
node -e '
  const p = require(process.argv[1]);
  for (const k of ["license", "author", "keywords", "description"])
    if (!p[k] || (Array.isArray(p[k]) && p[k].length === 0)) throw new Error(`package.json has no ${k}`);
' "$repo/npm/package.json"

app=$work/app
mkdir -p "$app"
cd "$app"
npm init -y >/dev/null
npm install --no-audit --no-fund --loglevel=error "$tarball" >/dev/null

cat > cjs.cjs <<'EOF'
const assert = require("node:assert/strict");
const sc = require("statecore-js");
const doc = sc.parse('{"a": {"b": 1}, "__proto__": {"x": 1}}');
assert.ok(Object.hasOwn(doc, "__proto__") && Object.getPrototypeOf(doc) === Object.prototype);
assert.deepEqual(sc.merge({ a: { b: 1 } }, { a: { c: 2 } }), { a: { b: 1, c: 2 } });
assert.equal(sc.mergeText('{"n": 12345678901234567890}', '{"m": 1}'), '{\n  "n": 12345678901234567890,\n  "m": 1\n}\n');
assert.equal(sc.validate("json", { a: 1 }).valid, true);
// the JSON Schemas ship with the package
assert.equal(require("statecore-js/schemas/fctry.state.json").title, "fctry.state");
assert.throws(() => sc.parse("{"), (e) => e instanceof sc.ParseError && e.code === "E_PARSE");
assert.equal(typeof sc.machine.fire, "function");
assert.equal(require("statecore-js/package.json").name, "statecore-js");
// statecore/fctry: the fctry helpers over a project directory, sharing the main entry's core.
const fh = require("statecore-js/fctry");
const os = require("node:os"), path = require("node:path"), fs = require("node:fs");
const project = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-fctry-"));
fh.startCommandSync(project, "evolve", { now: "2026-02-12T15:23:45Z" });
assert.deepEqual(fh.readStateSync(project).document.currentCommand, "evolve");
assert.equal(fs.readFileSync(path.join(project, ".fctry", "state.json"), "utf8"), fs.readFileSync(fh.statePath(project), "utf8"));
assert.throws(() => fh.chunkEventSync(project, 1, "start"), (e) => e instanceof sc.UsageError);
fs.rmSync(project, { recursive: true });
// statecore and statecore/fctry never load chokidar; statecore/hivemind's helpers do not either.
const chokidarLoaded = () => Object.keys(require.cache).some((k) => k.split(path.sep).includes("chokidar"));
assert.equal(chokidarLoaded(), false);
const hm = require("statecore-js/hivemind");
const hproject = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-hivemind-"));
const out = hm.fireSync(hproject, "select_project", { project: hproject }, { now: "2026-01-23T10:30:00Z" });
assert.deepEqual(out.result.transitions, [{ from: "idle", event: "select_project", to: "project_selected" }]);
assert.deepEqual(JSON.parse(fs.readFileSync(path.join(hproject, "workspace", "state.json"), "utf8")), out.document);
assert.throws(() => hm.fireSync(hproject, "give_task", null, { timout: 1 }), (e) => e instanceof sc.UsageError && e.code === "E_OPTIONS");
assert.equal(hm.readStateSync(hproject).document.project, hproject);
assert.throws(() => hm.fireSync(hproject, "plan_approved"), (e) => e instanceof sc.TransitionError);
const ag = require("statecore-js/agency");
const repo = fs.mkdtempSync(path.join(os.tmpdir(), "statecore-agency-"));
assert.equal(ag.writeProtocolDocumentSync(repo), "created");
assert.equal(ag.writeProtocolDocumentSync(repo), "exists");
ag.writeRunnerStatusSync(path.join(repo, "wt"), { status: "blocked", summary: "CI down", blockers: ["runner offline"] });
assert.equal(ag.loadRunnerStatusSync(path.join(repo, "wt")).status.status, "blocked");
assert.equal(sc.agency.derive(ag.snapshotSync(path.join(repo, "wt"), null)).status, "broken");
fs.rmSync(repo, { recursive: true });
assert.equal(chokidarLoaded(), false);
// the watcher runs with the installed chokidar
const watcher = hm.watchWorkspace(hproject, { onError: (e) => { throw e; } });
assert.equal(chokidarLoaded(), true);
watcher.ready.then(() => watcher.close()).then(() => {
  fs.rmSync(hproject, { recursive: true });
  console.log("cjs ok");
});
EOF
cat > esm.mjs <<'EOF'
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { parse, merge, validate, canonical, DataError, StatecoreError } from "statecore-js";
import init, { merge as webMerge, StatecoreError as WebError } from "statecore-js/web";
assert.deepEqual(merge(parse('{"a": 1}'), { b: [true, null] }, { strategy: "shallow" }), { a: 1, b: [true, null] });
assert.equal(validate("json", []).valid, false);
assert.equal(canonical("[1.50]"), "[\n  1.50\n]\n");
assert.throws(() => merge({ a: NaN }, {}), (e) => e instanceof DataError && e.path === "/a");
assert.equal(typeof init, "function");
// the web entry is a separate module instance with its own error classes
assert.throws(() => webMerge({}, {}), (e) => e instanceof WebError && e.code === "E_NOT_INITIALIZED");
assert.ok(StatecoreError !== WebError && StatecoreError.name === WebError.name);
const wasm = readFileSync(createRequire(import.meta.url).resolve("statecore-js/statecore_bg.wasm"));
await init(wasm);
assert.deepEqual(webMerge({ a: 1 }, { a: null }, { strategy: "merge_patch" }), {});
const { mkdtempSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const { inboxAdd, readInbox } = await import("statecore-js/fctry");
const project = mkdtempSync(join(tmpdir(), "statecore-fctry-"));
const added = await inboxAdd(project, "feature", "dark mode", { now: 0, random: "abc123" });
assert.equal(added.item.id, "inbox-0-abc123");
assert.deepEqual((await readInbox(project)).document, added.document);
rmSync(project, { recursive: true });
const hm = await import("statecore-js/hivemind");
const hproject = mkdtempSync(join(tmpdir(), "statecore-hivemind-"));
await hm.fire(hproject, "select_project");
const planning = await hm.fire(hproject, "give_task", null, { now: 0 });
assert.equal(planning.result.state.state, "planning");
assert.equal((await hm.readState(hproject)).document.state, "planning");
assert.equal(typeof hm.watchWorkspace, "function");
assert.equal(hm.default.fire, hm.fire);
rmSync(hproject, { recursive: true });
const ag = await import("statecore-js/agency");
const { agency } = await import("statecore-js");
const wt = mkdtempSync(join(tmpdir(), "statecore-agency-"));
await ag.writeInitialRunnerStatus(wt, { now: 0 });
assert.equal((await ag.loadRunnerStatus(wt)).status.updated_at, "1970-01-01T00:00:00.000Z");
assert.equal(agency.derive(await ag.snapshot(wt, null, { tmuxActive: true })).display, "broken (archived)");
rmSync(wt, { recursive: true });
console.log("esm ok");
EOF
node cjs.cjs
node esm.mjs
# The status-line script is installed as a bin and works in a project directory.
mkdir -p proj/.fctry
printf '{"specVersion": "1.2", "currentCommand": "init"}' > proj/.fctry/state.json
line=$(cd proj && ../node_modules/.bin/statecore-statusline --no-color </dev/null)
[ "$line" = "proj │ spec 1.2 │ init" ] || { echo "statecore-statusline printed: $line" >&2; exit 1; }
line=$(./node_modules/.bin/statecore fctry status proj </dev/null)
[ "$line" = "proj │ spec 1.2 │ init" ] || { echo "statecore fctry status printed: $line" >&2; exit 1; }
echo "statusline ok"
cd "$repo"
echo "packaging: npm ok"

# --- python ---
# Install the built wheel into a brand-new venv (no index, no dependencies: it needs none) and
# use it from an unrelated directory, as a user would.
wheels=(dist/wheels/statecore-*-cp39-abi3-*.whl)
[ -f "${wheels[0]}" ] || { echo "packaging: no wheel in dist/wheels: run scripts/build-python.sh" >&2; exit 1; }
python3 - "${wheels[0]}" <<'EOF'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
for want in ("statecore/__init__.py", "statecore/errors.py", "statecore/machine.py",
             "statecore/host.py", "statecore/fctry.py", "statecore/hivemind.py",
             "statecore/agency.py", "statecore/types.py", "statecore/types.pyi",
             "statecore/_generated/fctry.py", "statecore/schemas/fctry.state.json",
             "statecore/py.typed", "statecore/_statecore.pyi",
             "statecore/_statecore.abi3.so", "statecore/_host/__init__.py",
             "statecore/_host/documents.py", "statecore/_store/__init__.py",
             "statecore/_store/file_store.py", "statecore/_cli/__init__.py", "statecore/_cli/run.py",
             "statecore/_mcp/__init__.py", "statecore/_mcp/server.py", "statecore/_generated/mcp_tools.json"):
    assert want in names, f"{want} missing from {sys.argv[1]}"
stray = [n for n in names if n.startswith(("tests/", "statecore/tests")) or n.endswith(".pyc")]
assert not stray, f"unexpected files in the wheel: {stray}"
# The licence, the third-party notices of the crates compiled in, and the metadata a package
# index shows.
wheel = zipfile.ZipFile(sys.argv[1])
notices = wheel.read("statecore/THIRD-PARTY-NOTICES.txt").decode()
for crate in ("pyo3 ", "xxhash-rust ", "mimalloc "):
    assert f"\n{crate}" in notices, f"the wheel's notices do not list {crate.strip()}"
licence = wheel.read("statecore-0.1.0.dist-info/licenses/LICENSE").decode()
assert licence == open("LICENSE", encoding="utf-8").read(), "the wheel's LICENSE is not the repository's"
meta = wheel.read("statecore-0.1.0.dist-info/METADATA").decode()
for want in ("License-Expression: MIT", "Author: the statecore authors", "Keywords: ",
             "Classifier: Typing :: Typed", "Requires-Python: >=3.9"):
    assert want in meta, f"the wheel's METADATA lacks {want!r}"
EOF
# The platform tag the wheel claims is the one its symbols allow (glibc 2.17).
shown=$(.venv/bin/auditwheel show "${wheels[0]}")
grep -q 'consistent with the following platform tag:' <<<"$shown" && grep -q '"manylinux_2_17_x86_64"' <<<"$shown" \
  || { echo "packaging: auditwheel does not confirm manylinux_2_17_x86_64: $shown" >&2; exit 1; }
case "${wheels[0]}" in *manylinux2014_x86_64*) ;; *) echo "packaging: not a manylinux2014 wheel: ${wheels[0]}" >&2; exit 1 ;; esac
python3 -m venv "$work/pyenv"
"$work/pyenv/bin/pip" install --quiet --disable-pip-version-check --no-index --no-deps "${wheels[0]}"
mkdir -p "$work/pyapp"
cd "$work/pyapp"
"$work/pyenv/bin/python" - <<'EOF'
import json, os, pickle, sys
import statecore
from statecore import machine

assert statecore.__file__.startswith(sys.prefix) and "site-packages" in statecore.__file__
doc = statecore.parse(b'{"b": 1, "a": {"n": 123456789012345678901234567890}, "__proto__": 1}')
assert list(doc) == ["b", "a", "__proto__"] and doc["a"]["n"] == 123456789012345678901234567890
assert statecore.merge(doc, {"a": {"m": 2}}) == {"b": 1, "a": {"n": 123456789012345678901234567890, "m": 2}, "__proto__": 1}
assert statecore.merge({"a": 1}, {"a": None}, strategy="merge_patch") == {}
assert statecore.merge_text('{"x": 1e400}', '{"y": [1.50]}') == '{\n  "x": 1e+400,\n  "y": [\n    1.50\n  ]\n}\n'
assert statecore.validate("json", {"a": 1})["valid"] is True
assert statecore.serialize({"a": [1, 2.5, None]}) == '{\n  "a": [\n    1,\n    2.5,\n    null\n  ]\n}\n'
try:
    statecore.parse('{"a": 1, "a": 2}')
except statecore.ParseError as e:
    assert isinstance(e, ValueError) and e.code == "E_DUPLICATE_KEY" and e.path == "/a", e
    assert pickle.loads(pickle.dumps(e)).code == "E_DUPLICATE_KEY"
else:
    raise AssertionError("duplicate key accepted")
try:
    statecore.merge({"a": float("nan")}, {})
except statecore.DataError as e:
    assert e.code == "E_VALUE" and e.path == "/a", e
else:
    raise AssertionError("nan accepted")
definition = {
    "name": "job",
    "initial": "idle",
    "states": [{"name": "idle"}, {"name": "busy"}],
    "transitions": [{"from": ["idle"], "event": "go", "to": "busy"}],
}
assert machine.check(definition)["valid"] is True
assert machine.fire(definition, "idle", "go")["state"] == "busy"
assert machine.diagram(definition).startswith("stateDiagram-v2")
path = os.path.join(os.getcwd(), "state.json")
statecore.update_document(path, "json", {"count": 1})
assert statecore.read_document(path, "json")["document"] == {"count": 1}
try:
    statecore.update_document(path, "json", {"count": 2}, timout=1)
except statecore.UsageError as e:
    assert e.code == "E_OPTIONS" and "timeout" in e.message, e
else:
    raise AssertionError("a misspelt option was ignored")
from importlib import resources
schema = json.loads(resources.files("statecore").joinpath("schemas", "fctry.state.json").read_text())
assert schema == statecore.schema("fctry.state")
from statecore import hivemind
project = os.path.join(os.getcwd(), "hive")
fired = hivemind.fire(project, "select_project", details={"project": project})
assert fired["result"]["transitions"][0]["to"] == "project_selected"
print("python", statecore.__version__, "from", os.path.dirname(statecore.__file__))
EOF
# The console script the wheel installs runs the command line (statecore._cli.run:main).
mkdir -p proj/.fctry
printf '{"specVersion": "1.2", "currentCommand": "init"}' > proj/.fctry/state.json
line=$("$work/pyenv/bin/statecore" fctry status proj </dev/null)
[ "$line" = "proj │ spec 1.2 │ init" ] || { echo "the wheel's statecore fctry status printed: $line" >&2; exit 1; }
cd "$repo"
# No placeholder address (example.com, an invented code-host page, TODO) ships, and the
# metadata holds no address but project-address.toml's (none while it is empty).
.venv/bin/python scripts/project_address.py artifacts "$tarball" "${wheels[0]}"
echo "packaging: python ok"
