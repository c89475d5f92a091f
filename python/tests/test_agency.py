"""The agency host helpers on real worktrees (the rules themselves are in the conformance
corpus, tests/conformance/agency): the seed's lifecycle init → run → status updates → ls/show,
invalid and unparseable files, the stall signal from the file's real modification time,
archived runs, CLAUDE.md written only when absent, and concurrent writers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import statecore
from statecore import agency

NOW_MS = 1_768_826_700_000  # 2026-01-19T12:45:00Z
MINUTE = 60_000


def meta_file(tmp_path: Path, **flags: bool) -> Path:
    """A meta.json outside the worktree, as agency keeps it."""
    path = tmp_path / "runs" / "meta.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "schema_version": "1.0",
        "created_at": "2026-01-19T10:00:00Z",
        "run_id": "20260119-a3f2",
        "flags": dict(flags),
        "archive": {"merged_at": None},
    }
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def set_mtime(path: Path, millis: int) -> None:
    os.utime(path, ns=(millis * 1_000_000, millis * 1_000_000))


def test_protocol_document_is_written_only_when_absent(tmp_path: Path) -> None:
    assert agency.write_protocol_document(tmp_path) == "created"
    claude = tmp_path / "CLAUDE.md"
    assert claude.read_text(encoding="utf-8") == agency.protocol_document()
    claude.write_text("# my own notes\n", encoding="utf-8")
    assert agency.write_protocol_document(str(tmp_path)) == "exists"
    assert claude.read_text(encoding="utf-8") == "# my own notes\n"
    assert [p.name for p in tmp_path.iterdir()] == ["CLAUDE.md"], "no temp file left behind"


def test_protocol_document_racing_writers_create_it_once(tmp_path: Path) -> None:
    results: list[str] = []
    barrier = threading.Barrier(8)

    def init() -> None:
        barrier.wait()
        results.append(agency.write_protocol_document(tmp_path))

    threads = [threading.Thread(target=init) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == ["created"] + ["exists"] * 7
    assert (tmp_path / "CLAUDE.md").read_text(encoding="utf-8") == agency.protocol_document()


def test_the_seeds_lifecycle_run_update_ls_show(tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    worktree.mkdir()
    meta = meta_file(tmp_path)
    assert agency.load_runner_status(worktree) == {"status": None, "report": None}
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    assert agency.derive(snap)["status"] == "active", "no status file: tmux fallback"

    agency.write_initial_runner_status(worktree, now=NOW_MS - 10 * MINUTE)
    loaded = agency.load_runner_status(worktree)
    assert loaded["status"] is not None
    assert loaded["status"]["status"] == "working"
    assert loaded["status"]["summary"] == "Starting work"

    agency.write_runner_status(
        worktree,
        {
            "status": "needs_input",
            "summary": "Which auth library?",
            "questions": ["Passport or Auth.js?"],
        },
        now=NOW_MS - 5 * MINUTE,
    )
    # Written 5 minutes ago: show's ``updated:`` is the file's modification time, as agency's.
    set_mtime(agency.status_path(worktree), NOW_MS - 5 * MINUTE)
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    derived = agency.derive(snap)
    assert derived == {"status": "needs_input", "display": "needs input", "archived": False}
    row = {"run_id": "20260119-a3f2", "name": "auth-fix", "pr": 123, "snapshot": snap}
    assert agency.render_ls([row]).splitlines()[1].split() == [
        "20260119-a3f2", "auth-fix", "needs", "input", "Which", "auth", "library?", "#123",
    ]  # fmt: skip
    shown = agency.render_show(row, NOW_MS)
    assert "runner_status:\n  status: needs_input\n  updated: 5m ago\n" in shown
    assert "  questions:\n    - Passport or Auth.js?\n" in shown

    agency.write_runner_status(
        worktree, {"status": "blocked", "summary": "CI is down", "blockers": ["runner offline"]}
    )
    assert agency.derive(agency.snapshot(worktree, meta))["status"] == "blocked"
    assert agency.load_runner_status(worktree)["status"]["questions"] == []  # type: ignore[index]

    agency.write_runner_status(
        worktree,
        {"status": "ready_for_review", "summary": "Done", "how_to_test": "make test"},
    )
    snap = agency.snapshot(worktree, meta, tmux_active=False)
    assert agency.derive(snap)["display"] == "ready for review"
    assert "  how_to_test: make test\n" in agency.render_show({"snapshot": snap})


def test_an_invalid_update_is_refused_and_the_file_left_as_it_was(tmp_path: Path) -> None:
    agency.write_initial_runner_status(tmp_path, now=NOW_MS)
    path = Path(agency.status_path(tmp_path))
    before = path.read_bytes()
    with pytest.raises(statecore.ValidationError) as info:
        agency.write_runner_status(tmp_path, {"status": "needs_input", "summary": "Which library?"})
    assert info.value.code == "E_INVALID"
    assert info.value.path == "/questions"
    assert path.read_bytes() == before
    with pytest.raises(statecore.UsageError) as options:
        agency.write_runner_status(tmp_path, {"status": "working"}, timout=1)  # type: ignore[call-arg]
    assert (options.value.code, options.value.path) == ("E_OPTIONS", "/timout")
    assert 'did you mean "timeout"?' in options.value.message


def test_unknown_fields_of_the_file_are_kept_in_place(tmp_path: Path) -> None:
    path = Path(agency.status_path(tmp_path))
    path.parent.mkdir(parents=True)
    path.write_text(
        '{"status": "working", "progress": 0.4, "summary": "a", '
        '"updated_at": "2026-01-19T12:00:00Z"}',
        encoding="utf-8",
    )
    agency.write_runner_status(tmp_path, {"summary": "b"}, now=NOW_MS)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert list(doc)[:4] == ["status", "progress", "summary", "updated_at"]
    assert doc["progress"] == 0.4
    assert doc["summary"] == "b"
    assert doc["updated_at"] == "2026-01-19T12:45:00.000Z"


def test_an_unparseable_file_counts_as_absent_and_is_kept_before_a_write(tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    path = Path(agency.status_path(worktree))
    path.parent.mkdir(parents=True)
    path.write_text('{"status": "work', encoding="utf-8")
    loaded = agency.load_runner_status(worktree)
    assert loaded["status"] is None
    assert loaded["report"] is not None
    assert loaded["report"]["errors"][0]["code"] == "E_PARSE"
    meta = meta_file(tmp_path)
    assert agency.derive(agency.snapshot(worktree, meta, tmux_active=False))["status"] == "idle"
    show = agency.render_show({"snapshot": agency.snapshot(worktree, meta)}, NOW_MS)
    assert "runner_status: invalid\n" in show
    result = agency.write_runner_status(worktree, {"status": "working", "summary": "Recovered"})
    assert result["corrupt_copy"] is not None
    assert Path(result["corrupt_copy"]).read_text(encoding="utf-8") == '{"status": "work'
    assert agency.load_runner_status(worktree)["status"] is not None


def test_stall_comes_from_the_status_files_modification_time(tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    meta = meta_file(tmp_path)
    path = Path(agency.status_path(worktree))
    path.parent.mkdir(parents=True)
    path.write_text('{"status": "Working"}', encoding="utf-8")  # invalid: wrong case
    set_mtime(path, NOW_MS - 45 * MINUTE)
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    assert snap["stall_result"] == {"is_stalled": True, "stalled_duration": 45 * MINUTE}
    assert agency.derive(snap)["status"] == "stalled"
    row = agency.render_ls([{"run_id": "r", "name": "bug-fix", "snapshot": snap}])
    assert "(no activity for 45m)" in row
    set_mtime(path, NOW_MS - 15 * MINUTE + 1_000)
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    assert agency.derive(snap)["status"] == "active", "14:59 is not stalled"
    # A valid "working" file as old: working, the seed's precedence puts it above stalled.
    agency.write_runner_status(worktree, {"status": "working", "summary": "Still on it"})
    set_mtime(path, NOW_MS - 45 * MINUTE)
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    assert snap["stall_result"]["is_stalled"] is True
    assert agency.derive(snap)["status"] == "working"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_for_meta_is_broken_and_for_the_status_file_a_file_type_error(
    tmp_path: Path,
) -> None:
    worktree = tmp_path / "wt"
    agency.write_initial_runner_status(worktree, now=NOW_MS)
    meta = meta_file(tmp_path)
    meta.unlink()
    os.mkfifo(meta)
    snap = agency.snapshot(worktree, meta, tmux_active=True, now=NOW_MS)
    assert snap["meta"] is None
    assert agency.derive(snap)["status"] == "broken"
    status = Path(agency.status_path(worktree))
    status.unlink()
    os.mkfifo(status)
    with pytest.raises(statecore.FileTypeError, match="fifo"):
        agency.snapshot(worktree, None, now=NOW_MS)


def test_meta_flags_missing_meta_and_a_removed_worktree(tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    agency.write_runner_status(worktree, {"status": "working", "summary": "x"})
    assert agency.derive(agency.snapshot(worktree, None))["status"] == "broken"
    assert agency.derive(agency.snapshot(worktree, tmp_path / "nope.json"))["status"] == "broken"
    wrong = tmp_path / "wrong.json"
    wrong.write_text('{"schema_version": "1.0", "flags": {"abandoned": "yes"}}', encoding="utf-8")
    derived = agency.derive(agency.snapshot(worktree, wrong))
    assert derived == {"status": "broken", "display": "broken (archived)", "archived": True}
    assert [e["path"] for e in agency.check_meta(json.loads(wrong.read_text()))["errors"]] == [
        "/created_at",
        "/flags/abandoned",
    ]
    flagged = meta_file(tmp_path, needs_attention=True)
    assert agency.derive(agency.snapshot(worktree, flagged))["status"] == "needs_attention"
    (tmp_path / "gone").mkdir()
    derived = agency.derive(agency.snapshot(tmp_path / "gone-for-good", flagged))
    assert derived == {
        "status": "needs_attention",
        "display": "needs attention (archived)",
        "archived": True,
    }


WRITER = """
import sys
from statecore import agency
for i in range(int(sys.argv[3])):
    update = {"status": "working", "summary": f"{sys.argv[2]} step {i}"}
    agency.write_runner_status(sys.argv[1], update)
