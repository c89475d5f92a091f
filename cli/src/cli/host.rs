//! What a command needs from the host and what the host found: the command line's one
//! protocol with the file system (docs/cli.md § How it runs). The core never reads a file: a
//! command asks for files and directory listings, the host answers with facts and runs the
//! command again, until it has everything.

use statecore::{Map, Value};

/// How long a host waits for standard input's first bytes (and, once they come, for each
/// next ones) before it answers a `stdin` need without waiting more, in ms (docs/cli.md §
/// Standard input): a status line run with a standard input that never closes (`sleep 60 |`)
/// returns at once, and one run by a tool that pipes the session JSON reads it.
pub const STDIN_WAIT_MS: i64 = 250;
/// The most bytes of standard input a host reads for a `stdin` need: more is not a session's
/// JSON, and the answer is null (nothing read).
pub const STDIN_MAX_BYTES: i64 = 1024 * 1024;

/// A file as the host found it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum File<'f> {
    /// Its text (UTF-8).
    Text(&'f str),
    /// There is no such file.
    Missing,
    /// It is a directory.
    Directory,
    /// It is not a regular file (a FIFO, a device): statecore does not read it.
    Special,
    /// Its bytes are not UTF-8 text.
    NotText,
    /// The system refused (the error's name: `EACCES`).
    Unreadable(&'f str),
}

impl File<'_> {
    /// Why a path that must name a directory does not: `no such directory`, `not a
    /// directory` (`None`: it is one).
    pub fn not_a_directory(self) -> Option<&'static str> {
        match self {
            File::Directory => None,
            File::Missing => Some("no such directory"),
            _ => Some("not a directory"),
        }
    }
}

/// The facts a host gathered, and what a command still needs.
pub struct Host<'f> {
    files: Option<&'f Map>,
    dirs: Option<&'f Map>,
    writes: Option<&'f Map>,
    stdin: Option<&'f Value>,
    vars: Option<&'f Map>,
    tmux: Option<&'f Value>,
    random: Option<&'f Value>,
    now: Option<&'f str>,
    cwd: Option<&'f str>,
    platform: Option<&'f str>,
    utc_offset: i64,
    serves: bool,
    event: Option<&'f Map>,
    state: Option<&'f Value>,
    carried: Option<&'f Map>,
    carry: Map,
    progress: Option<String>,
    shows_progress: bool,
    needs: Vec<Value>,
}

/// A page of a file: its text from byte `offset`, cut at a line's end unless it is the file's
/// end (docs/cli.md § Logs read in pages).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page<'f> {
    /// Its text (UTF-8, whole lines unless `last`).
    pub text: &'f str,
    /// Where it starts in the file, in bytes.
    pub offset: u64,
    /// The file's size when it was read, in bytes.
    pub size: u64,
    /// True when it is the file's end.
    pub last: bool,
}

