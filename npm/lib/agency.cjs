"use strict";
/**
 * `statecore/agency`: the host side of the agency runner status contract (docs/agency.md) over
 * a worktree's `.agency/state/runner_status.json` and a repository's `CLAUDE.md`.
 *
 * Every rule is the core's pure `agency.*` function (`require("statecore").agency`); this file
 * only does I/O: locked, atomic, validated writes of the status file (`host.updateDocument`),
 * reading it with its modification time, and the create-only write of the protocol document.
 * Each helper exists as `name` (Promise) and `nameSync`, generated from one body over the I/O
 * tables below. The Python twin is `statecore.agency` (same behaviour).
 */
const crypto = require("node:crypto");
const fs = require("node:fs");
const fsp = require("node:fs/promises");
const path = require("node:path");
const shared = require("./io.cjs");
const { agency } = require("./core-node.cjs");

/** The document kind of `runner_status.json`. */
const KIND = "agency.runner_status";
/** The seed's default stall threshold: 15 minutes, in ms. */
const DEFAULT_STALL_THRESHOLD_MS = 15 * 60 * 1000;
/** The protocol document's name at the repository root. */
const PROTOCOL_FILE = "CLAUDE.md";

/** `<worktree>/.agency/state/runner_status.json`. */
const statusPath = (worktree) => path.join(String(worktree), ".agency", "state", "runner_status.json");

/** An error handler: `value` for "no such file" (ENOENT), any other error rethrown. */
const ifMissing = (value) => (error) => {
  if (error.code === "ENOENT") return value;
  throw error;
};
/** An error handler: `value` for "the name is taken" (EEXIST), any other error rethrown. */
const ifExists = (value) => (error) => {
  if (error.code === "EEXIST") return value;
  throw error;
};

