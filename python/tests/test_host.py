"""Unit tests of the Python host layer (statecore.host): documents and logs on real files."""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import (
    ConflictError,
    DataError,
    LogCorruptError,
    ValidationError,
    append_line,
    read_document,
    read_log,
    repair_log,
    update_document,
)


@pytest.fixture
def workdir() -> Iterator[Path]:
    """A fresh directory, removed after the test."""
    path = Path(tempfile.mkdtemp(prefix="statecore-host-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


def test_package_exports_the_host_functions() -> None:
    assert statecore.read_document is read_document
    assert statecore.update_document is update_document
    assert statecore.append_line is append_line
    assert statecore.read_log is read_log


def test_missing_file_reads_as_default_and_is_not_created(workdir: Path) -> None:
    file = workdir / "state.json"
    result = read_document(file, "json")
    assert result["document"] == {}
    assert result["etag"] is None
    assert result["corrupt"] is False
    assert read_document(str(file), "agency.runner_status")["document"] is None
    assert names(workdir) == []


def test_unparseable_file_reads_as_default_with_warning_untouched(workdir: Path) -> None:
    file = workdir / "state.json"
    file.write_bytes(b"{not json")
    result = read_document(file, "json")
    assert result["document"] == {}
    assert result["corrupt"] is True
    assert result["etag"] == statecore.etag(b"{not json")
    assert [w["code"] for w in result["warnings"]] == ["W_UNPARSEABLE"]
    assert file.read_bytes() == b"{not json"
    assert names(workdir) == ["state.json"]


def test_update_keeps_unknown_fields_and_order(workdir: Path) -> None:
    file = workdir / "state.json"
    file.write_text('{"zeta": {"keep": [1, 2]}, "a": 1, "__proto__": {"x": 1}}')
    result = update_document(file, "json", {"a": 2})
    assert result["changed"] is True
    assert result["corrupt_copy"] is None
    text = file.read_text()
    expected = {"zeta": {"keep": [1, 2]}, "a": 2, "__proto__": {"x": 1}}
    assert text == statecore.serialize(expected)
    assert list(json.loads(text)) == ["zeta", "a", "__proto__"]
    assert result["etag"] == statecore.etag(text.encode())
    again = update_document(file, "json", lambda doc: {**doc, "b": True})
    assert list(again["document"]) == ["zeta", "a", "__proto__", "b"]
    assert json.loads(file.read_text())["zeta"] == {"keep": [1, 2]}


def test_invalid_result_raises_validation_error_and_leaves_bytes(workdir: Path) -> None:
    file = workdir / "status.json"
    original = b'{"status": "working", "summary": "x", "extra": 1}'
    file.write_bytes(original)
    with pytest.raises(ValidationError) as info:
        update_document(file, "agency.runner_status", {"status": "bogus"})
    assert info.value.code == "E_INVALID"
    with pytest.raises(ValidationError):
        update_document(file, "agency.runner_status", lambda doc: ["not", "an", "object"])
    with pytest.raises(ValidationError):
        update_document(workdir / "j.json", "json", lambda doc: 42)
    assert file.read_bytes() == original
    assert names(workdir) == ["status.json"]  # no lock, temp or copy left behind


def test_if_match_mismatch_raises_conflict_and_changes_nothing(workdir: Path) -> None:
    file = workdir / "state.json"
    first = update_document(file, "json", {"n": 1})
    before = file.read_bytes()
    stale = statecore.etag(b"{}\n")
    with pytest.raises(ConflictError) as info:
        update_document(file, "json", {"n": 2}, if_match=stale)
    assert info.value.code == "E_CONFLICT"
    called: list[bool] = []
    with pytest.raises(ConflictError):
        update_document(file, "json", lambda doc: called.append(True), if_match=stale)
    assert called == []
    assert file.read_bytes() == before
    second = update_document(file, "json", {"n": 2}, if_match=first["etag"])
    assert second["document"]["n"] == 2
    assert names(workdir) == ["state.json"]


def test_corrupt_file_is_copied_with_exact_bytes_before_replacing(workdir: Path) -> None:
    file = workdir / "state.json"
    damaged = bytes([0x7B, 0x22, 0x61, 0xFF, 0x00, 0x0A, 0x7D])  # not UTF-8, not JSON
    file.write_bytes(damaged)
    result = update_document(file, "json", {"fresh": True})
    copy = result["corrupt_copy"]
    assert copy is not None
    assert re.fullmatch(r"state\.json\.corrupt-\d{8}T\d{9}Z(-\d+)?", os.path.basename(copy))
    assert Path(copy).read_bytes() == damaged
    assert any(w["code"] == "W_CORRUPT_COPY" and copy in w["message"] for w in result["warnings"])
    assert json.loads(file.read_text()) == {"fresh": True}
    file.write_bytes(b"garbage 2")
    second = update_document(file, "json", {"again": 1})
    assert second["corrupt_copy"] != copy
    assert Path(str(second["corrupt_copy"])).read_bytes() == b"garbage 2"
    assert Path(copy).read_bytes() == damaged


def test_unchanged_document_is_not_rewritten(workdir: Path) -> None:
    file = workdir / "state.json"
    update_document(file, "json", {"a": 1})
    inode = file.stat().st_ino
    assert update_document(file, "json", {"a": 1})["changed"] is False
    assert file.stat().st_ino == inode


def test_atomic_write_keeps_mode_and_removes_dead_temp_files(workdir: Path) -> None:
    file = workdir / "state.json"
    file.write_text("{}\n")
    file.chmod(0o600)
    litter = workdir / f".state.json.tmp-{'ab' * 16}"
    litter.write_text('{"half": ')
    other = workdir / ".state.json.tmp-mine"  # not a token: not ours, kept
    other.write_text("x")
    update_document(file, "json", {"a": 1})
    assert stat.S_IMODE(file.stat().st_mode) == 0o600
    assert not litter.exists()
    assert other.exists()


def test_stamp_without_now_is_filled_from_clock_or_now(workdir: Path) -> None:
    file = workdir / "state.json"
    before = int(time.time() * 1000)
    result = update_document(file, "json", {"a": 1}, {"stamp": {"field": "updated_at"}})
    stamped = result["document"]["updated_at"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z", stamped)
    assert statecore.parse_timestamp(stamped) >= before - 1000
    fixed = update_document(
        file, "json", {"a": 2}, {"stamp": {"field": "updated_at"}}, now="2026-01-19T12:00:00.000Z"
    )
    assert fixed["document"]["updated_at"] == "2026-01-19T12:00:00.000Z"
    given = update_document(file, "json", {"a": 3}, {"stamp": {"field": "updated_at", "now": 0}})
    assert given["document"]["updated_at"] == "1970-01-01T00:00:00.000Z"


def test_update_functions_mutate_or_return_and_failures_release(workdir: Path) -> None:
    file = workdir / "state.json"

    def mutate(doc: dict[str, Any]) -> None:
        doc["mutated"] = True

    def boom(doc: Any) -> Any:
        raise RuntimeError("boom")

    update_document(file, "json", mutate)
    update_document(file, "json", lambda doc: {**doc, "returned": True})
    assert json.loads(file.read_text()) == {"mutated": True, "returned": True}
    with pytest.raises(RuntimeError, match="boom"):
        update_document(file, "json", boom)
    with pytest.raises(TypeError):
        update_document(file, "json", mutate, {"strategy": "shallow"})
    assert names(workdir) == ["state.json"]  # every failure released the lock
    update_document(file, "json", {"after": 1}, timeout=0)


def test_torn_tail_dropped_on_read_and_repaired_with_copy_on_append(workdir: Path) -> None:
    file = workdir / "EVENTS.jsonl"
    file.write_bytes(b'{"a":1}\n{"b":2}\n{"c":')
    log = read_log(file)
    assert log["records"] == [{"a": 1}, {"b": 2}]
    assert log["torn"] == {"line": 3, "offset": 16}
    assert [w["code"] for w in log["warnings"]] == ["W_TORN_TAIL"]
    assert file.read_bytes() == b'{"a":1}\n{"b":2}\n{"c":'  # readers never write
    result = append_line(file, {"d": 4})
    assert Path(str(result["corrupt_copy"])).read_bytes() == b'{"c":'
    assert file.read_bytes() == b'{"a":1}\n{"b":2}\n{"d":4}\n'
    append_line(file, {"e": 5})
    log = read_log(file)
    assert log["records"] == [{"a": 1}, {"b": 2}, {"d": 4}, {"e": 5}]
    assert log["torn"] is None
    assert log["warnings"] == []


def test_repair_log_cuts_a_torn_tail_with_a_copy_and_leaves_the_rest(workdir: Path) -> None:
    file = workdir / "EVENTS.jsonl"
    file.write_bytes(b'{"a":1}\n{"b":2}\n{"c":')
    result = repair_log(file)
    assert result["torn_line"] == 3
    assert Path(str(result["corrupt_copy"])).read_bytes() == b'{"c":'
    assert [w["code"] for w in result["warnings"]] == ["W_TORN_TAIL"]
    assert file.read_bytes() == b'{"a":1}\n{"b":2}\n'
    assert repair_log(file) == {"torn_line": None, "warnings": [], "corrupt_copy": None}
    assert repair_log(workdir / "none.jsonl")["torn_line"] is None
    assert not (workdir / "none.jsonl").exists()
    bad = workdir / "bad.jsonl"
    bad.write_bytes(b'1\nx\n{"c":')
    with pytest.raises(LogCorruptError):
        repair_log(bad)
    assert bad.read_bytes() == b'1\nx\n{"c":'
    with pytest.raises(statecore.UsageError):
        repair_log(file, timout=1)  # type: ignore[call-arg]


def test_garbage_in_the_middle_is_log_corrupt_and_untouched(workdir: Path) -> None:
    file = workdir / "EVENTS.jsonl"
    original = b'{"a":1}\ngarbage\n{"b":2}\n'
    file.write_bytes(original)
    with pytest.raises(LogCorruptError) as info:
        append_line(file, {"c": 3})
    assert info.value.code == "E_LOG_CORRUPT"
    with pytest.raises(LogCorruptError):
        read_log(file)
    assert file.read_bytes() == original
    assert names(workdir) == ["EVENTS.jsonl"]


def test_missing_trailing_newline_is_repaired_and_missing_log_created(workdir: Path) -> None:
    file = workdir / "EVENTS.jsonl"
    file.write_bytes(b'{"a":1}')
    assert append_line(file, {"b": 2})["corrupt_copy"] is None
    assert file.read_bytes() == b'{"a":1}\n{"b":2}\n'
    fresh = workdir / "new.jsonl"
    assert read_log(fresh) == {"records": [], "torn": None, "warnings": []}
    append_line(fresh, {"first": True})
    assert fresh.read_bytes() == b'{"first":true}\n'
    with pytest.raises(DataError):
        append_line(fresh, {"bad": float("nan")})
    assert fresh.read_bytes() == b'{"first":true}\n'
