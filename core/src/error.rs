//! The error model shared by every surface (docs/conventions.md § Errors).
//!
//! An [`Error`] is for input that cannot be processed at all, or an operation that was refused.
//! Validation problems are *data* (see [`crate::report`]), not errors.

use crate::{Map, Value};

/// A stable, machine-readable error code. The string form (`"E_PARSE"`, ...) never changes;
/// every code is listed in `docs/errors.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    /// The bytes are not JSON (RFC 8259): syntax, encoding, lone surrogate, trailing data.
    Parse,
    /// An object has the same key twice; statecore rejects rather than guesses which wins.
    DuplicateKey,
    /// A documented limit (depth, document size, string length) was exceeded.
    Limit,
    /// A number cannot be represented exactly by the host (e.g. an integer above 2^53 in JS).
    Precision,
    /// A host value that is not JSON (NaN, Infinity, a lone surrogate, a function, a cycle...).
    Value,
    /// The document kind is not known.
    Kind,
    /// Merge inputs of the wrong shape (e.g. a deep merge of an array into an object).
    Merge,
    /// An options object is malformed (unknown strategy, bad rule, bad stamp).
    Options,
    /// A timestamp is not RFC 3339 / ISO 8601 with a time zone.
    Timestamp,
    /// The document failed validation; `details` is the whole report.
    Invalid,
    /// The event is not legal from the current state of a machine.
    Transition,
    /// A machine definition is malformed.
    Machine,
    /// A JSONL log has an unparseable line before its last valid line.
    LogCorrupt,
    /// A write required an etag (`if_match`) that no longer matches the file.
    Conflict,
    /// A function argument outside its allowed values (an unknown command, step or agent).
    Argument,
    /// A lock held by a live owner was not released in time (raised by the host layers).
    LockTimeout,
    /// The lock path holds a file that is not a statecore lock record (`poetry.lock`): it is
    /// never removed (raised by the host layers).
    LockForeign,
    /// The path is not a regular file (a FIFO, a device, a directory, or a symbolic link where
    /// a log is written): statecore does not read or write it (raised by the host layers).
    FileType,
    /// A function of the browser entry was called before `await init()` (JS only).
    NotInitialized,
    /// There is no hive session: no `STATE.json` and no `session_created` event in its log.
    NoSession,
    /// A path an agent gave would write outside its directory, or is not portable (`..`, an
    /// absolute path, a backslash, a control character, a link on the way).
    PathUnsafe,
    /// The document store cannot carry out the operation: its connection was lost or refused
    /// (`details.retryable`: true, try again), or its schema is newer than this library's
    /// (raised by the host layers' PostgreSQL store).
    Store,
    /// An operation of the table that this build has not got: the browser's module (the
    /// `statecore-js/web` entry) has only what a page uses (JS only).
    Unavailable,
}

impl Code {
    /// Every code, in documentation order.
    pub const ALL: [Code; 23] = [
        Code::Parse,
        Code::DuplicateKey,
        Code::Limit,
        Code::Precision,
        Code::Value,
        Code::Kind,
        Code::Merge,
        Code::Options,
        Code::Timestamp,
        Code::Invalid,
        Code::Transition,
        Code::Machine,
        Code::LogCorrupt,
        Code::Conflict,
        Code::Argument,
        Code::LockTimeout,
        Code::LockForeign,
        Code::FileType,
        Code::NotInitialized,
        Code::NoSession,
        Code::PathUnsafe,
        Code::Store,
        Code::Unavailable,
    ];

    /// The stable string form of the code.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::Parse => "E_PARSE",
            Code::DuplicateKey => "E_DUPLICATE_KEY",
            Code::Limit => "E_LIMIT",
            Code::Precision => "E_PRECISION",
            Code::Value => "E_VALUE",
            Code::Kind => "E_KIND",
            Code::Merge => "E_MERGE",
            Code::Options => "E_OPTIONS",
            Code::Timestamp => "E_TIMESTAMP",
            Code::Invalid => "E_INVALID",
            Code::Transition => "E_TRANSITION",
            Code::Machine => "E_MACHINE",
            Code::LogCorrupt => "E_LOG_CORRUPT",
            Code::Conflict => "E_CONFLICT",
            Code::Argument => "E_ARGUMENT",
            Code::LockTimeout => "E_LOCK_TIMEOUT",
            Code::LockForeign => "E_LOCK_FOREIGN",
            Code::FileType => "E_FILE_TYPE",
            Code::NotInitialized => "E_NOT_INITIALIZED",
            Code::NoSession => "E_NO_SESSION",
            Code::PathUnsafe => "E_PATH_UNSAFE",
            Code::Store => "E_STORE",
            Code::Unavailable => "E_UNAVAILABLE",
        }
    }

    /// The error class (family) hosts raise for this code: `ParseError`, `LimitError`, ...
    pub fn class_name(self) -> &'static str {
        match self {
            Code::Parse | Code::DuplicateKey => "ParseError",
            Code::Limit => "LimitError",
            Code::Precision | Code::Value => "DataError",
            Code::Kind
            | Code::Options
            | Code::Machine
            | Code::Argument
            | Code::NoSession
            | Code::Unavailable => "UsageError",
            Code::Merge => "MergeError",
            Code::Timestamp => "TimestampError",
            Code::Invalid => "ValidationError",
            Code::Transition => "TransitionError",
            Code::LogCorrupt => "LogCorruptError",
            Code::Conflict => "ConflictError",
            Code::LockTimeout => "LockTimeoutError",
            Code::LockForeign => "LockForeignError",
            Code::FileType => "FileTypeError",
            Code::NotInitialized => "StatecoreError",
            Code::PathUnsafe => "PathUnsafeError",
            Code::Store => "StoreError",
        }
    }
}

