// Types of `statecore` in Node (`require` and `import`): the pure API and the host I/O layer.
export * from "./generated/core";
export * from "./host/host";
