"""Test helper: ``fctry_agent.py FILE PROC STEP ROUNDS`` acts as one fctry agent on FILE.

FILE is a ``.fctry/state.json``. Each round r makes three separate locked updates through
``statecore.update_document`` with a fctry workflow function: ``start_step(STEP)``,
``complete_step(STEP, {"summary": "PROC round r"})`` and
``add_untracked_change({"file": "src/PROC-r.js", "section": PROC})``.
Prints "ready", waits for a line on stdin, runs, prints "done" and exits 0.
"""

from __future__ import annotations

import sys

import statecore


def main() -> None:
    """Runs the rounds."""
    file, proc, step, rounds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    statecore.read_document(file, "fctry.state")  # everything loaded before "ready"
    print("ready", flush=True)
    sys.stdin.readline()
    for r in range(rounds):
        statecore.update_document(
            file,
            "fctry.state",
            lambda s: statecore.fctry.start_step(s, step),
            timeout=60.0,
        )
        statecore.update_document(
            file,
            "fctry.state",
            lambda s, r=r: statecore.fctry.complete_step(
                s, step, {"summary": f"{proc} round {r}"}
            ),
            timeout=60.0,
        )
        statecore.update_document(
            file,
            "fctry.state",
            lambda s, r=r: statecore.fctry.add_untracked_change(
                s, {"file": f"src/{proc}-{r}.js", "section": proc}
            ),
            timeout=60.0,
        )
    print("done", flush=True)


if __name__ == "__main__":
    main()
