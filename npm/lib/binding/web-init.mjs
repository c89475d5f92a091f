// The browser entry's loading (docs/api.md § The browser's modules): `await init()` once
// (explicit, no top-level await) loads the combined module (every protocol); `await
// init({ protocols: ["agency"] })` or `await load("agency")` loads only a protocol's module
// (the generic base plus that protocol: a fraction of the combined one). Each module is its
// glue (lib/generated/web-modules.mjs, generated: imported only when loaded) and its wasm, fetched
// beside the glue unless an input is given (a URL, Response, bytes or a WebAssembly.Module).
// A call before any module is loaded throws a StatecoreError E_NOT_INITIALIZED naming what to
// load; a call of a protocol whose module is not loaded raises the core's UsageError
// E_UNAVAILABLE naming it. lib/generated/web.mjs (generated) exports the API's names.
import { makeApi } from "./api.mjs";
import { PROTOCOLS, StatecoreError, UsageError } from "../generated/generated.mjs";
import { byProtocol, combined } from "../generated/web-modules.mjs";

/** The name of the combined module in `loaded()`. */
const ALL = "all";
/** The loaded modules' raw exports, by name (a protocol, or ALL), in the order loaded. */
const modules = new Map();
/** The loads under way or done, by name (concurrent calls share one). */
const pending = new Map();

function loadModule(name, input) {
  let promise = pending.get(name);
  if (!promise) {
    promise = (async () => {
      const glue = await (name === ALL ? combined() : byProtocol[name]());
      await glue.default(input === undefined ? undefined : { module_or_path: input });
      modules.set(name, glue);
    })();
    promise.catch(() => pending.delete(name)); // allow a retry
    pending.set(name, promise);
  }
  return promise;
}

/** A UsageError E_ARGUMENT for what is not a protocol's name. */
function notAProtocol(name) {
  return new UsageError(`unknown protocol ${JSON.stringify(name)}; the protocols are ${PROTOCOLS.join(", ")}`, {
    code: "E_ARGUMENT",
    path: "",
    details: { protocol: name, known: [...PROTOCOLS] },
  });
}

/**
 * Loads one protocol's module (idempotent; concurrent calls share one load).
 * @param {string} protocol one of PROTOCOLS
 * @param {RequestInfo | URL | Response | BufferSource | WebAssembly.Module} [input]
 */
export async function load(protocol, input) {
  if (typeof protocol !== "string" || !PROTOCOLS.includes(protocol)) throw notAProtocol(protocol);
  await loadModule(protocol, input);
}

/**
 * Loads the combined module (`init()`, `init(input)`), or only some protocols' modules
 * (`init({ protocols: [...], input: { agency: url } })`). Idempotent.
 */
export default async function init(input) {
  const options = input !== null && typeof input === "object" && Object.getPrototypeOf(input) === Object.prototype;
  if (!options) {
    await loadModule(ALL, input);
    return;
  }
  for (const key of Object.keys(input)) {
    if (key !== "protocols" && key !== "input") {
      throw new UsageError(`unknown option ${JSON.stringify(key)} of init; the options are protocols, input`, {
        code: "E_ARGUMENT",
        path: key,
        details: { option: key, known: ["protocols", "input"] },
      });
    }
  }
  const { protocols, input: inputs = {} } = input;
  if (!Array.isArray(protocols)) {
    throw new UsageError("init's option protocols must be a list of protocol names", { code: "E_ARGUMENT", path: "protocols" });
  }
  for (const protocol of protocols) if (typeof protocol !== "string" || !PROTOCOLS.includes(protocol)) throw notAProtocol(protocol);
  for (const key of Object.keys(inputs ?? {})) if (!protocols.includes(key)) throw notAProtocol(key);
  await Promise.all(protocols.map((protocol) => loadModule(protocol, inputs?.[protocol])));
}

/** The modules loaded so far: protocol names, and "all" for the combined module. */
export function loaded() {
  return [...modules.keys()];
}

/** E_NOT_INITIALIZED: nothing loaded yet (naming the protocol's module a call needs). */
function notInitialized(protocol) {
  const what = protocol
    ? `call \`await load(${JSON.stringify(protocol)})\` (the ${protocol} module) or \`await init()\` (every protocol) first`
    : "call `await init()` (or `await load(protocol)`) first";
  return new StatecoreError(`statecore is not initialized: ${what}`, {
    code: "E_NOT_INITIALIZED",
    details: protocol ? { protocol } : {},
  });
}

/** Every loaded module at once: the big-integer mode is set on each, its findings joined. */
const everyModule = {
  set_big_ints(on) {
    for (const module of modules.values()) module.set_big_ints(on);
  },
  take_big_ints() {
    const found = [];
    for (const module of modules.values()) found.push(...JSON.parse(module.take_big_ints()));
    return JSON.stringify(found);
  },
};

/**
 * The module for a call of `protocol` (null: a generic call): the combined module when
 * loaded, else the protocol's, else any (whose core raises E_UNAVAILABLE naming the module to
 * load). A generic call that reaches a protocol through its arguments (a file's path) and is
 * refused by one module for it is run again in that protocol's module when it is loaded.
 */
function pick(protocol) {
  if (protocol === undefined) {
    if (modules.size === 0) throw notInitialized(null);
    return everyModule;
  }
  const module = modules.get(ALL) ?? (protocol === null ? undefined : modules.get(protocol));
  if (module) return module;
  const first = modules.values().next().value;
  if (!first) throw notInitialized(protocol);
  return protocol === null ? rerouting(first) : first;
}

/** `module` whose `call` and `query` run again in the protocol module their refusal names. */
const reroutes = new WeakMap();
function rerouting(module) {
  let wrapped = reroutes.get(module);
  if (!wrapped) {
    const again = (name) =>
      function (...args) {
        try {
          return module[name](...args);
        } catch (e) {
          const other = typeof e === "string" ? unavailableIn(e) : undefined;
          if (!other) throw e;
          return other[name](...args);
        }
      };
    wrapped = { call: again("call"), query: again("query") };
    reroutes.set(module, wrapped);
  }
  return wrapped;
}

/** The loaded module of the protocol an E_UNAVAILABLE error record names, if any. */
function unavailableIn(text) {
  if (!text.includes('"E_UNAVAILABLE"')) return undefined;
  try {
    const protocol = JSON.parse(text).details?.protocol;
    return typeof protocol === "string" ? modules.get(protocol) : undefined;
  } catch {
    return undefined;
  }
}

/** The API over the loaded modules. */
export const api = makeApi(pick);
