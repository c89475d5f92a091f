"use strict";
// The system calls of the command line's locked update (docs/cli.md § How it runs; the
// core's cli/src/cli/locked_write.rs decides it), performed synchronously by the host's one
// performer of a locked update (lib/host/locked-update.cjs). A failure is answered
// `{failed}` with the system error's name, or the statecore error the routine raised, which
// the command line reports. Loaded by bin/statecore.cjs when the job first asks for one of
// these steps. Python's twin is python/statecore/_cli/locked_write.py.
const { lockedSteps } = require("../host/locked-update.cjs");
const { SYNC, runSync } = require("../host/steps.cjs");

/** A performer of the locked update's steps (`perform(step)` gives its answer). */
function lockedWrite() {
  const take = lockedSteps(SYNC);
  return (step) => runSync(take(step, failure));
}

/** A failure as the core reads it: a statecore error's fields, or the system error's name. */
function failure(error) {
  if (typeof error?.code === "string" && error.code.startsWith("E_") && typeof error.path === "string") {
    return { code: error.code, path: error.path, message: error.message };
  }
  return String(error?.code ?? "EIO");
}

module.exports = { lockedWrite };
