//! Names across languages (ARCHITECTURE §2): the table's snake_case names in camelCase for
//! JS, and the named types every generator lists.

use statecore::kinds::KINDS;
use statecore::ops::{self, Kind, Op};
use statecore::shape::{reachable, Named, Ty};

pub use statecore::options::camel;

/// `state` → `State` (a helper's file name in a function name: `readState`).
pub fn capital(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// Every named type the table, the kinds and the host options use.
pub fn named() -> Named {
    let mut roots: Vec<Ty> = Vec::new();
    for op in ops::all() {
        roots.push(op.returns.ty);
        for param in op.params {
            roots.push(param.ty);
            if let Kind::Options(shape) = param.kind {
                roots.push(Ty::Object(shape));
            }
        }
    }
    roots.extend(KINDS.iter().map(|k| k.root));
    roots.extend(
        statecore::ops::HOST_OPTIONS
            .iter()
            .map(|(_, shape)| Ty::Object(shape)),
    );
    reachable(&roots)
}

/// True when the operation takes a document kind as an argument (its signature is generic in
/// the kind).
pub fn has_kind(op: &Op) -> bool {
    op.params.iter().any(|p| matches!(p.ty, Ty::Kind))
}

/// The modules other than the root, in order.
pub fn modules() -> impl Iterator<Item = ops::Module> {
    ops::Module::ALL
        .into_iter()
        .filter(|m| *m != ops::Module::Root)
}
