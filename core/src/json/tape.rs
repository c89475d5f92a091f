//! [`Tape`]: a document read without building its tree. A strict scan of the text records each
//! value as one node in one list (keys, strings and numbers as byte ranges of the text; an
//! escaped string decoded once into a side buffer); [`TapeValue`] reads it through the
//! [`Json`] interface the validators are written against, and [`Json::to_value`] builds the
//! tree when an edit needs one (docs/performance.md § The document representation).
//!
//! The scan accepts exactly what the recursive parser ([`super::parse`]) accepts and reads it
//! the same way. On anything else it gives up, and the recursive parser reports the error with
//! its position, so errors have one implementation. The differential property test
//! (`core/tests/tape_properties.rs`) and the fuzz target `json` hold the two to that.

use super::parser::canonical_number;
use super::scan::{scan, Bounds, Kind, Node};
use crate::error::{Code, Error, Result};
use crate::value::{Json, JsonKind};
use crate::{Map, Number, Str, Value};
use std::borrow::Cow;

/// A document's text and its nodes. The text is borrowed from the bytes read (`'t`), or owned
/// once the tape outlives them ([`Tape::into_owned`]).
#[derive(Clone)]
pub struct Tape<'t> {
    pub(super) text: Cow<'t, str>,
    /// The decoded text of the escaped strings, one after another.
    pub(super) decoded: String,
    pub(super) nodes: Vec<Node>,
}

impl<'t> Tape<'t> {
    /// Reads a document's UTF-8 bytes with the strictness and limits of [`super::parse`]
    /// (the same errors), and whether the document is the text's value as written (see
    /// [`super::parse_as_written`]).
    pub fn parse(bytes: &'t [u8]) -> Result<(Tape<'t>, bool)> {
        super::check_document_size(bytes.len(), "the document")?;
        let body = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
        let bounds = Bounds {
            allowance: 0,
            max_string: super::MAX_STRING_BYTES,
        };
        let scanned = std::str::from_utf8(body)
            .ok()
            .and_then(|text| scan(text, &bounds).map(|s| (text, s)));
        match scanned {
            Some((text, scanned)) => Ok((
                Tape {
                    text: Cow::Borrowed(text),
                    decoded: scanned.decoded,
                    nodes: scanned.nodes,
                },
                !scanned.rewritten,
            )),
            // The recursive parser says what is wrong, and where.
            None => match super::parse(bytes) {
                Err(error) => Err(error),
                Ok(_) => Err(Error::new(
                    Code::Parse,
                    "",
                    "the document could not be read: the fast reader refused text the full \
                     parser accepts (please report this file)",
                )),
            },
        }
    }

    /// The document's root value.
    pub fn root(&self) -> TapeValue<'_> {
        TapeValue { tape: self, at: 0 }
    }

    /// The document's values in document order, one [`Token`] each, read off the nodes in
    /// one pass (as the tape's writer walks them): a container's token comes before its
    /// members (an object's as key, value, key, value...) or items. A host that builds its
    /// own objects from a tape keeps a stack of the containers it opened; no node lookup, no
    /// number made.
    pub fn tokens(&self) -> Tokens<'_> {
        Tokens {
            tape: self,
            nodes: self.nodes.iter(),
        }
    }

    /// The bytes of its text and of its decoded strings: about the length of the canonical
    /// text it writes (the room a writer gives it first).
    pub fn text_bytes(&self) -> usize {
        self.text.len().saturating_add(self.decoded.len())
    }

    /// The same tape holding its own copy of the text.
    pub fn into_owned(self) -> Tape<'static> {
        Tape {
            text: Cow::Owned(self.text.into_owned()),
            decoded: self.decoded,
            nodes: self.nodes,
        }
    }
}

