"""Python benches of statecore (docs/conventions.md § Benchmarks): statecore and the stacks a user would assemble,
on the same input, in the same run.

Prints a markdown fragment on stdout (bench/run.sh puts it in RESULTS.md); progress goes to
stderr. Exits non-zero when statecore gives a wrong result (checked once per comparison, outside
the timed loops); never fails on speed.

    .venv/bin/python bench/python_bench.py [--quick]
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
import statecore
from py_alternatives import (
    DOC_BYTES,
    HERE,
    KIND,
    PATCH,
    PATCH_TEXT,
    RunnerStatus,
    deep_merge,
    fast_validate,
    js_validator,
    rs_validator,
    valid_by,
)
from py_locked import concurrent_updates, locked_updates
from pylib import QUICK, Case, compare, fail, fmt, log, same_json, table


def check_equivalence() -> None:
    """Every alternative validator agrees with statecore on valid and invalid documents."""
    cases: list[Any] = [
        json.loads(DOC_BYTES),
        {"status": "needs_input", "summary": "x", "questions": []},
        {"status": "Working", "summary": "x"},
        {"status": "working", "summary": "   "},
        {"status": "working", "summary": 3},
        {"status": "blocked", "summary": "x", "blockers": ["a"]},
        {"status": "ready_for_review", "summary": "x", "how_to_test": ""},
        {"status": "working", "summary": "x", "updated_at": "yesterday"},
        {"status": "working", "summary": "x", "risks": [1]},
    ]
    names = ["fastjsonschema", "jsonschema", "pydantic"]
    if rs_validator is not None:
        names.append("jsonschema_rs")
    for doc in cases:
        mine = statecore.validate(KIND, doc)["valid"]
        for name in names:
            if valid_by(name, doc) != mine:
                fail(f"schema equivalence ({name})", repr(doc))


def main() -> None:
    out: list[str] = []
    check_equivalence()

    # -----------------------------------------------------------------------------------------
    # (1) the dict boundary: a ~4 KB nested dict in and out
    # -----------------------------------------------------------------------------------------
    log("(1) dict boundary")
    d = json.loads(DOC_BYTES)
    empty: dict[str, Any] = {}
    same_json("(1) statecore.merge(d, {})", statecore.merge(d, empty), d)
    if statecore.merge(d, empty) is d:
        fail("(1) statecore.merge returned its input")
    cases = compare(
        [
            Case("statecore.merge(d, {})", lambda: statecore.merge(d, empty), statecore=True),
            Case("json.loads(json.dumps(d))", lambda: json.loads(json.dumps(d))),
            Case("orjson.loads(orjson.dumps(d))", lambda: orjson.loads(orjson.dumps(d))),
        ]
    )
    out.append(
        table(
            "Python (1): the dict boundary (a 4 KB nested dict in, a new dict out)",
            f"The runner status fixture as a dict ({len(DOC_BYTES)} bytes as JSON). "
            "`statecore.merge(d, {})` converts the dict to the core's document and back.",
            cases,
        )
    )

    # -----------------------------------------------------------------------------------------
    # (2) merge + validate, text in, text out
    # -----------------------------------------------------------------------------------------
    log("(2) merge+validate text→text")
    data = DOC_BYTES

    def sc_apply() -> str:
        return statecore.apply_update(KIND, data, PATCH, None, None)["text"]

    def sc_text() -> str:
        merged = statecore.merge_text(data, PATCH_TEXT)
        if not statecore.validate_text(KIND, merged)["valid"]:
            raise ValueError("invalid")
        return merged

    def alt_fast() -> str:
        doc = deep_merge(json.loads(data), PATCH)
        fast_validate(doc)
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

    def alt_jsonschema() -> str:
        doc = deep_merge(json.loads(data), PATCH)
        js_validator.validate(doc)
        return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"

    def alt_pydantic() -> str:
        doc = deep_merge(json.loads(data), PATCH)
        return RunnerStatus.model_validate(doc).model_dump_json(indent=2, exclude_unset=True)

    def alt_pydantic_json() -> str:
        # Validate on read with pydantic's own JSON parser, merge, validate again, dump.
        read = RunnerStatus.model_validate_json(data).model_dump(exclude_unset=True)
        merged = RunnerStatus.model_validate(deep_merge(read, PATCH))
        return merged.model_dump_json(indent=2, exclude_unset=True)

    def alt_rs() -> bytes:
        assert rs_validator is not None
        doc = deep_merge(orjson.loads(data), PATCH)
        rs_validator.validate(doc)
        return orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"

    alternatives = [
        Case("json + merge + fastjsonschema + json.dumps(indent=2)", alt_fast),
        Case("json + merge + jsonschema + json.dumps(indent=2)", alt_jsonschema),
        Case("json + merge + pydantic model_validate + model_dump_json", alt_pydantic),
        Case(
            "pydantic model_validate_json + merge + model_validate + model_dump_json",
            alt_pydantic_json,
        ),
    ]
    if rs_validator is not None:
        alternatives.append(Case("orjson + merge + jsonschema_rs + orjson.dumps(INDENT_2)", alt_rs))
    expected = json.loads(alt_fast())
    same_json("(2) apply_update", json.loads(sc_apply()), expected)
    same_json("(2) merge_text + validate_text", json.loads(sc_text()), expected)
    for c in alternatives:
        if json.loads(c.fn()) != expected:
            fail(f"(2) alternative {c.name} disagrees with the others")
    if sc_apply() != alt_fast():
        fail("(2) canonical text", "differs from json.dumps(indent=2, ensure_ascii=False) + '\\n'")
    try:
        statecore.apply_update(KIND, data, {"status": "nope"}, None, None)
        fail("(2) apply_update accepted an invalid result")
    except statecore.ValidationError:
        pass
    cases = compare(
        [
            Case('statecore.apply_update(kind, bytes, patch)["text"]', sc_apply, statecore=True),
            Case("statecore.merge_text + validate_text", sc_text, statecore=True),
            *alternatives,
        ]
    )
    out.append(
        table(
            "Python (2): merge + validate, text in → text out",
            f"The {len(DOC_BYTES)}-byte runner status (bytes, as read from a file) and a "
            f"{len(PATCH_TEXT)}-byte deep patch (a dict; a JSON string for `merge_text`). "
            "`apply_update` also returns the merged document as a dict and its etag. "
            "orjson returns bytes, the others str.",
            cases,
        )
    )

    # -----------------------------------------------------------------------------------------
    # (3) locked file updates
    # -----------------------------------------------------------------------------------------
    log("(3) locked file updates")
    tmp = Path(tempfile.mkdtemp(prefix="statecore-bench-"))
    try:
        out.append(locked_updates(tmp))
        log("(3b) locked file updates, 4 writer processes at once")
        out.append(concurrent_updates(tmp))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    # -----------------------------------------------------------------------------------------
    # (4) agency derive over the 10,000 snapshots of the Node bench (8)
    # -----------------------------------------------------------------------------------------
    log("(4) agency derive over 10,000 runs")
    out.append(agency_derive())

    # -----------------------------------------------------------------------------------------
    # (6) a cold `import statecore` against a cold `import json`
    # -----------------------------------------------------------------------------------------
    log("(6) cold import")
    out.append(cold_import())

    if rs_validator is None:
        out.append("_jsonschema-rs is not installed here: its rows are missing._\n")
    sys.stdout.write("\n".join(out))
    log("done")


# ---------------------------------------------------------------------------------------------
# (4) agency derive: statecore.agency.derive vs the 12-level table in plain Python
# ---------------------------------------------------------------------------------------------
RUNNER_STATUSES = frozenset(["working", "needs_input", "blocked", "ready_for_review"])
# Unicode White_Space, as Go's strings.TrimSpace and Rust's str::trim (str.strip() would also
# strip U+001C..U+001F).
WHITE_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000")
)
# meta.json as agency's Go client decodes it into its typed record: a field of another type
# (None is fine), or no schema_version or created_at, makes the run broken.
META_STRINGS = [
    "schema_version",
    "run_id",
    "repo_id",
    "name",
    "runner",
    "runner_cmd",
    "parent_branch",
    "branch",
    "worktree_path",
    "created_at",
    "tmux_session_name",
    "pr_url",
    "last_push_at",
    "last_verify_at",
    "last_report_sync_at",
    "last_report_hash",
]
META_OBJECTS: dict[str, dict[str, str]] = {
    "flags": {
        "setup_failed": "bool",
        "tmux_failed": "bool",
        "needs_attention": "bool",
        "needs_attention_reason": "str",
        "abandoned": "bool",
    },
    "setup": {
        "command": "str",
        "exit_code": "int",
        "duration_ms": "int",
        "timed_out": "bool",
        "log_path": "str",
        "output_ok": "bool",
        "output_summary": "str",
    },
    "archive": {"archived_at": "str", "merged_at": "str"},
}
DISPLAY = {
    "needs_attention": "needs attention",
    "ready_for_review": "ready for review",
    "needs_input": "needs input",
}


def typed(value: Any, kind: str) -> bool:
    if value is None:
        return True
    if kind == "bool":
        return isinstance(value, bool)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, str)


def meta_readable(meta: Any) -> bool:
    if not isinstance(meta, dict):
        return False
    if not all(typed(meta.get(k), "str") for k in META_STRINGS):
        return False
    if not meta.get("schema_version") or not meta.get("created_at"):
        return False
    if not typed(meta.get("pr_number"), "int"):
        return False
    for key, fields in META_OBJECTS.items():
        value = meta.get(key)
        if value is None:
            continue
        if not isinstance(value, dict):
            return False
        if not all(typed(value.get(k), kind) for k, kind in fields.items()):
            return False
    return True


def non_blank(value: Any) -> bool:
    return isinstance(value, str) and value.strip(WHITE_SPACE) != ""


def valid_runner_status(s: Any) -> bool:
    """The runner status rules: True when the document validates (warnings are fine)."""
    if not isinstance(s, dict):
        return False
    status = s.get("status")
    if not isinstance(status, str) or status not in RUNNER_STATUSES:
        return False
    if not non_blank(s.get("summary")):
        return False
    if status == "needs_input" and not (isinstance(s.get("questions"), list) and s["questions"]):
        return False
    if status == "blocked" and not (isinstance(s.get("blockers"), list) and s["blockers"]):
        return False
    if status == "ready_for_review" and not non_blank(s.get("how_to_test")):
        return False
    for key in ("schema_version", "summary", "how_to_test", "updated_at"):
        value = s.get(key)
        if value is not None and not isinstance(value, str):
            return False
    for key in ("questions", "blockers", "risks"):
        items = s.get(key)
        if items is None:
            continue
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            return False
    return True


def py_derive(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The seed's 12-level precedence, by hand."""
    archived = snapshot.get("worktree_present") is False
    tmux = snapshot.get("tmux_active") is True
    stall = snapshot.get("stall_result")
    stalled_ms = None
    if isinstance(stall, dict) and stall.get("is_stalled") is True:
        stalled_ms = stall.get("stalled_duration") or 0
    runner = snapshot.get("runner_status")
    meta = snapshot.get("meta")
    if not meta_readable(meta):
        status = "broken"
    else:
        flags = meta.get("flags")
        flags = flags if isinstance(flags, dict) else {}
        archive = meta.get("archive")
        merged_at = archive.get("merged_at") if isinstance(archive, dict) else None
        if isinstance(merged_at, str) and merged_at:
            status = "merged"
        elif flags.get("abandoned") is True:
            status = "abandoned"
        elif flags.get("setup_failed") is True:
            status = "failed"
        elif flags.get("needs_attention") is True:
            status = "needs_attention"
        elif valid_runner_status(runner):
            status = runner["status"]
        elif stalled_ms is not None and tmux:
            status = "stalled"
        elif tmux:
            status = "active"
        else:
            status = "idle"
    archived = archived or status == "broken"  # always archived, as agency shows it
    shown = DISPLAY.get(status, status)
    out: dict[str, Any] = {
        "status": status,
        "display": f"{shown} (archived)" if archived else shown,
        "archived": archived,
    }
    if status == "stalled":
        out["stalled_duration"] = stalled_ms
    return out


