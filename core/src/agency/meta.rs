//! A run's `meta.json` as agency writes it and as its `ls` reads it: a file that lacks
//! `schema_version` or `created_at`, or holds a field of the wrong type (the client decodes it
//! into a typed record, and a decoding error makes the run `broken`), is broken.

use super::shapes::RUN_META;
use crate::report::Report;
use crate::shape::check::walk_json;
use crate::value::Json;

/// The fields a readable meta.json must hold as non-empty strings.
const REQUIRED: [&str; 2] = ["schema_version", "created_at"];

/// Why `meta` (meta.json's document) makes its run broken: its errors (none: it reads).
/// A missing or unparseable file is passed as `null`: `E_META_MISSING`. The document is a
/// tree or a read text ([`Json`]).
pub fn check_meta<'a, J: Json<'a>>(meta: J) -> Report {
    let mut report = Report::default();
    if meta.is_null() {
        report.error(
            "E_META_MISSING",
            "",
            "meta.json is missing, unreadable or null, so the run cannot be read",
        );
        return report;
    }
    let Some(map) = walk_json(&mut report, meta, &RUN_META, "") else {
        return report;
    };
    // A whole number with a fraction or an exponent (`123.0`) is JSON Schema's integer, but
    // agency's Go decoding refuses it for an int field, so the run is broken.
    let setup = map.get("setup").filter(|s| s.is_object());
    let ints = [
        (
            setup.and_then(|s| s.get("exit_code")),
            "/setup/exit_code",
            "exit_code",
        ),
        (
            setup.and_then(|s| s.get("duration_ms")),
            "/setup/duration_ms",
            "duration_ms",
        ),
        (map.get("pr_number"), "/pr_number", "pr_number"),
    ];
    for (value, path, key) in ints {
        if let Some(n) = value.and_then(J::number) {
            if n.as_i64().is_some() && !crate::json::is_integer_text(n.as_str()) {
                report.error(
                    "E_TYPE",
                    path,
                    format!(
                        "{key} must be written as an integer (agency cannot read {n} into its \
                         int field)"
                    ),
                );
            }
        }
    }
    for key in REQUIRED {
        if map.get(key).and_then(J::as_str) == Some("") {
            report.error(
                "E_REQUIRED",
                format!("/{key}"),
                format!("{key} is required and must not be empty"),
            );
        }
    }
    report.warnings.clear();
    report
}

/// True when `meta` makes its run broken ([`check_meta`] has errors).
pub fn meta_broken<'a, J: Json<'a>>(meta: J) -> bool {
    !check_meta(meta).valid()
}
