//! The Rust host's facts for the command-line corpus (cli/tests/cli.rs): files read and
//! directories listed as the packages' hosts read and list them (docs/cli.md § How it runs).

use statecore::{Map, Value};
use std::path::Path;

/// A file as the hosts report it; `limit`: only its first bytes, cut back to their last
/// line break when the file is longer.
pub fn read_fact(root: &Path, path: &str, limit: Option<usize>) -> Value {
    let full = root.join(path);
    let fact = |k: &str, v: &str| {
        let mut m = Map::new();
        m.insert(k.into(), Value::from(v));
        Value::Object(m)
    };
    match std::fs::metadata(&full) {
        Err(_) => fact("error", "missing"),
        Ok(m) if m.is_dir() => fact("error", "directory"),
        Ok(m) if !m.is_file() => fact("error", "special"),
        Ok(m) => match String::from_utf8(head(std::fs::read(&full).unwrap(), limit)) {
            Ok(text) => {
                let mut fact = fact("text", &text);
                let since = m.modified().unwrap().duration_since(std::time::UNIX_EPOCH);
                let ms = i64::try_from(since.unwrap().as_millis()).unwrap();
                fact.as_object_mut()
                    .unwrap()
                    .insert("mtime".into(), Value::from(ms));
                fact
            }
            Err(_) => fact("error", "not_text"),
        },
    }
}

/// A page of a file as the hosts report it: at most `limit` bytes from `offset`, cut back to
/// their last line break unless the file ends within them.
pub fn page_fact(root: &Path, path: &str, offset: u64, limit: u64) -> Value {
    let mut fact = read_fact(root, path, None);
    let Some(text) = fact.get("text").and_then(Value::as_str).map(str::to_owned) else {
        return fact;
    };
    let bytes = text.as_bytes();
    let size = bytes.len() as u64;
    let start = usize::try_from(offset.min(size)).unwrap();
    let end = usize::try_from(offset.saturating_add(limit).min(size)).unwrap();
    let mut part = &bytes[start..end];
    if (end as u64) < size {
        let cut = part.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        part = &part[..cut];
    }
    let map = fact.as_object_mut().unwrap();
    map.insert(
        "text".into(),
        Value::from(String::from_utf8(part.to_vec()).unwrap()),
    );
    map.insert("offset".into(), Value::from(offset));
    map.insert("limit".into(), Value::from(limit));
    map.insert("size".into(), Value::from(size));
    fact
}

/// The first `limit` bytes of `bytes`, cut back to their last line break when there are more.
fn head(mut bytes: Vec<u8>, limit: Option<usize>) -> Vec<u8> {
    if let Some(limit) = limit.filter(|l| bytes.len() > *l) {
        bytes.truncate(limit);
        let end = bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1);
        bytes.truncate(end);
    }
    bytes
}

/// True when a file named `name` is one of `names`: a name, or a pattern `*.jsonl`.
fn name_wanted(names: &[&str], name: &str) -> bool {
    names.iter().any(|w| match w.strip_prefix('*') {
        Some(tail) => name.len() > tail.len() && name.ends_with(tail),
        None => *w == name,
    })
}

/// A directory as the hosts list it.
pub fn list_fact(root: &Path, dir: &str, names: &[&str], dirs: usize) -> Value {
    fn walk(root: &Path, rel: &str, base: &str, names: &[&str], dirs: usize, out: &mut Vec<Value>) {
        let here = if rel.is_empty() {
            root.to_path_buf()
        } else {
            root.join(rel)
        };
        for entry in std::fs::read_dir(here).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let below = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let kind = entry.file_type().unwrap();
            if kind.is_dir() && !statecore::watch::SKIPPED_DIRECTORIES.contains(&name.as_str()) {
                // The directories at most `dirs` levels below.
                if below.split('/').count() <= dirs {
                    out.push(Value::from(format!("{base}/{below}/")));
                }
                walk(root, &below, base, names, dirs, out);
            } else if kind.is_file() && name_wanted(names, &name) {
                out.push(Value::from(format!("{base}/{below}")));
            }
        }
    }
    let base = dir.trim_end_matches('/');
    if !root.join(dir).is_dir() {
        return statecore::json!({"message": "ENOENT"});
    }
    let mut files = Vec::new();
    walk(&root.join(dir), "", base, names, dirs, &mut files);
    let mut m = Map::new();
    m.insert("files".into(), Value::Array(files));
    Value::Object(m)
}
