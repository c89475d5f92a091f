//! `seeds <out-dir> [target...]`: writes each target's seed corpus to `<out-dir>/<target>/`
//! (one file per input, named by its hash; the directory is emptied first) and its libFuzzer
//! dictionary to `<out-dir>/<target>.dict`.

use statecore_fuzz::{seeds, TARGETS};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next().map(PathBuf::from) else {
        eprintln!("usage: seeds <out-dir> [target...]");
        return ExitCode::from(2);
    };
    let wanted: Vec<String> = args.collect();
    let root = seeds::repo_root();
    let cases = seeds::cases(&root);
    if cases.is_empty() {
        eprintln!(
            "seeds: no conformance cases under {}",
            root.join("tests/conformance").display()
        );
        return ExitCode::FAILURE;
    }
    for target in TARGETS
        .iter()
        .filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t.name))
    {
        let dir = out.join(target.name);
        let written = (|| -> std::io::Result<usize> {
            if dir.exists() {
                std::fs::remove_dir_all(&dir)?;
            }
            std::fs::create_dir_all(&dir)?;
            let list = seeds::seeds(target.name, &root, &cases);
            for seed in &list {
                std::fs::write(dir.join(statecore::json::etag(seed)), seed)?;
            }
            std::fs::write(
                out.join(format!("{}.dict", target.name)),
                seeds::dictionary(target.name),
            )?;
            Ok(list.len())
        })();
        match written {
            Ok(n) => println!(
                "seeds: {:<8} {n:>5} inputs from {} cases",
                target.name,
                cases.len()
            ),
            Err(e) => {
                eprintln!("seeds: writing {}: {e}", dir.display());
                return ExitCode::FAILURE;
            }
        }
    }
    ExitCode::SUCCESS
}
