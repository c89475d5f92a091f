//! The table: the command line (docs/cli.md): its job run over given answers
//! (`cli_job_script`; the hosts start the job itself with `cli_job`), one round of a command
//! (`cli_run`), the wait of a command that goes on (`cli_wait_take` / `cli_wait_next`), and the
//! constants the hosts read standard input and look at watched files with.

use statecore::ops::{gate, Access, Constant, Module, Op, Out, Param, Returns};
use statecore::shape::Ty;
use statecore::Value;

/// The command line's operations.
pub(crate) static OPS: &[Op] = &gate([
    Op {
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
    },
    Op {
        module: Module::Root,
        method: "cli_job",
        doc: "A command line run as a job (docs/cli.md § How it runs), by a host's driver: \
              `program` on `request` asks to gather facts, print, look at watched files, sleep, \
              take a new environment, and ends with `done` (what to print, the exit code, what \
              to serve).",
        params: &[
            Param::text("program", Ty::Enum(&crate::cli::shapes::PROGRAM)),
            Param::unlimited_value("request", Ty::Object(&crate::cli::shapes::REQUEST)),
        ],
        returns: Returns::job(Ty::Json),
        access: Access::Pure,
        web: false,
        run: |a| {
            let program = crate::cli::program(a.text(0)?)?;
            Out::job(crate::cli::job(program, a.get(1)))
        },
    },
    Op {
        module: Module::Root,
        method: "cli_job_script",
        doc: "The steps a command line run as a job asks for (docs/cli.md § How it runs: \
              `gather`, `print`, `look`, `sleep`, `env`, `done`), given `answers` in turn: every \
              step up to `done`, then `{do: \"error\", error}` when the job ended with its error \
              (an answer that is not what its step asks).",
        params: &[
            Param::text("program", Ty::Enum(&crate::cli::shapes::PROGRAM)),
            Param::unlimited_value("request", Ty::Object(&crate::cli::shapes::REQUEST)),
            Param::value("answers", Ty::List(&Ty::Json)),
        ],
        returns: Returns::json(Ty::List(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(crate::cli::job_script(
                a.text(0)?,
                a.get(1),
                a.list(2),
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "cli_store_read",
        doc: "What a store URL the command line reads is, as a file would be \
              (docs/store.md § Store URLs): the fact of a `read` need (`offset`, `limit`: the \
              need's) from the row of the store's `cli_read` statement, or the log's lines to \
              read first (`log_page`: run `read_log_page`, then call again with its lines as \
              `log`).",
        params: &[
            Param::value("row", Ty::Object(&crate::cli::store_fact::ROW)),
            Param::opt_value("offset", Ty::Whole(0)),
            Param::opt_value("limit", Ty::Whole(1)),
            Param::opt_value(
                "log",
                Ty::List(&Ty::Object(&crate::cli::store_fact::LOG_LINE)),
            ),
        ],
        returns: Returns::json(Ty::Object(&crate::cli::store_fact::ANSWER)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let empty = statecore::Map::new();
            let row = a.input(0, &crate::cli::store_fact::ROW)?;
            let row = row.as_object().unwrap_or(&empty);
            let number = |i: usize| a.get(i).as_u64();
            let log = a.get(3).as_array().map(Vec::as_slice);
            Ok(Out::Json(crate::cli::store_fact::read(
                row,
                number(1),
                number(2),
                log,
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "cli_wait_take",
        doc: "A command that goes on (docs/cli.md § Commands that go on): what it waits for after \
          an answer's `then`, given what was waited for before (`null` at first) and the \
          records of the watched files the host saw at `at` (ms on its clock).",
        params: &[
            Param::opt_value("waiting", Ty::Object(&crate::cli::wait::WAITING)),
            Param::value("then", Ty::Object(&crate::cli::shapes::THEN)),
            Param::value("seen", crate::cli::wait::RECORDS),
            Param::value("at", Ty::Number),
        ],
        returns: Returns::json(Ty::Object(&crate::cli::wait::WAITING)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let waiting = match a.get(0) {
                Value::Null => &Value::Null,
                _ => a.input(0, &crate::cli::wait::WAITING)?,
            };
            let then = a.input(1, &crate::cli::shapes::THEN)?;
            Ok(Out::Json(crate::cli::wait::take(
                waiting,
                then,
                a.get(2),
                a.get(3),
            )?))
        },
    },
    Op {
        module: Module::Root,
        method: "cli_wait_next",
        doc: "What the host of a command that goes on does next at `at` (ms on its clock): call \
          the core with an event, look at the watched files (then call again with the records \
          `seen`), sleep, or end.",
        params: &[
            Param::value("waiting", Ty::Object(&crate::cli::wait::WAITING)),
            Param::value("at", Ty::Number),
            Param::opt_value("seen", crate::cli::wait::RECORDS),
        ],
        returns: Returns::json(Ty::Object(&crate::cli::wait::STEP)),
        access: Access::Pure,
        web: false,
        run: |a| {
            let waiting = a.input(0, &crate::cli::wait::WAITING)?;
            Ok(Out::Json(crate::cli::wait::next(
                waiting,
                a.get(1),
                a.get(2),
            )?))
        },
    },
]);

/// The command line's host constants.
pub(crate) static CONSTANTS: &[Constant] = &[
    Constant {
        name: "stdin_wait_ms",
        doc: "How long a host waits for standard input's first (and each next) bytes before answering a `stdin` need with what it has, in ms.",
        value: crate::cli::STDIN_WAIT_MS,
    },
    Constant {
        name: "cli_poll_ms",
        doc: "How often the host of a command that goes on looks at its watched files, in ms (`cli_wait_next` asks it to).",
        value: crate::cli::wait::POLL_MS,
    },
    Constant {
        name: "stdin_max_bytes",
        doc: "The most bytes of standard input a host reads for a `stdin` need (more: null).",
        value: crate::cli::STDIN_MAX_BYTES,
    },
];
