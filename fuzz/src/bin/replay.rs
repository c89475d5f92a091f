//! `replay <target> <file-or-dir>...`: runs inputs through a target's harness in a plain
//! build (no libFuzzer), so a crash shows its panic message and a full backtrace
//! (`RUST_BACKTRACE=1`). Exits 1 naming the first input that fails.

use statecore_fuzz::target;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn inputs(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        entries.sort();
        for entry in entries {
            inputs(&entry, out);
        }
    } else {
        out.push(path.to_owned());
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(t) = args.next().and_then(|name| target(&name)) else {
        eprintln!(
            "usage: replay <target> <file-or-dir>...  (targets: {})",
            names()
        );
        return ExitCode::from(2);
    };
    let mut files = Vec::new();
    for arg in args {
        inputs(Path::new(&arg), &mut files);
    }
    for file in &files {
        let data = match std::fs::read(file) {
            Ok(data) => data,
            Err(e) => {
                eprintln!("replay: {}: {e}", file.display());
                return ExitCode::FAILURE;
            }
        };
        if std::panic::catch_unwind(|| (t.run)(&data)).is_err() {
            eprintln!("replay: target {} FAILED on {}", t.name, file.display());
            return ExitCode::FAILURE;
        }
    }
    println!("replay: target {}: {} input(s) passed", t.name, files.len());
    ExitCode::SUCCESS
}

fn names() -> String {
    statecore_fuzz::TARGETS
        .iter()
        .map(|t| t.name)
        .collect::<Vec<_>>()
        .join(", ")
}
