"""Host values across the boundary (docs/api.md, "Host values"): what converts, exactly, and
what is refused with which error, limits included. Nothing here may crash the interpreter."""

from __future__ import annotations

import enum
import math
import pickle
import sys
from collections import OrderedDict
from pathlib import Path
from typing import Any

import pytest

import statecore
from statecore import errors

MAX_DEPTH = 128
MB = 1024 * 1024


def nested_dicts(depth: int) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for _ in range(depth - 1):
        doc = {"a": doc}
    return doc


def nested_text(depth: int) -> str:
    return "[" * depth + "]" * depth


# --- the installed package ----------------------------------------------------------------


def test_tests_run_against_the_installed_wheel() -> None:
    source_tree = Path(__file__).resolve().parents[1] / "statecore"
    installed = Path(statecore.__file__).resolve().parent
    assert installed != source_tree.resolve()
    assert "site-packages" in installed.parts
    assert Path(sys.prefix).resolve() in installed.parents


def test_version_and_limits() -> None:
    assert statecore.__version__ == "0.1.0"
    assert statecore.limits() == {
        "max_depth": MAX_DEPTH,
        "max_document_bytes": 32 * MB,
        "max_string_bytes": 16 * MB,
    }


def test_all_names_exist() -> None:
    for name in statecore.__all__:
        assert hasattr(statecore, name), name
    assert sorted(statecore.machine.__all__) == ["check", "diagram", "events", "fire"]


# --- depth ----------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [MAX_DEPTH - 1, MAX_DEPTH])
def test_depth_within_limit(depth: int) -> None:
    doc = nested_dicts(depth)
    assert statecore.merge(doc, {}) == doc
    assert statecore.parse(statecore.serialize(doc)) == doc
    assert statecore.parse(nested_text(depth)) == statecore.parse(nested_text(depth))
    assert statecore.canonical(nested_text(depth)).startswith("[")


def test_depth_over_limit_dict() -> None:
    with pytest.raises(statecore.LimitError) as raised:
        statecore.serialize(nested_dicts(MAX_DEPTH + 1))
    assert raised.value.code == "E_LIMIT"
    assert raised.value.path == "/a" * MAX_DEPTH
    assert raised.value.details["limit"] == "depth"
    with pytest.raises(statecore.LimitError):
        statecore.merge({}, nested_dicts(MAX_DEPTH + 1))
    with pytest.raises(statecore.LimitError):
        statecore.serialize([nested_dicts(MAX_DEPTH)])


def test_depth_over_limit_text() -> None:
    for call in (statecore.parse, statecore.canonical):
        with pytest.raises(statecore.LimitError) as raised:
            call(nested_text(MAX_DEPTH + 1))
        assert raised.value.code == "E_LIMIT"


def test_very_deep_input_is_an_error_not_a_crash() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    with pytest.raises(statecore.LimitError):
        statecore.serialize(deep)
    with pytest.raises(statecore.LimitError):
        statecore.parse("[" * 100_000)


def test_cycles_are_refused() -> None:
    cyclic: dict[str, Any] = {"a": 1}
    cyclic["self"] = cyclic
    loop: list[Any] = []
    loop.append(loop)
    for value in (cyclic, loop, {"x": [cyclic]}):
        with pytest.raises((statecore.LimitError, statecore.DataError)) as raised:
            statecore.merge(value, {})
        assert raised.value.code in ("E_LIMIT", "E_VALUE")


# --- what is not JSON -------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_non_finite_floats(bad: float) -> None:
    with pytest.raises(statecore.DataError) as raised:
        statecore.serialize({"a": [1, {"b": bad}]})
    assert raised.value.code == "E_VALUE"
    assert raised.value.path == "/a/1/b"
    assert isinstance(raised.value, ValueError)


def test_non_str_keys() -> None:
    for key in (1, None, 1.5, (1, 2), b"k"):
        with pytest.raises(statecore.DataError) as raised:
            statecore.merge({"doc": {key: 1}}, {})
        assert raised.value.code == "E_VALUE"
        assert raised.value.path == "/doc"
        assert raised.value.details == {"argument": "doc"}


