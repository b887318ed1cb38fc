#!/bin/sh
# deps_py.sh - the deps probe's requirements*.txt against pip itself.
#
# The oracle is Debian's pip (python3-pip, python3-venv: a virtual
# environment made by /usr/bin/python3 -m venv, pip inside it): each state
# is a requirements.txt and a real environment, and pip's own dry run,
#   pip install --dry-run --no-index --find-links WHEELS -r requirements.txt
# says whether an install would change something or stop (a "Would
# install" line, or an error: the check must fail) or not (every line
# "already satisfied" or ignored: the check must pass).  The wheels are
# built here (a zip with NAME-VER.dist-info/{METADATA,WHEEL,RECORD}),
# installed with pip from that folder: no network, no index.  Each case
# asserts pip's answer (so that a wrong setup shows) and that envpreflight
# gives the same one.  uv cannot be installed here: its exact sync (seed
# packages kept) is checked against a hand-made environment, as uv's
# source (crates/uv-installer/src/plan.rs) says.
. "$(dirname "$0")/../lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)
fx=$top/tests/fixtures/deps
PY=/usr/bin/python3

# has TEXT OUTPUT: OUTPUT holds TEXT
has() { printf '%s\n' "$2" | grep -qF -- "$1"; }

wh=$TEST_TMPDIR/wheels
ven=$TEST_TMPDIR/venv
repo=$TEST_TMPDIR/repo
mkdir -p "$wh" "$repo"

# mkwheel NAME VERSION: a minimal wheel of NAME in $wh
mkwheel() { py "$top/tests/mkwheel.py" "$wh" "$1" "$2"; }

# pip with nothing of this machine's configuration (PIP_CONFIG_FILE,
# find-links, an index) and no network.  Its objects in glibc's malloc,
# which asks for huge pages (PYTHONMALLOC=malloc, glibc.malloc.hugetlb=1):
# a dry run took 10,800 page faults, 3,100 so, at 16 us each on CI's
# machine (tests/managers/lib.sh)
pip_run() {
	env -i PATH=/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 \
		PIP_CONFIG_FILE=/dev/null PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1 \
		PYTHONMALLOC=malloc GLIBC_TUNABLES=glibc.malloc.hugetlb=1 \
		${VARS:-} "$ven/bin/python" -m pip "$@"
}

if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null ||
	! "$PY" -m venv "$ven" >/dev/null 2>&1 || ! pip_run --version >/dev/null 2>&1; then
	skip "no python3-venv with pip (Debian's python3-venv, python3-pip): pip is the oracle"
	finish
	exit 0
fi
for p in torch==2.1.0+cpu requests==2.31.0 requests==2.30.0 six==1.16.0 absent==1.0; do
	mkwheel "${p%%==*}" "${p#*==}"
done
pip_run install -q --no-index --find-links "$wh" torch==2.1.0+cpu requests==2.31.0 six==1.16.0 \
	>"$TEST_TMPDIR/pip-install.log" 2>&1
check "pip installed the wheels: $(cat "$TEST_TMPDIR/pip-install.log")" \
	pip_run show -q torch requests six
hash_req=$(sha256sum "$wh/requests-2.31.0-py3-none-any.whl" | cut -d' ' -f1)

# pip_says: pass when pip's dry run of $repo/requirements.txt would
# change nothing, else fail; PIP_OUT: what pip said
pip_says() {
	PIP_OUT=$(pip_run install --dry-run --no-index --find-links "$wh" \
		-r "$repo/requirements.txt" 2>&1)
	if [ $? = 0 ] && ! printf '%s\n' "$PIP_OUT" | grep -q '^Would install'; then
		pv=pass
	else
		pv=fail
	fi
}

# ep_says: the status of the requirements.txt check (a warning is a pass:
# nothing to install); EP_OUT: the report
ep_says() {
	EP_OUT=$(EP_ENV="VIRTUAL_ENV=$ven ${VARS:-}" ep --only=deps --json "$repo")
	ev=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
d = json.load(sys.stdin)
c = [x for x in d["checks"] if x["id"] == "deps.pip.requirements.txt"][0]
print("fail" if c["status"] == "fail" else "pass")')
}

