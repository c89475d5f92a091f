//! Merge strategies over documents (`docs/merge.md`).
//!
//! - [`Strategy::Shallow`]: top-level keys of the patch replace the document's (fctry's
//!   read-modify-write).
//! - [`Strategy::Deep`]: objects merge recursively; everything else, arrays included, is
//!   replaced (hive `update_state`). A `null` in the patch is stored as `null`.
//! - [`Strategy::MergePatch`]: RFC 7396 exactly; a `null` removes the key.
//!
//! Per-path [`Rule`]s refine shallow and deep merges: arrays of objects merged by a key,
//! append with de-duplication, or replace. A [`Stamp`] sets a timestamp field from `now`.
//!
//! The rules are written once (`drive.rs`), over what they merge into: a document tree they
//! own (`tree.rs`), or a document read as text whose merged document is spliced into a new
//! tape without building either tree (`tape.rs`; docs/performance.md § The document
//! representation).

use crate::error::{child_path, Code, Error, Result};
use crate::time::normalize_now;
pub use crate::value::type_name;
use crate::Value;

mod drive;
mod tape;
mod tree;

/// The names of the merge options.
pub const OPTION_NAMES: [&str; 3] = ["strategy", "rules", "stamp"];

/// How a patch is combined with a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Top-level keys replaced.
    Shallow,
    /// Objects merged recursively, everything else replaced; `null` kept.
    #[default]
    Deep,
    /// RFC 7396 JSON Merge Patch; `null` removes.
    MergePatch,
}

impl Strategy {
    /// Parses `"shallow"`, `"deep"` or `"merge_patch"`.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "shallow" => Ok(Strategy::Shallow),
            "deep" => Ok(Strategy::Deep),
            "merge_patch" => Ok(Strategy::MergePatch),
            other => Err(Error::new(
                Code::Options,
                "/strategy",
                format!("unknown merge strategy {other:?}: use shallow, deep or merge_patch"),
            )),
        }
    }
}

/// What a rule does with the array at its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Mode {
    /// The patch value replaces the document value (the default for arrays).
    Replace,
    /// Patch items are appended, skipping items already present (JSON equality).
    Append,
    /// Arrays of objects matched on `key`: a patch item with a known key is deep-merged into
    /// that item, a new key is appended.
    ByKey(String),
}

/// A per-path merge rule. `path` is a JSON pointer whose segments may be `*` (any key or
/// index), e.g. `/completedSteps` or `/buildRun/chunks`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// Pointer segments, unescaped; `*` matches any one segment.
    pub path: Vec<String>,
    /// What to do there.
    pub mode: Mode,
}

/// Sets a top-level field to the host's `now` after merging.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp {
    /// The field to set (`lastUpdated` for fctry).
    pub field: String,
    /// The timestamp text to store.
    pub now: String,
}

/// Everything a merge needs besides the two documents.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MergeOptions {
    /// The strategy.
    pub strategy: Strategy,
    /// Per-path rules (shallow and deep only).
    pub rules: Vec<Rule>,
    /// Optional timestamp stamping.
    pub stamp: Option<Stamp>,
}

impl MergeOptions {
    /// Options with the given strategy, no rules, no stamp.
    pub fn with_strategy(strategy: Strategy) -> Self {
        MergeOptions {
            strategy,
            ..Default::default()
        }
    }

    /// Reads options from JSON: `{"strategy": "deep", "rules": [{"path": "/a", "mode":
    /// "append" | "replace" | "by_key", "key": "id"}], "stamp": {"field": "lastUpdated",
    /// "now": "2026-01-19T12:00:00Z" | 1768824000000}}`. `null` means the defaults.
    pub fn from_value(value: &Value) -> Result<Self> {
        Self::from_value_with(value, |_| None)
    }

    /// [`MergeOptions::from_value`] that asks `unknown` first for the error of a key that is
    /// no merge option (an update names where such a key goes instead), else `E_OPTIONS` with
    /// the nearest name.
    pub fn from_value_with(value: &Value, unknown: impl Fn(&str) -> Option<Error>) -> Result<Self> {
        let map = match value {
            Value::Null => return Ok(MergeOptions::default()),
            Value::Object(map) => map,
            _ => {
                return Err(Error::new(
                    Code::Options,
                    "",
                    "merge options must be an object",
                ))
            }
        };
        let mut options = MergeOptions::default();
        for (key, item) in map {
            match key.as_str() {
                "strategy" => {
                    let name = item.as_str().ok_or_else(|| {
                        Error::new(Code::Options, "/strategy", "strategy must be a string")
                    })?;
                    options.strategy = Strategy::from_name(name)?;
                }
                "rules" => options.rules = rules_from_value(item)?,
                "stamp" => options.stamp = stamp_from_value(item)?,
                other => {
                    return Err(unknown(other)
                        .unwrap_or_else(|| crate::options::unknown("merge", other, &OPTION_NAMES)))
                }
            }
        }
        if options.strategy == Strategy::MergePatch && !options.rules.is_empty() {
            return Err(Error::new(
                Code::Options,
                "/rules",
                "merge_patch is RFC 7396 exactly and takes no rules; use shallow or deep",
            ));
        }
        Ok(options)
    }
}

