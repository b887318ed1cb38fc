#!/bin/sh
# deps_poetry.sh - the deps probe's poetry.lock against poetry itself.
#
# The oracle is Debian's poetry (python3-poetry, 1.3: it writes
# lock-version 2.0, whose packages carry no groups or markers of their
# own, so what poetry installs is what it solves again from
# pyproject.toml).  Each state is a project with a poetry.lock and the
# .venv poetry made, and poetry's own dry run,
#   poetry install --no-root --dry-run
# says whether an install would change something (an "Installing",
# "Updating" or "Downgrading" line not "Skipped": the check must fail) or
# not (the check must pass).  The packages are wheels built here
# (tests/mkwheel.py): the project's own as path dependencies, and one that
# only a wheel asks for (Requires-Dist) from a PEP 503 index this script
# serves on 127.0.0.1, the lockfile's only source (no PyPI, no network).
# Each failure's fix, poetry install, is run, and the check then passes.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

POETRY=/usr/bin/poetry
if [ ! -x "$POETRY" ] || ! /usr/bin/python3 -c 'import venv, ensurepip' 2>/dev/null; then
	skip "no poetry (Debian's python3-poetry) with python3-venv: poetry is the oracle"
	finish
	exit
fi

wh=$TEST_TMPDIR/wheels
idx=$TEST_TMPDIR/index/simple
repo=$TEST_TMPDIR/app
mkdir -p "$wh" "$idx/gamma" "$repo"
mkwheel() { py "$top/tests/mkwheel.py" "$@"; }
mkwheel "$wh" alpha 1.0.0 gamma
mkwheel "$idx/gamma" gamma 1.0.0
for w in beta:2.0.0 beta:2.1.0 delta:1.0.0 eps:1.0.0 win:1.0.0 zeta:1.0.0 oldpy:1.0.0; do
	mkwheel "$wh" "${w%%:*}" "${w#*:}"
done
echo '<a href="gamma-1.0.0-py3-none-any.whl">gamma-1.0.0-py3-none-any.whl</a>' \
	>"$idx/gamma/index.html"

