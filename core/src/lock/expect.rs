//! What the lock's plans expect of the host's answers (docs/locking.md § Plans); the rule that
//! decides whether an answer is what its step expected is the jobs' ([`crate::job::meets`]).

use crate::job::fields;
use crate::Value;

/// What a plan expects of a `stat` or `read` of a file that is not there.
pub(super) fn missing() -> Option<Value> {
    Some(gone())
}

/// The answer's fields of a file that is not there.
fn gone() -> Value {
    fields([("missing", true.into())])
}

/// What a plan expects of a `stat` of the claim file by an acquirer that has not waited yet,
/// or a releaser: none, or one too young to be honoured ([`super::glance`]'s `pass`: its age,
/// `now_ms - mtime_ms` of the answer, at least 0 and under [`super::CLAIM_RIPE_MS`]).
pub(super) fn missing_or_young() -> Option<Value> {
    let young = fields([("age_under_ms", super::CLAIM_RIPE_MS.into())]);
    Some(Value::Array(vec![gone(), young]))
}

/// What a plan expects of a `read` of a file holding exactly `text` (our record's bytes).
pub(super) fn holding(text: &str) -> Option<Value> {
    // Each byte one character: ASCII text (a record's, but for a host name) is itself.
    let latin1: String = if text.is_ascii() {
        text.to_owned()
    } else {
        text.bytes().map(char::from).collect()
    };
    Some(fields([("latin1", latin1.into())]))
}

/// What a plan expects of a `create` that made the file.
pub(super) fn created() -> Option<Value> {
    Some(fields([("created", true.into())]))
}
