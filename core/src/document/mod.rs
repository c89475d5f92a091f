//! The pure half of the host I/O contract (docs/conventions.md § The host I/O contract): what a reader makes of a file's
//! bytes, and what a writer may write. Hosts do the locking, reading and renaming.

use crate::error::{Code, Error, Result};
use crate::json;
use crate::kinds::{self, Format};
use crate::merge::{merge_owned, MergeOptions};
pub use crate::report::invalid_error;
use crate::report::refused_invalid;
use crate::report::{issues_value, Issue, Report};
use crate::{Map, Value};

mod tape;
pub(crate) use tape::update as tape_update;
pub use tape::Doc;

/// What a reader gets from a file. `D` is how the document is held: a tree ([`Value`]), or
/// for [`read`] a [`Doc`], which may be the read text itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Loaded<D = Value> {
    /// The document, or the kind's default when the file is missing or unparseable.
    pub document: D,
    /// The etag of the file's bytes (`None` when the file is missing).
    pub etag: Option<String>,
    /// True when the bytes were not JSON (a writer must keep a copy before replacing them).
    pub corrupt: bool,
    /// Validation of the document (warnings include `W_UNPARSEABLE` for a corrupt file).
    pub report: Report,
    /// For bytes that are JSON-like but were refused by a limit or a repeated key (not a torn
    /// or garbled file): the parse error. A writer refuses to replace such a file with it,
    /// unless asked to reset the file ([`Precondition::reset`]).
    pub refused: Option<Error>,
    /// True when the document is the bytes' own JSON value as written (not a default, no
    /// number read differently from its text): a host may parse the bytes itself instead of
    /// receiving the document ([`json::parse_as_written`]).
    pub as_written: bool,
}

/// What a writer requires of the file before it replaces it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Precondition<'a> {
    /// The file's etag must be this one (`E_CONFLICT` otherwise).
    pub if_match: Option<&'a str>,
    /// Replace a file that breaks a limit or repeats a key (a `.corrupt-` copy is kept first)
    /// instead of refusing with its error.
    pub reset: bool,
}

impl<'a> Precondition<'a> {
    /// Only the etag check.
    pub fn if_match(if_match: Option<&'a str>) -> Self {
        Precondition {
            if_match,
            reset: false,
        }
    }
}

impl<D> Loaded<D> {
    /// The same result with the document held another way.
    pub fn map_document<E>(self, to: impl FnOnce(D) -> E) -> Loaded<E> {
        Loaded {
            document: to(self.document),
            etag: self.etag,
            corrupt: self.corrupt,
            report: self.report,
            refused: self.refused,
            as_written: self.as_written,
        }
    }

    /// `{etag, corrupt, valid, errors, warnings}`: everything but the document, in order.
    pub fn meta(&self) -> Map {
        let mut map = Map::with_capacity(5);
        map.insert(
            "etag".into(),
            self.etag.clone().map_or(Value::Null, Value::from),
        );
        map.insert("corrupt".into(), self.corrupt.into());
        map.insert("valid".into(), self.report.valid().into());
        map.insert("errors".into(), issues_value(&self.report.errors));
        map.insert("warnings".into(), issues_value(&self.report.warnings));
        map
    }
}

impl Loaded {
    /// `{document, etag, corrupt, valid, errors, warnings}`.
    pub fn into_value(self) -> Value {
        let meta = self.meta();
        let mut map = Map::with_capacity(meta.len().saturating_add(1));
        map.insert("document".into(), self.document);
        map.extend(meta);
        Value::Object(map)
    }
}

/// Interprets a file's bytes (`None` = missing file) as a document of `kind`.
pub fn load(kind: &str, bytes: Option<&[u8]>) -> Result<Loaded> {
    load_with(kind, bytes, true, true, false)
}

