"""The shared conformance corpus (tests/conformance/**/*.json, see tests/README.md) through
the installed Python package: the same cases the Rust, Node and browser runners check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

import pytest

import statecore
from statecore import agency, errors, fctry, hivemind, machine

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "conformance"


def as_bytes(arg: Any) -> bytes | None:
    """A bytes argument: a string (its UTF-8), ``{"hex": ...}``, or ``None`` for no file."""
    if arg is None:
        return None
    if isinstance(arg, str):
        return arg.encode()
    return bytes.fromhex(arg["hex"])


def at(args: list[Any], index: int) -> Any:
    return args[index] if index < len(args) else None


# op (Rust name) -> how the Python API is called with the case's positional args.
def color_of(options: Any) -> bool:
    """The corpus passes options objects; the Python wrappers take ``color=``."""
    return bool(options and options.get("color"))


OPS: dict[str, Callable[[list[Any]], Any]] = {
    "parse": lambda a: statecore.parse(as_bytes(a[0])),  # type: ignore[arg-type]
    "canonical": lambda a: statecore.canonical(as_bytes(a[0])),  # type: ignore[arg-type]
    "serialize": lambda a: statecore.serialize(a[0]),
    "merge": lambda a: statecore.merge(a[0], a[1], at(a, 2)),
    "validate": lambda a: statecore.validate(a[0], a[1]),
    "kinds": lambda a: statecore.kinds(),
    "default_document": lambda a: statecore.default_document(a[0]),
    "schema": lambda a: statecore.schema(a[0]),
    "limits": lambda a: statecore.limits(),
    "etag": lambda a: statecore.etag(as_bytes(a[0])),  # type: ignore[arg-type]
    "load_document": lambda a: statecore.load_document(a[0], as_bytes(at(a, 1))),
    "prepare_document": lambda a: statecore.prepare_document(a[0], a[1]),
    "apply_update": lambda a: statecore.apply_update(
        a[0], as_bytes(at(a, 1)), a[2], at(a, 3), at(a, 4)
    ),
    "finish_update": lambda a: statecore.finish_update(a[0], as_bytes(at(a, 1)), a[2], at(a, 3)),
    "check_if_match": lambda a: statecore.check_if_match(at(a, 0), at(a, 1)),
    "parse_log": lambda a: statecore.parse_log(as_bytes(a[0])),  # type: ignore[arg-type]
    "log_line": lambda a: statecore.log_line(a[0]),
    "parse_timestamp": lambda a: statecore.parse_timestamp(a[0]),
    "format_timestamp": lambda a: statecore.format_timestamp(a[0]),
    "machine_check": lambda a: machine.check(a[0]),
    "machine_events": lambda a: machine.events(a[0], a[1], at(a, 2)),
    "machine_fire": lambda a: machine.fire(a[0], a[1], a[2], at(a, 3)),
    "machine_diagram": lambda a: machine.diagram(a[0]),
    "fctry_start_command": lambda a: fctry.start_command(a[0], a[1], a[2]),
    "fctry_start_step": lambda a: fctry.start_step(a[0], a[1], a[2]),
    "fctry_complete_step": lambda a: fctry.complete_step(a[0], a[1], a[2], a[3]),
    "fctry_check_prerequisites": lambda a: fctry.check_prerequisites(a[0], a[1], at(a, 2)),
    "fctry_skip_prerequisites": lambda a: fctry.skip_prerequisites(a[0], a[1], a[2], a[3]),
    "fctry_add_untracked_change": lambda a: fctry.add_untracked_change(a[0], a[1], a[2]),
    "fctry_clear_untracked_changes": lambda a: fctry.clear_untracked_changes(a[0], a[1], a[2]),
    "fctry_inbox_machine": lambda a: fctry.inbox_machine(),
    "fctry_inbox_add": lambda a: fctry.inbox_add(a[0], a[1], a[2], a[3], a[4]),
    "fctry_inbox_transition": lambda a: fctry.inbox_transition(a[0], a[1], a[2]),
    "fctry_inbox_dismiss": lambda a: fctry.inbox_dismiss(a[0], a[1]),
    "fctry_inbox_batch": lambda a: fctry.inbox_batch(a[0], a[1]),
    "fctry_chunk_machine": lambda a: fctry.chunk_machine(),
    "fctry_run_machine": lambda a: fctry.run_machine(),
    "fctry_create_build_run": lambda a: fctry.create_build_run(a[0], a[1], a[2]),
    "fctry_chunk_event": lambda a: fctry.chunk_event(a[0], a[1], a[2], a[3]),
    "fctry_ready_chunks": lambda a: fctry.ready_chunks(a[0]),
    "fctry_dag_layers": lambda a: fctry.dag_layers(a[0]),
    "fctry_pause_build_run": lambda a: fctry.pause_build_run(a[0], a[1], a[2]),
    "fctry_resume_build_run": lambda a: fctry.resume_build_run(a[0], a[1]),
    "fctry_finish_build_run": lambda a: fctry.finish_build_run(a[0], a[1]),
    "fctry_resume_plan": lambda a: fctry.resume_plan(a[0], at(a, 1)),
    "fctry_status_line": lambda a: fctry.status_line(a[0]),
    "fctry_activity_feed": lambda a: fctry.activity_feed(a[0]),
    "fctry_context_health": lambda a: fctry.context_health(a[0], a[1]),
    "hivemind_machine": lambda a: hivemind.machine(),
    "hivemind_diagram": lambda a: hivemind.diagram(),
    "hivemind_agents": lambda a: hivemind.agents(a[0]),
    "hivemind_context_message": lambda a: hivemind.context_message(a[0]),
    "hivemind_fire": lambda a: hivemind.fire(a[0], a[1], a[2], at(a, 3)),
    "hivemind_follow_up": lambda a: hivemind.follow_up(a[0], a[1], a[2]),
    "hivemind_on_file": lambda a: hivemind.on_file(a[0], a[1], a[2], a[3]),
    "agency_initial_runner_status": lambda a: agency.initial_runner_status(a[0]),
    "agency_update_runner_status": lambda a: agency.update_runner_status(a[0], a[1], a[2]),
    "agency_parse_runner_status": lambda a: agency.parse_runner_status(as_bytes(a[0])),
    "agency_age": lambda a: agency.age(a[0], a[1]),
    "agency_check_stall": lambda a: agency.check_stall(a[0], a[1], at(a, 2)),
    "agency_build_snapshot": lambda a: agency.build_snapshot(
        as_bytes(a[0]), as_bytes(a[1]), a[2], a[3], at(a, 4)
    ),
    "agency_derive": lambda a: agency.derive(a[0]),
    "agency_render_ls": lambda a: agency.render_ls(a[0]),
    "agency_render_show": lambda a: agency.render_show(a[0], a[1]),
    "agency_protocol_document": lambda a: agency.protocol_document(),
    "fctry_render_status_line": lambda a: fctry.render_status_line(a[0], color_of(at(a, 1))),
    "fctry_status_line_text": lambda a: fctry.status_line_text(a[0], color_of(at(a, 1))),
}


def load_cases() -> list[Any]:
    cases = []
    for file in sorted(CORPUS.rglob("*.json")):
        suite = json.loads(file.read_text(encoding="utf-8"))
        for case in suite["cases"]:
            name = f"{file.relative_to(CORPUS).as_posix()}: {case['name']}"
            cases.append(pytest.param(case, id=name))
    # An empty corpus must fail, not skip: one case that says so.
    return cases or [pytest.param(None, id="corpus-is-empty")]


def render(value: Any) -> str:
    """Strings compare exactly; anything else as canonical text."""
    return value if isinstance(value, str) else statecore.serialize(value)


@pytest.mark.parametrize("case", load_cases())
def test_case(case: dict[str, Any] | None) -> None:
    assert case is not None, f"no conformance cases found under {CORPUS}"
    assert ("expect" in case) != ("error" in case), "a case needs exactly one of expect/error"
    op = OPS[case["op"]]
    args = case.get("args", [])
    if "error" in case:
        want = case["error"]
        with pytest.raises(errors.error_class(want["code"])) as raised:
            op(args)
        assert raised.value.code == want["code"], str(raised.value)
        if "path" in want:
            assert raised.value.path == want["path"], str(raised.value)
    else:
        assert render(op(args)) == render(case["expect"])


def test_every_op_is_mapped() -> None:
    """The runner knows every op of docs/api.md (and nothing the corpus lacks is silent)."""
    used = {
        case["op"]
        for file in CORPUS.rglob("*.json")
        for case in json.loads(file.read_text(encoding="utf-8"))["cases"]
    }
    assert used <= OPS.keys(), f"unmapped ops: {sorted(used - OPS.keys())}"
