"""The Python stacks statecore is compared with (bench/python_bench.py, py_locked.py and
writers_child.py): a deep merge (objects recursively, arrays and null replace), validators
equivalent to the agency.runner_status rules (fastjsonschema, jsonschema, jsonschema_rs,
pydantic), and the locked update a user would write (filelock + parse + merge + validate +
atomic write, with or without the fsync of the directory). The Python twin of
bench/alternatives.mjs.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Any, Literal

import fastjsonschema
import filelock
import jsonschema
import orjson
from pydantic import BaseModel, ConfigDict, StringConstraints, model_validator

try:
    import jsonschema_rs
except ImportError:  # optional: only when its wheel installs here
    jsonschema_rs = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
KIND = "agency.runner_status"
DOC_BYTES = (HERE / "fixtures" / "runner_status.json").read_bytes()
PATCH = json.loads((HERE / "fixtures" / "patch.json").read_text())
PATCH_TEXT = json.dumps(PATCH)
SCHEMA = json.loads((HERE / "schema.json").read_text())


# ---------------------------------------------------------------------------------------------
# The alternatives: a deep merge (objects recursively, arrays and null replace) and validators
# equivalent to the agency.runner_status rules
# ---------------------------------------------------------------------------------------------
def deep_merge(doc: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    out = dict(doc)
    for key, value in patch.items():
        current = out.get(key)
        if isinstance(value, dict) and isinstance(current, dict):
            out[key] = deep_merge(current, value)
        else:
            out[key] = value
    return out


fast_validate = fastjsonschema.compile(SCHEMA)
js_validator = jsonschema.Draft7Validator(SCHEMA)
rs_validator = jsonschema_rs.Draft7Validator(SCHEMA) if jsonschema_rs else None

NonBlank = Annotated[str, StringConstraints(pattern=r"\S")]


class RunnerStatus(BaseModel):
    """A pydantic model equivalent to the runner status rules (unknown fields kept)."""

    model_config = ConfigDict(extra="allow", strict=True)

    schema_version: str | None = None
    status: Literal["working", "needs_input", "blocked", "ready_for_review"]
    # Any text: agency reads a timestamp that is not RFC 3339 with a warning (an unknown age).
    updated_at: str | None = None
    summary: NonBlank
    questions: list[str] | None = None
    blockers: list[str] | None = None
    how_to_test: str | None = None
    risks: list[str] | None = None

    @model_validator(mode="after")
    def per_status(self) -> RunnerStatus:
        if self.status == "needs_input" and not self.questions:
            raise ValueError("status needs_input requires a non-empty questions list")
        if self.status == "blocked" and not self.blockers:
            raise ValueError("status blocked requires a non-empty blockers list")
        if self.status == "ready_for_review" and not (
            self.how_to_test and self.how_to_test.strip()
        ):
            raise ValueError("status ready_for_review requires how_to_test")
        return self


def valid_by(name: str, doc: Any) -> bool:
    try:
        if name == "fastjsonschema":
            fast_validate(doc)
        elif name == "jsonschema":
            js_validator.validate(doc)
        elif name == "jsonschema_rs":
            assert rs_validator is not None
            return bool(rs_validator.is_valid(doc))
        else:
            RunnerStatus.model_validate(doc)
    except (fastjsonschema.JsonSchemaException, jsonschema.ValidationError, ValueError):
        return False
    return True


# ---------------------------------------------------------------------------------------------
# The locked update (filelock + parse + merge + validate + atomic write), for (3) and (3b)
# ---------------------------------------------------------------------------------------------
def write_atomic(path: str, data: bytes, fsync_dir: bool = False) -> None:
    fd, temp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        os.unlink(temp)
        raise
    if fsync_dir:
        fd = os.open(os.path.dirname(path), os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def json_locked_update(path: str, patch: dict[str, Any], fsync_dir: bool = False) -> None:
    """filelock + json + merge + fastjsonschema + atomic write (+ fsync of the directory)."""
    with filelock.FileLock(path + ".lock"):
        with open(path, "rb") as f:
            doc = deep_merge(json.loads(f.read()), patch)
        fast_validate(doc)
        text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
        write_atomic(path, text.encode(), fsync_dir=fsync_dir)


def rs_locked_update(path: str, patch: dict[str, Any], fsync_dir: bool = False) -> None:
    """filelock + orjson + merge + jsonschema_rs + atomic write (+ fsync of the directory)."""
    assert rs_validator is not None
    with filelock.FileLock(path + ".lock"):
        with open(path, "rb") as f:
            doc = deep_merge(orjson.loads(f.read()), patch)
        rs_validator.validate(doc)
        text = orjson.dumps(doc, option=orjson.OPT_INDENT_2) + b"\n"
        write_atomic(path, text, fsync_dir=fsync_dir)
