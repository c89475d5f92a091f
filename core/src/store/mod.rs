//! The PostgreSQL document store's rules (docs/store.md): its schema and migrations, every
//! SQL statement the hosts run (as data, so the Node and Python stores run the same text),
//! which keys are valid, and what an append of a log record writes. The hosts connect,
//! run these statements in the transactions docs/store.md describes, and cross into the core
//! once per update exactly as a file update does (`update_file` over the row's text).

mod errors;
mod jobs;
mod redact;
mod session;
pub mod shapes;
mod steps;
mod update;

pub use errors::{lock_timeout, replay_failed, schema_mismatch, unavailable};
pub use jobs::{job, script};
pub use redact::redact;
pub use session::PAGE as SESSION_PAGE;
pub use update::{update_job, UpdateSetup, CREATE_RETRIES};

use crate::error::{Code, Error, Result};
use crate::{Map, Value};

/// The schema version this library writes and reads.
pub const SCHEMA_VERSION: u64 = 2;
/// The key of the advisory lock a migration holds (`pg_advisory_xact_lock`): one migration
/// at a time, in every process and language.
pub const MIGRATION_LOCK: i64 = 0x5354_4154_4543; // "STATEC", within a JS number
/// The channel of change notifications (`LISTEN statecore`).
pub const CHANNEL: &str = "statecore";

/// What runs before the version is read: the table that holds it.
const BOOTSTRAP: &str = "CREATE TABLE IF NOT EXISTS statecore_meta (\n  name text PRIMARY KEY,\n  value text NOT NULL\n)";

/// Each schema version's SQL, in order (`MIGRATIONS[n]` makes version `n + 1`).
const MIGRATIONS: [&str; 2] = [
    r"CREATE TABLE statecore_documents (
  key text PRIMARY KEY,
  kind text NOT NULL,
  text text NOT NULL,
  etag text NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE statecore_corrupt (
  key text NOT NULL,
  copied_at timestamptz NOT NULL DEFAULT now(),
  text text NOT NULL
);
CREATE TABLE statecore_logs (
  log text PRIMARY KEY,
  kind text NOT NULL,
  next_seq bigint NOT NULL
);
CREATE TABLE statecore_log_lines (
  log text NOT NULL REFERENCES statecore_logs (log),
  seq bigint NOT NULL,
  id text,
  text text NOT NULL,
  appended_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (log, seq),
  UNIQUE (log, id)
);
CREATE FUNCTION statecore_document_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  PERFORM pg_notify('statecore', json_build_object('key', NEW.key, 'etag', NEW.etag)::text);
  RETURN NULL;
END
$body$;
CREATE TRIGGER statecore_document_changed AFTER INSERT OR UPDATE ON statecore_documents
  FOR EACH ROW EXECUTE FUNCTION statecore_document_changed();
CREATE FUNCTION statecore_line_appended() RETURNS trigger LANGUAGE plpgsql AS $body$
BEGIN
  PERFORM pg_notify('statecore', json_build_object('log', NEW.log, 'seq', NEW.seq)::text);
  RETURN NULL;
END
$body$;
CREATE TRIGGER statecore_line_appended AFTER INSERT ON statecore_log_lines
  FOR EACH ROW EXECUTE FUNCTION statecore_line_appended()",
    APPEND_V2,
];

/// Version 2: a log's length in bytes as a file of its lines would have it (`bytes`, each
/// line's `end_offset`), so that a hive session's state can record how much of its log it
/// folds (`session_metadata.log_offset`) exactly as on files; appends through one function
/// that takes the log's row lock, then skips a repeated id or adds the line, so the lengths
/// have no gaps.
const APPEND_V2: &str = r"ALTER TABLE statecore_logs ADD COLUMN bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE statecore_log_lines ADD COLUMN end_offset bigint;
UPDATE statecore_log_lines AS l SET end_offset = s.end_offset FROM (
  SELECT log, seq, sum(octet_length(convert_to(text, 'UTF8')) + 1)
    OVER (PARTITION BY log ORDER BY seq) AS end_offset
  FROM statecore_log_lines) AS s
  WHERE l.log = s.log AND l.seq = s.seq;
