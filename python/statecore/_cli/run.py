"""statecore: the command line (docs/cli.md).

Everything it decides (the arguments, the help, the kinds, the output, the exit code, when a
command that goes on runs again) is the core's job (the table's ``cli_job``, driven by
``drive``); this module only performs its steps: gathers the facts it asks for (files read,
directories listed, environment variables, tmux's sessions, writes carried out by the
library's own routines: the locked update, the log append and repair, agency's CLAUDE.md),
prints, looks at watched files and sleeps (``statecore._cli.follow``), and gives a new call of
a command that goes on a fresh ``env`` (the time now and its offset from UTC). Ctrl-C ends it
with 130, without a traceback. The npm package's ``statecore`` (npm/bin/statecore.cjs,
npm/lib/cli/run.cjs, follow.cjs, writes.cjs) is its twin: the same steps, so the same output
byte for byte.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import stat
import sys

from statecore._generated.tables import (
    SKIPPED_DIRECTORIES,
    STDIN_MAX_BYTES,
    STDIN_WAIT_MS,
    WALK_MAX_DEPTH,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any, BinaryIO, Protocol

    from statecore.types import (
        CliDir,
        CliEnv,
        CliFacts,
        CliFile,
        CliNeed,
        CliRequest,
        CliWrite,
    )

    class Act(Protocol):
        """What performs a command line job's steps (see ``drive``)."""

        def gather(self, need: CliNeed, facts: CliFacts) -> None: ...
        def partial(self, step: Mapping[str, Any]) -> None: ...
        def print(self, step: Mapping[str, Any]) -> None: ...
        def look(self, watch: Sequence[str], names: Sequence[str] | None) -> object: ...
        def sleep(self, ms: float) -> None: ...
        def clock(self) -> float: ...
        def env(self) -> CliEnv: ...
        def system(self, step: Mapping[str, Any]) -> dict[str, Any]: ...


def _clock_now() -> str:
    """The time now, RFC 3339 in UTC with milliseconds (as Node's ``toISOString``)."""
    import datetime

    now = datetime.datetime.now(datetime.timezone.utc)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z"


def _platform() -> str:
    """The operating system as Node's ``process.platform`` names it (``linux``, ``darwin``,
    ``win32``)."""
    return "linux" if sys.platform.startswith("linux") else sys.platform


def _error_name(error: OSError) -> str:
    return errno.errorcode.get(error.errno or 0, "EIO")


