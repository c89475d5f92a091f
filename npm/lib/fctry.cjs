"use strict";
/**
 * `statecore/fctry`: the fctry protocol (docs/fctry.md) over a project's `.fctry/` files,
 * one call per milestone. Every helper is a read (`readDocument`) or a locked update
 * (`updateDocument`) whose update function is the core's pure `fctry.*` operation: no
 * protocol rule lives here. Each writer and query exists as `name` (Promise) and `nameSync`,
 * both generated from the tables below.
 */
const path = require("node:path");
const shared = require("./io.cjs");
const { fctry } = require("./core-node.cjs");

/** The project's documents: file name under `.fctry/` and kind. */
const STATE = { name: "state.json", kind: "fctry.state" };
const INBOX = { name: "inbox.json", kind: "fctry.inbox" };

const fileOf = (projectDir, doc) => path.join(String(projectDir), ".fctry", doc.name);

/** `<projectDir>/.fctry/state.json`. */
const statePath = (projectDir) => fileOf(projectDir, STATE);
/** `<projectDir>/.fctry/inbox.json`. */
const inboxPath = (projectDir) => fileOf(projectDir, INBOX);

/** `updateDocument` host options from our options (undefined = the host's defaults). */
const hostOptions = (options) => ({ now: options.now, timeout: options.timeout, ifMatch: options.ifMatch });

/** A patch is merged the seed's way: top-level fields replaced, `lastUpdated` stamped. */
const PATCH_OPTIONS = Object.freeze({ strategy: "shallow", stamp: Object.freeze({ field: "lastUpdated" }) });

const ops = {};

/** Defines `name` (always a Promise) and `nameSync` from `run(io, ...args)`. */
const both = shared.definer(ops);

/** A locked update of `doc`, creating `.fctry/` first. */
function update(io, projectDir, doc, patchOrFunction, mergeOptions, options) {
  const file = fileOf(projectDir, doc);
  return io.then(io.mkdir(path.dirname(file)), () =>
    io.update(file, doc.kind, patchOrFunction, mergeOptions, hostOptions(options ?? {})),
  );
}

both("readState", (io, projectDir) => io.read(statePath(projectDir), STATE.kind));
both("readInbox", (io, projectDir) => io.read(inboxPath(projectDir), INBOX.kind));
both("updateState", (io, projectDir, patchOrFunction, options) =>
  typeof patchOrFunction === "function"
    ? update(io, projectDir, STATE, patchOrFunction, null, options)
    : update(io, projectDir, STATE, patchOrFunction, PATCH_OPTIONS, options),
);

const now = (o) => [o.now];
/**
 * The locked writers: the pure `fctry` function (same name), its document, how many of its
 * arguments come between `state` and the options, its trailing arguments from the options,
 * and (optionally) what to add to the result.
 */
const WRITERS = [
  ["startCommand", STATE, 1, now],
  ["startStep", STATE, 1, now],
  ["completeStep", STATE, 2, now],
  ["skipPrerequisites", STATE, 2, now],
  ["addUntrackedChange", STATE, 1, now],
  ["clearUntrackedChanges", STATE, 1, now],
  ["createBuildRun", STATE, 1, now],
  ["chunkEvent", STATE, 2, now],
  ["pauseBuildRun", STATE, 1, now],
  ["resumeBuildRun", STATE, 0, now],
  ["finishBuildRun", STATE, 0, now],
  ["inboxAdd", INBOX, 2, (o) => [o.now, o.random], (r) => ({ ...r, item: r.document[0] })],
  ["inboxTransition", INBOX, 2, () => []],
  ["inboxDismiss", INBOX, 1, () => []],
  ["inboxBatch", INBOX, 1, () => []],
];

for (const [name, doc, arity, tail, extend] of WRITERS) {
  both(name, (io, projectDir, ...rest) => {
    // Positional: omitted optional arguments are undefined, the options always come last.
    const args = Array.from({ length: arity }, (_, i) => rest[i]);
    const options = rest[arity] ?? {};
    const apply = (current) => fctry[name](current, ...args, ...tail(options));
    const result = update(io, projectDir, doc, apply, null, options);
    return extend ? io.then(result, extend) : result;
  });
}

/** The read-only queries: the pure `fctry` function applied to the state file's document. */
const QUERIES = ["checkPrerequisites", "statusLine", "resumePlan", "readyChunks"];

for (const name of QUERIES) {
  both(name, (io, projectDir, ...args) =>
    io.then(io.read(statePath(projectDir), STATE.kind), (read) => fctry[name](read.document, ...args)),
  );
}

module.exports = { statePath, inboxPath, ...ops };
