"""Writes tests/conformance/host/lock_jobs.json (a maintainer's tool, not run by the tests): each
case a lock job (docs/locking.md § The lock as a job) run against a simulated file system whose
answers are recorded, and the steps the core's `lock_job_script` asks for over those answers as
the expectation, reviewed by hand before they were kept. Needs the built package and xtask:

    .venv/bin/python scripts/make_lock_job_cases.py
"""

import json
import pathlib
import subprocess

from make_job_start_cases import lock_job_args

# The driver's own rule for a plan's steps.
from statecore._host.jobs import meets
from statecore._statecore import call
from statecore.errors import StatecoreError

ROOT = pathlib.Path(__file__).resolve().parent.parent

ID = {"pid": 100, "start": "500", "boot": "b1", "host": "h"}
SEED = "00112233445566778899aabbccddeeff"
NOW = 1764000000000
LOCK = "/d/s.json.lock"


def rec(pid, token, host="h", start="900", boot="b1", at="2025-11-24T15:59:59.000Z"):
    r = {
        "pid": pid,
        "start": start,
        "boot": boot,
        "host": host,
        "token": token,
        "acquired_at": at,
    }
    return json.dumps(r, separators=(",", ":")) + "\n"


def stat_line(pid, start):
    return f"{pid} (node) S " + " ".join(["0"] * 18) + f" {start}"


class Sim:
    def __init__(self, files=None, live=None, fail_at=None, events=()):
        self.files = {}
        self.ino = 10
        self.now, self.mono = NOW, 1000.0
        for path, (text, age) in (files or {}).items():
            self.put(path, text, self.now - age)
        self.live = {100: "500", **(live or {})}
        self.fail_at = fail_at
        self.events = sorted(events, key=lambda e: e[0])
        self.n = 0

    def put(self, path, text, mtime):
        self.ino += 1
        self.files[path] = {"text": text, "ino": self.ino, "mtime": mtime}

    def advance(self, ms):
        self.now += int(ms)
        self.mono += ms
        while self.events and self.events[0][0] <= self.mono - 1000:
            self.events.pop(0)[1](self)

    def clocks(self, d):
        d["now_ms"], d["mono_ms"] = self.now, round(self.mono, 3)
        return d

    def answer(self, step):
        if step["do"] == "all":
            return self.answer_all(step["steps"])
        self.n += 1
        if self.fail_at == self.n:
            return self.clocks({"failed": 0})
        what, path = step["do"], step.get("path")
        f = self.files.get(path)
        if what == "stat":
            return self.clocks(
                {"missing": True}
                if f is None
                else {"ino": str(f["ino"]), "mtime_ms": f["mtime"]}
            )
        if what == "read":
            if f is None:
                return self.clocks({"missing": True})
            return self.clocks(
                {
                    "latin1": f["text"],
                    "key": f"{f['ino']}:{f['mtime']}000000",
                    "mtime_ms": f["mtime"],
                }
            )
        if what == "probe":
            pid = step["pid"]
            return self.clocks(
                {
                    "exists": pid in self.live,
                    "stat": stat_line(pid, self.live[pid])
                    if pid in self.live
                    else None,
                }
            )
        if what == "create":
            if f is not None:
                return self.clocks({"created": False})
            self.put(path, step["text"], self.now)
            return self.clocks({"created": True})
        if what == "unlink":
            self.files.pop(path, None)
            return self.clocks({})
        if what == "rename":
            if step["from"] not in self.files:
                return self.clocks({"failed": 0})
            self.files[step["to"]] = self.files.pop(step["from"])
            return self.clocks({})
        if what == "displace":
            self.put(path, step["text"], step["dated_ms"])
            return self.clocks({})
        if what in ("pause", "watch"):
            self.advance(step["ms"])
            return self.clocks({})
        raise ValueError(what)

    def answer_all(self, steps):
        """A plan, as a driver takes it: each step in turn, stopping after the first answer
        that fails or is not what the step expects. A driver ends the job when it reaches the
        plan's ``done``; here the job is answered anyway (``reached``), so that the case also
        checks the job gives that same ``done`` itself."""
        answers = []
        for one in steps:
            if one["do"] == "done":
                return self.clocks({"answers": answers, "reached": one})
            answer = self.answer(one)
            answers.append(answer)
            if "failed" in answer or not meets(answer, one.get("expect")):
                break
        return self.clocks({"answers": answers})


def run(job, setup, sim, limit=120):
    op, args = lock_job_args(job, setup)
    seed = bytes.fromhex(args[-3]["hex"])
    j = call(op, (*args[:-3], seed, *args[-2:]))
    answers, steps, answer = [], [], None
    for _ in range(limit):
        try:
            step = j.next(answer)
        except StatecoreError as e:
            steps.append({"do": "error", "code": e.code})
            break
        steps.append(step)
        if step["do"] in ("done", "raise"):
            break
        answer = sim.answer(step)
        reached = answer.pop("reached", None)
        if reached is not None:
            # The plan reached its `done`: a driver stops; the job must give the same.
            done = j.next(answer)
            assert done == reached, (done, reached)
            answers.append(answer)
            steps.append(done)
            break
        answers.append(answer)
    return answers, steps


