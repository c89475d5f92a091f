"""The file update job through the package (``statecore.file_update_job``, docs/locking.md § The
update as a job): what a tool with its own I/O calls. The steps themselves are the corpus's
(tests/conformance/host/file_update_jobs.json); here, the bytes given beside an answer, an
unknown kind, and a whole update driven by the host on a real file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import statecore
from statecore import file_update_job
from statecore._statecore import Job
from statecore.errors import StatecoreError

INDEX = "/d/specs/index.md"
# A file a person is still saving: its last line has no line break.
UNTERMINATED = "# Spec\n\n| id | title |\n|----|-------|\n| G1 | one |"


def index_job() -> Job:
    return file_update_job("specify.index", INDEX, 0)


def test_a_file_people_edit_is_judged_from_the_bytes_given_beside_the_answer() -> None:
    job = index_job()
    assert job.first == {"do": "load", "path": INDEX, "bytes": True}
    # Unfinished and 600 ms old: waited on until it has been left alone 1 s, a poll at a time.
    step = job.next({"missing": False, "age_ms": 600}, UNTERMINATED.encode())
    assert step == {"do": "pause", "ms": 250}
    # The same answer without the bytes: nothing known unfinished, so 600 ms is quiet enough.
    assert index_job().next({"missing": False, "age_ms": 600})["do"] == "all"
    # Bytes that are not UTF-8 are taken as they are (the change refuses them, not the wait).
    assert index_job().next({"missing": False, "age_ms": 600}, b"\xff\xfe\x00")["do"] == "all"


def test_an_unknown_kind_is_refused_and_a_json_kinds_first_step_is_the_whole_update() -> None:
    with pytest.raises(StatecoreError) as unknown:
        file_update_job("fctry.nope", "/d/s.json", 0)
    assert unknown.value.code == "E_KIND"
    first = file_update_job("fctry.state", "/d/s.json", 0).first
    assert [step["do"] for step in first["steps"]] == ["load", "apply", "write", "done"]


def test_an_update_of_a_corrupt_file_copies_it_where_the_job_said_then_writes(
    tmp_path: Path,
) -> None:
    file = tmp_path / "doc.json"
    file.write_text("{not json")
    out = statecore.update_document(file, "json", {"a": 1})
    assert out["changed"] is True
    copy = out["corrupt_copy"]
    assert copy is not None
    assert os.path.basename(copy).startswith("doc.json.corrupt-")
    assert Path(copy).read_text() == "{not json"
    assert [w["code"] for w in out["warnings"]] == ["W_UNPARSEABLE", "W_CORRUPT_COPY"]
    assert json.loads(file.read_text()) == {"a": 1}
    # Unchanged: nothing written, no copy, no warning.
    again = statecore.update_document(file, "json", {"a": 1})
    assert again["changed"] is False
    assert again["corrupt_copy"] is None
    assert sorted(os.listdir(tmp_path)) == sorted(["doc.json", os.path.basename(copy)])
