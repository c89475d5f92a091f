//! The names of `statecore mcp`'s private directories for helper calls (docs/mcp.md § Confined
//! to DIR): `statecore-mcp-call-<pid namespace>-<pid>-<random>` in the temp directory, and which
//! of a listing's names a server may sweep (another process's, of its own pid namespace) once
//! the host has found that process gone and the directory a real one of its user's.

use crate::error::{Code, Error, Result};
use crate::shape::{Field, Shape, Ty};
use crate::{Map, Value};

/// A stale private directory's name and its process.
pub static STALE_FARM: Shape = Shape::exact(
    "McpStaleFarm",
    "Another process's private directory: its name and its process id.",
    &[
        Field::req("name", Ty::Str, "Its name in the temp directory."),
        Field::req("pid", Ty::Whole(1), "Its process's id."),
    ],
);

/// What [`farms`] gives.
pub static FARMS: Shape = Shape::exact(
    "McpFarms",
    "`statecore mcp`'s private directories: the prefix of this process's own, and the others' that may be stale.",
    &[
        Field::req("prefix", Ty::Str, "The prefix of this process's directories' names."),
        Field::req("stale", Ty::List(&Ty::Object(&STALE_FARM)), "Other processes' directories of this pid namespace."),
    ],
);

/// The start of every private directory's name.
pub const FARM_PREFIX: &str = "statecore-mcp-call-";

/// The pid namespace's number from the text of the link `/proc/self/ns/pid` (`pid:[4026531836]`:
/// its digits), `0` when there is none (no /proc, another OS): a container sharing the temp
/// directory has pids of its own, so its directories are never taken for ours.
fn namespace(link: Option<&str>) -> String {
    let digits: String = link
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    if digits.is_empty() {
        "0".into()
    } else {
        digits
    }
}

/// `{prefix, stale}`: the prefix of this process's own directories' names (`pid`, in the pid
/// namespace whose link reads `ns_link`), and the names among `names` (the temp directory's)
/// that are another process's of the same namespace, each with its pid (`[{name, pid}]`, in
/// `names` order): the host removes one when it is a real directory of its user's whose process
/// no longer exists (`kill(pid, 0)`). A `pid` of 0 is `E_ARGUMENT`.
pub fn farms(names: &[&str], ns_link: Option<&str>, pid: u64) -> Result<Value> {
    if pid == 0 {
        return Err(Error::new(
            Code::Argument,
            "/pid",
            "pid must be a process id (1 or more)",
        ));
    }
    let ours = format!("{FARM_PREFIX}{}-", namespace(ns_link));
    let stale = names.iter().filter_map(|name| {
        let rest = name.strip_prefix(&ours)?;
        let digits = rest.split('-').next().unwrap_or_default();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let other: u64 = digits.parse().ok().filter(|&p| p != pid && p < 1 << 31)?;
        let mut map = Map::with_capacity(2);
        map.insert("name".into(), (*name).into());
        map.insert("pid".into(), other.into());
        Some(Value::Object(map))
    });
    let mut out = Map::with_capacity(2);
    out.insert("prefix".into(), format!("{ours}{pid}-").into());
    out.insert("stale".into(), Value::Array(stale.collect()));
    Ok(Value::Object(out))
}
