//! The rule that decides whether a host's answer is what a plan's step expected
//! (docs/locking.md § Plans): the rule every driver applies to stop a plan at its first
//! unexpected answer, and the core checks when the answers come back ([`super::Io::plan`]).

use crate::Value;

/// An object of `fields`.
pub(crate) fn fields<'a>(fields: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
    Value::Object(fields.into_iter().collect())
}

/// Whether `answer` is what a plan's step `expect`s of it (docs/locking.md § Plans):
/// - `null` (no `expect`): any answer;
/// - an object: every field of it, where `age_under_ms: n` asks for the answer's `now_ms` and
///   `mtime_ms` to be numbers with `0 <= now_ms - mtime_ms < n`, and any other key for the
///   answer to have that key with an equal scalar (`null`, a boolean, a string, a number equal
///   in value; `true` is not `1`) or, for an expected empty list `[]`, an empty list (any other
///   expected list, and an expected object, is never met);
/// - a list: one of its objects (anything else in it is never met).
///
/// Anything else is never met, and neither is an answer that is not an object.
pub fn meets(answer: &Value, expect: &Value) -> bool {
    match expect {
        Value::Null => true,
        Value::Array(alternatives) => alternatives
            .iter()
            .any(|one| matches!(one, Value::Object(_)) && meets(answer, one)),
        Value::Object(wanted) => {
            answer.is_object()
                && wanted
                    .iter()
                    .all(|(key, want)| field_meets(answer, key, want))
        }
        _ => false,
    }
}

/// Whether the answer's field `key` is what `want` asks of it.
fn field_meets(answer: &Value, key: &str, want: &Value) -> bool {
    if key == "age_under_ms" {
        let of = |key: &str| answer.get(key).and_then(number);
        return match (of("now_ms"), of("mtime_ms"), number(want)) {
            (Some(now), Some(mtime), Some(under)) => {
                let age = now - mtime;
                (0.0..under).contains(&age)
            }
            _ => false,
        };
    }
    match (answer.get(key), want) {
        (Some(Value::Null), Value::Null) => true,
        (Some(Value::Bool(got)), Value::Bool(want)) => got == want,
        (Some(Value::String(got)), Value::String(want)) => got == want,
        (Some(Value::Array(got)), Value::Array(want)) => want.is_empty() && got.is_empty(),
        (Some(got @ Value::Number(_)), Value::Number(_)) => {
            matches!((number(got), number(want)), (Some(got), Some(want)) if got == want)
        }
        _ => false,
    }
}

/// A number's value as a double (none for anything else).
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(_) => value.as_f64(),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::meets;
    use crate::json;

    /// A few of the corpus's vectors (tests/conformance/host/plan_expectations.json), here so
    /// that a change to the rule fails close to it.
    #[test]
    fn the_rule_on_a_few_answers() {
        let v = |text: &str| json::parse(text.as_bytes()).unwrap_or_default();
        let young = v(r#"[{"missing": true}, {"age_under_ms": 20}]"#);
        assert!(meets(&v(r#"{"missing": true}"#), &young));
        assert!(meets(&v(r#"{"now_ms": 105, "mtime_ms": 100}"#), &young));
        assert!(!meets(&v(r#"{"now_ms": 120, "mtime_ms": 100}"#), &young));
        assert!(!meets(&v(r#"{"now_ms": 99, "mtime_ms": 100}"#), &young));
        assert!(!meets(&v(r#"{"created": 1}"#), &v(r#"{"created": true}"#)));
        assert!(meets(&v(r#"{"n": 5.0}"#), &v(r#"{"n": 5}"#)));
        assert!(!meets(&v(r#"{}"#), &v(r#"{"gone": null}"#)));
        assert!(meets(&v(r#"{"any": 1}"#), &v("null")));
        assert!(meets(&v(r#"{"names": []}"#), &v(r#"{"names": []}"#)));
        assert!(!meets(&v(r#"{"names": ["a"]}"#), &v(r#"{"names": []}"#)));
        assert!(!meets(&v(r#"{"names": ["a"]}"#), &v(r#"{"names": ["a"]}"#)));
        assert!(!meets(&v(r#"{}"#), &v(r#"{"names": []}"#)));
    }
}
