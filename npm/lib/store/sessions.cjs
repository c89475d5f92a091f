"use strict";
/**
 * A hive session in PostgreSQL (docs/store.md § Hive sessions): its `STATE.json` a row and its
 * `EVENTS.jsonl` a log of the store. A step is one transaction, the core's job
 * (`session_step`; `session_read` reads first, without a lock): the state's row locked, its
 * text and the log's length (`statecore_logs.bytes`, the bytes a file of its lines would
 * hold) crossing into the core once (`updateLogged`, as on files), the event line appended
 * and the state written together, so the two never disagree after a crash; a state that is
 * missing, unreadable or behind its log is rebuilt by replaying the log's lines from where it
 * stops. Here only the job's own steps: the change applied (`apply`), a replay made
 * (`replay`) and fed a page of the log's lines (`feed`). The Python twin is
 * python/statecore/_store/sessions.py.
 */
const documents = require("../host/documents.cjs");

const core = () => documents.core();

/** The result a step's caller gets (as lib/host/sessions.cjs: files), and the state's text. */
function result(out, change) {
  const answer = {
    document: out.document,
    etag: out.etag,
    changed: out.write,
    warnings: [...out.warnings],
    corruptCopy: null,
    recovered: out.recovered,
    ...(change === "" ? {} : { result: { state: out.document, event: out.event } }),
  };
  return { answer, text: out.text };
}

/** What the job sees of an apply's (or a replay's commit's) result. */
function seen(out) {
  return {
    replay_from: out.replay_from,
    corrupt: out.corrupt,
    line: out.line !== null,
    write: out.write,
    log_offset: out.log_offset,
    torn: out.truncate_at !== null,
  };
}

/**
 * Runs the session job `job` (`session_step` or `session_read`) of the state at `key` with
 * `drive(job, act)` (the store's: lib/store/job.cjs on a client of its pool), the change
 * `change` (a writer of the table; "": none) and `args` after the state; `options`: `{now,
 * timeout}`. Resolves with `{answer, text}`.
 */
async function run(drive, job, key, kind, change, args, options) {
  const { now = null, timeout = null } = options;
  const { session_id: sessionId } = core().storeLogged(key, kind);
  const setup = { key, kind, timeout_ms: timeout };
  const at = now ?? Date.now();
  const eventId = change === "" ? null : require("node:crypto").randomBytes(12).toString("hex");
  let replay = null;
  const act = async (step, kept, rows) => {
    const text = kept.row?.text ?? null;
    switch (step.do) {
      case "apply":
        kept.result =
          step.on === "replay"
            ? replay.commit(change, args, { now: at, eventId })
            : core().updateLogged(kind, sessionId, change, text, step.size, args, { now: at, eventId });
        return seen(kept.result);
      case "replay":
        replay = core().logReplay(kind, sessionId, step.corrupt ? null : text, step.from, step.corrupt);
        return {};
      case "feed": {
        // The lines' bytes as a file of them holds them, from byte `from` on.
        const { rows: lines } = await rows(step.params);
        let end;
        for (const { text: line, end_offset: lineEnd } of lines) {
          const bytes = Buffer.from(`${line}\n`);
          const begin = lineEnd - bytes.length;
          replay.feed(begin < step.from ? bytes.subarray(step.from - begin) : bytes);
          end = lineEnd;
        }
        return end === undefined ? { count: lines.length } : { count: lines.length, end_offset: end };
      }
      default:
        throw new TypeError(`statecore: a session job asked for an unknown step ${JSON.stringify(step.do)}`);
    }
  };
  const { kept } = await drive(core().storeJob(job, setup), act);
  return result(kept.result, change);
}

/**
 * The state at `key` as it is when it folds its whole log; else rebuilt from the log (and
 * written) in a step's transaction: `{answer, text}`.
 */
function read(drive, key, kind, options) {
  return run(drive, "session_read", key, kind, "", [], options);
}

/**
 * The step `change` (a writer of the table) of the state at `key` with `args` after the
 * state, in one transaction, again when another writer got in between; `options`: `{now,
 * timeout}`. Resolves with `{answer, text}`.
 */
function step(drive, key, kind, change, args, options) {
  return run(drive, "session_step", key, kind, change, args, options);
}

module.exports = { read, step };
