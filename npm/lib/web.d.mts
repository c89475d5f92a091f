// Types of `statecore-js/web` (an ES module, hence .d.mts): the pure API after `await init()`.
export * from "./core.js";

/** What `init` can load the wasm module from (default: `statecore_bg.wasm` beside the glue). */
export type InitInput =
  | RequestInfo
  | URL
  | Response
  | BufferSource
  | WebAssembly.Module
  | Promise<RequestInfo | URL | Response | BufferSource | WebAssembly.Module>;

/** Loads and instantiates the wasm module (idempotent). Call it before anything else. */
export declare function init(input?: InitInput): Promise<void>;
export default init;
