//! Where a JSON pointer's value starts in a document's text, as a line and a column, for
//! messages people read (`state.json:3:15`). The text is one that parsed: the scan trusts its
//! syntax and gives up (`None`) on anything it does not expect.

/// The 1-based line and column (in characters) where the value at `pointer` starts in the
/// JSON `text`; for a pointer the text does not hold, where its nearest ancestor starts.
/// `None` for a text that is not JSON.
pub fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let tokens: Vec<String> = if pointer.is_empty() {
        Vec::new()
    } else {
        pointer
            .strip_prefix('/')?
            .split('/')
            .map(|t| t.replace("~1", "/").replace("~0", "~"))
            .collect()
    };
    let bytes = text.as_bytes();
    let mut at = skip_space(bytes, 0);
    for token in &tokens {
        match find_member(bytes, at, token) {
            Some(found) => at = found,
            None => break,
        }
    }
    Some(line_column(text, at))
}

/// The 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or(text);
    let line = before.matches('\n').count().saturating_add(1);
    let start = before.rfind('\n').map_or(0, |n| n.saturating_add(1));
    let column = before
        .get(start..)
        .unwrap_or_default()
        .chars()
        .count()
        .saturating_add(1);
    (line, column)
}

/// The offset of the member `token` of the container starting at `at` (a key of an object,
/// an index of an array), at the start of its value.
fn find_member(bytes: &[u8], at: usize, token: &str) -> Option<usize> {
    match bytes.get(at)? {
        b'{' => {
            let mut i = skip_space(bytes, at.saturating_add(1));
            while bytes.get(i) == Some(&b'"') {
                let end = skip_string(bytes, i)?;
                let key = crate::json::parse(bytes.get(i..end)?).ok()?;
                i = skip_space(bytes, end);
                if bytes.get(i) != Some(&b':') {
                    return None;
                }
                let value = skip_space(bytes, i.saturating_add(1));
                if key.as_str() == Some(token) {
                    return Some(value);
                }
                i = skip_space(bytes, skip_value(bytes, value)?);
                if bytes.get(i) == Some(&b',') {
                    i = skip_space(bytes, i.saturating_add(1));
                }
            }
            None
        }
        b'[' => {
            let index: usize = token.parse().ok()?;
            let mut i = skip_space(bytes, at.saturating_add(1));
            for _ in 0..index {
                if bytes.get(i) == Some(&b']') {
                    return None;
                }
                i = skip_space(bytes, skip_value(bytes, i)?);
                if bytes.get(i) != Some(&b',') {
                    return None;
                }
                i = skip_space(bytes, i.saturating_add(1));
            }
            (bytes.get(i) != Some(&b']')).then_some(i)
        }
        _ => None,
    }
}

/// The offset after the JSON white space from `at`.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while bytes
        .get(at)
        .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
    {
        at = at.saturating_add(1);
    }
    at
}

/// The offset after the string starting at `at` (its opening quote).
fn skip_string(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at.saturating_add(1);
    loop {
        match bytes.get(i)? {
            b'"' => return Some(i.saturating_add(1)),
            b'\\' => i = i.saturating_add(2),
            _ => i = i.saturating_add(1),
        }
    }
}

/// The offset after the value starting at `at`.
fn skip_value(bytes: &[u8], at: usize) -> Option<usize> {
    match bytes.get(at)? {
        b'"' => skip_string(bytes, at),
        b'{' | b'[' => {
            // Brackets balance outside strings (the text parsed).
            let mut depth = 0usize;
            let mut i = at;
            loop {
                match bytes.get(i)? {
                    b'"' => {
                        i = skip_string(bytes, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth = depth.saturating_add(1),
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return Some(i.saturating_add(1));
                        }
                    }
                    _ => {}
                }
                i = i.saturating_add(1);
            }
        }
        _ => {
            let rest = bytes.get(at..)?;
            let len = rest
                .iter()
                .position(|b| matches!(b, b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'))
                .unwrap_or(rest.len());
            Some(at.saturating_add(len))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn pointers_are_found_where_their_values_start() {
        let text = "{\n  \"a\": {\"b\": [1, {\"c\": \"x\\\"]\"}, 3]},\n  \"d/e\": true\n}\n";
        assert_eq!(locate(text, ""), Some((1, 1)));
        assert_eq!(locate(text, "/a"), Some((2, 8)));
        assert_eq!(locate(text, "/a/b/1/c"), Some((2, 24)));
        assert_eq!(locate(text, "/a/b/2"), Some((2, 33)));
        assert_eq!(locate(text, "/d~1e"), Some((3, 10)));
        // Not there: the nearest ancestor.
        assert_eq!(locate(text, "/a/b/7"), Some((2, 14)));
        assert_eq!(locate(text, "/zz/y"), Some((1, 1)));
    }
}
