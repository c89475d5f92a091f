//! `view`: how the viewer's server answers a request (`statecore_cli::view::route`, the
//! table's `view_request`; docs/viewer.md § Security).
//!
//! Input: `method \0 path \0 host \0 origin \0 token \0 content_type \0 body \0 server`: the
//! request's method and target, its headers by meaning and its body (each piece as lossy
//! UTF-8; a piece that is the single byte `\x01`, or missing, is a header not sent), then the
//! server's facts as JSON (`{port, token, write, assets, projects}`; not JSON: a default
//! server with writes allowed). Laws:
//! - the answer is always an object with a status, a route of `ViewRouteName` and the headers
//!   every answer carries (no sniffing, no caching, the content security policy, no referrer);
//! - a refusal has a documented stable `E_VIEW_*` code, a status ≥ 400, a message, and `allow`
//!   exactly when it is 405;
//! - a route served is 200 and only for the server's own `Host` (and `Origin` when sent), by
//!   the route's methods; an asset is a flat name (no `/`, `..`, `%` or leading `.`) among the
//!   bundle's names when they are given; a dismissal only with writes allowed, this run's
//!   token, a JSON content type, a body within `view_body_bytes`, and a project among those
//!   found when they are given;
//! - the answer is deterministic, and `view_request` through the operation table gives the
//!   same answer or (for facts that are not a `ViewServer` / `ViewRequest`) a well-formed
//!   error.

use crate::input::{self, SEP};
use crate::laws;
use crate::seeds::Case;
use statecore::ops::{Args, Out};
use statecore::{json, Map, Value};
use statecore_cli::TABLE;

/// The refusal codes docs/viewer.md § Security lists.
const CODES: &[&str] = &[
    "E_VIEW_HOST",
    "E_VIEW_ORIGIN",
    "E_VIEW_NOT_FOUND",
    "E_VIEW_METHOD",
    "E_VIEW_READ_ONLY",
    "E_VIEW_TOKEN",
    "E_VIEW_MEDIA_TYPE",
    "E_VIEW_TOO_LARGE",
    "E_VIEW_BODY",
];

/// The request fields, in input order, after the method and the path.
const HEADERS: &[&str] = &["host", "origin", "token", "content_type", "body"];

/// A piece that stands for a header not sent.
const ABSENT: &[u8] = &[1];

/// The server used when the input's last piece is not a JSON object.
fn default_server() -> Value {
    statecore::json!({
        "port": 7357,
        "token": "0123456789abcdef0123456789abcdef",
        "write": true,
        "assets": ["index.html", "viewer.js", "viewer.css", "statecore_bg.wasm"],
        "projects": ["app", ""]
    })
}

/// Runs the target on one input.
pub fn run(data: &[u8]) {
    let pieces = input::split(data, 2 + HEADERS.len() + 1);
    let text = |i: usize| {
        pieces
            .get(i)
            .map(|p| String::from_utf8_lossy(p).into_owned())
    };
    let mut request = Map::new();
    request.insert("method".into(), Value::from(text(0).unwrap_or_default()));
    request.insert("path".into(), Value::from(text(1).unwrap_or_default()));
    for (i, name) in HEADERS.iter().enumerate() {
        match pieces.get(2 + i) {
            Some(piece) if *piece != ABSENT => {
                request.insert((*name).into(), Value::from(text(2 + i).unwrap_or_default()));
            }
            _ => {}
        }
    }
    let request = Value::Object(request);
    let server = pieces
        .get(2 + HEADERS.len())
        .and_then(|p| input::json(p))
        .filter(Value::is_object)
        .unwrap_or_else(default_server);

    let answer = statecore_cli::view::route(&request, &server);
    assert_eq!(
        answer,
        statecore_cli::view::route(&request, &server),
        "view_request is not deterministic"
    );
    check(&request, &server, &answer);
    laws::round_trip("view_request", &answer);

    let op = TABLE
        .find("view_request")
        .expect("view_request is in the table");
    match TABLE.call(op, Args::values(vec![request.clone(), server.clone()])) {
        Ok(Out::Json(v)) => assert_eq!(v, answer, "the table's view_request differs"),
        Ok(other) => panic!("view_request returned {other:?}"),
        Err(e) => laws::error("view_request", &e),
    }
}

/// A string field of `v`.
fn text<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key).and_then(Value::as_str)
}

/// Whether `host` is the server's own address.
fn own(host: &str, port: u64) -> bool {
    let host = host.to_ascii_lowercase();
    ["127.0.0.1", "localhost", "[::1]"]
        .iter()
        .any(|name| host == format!("{name}:{port}"))
}

