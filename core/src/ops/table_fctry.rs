//! The table: the fctry protocol (docs/fctry.md).

use super::args::Suffix;
use super::{Access, Module, Op, Out, Param, Returns, Write};
use crate::fctry::results as r;
use crate::fctry::shapes as s;
use crate::fctry::{self as f};
use crate::machine::shapes::DEFINITION;
use crate::shape::Ty;
use crate::Value;

const STATE: Param = Param::opt_value("state", s::STATE_IN);
const INBOX: Param = Param::opt_value("inbox", s::INBOX_IN);
const NEW_STATE: Returns = Returns::json(Ty::Object(&s::STATE));
const NEW_INBOX: Returns = Returns::json(Ty::Alias(&s::INBOX));
const WRITES_STATE: Access = Access::Writes(Write::document("fctry.state"));
const WRITES_INBOX: Access = Access::Writes(Write::document("fctry.inbox"));
const READS_STATE: Access = Access::Reads {
    kind: "fctry.state",
    bytes: false,
    helper: None,
};
const READS_INBOX: Access = Access::Reads {
    kind: "fctry.inbox",
    bytes: false,
    helper: None,
};
const MACHINE: Returns = Returns::json(Ty::Object(&DEFINITION));
const COMMAND: Param = Param::opt_text("command", Ty::Enum(&s::COMMAND));

