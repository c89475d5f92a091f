"""JSONTestSuite (tests/vectors/JSONTestSuite/test_parsing) through ``canonical(bytes)``:
every ``y_`` file accepted, every ``n_`` file rejected with a typed error, and the outcomes
pinned in ``i_outcomes.json`` (every ``i_`` file, plus the two ``y_`` files with a duplicated
key, which statecore rejects by design) equal to the pin that every other runner checks too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import statecore

REPO = Path(__file__).resolve().parents[2]
VECTORS = REPO / "tests" / "vectors" / "JSONTestSuite"
if not (VECTORS / "test_parsing").is_dir():  # before the lead vendored them
    VECTORS = REPO.parent / "shared" / "vectors" / "JSONTestSuite"
FILES = sorted((VECTORS / "test_parsing").glob("*.json"))
PINNED: dict[str, str] = json.loads((VECTORS / "i_outcomes.json").read_text(encoding="utf-8"))


def outcome(data: bytes) -> str:
    try:
        statecore.canonical(data)
    except (statecore.ParseError, statecore.LimitError):
        return "reject"
    return "accept"


def test_all_vectors_present() -> None:
    assert len(FILES) == 318


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_vector(path: Path) -> None:
    data = path.read_bytes()
    result = outcome(data)
    if path.name in PINNED:
        assert result == PINNED[path.name]
    elif path.name.startswith("y_"):
        assert result == "accept"
    else:
        assert path.name.startswith("n_")
        assert result == "reject"


def test_pin_covers_every_i_file() -> None:
    i_files = {p.name for p in FILES if p.name.startswith("i_")}
    assert i_files <= PINNED.keys()
    assert {n for n in PINNED if not n.startswith("i_")} == {
        "y_object_duplicated_key.json",
        "y_object_duplicated_key_and_value.json",
    }


def test_duplicated_keys_are_parse_errors() -> None:
    for name in ("y_object_duplicated_key.json", "y_object_duplicated_key_and_value.json"):
        with pytest.raises(statecore.ParseError) as raised:
            statecore.canonical((VECTORS / "test_parsing" / name).read_bytes())
        assert raised.value.code == "E_DUPLICATE_KEY"
        assert raised.value.path == "/a"


def parse_outcome(data: bytes) -> str:
    try:
        statecore.parse(data)
    except statecore.DataError as e:
        return e.code
    except (statecore.ParseError, statecore.LimitError):
        return "reject"
    return "accept"


def test_parse_agrees_with_canonical() -> None:
    """``parse`` accepts what ``canonical`` accepts, unless Python cannot hold a number."""
    for path in FILES:
        data = path.read_bytes()
        expected = {outcome(data)}
        if expected == {"accept"}:
            expected.add("E_PRECISION")
        assert parse_outcome(data) in expected, path.name
