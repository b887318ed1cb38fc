#!/bin/sh
# poetry.sh - [tool.poetry.dependencies] python's constraints judged as
# poetry-core judges them: Debian's python3-poetry-core is the oracle
# (parse_constraint(c).allows(Version.parse(v)); ParseConstraintError is
# -1), held against src/parse/poetrycon.c through a small driver linked
# with the build's library, on poetry-core's own kinds of constraint and
# 4,000 generated ones (a fixed seed: the same cases every run).
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
PY=/usr/bin/python3

if ! $PY -c 'import poetry.core.constraints.version' 2>/dev/null; then
	skip "no python3-poetry-core for /usr/bin/python3 (make deps-check installs it)"
	finish
	exit
fi
if ! reqcheck_build; then
	finish
	exit
fi
$PY - "$TEST_TMPDIR/cases" "$TEST_TMPDIR/oracle" <<'PYEOF'
import random, sys
from poetry.core.constraints.version import parse_constraint, Version
from poetry.core.constraints.version.exceptions import ParseConstraintError

# Debian's poetry-core is 1.4; the current one (2.x, what poetrycon.c
# follows) also takes a space after "^", refuses "3.10.x", and reads
# "3.8.9.*" as 3.8.9's line (1.4: 3.8's): none of these forms is asked
fixed = ["^3.10", "~3.11", "~3", ">=3.10 <3.12", ">=3.10,<3.12", ">= 3.10, < 3.12",
         ">=3.12 || 3.11.*", ">=3.9,<3.11 || >=3.11.5", "3.11", "3.11.7", "*", "x",
         "~=3.10", "~=3.10.1", "^0.2", "^0.0.3", "^3", "3.11.*", "!=3.11.*",
         "==3.11.*", "!=3.11.7", "<>3.11.7", "=3.11.7", "==3.11.7", ">3.11", "<3.12",
         "<=3.11.7", "^3.12,<3.13", ">=3.8,", "3.11 | 3.12", "", "nope", "^", ">=",
         "~3.11.2", "^3.11.2", "^v3.10", ">=3.10.0b1", "3.11.7.0", "^3.10 || ^2.7",
         "nope || *", "* || nope", "^3.1abc", ">=3.10,,<3.12", ",>=3.10", "* , <4",
         ">=3.10 ,<3.12", ">=3.10, ,<3.12", "^3.10 ||", "^3.10 | ", "||", "^3.10 |||3.12"]
rng = random.Random(21)
ops = ["", "^", "~", "~=", ">=", ">", "<=", "<", "==", "!=", "="]
def ver():
    parts = [str(rng.choice([0, 2, 3, 4])), str(rng.randint(0, 13)), str(rng.randint(0, 9))]
    return ".".join(parts[:rng.randint(1, 3)])
def single():
    op = rng.choice(ops)
    v = ver()
    if op in ("", "==", "!=") and v.count(".") < 2 and rng.random() < 0.2:
        v += ".*"
    return op + rng.choice(["", " "]) * (op not in ("", "^")) + v
def group():
    return rng.choice([",", " ", ", "]).join(single() for _ in range(rng.randint(1, 3)))
cases = fixed + [rng.choice([" || ", "||", " | "]).join(group() for _ in range(rng.randint(1, 2)))
                 for _ in range(4000)]
versions = ["3.11.7", "3.12.0", "3.10.0", "0.2.5", "4.0.0", "3.8.18"]
with open(sys.argv[1], "w") as c, open(sys.argv[2], "w") as o:
    for i, con in enumerate(cases):
        v = versions[i % len(versions)]
        try:
            a = 1 if parse_constraint(con).allows(Version.parse(v)) else 0
        except (ParseConstraintError, ValueError):
            a = -1
        c.write("%s\t%s\n" % (con, v))
        o.write("%d\n" % a)
PYEOF
reqcheck_compare poetry constraints poetry-core
finish
