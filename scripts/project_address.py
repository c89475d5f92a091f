"""The project's public addresses, from the one place they are written (project-address.toml),
into every file that carries them, and the check that no placeholder address ships.

There is no public repository or documentation site yet: project-address.toml holds empty
values, and then every metadata file must carry no address at all. On the day one exists it
is written there, and ``sync`` puts it into npm/package.json (``homepage``, ``repository``),
python/pyproject.toml (``[project.urls]``), Cargo.toml (``[workspace.package]``) and
mkdocs.yml (``site_url``, ``repo_url``).

Usage:
  python scripts/project_address.py sync              write the metadata files (make generate)
  python scripts/project_address.py check             exit 1 when one disagrees (make test)
  python scripts/project_address.py artifacts FILE..  exit 1 when a packed npm tarball, wheel
                                                      or sdist carries a placeholder address,
                                                      or an address that is not the project's
"""

from __future__ import annotations

import io
import json
import re
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
KEYS = ("repository", "documentation")
#: Addresses that only ever stand in for a real one.
PLACEHOLDER = re.compile(
    r"(?i:\bexample\.(?:com|org|net)\b|\b(?:your|my)[-_](?:org|name|user|repo)\b"
    r"|<(?:org|owner|user)>|\bowner/repo\b|\bstatecore\.(?:dev|io|org|com)\b"
    r"|statecore\.readthedocs)|\bTODO\b|\bFIXME\b|\bTBD\b"
)
#: An address on a code host or documentation host: only the project's own may ship.
HOSTED = re.compile(
    r"(?i)\b(?:https?://|git\+https?://|git@)?"
    r"(?:github\.com|gitlab\.com|bitbucket\.org|codeberg\.org|[\w-]+\.github\.io|[\w-]+\.readthedocs\.io)"
    r"[/:][^\s\"'<>)\]`]*"
)
#: Files that carry third-party code or records with those projects' own addresses: the
#: viewer's bundled libraries, MkDocs' theme in the built site, the SBOM, the lock file.
THIRD_PARTY = re.compile(
    r"(^|/)(dist/viewer|docs/site|sboms)/|THIRD-PARTY-NOTICES|(^|/)Cargo\.lock$|\.map$"
)
#: Any address at all (metadata files may hold only the project's).
URL = re.compile(r"(?i)\b(?:https?|git\+https?|git)://[^\s\"'<>)\]`]+")


def addresses() -> dict[str, str]:
    """The addresses of project-address.toml (empty strings while none exists)."""
    data = tomllib.loads((ROOT / "project-address.toml").read_text(encoding="utf-8"))
    unknown = set(data) - set(KEYS)
    if unknown:
        raise SystemExit(
            f"project-address.toml: unknown key(s) {sorted(unknown)}; known: {KEYS}"
        )
    out = {k: str(data.get(k, "")) for k in KEYS}
    for key, value in out.items():
        if value and (not value.startswith("https://") or PLACEHOLDER.search(value)):
            raise SystemExit(
                f"project-address.toml: {key} = {value!r} is not an https:// address of the "
                "project (leave it empty until the address exists)"
            )
    return out


def package_json(text: str, a: dict[str, str]) -> str:
    """npm/package.json with ``homepage`` and ``repository`` from ``a`` (absent when empty)."""
    data = json.loads(text)
    out: dict[str, object] = {}
    for key, value in data.items():
        if key in ("homepage", "repository", "bugs"):
            continue
        out[key] = value
        if key == "license":
            if a["documentation"]:
                out["homepage"] = a["documentation"]
            if a["repository"]:
                out["repository"] = {"type": "git", "url": f"git+{a['repository']}"}
    return json.dumps(out, indent=2, ensure_ascii=False) + "\n"


def _drop_lines(text: str, pattern: str) -> list[str]:
    return [
        line for line in text.splitlines(keepends=True) if not re.match(pattern, line)
    ]


def _insert_after(
    lines: list[str], pattern: str, new: list[str], where: str
) -> list[str]:
    for i, line in enumerate(lines):
        if re.match(pattern, line):
            return lines[: i + 1] + new + lines[i + 1 :]
    raise SystemExit(
        f"{where}: no line matching {pattern!r} to put the addresses after"
    )


def pyproject(text: str, a: dict[str, str]) -> str:
    """python/pyproject.toml with a ``[project.urls]`` table from ``a`` (none when empty)."""
    text = re.sub(r"(?ms)^\[project\.urls\]\n.*?(?=^\[)", "", text)
    urls = [("Repository", a["repository"]), ("Documentation", a["documentation"])]
    block = "".join(f'{name} = "{value}"\n' for name, value in urls if value)
    if not block:
        return text
    head = "[project.optional-dependencies]\n"
    if head not in text:
        raise SystemExit(
            f"python/pyproject.toml: no {head.strip()} to put [project.urls] before"
        )
    return text.replace(head, f"[project.urls]\n{block}\n{head}", 1)


