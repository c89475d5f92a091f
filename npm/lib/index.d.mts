// Types of `statecore` when imported (lib/node.mjs, an ES module): those of lib/index.d.ts.
export * from "./index.js";