/// One value of a tape, in document order ([`Tape::tokens`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// An object and its number of members: that many key and value pairs follow (a key is
    /// a [`Token::String`]).
    Object(usize),
    /// An array and its number of items, which follow.
    Array(usize),
    /// A string or a key, decoded.
    String(&'a str),
    /// A number's text as read, a negative zero as zero (`-0.0` is `0.0`); its exponent may
    /// be written `E` or without a sign. Its value is that of [`Json::number`] (which also
    /// writes the exponent canonically).
    Number(&'a str),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// The values of a tape in document order ([`Tape::tokens`]).
pub struct Tokens<'a> {
    tape: &'a Tape<'a>,
    nodes: std::slice::Iter<'a, Node>,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Token<'a>> {
        let node = self.nodes.next()?;
        let range = node.start as usize..node.end as usize;
        Some(match node.kind {
            Kind::Object => Token::Object(node.count as usize),
            Kind::Array => Token::Array(node.count as usize),
            Kind::Plain => Token::String(self.tape.text.get(range).unwrap_or_default()),
            Kind::Escaped => Token::String(self.tape.decoded.get(range).unwrap_or_default()),
            Kind::Number => Token::Number(super::without_negative_zero(
                self.tape.text.get(range).unwrap_or_default(),
            )),
            Kind::True => Token::Bool(true),
            Kind::False => Token::Bool(false),
            Kind::Null => Token::Null,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.nodes.size_hint()
    }
}

/// A value of a [`Tape`].
#[derive(Clone, Copy)]
pub struct TapeValue<'a> {
    pub(super) tape: &'a Tape<'a>,
    pub(super) at: usize,
}

impl<'a> TapeValue<'a> {
    fn node(self) -> Option<Node> {
        self.tape.nodes.get(self.at).copied()
    }

    /// The value at node `at` of the same tape.
    fn at(self, at: usize) -> TapeValue<'a> {
        TapeValue {
            tape: self.tape,
            at,
        }
    }

    /// The index of the node after this value and everything in it.
    pub(super) fn after(self) -> usize {
        match self.node() {
            Some(node) if matches!(node.kind, Kind::Object | Kind::Array) => node.end as usize,
            _ => self.at.saturating_add(1),
        }
    }

    fn text(self, node: Node) -> Option<&'a str> {
        let range = node.start as usize..node.end as usize;
        match node.kind {
            Kind::Escaped => self.tape.decoded.get(range),
            _ => self.tape.text.get(range),
        }
    }

    /// The members of an object as (key node, value) pairs.
    fn pairs(self) -> Members<'a> {
        let count = match self.node() {
            Some(node) if node.kind == Kind::Object => node.count as usize,
            _ => 0,
        };
        Members {
            key: self.at(self.at.saturating_add(1)),
            left: count,
        }
    }
}

/// The members of an object of a tape.
struct Members<'a> {
    /// The next member's key.
    key: TapeValue<'a>,
    left: usize,
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, TapeValue<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        let key = self.key.node().and_then(|node| self.key.text(node))?;
        let value = self.key.at(self.key.at.saturating_add(1));
        self.key = value.at(value.after());
        Some((key, value))
    }
}

/// The items of an array of a tape.
struct Items<'a> {
    next: TapeValue<'a>,
    left: usize,
}

impl<'a> Iterator for Items<'a> {
    type Item = TapeValue<'a>;

    fn next(&mut self) -> Option<Self::Item> {
        self.left = self.left.checked_sub(1)?;
        let item = self.next;
        self.next = item.at(item.after());
        Some(item)
    }
}