def cargo_toml(text: str, a: dict[str, str]) -> str:
    """Cargo.toml with ``repository``, ``homepage`` and ``documentation`` in
    ``[workspace.package]`` from ``a`` (absent when empty)."""
    lines = _drop_lines(text, r"(repository|homepage|documentation) = ")
    new = []
    if a["repository"]:
        new.append(f'repository = "{a["repository"]}"\n')
    if a["documentation"]:
        new += [
            f'homepage = "{a["documentation"]}"\n',
            f'documentation = "{a["documentation"]}"\n',
        ]
    return "".join(
        _insert_after(lines, r"rust-version = ", new, "Cargo.toml") if new else lines
    )


def mkdocs_yml(text: str, a: dict[str, str]) -> str:
    """mkdocs.yml with ``site_url`` and ``repo_url`` from ``a`` (absent when empty)."""
    lines = _drop_lines(text, r"(site_url|repo_url):")
    new = []
    if a["documentation"]:
        new.append(f"site_url: {a['documentation']}\n")
    if a["repository"]:
        new.append(f"repo_url: {a['repository']}\n")
    return "".join(
        _insert_after(lines, r"site_description:", new, "mkdocs.yml") if new else lines
    )


FILES = {
    "npm/package.json": package_json,
    "python/pyproject.toml": pyproject,
    "Cargo.toml": cargo_toml,
    "mkdocs.yml": mkdocs_yml,
}


def sync(write: bool) -> int:
    """Writes (or, with ``write`` false, checks) every file that carries the addresses."""
    a = addresses()
    stale = []
    for name, render in FILES.items():
        path = ROOT / name
        text = path.read_text(encoding="utf-8")
        want = render(text, a)
        if want != text:
            if write:
                path.write_text(want, encoding="utf-8")
                print(f"project_address: wrote {name}")
            else:
                stale.append(name)
    for name in stale:
        print(
            f"project_address: {name} does not carry project-address.toml's addresses: "
            "run `make generate`",
            file=sys.stderr,
        )
    return 1 if stale else 0


def _members(path: Path) -> list[tuple[str, bytes]]:
    """(name, bytes) of every file of an npm tarball, a wheel or an sdist."""
    if path.suffix == ".whl":
        with zipfile.ZipFile(path) as z:
            return [(n, z.read(n)) for n in z.namelist() if not n.endswith("/")]
    with tarfile.open(path) as t:
        out = []
        for m in t.getmembers():
            f = t.extractfile(m) if m.isfile() else None
            if f is not None:
                out.append((m.name, f.read()))
        return out


def _is_metadata(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    return base in {
        "package.json",
        "METADATA",
        "PKG-INFO",
        "pyproject.toml",
        "Cargo.toml",
    } and (name.count("/") <= 1 or base in {"METADATA", "Cargo.toml"})


def artifact_problems(path: Path, a: dict[str, str]) -> list[str]:
    """Each placeholder or foreign address in the artifact's metadata, and each code-host or
    documentation-host address in its own text (READMEs, docs, sources, types) that is not
    the project's."""
    own = {v.rstrip("/") for v in a.values() if v}
    problems = []
    for name, data in _members(path):
        if name.endswith(
            (".wasm", ".so", ".pyd", ".dll", ".dylib", ".png", ".woff", ".woff2")
        ):
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        meta = _is_metadata(name)
        for n, line in enumerate(io.StringIO(text), 1):
            where = f"{path.name}:{name}:{n}"
            if meta:
                for m in PLACEHOLDER.finditer(line):
                    problems.append(f"{where}: placeholder {m.group(0)!r} in metadata")
                for m in URL.finditer(line):
                    if m.group(0).rstrip("/.,") not in own and not own_prefix(
                        m.group(0), own
                    ):
                        problems.append(
                            f"{where}: address {m.group(0)!r} is not the project's"
                        )
            if THIRD_PARTY.search(name):
                continue
            for m in HOSTED.finditer(line):
                if not own_prefix(m.group(0), own):
                    problems.append(
                        f"{where}: hosted address {m.group(0)!r} is not the project's"
                    )
    return problems


def own_prefix(found: str, own: set[str]) -> bool:
    """True when ``found`` is one of the project's addresses or below one."""
    bare = re.sub(r"^(git\+)?", "", found)
    return any(bare == o or bare.startswith((o + "/", o + "#")) for o in own)


def main(argv: list[str]) -> int:
    if argv[:1] == ["sync"]:
        return sync(write=True)
    if argv[:1] == ["check"]:
        return sync(write=False)
    if argv[:1] == ["artifacts"] and argv[1:]:
        a = addresses()
        problems = [p for f in argv[1:] for p in artifact_problems(Path(f), a)]
        for p in problems:
            print(f"project_address: {p}", file=sys.stderr)
        if not problems:
            print(
                f"project_address: no placeholder address in {len(argv) - 1} artifact(s)"
            )
        return 1 if problems else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