def setup(**kw):
    s = {
        "lock": LOCK,
        "identity": ID,
        "probe": True,
        "watching": True,
        "timeout_ms": 0,
        "seed": SEED,
        "now_ms": NOW,
        "mono_ms": 1000,
    }
    s.update(kw)
    return s


OTHER = rec(200, "a" * 32)
MINE = rec(100, "5" * 32)


def release_lock(sim):
    sim.files.pop(LOCK, None)


def hand_over(sim):
    nxt = sim.files.pop(LOCK + ".next", None)
    if nxt:
        sim.files[LOCK] = nxt


SCENARIOS = [
    (
        "an uncontended acquisition: the claim file and the lock looked at, the lock created complete",
        "acquire",
        setup(),
        Sim(),
    ),
    (
        "a first attempt passes a young claim (not honoured yet): the lock taken in the job's first plan",
        "acquire",
        setup(),
        Sim({LOCK + ".next": (rec(300, "c" * 32), 5)}, {300: "900"}),
    ),
    (
        "a live holder on this host: one attempt (timeout 0), then E_LOCK_TIMEOUT naming it",
        "acquire",
        setup(),
        Sim({LOCK: (OTHER, 1000)}, {200: "900"}),
    ),
    (
        "another tool's file at the lock path: E_LOCK_FOREIGN, untouched",
        "acquire",
        setup(),
        Sim({LOCK: ("[tool.poetry]\n", 1000)}),
    ),
    (
        "a dead holder's lock broken through its marker, the marker removed, then the lock taken",
        "acquire",
        setup(),
        Sim({LOCK: (OTHER, 1000)}),
    ),
    (
        "a holder whose pid was reused (another start time) is dead",
        "acquire",
        setup(),
        Sim({LOCK: (OTHER, 1000)}, {200: "901"}),
    ),
    (
        "another host's lock is waited for within its lease",
        "acquire",
        setup(),
        Sim(
            {
                LOCK: (
                    rec(200, "a" * 32, host="other", at="2025-11-24T15:59:30.000Z"),
                    30000,
                )
            }
        ),
    ),
    (
        "another host's lock past its lease is broken",
        "acquire",
        setup(),
        Sim(
            {
                LOCK: (
                    rec(200, "a" * 32, host="other", at="2025-11-24T15:58:00.000Z"),
                    120000,
                )
            }
        ),
    ),
    (
        "a malformed record younger than the grace period is waited for",
        "acquire",
        setup(),
        Sim({LOCK: ('{"pid":', 500)}),
    ),
    (
        "a malformed record past the grace period is broken (its marker named by its stamp and bytes)",
        "acquire",
        setup(),
        Sim({LOCK: ('{"pid":', 5000)}),
    ),
    (
        "a live breaker's marker is respected: the lock is waited for",
        "acquire",
        setup(),
        Sim(
            {
                LOCK: (OTHER, 1000),
                LOCK + ".break-" + "a" * 32: (rec(300, "b" * 32), 10),
            },
            {300: "900"},
        ),
    ),
    (
        "a system call's failure while taking the lock is the host's to raise",
        "acquire",
        setup(),
        Sim({LOCK: (OTHER, 1000)}, {200: "900"}, fail_at=2),
    ),
    (
        "a waiter pauses, claims the next turn once it has waited, and takes the lock when it is released",
        "acquire",
        setup(timeout_ms=1000, watching=False),
        Sim({LOCK: (OTHER, 1000)}, {200: "900"}, events=[(20, release_lock)]),
    ),
    (
        "a watching waiter's claim is renamed over the lock by its releaser: the lock was handed to it",
        "acquire",
        setup(timeout_ms=1000),
        Sim({LOCK: (OTHER, 1000)}, {200: "900"}, events=[(30, hand_over)]),
    ),
    (
        "a waiter that times out removes its claim first",
        "acquire",
        setup(timeout_ms=18, watching=False),
        Sim({LOCK: (OTHER, 1000)}, {200: "900"}),
    ),
    (
        "a ripe claim of a live waiter that started later is taken over (our claim renamed over it, as ripe)",
        "acquire",
        setup(timeout_ms=3, watching=False),
        Sim(
            {
                LOCK: (OTHER, 1000),
                LOCK + ".next": (rec(300, "c" * 32, at="2025-11-24T16:00:00.005Z"), 25),
            },
            {200: "900", 300: "900"},
        ),
    ),
    (
        "a live claimant's ripe claim is let go first: no attempt on the lock",
        "acquire",
        setup(),
        Sim(
            {LOCK + ".next": (rec(300, "c" * 32, at="2025-11-24T15:59:59.000Z"), 25)},
            {300: "900"},
        ),
    ),
    (
        "a dead claimant's claim is broken, then the lock taken",
        "acquire",
        setup(),
        Sim({LOCK + ".next": (rec(300, "c" * 32, at="2025-11-24T15:59:59.000Z"), 25)}),
    ),
    (
        "a release: nothing claims the next turn, our lock removed",
        "release",
        setup(text=MINE),
        Sim({LOCK: (MINE, 100)}),
    ),
    (
        "a release of a lock that is no longer ours removes nothing",
        "release",
        setup(text=MINE),
        Sim({LOCK: (OTHER, 100)}),
    ),
    (
        "a release hands the lock to a live claimant whose claim is ripe (renamed over the lock)",
        "release",
        setup(text=MINE),
        Sim(
            {LOCK: (MINE, 100), LOCK + ".next": (rec(300, "c" * 32), 50)}, {300: "900"}
        ),
    ),
    (
        "a release leaves a young claim alone (not honoured yet): the lock removed",
        "release",
        setup(text=MINE),
        Sim({LOCK: (MINE, 100), LOCK + ".next": (rec(300, "c" * 32), 5)}, {300: "900"}),
    ),
    (
        "a release whose read fails is the host's to raise",
        "release",
        setup(text=MINE),
        Sim({LOCK: (MINE, 100)}, fail_at=2),
    ),
    (
        "a sweep: an atomic write's temp file removed, a dead writer's lock temp file removed, a live one's kept, a dead breaker's marker broken",
        "sweep",
        setup(
            name="s.json",
            entries=[
                {"name": n, "path": "/d/" + n}
                for n in [
                    ".s.json.tmp-" + "c" * 32,
                    "s.json.lock." + "d" * 32 + ".tmp",
                    "s.json.lock." + "e" * 32 + ".tmp",
                    "s.json.lock.break-" + "a" * 32,
                    "s.json.bak",
                ]
            ],
        ),
        Sim(
            {
                "/d/.s.json.tmp-" + "c" * 32: ("{}", 10),
                "/d/s.json.lock." + "d" * 32 + ".tmp": (rec(301, "d" * 32), 10),
                "/d/s.json.lock." + "e" * 32 + ".tmp": (rec(302, "e" * 32), 10),
                "/d/s.json.lock.break-" + "a" * 32: (rec(303, "f" * 32), 10),
            },
            {302: "900"},
        ),
    ),
]