def test_lone_surrogates() -> None:
    with pytest.raises(statecore.DataError) as raised:
        statecore.merge({}, {"a": ["ok", "bad \ud800"]})
    assert (raised.value.code, raised.value.path) == ("E_VALUE", "/a/1")
    assert raised.value.details["argument"] == "patch"
    with pytest.raises(statecore.DataError) as raised:
        statecore.serialize({"k\udc00": 1})
    assert raised.value.code == "E_VALUE"
    with pytest.raises(statecore.DataError):
        statecore.parse('"\ud800"')
    # A surrogate *pair* escaped in JSON text is one character, and fine.
    assert statecore.parse('"\\ud83d\\ude00"') == "\U0001f600"


class Color(enum.Enum):
    RED = 1


@pytest.mark.parametrize(
    "bad",
    [{1, 2}, b"bytes", bytearray(b"x"), object(), Color.RED, 1j, range(3), iter([1])],
    ids=lambda v: type(v).__name__,
)
def test_other_types_are_refused(bad: Any) -> None:
    with pytest.raises(statecore.DataError) as raised:
        statecore.serialize({"x": [bad]})
    assert raised.value.code == "E_VALUE"
    assert raised.value.path == "/x/0"
    assert type(bad).__name__ in raised.value.message


# --- what converts, exactly -----------------------------------------------------------------


class Level(enum.IntEnum):
    HIGH = 2**70


def test_scalars_and_containers() -> None:
    value = {"t": (1, 2), "b": True, "f": False, "n": None, "x": -0.0, "s": "é😀"}
    assert statecore.merge(value, {}) == {
        "t": [1, 2],
        "b": True,
        "f": False,
        "n": None,
        "x": -0.0,
        "s": "é😀",
    }
    out = statecore.merge(value, {})
    assert type(out["b"]) is bool
    # Negative zero is read as zero in every surface (docs/api.md § Host values).
    assert math.copysign(1, out["x"]) == 1
    assert statecore.serialize(-0.0) == "0.0\n"
    assert statecore.parse("-0") == 0
    assert statecore.serialize(1.0) == "1.0\n"
    assert statecore.serialize(1) == "1\n"
    assert type(statecore.parse("1.0")) is float
    assert type(statecore.parse("1")) is int


def test_results_are_new_objects_whatever_their_keys() -> None:
    # Keys come from a cache (more distinct keys than it has slots, long ones past it); every
    # result is a new object, equal to the input, changed without touching another.
    many = {f"key{i}": [i, {"k" * 70 + str(i): None}] for i in range(3000)}
    first = statecore.merge(many, {})
    second = statecore.parse(statecore.serialize(many))
    assert first == second == many
    first["key0"][1]["x"] = 1
    assert "x" not in second["key0"][1]
    assert first["key0"] is not many["key0"]
    assert [type(k) for k in first][:2] == [str, str]


def test_a_failed_result_releases_what_it_made() -> None:
    # A number Python cannot hold, deep in a result: the error names its path, and the objects
    # made before it are released (a leaked or missing reference to these shared singletons
    # would move their counts by the number of calls).
    text = '{"a": [null, true, false, {"b": [null, 1e400]}]}'
    counts = [sys.getrefcount(x) for x in (None, True, False)]
    for _ in range(2000):
        with pytest.raises(statecore.DataError) as raised:
            statecore.parse(text)
        assert raised.value.path == "/a/3/b/1"
        del raised
    for _ in range(2000):
        statecore.parse('[null, true, false, {"n": null}]')
    after = [sys.getrefcount(x) for x in (None, True, False)]
    assert all(abs(a - b) < 100 for a, b in zip(after, counts))


def test_subclasses_of_the_json_types() -> None:
    assert statecore.merge(OrderedDict(b=1, a=2), {}) == {"b": 1, "a": 2}
    assert statecore.serialize([Level.HIGH, enum.IntEnum("E", "A").A]) == statecore.serialize(
        [2**70, 1]
    )


class MyStr(str):
    pass


def test_keys_that_are_str_subclasses() -> None:
    # Exact `str` keys take the fast path; a subclass sends the dict through the checked one.
    assert statecore.merge({"a": 1, MyStr("b"): {MyStr("c"): [2]}}, {}) == {"a": 1, "b": {"c": [2]}}


class Meddler(int):
    """An int past 64 bits whose ``__int__`` (run while it is converted) changes a container."""

    def __new__(cls, change: Any) -> Meddler:
        made = super().__new__(cls, 2**70)
        made.change = change
        return made

    def __int__(self) -> int:
        self.change()
        return 2**70


