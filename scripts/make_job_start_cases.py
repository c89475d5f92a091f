"""Writes tests/conformance/host/job_starts.json (a maintainer's tool, not run by the tests): the
table's job rows (`lock_acquire_job`, `lock_release_job`, `lock_sweep_job`, `store_job`,
`file_update_job`, `cli_job`: docs/locking.md § The lock as a job) each started from the setup
of a `*_script` case of the corpus, their first step expected to be that case's first step (a
job started by its row asks for what the same job run over answers asks for first), and each
error of a setup that both rows read alike expected as that case's error. Reads only the
corpus; run it after changing a `*_script` case:

    python3 scripts/make_job_start_cases.py
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "conformance"


def lock_job_args(kind: str, setup: dict[str, Any]) -> tuple[str, list[Any]]:
    """The row of a lock job of `kind` and its arguments, from a `lock_job_script` setup (the
    seed as bytes: `{"hex": ...}`)."""
    tail = [
        setup["identity"],
        setup["probe"],
        {"hex": setup["seed"]},
        setup["now_ms"],
        setup["mono_ms"],
    ]
    if kind == "acquire":
        own = [setup.get("watching", False), setup.get("timeout_ms", 0)]
    elif kind == "release":
        own = [setup["text"]]
    else:
        entries = setup["entries"]
        own = [
            setup["name"],
            [e["name"] for e in entries],
            [e["path"] for e in entries],
        ]
    return f"lock_{kind}_job", [setup["lock"], *own, *tail]


def started(case: dict[str, Any]) -> tuple[str, list[Any]] | None:
    """The job row and arguments that start the job of the script case `case`, or None where
    the rows read the setup differently (a lock script's hex seed, a file update's setup
    object: their setup errors are the script rows')."""
    op, args = case["op"], case["args"]
    if op == "lock_job_script":
        kind, setup = args[0], args[1]
        if kind not in ("acquire", "release", "sweep") or "error" in case:
            return None
        return lock_job_args(kind, setup)
    if op == "store_job_script":
        return "store_job", [args[0], args[1]]
    if op == "file_update_script":
        setup = args[0]
        if not isinstance(setup, dict) or set(setup) != {"kind", "path", "now_ms"}:
            return None
        return "file_update_job", [setup["kind"], setup["path"], setup["now_ms"]]
    if op == "cli_job_script":
        return "cli_job", [args[0], args[1]]
    return None


def main() -> None:
    sources = [
        "host/lock_jobs.json",
        "store/update_jobs.json",
        "store/session_jobs.json",
        "host/file_update_jobs.json",
        "cli/job.json",
    ]
    cases = []
    for source in sources:
        for case in json.loads((CORPUS / source).read_text())["cases"]:
            start = started(case)
            if start is None:
                continue
            op, args = start
            out = {
                "name": f"{case['name']} (its first step, {source})",
                "op": op,
                "args": args,
            }
            if "error" in case:
                out["error"] = case["error"]
            else:
                steps = case["expect"]
                if not steps or steps[0].get("do") == "error":
                    continue
                out["expect"] = steps[0]
            cases.append(out)
    document = {
        "description": (
            "The table's job rows (docs/locking.md § The lock as a job): each job started by "
            "its row from the setup of a `*_script` case, whose first step it must ask for "
            "(or whose setup error it must raise). Written by scripts/make_job_start_cases.py "
            "from those cases; a job's result in the corpus is its first step."
        ),
        "cases": cases,
    }
    target = CORPUS / "host" / "job_starts.json"
    target.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
    print(f"{target.relative_to(ROOT)}: {len(cases)} cases")


if __name__ == "__main__":
    main()
