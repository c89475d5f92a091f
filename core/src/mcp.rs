//! The paths an agent gives `statecore mcp`'s tools (docs/mcp.md § Confined to DIR), checked
//! lexically, the same on every OS, before the host looks at the disk: relative,
//! `/`-separated, no `..`, no absolute or drive path, backslash, NUL or control character, no
//! over-long or reserved name.

use crate::error::{Code, Error, Result};
use crate::specify::artifacts::{lexical_problem, name_problem};

/// `E_PATH_UNSAFE` for the argument `argument`'s `path`, with the reason's code.
fn refused(argument: &str, path: &str, reason: &str, why: &str) -> Error {
    let shown: String = path.chars().take(80).collect();
    let more = if shown.len() < path.len() { "…" } else { "" };
    Error::new(
        Code::PathUnsafe,
        format!("/{argument}"),
        format!(
            "refused {argument} {shown:?}{more}: {why}; the server reads and writes only below \
             its directory (give a path relative to it)"
        ),
    )
    .with_detail("path", path)
    .with_detail("reason", reason)
}

/// The names of `path` below the server's directory (none: the directory itself, as `.` or
/// `./` give), or `E_PATH_UNSAFE` (`argument`: the tool argument it came from, its pointer).
pub fn tool_path(path: &str, argument: &str) -> Result<Vec<String>> {
    if let Some((reason, why)) = lexical_problem(path) {
        if reason != "empty" || !path.is_empty() {
            return Err(refused(argument, path, reason, &why));
        }
    }
    let mut names = Vec::new();
    for name in path.split('/') {
        match name {
            "" | "." => {}
            ".." => {
                return Err(refused(
                    argument,
                    path,
                    "escape",
                    "the path has a `..` (name the file below the directory instead)",
                ))
            }
            name => {
                if let Some((reason, why)) = name_problem(name) {
                    return Err(refused(argument, path, reason, &why));
                }
                names.push(name.to_owned());
            }
        }
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::tool_path;

    #[test]
    fn relative_paths_give_their_names() {
        assert_eq!(tool_path(".", "dir").ok(), Some(Vec::new()));
        assert_eq!(tool_path("", "dir").ok(), Some(Vec::new()));
        let names = vec!["a".to_owned(), "b".to_owned()];
        assert_eq!(tool_path("a/./b/", "dir").ok(), Some(names));
    }

    #[test]
    fn escapes_are_refused() {
        for path in ["..", "a/../b", "/etc", "C:/x", "a\\b", "a\u{1}b", " "] {
            let refused = tool_path(path, "path").err();
            let got = refused.map(|e| (e.code.as_str(), e.path));
            assert_eq!(got, Some(("E_PATH_UNSAFE", "/path".to_owned())), "{path}");
        }
    }
}
