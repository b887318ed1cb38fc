# tests/lib.sh - sourced by tests/golden.sh and tests/integration/*.sh.
# $EP_BIN is the binary under test, $TEST_TMPDIR a scratch directory.
#
# Nothing a script makes or looks for is shared with another run on the
# same machine (two checkouts tested at once): its scratch directory is
# its run's own, and a process it must find again in /proc carries
# $T_MARK, a token drawn for this run, in its arguments.
T_PASSED=0
T_FAILED=0
T_SKIPPED=0
T_NAME=$(basename "$0" .sh)
# each script gets its own scratch space, apart from the unit tests';
# run alone (no TEST_TMPDIR), a new directory that finish removes
T_OWN_TMP=
if [ -z "${TEST_TMPDIR:-}" ]; then
	TEST_TMPDIR=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-tests.XXXXXX") || exit 2
	T_OWN_TMP=$TEST_TMPDIR
fi
TEST_TMPDIR=$TEST_TMPDIR/sh-$T_NAME
rm -rf "$TEST_TMPDIR"
mkdir -p "$TEST_TMPDIR/home" "$TEST_TMPDIR/xdg"
# nine random digits, so that a mark such as "sleep 300.${T_MARK}1" is
# a number to sleep(1) and no run's mark is the start of another's
T_MARK=$(od -An -N4 -tu4 /dev/urandom | awk '{ printf "%09d", $1 % 1000000000 }')

# Debian's python3, the one make deps-check gives python3-jsonschema and
# python3-yaml, whatever a developer's PATH puts first (a pyenv shim
# costs half a second a start, and may lack those modules).  A link first
# on PATH, not a shell function: "python3 ... &" must leave the pid of
# python itself in $!, for the kill that ends it.
if [ -x /usr/bin/python3 ]; then
	mkdir -p "$TEST_TMPDIR/python-bin"
	ln -sf /usr/bin/python3 "$TEST_TMPDIR/python-bin/python3"
	PATH=$TEST_TMPDIR/python-bin:$PATH
	export PATH
fi

# py -c PROGRAM [ARG...], py - [ARG...] (the program on standard input),
# py FILE [ARG...]: what python3 does with them, run by one python3 for
# the whole script (tests/pyserve.py, started here; its protocol is
# written there).
# A python3 takes 50-100 ms of CPU to start on CI's machine, and the
# scripts read their JSON reports with thousands.  The program runs with
# the caller's standard input, output and error, arguments and
# directory, in a process of its own (a fork of the server).
# Descriptors 5, 6 and 7 are py's; a bare `wait` would wait for the server
# too.
T_PY=$TEST_TMPDIR/py
T_PY_PID=
for py_serve in "$(dirname "$0")/pyserve.py" "$(dirname "$0")/../pyserve.py"; do
	if [ -f "$py_serve" ] && mkdir -p "$T_PY" && rm -f "$T_PY/req" &&
		mkfifo "$T_PY/req"; then
		/usr/bin/python3 "$py_serve" "$T_PY" </dev/null &
		T_PY_PID=$!
		break
	fi
done
py() {
	# no server, or it is gone (a zombie until the script waits): python3
	py_state=Z
	[ -n "$T_PY_PID" ] &&
		read -r _ _ py_state _ 2>/dev/null <"/proc/$T_PY_PID/stat"
	if [ "$py_state" = Z ]; then
		/usr/bin/python3 "$@"
		return
	fi
	case ${1:-} in
	-c | -) ;;
	'' | -*) echo "py: -c PROGRAM, - or FILE, not ${1:-nothing}" >&2; return 2 ;;
	esac
	# this process (a subshell's own, which $$ is not) and its start
	# time, read from /proc/self opened by itself: the name of its
	# request's files and of its FIFO, which stays for its next request
	# (the pair is no other process's, pids being reused)
	read -r py_pid _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ py_start py_rest </proc/self/stat
	py_f=$T_PY/$py_pid.$py_start
	[ -p "$py_f" ] || mkfifo "$py_f" || return 2
	if [ "$1" = -c ]; then
		printf '%s' "$2" >"$py_f.code"
		shift 2
		set -- -c "$@"
	fi
	printf '%s\0' "$@" >"$py_f.argv"
	printf '%s' "$PWD" >"$py_f.cwd"
	# its standard input, output and error as 5, 6 and 7, which the
	# server opens again (0 and 1 are redirected in turn below)
	exec 5<&0 6>&1 7>&2
	echo "$py_pid $py_start" >"$T_PY/req"
	# the server's child opens 5, 6 and 7, then the FIFO, then runs the
	# program, writes the status line and ends: the FIFO's end, read
	# here, is the child's (a program that ends its process leaves no
	# line, not this read waiting), and the next request cannot meet it
	py_st=
	{ read -r py_st py_out py_err; read -r py_end; } <"$py_f"
	exec 5<&- 6>&- 7>&-
	[ "${py_out:-0}" = 1 ] && [ -s "$py_f.out" ] && cat "$py_f.out"
	[ "${py_err:-0}" = 1 ] && [ -s "$py_f.err" ] && cat "$py_f.err" >&2
	case $py_st in
	[0-9]*) return "$py_st" ;;
	esac
	echo "py: the program ended its process without a status (os._exit?)" >&2
	return 2
}

