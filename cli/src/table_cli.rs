//! The table: the command line (docs/cli.md), one operation the hosts' drivers call, and the
//! constants they read standard input with.

use statecore::ops::{gate, Access, Constant, Module, Op, Out, Param, Returns};
use statecore::shape::Ty;

/// The command line's operations.
pub(crate) static OPS: &[Op] = &gate([Op {
    module: Module::Root,
    method: "cli_run",
    doc: "Runs a `statecore` command line (docs/cli.md): what it still needs from the file \
              system (call again with it in `facts`), or what to print and the exit code.",
    params: &[Param::unlimited_value(
        "request",
        Ty::Object(&crate::cli::shapes::REQUEST),
    )],
    returns: Returns::json(Ty::Object(&crate::cli::shapes::ANSWER)),
    access: Access::Pure,
    web: false,
    run: |a| Ok(Out::Json(crate::cli::run(a.get(0))?)),
}]);

/// The command line's host constants.
pub(crate) static CONSTANTS: &[Constant] = &[
    Constant {
        name: "stdin_wait_ms",
        doc: "How long a host waits for standard input's first (and each next) bytes before answering a `stdin` need with what it has, in ms.",
        value: crate::cli::STDIN_WAIT_MS,
    },
    Constant {
        name: "stdin_max_bytes",
        doc: "The most bytes of standard input a host reads for a `stdin` need (more: null).",
        value: crate::cli::STDIN_MAX_BYTES,
    },
];
