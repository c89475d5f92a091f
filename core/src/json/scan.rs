//! The strict scan behind [`super::Tape`]: every byte checked as the recursive parser checks
//! it, eight bytes at a time through string contents, each value recorded as one [`Node`].
//! `None` for anything the recursive parser would refuse (it then reports the error).

/// What a node is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Object,
    Array,
    /// A string (or key) without escapes: its bytes in the text are its text.
    Plain,
    /// A string (or key) with escapes: its decoded text is in the side buffer.
    Escaped,
    Number,
    True,
    False,
    Null,
}

/// One value. A container's `end` is the index of the node after everything in it and
/// `count` its number of members; a string's `start..end` is its text's byte range (in the
/// text without the quotes, or in the side buffer), a number's its range in the text.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node {
    pub kind: Kind,
    pub start: u32,
    pub end: u32,
    pub count: u32,
}

impl Node {
    fn leaf(kind: Kind, start: usize, end: usize) -> Option<Node> {
        Some(Node {
            kind,
            start: u32::try_from(start).ok()?,
            end: u32::try_from(end).ok()?,
            count: 0,
        })
    }
}

/// How the scan is bounded, as the recursive parser is.
pub(super) struct Bounds {
    /// Levels of nesting that do not count toward the depth limit.
    pub allowance: usize,
    /// The most bytes of one string (after unescaping) or number.
    pub max_string: usize,
}

/// What a scan found.
pub(super) struct Scanned {
    pub nodes: Vec<Node>,
    /// The decoded text of the escaped strings.
    pub decoded: String,
    /// True when a number is read differently from its text (a negative zero).
    pub rewritten: bool,
}

/// The index of the first byte at or after `pos` that is not JSON whitespace.
fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while let Some(b' ' | b'\n' | b'\t' | b'\r') = bytes.get(pos) {
        pos = pos.saturating_add(1);
    }
    pos
}

/// The index after the digits at `pos`, and whether there was at least one.
fn digits(bytes: &[u8], mut pos: usize) -> (usize, bool) {
    let start = pos;
    while let Some(b'0'..=b'9') = bytes.get(pos) {
        pos = pos.saturating_add(1);
    }
    (pos, pos > start)
}

/// An open container: its node's index, whether it is an object, its members so far, and for
/// an object a 64-bit summary of its keys (one bit per key, by a cheap hash): two keys on one
/// bit may be equal, and the object's keys are then compared at its close.
struct Open {
    node: usize,
    object: bool,
    count: u32,
    keys: u64,
    repeated: bool,
}

/// The scan's state.
struct Scanner<'a> {
    text: &'a str,
    bytes: &'a [u8],
    bounds: &'a Bounds,
    nodes: Vec<Node>,
    decoded: String,
    rewritten: bool,
    stack: Vec<Open>,
}

/// The unused room for nodes (4,096 nodes, 64 KiB) past which a scan gives it back.
const SPARE_NODES: usize = 4096;

/// The text's length from which its nodes are given room for one per 16 bytes, not 8.
const LARGE_TEXT: usize = 64 * 1024;

/// The room given to the nodes of a text of `len` bytes: one node per 8 bytes of a small
/// text (room enough for most, no growth), one per 16 bytes of a large one, where room left
/// unused costs memory (a document written with indents has about one node per 16 bytes; a
/// denser one grows the list, a copy of its nodes, which costs little beside the scan) (docs/performance.md § The update's peak memory).
fn node_room(len: usize) -> usize {
    let nodes = if len >= LARGE_TEXT { len / 16 } else { len / 8 };
    nodes.saturating_add(4)
}

/// Scans a whole text: its nodes, or `None` when the recursive parser would refuse it.
pub(super) fn scan(text: &str, bounds: &Bounds) -> Option<Scanned> {
    let bytes = text.as_bytes();
    let mut scanner = Scanner {
        text,
        bytes,
        bounds,
        nodes: Vec::with_capacity(node_room(bytes.len())),
        decoded: String::new(),
        rewritten: false,
        stack: Vec::with_capacity(16),
    };
    scanner.document()?;
    // A document sparser than the room given ([`node_room`]: long strings, deep indents)
    // leaves much of it unused, which a tape would otherwise hold as long as it lives (an
    // update holds it beside the merged tape). Shrinking a large block is done in place
    // (dlmalloc, glibc); a small tape keeps its room (docs/performance.md § The update's
    // peak memory).
    if scanner.nodes.capacity().saturating_sub(scanner.nodes.len()) > SPARE_NODES {
        scanner.nodes.shrink_to_fit();
    }
    Some(Scanned {
        nodes: scanner.nodes,
        decoded: scanner.decoded,
        rewritten: scanner.rewritten,
    })
}

