//! The operation table as this build has it: every row with the core's `full` feature (Node's
//! module, Python, the command line); without it (the browser's modules, docs/architecture.md §
//! The wasm modules), only the rows marked `web` of the generic base and of the protocols whose
//! features are on keep their code.

#[cfg(not(feature = "full"))]
use super::{Access, Returns};
use super::{Args, Op, Out};
use crate::error::{Code, Error, Result};

/// A table as this build has it: without the `full` feature (no manifest, so no doc comments),
/// each operation that is not the browser's ([`Op::web`]), or is of a protocol this build has
/// not got ([`Op::available`]), keeps only its name: its code is
/// replaced by [`unavailable`] and its types by nothing, so that the linker leaves out the rules
/// and shapes only those operations reach (the command line, the store, lock verdicts, log
/// pages, writers).
pub const fn gate<const N: usize>(ops: [Op; N]) -> [Op; N] {
    #[cfg(not(feature = "full"))]
    {
        let mut ops = ops;
        let mut rest: &mut [Op] = &mut ops;
        while let [op, tail @ ..] = rest {
            op.doc = "";
            if !op.available() {
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

/// The code of an operation this build does not have (never run: [`super::Table::find`] and
/// [`super::call`] refuse such an operation first, naming it).
#[cfg_attr(feature = "full", allow(dead_code))] // only the gated tables use it
fn unavailable(_: &mut Args<'_>) -> Result<Out> {
    Err(Error::new(
        Code::Unavailable,
        "",
        "this operation is not in this build of statecore",
    ))
}

/// `E_UNAVAILABLE` for an operation this build has not got ([`Op::available`]): the browser's
/// modules have none but the `web` operations; a protocol's are in that protocol's module.
pub(super) fn refuse(op: &Op) -> Error {
    let name = op.name();
    if let (true, Some(protocol)) = (op.web, op.protocol()) {
        return unloaded(&name, "op", protocol);
    }
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

/// `E_UNAVAILABLE` for `what` (an operation or kind name, `field` its detail's name) of a
/// protocol this build has not got: it names the browser's module that has it.
pub(crate) fn unloaded(what: &str, field: &str, protocol: super::Module) -> Error {
    let module = protocol.name();
    Error::new(
        Code::Unavailable,
        "",
        format!(
            "{what} is in the browser's {module:?} module, which is not loaded: load it first \
             (`await load({module:?})` or `init({{ protocols: [{module:?}] }})`)"
        ),
    )
    .with_detail(field, what)
    .with_detail("protocol", module)
}
