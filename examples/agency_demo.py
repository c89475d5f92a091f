"""Part 4 of ``make demo``: agency ``init``, three runs and their runners, then ``ls`` and
``show`` as the seed prints them.

A repository gets ``CLAUDE.md`` (the runner protocol) once; three worktrees get their initial
``runner_status.json``; a Python runner asks a question, a Node runner (examples/
agency_runner.mjs) finishes its work, and a third runner crashed 45 minutes ago leaving a
status file that does not validate while its tmux session is still alive: ``stalled``.
Exits non-zero if any status is not the expected one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from statecore import agency

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        repo = base / "repo"
        repo.mkdir()
        print("agency init")
        print(f"  claude_md: {agency.write_protocol_document(repo)}")
        print(f"  claude_md: {agency.write_protocol_document(repo)}  (second init)")

        runs = [
            ("20260119-a3f2", "auth-fix", 123),
            ("20260118-c5d2", "bug-fix", None),
            ("20260118-e7f3", "feature-x", None),
        ]
        for run_id, _name, _pr in runs:
            (base / "runs" / run_id).mkdir(parents=True)
            meta = {
                "schema_version": "1.0",
                "run_id": run_id,
                "created_at": f"{run_id[:4]}-{run_id[4:6]}-{run_id[6:8]}T09:00:00Z",
                "flags": {},
                "archive": {"merged_at": None},
            }
            (base / "runs" / run_id / "meta.json").write_text(
                json.dumps(meta), encoding="utf-8"
            )
            agency.write_initial_runner_status(base / "worktrees" / run_id)
        print(
            "agency run x3: .agency/state/runner_status.json written (status working)"
        )

        print("runners at their milestones")
        auth = base / "worktrees" / "20260119-a3f2"
        agency.write_runner_status(
            auth,
            {
                "status": "needs_input",
                "summary": "Which auth library?",
                "questions": [
                    "Passport or Auth.js?",
                    "Should sessions persist across restarts?",
                ],
            },
        )
        print(f"  python runner {auth.name}: needs_input (Which auth library?)")
        feature = base / "worktrees" / "20260118-e7f3"
        update = {"status": "working", "summary": "Implementing validation"}
        subprocess.run(
            [
                "node",
                str(ROOT / "examples" / "agency_runner.mjs"),
                str(feature),
                json.dumps(update),
            ],
            check=True,
        )
        crashed = Path(agency.status_path(base / "worktrees" / "20260118-c5d2"))
        crashed.write_text(
            '{"status": "Working", "summary": "half-written', encoding="utf-8"
        )
        old = time.time_ns() - 45 * 60 * 1_000_000_000
        os.utime(crashed, ns=(old, old))
        print(
            "  crashed runner 20260118-c5d2: torn status file, untouched for 45 minutes"
        )

        now = time.time_ns() // 1_000_000
        rows = [
            {
                "run_id": run_id,
                "name": name,
                "pr": pr,
                "snapshot": agency.snapshot(
                    base / "worktrees" / run_id,
                    base / "runs" / run_id / "meta.json",
                    tmux_active=True,
                    now=now,
                ),
            }
            for run_id, name, pr in runs
        ]
        print("\nagency ls")
        print(agency.render_ls(rows), end="")
        print("\nagency show 20260119-a3f2")
        print(agency.render_show(rows[0], now), end="")
        got = [agency.derive(row["snapshot"])["status"] for row in rows]
        want = ["needs_input", "stalled", "working"]
        if got != want:
            print(f"agency demo: statuses {got}, expected {want}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
