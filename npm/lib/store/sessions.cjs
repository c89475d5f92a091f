"use strict";
/**
 * A hive session in PostgreSQL (docs/store.md § Hive sessions): its `STATE.json` a row and its
 * `EVENTS.jsonl` a log of the store. A step is one transaction: the state's row locked, its
 * text and the log's length (`statecore_logs.bytes`, the bytes a file of its lines would
 * hold) crossing into the core once (`updateLogged`, as on files), the event line appended
 * and the state written together, so the two never disagree after a crash. A state that is
 * missing, unreadable or behind its log (lines appended by `append`) is rebuilt by replaying
 * the log's lines from where it stops, as on files. Only I/O is here; every decision is the
 * core's. The Python twin is python/statecore/_store/sessions.py.
 */
const documents = require("../host/documents.cjs");

const core = () => documents.core();

/** How many times a step that another writer got in the way of is tried again. */
const RETRIES = 8;
/** How many log lines a replay reads at a time. */
const PAGE = 1000;

/** Another writer got between the read and the write: the step runs again. */
class Retry extends Error {}

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

/**
 * The state at `key` as it is when it folds its whole log; else rebuilt from the log (and
 * written) in a step's transaction: `{answer, text}`.
 */
async function read(store, key, kind, options) {
  const where = core().storeLogged(key, kind);
  const { rows } = await store.statement("read", key, "read_logged", key, where.log);
  const [{ text, bytes }] = rows.map((r) => ({ text: r.text ?? null, bytes: Number(r.bytes ?? 0) }));
  const out = core().updateLogged(kind, where.session_id, "", text, bytes, [], { now: Date.now() });
  if (out.replay_from === null) return result(out, "");
  return step(store, key, kind, "", [], options);
}

/**
 * The step `change` (a writer of the table; "": a read that rebuilds) of the state at `key`
 * with `args` after the state, in one transaction, again when another writer got in
 * between; `options`: `{now, timeout}`. Resolves with `{answer, text}`.
 */
async function step(store, key, kind, change, args, options) {
  const where = core().storeLogged(key, kind);
  const { now = null, timeout = null } = options;
  for (let attempt = 0; attempt < RETRIES; attempt++) {
    try {
      return await store.transaction(
        "update",
        key,
        async (run) => {
          if (timeout !== null) await run("lock_timeout", `${Math.max(1, Math.round(timeout))}ms`);
          return locked(run, key, kind, where, change, args, now);
        },
        timeout,
      );
    } catch (error) {
      if (!(error instanceof Retry)) throw error;
    }
  }
  return core().storeUnavailable("update", key, "other writers kept changing the session meanwhile");
}

/** The step inside its transaction: the row locked, one crossing, the line, the row. */
async function locked(run, key, kind, where, change, args, now) {
  const C = core();
  const { log, session_id: sessionId } = where;
  const { rows } = await run("read_for_update", key);
  const row = rows.length ? rows[0] : null;
  const data = row ? row.text : null;
  const sized = await run("log_bytes", log);
  const size = sized.rows.length ? Number(sized.rows[0].bytes) : 0;
  const at = now ?? Date.now();
  const eventId = change === "" ? null : require("node:crypto").randomBytes(12).toString("hex");
  let out = C.updateLogged(kind, sessionId, change, data, size, args, { now: at, eventId });
  let kept = false;
  // A replay from the state's offset may ask for a replay of the whole log (a line after the
  // offset that cannot be applied): at most two rounds.
  while (out.replay_from !== null) {
    if (out.corrupt && row && !kept) {
      await run("keep_corrupt", key, row.text);
      kept = true;
    }
    const replay = C.logReplay(kind, sessionId, out.corrupt ? null : data, out.replay_from, out.corrupt);
    await feed(run, log, out.replay_from, (chunk) => replay.feed(chunk));
    out = replay.commit(change, args, { now: at, eventId });
    // Every line of a store's log ends where it should: none is ever torn.
    if (out.truncate_at !== null) throw new Error("a store's log line was read torn");
  }
  if (out.line !== null) {
    const text = out.line.replace(/^\n|\n$/g, "");
    const appended = await run("append", log, where.record, null, text);
    if (Number(appended.rows[0].end_offset) !== out.log_offset) throw new Retry();
  }
  if (out.write && !(await require("./store.cjs").writeRow(run, key, kind, row, out))) throw new Retry();
  return result(out, change);
}

/**
 * Calls `consume(chunk)` with the bytes of `log`'s lines from byte `start` on, as a file of
 * its lines holds them, a page of lines at a time.
 */
async function feed(run, log, start, consume) {
  let at = start;
  for (;;) {
    const { rows } = await run("read_log_from", log, at, PAGE);
    for (const { text, end_offset: endText } of rows) {
      const line = Buffer.from(`${text}\n`);
      const end = Number(endText);
      const begin = end - line.length;
      consume(begin < at ? line.subarray(at - begin) : line);
      at = end;
    }
    if (rows.length < PAGE) return;
  }
}

module.exports = { read, step };
