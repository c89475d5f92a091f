//! The host-routine table's vocabulary: what a routine of a host layer (file I/O, locks,
//! watchers, a protocol's host part) takes and gives, declared once, so that its TypeScript
//! and Python types and its docs are generated (docs/architecture.md § The host-routine table).
//!
//! The routines themselves are written in each host (they do system calls); the rows are in
//! `table_routines.rs`. A row names the routine once, in snake_case (JS spells it in camelCase,
//! with a `Sync` twin), its parameters with their types, its options (the host options shapes
//! of `table_host.rs`, checked by `check_options`: a misspelt key is `E_OPTIONS`), its result
//! and its doc.

use crate::shape::{Shape, Ty};

/// The module (a JS entry, a Python module) a host routine is exported from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Entry {
    /// `statecore-js` (lib/host/host.cjs) and `statecore` / `statecore.host`.
    Host,
    /// `statecore-js/hivemind` and `statecore.hivemind`.
    Hivemind,
    /// `statecore-js/agency` and `statecore.agency`.
    Agency,
    /// `statecore-js/hive` and `statecore.hive`.
    Hive,
    /// `statecore-js/specify` and `statecore.specify`.
    Specify,
}

impl Entry {
    /// Every entry, in documentation order.
    pub const ALL: [Entry; 5] = [
        Entry::Host,
        Entry::Hivemind,
        Entry::Agency,
        Entry::Hive,
        Entry::Specify,
    ];

    /// Its name: `host`, or the protocol's.
    pub const fn name(self) -> &'static str {
        match self {
            Entry::Host => "host",
            Entry::Hivemind => "hivemind",
            Entry::Agency => "agency",
            Entry::Hive => "hive",
            Entry::Specify => "specify",
        }
    }
}

/// How a routine is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// JS: `name` returns a Promise and `nameSync` the value; Python: `name` returns the value
    /// (`statecore.aio.run` runs it on a thread).
    Both,
    /// It starts something and returns its handle at once in both languages (a watcher).
    Direct,
}

/// A type in a host routine's signature or a host type's field.
#[derive(Debug, Clone, Copy)]
pub enum HostTy {
    /// A type of the core's shapes (`Ty::KindDoc`: the document of the routine's `kind`).
    Core(Ty),
    /// The routine's document kind (the signature is generic in it).
    Kind,
    /// Any document kind (`DocumentKind`).
    AnyKind,
    /// A file's path (JS: a string, a `Buffer` or a `file:` URL; Python: `str` or
    /// `os.PathLike`).
    Path,
    /// A directory's path (JS: a string; Python: `str` or `os.PathLike`).
    Dir,
    /// A change of the kind's document: a patch, or a function given the document that
    /// returns the new one (or changes it and returns nothing).
    Change,
    /// Options checked against these host options shapes (camelCase keys in JS; keywords in
    /// Python).
    Options(&'static [&'static Shape]),
    /// A host type of this table applied to type arguments.
    Of(&'static HostType, &'static [HostTy]),
    /// A value of a type, or null.
    Nullable(&'static HostTy),
    /// A list.
    List(&'static HostTy),
    /// A type parameter of the host type being declared (`D`, `R`).
    Param(&'static str),
    /// A type the host layer itself declares (a class, a callback, a handle), as each
    /// language spells it.
    Native {
        /// In TypeScript.
        js: &'static str,
        /// In Python.
        py: &'static str,
    },
}

/// Which languages have a parameter or field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// Both.
    Both,
    /// JS only.
    Js,
    /// Python only.
    Py,
}

/// A field of a host type.
#[derive(Debug, Clone, Copy)]
pub struct HostField {
    /// Its snake_case name (camelCase in JS).
    pub name: &'static str,
    /// Its type.
    pub ty: HostTy,
    /// False: it may be absent.
    pub required: bool,
    /// Present only when this type parameter is given (JS: not `never`).
    pub when: Option<&'static str>,
    /// Which languages have it.
    pub lang: Lang,
    /// What it is.
    pub doc: &'static str,
}

impl HostField {
    /// A field every result has.
    pub const fn req(name: &'static str, ty: HostTy, doc: &'static str) -> HostField {
        HostField {
            name,
            ty,
            required: true,
            when: None,
            lang: Lang::Both,
            doc,
        }
    }
}

/// A type the host routines give (a result) or take (options with a store), declared once for
/// both languages. A base of options shapes (`HostTy::Options`) gives its fields: in JS the
/// core's options type joined to this one's fields, in Python its fields (less `omit_py`) in
/// this `TypedDict`.
#[derive(Debug, Clone, Copy)]
pub struct HostType {
    /// Its TypeScript name.
    pub name: &'static str,
    /// Its Python name (today's spelling of each language is kept).
    pub py_name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// Its type parameters with their TypeScript defaults: `("D", "Json")`.
    pub params: &'static [(&'static str, &'static str)],
    /// A type it extends (its fields are added to this one's).
    pub base: Option<HostTy>,
    /// Its fields (none for an alias).
    pub fields: &'static [HostField],
    /// Another name of this type (`ReadLogResult` is `LogRead`).
    pub alias: Option<HostTy>,
    /// Which languages have it.
    pub lang: Lang,
    /// The fields of its base's options shapes Python leaves out (an argument there: `now`).
    pub omit_py: &'static [&'static str],
}

