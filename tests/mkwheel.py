#!/usr/bin/env python3
"""mkwheel.py OUT NAME VERSION [REQUIREMENT...] - a minimal wheel of NAME
in the folder OUT (NAME-VERSION.dist-info/{METADATA,WHEEL,RECORD} and an
empty module), each REQUIREMENT a Requires-Dist line, the kind pip and
poetry install offline from a file: deps_py.sh, deps_poetry.sh and
fixwrites.sh build their states from it."""
import base64
import hashlib
import sys
import zipfile

out, name, ver = sys.argv[1:4]
requires = "".join(f"Requires-Dist: {r}\n" for r in sys.argv[4:])
dist = name.replace("-", "_")
di = f"{dist}-{ver}.dist-info"
files = {
    f"{dist}.py": b"",
    f"{di}/METADATA": (f"Metadata-Version: 2.1\nName: {name}\nVersion: {ver}\n" + requires).encode(),
    f"{di}/WHEEL": b"Wheel-Version: 1.0\nGenerator: mkwheel.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
}
record = []
with zipfile.ZipFile(f"{out}/{dist}-{ver}-py3-none-any.whl", "w") as z:
    for path, data in files.items():
        z.writestr(path, data)
        h = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={h},{len(data)}")
    record.append(f"{di}/RECORD,,")
    z.writestr(f"{di}/RECORD", "\n".join(record) + "\n")
