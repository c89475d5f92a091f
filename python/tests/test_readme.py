"""The Python examples of python/README.md (the wheel's description) and of the repository
README run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

READMES = [
    Path(__file__).resolve().parents[1] / "README.md",  # the wheel's description
    Path(__file__).resolve().parents[2] / "README.md",  # the repository's
]
BLOCKS = [
    (readme, code)
    for readme in READMES
    for code in re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.S)
]


def test_readmes_have_examples() -> None:
    for readme in READMES:
        assert any(r == readme for r, _ in BLOCKS), readme


@pytest.mark.parametrize(
    ("readme", "code"), BLOCKS, ids=[f"{r.parent.name}-block{i}" for i, (r, _) in enumerate(BLOCKS)]
)
def test_readme_example(
    readme: Path,
    code: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    if "PostgresStore" in code:
        request.getfixturevalue("db")  # a fresh database, its PG* variables set
    monkeypatch.chdir(tmp_path)
    exec(compile(code, str(readme), "exec"), {"__name__": "readme"})
