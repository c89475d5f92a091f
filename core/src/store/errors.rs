//! The errors a document store raises for a failed statement (docs/store.md § Failures): a
//! lost connection, a row held past the update's timeout, a partial schema. Each says what
//! happened to the data (nothing half-applied) and what to do.

use super::{redact, SCHEMA_VERSION};
use crate::error::{Code, Error};
use crate::Value;

/// The `E_STORE` error (retryable) of an operation (`operation` on `key`; `connect`: `key`
/// names the server) the store could not carry out because its connection failed (`cause`:
/// the driver's message): nothing was half-applied, and it may be tried again.
pub fn unavailable(operation: &str, key: &str, cause: &str) -> Error {
    let cause = redact(cause.lines().next().unwrap_or_default().trim());
    let key = redact(key);
    let message = if operation == "connect" {
        format!(
            "the store could not connect to {key:?} ({cause}): nothing was read or \
             written; check that the server runs and the URL or PG* variables name \
             it, then try again"
        )
    } else {
        format!(
            "the store lost its connection during {operation} of {key:?} ({cause}): \
             nothing was half-applied (a transaction the server did not commit was \
             rolled back; one whose COMMIT it received as the connection ended may \
             have been applied); try again: an append with an id is applied once, \
             and a read shows whether an update was"
        )
    };
    Error::new(Code::Store, "", message)
        .with_detail("retryable", true)
        .with_detail("operation", operation)
        .with_detail("key", key.as_ref())
}

/// The `E_STORE` error (not retryable) of a session's step that met a log it cannot replay as
/// the core replayed it (`why`): a line read torn, a replay asked for a third time. The
/// transaction was rolled back: nothing was written.
pub fn replay_failed(key: &str, why: &str) -> Error {
    let key = redact(key);
    let message = format!(
        "the session's step on {key:?} could not replay its log ({why}): nothing was \
         written (the transaction was rolled back); the log's lines in the store are not \
         what a writer of this library appends (read them with `read_log`)"
    );
    Error::new(Code::Store, "", message)
        .with_detail("retryable", false)
        .with_detail("operation", "update")
        .with_detail("key", key.as_ref())
}

/// The `E_LOCK_TIMEOUT` error of an update that waited `timeout_ms` for the row of `key`,
/// locked by another writer's transaction (SQLSTATE 55P03): nothing was written.
pub fn lock_timeout(key: &str, timeout_ms: &Value) -> Error {
    let ms = timeout_ms.as_f64().unwrap_or(0.0);
    Error::new(
        Code::LockTimeout,
        "",
        format!(
            "the row of {key:?} stayed locked by another writer's transaction for \
             {ms} ms (the timeout): nothing was written; try again, or wait longer"
        ),
    )
    .with_detail("key", key)
    .with_detail("timeout_ms", timeout_ms.clone())
}

/// The `E_STORE` error of an operation that found the database's statecore schema partial
/// (a statement failed with one of [`SCHEMA_STATES`]; `cause`: the driver's message): not
/// retryable, and it says what to do. During `migrate`, the version row is missing or older
/// than the tables; otherwise a table, column or function was dropped or changed by hand.
pub fn schema_mismatch(operation: &str, key: &str, sqlstate: &str, cause: &str) -> Error {
    let cause = redact(cause.lines().next().unwrap_or_default().trim());
    let key = redact(key);
    let message = if operation == "migrate" {
        format!(
            "the database's statecore tables are not at the schema version statecore_meta \
             records (the version row is missing or older than the tables): migrating them to \
             version {SCHEMA_VERSION} failed ({cause}, SQLSTATE {sqlstate}) and was rolled back, \
             nothing was changed. If the tables are at version {SCHEMA_VERSION} (statecore_logs \
             has a bytes column), set the row: INSERT INTO statecore_meta (name, value) VALUES \
             ('schema_version', '{SCHEMA_VERSION}') ON CONFLICT (name) DO UPDATE SET value = \
             EXCLUDED.value; otherwise restore the statecore_* tables from a backup, or drop \
             them all (statecore_meta too) so that the next connect makes them again, empty"
        )
    } else {
        format!(
            "the database's statecore tables do not match schema version {SCHEMA_VERSION} \
             during {operation} of {key:?} ({cause}, SQLSTATE {sqlstate}): a table, column or \
             function statecore needs was dropped or changed by hand; nothing was written. \
             Restore the statecore_* tables from a backup, or drop them all (statecore_meta \
             too) so that the next connect makes them again, empty"
        )
    };
    Error::new(Code::Store, "", message)
        .with_detail("retryable", false)
        .with_detail("operation", operation)
        .with_detail("key", key.as_ref())
        .with_detail("sqlstate", sqlstate)
}

#[cfg(test)]
mod tests {
    use super::{schema_mismatch, unavailable};

    #[test]
    fn a_partial_schema_says_what_to_do_and_shows_no_password() {
        let error = schema_mismatch("migrate", "schema", "42701", "column \"bytes\" exists");
        assert!(error.message.contains("INSERT INTO statecore_meta"));
        let error = schema_mismatch("read", "postgresql://u:pw@h/db", "42703", "no etag");
        assert!(error.message.contains("Restore") && !error.message.contains("pw@"));
        assert_eq!(
            error.details.get("retryable"),
            Some(&crate::Value::Bool(false))
        );
    }

    #[test]
    fn a_lost_connection_is_retryable_and_shows_no_password() {
        let error = unavailable("connect", "postgresql://u:pw@h/db", "refused\nmore");
        assert!(error.message.contains("could not connect") && !error.message.contains("pw@"));
        assert!(!error.message.contains("more"));
        assert_eq!(
            error.details.get("retryable"),
            Some(&crate::Value::Bool(true))
        );
    }
}
