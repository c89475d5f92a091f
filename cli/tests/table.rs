//! The whole operation table as this crate composes it (`statecore_cli::TABLE`): every row of
//! the core once and the command line's and the viewer's rows, each name once, and the
//! `manifest` operation describing the table it was called through.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs
)]

use statecore::ops::{self, Args, Out, CORE};
use statecore::Code;
use statecore_cli::{CLI_CONSTANTS, CLI_OPS, TABLE, VIEW_CONSTANTS, VIEW_OPS};
use std::collections::HashSet;

#[test]
fn the_table_is_the_cores_rows_and_this_crates_each_once() {
    let mut names = HashSet::new();
    for op in TABLE.ops() {
        assert!(
            names.insert(op.name()),
            "two operations named {}",
            op.name()
        );
    }
    let own: Vec<_> = CLI_OPS.iter().chain(VIEW_OPS).collect();
    assert_eq!(names.len(), CORE.ops().count() + own.len());
    // The same rows in the same order: the core's parts where the composition puts them.
    let whole: Vec<String> = TABLE.ops().map(|op| op.name()).collect();
    let mut at = 0;
    for op in CORE.ops() {
        let found = whole[at..].iter().position(|n| *n == op.name());
        at += found.unwrap_or_else(|| panic!("{} missing or out of order", op.name())) + 1;
        assert_eq!(TABLE.find(&op.name()).unwrap().doc, op.doc);
    }
    for op in &own {
        assert!(
            std::ptr::eq(TABLE.find(&op.name()).unwrap(), *op),
            "{}",
            op.name()
        );
    }
    for op in &own {
        assert!(
            CORE.find(&op.name()).is_err(),
            "{} is not a core row",
            op.name()
        );
    }
    assert!(TABLE.find("cli_run").is_ok() && TABLE.find("view_request").is_ok());

    let mut constants = HashSet::new();
    for c in TABLE.constants() {
        assert!(constants.insert(c.name), "two constants named {}", c.name);
    }
    assert_eq!(
        constants.len(),
        CORE.constants().count() + CLI_CONSTANTS.len() + VIEW_CONSTANTS.len()
    );
    assert!(constants.contains("stdin_max_bytes") && constants.contains("view_body_bytes"));
}

#[test]
fn the_manifest_describes_the_table_it_is_called_through() {
    let op = TABLE.find("manifest").unwrap();
    let Ok(Out::Json(manifest)) = TABLE.call(op, Args::new(Vec::new())) else {
        panic!("manifest answers with JSON");
    };
    assert_eq!(manifest, TABLE.manifest());
    let listed: Vec<&str> = manifest["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["name"].as_str().unwrap())
        .collect();
    let names: Vec<String> = TABLE.ops().map(|op| op.name()).collect();
    assert_eq!(listed, names);
    assert!(listed.contains(&"cli_run") && listed.contains(&"view_file"));
    let core = CORE.call(op, Args::new(Vec::new())).unwrap();
    assert!(
        matches!(core, Out::Json(m) if m["ops"].as_array().unwrap().len() == CORE.ops().count())
    );
    // Called without a table, it cannot tell which table it would describe.
    let error = ops::call(op, Args::new(Vec::new())).err().unwrap();
    assert_eq!(error.code, Code::Unavailable);
}

#[test]
fn the_command_lines_request_is_not_held_to_the_documents_limits() {
    let run = TABLE.find("cli_run").unwrap();
    assert!(!run.params[0].limited);
    let job = TABLE.find("cli_job_script").unwrap();
    assert!(!job.params[1].limited);
    let start = TABLE.find("cli_job").unwrap();
    assert!(!start.params[1].limited);
    assert!(
        TABLE
            .ops()
            .flat_map(|op| op.params)
            .filter(|p| !p.limited)
            .count()
            == 3
    );
}
