#!/usr/bin/env python3
"""fixwrites.py - does a fix change only what its fix.writes says?

A harness that promises a clean work tree filters fixes by fix.writes
(what argv may create or change, relative to the repository).  The tests
run the fix for real and hold what it did against that list:

    fixwrites.py snap DIR OUT
        every path under DIR but .git, with what identifies its content
        (type, size, mode, mtime and ctime in ns; a symlink's target)
    fixwrites.py diff BEFORE AFTER REPORT CHECK_ID
        the paths created, changed or deleted between the two snapshots
        that no entry of that check's fix.writes covers; exit 1 when there
        is one.  An entry covers itself and what lies under it (a
        directory); a directory that holds an entry (made to hold it) is
        covered too.  A directory's own times are not compared: a new
        file in it changes them.
"""
import json
import os
import sys


def snap(top):
    out = {}
    for root, dirs, files in os.walk(top):
        rel = os.path.relpath(root, top)
        if rel == ".":
            rel = ""
            if ".git" in dirs:
                dirs.remove(".git")
        for d in dirs:
            p = os.path.join(rel, d)
            full = os.path.join(root, d)
            if os.path.islink(full):
                out[p] = "l " + os.readlink(full)
            else:
                out[p] = "d"
        for f in files:
            p = os.path.join(rel, f)
            full = os.path.join(root, f)
            st = os.lstat(full)
            if os.path.islink(full):
                out[p] = "l " + os.readlink(full)
            else:
                out[p] = "f %d %o %d %d" % (st.st_size, st.st_mode, st.st_mtime_ns,
                                            st.st_ctime_ns)
    return out


def covered(path, writes):
    for w in writes:
        if path == w or path.startswith(w + "/"):
            return True
        if w.startswith(path + "/"):  # a directory made to hold it
            return True
    return False


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "snap":
        with open(sys.argv[3], "w") as f:
            json.dump(snap(sys.argv[2]), f)
        return 0
    if len(sys.argv) != 6 or sys.argv[1] != "diff":
        sys.stderr.write(__doc__)
        return 2
    before = json.load(open(sys.argv[2]))
    after = json.load(open(sys.argv[3]))
    report = json.load(open(sys.argv[4]))
    check = [c for c in report["checks"] if c["id"] == sys.argv[5]][0]
    writes = check["fix"]["writes"]
    changed = sorted(p for p in set(before) | set(after)
                     if before.get(p) != after.get(p) and
                     not (before.get(p) == "d" and after.get(p) == "d"))
    bad = [p for p in changed if not covered(p, writes)]
    tops = sorted({p.split("/node_modules/")[0] + "/node_modules/..."
                   if "/node_modules/" in p else p for p in changed})
    print("writes %s; changed %d paths: %s" % (writes, len(changed), " ".join(tops[:12])))
    if bad:
        print("not in writes: %s" % " ".join(bad[:20]))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