/// The laws of one answer.
fn check(request: &Value, server: &Value, answer: &Value) {
    let shown = || format!("{} -> {}", laws::show(request), laws::show(answer));
    let status = answer.get("status").and_then(Value::as_u64);
    let status = status.unwrap_or_else(|| panic!("no status: {}", shown()));
    assert!((200..600).contains(&status), "status {status}: {}", shown());
    let headers = answer.get("headers").and_then(Value::as_object);
    let headers = headers.unwrap_or_else(|| panic!("no headers: {}", shown()));
    for (key, starts) in [
        ("Cache-Control", "no-store"),
        ("Content-Security-Policy", "default-src 'self'"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        let value = headers.get(key).and_then(Value::as_str).unwrap_or("");
        assert!(
            value.starts_with(starts),
            "header {key} is {value:?}: {}",
            shown()
        );
    }
    let route = text(answer, "route").unwrap_or("");
    if route == "refused" {
        let code = text(answer, "code").unwrap_or("");
        assert!(
            CODES.contains(&code),
            "undocumented code {code:?}: {}",
            shown()
        );
        assert!(status >= 400, "a refusal with status {status}: {}", shown());
        assert!(
            !text(answer, "message").unwrap_or("").is_empty(),
            "a refusal without a message: {}",
            shown()
        );
        assert_eq!(
            status == 405,
            answer.get("allow").is_some(),
            "`allow` iff 405: {}",
            shown()
        );
        return;
    }
    assert_eq!(status, 200, "a route served with {status}: {}", shown());
    let port = server.get("port").and_then(Value::as_u64).unwrap_or(0);
    let host = text(request, "host");
    assert!(
        host.is_some_and(|h| own(h, port)),
        "served to a foreign host: {}",
        shown()
    );
    if let Some(origin) = text(request, "origin") {
        assert!(
            origin.strip_prefix("http://").is_some_and(|o| own(o, port)),
            "served to a foreign origin: {}",
            shown()
        );
    }
    let method = text(request, "method").unwrap_or("");
    let names = |key: &str| -> Option<Vec<String>> {
        let list = server.get(key)?.as_array()?;
        Some(
            list.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
        )
    };
    match route {
        "page" => assert!(
            matches!(method, "GET" | "HEAD"),
            "page by {method}: {}",
            shown()
        ),
        "events" => assert_eq!(method, "GET", "events by {method}: {}", shown()),
        "asset" => {
            assert!(
                matches!(method, "GET" | "HEAD"),
                "asset by {method}: {}",
                shown()
            );
            let name = text(answer, "asset").unwrap_or("");
            assert!(
                !name.is_empty()
                    && !name.contains(['/', '\\', '%'])
                    && !name.contains("..")
                    && !name.starts_with('.'),
                "asset name {name:?}: {}",
                shown()
            );
            if let Some(assets) = names("assets") {
                assert!(
                    assets.iter().any(|a| a == name),
                    "asset not bundled: {}",
                    shown()
                );
            }
        }
        "dismiss" => {
            assert_eq!(method, "POST", "dismiss by {method}: {}", shown());
            assert_eq!(
                server.get("write"),
                Some(&Value::Bool(true)),
                "dismiss read-only: {}",
                shown()
            );
            let token = text(server, "token").unwrap_or("");
            assert!(
                !token.is_empty() && text(request, "token") == Some(token),
                "dismiss without the token: {}",
                shown()
            );
            let media = text(request, "content_type").unwrap_or("");
            assert!(
                media
                    .split(';')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .eq_ignore_ascii_case("application/json"),
                "dismiss without JSON: {}",
                shown()
            );
            let body = text(request, "body").unwrap_or("");
            assert!(
                body.len() <= 16 * 1024,
                "dismiss with a large body: {}",
                shown()
            );
            let project = text(answer, "project").unwrap_or("");
            assert!(
                !text(answer, "id").unwrap_or("").is_empty(),
                "dismiss without an id: {}",
                shown()
            );
            if let Some(projects) = names("projects") {
                assert!(
                    projects.iter().any(|p| p == project),
                    "dismiss of an unknown project: {}",
                    shown()
                );
            }
        }
        other => panic!("unknown route {other:?}: {}", shown()),
    }
}

/// Seeds from a `view_request` conformance case: its request and server as pieces.
pub fn seeds(case: &Case, out: &mut Vec<Vec<u8>>) {
    if case.op != "view_request" {
        return;
    }
    let (Some(request), Some(server)) = (case.args.first(), case.args.get(1)) else {
        return;
    };
    let mut pieces: Vec<Vec<u8>> = vec![
        text(request, "method").unwrap_or("").as_bytes().to_vec(),
        text(request, "path").unwrap_or("").as_bytes().to_vec(),
    ];
    for name in HEADERS {
        pieces.push(text(request, name).map_or(ABSENT.to_vec(), |t| t.as_bytes().to_vec()));
    }
    pieces.push(json::serialize_compact(server).into_bytes());
    out.push(input::join(pieces.iter()));
    // The same request to the default server.
    pieces.pop();
    let mut bare = input::join(pieces.iter());
    bare.push(SEP);
    out.push(bare);
}
