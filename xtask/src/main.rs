//! `cargo run -p xtask -- <task>`: development tasks of statecore.
//!
//! - `codegen`: writes every file generated from the core's operation table (docs/architecture.md
//!   lists them); `codegen --check` fails, listing them, when a committed file is not what the
//!   generator writes (`make test` runs it).
//! - `call <op> [json-args]`: runs an operation of the table and prints its result as JSON (a
//!   maintainer's tool for writing corpus cases).
//! - `profile <kind> <file> <patch> [n] [phase]`: the time of each phase of one pure update, natively
//!   (docs/performance.md).

mod docs;
mod helpers;
mod host_api;
mod js;
mod layers;
mod mcp;
mod mcp_routines;
mod names;
mod profile;
mod py;
mod py_package;
mod py_types;
mod resident;
mod stores;
mod ts;
mod web;

use statecore::ops::{Arg, Args, Kind};
use statecore::{json, Value};
use statecore_cli::TABLE;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("codegen") => codegen(args.get(1).map(String::as_str) == Some("--check")),
        Some("call") => call(
            args.get(1).map(String::as_str),
            args.get(2).map(String::as_str),
        ),
        Some("profile") if args.len() >= 4 => profile::profile(
            &args[1],
            &args[2],
            &args[3],
            args.get(4).and_then(|n| n.parse().ok()).unwrap_or(1000),
            args.get(5).map(String::as_str),
        ),
        _ => Err(
            "usage: xtask codegen [--check] | xtask call <op> [json-args] | xtask profile <kind> <file> <patch> [n] [phase]"
                .to_owned(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The repository's root (the workspace).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}

/// Every generated file and its content.
fn generated(root: &Path) -> Result<Vec<(String, String)>, String> {
    helpers::check_names()?;
    let mut files = vec![
        (
            "npm/lib/generated/generated.mjs".to_owned(),
            js::generated_mjs(),
        ),
        ("npm/lib/generated/core.d.ts".to_owned(), ts::core_dts()),
        (
            "npm/lib/generated/host-api.d.ts".to_owned(),
            host_api::host_api_dts(),
        ),
        (
            "npm/lib/generated/store.d.ts".to_owned(),
            stores::store_dts(),
        ),
        (
            "npm/lib/generated/core-node.cjs".to_owned(),
            js::core_node_cjs(),
        ),
        (
            "npm/lib/generated/constants.cjs".to_owned(),
            js::constants_cjs(),
        ),
        ("npm/lib/generated/web.mjs".to_owned(), js::web_mjs()),
        (
            "npm/lib/generated/web-modules.mjs".to_owned(),
            js::web_modules_mjs(),
        ),
        ("npm/lib/generated/web.d.mts".to_owned(), web::web_dmts()),
        (
            "python/statecore/_statecore.pyi".to_owned(),
            py_package::native_pyi(),
        ),
        (
            "python/statecore/errors.py".to_owned(),
            py_package::errors_py(),
        ),
        (
            "python/statecore/types.pyi".to_owned(),
            py_types::types_pyi(),
        ),
        ("python/statecore/types.py".to_owned(), py_types::types_py()),
        (
            "python/statecore/_generated/host_types.pyi".to_owned(),
            host_api::host_types_pyi(),
        ),
        (
            "python/statecore/_generated/host_types.py".to_owned(),
            host_api::host_types_py(),
        ),
    ];
    for module in names::modules() {
        if !helpers::files(module).is_empty() {
            let name = module.name();
            files.push((
                format!("npm/lib/generated/{name}.mjs"),
                js::helper_mjs(module),
            ));
            files.push((
                format!("npm/lib/generated/{name}.d.ts"),
                js::helper_dts(module),
            ));
            files.push((
                format!("npm/lib/generated/{name}.d.mts"),
                js::helper_dmts(module),
            ));
        }
    }
    let tools = mcp::tools_json();
    files.push(("npm/lib/generated/mcp-tools.json".to_owned(), tools.clone()));
    files.push((
        "python/statecore/_generated/mcp_tools.json".to_owned(),
        tools,
    ));
    files.push((
        "python/statecore/_generated/tables.py".to_owned(),
        py_package::tables_py(),
    ));
    files.push((
        "python/statecore/_generated/documents.py".to_owned(),
        resident::documents_py(),
    ));
    files.push((
        "python/statecore/_generated/host.py".to_owned(),
        py_package::host_py(),
    ));
    files.push((
        "python/statecore/_generated/__init__.py".to_owned(),
        py_package::package_init(),
    ));
    for (module, name) in py::module_names() {
        files.push((
            format!("python/statecore/_generated/{name}.py"),
            py::module_py(module),
        ));
    }
    for (kind, text) in docs::schemas() {
        files.push((format!("npm/schemas/{kind}.json"), text.clone()));
        files.push((format!("python/statecore/schemas/{kind}.json"), text));
    }
    let manifest = statecore::json::serialize(&TABLE.manifest());
    files.push(("docs/manifest.json".to_owned(), manifest));
    let api = std::fs::read_to_string(root.join("docs/api.md"))
        .map_err(|e| format!("docs/api.md: {e}"))?;
    files.push(("docs/api.md".to_owned(), docs::api_md(&api)?));
    let store_doc = std::fs::read_to_string(root.join("docs/store.md"))
        .map_err(|e| format!("docs/store.md: {e}"))?;
    files.push((
        "docs/store.md".to_owned(),
        docs::splice(
            &store_doc,
            "docs/store.md",
            "store api",
            &stores::stores_md(),
        )?,
    ));
    let mcp_doc = std::fs::read_to_string(root.join("docs/mcp.md"))
        .map_err(|e| format!("docs/mcp.md: {e}"))?;
    files.push(("docs/mcp.md".to_owned(), mcp::mcp_md(&mcp_doc)?));
    let architecture = std::fs::read_to_string(root.join("docs/architecture.md"))
        .map_err(|e| format!("docs/architecture.md: {e}"))?;
    files.push((
        "docs/architecture.md".to_owned(),
        layers::architecture_md(root, &architecture)?,
    ));
    Ok(files)
}

fn codegen(check: bool) -> Result<(), String> {
    let root = root();
    let mut stale = Vec::new();
    for (path, content) in generated(&root)? {
        let target = root.join(&path);
        let current = std::fs::read_to_string(&target).ok();
        if current.as_deref() == Some(content.as_str()) {
            continue;
        }
        if check {
            stale.push(path);
        } else {
            if let Some(dir) = target.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&target, content).map_err(|e| format!("{path}: {e}"))?;
            println!("xtask: wrote {path}");
        }
    }
    if stale.is_empty() {
        if check {
            println!("xtask: every generated file is up to date");
        }
        Ok(())
    } else {
        Err(format!(
            "generated files are stale (run `cargo run -p xtask -- codegen`): {}",
            stale.join(", ")
        ))
    }
}

fn call(name: Option<&str>, args: Option<&str>) -> Result<(), String> {
    let op = TABLE
        .find(name.ok_or("call needs an operation name")?)
        .map_err(|e| e.to_string())?;
    let args: Vec<Value> = match args {
        None => Vec::new(),
        Some(text) => {
            match json::parse_str(text).map_err(|e| format!("arguments: {}", e.message))? {
                Value::Array(items) => items,
                _ => return Err("arguments: not a JSON array".to_owned()),
            }
        }
    };
    // As in the corpus: `{"hex": "..."}` is bytes for a bytes or random parameter.
    let args = args
        .into_iter()
        .enumerate()
        .map(|(i, value)| {
            let bytes_param = op
                .params
                .get(i)
                .is_some_and(|p| matches!(p.kind, Kind::Bytes | Kind::Random));
            match value.get("hex").and_then(Value::as_str) {
                Some(hex) if bytes_param => Arg::Bytes(Some(Cow::Owned(
                    (0..hex.len() / 2)
                        .filter_map(|i| hex.get(2 * i..2 * i + 2))
                        .filter_map(|b| u8::from_str_radix(b, 16).ok())
                        .collect(),
                ))),
                _ => Arg::Value(value),
            }
        })
        .collect();
    let out = TABLE
        .call(op, Args::new(args))
        .map_err(|e| json::serialize_compact(&e.to_value()))?;
    // Text results print as a JSON string, so a script reads every result with one parser.
    print!("{}", statecore::json::serialize(&out.into_value()));
    Ok(())
}
