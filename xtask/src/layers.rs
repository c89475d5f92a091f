//! The layer map of docs/architecture.md (between its markers), written from the tree itself:
//! each layer's folders and files, what each is (the first sentence of its own doc comment or
//! docstring), and which files the generator writes. A file added, moved or renamed, or a
//! module whose doc changed, makes the committed map stale, and `codegen --check` says so.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

/// A layer of the map: its title, what it may do, and the folders (with the file endings)
/// whose files it lists.
struct Layer {
    title: &'static str,
    rule: &'static str,
    folders: &'static [(&'static str, &'static [&'static str])],
}

const RS: &[&str] = &[".rs"];
const JS: &[&str] = &[".cjs", ".mjs", ".d.ts", ".d.mts"];
const PY: &[&str] = &[".py", ".pyi"];

const LAYERS: &[Layer] = &[
    Layer {
        title: "The core (crate `statecore`, core/src)",
        rule: "the protocols' rules and the document engine; no files, clock, randomness, \
               client or binding crate",
        folders: &[("core/src", RS)],
    },
    Layer {
        title: "The command line and the viewer (crate `statecore-cli`, cli/src)",
        rule: "their rules over the core's public API, and the whole operation table (the \
               core's rows and theirs) the bindings and the generator use; no files, clock or \
               randomness",
        folders: &[("cli/src", RS)],
    },
    Layer {
        title: "The bindings (crates `statecore-wasm`, `statecore-python`)",
        rule: "convert values and map errors, nothing else",
        folders: &[("bindings-wasm/src", RS), ("bindings-python/src", RS)],
    },
    Layer {
        title: "The npm package's entry points (npm/lib, npm/bin)",
        rule: "what the package's `main`, its types and its bins name; each composes the layers \
               below",
        folders: &[("npm/lib", JS), ("npm/bin", JS)],
    },
    Layer {
        title: "The npm package's generated JavaScript (npm/lib/generated)",
        rule: "every file the generator writes: the operation table, the pure API, the \
               protocols' ES entries and the types",
        folders: &[("npm/lib/generated", JS)],
    },
    Layer {
        title: "The JS conversion layer (npm/lib/binding)",
        rule: "JS values to the core's JSON and back, and the wasm module's loading; the \
               counterpart of bindings-python/src/convert.rs",
        folders: &[("npm/lib/binding", JS)],
    },
    Layer {
        title: "The Node host (npm/lib/host)",
        rule: "file system calls and their drivers: reads, atomic replaces, the lock, \
               documents, logs, sessions, file watching, the protocol helpers on files",
        folders: &[("npm/lib/host", JS)],
    },
    Layer {
        title: "The Node document stores (npm/lib/store)",
        rule: "the stores behind one interface, and PostgreSQL's queries, watcher and sessions",
        folders: &[("npm/lib/store", JS)],
    },
    Layer {
        title: "The Node command line's driver (npm/lib/cli)",
        rule: "performs the steps of the core's command line job (gathers facts, carries out writes, prints, looks, sleeps)",
        folders: &[("npm/lib/cli", JS)],
    },
    Layer {
        title: "The Node viewer's server (npm/lib/view)",
        rule: "the HTTP side of the core's view operations",
        folders: &[("npm/lib/view", JS)],
    },
    Layer {
        title: "The Python package's public modules (python/statecore)",
        rule: "the API users import; each composes the private layers below",
        folders: &[("python/statecore", PY)],
    },
    Layer {
        title: "The Python package's generated modules (python/statecore/_generated)",
        rule: "every module the generator writes from the core's tables",
        folders: &[("python/statecore/_generated", PY)],
    },
    Layer {
        title: "The Python host (python/statecore/_host)",
        rule: "system calls and their drivers: reads, atomic replaces, the lock, documents, \
               logs, sessions, the clock, file watching",
        folders: &[("python/statecore/_host", PY)],
    },
    Layer {
        title: "The Python document stores (python/statecore/_store)",
        rule: "the file store, and PostgreSQL's cached rows, watcher and sessions",
        folders: &[("python/statecore/_store", PY)],
    },
    Layer {
        title: "The Python command line's driver (python/statecore/_cli)",
        rule: "performs the steps of the core's command line job (gathers facts, carries out writes, prints, looks, sleeps)",
        folders: &[("python/statecore/_cli", PY)],
    },
    Layer {
        title: "The generator (crate `xtask`)",
        rule: "writes every file marked generated from the core's tables",
        folders: &[("xtask/src", RS)],
    },
];

