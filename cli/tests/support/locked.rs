//! The Rust host's system calls of the command line's locked update (cli/tests/cli.rs; docs/cli.md
//! § The locked update), performed on real files as the packages' performers do
//! (npm/lib/cli/locked-write.cjs, python/statecore/_cli/locked_write.py): the lock's steps, the
//! directory's names, the file read with its stamp and bytes, copied and written if it is still
//! the one read. Pauses advance the caller's clock instead of sleeping.

use statecore::{Map, Value};
use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a performer keeps between steps: each file's stamp from its last `load`.
#[derive(Default)]
pub struct Locked {
    stamps: HashMap<String, Option<String>>,
}

/// The wall clock, in epoch ms.
fn now_ms() -> i64 {
    i64::try_from(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis(),
    )
    .unwrap()
}

/// A file's stamp (`ino:mtime_ns:size`), or `None` when it is missing.
fn stamp(path: &str) -> Option<String> {
    let m = fs::metadata(path).ok()?;
    Some(format!(
        "{}:{}:{}",
        m.ino(),
        m.mtime_nsec() + m.mtime() * 1_000_000_000,
        m.size()
    ))
}

/// This process as the lock's jobs take it: `{pid, start, boot, host}`.
pub fn identity() -> Value {
    let stat = fs::read_to_string("/proc/self/stat").unwrap();
    let start = statecore::lock::proc_stat(&stat)["start"].clone();
    let boot = fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap();
    let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    statecore::json!({"pid": std::process::id(), "start": start, "boot": boot.trim(), "host": host.trim()})
}

/// A lock on `file` held by this process (a live writer), as another process's would be.
pub fn hold(file: &Path) {
    let record = statecore::lock::record(&identity(), &[7u8; 16], now_ms()).unwrap();
    let lock = format!("{}.lock", file.display());
    fs::write(lock, record["text"].as_str().unwrap()).unwrap();
}

impl Locked {
    /// Performs `step` (a step of the locked update, or a plan of them: taken in turn up to the
    /// first answer that fails or is not what its step expects), its pauses advancing `clock`:
    /// the answer with the clocks, and the bytes read doing it.
    pub fn perform(&mut self, step: &Value, clock: &mut f64) -> (Value, Option<Vec<u8>>) {
        if step["do"] == "all" {
            let mut answers = Vec::new();
            let mut bytes = None;
            for one in step["steps"].as_array().unwrap() {
                let (answer, read) = self.perform(one, clock);
                bytes = read.or(bytes);
                let stop = answer.get("failed").is_some()
                    || !statecore::job::meets(&answer, one.get("expect").unwrap_or(&Value::Null));
                answers.push(answer);
                if stop {
                    break;
                }
            }
            return (statecore::json!({"answers": Value::Array(answers)}), bytes);
        }
        let (mut answer, bytes) = match self.one(step, clock) {
            Ok(done) => done,
            Err(error) => {
                let name = match error.kind() {
                    std::io::ErrorKind::NotFound => "ENOENT",
                    std::io::ErrorKind::PermissionDenied => "EACCES",
                    _ => "EIO",
                };
                (statecore::json!({"failed": name}), None)
            }
        };
        let map = answer.as_object_mut().unwrap();
        map.insert("now_ms".into(), Value::from(now_ms()));
        map.insert("mono_ms".into(), Value::from(*clock));
        (answer, bytes)
    }

    /// One step: its answer without the clocks, and the bytes read.
    fn one(&mut self, step: &Value, clock: &mut f64) -> std::io::Result<(Value, Option<Vec<u8>>)> {
        let text = |key: &str| step[key].as_str().unwrap().to_owned();
        let empty = || Value::Object(Map::new());
        let answer = match step["do"].as_str().unwrap() {
            "identity" => {
                statecore::json!({"identity": identity(), "probe": true, "seed": "000102030405060708090a0b0c0d0e0f"})
            }
            "entries" => {
                let containing = text("containing");
                let other = step["except"].as_array().unwrap();
                let names: Vec<Value> = fs::read_dir(text("path"))?
                    .map(|e| Value::from(e.unwrap().file_name().to_str().unwrap()))
                    .filter(|name| {
                        name.as_str().unwrap().contains(&containing) && !other.contains(name)
                    })
                    .collect();
                statecore::json!({"names": Value::Array(names)})
            }
            "pause" | "watch" => {
                *clock += step["ms"].as_f64().unwrap();
                empty()
            }
            "stat" => match fs::metadata(text("path")) {
                Ok(m) => {
                    statecore::json!({"ino": m.ino().to_string(), "mtime_ms": m.mtime() * 1000 + m.mtime_nsec() / 1_000_000})
                }
                Err(_) => statecore::json!({"missing": true}),
            },
            "read" => match fs::read(text("path")) {
                Ok(bytes) => {
                    let m = fs::metadata(text("path"))?;
                    let latin1: String = bytes.iter().map(|&b| char::from(b)).collect();
                    let key = format!("{}:{}", m.ino(), m.mtime() * 1_000_000_000 + m.mtime_nsec());
                    statecore::json!({"latin1": latin1, "key": key, "mtime_ms": m.mtime() * 1000 + m.mtime_nsec() / 1_000_000})
                }
                Err(_) => statecore::json!({"missing": true}),
            },
            "probe" => {
                let pid = step["pid"].as_u64().unwrap();
                let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok();
                statecore::json!({"exists": stat.is_some(), "stat": stat})
            }
            "create" => {
                fs::write(text("tmp"), text("text"))?;
                let linked = fs::hard_link(text("tmp"), text("path"));
                let _ = fs::remove_file(text("tmp"));
                match linked {
                    Ok(()) => statecore::json!({"created": true}),
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                        statecore::json!({"created": false})
                    }
                    Err(e) => return Err(e),
                }
            }
            "unlink" => {
                let _ = fs::remove_file(text("path"));
                empty()
            }
            "rename" => {
                fs::rename(text("from"), text("to"))?;
                empty()
            }
            "displace" => {
                fs::write(text("tmp"), text("text"))?;
                let dated = UNIX_EPOCH + Duration::from_millis(step["dated_ms"].as_u64().unwrap());
                fs::File::options()
                    .write(true)
                    .open(text("tmp"))?
                    .set_modified(dated)?;
                fs::rename(text("tmp"), text("path"))?;
                empty()
            }
            "load" => {
                let path = text("path");
                self.stamps.insert(path.clone(), stamp(&path));
                return Ok(match fs::read(&path) {
                    Ok(bytes) => (
                        statecore::json!({"missing": false, "age_ms": 60_000}),
                        Some(bytes),
                    ),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        (statecore::json!({"missing": true}), None)
                    }
                    Err(e) => return Err(e),
                });
            }
            "copy" => {
                fs::copy(text("path"), text("to"))?;
                statecore::json!({"path": text("to")})
            }
            "write" => {
                let path = text("path");
                if self.stamps.get(&path).cloned().flatten() != stamp(&path) {
                    statecore::json!({"written": false})
                } else {
                    let tmp = format!("{path}.test-tmp");
                    fs::write(&tmp, text("text"))?;
                    fs::rename(&tmp, &path)?;
                    statecore::json!({"written": true})
                }
            }
            other => panic!("a step this host does not know: {other}"),
        };
        Ok((answer, None))
    }
}
