# tests/lib.sh - sourced by tests/golden.sh and tests/integration/*.sh.
# $EP_BIN is the binary under test, $TEST_TMPDIR a scratch directory.
T_PASSED=0
T_FAILED=0
T_NAME=$(basename "$0" .sh)
# each script gets its own scratch space, apart from the unit tests'
TEST_TMPDIR=${TEST_TMPDIR:-/tmp/envpreflight-tests}/sh-$T_NAME
rm -rf "$TEST_TMPDIR"
mkdir -p "$TEST_TMPDIR/home" "$TEST_TMPDIR/xdg"

ok() { T_PASSED=$((T_PASSED + 1)); }
not_ok() { T_FAILED=$((T_FAILED + 1)); echo "not ok: $*"; }

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
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" \
		XDG_CONFIG_HOME="$TEST_TMPDIR/xdg" XDG_CACHE_HOME="$TEST_TMPDIR/cache" \
		LC_ALL="${EP_LOCALE:-C.UTF-8}" GIT_CEILING_DIRECTORIES="$TEST_TMPDIR" \
		${EP_ENV:-} "$EP_BIN" "$@"
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

finish() {
	echo "$T_NAME: $T_PASSED passed, $T_FAILED failed"
	[ "$T_FAILED" = 0 ]
}
