"""Property tests (hypothesis) for the laws every surface keeps: merge identities and
idempotence, and lossless round trips between Python values and canonical text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import statecore

STRATEGIES = ["deep", "shallow", "merge_patch"]

text = st.text(st.characters(codec="utf-8"), max_size=12)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**100), max_value=2**100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(text, children, max_size=4),
    max_leaves=20,
)
objects = st.dictionaries(text, values, max_size=6)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON, exactly: types, key order and float bits all show in canonical text."""
    return statecore.serialize(a) == statecore.serialize(b)


@pytest.mark.parametrize("strategy", STRATEGIES)
@given(doc=objects)
def test_merge_with_empty_patch_is_identity(strategy: str, doc: dict[str, Any]) -> None:
    assert same(statecore.merge(doc, {}, strategy=strategy), doc)


@pytest.mark.parametrize("strategy", STRATEGIES)
@given(doc=objects, patch=objects)
def test_merge_is_idempotent(strategy: str, doc: dict[str, Any], patch: dict[str, Any]) -> None:
    try:
        once = statecore.merge(doc, patch, strategy=strategy)
    except statecore.MergeError:
        assume(False)
        raise
    assert same(statecore.merge(once, patch, strategy=strategy), once)


@pytest.mark.parametrize("strategy", STRATEGIES)
@given(doc=objects, patch=objects)
def test_merge_text_agrees_with_merge(
    strategy: str, doc: dict[str, Any], patch: dict[str, Any]
) -> None:
    try:
        merged = statecore.merge(doc, patch, strategy=strategy)
    except statecore.MergeError:
        assume(False)
        raise
    text_out = statecore.merge_text(
        statecore.serialize(doc), statecore.serialize(patch), strategy=strategy
    )
    assert text_out == statecore.serialize(merged)


@given(value=values)
def test_parse_serialize_round_trip(value: Any) -> None:
    text_out = statecore.serialize(value)
    back = statecore.parse(text_out)
    assert back == value
    assert same(back, value)
    assert statecore.serialize(statecore.parse(text_out)) == text_out
    assert statecore.canonical(text_out) == text_out


@given(value=values)
def test_log_line_round_trip(value: Any) -> None:
    line = statecore.log_line(value)
    assert line.endswith("\n")
    assert "\n" not in line[:-1]
    assert same(statecore.parse(line), value)