impl<'a> Json<'a> for TapeValue<'a> {
    fn kind(self) -> JsonKind {
        match self.node().map(|n| n.kind) {
            Some(Kind::Object) => JsonKind::Object,
            Some(Kind::Array) => JsonKind::Array,
            Some(Kind::Plain | Kind::Escaped) => JsonKind::String,
            Some(Kind::Number) => JsonKind::Number,
            Some(Kind::True | Kind::False) => JsonKind::Bool,
            Some(Kind::Null) | None => JsonKind::Null,
        }
    }

    fn as_str(self) -> Option<&'a str> {
        let node = self.node()?;
        matches!(node.kind, Kind::Plain | Kind::Escaped)
            .then(|| self.text(node))
            .flatten()
    }

    fn as_bool(self) -> Option<bool> {
        match self.node()?.kind {
            Kind::True => Some(true),
            Kind::False => Some(false),
            _ => None,
        }
    }

    fn number(self) -> Option<Cow<'a, Number>> {
        let node = self.node()?;
        if node.kind != Kind::Number {
            return None;
        }
        let text = super::without_negative_zero(self.text(node)?);
        Some(Cow::Owned(canonical_number(text)))
    }

    fn get(self, key: &str) -> Option<Self> {
        let node = self.node()?;
        if node.kind != Kind::Object {
            return None;
        }
        let nodes = &self.tape.nodes;
        let mut at = self.at.saturating_add(1);
        for _ in 0..node.count {
            let name = *nodes.get(at)?;
            let value = at.saturating_add(1);
            let len = (name.end as usize).saturating_sub(name.start as usize);
            if len == key.len()
                && self
                    .text(name)
                    .is_some_and(|k| crate::value::same_bytes(k.as_bytes(), key.as_bytes()))
            {
                return Some(self.at(value));
            }
            at = match nodes.get(value) {
                Some(n) if matches!(n.kind, Kind::Object | Kind::Array) => n.end as usize,
                _ => value.saturating_add(1),
            };
        }
        None
    }

    // A cursor is the index of a member's key node.
    fn first_member(self) -> usize {
        self.at.saturating_add(1)
    }

    fn find_near(self, key: &str, at: usize) -> Option<(usize, Self)> {
        let same = |k: &str| crate::value::same_bytes(k.as_bytes(), key.as_bytes());
        if self.kind() == JsonKind::Object && self.key_at(at).is_some_and(same) {
            let value = self.at(at.saturating_add(1));
            return Some((value.after(), value));
        }
        let value = self.get(key)?;
        Some((value.after(), value))
    }

    fn key_at(self, at: usize) -> Option<&'a str> {
        if at <= self.at || at >= self.after() {
            return None;
        }
        let key = self.at(at);
        key.text(key.node()?)
    }

    fn after_member(self, at: usize) -> usize {
        let value = self.at(at.saturating_add(1));
        value.after()
    }

    fn members(self) -> impl Iterator<Item = (&'a str, Self)> {
        self.pairs()
    }

    fn items(self) -> impl Iterator<Item = Self> {
        let count = match self.node() {
            Some(node) if node.kind == Kind::Array => node.count as usize,
            _ => 0,
        };
        Items {
            next: self.at(self.at.saturating_add(1)),
            left: count,
        }
    }

    fn len(self) -> usize {
        match self.node() {
            Some(node) if matches!(node.kind, Kind::Object | Kind::Array) => node.count as usize,
            _ => 0,
        }
    }

    fn numbers_pass(self, ok: &dyn Fn(&Number) -> bool) -> Option<bool> {
        // The value's nodes are `at..after()`: its numbers are the number nodes among them.
        let nodes = self.tape.nodes.get(self.at..self.after())?;
        Some(
            nodes
                .iter()
                .filter(|node| node.kind == Kind::Number)
                .all(|&node| {
                    self.text(node).is_some_and(|text| {
                        ok(&canonical_number(super::without_negative_zero(text)))
                    })
                }),
        )
    }

    fn to_value(self) -> Value {
        match self.kind() {
            JsonKind::Null => Value::Null,
            JsonKind::Bool => Value::Bool(self.as_bool().unwrap_or_default()),
            JsonKind::Number => self
                .number()
                .map_or(Value::Null, |n| Value::Number(n.into_owned())),
            JsonKind::String => Value::String(Str::new(self.as_str().unwrap_or_default())),
            JsonKind::Array => Value::Array(self.items().map(TapeValue::to_value).collect()),
            JsonKind::Object => {
                let mut map = Map::with_capacity(self.len());
                for (key, value) in self.pairs() {
                    // The scan refused repeated keys.
                    map.push_distinct(Str::new(key), value.to_value());
                }
                Value::Object(map)
            }
        }
    }
}
