//! The command line's request and answer, described once (`statecore::shape`): the types of
//! `cli_run` in every host.

use statecore::shape::common::ISSUE;
use statecore::shape::{Enum, Field, Shape, Ty};

const STRINGS: Ty = Ty::List(&Ty::Str);

/// How a file could not be read.
pub static FILE_ERROR: Enum = Enum {
    name: "CliFileError",
    doc: "Why a file was not read: there is none, it is a directory, it is not a regular file (a FIFO, a device), its bytes are not UTF-8 text, or the system refused (`message`: the error's name, `EACCES`).",
    values: &["missing", "directory", "special", "not_text", "unreadable"],
};

/// What to ask the host for.
pub static NEED_OP: Enum = Enum {
    name: "CliNeedOp",
    doc: "What the host does: read a file, list a directory's files by name, read standard input (`facts.stdin`), read an environment variable (`facts.env`), list the tmux sessions (`facts.tmux`), draw random bytes (`facts.random`), update a document under its lock (its one update routine), append a line to a log, repair a log's torn last line, or write agency's runner protocol document in a directory when it has none.",
    values: &["read", "list", "stdin", "env", "tmux", "random", "update", "append", "repair", "protocol_document"],
};

/// The programs of the command line.
pub static PROGRAM: Enum = Enum {
    name: "CliProgram",
    doc: "Which program runs the command line: `statecore` (every command), or `statecore-statusline` (`fctry status` alone, its arguments the program's).",
    values: &["statecore", "statecore-statusline"],
};

/// The host's environment.
pub static ENV: Shape = Shape::exact(
    "CliEnv",
    "What the host knows of where the command runs.",
    &[
        Field::opt(
            "tty",
            Ty::Bool,
            "Standard output is a terminal (colours by default).",
        ),
        Field::opt(
            "no_color",
            Ty::Bool,
            "`NO_COLOR` is set (no colours by default).",
        ),
        Field::opt(
            "now",
            Ty::Str,
            "The time now (RFC 3339; `STATECORE_NOW` when set, else the host's clock), for the commands that stamp or age things.",
        ),
        Field::opt(
            "cwd",
            Ty::Str,
            "The absolute path of the directory the command runs in (relative paths are relative to it).",
        ),
        Field::opt(
            "platform",
            Ty::Str,
            "The operating system as Node's `process.platform` names it (`linux`, `darwin`, `win32`), for the default places of other tools' files.",
        ),
        Field::opt(
            "utc_offset",
            Ty::Int,
            "The local time's offset from UTC at `now`, in minutes (east positive; absent: 0), for the times a watching command prints.",
        ),
        Field::opt(
            "serves",
            Ty::Bool,
            "The host can serve the viewer (`view`): the npm package's command.",
        ),
        Field::opt(
            "progress",
            Ty::Bool,
            "Standard error is a terminal: the host shows an answer's `progress` line there.",
        ),
    ],
);

/// A file as the host found it.
pub static FILE: Shape = Shape::exact(
    "CliFile",
    "A file the host read: its text, or why it has none.",
    &[
        Field::opt("text", Ty::Str, "The file's text (UTF-8)."),
        Field::opt(
            "mtime",
            Ty::Int,
            "For a file that has text: its modification time, in milliseconds since 1970.",
        ),
        Field::opt("error", Ty::Enum(&FILE_ERROR), "Why there is no text."),
        Field::opt(
            "message",
            Ty::Str,
            "For `unreadable`: the system error's name (`EACCES`, `ELOOP`).",
        ),
        Field::opt(
            "offset",
            Ty::Whole(0),
            "For a page (a read with `offset`): the need's `offset`, given back.",
        ),
        Field::opt(
            "limit",
            Ty::Whole(1),
            "For a page: the need's `limit`, given back.",
        ),
        Field::opt(
            "size",
            Ty::Whole(0),
            "For a page: the file's size in bytes when it was read (the page is the file's end when `offset` and its bytes reach it).",
        ),
    ],
);

/// A directory as the host listed it.
pub static DIR: Shape = Shape::exact(
    "CliDir",
    "A directory the host listed: the files under it with one of the names asked for.",
    &[
        Field::opt(
            "files",
            STRINGS,
            "Their paths: the directory's path as given, `/`, and the path below it with `/` between names; with `dirs`, the directories that many levels below too, each with a final `/`.",
        ),
        Field::opt(
            "message",
            Ty::Str,
            "Why it could not be listed: the system error's name (`EACCES`).",
        ),
    ],
);

/// Why a write failed.
pub static WRITE_ERROR: Shape = Shape::exact(
    "CliWriteError",
    "Why a write failed: a statecore error (its code, path and message), or the system's (`code`: the error's name, `EACCES`; no message).",
    &[
        Field::req("code", Ty::Str, "`E_CONFLICT`, or the system error's name (`EACCES`)."),
        Field::opt("path", Ty::Str, "The statecore error's path into the document."),
        Field::opt("message", Ty::Str, "The statecore error's message."),
    ],
);

