//! The Hivemind `state.json` document and the values of the workflow's operations, described
//! once (`crate::shape`): validation's field rules, the JSON Schema and the TypeScript and
//! Python types come from here.

use super::machine::{AGENTS, EVENTS, STATES};
use crate::shape::common::ISSUE;
use crate::shape::{Enum, Field, Shape, Ty};

/// The workflow's states.
pub static STATE_NAME: Enum = Enum {
    name: "HivemindStateName",
    doc: "A state of the workflow (the seed's 15 and `blocked`).",
    values: &STATES,
};
/// The agents.
pub static AGENT: Enum = Enum {
    name: "HivemindAgent",
    doc: "A Hivemind agent.",
    values: &AGENTS,
};
/// The machine's events.
pub static EVENT: Enum = Enum {
    name: "HivemindEvent",
    doc: "An event of the workflow machine; the host fires those not caused by files.",
    values: &EVENTS,
};
/// An agent's mode in a state.
pub static MODE: Enum = Enum {
    name: "HivemindMode",
    doc: "What an agent does in a state.",
    values: &["active", "reading", "idle"],
};
/// The follow-ups a host fires after their delay.
pub static FOLLOW_UP: Enum = Enum {
    name: "HivemindFollowUp",
    doc: "An automatic follow-up event.",
    values: &["review_checkpoint", "sync_friction"],
};

/// `workspace/state.json`.
pub static STATE: Shape = Shape::document(
    "HivemindState",
    "the hivemind state",
    "`workspace/state.json`: the Hivemind workflow state.",
    &[
        Field::opt(
            "$schema",
            Ty::Str,
            "The JSON Schema this document follows (kept as it is).",
        ),
        Field::req("state", Ty::Enum(&STATE_NAME), "The current state."),
        Field::opt(
            "previous_state",
            Ty::Enum(&STATE_NAME),
            "The state before it (where `resume` and `user_input` return).",
        ),
        Field::opt(
            "active_agents",
            Ty::List(&Ty::Enum(&AGENT)),
            "The agents that can write in this state.",
        )
        .by_rule(),
        Field::opt("timestamp", Ty::Timestamp, "When the state was entered."),
        Field::opt("project", Ty::Str, "The project folder."),
        Field::opt("error", Ty::Str, "What broke (state `error`)."),
        Field::opt(
            "current_checkpoint",
            Ty::Whole(0),
            "The checkpoint being worked on or reviewed (0 before the first).",
        ),
        Field::opt(
            "total_checkpoints",
            Ty::Whole(0),
            "How many checkpoints the plan has (`Checkpoints: N` in plan.md).",
        ),
        Field::opt(
            "friction_count",
            Ty::Whole(0),
            "Friction files logged since the task started.",
        ),
    ],
);

/// One transition taken.
pub static TRANSITION: Shape = Shape::exact(
    "HivemindTransition",
    "One transition taken.",
    &[
        Field::req("from", Ty::Enum(&STATE_NAME), "The state left."),
        Field::req("event", Ty::Enum(&EVENT), "The event."),
        Field::req("to", Ty::Enum(&STATE_NAME), "The state entered."),
    ],
);

/// A message to an agent.
pub static NOTIFICATION: Shape = Shape::exact(
    "HivemindNotification",
    "A context message to send to an agent's terminal.",
    &[
        Field::req("agent", Ty::Enum(&AGENT), "The agent."),
        Field::req("message", Ty::Str, "The message."),
    ],
);

/// A follow-up to fire later.
pub static SCHEDULED: Shape = Shape::exact(
    "HivemindScheduled",
    "An automatic follow-up to fire after `after_ms` (`hivemind.follow_up`).",
    &[
        Field::req("event", Ty::Enum(&FOLLOW_UP), "The event to fire."),
        Field::req("to", Ty::Enum(&STATE_NAME), "Where it leads."),
        Field::req("after_ms", Ty::Whole(0), "The delay in milliseconds."),
    ],
);

/// What every workflow step returns.
pub static OUTCOME: Shape = Shape::exact(
    "HivemindOutcome",
    "What a workflow step did: the new document and what the host must do.",
    &[
        Field::req(
            "state",
            Ty::Object(&STATE),
            "The new document (the old one when nothing changed).",
        ),
        Field::req(
            "changed",
            Ty::Bool,
            "False when nothing changed (then nothing is written).",
        ),
        Field::req(
            "transitions",
            Ty::List(&Ty::Object(&TRANSITION)),
            "The transitions taken, in order.",
        ),
        Field::req(
            "notifications",
            Ty::List(&Ty::Object(&NOTIFICATION)),
            "Messages to send to agents.",
        ),
        Field::req(
            "scheduled",
            Ty::List(&Ty::Object(&SCHEDULED)),
            "Follow-ups to fire after their delay.",
        ),
        Field::req(
            "ignored",
            Ty::Nullable(&Ty::Str),
            "Why nothing happened, or null.",
        ),
        Field::req(
            "problems",
            Ty::List(&Ty::Object(&ISSUE)),
            "Problems with a trigger file's content.",
        ),
    ],
);

/// `fire`'s details.
pub static DETAILS: Shape = Shape::exact(
    "HivemindDetails",
    "What an event carries: the project of `select_project`, the error of `worker_crashed`.",
    &[
        Field::opt("project", Ty::Str, "The project folder (`select_project`)."),
        Field::opt("error", Ty::Str, "What broke (`worker_crashed`)."),
        Field::opt("total_checkpoints", Ty::Whole(0), "The plan's checkpoints."),
    ],
);

/// Each agent's mode in a state.
pub static AGENT_MODES: Shape = Shape::exact(
    "HivemindAgentModes",
    "Each agent's mode in a state.",
    &[
        Field::req("lead", Ty::Enum(&MODE), "The Lead."),
        Field::req("reviewer", Ty::Enum(&MODE), "The Reviewer."),
        Field::req("worker1", Ty::Enum(&MODE), "Worker 1."),
        Field::req("worker2", Ty::Enum(&MODE), "Worker 2."),
    ],
);

/// A state argument: the document, or null for a missing file.
pub const STATE_IN: Ty = Ty::Nullable(&Ty::Object(&STATE));