def main() -> None:
    cases = []
    for name, job, st, sim in SCENARIOS:
        answers, _ = run(job, st, sim)
        cases.append(
            {"name": name, "op": "lock_job_script", "args": [job, st, answers]}
        )
    first = cases[0]["args"][1]
    clock = {"now_ms": NOW, "mono_ms": 1000.0}
    ripe = {"ino": "11", "mtime_ms": NOW - 1000, **clock}
    gone, made = {"missing": True, **clock}, {"created": True, **clock}
    cases += [
        {
            "name": "a host that went on with a plan past an answer its step did not expect (a ripe claim) is refused",
            "op": "lock_job_script",
            "args": ["acquire", first, [{"answers": [ripe, gone, made], **clock}]],
        },
        {
            "name": "a host that went on with a plan past a step that failed is refused",
            "op": "lock_job_script",
            "args": [
                "acquire",
                first,
                [{"answers": [gone, {"failed": 0, **clock}, made], **clock}],
            ],
        },
        {
            "name": "a host may stop a plan early, after an answer its step expected: the job asks again where it stopped",
            "op": "lock_job_script",
            "args": [
                "acquire",
                first,
                [{"answers": [gone], **clock}, gone, made],
            ],
        },
        {
            "name": "a seed that is not hex digits is refused",
            "op": "lock_job_script",
            "args": ["acquire", {**first, "seed": "xyz0"}, []],
        },
        {
            "name": "a seed of fewer than 16 bytes is refused",
            "op": "lock_job_script",
            "args": ["acquire", {**first, "seed": "0011"}, []],
        },
        {
            "name": "a job kind the core does not have is refused",
            "op": "lock_job_script",
            "args": ["renew", first, []],
        },
    ]
    for c in cases:
        r = subprocess.run(
            [
                "cargo",
                "run",
                "-q",
                "-p",
                "xtask",
                "--",
                "call",
                c["op"],
                json.dumps(c["args"]),
            ],
            capture_output=True,
            check=False,
            text=True,
            cwd=ROOT,
        )
        if r.returncode == 0:
            c["expect"] = json.loads(r.stdout)
        else:
            e = json.loads(r.stderr.strip().split("xtask: ", 1)[1])
            c["error"] = {"code": e["code"], "path": e["path"]}
    doc = json.loads((ROOT / "tests/conformance/host/lock_jobs.json").read_text())
    doc["cases"] = cases
    with open(ROOT / "tests/conformance/host/lock_jobs.json", "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