/// [`load`] for a reader that may not need the document's tree: a JSON document of a kind
/// whose rules run on read text ([`kinds::Kind::validate_read`]) is checked there, and given as
/// that text ([`Doc::Text`]); the same result as [`load`] in every field once built.
pub fn read(kind: &str, bytes: Option<&[u8]>) -> Result<Loaded<Doc>> {
    let spec = kinds::kind(kind)?;
    // Without the `full` feature no kind has rules on read text (`kinds::gate`); the constant
    // lets the compiler leave this path out of the browser's modules.
    if let (Some(bytes), Format::Json, Some(rules), true) = (
        bytes,
        &spec.format,
        spec.validate_read,
        cfg!(feature = "full"),
    ) {
        // A text that cannot be read takes the tree path, which says why.
        if let Ok((tape, as_written)) = json::Tape::parse(bytes) {
            let root = tape.root();
            let report = if crate::value::Json::is_null(root) && (spec.default)().is_null() {
                Report::default()
            } else {
                rules(root)
            };
            return Ok(Loaded {
                document: Doc::Text(tape.into_owned()),
                etag: Some(json::etag(bytes)),
                corrupt: false,
                report,
                refused: None,
                as_written,
            });
        }
    }
    Ok(load(kind, bytes)?.map_document(Doc::Tree))
}

/// What a writer needs of the old bytes: the document, and the etag only to check `if_match`.
/// The old document is not validated: only the new one is, before it is written. Bytes that
/// break a limit or repeat a key are refused with their error (the file is well-formed
/// shared state, never silently reset), unless `pre.reset`.
pub(crate) fn load_for_update(
    kind: &str,
    bytes: Option<&[u8]>,
    pre: Precondition<'_>,
) -> Result<Loaded> {
    if let Some(log) = kinds::kind(kind)?.file.as_ref().and_then(|f| f.log) {
        return Err(Error::new(
            Code::Argument,
            "",
            format!(
                "a {kind} file changes only by a step that appends its line to {log} (the \
                 session helpers, docs/hive.md § Files): a plain write would leave the log \
                 behind"
            ),
        ));
    }
    // A file people edit that a person has not finished saving is never replaced
    // (docs/locking.md § Files people edit), unless asked to reset it.
    if !pre.reset {
        if let Some(error) = crate::edit::refusal(kind, bytes)? {
            return Err(error);
        }
    }
    let mut loaded = load_with(kind, bytes, false, pre.if_match.is_some(), true)?;
    check_if_match(loaded.etag.as_deref(), pre.if_match)?;
    match loaded.refused.take() {
        Some(error) if !pre.reset => Err(refused_error(error)),
        _ => Ok(loaded),
    }
}

/// The error of a writer that found a file it must not reset: the reader's parse error, told
/// that the file was left as it is and how to replace it on purpose.
fn refused_error(mut error: Error) -> Error {
    error.message = format!(
        "the file holds a document statecore refuses to read ({}); it was left unchanged: \
         fix it, or update with reset to replace it (a .corrupt- copy is kept)",
        error.message
    );
    error
}

/// True for a parse error of bytes that are not a torn or garbled file but a document that
/// breaks a limit or repeats a key.
fn is_refusal(error: &Error) -> bool {
    matches!(error.code, Code::Limit | Code::DuplicateKey)
}

/// `validate`: validate the document; `hash`: compute the etag; `for_update`: a writer's read
/// (a text format keeps what its write needs).
pub(crate) fn load_with(
    kind: &str,
    bytes: Option<&[u8]>,
    validate: bool,
    hash: bool,
    for_update: bool,
) -> Result<Loaded> {
    let spec = kinds::kind(kind)?;
    let Some(bytes) = bytes else {
        return Ok(Loaded {
            document: (spec.default)(),
            etag: None,
            corrupt: false,
            report: Report::default(),
            refused: None,
            as_written: false,
        });
    };
    let etag = hash.then(|| json::etag(bytes));
    match decode(&spec.format, bytes, for_update) {
        Ok((document, as_written)) => {
            let report = if !validate || (document.is_null() && (spec.default)().is_null()) {
                Report::default()
            } else {
                (spec.validate)(&document)
            };
            Ok(Loaded {
                document,
                etag,
                corrupt: false,
                report,
                refused: None,
                as_written,
            })
        }
        Err(error) => {
            let mut report = Report::default();
            // A text file people edit is never replaced for a mistake in it: writers refuse
            // it with its error, as they refuse a JSON file that breaks a limit.
            let text_format = matches!(spec.format, Format::Text { .. });
            let refused = text_format || is_refusal(&error);
            report.warnings.push(Issue {
                code: "W_UNPARSEABLE".into(),
                path: error.path.clone(),
                message: if refused {
                    format!(
                        "the file was refused ({}); using the default document instead; \
                         writers leave it unchanged unless asked to reset it",
                        error.message
                    )
                } else {
                    format!(
                        "the file is not valid JSON ({}); using the default document instead",
                        error.message
                    )
                },
            });
            Ok(Loaded {
                document: (spec.default)(),
                etag,
                corrupt: true,
                report,
                refused: refused.then_some(error),
                as_written: false,
            })
        }
    }
}

