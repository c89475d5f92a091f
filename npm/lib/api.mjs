// The JS layer of statecore, written once for every entry point and every operation: it runs
// the operation table of lib/generated.mjs (generated from the core's table by
// `cargo run -p xtask -- codegen`), so no operation is written out here. lib/web-init.mjs
// imports this file; lib/core-node-load.cjs requires dist/node/api.cjs, the CommonJS copy
// scripts/build-wasm.sh writes from this file and lib/generated.mjs (build/cjs-from-esm.mjs).
// Keep it free of other imports and use only top-level `export <declaration>`.
//
// It converts arguments (JS values -> one checked JSON text per call, text -> UTF-8 bytes),
// calls the wasm binding once per operation (bindings-wasm: `call`, `update`, `query`), parses
// results with JSON.parse (so a "__proto__" key stays an own data property) and turns the
// binding's error records into error classes. No protocol rule lives here.

import {
  CLASS_OF_CODE,
  CONSTANTS,
  DataError,
  ERROR_CLASS_BY_NAME,
  LimitError,
  OPS,
  RESIDENT,
  StatecoreError,
  UsageError,
} from "./generated.mjs";

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

// ---------------------------------------------------------------------------------------
// Argument conversion

const encoder = new TextEncoder();
const NOT_JSON = { notJson: true }; // thrown by the replacer; the slow walk finds the path

/**
 * The name of a built-in object JSON.stringify would silently turn into `{}` (or an object of
 * its indices), or null: a `Map`, `Set`, typed array, `RegExp`, `Error`, ... is `E_VALUE`.
 */
function lossyObject(value) {
  if (value instanceof Map) return "Map";
  if (value instanceof Set) return "Set";
  if (value instanceof WeakMap) return "WeakMap";
  if (value instanceof WeakSet) return "WeakSet";
  if (ArrayBuffer.isView(value)) return value.constructor?.name ?? "typed array";
  if (value instanceof ArrayBuffer) return "ArrayBuffer";
  if (value instanceof RegExp) return "RegExp";
  if (value instanceof Error) return "Error";
  if (value instanceof Promise) return "Promise";
  return null;
}

/**
 * A `BigInt`'s place in the JSON text while it is written: a string with a mark drawn at load
 * (no string of the caller's holds it), replaced by the integer's digits once written.
 */
const BIG_MARK = `\u0000statecore-bigint-${Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("")}:`;
/** The mark as JSON.stringify writes it, with the digits after it. */
const BIG_WRITTEN = new RegExp(`"${JSON.stringify(BIG_MARK).slice(1, -1).replace(/\\/g, "\\\\")}(-?[0-9]+)"`, "g");

/**
 * JSON.stringify replacer that refuses every value JSON cannot hold (docs/api.md); a `BigInt`
 * is an exact integer, written with all its digits (`bigintsWritten` then puts them in place).
 */
function strict(key, value) {
  switch (typeof value) {
    case "bigint":
      if (!key.isWellFormed()) throw NOT_JSON;
      return `${BIG_MARK}${value.toString()}`;
    case "string":
      if (!value.isWellFormed()) throw NOT_JSON;
      break;
    case "number":
      if (!Number.isFinite(value)) throw NOT_JSON;
      break;
    case "boolean":
      break;
    case "object":
      if (value instanceof Number || value instanceof String) {
        if (!isJsonPrimitive(value.valueOf())) throw NOT_JSON;
      } else if (value !== null && !Array.isArray(value) && lossyObject(value) !== null) {
        throw NOT_JSON;
      }
      break;
    case "undefined":
      if (Array.isArray(this)) throw NOT_JSON;
      break;
    default: // function, symbol
      throw NOT_JSON;
  }
  if (!key.isWellFormed()) throw NOT_JSON;
  return value;
}

/** JSON text written with `strict`, each `BigInt` as its digits. */
function bigintsWritten(text) {
  return text.includes("statecore-bigint-") ? text.replace(BIG_WRITTEN, "$1") : text;
}

function isJsonPrimitive(v) {
  return typeof v === "string" ? v.isWellFormed() : Number.isFinite(v);
}

