//! [`Splice`]: a new [`Tape`] made of values of a base tape and values of a tree, without
//! building the base's tree: an update's merged document (`crate::merge::tape`). A base value
//! is copied as its run of nodes with the part of the base's text that run spans, the nodes'
//! ranges moved with it: the new tape holds only the text of the values it keeps, not the
//! whole base's (the base's decoded strings, the escaped ones only, are copied whole, their
//! ranges unchanged). A tree value's numbers are appended to the text, its strings and keys to
//! the side buffer of decoded strings. What the new tape will hold is
//! counted first ([`Room`]), so no buffer grows while it is built (docs/performance.md § The
//! update's peak memory). The result reads through [`super::TapeValue`] like any read text.

use super::scan::{Kind, Node};
use super::tape::{Tape, TapeValue};
use crate::value::Value;
use std::borrow::Cow;

/// What a splice will hold, counted before it is made ([`Splice::new`]): its nodes, its text
/// (the base's text its runs span, the numbers appended) and the strings and keys it appends
/// to the base's decoded strings.
#[derive(Default)]
pub(crate) struct Room {
    /// The new tape's nodes.
    pub nodes: usize,
    /// The bytes of the new text.
    pub text: usize,
    /// The bytes of the strings and keys appended to the side buffer of decoded strings.
    pub decoded: usize,
}

impl Room {
    /// Counts `value`, a value of the base tape copied as its run of nodes.
    pub(crate) fn base(&mut self, value: TapeValue<'_>) {
        let run = value
            .tape
            .nodes
            .get(value.at..value.after())
            .unwrap_or_default();
        self.nodes = self.nodes.saturating_add(run.len());
        self.text = self.text.saturating_add(text_span(run).len());
    }

    /// Counts the key node of `value`, a member value of an object of the base tape, and its
    /// text ([`Splice::base_key`]).
    pub(crate) fn base_key(&mut self, value: TapeValue<'_>) {
        self.nodes = self.nodes.saturating_add(1);
        let key = value
            .at
            .checked_sub(1)
            .and_then(|at| value.tape.nodes.get(at));
        if let Some(node) = key.filter(|node| node.kind == Kind::Plain) {
            let len = (node.end as usize).saturating_sub(node.start as usize);
            self.text = self.text.saturating_add(len);
        }
    }

    /// Counts a string or key appended ([`Splice::string`]).
    pub(crate) fn string(&mut self, s: &str) {
        self.nodes = self.nodes.saturating_add(1);
        self.decoded = self.decoded.saturating_add(s.len());
    }

    /// Counts a container's node ([`Splice::open`]).
    pub(crate) fn node(&mut self) {
        self.nodes = self.nodes.saturating_add(1);
    }

    /// Counts a tree value appended ([`Splice::value`]).
    pub(crate) fn value(&mut self, value: &Value) {
        match value {
            Value::Number(n) => {
                self.nodes = self.nodes.saturating_add(1);
                self.text = self.text.saturating_add(n.as_str().len());
            }
            Value::String(s) => self.string(s),
            Value::Array(items) => {
                self.node();
                items.iter().for_each(|item| self.value(item));
            }
            Value::Object(map) => {
                self.node();
                for (key, item) in map {
                    self.string(key);
                    self.value(item);
                }
            }
            Value::Null | Value::Bool(_) => self.node(),
        }
    }
}

/// The range of `run` (a value's nodes) in the text: from the start of its first node held
/// in the text to the end of its last (a scan writes the text in document order; a
/// container's range is of nodes, an escaped string's in the side buffer). Both ends are
/// found from the run's ends, usually at once.
fn text_span(run: &[Node]) -> std::ops::Range<usize> {
    let in_text = |node: &&Node| !matches!(node.kind, Kind::Object | Kind::Array | Kind::Escaped);
    match (run.iter().find(in_text), run.iter().rev().find(in_text)) {
        (Some(first), Some(last)) => {
            first.start as usize..(last.end as usize).max(first.start as usize)
        }
        _ => 0..0,
    }
}

/// A tape being built over a base tape. Every method returns `None` when a position does not
/// fit the tape's 32-bit nodes (the caller then takes the tree path).
pub(crate) struct Splice<'b> {
    base: &'b Tape<'b>,
    text: String,
    decoded: String,
    nodes: Vec<Node>,
}

impl<'b> Splice<'b> {
    /// A splice over `base` with room for exactly what it will hold (`room`, counted by its
    /// caller): no buffer grows while the tape is built, so the new tape holds no spare
    /// capacity and no buffer is ever held twice in a reallocation.
    pub(crate) fn new(base: &'b Tape<'b>, room: &Room) -> Splice<'b> {
        Splice {
            base,
            text: String::with_capacity(room.text),
            decoded: {
                let mut decoded =
                    String::with_capacity(base.decoded.len().saturating_add(room.decoded));
                decoded.push_str(&base.decoded);
                decoded
            },
            nodes: Vec::with_capacity(room.nodes),
        }
    }

    /// Copies `value`, a value of the base tape, and everything in it: its nodes, and the
    /// base's text they span, their ranges moved to where that text now is.
    pub(crate) fn base(&mut self, value: TapeValue<'b>) -> Option<()> {
        let from = value.at;
        let run = self.base.nodes.get(from..value.after())?;
        let span = text_span(run);
        let text_to = u32::try_from(self.text.len()).ok()?;
        self.text.push_str(self.base.text.get(span.clone())?);
        u32::try_from(self.text.len()).ok()?;
        // A range at `start` moves to `start - span.start + text_to` (`span.start ≤ start`).
        let text_from = u32::try_from(span.start).ok()?;
        let to = self.nodes.len();
        for &node in run {
            let mut node = node;
            match node.kind {
                Kind::Object | Kind::Array => {
                    // A container's `end` is a node index: it moves with the run.
                    let end = (node.end as usize).checked_sub(from)?.checked_add(to)?;
                    node.end = u32::try_from(end).ok()?;
                }
                // In the side buffer, copied whole: where it was.
                Kind::Escaped => {}
                _ => {
                    node.start = node.start.checked_sub(text_from)?.checked_add(text_to)?;
                    node.end = node.end.checked_sub(text_from)?.checked_add(text_to)?;
                }
            }
            self.nodes.push(node);
        }
        Some(())
    }

    /// Copies the key node of `value`, a member value of an object of the base tape (a key is
    /// the node just before its value), and a plain key's text.
    pub(crate) fn base_key(&mut self, value: TapeValue<'b>) -> Option<()> {
        let node = *self.base.nodes.get(value.at.checked_sub(1)?)?;
        match node.kind {
            Kind::Plain => {
                let text = self.base.text.get(node.start as usize..node.end as usize)?;
                let start = u32::try_from(self.text.len()).ok()?;
                self.text.push_str(text);
                let end = u32::try_from(self.text.len()).ok()?;
                self.nodes.push(Node { start, end, ..node });
            }
            Kind::Escaped => self.nodes.push(node),
            _ => return None,
        }
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
