"""The system calls of the commands that go on (docs/cli.md § Commands that go on: ``then``)
and the command line's printing.

What to wait for, which event comes next (a due timer first, then the changed files in the
byte order of their paths), how long to sleep and when to call the command again are the
core's job's (``statecore._cli.run.drive`` performs its steps); this module records the
watched files when asked (``look``: modification time in ns, size, inode, or missing) and
prints. Everything is synchronous (``time.sleep`` between looks); Ctrl-C raises
KeyboardInterrupt, which ``_cli.run.main`` turns into the exit code 130. The npm package's twin
is npm/lib/cli/follow.cjs.
"""

from __future__ import annotations

import os
import re
import stat
import sys

from statecore._cli.run import list_fact

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


#: True while a progress line is on standard error (a terminal).
_progress_shown = False


def _clear_progress() -> None:
    """Takes the progress line off standard error, if one is there."""
    global _progress_shown
    if _progress_shown:
        sys.stderr.buffer.write(b"\r\x1b[K")
        sys.stderr.buffer.flush()
    _progress_shown = False


def print_partial(answer: Mapping[str, Any]) -> None:
    """Prints what an answer that asks for more brings: the output so far (a log printed in
    pages), and its progress line, written over the previous one (the core gives one only when
    the host said standard error is a terminal, ``env.progress``)."""
    global _progress_shown
    if answer.get("stdout") or answer.get("stderr"):
        print_answer(answer)
    progress = answer.get("progress")
    if progress:
        sys.stderr.buffer.write(b"\r\x1b[K" + progress.encode("utf-8"))
        sys.stderr.buffer.flush()
        _progress_shown = True


def print_answer(answer: Mapping[str, Any]) -> None:
    """Prints an answer: its standard output, then its standard error (UTF-8 bytes)."""
    _clear_progress()
    sys.stdout.flush()
    sys.stdout.buffer.write(answer.get("stdout", "").encode("utf-8"))
    sys.stdout.buffer.flush()
    sys.stderr.flush()
    sys.stderr.buffer.write(answer.get("stderr", "").encode("utf-8"))
    sys.stderr.buffer.flush()


def utc_offset(now: str) -> int:
    """The local time's offset from UTC at ``now`` (RFC 3339, read by the core's
    ``parse_timestamp``, or epoch milliseconds as digits), in whole minutes east; at the time
    now when ``now`` is neither."""
    import datetime

    from statecore._generated.root import parse_timestamp
    from statecore.errors import TimestampError

    utc = datetime.timezone.utc
    try:
        ms = int(now) if re.fullmatch(r"\d+", now, re.ASCII) else parse_timestamp(now)
        offset = datetime.datetime.fromtimestamp(ms / 1000, utc).astimezone().utcoffset()
    except (TimestampError, ValueError, OverflowError, OSError):
        offset = datetime.datetime.now(utc).astimezone().utcoffset()
    return 0 if offset is None else int(offset.total_seconds() / 60)


def _record(path: str) -> str | None:
    """A file's record: its modification time (ns), size and inode, following links; or None
    (missing)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return f"{info.st_mtime_ns}:{info.st_size}:{info.st_ino}"


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # missing or not to be looked at: watched as the one path


def look(watch: Sequence[str], names: Sequence[str] | None) -> dict[str, str | None]:
    """The records of the watched files now, by path: each path of ``watch`` that is not a
    directory (a file, or missing), and the files ``list_fact`` finds under each directory with
    one of ``names`` (every file when ``names`` is None)."""
    seen: dict[str, str | None] = {}
    for item in watch:
        if item.startswith(("postgresql://", "postgres://")):
            from statecore._cli import store as _cli_store  # a store URL: etags and log lengths

            seen.update(_cli_store.look_fact(item, names))
            continue
        if not _is_dir(item):
            seen[item] = _record(item)
            continue
        for file in list_fact(item, names).get("files", []):
            seen[file] = _record(file)
    return seen
