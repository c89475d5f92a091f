//! Runs the shared conformance corpus (`tests/conformance/**/*.json`) through the Rust core.
//! The Node, browser and Python runners read the same files (tests/README.md).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    missing_docs
)]

use serde_json::Value;
use statecore::{api, json, Error};
use std::path::{Path, PathBuf};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/conformance")
}

fn case_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.map(|e| e.path()).unwrap_or_default())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            case_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
}

/// A bytes argument: a string (its UTF-8) or `{"hex": "..."}`; `null` is "no file".
fn bytes(arg: &Value) -> Option<Vec<u8>> {
    match arg {
        Value::Null => None,
        Value::String(s) => Some(s.as_bytes().to_vec()),
        Value::Object(m) => {
            let hex = m.get("hex").and_then(Value::as_str).expect("{hex} bytes");
            Some(
                (0..hex.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
                    .collect(),
            )
        }
        other => panic!("bad bytes argument {other}"),
    }
}

fn text(arg: &Value) -> &str {
    arg.as_str().expect("string argument")
}

fn opt_text(arg: Option<&Value>) -> Option<&str> {
    arg.and_then(Value::as_str)
}

fn run(op: &str, args: &[Value]) -> Result<Value, Error> {
    let a = |i: usize| args.get(i).cloned().unwrap_or(Value::Null);
    let req_bytes = |i: usize| bytes(&a(i)).expect("bytes argument");
    Ok(match op {
        "parse" => api::parse(&req_bytes(0))?,
        "canonical" => Value::String(api::canonical(&req_bytes(0))?),
        "serialize" => Value::String(api::serialize(&a(0))?),
        "merge" => api::merge(a(0), &a(1), &a(2))?,
        "validate" => api::validate(text(&a(0)), &a(1))?,
        "kinds" => api::kinds(),
        "default_document" => api::default_document(text(&a(0)))?,
        "schema" => api::schema(text(&a(0)))?,
        "limits" => api::limits(),
        "etag" => Value::String(api::etag(&req_bytes(0))),
        "load_document" => api::load_document(text(&a(0)), bytes(&a(1)).as_deref())?,
        "prepare_document" => api::prepare_document(text(&a(0)), &a(1))?,
        "apply_update" => api::apply_update(
            text(&a(0)),
            bytes(&a(1)).as_deref(),
            &a(2),
            &a(3),
            opt_text(args.get(4)),
        )?,
        "finish_update" => api::finish_update(
            text(&a(0)),
            bytes(&a(1)).as_deref(),
            &a(2),
            opt_text(args.get(3)),
        )?,
        "check_if_match" => {
            api::check_if_match(opt_text(args.first()), opt_text(args.get(1)))?;
            Value::Null
        }
        "parse_log" => api::parse_log(&req_bytes(0))?,
        "log_line" => Value::String(api::log_line(&a(0))?),
        "parse_timestamp" => Value::from(api::parse_timestamp(text(&a(0)))?),
        "format_timestamp" => Value::String(api::format_timestamp(a(0).as_i64().expect("ms"))?),
        "machine_check" => api::machine_check(&a(0))?,
        "machine_events" => api::machine_events(&a(0), text(&a(1)), &a(2))?,
        "machine_fire" => api::machine_fire(&a(0), &a(1), text(&a(2)), &a(3))?,
        "machine_diagram" => Value::String(api::machine_diagram(&a(0))?),
        "fctry_start_command" => api::fctry_start_command(a(0), text(&a(1)), &a(2))?,
        "fctry_start_step" => api::fctry_start_step(a(0), text(&a(1)), &a(2))?,
        "fctry_complete_step" => api::fctry_complete_step(a(0), text(&a(1)), &a(2), &a(3))?,
        "fctry_check_prerequisites" => {
            api::fctry_check_prerequisites(&a(0), text(&a(1)), opt_text(args.get(2)))?
        }
        "fctry_skip_prerequisites" => {
            api::fctry_skip_prerequisites(a(0), text(&a(1)), opt_text(args.get(2)), &a(3))?
        }
        "fctry_add_untracked_change" => api::fctry_add_untracked_change(a(0), &a(1), &a(2))?,
        "fctry_clear_untracked_changes" => api::fctry_clear_untracked_changes(a(0), &a(1), &a(2))?,
        "fctry_inbox_machine" => api::fctry_inbox_machine(),
        "fctry_inbox_add" => {
            api::fctry_inbox_add(a(0), text(&a(1)), text(&a(2)), &a(3), text(&a(4)))?
        }
        "fctry_inbox_transition" => api::fctry_inbox_transition(a(0), text(&a(1)), text(&a(2)))?,
        "fctry_inbox_dismiss" => api::fctry_inbox_dismiss(a(0), text(&a(1)))?,
        "fctry_inbox_batch" => api::fctry_inbox_batch(a(0), text(&a(1)))?,
        "fctry_chunk_machine" => api::fctry_chunk_machine(),
        "fctry_run_machine" => api::fctry_run_machine(),
        "fctry_create_build_run" => api::fctry_create_build_run(a(0), &a(1), &a(2))?,
        "fctry_chunk_event" => {
            api::fctry_chunk_event(a(0), a(1).as_u64().expect("id"), text(&a(2)), &a(3))?
        }
        "fctry_ready_chunks" => api::fctry_ready_chunks(&a(0)),
        "fctry_dag_layers" => api::fctry_dag_layers(&a(0)),
        "fctry_pause_build_run" => api::fctry_pause_build_run(a(0), &a(1), &a(2))?,
        "fctry_resume_build_run" => api::fctry_resume_build_run(a(0), &a(1))?,
        "fctry_finish_build_run" => api::fctry_finish_build_run(a(0), &a(1))?,
        "fctry_resume_plan" => api::fctry_resume_plan(&a(0), opt_text(args.get(1))),
        "fctry_status_line" => api::fctry_status_line(&a(0)),
        "fctry_render_status_line" => Value::String(api::fctry_render_status_line(&a(0), &a(1))),
        "fctry_status_line_text" => {
            Value::String(api::fctry_status_line_text(bytes(&a(0)).as_deref(), &a(1)))
        }
        "fctry_activity_feed" => api::fctry_activity_feed(&a(0)),
        "fctry_context_health" => api::fctry_context_health(&a(0), &a(1)),
        "hivemind_machine" => api::hivemind_machine(),
        "hivemind_diagram" => Value::String(api::hivemind_diagram()?),
        "hivemind_agents" => api::hivemind_agents(text(&a(0)))?,
        "hivemind_context_message" => api::hivemind_context_message(text(&a(0))),
        "hivemind_fire" => api::hivemind_fire(a(0), text(&a(1)), &a(2), &a(3))?,
        "hivemind_follow_up" => api::hivemind_follow_up(a(0), text(&a(1)), &a(2))?,
        "hivemind_on_file" => api::hivemind_on_file(a(0), text(&a(1)), &a(2), &a(3))?,
        "agency_initial_runner_status" => api::agency_initial_runner_status(&a(0))?,
        "agency_update_runner_status" => api::agency_update_runner_status(&a(0), &a(1), &a(2))?,
        "agency_parse_runner_status" => api::agency_parse_runner_status(bytes(&a(0)).as_deref()),
        "agency_age" => Value::from(api::agency_age(&a(0), &a(1))?),
        "agency_check_stall" => api::agency_check_stall(&a(0), &a(1), &a(2))?,
        "agency_build_snapshot" => api::agency_build_snapshot(
            bytes(&a(0)).as_deref(),
            bytes(&a(1)).as_deref(),
            &a(2),
            &a(3),
            &a(4),
        )?,
        "agency_derive" => api::agency_derive(&a(0))?,
        "agency_render_ls" => Value::String(api::agency_render_ls(&a(0))?),
        "agency_render_show" => Value::String(api::agency_render_show(&a(0), &a(1))?),
        "agency_protocol_document" => Value::String(api::agency_protocol_document()),
        other => panic!("unknown op {other}"),
    })
}

fn render(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => json::serialize(other),
    }
}

