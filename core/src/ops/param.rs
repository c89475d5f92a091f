//! An operation's parameters: how a host passes each ([`Kind`]) and what it is ([`Param`]).

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
    /// True when a value given for it is held to the documents' limits as the call binds it
    /// (every parameter but the command line's request, [`Param::unlimited_value`]).
    pub limited: bool,
}

impl Param {
    /// A required JSON value.
    pub const fn value(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Value,
            ty,
            optional: false,
            limited: true,
        }
    }

    /// A required JSON value whose strings are not held to the documents' limits: the
    /// command line's request, whose strings are the texts of the files it read.
    pub const fn unlimited_value(name: &'static str, ty: Ty) -> Param {
        Param {
            limited: false,
            ..Param::value(name, ty)
        }
    }

    /// An optional JSON value (`null` when left out).
    pub const fn opt_value(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Value,
            ty,
            optional: true,
            limited: true,
        }
    }

    /// A required string.
    pub const fn text(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Text,
            ty,
            optional: false,
            limited: true,
        }
    }

    /// An optional string.
    pub const fn opt_text(name: &'static str, ty: Ty) -> Param {
        Param {
            name,
            kind: Kind::Text,
            ty,
            optional: true,
            limited: true,
        }
    }

    /// File contents.
    pub const fn bytes(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Bytes,
            ty: Ty::Str,
            optional: false,
            limited: true,
        }
    }

    /// File contents, or none (a missing file).
    pub const fn opt_bytes(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Bytes,
            ty: Ty::Str,
            optional: true,
            limited: true,
        }
    }

    /// A whole number.
    pub const fn int(name: &'static str) -> Param {
        Param {
            name,
            kind: Kind::Int,
            ty: Ty::Int,
            optional: false,
            limited: true,
        }
    }

    /// `now`: the time, the host's clock when left out.
    pub const fn now() -> Param {
        Param {
            name: "now",
            kind: Kind::Now,
            ty: Ty::Alias(&crate::shape::common::NOW),
            optional: true,
            limited: true,
        }
    }

    /// `random`: an id suffix, random bytes from the host when left out.
    pub const fn random() -> Param {
        Param {
            name: "random",
            kind: Kind::Random,
            ty: Ty::Str,
            optional: true,
            limited: true,
        }
    }

    /// Options with the fields of `shape` (all optional).
    pub const fn options(name: &'static str, shape: &'static Shape) -> Param {
        Param {
            name,
            kind: Kind::Options(shape),
            ty: Ty::Object(shape),
            optional: true,
            limited: true,
        }
    }
}
