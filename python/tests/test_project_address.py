"""The project's public addresses (scripts/project_address.py): one place, project-address.toml,
copied into every metadata file; and the check that keeps placeholder addresses out of the
packed artifacts (run on the real ones by scripts/test-packaging.sh and test-sdist.sh)."""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest
from repo_scripts import REPO, load_script

pa = load_script("project_address")
NONE = {"repository": "", "documentation": ""}
SOME = {"repository": "https://git.host/org/statecore", "documentation": "https://docs.host/sc"}


def test_no_address_exists_yet_and_the_metadata_carries_none() -> None:
    assert pa.addresses() == NONE
    assert pa.sync(write=False) == 0
    for name in pa.FILES:
        text = (REPO / name).read_text(encoding="utf-8")
        assert not pa.URL.search(text), name
        assert "site_url" not in text
        assert "[project.urls]" not in text


@pytest.mark.parametrize("name", sorted(pa.FILES))
def test_an_address_goes_into_each_metadata_file_and_back_out(name: str) -> None:
    render = pa.FILES[name]
    text = (REPO / name).read_text(encoding="utf-8")
    with_address = render(text, SOME)
    assert SOME["repository"] in with_address or SOME["documentation"] in with_address
    assert render(with_address, SOME) == with_address
    assert render(with_address, NONE) == text


def _wheel(tmp_path: Path, metadata: str) -> Path:
    path = tmp_path / "statecore-0.1.0-cp39-abi3-any.whl"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("statecore-0.1.0.dist-info/METADATA", metadata)
        z.writestr("statecore/__init__.py", '"""See docs/api.md."""\n')
    return path


def _npm(tmp_path: Path, package_json: str, readme: str) -> Path:
    path = tmp_path / "statecore-js-0.1.0.tgz"
    with tarfile.open(path, "w:gz") as t:
        for name, text in (("package/package.json", package_json), ("package/README.md", readme)):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize(
    "metadata",
    [
        "Name: statecore\nProject-URL: Repository, https://github.com/statecore/statecore\n",
        "Name: statecore\nHome-page: https://example.com/statecore\n",
        "Name: statecore\nProject-URL: Documentation, https://statecore.readthedocs.io/\n",
        "Name: statecore\nSummary: TODO\n",
    ],
)
def test_a_placeholder_address_in_a_wheel_is_found(tmp_path: Path, metadata: str) -> None:
    assert pa.artifact_problems(_wheel(tmp_path, metadata), NONE)


def test_a_placeholder_in_an_npm_tarball_is_found(tmp_path: Path) -> None:
    bad = _npm(
        tmp_path,
        '{"name": "statecore-js", "repository": "git+https://github.com/OWNER/REPO"}',
        "# statecore-js\n",
    )
    assert len(pa.artifact_problems(bad, NONE)) >= 2
    readme = _npm(tmp_path, '{"name": "statecore-js"}', "Docs: https://gitlab.com/someone/x\n")
    assert pa.artifact_problems(readme, NONE)
    good = _npm(tmp_path, '{"name": "statecore-js"}', "Open http://127.0.0.1:7357/ to view.\n")
    assert pa.artifact_problems(good, NONE) == []


def test_the_projects_own_address_may_ship_once_it_exists(tmp_path: Path) -> None:
    own = _wheel(tmp_path, f"Name: statecore\nProject-URL: Repository, {SOME['repository']}\n")
    assert pa.artifact_problems(own, SOME) == []
    assert pa.artifact_problems(own, NONE)
