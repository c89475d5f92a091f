//! Paths as the command line works them out, by their text alone (no file system): joined to
//! the host's working directory, `.` and `..` resolved the way `cd` resolves them (before
//! symbolic links), and their ancestors.

/// `path` made absolute against `cwd` (when the host gave one) and normalised; a store URL
/// (docs/store.md § Store URLs) is its own root: its key is normalised below its database.
pub fn resolve(cwd: Option<&str>, path: &str) -> String {
    if let Some((root, key)) = store_parts(path) {
        return join_key(root, &normalize(key));
    }
    match cwd {
        Some(cwd) if !path.starts_with('/') => normalize(&format!("{cwd}/{path}")),
        _ => normalize(path),
    }
}

/// `path` without empty and `.` components, each `..` taking away the name before it (at the
/// root, nothing; in a relative path with nothing before it, it stays).
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => match parts.last() {
                Some(&last) if last != ".." => {
                    parts.pop();
                }
                _ if absolute => {}
                _ => parts.push(".."),
            },
            name => parts.push(name),
        }
    }
    match (absolute, parts.is_empty()) {
        (true, _) => format!("/{}", parts.join("/")),
        (false, true) => ".".to_owned(),
        (false, false) => parts.join("/"),
    }
}

/// `path` as a person reads it: relative to `cwd` when it is below it, else as it is.
pub fn shown<'p>(cwd: Option<&str>, path: &'p str) -> &'p str {
    cwd.map(|c| c.trim_end_matches('/'))
        .and_then(|c| path.strip_prefix(c))
        .and_then(|rest| rest.strip_prefix('/'))
        .filter(|rest| !rest.is_empty())
        .unwrap_or(path)
}

/// `name` in the directory `dir`.
pub fn child(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// A normalised path's last name (`None` for `/`, `.` or `..`).
pub fn name(path: &str) -> Option<&str> {
    path.rsplit('/')
        .next()
        .filter(|n| !n.is_empty() && *n != "." && *n != "..")
}

/// A normalised path and each directory above it, nearest first, up to `/` (or `.` for a
/// relative path).
pub fn ancestors(path: &str) -> Vec<String> {
    let mut out = vec![path.to_owned()];
    let mut here = path.to_owned();
    while let Some(parent) = parent(&here) {
        out.push(parent.clone());
        here = parent;
    }
    out
}

fn parent(path: &str) -> Option<String> {
    if let Some((root, key)) = store_parts(path) {
        let key = normalize(key);
        return (key != ".").then(|| join_key(root, &parent(&key).unwrap_or_else(|| ".".into())));
    }
    if path == "/" || path == "." || name(path).is_none() {
        return None;
    }
    Some(match path.rsplit_once('/') {
        Some(("", _)) => "/".to_owned(),
        Some((up, _)) => up.to_owned(),
        None => ".".to_owned(),
    })
}

/// Whether `path` is a store URL (`postgresql://...`), not a file's path.
pub fn is_store(path: &str) -> bool {
    store_parts(path).is_some()
}

/// A store URL's root (`postgresql://host/database`) and the key after it (`""` for none);
/// `None` for a file's path.
fn store_parts(path: &str) -> Option<(&str, &str)> {
    statecore::store::SCHEMES
        .into_iter()
        .find(|s| path.starts_with(s))?;
    // scheme:// host / database / key: the key starts after the fourth slash.
    match path.match_indices('/').nth(3) {
        Some((at, _)) => Some((path.get(..at)?, path.get(at..)?.trim_start_matches('/'))),
        None => Some((path, "")),
    }
}

/// A store URL's root joined with a normalised key (`.`: the root itself).
fn join_key(root: &str, key: &str) -> String {
    if key == "." || key.is_empty() {
        root.to_owned()
    } else {
        format!(
            "{root}/{}",
            key.trim_start_matches("../").trim_start_matches('/')
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{ancestors, name, resolve, shown};

    #[test]
    fn paths_resolve_by_their_text() {
        assert_eq!(resolve(Some("/home/u"), "p/./q/../r/"), "/home/u/p/r");
        assert_eq!(resolve(Some("/home/u"), "/x/../../y"), "/y");
        assert_eq!(resolve(None, "../a/.."), "..");
        assert_eq!(resolve(None, ""), ".");
        assert_eq!(ancestors("/a/b"), ["/a/b", "/a", "/"]);
        assert_eq!(ancestors("a/b"), ["a/b", "a", "."]);
        assert_eq!(ancestors("../a"), ["../a", ".."]);
        assert_eq!(name("/a/b"), Some("b"));
        assert_eq!(name("/"), None);
        assert_eq!(shown(Some("/home/u"), "/home/u/p/.fctry"), "p/.fctry");
        assert_eq!(shown(Some("/home/u"), "/home/uv/p"), "/home/uv/p");
        assert_eq!(shown(Some("/"), "/a"), "a");
        let db = "postgresql://me@h:5432/db";
        assert_eq!(
            resolve(Some("/w"), &format!("{db}/p/./q/../r/")),
            format!("{db}/p/r")
        );
        assert_eq!(
            resolve(Some("/w"), &format!("{db}/../../x")),
            format!("{db}/x")
        );
        assert_eq!(resolve(Some("/w"), db), db);
        assert_eq!(
            ancestors(&format!("{db}/a/b")),
            [format!("{db}/a/b"), format!("{db}/a"), db.to_owned()]
        );
    }
}
