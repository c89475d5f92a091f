//! Laws shared by several targets. Each check panics with a message naming the law, which
//! libFuzzer reports as a crash (and `cargo test` as a failure) with the input that broke it.

use statecore::json;
use statecore::report::{Issue, Report};
use statecore::Error;
use statecore::Value;

/// The codes `docs/errors.md` documents (every code a report carries must be listed there).
static ERRORS_MD: &str = include_str!("../../docs/errors.md");

/// True when `code` looks like a stable code: `E_` or `W_` and upper-case words.
fn well_formed_code(code: &str, prefix: &str) -> bool {
    code.strip_prefix(prefix).is_some_and(|rest| {
        !rest.is_empty()
            && rest
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
    })
}

/// True when `path` is a JSON pointer (`""` or `/...`).
fn is_pointer(path: &str) -> bool {
    path.is_empty() || path.starts_with('/')
}

/// An error a core function returned: a stable code, a pointer path, a message.
pub fn error(context: &str, e: &Error) {
    assert!(
        well_formed_code(e.code.as_str(), "E_"),
        "{context}: error code {:?} is not a stable E_ code",
        e.code.as_str()
    );
    assert!(
        is_pointer(&e.path),
        "{context}: error path {:?} is not a JSON pointer ({e})",
        e.path
    );
    assert!(
        !e.message.is_empty(),
        "{context}: error {} has no message",
        e.code
    );
}

fn issue(context: &str, issue: &Issue, prefix: &str) {
    assert!(
        well_formed_code(&issue.code, prefix),
        "{context}: issue code {:?} should start with {prefix}",
        issue.code
    );
    assert!(
        ERRORS_MD.contains(&format!("`{}`", issue.code)),
        "{context}: issue code {} is not listed in docs/errors.md",
        issue.code
    );
    assert!(
        is_pointer(&issue.path),
        "{context}: issue path {:?} ({}) is not a JSON pointer",
        issue.path,
        issue.code
    );
    assert!(
        !issue.message.is_empty(),
        "{context}: issue {} has no message",
        issue.code
    );
}

/// A validation report: errors are `E_` codes, warnings `W_` codes, all documented, with
/// pointer paths and messages.
pub fn report(context: &str, r: &Report) {
    for e in &r.errors {
        issue(context, e, "E_");
    }
    for w in &r.warnings {
        issue(context, w, "W_");
    }
}

/// `parse(serialize(v)) == v`, `serialize` is a fixed point, and the compact text parses
/// back to the same value, for every value within the limits (others are skipped).
pub fn round_trip(context: &str, v: &Value) {
    if json::check_limits(v).is_err() {
        return;
    }
    let text = json::serialize(v);
    if text.len() > json::MAX_DOCUMENT_BYTES {
        return;
    }
    let back = match json::parse(text.as_bytes()) {
        Ok(back) => back,
        Err(e) => panic!("{context}: serialize gave text that does not parse: {e}\n{text}"),
    };
    assert!(
        back == *v,
        "{context}: parse(serialize(v)) != v\n  v:    {v:?}\n  back: {back:?}"
    );
    let again = json::serialize(&back);
    assert!(
        again == text,
        "{context}: serialize is not a fixed point\n  first:  {text}\n  second: {again}"
    );
    let compact = json::serialize_compact(v);
    match json::parse(compact.as_bytes()) {
        Ok(back) => assert!(
            back == *v,
            "{context}: parse(serialize_compact(v)) != v\n  v:    {v:?}\n  back: {back:?}"
        ),
        Err(e) => panic!("{context}: serialize_compact gave text that does not parse: {e}"),
    }
}

/// The JSON text of a value for messages, cut to a readable length.
pub fn show(v: &Value) -> String {
    let text = json::serialize_compact(v);
    if text.len() <= 400 {
        return text;
    }
    let mut end = 400;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}
