"""The commands that go on (docs/cli.md § Commands that go on: ``then``).

``follow`` runs a command's calls to the core one after another. An answer with ``then`` names
files and directories to watch and timers to arm; the host records the watched files
(modification time in ns, size, inode, or missing) before printing, then looks at them every
100 ms and calls the core again with one event at a time (a due timer first, then the changed
files in the byte order of their paths), giving back ``then.state``. Everything is synchronous
(``time.sleep`` between looks); Ctrl-C raises KeyboardInterrupt, which ``_cli.run.main`` turns into
the exit code 130. The npm package's twin is npm/lib/cli/follow.cjs.
"""

from __future__ import annotations

import math
import os
import re
import stat
import sys
import time

from statecore._cli.run import list_fact, name_wanted, settle

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from statecore.types import (
        CliAnswer,
        CliEnv,
        CliEvent,
        CliFacts,
        CliNeed,
        CliRequest,
        CliThen,
    )

#: How often the watched files are looked at, in ms.
POLL_MS = 100
#: The record of a file that is not there (or cannot be looked at).
MISSING = "missing"


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


def _record(path: str) -> str:
    """A file's record: its modification time (ns), size and inode, following links; or
    MISSING."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return MISSING
    return f"{info.st_mtime_ns}:{info.st_size}:{info.st_ino}"


def _under(directory: str) -> str:
    """What ``list_fact`` puts before the path of a file found under ``directory``."""
    base = directory.rstrip("/") or "/"
    return "/" if base == "/" else f"{base}/"


def _is_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False  # missing or not to be looked at: watched as the one path


def look(watch: Sequence[str], names: Sequence[str] | None) -> dict[str, str]:
    """The records of the watched files now, by path: each path of ``watch`` that is not a
    directory (a file, or missing), and the files ``list_fact`` finds under each directory with
    one of ``names`` (every file when ``names`` is None)."""
    seen: dict[str, str] = {}
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


def _watched(path: str, watch: Sequence[str], names: Sequence[str] | None) -> bool:
    """True when ``path`` is one of the paths ``watch`` and ``names`` make watched."""
    named = name_wanted(None if names is None else set(names), path.rsplit("/", 1)[-1])
    return any(path == item or (named and path.startswith(_under(item))) for item in watch)


def _bytes(path: str) -> bytes:
    """A path's bytes, for the byte order of paths."""
    return path.encode("utf-8", "surrogateescape")


class Waiting:
    """What a command that goes on waits for: the watched paths with their kept records, the
    last look's records, and the pending timers in the order they were armed. ``clock()``
    gives ms."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.watch: list[str] = []
        self.names: list[str] | None = None
        self.kept: dict[str, str] = {}
        self.last: dict[str, str] = {}
        self.last_look = 0.0
        self.timers: list[tuple[str, float]] = []

    def take(self, then: CliThen) -> None:
        """Takes an answer's ``then``: its watched paths replace the previous ones and its
        timers are armed. A path watched before keeps its record (none: missing, so that a file
        that appeared meanwhile is still a change); a path watched anew is recorded as it is
        now."""
        watch = list(then.get("watch", []))
        names = then.get("names")
        seen = look(watch, names)
        now = self.clock()
        kept = {f: r for f, r in self.kept.items() if _watched(f, watch, names)}
        for file, record in seen.items():
            if not _watched(file, self.watch, self.names):
                kept[file] = record
        self.watch, self.names, self.kept, self.last, self.last_look = watch, names, kept, seen, now
        for timer in then.get("timers", []):
            self.timers.append((timer["name"], now + timer["after_ms"]))

    def idle(self) -> bool:
        """True when nothing is watched and no timer is pending: nothing to wait for."""
        return not self.watch and not self.timers

    def _first_timer(self) -> int | None:
        """The index of the pending timer due first (the first armed among equals), or None."""
        first: int | None = None
        for index, (_, due) in enumerate(self.timers):
            if first is None or due < self.timers[first][1]:
                first = index
        return first

    def next(self, sleep: Callable[[float], None]) -> CliEvent:
        """Waits for the next event, sleeping with ``sleep(ms)``: a due timer, else the first
        (in byte order) of the paths whose record differs from the one kept and is the same as
        at the previous look. Its kept record is replaced by the one seen."""
        while True:
            now = self.clock()
            first = self._first_timer()
            if first is not None and self.timers[first][1] <= now:
                name, _ = self.timers.pop(first)
                return {"timer": name}
            polling = bool(self.watch)
            if polling and now >= self.last_look + POLL_MS:
                path = self._poll(now)
                if path is not None:
                    return {"path": path}
                continue
            until = min(
                self.last_look + POLL_MS if polling else float("inf"),
                float("inf") if first is None else self.timers[first][1],
            )
            sleep(max(1, math.ceil(until - now)))

    def _poll(self, now: float) -> str | None:
        """Looks at the watched files: the first changed path (its record now kept), or None."""
        seen = look(self.watch, self.names)
        changed = [
            path
            for path in {**self.kept, **seen}
            if seen.get(path, MISSING) != self.kept.get(path, MISSING)
            and seen.get(path, MISSING) == self.last.get(path, MISSING)
        ]
        self.last, self.last_look = seen, now
        if not changed:
            return None
        path = min(changed, key=_bytes)
        record = seen.get(path, MISSING)
        if record == MISSING:
            self.kept.pop(path, None)  # the same to the next look, and nothing kept
        else:
            self.kept[path] = record
        return path


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
    waiting = Waiting(clock)
    while True:
        answer = settle(call, request, gather, program, partial)
        then = answer.get("then")
        if then is not None:
            waiting.take(then)
        output(answer)
        if then is None or waiting.idle():
            return answer.get("code", 2)
        facts: CliFacts = {"files": {}, "dirs": {}, "writes": {}, "env": {}}
        facts["event"] = waiting.next(sleep)
        if "state" in then:
            facts["state"] = then["state"]
        new_env = request.get("env", {}) if env is None else env()
        request = {"argv": request["argv"], "env": new_env, "facts": facts}
