//! The committed schemas (`core/schemas/<kind>.json`, compact text since they are embedded in
//! the wasm module) are what schemars generates from the Rust types now.
//! `STATECORE_WRITE_SCHEMAS=1` rewrites stale files instead of failing.
#![cfg(feature = "schema")]
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    missing_docs
)]

use statecore::{api, json, kinds, schema};
use std::path::Path;

#[test]
fn committed_schemas_are_generated_from_the_types() {
    let write = std::env::var_os("STATECORE_WRITE_SCHEMAS").is_some();
    let mut stale = Vec::new();
    for kind in kinds::KINDS {
        let Some(generated) = schema::generate(kind.name) else {
            assert!(
                kind.schema.is_none(),
                "{} has a schema file but no types",
                kind.name
            );
            continue;
        };
        let text = json::serialize_compact(&generated) + "\n";
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("schemas")
            .join(format!("{}.json", kind.name));
        if std::fs::read_to_string(&file).ok().as_deref() != Some(text.as_str()) {
            if write {
                std::fs::write(&file, &text).unwrap();
            } else {
                stale.push(file.display().to_string());
            }
        }
        assert!(
            kind.schema.is_some(),
            "{} is generated but not embedded",
            kind.name
        );
    }
    assert!(
        stale.is_empty(),
        "stale schemas {stale:?}: run STATECORE_WRITE_SCHEMAS=1 cargo test -p statecore --features schema --test schema"
    );
}

#[test]
fn every_embedded_schema_is_draft_2020_12_with_the_kind_as_title() {
    for kind in kinds::KINDS.iter().filter(|k| k.schema.is_some()) {
        let schema = api::schema(kind.name).unwrap();
        assert_eq!(
            schema["$schema"],
            "https://json-schema.org/draft/2020-12/schema"
        );
        assert_eq!(schema["title"], kind.name);
    }
}