ok() { T_PASSED=$((T_PASSED + 1)); }
not_ok() { T_FAILED=$((T_FAILED + 1)); echo "not ok: $*"; }
# skip REASON: a case this machine cannot stage was not run; it is
# counted, and the reason is listed by tests/run.sh
skip() { T_SKIPPED=$((T_SKIPPED + 1)); echo "skip: $T_NAME: $*"; }

# check DESCRIPTION COMMAND...: passes when the command succeeds
check() {
	d=$1
	shift
	if "$@"; then ok; else not_ok "$d"; fi
}

# A clean, deterministic environment for the binary: nothing of the
# caller's leaks in (its .env keys, NO_COLOR, config, locale).  Run
# without DIR, the binary looks upwards for the top of a git work tree:
# the scratch directory is its ceiling, so that a checkout the tests run
# in (or a .git in /tmp) cannot change what they audit; EP_ENV may set
# GIT_CEILING_DIRECTORIES otherwise.
ep_run() {
	if [ -n "${EP_TWIN_BIN:-}" ]; then
		ep_twin "$@"
		return
	fi
	ep_env "$EP_BIN" "$@"
}

# ep_env BINARY ARGS: BINARY in that environment
ep_env() {
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		LC_ALL="${EP_LOCALE:-C.UTF-8}" GIT_CEILING_DIRECTORIES="$TEST_TMPDIR" \
		${EP_ENV:-} "$@"
}

# The twin: with EP_TWIN_BIN set (tests/run.sh sets it, for the twinned
# scripts, read-only audits through ep, when make check is given TWIN=the
# ASan build), each run of the binary is followed by one of the twin on
# the same state, so that the sanitizers see those states without the
# managers building them, or the script doing its work, a second time in
# make asan.  The twin must
# end with the same status and report no sanitizer error; what it found
# is a line in $T_TWIN_LOG (ep may run in a subshell: a counter there
# would be lost), which finish counts.  Its stdin is /dev/null: the
# binary's took what was given.  It looks for memory errors and undefined
# behaviour, not leaks: LeakSanitizer's scan at exit tripled the cost of
# a run (46 against 141 ms of CPU for an audit here) and twins are a
# thousand runs, while these paths are leak-checked by make asan's unit
# programs and golden cases, the fuzz targets, and valgrind.sh.  Nor does
# it keep the stack of each allocation (malloc_context_size=0: 48 against
# 60 ms; a report still shows where the bad access was, and make asan on
# that state shows where the memory came from).  Its
# stderr is a file named after the process (read from /proc/self: a
# subshell's own), looked into only when not empty.
T_TWIN_LOG=$TEST_TMPDIR/twin.log
ep_twin() {
	read -r tw_pid tw_rest </proc/self/stat
	tw_err=$TEST_TMPDIR/twin.$tw_pid
	ep_env "$EP_BIN" "$@"
	tw_st=$?
	EP_ENV="${EP_ENV:-} ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0" \
		ep_env "$EP_TWIN_BIN" "$@" >/dev/null 2>"$tw_err" </dev/null
	tw_st2=$?
	if [ -s "$tw_err" ] && grep -q -e '^==[0-9]*==ERROR: ' -e 'runtime error: ' "$tw_err"; then
		echo "not ok: twin $*: a sanitizer report (below)" >>"$T_TWIN_LOG"
		grep -A 12 -e '^==[0-9]*==ERROR: ' -e 'runtime error: ' "$tw_err" |
			head -n 24 | sed 's/^/    /' >>"$T_TWIN_LOG"
	elif [ "$tw_st" != "$tw_st2" ]; then
		echo "not ok: twin $*: exit $tw_st2, the binary's $tw_st" >>"$T_TWIN_LOG"
	else
		echo ok >>"$T_TWIN_LOG"
	fi
	return "$tw_st"
}

# ep runs the binary; every envpreflight/1 report it prints is also kept
# in $EP_JSON_DIR (set by tests/run.sh), which run.sh validates against
# the JSON Schema at the end: every JSON output of every test is checked.
ep() {
	if [ -n "${EP_JSON_DIR:-}" ] && ep_wants_report "$@"; then
		ep_keep=$(mktemp "$EP_JSON_DIR/$T_NAME.XXXXXX")
		ep_run "$@" >"$ep_keep"
		ep_st=$?
		cat "$ep_keep"
		return $ep_st
	fi
	ep_run "$@"
}

