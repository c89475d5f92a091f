// The case-running logic shared by the Node tests and the headless-browser run: the
// conformance corpus (tests/README.md), JSONTestSuite and the RFC 7396 vectors. Each check
// takes the statecore module namespace (Node or web entry) and returns null when the case
// passes, or a message saying what differed. No I/O here: callers load the files.
//

// The dispatcher is the table: `sc.manifest()` (the core's operation table as data) names each
// operation's function (its namespace and camelCase name) and says which arguments are bytes;
// no operation is listed here.

const camel = (name) => name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());

/** What the corpus runner needs of the table, read once per module namespace. */
const tables = new WeakMap();
function table(sc, manifest) {
  let t = tables.get(sc);
  if (!t) {
    const m = manifest ?? sc.manifest();
    t = {
      ops: new Map(m.ops.map((op) => [op.name, op])),
      classOfCode: Object.fromEntries(m.errors.map((e) => [e.code, e.class])),
    };
    tables.set(sc, t);
  }
  return t;
}

/**
 * Gives the runner the table as data for a module that has not got `manifest()` (the browser's
 * module: the browser entry passes docs/manifest.json, the Node entry its `manifest()`).
 */
export function useTable(sc, manifest) {
  tables.delete(sc);
  table(sc, manifest);
}

/** Why a run of the browser's module skips each case it skips, with a count. */
export const SKIP_REASONS = {
  web: "the operation is not in the browser's module (`web: false` in the operation table)",
  routine: "the file routine is not in the browser's module (it raised E_UNAVAILABLE)",
  protocol: "the case is another protocol's (this protocol's module raised E_UNAVAILABLE naming it)",
};

/**
 * Runs one corpus case on the browser's module: `{skipped: reason}` when the table says the
 * module has not got its operation (the case's `op`, or the reader a `query_file` names), or
 * when the case is of a file routine (not a table row) and the entry raised `E_UNAVAILABLE`
 * for it; on a page with only `protocol`'s module, when the case is another protocol's and
 * the module raised `E_UNAVAILABLE` naming it (an operation of another protocol that runs is
 * a failure); else `{failure}` as `checkCase`.
 */
export function checkWebCase(sc, testCase, protocol = null) {
  const t = table(sc);
  const { op, args = [] } = testCase;
  const entry = t.ops.get(op === "query_file" ? args[1] : op);
  if (entry && entry.web === false) return { skipped: "web" };
  const failure = checkCase(sc, testCase);
  if (failure !== null && !t.ops.has(op) && Object.hasOwn(ROUTINES, op) && unavailable(sc, testCase)) {
    return { skipped: "routine" };
  }
  if (protocol === null) return { failure };
  // A protocol's module (`protocol`): a case of another protocol must be refused naming it,
  // and an operation of another protocol must never run.
  const own = entry?.protocol ?? null;
  if (failure === null) {
    return { failure: own !== null && own !== protocol ? `${op} ran in the ${protocol} module` : null };
  }
  const other = refusedFor(sc, testCase);
  if (other !== null && other !== protocol && (own === null || own === other)) return { skipped: "protocol" };
  return { failure };
}

/** The error the case's function raises on this module, or null. */
function raised(sc, testCase) {
  try {
    functionFor(sc, testCase.op)(...callArgs(sc, testCase.op, testCase.args ?? []));
    return null;
  } catch (e) {
    return e instanceof sc.StatecoreError ? e : null;
  }
}

/** True when the case's routine raises E_UNAVAILABLE on this module. */
function unavailable(sc, testCase) {
  return raised(sc, testCase)?.code === "E_UNAVAILABLE";
}

/** The protocol an E_UNAVAILABLE the case raises on this module names (null: none). */
function refusedFor(sc, testCase) {
  const e = raised(sc, testCase);
  return e?.code === "E_UNAVAILABLE" && typeof e.details?.protocol === "string" ? e.details.protocol : null;
}

/** The error class name of each code, from the table. */
export function classOfCode(sc, code) {
  return table(sc).classOfCode[code];
}

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

/**
 * The file routines (tests/README.md), not table operations: `update_file [kind, change, data,
 * args, now, if_match, reset]` is `updateFile(kind, change, data, args, {now, ifMatch, reset})`, and
 * `query_file [kind, op, data, args]` is `queryFile`. `{hex}` is bytes in `data` and, by the
 * operation's parameter kinds, in `args`.
 */
