"""The PostgreSQL store with writers on several simulated hosts (docs/store.md § Tests): each
host a network namespace of its own with a host name of its own (scripts/sim-hosts.sh), its
writers (Python and Node) reaching the server only over their host's link, as clients on other
machines do. No update is lost and every log keeps each writer's order; a host that vanishes
inside a transaction (its link cut, without a word to the server) has its row lock released by
the keepalives the store sets, so the other hosts' writers go on. Needs root (namespaces)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))
from pg_server import read_env  # noqa: E402

SIM = REPO / "scripts" / "sim-hosts.sh"
PG = REPO / "scripts" / "pg-server.sh"
WRITERS = {
    "python": [sys.executable, str(HERE / "helpers" / "store_writer.py")],
    "node": ["node", str(REPO / "npm" / "test" / "helpers" / "store_writer.cjs")],
}

pytestmark = pytest.mark.skipif(
    os.geteuid() != 0 or not all(shutil.which(tool) for tool in ("ip", "unshare", "node")),
    reason="simulated hosts need root (network and UTS namespaces), ip, unshare and node",
)


class Hosts:
    """Simulated hosts and a server that listens on each one's link."""

    def __init__(self, count: int) -> None:
        self.name = f"sc{os.getpid() % 100000}"
        self.count = count
        lines = subprocess.run(
            ["bash", str(SIM), "up", self.name, str(count)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout.split()
        #: (namespace, the host's address, the server's address on its link), per host.
        self.hosts = [tuple(lines[i : i + 3]) for i in range(0, len(lines), 3)]
        self._dir = tempfile.mkdtemp(prefix="statecore-hosts-")
        env = {
            **os.environ,
            "STATECORE_PG_LISTEN": ",".join(h[2] for h in self.hosts),
            "STATECORE_PG_CLIENTS": " ".join(f"{h[1]}/32" for h in self.hosts),
        }
        subprocess.run(
            ["bash", str(PG), "start", f"{self._dir}/pg", str(os.getpid())],
            check=True,
            stdout=subprocess.DEVNULL,
            env=env,
        )
        self.env = read_env(Path(self._dir, "pg", "env"))
        self._procs: list[subprocess.Popen[str]] = []

    def run(self, host: int, argv: list[str]) -> subprocess.Popen[str]:
        """Starts ``argv`` on host ``host`` (0-based), its ``PG*`` variables naming the server
        by its address on that host's link."""
        net, _address, server = self.hosts[host]
        env = {**os.environ, **self.env, "PGHOST": server}
        shell = 'hostname "$0" && exec "$@"'
        command = ["ip", "netns", "exec", net, "unshare", "--uts", "sh", "-c", shell, net]
        proc = subprocess.Popen(
            [*command, *argv], stdout=subprocess.PIPE, text=True, env=env, cwd=REPO
        )
        self._procs.append(proc)
        return proc

    def cut(self, host: int) -> None:
        """Takes host ``host``'s link down: it vanishes without a word to the server."""
        subprocess.run(["bash", str(SIM), "cut", self.name, str(host + 1)], check=True)

    def sql(self, query: str) -> list[tuple[object, ...]]:
        """Runs ``query`` on the server, from this namespace."""
        with psycopg.connect(**_conninfo(self.env), autocommit=True) as conn:
            return conn.execute(query).fetchall()  # type: ignore[arg-type]

    def close(self) -> None:
        for proc in self._procs:
            if proc.poll() is None:
                proc.kill()
            proc.communicate()
        subprocess.run(["bash", str(PG), "stop", f"{self._dir}/pg"], check=True)
        shutil.rmtree(self._dir, ignore_errors=True)
        subprocess.run(["bash", str(SIM), "down", self.name, str(self.count)], check=True)


def _conninfo(env: dict[str, str]) -> dict[str, str]:
    return {
        "host": env["PGHOST"],
        "port": env["PGPORT"],
        "user": env["PGUSER"],
        "dbname": env["PGDATABASE"],
    }


@pytest.fixture
def hosts() -> Iterator[Hosts]:
    made = Hosts(3)
    try:
        yield made
    finally:
        made.close()


def finish(proc: subprocess.Popen[str], timeout: float = 300) -> str:
    """Waits for a writer and requires its "done"; its output."""
    out, _ = proc.communicate(timeout=timeout)
    assert (proc.returncode, out.strip()[-4:]) == (0, "done"), out
    return out


def test_writers_on_several_hosts_lose_nothing(hosts: Hosts) -> None:
    probe = "import psycopg, socket; c = psycopg.connect(); "
    probe += "print(socket.gethostname(), c.execute('SELECT inet_client_addr()').fetchone()[0])"
    for i, (net, address, _server) in enumerate(hosts.hosts):
        out, _ = hosts.run(i, [sys.executable, "-c", probe]).communicate(timeout=60)
        assert out.split() == [net, address], "each host reaches the server over its own link"

    writers: list[tuple[str, subprocess.Popen[str]]] = []
    for i in range(len(hosts.hosts)):
        for lang, command in WRITERS.items():
            tag = f"{lang[0]}{i}"
            writers.append(("update", hosts.run(i, [*command, "update", "doc.json", "150"])))
            inbox = [*command, "inbox", "inbox.json", "40", tag]
            writers.append(("inbox", hosts.run(i, inbox)))
            log = [*command, "append", "EVENTS.jsonl", "150", tag]
            writers.append((tag, hosts.run(i, log)))
    for _name, proc in writers:
        finish(proc)

    n = len(hosts.hosts) * len(WRITERS)
    [(text,)] = hosts.sql("SELECT text FROM statecore_documents WHERE key = 'doc.json'")
    assert json.loads(str(text))["n"] == n * 150
    [(inbox,)] = hosts.sql("SELECT text FROM statecore_documents WHERE key = 'inbox.json'")
    assert len(json.loads(str(inbox))) == n * 40
    lines = hosts.sql(
        "SELECT text FROM statecore_log_lines WHERE log = 'EVENTS.jsonl' ORDER BY seq"
    )
    records = [json.loads(str(line)) for (line,) in lines]
    assert len(records) == n * 150
    for tag, _proc in writers:
        if tag not in ("update", "inbox"):
            mine = [r["details"]["i"] for r in records if r["agent"] == tag]
            assert mine == list(range(150)), f"{tag}'s lines, in its order"


def test_a_vanished_host_releases_its_row(hosts: Hosts) -> None:
    """Hosts 0 (Python) and 1 (Node) each lock a row inside a transaction and then vanish;
    host 2's writers wait for those rows and get them once the server's keepalives find the
    hosts gone (the server's default would wait two hours)."""
    for key in ("held-py.json", "held-node.json"):
        finish(hosts.run(2, [*WRITERS["python"], "update", key, "1"]))
    holders = {
        "held-py.json": hosts.run(0, [*WRITERS["python"], "hold", "held-py.json"]),
        "held-node.json": hosts.run(1, [*WRITERS["node"], "hold", "held-node.json"]),
    }
    for proc in holders.values():
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "holding"
    hosts.cut(0)
    hosts.cut(1)
    waiting = [
        hosts.run(2, [*WRITERS["python"], "update", "held-py.json", "1"]),
        hosts.run(2, [*WRITERS["node"], "update", "held-node.json", "1"]),
    ]
    for proc in waiting:
        finish(proc, timeout=120)
    for key in holders:
        [(text,)] = hosts.sql(f"SELECT text FROM statecore_documents WHERE key = '{key}'")
        assert json.loads(str(text)) == {"n": 2}, "the vanished host's change was not applied"
