//! TypeScript: the types of every named shape, enum and alias, and the declarations of every
//! operation (`npm/lib/generated/core.d.ts`), from the core's table.

use crate::names::{camel, has_kind, modules, named};
use statecore::error::CLASSES;
use statecore::kinds::KINDS;
use statecore::ops::{self, Form, Kind, Module, Op, Param};
use statecore::shape::{Alias, Enum, Field, Role, Shape, Ty};
use statecore_cli::TABLE;
use std::fmt::Write as _;

/// Where a type appears: an argument accepts `unknown` where a result gives `Json`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// An argument.
    In,
    /// A result.
    Out,
    /// A field of a named type (no type parameter of a signature is in scope).
    Field,
}

/// A type in TypeScript.
pub fn ty(t: &Ty, side: Side) -> String {
    match *t {
        Ty::Json => match side {
            Side::In => "unknown".into(),
            Side::Out | Side::Field => "Json".into(),
        },
        Ty::Str | Ty::Line | Ty::Timestamp => "string".into(),
        Ty::Bool => "boolean".into(),
        Ty::Whole(_) | Ty::Int | Ty::Number => "number".into(),
        Ty::Null => "null".into(),
        Ty::Lit(value) => format!("{value:?}"),
        Ty::Enum(e) => e.name.into(),
        Ty::Object(shape) if shape.generic => format!("{}<Json>", shape.name),
        Ty::Object(shape) => shape.name.into(),
        Ty::List(item) => {
            let inner = ty(item, side);
            if inner.contains(' ') {
                format!("({inner})[]")
            } else {
                format!("{inner}[]")
            }
        }
        Ty::Map(item) => format!("{{ [key: string]: {} }}", ty(item, side)),
        Ty::Nullable(inner) => format!("{} | null", ty(inner, side)),
        Ty::Union(items) => items
            .iter()
            .map(|i| ty(i, side))
            .collect::<Vec<_>>()
            .join(" | "),
        Ty::Alias(alias) => alias.name.into(),
        Ty::Param => "D".into(),
        Ty::Apply(shape, arg) => format!("{}<{}>", shape.name, ty(arg, side)),
        Ty::KindDoc if side == Side::Field => "Json".into(),
        Ty::KindDoc => "DocumentOf<K>".into(),
        Ty::Kind if side == Side::Field => "DocumentKind".into(),
        Ty::Kind => "K".into(),
    }
}

/// A doc comment at `indent`.
pub fn doc(out: &mut String, indent: &str, text: &str) {
    let _ = writeln!(out, "{indent}/** {} */", text.replace("*/", "*\\/"));
}

/// A property key: bare when it is an identifier, else quoted. Keys spelled like a TypeScript
/// type keyword (the machine guard `{"any": [...]}`) are quoted too, so a reader never takes
/// the data key for the `any` type.
fn key(name: &str) -> String {
    const TYPE_WORDS: [&str; 4] = ["any", "unknown", "never", "object"];
    if !TYPE_WORDS.contains(&name)
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    {
        name.to_owned()
    } else {
        format!("{name:?}")
    }
}

/// `host`: a host's options object, whose keys JS spells in camelCase.
fn field(out: &mut String, f: &Field, role: Role, host: bool) {
    doc(out, "  ", f.doc);
    let mut t = ty(&f.ty, Side::Field);
    let optional = !f.required;
    if optional && role != Role::Exact && !t.ends_with("| null") && t != "Json" {
        t.push_str(" | null");
    }
    let mark = if optional { "?" } else { "" };
    let name = if host {
        camel(f.name)
    } else {
        f.name.to_owned()
    };
    let _ = writeln!(out, "  {}{mark}: {t};", key(&name));
}

fn shape(out: &mut String, s: &Shape) {
    doc(out, "", s.doc);
    let generic = if s.generic { "<D = Json>" } else { "" };
    let _ = writeln!(out, "export interface {}{generic} {{", s.name);
    let host = ops::HOST_OPTIONS.iter().any(|(_, h)| std::ptr::eq(*h, s));
    for f in s.fields {
        field(out, f, s.role, host);
    }
    for variant in s.variants {
        for f in variant.fields {
            let optional = Field::opt(f.name, f.ty, f.doc);
            field(out, &optional, s.role, host);
        }
    }
    if s.role != Role::Exact {
        out.push_str(
            "  /** Unknown fields are kept as they are. */\n  [field: string]: unknown;\n",
        );
    }
    out.push_str("}\n\n");
}

