"""poetryhash.py PYPROJECT [K] - poetry's content-hash of a pyproject.toml,
as poetry's own Locker._get_content_hash computes it (src/poetry/packages/
locker.py), for release K: 0 poetry 1.x (Debian's python3-poetry 1.3
runs it in tests/integration/deps_poetry.sh), 1 poetry 2.0 ([project]),
2 poetry 2.3 ([dependency-groups]); the default is 2.  The oracle of
src/parse/poetryhash.c where no poetry 2 can run here (PyPI is out of
reach): the same code, read with Python's own tomllib and json."""
import hashlib
import json
import sys
import tomllib

LEGACY = ["dependencies", "source", "extras", "dev-dependencies"]
RELEVANT = [*LEGACY, "group"]
PROJECT = ["requires-python", "dependencies", "optional-dependencies"]


def content(data, k):
    project = data.get("project", {}) if k >= 1 else {}
    groups = data.get("dependency-groups", {}) if k >= 2 else {}
    poetry = data.get("tool", {}).get("poetry", {})
    rp = {}
    for key in PROJECT:
        v = project.get(key)
        if v is not None:
            rp[key] = v
    rpc = {}
    for key in RELEVANT:
        v = poetry.get(key)
        if v is None and (key not in LEGACY or rp or groups):
            continue
        rpc[key] = v
    rc = {}
    if rp:
        rc["project"] = rp
    if groups:
        rc["dependency-groups"] = groups
    if rc:
        rc["tool"] = {"poetry": rpc}
    else:
        rc = rpc
    return rc


def main():
    with open(sys.argv[1], "rb") as f:
        data = tomllib.load(f)
    k = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    text = json.dumps(content(data, k), sort_keys=True)
    print(hashlib.sha256(text.encode()).hexdigest())


main()
