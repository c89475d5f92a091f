//! Document kinds: the registry mapping a kind name to its type (its shapes), validation,
//! default document and file. Each protocol module registers its kinds here, in one table.

use crate::error::{Code, Error, Result};
use crate::json::TapeValue;
use crate::report::Report;
use crate::shape::{Alias, Ty};
use crate::value::Json;
use crate::{Map, Value};

/// A document kind: its name, type, rules, what a reader gets for a missing file, and where
/// its file lives.
pub struct Kind {
    /// The kind's name (`"agency.runner_status"`).
    pub name: &'static str,
    /// What the kind's file holds, for people.
    pub description: &'static str,
    /// The documents' type: the one description of their fields.
    pub root: Ty,
    /// The document a reader gets when the file is missing (or unparseable).
    pub default: fn() -> Value,
    /// The validation rules (the shape's field rules and the protocol's cross-field rules).
    pub validate: fn(&Value) -> Report,
    /// The same rules run on a document read without building its tree (a reader's fast
    /// path: [`crate::document::read`]); `None` where the rules are written for trees only.
    pub validate_read: Option<fn(TapeValue<'_>) -> Report>,
    /// Where the file lives, for the protocol's host helpers (`None`: no fixed place).
    pub file: Option<File>,
    /// How its file is written.
    pub format: Format,
}

/// How a kind's file is written.
pub enum Format {
    /// JSON, canonical (docs/conventions.md § Documents).
    Json,
    /// Text people edit too (index.md): read into the document, and written back over the
    /// file's text so that only what changed is rewritten.
    Text {
        /// The format's name, for messages (`"index.md"`).
        name: &'static str,
        /// Reads the text (`E_PARSE` with its line and column when it cannot).
        read: fn(&str) -> Result<Value>,
        /// Reads the text a writer is about to write over: as `read`, keeping what `write`
        /// needs of it (a writer parses the file once).
        read_for_update: fn(&str) -> Result<Value>,
        /// Writes a document over the file's text (`None`: a new file); true when every value
        /// written reads back as it is (else the file's reading must be validated itself).
        write: WriteText,
        /// Where a JSON pointer's value comes from in the text (1-based line and column).
        locate: fn(&str, &str) -> Option<(usize, usize)>,
        /// What a text of this format lacks of the structure a finished save has (`None`:
        /// nothing): the format is a file people edit (docs/locking.md § Files people edit),
        /// see [`crate::edit`].
        lacks: fn(&str) -> Option<&'static str>,
    },
}

impl Format {
    /// Where the value at `pointer` of a document is in its file's `text` (1-based line and
    /// column; for a pointer the text lacks, its nearest ancestor's place).
    pub fn locate(&self, text: &str, pointer: &str) -> Option<(usize, usize)> {
        match self {
            Format::Json => crate::json::locate(text, pointer),
            Format::Text { locate, .. } => locate(text, pointer),
        }
    }
}

/// A text format's writer: the document written over the file's text (`None`: a new file),
/// and whether every value written reads back as itself.
pub type WriteText = fn(Option<&str>, &Value) -> Result<(String, bool)>;

/// Where a kind's file lives, relative to a directory the caller names.
pub struct File {
    /// The protocol module whose host helpers handle it (`"fctry"`).
    pub module: &'static str,
    /// The helpers' name for it: `state` gives `read_state`, `update_state`, `state_path`.
    pub name: &'static str,
    /// What the directory is, for people and parameter names (`"project_dir"`).
    pub base: &'static str,
    /// The path below the directory, one component at a time.
    pub path: &'static [&'static str],
    /// The merge options a patch to this file is merged with (JSON text; `None`: deep).
    pub patch: Option<&'static str>,
    /// The event log kept with it in the same directory (`EVENTS.jsonl`): the file changes
    /// only by steps that append their line to the log (`ops::update_logged`).
    pub log: Option<LogFile>,
}

/// An event log kept with a kind's file.
#[derive(Debug, Clone, Copy)]
pub struct LogFile {
    /// Its file name, in the same directory (`EVENTS.jsonl`).
    pub name: &'static str,
    /// The kind of each of its records (`hive.event`).
    pub record: &'static str,
    /// Its replay, fed in parts: the file's state rebuilt from the log's bytes for the session
    /// named by the log's directory, bad lines skipped and reported (`hive::replay_part`).
    pub replay: fn(Option<&Value>, &str, &[u8], bool) -> Result<crate::hive::ReplayStep>,
}

/// The file name, as messages show it.
impl std::fmt::Display for LogFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name)
    }
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn null() -> Value {
    Value::Null
}

fn empty_list() -> Value {
    Value::Array(Vec::new())
}

/// The `json` kind's documents: any object.
pub static JSON_OBJECT: Alias = Alias {
    name: "JsonObject",
    doc: "A JSON object.",
    ty: Ty::Map(&Ty::Json),
};

fn validate_json_object<'a, J: Json<'a>>(doc: J) -> Report {
    let mut report = Report::default();
    if !doc.is_object() {
        report.error(
            "E_TYPE",
            "",
            format!(
                "a state document must be a JSON object, not {}",
                doc.type_name()
            ),
        );
    }
    report
}

