// The JS API layer of statecore, written once and shared by every entry point:
// lib/web.mjs imports this file; lib/core-node.cjs requires dist/node/api.cjs, the CommonJS
// copy scripts/build-wasm.sh generates from it (build/cjs-from-esm.mjs). Keep it free of
// `import` statements and use only top-level `export <declaration>`.
//
// It converts arguments (JS values -> checked JSON text, text -> UTF-8 bytes), calls the raw
// wasm-bindgen functions (bindings-wasm/src/lib.rs), parses results with JSON.parse (so a
// "__proto__" key stays an own data property) and turns the binding's error records into
// error classes. No protocol rule lives here: every rule is in the Rust core.

// ---------------------------------------------------------------------------------------
// Errors (docs/api.md § Errors)

/** Base class of every statecore error: a stable `code`, a JSON-pointer `path`, `details`. */
export class StatecoreError extends Error {
  /**
   * @param {string} message one line a person can act on
   * @param {{code?: string, path?: string, details?: object, cause?: unknown}} [fields]
   */
  constructor(message, fields = {}) {
    super(message, fields.cause === undefined ? undefined : { cause: fields.cause });
    this.name = new.target.name;
    /** Stable code, e.g. "E_PARSE". */
    this.code = fields.code ?? "E_UNKNOWN";
    /** JSON pointer to the offending place ("" = the whole value). */
    this.path = fields.path ?? "";
    /** Structured details (line/column, limits, the report of E_INVALID, ...). */
    this.details = fields.details ?? {};
  }
}
/** E_PARSE, E_DUPLICATE_KEY: the bytes are not (acceptable) JSON. */
export class ParseError extends StatecoreError {}
/** E_LIMIT: a documented limit (depth, size, string length) was exceeded. */
export class LimitError extends StatecoreError {}
/** E_VALUE, E_PRECISION: a host value is not JSON, or a number does not fit a JS number. */
export class DataError extends StatecoreError {}
/** E_KIND, E_OPTIONS, E_MACHINE: an unknown kind, malformed options or machine. */
export class UsageError extends StatecoreError {}
/** E_MERGE: merge inputs of the wrong shape. */
export class MergeError extends StatecoreError {}
/** E_TIMESTAMP: not an RFC 3339 timestamp, or out of range. */
export class TimestampError extends StatecoreError {}
/** E_INVALID: the document failed validation; `details` holds the report. */
export class ValidationError extends StatecoreError {}
/** E_TRANSITION: the event is not legal from the current state. */
export class TransitionError extends StatecoreError {}
/** E_LOG_CORRUPT: a JSONL log has garbage before its last valid line. */
export class LogCorruptError extends StatecoreError {}
/** E_CONFLICT: the file changed since it was read (if-match etag). */
export class ConflictError extends StatecoreError {}
/** E_LOCK_TIMEOUT (host layer): a lock was not acquired in time. */
export class LockTimeoutError extends StatecoreError {}

const CLASS_BY_NAME = new Map(
  [
    StatecoreError,
    ParseError,
    LimitError,
    DataError,
    UsageError,
    MergeError,
    TimestampError,
    ValidationError,
    TransitionError,
    LogCorruptError,
    ConflictError,
    LockTimeoutError,
  ].map((c) => [c.name, c]),
);

// For records without a `name` (the core always sends one; host code may not).
const CLASS_BY_CODE = new Map([
  ["E_PARSE", ParseError],
  ["E_DUPLICATE_KEY", ParseError],
  ["E_LIMIT", LimitError],
  ["E_VALUE", DataError],
  ["E_PRECISION", DataError],
  ["E_KIND", UsageError],
  ["E_OPTIONS", UsageError],
  ["E_MACHINE", UsageError],
  ["E_ARGUMENT", UsageError],
  ["E_MERGE", MergeError],
  ["E_TIMESTAMP", TimestampError],
  ["E_INVALID", ValidationError],
  ["E_TRANSITION", TransitionError],
  ["E_LOG_CORRUPT", LogCorruptError],
  ["E_CONFLICT", ConflictError],
  ["E_LOCK_TIMEOUT", LockTimeoutError],
]);

/**
 * The error object for a record `{name, code, path, message, details}` (the shape the core
 * reports): the class named by `name`, else the class of `code`, else `StatecoreError`.
 */
export function errorFromRecord(record) {
  const r = record !== null && typeof record === "object" ? record : {};
  const Class = CLASS_BY_NAME.get(r.name) ?? CLASS_BY_CODE.get(r.code) ?? StatecoreError;
  return new Class(typeof r.message === "string" ? r.message : String(r.code), {
    code: r.code,
    path: r.path,
    details: r.details,
  });
}