UPDATE statecore_logs AS g SET bytes = coalesce(
  (SELECT max(end_offset) FROM statecore_log_lines WHERE log = g.log), 0);
ALTER TABLE statecore_log_lines ALTER COLUMN end_offset SET NOT NULL;
CREATE FUNCTION statecore_append(p_log text, p_kind text, p_id text, p_text text)
  RETURNS TABLE (seq bigint, appended boolean, end_offset bigint)
  LANGUAGE plpgsql AS $body$
DECLARE
  counter statecore_logs%ROWTYPE;
  line_end bigint;
BEGIN
  INSERT INTO statecore_logs AS l (log, kind, next_seq) VALUES (p_log, p_kind, 1)
    ON CONFLICT (log) DO UPDATE SET next_seq = l.next_seq
    RETURNING * INTO counter;
  IF p_id IS NOT NULL THEN
    RETURN QUERY SELECT s.seq, false, s.end_offset FROM statecore_log_lines AS s
      WHERE s.log = p_log AND s.id = p_id;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  line_end := counter.bytes + octet_length(convert_to(p_text, 'UTF8')) + 1;
  INSERT INTO statecore_log_lines (log, seq, id, text, end_offset)
    VALUES (p_log, counter.next_seq, p_id, p_text, line_end);
  UPDATE statecore_logs SET next_seq = counter.next_seq + 1, bytes = line_end
    WHERE log = p_log;
  RETURN QUERY SELECT counter.next_seq, true, line_end;
END
$body$";

/// How many characters of row text a host's `PostgresStore` keeps, in all, to try an update's
/// compare-and-swap on without reading the row first (docs/store.md § Updates).
pub const KNOWN_CHARS: i64 = 8 * 1024 * 1024;

/// How long a store's connection may be silent before TCP keepalive probes start, in seconds
/// (set on the server's side of every connection, and on the client's where the driver can):
/// with [`KEEPALIVE_INTERVAL_S`] and [`KEEPALIVE_COUNT`], a host that vanished inside a
/// transaction (power lost, network cut) has its session ended and its row locks released
/// within 25 s ([`TCP_USER_TIMEOUT_MS`] when it vanished with data unacknowledged), while a
/// live but slow one answers the probes and is waited for
/// (docs/store.md § Failures).
pub const KEEPALIVE_IDLE_S: i64 = 10;
/// The time between unanswered keepalive probes, in seconds.
pub const KEEPALIVE_INTERVAL_S: i64 = 5;
/// How many unanswered keepalive probes end a connection.
pub const KEEPALIVE_COUNT: i64 = 3;
/// How long sent data may stay unacknowledged before a store's connection is ended, in ms
/// (`TCP_USER_TIMEOUT`): a host that vanished before acknowledging the server's last answer
/// is otherwise retried for about 15 minutes, keepalives or not. The keepalives' own bound.
pub const TCP_USER_TIMEOUT_MS: i64 =
    (KEEPALIVE_IDLE_S + KEEPALIVE_INTERVAL_S * KEEPALIVE_COUNT) * 1000;