impl Scanner<'_> {
    fn document(&mut self) -> Option<()> {
        let bytes = self.bytes;
        let mut pos = skip_ws(bytes, 0);
        'value: loop {
            match *bytes.get(pos)? {
                open @ (b'{' | b'[') => {
                    let object = open == b'{';
                    self.stack.push(Open {
                        node: self.nodes.len(),
                        object,
                        count: 0,
                        keys: 0,
                        repeated: false,
                    });
                    if self.stack.len().saturating_sub(self.bounds.allowance) > super::MAX_DEPTH {
                        return None;
                    }
                    let kind = if object { Kind::Object } else { Kind::Array };
                    self.nodes.push(Node::leaf(kind, 0, 0)?);
                    pos = skip_ws(bytes, pos.saturating_add(1));
                    let closing = if object { b'}' } else { b']' };
                    if bytes.get(pos) != Some(&closing) {
                        if object {
                            pos = self.key(pos)?;
                        }
                        continue 'value;
                    }
                    // Empty: closed at once.
                    pos = pos.saturating_add(1);
                    self.close()?;
                }
                b'"' => pos = self.string(pos)?,
                b'-' | b'0'..=b'9' => pos = self.number(pos)?,
                b't' => pos = self.literal(pos, b"true", Kind::True)?,
                b'f' => pos = self.literal(pos, b"false", Kind::False)?,
                b'n' => pos = self.literal(pos, b"null", Kind::Null)?,
                _ => return None,
            }
            // After a value: a comma, or the closes of the containers it ends.
            loop {
                pos = skip_ws(bytes, pos);
                let Some(open) = self.stack.last_mut() else {
                    return (pos == bytes.len()).then_some(());
                };
                open.count = open.count.checked_add(1)?;
                let object = open.object;
                match bytes.get(pos) {
                    Some(b',') => {
                        pos = skip_ws(bytes, pos.saturating_add(1));
                        if object {
                            pos = self.key(pos)?;
                        }
                        continue 'value;
                    }
                    Some(b'}') if object => {}
                    Some(b']') if !object => {}
                    _ => return None,
                }
                pos = pos.saturating_add(1);
                self.close()?;
            }
        }
    }

    /// Closes the innermost container: its end and member count; an object's keys compared
    /// when its summary shows two that may be equal.
    fn close(&mut self) -> Option<()> {
        let open = self.stack.pop()?;
        if open.repeated && self.has_repeated_key(open.node) {
            return None;
        }
        let end = u32::try_from(self.nodes.len()).ok()?;
        let node = self.nodes.get_mut(open.node)?;
        node.end = end;
        node.count = open.count;
        Some(())
    }

    /// The text of a string node.
    fn text_of(&self, node: &Node) -> &str {
        let range = node.start as usize..node.end as usize;
        match node.kind {
            Kind::Escaped => self.decoded.get(range),
            _ => self.text.get(range),
        }
        .unwrap_or_default()
    }

    /// Whether the object at node `at` (its members complete, its end not yet set) has a key
    /// twice.
    fn has_repeated_key(&self, at: usize) -> bool {
        let mut keys: Vec<&str> = Vec::new();
        let mut i = at.saturating_add(1);
        while let Some(key) = self.nodes.get(i) {
            keys.push(self.text_of(key));
            let value = i.saturating_add(1);
            i = match self.nodes.get(value) {
                Some(n) if matches!(n.kind, Kind::Object | Kind::Array) => n.end as usize,
                Some(_) => value.saturating_add(1),
                None => break,
            };
        }
        keys.sort_unstable();
        keys.windows(2).any(|w| w.first() == w.get(1))
    }

    /// A key at `pos` (which must be a string), its colon and the whitespace after it.
    fn key(&mut self, pos: usize) -> Option<usize> {
        if self.bytes.get(pos) != Some(&b'"') {
            return None;
        }
        let end = self.string(pos)?;
        let node = self.nodes.last()?;
        let bit = 1u64 << (key_hash(self.text_of(node).as_bytes()) & 63);
        let open = self.stack.last_mut()?;
        open.repeated |= open.keys & bit != 0;
        open.keys |= bit;
        let pos = skip_ws(self.bytes, end);
        (self.bytes.get(pos) == Some(&b':')).then(|| skip_ws(self.bytes, pos.saturating_add(1)))
    }

    /// The string whose opening quote is at `pos`; the index after its closing quote.
    fn string(&mut self, pos: usize) -> Option<usize> {
        let bytes = self.bytes;
        let start = pos.saturating_add(1);
        let mut end = super::plain_end(bytes, start);
        let mut escaped = false;
        loop {
            match bytes.get(end)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    end = super::plain_end(bytes, end.saturating_add(2).min(bytes.len()));
                }
                _ => return None,
            }
        }
        let node = if escaped {
            let from = self.decoded.len();
            unescape(self.text.get(start..end)?, &mut self.decoded)?;
            Node::leaf(Kind::Escaped, from, self.decoded.len())?
        } else {
            Node::leaf(Kind::Plain, start, end)?
        };
        if (node.end as usize).saturating_sub(node.start as usize) > self.bounds.max_string {
            return None;
        }
        self.nodes.push(node);
        Some(end.saturating_add(1))
    }

    /// The number starting at `pos`; the index after it.
    fn number(&mut self, pos: usize) -> Option<usize> {
        let bytes = self.bytes;
        let start = pos;
        let negative = bytes.get(pos) == Some(&b'-');
        let mut pos = if negative { pos.saturating_add(1) } else { pos };
        match bytes.get(pos)? {
            b'0' => {
                pos = pos.saturating_add(1);
                if let Some(b'0'..=b'9') = bytes.get(pos) {
                    return None;
                }
            }
            b'1'..=b'9' => pos = digits(bytes, pos).0,
            _ => return None,
        }
        if bytes.get(pos) == Some(&b'.') {
            let (after, any) = digits(bytes, pos.saturating_add(1));
            if !any {
                return None;
            }
            pos = after;
        }
        if let Some(b'e' | b'E') = bytes.get(pos) {
            pos = pos.saturating_add(1);
            if let Some(b'+' | b'-') = bytes.get(pos) {
                pos = pos.saturating_add(1);
            }
            let (after, any) = digits(bytes, pos);
            if !any {
                return None;
            }
            pos = after;
        }
        if pos.saturating_sub(start) > self.bounds.max_string {
            return None;
        }
        if negative {
            let written = self.text.get(start..pos)?;
            if super::without_negative_zero(written).len() != written.len() {
                self.rewritten = true;
            }
        }
        self.nodes.push(Node::leaf(Kind::Number, start, pos)?);
        Some(pos)
    }

    /// The literal `word` at `pos`; the index after it.
    fn literal(&mut self, pos: usize, word: &[u8], kind: Kind) -> Option<usize> {
        let end = pos.saturating_add(word.len());
        if self.bytes.get(pos..end) != Some(word) {
            return None;
        }
        self.nodes.push(Node::leaf(kind, pos, end)?);
        Some(end)
    }
}