/// Every kind statecore knows. A build without a protocol's feature keeps its kinds' names,
/// descriptions and places (so that a file is still named by its kind), not their rules:
/// [`kind`] refuses them ([`Kind::available`]).
pub static KINDS: &[Kind] = &gate([
    Kind {
        name: "json",
        description: "any JSON object (no protocol rules); missing file = {}",
        root: Ty::Alias(&JSON_OBJECT),
        default: empty_object,
        validate: |doc| validate_json_object(doc),
        validate_read: Some(|doc| validate_json_object(doc)),
        file: None,
        format: Format::Json,
    },
    Kind {
        name: "agency.runner_status",
        description: ".agency/state/runner_status.json; missing file = null (no status)",
        root: Ty::Object(&crate::agency::shapes::RUNNER_STATUS),
        default: null,
        validate: |doc| crate::agency::validate_runner_status(doc),
        validate_read: Some(|doc| crate::agency::validate_runner_status(doc)),
        file: Some(File {
            module: "agency",
            name: "status",
            base: "worktree",
            path: &[".agency", "state", "runner_status.json"],
            patch: None,
            log: None,
        }),
        format: Format::Json,
    },
    Kind {
        name: "fctry.state",
        description: ".fctry/state.json; missing or unparseable file = {}",
        root: Ty::Object(&crate::fctry::shapes::STATE),
        default: empty_object,
        validate: |doc| crate::fctry::validate_state(doc),
        validate_read: Some(|doc| crate::fctry::validate_state(doc)),
        file: Some(File {
            module: "fctry",
            name: "state",
            base: "project_dir",
            path: &[".fctry", "state.json"],
            // The seed's writes: top-level fields replaced, `lastUpdated` stamped.
            patch: Some(r#"{"strategy": "shallow", "stamp": {"field": "lastUpdated"}}"#),
            log: None,
        }),
        format: Format::Json,
    },
    Kind {
        name: "fctry.inbox",
        description: ".fctry/inbox.json, newest item first; missing file = []",
        root: Ty::Alias(&crate::fctry::shapes::INBOX),
        default: empty_list,
        validate: |doc| crate::fctry::validate_inbox(doc),
        validate_read: Some(|doc| crate::fctry::validate_inbox(doc)),
        file: Some(File {
            module: "fctry",
            name: "inbox",
            base: "project_dir",
            path: &[".fctry", "inbox.json"],
            patch: None,
            log: None,
        }),
        format: Format::Json,
    },
    Kind {
        name: "fctry.event",
        description: "one fctry build, verification or context lifecycle event",
        root: Ty::Object(&crate::fctry::shapes::EVENT),
        default: empty_object,
        validate: |doc| crate::fctry::validate_event(doc),
        validate_read: Some(|doc| crate::fctry::validate_event(doc)),
        file: None,
        format: Format::Json,
    },
    Kind {
        name: "hivemind.state",
        description: "workspace/state.json of a Hivemind project; missing file = the idle state",
        root: Ty::Object(&crate::hivemind::shapes::STATE),
        default: crate::hivemind::default_state,
        validate: |doc| crate::hivemind::validate_state(doc),
        validate_read: Some(|doc| crate::hivemind::validate_state(doc)),
        file: Some(File {
            module: "hivemind",
            name: "state",
            base: "project_dir",
            path: &["workspace", "state.json"],
            patch: None,
            log: None,
        }),
        format: Format::Json,
    },
    Kind {
        name: "hive.state",
        description: "<sessions>/<session_id>/STATE.json of a hive session (v2); missing file = \
                      null (the session is recovered from its EVENTS.jsonl)",
        root: Ty::Object(&crate::hive::shapes::STATE),
        default: null,
        validate: |doc| crate::hive::validate_state(doc),
        validate_read: Some(|doc| crate::hive::validate_state(doc)),
        file: Some(File {
            module: "hive",
            name: "state",
            base: "session_dir",
            path: &["STATE.json"],
            patch: None,
            log: Some(LogFile {
                name: "EVENTS.jsonl",
                record: "hive.event",
                replay: crate::hive::replay_part,
            }),
        }),
        format: Format::Json,
    },
    Kind {
        name: "hive.worker",
        description: "one worker's state in a hive session (worker_states[name])",
        root: Ty::Object(&crate::hive::shapes::WORKER),
        default: empty_object,
        validate: |doc| crate::hive::validate_worker(doc),
        validate_read: Some(|doc| crate::hive::validate_worker(doc)),
        file: None,
        format: Format::Json,
    },
    Kind {
        name: "hive.event",
        description: "one EVENTS.jsonl line of a hive session",
        root: Ty::Object(&crate::hive::shapes::EVENT),
        default: empty_object,
        validate: |doc| crate::hive::validate_event(doc),
        validate_read: Some(|doc| crate::hive::validate_event(doc)),
        file: None,
        format: Format::Json,
    },
    Kind {
        name: "specify.index",
        description: "specs/<feature>/.workflow/index.md of the specify workflow, read as its \
                      tables; missing file = null (no workflow yet)",
        root: Ty::Object(&crate::specify::shapes::INDEX),
        default: null,
        validate: crate::specify::validate_index,
        validate_read: None,
        file: Some(File {
            module: "specify",
            name: "index",
            base: "feature_dir",
            path: &[".workflow", "index.md"],
            patch: None,
            log: None,
        }),
        format: Format::Text {
            name: "index.md",
            read: crate::specify::parse_index,
            read_for_update: crate::specify::parse_index_for_update,
            write: crate::specify::write_index,
            locate: crate::specify::locate,
            lacks: crate::specify::lacks,
        },
    },
]);

impl Kind {
    /// The protocol the kind belongs to (its name's first part); `None` for `json`.
    pub const fn protocol(&self) -> Option<crate::ops::Module> {
        crate::ops::Module::of_kind(self.name)
    }

    /// True when this build has the kind's rules: always with the `full` feature, else when
    /// its protocol's feature is on (the browser's per-protocol modules).
    pub const fn available(&self) -> bool {
        match self.protocol() {
            Some(protocol) => protocol.enabled(),
            None => true,
        }
    }
}

/// The table as this build has it: a kind of a protocol left out keeps its name, description
/// and file's place, and loses its type, rules and text format, so that the linker leaves
/// their code out ([`kind`] refuses it first). Without the `full` feature (the browser's
/// modules) no kind's rules run on read text (`validate_read`): a read builds the tree and
/// gives the same result ([`crate::document::read`]), and the rules are compiled once, for
/// trees, not a second time for tapes (docs/performance.md § wasm size).
const fn gate<const N: usize>(kinds: [Kind; N]) -> [Kind; N] {
    let mut kinds = kinds;
    let mut rest: &mut [Kind] = &mut kinds;
    while let [kind, tail @ ..] = rest {
        #[cfg(not(feature = "full"))]
        {
            kind.validate_read = None;
        }
        if !kind.available() {
            kind.root = Ty::Json;
            kind.default = null;
            kind.validate = |_| Report::default();
            kind.validate_read = None;
            kind.format = Format::Json;
            // The log keeps its name (a file is still named by its kind), not its replay.
            if let Some(File { log: Some(log), .. }) = &mut kind.file {
                log.replay = |_, _, _, _| Err(Error::new(Code::Unavailable, "", "no replay"));
            }
        }
        rest = tail;
    }
    kinds
}

/// Whether a file of the kind `name` is its document's JSON text (an unknown kind counts as
/// JSON): else a text format (index.md), whose document is the text's reading.
pub fn text_is_document(name: &str) -> bool {
    kind(name).map_or(true, |k| matches!(k.format, Format::Json))
}

/// Looks a kind up by name; `E_KIND` lists the known ones, `E_UNAVAILABLE` names the browser's
/// module that has a kind this build has not got.
pub fn kind(name: &str) -> Result<&'static Kind> {
    let found = KINDS.iter().find(|k| k.name == name);
    if let Some(protocol) = found.and_then(|k| k.protocol().filter(|_| !k.available())) {
        return Err(crate::ops::unloaded(name, "kind", protocol));
    }
    found.ok_or_else(|| {
        let known: Vec<&str> = KINDS.iter().map(|k| k.name).collect();
        Error::new(
            Code::Kind,
            "",
            format!(
                "unknown document kind {name:?}; known kinds: {}",
                known.join(", ")
            ),
        )
        .with_detail("kind", name)
        .with_detail("known", known)
    })
}