/// Every statement the hosts run, by name: parameters are `$1`, `$2`, ... (a host whose
/// driver spells them otherwise rewrites them by number; no statement holds a `%`).
pub const STATEMENTS: [(&str, &str); 22] = [
    (
        // Run on each new connection: the keepalives of the server's side of it ($1 idle, $2
        // interval, in s; $3 probes; $4 the most time sent data may go unacknowledged, in
        // ms), so that a vanished client's locks do not outlive it.
        "keepalives",
        "SELECT set_config('tcp_keepalives_idle', $1, false), \
                set_config('tcp_keepalives_interval', $2, false), \
                set_config('tcp_keepalives_count', $3, false), \
                set_config('tcp_user_timeout', $4, false)",
    ),
    ("lock_migrations", "SELECT pg_advisory_xact_lock($1)"),
    (
        "read_version",
        "SELECT value FROM statecore_meta WHERE name = 'schema_version'",
    ),
    (
        "write_version",
        "INSERT INTO statecore_meta (name, value) VALUES ('schema_version', $1) \
         ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value",
    ),
    (
        "lock_timeout",
        "SELECT set_config('lock_timeout', $1, true)",
    ),
    (
        "read",
        "SELECT text, etag FROM statecore_documents WHERE key = $1",
    ),
    (
        "read_for_update",
        "SELECT text, etag FROM statecore_documents WHERE key = $1 FOR UPDATE",
    ),
    (
        "insert",
        "INSERT INTO statecore_documents (key, kind, text, etag) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (key) DO NOTHING",
    ),
    (
        "update",
        "UPDATE statecore_documents SET kind = $2, text = $3, etag = $4, updated_at = now() \
         WHERE key = $1 AND etag = $5",
    ),
    (
        // The compare-and-swap on a text the host kept (docs/store.md § Updates): one row,
        // `written` true, or false with the row's text and etag as they were (none: no row).
        "update_known",
        "WITH written AS (UPDATE statecore_documents \
           SET kind = $2, text = $3, etag = $4, updated_at = now() \
           WHERE key = $1 AND etag = $5 RETURNING key) \
         SELECT true AS written, NULL::text AS text, NULL::text AS etag FROM written \
         UNION ALL SELECT false, text, etag FROM statecore_documents \
           WHERE key = $1 AND NOT EXISTS (SELECT 1 FROM written)",
    ),
    (
        "keep_corrupt",
        "INSERT INTO statecore_corrupt (key, text) VALUES ($1, $2)",
    ),
    (
        "append",
        "SELECT seq, appended, end_offset FROM statecore_append($1, $2, $3, $4)",
    ),
    (
        "read_logged",
        "SELECT (SELECT text FROM statecore_documents WHERE key = $1) AS text, \
                (SELECT bytes FROM statecore_logs WHERE log = $2) AS bytes",
    ),
    (
        "log_bytes",
        "SELECT bytes FROM statecore_logs WHERE log = $1",
    ),
    (
        "read_log_from",
        "SELECT text, end_offset FROM statecore_log_lines WHERE log = $1 AND end_offset > $2 \
         ORDER BY seq LIMIT $3",
    ),
    (
        "read_log",
        "SELECT seq, text FROM statecore_log_lines WHERE log = $1 AND seq > $2 \
         ORDER BY seq LIMIT $3",
    ),
    (
        "cli_read",
        "SELECT (SELECT text FROM statecore_documents WHERE key = $1) AS text, \
                (SELECT (extract(epoch FROM updated_at) * 1000)::bigint \
                   FROM statecore_documents WHERE key = $1) AS mtime, \
                (SELECT bytes FROM statecore_logs WHERE log = $1) AS log_bytes, \
                (SELECT (extract(epoch FROM max(appended_at)) * 1000)::bigint \
                   FROM statecore_log_lines WHERE log = $1) AS log_mtime, \
                ($2 = '' OR EXISTS (SELECT 1 FROM statecore_documents WHERE starts_with(key, $2)) \
                   OR EXISTS (SELECT 1 FROM statecore_logs WHERE starts_with(log, $2))) AS directory",
    ),
    (
        "read_log_page",
        "SELECT text, end_offset FROM statecore_log_lines WHERE log = $1 AND end_offset > $2 \
         AND end_offset - octet_length(convert_to(text, 'UTF8')) - 1 < $2 + $3 ORDER BY seq",
    ),
    (
        "cli_look",
        "SELECT key, etag AS record FROM statecore_documents \
           WHERE key = $1 OR starts_with(key, $2) \
         UNION ALL SELECT log, 'log:' || bytes FROM statecore_logs \
           WHERE log = $1 OR starts_with(log, $2)",
    ),
    ("listen", "LISTEN statecore"),
    (
        "list_documents",
        "SELECT key FROM statecore_documents WHERE starts_with(key, $1) ORDER BY key",
    ),
    (
        "list_logs",
        "SELECT log FROM statecore_logs WHERE starts_with(log, $1) ORDER BY log",
    ),
];

/// The schema and statements as data: `{version, migration_lock, channel, bootstrap,
/// statements}` (docs/store.md § Schema).
pub fn schema() -> Value {
    let mut statements = Map::new();
    for (name, sql) in STATEMENTS {
        statements.insert(name.into(), Value::from(sql));
    }
    let mut map = Map::new();
    map.insert("version".into(), Value::from(SCHEMA_VERSION));
    map.insert("migration_lock".into(), Value::from(MIGRATION_LOCK));
    map.insert("channel".into(), Value::from(CHANNEL));
    map.insert("bootstrap".into(), Value::from(BOOTSTRAP));
    map.insert("statements".into(), Value::Object(statements));
    Value::Object(map)
}

