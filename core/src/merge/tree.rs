//! The merge into a document tree the merge owns: values moved, never copied, except the
//! patch's.

use super::drive::{merge_value, Sink};
use super::{pointer, type_name, MergeOptions, Mode};
use crate::error::{Code, Error, Result};
use crate::value::{Json, JsonKind};
use crate::{Map, Value};

/// The tree sink: a document is a [`Value`], an object a [`Map`].
pub(crate) struct TreeSink;

impl<'a> Sink<'a> for TreeSink {
    type Val = Value;
    type Obj = Map;

    fn kind(&self, value: &Value) -> JsonKind {
        Json::kind(value)
    }

    fn object(&mut self, value: Value) -> Option<Map> {
        match value {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    fn empty(&mut self) -> Map {
        Map::new()
    }

    fn take(&mut self, object: &mut Map, key: &str) -> Option<Value> {
        object.get_mut(key).map(Value::take)
    }

    fn put(&mut self, object: &mut Map, key: &'a str, value: Value) {
        object.insert(key.into(), value);
    }

    fn remove(&mut self, object: &mut Map, key: &str) {
        object.shift_remove(key);
    }

    fn close(&mut self, object: Map) -> Value {
        Value::Object(object)
    }

    fn patch(&mut self, value: &'a Value) -> Value {
        value.clone()
    }

    fn text(&mut self, text: &'a str) -> Value {
        Value::from(text)
    }

    fn rule(
        &mut self,
        mode: &Mode,
        current: Option<Value>,
        patch: &'a Value,
        path: &[&str],
        options: &MergeOptions,
    ) -> Result<Value> {
        apply_rule(mode, current, patch, path, options)
    }
}

/// A per-path rule's merge of `patch` into `current` at `path`, on trees (the update on a
/// read text builds the trees of the values a rule merges: `tape.rs`).
pub(crate) fn apply_rule(
    mode: &Mode,
    current: Option<Value>,
    patch: &Value,
    path: &[&str],
    options: &MergeOptions,
) -> Result<Value> {
    if matches!(mode, Mode::Replace) || patch.is_null() {
        return Ok(patch.clone());
    }
    let Value::Array(patch_items) = patch else {
        return Err(Error::new(
            Code::Merge,
            pointer(path),
            format!(
                "the rule at this path merges arrays; the patch has {}",
                type_name(patch)
            ),
        ));
    };
    let mut items = match current {
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    };
    match mode {
        Mode::Append => {
            for item in patch_items {
                if !items.contains(item) {
                    items.push(item.clone());
                }
            }
        }
        Mode::ByKey(key) => {
            for (i, item) in patch_items.iter().enumerate() {
                let id = item.get(key).filter(|id| !id.is_null()).ok_or_else(|| {
                    Error::new(
                        Code::Merge,
                        format!("{}/{i}", pointer(path)),
                        format!("items merged by key need a {key:?} field"),
                    )
                })?;
                match items
                    .iter()
                    .position(|existing| existing.get(key) == Some(id))
                {
                    Some(index) => {
                        let index_text = index.to_string();
                        let mut element_path: Vec<&str> = path.to_vec();
                        element_path.push(&index_text);
                        let existing = items.get_mut(index).map(Value::take);
                        let merged =
                            merge_value(&mut TreeSink, existing, item, &mut element_path, options)?;
                        if let Some(slot) = items.get_mut(index) {
                            *slot = merged;
                        }
                    }
                    None => items.push(item.clone()),
                }
            }
        }
        Mode::Replace => {}
    }
    Ok(Value::Array(items))
}
