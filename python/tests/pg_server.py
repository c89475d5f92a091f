"""A throwaway PostgreSQL server for the store tests: the one ``make test`` started
(``STATECORE_PG_ENV`` names its env file), or one started here with scripts/pg-server.sh and
stopped at the end of the session; and the fixtures the store tests share (``pg_server``, a
fresh database per test ``db``), registered by conftest.py."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "pg-server.sh"


def read_env(file: Path) -> dict[str, str]:
    """The ``PG*`` variables of an env file the script wrote."""
    out: dict[str, str] = {}
    for word in file.read_text().replace("export ", "").split():
        name, _, value = word.partition("=")
        out[name] = value
    return out


class Server:
    """The server's ``PG*`` variables (``env``), started if need be."""

    def __init__(self) -> None:
        given = os.environ.get("STATECORE_PG_ENV")
        self._dir: str | None = None
        if given:
            self.env = read_env(Path(given))
            return
        self._dir = tempfile.mkdtemp(prefix="statecore-pgtest-")
        subprocess.run(
            # With this process's id: the server also stops if the test run is killed.
            ["bash", str(SCRIPT), "start", f"{self._dir}/pg", str(os.getpid())],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.env = read_env(Path(self._dir, "pg", "env"))

    def stop(self) -> None:
        if self._dir is not None:
            subprocess.run(["bash", str(SCRIPT), "stop", f"{self._dir}/pg"], check=True)
            shutil.rmtree(self._dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[Server]:
    """The server, started once for the session when ``make test`` did not."""
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def db(pg_server: Server, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    """A fresh database, its ``PG*`` variables set for the test and its processes."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    admin = " ".join(f"{k.lower().removeprefix('pg')}={v}" for k, v in pg_server.env.items())
    admin = admin.replace("database=", "dbname=")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    env = {**pg_server.env, "PGDATABASE": name}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    yield env
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE {name} WITH (FORCE)")


def sql(query: str, *params: object) -> list[tuple[Any, ...]]:
    """Runs ``query`` on the test's database (PG* environment) and returns its rows."""
    import psycopg

    with psycopg.connect(autocommit=True) as conn:
        cursor = conn.execute(query, params)
        return cursor.fetchall() if cursor.description else []
