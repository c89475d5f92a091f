//! How the viewer's server answers a request (docs/viewer.md § Security): only to its own
//! address (the `Host` and `Origin` checks that stop DNS rebinding and other sites' pages),
//! only the routes it has (no part of a request names a file: an asset is a name the host
//! looks up among the files it bundled), and writes only with the run's token.

use statecore::json;
use statecore::{Map, Value};

/// The most bytes of a request's body the viewer reads (a host reads one more to tell).
pub const BODY_LIMIT: u64 = 16 * 1024;

/// The headers of every answer: no sniffing, no caching, no framing, nothing but its own
/// scripts (wasm compiled from its own file), no referrer.
const HEADERS: &[(&str, &str)] = &[
    ("Cache-Control", "no-store"),
    (
        "Content-Security-Policy",
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' \
         'unsafe-inline'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; \
         form-action 'none'; frame-ancestors 'none'",
    ),
    ("Referrer-Policy", "no-referrer"),
    ("X-Content-Type-Options", "nosniff"),
];

/// The names its own address has (with `:PORT`).
const LOOPBACK: &[&str] = &["127.0.0.1", "localhost", "[::1]"];

/// Content types of the bundled files, by extension.
const TYPES: &[(&str, &str)] = &[
    (".html", "text/html; charset=utf-8"),
    (".js", "text/javascript; charset=utf-8"),
    (".mjs", "text/javascript; charset=utf-8"),
    (".css", "text/css; charset=utf-8"),
    (".wasm", "application/wasm"),
    (".json", "application/json"),
    (".svg", "image/svg+xml"),
    (".txt", "text/plain; charset=utf-8"),
    (".map", "application/json"),
];

/// A request, read from the host's object.
struct Request<'r> {
    method: &'r str,
    target: &'r str,
    host: Option<&'r str>,
    origin: Option<&'r str>,
    token: Option<&'r str>,
    content_type: Option<&'r str>,
    body: Option<&'r str>,
}

/// The server's facts.
struct Server<'s> {
    port: u64,
    token: &'s str,
    write: bool,
    assets: Option<Vec<&'s str>>,
    projects: Option<Vec<&'s str>>,
    /// What the server is called in a refusal's message (`the viewer` by default).
    name: &'s str,
}

/// The answer for `request` (`ViewRequest`) to a server of `server` (`ViewServer`): a route
/// to serve (`page`, `asset` with its name and content type, `events`, `dismiss` with the
/// checked body) or `refused` with the status, a stable `code` and a message; each with the
/// headers every answer carries.
pub fn route(request: &Value, server: &Value) -> Value {
    fn text<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
        value.get(key).and_then(Value::as_str)
    }
    let req = Request {
        method: text(request, "method").unwrap_or(""),
        target: text(request, "path").unwrap_or(""),
        host: text(request, "host"),
        origin: text(request, "origin"),
        token: text(request, "token"),
        content_type: text(request, "content_type"),
        body: text(request, "body"),
    };
    let names = |key: &str| {
        let list = server.get(key).and_then(Value::as_array);
        list.map(|l| l.iter().filter_map(Value::as_str).collect::<Vec<&str>>())
    };
    let srv = Server {
        port: server.get("port").and_then(Value::as_u64).unwrap_or(0),
        token: text(server, "token").unwrap_or(""),
        write: server.get("write").and_then(Value::as_bool) == Some(true),
        assets: names("assets"),
        projects: names("projects"),
        name: text(server, "name").unwrap_or("the viewer"),
    };
    with_headers(decide(&req, &srv).unwrap_or_else(|refusal| refusal))
}

/// `answer` with the headers every answer carries.
fn with_headers(mut answer: Value) -> Value {
    if let Value::Object(map) = &mut answer {
        let mut headers = Map::new();
        for (key, value) in HEADERS {
            headers.insert((*key).into(), Value::from(*value));
        }
        map.insert("headers".into(), Value::Object(headers));
    }
    answer
}

