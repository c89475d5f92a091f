// Argument conversion of the JS layer (lib/binding/api.mjs): JS values -> one checked JSON text per
// call (a path to the first value JSON cannot hold; a BigInt as its exact digits), text ->
// UTF-8 bytes, and the results back (a document parsed once, lazily; BigInts put back where a
// number no double holds was). Part of the JS layer's CommonJS copy (build/cjs-from-esm.mjs):
// keep it free of other imports and use only top-level `export <declaration>`.
import { CONSTANTS, DataError, LimitError } from "../generated/generated.mjs";

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
 * A `BigInt`'s place in the JSON text while it is written: a string with a mark drawn when the
 * first `BigInt` is written (no string of the caller's holds it), replaced by the integer's
 * digits once written; with the pattern that finds the mark as JSON.stringify writes it, with
 * the digits after it. Drawn then, not at load: the platform's random source costs a program
 * that never writes a `BigInt` about 2 ms of its start.
 */
let bigMark = null;

/** The `BigInt` mark and its written pattern (drawn on first use). */
function bigMarks() {
  if (bigMark === null) {
    const hex = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0"));
    const mark = `\u0000statecore-bigint-${hex.join("")}:`;
    const written = new RegExp(`"${JSON.stringify(mark).slice(1, -1).replace(/\\/g, "\\\\")}(-?[0-9]+)"`, "g");
    bigMark = { mark, written };
  }
  return bigMark;
}

/**
 * JSON.stringify replacer that refuses every value JSON cannot hold (docs/api.md); a `BigInt`
 * is an exact integer, written with all its digits (`bigintsWritten` then puts them in place).
 */
function strict(key, value) {
  switch (typeof value) {
    case "bigint":
      if (!key.isWellFormed()) throw NOT_JSON;
      return `${bigMarks().mark}${value.toString()}`;
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
  // No mark drawn yet: no `BigInt` was written, whatever the caller's strings hold.
  return bigMark !== null && text.includes("statecore-bigint-") ? text.replace(bigMark.written, "$1") : text;
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
export function argsJson(values, names) {
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
export function bytes(value, name) {
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
export function wire(params, args, skip = 0) {
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

export function decode(out, form, source) {
  if (form === "json") return JSON.parse(out);
  if (form === "text") return out;
  if (form === "update") return updateResult(out);
  if (form === "loaded") return loadedResult(out, source);
  return undefined;
}

const utf8 = new TextDecoder(); // UTF-8; a leading BOM is dropped, as the core's parser does

/**
 * Where a lazy result keeps its document until it is read: the JSON text to parse, a function
 * that makes it, or `{value}` once made or assigned. A symbol key, not enumerable: spreading
 * or writing the result as JSON reads `document` through its getter and leaves this out.
 */
const PENDING = Symbol("statecore.document");

/**
 * The accessor every lazy result shares (one descriptor, no closures per result: a getter
 * and setter made per result, in an object literal, made V8 promote each result and its
 * document to the old generation, and a loop of reads spent more time collecting them than
 * parsing).
 */
const DOCUMENT = {
  get() {
    const pending = this[PENDING];
    if (pending === undefined) return undefined;
    if (typeof pending === "object") return pending.value;
    const value = typeof pending === "string" ? JSON.parse(pending) : pending();
    this[PENDING] = { value };
    return value;
  },
  set(value) {
    Object.defineProperty(this, PENDING, { value: { value }, writable: true });
  },
  enumerable: true,
  configurable: true,
};

/**
 * `{document, ...fields}` whose `document` is made from `pending` (a JSON text, parsed, or a
 * function, called) when it is first read, then kept; assigning it replaces it. A caller that
 * wants the text, the etag or the report only does not pay for building the objects. A text
 * is a string, so what is parsed later is what the core checked now.
 */
function withDocument(pending, fields) {
  const result = {};
  Object.defineProperty(result, "document", DOCUMENT);
  Object.defineProperty(result, PENDING, { value: pending, writable: true });
  return Object.assign(result, fields);
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
export function updateResult(out, readText) {
  if (out.startsWith("^")) {
    // A text format (index.md) whose document is the text's reading, made when first read.
    const cut = out.indexOf("\n");
    const text = out.slice(cut + 1);
    return withDocument(() => readText(text), { text, ...JSON.parse(out.slice(1, cut)) });
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
export function placeBigInt(root, pointer, text) {
  const tokens = pointer.split("/").slice(1).map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
  const last = tokens.pop();
  let holder = root;
  for (const token of tokens) holder = holder[token];
  // defineProperty: a "__proto__" key stays data
  Object.defineProperty(holder, last, { value: BigInt(text), writable: true, enumerable: true, configurable: true });
}