#[test]
fn conformance_corpus() {
    let mut files = Vec::new();
    case_files(&corpus_dir(), &mut files);
    assert!(!files.is_empty(), "the corpus is empty");
    let mut failures = Vec::new();
    let mut count = 0;
    for file in &files {
        let suite: Value =
            json::parse(&std::fs::read(file).expect("read case file")).expect("case file is JSON");
        let cases = suite["cases"].as_array().expect("cases array");
        for case in cases {
            count += 1;
            let name = format!(
                "{}: {}",
                file.display(),
                case["name"].as_str().unwrap_or("?")
            );
            let args = case["args"].as_array().cloned().unwrap_or_default();
            let outcome = run(case["op"].as_str().expect("op"), &args);
            match (outcome, case.get("expect"), case.get("error")) {
                (Ok(got), Some(want), None) => {
                    if render(&got) != render(want) {
                        failures.push(format!(
                            "{name}\n  want: {}\n  got:  {}",
                            render(want),
                            render(&got)
                        ));
                    }
                }
                (Err(err), None, Some(want)) => {
                    let code_ok = want["code"].as_str() == Some(err.code.as_str());
                    let path_ok = want
                        .get("path")
                        .is_none_or(|p| p.as_str() == Some(&err.path));
                    if !code_ok || !path_ok {
                        failures.push(format!(
                            "{name}\n  want error: {want}\n  got error:  {} at {:?}: {}",
                            err.code, err.path, err.message
                        ));
                    }
                }
                (Ok(got), None, Some(want)) => failures.push(format!(
                    "{name}\n  want error {want}\n  got: {}",
                    render(&got)
                )),
                (Err(err), Some(want), None) => failures.push(format!(
                    "{name}\n  want: {}\n  got error: {} at {:?}: {}",
                    render(want),
                    err.code,
                    err.path,
                    err.message
                )),
                _ => failures.push(format!("{name}: a case needs exactly one of expect/error")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {count} conformance cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    println!("conformance: {count} cases passed");
}