/// How the viewer answers a write its host could not carry out (`error`: the host's error,
/// `{code, message}`): the lock held too long by another writer is 503 (try again later);
/// anything else is 409, the file's state refusing the write (an inbox that is not a list of
/// items, a file that does not validate): the request itself was checked before.
pub fn failure(error: &Value) -> Value {
    let code = error
        .get("code")
        .and_then(Value::as_str)
        .unwrap_or("E_VIEW_WRITE");
    let message = error.get("message").and_then(Value::as_str).unwrap_or("");
    let status = match code {
        "E_LOCK_TIMEOUT" | "E_LOCK_FOREIGN" => 503,
        _ => 409,
    };
    with_headers(refuse(status, code, message.to_owned()))
}

/// A refusal: `{status, route: "refused", code, message}`.
fn refuse(status: u64, code: &str, message: String) -> Value {
    let mut map = Map::new();
    map.insert("status".into(), Value::from(status));
    map.insert("route".into(), Value::from("refused"));
    map.insert("code".into(), Value::from(code));
    map.insert("message".into(), Value::from(message));
    Value::Object(map)
}

/// A route served with status 200 and `extra` fields.
fn serve(route: &str, extra: &[(&str, Value)]) -> Value {
    let mut map = Map::new();
    map.insert("status".into(), Value::from(200u64));
    map.insert("route".into(), Value::from(route));
    for (key, value) in extra {
        map.insert((*key).into(), value.clone());
    }
    Value::Object(map)
}

/// The viewer's own origin.
fn own(srv: &Server<'_>) -> String {
    format!("http://127.0.0.1:{}", srv.port)
}

/// Whether `host` (a `Host` header, or an origin's host) is the server's own address.
fn is_own(host: &str, srv: &Server<'_>) -> bool {
    let host = host.to_ascii_lowercase();
    LOOPBACK
        .iter()
        .any(|name| host == format!("{name}:{}", srv.port))
}

/// The route, or the refusal.
fn decide(req: &Request<'_>, srv: &Server<'_>) -> Result<Value, Value> {
    let Some(host) = req.host else {
        return Err(refuse(
            400,
            "E_VIEW_HOST",
            format!(
                "a request without a Host header is refused: open {}/",
                own(srv)
            ),
        ));
    };
    if !is_own(host, srv) {
        return Err(refuse(
            403,
            "E_VIEW_HOST",
            format!(
                "{} answers only to its own address, {}/ (this request was for \
                 {host:?}: a page of another name that resolves here, DNS rebinding, is \
                 refused)",
                srv.name,
                own(srv)
            ),
        ));
    }
    if let Some(origin) = req.origin {
        let own_origin = origin
            .strip_prefix("http://")
            .is_some_and(|rest| is_own(rest, srv));
        if !own_origin {
            return Err(refuse(
                403,
                "E_VIEW_ORIGIN",
                format!(
                    "a request from another site's page ({origin:?}) is refused: only {}'s \
                     own page, {}/, may call it",
                    srv.name,
                    own(srv)
                ),
            ));
        }
    }
    let path = req.target.split(['?', '#']).next().unwrap_or("");
    let read = |route: Value| match req.method {
        "GET" | "HEAD" => Ok(route),
        _ => Err(method(req.method, "GET, HEAD")),
    };
    match path {
        "/" => read(serve(
            "page",
            &[("content_type", Value::from("text/html; charset=utf-8"))],
        )),
        "/events" => match req.method {
            "GET" => Ok(serve(
                "events",
                &[("content_type", Value::from("text/event-stream"))],
            )),
            _ => Err(method(req.method, "GET")),
        },
        "/api/inbox/dismiss" => match req.method {
            "POST" => dismiss(req, srv),
            _ => Err(method(req.method, "POST")),
        },
        _ => match path.strip_prefix("/assets/").and_then(asset) {
            Some((name, _)) if srv.assets.as_ref().is_some_and(|a| !a.contains(&name)) => {
                Err(refuse(
                    404,
                    "E_VIEW_NOT_FOUND",
                    format!("no such file in the viewer's bundle: {name:?}"),
                ))
            }
            Some((name, content_type)) => read(serve(
                "asset",
                &[
                    ("asset", Value::from(name)),
                    ("content_type", Value::from(content_type)),
                ],
            )),
            None => Err(not_found(path)),
        },
    }
}

