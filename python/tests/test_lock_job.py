"""The lock's jobs through the package (``statecore.lock.acquire_job``, ``release_job``: a ``Job``,
docs/locking.md § The lock as a job):
what a tool with its own I/O calls. The steps themselves are the corpus's
(tests/conformance/host/lock_jobs.json); here, the class's own contract and a whole run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from statecore import lock
from statecore._host.jobs import meets as _meets
from statecore._statecore import Job
from statecore.errors import StatecoreError

ID = {"pid": 100, "start": "500", "boot": "b1", "host": "h"}
SEED = bytes([7]) * 16
NOW = 1764000000000


def clocks(answer: dict[str, object]) -> dict[str, object]:
    return {**answer, "now_ms": NOW, "mono_ms": 1000.0}


def acquisition() -> Job:
    return lock.acquire_job("/d/s.json.lock", True, 1000.0, ID, True, SEED, NOW, 1000.0)


def test_an_uncontended_acquisition_then_its_release_driven_from_the_first_steps() -> None:
    taking = acquisition()
    plan = taking.first
    assert plan["do"] == "all"
    assert [s["do"] for s in plan["steps"]] == ["stat", "read", "create", "done"]
    # A first attempt passes a claim too young to be honoured, as a releaser does.
    young = [{"missing": True}, {"age_under_ms": 20}]
    assert [s.get("expect") for s in plan["steps"][:3]] == [
        young,
        {"missing": True},
        {"created": True},
    ]
    # A driver that takes the whole plan, `done` aside: the job gives the same `done`.
    answers = [clocks({"missing": True}), clocks({"missing": True}), clocks({"created": True})]
    done = taking.next(clocks({"answers": answers}))
    assert done == plan["steps"][3]
    assert done["record"]["pid"] == 100

    releasing = lock.release_job("/d/s.json.lock", done["text"], ID, True, SEED, NOW, 1000.0)
    assert releasing.first == done["release"]
    assert [s["do"] for s in releasing.first["steps"]] == ["stat", "read", "unlink", "done"]
    latin1 = done["text"].encode().decode("latin-1")
    assert releasing.first["steps"][0]["expect"] == young
    assert releasing.first["steps"][1]["expect"] == {"latin1": latin1}
    # Stopped where the lock was no longer ours: the job ends without removing it.
    other = latin1.replace('"pid":100', '"pid":101')
    answered = [clocks({"missing": True}), clocks({"latin1": other, "key": "1:1", "mtime_ms": 0})]
    assert releasing.next(clocks({"answers": answered})) == {"do": "done", "released": False}
    with pytest.raises(StatecoreError) as over:
        releasing.next(clocks({}))
    assert over.value.code == "E_ARGUMENT"


def test_the_first_step_is_asked_for_once_and_a_plan_is_answered_per_step_taken() -> None:
    taking = acquisition()
    assert taking.next(None) == taking.first
    with pytest.raises(StatecoreError) as twice:
        taking.next(None)
    assert (twice.value.code, twice.value.path) == ("E_ARGUMENT", "/answer")
    five = [clocks({"missing": True})] * 5
    with pytest.raises(StatecoreError) as bad:
        taking.next(clocks({"answers": five}))
    assert (bad.value.code, bad.value.path) == ("E_ARGUMENT", "/answer/answers")


def test_a_seed_too_short_is_refused() -> None:
    with pytest.raises(StatecoreError) as short:
        lock.acquire_job("/d/s.json.lock", True, 1000.0, ID, True, b"x", NOW, 1000.0)
    assert (short.value.code, short.value.path) == ("E_ARGUMENT", "/seed")


def test_an_argument_not_of_its_type_is_refused_naming_it() -> None:
    with pytest.raises(StatecoreError) as bad:
        lock.acquire_job("/d/s.json.lock", True, 1000.0, ID, "yes", SEED, NOW, 1000.0)  # type: ignore[arg-type]
    assert (bad.value.code, bad.value.details["argument"]) == ("E_VALUE", "probe")


VECTORS = Path(__file__).resolve().parents[2] / "tests/conformance/host/plan_expectations.json"


@pytest.mark.parametrize(
    "case", json.loads(VECTORS.read_text(encoding="utf-8"))["cases"], ids=lambda case: case["name"]
)
def test_the_drivers_rule_for_a_plans_answers_is_the_cores(case: dict[str, object]) -> None:
    answer, expect = case["args"]  # type: ignore[misc]
    assert _meets(answer, expect) is case["expect"]
