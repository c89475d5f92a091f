"""The host routines are declared once, in the core's host-routine table
(``manifest()["host"]["routines"]``, core/src/ops/table_routines.rs), and their types and docs
generated from it: every routine the host modules export by hand is a row of the table and every
row is exported, so a routine added by hand without a row (whose types would then be written by
hand) fails here."""

from __future__ import annotations

import importlib
import inspect
from typing import Any

import pytest

import statecore
from statecore._generated import host_types

ROUTINES = statecore.manifest()["host"]["routines"]
ENTRIES = ["host", "hivemind", "agency", "hive", "specify"]


def hand_written(entry: str) -> list[str]:
    """The functions a module exports (``__all__``) that are not generated from the
    operation table."""
    module = importlib.import_module(f"statecore.{entry}")
    generated: set[str] = set()
    if entry != "host":
        generated = set(importlib.import_module(f"statecore._generated.{entry}").__all__)
    return sorted(
        name
        for name in module.__all__
        if name not in generated and inspect.isfunction(getattr(module, name))
    )


@pytest.mark.parametrize("entry", ENTRIES)
def test_hand_written_routines_are_the_tables(entry: str) -> None:
    declared = sorted(r["name"] for r in ROUTINES if r["entry"] == entry)
    assert declared, f"no routine of {entry} in the table"
    assert hand_written(entry) == declared


def test_the_package_exports_the_host_routines_of_the_root() -> None:
    for routine in ROUTINES:
        if routine["entry"] == "host" and routine["name"] in statecore.__all__:
            assert getattr(statecore, routine["name"]) is getattr(statecore.host, routine["name"])


def test_the_result_types_are_the_tables() -> None:
    types = statecore.manifest()["host"]["types"]
    names = sorted(t["python"] for t in types if t["lang"] != "js")
    assert sorted(host_types.__all__) == names
    for name in names:
        assert getattr(host_types, name) is dict  # a result is a plain dict at run time
    # statecore.host gives the log results by name, made on first use.
    assert statecore.host.AppendResult is host_types.AppendResult


def _keywords(param: dict[str, object]) -> bool:
    """True when Python takes the parameter as keywords: options (a host options shape, an
    options type of the table such as ``SessionOptions``) and handlers."""
    ty = param["type"]
    return (
        bool(param["optional"])
        and isinstance(ty, dict)
        and bool({"options", "native", "host"} & set(ty))
    )


@pytest.mark.parametrize("routine", ROUTINES, ids=lambda r: f"{r['entry']}.{r['name']}")
def test_python_signatures_follow_the_table(routine: dict[str, Any]) -> None:
    """The positional parameters of each Python routine are the table's, in order, and it
    takes keywords where the table has options: a parameter added by hand without a row fails."""
    module = importlib.import_module(f"statecore.{routine['entry']}")
    function = getattr(module, str(routine["name"]))
    parameters = inspect.signature(function).parameters.values()
    params = [p for p in routine["params"] if p["lang"] != "js"]
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert positional == [p["name"] for p in params if not _keywords(p)]
    takes_keywords = any(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in parameters)
    assert takes_keywords == any(_keywords(p) for p in params)