/// A file's bytes read in its kind's format: the document, and whether it is the bytes' own
/// JSON as written (`for_update`: a writer's read, the text kept for its write).
fn decode(format: &Format, bytes: &[u8], for_update: bool) -> Result<(Value, bool)> {
    match format {
        Format::Json => json::parse_as_written(bytes),
        Format::Text {
            name,
            read,
            read_for_update,
            ..
        } => {
            json::check_document_size(bytes.len(), "the file")?;
            let text = std::str::from_utf8(bytes).map_err(|e| {
                Error::new(
                    Code::Parse,
                    "",
                    format!("{name} is not UTF-8 text (byte {})", e.valid_up_to()),
                )
                .with_detail("offset", e.valid_up_to() as u64)
            })?;
            let read = if for_update { read_for_update } else { read };
            Ok((read(text)?, false))
        }
    }
}

/// A file's bytes read as a document of `kind` in its format (JSON, or index.md), with the
/// format's parse error when they cannot be.
pub fn read_bytes(kind: &str, bytes: &[u8]) -> Result<Value> {
    Ok(decode(&kinds::kind(kind)?.format, bytes, false)?.0)
}

/// A kind's document as the text of its file, written over the file's `old` bytes (`None`:
/// a new file; a JSON kind's text never depends on them).
pub fn encode(kind: &str, document: &Value, old: Option<&[u8]>) -> Result<String> {
    Ok(encode_exact(kind, document, old)?.0)
}

/// [`encode`], and whether the text reads back as the document's values (always for JSON;
/// for a text format, false when a value written reads back otherwise, `""` as `null`).
fn encode_exact(kind: &str, document: &Value, old: Option<&[u8]>) -> Result<(String, bool)> {
    match &kinds::kind(kind)?.format {
        Format::Json => Ok((json::serialize(document), true)),
        Format::Text { write, .. } => {
            let old = old.and_then(|b| std::str::from_utf8(b).ok());
            write(old, document)
        }
    }
}

/// The document a file of a text format holds: its text's reading (docs/specify.md § The
/// document of an update). `None` for a JSON kind, whose document is its text's JSON.
pub fn reading(kind: &str, text: &str) -> Result<Option<Value>> {
    match &kinds::kind(kind)?.format {
        Format::Json => Ok(None),
        Format::Text { read, .. } => read(text).map(Some),
    }
}

/// A document ready to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    /// Canonical text to write.
    pub text: String,
    /// The etag the file will have.
    pub etag: String,
    /// Validation (valid; may carry warnings).
    pub report: Report,
    /// For a text format whose text does not read back as the document's values: its
    /// reading, validated in its place (what the file will hold).
    pub reading: Option<Value>,
}

/// Validates `document` as `kind` and serializes it canonically (a text kind: as a new
/// file). An invalid document is refused with `E_INVALID` whose `details` is the whole
/// report.
pub fn prepare(kind: &str, document: &Value) -> Result<Prepared> {
    prepare_over(kind, document, None)
}

