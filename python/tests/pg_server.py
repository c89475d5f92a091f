"""A throwaway PostgreSQL server for the store tests: the one ``make test`` started
(``STATECORE_PG_ENV`` names its env file), or one started here with scripts/pg-server.sh and
stopped at the end of the session."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

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
            ["bash", str(SCRIPT), "start", f"{self._dir}/pg"], check=True, stdout=subprocess.DEVNULL
        )
        self.env = read_env(Path(self._dir, "pg", "env"))

    def stop(self) -> None:
        if self._dir is not None:
            subprocess.run(["bash", str(SCRIPT), "stop", f"{self._dir}/pg"], check=True)
            shutil.rmtree(self._dir, ignore_errors=True)
