//! The operation table as this build has it: every row with the core's `full` feature (Node's
//! module, Python, the command line); without it (the browser's module, docs/architecture.md §
//! Three wasm modules), only the rows marked `web` keep their code.

#[cfg(not(feature = "full"))]
use super::{Access, Returns};
use super::{Args, Op, Out};
use crate::error::{Code, Error, Result};

/// A table as this build has it: without the `full` feature (no manifest, so no doc comments),
/// each operation that is not the browser's ([`Op::web`]) keeps only its name: its code is
/// replaced by [`unavailable`] and its types by nothing, so that the linker leaves out the rules
/// and shapes only those operations reach (the command line, the store, lock verdicts, log
/// pages, writers).
pub(crate) const fn gate<const N: usize>(ops: [Op; N]) -> [Op; N] {
    #[cfg(not(feature = "full"))]
    {
        let mut ops = ops;
        let mut rest: &mut [Op] = &mut ops;
        while let [op, tail @ ..] = rest {
            op.doc = "";
            if !op.web {
                op.run = unavailable;
                op.params = &[];
                op.returns = Returns::nothing();
                op.access = Access::Pure;
            }
            rest = tail;
        }
        ops
    }
    #[cfg(feature = "full")]
    ops
}

/// The code of an operation this build does not have (never run: [`super::find`] and
/// [`super::call`] refuse such an operation first, naming it).
#[cfg_attr(feature = "full", allow(dead_code))] // only the gated tables use it
fn unavailable(_: &mut Args<'_>) -> Result<Out> {
    Err(Error::new(
        Code::Unavailable,
        "",
        "this operation is not in this build of statecore",
    ))
}

/// `E_UNAVAILABLE` for an operation this build has not got ([`Op::available`]).
pub(super) fn refuse(op: &Op) -> Error {
    let name = op.name();
    Error::new(
        Code::Unavailable,
        "",
        format!(
            "{name} is not in the browser's module, which has only what a page uses \
             (validation, reading documents, the protocol views and derivations): call it \
             through the Node entry or the Python package"
        ),
    )
    .with_detail("op", name.as_str())
}
