// `import ... from "statecore-js"` in Node: the same instance as `require("statecore-js")` (one
// wasm module per process), re-exported with its names.
export * from "./node.cjs";
import node from "./node.cjs";
export default node;