def _open_read(path: str) -> BinaryIO:
    """``path`` opened for reading without blocking: a FIFO put in place of the file after its
    ``stat`` is refused (``OSError``), never waited on."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", path)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_fact(path: str, limit: int | None = None, offset: int | None = None) -> CliFile:
    """A file as the core wants it: its UTF-8 text, or why there is none; ``limit``: only its
    first bytes, cut back to their last line break when the file is longer; with ``offset``, a
    page (``page_fact``)."""
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
    if offset is not None:
        return page_fact(path, offset, limit or 1, info.st_mtime_ns // 1_000_000)
    try:
        with _open_read(path) as file:
            data = file.read() if limit is None else file.read(limit + 1)
        if limit is not None and len(data) > limit:
            data = data[: data.rfind(b"\n", 0, limit) + 1]
    except OSError as error:
        return {"error": "unreadable", "message": _error_name(error)}
    try:
        return {"text": data.decode("utf-8"), "mtime": info.st_mtime_ns // 1_000_000}
    except UnicodeDecodeError:
        return {"error": "not_text"}


def page_fact(path: str, offset: int, limit: int, mtime: int) -> CliFile:
    """A page of a log (docs/cli.md § Logs read in pages): at most ``limit`` bytes from
    ``offset``, cut back to their last line break unless the file ends within them, with
    ``offset``, ``limit`` and the file's ``size`` given back. Only the page's bytes are read."""
    try:
        with _open_read(path) as file:
            size = os.fstat(file.fileno()).st_size
            file.seek(offset)
            data = file.read(max(0, min(limit, size - offset)))
    except OSError as error:
        return {"error": "unreadable", "message": _error_name(error)}
    if offset + len(data) < size:
        data = data[: data.rfind(b"\n") + 1]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return {"error": "not_text"}
    return {"text": text, "mtime": mtime, "offset": offset, "limit": limit, "size": size}


def name_wanted(wanted: set[str] | None, name: str) -> bool:
    """True when a file named ``name`` is one of ``wanted`` (None: every file): a name, or a
    pattern ``*.jsonl`` (any name longer than it, ending in ``.jsonl``)."""
    if wanted is None or name in wanted:
        return True
    return any(
        w.startswith("*") and len(name) > len(w) - 1 and name.endswith(w[1:]) for w in wanted
    )


def list_fact(directory: str, names: Sequence[str] | None, dirs: int = 0) -> CliDir:
    """The files under ``directory`` named one of ``names`` (every file when ``names`` is None,
    for a watched directory), without following links; with ``dirs``, the directories at most
    that many levels below too, each as its path and a final ``/``."""
    wanted = None if names is None else set(names)
    files: list[str] = []
    base = directory.rstrip("/") or "/"

    def walk(relative: str, depth: int) -> None:
        here = directory if relative == "" else f"{base}/{relative}"
        with os.scandir(here) as entries:
            for entry in entries:
                below = entry.name if relative == "" else f"{relative}/{entry.name}"
                if entry.is_dir(follow_symlinks=False):
                    if depth < dirs and entry.name not in SKIPPED_DIRECTORIES:
                        files.append(f"/{below}/" if base == "/" else f"{base}/{below}/")
                    if entry.name not in SKIPPED_DIRECTORIES and depth < WALK_MAX_DEPTH:
                        # A directory below that cannot be read is left out.
                        with contextlib.suppress(OSError):
                            walk(below, depth + 1)
                elif entry.is_file(follow_symlinks=False) and name_wanted(wanted, entry.name):
                    files.append(f"/{below}" if base == "/" else f"{base}/{below}")

    try:
        walk("", 0)
    except OSError as error:
        return {"message": _error_name(error)}
    return {"files": files}


def read_stdin() -> str | None:
    """Standard input's text (docs/cli.md § Standard input): None when it is a terminal
    (nothing to wait for), when no byte came within ``STDIN_WAIT_MS`` (a standard input that
    never closes, ``sleep 60 |``), when it holds more than ``STDIN_MAX_BYTES``, or when it is
    not UTF-8; else what came until its end, or until no more came for ``STDIN_WAIT_MS``. The
    core's constants, so that both hosts read the same."""
    if sys.stdin is None or sys.stdin.isatty():
        return None
    try:
        fd = sys.stdin.fileno()
        if not hasattr(select, "poll"):  # no poll (Windows): read to the end, as before
            data = sys.stdin.buffer.read(STDIN_MAX_BYTES + 1)
            return None if len(data) > STDIN_MAX_BYTES else data.decode("utf-8")
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        chunks: list[bytes] = []
        total, ended = 0, False
        while poll.poll(STDIN_WAIT_MS):
            chunk = os.read(fd, 64 * 1024)
            if not chunk:
                ended = True
                break
            total += len(chunk)
            if total > STDIN_MAX_BYTES:
                return None
            chunks.append(chunk)
        if total == 0 and not ended:
            return None
        return b"".join(chunks).decode("utf-8")
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def tmux_sessions() -> list[str]:
    """The names of tmux's sessions; none when tmux is not installed or runs no server."""
    import subprocess

    try:
        done = subprocess.run(
            ["tmux", "list-sessions", "-F", "#{session_name}"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            timeout=5,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return []
    if done.returncode != 0:
        return []
    text = done.stdout.decode("utf-8", "replace")
    return [line.strip() for line in text.split("\n") if line.strip()]


def write_fact(need: CliNeed) -> CliWrite:
    """A write the core asked for, carried out by the library's routine (the log append and
    repair, agency's CLAUDE.md; a file's locked update is the job's own:
    ``statecore._cli.locked_write``): its result, or its error."""
    from statecore._host import logs as _logs
    from statecore.errors import StatecoreError

    timeout_ms = need.get("timeout_ms")
    options = {} if timeout_ms is None else {"timeout": timeout_ms / 1000}
    try:
        if need["op"] == "protocol_document":
            from statecore import agency

            return {"changed": agency.write_protocol_document(need["path"]) == "created"}
        if need["op"] == "append":
            appended = _logs.append_line(need["path"], need.get("record"), **options)
            return {"warnings": appended["warnings"], "corrupt_copy": appended["corrupt_copy"]}
        repaired = _logs.repair_log(need["path"], **options)
        return {
            "torn_line": repaired["torn_line"],
            "warnings": repaired["warnings"],
            "corrupt_copy": repaired["corrupt_copy"],
        }
    except StatecoreError as error:
        return {"error": {"code": error.code, "path": error.path, "message": error.message}}
    except OSError as error:
        return {"error": {"code": _error_name(error)}}


#: The needs that are writes.
_WRITES = ("update", "append", "repair", "protocol_document")


def gather(need: CliNeed, facts: CliFacts) -> None:
    """Adds the fact of one need: a file read, standard input, a listing, an environment
    variable, tmux's sessions, random bytes, a write carried out."""
    op, path = need["op"], need["path"]
    if path.startswith(("postgresql://", "postgres://")) and op in ("read", "list", *_WRITES):
        from statecore._cli import store as _cli_store  # a store URL (docs/store.md § Store URLs)

        if op == "read":
            fact = _cli_store.read_fact(path, need.get("limit"), need.get("offset"))
            facts.setdefault("files", {})[path] = fact
        elif op == "list":
            facts.setdefault("dirs", {})[path] = _cli_store.list_fact(path, need.get("names", []))
        else:
            facts.setdefault("writes", {})[path] = _cli_store.write_fact(need)
        return
    if op == "read":
        facts.setdefault("files", {})[path] = read_fact(path, need.get("limit"), need.get("offset"))
    elif op == "stdin":
        facts["stdin"] = read_stdin()
    elif op == "list":
        facts.setdefault("dirs", {})[path] = list_fact(
            path, need.get("names", []), need.get("dirs", 0)
        )
    elif op == "env":
        facts.setdefault("env", {})[path] = os.environ.get(path)
    elif op == "tmux":
        facts["tmux"] = tmux_sessions()
    elif op == "random":
        facts["random"] = os.urandom(16).hex()
    else:
        facts.setdefault("writes", {})[path] = write_fact(need)


def drive(start: Callable[[], Any], act: Act, program: str = "statecore") -> dict[str, Any]:
    """Runs a command line's job to its end (docs/cli.md § How it runs) and gives its last
    step, ``{do: "done", stdout, stderr, code, serve?}``, on the one job driver
    (``statecore._host.jobs``: a plan's steps taken in turn). ``start()`` makes the job
    (``first``, ``next``); each step is performed by ``act`` (``gather``, ``partial``,
    ``print``, ``look``, ``sleep``, ``clock``, ``env``, and ``system``: the answer to a step of
    a locked update, ``statecore._cli.locked_write``). What the core refuses (the request, an
    answer) ends the run: its message, naming ``program``, on standard error and code 2."""
    from statecore._host.jobs import drive as drive_job
    from statecore.errors import StatecoreError

    def refused(error: StatecoreError) -> dict[str, Any]:
        message = f"{program}: {error.code}: {error.message}\n"
        return {"do": "done", "stdout": "", "stderr": message, "code": 2}

    try:
        job = start()
    except StatecoreError as error:
        return refused(error)

    class Guarded:
        """The job, its refusal of an answer ending the run."""

        first = job.first

        @staticmethod
        def next(answer: object, data: bytes | None = None) -> Any:
            try:
                return job.next(answer, data)
            except StatecoreError as error:
                return refused(error)

    return dict(drive_job(Guarded(), lambda step, _fail: _perform(step, act)))


def _perform(step: Mapping[str, Any], act: Act) -> dict[str, Any]:
    """The answer to a step of a command line's job, performed by ``act`` (see ``drive``)."""
    what = step["do"]
    if what == "gather":
        act.partial(step)
        facts: CliFacts = {"files": {}, "dirs": {}, "writes": {}, "env": {}}
        for need in step["needs"]:
            act.gather(need, facts)
        return {"facts": facts}
    if what == "print":
        act.print(step)
        return {"mono_ms": act.clock()}
    if what == "look":
        at = act.clock()  # the look's time: when it began
        return {"seen": act.look(step["watch"], step.get("names")), "mono_ms": at}
    if what == "sleep":
        act.sleep(step["ms"])
        return {"mono_ms": act.clock()}
    if what == "env":
        return {"env": act.env()}
    return act.system(step)


def environment() -> CliEnv:
    """What the core knows of the process, for each call: the time now (``STATECORE_NOW``
    wins) and its offset from UTC."""
    from statecore._cli.follow import utc_offset

    now = os.environ.get("STATECORE_NOW") or _clock_now()
    return {
        "tty": sys.stdout.isatty(),
        "progress": sys.stderr is not None and sys.stderr.isatty(),
        "no_color": bool(os.environ.get("NO_COLOR")),
        "now": now,
        "cwd": os.getcwd(),
        "platform": _platform(),
        "utc_offset": utc_offset(now),
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the command line ``argv`` (default: ``sys.argv[1:]``); returns the exit code (130
    after Ctrl-C, printing nothing more)."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["mcp"] and not {"--help", "-h"} & set(args[1:]):
        # `statecore mcp [DIR]`: the MCP server (docs/mcp.md), a long-running host of its own
        # (its help is the core's, as every command's).
        from statecore._mcp.server import main as mcp_main

        return mcp_main(args[1:])
    try:
        import time
        from types import SimpleNamespace

        if TYPE_CHECKING:
            from typing import cast
        else:
            from statecore._host.runtime import cast

        from statecore._cli import follow
        from statecore._statecore import call as _call

        performer: list[Callable[[Mapping[str, Any]], dict[str, Any]]] = []

        def system(step: Mapping[str, Any]) -> dict[str, Any]:
            if not performer:
                from statecore._cli.locked_write import locked_write

                performer.append(locked_write())
            return performer[0](step)

        act = SimpleNamespace(
            system=system,
            gather=gather,
            partial=follow.print_partial,
            print=follow.print_answer,
            look=follow.look,
            sleep=lambda ms: time.sleep(ms / 1000),
            clock=lambda: time.monotonic() * 1000,
            env=environment,
        )
        request: CliRequest = {"argv": args, "env": environment()}
        last = drive(
            lambda: _call("cli_job", ("statecore", request)), cast("Act", act), "statecore"
        )
        follow.print_answer(last)
        return int(last["code"])
    except KeyboardInterrupt:
        return 130
