//! The table: what the host layers ask the core (the manifest, option errors) and the shapes
//! of the hosts' own options, so both hosts check them the same way.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::error::{Code, Error};
use crate::shape::common::NOW;
use crate::shape::{Field, Shape, Ty};
use serde_json::Value;

/// The options of a locked file update (`update_document` and every writer helper).
pub static UPDATE_OPTIONS: Shape = Shape::exact(
    "UpdateOptions",
    "Options of a locked file update.",
    &[
        Field::opt("if_match", Ty::Nullable(&Ty::Str), "Require the file's current etag (null: the file must not exist); else `ConflictError`."),
        Field::opt("now", Ty::Nullable(&Ty::Alias(&NOW)), "The time for stamps and `now` arguments (default: the host's clock, read under the lock)."),
        Field::opt("timeout", Ty::Number, "How long to wait for the lock before `LockTimeoutError` (JS: milliseconds; Python: seconds)."),
    ],
);

/// The options of a locked log append.
pub static APPEND_OPTIONS: Shape = Shape::exact(
    "AppendOptions",
    "Options of a locked log append.",
    &[Field::opt(
        "timeout",
        Ty::Number,
        "How long to wait for the lock (JS: milliseconds; Python: seconds).",
    )],
);

/// Every options shape of the hosts, by the name a host names it with.
pub static HOST_OPTIONS: [(&str, &Shape); 2] =
    [("update", &UPDATE_OPTIONS), ("append", &APPEND_OPTIONS)];

/// The host-facing operations.
pub(super) static OPS: &[Op] = &[
    Op {
        module: Module::Root,
        method: "manifest",
        doc: "The operation table as data: every operation, its parameters and result, the \
              types, the document kinds, the error classes and the hosts' constants.",
        params: &[],
        returns: Returns::json(Ty::Map(&Ty::Json)),
        access: Access::Pure,
        run: |_| Ok(Out::Json(super::manifest())),
    },
    Op {
        module: Module::Root,
        method: "options_error",
        doc: "Raises the `E_OPTIONS` error for an unknown key of a host's options (`set`: \
              `update` or `append`, and the keys `also` names), naming the nearest valid key \
              (`camel`: in camelCase).",
        params: &[
            Param::text("set", Ty::Str),
            Param::text("key", Ty::Str),
            Param::opt_value("camel", Ty::Bool),
            Param::opt_value("also", Ty::Nullable(&Ty::List(&Ty::Str))),
        ],
        returns: Returns::nothing(),
        access: Access::Pure,
        run: |a| {
            let set = a.text(0)?;
            let (_, shape) = HOST_OPTIONS
                .iter()
                .find(|(name, _)| *name == set)
                .ok_or_else(|| {
                    Error::new(
                        Code::Argument,
                        "/set",
                        format!("no host options named {set:?}"),
                    )
                })?;
            let camel_case = a.get(2).as_bool().unwrap_or(false);
            let also = a.get(3).as_array().into_iter().flatten();
            let known: Vec<String> = shape
                .fields
                .iter()
                .map(|f| {
                    if camel_case {
                        crate::options::camel(f.name)
                    } else {
                        f.name.to_owned()
                    }
                })
                .chain(also.filter_map(Value::as_str).map(str::to_owned))
                .collect();
            let known: Vec<&str> = known.iter().map(String::as_str).collect();
            Err(crate::options::unknown(set, a.text(1)?, &known))
        },
    },
];
