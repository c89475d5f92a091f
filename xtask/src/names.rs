//! Names across languages (docs/conventions.md § Names across languages): the table's snake_case names in camelCase for
//! JS, and the named types every generator lists.

use statecore::ops::{self, Op};
use statecore::shape::{reachable, Named, Ty};
use statecore_cli::TABLE;

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
    reachable(&TABLE.type_roots())
}

/// The names of `statecore.types` (every named shape, enum and alias, `DocumentKind`, `Json`)
/// that `uses` says a generated module refers to, sorted as the imports list them.
pub fn type_names_used(uses: impl Fn(&str) -> bool) -> Vec<&'static str> {
    let named = named();
    let mut types: Vec<&'static str> = named
        .shapes
        .iter()
        .map(|s| s.name)
        .chain(named.enums.iter().map(|e| e.name))
        .chain(named.aliases.iter().map(|a| a.name))
        .chain(["DocumentKind", "Json"])
        .filter(|n| uses(n))
        .collect();
    types.sort_unstable_by_key(|t| t.to_lowercase());
    types.dedup();
    types
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

/// `names` as string literals (JS and Python alike), comma-separated: `".git", "node_modules"`.
pub fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("{name:?}")).collect();
    quoted.join(", ")
}

/// What the generated `SKIPPED_DIRECTORIES` of both packages is.
pub const SKIPPED_DOC: &str =
    "The directories a host never enters when it walks or watches a tree (the core's).";