"""


def test_concurrent_writers_from_threads_and_processes(tmp_path: Path) -> None:
    worktree = tmp_path / "wt"
    agency.write_initial_runner_status(worktree)
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(worktree), f"proc{i}", "10"])
        for i in range(3)
    ]
    errors: list[BaseException] = []

    def write(name: str) -> None:
        try:
            for i in range(10):
                agency.write_runner_status(
                    worktree, {"status": "working", "summary": f"{name} step {i}"}
                )
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=write, args=(f"thread{i}",)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0]
    assert errors == []
    loaded = agency.load_runner_status(worktree)
    assert loaded["status"] is not None
    assert loaded["status"]["summary"].endswith("step 9")
    left = sorted(p.name for p in Path(agency.status_path(worktree)).parent.iterdir())
    assert left == ["runner_status.json"], "no lock or temp file left behind"


DOCS = Path(__file__).resolve().parents[2] / "docs" / "agency.md"
CORPUS = Path(__file__).resolve().parents[2] / "tests" / "conformance" / "agency"


def doc_blocks(language: str) -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    parts = text.split("```" + language + "\n")[1:]
    return [part.split("```", 1)[0] for part in parts]


def corpus_expect(file: str, name: str) -> str:
    suite = json.loads((CORPUS / file).read_text(encoding="utf-8"))
    (case,) = [c for c in suite["cases"] if c["name"] == name]
    return str(case["expect"])


def test_docs_examples_are_the_rendered_output() -> None:
    blocks = doc_blocks("")
    assert corpus_expect("render.json", "ls: the seed's table, byte for byte") in blocks
    show = "show: the seed's runner_status section, byte for byte"
    assert corpus_expect("render.json", show) in blocks


def test_docs_python_example_runs(tmp_path: Path) -> None:
    (example,) = doc_blocks("python")
    exec(compile(example, str(DOCS), "exec"), {"worktree": tmp_path})
    loaded = agency.load_runner_status(tmp_path)
    assert loaded["status"] is not None
    assert loaded["status"]["questions"] == ["Passport or Auth.js?"]


def test_derive_files_is_build_snapshot_then_derive_on_the_corpus_snapshots() -> None:
    """Every run of the corpus's snapshots, from its files' bytes in one derive_files call,
    has the status derive gives for build_snapshot of the same bytes and facts."""
    suite = json.loads((CORPUS / "snapshot.json").read_text(encoding="utf-8"))
    cases = [
        c["args"] for c in suite["cases"] if c["op"] == "agency_build_snapshot" and "error" not in c
    ]
    assert len(cases) >= 4
    now = "2026-01-19T12:45:00Z"
    by_threshold: dict[object, list[list[object]]] = {}
    for args in cases:
        by_threshold.setdefault(args[4], []).append(args)
    for threshold, batch in by_threshold.items():
        data = b""
        runs: list[dict[str, object]] = []
        expected = []
        for status, meta, facts, _now, _threshold in batch:
            status_bytes = None if status is None else status.encode()
            meta_bytes = None if meta is None else meta.encode()
            data += (meta_bytes or b"") + (status_bytes or b"")
            run: dict[str, object] = {
                "meta": None if meta_bytes is None else len(meta_bytes),
                "status": None if status_bytes is None else len(status_bytes),
            }
            run.update(facts or {})
            runs.append(run)
            snapshot = agency.build_snapshot(status_bytes, meta_bytes, facts, now, threshold)
            expected.append(agency.derive(snapshot))
        got = agency.derive_files(data, runs, now, threshold)
        assert [{k: v for k, v in r.items() if k != "error"} for r in got] == expected
    # A torn meta.json: the run is broken, and its result names the file.
    torn = b'{"schema_version": "1.0", "crea'
    (one,) = agency.derive_files(torn, [{"meta": len(torn), "status": None}], now)
    assert one["status"] == "broken"
    assert one["error"]["file"] == "meta"
    assert one["error"]["code"] == "E_PARSE"
    with pytest.raises(statecore.StatecoreError) as refused:
        agency.derive_files(torn, [{"meta": len(torn) + 1}], now)
    assert refused.value.code == "E_ARGUMENT"
    assert refused.value.path == "/0"
