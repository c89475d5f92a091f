"""Test helper: ``specify_agent.py FEATURE_DIR AGENT ROUNDS`` acts as one agent on the
feature's index.md: each round adds a gap ("AGENT r") and a traceability row ("FR-AGENT-r"),
two locked updates of ``statecore.specify``. Prints "ready", waits for a line on stdin, runs,
prints "done" and exits 0. npm/test/helpers/specify_agent.cjs is its twin.
"""

from __future__ import annotations

import sys

from statecore import specify


def main() -> None:
    """Runs the rounds."""
    directory, agent, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    specify.read_index(directory)  # everything loaded before "ready"
    print("ready", flush=True)
    sys.stdin.readline()
    for r in range(rounds):
        specify.add_gaps(
            directory, [{"priority": "Important", "question": f"{agent} {r}"}], timeout=60.0
        )
        row = {"fr_id": f"FR-{agent}-{r}", "chk_ids": ["CHK001"], "coverage_status": "Covered"}
        specify.apply_state_updates(directory, {"traceability_matrix": [row]}, timeout=60.0)
    print("done", flush=True)


if __name__ == "__main__":
    main()
