"""Checks every reference to the docs in the repository: each ``docs/NAME.md`` (and, inside
docs/, each ``NAME.md``) names a page that exists, and each ``NAME.md § Section`` a heading of
that page (a heading the text after ``§`` starts with, or that starts with that text).
Docstrings, READMEs, comments and the docs themselves point people to these places: a renamed
page or section must not leave them pointing nowhere. Run by ``make test`` (``make docs``).

Usage: python scripts/check_doc_refs.py   (exit 1 listing each dangling reference)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: A reference: a page, then optionally `§` and the words that name its section.
REF = re.compile(
    r"(?:docs/|(?<![\w/.-]))([a-z][a-z_-]*\.md)(?:\s*§\s*([^)`\"'\n;,.:*\]]+))?"
)
#: The files that may refer to the docs.
SUFFIXES = {".md", ".py", ".pyi", ".cjs", ".mjs", ".ts", ".mts", ".rs", ".sh", ".toml"}


def headings(page: Path) -> list[str]:
    """The page's headings, without their `#`s and inline code marks."""
    found = []
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("#"):
            found.append(line.lstrip("#").strip().replace("`", "").lower())
    return found


def section_ok(text: str, titles: list[str]) -> bool:
    """True when a heading is `text`, starts with it, or is its first words."""
    words = " ".join(text.replace("`", "").lower().split())
    return any(
        t == words or t.startswith(words) or words.startswith(t + " ")
        for t in titles
        if t
    )


def main() -> int:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    pages = {p.name: headings(p) for p in DOCS.glob("*.md")}
    bad = []
    for name in files:
        path = ROOT / name
        if (
            path.suffix not in SUFFIXES
            or not path.is_file()
            or name.startswith("tests/")
        ):
            continue
        in_docs = path.parent == DOCS
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            for match in REF.finditer(line):
                page, section = match.group(1), match.group(2)
                explicit = match.group(0).startswith("docs/")
                if not explicit and not (in_docs and section):
                    continue  # README.md, CHANGELOG.md, ...: only docs/ pages are checked
                if page not in pages:
                    if explicit:
                        bad.append(f"{name}:{number}: no page docs/{page}")
                    continue
                if section and not section_ok(section.strip(), pages[page]):
                    bad.append(
                        f"{name}:{number}: docs/{page} has no section {section.strip()!r}"
                    )
    for line in bad:
        print(line)
    if bad:
        print(
            f"check_doc_refs.py: {len(bad)} dangling reference(s) to the docs",
            file=sys.stderr,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
