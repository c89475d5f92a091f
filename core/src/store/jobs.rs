//! A store's jobs by name (docs/store.md § The update as a job, § Hive sessions): `update`, a
//! document's update; `session_step`, a hive session's step; `session_read`, its state read
//! (rebuilt from the log in a step when it does not fold it whole). Their setup is checked
//! here, once.

use super::session::{session_job, SessionSetup};
use super::update::{read_setup, update_job};
use crate::error::{Code, Error, Result};
use crate::job::Job;
use crate::report::Report;
use crate::shape::check;
use crate::Value;

/// The fields of a setup only an update job takes.
const UPDATE_ONLY: [&str; 2] = ["function", "known"];

/// A store job of `kind` from `setup` (`shapes::UPDATE_SETUP`; a session's job takes its
/// `key`, `kind` and `timeout_ms`): `E_ARGUMENT` at a field that is not what it takes.
pub fn job(kind: &str, setup: &Value) -> Result<Job> {
    match kind {
        "update" => {
            checked(setup, &[])?;
            Ok(update_job(read_setup(setup)))
        }
        "session_step" | "session_read" => {
            checked(setup, &UPDATE_ONLY)?;
            let session = SessionSetup::read(setup, kind == "session_read")?;
            Ok(session_job(session))
        }
        other => Err(Error::new(
            Code::Argument,
            "/job",
            format!("{other:?} is not a store job: update, session_step or session_read"),
        )),
    }
}

/// The steps a store job of `kind` started from `setup` asks for, given `answers` in turn
/// ([`crate::job::script`]): how the corpus runs one the same way on every surface.
pub fn script(kind: &str, setup: &Value, answers: &[Value]) -> Result<Value> {
    Ok(crate::job::script(job(kind, setup)?, answers))
}

/// `E_ARGUMENT` at the first field of `setup` that is not what `shapes::UPDATE_SETUP` says,
/// or that the job does not take (`refused`): a misspelt one is never ignored.
fn checked(setup: &Value, refused: &[&str]) -> Result<()> {
    let shape = &super::shapes::UPDATE_SETUP;
    let mut report = Report::default();
    check::walk(&mut report, setup, shape, "/setup");
    if let Some(issue) = report.errors.first() {
        return Err(Error::new(
            Code::Argument,
            issue.path.clone(),
            format!("a store job's setup: {}", issue.message),
        ));
    }
    let fields = setup.as_object().into_iter().flat_map(|map| map.iter());
    for (key, _) in fields {
        let name: &str = key.as_ref();
        let known = shape.fields.iter().any(|f| f.name == name);
        if !known || refused.contains(&name) {
            let takes: Vec<&str> = shape
                .fields
                .iter()
                .map(|f| f.name)
                .filter(|f| !refused.contains(f))
                .collect();
            return Err(Error::new(
                Code::Argument,
                format!("/setup/{}", crate::error::escape_token(key)),
                format!(
                    "this store job's setup has no field {key:?}: {}",
                    takes.join(", ")
                ),
            ));
        }
    }
    Ok(())
}