# whether the arguments ask for an envpreflight/1 report in JSON
ep_wants_report() {
	ep_json=0
	ep_prev=
	case ${1:-} in init|mcp) return 1 ;; esac	# their own documents
	for a in "$@"; do
		case $a in
		--list-probes|--schema|--help|-h|--version|-V) return 1 ;;
		--json|--format=json|-fjson) ep_json=1 ;;
		--format=*|-f?*) ep_json=0 ;;
		json) [ "$ep_prev" = -f ] || [ "$ep_prev" = --format ] && ep_json=1 ;;
		esac
		ep_prev=$a
	done
	[ "$ep_json" = 1 ]
}

# $SIGDFL COMMAND...: COMMAND with SIGHUP, SIGINT, SIGQUIT, SIGTERM and
# SIGPIPE at their defaults.  A test that signals a process, or needs a
# child to die of a broken pipe, must not inherit the dispositions of
# whoever started the suite: nohup ignores SIGHUP, a shell ignores SIGINT
# and SIGQUIT in its background jobs, a CI runner may ignore SIGPIPE; and
# envpreflight, rightly, keeps a signal ignored that was ignored on entry.
# A script, not a function, so that "$SIGDFL cmd &" gives $! the pid of
# cmd itself (each step execs the next); env(1) resets the signals
# (coreutils 8.31), else perl.  Empty when neither can: such a case is
# skipped.
SIGDFL=$TEST_TMPDIR/sigdfl
if env --default-signal=HUP true 2>/dev/null; then
	printf '#!/bin/sh\nexec env --default-signal=HUP,INT,QUIT,TERM,PIPE "$@"\n' >"$SIGDFL"
elif command -v perl >/dev/null 2>&1; then
	cat >"$SIGDFL" <<'EOF'
#!/bin/sh
exec perl -e '$SIG{$_} = "DEFAULT" for qw(HUP INT QUIT TERM PIPE);
	exec { $ARGV[0] } @ARGV or exit 127' "$@"
EOF
else
	SIGDFL=
fi
[ -n "$SIGDFL" ] && chmod 755 "$SIGDFL"

# marked DIR: a copy of the fixture directory DIR (fake runtimes whose
# processes a test looks for in /proc afterwards) with @MARK@ in its
# files replaced by $T_MARK, in the scratch space; prints its path
marked() {
	m_dst=$TEST_TMPDIR/marked/${1##*/}
	mkdir -p "$m_dst"
	for m_f in "$1"/*; do
		sed "s/@MARK@/$T_MARK/g" "$m_f" >"$m_dst/${m_f##*/}" &&
			chmod 755 "$m_dst/${m_f##*/}"
	done
	echo "$m_dst"
}

# nobody_setup: for the cases that run the binary as another user (root
# and setpriv needed).  Neither the checkout (it may sit in a 0700 home)
# nor $TEST_TMPDIR (a caller's mktemp -d is 0700) need be reachable by
# another user, so $PUB is a directory of its own under TMPDIR, open to
# every user, which finish removes: the binary is copied there as
# $PUB_BIN, and such a case keeps its fixtures there too.  $NOBODY is the
# setpriv prefix that runs a command as nobody (uid 65534).  Returns 1,
# with the reason in $NOBODY_WHY, when no case can run so: not root, no
# setpriv, or TMPDIR itself closed to other users.
T_PUB=
nobody_setup() {
	NOBODY= NOBODY_WHY=
	if [ "$(id -u)" != 0 ]; then
		NOBODY_WHY="not root: cannot run a command as another user"
		return 1
	fi
	if ! command -v setpriv >/dev/null 2>&1; then
		NOBODY_WHY="no setpriv (util-linux): cannot run a command as another user"
		return 1
	fi
	if [ -z "$T_PUB" ]; then
		T_PUB=$(mktemp -d "${TMPDIR:-/tmp}/envpreflight-pub.XXXXXX") &&
			chmod 755 "$T_PUB" && cp "$EP_BIN" "$T_PUB/envpreflight" &&
			chmod 755 "$T_PUB/envpreflight" || {
			NOBODY_WHY="cannot make a directory under ${TMPDIR:-/tmp} with a copy of the binary"
			return 1
		}
	fi
	PUB=$T_PUB
	PUB_BIN=$PUB/envpreflight
	# through env: setpriv keeps root's capabilities until its own exec,
	# so it would reach a binary that nobody cannot
	if ! setpriv --reuid=65534 --regid=65534 --clear-groups \
		env "$PUB_BIN" --version >/dev/null 2>&1; then
		NOBODY_WHY="nobody cannot run $PUB_BIN: a directory above it is closed to other users (TMPDIR=${TMPDIR:-/tmp})"
		return 1
	fi
	NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
}