function pointerToken(key) {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The first value JSON.stringify + `strict` would refuse, as `{path, message}`, or null.
 * Slow (it keeps an ancestor stack for cycles); only run after a failure.
 */
function findNonJson(root) {
  const ancestors = [];
  const visit = (holder, key, value, path) => {
    if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
      if (typeof value.toJSON === "function") value = value.toJSON(key);
    }
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      value = value.valueOf();
    }
    switch (typeof value) {
      case "string":
        return value.isWellFormed()
          ? null
          : { path, message: "a string with a lone surrogate is not valid Unicode text" };
      case "number":
        return Number.isFinite(value) ? null : { path, message: `${value} is not a JSON number` };
      case "boolean":
        return null;
      case "undefined":
        return Array.isArray(holder)
          ? { path, message: "undefined in an array is not JSON (use null)" }
          : null;
      case "bigint":
        return null; // an exact integer
      case "function":
      case "symbol":
        return { path, message: `a ${typeof value} is not JSON` };
    }
    if (value === null) return null;
    const lossy = Array.isArray(value) ? null : lossyObject(value);
    if (lossy !== null) {
      return { path, message: `a ${lossy} is not JSON (it would be written as {}): convert it to an object or array` };
    }
    if (ancestors.includes(value)) return { path, message: "a cycle: the value contains itself" };
    ancestors.push(value);
    try {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const found = visit(value, String(i), value[i], `${path}/${i}`);
          if (found) return found;
        }
      } else {
        for (const k of Object.keys(value)) {
          const p = `${path}/${pointerToken(k)}`;
          if (!k.isWellFormed()) {
            return { path: p, message: "an object key with a lone surrogate is not valid text" };
          }
          const found = visit(value, k, value[k], p);
          if (found) return found;
        }
      }
    } finally {
      ancestors.pop();
    }
    return null;
  };
  return visit({ "": root }, "", root, "");
}

/**
 * True when `JSON.stringify` writes `value` exactly, with nothing `strict` would refuse: plain
 * objects and arrays (at most 64 deep) of well-formed strings, finite numbers, booleans and
 * null. Such a value is written without the replacer, which makes V8 leave its fast path;
 * anything else, or in doubt, takes the replacer and its errors.
 */
function plainJson(value, depth) {
  switch (typeof value) {
    case "string":
      return value.isWellFormed();
    case "number":
      return Number.isFinite(value);
    case "boolean":
      return true;
    case "object":
      break;
    default: // undefined (an array's hole or item), bigint, function, symbol
      return false;
  }
  if (value === null) return true;
  if (depth > 64) return false;
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return false;
    for (let i = 0; i < value.length; i++) {
      if (!plainJson(value[i], depth + 1)) return false;
    }
    return true;
  }
  const proto = Object.getPrototypeOf(value);
  if ((proto !== Object.prototype && proto !== null) || typeof value.toJSON === "function") return false;
  for (const key of Object.keys(value)) {
    const item = value[key];
    if (!key.isWellFormed() || (item !== undefined && !plainJson(item, depth + 1))) return false;
  }
  return true;
}

/**
 * The JSON text of an argument list, or a DataError (E_VALUE) / LimitError (E_LIMIT) naming
 * the argument (`details.argument`) and the path within it.
 */
function argsJson(values, names) {
  if (plainJson(values, 0)) return JSON.stringify(values);
  try {
    return bigintsWritten(JSON.stringify(values, strict));
  } catch (e) {
    if (e instanceof RangeError) {
      throw new LimitError(`an argument is too deeply nested or too large to convert: ${e.message}`, {
        code: "E_LIMIT",
      });
    }
    if (e !== NOT_JSON && !(e instanceof TypeError)) throw e; // e.g. thrown by a toJSON()
    let found = null;
    try {
      found = findNonJson(values);
    } catch {
      // the walk itself failed (e.g. stack); report without a path
    }
    if (found === null && e !== NOT_JSON) throw e;
    const [, index = "", rest = ""] = /^\/(\d+)(.*)$/.exec(found ? found.path : "") ?? [];
    const argument = names[Number(index)] ?? "argument";
    throw new DataError(`${argument}: ${found ? found.message : "not a JSON value"}`, {
      code: "E_VALUE",
      path: rest,
      details: { argument },
    });
  }
}

