//! The table: the specify workflow's index.md (docs/specify.md).

use super::{Access, Module, Op, Out, Param, Returns};
use crate::shape::Ty;
use crate::specify::shapes as s;

/// The specify operations.
pub(super) static OPS: &[Op] = &[
    Op {
        module: Module::Specify,
        method: "parse_markdown",
        doc: "Reads index.md into text blocks and pipe tables (each with its section, columns \
              and rows' cells, every row keeping its line as written); `E_PARSE` with the line \
              and column of a row with more cells than its table has columns.",
        params: &[Param::text("text", Ty::Str)],
        returns: Returns::json(Ty::Object(&s::MARKDOWN)),
        access: Access::Pure,
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
        run: |a| Ok(Out::Text(crate::specify::render_markdown(a.get(0))?)),
    },
];