# the index: a port of the kernel's choosing, written to a file; the
# server ends with this script (it looks every half second)
/usr/bin/python3 -c '
import functools, http.server, os, sys, threading, time
parent = os.getppid()
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.func.log_message = lambda *a: None
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(str(s.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
def watch():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
s.serve_forever()
' "$TEST_TMPDIR/index" "$TEST_TMPDIR/port" </dev/null >/dev/null 2>&1 &
srv=$!
i=0
while [ ! -s "$TEST_TMPDIR/port" ] && [ $i -lt 200 ]; do
	sleep 0.05
	i=$((i + 1))
done
port=$(cat "$TEST_TMPDIR/port" 2>/dev/null)
if [ -z "$port" ]; then
	check "the index server started" false
	kill "$srv" 2>/dev/null
	finish
	exit
fi

# poetry with nothing of this machine's configuration, its cache and
# config in the scratch directory, its environment in the project
# (.venv), no keyring (a D-Bus one would be asked for nothing)
poetry_run() {
	(cd "$repo" && env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 \
		POETRY_CACHE_DIR="$TEST_TMPDIR/poetry-cache" \
		POETRY_CONFIG_DIR="$TEST_TMPDIR/poetry-config" \
		POETRY_VIRTUALENVS_IN_PROJECT=true POETRY_NO_INTERACTION=1 \
		PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring \
		PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 \
		PYTHONMALLOC=malloc GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
		"$POETRY" "$@")
}

# pip of the project's environment, offline: the drifts
pip_venv() {
	env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" PIP_CONFIG_FILE=/dev/null \
		PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
		"$repo/.venv/bin/python" -m pip "$@" >/dev/null 2>&1
}

cat >"$repo/pyproject.toml" <<EOF
[tool.poetry]
name = "app"
version = "0.1.0"
description = ""
authors = ["Test <test@example.invalid>"]

[tool.poetry.dependencies]
python = ">=3.8"
alpha = {path = "$wh/alpha-1.0.0-py3-none-any.whl"}
beta = {path = "$wh/beta-2.0.0-py3-none-any.whl"}
win = {path = "$wh/win-1.0.0-py3-none-any.whl", markers = "sys_platform == 'win32'"}
oldpy = {path = "$wh/oldpy-1.0.0-py3-none-any.whl", python = "<3.0"}

[tool.poetry.group.dev.dependencies]
delta = {path = "$wh/delta-1.0.0-py3-none-any.whl"}

[tool.poetry.group.docs]
optional = true

[tool.poetry.group.docs.dependencies]
eps = {path = "$wh/eps-1.0.0-py3-none-any.whl"}

[[tool.poetry.source]]
name = "local"
url = "http://127.0.0.1:$port/simple/"
default = true
EOF

poetry_run lock >"$TEST_TMPDIR/lock.log" 2>&1
check "poetry locked the project: $(tail -3 "$TEST_TMPDIR/lock.log")" \
	grep -q 'lock-version = "2.0"' "$repo/poetry.lock"
poetry_run install --no-root >"$TEST_TMPDIR/install.log" 2>&1
check "poetry installed it: $(tail -3 "$TEST_TMPDIR/install.log")" \
	[ -d "$repo/.venv" ]

# poetry_says: pass when poetry's dry run would change nothing, else
# fail; P_OUT: what it said
poetry_says() {
	P_OUT=$(poetry_run install --no-root --dry-run 2>&1)
	if [ $? = 0 ] && ! printf '%s\n' "$P_OUT" | grep -v 'Skipped' |
		grep -qE '(Installing|Updating|Downgrading) [^ ]+ [(]'; then
		pv=pass
	else
		pv=fail
	fi
}

# ep_says: the deps.poetry check's status (a warning is a pass); EP_OUT
ep_says() {
	EP_OUT=$(ep --only=deps --json "$repo")
	ev=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["id"] == "deps.poetry"][0]
print("fail" if c["status"] == "fail" else "pass")')
}

agree() { [ "$2" = "$1" ] && [ "$3" = "$2" ]; }

# state NAME WANT: poetry must answer WANT, and envpreflight the same;
# a failure's fix is then run, and both must pass
state() {
	poetry_says
	ep_says
	check "$1: poetry says $pv (want $2), envpreflight $ev: $P_OUT | $EP_OUT" \
		agree "$2" "$pv" "$ev"
	if [ "$2" = fail ]; then
		fix=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["id"] == "deps.poetry"][0]
print(" ".join((c.get("fix") or {}).get("argv") or []))')
		check "$1: the fix is poetry install ($fix)" [ "$fix" = "poetry install" ]
		poetry_run install --no-root >/dev/null 2>&1
		poetry_says
		ep_says
		check "$1: after the fix, poetry says $pv, envpreflight $ev: $EP_OUT" \
			agree pass "$pv" "$ev"
	fi
}

# right after the install: the root behind a false marker, the one for
# an older python and the optional group were not installed, and the
# check must not ask for them (lock 2.0 says nothing of them)
state "a clean install" pass
pip_venv uninstall -y beta
state "a dependency uninstalled" fail
pip_venv uninstall -y gamma
state "a dependency's dependency uninstalled" fail
pip_venv uninstall -y delta
state "a dev group dependency uninstalled" fail
pip_venv install --no-deps "$wh/beta-2.1.0-py3-none-any.whl"
state "a dependency at another version" fail
pip_venv install --no-deps "$wh/zeta-1.0.0-py3-none-any.whl"
state "a package beyond the lock (poetry install leaves it)" pass
pip_venv install --no-deps "$wh/eps-1.0.0-py3-none-any.whl"
state "the optional group installed anyway" pass

