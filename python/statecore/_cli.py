"""statecore: the command line (docs/cli.md).

Everything it decides (the arguments, the help, the kinds, the output, the exit code) is the
core's ``cli_run``; this module only gathers the facts the core asks for (files read,
directories listed) and prints what it answers. The npm package's ``statecore``
(npm/bin/statecore.cjs) is its twin: the same requests, so the same output byte for byte.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys

from statecore._generated.root import cli_run

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from statecore.types import CliDir, CliFile, CliRequest

#: Directories a listing never enters.
SKIP = frozenset({".git", "node_modules"})
#: How deep a listing goes below the directory named.
MAX_DEPTH = 16
#: How many times the core may ask for more before the host gives up (a core bug).
MAX_ROUNDS = 16


def _error_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, "EIO")


def read_fact(path: str) -> CliFile:
    """A file as the core wants it: its UTF-8 text, or why there is none."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return {"error": "missing"}
    except OSError as error:
        return {"error": "unreadable", "message": _error_name(error)}
    if stat.S_ISDIR(info.st_mode):
        return {"error": "directory"}
    if not stat.S_ISREG(info.st_mode):
        return {"error": "special"}
    try:
        with open(path, "rb") as file:
            data = file.read()
    except OSError as error:
        return {"error": "unreadable", "message": _error_name(error)}
    try:
        return {"text": data.decode("utf-8")}
    except UnicodeDecodeError:
        return {"error": "not_text"}


def list_fact(directory: str, names: Sequence[str]) -> CliDir:
    """The files under ``directory`` named one of ``names``, without following links."""
    wanted = set(names)
    files: list[str] = []
    base = directory.rstrip("/") or "/"

    def walk(relative: str, depth: int) -> None:
        here = directory if relative == "" else f"{base}/{relative}"
        with os.scandir(here) as entries:
            for entry in entries:
                below = entry.name if relative == "" else f"{relative}/{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    if entry.name not in SKIP and depth < MAX_DEPTH:
                        # A directory below that cannot be read is left out.
                        with contextlib.suppress(OSError):
                            walk(below, depth + 1)
                elif entry.is_file(follow_symlinks=False) and entry.name in wanted:
                    files.append(f"/{below}" if base == "/" else f"{base}/{below}")

    try:
        walk("", 0)
    except OSError as error:
        return {"message": _error_name(error)}
    return {"files": files}


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit code."""
    files: dict[str, CliFile] = {}
    dirs: dict[str, CliDir] = {}
    request: CliRequest = {
        "argv": list(sys.argv[1:] if argv is None else argv),
        "env": {"tty": sys.stdout.isatty(), "no_color": bool(os.environ.get("NO_COLOR"))},
        "facts": {"files": files, "dirs": dirs},
    }
    for _ in range(MAX_ROUNDS):
        answer = cli_run(request)
        needs = answer.get("needs")
        if not needs:
            sys.stdout.flush()
            sys.stdout.buffer.write(answer.get("stdout", "").encode("utf-8"))
            sys.stdout.buffer.flush()
            sys.stderr.flush()
            sys.stderr.buffer.write(answer.get("stderr", "").encode("utf-8"))
            sys.stderr.buffer.flush()
            return answer.get("code", 2)
        for need in needs:
            if need["op"] == "read":
                files[need["path"]] = read_fact(need["path"])
            else:
                dirs[need["path"]] = list_fact(need["path"], need.get("names", []))
    sys.stderr.write("statecore: the command kept asking for more files (a statecore bug)\n")
    return 2