/// The migrations a database at schema version `current` (its `statecore_meta` value, or
/// `None` for a database statecore never used) needs, in order: `[{version, sql}]` (empty
/// when it is up to date). A database newer than this library is `E_STORE`: writing to it
/// could lose what the newer schema keeps.
pub fn migrations(current: Option<&str>) -> Result<Value> {
    let at = match current {
        None => 0,
        Some(text) => text.trim().parse::<u64>().map_err(|_| {
            Error::new(
                Code::Store,
                "",
                format!("the database's statecore schema version is {text:?}, not a number: the statecore_meta table was changed by hand"),
            )
            .with_detail("retryable", false)
        })?,
    };
    if at > SCHEMA_VERSION {
        return Err(Error::new(
            Code::Store,
            "",
            format!(
                "the database's statecore schema is version {at}, newer than this library's \
                 ({SCHEMA_VERSION}): upgrade statecore before using this database"
            ),
        )
        .with_detail("retryable", false)
        .with_detail("version", at));
    }
    let pending = MIGRATIONS
        .iter()
        .zip(1u64..)
        .filter(|(_, version)| *version > at)
        .map(|(sql, version)| {
            let mut map = Map::new();
            map.insert("version".into(), Value::from(version));
            map.insert("sql".into(), Value::from(*sql));
            Value::Object(map)
        })
        .collect();
    Ok(Value::Array(pending))
}

/// A store key checked: a relative `/`-separated path with no empty, `.` or `..` name (the
/// file's path under a `FileStore`'s root; a row's key in PostgreSQL), the same rules on
/// every OS, else `E_PATH_UNSAFE`.
pub fn key(key: &str) -> Result<String> {
    let refuse = |reason: &str, why: String| {
        Error::new(
            Code::PathUnsafe,
            "",
            format!(
                "refused store key {:?}: {why}",
                key.chars().take(80).collect::<String>()
            ),
        )
        .with_detail("key", key)
        .with_detail("reason", reason)
    };
    if let Some((reason, why)) = crate::specify::artifacts::lexical_problem(key) {
        return Err(refuse(reason, why));
    }
    for name in key.split('/') {
        if matches!(name, "" | "." | "..") {
            return Err(refuse(
                "name",
                "a key is names between single slashes, none of them empty, `.` or `..`".into(),
            ));
        }
        if let Some((reason, why)) = crate::specify::artifacts::name_problem(name) {
            return Err(refuse(reason, why));
        }
    }
    Ok(key.to_owned())
}

/// The store key of a protocol file: `directory` (a key prefix: relative, `/`-separated;
/// `""` or `.` for the store's root) joined with the file's place `parts`
/// (`.fctry/state.json`), checked as [`key`].
pub fn file_key(directory: &str, parts: &[&str]) -> Result<String> {
    let base = directory.trim_end_matches('/');
    let base = base.strip_prefix("./").unwrap_or(base);
    let joined = parts.join("/");
    if base.is_empty() || base == "." {
        return key(&joined);
    }
    key(&format!("{base}/{joined}"))
}

/// Where the event log of the document of `kind` at `key` is kept, when its kind keeps one
/// (a hive session's `STATE.json`): `{log, record, session_id}`, the log's key beside the
/// document's (`<session>/EVENTS.jsonl`), its records' kind, and the session's name (the
/// name before the document's, as a session directory's name on files); `null` for a kind
/// with no log. `E_ARGUMENT` when the key names no session.
pub fn logged(document_key: &str, kind: &str) -> Result<Value> {
    let document_key = key(document_key)?;
    let Some(log) = crate::kinds::kind(kind)?
        .file
        .as_ref()
        .and_then(|file| file.log)
    else {
        return Ok(Value::Null);
    };
    let mut names: Vec<&str> = document_key.split('/').collect();
    names.pop();
    let Some(session_id) = names.last().copied() else {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "a {kind} document is kept under its session's name, as in \
                 <session>/{document_key} (a session directory on files): the key \
                 {document_key:?} names no session"
            ),
        )
        .with_detail("key", document_key.as_str()));
    };
    let mut map = Map::new();
    let log_key = format!("{}/{}", names.join("/"), log.name);
    map.insert("log".into(), Value::from(log_key));
    map.insert("record".into(), Value::from(log.record));
    map.insert("session_id".into(), Value::from(session_id));
    Ok(Value::Object(map))
}

