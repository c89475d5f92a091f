"""The objects of a document read as text (``load_document``, ``apply_update``: built in one
pass over the read text's values) against the objects of the same document built from its
tree (``parse``) and against ``json.loads``: equal value for value, type for type (``int``
against ``float``, the sign of a zero), key order included, and the same error at the same
path for a number Python cannot hold. Random documents written with random spacing, escapes
and number spellings; keys from a small pool (the key cache's hits), fresh ones (misses),
non-ASCII ones, ones past the cache's length, and more distinct keys than it has slots."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import statecore

MAX_DEPTH = 128  # statecore.limits()["max_depth"]

POOL = ["status", "summary", "id", "a", "b", "ключ", "名前", "x" * 70, "updated_at", ""]
keys = st.sampled_from(POOL) | st.text(st.characters(codec="utf-8"), max_size=10)
# Integer texts around the 18-digit fast path and 64 bits, and spellings of floats.
INT_TEXTS = [
    "0",
    "-0",
    "7",
    "-7",
    "999999999999999999",
    "-999999999999999999",
    "1000000000000000000",
    "-1000000000000000000",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
]
FLOAT_TEXTS = ["0.5", "-0.0", "1E5", "1e5", "1.5E+3", "2.5e-3", "-1E-7", "0e-400", "1e308"]


class Raw:
    """A number written as this text."""

    def __init__(self, text: str) -> None:
        self.text = text


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(codec="utf-8"), max_size=12)
    | st.sampled_from(INT_TEXTS + FLOAT_TEXTS).map(Raw)
)
values = st.recursive(
    scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(keys, children, max_size=5),
    max_leaves=30,
)


def write(value: Any, spaces: list[str], ascii_only: bool) -> str:
    """JSON text of ``value``, with spacing from ``spaces`` (cycled) and escapes or not."""
    at = [0]

    def ws() -> str:
        at[0] += 1
        return spaces[at[0] % len(spaces)] if spaces else ""

    def go(v: Any) -> str:
        if isinstance(v, Raw):
            return v.text
        if isinstance(v, dict):
            members = [
                ws() + json.dumps(k, ensure_ascii=ascii_only) + ws() + ":" + ws() + go(item)
                for k, item in v.items()
            ]
            return "{" + ",".join(members) + ws() + "}"
        if isinstance(v, list):
            return "[" + ",".join(ws() + go(item) for item in v) + ws() + "]"
        return json.dumps(v, ensure_ascii=ascii_only)

    return go(value)


def same(a: Any, b: Any) -> bool:
    """Equal with types, key order and the sign of zero."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return bool(a == b)


def outcome(make: Any) -> Any:
    try:
        return ("ok", make())
    except statecore.StatecoreError as error:
        return ("error", error.code, error.path, error.details)


spacing = st.lists(st.sampled_from(["", " ", "\n  ", "\t", "\r\n"]), max_size=4)


@given(doc=st.dictionaries(keys, values, max_size=8), spaces=spacing, ascii_only=st.booleans())
def test_a_read_documents_objects_are_its_trees(
    doc: dict[str, Any], spaces: list[str], ascii_only: bool
) -> None:
    text = write(doc, spaces, ascii_only)
    from_tape = outcome(lambda: statecore.load_document("json", text)["document"])
    from_tree = outcome(lambda: statecore.parse(text))
    if from_tree[0] == "ok":
        assert from_tape[0] == "ok", from_tape
        assert same(from_tape[1], from_tree[1])
        assert repr(from_tape[1]) == repr(from_tree[1])
        # json.loads keeps a negative zero, which statecore reads as zero.
        assert from_tape[1] == json.loads(text)
    else:
        assert from_tape == from_tree


@given(
    doc=st.dictionaries(keys, values, max_size=8),
    patch=st.dictionaries(keys, values, max_size=4),
    spaces=spacing,
)
def test_an_updates_objects_are_its_texts(
    doc: dict[str, Any], patch: dict[str, Any], spaces: list[str]
) -> None:
    # The merged document is spliced from the file's values and the patch's: its objects are
    # those of its own text read again.
    text = write(doc, spaces, False)
    plain = json.loads(write(patch, [], False))
    updated = outcome(lambda: statecore.apply_update("json", text, plain, None, None))
    if updated[0] == "ok":
        again = outcome(lambda: statecore.parse(updated[1]["text"]))
        assert again[0] == "ok"
        assert same(updated[1]["document"], again[1])
    else:
        assert updated[1] in ("E_PRECISION", "E_MERGE", "E_LIMIT"), updated


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ('{"a": [1, {"b": [2, 1e400]}]}', "/a/1/b/1"),
        ("[[[1e400]]]", "/0/0/0"),
        ("[0, [1, [2, 1e-400]]]", "/1/1/1"),
        ('{"k": {"ключ": [true, {"": -1e999}]}}', "/k/ключ/1/"),
        ("[" + "1" * 5000 + "]", "/0"),
    ],
)
def test_an_unholdable_number_is_named_by_its_path(text: str, path: str) -> None:
    with pytest.raises(statecore.DataError) as tape:
        statecore.load_document("json", text)
    with pytest.raises(statecore.DataError) as tree:
        statecore.parse(text)
    assert (tape.value.code, tape.value.path) == ("E_PRECISION", path)
    assert (tree.value.code, tree.value.path, tree.value.details) == (
        tape.value.code,
        tape.value.path,
        tape.value.details,
    )


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH])
def test_deep_documents_at_the_limit(depth: int) -> None:
    text = '{"k": ' * (depth - 1) + '[1, 2.5, "x"]' + "}" * (depth - 1)
    doc = statecore.load_document("json", text)["document"]
    assert doc == json.loads(text)
    updated = statecore.apply_update("json", text, {"z": [1]}, None, None)
    assert updated["document"] == json.loads(updated["text"])


def test_more_distinct_keys_than_the_cache_holds() -> None:
    doc = {f"key{i}": {"ключ" + str(i): i, "k" * 80 + str(i): [i, -i]} for i in range(3000)}
    text = json.dumps(doc)
    for _ in range(2):
        first = statecore.load_document("json", text)["document"]
        assert same(first, json.loads(text))
    # Every result is a new object graph.
    second = statecore.load_document("json", text)["document"]
    first["key0"]["x"] = 1
    assert "x" not in second["key0"]