/// A write as the host carried it out.
pub static WRITE: Shape = Shape::exact(
    "CliWrite",
    "What the host's update, append or repair did: its result's fields, or its error.",
    &[
        Field::opt(
            "etag",
            Ty::Nullable(&Ty::Str),
            "An update's etag of the file afterwards.",
        ),
        Field::opt(
            "changed",
            Ty::Bool,
            "An update wrote the file; `protocol_document` created it (false: one was there).",
        ),
        Field::opt(
            "warnings",
            Ty::List(&Ty::Object(&ISSUE)),
            "The routine's warnings.",
        ),
        Field::opt(
            "corrupt_copy",
            Ty::Nullable(&Ty::Str),
            "Where unreadable old bytes (a torn log line) were kept, or null.",
        ),
        Field::opt(
            "torn_line",
            Ty::Nullable(&Ty::Whole(1)),
            "A repair's torn line, cut off (null: nothing to repair).",
        ),
        Field::opt(
            "item",
            Ty::Json,
            "An update's extra result: `fctry_inbox_add`'s new item.",
        ),
        Field::opt(
            "result",
            Ty::Json,
            "An update's operation result when it is not the document (a Hivemind outcome).",
        ),
        Field::opt("error", Ty::Object(&WRITE_ERROR), "Why it failed."),
    ],
);

/// What woke a continuing command.
pub static EVENT: Shape = Shape::exact(
    "CliEvent",
    "What happened since the last answer of a continuing command: a watched file changed (was created, written or removed), or a timer it armed is due.",
    &[
        Field::opt(
            "path",
            Ty::Str,
            "The file that changed: a watched file's path as given, or a file found under a watched directory (the directory's path, `/`, the path below it).",
        ),
        Field::opt("timer", Ty::Str, "The name of the timer that is due."),
    ],
);

/// A timer a continuing command arms.
pub static TIMER: Shape = Shape::exact(
    "CliTimer",
    "A timer: the host calls again with `facts.event = {timer: name}` once `after_ms` have passed.",
    &[
        Field::req("name", Ty::Str, "Its name, given back in the event."),
        Field::req(
            "after_ms",
            Ty::Whole(0),
            "After how many milliseconds it is due.",
        ),
    ],
);

/// How a command goes on after printing.
pub static THEN: Shape = Shape::exact(
    "CliThen",
    "A command that goes on after printing (`watch`, `hivemind watch`, `hivemind fire`'s follow-up): what to wait for, and what to give back when calling again.",
    &[
        Field::opt(
            "watch",
            STRINGS,
            "The files and directories to watch (replacing those of the previous answer; absent: none). A directory's files are those `list` finds with one of `names` (every file when `names` is absent).",
        ),
        Field::opt(
            "names",
            STRINGS,
            "The file names to watch for under a watched directory (`*.jsonl`: any name ending in `.jsonl`).",
        ),
        Field::opt(
            "timers",
            Ty::List(&Ty::Object(&TIMER)),
            "Timers to arm now (added to those still pending).",
        ),
        Field::opt(
            "state",
            Ty::Json,
            "What the command keeps between calls: given back as `facts.state`.",
        ),
    ],
);

/// The facts gathered so far.
pub static FACTS: Shape = Shape::exact(
    "CliFacts",
    "What the host read and listed for the command so far, by path.",
    &[
        Field::opt("files", Ty::Map(&Ty::Object(&FILE)), "Files read, by path."),
        Field::opt(
            "dirs",
            Ty::Map(&Ty::Object(&DIR)),
            "Directories listed, by path.",
        ),
        Field::opt(
            "writes",
            Ty::Map(&Ty::Object(&WRITE)),
            "Updates, appends and repairs carried out, by path.",
        ),
        Field::opt(
            "stdin",
            Ty::Nullable(&Ty::Str),
            "Standard input's text, once asked for (null: a terminal, or bytes that are not UTF-8).",
        ),
        Field::opt(
            "env",
            Ty::Map(&Ty::Nullable(&Ty::Str)),
            "Environment variables asked for, by name (null: not set).",
        ),
        Field::opt(
            "random",
            Ty::Str,
            "16 bytes from the platform's cryptographic random source, as 32 hex digits, once asked for (new ids).",
        ),
        Field::opt(
            "tmux",
            STRINGS,
            "The tmux sessions' names (`tmux list-sessions`), once asked for; none when tmux is not installed or runs no server.",
        ),
        Field::opt(
            "event",
            Ty::Object(&EVENT),
            "For a continuing command: what woke it (absent on its first call).",
        ),
        Field::opt(
            "state",
            Ty::Json,
            "For a continuing command: the previous answer's `then.state`.",
        ),
        Field::opt(
            "carry",
            Ty::Json,
            "For a command reading a log in pages: the previous answer's `carry` (absent after an answer without one).",
        ),
    ],
);

