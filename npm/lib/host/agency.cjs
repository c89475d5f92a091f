"use strict";
/**
 * `statecore-js/agency`: the host side of the agency runner status contract (docs/agency.md) over
 * a worktree's `.agency/state/runner_status.json` and a repository's `CLAUDE.md`.
 *
 * The status file's helpers (`writeRunnerStatus`, `writeInitialRunnerStatus`,
 * `loadRunnerStatus`, `readStatus`, ...) come from the table (lib/host/helpers.cjs). Written here:
 * `snapshot` (the file's bytes and modification time, meta.json, whether the worktree exists:
 * the facts `agency.buildSnapshot` takes) and `writeProtocolDocument` (create-only). Each
 * exists as `name` (a Promise) and `nameSync`. The Python twin is `statecore.agency`.
 */
const crypto = require("node:crypto");
const path = require("node:path");
const { define, attempt } = require("./steps.cjs");
const { core } = require("./documents.cjs");
const { CONSTANTS, HELPERS } = require("../binding/tables.cjs");
const ops = require("./helpers.cjs").helpers("agency");

/** The document kind of `runner_status.json`. */
ops.KIND = HELPERS.agency.files[0][1];
/** The seed's default stall threshold (the core's): 15 minutes, in ms. */
ops.DEFAULT_STALL_THRESHOLD_MS = CONSTANTS.stallThresholdMs;

/** The protocol document's name at the repository root. */
const PROTOCOL_FILE = "CLAUDE.md";

/** An error handler: `value` for "no such file" (ENOENT), any other error rethrown. */
const ifMissing = (value) => (error) => {
  if (error.code === "ENOENT") return value;
  throw error;
};

/**
 * snapshot(worktree, metaPath, {tmuxActive, now, thresholdMs}): `agency.buildSnapshot` over the
 * status file (bytes and mtime of one open file; missing: null), meta.json (null path or any
 * read error: null, i.e. `broken`) and whether the worktree is a directory (else `archived`).
 */
define(ops, "snapshot", function* (io, worktree, metaPath, options) {
  const { tmuxActive = false, now, thresholdMs } = options ?? {};
  const status = yield* attempt(() => io.readStamped(ops.statusPath(worktree)), ifMissing({ data: null, mtime: null }));
  const meta = metaPath == null ? null : yield* attempt(() => io.read(String(metaPath)), () => null);
  const present = yield* attempt(() => io.stat(String(worktree)), () => null);
  const facts = {
    status_file_mod_time: status.mtime,
    tmux_active: Boolean(tmuxActive),
    worktree_present: present !== null && present.isDirectory(),
  };
  return core().agency.buildSnapshot(status.data, meta, facts, now ?? null, thresholdMs ?? null);
});

/**
 * writeProtocolDocument(repoRoot): `agency init`'s CLAUDE.md, written only when nothing of
 * that name exists: "created" | "exists". The complete, fsynced temp file is hard-linked into
 * place, which fails when the name is taken, so a racing creator is never overwritten; where
 * links are not supported, an exclusive create (`wx`). The temp file is always removed.
 */
define(ops, "writeProtocolDocument", function* (io, repoRoot) {
  const root = String(repoRoot);
  const target = path.join(root, PROTOCOL_FILE);
  const text = core().agency.protocolDocument();
  const taken = yield* attempt(() => io.lstat(target), ifMissing(null));
  if (taken !== null) return "exists";
  const temp = path.join(root, `.${PROTOCOL_FILE}.tmp-${crypto.randomBytes(16).toString("hex")}`);
  yield io.writeNew(temp, text);
  try {
    let linkError = null;
    yield* attempt(
      () => io.link(temp, target),
      (error) => {
        linkError = error;
      },
    );
    if (linkError === null) return "created";
    if (linkError.code === "EEXIST") return "exists";
    let created = true;
    yield* attempt(
      () => io.writeNew(target, text),
      (error) => {
        if (error.code !== "EEXIST") throw error;
        created = false;
      },
    );
    return created ? "created" : "exists";
  } finally {
    yield* attempt(() => io.unlink(temp), ifMissing(undefined));
  }
});

module.exports = ops;
