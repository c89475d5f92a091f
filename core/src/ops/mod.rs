//! The operation table: every operation statecore exposes, declared once (docs/conventions.md § Layers).
//!
//! An [`Op`] names a core function, its parameters (how a host passes each: a JSON value,
//! file bytes, text, the clock, randomness, options) with their types, its result, its doc
//! comment and, for operations on a protocol's documents, which document kind it reads or
//! writes. From the table come the generic dispatcher [`call`] that every binding uses, the
//! one-crossing file update ([`update`]) and query ([`query`]), and the machine-readable
//! [`manifest`] from which `xtask codegen` writes the JS namespaces, the TypeScript and Python
//! types, the error maps, the conformance dispatchers and `docs/api.md`.
//!
//! Adding an operation: its core function, one entry in a table module below, its corpus
//! cases, then `cargo run -p xtask -- codegen`.

mod args;
mod file;
mod gate;
mod logged;
mod manifest;
mod module;
mod out;
mod resident;
mod session_log;
mod table_agency;
mod table_core;
mod table_fctry;
mod table_files;
mod table_hive;
mod table_hivemind;
mod table_host;
mod table_specify;
mod table_store;
mod table_view;
mod table_watch;

pub use args::{Arg, Args};
pub use file::{query, update, update_read, update_unread, Change, Updated};
use gate::refuse;
pub(crate) use gate::{gate, unloaded};
pub use logged::{logged_change, update_logged, LogReplay};
pub use manifest::{manifest, type_roots};
pub use module::Module;
pub use out::Out;
pub use resident::Resident;
pub use table_host::{Constant, APPEND_OPTIONS, CONSTANTS, HOST_OPTIONS, UPDATE_OPTIONS};

use crate::error::{Code, Error, Result};
use crate::shape::{Shape, Ty};

/// How a host passes a parameter.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A JSON value (a document, a list, a string, a number...).
    Value,
    /// A string.
    Text,
    /// File contents: bytes (JS `Uint8Array` or a string, Python `bytes` or `str`).
    Bytes,
    /// A whole number.
    Int,
    /// The time: RFC 3339 text or epoch milliseconds; omitted, the host's clock.
    Now,
    /// An explicit 6-character base36 id suffix, or (omitted) random bytes from the host.
    Random,
    /// An options object with the fields of a shape (Python: also keyword arguments).
    Options(&'static Shape),
}

/// One parameter of an operation.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    /// Its name (snake_case; JS uses camelCase).
    pub name: &'static str,
    /// How a host passes it.
    pub kind: Kind,
    /// Its type, for the generated signatures.
    pub ty: Ty,
    /// True when it may be left out (`null`/`None`/`undefined`).
    pub optional: bool,
}

impl Param {
    /// A required JSON value.
    pub const fn value(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Value,
            ty,
            optional: false,
        }
    }

    /// An optional JSON value (`null` when left out).
    pub const fn opt_value(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Value,
            ty,
            optional: true,
        }
    }

    /// A required string.
    pub const fn text(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Text,
            ty,
            optional: false,
        }
    }

    /// An optional string.
    pub const fn opt_text(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Text,
            ty,
            optional: true,
        }
    }

    /// File contents.
    pub const fn bytes(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Bytes,
            ty: Ty::Str,
            optional: false,
        }
    }

    /// File contents, or none (a missing file).
    pub const fn opt_bytes(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Bytes,
            ty: Ty::Str,
            optional: true,
        }
    }

    /// A whole number.
    pub const fn int(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Int,
            ty: Ty::Int,
            optional: false,
        }
    }

    /// `now`: the time, the host's clock when left out.
    pub const fn now() -> Param {
        Param {
            name: "now",
            kind: Kind::Now,
            ty: Ty::Alias(&crate::shape::common::NOW),
            optional: true,
        }
    }

    /// `random`: an id suffix, random bytes from the host when left out.
    pub const fn random() -> Param {
        Param {
            name: "random",
            kind: Kind::Random,
            ty: Ty::Str,
            optional: true,
        }
    }

    /// Options with the fields of `shape` (all optional).
    pub const fn options(name: &'static str, shape: &'static Shape) -> Param {
        Param {
            name,
            kind: Kind::Options(shape),
            ty: Ty::Object(shape),
            optional: true,
        }
    }
}