/** A bytes argument: a Uint8Array (Buffer included) as is, or a string as UTF-8. */
function bytes(value, name) {
  if (value instanceof Uint8Array) return value;
  if (typeof value !== "string") {
    throw new DataError(`${name} must be a string or Uint8Array, not ${typeof value}`, {
      code: "E_VALUE",
      details: { argument: name },
    });
  }
  if (!value.isWellFormed()) {
    throw new DataError(`${name} has a lone surrogate (not valid text)`, {
      code: "E_VALUE",
      details: { argument: name },
    });
  }
  return encoder.encode(value);
}

/** Random bytes from the platform's cryptographic source, for the core to draw ids from. */
function randomBytes() {
  return globalThis.crypto.getRandomValues(new Uint8Array(CONSTANTS.randomBytes));
}

/**
 * The wire form of a call's arguments (bindings-wasm): the JSON text of the argument list,
 * with `null` at the byte parameters, whose bytes travel in `slots` (one per bytes or random
 * parameter); `clock` is true when a `now` parameter was left out.
 */
function wire(params, args, skip = 0) {
  const values = [];
  const names = [];
  const slots = [];
  let clock = false;
  for (let i = skip; i < params.length; i++) {
    const [name, kind, required] = params[i];
    const value = args[i - skip];
    names.push(name);
    if (value === undefined && required && kind === "v") {
      throw new DataError(`${name}: undefined is not JSON`, { code: "E_VALUE", details: { argument: name } });
    }
    if (kind === "b") {
      values.push(null);
      slots.push(value === null || value === undefined ? undefined : bytes(value, name));
    } else if (kind === "r") {
      const given = typeof value === "string";
      values.push(given ? value : null);
      slots.push(given ? undefined : value instanceof Uint8Array ? value : randomBytes());
    } else {
      if (kind === "n" && (value === null || value === undefined)) clock = true;
      values.push(value === undefined ? null : value);
    }
  }
  for (let i = params.length - skip; i < args.length; i++) {
    if (args[i] !== undefined) values.push(args[i]); // too many: the core says so
  }
  return { json: argsJson(values, names), slots, clock };
}

function decode(out, form, source) {
  if (form === "json") return JSON.parse(out);
  if (form === "text") return out;
  if (form === "update") return updateResult(out);
  if (form === "loaded") return loadedResult(out, source);
  return undefined;
}

const utf8 = new TextDecoder(); // UTF-8; a leading BOM is dropped, as the core's parser does

/**
 * `{document, ...fields}` whose `document` is parsed from the JSON text `json` when it is
 * first read (then kept; assigning it replaces it): a caller that wants the text, the etag or
 * the report only does not pay for building the objects. `json` is a string, so what is
 * parsed later is what the core checked now.
 */
function withDocument(json, fields) {
  return lazyDocument(() => JSON.parse(json), fields);
}

/** `{document, ...fields}` whose `document` is `produce()` when it is first read (then kept). */
function lazyDocument(produce, fields) {
  let document;
  let made = false;
  return {
    get document() {
      if (!made) {
        document = produce();
        made = true;
      }
      return document;
    },
    set document(value) {
      document = value;
      made = true;
    },
    ...fields,
  };
}

/**
 * A reader's result as the binding sends it: `=` and the compact JSON of its fields but the
 * document, when the document is the bytes' own JSON (`source`, the bytes passed in: decoded
 * now and parsed on first read, as the core read them); else `+`, the fields, a newline and
 * the document.
 */
function loadedResult(out, source) {
  if (out.startsWith("=")) {
    return withDocument(utf8.decode(source), JSON.parse(out.slice(1)));
  }
  const cut = out.indexOf("\n");
  return withDocument(out.slice(cut + 1), JSON.parse(out.slice(1, cut)));
}

