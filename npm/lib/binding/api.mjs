// The JS layer of statecore, written once for every entry point and every operation: it runs
// the operation table of lib/generated/generated.mjs (generated from the core's table by
// `cargo run -p xtask -- codegen`), so no operation is written out here. lib/binding/web-init.mjs
// imports this file; lib/binding/core-node-load.cjs requires dist/node/api.cjs, the CommonJS copy
// scripts/build-wasm.sh writes from lib/generated/generated.mjs, lib/binding/convert.mjs and this file
// (build/cjs-from-esm.mjs).
// Keep it free of other imports and use only top-level `export <declaration>`.
//
// It converts arguments (lib/binding/convert.mjs: JS values -> one checked JSON text per call, text ->
// UTF-8 bytes),
// calls the wasm binding once per operation (bindings-wasm: `call`, `update`, `query`; `startJob` for a row that starts a job), parses
// results with JSON.parse (so a "__proto__" key stays an own data property) and turns the
// binding's error records into error classes. No protocol rule lives here.

import { argsJson, bytes, decode, placeBigInt, updateResult, wire } from "./convert.mjs";
import { CLASS_OF_CODE, CONSTANTS, ERROR_CLASS_BY_NAME, KIND_PROTOCOL, OPS, RESIDENT, StatecoreError, UsageError } from "../generated/generated.mjs";

// ---------------------------------------------------------------------------------------
// Errors (docs/api.md § Errors)

// By the generated literal names: a minifier renames the classes themselves.
const CLASS_BY_NAME = new Map(Object.entries(ERROR_CLASS_BY_NAME));

/**
 * The error object for a record `{name, code, path, message, details}` (the shape the core
 * reports): the class named by `name`, else the class of `code`, else `StatecoreError`.
 */
export function errorFromRecord(record) {
  const r = record !== null && typeof record === "object" ? record : {};
  const Class =
    CLASS_BY_NAME.get(r.name) ?? CLASS_BY_NAME.get(CLASS_OF_CODE[r.code]) ?? StatecoreError;
  return new Class(typeof r.message === "string" ? r.message : String(r.code), {
    code: r.code,
    path: r.path,
    details: r.details,
  });
}

/** The JS names of the binding's exports a module may lack (the browser's module). */
const ROUTINE_OF = { update: "updateFile", update_logged: "updateLogged", LogReplay: "logReplay", Document: "openDocument and residentDocument" };

/**
 * `module[name]`, or a UsageError E_UNAVAILABLE when the module has not got it: the browser's
 * module (statecore-js/web) reads documents; it does not write files or keep them resident.
 */
function need(module, name) {
  const found = module[name];
  if (typeof found === "function") return found;
  const what = ROUTINE_OF[name] ?? name;
  throw errorFromRecord({
    code: "E_UNAVAILABLE",
    message: `${what} is not in the browser's module, which has only what a page uses (validation, reading documents, the protocol views and derivations): use the Node entry`,
    details: { op: what },
  });
}

// ---------------------------------------------------------------------------------------
// The API

/**
 * Builds the public API over the raw wasm-bindgen module: one function per operation of the
 * table (namespaces `machine`, `fctry`, `hivemind`, `agency`), and the one-crossing file
 * routines `updateFile` / `queryFile` the host layer uses. `getRaw(protocol)` returns the raw
 * module for a call of that protocol (null: a generic call; no argument: every loaded module
 * at once, for the big-integer mode), or throws (before the browser's modules are loaded).
 */