/// The map, as the text between the markers.
pub fn layer_map(root: &Path) -> Result<String, String> {
    let tracked = tracked_files(root)?;
    let mut out = String::new();
    for layer in LAYERS {
        let _ = writeln!(out, "\n**{}**: {}.\n", layer.title, layer.rule);
        out.push_str("| file | what it is |\n|---|---|\n");
        for (folder, endings) in layer.folders {
            for entry in entries(&tracked, folder, endings) {
                let text = std::fs::read_to_string(root.join(&entry.path))
                    .map_err(|e| format!("{}: {e}", entry.path))?;
                let (generated, about) = describe(&entry.path, &text);
                let mark = if generated { " (generated)" } else { "" };
                let _ = writeln!(
                    out,
                    "| `{}`{mark} | {} |",
                    entry.shown,
                    cell(&about.unwrap_or_default())
                );
            }
        }
    }
    Ok(out)
}

/// A file or module of the map: its path, and how the map names it (a folder module by its
/// folder).
struct Entry {
    path: String,
    shown: String,
}

/// The files git tracks, so that build outputs never enter the map.
fn tracked_files(root: &Path) -> Result<Vec<String>, String> {
    let output = Command::new("git")
        .args(["ls-files", "-z"])
        .current_dir(root)
        .output()
        .map_err(|e| format!("git ls-files: {e}"))?;
    if !output.status.success() {
        return Err("git ls-files failed".to_owned());
    }
    let text = String::from_utf8(output.stdout).map_err(|e| format!("git ls-files: {e}"))?;
    let mut files: Vec<String> = text
        .split('\0')
        .filter(|f| !f.is_empty())
        .map(str::to_owned)
        .collect();
    files.sort();
    Ok(files)
}

/// The crates' source folders whose folder modules are one entry each.
const MODULES: &[&str] = &["core/src", "cli/src"];

/// The folder's files with one of `endings`; in a crate's source folder ([`MODULES`]) a folder
/// module is one entry (its mod.rs), its files being listed by its own doc.
fn entries(tracked: &[String], folder: &str, endings: &[&str]) -> Vec<Entry> {
    let prefix = format!("{folder}/");
    let mut out = Vec::new();
    for path in tracked {
        let Some(rest) = path.strip_prefix(&prefix) else {
            continue;
        };
        if !endings.iter().any(|e| rest.ends_with(e)) {
            continue;
        }
        match rest.split_once('/') {
            None => out.push(Entry {
                path: path.clone(),
                shown: path.clone(),
            }),
            Some((sub, "mod.rs")) if MODULES.contains(&folder) => out.push(Entry {
                path: path.clone(),
                shown: format!("{prefix}{sub}/"),
            }),
            Some(_) => {}
        }
    }
    out.sort_by(|a, b| a.shown.cmp(&b.shown));
    out
}

/// Whether the file says it is generated, and the first sentence of its description.
fn describe(path: &str, text: &str) -> (bool, Option<String>) {
    let paragraph = if path.ends_with(".rs") {
        rust_doc(text)
    } else if path.ends_with(".py") || path.ends_with(".pyi") {
        python_doc(text)
    } else {
        js_doc(text)
    };
    let generated = text.lines().take(3).any(|l| l.contains("GENERATED by"));
    let paragraph = match paragraph.find("do not edit.") {
        Some(at) if generated => paragraph.get(at + "do not edit.".len()..).unwrap_or(""),
        _ => paragraph.as_str(),
    };
    (generated, first_sentence(paragraph.trim()))
}

/// The first paragraph of a Rust file's `//!` doc.
fn rust_doc(text: &str) -> String {
    let mut lines = Vec::new();
    for line in text.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            if lines.is_empty() && (line.starts_with("//") || line.trim().is_empty()) {
                continue;
            }
            break;
        };
        let doc = doc.trim();
        if doc.is_empty() {
            if lines.is_empty() {
                continue;
            }
            break;
        }
        lines.push(doc);
    }
    lines.join(" ")
}

/// The first paragraph of a Python file's docstring, or of its leading comments.
fn python_doc(text: &str) -> String {
    let mut comments = Vec::new();
    let mut lines = text.lines().skip_while(|l| l.starts_with("#!"));
    let mut doc = Vec::new();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if let Some(comment) = trimmed.strip_prefix('#') {
            comments.push(comment.trim().to_owned());
            continue;
        }
        if trimmed.is_empty() {
            continue;
        }
        let Some(open) = trimmed
            .strip_prefix("\"\"\"")
            .or_else(|| trimmed.strip_prefix("r\"\"\""))
        else {
            break;
        };
        let mut current = open.to_owned();
        loop {
            if let Some(before) = current
                .split("\"\"\"")
                .next()
                .filter(|_| current.contains("\"\"\""))
            {
                if !before.trim().is_empty() {
                    doc.push(before.trim().to_owned());
                }
                break;
            }
            if current.trim().is_empty() && !doc.is_empty() {
                break;
            }
            if !current.trim().is_empty() {
                doc.push(current.trim().to_owned());
            }
            match lines.next() {
                Some(next) => current = next.to_owned(),
                None => break,
            }
        }
        break;
    }
    if doc.is_empty() {
        comments.join(" ")
    } else {
        doc.join(" ")
    }
}

