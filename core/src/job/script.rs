//! A job run over answers given in advance: how the conformance corpus drives a job the same
//! way on every surface (and how a tool checks its own driver against the core).

use super::Job;
use crate::Value;

/// The steps `job` asks for when it is given `answers` in turn: every step up to its end
/// (`done`, `raise`), then `{"do": "error", "error"}` when it ended with its own error, or
/// `{"do": "strayed"}` when it left a plan before taking back every answer the host gave to
/// it (a fault of the core's plan, which the corpus never expects); the list stops at the last
/// step asked when the answers run out first. An answer's field `data` (a string) is taken out
/// of it and given as the bytes read with it ([`Job::next_with`]: its UTF-8).
pub fn script(mut job: Job, answers: &[Value]) -> Value {
    let mut steps = Vec::new();
    let mut answers = answers.iter();
    let mut answer = Value::Null;
    loop {
        let (answer_only, bytes) = with_bytes(answer);
        let next = job.next_with(answer_only, bytes);
        if job.strayed() {
            steps.push(one("strayed", None));
            break;
        }
        match next {
            Ok(step) => {
                let last = matches!(
                    step.get("do").and_then(Value::as_str),
                    Some("done" | "raise")
                );
                steps.push(step);
                if last {
                    break;
                }
            }
            Err(error) => {
                steps.push(one("error", Some(error.to_value())));
                break;
            }
        }
        match answers.next() {
            Some(next) => answer = next.clone(),
            None => break,
        }
    }
    Value::Array(steps)
}

/// `answer` without its field `data`, and that field's text as bytes.
fn with_bytes(mut answer: Value) -> (Value, Option<Vec<u8>>) {
    let data = match &mut answer {
        Value::Object(map) => map.shift_remove("data"),
        _ => None,
    };
    let bytes = data.and_then(|d| d.as_str().map(|text| text.as_bytes().to_vec()));
    (answer, bytes)
}

/// The step `{"do": what}`, with `error` when given.
fn one(what: &str, error: Option<Value>) -> Value {
    let mut map = crate::Map::with_capacity(2);
    map.insert("do".into(), what.into());
    if let Some(error) = error {
        map.insert("error".into(), error);
    }
    Value::Object(map)
}