/// A cheap hash of a key's bytes (its length, first, middle and last bytes).
fn key_hash(key: &[u8]) -> u32 {
    let byte = |i: usize| u32::from(key.get(i).copied().unwrap_or(0));
    let len = key.len();
    (len as u32)
        .wrapping_mul(0x9E37_79B1)
        .wrapping_add(byte(0).wrapping_mul(31))
        .wrapping_add(byte(len / 2).wrapping_mul(131))
        .wrapping_add(byte(len.saturating_sub(1)).wrapping_mul(7))
        .rotate_right(7)
}

/// Appends the decoded text of a string's escaped contents to `out`; `None` for an escape
/// JSON does not allow or a lone surrogate.
fn unescape(raw: &str, out: &mut String) -> Option<()> {
    let mut rest = raw;
    while let Some(at) = rest.find('\\') {
        out.push_str(rest.get(..at)?);
        let mut chars = rest.get(at.saturating_add(1)..)?.chars();
        let decoded = match chars.next()? {
            '"' => '"',
            '\\' => '\\',
            '/' => '/',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'u' => {
                let after = chars.as_str();
                let first = hex4(after)?;
                let (code, used) = if (0xD800..0xDC00).contains(&first) {
                    let low = after.get(4..)?.strip_prefix("\\u").and_then(hex4)?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    let high = first.saturating_sub(0xD800);
                    let code = 0x10000u32
                        .saturating_add(high.saturating_mul(0x400))
                        .saturating_add(low.saturating_sub(0xDC00));
                    (code, 10)
                } else {
                    (first, 4)
                };
                out.push(char::from_u32(code)?);
                rest = after.get(used..)?;
                continue;
            }
            _ => return None,
        };
        out.push(decoded);
        rest = chars.as_str();
    }
    out.push_str(rest);
    Some(())
}

/// The value of the four hex digits that start `text`.
fn hex4(text: &str) -> Option<u32> {
    let digits = text.get(..4)?;
    if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    u32::from_str_radix(digits, 16).ok()
}
