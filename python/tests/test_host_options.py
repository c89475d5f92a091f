"""Host options are checked (issue 9 §7): an unknown or misspelt keyword of the host functions
is ``UsageError`` ``E_OPTIONS`` naming the nearest valid name (the core's ``check_options``),
raised before the lock is taken, so the files are never touched; ``update_document`` takes the
merge keywords. Node: npm/test/host_options.test.mjs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import agency, fctry, hivemind


def refused(call: Callable[[], object], key: str, nearest: str | None) -> None:
    """``call`` raises E_OPTIONS at ``/<key>``, suggesting ``nearest``."""
    with pytest.raises(statecore.UsageError) as raised:
        call()
    assert (raised.value.code, raised.value.path) == ("E_OPTIONS", f"/{key}")
    assert raised.value.details.get("nearest") == nearest, raised.value.message
    if nearest is not None:
        assert f'did you mean "{nearest}"?' in raised.value.message


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every file under ``directory`` with its bytes, to show nothing was written."""
    return {
        str(p.relative_to(directory)): p.read_bytes() if p.is_file() else None
        for p in sorted(directory.rglob("*"))
    }


def test_a_misspelt_keyword_of_update_document_is_refused_not_ignored(tmp_path: Path) -> None:
    file = tmp_path / "state.json"
    statecore.update_document(file, "json", {"a": 0})
    before = snapshot(tmp_path)
    update: Any = statecore.update_document  # the misspellings do not type-check
    refused(lambda: update(file, "json", {"a": 1}, if_mach="x"), "if_mach", "if_match")
    refused(lambda: update(file, "json", {"a": 1}, timout=1), "timout", "timeout")
    refused(lambda: update(file, "json", {"a": 1}, ifMatch="x"), "ifMatch", "if_match")
    refused(lambda: update(file, "json", {"a": 1}, strategyy="deep"), "strategyy", "strategy")
    assert snapshot(tmp_path) == before
    etag = statecore.read_document(file, "json")["etag"]
    done = statecore.update_document(file, "json", {"a": 1}, if_match=etag, timeout=1.0)
    assert done["changed"]
    assert done["document"] == {"a": 1}


def test_update_document_takes_the_merge_keywords(tmp_path: Path) -> None:
    file = tmp_path / "state.json"
    statecore.update_document(file, "json", {"a": {"b": 1}, "k": 1})
    shallow = statecore.update_document(file, "json", {"a": {"c": 2}}, strategy="shallow")
    assert shallow["document"] == {"a": {"c": 2}, "k": 1}
    stamped = statecore.update_document(
        file, "json", {}, stamp={"field": "at"}, now="2026-01-02T03:04:05.000Z"
    )
    assert stamped["document"]["at"] == "2026-01-02T03:04:05.000Z"
    with pytest.raises(statecore.UsageError) as raised:
        statecore.update_document(file, "json", {}, strategy="deeep")  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.path) == ("E_OPTIONS", "/strategy")


def test_a_misspelt_keyword_of_append_line_is_refused(tmp_path: Path) -> None:
    file = tmp_path / "events.jsonl"
    statecore.append_line(file, {"n": 1})
    before = snapshot(tmp_path)
    append: Any = statecore.append_line
    refused(lambda: append(file, {"n": 2}, timeot=5), "timeot", "timeout")
    refused(lambda: append(file, {"n": 2}, now=0), "now", None)
    assert snapshot(tmp_path) == before


def test_every_protocol_helper_checks_its_keywords_before_touching_files(tmp_path: Path) -> None:
    fctry.start_command(tmp_path, "init")
    hivemind.fire(tmp_path, "select_project")
    agency.write_initial_runner_status(tmp_path)
    before = snapshot(tmp_path)
    f: Any = fctry
    h: Any = hivemind
    a: Any = agency
    refused(lambda: f.start_step(tmp_path, "interview", if_mach=None), "if_mach", "if_match")
    refused(lambda: f.inbox_add(tmp_path, "reference", "x", timeot=1), "timeot", "timeout")
    refused(lambda: h.fire(tmp_path, "user_submit", tiemout=5), "tiemout", "timeout")
    refused(
        lambda: a.write_runner_status(tmp_path, {"status": "working"}, ifmatch=None),
        "ifmatch",
        "if_match",
    )
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(("key", "keyword"), [("timeout", "timeout"), ("if_match", "if_match")])
def test_an_update_option_given_as_a_merge_option_says_where_it_goes(
    tmp_path: Path, key: str, keyword: str
) -> None:
    file = tmp_path / "state.json"
    statecore.update_document(file, "json", {"a": 0})
    before = snapshot(tmp_path)
    with pytest.raises(statecore.UsageError) as raised:
        statecore.update_document(file, "json", {"a": 1}, {key: 5})
    error = raised.value
    assert (error.code, error.path) == ("E_OPTIONS", f"/{key}")
    assert error.details["belongs_to"] == "update"
    assert "unknown merge option" not in error.message
    assert f"update_document(file, kind, patch, {keyword}=...)" in error.message
    # With an update function too (it takes no merge options): the same message.
    with pytest.raises(statecore.UsageError) as raised:
        statecore.update_document(file, "json", lambda d: d, {key: 5})
    assert raised.value.details["belongs_to"] == "update"
    assert snapshot(tmp_path) == before
