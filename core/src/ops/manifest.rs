//! An operation table as data (`Table::manifest` writes it with these): what `xtask codegen` writes the hosts' code,
//! types, error maps, dispatchers and docs from, and what tools can read at run time.

use super::host_api::{HostClass, HostTy, HostType, Lang, MemberKind, Routine, Style};
use super::table_host::Constant;
use super::{Access, Form, Kind, Op};
use crate::error::{Code, CLASSES};
use crate::kinds::KINDS;
use crate::shape::{reachable, Check, Field, Named, Role, Shape, Ty};
use crate::{json, Map, Value};

/// Every type the hosts name: the operations' parameters and results (and options shapes), the
/// kinds' documents, the hosts' options and the file update's result. The generators and the
/// manifest describe the types reachable from these.
pub(super) fn type_roots(ops: &[&Op]) -> Vec<Ty> {
    let mut roots: Vec<Ty> = Vec::new();
    for op in ops {
        roots.push(op.returns.ty);
        for param in op.params {
            roots.push(param.ty);
            if let Kind::Options(shape) = param.kind {
                roots.push(Ty::Object(shape));
            }
        }
    }
    roots.extend(KINDS.iter().map(|k| k.root));
    roots.extend(
        super::table_host::HOST_OPTIONS
            .iter()
            .map(|(_, s)| Ty::Object(s)),
    );
    roots.push(Ty::Object(&crate::shape::common::FILE_UPDATE));
    roots
}

/// The manifest: `{version, ops, kinds, types, errors, classes, host}` (`host`: the hosts'
/// options shapes, constants, routines and their result types).
pub(super) fn manifest(ops: &[&Op], constants: &[&Constant]) -> Value {
    let roots = type_roots(ops);
    let named = reachable(&roots);
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "ops": ops.iter().map(|o| op(o)).collect::<Vec<_>>(),
        "kinds": KINDS.iter().map(|k| json!({
            "name": k.name,
            "protocol": k.protocol().map(|p| p.name()),
            "description": k.description,
            "type": ty(&k.root),
            "file": k.file.as_ref().map(|f| json!({
                "module": f.module,
                "name": f.name,
                "base": f.base,
                "path": f.path,
                "patch": f.patch.and_then(|p| crate::json::parse_str(p).ok()),
            })),
        })).collect::<Vec<_>>(),
        "types": types(&named),
        "errors": Code::ALL.iter().map(|c| json!({"code": c.as_str(), "class": c.class_name()})).collect::<Vec<_>>(),
        "classes": CLASSES.iter().map(|c| json!({"name": c.name, "doc": c.doc, "python_bases": c.python_bases})).collect::<Vec<_>>(),
        "host": {
            "options": super::table_host::HOST_OPTIONS.iter().map(|(name, shape)| json!({"name": name, "type": shape.name})).collect::<Vec<_>>(),
            "constants": constants.iter().map(|c| (c.name.to_owned(), Value::from(c.value))).collect::<Map>(),
            "routines": super::ROUTINES.iter().map(routine).collect::<Vec<_>>(),
            "types": super::HOST_TYPES.iter().map(|t| host_type(t)).collect::<Vec<_>>(),
            "stores": super::STORE_CLASSES.iter().map(|c| host_class(c)).collect::<Vec<_>>(),
        },
    })
}

fn op(op: &Op) -> Value {
    let access = match op.access {
        Access::Pure => Value::Null,
        Access::Reads {
            kind,
            bytes,
            helper,
        } => json!({"reads": {"kind": kind, "bytes": bytes, "helper": helper}}),
        Access::Writes(w) => json!({"writes": {
            "kind": w.kind,
            "takes_document": w.takes_document,
            "document_at": w.document_at,
            "helper": w.helper,
            "extra": w.extra.map(|(name, pointer, t)| json!({"name": name, "pointer": pointer, "type": ty(&t)})),
        }}),
    };
    json!({
        "name": op.name(),
        "module": op.module.name(),
        "method": op.method,
        "doc": op.doc,
        "params": op.params.iter().map(|p| json!({
            "name": p.name,
            "kind": kind(p.kind),
            "type": ty(&p.ty),
            "optional": p.optional,
        })).collect::<Vec<_>>(),
        "returns": {"form": match op.returns.form {
            Form::Json => "json",
            Form::Text => "text",
            Form::Nothing => "nothing",
            Form::Raises => "raises",
            Form::Update => "update",
            Form::Loaded => "loaded",
            Form::Job => "job",
        }, "type": ty(&op.returns.ty)},
        "access": access,
        "web": op.web,
        "protocol": op.protocol().map(|p| p.name()),
    })
}

/// A host routine as data (the host-routine table, `table_routines.rs`).
fn routine(r: &Routine) -> Value {
    let js = crate::options::camel(r.name);
    json!({
        "name": r.name,
        "entry": r.entry.name(),
        "js": match r.style {
            Style::Both => vec![js.clone(), format!("{js}Sync")],
            Style::Direct => vec![js],
        },
        "style": match r.style { Style::Both => "both", Style::Direct => "direct" },
        "params": r.params.iter().map(|p| json!({
            "name": p.name,
            "type": host_ty(&p.ty),
            "optional": p.optional,
            "lang": lang(p.lang),
        })).collect::<Vec<_>>(),
        "returns": host_ty(&r.returns),
        "doc": r.doc,
    })
}

