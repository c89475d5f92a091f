//! The values of the lock operations, described for the generated host types.

use crate::shape::common::{ISSUE, NOW};
use crate::shape::{Enum, Field, Shape, Ty};

/// A process's identity.
pub static IDENTITY: Shape = Shape::exact(
    "LockIdentity",
    "This process as a lock record names it.",
    &[
        Field::req("pid", Ty::Whole(1), "The process id."),
        Field::req(
            "start",
            Ty::Nullable(&Ty::Str),
            "Its start time (`/proc/<pid>/stat` field 22), or null.",
        ),
        Field::req(
            "boot",
            Ty::Nullable(&Ty::Str),
            "The machine's boot id, or null.",
        ),
        Field::req("host", Ty::Str, "The host name."),
    ],
);

/// An owner record.
pub static RECORD: Shape = Shape::exact(
    "LockRecord",
    "The owner record a lock file holds (docs/locking.md).",
    &[
        Field::req("pid", Ty::Whole(1), "The owner's process id."),
        Field::req("start", Ty::Nullable(&Ty::Str), "Its start time, or null."),
        Field::req(
            "boot",
            Ty::Nullable(&Ty::Str),
            "Its machine's boot id, or null.",
        ),
        Field::req("host", Ty::Str, "Its host name."),
        Field::req("token", Ty::Str, "32 hex digits naming this holding."),
        Field::req("acquired_at", Ty::Timestamp, "When it was taken."),
    ],
);

/// A new record and its bytes.
pub static NEW_RECORD: Shape = Shape::exact(
    "LockRecordText",
    "A new owner record and the lock file's bytes (compact JSON and a newline).",
    &[
        Field::req("record", Ty::Object(&RECORD), "The record."),
        Field::req("text", Ty::Str, "The lock file's bytes."),
    ],
);

/// What a lock file holds.
pub static OWNER: Shape = Shape::exact(
    "LockOwner",
    "What a lock file or break marker holds.",
    &[
        Field::req(
            "record",
            Ty::Nullable(&Ty::Object(&RECORD)),
            "The record, or null when malformed.",
        ),
        Field::req(
            "id",
            Ty::Str,
            "The owner's id: its token, or `m` and a hash for a malformed record.",
        ),
        Field::req(
            "foreign",
            Ty::Bool,
            "True when the file is not a statecore lock at all (never removed).",
        ),
    ],
);

/// The facts of a verdict.
pub static FACTS: Shape = Shape::exact(
    "LockFacts",
    "What a host saw, for the verdict on a lock file's owner.",
    &[
        Field::req("now_ms", Ty::Int, "The host's clock."),
        Field::opt(
            "mtime_ms",
            Ty::Nullable(&Ty::Int),
            "The lock file's modification time.",
        ),
        Field::req("host", Ty::Str, "This host's name."),
        Field::opt("boot", Ty::Nullable(&Ty::Str), "This machine's boot id."),
        Field::opt(
            "probe",
            Ty::Bool,
            "False where processes cannot be probed (never guess).",
        ),
        Field::opt(
            "exists",
            Ty::Nullable(&Ty::Bool),
            "Whether `kill(pid, 0)` found the record's process.",
        ),
        Field::opt(
            "stat",
            Ty::Nullable(&Ty::Str),
            "The text of its `/proc/<pid>/stat`, or null.",
        ),
    ],
);

/// A verdict.
pub static VERDICT: Shape = Shape::exact(
    "LockVerdict",
    "Whether a lock's owner is provably gone (then it may be broken), and why.",
    &[
        Field::req("dead", Ty::Bool, "True when the lock may be broken."),
        Field::req("reason", Ty::Str, "Why, for people."),
    ],
);

/// A turn verdict.
pub static TURN: Shape = Shape::exact(
    "LockTurn",
    "Whether an acquirer lets the claimant of the next turn go first, and whether a releaser hands it the lock.",
    &[
        Field::req(
            "wait",
            Ty::Bool,
            "True: do not try the lock now, poll again.",
        ),
        Field::req(
            "hand_over",
            Ty::Bool,
            "True: a releaser hands the lock to this claimant (renames the claim over the lock).",
        ),
        Field::req(
            "dead",
            Ty::Bool,
            "True: the claimant is gone; break its claim.",
        ),
        Field::req(
            "displace_ms",
            Ty::Nullable(&Ty::Whole(0)),
            "A waiting acquirer that started waiting before the claimant: the mtime (epoch ms) to give its own claim, which it renames over this one (the next turn goes to the longest waiter); else null.",
        ),
    ],
);

/// A process's state and start time.
pub static PROC_STAT: Shape = Shape::exact(
    "ProcStat",
    "A process's state and start time from `/proc/<pid>/stat`.",
    &[
        Field::req("state", Ty::Str, "Its state letter (`Z`: zombie)."),
        Field::req(
            "start",
            Ty::Str,
            "Its start time in clock ticks since boot.",
        ),
    ],
);

/// Where a log's torn last line starts (a plan cuts the file there).
const TRUNCATE_AT: Field = Field::req(
    "truncate_at",
    Ty::Nullable(&Ty::Whole(0)),
    "Where a torn last line starts, or null.",
);

/// The torn last line's number.
const TORN_LINE: Field = Field::req(
    "torn_line",
    Ty::Nullable(&Ty::Whole(1)),
    "Its line number, or null.",
);

