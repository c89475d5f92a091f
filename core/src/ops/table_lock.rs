//! The table: the lock's jobs (docs/locking.md § The lock as a job). A host starts a job with
//! its row (`table_jobs.rs`); these rows run one over answers given in advance, as the
//! conformance corpus does, and decide whether an answer is what a plan's step expects.

use super::{Access, Module, Op, Out, Param, Returns};
use crate::lock;
use crate::shape::Ty;

/// The lock jobs' rows.
pub static OPS: &[Op] = &super::gate([
    Op {
        module: Module::Lock,
        method: "job_script",
        doc: "The steps a lock job (`acquire`: take the lock, waiting in the fair queue and \
              breaking a dead owner's lock; `release`: hand it to the next turn's claimant or \
              remove it; `sweep`: remove what dead writers left) started from `setup` asks for, \
              given `answers` in turn (docs/locking.md § The lock as a job): every step up to its end \
              (`done`, `raise`), then `{do: \"error\", error}` when it ended with its own error \
              (`E_LOCK_TIMEOUT`, `E_LOCK_FOREIGN`).",
        params: &[
            Param::text("job", Ty::Enum(&lock::shapes::JOB_KIND)),
            Param::value("setup", Ty::Object(&lock::shapes::JOB_SETUP)),
            Param::value("answers", Ty::List(&Ty::Json)),
        ],
        returns: Returns::json(Ty::List(&Ty::Json)),
        access: Access::Pure,
        web: false,
        run: |a| {
            Ok(Out::Json(lock::script(a.text(0)?, a.get(1), a.list(2))?))
        },
    },
    Op {
        module: Module::Lock,
        method: "plan_meets",
        doc: "Whether `answer` is what a plan's step `expect`s of it (docs/locking.md § Plans): \
              the rule a host's driver applies to stop a plan at its first unexpected answer, \
              and the core checks when the answers come back (a driver's own copy is tested \
              against it).",
        params: &[
            Param::value("answer", Ty::Json),
            Param::value("expect", Ty::Json),
        ],
        returns: Returns::json(Ty::Bool),
        access: Access::Pure,
        web: false,
        run: |a| Ok(Out::Json(lock::meets(a.get(0), a.get(1)).into())),
    },
]);
