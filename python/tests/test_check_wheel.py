"""The check `make wheels` runs on each macOS and Windows wheel (scripts/check_wheel.py), as
auditwheel does on a Linux one: a wheel whose name, tag or binary does not match its platform
is refused. The real wheels are cross-built and checked by scripts/build-wheels.sh."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from repo_scripts import REPO, load_script

cw = load_script("check_wheel")


def _host_module() -> bytes:
    """The native module of the Linux wheel `make build` made (an ELF file)."""
    wheels = sorted((REPO / "dist" / "wheels").glob("statecore-*-cp39-abi3-*.whl"))
    assert wheels, "no wheel in dist/wheels: run scripts/build-python.sh"
    with zipfile.ZipFile(wheels[0]) as z:
        [name] = [n for n in z.namelist() if n.endswith(".abi3.so")]
        return z.read(name)


def _wheel(tmp_path: Path, platform: str, member: str, data: bytes, tag: str = "") -> Path:
    path = tmp_path / f"statecore-0.1.0-cp39-abi3-{platform}.whl"
    wheel = f"Wheel-Version: 1.0\nRoot-Is-Purelib: false\nTag: cp39-abi3-{tag or platform}\n"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("statecore-0.1.0.dist-info/WHEEL", wheel)
        z.writestr(member, data)
    return path


@pytest.mark.parametrize(
    ("platform", "member", "says"),
    [
        ("macosx_11_0_arm64", "statecore/_statecore.abi3.so", "not a Mach-O file"),
        ("macosx_10_12_x86_64", "statecore/_statecore.abi3.so", "not a Mach-O file"),
        ("win_amd64", "statecore/_statecore.pyd", "not a PE file"),
    ],
)
def test_a_linux_module_in_a_macos_or_windows_wheel_is_refused(
    tmp_path: Path, platform: str, member: str, says: str
) -> None:
    wheel = _wheel(tmp_path, platform, member, _host_module())
    problems = cw.check(wheel, f"cp39-abi3-{platform}")
    assert any(says in p for p in problems), problems


def test_a_tag_that_disagrees_with_the_name_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "win_amd64", "statecore/_statecore.pyd", b"MZ", tag="win32")
    assert any("WHEEL does not say" in p for p in cw.check(wheel, "cp39-abi3-win_amd64"))
    assert any("file name" in p for p in cw.check(wheel, "cp39-abi3-macosx_11_0_arm64"))
    assert any("file name" in p for p in cw.check(wheel, "cp310-abi3-win_amd64"))


def test_a_wheel_without_its_native_module_is_refused(tmp_path: Path) -> None:
    wheel = _wheel(tmp_path, "win_amd64", "statecore/_statecore.abi3.so", b"")
    assert any("no statecore/_statecore.pyd" in p for p in cw.check(wheel, "cp39-abi3-win_amd64"))
