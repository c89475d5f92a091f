//! Passwords kept out of every store message (docs/store.md § Store URLs).

use super::SCHEMES;

/// `text` with every password a store URL or connection string in it holds shown as `***`:
/// the password of `postgresql://user:password@host` (or `postgres://`) and the value of a
/// libpq `password=` keyword. Every store message and error detail goes through it, so no
/// message shows a password (docs/store.md § Store URLs).
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains("://") && !text.contains("password") {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let url = SCHEMES
            .iter()
            .filter_map(|s| rest.find(s).map(|at| (at, s.len())))
            .min();
        let keyword = rest.find("password=").map(|at| (at, "password=".len()));
        let next = match (url, keyword) {
            (Some(u), Some(k)) => Some(if u.0 <= k.0 { (u, true) } else { (k, false) }),
            (Some(u), None) => Some((u, true)),
            (None, Some(k)) => Some((k, false)),
            (None, None) => None,
        };
        let Some(((at, len), is_url)) = next else {
            out.push_str(rest);
            break;
        };
        let (before, from) = rest.split_at(at);
        out.push_str(before);
        let (head, tail) = from.split_at(len.min(from.len()));
        out.push_str(head);
        if is_url {
            // The authority: up to the path, a space or a quote.
            let end = tail
                .find(|c: char| c == '/' || c.is_whitespace() || c == '"' || c == '\'')
                .unwrap_or(tail.len());
            let (authority, after) = tail.split_at(end);
            match authority.rsplit_once('@') {
                Some((user, host)) => {
                    match user.split_once(':') {
                        Some((name, _password)) => {
                            out.push_str(name);
                            out.push_str(":***");
                        }
                        None => out.push_str(user),
                    }
                    out.push('@');
                    out.push_str(host);
                }
                None => out.push_str(authority),
            }
            rest = after;
        } else {
            // A keyword's value: quoted ('...', with \' inside) or up to a space.
            let end = if let Some(quoted) = tail.strip_prefix('\'') {
                let mut escaped = false;
                let close = quoted.char_indices().find(|&(_, c)| {
                    let done = c == '\'' && !escaped;
                    escaped = c == '\\' && !escaped;
                    done
                });
                close.map_or(tail.len(), |(i, _)| i.saturating_add(2))
            } else {
                tail.find(char::is_whitespace).unwrap_or(tail.len())
            };
            out.push_str("***");
            rest = tail.get(end..).unwrap_or_default();
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn passwords_are_never_shown() {
        let cases = [
            ("postgresql://u:pw@h:5/db/k", "postgresql://u:***@h:5/db/k"),
            ("postgres://u:p:w@h/db", "postgres://u:***@h/db"),
            (
                "to \"postgresql://u:s3@h/db\" (x)",
                "to \"postgresql://u:***@h/db\" (x)",
            ),
            ("postgresql://u@h/db", "postgresql://u@h/db"),
            ("postgresql://h/db", "postgresql://h/db"),
            (
                "host=h password=s3cr3t port=1",
                "host=h password=*** port=1",
            ),
            ("password='a b\\' c' dbname=x", "password=*** dbname=x"),
            ("password=", "password=***"),
            ("postgresql://", "postgresql://"),
            ("no secret here", "no secret here"),
            (
                "a://x:y@z and postgresql://a:b@c",
                "a://x:y@z and postgresql://a:***@c",
            ),
        ];
        for (text, shown) in cases {
            assert_eq!(redact(text), shown, "{text}");
        }
    }
}