# pyproject.toml edited without relocking.  poetry 1.3's install warns
# that the lock "is not consistent" and goes on (it fails to solve a
# registry package from the lock, installs a path one from pyproject, and
# does nothing when that one is there already); poetry 2 refuses the
# lock.  The oracle here is poetry's own consistency check, poetry lock
# --check (its content-hash); its fix is the relock, said as such, then
# the install.
# lock_says: pass when poetry lock --check finds the lock consistent
lock_says() {
	L_OUT=$(poetry_run lock --check 2>&1) && lv=pass || lv=fail
}
lock_says
check "the lock poetry wrote is consistent: $L_OUT" [ "$lv" = pass ]
cp "$repo/pyproject.toml" "$TEST_TMPDIR/pyproject.kept"
# the content-hash alone: an edit of what poetry hashes that changes
# nothing installed (the optional group's entry).  poetry lock --check
# fails; poetry 1.3's install goes on with its warning (poetry 2 would
# refuse): envpreflight warns, the relock as its fix
sed "s|^eps = .*|eps = {path = \"$wh/eps-1.0.0-py3-none-any.whl\", develop = false}|" \
	"$TEST_TMPDIR/pyproject.kept" >"$repo/pyproject.toml"
lock_says
poetry_says
ep_says
st=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["id"] == "deps.poetry"][0]
print(c["status"], " ".join((c.get("fix") or {}).get("argv") or []))')
check "only the content-hash changed: poetry lock --check says $lv, poetry's install $pv, envpreflight '$st': $P_OUT | $EP_OUT" \
	sh -c '[ "$1 $2 $3" = "fail pass warn poetry lock" ] && printf "%s" "$4" | grep -q "not consistent with pyproject.toml"' \
	- "$lv" "$pv" "$st" "$P_OUT"
cp "$TEST_TMPDIR/pyproject.kept" "$repo/pyproject.toml"
ep_says
check "... and back as it was: envpreflight $ev, no warning: $EP_OUT" \
	sh -c '[ "$1" = pass ] && ! printf "%s" "$2" | grep -q "not consistent"' - "$ev" "$EP_OUT"
# stale PYPROJECT-LINE NAME: beta's line followed by LINE, the lock as it was
stale() {
	sed "s|^beta = .*|&\\
$1|" "$TEST_TMPDIR/pyproject.kept" >"$repo/pyproject.toml"
	lock_says
	ep_says
	check "$2: poetry lock --check says $lv, envpreflight $ev: $L_OUT | $EP_OUT" \
		agree fail "$lv" "$ev"
}
stale 'omega = "*"' "a registry package declared, not locked"
poetry_says
check "... and poetry 1.3's install fails to solve it: $P_OUT" [ "$pv" = fail ]
sed 's|^beta = .*|beta = "^3"|' "$TEST_TMPDIR/pyproject.kept" >"$repo/pyproject.toml"
lock_says
ep_says
check "a constraint the locked version does not meet: poetry lock --check says $lv, envpreflight $ev: $EP_OUT" \
	agree fail "$lv" "$ev"
pip_venv uninstall -y zeta
stale "zeta = {path = \"$wh/zeta-1.0.0-py3-none-any.whl\"}" "a path package declared, not locked"
fix=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["id"] == "deps.poetry"][0]
print(c["reason"], " ".join(c["fix"]["argv"]), c["fix"]["writes"])')
check "not locked: out-of-date, the relock, writing poetry.lock ($fix)" \
	[ "$fix" = "out-of-date poetry lock ['poetry.lock']" ]
poetry_run lock --no-update >/dev/null 2>&1
ep_says
check "after the relock, the install is what is left: $EP_OUT" \
	sh -c 'printf "%s" "$1" | grep -q "zeta: lockfile 1.0.0, not installed"' - "$EP_OUT"
poetry_run install --no-root >/dev/null 2>&1
poetry_says
ep_says
check "after poetry install, poetry says $pv, envpreflight $ev: $EP_OUT" agree pass "$pv" "$ev"

kill "$srv" 2>/dev/null
finish
