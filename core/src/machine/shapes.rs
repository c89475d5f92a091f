//! Machine definitions, instances and results, described once (`crate::shape`) for the
//! generated TypeScript and Python types.

use crate::shape::{Alias, Enum, Field, Shape, Ty};

/// A guard comparison.
pub static GUARD_OP: Enum = Enum {
    name: "GuardOp",
    doc: "A guard comparison operator.",
    values: &["eq", "ne", "lt", "le", "gt", "ge", "exists", "absent", "in"],
};

/// `{path, op, value}`.
pub static GUARD_TEST: Shape = Shape::exact(
    "GuardTest",
    "Compares the value at a JSON pointer of the context.",
    &[
        Field::req("path", Ty::Str, "JSON pointer into the context."),
        Field::req("op", Ty::Enum(&GUARD_OP), "The comparison."),
        Field::opt("value", Ty::Json, "The operand (`in`: a list)."),
    ],
);
/// `{all: [...]}`.
pub static GUARD_ALL: Shape = Shape::exact(
    "GuardAll",
    "Every guard holds.",
    &[Field::req(
        "all",
        Ty::List(&Ty::Alias(&GUARD)),
        "The guards.",
    )],
);
/// `{any: [...]}`.
pub static GUARD_ANY: Shape = Shape::exact(
    "GuardAny",
    "At least one guard holds.",
    &[Field::req(
        "any",
        Ty::List(&Ty::Alias(&GUARD)),
        "The guards.",
    )],
);
/// `{not: ...}`.
pub static GUARD_NOT: Shape = Shape::exact(
    "GuardNot",
    "The guard does not hold.",
    &[Field::req("not", Ty::Alias(&GUARD), "The guard.")],
);
/// A guard.
pub static GUARD: Alias = Alias {
    name: "Guard",
    doc: "A condition over the context document, as data.",
    ty: Ty::Union(&[
        Ty::Object(&GUARD_TEST),
        Ty::Object(&GUARD_ALL),
        Ty::Object(&GUARD_ANY),
        Ty::Object(&GUARD_NOT),
    ]),
};

/// A state.
pub static STATE: Shape = Shape::exact(
    "MachineState",
    "A state of a machine.",
    &[
        Field::req("name", Ty::Str, "An identifier (`[A-Za-z_][A-Za-z0-9_]*`)."),
        Field::opt("description", Ty::Str, "What it means, for people."),
        Field::opt("terminal", Ty::Bool, "True when the machine ends here."),
    ],
);

/// A transition.
pub static TRANSITION: Shape = Shape::exact(
    "MachineTransition",
    "A transition rule; the first whose `from`, `event` and guard match wins.",
    &[
        Field::req(
            "from",
            Ty::Union(&[Ty::Lit("*"), Ty::Str, Ty::List(&Ty::Str)]),
            "Source states: `\"*\"` (every state), a state or a list.",
        ),
        Field::req("event", Ty::Str, "The event."),
        Field::req("to", Ty::Str, "The target state, or `\"$previous\"`."),
        Field::opt("guard", Ty::Alias(&GUARD), "A condition on the context."),
        Field::opt(
            "auto",
            Ty::Bool,
            "Fires by itself on entering a `from` state.",
        ),
        Field::opt(
            "after_ms",
            Ty::Whole(0),
            "The delay of an automatic transition (0: at once).",
        ),
    ],
);

/// A machine definition.
pub static DEFINITION: Shape = Shape::exact(
    "MachineDefinition",
    "A state machine as data.",
    &[
        Field::req("name", Ty::Str, "Its name, for diagrams and messages."),
        Field::req("initial", Ty::Str, "The state a new instance starts in."),
        Field::req("states", Ty::List(&Ty::Object(&STATE)), "Every state."),
        Field::req(
            "transitions",
            Ty::List(&Ty::Object(&TRANSITION)),
            "Every transition, in priority order.",
        ),
    ],
);

/// `{state, previous}`.
pub static INSTANCE_OBJECT: Shape = Shape::exact(
    "MachineInstanceState",
    "Where an instance is.",
    &[
        Field::req("state", Ty::Str, "The current state."),
        Field::opt("previous", Ty::Nullable(&Ty::Str), "The state before it."),
    ],
);

/// An instance: an object or a state name.
pub static INSTANCE: Alias = Alias {
    name: "MachineInstance",
    doc: "Where an instance is: `{state, previous}`, or just the state name.",
    ty: Ty::Union(&[Ty::Str, Ty::Object(&INSTANCE_OBJECT)]),
};

/// A legal event.
pub static EVENT: Shape = Shape::exact(
    "MachineEvent",
    "A legal event from a state.",
    &[
        Field::req("event", Ty::Str, "The event."),
        Field::req("to", Ty::Str, "Its target (may be `$previous`)."),
        Field::req("auto", Ty::Bool, "True for an automatic transition."),
    ],
);

/// A transition taken.
pub static STEP: Shape = Shape::exact(
    "MachineStep",
    "One transition taken.",
    &[
        Field::req("from", Ty::Str, "The state left."),
        Field::req("event", Ty::Str, "The event."),
        Field::req("to", Ty::Str, "The state entered."),
    ],
);

/// A scheduled automatic transition.
pub static SCHEDULED: Shape = Shape::exact(
    "ScheduledTransition",
    "A delayed automatic transition the host fires after `after_ms`.",
    &[
        Field::req("event", Ty::Str, "The event."),
        Field::req("to", Ty::Str, "Its target."),
        Field::req("after_ms", Ty::Whole(0), "The delay in milliseconds."),
    ],
);

/// What firing returns.
pub static FIRED: Shape = Shape::exact(
    "FireResult",
    "The outcome of firing an event.",
    &[
        Field::req(
            "state",
            Ty::Str,
            "The state after the event and any immediate automatic transitions.",
        ),
        Field::req("previous", Ty::Nullable(&Ty::Str), "The state before it."),
        Field::req(
            "changed",
            Ty::Bool,
            "False when the event led to the current state.",
        ),
        Field::req(
            "steps",
            Ty::List(&Ty::Object(&STEP)),
            "Every transition taken, in order.",
        ),
        Field::req(
            "scheduled",
            Ty::List(&Ty::Object(&SCHEDULED)),
            "Delayed automatic transitions from the final state.",
        ),
    ],
);
