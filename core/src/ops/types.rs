//! What the table says of an operation ([`Op`]): its result ([`Returns`], [`Form`]), the
//! documents it reads or writes ([`Access`], [`Write`]) and the call into the rules ([`Run`]).

use super::args::Args;
use super::module::Module;
use super::out::Out;
use super::param::Param;
use crate::error::Result;
use crate::shape::Ty;

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
    /// A job of the core ([`Out::Job`]: a procedure that asks its host for one step at a
    /// time, docs/locking.md § The lock as a job): JS gets `{first, next, free}`, Python a
    /// `Job`; `ty` is the type of its steps.
    Job,
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

    /// A job whose steps are of type `ty` (see [`Form::Job`]).
    pub const fn job(ty: Ty) -> Returns {
        Returns {
            form: Form::Job,
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
