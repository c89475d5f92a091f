"""Checks that the text users read speaks to users: the docs, the READMEs, the examples and
the files the npm package and the Python package ship (docstrings, comments, type stubs) carry
no notes meant for the project's maintainers: no issue numbers ("Status (issue 12)", "the
hive module of issue 12"), no paths outside the repository (``../shared/...``), no sections
of the maintainers' conventions file ("ARCHITECTURE §5"), no "Seed: <file>" lines. A user who
installs the package or opens the docs site has none of these. Run by ``make test``
(``make test-docs``).

Usage: python scripts/check_user_text.py [FILE...]   (exit 1 listing each note found; with
FILEs, checks those instead of the shipped set)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: What users read: a file is checked when its path starts with one of these.
USER_TEXT = (
    "README.md",
    "docs/",
    "examples/",
    "npm/README.md",
    "npm/lib/",
    "npm/bin/",
    "npm/viewer/",
    "python/README.md",
    "python/statecore/",
)
#: Generated or third-party text that is not ours to word.
SKIP = ("THIRD-PARTY-NOTICES", ".so", ".wasm", ".png", ".ico", ".woff")

#: Each maintainers' note, with what the user should get instead.
NOTES = [
    (re.compile(r"\.\./shared\b"), "a path outside the repository"),
    (re.compile(r"\bissues?\s+#?\d+", re.IGNORECASE), "an issue number"),
    (
        re.compile(r"\bARCHITECTURE(?:\.md)?\s*§"),
        "a section of the maintainers' conventions",
    ),
    (
        re.compile(r"\b(?:ARCHITECTURE|TOOLCHAIN)\.md\b"),
        "the maintainers' conventions file",
    ),
    (
        re.compile(r"^[ \t]*Seed:[ \t]", re.MULTILINE),
        "a 'Seed:' note naming a maintainer's file",
    ),
]


def shipped() -> list[str]:
    """The tracked files users read."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.split("\0")
    return [
        name
        for name in files
        if name.startswith(USER_TEXT) and not any(s in name for s in SKIP)
    ]


def notes_in(text: str) -> list[tuple[int, str, str]]:
    """Each note in `text`: (line number, the words found, what kind of note it is)."""
    found = []
    for pattern, what in NOTES:
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            found.append((line, match.group(0).strip(), what))
    return sorted(found)


def main(argv: list[str]) -> int:
    names = argv or shipped()
    bad = []
    for name in names:
        path = ROOT / name
        if not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        bad += [
            f"{name}:{line}: {words!r} is {what}"
            for line, words, what in notes_in(text)
        ]
    for line in bad:
        print(line)
    if bad:
        print(
            f"check_user_text.py: {len(bad)} maintainers' note(s) in text users read",
            file=sys.stderr,
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