/// An appender's plan.
pub static APPEND: Shape = Shape::exact(
    "LogAppend",
    "What an appender does to a log: cut a torn last line (copying it first), then write `text`.",
    &[
        Field::req("text", Ty::Str, "The bytes to append in one write."),
        TRUNCATE_AT,
        TORN_LINE,
    ],
);

/// What a repair does to a log.
pub static REPAIR: Shape = Shape::exact(
    "LogRepair",
    "What a repair does to a log: copy its torn last line, then cut it off (both null: nothing to repair).",
    &[TRUNCATE_AT, TORN_LINE],
);

/// What is left over by a dead writer.
pub static LITTER_KIND: Enum = Enum {
    name: "LitterKind",
    doc:
        "What a leftover file is: an atomic write's temp file, a lock's temp file, a break marker.",
    values: &["write_temp", "lock_temp", "marker"],
};

/// What a turn claim means before it is read.
pub static GLANCE: Enum = Enum {
    name: "LockGlance",
    doc: "What a turn claim means from its mtime alone: read it, check its claimant's liveness and ask `turn` (`judge`), go on as if there were none (`pass`), or read it without checking its claimant's liveness and ask `turn` (`peek`).",
    values: &["judge", "pass", "peek"],
};

/// What a waiting claimant watches during its pause.
pub static WATCH_KIND: Enum = Enum {
    name: "LockWatch",
    doc: "What a waiter watches while it pauses: nothing, its claim file (a hand-over ends the pause), or its claim file and the lock file (either gone ends it).",
    values: &["none", "claim", "claim_and_lock"],
};

/// A waiter's pause.
pub static PAUSE: Shape = Shape::exact(
    "LockPause",
    "How long a lock waiter pauses before its next attempt, and what ends the pause early.",
    &[
        Field::req(
            "us",
            Ty::Whole(0),
            "The pause, in µs (at most the time left before the timeout).",
        ),
        Field::req(
            "watch",
            Ty::Enum(&WATCH_KIND),
            "What the waiter watches meanwhile (every `step_us`).",
        ),
        Field::req(
            "step_us",
            Ty::Whole(0),
            "How often the waiter checks what it watches, in µs (0: it watches nothing).",
        ),
    ],
);

/// A leftover file next to a locked file.
pub static LITTER: Shape = Shape::exact(
    "Litter",
    "A file a dead writer may have left next to a locked file.",
    &[
        Field::req("entry", Ty::Str, "Its name in the directory."),
        Field::req("what", Ty::Enum(&LITTER_KIND), "What it is."),
    ],
);

/// A read log.
pub static READ: Shape = Shape::exact(
    "LogRead",
    "What a reader gets of a log.",
    &[
        Field::req("records", Ty::List(&Ty::Json), "The records, in order."),
        Field::req(
            "torn",
            Ty::Nullable(&Ty::Object(&crate::shape::common::TORN)),
            "The torn last line that was dropped, or null.",
        ),
        Field::req(
            "warnings",
            Ty::List(&Ty::Object(&ISSUE)),
            "`W_TORN_TAIL` when a line was dropped.",
        ),
    ],
);

/// The time of a copy name.
pub const NOW_IN: Ty = Ty::Alias(&NOW);

/// The kinds of lock job.
pub static JOB_KIND: Enum = Enum {
    name: "LockJobKind",
    doc: "A lock job: taking the lock (`acquire`), releasing it (`release`) or sweeping what dead writers left next to its file (`sweep`).",
    values: &["acquire", "release", "sweep"],
};

/// A directory entry a sweep looks at.
pub static JOB_ENTRY: Shape = Shape::exact(
    "LockJobEntry",
    "A directory entry a lock holder's sweep looks at.",
    &[
        Field::req("name", Ty::Str, "Its name in the directory."),
        Field::req("path", Ty::Str, "Its path, as the host joins it."),
    ],
);

/// What a lock job starts from.
pub static JOB_SETUP: Shape = Shape::exact(
    "LockJobSetup",
    "What a lock job starts from (docs/locking.md § The lock as a job).",
    &[
        Field::req("lock", Ty::Str, "The lock file (`<file>.lock`, absolute)."),
        Field::req("identity", Ty::Object(&IDENTITY), "This process."),
        Field::req("probe", Ty::Bool, "Processes can be probed here (`kill(pid, 0)`)."),
        Field::opt("watching", Ty::Bool, "The host watches its claim while it pauses (a synchronous host)."),
        Field::opt("timeout_ms", Ty::Number, "How long to wait for the lock (0: one attempt)."),
        Field::opt("text", Ty::Str, "A release: the bytes of our record the lock must still hold."),
        Field::opt("name", Ty::Str, "A sweep: the locked file's name."),
        Field::opt("entries", Ty::List(&Ty::Object(&JOB_ENTRY)), "A sweep: the directory's entries whose names hold the file's."),
        Field::req("seed", Ty::Str, "At least 16 random bytes as hex: the records' tokens and the pauses' jitter are drawn from them."),
        Field::req("now_ms", Ty::Whole(0), "The wall clock when the job starts (epoch ms)."),
        Field::req("mono_ms", Ty::Number, "The monotonic clock when the job starts (ms)."),
    ],
);
