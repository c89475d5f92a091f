//! The viewer's arguments and results, described once (`statecore::shape`): the types of
//! `view_file` and `view_request` in every host.

use statecore::shape::common::PLACED;
use statecore::shape::{Enum, Field, Shape, Ty};

/// A file's role in the viewer.
pub static ROLE: Enum = Enum {
    name: "ViewRole",
    doc: "What a file is to the viewer (docs/viewer.md § Files): `<protocol>.<what>`.",
    values: &[
        "fctry.state",
        "fctry.inbox",
        "fctry.config",
        "fctry.spec",
        "fctry.events",
        "agency.status",
        "agency.meta",
        "hivemind.state",
        "hive.state",
        "hive.events",
        "specify.index",
    ],
};

/// A file's check.
pub static CHECK: Shape = Shape::exact(
    "FileCheck",
    "A file checked, as `statecore validate --json` prints it, with its document.",
    &[
        Field::req("file", Ty::Str, "Its path."),
        Field::req(
            "kind",
            Ty::Str,
            "The kind of its document, or of its log's records.",
        ),
        Field::opt(
            "records",
            Ty::Whole(0),
            "A log that reads: how many records it holds.",
        ),
        Field::req("valid", Ty::Bool, "No error (warnings allowed)."),
        Field::req("errors", Ty::List(&Ty::Object(&PLACED)), "Its errors."),
        Field::req("warnings", Ty::List(&Ty::Object(&PLACED)), "Its warnings."),
        Field::req(
            "document",
            Ty::Json,
            "The document (a log: its records), or null when the file does not read.",
        ),
    ],
);

/// What the viewer makes of a file.
pub static FILE: Shape = Shape::exact(
    "ViewFile",
    "A file the viewer shows: its role, kind, group and (given its bytes) its check.",
    &[
        Field::req("path", Ty::Str, "The path, `/`-separated, without `.` parts."),
        Field::req("role", Ty::Enum(&ROLE), "What it is to the viewer."),
        Field::req(
            "kind",
            Ty::Nullable(&Ty::Str),
            "The kind it is checked as (a log: its records' kind); null for the spec.",
        ),
        Field::req(
            "group",
            Ty::Str,
            "The directory it belongs to (the project, worktree, run or session; `\"\"`: the watched directory itself).",
        ),
        Field::req(
            "check",
            Ty::Nullable(&Ty::Object(&CHECK)),
            "Its check; null without bytes, and for the spec.",
        ),
    ],
);

/// A request to the viewer's server.
pub static REQUEST: Shape = Shape::exact(
    "ViewRequest",
    "What the host read of an HTTP request (headers by their meaning; absent: not sent).",
    &[
        Field::req("method", Ty::Str, "The method (`GET`)."),
        Field::req(
            "path",
            Ty::Str,
            "The request target as sent (`/assets/viewer.js`).",
        ),
        Field::opt("host", Ty::Str, "The `Host` header."),
        Field::opt("origin", Ty::Str, "The `Origin` header."),
        Field::opt("token", Ty::Str, "The `X-Statecore-Token` header."),
        Field::opt("content_type", Ty::Str, "The `Content-Type` header."),
        Field::opt(
            "body",
            Ty::Str,
            "The body as text, read up to `view_body_bytes` + 1 bytes (a POST).",
        ),
    ],
);

/// The server's facts.
pub static SERVER: Shape = Shape::exact(
    "ViewServer",
    "The viewer's server: its port, this run's token, whether writes are allowed.",
    &[
        Field::req("port", Ty::Whole(1), "The port it listens on (127.0.0.1)."),
        Field::req(
            "token",
            Ty::Str,
            "This run's token (`\"\"` when read-only).",
        ),
        Field::req(
            "write",
            Ty::Bool,
            "Whether the page may change files (`--write`).",
        ),
        Field::opt(
            "assets",
            Ty::List(&Ty::Str),
            "The names of the files of its bundle (absent: the names are not checked).",
        ),
        Field::opt(
            "projects",
            Ty::List(&Ty::Str),
            "The fctry projects it found, by group (absent: a dismissal's project is not checked).",
        ),
        Field::opt(
            "name",
            Ty::Str,
            "What the server is called in a refusal's message (absent: `the viewer`; `statecore mcp --http` is `the MCP server`).",
        ),
    ],
);

/// A write the host could not carry out.
pub static FAILURE: Shape = Shape::exact(
    "ViewFailure",
    "A write the viewer's host could not carry out: the error it got.",
    &[
        Field::req(
            "code",
            Ty::Str,
            "The error's code (`E_LOCK_TIMEOUT`, `E_NOT_FOUND`).",
        ),
        Field::req("message", Ty::Str, "The error's message."),
    ],
);

