//! The protocol helpers both hosts generate: for each protocol module, its files (the kinds
//! with a fixed place) and, for every operation of the table that reads or writes one of
//! them, a helper that runs it on the file of a directory (docs/conventions.md § Layers: "protocol
//! helpers are tables over the one host routine").

use statecore::kinds::{File, Kind as DocKind, KINDS};
use statecore::ops::{Access, Kind, Module, Op, Param, Write};
use statecore_cli::TABLE;

/// A file of a protocol module.
pub struct FileOf {
    /// The document kind.
    pub kind: &'static DocKind,
    /// Where it lives.
    pub file: &'static File,
}

/// A helper: an operation of the table run on a file.
pub struct Helper {
    /// Its name (snake_case).
    pub name: String,
    /// The operation.
    pub op: &'static Op,
    /// The file it works on.
    pub file: FileOf,
    /// How it writes (`None`: it reads).
    pub write: Option<Write>,
    /// For a reader: true when it reads the file's bytes rather than its document.
    pub bytes: bool,
}

impl Helper {
    /// The operation's parameters the caller passes (the document comes from the file).
    pub fn params(&self) -> &'static [Param] {
        let skip = match self.write {
            Some(write) if !write.takes_document => 0,
            _ => 1,
        };
        self.op.params.get(skip..).unwrap_or_default()
    }

    /// The parameters a JS caller passes positionally: `now` and `random` go in the options.
    pub fn positional(&self) -> Vec<&'static Param> {
        self.params()
            .iter()
            .filter(|p| !matches!(p.kind, Kind::Now | Kind::Random))
            .collect()
    }

    /// True when the operation takes a `random` argument (an option of the helper).
    pub fn random(&self) -> bool {
        self.params().iter().any(|p| matches!(p.kind, Kind::Random))
    }
}

/// The files of a module.
pub fn files(module: Module) -> Vec<FileOf> {
    KINDS
        .iter()
        .filter_map(|kind| {
            let file = kind.file.as_ref()?;
            (file.module == module.name()).then_some(FileOf { kind, file })
        })
        .collect()
}

fn file_of(kind: &str) -> Option<FileOf> {
    KINDS
        .iter()
        .find(|k| k.name == kind)
        .and_then(|kind| kind.file.as_ref().map(|file| FileOf { kind, file }))
}

/// The helpers of a module, in table order.
pub fn helpers(module: Module) -> Vec<Helper> {
    TABLE
        .ops()
        .filter(|op| op.module == module)
        .filter_map(|op| match op.access {
            Access::Pure => None,
            Access::Reads {
                kind,
                bytes,
                helper,
            } => Some(Helper {
                name: helper.unwrap_or(op.method).to_owned(),
                op,
                file: file_of(kind)?,
                write: None,
                bytes,
            }),
            Access::Writes(write) => Some(Helper {
                name: write.helper.unwrap_or(op.method).to_owned(),
                op,
                file: file_of(write.kind)?,
                write: Some(write),
                bytes: false,
            }),
        })
        .collect()
}

/// The names of a file's own helpers (`read_state`, `state_path`, and for a file without a
/// log `write_state` and `update_state`).
pub fn file_helper_names(file: &File) -> Vec<String> {
    let name = file.name;
    let mut names = vec![format!("read_{name}"), format!("{name}_path")];
    if file.log.is_none() {
        names.push(format!("write_{name}"));
        names.push(format!("update_{name}"));
    }
    names
}

/// Refuses a module whose file helpers would hide one of its operations (an operation
/// `read_index` and the file `index`): both hosts would export one name for two functions.
pub fn check_names() -> Result<(), String> {
    for module in crate::names::modules() {
        for file in files(module) {
            for name in file_helper_names(file.file) {
                if let Some(op) = TABLE
                    .ops()
                    .find(|op| op.module == module && op.method == name)
                {
                    return Err(format!(
                        "{}: the operation {} has the name of a helper of the file {:?}; \
                         rename one of them",
                        module.name(),
                        op.method,
                        file.file.name
                    ));
                }
            }
        }
    }
    Ok(())
}