# Replace what changes from run to run: the root path and timings.
mask() {
	sed -e "s#$1#<ROOT>#g" \
	    -e 's/"duration_ms": *[0-9.e+-]*/"duration_ms": 0/g' \
	    -e 's/time="[0-9.]*"/time="0"/g' \
	    -e 's/([0-9.]* ms)/(T ms)/g'
}

# survivors MARK...: how many processes whose command line holds one of
# the marks are still alive (zombies do not count: they run nothing),
# after up to 5 s for a killed one to end.  A killed process ends once the
# kernel schedules it, which on a busy machine takes a while; one that was
# not killed lives on for its marked sleep, which must be much longer.
survivors() {
	until=$(($(date +%s) + 5))
	while :; do
		n=0
		for f in $(grep -Fls $(printf -- '-e %s ' "$@") /proc/[0-9]*/cmdline 2>/dev/null); do
			st=$(sed -n 's/.*) \(.\).*/\1/p' "${f%cmdline}stat" 2>/dev/null)
			[ -z "$st" ] || [ "$st" = Z ] || n=$((n + 1))
		done
		[ "$n" = 0 ] || [ "$(date +%s)" -ge "$until" ] && break
		sleep 0.05
	done
	echo "$n"
}

# reqcheck_build: tests/fixtures/reqcheck/check.c, a requirement parser
# of ours over "REQUIREMENT<TAB>VERSION" lines, built into
# $TEST_TMPDIR/check against the build's library; 1, after a skip, when it
# does not build (poetry.sh, gemreq.sh)
reqcheck_build() {
	rc_lib=${EP_BUILD:-$top/build}/libenvpreflight.a
	[ -f "$rc_lib" ] && cc -std=c11 -I"$top/include" -o "$TEST_TMPDIR/check" \
		"$top/tests/fixtures/reqcheck/check.c" "$rc_lib" 2>"$TEST_TMPDIR/cc.err" && return 0
	skip "the driver does not build against $rc_lib (a sanitizer build links its own runtime; make check runs this): $(head -c 160 "$TEST_TMPDIR/cc.err" 2>/dev/null)"
	return 1
}

# reqcheck_compare KIND WHAT ORACLE: the driver's answers (check KIND) on
# $TEST_TMPDIR/cases against the oracle's in $TEST_TMPDIR/oracle, one
# check naming the first differences
reqcheck_compare() {
	"$TEST_TMPDIR/check" "$1" <"$TEST_TMPDIR/cases" >"$TEST_TMPDIR/ours"
	rc_n=$(wc -l <"$TEST_TMPDIR/cases")
	paste "$TEST_TMPDIR/cases" "$TEST_TMPDIR/oracle" "$TEST_TMPDIR/ours" |
		awk -F'\t' '$3 != $4' >"$TEST_TMPDIR/diff"
	check "$3 and envpreflight agree on all $rc_n $2 ($(wc -l <"$TEST_TMPDIR/diff") differ; $2, version, $3, ours: $(head -8 "$TEST_TMPDIR/diff" | tr '\t\n' ' |'))" \
		[ ! -s "$TEST_TMPDIR/diff" ]
}

# the closing line, which tests/run.sh adds up: "NAME: N passed, M
# failed", then ", K skipped" when some case was not run
finish() {
	[ -n "$T_PY_PID" ] && kill "$T_PY_PID" 2>/dev/null
	[ -n "$T_PUB" ] && rm -rf "$T_PUB"
	if [ -s "$T_TWIN_LOG" ]; then
		T_PASSED=$((T_PASSED + $(grep -c '^ok$' "$T_TWIN_LOG")))
		T_FAILED=$((T_FAILED + $(grep -c '^not ok: ' "$T_TWIN_LOG")))
		grep -v '^ok$' "$T_TWIN_LOG"
	fi
	if [ -n "$T_OWN_TMP" ] && [ "$T_FAILED" = 0 ]; then
		rm -rf "$T_OWN_TMP"
	elif [ -n "$T_OWN_TMP" ]; then
		echo "(the scratch directory is kept: $T_OWN_TMP)"
	fi
	if [ "$T_SKIPPED" = 0 ]; then
		echo "$T_NAME: $T_PASSED passed, $T_FAILED failed"
	else
		echo "$T_NAME: $T_PASSED passed, $T_FAILED failed, $T_SKIPPED skipped"
	fi
	[ "$T_FAILED" = 0 ]
}
