"use strict";
/**
 * The protocol helpers (`statecore-js/fctry`, `statecore-js/hivemind`, `statecore-js/agency`), built
 * from the generated table (lib/generated/generated.mjs `HELPERS`): each protocol file gets
 * `<name>Path`, `read<Name>`, `write<Name>` (replace) and `update<Name>` (a patch merged the
 * protocol's way, or a function); each operation of the table that reads or writes one of its
 * files gets a helper of the same name on a directory: a writer is one locked update in one
 * crossing (lib/host/documents.cjs), a reader one read. Each exists as `name` (a Promise) and
 * `nameSync`. No operation is written out here.
 */
const path = require("node:path");
const { define } = require("./steps.cjs");
const { HELPERS, OPS } = require("../binding/tables.cjs");
const documents = require("./documents.cjs");
const sessions = require("./sessions.cjs");
const { resolvePath } = require("./paths.cjs");

const capital = (name) => name.charAt(0).toUpperCase() + name.slice(1);

/**
 * `options` without `store`, and the store and key of the file (`parts` below `dir`, a key
 * prefix: `storeFileKey`) when they name one (docs/store.md).
 */
function inStore(dir, parts, options) {
  const { store, ...rest } = options ?? {};
  if (store === undefined || store === null) return { rest: options };
  const { FileStore, PostgresStore } = require("../store/store.cjs");
  if (!(store instanceof FileStore || store instanceof PostgresStore)) {
    throw new TypeError("store must be a FileStore or a PostgresStore");
  }
  return { store, key: documents.core().storeFileKey(String(dir), parts), rest };
}

/**
 * A reader's options: `store`, and `now` for a reader whose answer depends on the time
 * (`withNow`; `E_OPTIONS` for any other key).
 */
function readerStore(dir, parts, options, withNow) {
  const found = inStore(dir, parts, options);
  const [extra] = Object.keys(found.store ? found.rest : (options ?? {})).filter((key) => !(withNow && key === "now"));
  if (extra !== undefined) {
    const C = documents.core();
    const takes = withNow ? "store and now" : "only store";
    throw new C.UsageError(`unknown option ${JSON.stringify(extra)}: this reader takes ${takes} (docs/store.md)`, {
      code: "E_OPTIONS",
      path: `/${extra}`,
      details: { option: extra },
    });
  }
  return found;
}
const PARAMS = new Map(OPS.map(([, , op, params]) => [op, params]));
/** True when the operation `op` takes the time (`now`). */
const takesNow = (op) => PARAMS.get(op).some(([, kind]) => kind === "n");

/**
 * The arguments of the operation `op` after the `skip` the file supplies: the caller's
 * positional ones in order, `now` and `random` from the options.
 */
function operationArgs(op, skip, positional, options) {
  const args = [];
  let next = 0;
  for (const [, kind] of PARAMS.get(op).slice(skip)) {
    if (kind === "n") args.push(options.now ?? null);
    else if (kind === "r") args.push(options.random ?? null);
    else args.push(positional[next++]);
  }
  return args;
}

/** The helpers of a protocol module (`fctry`, `hivemind`, `agency`). */
function helpers(module) {
  const table = HELPERS[module];
  const out = {};
  const files = new Map();
  for (const [name, kind, parts, patch, log] of table.files) {
    const at = (dir) => path.join(resolvePath(dir, "directory"), ...parts);
    files.set(name, { kind, at, log, parts });
    out[`${name}Path`] = at;
    const cap = capital(name);
    if (log !== null) {
      // Kept with its event log: read with recovery; written by its steps only.
      define(out, `read${cap}`, function* (io, dir, options) {
        const { store, key, rest } = inStore(dir, parts, options);
        if (store) return yield store.read(key, kind, rest);
        return yield* sessions.read(io, at(dir), log, kind, documents.checkOptions("logged", options));
      });
      continue;
    }
    define(out, `read${cap}`, function* (io, dir, options) {
      const { store, key } = readerStore(dir, parts, options);
      if (store) return yield store.read(key, kind);
      return documents.core().loadDocument(kind, yield io.read(at(dir), documents.READ_CAP));
    });
    define(out, `write${cap}`, function* (io, dir, document, options) {
      const { store, key, rest } = inStore(dir, parts, options);
      if (store) return yield store.change(key, kind, "", [document], rest);
      const checked = documents.checkOptions("update", options);
      const file = at(dir);
      return yield* documents.inDirectory(io, file, documents.update(io, file, kind, "", [document], checked));
    });
    define(out, `update${cap}`, function* (io, dir, patchOrFunction, options) {
      const { store, key, rest } = inStore(dir, parts, options);
      if (store) {
        return yield typeof patchOrFunction === "function"
          ? store.update(key, kind, patchOrFunction, null, rest)
          : store.change(key, kind, "merge", [patchOrFunction, patch], rest);
      }
      const checked = documents.checkOptions("update", options);
      const file = at(dir);
      const routine =
        typeof patchOrFunction === "function"
          ? documents.updateWith(io, file, kind, patchOrFunction, checked)
          : documents.update(io, file, kind, "merge", [patchOrFunction, patch], checked);
      return yield* documents.inDirectory(io, file, routine);
    });
  }
  for (const [name, op, fileName, mode, params, random, skip] of table.ops) {
    const { kind, at, log, parts } = files.get(fileName);
    define(out, name, function* (io, dir, ...rest) {
      const positional = rest.slice(0, params.length);
      const file = at(dir);
      if (mode === "write") {
        const { store, key, rest: options } = inStore(dir, parts, rest[params.length]);
        if (store) {
          const set = log === null ? "update" : "logged";
          const checked = documents.checkOptions(set, options, random ? ["random"] : []);
          const { random: drawn, ...hostOptions } = checked;
          return yield store.change(key, kind, op, operationArgs(op, skip, positional, checked), hostOptions);
        }
      } else {
        const given = rest[params.length];
        const { store, key } = readerStore(dir, parts, given, takesNow(op));
        const read = { now: given?.now ?? null };
        if (store) return yield store.query(key, kind, op, operationArgs(op, skip, positional, read));
      }
      if (log !== null && mode === "write") {
        const options = documents.checkOptions("logged", rest[params.length]);
        const args = operationArgs(op, skip, positional, options);
        return yield* sessions.step(io, file, log, kind, op, args, options);
      }
      // A reader: `now` (given, or the clock) and `random` in their places among the arguments.
      const args = operationArgs(op, skip, positional, { now: rest[params.length]?.now ?? null });
      if (log !== null) {
        const read = yield* sessions.read(io, file, log, kind, {});
        return documents.core().queryFile(kind, op, read[sessions.TEXT], args);
      }
      if (mode === "write") {
        const options = documents.checkOptions("update", rest[params.length], random ? ["random"] : []);
        const args = operationArgs(op, skip, positional, options);
        return yield* documents.inDirectory(io, file, documents.update(io, file, kind, op, args, options));
      }
      return documents.core().queryFile(kind, op, yield io.read(file, documents.READ_CAP), args);
    });
  }
  return out;
}

module.exports = { helpers, inStore };