export function makeApi(getRaw) {
  /** Runs `thunk` (a call of the binding), turning its error records into error classes. */
  const guard = (thunk) => {
    try {
      return thunk();
    } catch (e) {
      if (typeof e !== "string") throw e;
      let record;
      try {
        record = JSON.parse(e);
      } catch {
        throw new StatecoreError(e);
      }
      throw errorFromRecord(record);
    }
  };
  /**
   * Calls a raw function of the binding, in the module of `protocol` (the browser loads a
   * module per protocol; null: a generic call, any module; Node's one module has them all).
   */
  const rawIn = (protocol, name, ...args) => {
    const module = getRaw(protocol);
    const fn = need(module, name);
    return guard(() => fn.apply(module, args));
  };
  /** The protocol of a document kind's name (null: none, or not a kind). */
  const protocolOf = (kind) => (typeof kind === "string" && Object.hasOwn(KIND_PROTOCOL, kind) ? KIND_PROTOCOL[kind] : null);
  /**
   * A job of the native module (`[handle, its first step's JSON]`) as the API gives it:
   * `first`, `next(answer, bytes?)` (the step after the one answered; `bytes`: read doing it,
   * for a step that asks for them) and `free()`.
   */
  const driven = ([handle, firstText]) => ({
    first: JSON.parse(firstText),
    next: (answer, data) =>
      JSON.parse(guard(() => handle.next(JSON.stringify(answer), data === undefined || data === null ? undefined : bytes(data, "bytes")))),
    free: () => handle.free(),
  });
  const byName = new Map();
  const api = {};
  for (const [module, name, op, params, form, fromFile, protocol, kindAt] of OPS) {
    byName.set(op, { params, form, fromFile });
    const fn = (...args) => {
      const { json, slots, clock } = wire(params, args);
      const at = protocol ?? (kindAt >= 0 ? protocolOf(args[kindAt]) : null);
      // A row that starts a job (docs/locking.md § The lock as a job) gives the job; the
      // browser's module has none, and its `call` refuses the row by name (E_UNAVAILABLE).
      const job = form === "job" && typeof getRaw(at).startJob === "function";
      const out = rawIn(at, job ? "startJob" : "call", op, json, slots[0], slots[1], clock ? Date.now() : undefined);
      return job ? driven(out) : decode(out, form, slots[0]);
    };
    if (module === "") api[name] = fn;
    else (api[module] ??= {})[name] = fn;
  }
  for (const [module] of OPS) if (module !== "") Object.freeze(api[module]);

  /**
   * One crossing per file update (docs/architecture.md): `change` is "" (replace with
   * `args[0]`), "merge" (`args` = [patch, options]) or a writer of the table (`args`: its
   * arguments after the document).
   */
  api.updateFile = (kind, change, data, args, options = {}) => {
    const entry = byName.get(change === "" ? "merge" : change) ?? { params: [], fromFile: 1 };
    const { json, slots } = wire(entry.params, args ?? [], entry.fromFile ?? 1);
    const { now = null, ifMatch = null, reset = false } = options ?? {};
    const out = rawIn(
      protocolOf(kind),
      "update",
      String(kind),
      String(change),
      data === null || data === undefined ? undefined : bytes(data, "data"),
      json,
      slots[0],
      argsJson([now ?? Date.now()], ["now"]),
      ifMatch ?? undefined,
      reset === true,
    );
    // A text format's document: the new text read as `kind` (what any reader of it gets).
    return updateResult(out, (text) => api.loadDocument(kind, text).document);
  };

  /**
   * The locked update of the file `path` (absolute) as one job of the core (docs/locking.md §
   * The update as one job): the change, its `args` and `options` as `updateFile` takes them;
   * `waiter` the core's `UpdateWaiter` (`{identity, probe, watching, timeout_ms,
   * with_document, numbers, now_ms, mono_ms}`); `seed` 16 random bytes. A job as the table's
   * job rows give it (`first`, `next`, `free`). Without `now`, the clock the host read with
   * the file's bytes, under the lock, stamps the change.
   */
  api.updateJob = (kind, change, path, args, options, waiter, seed) => {
    const entry = byName.get(change === "" ? "merge" : change) ?? { params: [], fromFile: 1 };
    const { json, slots } = wire(entry.params, args ?? [], entry.fromFile ?? 1);
    const { now = null, ifMatch = null, reset = false } = options ?? {};
    return driven(
      rawIn(
        protocolOf(kind),
        "updateJob",
        String(kind),
        String(change),
        String(path),
        json,
        slots[0],
        argsJson([now], ["now"]),
        ifMatch ?? undefined,
        reset === true,
        JSON.stringify(waiter),
        bytes(seed, "seed"),
      ),
    );
  };

  /**
   * An update job's last step (`{do: "done", etag, changed, warnings, corrupt_copy, result?,
   * <extra>?, text, text_is_document}`) as an update's result: `{document, etag, changed,
   * result?, <extra>?, warnings, corruptCopy}`, the document read from the text (its JSON, or
   * a text format's reading as `kind`; with `bigint`, integers no double holds as `BigInt`s).
   */
  api.updateOutcome = (kind, done, bigint = false) => {
    const { do: _step, text, text_is_document: json, warnings, corrupt_copy: corruptCopy, ...fields } = done;
    const read = json ? () => api.parse(text) : () => api.loadDocument(kind, text).document;
    const document = bigint ? api.withBigInts(read) : json ? JSON.parse(text) : read();
    return { document, ...fields, warnings, corruptCopy };
  };

  /**
   * One crossing per step of a file kept with its event log (a hive session, docs/hive.md §
   * Files): `change` is a step of the table ("" for a read) with `args` after the state;
   * `data` the state's bytes, `logSize` the log's length, `sessionId` the directory's name;
   * options `{now, eventId}` (`eventId`: the step's unique id, written into its line).
   */
  api.updateLogged = (kind, sessionId, change, data, logSize, args, options = {}) => {
    const entry = byName.get(change) ?? { params: [], fromFile: 1 };
    const { json, slots } = wire(entry.params, args ?? [], entry.fromFile ?? 1);
    const { now = null, eventId = null } = options ?? {};
    const out = rawIn(
      protocolOf(kind),
      "update_logged",
      String(kind),
      String(sessionId),
      String(change),
      data === null || data === undefined ? undefined : bytes(data, "data"),
      logSize,
      json,
      slots[0],
      argsJson([now ?? Date.now()], ["now"]),
      eventId === null || eventId === undefined ? undefined : String(eventId),
    );
    return updateResult(out);
  };

  /**
   * A replay of a session's log from byte `offset` onto the state in `data` (null, or
   * `corrupt`: from nothing): `feed(chunk)` the log's bytes, then `commit(change, args,
   * {now, eventId})` as `updateLogged` (the replay is then freed).
   */
  api.logReplay = (kind, sessionId, data, offset, corrupt) => {
    const LogReplay = need(getRaw(), "LogReplay");
    const file = data === null || data === undefined ? undefined : bytes(data, "data");
    const handle = guard(() => new LogReplay(String(kind), String(sessionId), file, offset, corrupt === true));
    return {
      feed: (chunk) => guard(() => handle.feed(bytes(chunk, "chunk"))),
      commit(change, args, options = {}) {
        try {
          const entry = byName.get(change) ?? { params: [], fromFile: 1 };
          const { json, slots } = wire(entry.params, args ?? [], entry.fromFile ?? 1);
          const now = options?.now ?? null;
          const id = options?.eventId ?? undefined;
          const clock = argsJson([now ?? Date.now()], ["now"]);
          return updateResult(
            guard(() => handle.commit(String(change), json, slots[0], clock, id === undefined ? undefined : String(id))),
          );
        } finally {
          handle.free();
        }
      },
    };
  };

  /** One crossing per file read: a reader of the table on the file's document (or bytes). */
  api.queryFile = (kind, op, data, args) => {
    const entry = byName.get(op) ?? { params: [], form: "json" };
    const { json, slots, clock } = wire(entry.params, args ?? [], 1);
    const file = data === null || data === undefined ? undefined : bytes(data, "data");
    const out = rawIn(protocolOf(kind), "query", String(kind), String(op), file, json, slots[0], clock ? Date.now() : undefined);
    return decode(out, entry.form, file);
  };

  /**
   * Runs `fn` (calls of this API, synchronous) in big-integer mode: an integer no double
   * holds comes back as a `BigInt` at its place in the result instead of `E_PRECISION`.
   */
  api.withBigInts = (fn) => {
    const module = getRaw();
    module.set_big_ints(true);
    try {
      let result = fn();
      for (const [pointer, text] of JSON.parse(module.take_big_ints())) {
        if (pointer === "") result = BigInt(text);
        else placeBigInt(result, pointer, text);
      }
      return result;
    } finally {
      module.set_big_ints(false);
    }
  };

  /** The hosts' constants (lock lease, stall threshold, ...), declared once in the core. */
  api.CONSTANTS = CONSTANTS;
  Object.assign(api, residentApi(getRaw, guard, byName));
  return api;
}

