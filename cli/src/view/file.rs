//! The files the viewer shows: each known file's role (what its panel does with it), its
//! kind, the group it belongs to (the project, worktree, run or session directory), and,
//! given its bytes, its check exactly as `statecore validate --json` reports it.

use statecore::checked::places::{role_of, target_of};
use statecore::checked::{Checked, Target};
use statecore::{Map, Value};

/// What the viewer makes of the file at `path` (relative to the watched directory,
/// `/`-separated): `{path, role, kind, group, check}`, or `None` for a file it does not
/// show. With the file's bytes, `check` is `statecore validate --json`'s object for it plus
/// its `document` (`null` when it does not read); without (or for the spec), `null`.
pub fn view_file(path: &str, data: Option<&[u8]>) -> Option<Value> {
    let parts: Vec<&str> = path
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let (role, group_end) = role_of(&parts)?;
    let target = target_of(role, path);
    let kind = target.map(|t| match t {
        Target::Document(kind) | Target::Log(kind, _) => kind,
    });
    let check = match (target, data) {
        (Some(target), Some(data)) => {
            let checked = Checked::check_bytes(path, target, data);
            let mut value = checked.to_value();
            if let Value::Object(map) = &mut value {
                map.insert("document".into(), checked.document.unwrap_or(Value::Null));
            }
            value
        }
        _ => Value::Null,
    };
    let mut map = Map::new();
    map.insert("path".into(), Value::from(parts.join("/")));
    map.insert("role".into(), Value::from(role.name));
    map.insert("kind".into(), kind.map_or(Value::Null, Value::from));
    let group = parts.get(..group_end).unwrap_or_default().join("/");
    map.insert("group".into(), Value::from(group));
    map.insert("check".into(), check);
    Some(Value::Object(map))
}