// ---------------------------------------------------------------------------------------
// Argument conversion

const encoder = new TextEncoder();
const NOT_JSON = { notJson: true }; // thrown by the replacer; the slow walk finds the path

/** JSON.stringify replacer that refuses every value JSON cannot hold (docs/api.md). */
function strict(key, value) {
  switch (typeof value) {
    case "string":
      if (!value.isWellFormed()) throw NOT_JSON;
      break;
    case "number":
      if (!Number.isFinite(value)) throw NOT_JSON;
      break;
    case "boolean":
      break;
    case "object":
      if (value instanceof Number || value instanceof String) {
        if (!isJsonPrimitive(value.valueOf())) throw NOT_JSON;
      }
      break;
    case "undefined":
      if (Array.isArray(this)) throw NOT_JSON;
      break;
    default: // bigint, function, symbol
      throw NOT_JSON;
  }
  if (!key.isWellFormed()) throw NOT_JSON;
  return value;
}

function isJsonPrimitive(v) {
  return typeof v === "string" ? v.isWellFormed() : Number.isFinite(v);
}

function pointerToken(key) {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

/**
 * The first value JSON.stringify + `strict` would refuse, as `{path, message}`, or null.
 * Slow (it keeps an ancestor stack for cycles); only run after a failure.
 */
function findNonJson(root) {
  const ancestors = [];
  const visit = (holder, key, value, path) => {
    if (value !== null && (typeof value === "object" || typeof value === "bigint")) {
      if (typeof value.toJSON === "function") value = value.toJSON(key);
    }
    if (value instanceof Number || value instanceof String || value instanceof Boolean) {
      value = value.valueOf();
    }
    switch (typeof value) {
      case "string":
        return value.isWellFormed()
          ? null
          : { path, message: "a string with a lone surrogate is not valid Unicode text" };
      case "number":
        return Number.isFinite(value) ? null : { path, message: `${value} is not a JSON number` };
      case "boolean":
        return null;
      case "undefined":
        return Array.isArray(holder)
          ? { path, message: "undefined in an array is not JSON (use null)" }
          : null;
      case "bigint":
        return { path, message: "a BigInt is not JSON: convert it to a number or a string" };
      case "function":
      case "symbol":
        return { path, message: `a ${typeof value} is not JSON` };
    }
    if (value === null) return null;
    if (ancestors.includes(value)) return { path, message: "a cycle: the value contains itself" };
    ancestors.push(value);
    try {
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const found = visit(value, String(i), value[i], `${path}/${i}`);
          if (found) return found;
        }
      } else {
        for (const k of Object.keys(value)) {
          const p = `${path}/${pointerToken(k)}`;
          if (!k.isWellFormed()) {
            return { path: p, message: "an object key with a lone surrogate is not valid text" };
          }
          const found = visit(value, k, value[k], p);
          if (found) return found;
        }
      }
    } finally {
      ancestors.pop();
    }
    return null;
  };
  return visit({ "": root }, "", root, "");
}

/** JSON text of a JS value, or a DataError (E_VALUE, with path) / LimitError (E_LIMIT). */
function toJson(value, what) {
  let text;
  try {
    text = JSON.stringify(value, strict);
  } catch (e) {
    if (e instanceof RangeError) {
      throw new LimitError(`${what} is too deeply nested or too large to convert: ${e.message}`, {
        code: "E_LIMIT",
        details: { argument: what },
      });
    }
    if (e !== NOT_JSON && !(e instanceof TypeError)) throw e; // e.g. thrown by a toJSON()
    let found = null;
    try {
      found = findNonJson(value);
    } catch {
      // the walk itself failed (e.g. stack); report without a path
    }
    if (found === null && e !== NOT_JSON) throw e;
    throw new DataError(`${what}: ${found ? found.message : "not a JSON value"}`, {
      code: "E_VALUE",
      path: found ? found.path : "",
      details: { argument: what },
    });
  }
  if (text === undefined) {
    throw new DataError(`${what}: ${typeof value === "undefined" ? "undefined" : typeof value} is not JSON`, {
      code: "E_VALUE",
      details: { argument: what },
    });
  }
  return text;
}

function valueError(message, what) {
  return new DataError(message, { code: "E_VALUE", details: { argument: what } });
}

/** A string argument (kind, state, event, etag): a well-formed JS string. */
function text(value, what) {
  if (typeof value !== "string") throw valueError(`${what} must be a string, not ${typeof value}`, what);
  if (!value.isWellFormed()) throw valueError(`${what} has a lone surrogate (not valid text)`, what);
  return value;
}