fn enumeration(out: &mut String, e: &Enum) {
    doc(out, "", e.doc);
    let values: Vec<String> = e.values.iter().map(|v| format!("{v:?}")).collect();
    let _ = writeln!(out, "export type {} = {};\n", e.name, values.join(" | "));
}

fn alias(out: &mut String, a: &Alias) {
    doc(out, "", a.doc);
    let _ = writeln!(
        out,
        "export type {} = {};\n",
        a.name,
        ty(&a.ty, Side::Field)
    );
}

/// The parameter list of a function, from the `skip`-th parameter on; a parameter is `?`
/// only when every one after it is optional too.
pub fn params(list: &[Param], skip: usize) -> String {
    let list = list.get(skip..).unwrap_or_default();
    let mut out = Vec::with_capacity(list.len());
    for (i, p) in list.iter().enumerate() {
        let trailing = list.iter().skip(i).all(|q| q.optional);
        let mut t = param_type(p);
        if p.optional && !t.ends_with("| null") && t != "unknown" {
            t.push_str(" | null");
        }
        if p.optional && !trailing && t != "unknown" {
            t.push_str(" | undefined");
        }
        let mark = if trailing && p.optional { "?" } else { "" };
        out.push(format!("{}{mark}: {t}", camel(p.name)));
    }
    out.join(", ")
}

fn param_type(p: &Param) -> String {
    match p.kind {
        Kind::Bytes => "Bytes".into(),
        Kind::Random => "string | Uint8Array".into(),
        Kind::Options(shape) => shape.name.into(),
        _ => ty(&p.ty, Side::In),
    }
}

/// What a function returns.
pub fn returns(op: &Op) -> String {
    match op.returns.form {
        Form::Nothing => "void".into(),
        Form::Raises => "never".into(),
        Form::Text => "string".into(),
        Form::Job => "Job".into(),
        Form::Json | Form::Update | Form::Loaded => ty(&op.returns.ty, Side::Out),
    }
}

fn generics(op: &Op) -> &'static str {
    if has_kind(op) {
        "<K extends DocumentKind>"
    } else {
        ""
    }
}

/// The whole of `npm/lib/generated/core.d.ts`.
pub fn core_dts() -> String {
    let mut out = String::from(
        "// GENERATED by `cargo run -p xtask -- codegen` from the core's operation table\n\
         // (core/src/ops): do not edit. Types of the pure statecore API (docs/api.md), shared by\n\
         // the Node entry (index.d.ts) and the browser entry (web.d.mts).\n\n\
         /** A JSON primitive. */\nexport type JsonPrimitive = string | number | boolean | null;\n\
         /** Any JSON value, as `JSON.parse` returns it. */\n\
         export type Json = JsonPrimitive | Json[] | { [key: string]: Json };\n\
         /** File contents: a string (encoded as UTF-8) or raw bytes (a `Buffer` is a `Uint8Array`). */\n\
         export type Bytes = string | Uint8Array;\n\n",
    );
    let named = named();
    for e in &named.enums {
        enumeration(&mut out, e);
    }
    for a in &named.aliases {
        alias(&mut out, a);
    }
    for s in &named.shapes {
        shape(&mut out, s);
    }
    out.push_str("/** The document type of each kind (`kinds()` lists them). */\nexport interface Documents {\n");
    for kind in KINDS {
        let mut t = ty(&kind.root, Side::Out);
        if (kind.default)().is_null() {
            t.push_str(" | null");
        }
        doc(&mut out, "  ", kind.description);
        let _ = writeln!(out, "  {:?}: {t};", kind.name);
    }
    out.push_str(
        "}\n\n/** A document kind name; an unknown one does not type-check. */\n\
         export type DocumentKind = keyof Documents;\n\
         /** The document type of a kind. */\n\
         export type DocumentOf<K extends DocumentKind> = Documents[K];\n\n",
    );
    for op in TABLE.ops().filter(|op| op.module == Module::Root) {
        doc(&mut out, "", op.doc);
        let _ = writeln!(
            out,
            "export declare function {}{}({}): {};",
            camel(op.method),
            generics(op),
            params(op.params, 0),
            returns(op)
        );
    }
    out.push('\n');
    for module in modules() {
        let _ = writeln!(out, "/** The `{}` operations. */", module.name());
        let _ = writeln!(out, "export declare const {}: {{", module.name());
        for op in TABLE.ops().filter(|op| op.module == module) {
            doc(&mut out, "  ", op.doc);
            let _ = writeln!(
                out,
                "  {}{}({}): {};",
                camel(op.method),
                generics(op),
                params(op.params, 0),
                returns(op)
            );
        }
        out.push_str("};\n\n");
    }
    crate::resident::dts(&mut out);
    out.push_str(FILE_OPS);
    out.push_str("/** The hosts' constants, declared once in the core (`ops::CONSTANTS`). */\nexport declare const CONSTANTS: {\n");
    for c in TABLE.constants() {
        doc(&mut out, "  ", c.doc);
        let _ = writeln!(out, "  readonly {}: number;", camel(c.name));
    }
    out.push_str("};\n\n");
    errors(&mut out);
    out
}