const ROUTINES = {
  update_file: (sc) => (kind, change, data, args, now, ifMatch, reset) =>
    sc.updateFile(kind, change, bytesArg(data), routineArgs(sc, change || "merge", args), { now, ifMatch, reset }),
  query_file: (sc) => (kind, op, data, args) => sc.queryFile(kind, op, bytesArg(data), routineArgs(sc, op, args)),
  resident: (sc) => (kind, source, steps) => resident(sc, kind, source, steps),
  // `update_logged [kind, session_id, change, data, log_size, args, now, event_id?]` and
  // `log_replay [kind, session_id, data, offset, corrupt, chunks, change, args, now,
  // event_id?]` (tests/README.md).
  update_logged: (sc) => (kind, session, change, data, size, args, now, eventId = null) =>
    sc.updateLogged(kind, session, change, bytesArg(data), size, routineArgs(sc, change, args), { now, eventId }),
  log_replay: (sc) => (kind, session, data, offset, corrupt, chunks, change, args, now, eventId = null) => {
    const replay = sc.logReplay(kind, session, bytesArg(data), offset, corrupt);
    for (const chunk of chunks) replay.feed(bytesArg(chunk));
    return replay.commit(change, routineArgs(sc, change, args), { now, eventId });
  },
};

/**
 * A resident document (tests/README.md): `resident [kind, data, steps]` opens `data` (or holds
 * `{"document": ...}`), then runs each step `[method, ...args]`: the read's fields (null for a
 * held document), then each step's result or `{"error": {code, path}}`.
 */
function resident(sc, kind, source, steps) {
  let doc;
  const results = [];
  if (source !== null && typeof source === "object" && "document" in source) {
    doc = sc.residentDocument(kind, source.document);
    results.push(null);
  } else {
    const { document, ...meta } = sc.openDocument(kind, bytesArg(source));
    doc = document;
    results.push(meta);
  }
  for (const [method, ...rest] of steps) {
    try {
      if (["get", "text", "validate", "merge", "replace"].includes(method)) {
        results.push(doc[method](...rest));
        continue;
      }
      const entry = table(sc).ops.get(method);
      const args = routineArgs(sc, method, rest);
      const own = doc[camel(entry.method)];
      if (typeof own === "function") results.push(own.apply(doc, args));
      else if (entry.access?.writes) results.push(doc.change(method, ...args)); // not of this kind
      else results.push(doc.query(method, ...args));
    } catch (e) {
      if (!(e instanceof sc.StatecoreError)) throw e;
      results.push({ error: { code: e.code, path: e.path } });
    }
  }
  doc.free();
  return results;
}

function routineArgs(sc, op, args) {
  const entry = table(sc).ops.get(op);
  const params = entry?.params ?? [];
  const skip = entry?.access?.writes && entry.access.writes.takes_document === false ? 0 : 1;
  return (args ?? []).map((a, i) => (["bytes", "random"].includes(params[i + skip]?.kind) ? bytesArg(a) : a));
}

/** The JS function of a corpus op (its table name): `fctry_start_step` -> `fctry.startStep`. */
export function functionFor(sc, op) {
  if (Object.hasOwn(ROUTINES, op)) return ROUTINES[op](sc);
  const entry = table(sc).ops.get(op);
  if (!entry) return undefined;
  const namespace = entry.module === "" ? sc : sc[entry.module];
  return namespace?.[camel(entry.method)];
}

/** The corpus arguments of `op` as JS values: `{hex}` is bytes for bytes and random parameters. */
function callArgs(sc, op, args) {
  if (Object.hasOwn(ROUTINES, op)) return args;
  const params = table(sc).ops.get(op)?.params ?? [];
  return args.map((a, i) => (["bytes", "random"].includes(params[i]?.kind) ? bytesArg(a) : a));
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

/** Whether `value` is a job a row of the table started (`{first, next, free}`). */
function isJob(value) {
  return value !== null && typeof value === "object" && typeof value.next === "function" && typeof value.free === "function" && "first" in value;
}

/** Runs one corpus case; null when it passes. */
export function checkCase(sc, testCase) {
  const { op, args = [], expect, error } = testCase;
  const fn = functionFor(sc, op);
  if (typeof fn !== "function") return `unknown op ${op}`;
  if ((expect === undefined) === (error === undefined)) return "a case needs exactly one of expect/error";
  let result;
  try {
    result = fn(...callArgs(sc, op, args));
  } catch (e) {
    if (error === undefined) return `want ${describe(expect)}\n  got error ${describeError(e)}`;
    const className = classOfCode(sc, error.code);
    const Class = sc[className];
    if (!(e instanceof sc.StatecoreError)) return `want ${error.code}, got non-statecore ${describeError(e)}`;
    if (!Class || !(e instanceof Class)) return `want class ${className} for ${error.code}, got ${describeError(e)}`;
    if (e.code !== error.code) return `want code ${error.code}, got ${describeError(e)}`;
    if (error.path !== undefined && e.path !== error.path) {
      return `want path ${JSON.stringify(error.path)}, got ${describeError(e)}`;
    }
    for (const [key, value] of Object.entries(error.details ?? {})) {
      const got = e.details?.[key];
      if (got === undefined || sc.serialize(got) !== sc.serialize(value)) {
        return `want details.${key} ${describe(value)}, got ${describe(got)}: ${describeError(e)}`;
      }
    }
    return null;
  }
  if (isJob(result)) {
    // A row that starts a job: the corpus states its first step.
    const job = result;
    result = job.first;
    job.free();
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