/// The first paragraph of a JavaScript file's leading comments (`//` lines or a `/** */` block,
/// after a `#!` line and `"use strict"`).
fn js_doc(text: &str) -> String {
    let mut doc = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if doc.is_empty() && !in_block && (trimmed.starts_with("#!") || trimmed.is_empty()) {
            continue;
        }
        if !in_block && doc.is_empty() && trimmed.starts_with("\"use strict\"") {
            continue;
        }
        if in_block {
            let end = trimmed.contains("*/");
            let body = trimmed.split("*/").next().unwrap_or("");
            let body = body.trim_start_matches('*').trim();
            if body.is_empty() && !doc.is_empty() {
                break;
            }
            if !body.is_empty() {
                doc.push(body.to_owned());
            }
            if end {
                break;
            }
            continue;
        }
        if let Some(open) = trimmed
            .strip_prefix("/**")
            .or_else(|| trimmed.strip_prefix("/*"))
        {
            in_block = true;
            let body = open.split("*/").next().unwrap_or("").trim();
            if !body.is_empty() {
                doc.push(body.to_owned());
            }
            if open.contains("*/") {
                break;
            }
            continue;
        }
        match trimmed.strip_prefix("//") {
            Some(comment) if comment.trim().is_empty() && !doc.is_empty() => break,
            Some(comment) => doc.push(comment.trim().to_owned()),
            None => break,
        }
    }
    doc.join(" ")
}

/// The text up to the end of its first sentence (a period followed by a space, outside
/// backticks and brackets), or all of it.
fn first_sentence(text: &str) -> Option<String> {
    if text.is_empty() {
        return None;
    }
    let mut depth = 0i32;
    let mut code = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        match c {
            '`' => code = !code,
            '(' | '[' if !code => depth += 1,
            ')' | ']' if !code => depth -= 1,
            '.' if !code && depth <= 0 => {
                let next_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
                let abbreviation = text_before(&chars, i).ends_with("e.g")
                    || text_before(&chars, i).ends_with("i.e");
                if next_space && !abbreviation {
                    return Some(chars.get(..=i).unwrap_or(&[]).iter().collect());
                }
            }
            _ => {}
        }
    }
    Some(text.to_owned())
}

fn text_before(chars: &[char], at: usize) -> String {
    chars
        .get(at.saturating_sub(3)..at)
        .unwrap_or(&[])
        .iter()
        .collect()
}

/// A table cell: no `|` breaks the row.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

/// docs/architecture.md with its map between the markers written anew.
pub fn architecture_md(root: &Path, current: &str) -> Result<String, String> {
    let map = format!("{}\n", layer_map(root)?.trim());
    crate::docs::splice(current, "docs/architecture.md", "layer map", &map)
}

#[cfg(test)]
mod tests {
    use super::{describe, first_sentence};

    #[test]
    fn first_sentence_ends_at_a_period_outside_code_and_brackets() {
        assert_eq!(
            first_sentence("Reads `a.b. c` (see e.g. x. y). Then more.").as_deref(),
            Some("Reads `a.b. c` (see e.g. x. y).")
        );
        assert_eq!(first_sentence("No period").as_deref(), Some("No period"));
        assert_eq!(first_sentence(""), None);
    }

    #[test]
    fn each_language_gives_its_first_paragraph() {
        let rust =
            "//! The first. The second.\n//! Still first paragraph.\n//!\n//! Later.\nuse x;";
        assert_eq!(describe("a.rs", rust), (false, Some("The first.".into())));
        let js =
            "#!/usr/bin/env node\n\"use strict\";\n/**\n * Block doc, first\n * line. More.\n */";
        assert_eq!(
            describe("a.cjs", js),
            (false, Some("Block doc, first line.".into()))
        );
        let generated =
            "// GENERATED by `xtask`\n// (core/src/ops): do not edit. What it is. Rest.\n";
        assert_eq!(
            describe("a.mjs", generated),
            (true, Some("What it is.".into()))
        );
        let py =
            "# GENERATED by `xtask`\n# (core/src/ops): do not edit.\n\"\"\"Doc here. More.\"\"\"\n";
        assert_eq!(describe("a.py", py), (true, Some("Doc here.".into())));
        let multi = "\"\"\"First line\ncontinues. Next.\n\nOther paragraph.\n\"\"\"\n";
        assert_eq!(
            describe("a.py", multi),
            (false, Some("First line continues.".into()))
        );
    }
}