/// The one-crossing file routines of the JS layer (not table operations).
const FILE_OPS: &str = "\
/**
 * One crossing per file update: the file's bytes (null: missing) read as `kind`, `change`
 * applied (`\"\"`: replace with `args[0]`; `\"merge\"`: `args` = `[patch, options]`; else a
 * writer of the table, `args` being its arguments after the document), validated and
 * serialized. `now` (default: the clock) fills stamps and `now` arguments; `reset` replaces a
 * file that breaks a limit or repeats a key (else its error is raised).
 */
export declare function updateFile<K extends DocumentKind>(
  kind: K,
  change: string,
  data: Bytes | null | undefined,
  args: unknown[],
  options?: { now?: Now | null; ifMatch?: string | null; reset?: boolean },
): FileUpdate<DocumentOf<K>>;
/**
 * The locked update of the file `path` (absolute) as one job of the core (docs/locking.md §
 * The update as one job), the change as `updateFile` takes it; `waiter` says who takes the
 * lock and how long it waits, `seed` is 16 random bytes. Run by a host's job driver.
 */
export declare function updateJob(
  kind: DocumentKind,
  change: string,
  path: string,
  args: unknown[],
  options: { now?: Now | null; ifMatch?: string | null; reset?: boolean } | null | undefined,
  waiter: {
    identity: LockIdentity;
    probe: boolean;
    watching: boolean;
    timeout_ms: number;
    with_document: boolean;
    numbers: \"js\" | \"js_bigint\" | \"python\";
    now_ms: number;
    mono_ms: number;
  },
  seed: Bytes,
): Job;
/**
 * An update job's last step as an update's result: its fields, `corruptCopy`, and the
 * document read from its text (`bigint`: integers no double holds as `BigInt`s).
 */
export declare function updateOutcome<K extends DocumentKind>(
  kind: K,
  done: Record<string, unknown>,
  bigint?: boolean,
): Omit<FileUpdate<DocumentOf<K>>, \"text\" | \"corrupt\"> & { corruptCopy: string | null };
/**
 * What a step (or a read) of a file kept with its event log does (docs/hive.md § Files): with
 * `replay_from` set, replay the log from there (`logReplay`) first; else append `line` (when
 * set; cut the log at `truncate_at` first when set) and write `text` when `write`.
 */
export type LoggedUpdate = {
  document: HiveState | null;
  text: string;
  etag: string | null;
  write: boolean;
  line: string | null;
  event: HiveEvent | null;
  log_offset: number | null;
  truncate_at: number | null;
  torn_line: number | null;
  replay_from: number | null;
  corrupt: boolean;
  recovered: Omit<HiveRecovered, \"state\" | \"warnings\"> | null;
  warnings: Issue[];
};
/**
 * One crossing per step of a file kept with its event log: `change` a step of the table (\"\"
 * for a read) with `args` after the state, `data` the state's bytes (null: missing),
 * `logSize` the log's length, `sessionId` the session directory's name.
 */
