"""The shared conformance corpus (tests/conformance/**/*.json, see tests/README.md) through
the installed Python package: the same cases the Rust, Node and browser runners check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import errors
from statecore._statecore import Job, LogReplay, update_logged

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "conformance"


def as_bytes(arg: Any) -> bytes | None:
    """A bytes argument: a string (its UTF-8), ``{"hex": ...}``, or ``None`` for no file."""
    if arg is None:
        return None
    if isinstance(arg, str):
        return arg.encode()
    return bytes.fromhex(arg["hex"])


# The dispatcher is the table: ``statecore.manifest()`` (the core's operation table as data)
# names each operation's function (its module and name) and which arguments are bytes; no
# operation is listed here.
MANIFEST = {op["name"]: op for op in statecore.manifest()["ops"]}
MODULES = {"": statecore} | {
    op["module"]: getattr(statecore, op["module"])
    for op in statecore.manifest()["ops"]
    if op["module"]
}


def routine_args(op_name: str, args: list[Any] | None) -> list[Any]:
    """The arguments after the document of a file routine's operation: ``{hex}`` is bytes
    where the operation's parameter is bytes or random."""
    op = MANIFEST.get(op_name or "merge", {"params": [], "access": None})
    writes = (op["access"] or {}).get("writes") or {}
    params = op["params"][0 if writes.get("takes_document") is False else 1 :]
    return [
        as_bytes(arg)
        if i < len(params) and params[i]["kind"] in ("bytes", "random") and isinstance(arg, dict)
        else arg
        for i, arg in enumerate(args or [])
    ]


def call_routine(name: str, args: list[Any]) -> Any:
    """The file routines (tests/README.md), not table operations: ``update_file [kind,
    change, data, args, now, if_match, reset]`` and ``query_file [kind, op, data, args]``."""
    kind, op, data, rest = (args + [None] * 4)[:4]
    if name == "update_file":
        now, if_match, reset = ([*args[4:], None, None, None])[:3]
        return statecore.update_file(
            kind,
            op,
            as_bytes(data),
            routine_args(op, rest),
            now=now,
            if_match=if_match,
            reset=bool(reset),
        )
    return statecore.query_file(kind, op, as_bytes(data), routine_args(op, rest))


def resident(kind: str, source: Any, steps: list[list[Any]]) -> list[Any]:
    """A resident document (tests/README.md): ``resident [kind, data, steps]`` opens ``data``
    (or holds ``{"document": ...}``), then runs each step ``[method, *args]``: the read's
    fields (None for a held document), then each step's result or ``{"error": {code, path}}``."""
    if isinstance(source, dict) and "document" in source:
        doc: Any = statecore.resident_document(kind, source["document"])
        results: list[Any] = [None]
    else:
        opened: dict[str, Any] = dict(statecore.open_document(kind, as_bytes(source)))
        doc = opened.pop("document")
        results = [opened]
    for method, *rest in steps:
        try:
            if method in ("get", "text", "validate", "merge", "replace"):
                results.append(getattr(doc, method)(*rest))
                continue
            op = MANIFEST[method]
            args = routine_args(method, rest)
            function = getattr(doc, op["method"], None)
            if function is not None:
                results.append(function(*args))
            elif (op["access"] or {}).get("writes"):  # not of this kind: what the core says
                results.append(doc.change(method, *args))
            else:
                results.append(doc.query(method, *args))
        except statecore.StatecoreError as error:
            results.append({"error": {"code": error.code, "path": error.path}})
    return results


def logged(name: str, args: list[Any]) -> Any:
    """The logged-file routines (tests/README.md): ``update_logged [kind, session_id, change,
    data, log_size, args, now, event_id?]`` and ``log_replay [kind, session_id, data, offset,
    corrupt, chunks, change, args, now, event_id?]``."""
    if name == "update_logged":
        kind, session, change, data, size, rest, now, *event_id = args
        return update_logged(
            kind,
            session,
            change,
            as_bytes(data),
            size,
            tuple(routine_args(change, rest)),
            now,
            *event_id,
        )
    kind, session, data, offset, corrupt, chunks, change, rest, now, *event_id = args
    replay = LogReplay(kind, session, as_bytes(data), offset, corrupt)
    for chunk in chunks:
        replay.feed(as_bytes(chunk))
    return replay.commit(change, tuple(routine_args(change, rest)), now, *event_id)


def call(name: str, args: list[Any]) -> Any:
    """Calls the Python function of the corpus op ``name`` with the case's arguments."""
    if name in ("update_logged", "log_replay"):
        return logged(name, args)
    if name in ("update_file", "query_file"):
        return call_routine(name, args)
    if name == "resident":
        return resident(*args)
    op = MANIFEST[name]
    function = getattr(MODULES[op["module"]], op["method"])
    converted = [
        as_bytes(arg)
        if i < len(op["params"])
        and op["params"][i]["kind"] in ("bytes", "random")
        and (isinstance(arg, dict) or op["params"][i]["kind"] == "bytes")
        else arg
        for i, arg in enumerate(args)
    ]
    return function(*converted)


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
    args = case.get("args", [])
    if "error" in case:
        want = case["error"]
        with pytest.raises(errors.error_class(want["code"])) as raised:
            call(case["op"], args)
        assert raised.value.code == want["code"], str(raised.value)
        if "path" in want:
            assert raised.value.path == want["path"], str(raised.value)
        for key, value in want.get("details", {}).items():
            got = raised.value.details.get(key)
            assert render(got) == render(value), f"details.{key}: {raised.value}"
    else:
        result = call(case["op"], args)
        if isinstance(result, Job):
            result = result.first  # a row that starts a job: the corpus states its first step
        assert render(result) == render(case["expect"])


def test_every_op_has_a_python_function() -> None:
    """Every operation of the table is a function of its Python module, and every op the
    corpus uses is an operation of the table."""
    for op in MANIFEST.values():
        assert callable(getattr(MODULES[op["module"]], op["method"], None)), op["name"]
    used = {
        case["op"]
        for file in CORPUS.rglob("*.json")
        for case in json.loads(file.read_text(encoding="utf-8"))["cases"]
    }
    routines = {"update_file", "query_file", "resident", "update_logged", "log_replay"}
    assert routines <= used, "the file routines have corpus cases"
    assert used <= MANIFEST.keys() | routines, f"unknown ops: {sorted(used - MANIFEST.keys())}"


def test_constants_are_the_cores_host_constants() -> None:
    assert dict(statecore.CONSTANTS) == statecore.manifest()["host"]["constants"]
    assert statecore.CONSTANTS["lock_lease_ms"] == 60000
    with pytest.raises(TypeError):
        statecore.CONSTANTS["lock_lease_ms"] = 1  # type: ignore[index]
