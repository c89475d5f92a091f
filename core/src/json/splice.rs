//! [`Splice`]: a new [`Tape`] made of values of a base tape and values of a tree, without
//! building the base's tree: an update's merged document (`crate::merge::tape`). A base value
//! is copied as its run of nodes (their text ranges still point into the base's text, which
//! the new tape starts with); a tree value's numbers are appended to that text, its strings
//! and keys to the side buffer of decoded strings. The result reads through [`super::TapeValue`] like any read text.

use super::scan::{Kind, Node};
use super::tape::{Tape, TapeValue};
use crate::value::Value;
use std::borrow::Cow;

/// A tape being built over a base tape. Every method returns `None` when a position does not
/// fit the tape's 32-bit nodes (the caller then takes the tree path).
pub(crate) struct Splice<'b> {
    base: &'b Tape<'b>,
    text: String,
    decoded: String,
    nodes: Vec<Node>,
}

impl<'b> Splice<'b> {
    /// A splice over `base` (room for its nodes and a few more).
    pub(crate) fn new(base: &'b Tape<'b>) -> Splice<'b> {
        Splice {
            base,
            text: base.text.as_ref().to_owned(),
            decoded: base.decoded.clone(),
            nodes: Vec::with_capacity(base.nodes.len().saturating_add(16)),
        }
    }

    /// Copies `value`, a value of the base tape, and everything in it.
    pub(crate) fn base(&mut self, value: TapeValue<'b>) -> Option<()> {
        let from = value.at;
        let run = self.base.nodes.get(from..value.after())?;
        let to = self.nodes.len();
        for &node in run {
            let mut node = node;
            if matches!(node.kind, Kind::Object | Kind::Array) {
                // A container's `end` is a node index: it moves with the run.
                let end = (node.end as usize).checked_sub(from)?.checked_add(to)?;
                node.end = u32::try_from(end).ok()?;
            }
            self.nodes.push(node);
        }
        Some(())
    }

    /// Copies the key node of `value`, a member value of an object of the base tape (a key is
    /// the node just before its value).
    pub(crate) fn base_key(&mut self, value: TapeValue<'b>) -> Option<()> {
        let node = *self.base.nodes.get(value.at.checked_sub(1)?)?;
        matches!(node.kind, Kind::Plain | Kind::Escaped).then_some(())?;
        self.nodes.push(node);
        Some(())
    }

    /// Opens an object (`object`) or array of `count` members; returns what [`Splice::close`]
    /// takes.
    pub(crate) fn open(&mut self, object: bool, count: usize) -> Option<usize> {
        let at = self.nodes.len();
        self.nodes.push(Node {
            kind: if object { Kind::Object } else { Kind::Array },
            start: 0,
            end: 0,
            count: u32::try_from(count).ok()?,
        });
        Some(at)
    }

    /// Closes the container opened at `at`: it ends here.
    pub(crate) fn close(&mut self, at: usize) -> Option<()> {
        let end = u32::try_from(self.nodes.len()).ok()?;
        self.nodes.get_mut(at)?.end = end;
        Some(())
    }

    /// A string (or key) whose text is `s`: in the side buffer, as an escaped string's (a
    /// plain string is one whose text in the text is written as it is, which `s` may not be).
    pub(crate) fn string(&mut self, s: &str) -> Option<()> {
        let start = u32::try_from(self.decoded.len()).ok()?;
        self.decoded.push_str(s);
        let end = u32::try_from(self.decoded.len()).ok()?;
        self.nodes.push(Node {
            kind: Kind::Escaped,
            start,
            end,
            count: 0,
        });
        Some(())
    }

    /// A number whose text is `s`.
    fn number(&mut self, s: &str) -> Option<()> {
        let start = u32::try_from(self.text.len()).ok()?;
        self.text.push_str(s);
        let end = u32::try_from(self.text.len()).ok()?;
        self.nodes.push(Node {
            kind: Kind::Number,
            start,
            end,
            count: 0,
        });
        Some(())
    }

    fn scalar(&mut self, kind: Kind) {
        self.nodes.push(Node {
            kind,
            start: 0,
            end: 0,
            count: 0,
        });
    }

    /// Appends a tree value. `None` also for a number a tape would read otherwise than the
    /// tree holds it (a negative zero's text): the tree path writes it as it is.
    pub(crate) fn value(&mut self, value: &Value) -> Option<()> {
        match value {
            Value::Null => self.scalar(Kind::Null),
            Value::Bool(true) => self.scalar(Kind::True),
            Value::Bool(false) => self.scalar(Kind::False),
            Value::Number(n) => {
                let text = n.as_str();
                (super::without_negative_zero(text) == text).then_some(())?;
                self.number(text)?;
            }
            Value::String(s) => self.string(s)?,
            Value::Array(items) => {
                let at = self.open(false, items.len())?;
                for item in items {
                    self.value(item)?;
                }
                self.close(at)?;
            }
            Value::Object(map) => {
                let at = self.open(true, map.len())?;
                for (key, item) in map {
                    self.string(key)?;
                    self.value(item)?;
                }
                self.close(at)?;
            }
        }
        Some(())
    }

    /// The tape built.
    pub(crate) fn finish(self) -> Tape<'static> {
        Tape {
            text: Cow::Owned(self.text),
            decoded: self.decoded,
            nodes: self.nodes,
        }
    }
}