export declare function updateLogged(
  kind: \"hive.state\",
  sessionId: string,
  change: string,
  data: Bytes | null | undefined,
  logSize: number,
  args: unknown[],
  options?: { now?: Now | null; eventId?: string | null },
): LoggedUpdate;
/** A replay of a session's log (fed in chunks), committed with a step or a read. */
export type LogReplay = {
  feed(chunk: Bytes): void;
  commit(change: string, args: unknown[], options?: { now?: Now | null; eventId?: string | null }): LoggedUpdate;
};
/** A replay of a session's log from byte `offset` onto the state in `data` (null, or `corrupt`: from nothing). */
export declare function logReplay(
  kind: \"hive.state\",
  sessionId: string,
  data: Bytes | null | undefined,
  offset: number,
  corrupt: boolean,
): LogReplay;
/**
 * A step of a job, or its end (`done`, `raise`): `{do, ...}` (docs/locking.md § The lock as
 * a job; docs/store.md § The update as a job; docs/cli.md § How it runs).
 */
export type JobStep = { do: string; [field: string]: Json };
/**
 * A job of the core, as a row of the table that starts one gives it (`lock.acquireJob`,
 * `fileUpdateJob`, `storeJob`, `cliJob`, ...), run by a host's driver: `first` is its first
 * step (`next(null)` gives it too), which may be answered straight away; `next(answer, bytes)`
 * gives the step after the one answered (`bytes`: read doing it, for a step that asks for
 * them: a file update's `load`); `free()` releases it.
 */
export type Job = {
  readonly first: JobStep;
  next(answer: { [field: string]: Json } | null, bytes?: Uint8Array): JobStep;
  free(): void;
};
/** One crossing per file read: a reader of the table on the file's document (or bytes). */
export declare function queryFile(kind: DocumentKind, op: string, data: Bytes | null | undefined, args: unknown[]): Json;
/**
 * Runs `fn` (calls of this API) with integers no double holds coming back as `BigInt` instead
 * of `E_PRECISION`, so a document another language wrote with such a number stays readable
 * (docs/api.md § Host values). Floats a double cannot keep are still `E_PRECISION`.
 */
export declare function withBigInts<T>(fn: () => T): T;

";

fn errors(out: &mut String) {
    out.push_str(
        "/** The record the core reports an error as. */\nexport interface ErrorRecord {\n  name?: string;\n  code: string;\n  path?: string;\n  message?: string;\n  details?: unknown;\n}\n\n\
         /** Fields of a new error. */\nexport interface ErrorFields {\n  code?: string;\n  path?: string;\n  details?: { [key: string]: unknown };\n  cause?: unknown;\n}\n\n",
    );
    for class in CLASSES {
        let codes: Vec<&str> = statecore::Code::ALL
            .iter()
            .filter(|c| c.class_name() == class.name)
            .map(|c| c.as_str())
            .collect();
        let text = if codes.is_empty() {
            class.doc.to_owned()
        } else {
            format!("{} Codes: {}.", class.doc, codes.join(", "))
        };
        doc(out, "", &text);
        if class.name == "StatecoreError" {
            out.push_str(
                "export declare class StatecoreError extends Error {\n  constructor(message: string, fields?: ErrorFields);\n  /** Stable code, e.g. `\"E_PARSE\"`. */\n  code: string;\n  /** JSON pointer to the offending place (`\"\"` = the whole value). */\n  path: string;\n  /** Structured details (the report of `E_INVALID`, line and column of `E_PARSE`, ...). */\n  details: { [key: string]: unknown };\n}\n",
            );
        } else {
            let _ = writeln!(
                out,
                "export declare class {} extends StatecoreError {{}}",
                class.name
            );
        }
    }
    out.push_str(
        "\n/** The error object for a record: class by `name`, else by `code`, else `StatecoreError`. */\nexport declare function errorFromRecord(record: ErrorRecord): StatecoreError;\n",
    );
}