/// `E_VIEW_METHOD` (405) with the methods allowed.
fn method(method: &str, allow: &str) -> Value {
    let mut refusal = refuse(
        405,
        "E_VIEW_METHOD",
        format!("{method:?} is not allowed here (allowed: {allow})"),
    );
    if let Value::Object(map) = &mut refusal {
        map.insert("allow".into(), Value::from(allow));
    }
    refusal
}

/// `E_VIEW_NOT_FOUND` (404).
fn not_found(path: &str) -> Value {
    let shown: String = path.chars().take(200).collect();
    refuse(
        404,
        "E_VIEW_NOT_FOUND",
        format!(
            "no such page: {shown:?} (the viewer serves /, /events and the files of its \
             bundle under /assets/, never a file of the watched directory by its path)"
        ),
    )
}

/// An asset's name and content type: one flat name of letters, digits, `.`, `_` and `-`,
/// not starting with `.`, with a known extension.
fn asset(name: &str) -> Option<(&str, &'static str)> {
    let first_ok = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    let chars_ok = name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !first_ok || !chars_ok || name.contains("..") {
        return None;
    }
    let (_, content_type) = TYPES.iter().find(|(ext, _)| name.ends_with(ext))?;
    Some((name, content_type))
}

/// Whether two tokens are equal, in a time that does not depend on where they differ.
fn same_token(given: &str, expected: &str) -> bool {
    given.len() == expected.len()
        && given
            .bytes()
            .zip(expected.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// `POST /api/inbox/dismiss`: writes allowed, the token, a JSON body
/// `{"project": GROUP, "id": ITEM_ID}`.
fn dismiss(req: &Request<'_>, srv: &Server<'_>) -> Result<Value, Value> {
    if !srv.write || srv.token.is_empty() {
        return Err(refuse(
            403,
            "E_VIEW_READ_ONLY",
            "the viewer is read-only: start it with `statecore view --write` to change files \
             from the page"
                .into(),
        ));
    }
    if !req.token.is_some_and(|t| same_token(t, srv.token)) {
        return Err(refuse(
            403,
            "E_VIEW_TOKEN",
            "a write needs this run's token in the X-Statecore-Token header (the viewer's \
             page has it; a page of another site does not)"
                .into(),
        ));
    }
    let media = req
        .content_type
        .and_then(|c| c.split(';').next())
        .map(|c| c.trim().to_ascii_lowercase());
    if media.as_deref() != Some("application/json") {
        return Err(refuse(
            415,
            "E_VIEW_MEDIA_TYPE",
            "a write's body is JSON: send Content-Type: application/json".into(),
        ));
    }
    let body = req.body.unwrap_or("");
    if u64::try_from(body.len()).map_or(true, |n| n > BODY_LIMIT) {
        return Err(refuse(
            413,
            "E_VIEW_TOO_LARGE",
            format!("a write's body is at most {BODY_LIMIT} bytes"),
        ));
    }
    let (project, id) = dismiss_body(body).map_err(|why| {
        refuse(
            400,
            "E_VIEW_BODY",
            format!("a dismissal is {{\"project\": GROUP, \"id\": ITEM_ID}}: {why}"),
        )
    })?;
    if srv
        .projects
        .as_ref()
        .is_some_and(|p| !p.contains(&project.as_str()))
    {
        return Err(refuse(
            404,
            "E_VIEW_NOT_FOUND",
            format!("no fctry project {project:?} under the watched directory"),
        ));
    }
    Ok(serve(
        "dismiss",
        &[("project", Value::from(project)), ("id", Value::from(id))],
    ))
}

/// The project and item of a dismissal's body, or why it is not one.
fn dismiss_body(body: &str) -> Result<(String, String), String> {
    let value = json::parse(body.as_bytes()).map_err(|e| e.message)?;
    let map = value.as_object().ok_or("the body is not an object")?;
    if let Some(key) = map.keys().find(|k| *k != "project" && *k != "id") {
        return Err(format!("unknown field {key:?}"));
    }
    let field = |key: &str| map.get(key).and_then(Value::as_str).map(str::to_owned);
    let project = field("project").ok_or("`project` (a string) is missing")?;
    let id = field("id")
        .filter(|id| !id.is_empty())
        .ok_or("`id` (a non-empty string) is missing")?;
    Ok((project, id))
}
