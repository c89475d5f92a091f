"""``statecore.specify``: the specify workflow's ``specs/<feature>/.workflow/index.md``
(docs/specify.md).

The operations of the core's table are generated in ``statecore._generated.specify``: index.md
read as its tables and written back changing only the cells that changed (``parse_index``,
``render_index``), the loop and the gap queue (``start``, ``apply_state_updates``,
``add_gaps``, ``set_gap_status``, ``start_clarifying``, ``end_iteration``, ``resume_point``,
...); given a feature's directory instead of an index, the same operations run on its
index.md, locked and atomic. Written here: :func:`apply_artifacts` (an agent's files, checked
as a batch, each written atomically).
"""

from __future__ import annotations

import os
import stat

from statecore._generated.specify import *  # noqa: F403
from statecore._generated.specify import __all__ as _generated
from statecore._generated.specify import check_artifacts
from statecore._host import atomic as _atomic
from statecore._host import runtime as _runtime
from statecore._host import sys as _sys
from statecore.errors import FileTypeError, PathUnsafeError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Literal

    from statecore._generated.host_types import AppliedArtifact
    from statecore._host.documents import StrPath
    from statecore.types import SpecifyArtifact


#: The document kind of ``index.md``.
KIND: Literal["specify.index"] = "specify.index"

__all__ = [*_generated, "KIND", "apply_artifacts"]


def _kind_of(path: str) -> str:
    """What is at ``path`` without following a link: missing, link, dir, file or other."""
    try:
        mode = _sys.lstat(path).st_mode
    except FileNotFoundError:
        return "missing"
    if stat.S_ISLNK(mode):
        return "link"
    if stat.S_ISDIR(mode):
        return "dir"
    return "file" if stat.S_ISREG(mode) else "other"


def _refused(index: int, artifact: SpecifyArtifact, reason: str, message: str) -> Exception:
    cls = FileTypeError if reason == "file_type" else PathUnsafeError
    code = "E_FILE_TYPE" if reason == "file_type" else "E_PATH_UNSAFE"
    return cls(
        f"refused artifact path {artifact['path']!r}: {message}; nothing was written",
        code,
        f"/{index}/path",
        {"path": artifact["path"], "reason": reason},
    )


def apply_artifacts(
    feature_dir: StrPath, artifacts: Sequence[SpecifyArtifact], feature_id: str | None = None
) -> list[AppliedArtifact]:
    """An agent's artifacts (``{operation: create | update | delete, path, content}``)
    applied in the feature's directory. The core checks every path first
    (``check_artifacts``: relative, inside the directory, portable, not ``.workflow``); then
    every path is checked on disk (no symbolic link on the way or at the file, no file where
    a directory must be); a refusal refuses the whole batch before anything is written. Each
    file is then written atomically (a crash leaves it old or new) or deleted."""
    checked = check_artifacts(list(artifacts), feature_id)
    root = os.path.abspath(_runtime.path_arg(feature_dir))
    if not stat.S_ISDIR(_sys.stat(root).st_mode):
        raise FileTypeError(f"{root} is not a directory", "E_FILE_TYPE", "", {"path": root})
    for i, artifact in enumerate(checked):
        names = artifact["path"].split("/")
        here = root
        for j, name in enumerate(names):
            here = os.path.join(here, name)
            kind = _kind_of(here)
            last = j == len(names) - 1
            if kind == "missing":
                break
            if kind == "link":
                raise _refused(i, artifact, "symlink", f"{here} is a symbolic link")
            if not last and kind != "dir":
                raise _refused(i, artifact, "file_type", f"{here} is not a directory")
            if last and kind != "file":
                raise _refused(i, artifact, "file_type", f"{here} is not a regular file")
    applied: list[AppliedArtifact] = []
    for artifact in checked:
        file = os.path.join(root, *artifact["path"].split("/"))
        result: Literal["written", "deleted", "absent"]
        if artifact["operation"] == "delete":
            try:
                _sys.unlink(file)
                _atomic.fsync_dir(os.path.dirname(file))
                result = "deleted"
            except FileNotFoundError:
                result = "absent"
        else:
            _sys.makedirs(os.path.dirname(file))
            _atomic.write_atomic(file, artifact.get("content") or "")
            result = "written"
        done: AppliedArtifact = {**artifact, "result": result}
        applied.append(done)
    return applied
