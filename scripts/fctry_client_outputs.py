"""Records the fctry client's status line for each case of
tests/conformance/fctry/status_client.json (docs/fctry.md § Status line).

Usage: python scripts/fctry_client_outputs.py CLIENT_SCRIPT [COMMIT]

CLIENT_SCRIPT is the client's ``src/statusline/fctry-statusline.js`` from a checkout of
spaceshipmike/fctry (not part of this repository). Each case's project (its ``.fctry`` files,
its ``.git/HEAD``, the session JSON on standard input) is laid out in a fresh directory named
after the project, the client is run there with Node, and what it prints, colours included,
is stored as the case's ``client``. COMMIT names the client's commit in the file's
description. The cases' ``expect`` (statecore's line) is checked by the conformance runners.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

CORPUS = (
    Path(__file__).resolve().parents[1]
    / "tests"
    / "conformance"
    / "fctry"
    / "status_client.json"
)
FILES = {
    "state": "state.json",
    "config": "config.json",
    "spec": "spec.md",
    "inbox": "inbox.json",
}


def client_line(script: Path, project: dict) -> str:
    """What the client prints for ``project`` (FctryProject: the files' texts)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / (project.get("name") or "demo")
        (root / ".fctry").mkdir(parents=True)
        for key, name in FILES.items():
            if isinstance(project.get(key), str):
                (root / ".fctry" / name).write_text(project[key], encoding="utf-8")
        if isinstance(project.get("gitHead"), str):
            (root / ".git").mkdir()
            (root / ".git" / "HEAD").write_text(project["gitHead"], encoding="utf-8")
        session = project.get("session")
        stdin = json.dumps(session) if isinstance(session, dict) else ""
        done = subprocess.run(
            ["node", str(script)],
            cwd=root,
            input=stdin,
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        return done.stdout


def main() -> None:
    script = Path(sys.argv[1]).resolve()
    corpus = json.loads(CORPUS.read_text(encoding="utf-8"))
    for case in corpus["cases"]:
        case["client"] = client_line(script, case["args"][0])
    if len(sys.argv) > 2:
        corpus["commit"] = sys.argv[2]
    CORPUS.write_text(
        json.dumps(corpus, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
