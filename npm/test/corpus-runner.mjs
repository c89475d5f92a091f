// The case-running logic shared by the Node tests and the headless-browser run: the
// conformance corpus (tests/README.md), JSONTestSuite and the RFC 7396 vectors. Each check
// takes the statecore module namespace (Node or web entry) and returns null when the case
// passes, or a message saying what differed. No I/O here: callers load the files.

/** The error class for each code (docs/api.md § Errors), by class name. */
export const CLASS_OF_CODE = {
  E_PARSE: "ParseError",
  E_DUPLICATE_KEY: "ParseError",
  E_LIMIT: "LimitError",
  E_VALUE: "DataError",
  E_PRECISION: "DataError",
  E_KIND: "UsageError",
  E_OPTIONS: "UsageError",
  E_MACHINE: "UsageError",
  E_ARGUMENT: "UsageError",
  E_MERGE: "MergeError",
  E_TIMESTAMP: "TimestampError",
  E_INVALID: "ValidationError",
  E_TRANSITION: "TransitionError",
  E_LOG_CORRUPT: "LogCorruptError",
  E_CONFLICT: "ConflictError",
  E_LOCK_TIMEOUT: "LockTimeoutError",
};

/** Which arguments of an op are bytes (a string, `{hex}` or null in the corpus). */
const BYTES_ARGS = {
  parse: [0],
  canonical: [0],
  etag: [0],
  parse_log: [0],
  load_document: [1],
  apply_update: [1],
  finish_update: [1],
  agency_parse_runner_status: [0],
  agency_build_snapshot: [0, 1],
};

/** `{hex: "efbb"}` -> Uint8Array; strings and null stay as they are. */
export function bytesArg(arg) {
  if (arg !== null && typeof arg === "object" && typeof arg.hex === "string") {
    const hex = arg.hex;
    const out = new Uint8Array(hex.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
    return out;
  }
  return arg;
}

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** The JS function for a corpus op name (Rust name): `load_document` -> `loadDocument`,
 * `machine_fire` -> `machine.fire`, `fctry_start_step` -> `fctry.startStep`. */
export function functionFor(sc, op) {
  const namespaced = /^(machine|fctry|hivemind|agency)_(.+)$/.exec(op);
  if (namespaced) return sc[namespaced[1]][camel(namespaced[2])];
  return sc[camel(op)];
}

function describe(value) {
  try {
    return typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value);
  } catch {
    return String(value);
  }
}

function describeError(e) {
  return e && typeof e === "object" && "code" in e
    ? `${e.name} ${e.code} at ${JSON.stringify(e.path)}: ${e.message}`
    : String(e && e.stack ? e.stack : e);
}

/** Runs one corpus case; null when it passes. */
export function checkCase(sc, testCase) {
  const { op, args = [], expect, error } = testCase;
  const fn = functionFor(sc, op);
  if (typeof fn !== "function") return `unknown op ${op}`;
  if ((expect === undefined) === (error === undefined)) return "a case needs exactly one of expect/error";
  const positions = BYTES_ARGS[op] ?? [];
  const callArgs = args.map((a, i) => (positions.includes(i) ? bytesArg(a) : a));
  let result;
  try {
    result = fn(...callArgs);
  } catch (e) {
    if (error === undefined) return `want ${describe(expect)}\n  got error ${describeError(e)}`;
    const className = CLASS_OF_CODE[error.code];
    const Class = sc[className];
    if (!(e instanceof sc.StatecoreError)) return `want ${error.code}, got non-statecore ${describeError(e)}`;
    if (!Class || !(e instanceof Class)) return `want class ${className} for ${error.code}, got ${describeError(e)}`;
    if (e.code !== error.code) return `want code ${error.code}, got ${describeError(e)}`;
    if (error.path !== undefined && e.path !== error.path) {
      return `want path ${JSON.stringify(error.path)}, got ${describeError(e)}`;
    }
    return null;
  }
  if (error !== undefined) return `want error ${describe(error)}\n  got ${describe(result)}`;
  if (typeof result === "string" || typeof expect === "string") {
    return result === expect ? null : `want ${describe(expect)}\n  got  ${describe(result)}`;
  }
  const got = sc.serialize(result === undefined ? null : result);
  const want = sc.serialize(expect);
  return got === want ? null : `want ${want}  got  ${got}`;
}

/**
 * JSONTestSuite `test_parsing/<name>` through `canonical(bytes)`: outcomes pinned in
 * i_outcomes.json win (i_ files and the two duplicate-key y_ files); otherwise y_ accepted and
 * n_ rejected. A rejection must be a StatecoreError (ParseError or LimitError).
 */
export function checkJsonTestSuiteFile(sc, name, data, pinned) {
  let accepted;
  try {
    const text = sc.canonical(data);
    if (typeof text !== "string" || !text.endsWith("\n")) return `bad canonical text ${describe(text)}`;
    accepted = true;
  } catch (e) {
    if (!(e instanceof sc.ParseError || e instanceof sc.LimitError)) {
      return `rejected with ${describeError(e)}`;
    }
    accepted = false;
  }
  const outcome = accepted ? "accept" : "reject";
  const want = Object.hasOwn(pinned, name)
    ? pinned[name]
    : name.startsWith("y_")
      ? "accept"
      : name.startsWith("n_")
        ? "reject"
        : undefined;
  if (want === undefined) return `no expected outcome for ${name} (i_outcomes.json is missing it)`;
  return outcome === want ? null : `want ${want}, got ${outcome}`;
}

/** One RFC 7396 vector `{doc, patch, expected}` through `merge(..., merge_patch)`. */
export function checkRfc7396Case(sc, testCase) {
  let got;
  try {
    got = sc.merge(testCase.doc, testCase.patch, { strategy: "merge_patch" });
  } catch (e) {
    return `error ${describeError(e)}`;
  }
  const a = sc.serialize(got);
  const b = sc.serialize(testCase.expected);
  return a === b ? null : `want ${b} got ${a}`;
}
