"""``statecore.specify`` from Python: index.md read and rendered back byte for byte (the
corpus, tests/conformance/specify, runs the cases; these check the Python surface's types and
a file read as bytes and as text alike)."""

from __future__ import annotations

from pathlib import Path

import pytest

import statecore
from statecore import specify

INDEX = "## Gap Priority Queue\r\n\r\n| Gap ID | Status |\r\n|---|---|\r\n| G-001 | pending |\r\n"


def test_a_file_renders_back_byte_for_byte(tmp_path: Path) -> None:
    path = tmp_path / "index.md"
    path.write_bytes(INDEX.encode())
    doc = specify.parse_markdown(path.read_bytes().decode())
    assert specify.render_markdown(doc).encode() == path.read_bytes()
    table = doc["blocks"][1]["table"]
    assert (table["section"], table["columns"]) == ("Gap Priority Queue", ["Gap ID", "Status"])
    table["rows"][0]["cells"][1] = "resolved"
    assert specify.render_markdown(doc).endswith("| G-001 | resolved |\r\n")


def test_a_bad_row_is_a_parse_error_with_its_line_and_column() -> None:
    with pytest.raises(statecore.ParseError) as raised:
        specify.parse_markdown("| A |\n|---|\n| a | b |\n")
    assert (raised.value.details["line"], raised.value.details["column"]) == (3, 5)
