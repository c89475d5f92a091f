"""Checks a cross-built macOS or Windows wheel the way `auditwheel show` checks a Linux one
(scripts/build-wheels.sh): its file name and WHEEL tag are TAG (``cp39-abi3-PLATFORM``, or
``cp310-abi3-win_amd64``: on Windows the stable ABI's python3.dll exports
``PyUnicode_AsUTF8AndSize``, which the module calls, only from CPython 3.10); its native
module is a binary for that platform's CPU and OS version, exports the module's init
function ``PyInit__statecore``, and loads only libraries every such system has (no
libpython: an abi3 module takes the interpreter's symbols at load time; on Windows only
``python3.dll``, the stable ABI's, never a versioned ``python3X.dll``).

Usage: python scripts/check_wheel.py WHEEL TAG   (e.g. cp39-abi3-macosx_11_0_arm64)
Exit 1 listing each problem. Uses macholib and pefile (python/requirements-dev.txt).
"""

from __future__ import annotations

import re
import struct
import sys
import tempfile
import zipfile
from pathlib import Path

INIT = "PyInit__statecore"
#: Mach-O CPU types by wheel architecture.
MACHO_CPU = {"x86_64": 0x01000007, "arm64": 0x0100000C}
#: PE machine types by wheel architecture.
PE_MACHINE = {"win_amd64": 0x8664, "win_arm64": 0xAA64}
#: What a macOS module may load: the system's libraries and frameworks.
MACOS_LIBS = re.compile(r"^(/usr/lib/|/System/Library/Frameworks/)")
#: What a Windows module may load: the stable ABI's python3.dll and DLLs of every Windows.
WINDOWS_DLLS = re.compile(
    r"(?i)^(python3|kernel32|ntdll|advapi32|bcrypt|bcryptprimitives|ws2_32|userenv|user32"
    r"|msvcrt|ucrtbase|vcruntime140|api-ms-win-[a-z0-9-]+)\.dll$"
)


def _macos(data: bytes, platform: str) -> list[str]:
    from macholib.mach_o import LC_BUILD_VERSION, LC_LOAD_DYLIB, LC_VERSION_MIN_MACOSX
    from macholib.MachO import MachO
    from macholib.SymbolTable import SymbolTable

    m = re.fullmatch(r"macosx_(\d+)_(\d+)_(x86_64|arm64)", platform)
    if not m:
        return [f"{platform} is not a macOS platform tag this check knows"]
    tag_version = (int(m.group(1)), int(m.group(2)))
    problems = []
    with tempfile.TemporaryDirectory() as tmp:  # macholib reads a file by its name
        path = Path(tmp, "_statecore.abi3.so")
        path.write_bytes(data)
        try:
            macho = MachO(str(path))
        except (ValueError, OSError, struct.error) as e:
            return [f"the module is not a Mach-O file ({e})"]
        if len(macho.headers) != 1:
            problems.append(
                f"{len(macho.headers)} architectures in one module; the tag names one"
            )
        header = macho.headers[0]
        if header.header.cputype != MACHO_CPU[m.group(3)]:
            problems.append(f"CPU type {header.header.cputype:#x} is not {m.group(3)}")
        minos = None
        for load, cmd, payload in header.commands:
            if load.cmd == LC_LOAD_DYLIB:
                name = payload.rstrip(b"\0").decode()
                if not MACOS_LIBS.match(name):
                    problems.append(f"loads {name}, which a macOS system does not have")
            elif load.cmd in (LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX):
                v = cmd.minos if load.cmd == LC_BUILD_VERSION else cmd.version
                minos = (v >> 16, (v >> 8) & 0xFF)
        if minos is None:
            problems.append("no minimum macOS version in the module")
        elif minos > tag_version:
            problems.append(
                f"needs macOS {minos[0]}.{minos[1]}, newer than the tag's {tag_version}"
            )
        exported = {name.decode() for _, name in SymbolTable(macho, header).extdefsyms}
        if f"_{INIT}" not in exported:
            problems.append(
                f"does not export {INIT} (exports: {sorted(exported)[:10]})"
            )
    return problems


def _windows(data: bytes, platform: str) -> list[str]:
    import pefile

    if platform not in PE_MACHINE:
        return [f"{platform} is not a Windows platform tag this check knows"]
    problems = []
    try:
        pe = pefile.PE(data=data)
    except pefile.PEFormatError as e:
        return [f"the module is not a PE file ({e})"]
    if pe.FILE_HEADER.Machine != PE_MACHINE[platform]:
        problems.append(f"machine {pe.FILE_HEADER.Machine:#x} is not {platform}")
    if not pe.is_dll():
        problems.append("the module is not a DLL")
    exports = [
        s.name.decode()
        for s in getattr(getattr(pe, "DIRECTORY_ENTRY_EXPORT", None), "symbols", [])
        if s.name
    ]
    if INIT not in exports:
        problems.append(f"does not export {INIT} (exports: {exports[:10]})")
    imports = [e.dll.decode() for e in getattr(pe, "DIRECTORY_ENTRY_IMPORT", [])]
    if not any(d.lower() == "python3.dll" for d in imports):
        problems.append(f"does not import python3.dll (the stable ABI): {imports}")
    for dll in imports:
        if not WINDOWS_DLLS.match(dll):
            problems.append(f"imports {dll}, which a Windows system does not have")
    return problems


def check(wheel: Path, tag: str) -> list[str]:
    """Every problem of ``wheel`` for ``tag`` (an empty list: the wheel is right)."""
    m = re.fullmatch(r"cp3\d+-abi3-(\w+)", tag)
    if not m:
        return [f"{tag} is not an abi3 tag (cp3X-abi3-PLATFORM)"]
    platform = m.group(1)
    problems = []
    if not wheel.name.endswith(f"-{tag}.whl"):
        problems.append(f"the file name does not end in -{tag}.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        [info] = [n for n in names if n.endswith(".dist-info/WHEEL")] or [""]
        meta = z.read(info).decode() if info else ""
        if f"Tag: {tag}\n" not in meta or "Root-Is-Purelib: false" not in meta:
            problems.append(f"WHEEL does not say Tag: {tag} (platlib): {meta!r}")
        module = "statecore/_statecore.pyd" if platform.startswith("win") else None
        module = module or "statecore/_statecore.abi3.so"
        if module not in names:
            natives = [n for n in names if "_statecore" in n and not n.endswith(".pyi")]
            return [*problems, f"no {module} in the wheel (found {natives})"]
        data = z.read(module)
    if platform.startswith("macosx"):
        problems += _macos(data, platform)
    elif platform.startswith("win"):
        problems += _windows(data, platform)
    else:
        problems.append(f"{platform}: Linux wheels are checked by auditwheel")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    wheel, tag = Path(argv[0]), argv[1]
    problems = check(wheel, tag)
    for p in problems:
        print(f"check_wheel: {wheel.name}: {p}", file=sys.stderr)
    if not problems:
        print(f"check_wheel: {wheel.name}: {tag}, exports {INIT}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
