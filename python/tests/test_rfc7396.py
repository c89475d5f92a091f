"""RFC 7396 (JSON Merge Patch) Appendix A and §3 cases via ``merge(strategy="merge_patch")``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import statecore

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors" / "rfc7396" / "rfc7396_tests.json"
if not VECTORS.is_file():  # before the lead vendored them
    VECTORS = REPO.parent / "shared" / "vectors" / "rfc7396-merge-patch" / "rfc7396_tests.json"
CASES: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))


def test_all_cases_present() -> None:
    assert len(CASES) == 16


@pytest.mark.parametrize("case", CASES, ids=[c["comment"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    merged = statecore.merge(case["doc"], case["patch"], strategy="merge_patch")
    assert merged == case["expected"]  # key order is not significant in these vectors
    # The same through the text API.
    text = statecore.merge_text(
        json.dumps(case["doc"]), json.dumps(case["patch"]), {"strategy": "merge_patch"}
    )
    assert statecore.parse(text) == case["expected"]