/// A class of the stores' API as data (`table_store_api.rs`): every member, the interface's
/// included, each with its JS name.
fn host_class(c: &HostClass) -> Value {
    json!({
        "name": c.name,
        "doc": c.doc,
        "interface": c.interface,
        "implements": c.implements.map(|i| i.name),
        "members": c.all_members().map(|m| json!({
            "name": m.name,
            "js": crate::options::camel(m.name),
            "kind": match m.kind {
                MemberKind::Constructor => "constructor",
                MemberKind::Static => "static",
                MemberKind::Method => "method",
                MemberKind::Property => "property",
            },
            "params": m.params.iter().map(|p| json!({
                "name": p.name,
                "type": host_ty(&p.ty),
                "optional": p.optional,
                "lang": lang(p.lang),
            })).collect::<Vec<_>>(),
            "returns": host_ty(&m.returns),
            "awaited": m.awaited,
            "lang": lang(m.lang),
            "doc": m.doc,
        })).collect::<Vec<_>>(),
    })
}

fn lang(lang: Lang) -> &'static str {
    match lang {
        Lang::Both => "both",
        Lang::Js => "js",
        Lang::Py => "python",
    }
}

/// A host type (a result of the host routines) as data.
fn host_type(t: &HostType) -> Value {
    json!({
        "name": t.name,
        "python": t.py_name,
        "doc": t.doc,
        "params": t.params.iter().map(|(name, _)| *name).collect::<Vec<_>>(),
        "base": t.base.as_ref().map(host_ty),
        "alias": t.alias.as_ref().map(host_ty),
        "lang": lang(t.lang),
        "omit_python": t.omit_py,
        "fields": t.fields.iter().map(|f| json!({
            "name": f.name,
            "type": host_ty(&f.ty),
            "required": f.required,
            "when": f.when,
            "lang": lang(f.lang),
            "doc": f.doc,
        })).collect::<Vec<_>>(),
    })
}

/// A type of a host routine's signature as data.
fn host_ty(t: &HostTy) -> Value {
    match *t {
        HostTy::Core(t) => ty(&t),
        HostTy::Kind => "kind".into(),
        HostTy::AnyKind => "document_kind".into(),
        HostTy::Path => "path".into(),
        HostTy::Dir => "dir".into(),
        HostTy::Change => "change".into(),
        HostTy::Options(shapes) => {
            json!({"options": shapes.iter().map(|s| s.name).collect::<Vec<_>>()})
        }
        HostTy::Of(h, args) => {
            json!({"host": h.name, "to": args.iter().map(host_ty).collect::<Vec<_>>()})
        }
        HostTy::Nullable(inner) => json!({"nullable": host_ty(inner)}),
        HostTy::List(item) => json!({"list": host_ty(item)}),
        HostTy::Param(name) => json!({"param": name}),
        HostTy::Native { js, py } => json!({"native": {"js": js, "python": py}}),
    }
}

fn kind(kind: Kind) -> Value {
    match kind {
        Kind::Value => "value".into(),
        Kind::Text => "text".into(),
        Kind::Bytes => "bytes".into(),
        Kind::Int => "int".into(),
        Kind::Now => "now".into(),
        Kind::Random => "random".into(),
        Kind::Options(shape) => json!({"options": shape.name}),
    }
}

/// A type as data: `"string"`, `{"list": ...}`, `{"object": "FctryState"}`, ...
pub fn ty(ty: &Ty) -> Value {
    match *ty {
        Ty::Json => "json".into(),
        Ty::Str => "string".into(),
        Ty::Line => "line".into(),
        Ty::Timestamp => "timestamp".into(),
        Ty::Bool => "bool".into(),
        Ty::Whole(min) => json!({"whole": min}),
        Ty::Int => "int".into(),
        Ty::Number => "number".into(),
        Ty::Null => "null".into(),
        Ty::Lit(value) => json!({"literal": value}),
        Ty::Enum(e) => json!({"enum": e.name}),
        Ty::Object(shape) => json!({"object": shape.name}),
        Ty::List(item) => json!({"list": self::ty(item)}),
        Ty::Map(item) => json!({"map": self::ty(item)}),
        Ty::Nullable(inner) => json!({"nullable": self::ty(inner)}),
        Ty::Union(items) => json!({"union": items.iter().map(self::ty).collect::<Vec<_>>()}),
        Ty::Alias(alias) => json!({"alias": alias.name}),
        Ty::Param => "param".into(),
        Ty::Apply(shape, arg) => json!({"apply": shape.name, "to": self::ty(arg)}),
        Ty::KindDoc => "kind_doc".into(),
        Ty::Kind => "kind".into(),
    }
}

fn field(f: &Field) -> Value {
    json!({
        "name": f.name,
        "type": ty(&f.ty),
        "required": f.required,
        "doc": f.doc,
        "checked": f.check == Check::Walk,
    })
}

fn shape(s: &Shape) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), s.name.into());
    map.insert("doc".into(), s.doc.into());
    map.insert(
        "role".into(),
        match s.role {
            Role::Document => "document",
            Role::Open => "open",
            Role::Exact => "exact",
        }
        .into(),
    );
    map.insert("generic".into(), s.generic.into());
    map.insert(
        "fields".into(),
        s.fields.iter().map(field).collect::<Vec<_>>().into(),
    );
    map.insert(
        "variants".into(),
        s.variants
            .iter()
            .map(|v| {
                json!({
                    "field": v.field,
                    "values": v.values,
                    "fields": v.fields.iter().map(field).collect::<Vec<_>>(),
                })
            })
            .collect::<Vec<_>>()
            .into(),
    );
    Value::Object(map)
}

fn types(named: &Named) -> Value {
    json!({
        "shapes": named.shapes.iter().map(|s| shape(s)).collect::<Vec<_>>(),
        "enums": named.enums.iter().map(|e| json!({"name": e.name, "doc": e.doc, "values": e.values})).collect::<Vec<_>>(),
        "aliases": named.aliases.iter().map(|a| json!({"name": a.name, "doc": a.doc, "type": ty(&a.ty)})).collect::<Vec<_>>(),
    })
}