/// What a request gets.
pub static ROUTE_NAME: Enum = Enum {
    name: "ViewRouteName",
    doc: "What the host serves: the page, a bundled file, the event stream, an inbox item's dismissal, or a refusal.",
    values: &["page", "asset", "events", "dismiss", "refused"],
};

/// The answer to a request.
pub static ROUTE: Shape = Shape::exact(
    "ViewRoute",
    "How the viewer answers a request.",
    &[
        Field::req("status", Ty::Whole(200), "The HTTP status."),
        Field::req("route", Ty::Enum(&ROUTE_NAME), "What to serve."),
        Field::req(
            "headers",
            Ty::Map(&Ty::Str),
            "Headers every answer carries (security and caching).",
        ),
        Field::opt(
            "content_type",
            Ty::Str,
            "The `Content-Type` of what is served.",
        ),
        Field::opt(
            "asset",
            Ty::Str,
            "`asset`: the bundled file's name (looked up, never joined to a path).",
        ),
        Field::opt("project", Ty::Str, "`dismiss`: the fctry project's group."),
        Field::opt("id", Ty::Str, "`dismiss`: the inbox item's id."),
        Field::opt(
            "code",
            Ty::Str,
            "`refused`: a stable code (`E_VIEW_HOST`, ...).",
        ),
        Field::opt("message", Ty::Str, "`refused`: why, and what to do."),
        Field::opt("allow", Ty::Str, "`refused` with 405: the methods allowed."),
    ],
);

/// What a read plan says.
pub static READ_ACTION: Enum = Enum {
    name: "ViewReadAction",
    doc: "Read the file's bytes the plan names, or show it as refused.",
    values: &["read", "refuse"],
};

/// What the host found of a file before reading it.
pub static READ_FACTS: Shape = Shape::exact(
    "ViewReadFacts",
    "A file the viewer shows as an `lstat` found it (a link is not followed).",
    &[
        Field::req("path", Ty::Str, "Its path, as the viewer shows it."),
        Field::req(
            "type",
            Ty::Str,
            "What it is: `file` (a regular file), `symbolic link`, `fifo`, `character device`, `block device`, `socket`, `directory`.",
        ),
        Field::req("size", Ty::Whole(0), "Its size in bytes."),
        Field::req(
            "held",
            Ty::Whole(0),
            "The bytes of events the server holds for its other files.",
        ),
    ],
);

/// What to read of a file.
pub static READ_PLAN: Shape = Shape::exact(
    "ViewReadPlan",
    "What the viewer's server reads of a file, or why it shows it as refused.",
    &[
        Field::req("action", Ty::Enum(&READ_ACTION), "Read, or refuse."),
        Field::opt("offset", Ty::Whole(0), "`read`: where to start."),
        Field::opt("length", Ty::Whole(0), "`read`: how many bytes."),
        Field::opt(
            "tail",
            Ty::Bool,
            "`read`: the bytes start inside a log; drop them up to its first line break.",
        ),
        Field::opt(
            "code",
            Ty::Str,
            "`refuse`: `E_FILE_TYPE`, `E_LIMIT` or `E_VIEW_BUDGET`.",
        ),
        Field::opt("message", Ty::Str, "`refuse`: why, and what to do."),
    ],
);

/// A frame a stream still holds.
pub static FRAME: Shape = Shape::exact(
    "ViewFrame",
    "An event written to a stream and not yet taken by its reader.",
    &[
        Field::req("id", Ty::Str, "Which file and version it carries."),
        Field::req("bytes", Ty::Whole(0), "Its size."),
        Field::req(
            "current",
            Ty::Bool,
            "Whether it is still the file's current version.",
        ),
    ],
);

/// A stream, as its backlog.
pub static CLIENT: Shape = Shape::exact(
    "ViewClient",
    "One page's stream: what it has not taken yet.",
    &[
        Field::req(
            "queued",
            Ty::Whole(0),
            "The bytes written to it and not yet taken by its reader.",
        ),
        Field::req(
            "behind",
            Ty::Whole(0),
            "How many file versions the server made since the frame it holds was written.",
        ),
        Field::req(
            "frames",
            Ty::List(&Ty::Object(&FRAME)),
            "The frames it holds until its reader takes them.",
        ),
    ],
);

/// Which streams to drop.
pub static BACKLOG: Shape = Shape::exact(
    "ViewBacklog",
    "The streams to drop, so that the older versions held stay within `view_stale_bytes`.",
    &[
        Field::req(
            "drop",
            Ty::List(&Ty::Whole(0)),
            "The indexes of the streams to close.",
        ),
        Field::req(
            "stale_bytes",
            Ty::Whole(0),
            "The bytes of older versions the others still hold.",
        ),
    ],
);