def agency_snapshots() -> list[dict[str, Any]]:
    """The Node bench (8)'s 10,000 snapshots (its seeded generator, so both use the same)."""
    url = (HERE / "agency_bench.mjs").as_uri()
    code = (
        "const m = await import(process.argv[1]);"
        "process.stdout.write(JSON.stringify(m.makeRuns().map((r) => r.snapshot)));"
    )
    result = subprocess.run(
        ["node", "--input-type=module", "-e", code, url],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(result.stdout)


def cold_import() -> str:
    """(6): wall time of ``python -c "import statecore"`` against ``-c "import json"``, fresh
    processes interleaved (byte-compiled first, as an installed package is)."""
    import subprocess

    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    subprocess.run([sys.executable, "-c", "import statecore, json"], check=True, env=env)
    cases = [
        Case('python -c "import statecore"', "import statecore", statecore=True),
        Case('python -c "import json"', "import json"),
        Case('python -c "pass" (process start only)', "pass", reference=True),
    ]
    for _ in range(5 if QUICK else 30):
        for c in cases:
            t0 = time.perf_counter_ns()
            subprocess.run([sys.executable, "-c", c.fn], check=True, env=env)
            c.times.append(time.perf_counter_ns() - t0)
    return table(
        "Python (6): cold import",
        "Wall time from spawn to exit of the venv's interpreter running one import (the "
        "package byte-compiled, as pip installs it).",
        cases,
        "per process",
    )


def agency_derive() -> str:
    """(4): statecore.agency.derive vs py_derive over the same 10,000 snapshots."""
    snapshots = agency_snapshots()
    n = len(snapshots)
    derive = statecore.agency.derive
    for i, snapshot in enumerate(snapshots):
        mine, theirs = derive(snapshot), py_derive(snapshot)
        if mine != theirs:
            fail(
                f"(4) the pure-Python derive agrees with statecore on run {i}",
                f"\n  snapshot:  {snapshot!r}\n  statecore: {mine!r}\n  python:    {theirs!r}",
            )
    documents = [s["runner_status"] for s in snapshots if isinstance(s.get("runner_status"), dict)]
    for doc in documents:
        if statecore.validate(KIND, doc)["valid"] != valid_runner_status(doc):
            fail("(4) the pure-Python runner status rules agree with statecore.validate", repr(doc))
    cases = [
        Case("statecore.agency.derive(snapshot)", derive, statecore=True),
        Case("pure-Python 12-level table + runner status rules", py_derive),
    ]
    for _ in range(1 if QUICK else 7):
        for c in cases:
            fn = c.fn
            t0 = time.perf_counter_ns()
            for snapshot in snapshots:
                fn(snapshot)
            c.times.append((time.perf_counter_ns() - t0) / n)
    sc_whole, py_whole = (fmt(statistics.median(c.times) * n) for c in cases)
    return table(
        f"Python (4): agency derive over {n:,} runs",
        f"The {n:,} snapshots of Node (8a) (its seeded generator), as dicts: one `derive` call per "
        "run. statecore converts the dict to the core's document; the pure-Python version is "
        "the seed's table with the runner status rules written out (and, like most hand-written "
        f"code, no checks of the snapshot's shape). Whole pass: statecore {sc_whole}, pure "
        f"Python {py_whole}. Both agree on all {n:,} runs, and on the validity of all "
        f"{len(documents):,} runner status documents.",
        cases,
        "per run",
    )


if __name__ == "__main__":
    main()
