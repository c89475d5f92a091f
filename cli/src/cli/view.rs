//! `view [DIR]` (docs/viewer.md): the live viewer's command. The core checks the arguments and
//! the directories and draws the run's token; the answer's `serve` tells the host what to serve
//! (the npm package's server: it watches, serves the page and asks `view_request` how to answer
//! each request). A host without a server says where the viewer is. `mcp [DIR]`'s help is
//! here too (each package runs its MCP server before the command line).

use super::command::{Call, Command, Opt};
use super::host::Host;
use super::out::{clean, Output, Style};
use super::paths;
use statecore::{Map, Value};

/// The port the viewer listens on by default.
pub const DEFAULT_PORT: u64 = 7357;

/// `view [DIR]`.
pub const VIEW: Command = Command {
    name: "view",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Serve a live page of every protocol file under DIR on 127.0.0.1.",
    about: "The page shows each fctry project (status line, the spec with its active section, \
            the build's chunk DAG, inbox, activity feed, context health), agency's runs (the \
            ls table and a run's details), Hivemind workflows (the diagram with the current \
            state, agents, last notifications), hive sessions and specify workflows, live, \
            each file validated in the page: an invalid or torn file shows its problems. The \
            server listens on 127.0.0.1 only, answers only to its own address (Host and Origin \
            checked) and serves only its own page and the files it found; it is read-only \
            unless --write. Prints its URL, then runs until Ctrl-C. The npm package serves \
            it (Node). Exit 2 when DIR is not a directory or the port cannot be used.",
    options: &[
        Opt {
            name: "port",
            value: Some("N"),
            help: "The port to listen on (default 7357; 0: any free port, printed).",
        },
        Opt {
            name: "data-dir",
            value: Some("DIR"),
            help: "Also show agency's runs kept in this data directory (its \
                   repos/<repo>/runs/<run>/meta.json files).",
        },
        Opt {
            name: "write",
            value: None,
            help: "Let the page change files (dismiss an inbox item), each change a locked \
                   update carrying this run's token.",
        },
    ],
    values: None,
    run: view,
};

/// The port `--port` names, or the usage error.
fn port(call: &Call) -> Result<u64, Output> {
    let Some(given) = call.value("port") else {
        return Ok(DEFAULT_PORT);
    };
    given
        .parse::<u64>()
        .ok()
        .filter(|p| *p <= 65535 && given.chars().all(|c| c.is_ascii_digit()))
        .ok_or_else(|| {
            Output::usage(&format!(
                "--port takes a number from 0 to 65535 (0: any free port), not {:?}",
                clean(given)
            ))
        })
}

/// The directory `given` names (resolved), or `None` until the host has looked; an error when
/// it is not a directory.
fn directory(host: &mut Host<'_>, given: &str) -> Option<Result<String, Output>> {
    let path = paths::resolve(host.cwd(), given);
    let file = host.read(&path)?;
    Some(match file.not_a_directory() {
        Some(why) => Err(Output::usage(&format!("{}: {why}", clean(given)))),
        None => Ok(path),
    })
}

/// `statecore view [DIR]`.
fn view(call: &Call, host: &mut Host<'_>, _style: Style) -> Output {
    let port = match port(call) {
        Ok(port) => port,
        Err(usage) => return usage,
    };
    let given = call.operands.first().map_or(".", String::as_str);
    let root = directory(host, given);
    let data = call.value("data-dir").map(|d| directory(host, d));
    let write = call.flag("write");
    let random = if write {
        host.random()
    } else {
        Some(Vec::new())
    };
    let (Some(root), Some(random)) = (root, random) else {
        return Output::default();
    };
    let data = match data {
        Some(None) => return Output::default(),
        Some(Some(Err(usage))) => return usage,
        Some(Some(Ok(dir))) => Some(dir),
        None => None,
    };
    let root = match root {
        Ok(root) => root,
        Err(usage) => return usage,
    };
    if !host.serves() {
        return Output::usage(&format!(
            "the viewer's server comes with the npm package (Node): run `npx -p statecore-js statecore view \
             {}` (same options)",
            clean(given)
        ));
    }
    let token: String = random.iter().map(|b| format!("{b:02x}")).collect();
    let access = if write {
        "writes allowed with this run's token"
    } else {
        "read-only"
    };
    let mut serve = Map::new();
    serve.insert("root".into(), Value::from(root.as_str()));
    serve.insert("data_dir".into(), data.map_or(Value::Null, Value::from));
    serve.insert("port".into(), Value::from(port));
    serve.insert("write".into(), Value::Bool(write));
    serve.insert("token".into(), Value::from(token));
    serve.insert(
        "banner".into(),
        Value::from(format!(
            "statecore view: {{url}} shows {} live ({access}); Ctrl-C stops\n",
            clean(&root)
        )),
    );
    Output {
        serve: Some(Value::Object(serve)),
        ..Output::default()
    }
}

/// `mcp [DIR]` (docs/mcp.md): listed and helped here; each package runs its own server before
/// this command line (a long-running host of its own, as the viewer's).
pub const MCP: Command = Command {
    name: "mcp",
    operands: "[DIR]",
    min: 0,
    max: Some(1),
    summary: "Serve the protocols to agents as MCP tools over stdio, confined to DIR.",
    about: "A Model Context Protocol server for coding agents (register it with `claude mcp \
            add statecore -- npx -y -p statecore-js -p @modelcontextprotocol/sdk statecore mcp \
            .`, or `python -m statecore mcp .`): every protocol helper, the host routines \
            that create and read a project's files (a hive session, agency's init), and \
            validate, show, update and log append on any file, each write the library's \
            locked update; each protocol file a resource. Paths out of DIR, links and special \
            files are refused; a refusal is a tool error with statecore's code, path and \
            message. Needs the MCP SDK (npm: @modelcontextprotocol/sdk; Python: the \
            statecore[mcp] extra). Runs until the client closes stdin; exit 2 when DIR is not \
            a directory or the SDK is missing.",
    options: &[],
    values: None,
    run: mcp,
};

/// `statecore mcp` reaching the command line: each package serves it before the core does.
fn mcp(_call: &Call, _host: &mut Host<'_>, _style: Style) -> Output {
    Output::usage(
        "the MCP server is run by each package before this command line: `npx -p statecore-js \
         -p @modelcontextprotocol/sdk statecore mcp [DIR]` or `python -m statecore mcp [DIR]`",
    )
}