/// The fctry operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Fctry,
        method: "start_command",
        doc: "Step 0 of a command: `currentCommand` set; steps, outputs and skips cleared.",
        params: &[
            STATE,
            Param::text("command", Ty::Enum(&s::COMMAND)),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::start_command(state, a.text(1)?, a.get(2))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "start_step",
        doc: "An agent starts its step: `workflowStep` set.",
        params: &[STATE, Param::text("step", Ty::Enum(&s::STEP)), Param::now()],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::start_step(state, a.text(1)?, a.get(2))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "complete_step",
        doc: "An agent completes its step: appended once to `completedSteps`, `workflowStep` \
              cleared, its output (at least a summary) stored when given.",
        params: &[
            STATE,
            Param::text("step", Ty::Enum(&s::STEP)),
            Param::opt_value("output", Ty::Nullable(&Ty::Object(&s::AGENT_OUTPUT))),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::complete_step(
                state,
                a.text(1)?,
                a.get(2),
                a.get(3),
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "check_prerequisites",
        doc: "An agent's prerequisites against `completedSteps`: `{ok, agent, command, missing, \
              message, options}` (the seed's numbered \"Workflow error\" text when missing).",
        params: &[STATE, Param::text("agent", Ty::Enum(&s::AGENT)), COMMAND],
        returns: Returns::json(Ty::Object(&r::PREREQUISITES)),
        access: READS_STATE,
        web: true,
        run: |a| {
            let check = f::check_prerequisites(a.get(0), a.text(1)?, a.opt_text(2)?)?;
            Ok(Out::Json(check.to_value()))
        },
    },
    Op {
        module: Module::Fctry,
        method: "skip_prerequisites",
        doc: "The user chose \"Skip\": the skip is recorded in `skippedPrerequisites`.",
        params: &[
            STATE,
            Param::text("agent", Ty::Enum(&s::AGENT)),
            COMMAND,
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::skip_prerequisites(
                state,
                a.text(1)?,
                a.opt_text(2)?,
                a.get(3),
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "add_untracked_change",
        doc: "Records a file write made outside fctry commands, one entry per file.",
        params: &[
            STATE,
            Param::value("change", Ty::Object(&s::UNTRACKED_CHANGE)),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::add_untracked_change(
                state,
                a.get(1),
                a.get(2),
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "clear_untracked_changes",
        doc: "Clears the untracked changes of these sections (left out: all of them).",
        params: &[
            STATE,
            Param::opt_value("sections", Ty::Nullable(&Ty::List(&Ty::Str))),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            let sections = sections(a.get(1))?;
            Ok(Out::Json(f::clear_untracked_changes(
                state,
                sections.as_deref(),
                a.get(2),
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "inbox_machine",
        doc: "The inbox item lifecycle as a machine definition.",
        params: &[],
        returns: MACHINE,
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(f::inbox_machine())),
    },
    Op {
        module: Module::Fctry,
        method: "inbox_add",
        doc: "Adds an item first: `inbox-{ms}-{6 base36}` (the suffix drawn from the host's \
              random bytes unless given).",
        params: &[
            INBOX,
            Param::text("type", Ty::Enum(&s::INBOX_TYPE)),
            Param::text("content", Ty::Str),
            Param::now(),
            Param::random(),
        ],
        returns: NEW_INBOX,
        access: Access::Writes(Write {
            extra: Some(("item", "/0", Ty::Object(&s::INBOX_ITEM))),
            ..Write::document("fctry.inbox")
        }),
        web: false,
        run: |a| {
            let suffix = match a.suffix(4)? {
                Suffix::Given(text) => text.to_owned(),
                Suffix::Random(bytes) => f::random_suffix(bytes)?,
            };
            let inbox = a.take(0);
            Ok(Out::Json(f::inbox_add(
                inbox,
                a.text(1)?,
                a.text(2)?,
                a.get(3),
                &suffix,
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "inbox_transition",
        doc: "Moves one inbox item through its lifecycle (`TransitionError` when illegal).",
        params: &[
            INBOX,
            Param::text("id", Ty::Str),
            Param::text("event", Ty::Enum(&s::INBOX_EVENT)),
        ],
        returns: NEW_INBOX,
        access: WRITES_INBOX,
        web: false,
        run: |a| {
            let inbox = a.take(0);
            Ok(Out::Json(f::inbox_transition(
                inbox,
                a.text(1)?,
                a.text(2)?,
            )?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "inbox_dismiss",
        doc: "Removes an inbox item (an id that is not there: unchanged).",
        params: &[INBOX, Param::text("id", Ty::Str)],
        returns: NEW_INBOX,
        access: WRITES_INBOX,
        web: false,
        run: |a| {
            let inbox = a.take(0);
            Ok(Out::Json(f::inbox_dismiss(inbox, a.text(1)?)?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "inbox_batch",
        doc: "Applies an event to every pending or processed item it is legal for.",
        params: &[INBOX, Param::text("event", Ty::Enum(&s::INBOX_EVENT))],
        returns: NEW_INBOX,
        access: WRITES_INBOX,
        web: false,
        run: |a| {
            let inbox = a.take(0);
            Ok(Out::Json(f::inbox_batch(inbox, a.text(1)?)?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "inbox_counts",
        doc: "How many items the inbox holds in each status: `{total, pending, processing, \
              processed, error, incorporated, other}` (`other`: a missing or unknown status).",
        params: &[INBOX],
        returns: Returns::json(Ty::Object(&r::INBOX_COUNTS)),
        access: READS_INBOX,
        web: true,
        run: |a| Ok(Out::Json(f::inbox_counts(a.get(0))?)),
    },
    Op {
        module: Module::Fctry,
        method: "chunk_machine",
        doc: "The chunk lifecycle as a machine definition (guards read `{retriesLeft}`).",
        params: &[],
        returns: MACHINE,
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(f::chunk_machine())),
    },
    Op {
        module: Module::Fctry,
        method: "run_machine",
        doc: "The build run lifecycle as a machine definition.",
        params: &[],
        returns: MACHINE,
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(f::run_machine())),
    },
    Op {
        module: Module::Fctry,
        method: "create_build_run",
        doc: "Creates `buildRun` (`runId` `run-{ms}`) from an approved plan.",
        params: &[
            STATE,
            Param::value("plan", Ty::Object(&r::BUILD_PLAN)),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::create_build_run(state, a.get(1), a.get(2))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "chunk_event",
        doc: "A chunk event: `start`, `complete` or `fail` (retries, then failed and its \
              dependents blocked).",
        params: &[
            STATE,
            Param::int("id"),
            Param::text("event", Ty::Enum(&s::CHUNK_EVENT)),
            Param::now(),
        ],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let id = a.whole(1)?;
            let state = a.take(0);
            Ok(Out::Json(f::chunk_event(state, id, a.text(2)?, a.get(3))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "ready_chunks",
        doc: "The planned chunks whose dependencies all completed, in plan order.",
        params: &[STATE],
        returns: Returns::json(Ty::List(&Ty::Whole(1))),
        access: READS_STATE,
        web: true,
        run: |a| Ok(Out::Json(Value::from(f::ready_chunks(a.get(0))))),
    },
    Op {
        module: Module::Fctry,
        method: "dag_layers",
        doc: "The chunk DAG in layers for drawing: `{layers, unplaced}`.",
        params: &[STATE],
        returns: Returns::json(Ty::Object(&r::DAG_LAYERS)),
        access: READS_STATE,
        web: true,
        run: |a| Ok(Out::Json(f::dag_layers(a.get(0)))),
    },
    Op {
        module: Module::Fctry,
        method: "pause_build_run",
        doc: "Pauses a running build with the question it waits on.",
        params: &[STATE, Param::value("question", Ty::Json), Param::now()],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::pause_build_run(state, a.get(1), a.get(2))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "resume_build_run",
        doc: "Resumes a paused build.",
        params: &[STATE, Param::now()],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::resume_build_run(state, a.get(1))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "finish_build_run",
        doc: "Finishes a build whose chunks are all done: all completed, cleared; failures, \
              `partial`.",
        params: &[STATE, Param::now()],
        returns: NEW_STATE,
        access: WRITES_STATE,
        web: false,
        run: |a| {
            let state = a.take(0);
            Ok(Out::Json(f::finish_build_run(state, a.get(1))?))
        },
    },
    Op {
        module: Module::Fctry,
        method: "resume_plan",
        doc: "What to offer after an interruption: `{offer, completed, remaining, next, \
              changed, options}`.",
        params: &[STATE, Param::opt_text("current_spec_version", Ty::Str)],
        returns: Returns::json(Ty::Object(&r::RESUME_PLAN)),
        access: READS_STATE,
        web: true,
        run: |a| Ok(Out::Json(f::resume_plan(a.get(0), a.opt_text(1)?))),
    },
    Op {
        module: Module::Fctry,
        method: "status_line",
        doc: "What a status line shows, from any state (odd field types are ignored).",
        params: &[STATE],
        returns: Returns::json(Ty::Object(&r::STATUS_LINE)),
        access: READS_STATE,
        web: true,
        run: |a| Ok(Out::Json(f::status_line(a.get(0)))),
    },
    Op {
        module: Module::Fctry,
        method: "project_status",
        doc: "What a status line shows of a project: the state's summary with the registry's \
              versions, the branch, the spec's titles and status, the inbox's findings, the \
              session's context and the derived next step.",
        params: &[Param::value("project", Ty::Object(&r::PROJECT))],
        returns: Returns::json(Ty::Object(&r::STATUS_LINE)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let project = f::Project::from_value(a.input(0, &r::PROJECT)?);
            Ok(Out::Json(f::project_status(&project)))
        },
    },
    Op {
        module: Module::Fctry,
        method: "project_status_text",
        doc: "The rendered status line of a project in one call (`project_status`, then \
              `render_status_line`).",
        params: &[
            Param::value("project", Ty::Object(&r::PROJECT)),
            Param::options("options", &r::RENDER_OPTIONS),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| {
            let options = a.options(1)?;
            let project = f::Project::from_value(a.input(0, &r::PROJECT)?);
            Ok(Out::Text(f::render_status_line(
                &f::project_status(&project),
                options,
            )))
        },
    },
    Op {
        module: Module::Fctry,
        method: "render_status_line",
        doc: "One line of text from a status line summary (`color` adds ANSI colours).",
        params: &[
            Param::value("summary", Ty::Object(&r::STATUS_LINE)),
            Param::options("options", &r::RENDER_OPTIONS),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| {
            let options = a.options(1)?;
            Ok(Out::Text(f::render_status_line(a.get(0), options)))
        },
    },
    Op {
        module: Module::Fctry,
        method: "status_line_text",
        doc: "The rendered status line straight from the state file's bytes (none: no file; \
              unparseable bytes read as `{}`).",
        params: &[
            Param::opt_bytes("data"),
            Param::options("options", &r::RENDER_OPTIONS),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |a| {
            let options = a.options(1)?;
            Ok(Out::Text(f::status_line_text(a.opt_bytes(0), options)))
        },
    },
    Op {
        module: Module::Fctry,
        method: "activity_feed",
        doc: "Event lists merged oldest first: `{events, invalid}` (events without a valid \
              timestamp are listed in `invalid`, never dropped silently).",
        params: &[Param::value("sources", Ty::List(&Ty::List(&Ty::Json)))],
        returns: Returns::json(Ty::Object(&r::ACTIVITY_FEED)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(f::activity_feed(a.get(0)))),
    },
    Op {
        module: Module::Fctry,
        method: "context_health",
        doc: "The context health indicator: `{isolation, lastCheckpoint}`.",
        params: &[
            STATE,
            Param::opt_value("events", Ty::Nullable(&Ty::List(&Ty::Json))),
        ],
        returns: Returns::json(Ty::Object(&r::CONTEXT_HEALTH)),
        access: READS_STATE,
        web: true,
        run: |a| Ok(Out::Json(f::context_health(a.get(0), a.get(1)))),
    },
]);

/// The sections argument of `clear_untracked_changes`: a list of aliases, or `null` for all.
fn sections(value: &Value) -> crate::Result<Option<Vec<String>>> {
    use crate::error::{Code, Error};
    let wrong = || {
        Error::new(
            Code::Argument,
            "/sections",
            "sections must be a list of section aliases, or null for all",
        )
    };
    match value {
        Value::Null => Ok(None),
        Value::Array(items) => items
            .iter()
            .map(|s| s.as_str().map(str::to_owned).ok_or_else(wrong))
            .collect::<crate::Result<Vec<_>>>()
            .map(Some),
        _ => Err(wrong()),
    }
}
