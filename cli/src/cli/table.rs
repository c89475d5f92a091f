//! The commands of the `statecore` command line, declared once: their operands, options and
//! help. Parsing (`args`) and the help (`help`) come from here; docs/cli.md's list of
//! commands is checked against it (`cli/tests/cli.rs`).

use super::command::{Command, Opt, JSON, TIMEOUT};
use super::{
    agency, fctry, hive, hivemind, inbox, info, logs, specify, update, validate, view, watch,
};

const KIND: Opt = Opt {
    name: "kind",
    value: Some("KIND"),
    help: "The document kind of the files (see `statecore kinds`), instead of the kind found \
           from each file's path.",
};

/// The options every command takes.
pub static GLOBAL: &[Opt] = &[
    Opt {
        name: "help",
        value: None,
        help: "Show the help of the command (or of statecore) and exit.",
    },
    Opt {
        name: "color",
        value: None,
        help: "Colour the output even when it is not a terminal.",
    },
    Opt {
        name: "no-color",
        value: None,
        help: "Never colour the output (as NO_COLOR does).",
    },
];

/// Every command, in the order the help lists them.
pub static COMMANDS: &[Command] = &[
    Command {
        name: "validate",
        operands: "PATH...",
        min: 1,
        max: None,
        summary: "Check protocol files: errors and warnings with their place in the file.",
        about: "Each PATH is a file or a directory; a directory is searched for every file \
                statecore knows (`statecore kinds` lists them). A file's kind comes from its \
                path, or from --kind. EVENTS.jsonl (and, with --kind, any .jsonl file) is a \
                log: each record is checked as its kind, at its own line. Each \
                problem is printed as PATH:LINE:COLUMN: error|warning CODE POINTER: message. \
                Exit 0 when every file is valid (warnings allowed), 1 when one is invalid, \
                2 for a usage error or a file that cannot be read.",
        options: &[KIND, JSON],
        values: None,
        run: validate::validate,
    },
    Command {
        name: "show",
        operands: "PATH",
        min: 1,
        max: Some(1),
        summary:
            "Print a file's document as statecore reads it (canonical JSON; a log: its records).",
        about: "index.md is shown as its document (its tables by their headings). Problems \
                go to standard error as validate prints them. Exit 0 valid, 1 invalid (the \
                document is still shown when it reads; nothing is, for a file that does not \
                parse), 2 when the file cannot be read.",
        options: &[
            KIND,
            Opt {
                name: "etag",
                value: None,
                help: "Print the file's etag instead (for `update --if-match`).",
            },
        ],
        values: None,
        run: validate::show,
    },
    watch::WATCH,
    view::VIEW,
    view::MCP,
    Command {
        name: "update",
        operands: "PATH",
        min: 1,
        max: Some(1),
        summary: "Change a document under its lock: a merge, a merge patch or one value.",
        about: "The change is read, merged, validated and written atomically under the file's \
                lock, as every writer of the library does; a document the change would make \
                invalid is refused and the file left as it was. A missing file is created \
                (its directory must exist). Prints the new etag. Exit 0 done, 1 refused \
                (invalid, a stale --if-match, a pointer that names nothing), 2 usage or I/O \
                (the lock not obtained within --timeout).",
        options: &[
            Opt {
                name: "merge",
                value: Some("JSON"),
                help: "Merge JSON into the document with the kind's own merge rules (deep by \
                       default; `null` stored).",
            },
            Opt {
                name: "merge-patch",
                value: Some("JSON"),
                help: "Apply JSON as an RFC 7396 merge patch (`null` removes a member).",
            },
            Opt {
                name: "set",
                value: Some("POINTER=JSON"),
                help:
                    "Set one value at a JSON pointer (`/buildRun/chunks/0/status=\"retrying\"`); \
                       missing members on the way are created, `-` appends to an array.",
            },
            KIND,
            Opt {
                name: "if-match",
                value: Some("ETAG"),
                help: "Change the file only if its etag is still ETAG (`statecore show --etag`).",
            },
            TIMEOUT,
            JSON,
        ],
        values: None,
        run: update::update,
    },
    Command {
        name: "log append",
        operands: "PATH JSON",
        min: 2,
        max: Some(2),
        summary: "Append one record to a JSONL log, under its lock.",
        about: "One write of one line, synced; a torn last line left by a crashed writer is \
                first moved to PATH.corrupt-<time> and cut off. A log with a bad line that is \
                not the last is left alone (exit 1). Exit 2 for usage or I/O.",
        options: &[TIMEOUT, JSON],
        values: None,
        run: logs::append,
    },
    Command {
        name: "log read",
        operands: "PATH",
        min: 1,
        max: Some(1),
        summary: "Print a JSONL log's records, one compact JSON line each.",
        about: "A torn last line is left out with a warning; a bad line that is not the last \
                is an error naming it (exit 1). Never writes.",
        options: &[JSON],
        values: None,
        run: logs::read,
    },
    Command {
        name: "log repair",
        operands: "PATH",
        min: 1,
        max: Some(1),
        summary: "Cut a JSONL log's torn last line off, keeping a copy.",
        about: "Under the log's lock, a torn last line is moved to PATH.corrupt-<time> and cut \
                off; anything else wrong is left for a person (exit 1). A log without a torn \
                line is left as it is.",
        options: &[TIMEOUT, JSON],
        values: None,
        run: logs::repair,
    },
    Command {
        name: "kinds",
        operands: "",
        min: 0,
        max: Some(0),
        summary: "List the document kinds and the files that hold them.",
        about: "One kind a line: its name and what it holds (its file, and what a missing \
                file reads as). With --json: {name, file, description} each.",
        options: &[JSON],
        values: None,
        run: info::kinds,
    },
    Command {
        name: "schema",
        operands: "KIND",
        min: 1,
        max: Some(1),
        summary: "Print the JSON Schema of a document kind.",
        about: "The schema (draft 2020-12) the kind's documents follow; statecore's own \
                validation also checks the protocol's cross-field rules.",
        options: &[],
        values: Some(info::kind_names),
        run: info::schema,
    },
    Command {
        name: "diagram",
        operands: "[MACHINE]",
        min: 0,
        max: Some(1),
        summary: "Print a protocol's state machine as a Mermaid diagram.",
        about: "The output is Mermaid stateDiagram-v2 text (paste it into any Mermaid \
                renderer). Without MACHINE, lists the machines it draws, one a line.",
        options: &[],
        values: Some(info::machine_names),
        run: info::diagram,
    },
    fctry::STATUS,
    inbox::LIST,
    inbox::ADD,
    inbox::MOVE,
    inbox::BATCH,
    inbox::DISMISS,
    agency::LS,
    agency::SHOW,
    agency::INIT,
    hivemind::STATUS,
    hivemind::FIRE,
    hivemind::WATCH,
    hive::STATUS,
    hive::SESSIONS,
    specify::STATUS,
];