@pytest.mark.parametrize("container", ["dict", "list", "ordered", "parent"])
def test_a_container_changed_while_converted_is_refused(container: str) -> None:
    # Python code run during the walk (here `__int__`) cannot crash it or slip a half-read
    # container through: the change is E_VALUE, as Python's own dict iteration refuses it.
    doc: Any
    if container == "dict":
        doc = {"a": 1}
        doc["m"] = Meddler(lambda: doc.update(b=2, c=3))
        path = ""
    elif container == "list":
        doc = {"items": [1]}
        doc["items"].append(Meddler(doc["items"].clear))
        doc["items"].append(3)
        path = "/items"
    elif container == "ordered":
        doc = OrderedDict(a=1)
        doc["m"] = Meddler(lambda: doc.update(b=2))
        path = ""
    else:
        # The inner dict loses its last outside reference while it is being walked.
        doc = {"x": {"a": None, "b": [1, 2]}}
        doc["x"]["a"] = Meddler(doc.clear)
        path = ""
    with pytest.raises(statecore.DataError) as raised:
        statecore.merge(doc, {})
    assert raised.value.code == "E_VALUE"
    assert raised.value.path == path
    assert "changed size while it was converted" in raised.value.message


def test_a_value_that_runs_code_without_changing_anything() -> None:
    calls: list[int] = []
    doc = {"a": [Meddler(lambda: calls.append(1)), {"b": Meddler(lambda: calls.append(2))}]}
    assert statecore.merge(doc, {}) == {"a": [2**70, {"b": 2**70}]}
    assert calls == [1, 2]


@pytest.mark.parametrize(
    "n", [2**63 - 1, 2**63, 2**64, 2**64 + 1, -(2**63), -(2**63) - 1, 10**30, -(10**40)]
)
def test_big_ints_round_trip_exactly(n: int) -> None:
    text = statecore.serialize({"n": n})
    assert text == f'{{\n  "n": {n}\n}}\n'
    assert statecore.parse(text) == {"n": n}
    assert statecore.merge({"n": 0, "m": n}, {"n": n}) == {"n": n, "m": n}
    assert statecore.merge_text(text, "{}") == text


def test_ints_past_pythons_digit_limit() -> None:
    if not hasattr(sys, "get_int_max_str_digits"):
        pytest.skip("no int digit limit in this Python")
    digits = sys.get_int_max_str_digits() + 1
    with pytest.raises(statecore.DataError):
        statecore.serialize(10**digits)
    with pytest.raises(statecore.DataError) as raised:
        statecore.parse("[" + "1" * digits + "]")
    assert (raised.value.code, raised.value.path) == ("E_PRECISION", "/0")
    assert statecore.canonical("1" * digits) == "1" * digits + "\n"


def test_huge_float_text() -> None:
    with pytest.raises(statecore.DataError) as raised:
        statecore.parse('{"a": [1e400]}')
    assert (raised.value.code, raised.value.path) == ("E_PRECISION", "/a/0")
    assert raised.value.details["number"] == "1e+400"  # canonical exponent: e and a sign
    assert statecore.canonical('{"a": [1e400]}') == '{\n  "a": [\n    1e+400\n  ]\n}\n'
    assert statecore.merge_text('{"a": 1e400}', '{"b": 1}') == '{\n  "a": 1e+400,\n  "b": 1\n}\n'


def test_one_number_rule_for_underflow_and_paths(tmp_path: Path) -> None:
    # 1e-400 would silently become 0.0: refused like 1e400 (docs/api.md § Host values).
    with pytest.raises(statecore.DataError) as raised:
        statecore.parse('{"a": 1e-400}')
    assert (raised.value.code, raised.value.path) == ("E_PRECISION", "/a")
    assert statecore.parse('{"z": 0e-400}') == {"z": 0.0}
    # A read's error path points into the document, as parse's does (no /document prefix).
    file = tmp_path / "n.json"
    file.write_text('{"x": [1e400]}')
    with pytest.raises(statecore.DataError) as raised:
        statecore.read_document(file, "json")
    assert (raised.value.code, raised.value.path) == ("E_PRECISION", "/x/0")


def test_floats_round_trip() -> None:
    for f in (0.1, 1e-300, 5e-324, 1.7976931348623157e308, 123456.789, -2.5):
        assert statecore.parse(statecore.serialize(f)) == f


