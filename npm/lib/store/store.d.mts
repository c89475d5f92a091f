// Types of `statecore-js/store` when imported (lib/store/store.mjs, an ES module): those of
// lib/store/store.d.ts.
export * from "./store.js";
import * as api from "./store.js";
export default api;