/// How a result comes back to a host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A JSON value (JS: parsed from JSON text; Python: objects).
    Json,
    /// Text, exactly (numbers of any size survive).
    Text,
    /// Nothing (the operation either succeeds or raises).
    Nothing,
    /// Never: the operation always raises (it builds an error a host throws).
    Raises,
    /// A JSON object `{document, text, ...}` from [`Out::Update`]: the wasm binding sends its
    /// other fields and the document's canonical text, from which the JS layer parses the
    /// document (the document is not written twice); Python gets objects, as for `Json`.
    Update,
    /// A reader's result `{document, etag, ...}` from [`Out::Loaded`]: when the document is
    /// the bytes' own JSON as written, the wasm binding sends only the other fields and the JS
    /// layer parses the bytes it passed in with `JSON.parse`; Python gets objects.
    Loaded,
}

/// What an operation returns.
#[derive(Debug, Clone, Copy)]
pub struct Returns {
    /// How it comes back.
    pub form: Form,
    /// Its type, for the generated signatures.
    pub ty: Ty,
}

impl Returns {
    /// A JSON value of type `ty`.
    pub const fn json(ty: Ty) -> Returns {
        Returns {
            form: Form::Json,
            ty,
        }
    }

    /// Text.
    pub const fn text() -> Returns {
        Returns {
            form: Form::Text,
            ty: Ty::Str,
        }
    }

    /// Nothing.
    pub const fn nothing() -> Returns {
        Returns {
            form: Form::Nothing,
            ty: Ty::Null,
        }
    }

    /// An update result of type `ty` (`{document, text, ...}`, see [`Form::Update`]).
    pub const fn update(ty: Ty) -> Returns {
        Returns {
            form: Form::Update,
            ty,
        }
    }

    /// A reader's result of type `ty` (`{document, etag, ...}`, see [`Form::Loaded`]).
    pub const fn loaded(ty: Ty) -> Returns {
        Returns {
            form: Form::Loaded,
            ty,
        }
    }

    /// Never: the operation always raises.
    pub const fn raises() -> Returns {
        Returns {
            form: Form::Raises,
            ty: Ty::Null,
        }
    }
}

/// What an operation does with a protocol's files (its first parameter is the document).
#[derive(Debug, Clone, Copy)]
pub enum Access {
    /// Nothing: a pure function of its arguments.
    Pure,
    /// It reads a document of `kind` (the first parameter; `bytes`: the file's bytes).
    Reads {
        /// The document kind.
        kind: &'static str,
        /// True when the first parameter is the file's bytes rather than its document.
        bytes: bool,
        /// The name of the project-directory helper when it differs from the operation's.
        helper: Option<&'static str>,
    },
    /// It computes a new document of a kind from the current one.
    Writes(Write),
}

/// How a writer's result becomes the new document.
#[derive(Debug, Clone, Copy)]
pub struct Write {
    /// The document kind.
    pub kind: &'static str,
    /// True when the first parameter is the current document (false: it replaces it).
    pub takes_document: bool,
    /// Where the new document is in the result: `None` for the result itself, or a field
    /// (the Hivemind outcome's `state`, written only when its `changed` is true).
    pub document_at: Option<&'static str>,
    /// The name of the project-directory helper when it differs from the operation's.
    pub helper: Option<&'static str>,
    /// An extra field of the helper's result: its name, a JSON pointer into the document and
    /// its type (`("item", "/0", InboxItem)`: the inbox item just added).
    pub extra: Option<(&'static str, &'static str, Ty)>,
}

impl Write {
    /// A writer of `kind` whose result is the new document.
    pub const fn document(kind: &'static str) -> Write {
        Write {
            kind,
            takes_document: true,
            document_at: None,
            helper: None,
            extra: None,
        }
    }
}

