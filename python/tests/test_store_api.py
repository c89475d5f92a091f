"""The document stores' API is declared once, in the core's table of the stores' API
(``manifest()["host"]["stores"]``, core/src/ops/table_store_api.rs), and its TypeScript
declarations and docs generated from it: each Python store has the table's members and no other
public one, with the table's positional parameters, so a member added or changed by hand
without its row fails here (npm/test/store_api.test.mjs checks the JS classes)."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import statecore
from statecore.store import FileStore, PostgresStore

STORES = {c["name"]: c for c in statecore.manifest()["host"]["stores"]}
CLASSES = {"FileStore": FileStore, "PostgresStore": PostgresStore}


def _members(name: str) -> list[dict[str, Any]]:
    """The members Python has, by the table."""
    return [m for m in STORES[name]["members"] if m["lang"] != "js"]


def _keywords(param: dict[str, Any]) -> bool:
    """True when Python takes the parameter as keywords (options, handlers)."""
    ty = param["type"]
    return (
        bool(param["optional"]) and isinstance(ty, dict) and bool({"options", "native"} & set(ty))
    )


def test_the_table_declares_both_stores_and_their_interface() -> None:
    assert sorted(STORES) == ["DocumentStore", "FileStore", "PostgresStore"]
    shared = {m["name"] for m in STORES["DocumentStore"]["members"]}
    assert {"read", "update", "change", "query", "close"} <= shared
    for name in CLASSES:
        assert STORES[name]["implements"] == "DocumentStore"
        assert shared <= {m["name"] for m in STORES[name]["members"]}


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_a_store_has_the_tables_members_and_no_other_public_one(name: str) -> None:
    cls = CLASSES[name]
    declared = {m["name"] for m in _members(name) if m["kind"] in ("method", "static")}
    public = {
        attr for attr, value in vars(cls).items() if not attr.startswith("_") and callable(value)
    }
    assert public == declared
    properties = [m["name"] for m in _members(name) if m["kind"] == "property"]
    if name == "FileStore":
        store = FileStore("/")
        for prop in properties:
            assert isinstance(getattr(store, prop), str)


@pytest.mark.parametrize(
    "member",
    [(c, m) for c in sorted(CLASSES) for m in _members(c) if m["kind"] != "property"],
    ids=lambda cm: f"{cm[0]}.{cm[1]['name']}",
)
def test_python_signatures_follow_the_table(member: tuple[str, dict[str, Any]]) -> None:
    name, row = member
    target = "__init__" if row["kind"] == "constructor" else row["name"]
    function = getattr(CLASSES[name], target)
    parameters = list(inspect.signature(function).parameters.values())[1:]  # self
    params = [p for p in row["params"] if p["lang"] != "js"]
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert positional == [p["name"] for p in params if not _keywords(p)]
    takes_keywords = any(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in parameters)
    assert takes_keywords == any(_keywords(p) for p in params)


def test_a_file_store_closes_like_a_postgres_store() -> None:
    store = FileStore("/")
    assert store.close() is None
