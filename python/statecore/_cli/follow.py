"""The commands that go on (docs/cli.md § Commands that go on: ``then``).

``follow`` runs a command's calls to the core one after another. An answer with ``then`` names
files and directories to watch and timers to arm. What to wait for, which event comes next (a
due timer first, then the changed files in the byte order of their paths) and how long to
sleep are the core's (``cli_wait_take``, ``cli_wait_next``); this module records the watched
files when told (modification time in ns, size, inode, or missing), sleeps, and calls the core
again with one event at a time, giving back ``then.state``. Everything is synchronous
(``time.sleep`` between looks); Ctrl-C raises KeyboardInterrupt, which ``_cli.run.main`` turns into
the exit code 130. The npm package's twin is npm/lib/cli/follow.cjs.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import time

from statecore._cli.run import list_fact, settle
from statecore._generated.root import cli_wait_next, cli_wait_take

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from statecore.types import (
        CliAnswer,
        CliEnv,
        CliFacts,
        CliNeed,
        CliRequest,
        CliWaiting,
    )


#: True while a progress line is on standard error (a terminal).
_progress_shown = False


def _clear_progress() -> None:
    """Takes the progress line off standard error, if one is there."""
    global _progress_shown
    if _progress_shown:
        sys.stderr.buffer.write(b"\r\x1b[K")
        sys.stderr.buffer.flush()
    _progress_shown = False


def print_partial(answer: CliAnswer) -> None:
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


def print_answer(answer: CliAnswer) -> None:
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


def _sleep_ms(ms: float) -> None:
    time.sleep(ms / 1000)


def _clock_ms() -> float:
    return time.monotonic() * 1000


def follow(
    call: Callable[[CliRequest], CliAnswer],
    request: CliRequest,
    gather: Callable[[CliNeed, CliFacts], None],
    *,
    program: str = "statecore",
    env: Callable[[], CliEnv] | None = None,
    clock: Callable[[], float] = _clock_ms,
    sleep: Callable[[float], None] = _sleep_ms,
    output: Callable[[CliAnswer], None] = print_answer,
    partial: Callable[[CliAnswer], None] = print_partial,
) -> int:
    """Runs a command's calls to its end and returns its exit code. ``call(request)`` is the
    core; ``gather(need, facts)`` adds a need's fact. Each answer is printed; one with ``then``
    goes on: the next call has ``{argv, env: env(), facts: {event, state}}``. For tests:
    ``program`` (in the messages of what should never happen), ``env()`` (a new call's env,
    with the time now), ``clock()`` (ms), ``sleep(ms)``, ``output(answer)`` (prints it),
    ``partial(answer)`` (prints an answer that asks for more: output so far, progress)."""
    waiting: CliWaiting | None = None
    while True:
        answer = settle(call, request, gather, program, partial)
        then = answer.get("then")
        if then is not None:
            seen = look(then.get("watch", []), then.get("names"))
            waiting = cli_wait_take(waiting, then, seen, clock())
        output(answer)
        if then is None or waiting is None:
            return answer.get("code", 2)
        step = cli_wait_next(waiting, clock())
        while "event" not in step and not step.get("idle"):
            if step.get("look"):
                at, watched = clock(), step["waiting"]  # the look's time: when it began
                seen = look(watched["watch"], watched.get("names"))
                step = cli_wait_next(watched, at, seen)
            else:
                sleep(step["sleep_ms"])
                step = cli_wait_next(step["waiting"], clock())
        if step.get("idle"):
            return answer.get("code", 2)
        waiting = step["waiting"]
        facts: CliFacts = {"files": {}, "dirs": {}, "writes": {}, "env": {}, "event": step["event"]}
        if "state" in then:
            facts["state"] = then["state"]
        new_env = request.get("env", {}) if env is None else env()
        request = {"argv": request["argv"], "env": new_env, "facts": facts}