/**
 * An update result as the binding sends it: the compact JSON of its fields but the document
 * and its text, a newline, then the canonical text, from which the document is parsed when it
 * is first read. For a text format: with `~` in front, the document's JSON comes before the
 * text; with `^`, the document is not sent and `readText(text)` (the text read as its kind)
 * makes it when it is first read.
 */
function updateResult(out, readText) {
  if (out.startsWith("^")) {
    // A text format (index.md) whose document is the text's reading, made when first read.
    const cut = out.indexOf("\n");
    const text = out.slice(cut + 1);
    return lazyDocument(() => readText(text), { text, ...JSON.parse(out.slice(1, cut)) });
  }
  if (out.startsWith("~")) {
    // A text format (index.md): the fields, the document's JSON, then the text.
    const first = out.indexOf("\n");
    const second = out.indexOf("\n", first + 1);
    const text = out.slice(second + 1);
    return withDocument(out.slice(first + 1, second), { text, ...JSON.parse(out.slice(1, first)) });
  }
  const cut = out.indexOf("\n");
  const text = out.slice(cut + 1);
  return withDocument(text, { text, ...JSON.parse(out.slice(0, cut)) });
}

/** Puts `BigInt(text)` at the JSON pointer `pointer` of `root` (which holds a number there). */
function placeBigInt(root, pointer, text) {
  const tokens = pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = tokens.pop();
  let holder = root;
  for (const token of tokens) holder = holder[token];
  // defineProperty: a "__proto__" key stays data
  Object.defineProperty(holder, last, { value: BigInt(text), writable: true, enumerable: true, configurable: true });
}

// ---------------------------------------------------------------------------------------
// The API

/**
 * Builds the public API over the raw wasm-bindgen module: one function per operation of the
 * table (namespaces `machine`, `fctry`, `hivemind`, `agency`), and the one-crossing file
 * routines `updateFile` / `queryFile` the host layer uses. `getRaw()` returns the raw module
 * (or throws, e.g. before the web build is initialised).
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
  /** Calls a raw function of the binding. */
  const raw = (name, ...args) => {
    const module = getRaw();
    return guard(() => module[name](...args));
  };
  const byName = new Map();
  const api = {};
  for (const [module, name, op, params, form, fromFile] of OPS) {
    byName.set(op, { params, form, fromFile });
    const fn = (...args) => {
      const { json, slots, clock } = wire(params, args);
      const out = raw("call", op, json, slots[0], slots[1], clock ? Date.now() : undefined);
      return decode(out, form, slots[0]);
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
    const out = raw(
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
   * One crossing per step of a file kept with its event log (a hive session, docs/hive.md §
   * Files): `change` is a step of the table ("" for a read) with `args` after the state;
   * `data` the state's bytes, `logSize` the log's length, `sessionId` the directory's name;
   * options `{now, eventId}` (`eventId`: the step's unique id, written into its line).
   */
  api.updateLogged = (kind, sessionId, change, data, logSize, args, options = {}) => {
    const entry = byName.get(change) ?? { params: [], fromFile: 1 };
    const { json, slots } = wire(entry.params, args ?? [], entry.fromFile ?? 1);
    const { now = null, eventId = null } = options ?? {};
    const out = raw(
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
    const module = getRaw();
    const file = data === null || data === undefined ? undefined : bytes(data, "data");
    const handle = guard(() => new module.LogReplay(String(kind), String(sessionId), file, offset, corrupt === true));
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
    const out = raw("query", String(kind), String(op), file, json, slots[0], clock ? Date.now() : undefined);
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
      if (!(handle instanceof getRaw().Document)) {
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
      const handle = guard(() => getRaw().Document.open(String(kind), file));
      const meta = JSON.parse(handle.take_opened());
      return { document: wrap(handle), ...meta };
    },
    /** A resident document of `kind` holding `document`. */
    residentDocument(kind, document) {
      const json = argsJson([document], ["document"]);
      const handle = guard(() => new (getRaw().Document)(String(kind), json));
      return wrap(handle);
    },
  };
}