impl<'f> Host<'f> {
    /// The facts of a request (`{files, dirs, writes, stdin}`; `None`: none yet) and its
    /// environment (`env`: the time now, the working directory).
    pub fn new(facts: Option<&'f Map>, env: Option<&'f Map>) -> Host<'f> {
        let part = |key: &str| facts.and_then(|f| f.get(key)).and_then(Value::as_object);
        let env_map = env;
        let env = |key: &str| env_map.and_then(|e| e.get(key)).and_then(Value::as_str);
        Host {
            files: part("files"),
            dirs: part("dirs"),
            writes: part("writes"),
            stdin: facts.and_then(|f| f.get("stdin")),
            vars: part("env"),
            tmux: facts.and_then(|f| f.get("tmux")),
            random: facts.and_then(|f| f.get("random")),
            now: env("now"),
            cwd: env("cwd"),
            platform: env("platform"),
            utc_offset: env_map
                .and_then(|e| e.get("utc_offset"))
                .and_then(Value::as_i64)
                .unwrap_or(0),
            serves: env_map
                .and_then(|e| e.get("serves"))
                .and_then(Value::as_bool)
                == Some(true),
            event: facts
                .and_then(|f| f.get("event"))
                .and_then(Value::as_object),
            state: facts.and_then(|f| f.get("state")),
            carried: facts
                .and_then(|f| f.get("carry"))
                .and_then(Value::as_object),
            carry: Map::new(),
            progress: None,
            shows_progress: env_map
                .and_then(|e| e.get("progress"))
                .and_then(Value::as_bool)
                == Some(true),
            needs: Vec::new(),
        }
    }

    /// The file at `path`; `None` when the host has not read it yet (it is then asked for).
    pub fn read(&mut self, path: &str) -> Option<File<'f>> {
        self.read_as(path, Need::new("read", path))
    }

    /// The nearest directory from `start` up that holds `name` (a file or a directory), with
    /// what is there: every directory is looked at in one go. `Some(None)`: none does; `None`
    /// until the host has read them all.
    pub fn nearest(&mut self, start: &str, name: &str) -> Option<Option<(String, File<'f>)>> {
        let up = super::paths::ancestors(start);
        let marks: Vec<Option<File<'f>>> = up
            .iter()
            .map(|dir| self.read(&super::paths::child(dir, name)))
            .collect();
        let mut found = None;
        for (dir, mark) in up.into_iter().zip(marks) {
            let mark = mark?;
            if found.is_none() && matches!(mark, File::Directory | File::Text(_)) {
                found = Some((dir, mark));
            }
        }
        Some(found)
    }

    /// The beginning of the file at `path`: its first `limit` bytes, cut back to their last
    /// line break when the file is longer (the whole file when it is not).
    pub fn read_head(&mut self, path: &str, limit: usize) -> Option<File<'f>> {
        self.read_as(
            path,
            Need::new("read", path).with("limit", Value::from(limit as u64)),
        )
    }

    /// Standard input's text (`Some(None)`: none, a terminal); `None` when the host has not
    /// read it yet (it is then asked for).
    pub fn stdin(&mut self) -> Option<Option<&'f str>> {
        match self.stdin {
            Some(text) => Some(text.as_str()),
            None => {
                self.need(Need::new("stdin", "-"));
                None
            }
        }
    }

    /// The directory the command runs in (absolute), if the host gave it.
    pub fn cwd(&self) -> Option<&'f str> {
        self.cwd
    }

    /// The operating system (`linux`, `darwin`), if the host gave it.
    pub fn platform(&self) -> Option<&'f str> {
        self.platform
    }

    /// Whether the host can serve the viewer (`env.serves`: the npm package's command).
    pub fn serves(&self) -> bool {
        self.serves
    }

    /// The local time's offset from UTC, in minutes (0 when the host did not say).
    pub fn utc_offset(&self) -> i64 {
        self.utc_offset
    }

    /// The local time of day now (`HH:MM:SS`, `now` moved by `utc_offset`), for the lines a
    /// watching command prints; empty when the host gave no time.
    pub fn clock(&self) -> String {
        let Some(ms) = self
            .now
            .and_then(|n| statecore::time::parse_timestamp(n).ok())
        else {
            return String::new();
        };
        let local = ms
            .div_euclid(1000)
            .saturating_add(self.utc_offset.saturating_mul(60));
        let day = local.rem_euclid(86_400);
        format!("{:02}:{:02}:{:02}", day / 3600, day % 3600 / 60, day % 60)
    }

    /// What woke a continuing command: `(path, timer)` of `facts.event`; `None` on its
    /// first call.
    pub fn event(&self) -> Option<(Option<&'f str>, Option<&'f str>)> {
        self.event.map(|e| {
            (
                e.get("path").and_then(Value::as_str),
                e.get("timer").and_then(Value::as_str),
            )
        })
    }

    /// What a continuing command kept from its previous answer (`facts.state`).
    pub fn state(&self) -> Option<&'f Value> {
        self.state
    }

    /// The environment variable `name` (`Some(None)`: not set, or empty); `None` when the host
    /// has not read it yet (it is then asked for).
    pub fn var(&mut self, name: &str) -> Option<Option<&'f str>> {
        match self.vars.and_then(|v| v.get(name)) {
            Some(value) => Some(value.as_str().filter(|v| !v.is_empty())),
            None => {
                self.need(Need::new("env", name));
                None
            }
        }
    }

    /// The names of the tmux sessions; `None` when the host has not listed them yet (they are
    /// then asked for).
    pub fn tmux(&mut self) -> Option<Vec<&'f str>> {
        match self.tmux {
            Some(list) => Some(
                list.as_array()
                    .map(|l| l.iter().filter_map(Value::as_str).collect())
                    .unwrap_or_default(),
            ),
            None => {
                self.need(Need::new("tmux", "-"));
                None
            }
        }
    }

    /// Random bytes from the host (for a new id); `None` when it has not drawn them yet (they
    /// are then asked for). Hex digits that do not pair up are left out.
    pub fn random(&mut self) -> Option<Vec<u8>> {
        let Some(hex) = self.random else {
            self.need(Need::new("random", "-"));
            return None;
        };
        let digits: Vec<u32> = hex
            .as_str()
            .unwrap_or_default()
            .chars()
            .filter_map(|c| c.to_digit(16))
            .collect();
        let bytes = digits
            .chunks_exact(2)
            .filter_map(|pair| match pair {
                [high, low] => u8::try_from(high.saturating_mul(16).saturating_add(*low)).ok(),
                _ => None,
            })
            .collect();
        Some(bytes)
    }

    /// When the file at `path` was last modified (ms since 1970), if the host read it and
    /// said.
    pub fn modified(&self, path: &str) -> Option<i64> {
        self.files
            .and_then(|f| f.get(path))
            .and_then(|fact| fact.get("mtime"))
            .and_then(Value::as_i64)
    }

    fn read_as(&mut self, path: &str, need: Need) -> Option<File<'f>> {
        let Some(fact) = self.files.and_then(|f| f.get(path)) else {
            self.need(need);
            return None;
        };
        if let Some(text) = fact.get("text").and_then(Value::as_str) {
            return Some(File::Text(text));
        }
        let message = fact.get("message").and_then(Value::as_str).unwrap_or("");
        Some(match fact.get("error").and_then(Value::as_str) {
            Some("missing") => File::Missing,
            Some("directory") => File::Directory,
            Some("special") => File::Special,
            Some("not_text") => File::NotText,
            _ => File::Unreadable(message),
        })
    }

    /// The files named one of `names` under the directory `dir` (paths that start with
    /// `dir`), or the host's message when it could not be listed; `None` when the host has
    /// not listed it yet (it is then asked for).
    pub fn list(&mut self, dir: &str, names: &[&str]) -> Option<Result<Vec<&'f str>, &'f str>> {
        self.listing(dir, names, 0)
    }

    /// As [`Host::list`], with the directories at most `depth` levels below `dir` too, as
    /// their paths and a final `/` (`<dir>/a/b/` is 2 levels below): a directory that holds
    /// none of the files is seen, and the deep trees below are not listed.
    pub fn list_with_dirs(
        &mut self,
        dir: &str,
        names: &[&str],
        depth: u64,
    ) -> Option<Result<Vec<&'f str>, &'f str>> {
        self.listing(dir, names, depth)
    }

    fn listing(
        &mut self,
        dir: &str,
        names: &[&str],
        dirs: u64,
    ) -> Option<Result<Vec<&'f str>, &'f str>> {
        let Some(fact) = self.dirs.and_then(|d| d.get(dir)) else {
            let names = names.iter().map(|n| Value::from(*n)).collect();
            let need = Need::new("list", dir).with("names", Value::Array(names));
            self.need(if dirs > 0 {
                need.with("dirs", Value::from(dirs))
            } else {
                need
            });
            return None;
        };
        match fact.get("files").and_then(Value::as_array) {
            Some(files) => {
                // Sorted here, by bytes, so that every host prints the same order.
                let mut files: Vec<&str> = files.iter().filter_map(Value::as_str).collect();
                files.sort_unstable();
                Some(Ok(files))
            }
            None => Some(Err(fact
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("it could not be listed"))),
        }
    }

    /// What the host's write routine did (a `CliWrite`: its result's fields, or `error`);
    /// `None` when it has not carried `need` out yet (it is then asked for). One write per
    /// path and command.
    pub fn write(&mut self, need: Need) -> Option<&'f Map> {
        let fact = self
            .writes
            .and_then(|w| w.get(need.path()))
            .and_then(Value::as_object);
        if fact.is_none() {
            self.need(need);
        }
        fact
    }

    /// The page of the file at `path` that starts at byte `offset`, read with `limit`; `None`
    /// when the host has not read it yet (it is then asked for); `Err` when the file could not
    /// be read.
    pub fn page(
        &mut self,
        path: &str,
        offset: u64,
        limit: u64,
    ) -> Option<Result<Page<'f>, File<'f>>> {
        let fact = self.files.and_then(|f| f.get(path));
        let number = |key: &str| fact.and_then(|f| f.get(key)).and_then(Value::as_u64);
        let given = number("offset") == Some(offset) && number("limit") == Some(limit);
        let error = fact.is_some_and(|f| f.get("error").is_some());
        if !given && !error {
            let need = Need::new("read", path)
                .with("offset", Value::from(offset))
                .with("limit", Value::from(limit));
            self.need(need);
            return None;
        }
        match self.read(path)? {
            File::Text(text) => {
                let size = number("size").unwrap_or(0);
                let end = offset.saturating_add(text.len() as u64);
                Some(Ok(Page {
                    text,
                    offset,
                    size,
                    last: end >= size,
                }))
            }
            other => Some(Err(other)),
        }
    }

    /// What the command kept under `name` from its previous round (`facts.carry`).
    pub fn carried(&self, name: &str) -> Option<&'f Value> {
        self.carried.and_then(|c| c.get(name))
    }

    /// Keeps `value` under `name` for the command's next round (the answer's `carry`).
    pub fn carry(&mut self, name: &str, value: Value) {
        self.carry.insert(name.into(), value);
    }

    /// Says how far a long piece of work is (the answer's `progress`, shown when standard error
    /// is a terminal: `env.progress`).
    pub fn progress(&mut self, text: String) {
        if self.shows_progress {
            self.progress = Some(text);
        }
    }

    /// What the command keeps for its next round, and its progress line.
    pub fn into_carry(&mut self) -> (Map, Option<String>) {
        (std::mem::take(&mut self.carry), self.progress.take())
    }

    /// The time now as the host gave it (RFC 3339), if it did.
    pub fn now(&self) -> Option<&'f str> {
        self.now
    }

    /// True when the command asked for something the host has not given yet.
    pub fn wants(&self) -> bool {
        !self.needs.is_empty()
    }

    /// What the command asked for.
    pub fn into_needs(self) -> Vec<Value> {
        self.needs
    }

    fn need(&mut self, need: Need) {
        let need = Value::Object(need.0);
        if !self.needs.contains(&need) {
            self.needs.push(need);
        }
    }
}

/// Something to ask the host for (a `CliNeed`): its `op`, `path` and the op's fields.
#[derive(Debug)]
pub struct Need(Map);

impl Need {
    /// `op` on `path`.
    pub fn new(op: &str, path: &str) -> Need {
        let mut map = Map::new();
        map.insert("op".into(), Value::from(op));
        map.insert("path".into(), Value::from(path));
        Need(map)
    }

    /// With the field `key`.
    pub fn with(mut self, key: &str, value: Value) -> Need {
        self.0.insert(key.into(), value);
        self
    }

    fn path(&self) -> &str {
        self.0.get("path").and_then(Value::as_str).unwrap_or("")
    }
}
