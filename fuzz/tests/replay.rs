//! Replays, without libFuzzer, every committed regression input (`fuzz/regressions/<target>/`)
//! and every seed made from the conformance corpus through its target's harness.

use statecore_fuzz::{seeds, target, TARGETS};
use std::path::Path;

/// Runs inputs through a target, collecting the ones that panic.
fn replay(
    name: &str,
    inputs: impl IntoIterator<Item = (String, Vec<u8>)>,
    failures: &mut Vec<String>,
) -> usize {
    let Some(t) = target(name) else {
        failures.push(format!("fuzz/regressions/{name}: not a target"));
        return 0;
    };
    let mut count = 0;
    for (label, data) in inputs {
        count += 1;
        if std::panic::catch_unwind(|| (t.run)(&data)).is_err() {
            failures.push(format!("target {name}: {label}"));
        }
    }
    count
}

#[test]
fn regressions_replay() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("regressions");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut targets: Vec<_> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    targets.sort();
    for path in targets.iter().filter(|p| p.is_dir()) {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut files: Vec<_> = std::fs::read_dir(path)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        files.sort();
        let inputs = files.iter().filter(|f| f.is_file()).map(|f| {
            (
                f.display().to_string(),
                std::fs::read(f).unwrap_or_default(),
            )
        });
        count += replay(&name, inputs, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} regression input(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("{count} regression inputs replayed");
}

#[test]
fn conformance_seeds_replay() {
    let root = seeds::repo_root();
    let cases = seeds::cases(&root);
    assert!(
        cases.len() > 100,
        "the conformance corpus was not found under {}",
        root.display()
    );
    let mut failures = Vec::new();
    for t in TARGETS {
        let list = seeds::seeds(t.name, &root, &cases);
        assert!(!list.is_empty(), "target {} has no seeds", t.name);
        let inputs = list
            .into_iter()
            .map(|s| (format!("seed {}", String::from_utf8_lossy(&s)), s));
        replay(t.name, inputs, &mut failures);
    }
    assert!(
        failures.is_empty(),
        "{} seed(s) fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_target_has_a_libfuzzer_entry() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz_targets");
    let mut entries: Vec<String> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            e.file_name()
                .to_str()?
                .strip_suffix(".rs")
                .map(str::to_owned)
        })
        .collect();
    entries.sort();
    let mut names: Vec<String> = TARGETS.iter().map(|t| t.name.to_owned()).collect();
    names.sort();
    assert_eq!(entries, names, "fuzz_targets/*.rs and TARGETS differ");
}
