//! The table: the watchers' rules (docs/watch.md), for both hosts' `watch`.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::shape::Ty;
use crate::watch::{self, shapes as w, Facts};

/// The watchers' operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Root,
        method: "watch_target",
        doc: "Whether a watcher reads the file at `path` (`/`-separated) and as what: \
              `{path, kind, log}`, or null to leave it. A path the caller `named` is read as \
              `kind`, else as the kind its name gives (`E_KIND` when none); a file found under \
              a watched directory when the viewer shows it and, with `kind`, is of that kind.",
        params: &[
            Param::text("path", Ty::Str),
            Param::opt_text("kind", Ty::Str),
            Param::value("named", Ty::Bool),
        ],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&w::TARGET))),
        access: Access::Pure,
        web: false,
        run: |a| {
            let path = a.text(0)?;
            let named = a.get(2).as_bool().unwrap_or(false);
            let found = watch::target(path, a.opt_text(1)?, named)?;
            Ok(Out::Json(watch::target_value(path, found)))
        },
    },
    Op {
        module: Module::Root,
        method: "watch_read",
        doc: "What a watcher does with `data`, the bytes it read of `target`'s file (none: it \
              is gone; a log: from `facts.offset` on): report the change checked as its kind, \
              read again after `delay_ms` when the bytes are a write under way (a torn \
              document or last log line: while `<file>.lock` is there, up to the lock timeout, then \
              for 375 ms more), or \
              nothing (a log with nothing new); with where a log's next read starts.",
        params: &[
            Param::value("target", Ty::Object(&w::TARGET)),
            Param::opt_bytes("data"),
            Param::value("facts", Ty::Object(&w::FACTS)),
        ],
        returns: Returns::json(Ty::Object(&w::READ)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let target = a.input(0, &w::TARGET)?;
            let facts = Facts::of(a.input(2, &w::FACTS)?);
            let path = target.get("path").and_then(crate::Value::as_str).unwrap_or("");
            let kind = target.get("kind").and_then(crate::Value::as_str).unwrap_or("");
            let log = target.get("log").and_then(crate::Value::as_bool).unwrap_or(false);
            let found = watch::resolve(kind, log)?;
            Ok(Out::Json(watch::read(path, found, a.opt_bytes(1), &facts)))
        },
    },
]);
