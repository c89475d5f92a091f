//! The table: the Hivemind workflow (docs/hivemind.md).

use super::{Access, Module, Op, Out, Param, Returns, Write};
use crate::hivemind::shapes as s;
use crate::machine::shapes::DEFINITION;
use crate::machine::Machine;
use crate::shape::Ty;
use crate::Value;

const STATE: Param = Param::opt_value("state", s::STATE_IN);
const OUTCOME: Returns = Returns::json(Ty::Object(&s::OUTCOME));
/// A step's outcome carries the new document in `state`, written only when it `changed`.
const WRITES: Access = Access::Writes(Write {
    document_at: Some("state"),
    ..Write::document("hivemind.state")
});

/// The Hivemind operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Hivemind,
        method: "machine",
        doc: "The workflow as a machine definition (for `machine.*`).",
        params: &[],
        returns: Returns::json(Ty::Object(&DEFINITION)),
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(crate::hivemind::hivemind_machine())),
    },
    Op {
        module: Module::Hivemind,
        method: "diagram",
        doc: "The Mermaid `stateDiagram-v2` text of the workflow.",
        params: &[],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |_| {
            let machine = Machine::from_value(&crate::hivemind::hivemind_machine())?;
            Ok(Out::Text(machine.mermaid()))
        },
    },
    Op {
        module: Module::Hivemind,
        method: "agents",
        doc: "Each agent's mode (`active`, `reading`, `idle`) in a state.",
        params: &[Param::text("state", Ty::Enum(&s::STATE_NAME))],
        returns: Returns::json(Ty::Object(&s::AGENT_MODES)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(crate::hivemind::agents(a.text(0)?)?)),
    },
    Op {
        module: Module::Hivemind,
        method: "context_message",
        doc: "The message agents get on entering a state, or null.",
        params: &[Param::text("state", Ty::Enum(&s::STATE_NAME))],
        returns: Returns::json(Ty::Nullable(&Ty::Str)),
        access: Access::Pure,
        web: true,
        run: |a| {
            let message = crate::hivemind::context_message(a.text(0)?);
            Ok(Out::Json(message.map_or(Value::Null, Value::from)))
        },
    },
    Op {
        module: Module::Hivemind,
        method: "fire",
        doc: "Fires a host event on `state.json`'s document (null: a missing file); details: \
              `{project}` for `select_project`, `{error}` for `worker_crashed`.",
        params: &[
            STATE,
            Param::text("event", Ty::Enum(&s::EVENT)),
            Param::now(),
            Param::opt_value("details", Ty::Nullable(&Ty::Object(&s::DETAILS))),
        ],
        returns: OUTCOME,
        access: WRITES,
        web: false,
        run: |a| {
            let state = a.take(0);
            let outcome = crate::hivemind::fire(state, a.text(1)?, a.get(2), a.get(3))?;
            Ok(Out::Json(outcome.into_value()))
        },
    },
    Op {
        module: Module::Hivemind,
        method: "follow_up",
        doc: "Fires a scheduled automatic follow-up if it still applies (else `ignored` says why).",
        params: &[
            STATE,
            Param::text("event", Ty::Enum(&s::FOLLOW_UP)),
            Param::now(),
        ],
        returns: OUTCOME,
        access: WRITES,
        web: false,
        run: |a| {
            let state = a.take(0);
            let outcome = crate::hivemind::follow_up(state, a.text(1)?, a.get(2))?;
            Ok(Out::Json(outcome.into_value()))
        },
    },
    Op {
        module: Module::Hivemind,
        method: "ignores_file",
        doc: "Whether a watcher leaves the file at `path` alone, never reading it: \
              `state.json` and the files its writers leave next to it (its lock, the lock's \
              temp files and break markers, atomic-write temp files, `.corrupt-` copies), so \
              that the state's own writes trigger nothing (docs/hivemind.md § Watcher).",
        params: &[Param::text("path", Ty::Str)],
        returns: Returns::json(Ty::Bool),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(Value::Bool(crate::hivemind::ignores_file(
                a.text(0)?,
            ))))
        },
    },
    Op {
        module: Module::Hivemind,
        method: "on_file",
        doc: "What a file created or changed under `workspace/` does in the current state \
              (`content`: its text, null when unreadable).",
        params: &[
            STATE,
            Param::text("path", Ty::Str),
            Param::opt_text("content", Ty::Str),
            Param::now(),
        ],
        returns: OUTCOME,
        access: WRITES,
        web: false,
        run: |a| {
            let state = a.take(0);
            let outcome = crate::hivemind::on_file(state, a.text(1)?, a.get(2), a.get(3))?;
            Ok(Out::Json(outcome.into_value()))
        },
    },
]);