# agree WANT PIP EP: pip answered WANT, and envpreflight as pip
agree() { [ "$2" = "$1" ] && [ "$3" = "$2" ]; }

# state NAME WANT TEXT: requirements.txt is TEXT (printf's escapes), pip
# must answer WANT, and envpreflight the same (VARS: the environment of
# both)
state() {
	printf "$3" >"$repo/requirements.txt"
	pip_says
	ep_says
	check "$1: pip says $pv (want $2), envpreflight $ev: $PIP_OUT | $EP_OUT" \
		agree "$2" "$pv" "$ev"
}

# ---- states that agreed before, kept ----
state "pins all installed" pass 'requests==2.31.0\ntorch==2.1.0+cpu\n'
state "a pin not installed" fail 'requests==2.31.0\nabsent==1.0\n'
state "a pin at another version" fail 'requests==2.30.0\n'
# its fix: the environment's own pip, which writes that environment:
# outside the tree here (VIRTUAL_ENV), so no fix.writes
fw=$(printf '%s' "$EP_OUT" | py -c '
import json, sys
c = [x for x in json.load(sys.stdin)["checks"] if x["id"] == "deps.pip.requirements.txt"][0]
print(c["fix"]["argv"][1:4], c["fix"]["writes"])')
check "pip's fix writes nothing in the tree for a venv outside it ($fw)" \
	[ "$fw" = "['-m', 'pip', 'install'] []" ]
state "a false marker" pass 'absent==1.0 ; sys_platform == "win32"\n'
state "a true marker, missing" fail 'absent==1.0 ; python_version >= "3.8"\n'
state "a range, satisfied" pass 'requests>=2\n'
state "a URL line (the installed version): not compared" pass \
	"requests==2.31.0\nsix @ file://$wh/six-1.16.0-py3-none-any.whl\n"
state "extras in the environment: pip leaves them" pass 'six==1.16.0\n'
state "a continued hash line, no marker" pass "requests==2.31.0 \\\\\n    --hash=sha256:$hash_req\n"
state "normalised names and versions" pass 'Requests==2.31\nSIX==1.16.0.0\n'

# ---- any specifier: pip installs what is missing or not satisfied ----
state "a range, missing" fail 'absent>=1\n'
state "a range the installed version does not meet" fail 'requests>=2.32\n'
state "no specifier, installed" pass 'six\n'
state "no specifier, missing" fail 'absent\n'
state "a wildcard, met" pass 'requests==2.31.*\n'
state "!= the installed version" fail 'requests!=2.31.0\n'
state "~=, met" pass 'requests~=2.30\n'
state "two clauses, met" pass 'requests>=2,<3 ; python_version >= "3"\n'

# ---- 1: PEP 440 local labels (packaging specifiers.py _compare_equal) ----
state "==2.1.0 with 2.1.0+cpu installed" pass 'torch==2.1.0\n'
state "==2.1.0+cpu with 2.1.0+cpu installed" pass 'torch==2.1.0+cpu\n'
state "==2.1.0+cu118 with 2.1.0+cpu installed" fail 'torch==2.1.0+cu118\n'
state "===2.1.0+CPU: string equality, case-insensitive" pass 'torch===2.1.0+CPU\n'
state "===2.1.0 with 2.1.0+cpu installed" fail 'torch===2.1.0\n'
state "===2.31 with 2.31.0 installed" fail 'requests===2.31\n'

# ---- 2: a marker, then --hash on a continuation line ----
state "marker and continued --hash, missing" fail \
	"absent==1.0 ; python_version >= \"3.8\" \\\\\n    --hash=sha256:$hash_req\n"
state "marker and continued --hash, installed" pass \
	"requests==2.31.0 ; python_version >= \"3.8\" and python_version < \"4.0\" \\\\\n    --hash=sha256:$hash_req\n"
state "false marker and continued --hash" pass \
	"absent==1.0 ; sys_platform == \"win32\" \\\\\n    --hash=sha256:$hash_req\n"

# what uv export writes (pip-compile --generate-hashes alike): hashes on
# continuation lines, "# via" comment lines between requirements
uvexp="# This file was autogenerated by uv via the following command:\n#    uv export --no-dev\n"
uvexp="$uvexp""requests==2.31.0 ; python_full_version >= '3.8' \\\\\n    --hash=sha256:$hash_req\n    # via app\n"
state "uv export: all there" pass \
	"$uvexp""absent==1.0 ; python_full_version < '3.0' \\\\\n    --hash=sha256:$hash_req\n    # via requests\n"
state "uv export: a package for this Python missing" fail \
	"$uvexp""absent==1.0 ; python_full_version >= '3.0' \\\\\n    --hash=sha256:$hash_req\n    # via requests\n"

# ---- 3: ${VAR} from the environment, never shown ----
VARS="REQ_VER=2.31.0"
state '${REQ_VER} set to the installed version' pass 'requests==${REQ_VER}\n'
VARS=
VARS="REQ_VER=7.7.7"
state '${REQ_VER} set to another version' fail 'requests==${REQ_VER}\n'
VARS=
check "the variable's value is not shown: $EP_OUT" \
	sh -c 'printf "%s" "$1" | grep -qF "7.7.7" && exit 1; printf "%s" "$1" | grep -qF "REQ_VER"' - "$EP_OUT"
state '${REQ_VER} not set' fail 'requests==${REQ_VER}\n'
check "an unset variable: named, no fix that cannot work: $EP_OUT" \
	sh -c 'printf "%s" "$1" | "$2" -c "
import json, sys
c = [x for x in json.load(sys.stdin)[\"checks\"] if x[\"probe\"] == \"deps\"][0]
assert c[\"fix\"] is None, c
assert \"\${REQ_VER} is not set\" in c[\"hint\"], c
"' - "$EP_OUT" "$PY"
VARS="REQ_VER="
state '${REQ_VER} empty: left as written' fail 'requests==${REQ_VER}\n'
VARS=
VARS="REQ_VER=2.31.0"
state '$REQ_VER (no braces) is not expanded' fail 'requests==$REQ_VER\n'
VARS=
VARS="req_ver=2.31.0"
state '${req_ver} (lower case) is not expanded' fail 'requests==${req_ver}\n'
VARS=
VARS="REQ_VER=2.31.0"
state '${REQ_VER} in a comment' pass 'requests==2.31.0 # ${REQ_VER}\n'
VARS=

# ---- 4: legacy marker names, (==V) ----
state "os.name" pass 'absent==1.0; os.name == "nt"\n'
state "sys.platform, true: missing" fail 'absent==1.0; sys.platform == "linux"\n'
state "python_implementation, true: missing" fail 'absent==1.0; python_implementation == "CPython"\n'
state "platform.python_implementation, false" pass 'absent==1.0; platform.python_implementation == "Jython"\n'
state "platform.machine, false" pass 'absent==1.0; platform.machine == "no-such-machine"\n'
state "name (==V), installed" pass 'requests (==2.31.0)\n'
state "name (==V), another version" fail 'requests (==2.30.0)\n'
state "name[extra] (== V)" fail 'requests[socks] ( == 2.30.0 )\n'
state "an extra marker: no extra asked (match_markers)" pass 'absent==1.0; extra == "socks"\n'
state "an extra marker negated" fail 'absent==1.0; extra != "socks"\n'
state "a string comparison in a marker" pass 'absent==1.0; os_name < "a"\n'

# ---- 5: pip's line splitting and comments ----
state "CR line ends" fail 'requests==2.31.0\rabsent==1.0\r'
state "CR LF line ends" pass 'requests==2.31.0\r\nsix==1.16.0\r\n'
state "a comment after a form feed" pass 'requests==2.31.0\f# absent==1.0\n'
state "a comment after a vertical tab" pass 'requests==2.31.0\v# absent==1.0\n'
state "\\\\x1c, \\\\x1d and \\\\x1e end lines" pass 'requests==2.31.0\034six==1.16.0\035torch==2.1.0\036'
state "U+0085 ends a line" pass 'requests==2.31.0\302\205six==1.16.0\n'
state "U+2028 and U+2029 end lines" pass 'requests==2.31.0\342\200\250six==1.16.0\342\200\251torch==2.1.0\n'
state "a comment after a tab" pass 'requests==2.31.0\t# absent==1.0\n'
state "a # that follows no blank is no comment" fail 'requests==2.31.0#x\n'
state "a comment inside a continuation" pass 'requests==2.31.0 \\\n# absent==1.0\nsix==1.16.0\n'
state "a comment line ending in a backslash is not continued" fail '# note \\\nabsent==1.0\n'
state "a comment swallows the continued line" pass 'requests==2.31.0 # note \\\nabsent==1.0\n'
state "a backslash at the end of the file" pass 'requests==2.31.0 \\'

# ---- 6: uv sync is exact (uv-installer src/plan.rs): extras warned ----
# venv DIR VERSION CFG NAME==VER...: pyvenv.cfg (CFG: more lines) and one
# dist-info a package
venv() {
	d=$1 v=$2 cfg=$3
	shift 3
	sp=$d/lib/python${v%.*}/site-packages
	mkdir -p "$sp"
	printf 'home = /usr/bin\nimplementation = CPython\nversion_info = %s\n%b' "$v" "$cfg" >"$d/pyvenv.cfg"
	for p in "$@"; do
		mkdir -p "$sp/${p%%==*}-${p#*==}.dist-info"
		printf 'Metadata-Version: 2.1\nName: %s\nVersion: %s\n' "${p%%==*}" "${p#*==}" \
			>"$sp/${p%%==*}-${p#*==}.dist-info/METADATA"
	done
}
uvset="anyio==4.8.0 idna==3.10 sniffio==1.3.1 typing_extensions==4.12.2 pytest==8.3.4 iniconfig==2.0.0 webapp==0.1.0"
uvrepo=$TEST_TMPDIR/uv
mkdir -p "$uvrepo"
cp "$fx/uv/uv.lock" "$uvrepo/"
# shellcheck disable=SC2086
venv "$uvrepo/.venv" 3.12.3 '' $uvset pip==24.0 six==1.16.0
out=$(ep --only=deps --json "$uvrepo")
check "uv: a package beyond uv.lock is a warning, pip (a seed package) kept: $out" \
	sh -c 'printf "%s" "$1" | "$2" -c "
import json, sys
c = [x for x in json.load(sys.stdin)[\"checks\"] if x[\"probe\"] == \"deps\"][0]
assert c[\"status\"] == \"warn\", c
assert c[\"message\"] == \"1 installed package not in uv.lock: six: not in the lockfile, installed 1.16.0\", c
assert c[\"fix\"][\"argv\"] == [\"uv\", \"sync\", \"--locked\"], c
"' - "$out" "$PY"
rm -rf "$uvrepo/.venv"
# shellcheck disable=SC2086
venv "$uvrepo/.venv" 3.12.3 'uv = 0.5.11\n' $uvset pip==24.0
out=$(ep --only=deps "$uvrepo")
check "uv: pip in an environment uv made without --seed is removed by uv sync: $out" \
	has "1 installed package not in uv.lock: pip: not in the lockfile" "$out"
rm -rf "$uvrepo/.venv"
# shellcheck disable=SC2086
venv "$uvrepo/.venv" 3.12.3 'uv = 0.5.11\nseed = true\n' $uvset pip==24.0
out=$(ep --only=deps "$uvrepo")
check "uv: pip kept in an environment made with uv venv --seed: $out" \
	has "7 packages match .venv (.venv)" "$out"
rm -rf "$uvrepo/.venv"
# shellcheck disable=SC2086
venv "$uvrepo/.venv" 3.11.9 '' $uvset setuptools==69.0 wheel==0.42
out=$(ep --only=deps "$uvrepo")
check "uv: setuptools and wheel are seed packages below Python 3.12: $out" \
	has "7 packages match .venv (.venv)" "$out"

finish