def test_long_strings() -> None:
    ten = "x" * (10 * MB)
    assert statecore.merge({"s": ten}, {}) == {"s": ten}
    assert statecore.parse(statecore.serialize({"s": ten})) == {"s": ten}
    seventeen = "y" * (17 * MB)
    with pytest.raises(statecore.LimitError) as raised:
        statecore.merge({}, {"s": seventeen})
    assert (raised.value.code, raised.value.path) == ("E_LIMIT", "/s")
    with pytest.raises(statecore.LimitError):
        statecore.parse('"' + seventeen + '"')


def test_key_order_and_special_keys() -> None:
    doc = {"z": 1, "a": 2, "__proto__": {"polluted": True}, "constructor": 3, "m": 4}
    out = statecore.merge(doc, {"b": 5})
    assert list(out) == ["z", "a", "__proto__", "constructor", "m", "b"]
    assert out["__proto__"] == {"polluted": True}
    assert list(statecore.parse('{"b":1,"a":2,"__proto__":3}')) == ["b", "a", "__proto__"]


def test_inputs_are_not_modified() -> None:
    doc = {"a": {"b": [1, 2]}}
    patch = {"a": {"c": 3}}
    statecore.merge(doc, patch)
    assert doc == {"a": {"b": [1, 2]}}
    assert patch == {"a": {"c": 3}}


# --- text and bytes entry points ------------------------------------------------------------


def test_str_and_bytes_are_both_accepted() -> None:
    text = '{"a": "é"}'
    assert statecore.parse(text) == statecore.parse(text.encode()) == {"a": "é"}
    assert statecore.etag(text) == statecore.etag(text.encode())
    assert len(statecore.etag(b"")) == 32
    assert statecore.canonical(b"\xef\xbb\xbf{}") == "{}\n"
    with pytest.raises(statecore.UsageError) as wrong:
        statecore.parse(42)  # type: ignore[arg-type]
    assert (wrong.value.code, wrong.value.details["argument"]) == ("E_ARGUMENT", "data")
    with pytest.raises(statecore.ParseError) as raised:
        statecore.parse(b'{"a": "\xff"}')
    assert raised.value.details["line"] == 1


def test_a_wrong_typed_argument_is_e_argument_naming_it() -> None:
    """Every text or bytes parameter of every operation of the core's table (docs/manifest.json)
    given an object of another type: ``UsageError`` ``E_ARGUMENT`` naming the parameter
    (``details.argument``), never a bare ``TypeError``."""
    import json

    from statecore._statecore import call

    for wrong in (None, 123):
        with pytest.raises(statecore.UsageError) as raised:
            statecore.validate(wrong, {})  # type: ignore[arg-type]
        assert (raised.value.code, raised.value.details["argument"]) == ("E_ARGUMENT", "kind")
        assert "kind must be str" in str(raised.value)
    manifest = json.loads((Path(__file__).parents[2] / "docs" / "manifest.json").read_text())
    placeholder = {"text": "x", "bytes": b""}
    checked = 0
    for op in manifest["ops"]:
        params = op["params"]
        for i, param in enumerate(params):
            if param["kind"] not in ("text", "bytes"):
                continue
            kinds = [p["kind"] if isinstance(p["kind"], str) else "" for p in params[:i]]
            args = [placeholder.get(kind) for kind in kinds]
            wrong_type: object = 123 if param["optional"] else object()
            with pytest.raises(statecore.UsageError) as raised:
                call(op["name"], (*args, wrong_type))
            error = raised.value
            assert error.code == "E_ARGUMENT", (op["name"], param["name"], error)
            assert error.details["argument"] == param["name"], (op["name"], error.details)
            checked += 1
    assert checked > 100


def test_text_variants() -> None:
    merged = statecore.merge_text('{"a": {"b": 1}}', b'{"a": {"c": 2}}')
    assert merged == '{\n  "a": {\n    "b": 1,\n    "c": 2\n  }\n}\n'
    assert statecore.merge_text("{}", "{}", strategy="shallow") == "{}\n"
    report = statecore.validate_text("json", b'{"a": 1}')
    assert report == statecore.validate("json", {"a": 1})
    assert report["valid"] is True
    with pytest.raises(statecore.ParseError):
        statecore.validate_text("json", "{")


def test_large_text_from_threads() -> None:
    """Large inputs run with the interpreter released; results stay correct under threads."""
    from concurrent.futures import ThreadPoolExecutor

    doc = {f"k{i}": {"n": i, "s": "x" * 100, "l": [i, i * 0.5, None]} for i in range(3000)}
    text = statecore.serialize(doc)
    assert len(text) > 256 * 1024
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: statecore.parse(text.encode()), range(8)))
        merged = list(pool.map(lambda _: statecore.merge_text(text, '{"k0": null}'), range(4)))
    assert all(r == doc for r in results)
    assert all(m == merged[0] for m in merged)
    assert statecore.parse(merged[0])["k0"] is None


