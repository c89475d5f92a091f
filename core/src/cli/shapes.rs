//! The command line's request and answer, described once (`crate::shape`): the types of
//! `cli_run` in every host.

use crate::shape::{Enum, Field, Shape, Ty};

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
    doc: "What the host does: read a file, or list a directory's files by name.",
    values: &["read", "list"],
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
    ],
);

/// A file as the host found it.
pub static FILE: Shape = Shape::exact(
    "CliFile",
    "A file the host read: its text, or why it has none.",
    &[
        Field::opt("text", Ty::Str, "The file's text (UTF-8)."),
        Field::opt("error", Ty::Enum(&FILE_ERROR), "Why there is no text."),
        Field::opt(
            "message",
            Ty::Str,
            "For `unreadable`: the system error's name (`EACCES`, `ELOOP`).",
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
            "Their paths: the directory's path as given, `/`, and the path below it with `/` between names.",
        ),
        Field::opt(
            "message",
            Ty::Str,
            "Why it could not be listed: the system error's name (`EACCES`).",
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
    "A file to read, or a directory to list (recursively, without following links, skipping `.git` and `node_modules`).",
    &[
        Field::req("op", Ty::Enum(&NEED_OP), "What to do."),
        Field::req("path", Ty::Str, "The path, as the command line gave it."),
        Field::opt("names", STRINGS, "For `list`: the file names to find."),
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
        Field::opt("stdout", Ty::Str, "Standard output."),
        Field::opt("stderr", Ty::Str, "Standard error."),
        Field::opt(
            "code",
            Ty::Whole(0),
            "The exit code: 0 done, 1 a file is invalid, 2 usage or I/O.",
        ),
    ],
);