/// [`prepare`], writing a text kind's document over the file's `old` bytes.
pub fn prepare_over(kind: &str, document: &Value, old: Option<&[u8]>) -> Result<Prepared> {
    json::check_limits(document)?;
    let report = kinds::validate(kind, document)?;
    if !report.valid() {
        return Err(invalid_error(kind, &report));
    }
    let (text, exact) = encode_exact(kind, document, old)?;
    json::check_document_size(text.len(), "the new document")?;
    // A value the text holds otherwise (`""` read back as `null`): the file's reading is what
    // every reader gets, so it is what must be valid.
    let (report, reading) = match (exact, &kinds::kind(kind)?.format) {
        (false, Format::Text { name, read, .. }) => {
            let reading = read(&text)?;
            let report = kinds::validate(kind, &reading)?;
            if !report.valid() {
                return Err(refused_invalid(
                    kind,
                    &report,
                    &format!(
                        "the document as {name} would read it back (a cell holds its value as \
                         text); the file was left unchanged"
                    ),
                ));
            }
            (report, Some(reading))
        }
        _ => (report, None),
    };
    let etag = json::etag(text.as_bytes());
    Ok(Prepared {
        text,
        etag,
        report,
        reading,
    })
}

/// `E_CONFLICT` unless `if_match` is absent or equal to the file's current etag
/// (`None` = the file does not exist).
pub fn check_if_match(current: Option<&str>, if_match: Option<&str>) -> Result<()> {
    match if_match {
        Some(expected) if Some(expected) != current => Err(Error::new(
            Code::Conflict,
            "",
            format!(
                "the file changed since it was read (etag {} is now {}); read it again and retry",
                expected,
                current.unwrap_or("absent")
            ),
        )
        .with_detail("expected", expected)
        .with_detail("actual", current.map_or(Value::Null, Value::from))),
        _ => Ok(()),
    }
}

/// The outcome of a read-merge-validate step: what to write and what to tell the caller.
/// `D` is how the document is held: a tree ([`Value`]), or for [`update_read`] a [`Doc`].
#[derive(Debug, Clone, PartialEq)]
pub struct Updated<D = Value> {
    /// The new document (for a text format: its text's reading, or `null` when it was not
    /// read back; see [`finish`]).
    pub document: D,
    /// Its canonical text.
    pub text: String,
    /// Its etag.
    pub etag: String,
    /// False when the new text equals the file's bytes (no write needed).
    pub changed: bool,
    /// True when the old bytes were not JSON (the host keeps a `.corrupt-` copy first).
    pub corrupt: bool,
    /// Warnings (unparseable old file, validation warnings).
    pub warnings: Vec<Issue>,
}

impl<D> Updated<D> {
    /// The same result with the document held another way.
    pub fn map_document<E>(self, to: impl FnOnce(D) -> E) -> Updated<E> {
        Updated {
            document: to(self.document),
            text: self.text,
            etag: self.etag,
            changed: self.changed,
            corrupt: self.corrupt,
            warnings: self.warnings,
        }
    }

    /// The document, the text, and `{etag, changed, corrupt, warnings}`.
    pub fn into_parts(self) -> (D, String, Map) {
        let mut meta = Map::with_capacity(4);
        meta.insert("etag".into(), self.etag.into());
        meta.insert("changed".into(), self.changed.into());
        meta.insert("corrupt".into(), self.corrupt.into());
        meta.insert("warnings".into(), issues_value(&self.warnings));
        (self.document, self.text, meta)
    }
}

impl Updated {
    /// `{document, text, etag, changed, corrupt, warnings}`.
    pub fn into_value(self) -> Value {
        let (document, text, meta) = self.into_parts();
        updated_value(document, text, meta)
    }
}

/// An update's result as one object: `{document, text}` followed by `meta`'s fields, the
/// shape every update returns to a host.
pub fn updated_value(document: Value, text: String, meta: Map) -> Value {
    let mut map = Map::with_capacity(meta.len().saturating_add(2));
    map.insert("document".into(), document);
    map.insert("text".into(), text.into());
    map.extend(meta);
    Value::Object(map)
}

/// The update step for a document a host function produced from the loaded one. The numbers
/// the function did not change keep the file's text ([`json::keep_number_texts`]; every
/// number came from a double when `from_doubles`, as in JavaScript).
pub fn finish_update(
    kind: &str,
    bytes: Option<&[u8]>,
    mut document: Value,
    pre: Precondition<'_>,
    from_doubles: bool,
) -> Result<Updated> {
    let loaded = load_for_update(kind, bytes, pre)?;
    if bytes.is_some() && !loaded.corrupt {
        json::keep_number_texts(&loaded.document, &mut document, from_doubles)?;
    }
    finish(kind, &loaded, document, bytes, true)
}

