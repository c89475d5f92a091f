"""The JSON Schemas (``statecore.schema(kind)``, also shipped as package data
``statecore/schemas/<kind>.json``) checked by an independent validator, ``jsonschema`` (draft
2020-12) with format checking (``date-time`` asserted): every document of the corpus
(tests/README.md, "Schemas") is schema-valid exactly when ``validate`` reports no structural
error: the codes of a field's presence, type, enum values and timestamp format (cross-field
rules are ``validate``'s alone)."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import statecore

CORPUS = Path(__file__).resolve().parents[2] / "tests" / "conformance"
STRUCTURAL = {
    "E_TYPE",
    "E_ENUM",
    "E_REQUIRED",
    "E_TIMESTAMP_FORMAT",
    "E_STATUS_MISSING",
    "E_STATUS_UNKNOWN",
    "E_SUMMARY_MISSING",
}
KINDS = [kind["name"] for kind in statecore.kinds()]


def _first_kinds() -> dict[str, str]:
    """The kind of the document each operation takes first (from the table's file access)."""
    out = {}
    for op in statecore.manifest()["ops"]:
        access = op["access"] or {}
        if access.get("writes", {}).get("takes_document"):
            out[op["name"]] = access["writes"]["kind"]
        elif "reads" in access and not access["reads"]["bytes"]:
            out[op["name"]] = access["reads"]["kind"]
    return out


def _corpus_documents() -> list[tuple[str, str, Any]]:
    """``(where, kind, document)`` for the ``validate`` cases and the documents operations take."""
    first = _first_kinds()
    out = []
    for file in sorted(CORPUS.rglob("*.json")):
        for case in json.loads(file.read_text(encoding="utf-8")).get("cases", []):
            where = f"{file.relative_to(CORPUS)}: {case['name']}"
            args = case.get("args", [])
            if case["op"] == "validate" and args[0] in KINDS:
                out.append((where, args[0], args[1]))
            kind = first.get(case["op"])
            if kind and args and args[0] is not None:
                out.append((where, kind, args[0]))
    return out


def _validator(kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        statecore.schema(kind), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER
    )


@pytest.mark.parametrize("kind", KINDS)
def test_every_kind_has_a_valid_schema_shipped_as_package_data(kind: str) -> None:
    schema = statecore.schema(kind)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"].endswith(f"/schemas/{kind}.json")
    shipped = resources.files("statecore").joinpath("schemas", f"{kind}.json").read_text("utf-8")
    assert json.loads(shipped) == schema


def test_date_time_is_asserted() -> None:
    """The format checker knows ``date-time`` (rfc3339-validator is installed)."""
    assert not _validator("fctry.state").is_valid({"lastUpdated": "yesterday"})


def test_a_document_with_a_schema_key_is_valid() -> None:
    docs = {
        "json": {"$schema": "x", "a": 1},
        "fctry.state": {"$schema": "x", "specVersion": "1.0"},
        "hivemind.state": {"$schema": "x", "state": "idle"},
        "agency.runner_status": {"$schema": "x", "status": "working", "summary": "Starting"},
    }
    for kind, doc in docs.items():
        assert _validator(kind).is_valid(doc), kind
        report = statecore.validate(kind, doc)
        assert (report["errors"], report["warnings"]) == ([], []), kind


def test_counts_written_with_a_zero_fraction_are_whole_numbers_for_the_three() -> None:
    """JSON Schema's ``integer`` is any number with a zero fraction: the shipped schema, the
    validator and the status line agree that ``5.0`` counts 5, and that ``2.5`` is no count."""
    text = (
        '{"currentCommand": "execute", "scenarioScore": {"satisfied": 5.0, "total": 8.0}, '
        '"chunkProgress": {"current": 2.0, "total": 4.0}, "readinessSummary": {"aligned": 28.0}}'
    )
    doc = json.loads(text)
    shipped = resources.files("statecore").joinpath("schemas", "fctry.state.json")
    schema = json.loads(shipped.read_text("utf-8"))
    checker = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    assert checker.is_valid(doc)
    assert statecore.validate("fctry.state", doc)["valid"]
    line = statecore.fctry.status_line_text(text.encode(), {})
    assert line == "fctry │ execute │ chunks 2/4 │ scenarios 5/8 │ 28/28 built"
    doc["scenarioScore"]["satisfied"] = 2.5
    assert not checker.is_valid(doc)
    assert not statecore.validate("fctry.state", doc)["valid"]


def test_jsonschema_agrees_with_validate_on_the_structure_of_every_corpus_document() -> None:
    validators = {kind: _validator(kind) for kind in KINDS}
    counts = {"valid": 0, "invalid": 0}
    disagreements = []
    documents = _corpus_documents()
    for where, kind, doc in documents:
        schema_valid = validators[kind].is_valid(doc)
        structural = [e for e in statecore.validate(kind, doc)["errors"] if e["code"] in STRUCTURAL]
        counts["valid" if schema_valid else "invalid"] += 1
        if schema_valid != (not structural):
            errors = [e.message for e in validators[kind].iter_errors(doc)]
            disagreements.append(f"{where} ({kind}): jsonschema {errors}; validate {structural}")
    assert disagreements == []
    assert counts["valid"] >= 50, counts
    assert counts["invalid"] >= 20, counts
    assert {kind for _, kind, _ in documents} == set(KINDS)
