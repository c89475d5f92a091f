//! The JSON Schema (draft 2020-12) of each document kind, written from the kind's shapes
//! (`crate::shape::json_schema`): the same description the validator's field rules come from.
//! The schemas are also shipped as files in both packages (`statecore/schemas/<kind>.json`),
//! written by `xtask codegen` from this function.

use crate::error::Result;
use crate::kinds::kind;
use crate::shape::json_schema::document_schema;
use crate::Value;

/// The JSON Schema of a kind (`E_KIND` for an unknown kind).
pub fn schema(name: &str) -> Result<Value> {
    let kind = kind(name)?;
    Ok(document_schema(kind.name, kind.description, &kind.root))
}
