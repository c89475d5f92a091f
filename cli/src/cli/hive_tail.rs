//! `hive status`'s look at the lines of a session's log its state does not fold yet: they are
//! replayed onto the state as the next read would, and what would stop that read is said.

use statecore::json;

/// The name of a session's log, next to its `STATE.json`.
pub(super) const LOG: &str = "EVENTS.jsonl";

/// What is wrong with the lines of the log the state (`text`, folding `offset` bytes) does not
/// fold yet, read from one byte before the offset (`page`): they are replayed onto the state
/// as the next read would; `None` when they replay (or there are none).
pub(super) fn unfolded(
    text: &str,
    page: &super::host::Page<'_>,
    offset: u64,
    id: &str,
) -> Option<String> {
    if page.size < offset {
        return Some(format!(
            "the state folds {offset} bytes but {LOG} holds {}: the next read rebuilds the \
             state from the log (keeping a copy)",
            page.size
        ));
    }
    if page.size == offset {
        return None;
    }
    let bytes = page.text.as_bytes();
    if bytes.first() != Some(&b'\n') {
        return Some(format!(
            "the state's log_offset {offset} falls inside a line of {LOG} (another writer's \
             line): the next read rebuilds the state from the whole log"
        ));
    }
    let state = json::parse_str(text).ok()?;
    let mut replay = statecore::hive::Replay::new(id, Some(state), offset, false).ok()?;
    let fed = replay.feed(bytes.get(1..).unwrap_or_default());
    let result = match (fed, page.last) {
        (Err(e), _) => Err(e),
        (Ok(()), true) => replay.finish().map(|_| ()),
        (Ok(()), false) => Ok(()),
    };
    result.err().map(|e| {
        // Its line is counted from the offset here: the message without it.
        let message = e
            .message
            .split_once(" of the log: ")
            .map_or(e.message.as_str(), |(_, m)| m);
        let message = message
            .split("; `statecore log repair")
            .next()
            .unwrap_or(message);
        format!(
            "a line after the state's offset is refused ({}: {}); every read and step fails \
             until `statecore log repair {LOG}` sets it aside (`statecore validate` names its \
             line)",
            e.code.as_str(),
            message
        )
    })
}
