//! What the viewer's server reads of a file and which of its streams it keeps (docs/viewer.md
//! § Bounds): the decisions that keep its memory under a bound whatever the watched directory
//! holds (links, FIFOs, devices, huge files and logs) and however slowly its clients read.
//! The host gathers the facts (an `lstat`, the frames each stream still holds) and does what
//! these say.

use statecore::checked::Target;
use statecore::json::MAX_DOCUMENT_BYTES;
use statecore::{Map, Value};
use std::collections::BTreeMap;

/// A log is sent as its last bytes, at most this many (from the first line that starts in them).
pub const LOG_WINDOW: u64 = 4 * 1024 * 1024;
/// The most bytes of events (the files' current versions, base64) the server holds to send.
pub const HELD_BYTES: u64 = 48 * 1024 * 1024;
/// The most bytes of older versions that streams which do not read may keep held.
pub const STALE_BYTES: u64 = 24 * 1024 * 1024;
/// The bound the server's resident memory stays under (what the tests measure).
pub const MEMORY_BYTES: u64 = 256 * 1024 * 1024;
/// What an event adds to a file's bytes besides their base64 (its path, role, group...).
const FRAME_OVERHEAD: u64 = 4 * 1024;

/// The bytes of the event that carries `length` bytes of a file (base64, and its fields).
pub fn frame_bytes(length: u64) -> u64 {
    length
        .saturating_add(2)
        .checked_div(3)
        .unwrap_or(0)
        .saturating_mul(4)
        .saturating_add(FRAME_OVERHEAD)
}

/// A refusal: the file is shown as refused, with `code` and `message`, and not read.
fn refuse(code: &str, message: String) -> Value {
    let mut map = Map::new();
    map.insert("action".into(), Value::from("refuse"));
    map.insert("code".into(), Value::from(code));
    map.insert("message".into(), Value::from(message));
    Value::Object(map)
}

/// What to read of a file the viewer shows, given what an `lstat` of it says (`ViewReadFacts`:
/// `path`, `type`, `size`, and the event bytes `held` for the other files; whether it is a log
/// is its path's): `{action: "read", offset, length, tail}` (`tail`: the bytes start inside the log,
/// so the host drops them up to the first line break), or `{action: "refuse", code, message}`
/// for a file that is not a regular one (`E_FILE_TYPE`: a link is never followed; a FIFO or
/// device never opened), a document over the library's limit (`E_LIMIT`), or one the server
/// could not hold with the others (`E_VIEW_BUDGET`).
pub fn plan_read(facts: &Value) -> Value {
    let path = facts.get("path").and_then(Value::as_str).unwrap_or("");
    let kind = facts.get("type").and_then(Value::as_str).unwrap_or("");
    let size = facts.get("size").and_then(Value::as_u64).unwrap_or(0);
    let log = matches!(
        statecore::checked::places::target_under(path),
        Some(Target::Log(..))
    );
    let held = facts.get("held").and_then(Value::as_u64).unwrap_or(0);
    if kind != "file" {
        let what = if kind.is_empty() {
            "special file"
        } else {
            kind
        };
        return refuse(
            "E_FILE_TYPE",
            format!(
                "{path} is a {what}, not a regular file: the viewer shows regular files only \
                 (it never follows a link, nor opens a FIFO or a device); put the file itself there"
            ),
        );
    }
    let limit = MAX_DOCUMENT_BYTES as u64;
    if !log && size > limit {
        return refuse(
            "E_LIMIT",
            format!(
                "{path} is {size} bytes, over the {limit} a document may have: the viewer does \
                 not read it (as no statecore reader does)"
            ),
        );
    }
    let offset = if log {
        size.saturating_sub(LOG_WINDOW)
    } else {
        0
    };
    let length = size.saturating_sub(offset);
    let needed = frame_bytes(length);
    if held.saturating_add(needed) > HELD_BYTES {
        return refuse(
            "E_VIEW_BUDGET",
            format!(
                "{path} ({size} bytes) is not shown: the viewer holds at most {HELD_BYTES} bytes \
                 of files to send and the others take {held}; view a smaller directory"
            ),
        );
    }
    let mut map = Map::new();
    map.insert("action".into(), Value::from("read"));
    map.insert("offset".into(), Value::from(offset));
    map.insert("length".into(), Value::from(length));
    map.insert("tail".into(), Value::from(offset > 0));
    Value::Object(map)
}

