"""The Hivemind state-file helpers and the pure workflow functions an agent uses to know what
to do next (the rules themselves are in the conformance corpus)."""

from __future__ import annotations

from pathlib import Path

import pytest

import statecore
from statecore import hivemind

NOW = "2026-01-23T10:30:00Z"


def test_a_missing_state_file_reads_as_the_idle_default(tmp_path: Path) -> None:
    read = hivemind.read_state(tmp_path)
    assert read["document"] == statecore.default_document("hivemind.state")
    assert read["document"]["state"] == "idle"
    assert read["etag"] is None
    assert not (tmp_path / "workspace").exists()


def test_write_state_creates_workspace_and_round_trips(tmp_path: Path) -> None:
    outcome = hivemind.fire(None, "select_project", NOW, {"project": str(tmp_path)})
    written = hivemind.write_state(str(tmp_path), outcome["state"])
    assert written["changed"] is True
    assert Path(hivemind.state_path(tmp_path)).is_file()
    assert hivemind.read_state(tmp_path)["document"] == outcome["state"]
    assert hivemind.read_state(tmp_path)["etag"] == written["etag"]


def test_write_state_refuses_an_invalid_document_and_leaves_the_file(tmp_path: Path) -> None:
    hivemind.write_state(tmp_path, hivemind.fire(None, "select_project", NOW)["state"])
    before = Path(hivemind.state_path(tmp_path)).read_bytes()
    with pytest.raises(statecore.ValidationError) as info:
        hivemind.write_state(tmp_path, {"state": "reviewing"})
    assert info.value.code == "E_INVALID"
    assert Path(hivemind.state_path(tmp_path)).read_bytes() == before


def test_an_agent_reads_what_to_do_next_from_the_outcome(tmp_path: Path) -> None:
    state = hivemind.fire(None, "select_project", NOW)["state"]
    state = hivemind.fire(state, "give_task", NOW)["state"]
    outcome = hivemind.on_file(state, "workspace/plan.md", "Checkpoints: 2", NOW)
    assert [t["to"] for t in outcome["transitions"]] == ["plan_review"]
    assert outcome["notifications"] == [
        {"agent": "reviewer", "message": hivemind.context_message("plan_review")}
    ]
    assert hivemind.agents(outcome["state"]["state"])["reviewer"] == "active"
    with pytest.raises(statecore.TransitionError) as info:
        hivemind.fire(outcome["state"], "approve_complete", NOW)
    assert info.value.code == "E_TRANSITION"


def test_now_defaults_to_the_host_clock() -> None:
    outcome = hivemind.fire(None, "select_project")
    assert statecore.parse_timestamp(outcome["state"]["timestamp"]) > 0


def test_the_diagram_is_mermaid_of_the_machine() -> None:
    text = hivemind.diagram()
    assert text.startswith("stateDiagram-v2")
    for state in (s["name"] for s in hivemind.machine()["states"]):
        assert state in text


def test_docs_show_the_diagram_the_machine_draws() -> None:
    docs = Path(__file__).resolve().parents[2] / "docs" / "hivemind.md"
    assert "```mermaid\n" + hivemind.diagram().rstrip("\n") + "\n```" in docs.read_text("utf-8")
