"use strict";
/**
 * Path arguments of the Node host layer: a string, a Buffer or a `file:` URL, resolved once to
 * an absolute path, so a `chdir` during an update (another async task) cannot move the write,
 * the lock or its release elsewhere. Anything else is `UsageError` `E_ARGUMENT`: `null` is
 * never a file named "null".
 */
const path = require("node:path");
const { fileURLToPath } = require("node:url");

/** What `value` is, for the message. */
function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (value instanceof URL) return `a ${value.protocol} URL`;
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

/** The absolute path of a path argument `value` (named `name` in the error). */
function resolvePath(value, name = "path") {
  let text = null;
  if (typeof value === "string") text = value;
  else if (Buffer.isBuffer(value)) text = value.toString("utf8");
  else if (value instanceof URL && value.protocol === "file:") text = fileURLToPath(value);
  if (text === null || text === "" || text.includes("\0")) {
    const { UsageError } = require("../generated/core-node.cjs");
    throw new UsageError(
      `${name} must be a non-empty string, Buffer or file: URL, not ${text === null ? describe(value) : JSON.stringify(text)}`,
      { code: "E_ARGUMENT", details: { argument: name } },
    );
  }
  return path.resolve(text);
}

module.exports = { resolvePath };