/// A command line to run.
pub static REQUEST: Shape = Shape::exact(
    "CliRequest",
    "A command line to run, with what the host knows and has gathered.",
    &[
        Field::req(
            "argv",
            STRINGS,
            "The arguments, without the program's name.",
        ),
        Field::opt("env", Ty::Object(&ENV), "Where it runs."),
        Field::opt(
            "facts",
            Ty::Object(&FACTS),
            "What the host gathered for it so far.",
        ),
    ],
);

/// Something the host must gather.
pub static NEED: Shape = Shape::exact(
    "CliNeed",
    "A file to read, a directory to list (recursively, without following links, skipping `.git` and `node_modules`), or a write to carry out with the host's own routine (its result goes to `facts.writes`).",
    &[
        Field::req("op", Ty::Enum(&NEED_OP), "What to do."),
        Field::req(
            "path",
            Ty::Str,
            "The path, as the command line gave it (`-` for `stdin`, `tmux` and `random`; the variable's name for `env`).",
        ),
        Field::opt(
            "names",
            STRINGS,
            "For `list`: the file names to find (`*.jsonl`: any name ending in `.jsonl`).",
        ),
        Field::opt(
            "dirs",
            Ty::Whole(1),
            "For `list`: list the directories at most this many levels below too, each as its path and a final `/`.",
        ),
        Field::opt(
            "limit",
            Ty::Whole(1),
            "For `read`: read only the file's first `limit` bytes, cut back to their last line break when the file is longer.",
        ),
        Field::opt(
            "offset",
            Ty::Whole(0),
            "For `read`: read a page: at most `limit` bytes from byte `offset`, cut back to their last line break unless the file ends within them (no line break: an empty page), given with `offset`, `limit` and the file's `size`.",
        ),
        Field::opt("kind", Ty::Kind, "For `update`: the document kind; for `append` to a store URL: the kind of the log's records (the one its key names, else `json`)."),
        Field::opt(
            "change",
            Ty::Str,
            "For `update`: the change as the host's update routine names it (`merge`, `set_value`, a writer of the table).",
        ),
        Field::opt("args", Ty::List(&Ty::Json), "For `update`: the change's arguments."),
        Field::opt("if_match", Ty::Str, "For `update`: the etag the file must have."),
        Field::opt("now", Ty::Str, "For `update`: the time that stamps the change (the request's `env.now`)."),
        Field::opt("record", Ty::Json, "For `append`: the record to append."),
        Field::opt(
            "timeout_ms",
            Ty::Whole(0),
            "For a write: how long to wait for the lock, in milliseconds (absent: the default).",
        ),
    ],
);

/// What `view` serves.
pub static SERVE: Shape = Shape::exact(
    "CliServe",
    "What the host serves instead of ending (`view`, docs/viewer.md): the viewer of `root` on 127.0.0.1:`port`.",
    &[
        Field::req("root", Ty::Str, "The directory watched (absolute)."),
        Field::req(
            "data_dir",
            Ty::Nullable(&Ty::Str),
            "agency's data directory, also watched (absolute), or null.",
        ),
        Field::req("port", Ty::Whole(0), "The port (0: a free one, chosen when listening)."),
        Field::req("write", Ty::Bool, "Whether the page may change files."),
        Field::req("token", Ty::Str, "This run's token for writes (empty when read-only)."),
        Field::req(
            "banner",
            Ty::Str,
            "What to print once listening, its first `{url}` replaced by the page's URL.",
        ),
    ],
);

/// What the command needs, or what it prints.
pub static ANSWER: Shape = Shape::exact(
    "CliAnswer",
    "What the host must gather before calling again (`needs`), or what to print and the exit code.",
    &[
        Field::opt(
            "needs",
            Ty::List(&Ty::Object(&NEED)),
            "What to gather, then call again with it in `facts`.",
        ),
        Field::opt(
            "stdout",
            Ty::Str,
            "Standard output (with `needs`: the output so far of a log printed in pages, printed before gathering).",
        ),
        Field::opt("stderr", Ty::Str, "Standard error (with `needs`: as `stdout`)."),
        Field::opt(
            "code",
            Ty::Whole(0),
            "The exit code: 0 done, 1 a file is invalid, 2 usage or I/O.",
        ),
        Field::opt(
            "then",
            Ty::Object(&THEN),
            "After printing, go on: wait for a watched file's change or a timer, then call again with `facts.event` (without `then`: exit with `code`).",
        ),
        Field::opt(
            "serve",
            Ty::Object(&SERVE),
            "After printing, serve the viewer until interrupted (`view`).",
        ),
        Field::opt(
            "carry",
            Ty::Json,
            "With `needs`: what a command reading a log in pages keeps; give it back as `facts.carry`.",
        ),
        Field::opt(
            "progress",
            Ty::Str,
            "With `needs` (and `env.progress`): how far a long piece of work is, for standard error, written over in place (`checking PATH: 45% (31.2 of 69.1 MB)`).",
        ),
    ],
);