// ---------------------------------------------------------------------------------------
// Resident documents (docs/api.md § Resident documents)

/** The wasm handle of a resident document (a symbol: not an enumerable field). */
const HANDLE = Symbol("statecore.handle");
/** The handle, checked not to be freed. */
const HANDLE_OF = Symbol("statecore.handleOf");

/**
 * `Document` (the base class of resident documents), one subclass per kind with the kind's
 * writers and readers as methods (`RESIDENT`, generated from the table), `openDocument` and
 * `residentDocument`.
 */
function residentApi(getRaw, guard, byName) {
  const freed = new WeakSet();
  /** A document kept in wasm memory between calls. */
  class Document {
    /** Not public: `openDocument` and `residentDocument` make documents. */
    constructor(handle) {
      if (!(handle instanceof need(getRaw(), "Document"))) {
        throw new StatecoreError("use openDocument(kind, data) or residentDocument(kind, document)", {
          code: "E_ARGUMENT",
        });
      }
      Object.defineProperty(this, HANDLE, { value: handle });
    }
    /** The wasm handle (a UsageError once freed). */
    get [HANDLE_OF]() {
      if (freed.has(this)) {
        throw new UsageError("this document was freed: open or make it again", { code: "E_ARGUMENT" });
      }
      return this[HANDLE];
    }
    /** Its kind. */
    get kind() {
      return guard(() => this[HANDLE_OF].kind());
    }
    /** The value at a JSON pointer ("": the whole document; null when there is none). */
    get(pointer = "") {
      return JSON.parse(guard(() => this[HANDLE_OF].get(String(pointer))));
    }
    /** The whole document (a copy). */
    toJSON() {
      return this.get("");
    }
    /** Its canonical text. */
    text() {
      return guard(() => this[HANDLE_OF].text());
    }
    /** Its validation report. */
    validate() {
      return JSON.parse(guard(() => this[HANDLE_OF].validate()));
    }
    /** Merges `patch` with `options`, then validates (refused: unchanged, ValidationError). */
    merge(patch, options = null) {
      return change(this, "merge", [patch, options]);
    }
    /** Replaces the document, then validates. */
    replace(document) {
      return change(this, "", [document]);
    }
    /** Runs the change `op` (a writer of the table, by its table name) with its arguments. */
    change(op, ...args) {
      return change(this, String(op), args);
    }
    /** Runs the reader `op` of the table (by its table name) with its arguments. */
    query(op, ...args) {
      return query(this, String(op), args);
    }
    /** Releases its memory at once. */
    free() {
      if (!freed.has(this)) this[HANDLE].free();
      freed.add(this);
    }
  }

  /** A change: `op` ("" replace, "merge", or a writer of the table) with `args`. */
  const change = (doc, op, args) => {
    const entry = byName.get(op === "" ? "merge" : op) ?? { params: [] };
    const { json, slots } = wire(entry.params, args, entry.fromFile ?? 1);
    return JSON.parse(guard(() => doc[HANDLE_OF].change(op, json, slots[0], Date.now())));
  };
  /** A reader of the table on the document. */
  const query = (doc, op, args) => {
    const entry = byName.get(op) ?? { params: [], form: "json" };
    const { json, slots, clock } = wire(entry.params, args, 1);
    const out = guard(() => doc[HANDLE_OF].query(op, json, slots[0], clock ? Date.now() : undefined));
    return decode(out, entry.form);
  };

  const classes = new Map();
  for (const [kind, methods] of Object.entries(RESIDENT)) {
    const Kind = class extends Document {};
    const className = kind.split(/[._]/).map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join("");
    Object.defineProperty(Kind, "name", { value: `${className}Document` });
    for (const [name, op, mode] of methods) {
      const run = mode === "change" ? change : query;
      Object.defineProperty(Kind.prototype, name, {
        value: {
          [name](...args) {
            return run(this, op, args);
          },
        }[name],
        writable: true,
        configurable: true,
      });
    }
    classes.set(kind, Kind);
  }
  /** The document class of the handle's kind. */
  const wrap = (handle) => new (classes.get(handle.kind()) ?? Document)(handle);

  return {
    Document,
    /** Reads a file's bytes (null: missing) as a resident document of `kind`. */
    openDocument(kind, data) {
      const file = data === null || data === undefined ? undefined : bytes(data, "data");
      const Raw = need(getRaw(), "Document");
      const handle = guard(() => Raw.open(String(kind), file));
      const meta = JSON.parse(handle.take_opened());
      return { document: wrap(handle), ...meta };
    },
    /** A resident document of `kind` holding `document`. */
    residentDocument(kind, document) {
      const json = argsJson([document], ["document"]);
      const Raw = need(getRaw(), "Document");
      const handle = guard(() => new Raw(String(kind), json));
      return wrap(handle);
    },
  };
}
