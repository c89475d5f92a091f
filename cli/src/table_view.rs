//! The table: the viewer's rules (docs/viewer.md), for its server and its page.

use crate::view::shapes as v;
use statecore::error::{Code, Error, Result};
use statecore::ops::{gate, Access, Constant, Module, Op, Out, Param, Returns};
use statecore::report::Report;
use statecore::shape::check::walk;
use statecore::shape::{Shape, Ty};
use statecore::Value;

/// `E_OPTIONS` for a key `shape` does not have (with the nearest name), else `E_ARGUMENT`
/// unless `value` is an object of `shape` (types, required fields).
fn exact(what: &str, value: &Value, shape: &Shape) -> Result<()> {
    statecore::options::check_deep(what, value, shape)?;
    let mut report = Report::default();
    let object = walk(&mut report, value, shape, "");
    match (object, report.errors.first()) {
        (Some(_), None) => Ok(()),
        (_, first) => Err(Error::new(
            Code::Argument,
            first.map_or("", |i| i.path.as_str()),
            format!(
                "{what} is a {}: {}",
                shape.name,
                first.map_or("not an object", |i| i.message.as_str())
            ),
        )),
    }
}

/// The viewer's operations.
pub(crate) static OPS: &[Op] = &gate([
    Op {
        module: Module::Root,
        method: "view_file",
        doc: "What `statecore view` makes of the file at `path` (relative, `/`-separated): its \
              role, kind and group, and with its bytes its check as `validate --json` gives \
              it (with the document); null for a file the viewer does not show.",
        params: &[Param::text("path", Ty::Str), Param::opt_bytes("data")],
        returns: Returns::json(Ty::Nullable(&Ty::Object(&v::FILE))),
        access: Access::Pure,
        web: true,
        run: |a| {
            let file = crate::view::view_file(a.text(0)?, a.opt_bytes(1));
            // A file of a protocol this build has not got cannot be checked here: the error
            // names the browser's module that can.
            let kind = file
                .as_ref()
                .and_then(|f| f.get("kind"))
                .and_then(Value::as_str);
            if let (Some(kind), Some(_)) = (kind, a.opt_bytes(1)) {
                statecore::kinds::kind(kind)?;
            }
            Ok(Out::Json(file.unwrap_or(Value::Null)))
        },
    },
    Op {
        module: Module::Root,
        method: "view_request",
        doc: "How the viewer's server answers a request: the route to serve, or a refusal with \
              its status, code and message (foreign Host or Origin, unknown path, method, \
              write without the token), with the headers every answer carries.",
        params: &[
            Param::value("request", Ty::Object(&v::REQUEST)),
            Param::value("server", Ty::Object(&v::SERVER)),
        ],
        returns: Returns::json(Ty::Object(&v::ROUTE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            exact("the request", a.get(0), &v::REQUEST)?;
            exact("the server", a.get(1), &v::SERVER)?;
            Ok(Out::Json(crate::view::route(a.get(0), a.get(1))))
        },
    },
    Op {
        module: Module::Root,
        method: "view_failure",
        doc: "How the viewer's server answers a write it could not carry out (the host's error): \
              a refusal with its status (503 for a lock held too long, else 409: the file's \
              state refused the write), code and message, with the headers every answer \
              carries.",
        params: &[Param::value("error", Ty::Object(&v::FAILURE))],
        returns: Returns::json(Ty::Object(&v::ROUTE)),
        access: Access::Pure,
        web: false,
        run: |a| {
            exact("the error", a.get(0), &v::FAILURE)?;
            Ok(Out::Json(crate::view::failure(a.get(0))))
        },
    },
    Op {
        module: Module::Root,
        method: "view_read",
        doc: "What the viewer's server reads of a file it shows, from what an `lstat` of it \
              found: the bytes to read (a log: its last `view_log_bytes`, from a line start), \
              or a refusal (`E_FILE_TYPE`: a link, FIFO or device is never followed or opened; \
              `E_LIMIT`: a document over the library's limit; `E_VIEW_BUDGET`: more than the \
              server holds).",
        params: &[Param::value("facts", Ty::Object(&v::READ_FACTS))],
        returns: Returns::json(Ty::Object(&v::READ_PLAN)),
        access: Access::Pure,
        web: false,
        run: |a| {
            exact("the facts", a.get(0), &v::READ_FACTS)?;
            Ok(Out::Json(crate::view::stream::plan_read(a.get(0))))
        },
    },
    Op {
        module: Module::Root,
        method: "view_backlog",
        doc: "Which of the viewer's streams to drop: those whose readers do not take what they \
              were sent, most behind first, once the older file versions they hold exceed \
              `view_stale_bytes` (a stream that reads is sent each file's latest version).",
        params: &[Param::value("clients", Ty::List(&Ty::Object(&v::CLIENT)))],
        returns: Returns::json(Ty::Object(&v::BACKLOG)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let clients = a.get(0);
            let list = clients.as_array().ok_or_else(|| {
                Error::new(
                    Code::Argument,
                    "",
                    "the clients are a list of ViewClient objects",
                )
            })?;
            for (i, client) in list.iter().enumerate() {
                exact(&format!("client {i}"), client, &v::CLIENT)?;
            }
            Ok(Out::Json(crate::view::stream::backlog(clients)))
        },
    },
]);

/// The viewer's host constants.
pub(crate) static CONSTANTS: &[Constant] = &[
    Constant {
        name: "view_body_bytes",
        doc: "The most bytes of a request body the viewer's server reads (it reads one more to tell).",
        value: crate::view::request::BODY_LIMIT as i64,
    },
    Constant {
        name: "view_log_bytes",
        doc: "The viewer sends a log as its last bytes, at most this many (from a line start).",
        value: crate::view::stream::LOG_WINDOW as i64,
    },
    Constant {
        name: "view_held_bytes",
        doc: "The most bytes of events (files' current versions) the viewer's server holds to send.",
        value: crate::view::stream::HELD_BYTES as i64,
    },
    Constant {
        name: "view_stale_bytes",
        doc: "The most bytes of older versions that the viewer's streams which do not read may hold.",
        value: crate::view::stream::STALE_BYTES as i64,
    },
    Constant {
        name: "view_memory_bytes",
        doc: "The bound the viewer's server's resident memory stays under, whatever it watches and however its clients read.",
        value: crate::view::stream::MEMORY_BYTES as i64,
    },
];