/// Validates a document of the given kind.
pub fn validate(name: &str, doc: &Value) -> Result<Report> {
    Ok((kind(name)?.validate)(doc))
}

/// The document a reader gets for a missing file of this kind.
pub fn default_document(name: &str) -> Result<Value> {
    Ok((kind(name)?.default)())
}

/// The names of all kinds.
pub fn names() -> Vec<&'static str> {
    KINDS.iter().map(|k| k.name).collect()
}

/// The kind of the file at `path`, found from its name: the kind whose file's place ends
/// `path` (`proj/.fctry/state.json` is `fctry.state`); when `loose`, else the one kind whose
/// file has `path`'s file name (`runner_status.json` anywhere). `None` when none, or more than
/// one, matches.
pub fn kind_for_path(path: &str, loose: bool) -> Option<&'static str> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let placed = |k: &&Kind| k.file.as_ref().is_some_and(|f| parts.ends_with(f.path));
    if let Some(kind) = KINDS.iter().find(placed) {
        return Some(kind.name);
    }
    let name = parts.last()?;
    let mut named = KINDS
        .iter()
        .filter(|k| k.file.as_ref().is_some_and(|f| f.path.last() == Some(name)));
    match (loose, named.next(), named.next()) {
        (true, Some(kind), None) => Some(kind.name),
        _ => None,
    }
}

/// The log a file at `path` is, found from its name (`…/EVENTS.jsonl`).
pub fn log_for_path(path: &str) -> Option<LogFile> {
    let name = path.rsplit('/').next()?;
    KINDS
        .iter()
        .filter_map(|k| k.file.as_ref().and_then(|f| f.log))
        .find(|log| log.name == name)
}
