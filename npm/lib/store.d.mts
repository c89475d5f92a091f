// Types of `statecore-js/store` when imported (lib/store.mjs, an ES module): those of
// lib/store.d.ts.
export * from "./store.js";
import * as api from "./store.js";
export default api;
