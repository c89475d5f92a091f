//! The table: the specify workflow (docs/specify.md).

use super::{Access, Module, Op, Out, Param, Returns, Write};
use crate::machine::shapes::DEFINITION;
use crate::machine::Machine;
use crate::shape::Ty;
use crate::specify::op_shapes as o;
use crate::specify::shapes as s;

const INDEX: Param = Param::value("index", o::INDEX_IN);
const WRITES: Access = Access::Writes(Write::document("specify.index"));
const READS: Access = Access::Reads {
    kind: "specify.index",
    bytes: false,
    helper: None,
};

/// A writer whose result is `{index, changed, ...}`: the index is written when it changed.
const WRITES_OUTCOME: Access = Access::Writes(Write {
    kind: "specify.index",
    takes_document: true,
    document_at: Some("index"),
    helper: None,
    extra: None,
});

/// Runs a writer of the form `(index, now)`.
fn index_now(
    a: &mut super::Args<'_>,
    step: fn(crate::Value, &crate::Value) -> crate::Result<crate::Value>,
) -> crate::Result<Out> {
    let index = a.take(0);
    Ok(Out::Json(step(index, a.get(1))?))
}

/// Runs a writer of the form `(index, value, now)`.
fn index_value_now(
    a: &mut super::Args<'_>,
    step: fn(crate::Value, &crate::Value, &crate::Value) -> crate::Result<crate::Value>,
) -> crate::Result<Out> {
    let index = a.take(0);
    Ok(Out::Json(step(index, a.get(1), a.get(2))?))
}