/// One frame a stream still holds: `(id, bytes, current)`.
type Held<'v> = (&'v str, u64, bool);

/// A stream: `(queued, behind, frames)` (`behind`: versions made since its frame was written).
type Stream<'v> = (u64, u64, Vec<Held<'v>>);

/// The frames each client holds, read from the host's list.
fn held_frames(clients: &Value) -> Vec<Stream<'_>> {
    let list = clients.as_array().map(Vec::as_slice).unwrap_or_default();
    list.iter()
        .map(|client| {
            let queued = client.get("queued").and_then(Value::as_u64).unwrap_or(0);
            let behind = client.get("behind").and_then(Value::as_u64).unwrap_or(0);
            let frames = client
                .get("frames")
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|frame| {
                    (
                        frame.get("id").and_then(Value::as_str).unwrap_or(""),
                        frame.get("bytes").and_then(Value::as_u64).unwrap_or(0),
                        frame
                            .get("current")
                            .and_then(Value::as_bool)
                            .unwrap_or(false),
                    )
                })
                .collect();
            (queued, behind, frames)
        })
        .collect()
}

/// The older frames the clients hold, by id: their bytes and how many times they are held.
fn stale_frames<'v>(clients: &[Stream<'v>]) -> BTreeMap<&'v str, (u64, u64)> {
    let mut held: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for (_, _, frames) in clients {
        for (id, bytes, current) in frames {
            if !*current {
                let entry = held.entry(*id).or_insert((*bytes, 0));
                entry.1 = entry.1.saturating_add(1);
            }
        }
    }
    held
}

/// Which streams to drop (`ViewClient` list: each stream's `queued` bytes, not yet taken by its
/// reader, how many file versions the server made since its frame was written (`behind`), and
/// the `frames` it still holds, each with its `id`, `bytes` and whether it is the file's
/// `current` version): none while the distinct older versions they hold take at most
/// [`STALE_BYTES`]; past that, the streams holding one, the longest stuck first (most versions
/// behind: a page that reads is at most a version or two behind, one that does not read falls
/// further behind with every change), then the most bytes queued, then the earliest in the
/// list, until they do. A stream is never given more than one frame it has not
/// taken (the host waits for it to drain, and sends each file's latest version then), so what a
/// stream that does not read can hold is its frames in flight: current ones are shared with
/// the server's, older ones are counted here. `{drop: [index], stale_bytes}`.
pub fn backlog(clients: &Value) -> Value {
    let clients = held_frames(clients);
    let mut dropped = vec![false; clients.len()];
    let mut order: Vec<usize> = (0..clients.len())
        .filter(|&i| {
            clients
                .get(i)
                .is_some_and(|(_, _, frames)| frames.iter().any(|(_, _, current)| !current))
        })
        .collect();
    order.sort_unstable_by_key(|&i| {
        let (queued, behind) = clients
            .get(i)
            .map_or((0, 0), |(queued, behind, _)| (*queued, *behind));
        (std::cmp::Reverse(behind), std::cmp::Reverse(queued), i)
    });
    let mut held = stale_frames(&clients);
    let mut stale = held
        .values()
        .fold(0u64, |sum, (bytes, _)| sum.saturating_add(*bytes));
    for i in order {
        if stale <= STALE_BYTES {
            break;
        }
        if let Some(slot) = dropped.get_mut(i) {
            *slot = true;
        }
        let frames = clients
            .get(i)
            .map(|(_, _, f)| f.as_slice())
            .unwrap_or_default();
        for (id, _, current) in frames {
            if *current {
                continue;
            }
            if let Some((bytes, holders)) = held.get_mut(id) {
                *holders = holders.saturating_sub(1);
                if *holders == 0 {
                    stale = stale.saturating_sub(*bytes);
                }
            }
        }
    }
    let drop: Vec<Value> = dropped
        .iter()
        .enumerate()
        .filter(|(_, d)| **d)
        .map(|(i, _)| Value::from(i))
        .collect();
    let mut map = Map::new();
    map.insert("drop".into(), Value::Array(drop));
    map.insert("stale_bytes".into(), Value::from(stale));
    Value::Object(map)
}
