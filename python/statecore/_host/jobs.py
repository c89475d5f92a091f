"""The one driver of the core's jobs in the Python host (docs/locking.md § The lock as a job,
§ The update as a job; docs/store.md § The update as a job): the job decides, the caller's
``take`` performs each step it asks for, and this feeds the answers back, a plan (``all``)
step by step. The lock's, the file update's and the store's drivers are each a ``take`` run
here. The npm twin is ``npm/lib/host/jobs.cjs``."""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, Protocol, TypeGuard

    class Stepped(Protocol):
        """A job as the driver runs it: its first step, and the step after an answer."""

        @property
        def first(self) -> Any: ...
        def next(self, answer: object, data: bytes | None = None) -> Any: ...


BYTES = "\x00bytes"
"""The key under which ``take`` gives the bytes read doing a step (a ``load`` with ``bytes``):
the driver takes them out of the answer and gives them beside it (``next(answer, data)``)."""


def drive(
    job: Stepped, take: Callable[[dict[str, Any], Callable[[BaseException], int]], dict[str, Any]]
) -> dict[str, Any]:
    """Runs ``job`` to its end and returns its last step (``done``). ``take(step, fail)``
    performs one step and returns its answer (a host's failure answered ``{"failed":
    fail(error)}``, which the job may ignore; raised when the job says ``raise``). A plan
    (``all``) is taken step by step up to the first answer that fails or is not what its step
    expects, or to its ``done``, which ends the job without another crossing."""
    errors: list[BaseException] = []

    def fail(error: BaseException) -> int:
        errors.append(error)
        return len(errors) - 1

    step: dict[str, Any] = job.first
    while True:
        what = step["do"]
        if what == "done":
            return step
        if what == "raise":
            raise errors[step["failed"]]
        if what != "all":
            answer = take(step, fail)
            step = job.next(answer, answer.pop(BYTES, None))
            continue
        answers: list[dict[str, Any]] = []
        data = None
        for one in step["steps"]:
            if one["do"] == "done":
                done: dict[str, Any] = one
                return done
            got = take(one, fail)
            if BYTES in got:
                data = got.pop(BYTES)
            answers.append(got)
            if "failed" in got:
                break
            expect = one.get("expect")
            if expect is not None and not meets(got, expect):
                break
        step = job.next({"answers": answers}, data)


def _number(value: object) -> TypeGuard[int | float]:
    """Whether ``value`` is a JSON number (a boolean is not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_ABSENT = object()
"""An answer's field that is not there."""


def _fields_meet(answer: object, wanted: dict[str, object]) -> bool:
    """Whether ``answer`` is an object with each field of ``wanted`` (``meets``' object case).

    ``True``, ``False`` and ``None`` are single objects, so ``is`` is the same type and value;
    the checks are ordered by how often a plan asks them (a lock plan's ``missing``,
    ``created`` and ``latin1`` come first)."""
    if type(answer) is not dict:
        return isinstance(answer, dict) and _fields_meet(dict(answer), wanted)
    for key, want in wanted.items():
        if key == "age_under_ms":
            now, mtime = answer.get("now_ms"), answer.get("mtime_ms")
            if not (_number(now) and _number(mtime) and _number(want)):
                return False
            if not 0 <= float(now) - float(mtime) < want:
                return False
            continue
        got = answer.get(key, _ABSENT)
        if want is True or want is False or want is None:
            if got is not want:
                return False
        elif type(want) is str:
            if type(got) is not str or got != want:
                return False
        elif type(want) is list:
            if want or type(got) is not list or got:
                return False  # `[]` asks for an empty list; any other list is never met
        elif not (_number(want) and _number(got) and float(got) == float(want)):
            return False  # a number unequal in value, or an expected object
    return True


def meets(answer: object, expect: object) -> bool:
    """Whether ``answer`` is what a plan's step ``expect``s of it: the core's rule
    (``lock_plan_meets``, docs/locking.md § Plans; python/tests/test_lock_job.py runs this copy
    through its vectors). No expectation takes any answer; a list, one of its objects; an object,
    each of its fields: ``age_under_ms: n`` asks for numbers ``now_ms`` and ``mtime_ms`` with
    ``0 <= now_ms - mtime_ms < n``, any other key for the same scalar (``null``, a boolean or a
    string of the same type and value, a number equal in value) or, for ``[]``, an empty list
    (any other list, or an object: never)."""
    if expect is None:
        return True
    if isinstance(expect, dict):
        return _fields_meet(answer, expect)
    if isinstance(expect, list):
        return any(isinstance(one, dict) and _fields_meet(answer, one) for one in expect)
    return False