/// A parameter of a host routine.
#[derive(Debug, Clone, Copy)]
pub struct HostParam {
    /// Its snake_case name (camelCase in JS).
    pub name: &'static str,
    /// Its type.
    pub ty: HostTy,
    /// True when it may be left out (Python: a keyword with a default).
    pub optional: bool,
    /// It applies to a patch only: null when the change is a function.
    pub patch_only: bool,
    /// Which languages have it.
    pub lang: Lang,
}

impl HostParam {
    /// A required parameter.
    pub const fn req(name: &'static str, ty: HostTy) -> HostParam {
        HostParam {
            name,
            ty,
            optional: false,
            patch_only: false,
            lang: Lang::Both,
        }
    }

    /// An optional parameter.
    pub const fn opt(name: &'static str, ty: HostTy) -> HostParam {
        HostParam {
            optional: true,
            ..HostParam::req(name, ty)
        }
    }

    /// The same parameter in one language only.
    pub const fn only(self, lang: Lang) -> HostParam {
        HostParam { lang, ..self }
    }
}

/// The callback of a watcher (a file watcher's, a store's): given each change.
pub const WATCH_CALLBACK: HostParam = HostParam::req(
    "callback",
    HostTy::Native {
        js: "(change: C.WatchChange) => void",
        py: "Callable[[WatchChange], object]",
    },
);

/// A routine of a host layer.
#[derive(Debug, Clone, Copy)]
pub struct Routine {
    /// The module it is exported from.
    pub entry: Entry,
    /// Its snake_case name.
    pub name: &'static str,
    /// Its parameters, in order.
    pub params: &'static [HostParam],
    /// What it returns.
    pub returns: HostTy,
    /// How it is called.
    pub style: Style,
    /// What it does (`timeout`'s unit is the language's: JS milliseconds, Python seconds).
    pub doc: &'static str,
    /// Served by `statecore mcp` as the tool `<entry>_<name>` (`<name>` for the host's own;
    /// docs/mcp.md): it reads or writes a project's files and is called once, with no
    /// callback or handle. A document's read, update and log append are the generic tools.
    pub tool: bool,
}

impl Routine {
    /// True when its signature is generic in the document kind (a parameter is the kind).
    pub fn generic(&self) -> bool {
        self.params.iter().any(|p| matches!(p.ty, HostTy::Kind))
    }
}

/// What a member of a host class is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberKind {
    /// `new Class(...)` in JS, `Class(...)` in Python.
    Constructor,
    /// A function of the class itself (JS `static`): a factory.
    Static,
    /// A method of an instance.
    Method,
    /// A read-only field of an instance.
    Property,
}

/// A member of a host class.
#[derive(Debug, Clone, Copy)]
pub struct Member {
    /// Its snake_case name (camelCase in JS).
    pub name: &'static str,
    /// What it is.
    pub kind: MemberKind,
    /// Its parameters, in order (none for a property).
    pub params: &'static [HostParam],
    /// What it returns (a property: its type; a constructor: nothing of note).
    pub returns: HostTy,
    /// JS returns a Promise of the result (Python returns the result).
    pub awaited: bool,
    /// Which languages have it.
    pub lang: Lang,
    /// What it does.
    pub doc: &'static str,
}

/// A class (or an interface) the host layers export, declared once for both languages like
/// the routines: its TypeScript declarations and the docs' list are generated, and each host's
/// tests check that the class has these members, and no other public one, with these
/// parameters.
#[derive(Debug, Clone, Copy)]
pub struct HostClass {
    /// Its name in both languages.
    pub name: &'static str,
    /// What it is.
    pub doc: &'static str,
    /// An interface no host exports as a value (TypeScript `interface`; a protocol in Python).
    pub interface: bool,
    /// The interface it implements: its members are this class's too.
    pub implements: Option<&'static HostClass>,
    /// Its own members.
    pub members: &'static [Member],
}

impl HostClass {
    /// Every member: the interface's, then its own.
    pub fn all_members(&self) -> impl Iterator<Item = &'static Member> {
        let shared: &'static [Member] = match self.implements {
            Some(interface) => interface.members,
            None => &[],
        };
        shared.iter().chain(self.members.iter())
    }
}