/// The function behind an operation.
pub type Run = fn(&mut Args<'_>) -> Result<Out>;

/// One operation.
#[derive(Debug)]
pub struct Op {
    /// Its namespace.
    pub module: Module,
    /// Its name within the namespace (snake_case: `start_step`).
    pub method: &'static str,
    /// What it does, for people (the doc comment of every generated function).
    pub doc: &'static str,
    /// Its parameters, in order.
    pub params: &'static [Param],
    /// What it returns.
    pub returns: Returns,
    /// What it does with a protocol's files.
    pub access: Access,
    /// True when the browser's module has it (a page's operations: validation, reading
    /// documents, the protocol views and derivations). A build of the core without the `full`
    /// feature (the browser's module, docs/performance.md § wasm size) keeps only every other
    /// operation's name: it raises `E_UNAVAILABLE` ([`gate`]).
    pub web: bool,
    /// The core function.
    pub run: Run,
}

impl Op {
    /// The operation's full name: `fctry_start_step` (the corpus and the bindings use it).
    pub fn name(&self) -> String {
        match self.module {
            Module::Root => self.method.to_owned(),
            module => format!("{}_{}", module.name(), self.method),
        }
    }

    /// The protocol the operation belongs to: its module's, else the protocol of the kind it
    /// reads or writes; `None` for a generic operation (the base every build has).
    pub const fn protocol(&self) -> Option<Module> {
        if self.module.is_protocol() {
            return Some(self.module);
        }
        match self.access {
            Access::Reads { kind, .. } | Access::Writes(Write { kind, .. }) => {
                Module::of_kind(kind)
            }
            Access::Pure => None,
        }
    }

    /// True when this build of the core has the operation's code: every operation with the
    /// `full` feature; without it, the browser's ([`Op::web`]) of the generic base and of the
    /// enabled protocols ([`Module::enabled`]).
    pub const fn available(&self) -> bool {
        if cfg!(feature = "full") {
            return true;
        }
        self.web
            && match self.protocol() {
                Some(protocol) => protocol.enabled(),
                None => true,
            }
    }

    /// True when this operation is called `name` (`fctry_start_step`).
    pub fn is(&self, name: &str) -> bool {
        match self.module {
            Module::Root => self.method == name,
            module => {
                name.strip_prefix(module.name())
                    .and_then(|rest| rest.strip_prefix('_'))
                    == Some(self.method)
            }
        }
    }
}

/// Every operation, module by module.
pub fn all() -> impl Iterator<Item = &'static Op> {
    table_core::OPS
        .iter()
        .chain(table_fctry::OPS)
        .chain(table_hivemind::OPS)
        .chain(table_hive::OPS)
        .chain(table_specify::OPS)
        .chain(table_agency::OPS)
        .chain(table_files::OPS)
        .chain(table_host::OPS)
        .chain(table_store::OPS)
        .chain(table_view::OPS)
        .chain(table_watch::OPS)
}

/// The operation called `name`; `E_ARGUMENT` for an unknown one. Every call of every
/// binding looks its operation up by name: an index of the names, made on the first call,
/// finds it without a scan of the table.
pub fn find(name: &str) -> Result<&'static Op> {
    static INDEX: std::sync::OnceLock<std::collections::HashMap<String, &'static Op>> =
        std::sync::OnceLock::new();
    let index = INDEX.get_or_init(|| {
        let mut index = std::collections::HashMap::new();
        for op in all() {
            index.entry(op.name()).or_insert(op);
        }
        index
    });
    let op = index.get(name).copied().ok_or_else(|| {
        Error::new(
            Code::Argument,
            "",
            format!("unknown operation {name:?}; the operations are listed by manifest()"),
        )
        .with_detail("op", name)
    })?;
    if op.available() {
        Ok(op)
    } else {
        Err(refuse(op))
    }
}

/// Runs an operation on its arguments (as many as it has parameters at most; missing ones
/// are `null`). Every binding calls this.
pub fn call(op: &Op, mut args: Args<'_>) -> Result<Out> {
    if !op.available() {
        return Err(refuse(op));
    }
    args.bind(op)?;
    (op.run)(&mut args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_gives_every_operation_by_its_name_and_nothing_else() {
        let mut names = std::collections::HashSet::new();
        for op in all() {
            assert!(
                names.insert(op.name()),
                "two operations named {}",
                op.name()
            );
            let found = find(&op.name());
            if op.available() {
                assert!(found.is_ok_and(|f| std::ptr::eq(f, op)), "{}", op.name());
            } else {
                assert!(
                    found.is_err_and(|e| e.code == Code::Unavailable),
                    "{}",
                    op.name()
                );
            }
            assert!(op.is(&op.name()));
        }
        for name in [
            "",
            "hivemind_",
            "hivemind",
            "fctry_start_stepx",
            "Fctry_start_step",
            "_merge",
        ] {
            let error = find(name).err();
            assert!(
                error.is_some_and(
                    |e| e.code == Code::Argument && e.message.contains("unknown operation")
                ),
                "{name:?}"
            );
        }
    }
}