/// The schemes of a store URL.
pub const SCHEMES: [&str; 2] = ["postgresql://", "postgres://"];

/// A store URL split (docs/store.md § Store URLs): `postgresql://[user[:password]@]host[:port]/
/// database[/KEY]` is `{conninfo, key}`, the connection string (scheme, authority, database)
/// and the key below the database (`""`: the store's root; `.` and `..` resolved, a `..` never
/// above the root), checked as [`key`]. `None` for text that is not a store URL (a file's
/// path). `E_ARGUMENT` for a store URL with no database, or with `?` options (give those in
/// `PG*` environment variables, so that the URL stays a path).
pub fn url(text: &str) -> Result<Option<Value>> {
    let Some(scheme) = SCHEMES.iter().find(|s| text.starts_with(**s)) else {
        return Ok(None);
    };
    let refuse = |why: &str| {
        Error::new(
            Code::Argument,
            "",
            format!("refused store URL: {why}; a store URL is postgresql://[user@]host[:port]/database[/key]"),
        )
    };
    if text.contains(['?', '#']) {
        return Err(refuse(
            "it has `?` or `#`: give connection options in PG* environment variables (PGSSLMODE, PGPASSWORD, ...)",
        ));
    }
    let rest = &text[scheme.len()..];
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (database, below) = path.split_once('/').unwrap_or((path, ""));
    if database.is_empty() {
        return Err(refuse("it names no database"));
    }
    let mut names: Vec<&str> = Vec::new();
    for name in below.split('/') {
        match name {
            "" | "." => {}
            ".." => {
                names.pop();
            }
            name => names.push(name),
        }
    }
    let joined = names.join("/");
    if !joined.is_empty() {
        key(&joined)?;
    }
    let mut map = Map::new();
    map.insert(
        "conninfo".into(),
        Value::from(format!("{scheme}{authority}/{database}")),
    );
    map.insert("key".into(), Value::from(joined));
    Ok(Some(Value::Object(map)))
}

/// SQLSTATEs that say the database's statecore schema is not what its version row records:
/// a table, column or function a statement needs is missing (42P01, 42703, 42883), or one a
/// migration makes is already there (42P07, 42701, 42710, 42723). Every statement a store
/// runs is the core's and names only statecore's objects, so these mean the schema was
/// changed by hand or restored in part, never a caller's mistake.
const SCHEMA_STATES: [&str; 7] = [
    "42P01", "42703", "42883", "42P07", "42701", "42710", "42723",
];

/// What a failed statement means to a store (docs/store.md § Failures), from the error's
/// SQLSTATE (`None` when the driver gave none) and whether the driver says the connection
/// failed: `lock_timeout` (55P03: a row held past the update's `timeout`), `unavailable`
/// (a lost or refused connection: class 08, 53 (resources), 57P (the server shutting down or
/// ending the session), or a connection error with no SQLSTATE: retryable `E_STORE`),
/// `schema` (a partial schema: [`SCHEMA_STATES`], raise [`schema_mismatch`]), else
/// `statement` (the statement's own error, raised as the driver gave it).
pub fn failure(sqlstate: Option<&str>, connection: bool) -> &'static str {
    match sqlstate {
        Some("55P03") => "lock_timeout",
        Some(code)
            if code.starts_with("08") || code.starts_with("53") || code.starts_with("57P") =>
        {
            "unavailable"
        }
        Some(code) if SCHEMA_STATES.contains(&code) => "schema",
        Some(_) => "statement",
        None if connection => "unavailable",
        None => "statement",
    }
}

#[cfg(test)]
mod tests {
    use super::failure;

    #[test]
    fn a_partial_schema_is_told_apart() {
        assert_eq!(failure(Some("42703"), false), "schema");
        assert_eq!(failure(Some("42701"), false), "schema");
        assert_eq!(failure(Some("23505"), false), "statement");
    }
}