/** A string, or undefined for null/undefined. */
function optionalText(value, what) {
  return value === null || value === undefined ? undefined : text(value, what);
}

/** A bytes argument: a Uint8Array (Buffer included) as is, or a string as UTF-8. */
function bytes(value, what) {
  if (value instanceof Uint8Array) return value;
  return encoder.encode(text(value, `${what} (a string or Uint8Array)`));
}

/** Bytes, or undefined for null/undefined ("no file"). */
function optionalBytes(value, what) {
  return value === null || value === undefined ? undefined : bytes(value, what);
}

/** Options / context: JSON text, "null" when omitted. */
function optionalJson(value, what) {
  return value === null || value === undefined ? "null" : toJson(value, what);
}

// ---------------------------------------------------------------------------------------
// The API

/**
 * Builds the public API over the raw wasm-bindgen functions. `getRaw()` returns the raw
 * module (or throws, e.g. before the web build is initialised).
 */
export function makeApi(getRaw) {
  /** Calls a raw function, turning the binding's error records into error classes. */
  const call = (name, ...args) => {
    const raw = getRaw();
    try {
      return raw[name](...args);
    } catch (e) {
      if (typeof e !== "string") throw e;
      let record;
      try {
        record = JSON.parse(e);
      } catch {
        throw new StatecoreError(e);
      }
      throw errorFromRecord(record);
    }
  };
  const object = (name, ...args) => JSON.parse(call(name, ...args));

  const machine = Object.freeze({
    /** Checks a machine definition: `{valid, errors, warnings}`. */
    check: (definition) => object("machine_check", toJson(definition, "definition")),
    /** The legal events from `state`: `[{event, to, auto}]`. */
    events: (definition, state, context) =>
      object(
        "machine_events",
        toJson(definition, "definition"),
        text(state, "state"),
        optionalJson(context, "context"),
      ),
    /** Fires an event: `{state, previous, changed, steps, scheduled}`. */
    fire: (definition, instance, event, context) =>
      object(
        "machine_fire",
        toJson(definition, "definition"),
        toJson(instance, "instance"),
        text(event, "event"),
        optionalJson(context, "context"),
      ),
    /** The Mermaid `stateDiagram-v2` text of a machine. */
    diagram: (definition) => call("machine_diagram", toJson(definition, "definition")),
  });

  /** 6 lowercase base36 characters from the host's randomness (inbox ids). */
  const randomBase36 = () => {
    const digits = "0123456789abcdefghijklmnopqrstuvwxyz";
    const bytes = new Uint8Array(6);
    globalThis.crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => digits[b % 36]).join("");
  };
  /** `now` for the core: the caller's value, or the host clock (epoch ms). */
  const clock = (now) => toJson(now ?? Date.now(), "now");
  const optionalText = (value, name) => (value == null ? undefined : text(value, name));

  const fctry = Object.freeze({
    /** Step 0 of a command: `currentCommand` set; steps, outputs and skips cleared. */
    startCommand: (state, command, now) =>
      object("fctry_start_command", toJson(state, "state"), text(command, "command"), clock(now)),
    /** An agent starts: `workflowStep` set. */
    startStep: (state, step, now) =>
      object("fctry_start_step", toJson(state, "state"), text(step, "step"), clock(now)),
    /** An agent completes: step appended once, `workflowStep` cleared, output stored. */
    completeStep: (state, step, output, now) =>
      object(
        "fctry_complete_step",
        toJson(state, "state"),
        text(step, "step"),
        optionalJson(output, "output"),
        clock(now),
      ),
    /** `{ok, agent, command, missing, message, options}` for an agent's prerequisites. */
    checkPrerequisites: (state, agent, command) =>
      object(
        "fctry_check_prerequisites",
        toJson(state, "state"),
        text(agent, "agent"),
        optionalText(command, "command"),
      ),
    /** Records that the user skipped an agent's missing prerequisites. */
    skipPrerequisites: (state, agent, command, now) =>
      object(
        "fctry_skip_prerequisites",
        toJson(state, "state"),
        text(agent, "agent"),
        optionalText(command, "command"),
        clock(now),
      ),
    /** Adds an untracked change `{file, section, sectionNumber, timestamp}`, by file. */
    addUntrackedChange: (state, change, now) =>
      object("fctry_add_untracked_change", toJson(state, "state"), toJson(change, "change"), clock(now)),
    /** The inbox item lifecycle as a machine definition (for `machine.*`). */
    inboxMachine: () => object("fctry_inbox_machine"),
    /** Adds an inbox item first; `now` and the 6-character base36 `random` default to the host's. */
    inboxAdd: (inbox, type, content, now, random) =>
      object(
        "fctry_inbox_add",
        toJson(inbox, "inbox"),
        text(type, "type"),
        text(content, "content"),
        clock(now),
        random == null ? randomBase36() : text(random, "random"),
      ),
    /** Moves one item: `start`, `complete`, `fail`, `incorporate`, `retry`. */
    inboxTransition: (inbox, id, event) =>
      object("fctry_inbox_transition", toJson(inbox, "inbox"), text(id, "id"), text(event, "event")),
    /** Removes an item (absent: unchanged). */
    inboxDismiss: (inbox, id) => object("fctry_inbox_dismiss", toJson(inbox, "inbox"), text(id, "id")),
    /** Applies an event to every pending or processed item it is legal for. */
    inboxBatch: (inbox, event) => object("fctry_inbox_batch", toJson(inbox, "inbox"), text(event, "event")),
    /** The chunk lifecycle as a machine definition (context `{retriesLeft}`). */
    chunkMachine: () => object("fctry_chunk_machine"),
    /** The build run lifecycle as a machine definition. */
    runMachine: () => object("fctry_run_machine"),
    /** Creates a build run (`runId` `run-{ms}`) from an approved plan. */
    createBuildRun: (state, plan, now) =>
      object("fctry_create_build_run", toJson(state, "state"), toJson(plan, "plan"), clock(now)),
    /** A chunk event: `start`, `complete` or `fail` (retries, then failed + dependents blocked). */
    chunkEvent: (state, id, event, now) =>
      object("fctry_chunk_event", toJson(state, "state"), id, text(event, "event"), clock(now)),
    /** Planned chunks whose dependencies all completed, in plan order. */
    readyChunks: (state) => object("fctry_ready_chunks", toJson(state, "state")),
    /** `{layers, unplaced}`: the chunk DAG in layers for drawing. */
    dagLayers: (state) => object("fctry_dag_layers", toJson(state, "state")),
    /** Pauses a running build with the question it waits on. */
    pauseBuildRun: (state, question, now) =>
      object("fctry_pause_build_run", toJson(state, "state"), toJson(question, "question"), clock(now)),
    /** Resumes a paused build. */
    resumeBuildRun: (state, now) => object("fctry_resume_build_run", toJson(state, "state"), clock(now)),
    /** Finishes a build: all completed → cleared; failures → `partial`. */
    finishBuildRun: (state, now) => object("fctry_finish_build_run", toJson(state, "state"), clock(now)),
    /** The resume protocol: `{offer, completed, remaining, next, changed, options}`. */
    resumePlan: (state, currentSpecVersion) =>
      object("fctry_resume_plan", toJson(state, "state"), optionalText(currentSpecVersion, "currentSpecVersion")),
    /** What a status line shows: `{specVersion, section, ..., chunks, scenarios, readiness, nextStep}`. */
    statusLine: (state) => object("fctry_status_line", toJson(state, "state")),
    /** One line of text from a status line summary; `options.color` adds ANSI colours. */
    renderStatusLine: (summary, options) =>
      call("fctry_render_status_line", toJson(summary, "summary"), optionalJson(options, "options")),
    /** The rendered line straight from the state file's bytes (`null`: no file; unparseable = `{}`). */
    statusLineText: (data, options) =>
      call("fctry_status_line_text", data == null ? undefined : bytes(data, "data"), optionalJson(options, "options")),
    /** A list of event lists merged oldest first: `{events, invalid}` (no valid timestamp). */
    activityFeed: (sources) => object("fctry_activity_feed", toJson(sources, "sources")),
    /** The context health indicator: `{isolation, lastCheckpoint}`. */
    contextHealth: (state, events) =>
      object("fctry_context_health", toJson(state, "state"), toJson(events ?? [], "events")),
    /** Clears the untracked changes of these sections (`null`/omitted: all of them). */
    clearUntrackedChanges: (state, sections, now) =>
      object(
        "fctry_clear_untracked_changes",
        toJson(state, "state"),
        optionalJson(sections, "sections"),
        clock(now),
      ),
  });

  /** A hivemind `state.json` document; null/undefined is a missing file. */
  const hivemindState = (state) => toJson(state ?? null, "state");

  const hivemind = Object.freeze({
    machine: () => object("hivemind_machine"),
    diagram: () => call("hivemind_diagram"),
    agents: (state) => object("hivemind_agents", text(state, "state")),
    contextMessage: (state) => object("hivemind_context_message", text(state, "state")),
    fire: (state, event, now, details) =>
      object(
        "hivemind_fire",
        hivemindState(state),
        text(event, "event"),
        clock(now),
        optionalJson(details, "details"),
      ),
    followUp: (state, event, now) =>
      object("hivemind_follow_up", hivemindState(state), text(event, "event"), clock(now)),
    onFile: (state, path, content, now) =>
      object(
        "hivemind_on_file",
        hivemindState(state),
        text(path, "path"),
        toJson(content == null ? null : text(content, "content"), "content"),
        clock(now),
      ),
  });

  const agency = Object.freeze({
    initialRunnerStatus: (now) => object("agency_initial_runner_status", clock(now)),
    updateRunnerStatus: (current, update, now) =>
      object(
        "agency_update_runner_status",
        toJson(current ?? null, "current"),
        toJson(update, "update"),
        clock(now),
      ),
    parseRunnerStatus: (data) => object("agency_parse_runner_status", optionalBytes(data, "data")),
    age: (status, now) => call("agency_age", toJson(status, "status"), clock(now)),
    checkStall: (signals, now, thresholdMs) =>
      object(
        "agency_check_stall",
        toJson(signals, "signals"),
        clock(now),
        toJson(thresholdMs ?? null, "thresholdMs"),
      ),
    buildSnapshot: (statusData, metaData, facts, now, thresholdMs) =>
      object(
        "agency_build_snapshot",
        optionalBytes(statusData, "statusData"),
        optionalBytes(metaData, "metaData"),
        toJson(facts ?? {}, "facts"),
        clock(now),
        toJson(thresholdMs ?? null, "thresholdMs"),
      ),
    derive: (snapshot) => object("agency_derive", toJson(snapshot, "snapshot")),
    renderLs: (rows) => call("agency_render_ls", toJson(rows, "rows")),
    renderShow: (run, now) => call("agency_render_show", toJson(run, "run"), clock(now)),
    protocolDocument: () => call("agency_protocol_document"),
  });

  return {
    parse: (data) => object("parse", bytes(data, "data")),
    canonical: (data) => call("canonical", bytes(data, "data")),
    serialize: (value) => call("serialize", toJson(value, "value")),
    merge: (doc, patch, options) =>
      object("merge", toJson(doc, "doc"), toJson(patch, "patch"), optionalJson(options, "options")),
    mergeText: (docText, patchText, options) =>
      call(
        "merge_text",
        bytes(docText, "docText"),
        bytes(patchText, "patchText"),
        optionalJson(options, "options"),
      ),
    validate: (kind, doc) => object("validate", text(kind, "kind"), toJson(doc, "doc")),
    validateText: (kind, data) => object("validate_text", text(kind, "kind"), bytes(data, "data")),
    kinds: () => object("kinds"),
    defaultDocument: (kind) => object("default_document", text(kind, "kind")),
    schema: (kind) => object("schema", text(kind, "kind")),
    limits: () => object("limits"),
    etag: (data) => call("etag", bytes(data, "data")),
    loadDocument: (kind, data) =>
      object("load_document", text(kind, "kind"), optionalBytes(data, "data")),
    prepareDocument: (kind, doc) =>
      object("prepare_document", text(kind, "kind"), toJson(doc, "doc")),
    applyUpdate: (kind, data, patch, options, ifMatch) =>
      object(
        "apply_update",
        text(kind, "kind"),
        optionalBytes(data, "data"),
        toJson(patch, "patch"),
        optionalJson(options, "options"),
        optionalText(ifMatch, "ifMatch"),
      ),
    finishUpdate: (kind, data, doc, ifMatch) =>
      object(
        "finish_update",
        text(kind, "kind"),
        optionalBytes(data, "data"),
        toJson(doc, "doc"),
        optionalText(ifMatch, "ifMatch"),
      ),
    checkIfMatch: (current, ifMatch) => {
      call("check_if_match", optionalText(current, "current"), optionalText(ifMatch, "ifMatch"));
    },
    parseLog: (data) => object("parse_log", bytes(data, "data")),
    logLine: (value) => call("log_line", toJson(value, "value")),
    parseTimestamp: (value) => call("parse_timestamp", text(value, "text")),
    formatTimestamp: (millis) => {
      if (typeof millis !== "number") {
        throw valueError(`millis must be a number, not ${typeof millis}`, "millis");
      }
      return call("format_timestamp", millis);
    },
    machine,
    fctry,
    hivemind,
    agency,
  };
}
