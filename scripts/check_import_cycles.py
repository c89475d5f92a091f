#!/usr/bin/env python3
"""Import circles in a Rust crate: which of its files use each other, directly or round about.

Each file of the crate is a node; a file depends on another when it names an item of it
(`use crate::a::b::{...}`, a path `crate::a::f(...)`, `super::x`, a child module's `x::f`).
Paths through a re-export (`pub use value::Value` in lib.rs, `pub use tape::Tape` in a mod.rs)
lead to the file that defines the item. Test modules (`#[cfg(test)] mod ...`) are left out:
a test may use what it likes. A file's use of its own parent module (`super::f` from
`json/tape.rs` to `json/mod.rs`, the module's face) is not counted: a module and its parts may
refer to each other; siblings may not, nor may modules. Every group of files that reach each
other (a strongly connected component of more than one file) is an import circle.

    scripts/check_import_cycles.py [CRATE_SRC ...] [--max N] [--modules] [--self-test]

prints each circle with one path round it, and exits 1 when a crate has more than N (default 0).
Without CRATE_SRC it checks every crate of the core and its clients (`CRATES`: core/src, the
command line's and viewer's cli/src).
`--modules` groups files by their top-level module first (crate::value, crate::merge, ...).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

#: The source folders checked when none is named: the core and the crate built over it.
CRATES = ("core/src", "cli/src")

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
USE_RE = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.DOTALL)
PATH_RE = re.compile(rf"\b(crate|super|self)((?:::{IDENT})+)")
TEST_MOD_RE = re.compile(
    r"#\[cfg\(test\)\]\s*(?:#\[[^\]]*\]\s*)*(?:pub\s+)?mod\s+\w+\s*\{"
)
COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL)
STRING_RE = re.compile(r'r#*"(?:.|\n)*?"#*|"(?:\\.|[^"\\])*"')


def strip(text: str) -> str:
    """The code without comments, string literals and test modules."""
    text = COMMENT_RE.sub("", text)
    text = STRING_RE.sub('""', text)
    out, at = [], 0
    for match in TEST_MOD_RE.finditer(text):
        if match.start() < at:
            continue
        out.append(text[at : match.start()])
        depth, i = 1, match.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        at = i
    out.append(text[at:])
    return "".join(out)


def expand(tree: str) -> list[list[str]]:
    """`a::{b, c::{d, e}}` → [[a, b], [a, c, d], [a, c, e]] (`self` inside braces: the prefix)."""

    def parse(s: str, i: int, prefix: list[str]) -> tuple[list[list[str]], int]:
        paths: list[list[str]] = []
        segs = list(prefix)
        token = ""
        while i < len(s):
            ch = s[i]
            if ch == "{":
                inner, i = parse_group(s, i + 1, segs + ([token] if token else []))
                paths.extend(inner)
                token = ""
                return paths, i
            if ch in ",}":
                break
            if s.startswith("::", i):
                if token:
                    segs.append(token)
                token = ""
                i += 2
                continue
            token += ch
            i += 1
        if token and token != "self":
            segs.append(token)
        paths.append(segs)
        return paths, i

    def parse_group(s: str, i: int, prefix: list[str]) -> tuple[list[list[str]], int]:
        paths: list[list[str]] = []
        while i < len(s) and s[i] != "}":
            got, i = parse(s, i, prefix)
            paths.extend(got)
            if i < len(s) and s[i] == ",":
                i += 1
        return paths, i + 1

    cleaned = re.sub(r"\bas\b\s*" + IDENT, "", re.sub(r"\s+", " ", tree)).replace(
        " ", ""
    )
    return parse(cleaned, 0, [])[0]


class Crate:
    """The crate's files, their module paths and their re-exports."""

    def __init__(self, src: Path):
        self.src = src
        self.files: dict[tuple[str, ...], Path] = {}
        for path in sorted(src.rglob("*.rs")):
            rel = path.relative_to(src).with_suffix("")
            parts = list(rel.parts)
            if parts == ["lib"] or parts == ["main"]:
                parts = []
            elif parts[-1] == "mod":
                parts = parts[:-1]
            self.files[tuple(parts)] = path
        self.code = {
            m: strip(p.read_text(encoding="utf-8")) for m, p in self.files.items()
        }
        # `#[macro_export]` macros live at the crate's root: `crate::json!` is its file's.
        self.macros = {
            found: module
            for module, code in self.code.items()
            for found in re.findall(rf"macro_rules!\s*({IDENT})", code)
        }
        self.reexports: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}
        for module, code in self.code.items():
            names: dict[str, tuple[str, ...]] = {}
            for match in USE_RE.finditer(code):
                if not match.group(0).lstrip().startswith("pub"):
                    continue
                for path in expand(match.group(1)):
                    absolute = self.absolute(module, path)
                    if absolute and len(absolute) > 0:
                        names[absolute[-1]] = absolute
            self.reexports[module] = names

    def absolute(
        self, module: tuple[str, ...], path: list[str]
    ) -> tuple[str, ...] | None:
        """`path` as seen from `module`, from the crate's root; None for another crate's."""
        if not path:
            return None
        head, rest = path[0], path[1:]
        if head == "crate":
            return tuple(rest)
        if head == "self":
            return module + tuple(rest)
        if head == "super":
            base = list(module)
            while path and path[0] == "super":
                if not base:
                    return None
                base.pop()
                path = path[1:]
            return tuple(base) + tuple(path)
        if module + (head,) in self.files:  # a child module named plainly
            return module + tuple(path)
        return None

    def resolve(self, path: tuple[str, ...], seen: int = 0) -> tuple[str, ...] | None:
        """The file (module) that defines what `path` names, following re-exports."""
        if len(path) == 1 and path[0] in self.macros:
            return self.macros[path[0]]
        for cut in range(len(path), -1, -1):
            module = path[:cut]
            if module in self.files:
                if cut < len(path) and seen < 8:
                    target = self.reexports.get(module, {}).get(path[cut])
                    if target and target != path[: cut + 1]:
                        deeper = self.resolve(target + path[cut + 1 :], seen + 1)
                        if deeper is not None:
                            return deeper
                return module
        return None

    def edges(self) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
        """Each file's dependencies on the crate's other files."""
        graph: dict[tuple[str, ...], set[tuple[str, ...]]] = {
            m: set() for m in self.files
        }
        for module, code in self.code.items():
            paths: list[list[str]] = []
            # A re-export (`pub use`) is not a use: paths through it lead to the item's file.
            uses = [
                m
                for m in USE_RE.finditer(code)
                if not m.group(0).lstrip().startswith("pub")
            ]
            for match in uses:
                paths.extend(expand(match.group(1)))
            code = USE_RE.sub("", code)
            for match in PATH_RE.finditer(code):
                paths.append([match.group(1)] + match.group(2).split("::")[1:])
            children = {
                m[-1]
                for m in self.files
                if len(m) == len(module) + 1 and m[:-1] == module
            }
            for child in children:
                for match in re.finditer(rf"(?<![:\w]){child}((?:::{IDENT})+)", code):
                    paths.append([child] + match.group(1).split("::")[1:])
            for path in paths:
                absolute = self.absolute(module, path)
                if absolute is None:
                    continue
                target = self.resolve(absolute)
                if target is not None and target != module and target != module[:-1]:
                    graph[module].add(target)
        # A module's declaration of its children (`mod x;`) is not a use of them.
        return graph