// The I/O a helper needs, sync and async: the shared steps (lib/io.cjs) and the file steps of
// the status file and the protocol document.
const SYNC = {
  ...shared.SYNC,
  readFile: (file) => fs.readFileSync(file),
  /** `{data, mtime}` of one open file (mtime in whole ms), so both describe the same file. */
  readStamped(file) {
    const fd = fs.openSync(file, "r");
    try {
      return { mtime: Math.floor(fs.fstatSync(fd).mtimeMs), data: fs.readFileSync(fd) };
    } finally {
      fs.closeSync(fd);
    }
  },
  stat: (file) => fs.statSync(file),
  lstat: (file) => fs.lstatSync(file),
  /** Creates `file` (flag `wx`: never an existing one) holding `text`, fsynced. */
  writeNew(file, text) {
    const fd = fs.openSync(file, "wx", 0o666);
    try {
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  },
  link: (from, to) => fs.linkSync(from, to),
  unlink: (file) => fs.unlinkSync(file),
};
const ASYNC = {
  ...shared.ASYNC,
  readFile: (file) => fsp.readFile(file),
  async readStamped(file) {
    const handle = await fsp.open(file, "r");
    try {
      return { mtime: Math.floor((await handle.stat()).mtimeMs), data: await handle.readFile() };
    } finally {
      await handle.close();
    }
  },
  stat: (file) => fsp.stat(file),
  lstat: (file) => fsp.lstat(file),
  async writeNew(file, text) {
    const handle = await fsp.open(file, "wx", 0o666);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  link: (from, to) => fsp.link(from, to),
  unlink: (file) => fsp.unlink(file),
};

const ops = {};

/** Defines `name` (always a Promise) and `nameSync` from `run(io, ...args)`. */
const both = shared.definer(ops, SYNC, ASYNC);

/**
 * A locked update of the worktree's status file with `make(current, now)` (a pure `agency.*`
 * call), creating `.agency/state/` first. The clock is read under the lock.
 */
function update(io, worktree, make, options) {
  const file = statusPath(worktree);
  const { now, timeout } = options ?? {};
  const apply = (current) => make(current, now ?? Date.now());
  return io.then(io.mkdir(path.dirname(file)), () => io.update(file, KIND, apply, null, { timeout }));
}

/**
 * writeRunnerStatus(worktree, update, {now, timeout}): one milestone, `agency.updateRunnerStatus`
 * on the current document: ValidationError (file untouched) when the result is invalid; an
 * unparseable file is kept as `<file>.corrupt-<time>` by the host.
 */
both("writeRunnerStatus", (io, worktree, changes, options) =>
  update(io, worktree, (current, now) => agency.updateRunnerStatus(current, changes, now), options),
);

/**
 * writeInitialRunnerStatus(worktree, {now, timeout}): what `agency run` does, replacing any
 * earlier status with `agency.initialRunnerStatus`.
 */
both("writeInitialRunnerStatus", (io, worktree, options) =>
  update(io, worktree, (_current, now) => agency.initialRunnerStatus(now), options),
);

/**
 * loadRunnerStatus(worktree): `agency.parseRunnerStatus` of the file's bytes (missing: null).
 */
both("loadRunnerStatus", (io, worktree) =>
  io.then(
    io.guard(() => io.readFile(statusPath(worktree)), ifMissing(null)),
    (data) => agency.parseRunnerStatus(data),
  ),
);

/**
 * snapshot(worktree, metaPath, {tmuxActive, now, thresholdMs}): `agency.buildSnapshot` over the
 * status file (bytes and mtime of one open file; missing: null), meta.json (null path or any
 * read error: null, i.e. `broken`) and whether the worktree is a directory (else `archived`).
 */
both("snapshot", (io, worktree, metaPath, options) => {
  const { tmuxActive = false, now, thresholdMs } = options ?? {};
  const status = io.guard(() => io.readStamped(statusPath(worktree)), ifMissing({ data: null, mtime: null }));
  return io.then(status, ({ data, mtime }) => {
    const meta = metaPath == null ? null : io.guard(() => io.readFile(String(metaPath)), () => null);
    return io.then(meta, (metaData) => {
      const present = io.guard(() => io.then(io.stat(String(worktree)), (s) => s.isDirectory()), () => false);
      return io.then(present, (worktreePresent) => {
        const facts = {
          status_file_mod_time: mtime,
          tmux_active: Boolean(tmuxActive),
          worktree_present: worktreePresent,
        };
        return agency.buildSnapshot(data, metaData, facts, now ?? Date.now(), thresholdMs ?? null);
      });
    });
  });
});

/**
 * writeProtocolDocument(repoRoot): `agency init`'s CLAUDE.md, written only when nothing of
 * that name exists: "created" | "exists". The complete, fsynced temp file is hard-linked into
 * place, which fails when the name is taken, so a racing creator is never overwritten; where
 * links are not supported, an exclusive create (`wx`). The temp file is always removed.
 */
both("writeProtocolDocument", (io, repoRoot) => {
  const root = String(repoRoot);
  const target = path.join(root, PROTOCOL_FILE);
  const text = agency.protocolDocument();
  const exists = io.guard(() => io.then(io.lstat(target), () => true), ifMissing(false));
  return io.then(exists, (taken) => {
    if (taken) return "exists";
    const temp = path.join(root, `.${PROTOCOL_FILE}.tmp-${crypto.randomBytes(16).toString("hex")}`);
    const exclusive = () => io.guard(() => io.then(io.writeNew(target, text), () => "created"), ifExists("exists"));
    const linked = () =>
      io.guard(
        () => io.then(io.link(temp, target), () => "created"),
        (error) => (error.code === "EEXIST" ? "exists" : exclusive()),
      );
    return io.always(
      () => io.then(io.writeNew(temp, text), linked),
      () => io.guard(() => io.unlink(temp), ifMissing(undefined)),
    );
  });
});

module.exports = { KIND, DEFAULT_STALL_THRESHOLD_MS, statusPath, ...ops };
