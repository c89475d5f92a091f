"""Checks that a packed npm tarball or sdist carries the docs its files refer to: every
``docs/NAME.md`` named in a shipped text file (README, type declarations, docstrings) is in the
archive as ``docs/NAME.md``, byte for byte the repository's page, with its built page
``docs/site/NAME.html`` beside it, so the references resolve offline (scripts/package-docs.sh).

Usage: python scripts/check_shipped_docs.py ARCHIVE PREFIX   (PREFIX: ``package/`` for npm,
``statecore-0.1.0/`` for the sdist); exit 1 listing what is missing.
"""

from __future__ import annotations

import re
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REF = re.compile(r"docs/([a-z][a-z_-]*)\.md")
TEXT = (
    ".md",
    ".py",
    ".pyi",
    ".ts",
    ".mts",
    ".cjs",
    ".mjs",
    ".js",
    ".json",
    ".toml",
    ".txt",
)


def main(archive: str, prefix: str) -> int:
    with tarfile.open(archive) as t:
        files = {}
        for m in t.getmembers():
            f = t.extractfile(m) if m.isfile() else None
            if f is not None:
                files[m.name] = f.read()
    problems = []
    pages = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
    for page in pages:
        shipped = files.get(f"{prefix}docs/{page}.md")
        if shipped is None:
            problems.append(f"docs/{page}.md is not shipped")
        elif shipped != (ROOT / "docs" / f"{page}.md").read_bytes():
            problems.append(
                f"the shipped docs/{page}.md is not the repository's (stale copy)"
            )
        if f"{prefix}docs/site/{page}.html" not in files:
            problems.append(f"docs/site/{page}.html (the built page) is not shipped")
    refs = 0
    for name, data in files.items():
        if not name.endswith(TEXT) or name.startswith(f"{prefix}docs/"):
            continue
        for m in REF.finditer(data.decode("utf-8", "replace")):
            refs += 1
            if f"{prefix}docs/{m.group(1)}.md" not in files:
                problems.append(f"{name} refers to {m.group(0)}, which is not shipped")
    if refs == 0:
        problems.append(
            "no docs/NAME.md reference found in the shipped files (wrong PREFIX?)"
        )
    for p in problems:
        print(f"check_shipped_docs: {archive}: {p}", file=sys.stderr)
    if not problems:
        print(
            f"check_shipped_docs: {len(pages)} pages and the site ship; {refs} references resolve"
        )
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