# --- merge options --------------------------------------------------------------------------


def test_merge_keywords() -> None:
    doc = {"a": {"b": 1}, "k": 1}
    patch = {"a": {"c": 2}, "k": None}
    assert statecore.merge(doc, patch, strategy="shallow") == {"a": {"c": 2}, "k": None}
    assert statecore.merge(doc, patch, {"strategy": "merge_patch"}) == {"a": {"b": 1, "c": 2}}
    stamped = statecore.merge({}, {}, stamp={"field": "at", "now": "2026-01-02T03:04:05.000Z"})
    assert stamped == {"at": "2026-01-02T03:04:05.000Z"}
    with pytest.raises(statecore.UsageError) as raised:
        statecore.merge(doc, patch, {"strategy": "deep"}, strategy="shallow")
    assert raised.value.code == "E_OPTIONS"
    with pytest.raises(statecore.UsageError) as raised:
        statecore.merge(doc, patch, strategy="sideways")
    assert raised.value.code == "E_OPTIONS"


# --- errors ---------------------------------------------------------------------------------


def test_error_attributes_and_classes() -> None:
    with pytest.raises(statecore.ParseError) as raised:
        statecore.parse('{"a": 1,\n "a": 2}')
    e = raised.value
    assert (e.code, e.path) == ("E_DUPLICATE_KEY", "/a")
    assert e.details["line"] == 2
    assert e.message in str(e)
    assert str(e).startswith("E_DUPLICATE_KEY at /a: ")
    assert isinstance(e, statecore.StatecoreError)
    assert isinstance(e, ValueError)
    value_errors = [
        errors.ParseError,
        errors.LimitError,
        errors.DataError,
        errors.UsageError,
        errors.MergeError,
        errors.TimestampError,
        errors.ValidationError,
    ]
    for cls in value_errors:
        assert issubclass(cls, ValueError)
        assert issubclass(cls, statecore.StatecoreError)
    for cls in (errors.TransitionError, errors.LogCorruptError, errors.ConflictError):
        assert not issubclass(cls, ValueError)
    assert issubclass(errors.LockTimeoutError, TimeoutError)
    timeout = errors.LockTimeoutError("waited", path="", details={"timeout_ms": 5})
    assert (timeout.code, timeout.details, timeout.errno) == (
        "E_LOCK_TIMEOUT",
        {"timeout_ms": 5},
        None,
    )
    assert errors.error_class("E_PRECISION") is errors.DataError
    assert errors.error_class("E_NEW_IN_A_LATER_VERSION") is errors.StatecoreError


def test_every_core_code_has_its_class() -> None:
    for kind in ("nope", ""):
        with pytest.raises(statecore.UsageError) as raised:
            statecore.default_document(kind)
        assert raised.value.code == "E_KIND"
    with pytest.raises(statecore.ConflictError) as raised:
        statecore.check_if_match("a" * 32, "b" * 32)
    assert raised.value.code == "E_CONFLICT"
    statecore.check_if_match(None, None)
    with pytest.raises(statecore.TimestampError):
        statecore.parse_timestamp("yesterday")
    with pytest.raises(statecore.TimestampError):
        statecore.format_timestamp(2**80)
    assert statecore.format_timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert statecore.parse_timestamp("1970-01-01T00:00:01Z") == 1000


def test_errors_pickle() -> None:
    with pytest.raises(statecore.DataError) as raised:
        statecore.serialize(math.nan)
    copy = pickle.loads(pickle.dumps(raised.value))
    assert type(copy) is statecore.DataError
    assert (copy.code, copy.path, copy.message, copy.details) == (
        raised.value.code,
        raised.value.path,
        raised.value.message,
        raised.value.details,
    )


def test_validation_error_carries_the_report() -> None:
    definition_kinds = [k["name"] for k in statecore.kinds()]
    assert "json" in definition_kinds
    with pytest.raises(statecore.ValidationError) as raised:
        statecore.prepare_document("json", [1, 2])
    e = raised.value
    assert e.code == "E_INVALID"
    assert e.report is e.details
    assert e.report["valid"] is False
    assert e.report["errors"]