fn rules_from_value(value: &Value) -> Result<Vec<Rule>> {
    let items = match value {
        Value::Null => return Ok(Vec::new()),
        Value::Array(items) => items,
        _ => {
            return Err(Error::new(
                Code::Options,
                "/rules",
                "rules must be an array",
            ))
        }
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let at = format!("/rules/{i}");
            let path = item.get("path").and_then(Value::as_str).ok_or_else(|| {
                Error::new(
                    Code::Options,
                    format!("{at}/path"),
                    "a rule needs a string path",
                )
            })?;
            let mode = match item.get("mode").and_then(Value::as_str) {
                Some("replace") => Mode::Replace,
                Some("append") => Mode::Append,
                Some("by_key") => Mode::ByKey(
                    item.get("key")
                        .and_then(Value::as_str)
                        .ok_or_else(|| {
                            Error::new(
                                Code::Options,
                                format!("{at}/key"),
                                "a by_key rule needs a string key (e.g. \"id\")",
                            )
                        })?
                        .to_owned(),
                ),
                _ => {
                    return Err(Error::new(
                        Code::Options,
                        format!("{at}/mode"),
                        "rule mode must be replace, append or by_key",
                    ))
                }
            };
            Ok(Rule {
                path: pointer_segments(path).map_err(|e| Error {
                    path: format!("{at}/path"),
                    ..e
                })?,
                mode,
            })
        })
        .collect()
}

fn stamp_from_value(value: &Value) -> Result<Option<Stamp>> {
    match value {
        Value::Null => Ok(None),
        Value::Object(map) => {
            let field = map.get("field").and_then(Value::as_str).ok_or_else(|| {
                Error::new(Code::Options, "/stamp/field", "stamp needs a string field")
            })?;
            let now = map.get("now").unwrap_or(&Value::Null);
            let (now, _) = normalize_now(now).map_err(|e| Error {
                path: "/stamp/now".into(),
                ..e
            })?;
            Ok(Some(Stamp {
                field: field.to_owned(),
                now,
            }))
        }
        _ => Err(Error::new(
            Code::Options,
            "/stamp",
            "stamp must be an object",
        )),
    }
}

/// Splits a JSON pointer into unescaped segments (`""` → no segments).
pub fn pointer_segments(pointer: &str) -> Result<Vec<String>> {
    if pointer.is_empty() {
        return Ok(Vec::new());
    }
    let rest = pointer.strip_prefix('/').ok_or_else(|| {
        Error::new(
            Code::Options,
            "",
            format!("{pointer:?} is not a JSON pointer: it must start with '/'"),
        )
    })?;
    Ok(rest
        .split('/')
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
        .collect())
}

/// Merges `patch` into `doc` and returns the new document; the inputs are not changed.
pub fn merge(doc: &Value, patch: &Value, options: &MergeOptions) -> Result<Value> {
    merge_owned(doc.clone(), patch, options)
}

/// [`merge`] that consumes the document instead of copying it (the fast path for callers
/// that own it).
pub fn merge_owned(doc: Value, patch: &Value, options: &MergeOptions) -> Result<Value> {
    drive::merge(&mut tree::TreeSink, doc, patch, options)
}

/// [`merge`] into a document read as text, without building its tree: the merged document as
/// a new tape (`Ok(None)`: a merge this path does not make; [`merge`] makes it).
pub fn merge_read(
    base: &crate::json::Tape<'_>,
    patch: &Value,
    options: &MergeOptions,
) -> Result<Option<crate::json::Tape<'static>>> {
    tape::merged(base, patch, options)
}

/// RFC 7396 §2 `MergePatch(Target, Patch)`.
pub fn merge_patch(target: &Value, patch: &Value) -> Value {
    drive::merge_patch(&mut tree::TreeSink, Some(target.clone()), patch)
}

pub(crate) fn find_rule<'r>(rules: &'r [Rule], path: &[&str]) -> Option<&'r Mode> {
    rules
        .iter()
        .find(|rule| {
            rule.path.len() == path.len()
                && rule
                    .path
                    .iter()
                    .zip(path)
                    .all(|(pattern, seg)| pattern == "*" || pattern == seg)
        })
        .map(|rule| &rule.mode)
}

pub(crate) fn pointer(path: &[&str]) -> String {
    path.iter()
        .fold(String::new(), |acc, seg| child_path(&acc, seg))
}
