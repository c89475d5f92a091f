//! The namespaces of the operations, and the protocols among them: each a feature of the
//! crate (a build without it leaves the protocol's code out: docs/architecture.md § The wasm
//! modules).

/// The namespace an operation belongs to (a JS namespace object, a Python module).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Module {
    /// The package itself (`statecore.parse`).
    Root,
    /// `machine`.
    Machine,
    /// `fctry`.
    Fctry,
    /// `hivemind`.
    Hivemind,
    /// `agency`.
    Agency,
    /// `hive`.
    Hive,
    /// `specify`.
    Specify,
    /// `lock`: the rules of the lock protocol, for hosts.
    Lock,
}

impl Module {
    /// Every module, in documentation order.
    pub const ALL: [Module; 8] = [
        Module::Root,
        Module::Machine,
        Module::Fctry,
        Module::Hivemind,
        Module::Agency,
        Module::Hive,
        Module::Specify,
        Module::Lock,
    ];

    /// The protocols: the modules a build of the core may leave out, each a feature of the
    /// crate of the same name (all of them in `full`; the browser has a module per protocol,
    /// docs/architecture.md § The wasm modules).
    pub const PROTOCOLS: [Module; 5] = [
        Module::Fctry,
        Module::Hivemind,
        Module::Agency,
        Module::Hive,
        Module::Specify,
    ];

    /// True when this module is a protocol's ([`Module::PROTOCOLS`]).
    pub const fn is_protocol(self) -> bool {
        matches!(
            self,
            Module::Fctry | Module::Hivemind | Module::Agency | Module::Hive | Module::Specify
        )
    }

    /// True when this build has the module's code: a protocol's with its feature, every
    /// other module always.
    pub const fn enabled(self) -> bool {
        match self {
            Module::Fctry => cfg!(feature = "fctry"),
            Module::Hivemind => cfg!(feature = "hivemind"),
            Module::Agency => cfg!(feature = "agency"),
            Module::Hive => cfg!(feature = "hive"),
            Module::Specify => cfg!(feature = "specify"),
            Module::Root | Module::Machine | Module::Lock => true,
        }
    }

    /// The protocol a document kind belongs to: the one its name's first part names
    /// (`agency.runner_status` is the agency's); `None` for a kind of no protocol (`json`).
    pub const fn of_kind(kind: &str) -> Option<Module> {
        let mut rest: &[Module] = &Module::PROTOCOLS;
        while let [protocol, tail @ ..] = rest {
            if first_part_is(kind.as_bytes(), protocol.name().as_bytes()) {
                return Some(*protocol);
            }
            rest = tail;
        }
        None
    }

    /// The protocol named `name` (`"agency"`); `None` for any other name.
    pub fn protocol(name: &str) -> Option<Module> {
        Module::PROTOCOLS.into_iter().find(|p| p.name() == name)
    }

    /// The module's name (`""` for the root).
    pub const fn name(self) -> &'static str {
        match self {
            Module::Root => "",
            Module::Machine => "machine",
            Module::Fctry => "fctry",
            Module::Hivemind => "hivemind",
            Module::Agency => "agency",
            Module::Hive => "hive",
            Module::Specify => "specify",
            Module::Lock => "lock",
        }
    }
}

/// True when `name` is `part`, a `.` and more (a kind's name of that protocol).
const fn first_part_is(name: &[u8], part: &[u8]) -> bool {
    let (mut name, mut part) = (name, part);
    loop {
        match (name, part) {
            ([n, name_rest @ ..], [p, part_rest @ ..]) if *n == *p => {
                name = name_rest;
                part = part_rest;
            }
            ([b'.', _, ..], []) => return true,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Access, Write, CORE};
    use super::*;

    #[test]
    fn the_protocols_are_the_crate_features_full_enables() {
        let manifest = include_str!("../../Cargo.toml");
        let full = manifest
            .lines()
            .find_map(|line| line.strip_prefix("full = ["))
            .and_then(|rest| rest.strip_suffix(']'))
            .map(|list| {
                list.split(", ")
                    .map(|f| f.trim_matches('"'))
                    .collect::<Vec<_>>()
            });
        let names: Vec<&str> = Module::PROTOCOLS.iter().map(|p| p.name()).collect();
        assert_eq!(full, Some(names));
    }

    #[test]
    fn every_kind_and_operation_has_the_protocol_its_name_says() {
        for kind in crate::kinds::KINDS {
            let first = kind.name.split('.').next().unwrap_or_default();
            match kind.protocol() {
                Some(protocol) => assert_eq!(protocol.name(), first, "{}", kind.name),
                None => assert_eq!(kind.name, "json", "a kind of no protocol"),
            }
            assert!(
                kind.available(),
                "{}: the full build has every kind",
                kind.name
            );
        }
        for name in ["hive", "hive.", ".state", "hivemindx.state", "lock.x", ""] {
            assert_eq!(Module::of_kind(name), None, "{name:?}");
        }
        assert_eq!(Module::of_kind("hive.state"), Some(Module::Hive));
        assert_eq!(Module::of_kind("hivemind.state"), Some(Module::Hivemind));
        for op in CORE.ops() {
            let by_name = Module::PROTOCOLS
                .into_iter()
                .find(|p| op.name().starts_with(&format!("{}_", p.name())) && op.module == *p);
            if let Some(protocol) = by_name {
                assert_eq!(op.protocol(), Some(protocol), "{}", op.name());
            }
            if let Access::Reads { kind, .. } | Access::Writes(Write { kind, .. }) = op.access {
                assert_eq!(op.protocol(), Module::of_kind(kind), "{}", op.name());
            }
        }
        assert_eq!(Module::protocol("agency"), Some(Module::Agency));
        assert_eq!(Module::protocol("lock"), None);
    }
}
