"""The exported JSON Schemas (``statecore.schema(kind)``) checked by an independent validator,
``jsonschema`` (draft 2020-12): every document of the corpus (tests/README.md, "Schemas") is
schema-valid exactly when ``validate`` reports no structural error (E_TYPE, E_ENUM,
E_REQUIRED). Timestamps are ``format: date-time``, an annotation here (RFC 3339 is checked by
``validate``), so no format checker is used."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import statecore

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "conformance"
STRUCTURAL = {"E_TYPE", "E_ENUM", "E_REQUIRED"}
NOT_A_DOCUMENT = re.compile(
    r"^fctry_(inbox_machine|chunk_machine|run_machine|render_status_line|status_line_text|activity_feed)$"
)


def _kinds_with_schema() -> set[str]:
    names = set()
    for kind in statecore.kinds():
        try:
            statecore.schema(kind["name"])
        except statecore.UsageError as e:
            if e.code != "E_KIND":
                raise
            continue
        names.add(kind["name"])
    return names


def _kind_of_first_argument(op: str) -> str | None:
    """The kind of the document a fctry operation takes first (None: not a document)."""
    if re.match(r"^fctry_inbox_(add|transition|dismiss|batch)$", op):
        return "fctry.inbox"
    if re.match(r"^hivemind_(fire|follow_up|on_file)$", op):
        return "hivemind.state"
    if NOT_A_DOCUMENT.match(op) or not op.startswith("fctry_"):
        return None
    return "fctry.state"


def _corpus_documents(with_schema: set[str]) -> list[tuple[str, str, Any]]:
    """``(where, kind, document)`` for the ``validate`` cases and the fctry operations' inputs."""
    out = []
    for file in sorted(CORPUS.rglob("*.json")):
        for case in json.loads(file.read_text(encoding="utf-8")).get("cases", []):
            where = f"{file.relative_to(CORPUS)}: {case['name']}"
            args = case.get("args", [])
            if case["op"] == "validate" and args[0] in with_schema:
                out.append((where, args[0], args[1]))
            kind = _kind_of_first_argument(case["op"])
            if kind and args and args[0] is not None:
                out.append((where, kind, args[0]))
    return out


WITH_SCHEMA = _kinds_with_schema()


def test_every_kind_but_agency_runner_status_has_a_schema() -> None:
    assert sorted(WITH_SCHEMA) == [
        "fctry.event",
        "fctry.inbox",
        "fctry.state",
        "hivemind.state",
        "json",
    ]


@pytest.mark.parametrize("kind", sorted(WITH_SCHEMA))
def test_the_schema_is_a_valid_draft_2020_12_schema(kind: str) -> None:
    jsonschema.Draft202012Validator.check_schema(statecore.schema(kind))


def test_jsonschema_agrees_with_validate_on_the_structure_of_every_corpus_document() -> None:
    validators = {k: jsonschema.Draft202012Validator(statecore.schema(k)) for k in WITH_SCHEMA}
    counts = {"valid": 0, "invalid": 0}
    disagreements = []
    for where, kind, doc in _corpus_documents(WITH_SCHEMA):
        problems = [e.message for e in validators[kind].iter_errors(doc)]
        structural = [e for e in statecore.validate(kind, doc)["errors"] if e["code"] in STRUCTURAL]
        counts["invalid" if problems else "valid"] += 1
        if bool(problems) == (not structural):
            disagreements.append(f"{where} ({kind}): jsonschema {problems}; validate {structural}")
    assert disagreements == []
    # Both outcomes are exercised, so the agreement is not vacuous.
    assert counts["valid"] >= 50, counts
    assert counts["invalid"] >= 20, counts


def test_an_unknown_kind_has_no_schema() -> None:
    with pytest.raises(statecore.UsageError) as info:
        statecore.schema("fctry.nope")
    assert info.value.code == "E_KIND"
