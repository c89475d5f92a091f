#!/usr/bin/env python3
"""The notices of the third-party code a package ships, with their licence texts.

    third_party.py rust PACKAGE TARGET OUT
        the crates compiled into PACKAGE (a member of the workspace) for TARGET: its normal
        dependencies, followed through every crate that is not a procedural macro (build
        scripts and macros run at build time and are not shipped);
    third_party.py js METAFILE OUT
        the npm packages esbuild bundled (its --metafile), each found by the node_modules path
        of its inputs.

Each entry: name, version, declared licence, then the text of every licence or notice file
of the package (LICENSE*, LICENCE*, COPYING*, NOTICE*). A package without any such file is
an error: nothing is shipped without its licence text. Used by scripts/build-wasm.sh,
build-viewer.sh and build-python.sh; the packaging test checks the files are shipped.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

LICENCE_FILE = re.compile(r"^(LICEN[CS]E|COPYING|NOTICE)", re.IGNORECASE)
OURS = {"statecore", "statecore-cli", "statecore-wasm", "statecore-python"}


def licence_texts(directory: str) -> list[tuple[str, str]]:
    """The licence and notice files of a package's directory, by name."""
    found = []
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        if LICENCE_FILE.match(name) and os.path.isfile(path):
            with open(path, encoding="utf-8", errors="replace") as file:
                found.append((name, file.read().strip()))
    return found


def rust(package: str, target: str) -> list[dict]:
    """The crates compiled into `package` for `target`, with their licence texts."""
    meta = json.loads(
        subprocess.run(
            ["cargo", "metadata", "--format-version", "1", "--filter-platform", target],
            check=True,
            capture_output=True,
        ).stdout
    )
    packages = {p["id"]: p for p in meta["packages"]}
    nodes = {n["id"]: n for n in meta["resolve"]["nodes"]}
    macro = {
        i
        for i, p in packages.items()
        if any("proc-macro" in t["kind"] for t in p["targets"])
    }
    root = next(p["id"] for p in meta["packages"] if p["name"] == package)
    seen, stack = set(), [root]
    while stack:
        current = stack.pop()
        if current in seen or current in macro:
            continue
        seen.add(current)
        for dep in nodes[current]["deps"]:
            if any(kind["kind"] is None for kind in dep["dep_kinds"]):
                stack.append(dep["pkg"])
    out = []
    for i in seen:
        p = packages[i]
        if p["name"] in OURS:
            continue
        directory = os.path.dirname(p["manifest_path"])
        out.append(
            {
                "name": p["name"],
                "version": p["version"],
                "licence": p["license"],
                "texts": licence_texts(directory),
            }
        )
    return out


def js(metafile: str) -> list[dict]:
    """The npm packages whose files esbuild bundled, with their licence texts."""
    with open(metafile, encoding="utf-8") as file:
        inputs = json.load(file)["inputs"]
    roots = set()
    for path in inputs:
        parts = path.split("/")
        if "node_modules" not in parts:
            continue
        at = len(parts) - 1 - parts[::-1].index("node_modules")
        depth = 2 if parts[at + 1].startswith("@") else 1
        roots.add("/".join(parts[: at + 1 + depth]))
    out = []
    for root in roots:
        with open(os.path.join(root, "package.json"), encoding="utf-8") as file:
            manifest = json.load(file)
        licence = manifest.get("license")
        if isinstance(licence, dict):
            licence = licence.get("type")
        out.append(
            {
                "name": manifest["name"],
                "version": manifest["version"],
                "licence": licence,
                "texts": licence_texts(root),
            }
        )
    return out


def write(entries: list[dict], out: str, what: str) -> None:
    """The notices file: a heading, then each package in name order."""
    missing = [e["name"] for e in entries if not e["texts"]]
    if missing:
        sys.exit(f"third_party.py: no licence file in {', '.join(sorted(missing))}")
    lines = [
        f"Third-party software in {what}",
        "",
        (
            "statecore (MIT, see LICENSE) includes the following packages, each under its "
            "own licence, given in full below."
        ),
        "",
    ]
    for e in sorted(entries, key=lambda e: (e["name"], e["version"])):
        lines += [
            "=" * 78,
            f"{e['name']} {e['version']} ({e['licence']})",
            "=" * 78,
            "",
        ]
        for name, text in e["texts"]:
            lines += [f"--- {name} ---", "", text, ""]
    with open(out, "w", encoding="utf-8") as file:
        file.write("\n".join(lines))


def main(argv: list[str]) -> None:
    if len(argv) == 4 and argv[0] == "rust":
        write(rust(argv[1], argv[2]), argv[3], f"the {argv[1]} build for {argv[2]}")
    elif len(argv) == 3 and argv[0] == "js":
        write(js(argv[1]), argv[2], "the viewer's bundle")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