/// Computes a write from the file's current bytes and a new document (already merged or
/// produced by a host function). For a text format the result's document is the new text's
/// reading (what every reader of the file gets): read here when `read_back`, else left
/// `null` for a host that reads it from the text when asked (the wasm layer).
pub fn finish(
    kind: &str,
    loaded: &Loaded,
    document: Value,
    bytes: Option<&[u8]>,
    read_back: bool,
) -> Result<Updated> {
    let prepared = prepare_over(kind, &document, bytes.filter(|_| !loaded.corrupt))?;
    let text_format = matches!(kinds::kind(kind)?.format, Format::Text { .. });
    let document = match (text_format, prepared.reading) {
        (false, _) => document,
        (true, _) if !read_back => Value::Null,
        (true, Some(read)) => read,
        (true, None) => reading(kind, &prepared.text)?.unwrap_or_default(),
    };
    let changed = bytes != Some(prepared.text.as_bytes());
    let mut warnings: Vec<Issue> = loaded
        .report
        .warnings
        .iter()
        .filter(|w| w.code == "W_UNPARSEABLE")
        .cloned()
        .collect();
    warnings.extend(prepared.report.warnings);
    Ok(Updated {
        document,
        text: prepared.text,
        etag: prepared.etag,
        changed,
        corrupt: loaded.corrupt,
        warnings,
    })
}

/// The whole pure update: load the bytes, check `if_match`, merge the patch, validate,
/// serialize. The host holds the lock around this and writes `text` atomically. The merge is
/// made on the document's tree ([`update_read`] makes it on the read text where it can).
pub fn update(
    kind: &str,
    bytes: Option<&[u8]>,
    patch: &Value,
    options: &MergeOptions,
    pre: Precondition<'_>,
) -> Result<Updated> {
    let mut loaded = load_for_update(kind, bytes, pre)?;
    json::check_limits(patch)?;
    let document = merge_owned(std::mem::take(&mut loaded.document), patch, options)?;
    finish(kind, &loaded, document, bytes, true)
}

/// [`update`] made without the document's tree where it can be (a JSON kind whose rules run
/// on read text, readable bytes: [`tape::update`]), the result's document then the merged
/// read text ([`Doc::Text`]); the same result as [`update`] in every field once built.
pub fn update_read(
    kind: &str,
    bytes: Option<&[u8]>,
    patch: &Value,
    options: &MergeOptions,
    pre: Precondition<'_>,
) -> Result<Updated<Doc>> {
    let checked = || {
        json::check_limits(patch)?;
        Ok(std::borrow::Cow::Borrowed(options))
    };
    if let Some(updated) = tape_update(kind, bytes, patch, checked, pre)? {
        return Ok(updated);
    }
    Ok(update(kind, bytes, patch, options, pre)?.map_document(Doc::Tree))
}

/// What a `.corrupt-` copy's name adds to its file's name, before the time it was made.
pub const CORRUPT_COPY: &str = ".corrupt-";

/// The suffix of a `.corrupt-` copy made at `now_ms`: `.corrupt-YYYYMMDDTHHMMSSmmmZ` (a host
/// adds `-1`, `-2`, ... when the name is taken: copies never overwrite).
pub fn corrupt_copy_suffix(now_ms: i64) -> Result<String> {
    let stamp: String = crate::time::format_timestamp(now_ms)?
        .chars()
        .filter(|c| !matches!(c, '-' | ':' | '.'))
        .collect();
    Ok(format!("{CORRUPT_COPY}{stamp}"))
}

/// `W_CORRUPT_COPY`: the unparseable file was kept as `copy` before being replaced.
pub fn corrupt_copy_warning(copy: &str) -> Issue {
    Issue {
        code: "W_CORRUPT_COPY".into(),
        path: String::new(),
        message: format!("the unparseable file was kept as {copy} before being replaced"),
    }
}
