"""Issue 35 item 9 from Python: the numbers an update function did not change keep the file's
text (docs/api.md § Host values). Python's ints are exact; its floats are doubles, so a float
another writer wrote with more digits or another form than Python's repr keeps its text."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import statecore
from statecore import fctry

REPO = Path(__file__).resolve().parents[2]
NODE_HOST = REPO / "npm" / "lib" / "node.cjs"

TEXT = (
    "{\n"
    '  "f": 1.50,\n'
    '  "g": 0.30000000000000000001,\n'
    '  "e": 1e+5,\n'
    '  "big": 9223372036854775807,\n'
    '  "x": 1\n'
    "}\n"
)


def _set_x(value: int) -> Callable[[dict[str, object]], dict[str, object]]:
    def change(doc: dict[str, object]) -> dict[str, object]:
        doc["x"] = value
        return doc

    return change


def test_floats_the_function_did_not_change_keep_their_text(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text(TEXT, encoding="utf-8")
    statecore.update_document(path, "json", _set_x(2))
    assert path.read_text(encoding="utf-8") == TEXT.replace('"x": 1', '"x": 2')


def test_a_changed_float_and_an_exact_int_are_written_as_python_gives_them(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    path.write_text(TEXT, encoding="utf-8")

    def change(doc: dict[str, object]) -> dict[str, object]:
        doc["f"] = 2.5
        doc["big"] = 2**63 + 1  # the same double as the file's number, but Python's int is exact
        return doc

    statecore.update_document(path, "json", change)
    text = path.read_text(encoding="utf-8")
    assert '"f": 2.5,' in text
    assert '"big": 9223372036854775809,' in text
    assert '"g": 0.30000000000000000001,' in text


def test_a_node_writer_s_big_integers_survive_a_python_update(tmp_path: Path) -> None:
    path = tmp_path / "doc.json"
    script = (
        f"require({str(NODE_HOST)!r}).updateDocumentSync({str(path)!r}, 'json', "
        "{big: 2n ** 64n + 3n, huge: 1e23, x: 1}, null, {bigint: true})"
    )
    subprocess.run(["node", "-e", script], check=True, timeout=60)
    before = path.read_text(encoding="utf-8")
    assert '"big": 18446744073709551619,' in before
    statecore.update_document(path, "json", _set_x(2))
    assert path.read_text(encoding="utf-8") == before.replace('"x": 1', '"x": 2')


def test_a_protocol_helper_s_update_keeps_a_float_s_text(tmp_path: Path) -> None:
    state = tmp_path / ".fctry" / "state.json"
    state.parent.mkdir()
    state.write_text('{\n  "workflowStep": "interviewer",\n  "ratio": 0.50\n}\n', encoding="utf-8")
    fctry.update_state(tmp_path, lambda s: {**s, "specVersion": "1.1"})
    assert '"ratio": 0.50' in state.read_text(encoding="utf-8")