/// An error class of the hosts: JS `Error` subclasses and Python exceptions, all subclasses
/// of `StatecoreError`, with the codes they are raised for (generated into both hosts).
#[derive(Debug)]
pub struct Class {
    /// The class name (`ParseError`).
    pub name: &'static str,
    /// What it means, for people.
    pub doc: &'static str,
    /// The Python built-in exceptions it also subclasses (`ValueError`, `TimeoutError`).
    pub python_bases: &'static [&'static str],
}

/// Every error class, base class first.
pub const CLASSES: [Class; 16] = [
    Class {
        name: "StatecoreError",
        doc: "Base class of every statecore error: a stable `code`, a JSON-pointer `path`, a message, `details`.",
        python_bases: &["Exception"],
    },
    Class {
        name: "ParseError",
        doc: "The bytes are not JSON, or an object repeats a key.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "LimitError",
        doc: "A documented limit (depth, document size, string length) was exceeded.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "DataError",
        doc: "A host value that is not JSON (`E_VALUE`), or a number the host cannot hold (`E_PRECISION`).",
        python_bases: &["ValueError"],
    },
    Class {
        name: "UsageError",
        doc: "An unknown kind, malformed options or machine, or an argument outside its allowed values.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "MergeError",
        doc: "Merge inputs of the wrong shape.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "TimestampError",
        doc: "A timestamp that is not RFC 3339 with a time zone, or out of range.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "ValidationError",
        doc: "A document was refused because it is invalid; `details` is the validation report.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "TransitionError",
        doc: "The event is not legal from the machine's current state.",
        python_bases: &[],
    },
    Class {
        name: "LogCorruptError",
        doc: "A JSONL log has an unparseable line before its last valid line.",
        python_bases: &[],
    },
    Class {
        name: "ConflictError",
        doc: "A write required an etag (`if_match`) that no longer matches the file.",
        python_bases: &[],
    },
    Class {
        name: "LockTimeoutError",
        doc: "A lock held by a live owner was not released in time (raised by the host layers).",
        python_bases: &["TimeoutError"],
    },
    Class {
        name: "LockForeignError",
        doc: "The lock path holds a file that is not a statecore lock (it is left alone).",
        python_bases: &["FileExistsError"],
    },
    Class {
        name: "FileTypeError",
        doc: "The path is not a regular file (a FIFO, a device, a directory, a symlink for a log).",
        python_bases: &["OSError"],
    },
    Class {
        name: "PathUnsafeError",
        doc: "A path an agent gave would write outside its directory or is not portable; nothing was written.",
        python_bases: &["ValueError"],
    },
    Class {
        name: "StoreError",
        doc: "The document store could not carry out the operation (a lost or refused connection: `details.retryable`; a schema newer than this library); nothing was half-applied.",
        python_bases: &["ConnectionError"],
    },
];

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error with a stable `code`, a JSON-pointer `path` into the document (`""` for the whole
/// document), a one-line `message` a person can act on, and structured `details`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct Error {
    /// Stable code.
    pub code: Code,
    /// JSON pointer (RFC 6901) to the offending place; `""` is the document itself.
    pub path: String,
    /// What went wrong and what to do about it.
    pub message: String,
    /// Structured details (line/column for parse errors, the report for `E_INVALID`, ...).
    pub details: Value,
}

/// Result alias used across the core.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// A new error with empty details.
    pub fn new(code: Code, path: impl Into<String>, message: impl Into<String>) -> Self {
        Error {
            code,
            path: path.into(),
            message: message.into(),
            details: Value::Object(Map::new()),
        }
    }

    /// Adds one detail field.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        if let Value::Object(map) = &mut self.details {
            map.insert(key.into(), value.into());
        }
        self
    }

    /// The error as a JSON object: `{name, code, path, message, details}`. This is the one
    /// shape every binding turns into its host's exception class.
    pub fn to_value(&self) -> Value {
        let mut map = Map::new();
        map.insert("name".into(), self.code.class_name().into());
        map.insert("code".into(), self.code.as_str().into());
        map.insert("path".into(), self.path.clone().into());
        map.insert("message".into(), self.message.clone().into());
        map.insert("details".into(), self.details.clone());
        Value::Object(map)
    }
}

/// The `E_FILE_TYPE` error of the hosts: `path` is a `what` (`fifo`, `directory`, `symbolic
/// link`, ...), not a regular file: statecore neither reads nor writes it.
pub fn file_type_error(path: &str, what: &str) -> Error {
    let why = if what == "symbolic link" {
        "a log is appended only to a regular file, never through a link to another file; \
         point statecore at the file itself"
    } else {
        "statecore only reads and writes regular files; point it at one"
    };
    Error::new(
        Code::FileType,
        "",
        format!("{path} is a {what}, not a regular file: {why}"),
    )
    .with_detail("path", path)
    .with_detail("type", what)
}

/// Escapes one reference token for a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn escape_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Appends a reference token to a JSON pointer.
pub fn child_path(parent: &str, token: &str) -> String {
    let mut out = String::with_capacity(parent.len().saturating_add(token.len()).saturating_add(1));
    out.push_str(parent);
    out.push('/');
    if token.contains(['~', '/']) {
        out.push_str(&escape_token(token));
    } else {
        out.push_str(token);
    }
    out
}
