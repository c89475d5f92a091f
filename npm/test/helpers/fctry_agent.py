"""Test helper: ``fctry_agent.py FILE PROC STEP ROUNDS`` acts as one fctry agent on FILE.

FILE is a ``<project>/.fctry/state.json``. Each round r makes three one-call milestones with
the ``statecore.fctry`` helpers on the project directory (each a separate locked update of
FILE): ``start_step(project, STEP)``, ``complete_step(project, STEP, {"summary": "PROC round
r"})`` and ``add_untracked_change(project, {"file": "src/PROC-r.js", "section": PROC})``.
Prints "ready", waits for a line on stdin, runs, prints "done" and exits 0.
"""

from __future__ import annotations

import os
import sys

from statecore import fctry


def main() -> None:
    """Runs the rounds."""
    file, proc, step, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    project = os.path.dirname(os.path.dirname(os.path.abspath(file)))
    if fctry.state_path(project) != os.path.abspath(file):
        raise SystemExit(f"{file} is not a <project>/.fctry/state.json")
    fctry.read_state(project)  # everything loaded before "ready"
    print("ready", flush=True)
    sys.stdin.readline()
    for r in range(rounds):
        fctry.start_step(project, step, timeout=60.0)
        fctry.complete_step(
            project, step, {"summary": f"{proc} round {r}"}, timeout=60.0
        )
        fctry.add_untracked_change(
            project, {"file": f"src/{proc}-{r}.js", "section": proc}, timeout=60.0
        )
    print("done", flush=True)


if __name__ == "__main__":
    main()