/// The specify operations.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Specify,
        method: "parse_markdown",
        doc: "Reads index.md into text blocks and pipe tables (each with its section, columns \
              and rows' cells, every row keeping its line as written); `E_PARSE` with the line \
              and column of a row with more cells than its table has columns.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Object(&s::MARKDOWN)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::parse_markdown(a.text(0)?)?)),
    },
    Op {
        module: Module::Specify,
        method: "render_markdown",
        doc: "Writes index.md back from its document: unchanged rows byte for byte, a changed \
              or new row as `| a | b |` padded to its columns' widths.",
        params: &[Param::value("document", Ty::Object(&s::MARKDOWN))],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Text(crate::specify::render_markdown(a.get(0))?)),
    },
    Op {
        module: Module::Specify,
        method: "parse_index",
        doc: "Reads index.md as the `specify.index` document: its tables by their headings' \
              keys, the known ones typed (both column sets), the others as text.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Object(&s::INDEX)),
        access: Access::Pure,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::parse_index(a.text(0)?)?)),
    },
    Op {
        module: Module::Specify,
        method: "render_index",
        doc: "Writes a `specify.index` document over index.md's text (`null`: a new file): \
              only the cells whose values changed are rewritten; rows, columns and sections \
              are added or removed as the document says.",
        params: &[
            Param::opt_text("old", Ty::Str),
            Param::value("index", Ty::Object(&s::INDEX)),
        ],
        returns: Returns::text(),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Text(crate::specify::render_index(
                a.opt_text(0)?,
                a.get(1),
            )?))
        },
    },
    Op {
        module: Module::Specify,
        method: "machine",
        doc: "The loop statuses as a machine definition (for `machine.*`).",
        params: &[],
        returns: Returns::json(Ty::Object(&DEFINITION)),
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(crate::specify::loop_machine())),
    },
    Op {
        module: Module::Specify,
        method: "diagram",
        doc: "The Mermaid `stateDiagram-v2` text of the loop statuses.",
        params: &[],
        returns: Returns::text(),
        access: Access::Pure,
        web: true,
        run: |_| {
            let machine = Machine::from_value(&crate::specify::loop_machine())?;
            Ok(Out::Text(machine.mermaid()))
        },
    },
    Op {
        module: Module::Specify,
        method: "gap_machine",
        doc: "A gap's statuses as a machine definition (for `machine.*`).",
        params: &[],
        returns: Returns::json(Ty::Object(&DEFINITION)),
        access: Access::Pure,
        web: true,
        run: |_| Ok(Out::Json(crate::specify::gap_machine())),
    },
    Op {
        module: Module::Specify,
        method: "start",
        doc: "Starts the workflow on a missing or `not_started` index (loop `scaffolding`, \
              iteration `1 / 10`, the seed's empty tables); any other index is unchanged. \
              Returns `{index, changed, resume}`.",
        params: &[INDEX, Param::now()],
        returns: Returns::json(Ty::Object(&o::STARTED)),
        access: WRITES_OUTCOME,
        web: false,
        run: |a| index_now(a, crate::specify::start),
    },
    Op {
        module: Module::Specify,
        method: "set_loop_status",
        doc: "Moves the loop on its machine (`E_TRANSITION` for a move the seed does not \
              allow); a move to `completed` or `terminated` sets the termination reason \
              (`success` / `user` by default).",
        params: &[
            INDEX,
            Param::text("status", Ty::Enum(&s::LOOP_STATUS)),
            Param::now(),
            Param::opt_text("reason", Ty::Str),
        ],
        returns: Returns::json(Ty::Object(&s::INDEX)),
        access: WRITES,
        web: false,
        run: |a| {
            let (status, reason) = (a.text(1)?.to_owned(), a.opt_text(3)?.map(str::to_owned));
            let index = a.take(0);
            let out = crate::specify::set_loop_status(index, &status, a.get(2), reason.as_deref())?;
            Ok(Out::Json(out))
        },
    },
    Op {
        module: Module::Specify,
        method: "apply_state_updates",
        doc: "Merges an agent's `state_updates`: the loop state by field (its status on the \
              machine), gaps by id, traceability by FR ID, history appended, other sections \
              by their table; sets `last_activity`.",
        params: &[
            INDEX,
            Param::value("updates", Ty::Map(&Ty::Json)),
            Param::now(),
        ],
        returns: Returns::json(Ty::Object(&s::INDEX)),
        access: WRITES,
        web: false,
        run: |a| index_value_now(a, crate::specify::apply_state_updates),
    },
    Op {
        module: Module::Specify,
        method: "add_gaps",
        doc: "Adds gaps found by validation: ids `G-NNN` when they have none, `pending` \
              (Minor: `deferred` at once), stale 0, a `created` history row each.",
        params: &[
            INDEX,
            Param::value("gaps", Ty::List(&Ty::Object(&s::NEW_GAP))),
            Param::now(),
        ],
        returns: Returns::json(Ty::Object(&s::INDEX)),
        access: WRITES,
        web: false,
        run: |a| index_value_now(a, crate::specify::add_gaps),
    },
    Op {
        module: Module::Specify,
        method: "set_gap_status",
        doc: "Changes a gap's status on the gap machine, with a history row (`details`, or \
              the move); reopening it sets its stale count back to 0.",
        params: &[
            INDEX,
            Param::text("gap_id", Ty::Str),
            Param::text("status", Ty::Enum(&s::GAP_STATUS)),
            Param::now(),
            Param::opt_text("details", Ty::Str),
        ],
        returns: Returns::json(Ty::Object(&s::INDEX)),
        access: WRITES,
        web: false,
        run: |a| {
            let (gap, status) = (a.text(1)?.to_owned(), a.text(2)?.to_owned());
            let details = a.opt_text(4)?.map(str::to_owned);
            let index = a.take(0);
            let out =
                crate::specify::set_gap_status(index, &gap, &status, a.get(3), details.as_deref())?;
            Ok(Out::Json(out))
        },
    },
    Op {
        module: Module::Specify,
        method: "start_clarifying",
        doc: "Presents the iteration's clarifications (`next_clarifications`): their gaps go \
              `clarifying`, the loop `clarifying`. Returns `{index, changed, clarifications}`.",
        params: &[INDEX, Param::now()],
        returns: Returns::json(Ty::Object(&o::CLARIFYING)),
        access: WRITES_OUTCOME,
        web: false,
        run: |a| index_now(a, crate::specify::start_clarifying),
    },
    Op {
        module: Module::Specify,
        method: "end_iteration",
        doc: "Ends an iteration: stale counts of the open blocking gaps and of the loop, then \
              the termination check (`success` completes the loop, `max_iterations` \
              terminates it, otherwise the next iteration). Returns `{index, changed, \
              termination}`.",
        params: &[INDEX, Param::now()],
        returns: Returns::json(Ty::Object(&o::ITERATION_ENDED)),
        access: WRITES_OUTCOME,
        web: false,
        run: |a| index_now(a, crate::specify::end_iteration),
    },
    Op {
        module: Module::Specify,
        method: "queue_order",
        doc: "The open gaps in the order they are asked: Critical, Important, Minor; then the \
              longest open; then by gap number.",
        params: &[INDEX],
        returns: Returns::json(Ty::List(&Ty::Object(&s::GAP))),
        access: READS,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::queue_order(a.get(0))?)),
    },
    Op {
        module: Module::Specify,
        method: "next_clarifications",
        doc: "The clarifications the iteration would ask: pending Critical and Important gaps \
              in queue order, one requirement's gaps together, at most 3, ids `C{iteration}.{n}`.",
        params: &[INDEX],
        returns: Returns::json(Ty::List(&Ty::Object(&o::CLARIFICATION))),
        access: READS,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::next_clarifications(a.get(0))?)),
    },
    Op {
        module: Module::Specify,
        method: "check_termination",
        doc: "The termination check, in the seed's order: success, max_iterations, stale \
              gaps, no progress, or continue.",
        params: &[INDEX],
        returns: Returns::json(Ty::Object(&o::TERMINATION)),
        access: READS,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::check_termination(a.get(0))?)),
    },
    Op {
        module: Module::Specify,
        method: "resume_point",
        doc: "Where the workflow resumes, by its loop status.",
        params: &[INDEX],
        returns: Returns::json(Ty::Object(&o::RESUME)),
        access: READS,
        web: true,
        run: |a| Ok(Out::Json(crate::specify::resume_point(a.get(0))?)),
    },
    Op {
        module: Module::Specify,
        method: "check_artifacts",
        doc: "Checks an agent's artifacts before anything is written: every path relative, \
              inside the feature's directory, portable, not in `.workflow` (`E_PATH_UNSAFE`); \
              returns them with their paths normalized. `specs/<feature_id>/` in front is \
              read as the directory itself.",
        params: &[
            Param::value("artifacts", Ty::List(&Ty::Object(&o::ARTIFACT))),
            Param::opt_text("feature_id", Ty::Str),
        ],
        returns: Returns::json(Ty::List(&Ty::Object(&o::ARTIFACT))),
        access: Access::Pure,
        web: false,
        run: |a| {
            let feature = a.opt_text(1)?;
            Ok(Out::Json(crate::specify::check_artifacts(
                a.get(0),
                feature,
            )?))
        },
    },
]);