def components(graph: dict) -> list[list]:
    """Strongly connected components (Tarjan), iteratively."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on: set = set()
    out: list[list] = []
    counter = 0
    for root, targets in graph.items():
        if root in index:
            continue
        work = [(root, iter(sorted(targets)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    item = stack.pop()
                    on.discard(item)
                    group.append(item)
                    if item == node:
                        break
                if len(group) > 1:
                    out.append(sorted(group))
    return out


def cycle_in(graph: dict, group: list) -> list:
    """One path round `group`, from its first member back to it (breadth first: short)."""
    members = set(group)
    start = group[0]
    previous = {start: None}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for nxt in sorted(graph[node]):
            if nxt == start:
                path = [node]
                while previous[path[-1]] is not None:
                    path.append(previous[path[-1]])
                return list(reversed(path)) + [start]
            if nxt in members and nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return group


def name(module: tuple[str, ...]) -> str:
    return "::".join(module) or "crate"


def self_test() -> None:
    """The checker on small crates written for it: each circle found, nothing else."""
    import tempfile

    crates = {
        "siblings": (
            {
                "lib.rs": "pub mod a;\npub mod b;\n",
                "a.rs": "use crate::b::B;\npub struct A;\n",
                "b.rs": "pub struct B(crate::a::A);\n",
            },
            1,
        ),
        "through a re-export": (
            {
                "lib.rs": "pub mod a;\npub mod b;\npub use a::A;\n",
                "a.rs": "pub struct A;\nfn f() { crate::b::g() }\n",
                "b.rs": "pub fn g() { let _ = crate::A; }\n",
            },
            1,
        ),
        "through a macro": (
            {
                "lib.rs": "pub mod a;\npub mod b;\n",
                "a.rs": "pub struct X;\nfn f() { crate::m!(); }\n",
                "b.rs": "#[macro_export]\nmacro_rules! m { () => {} }\nfn g(_: crate::a::X) {}\n",
            },
            1,
        ),
        "a child and its parent": (
            {
                "lib.rs": "pub mod a;\n",
                "a/mod.rs": "mod b;\npub struct A(b::B);\n",
                "a/b.rs": "pub struct B;\nfn f(_: super::A) {}\n",
            },
            0,
        ),
        "tests left out": (
            {
                "lib.rs": "pub mod a;\npub mod b;\n",
                "a.rs": "use crate::b::B;\n",
                "b.rs": "pub struct B;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
            },
            0,
        ),
        "three modules round": (
            {
                "lib.rs": "pub mod a;\npub mod b;\npub mod c;\n",
                "a.rs": "use crate::b::f;\n",
                "b.rs": "use crate::c::{self, g};\n",
                "c.rs": "fn g() { crate::a::h() }\n",
            },
            1,
        ),
    }
    for name, (files, circles) in crates.items():
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                target = Path(root, path)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8")
            found = components(Crate(Path(root)).edges())
            if len(found) != circles:
                raise SystemExit(
                    f"self-test {name!r}: {len(found)} circle(s), expected {circles}"
                )
    print(f"self-test: {len(crates)} crates, each as expected")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("src", nargs="*", default=list(CRATES))
    parser.add_argument(
        "--max", type=int, default=0, help="circles allowed per crate (default 0)"
    )
    parser.add_argument(
        "--modules", action="store_true", help="group by top-level module"
    )
    parser.add_argument(
        "--self-test", action="store_true", help="check the checker first"
    )
    args = parser.parse_args()
    if args.self_test:
        self_test()
    failed = 0
    for src in args.src:
        failed |= check(src, args.max, args.modules)
    return failed


def check(src: str, most: int, modules: bool) -> int:
    """Prints the circles of the crate whose source folder is `src`; 1 when over `most`."""
    crate = Crate(Path(src))
    graph = crate.edges()
    if modules:
        grouped: dict = {}
        for module, targets in graph.items():
            key = module[:1]
            grouped.setdefault(key, set()).update(
                t[:1] for t in targets if t[:1] != key
            )
        graph = grouped
    groups = components(graph)
    for group in groups:
        print(
            f"circle of {len(group)}: "
            + " → ".join(name(m) for m in cycle_in(graph, group))
        )
        if len(group) > 2:
            print("  members: " + ", ".join(name(m) for m in group))
    print(
        f"{len(groups)} import circle(s) in {src} ({len(graph)} {'modules' if modules else 'files'})"
    )
    if len(groups) > most:
        print(f"more than the {most} allowed in {src}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
