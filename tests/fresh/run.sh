#!/bin/sh
# tests/fresh/run.sh [WORKDIR] - the README's quickstart on a fresh Debian 12.
#
# Builds a minbase bookworm root with debootstrap from the mirror apt already
# uses, adds only what a new user starts from (git make build-essential
# ca-certificates sudo), and then, in a copy of that root each:
#   root  clones this checkout's HEAD into /root (0700) and runs the
#         README's quickstart commands as written, as root;
#   user  the same as a user with sudo (no password asked: there is no
#         terminal here to type one) in a 0700 home.
# Each runs in its own bubblewrap (new mount, pid, ipc and uts namespaces,
# the host's network for the mirror and the npm registry), so nothing of
# this machine's installs, users or caches is seen.  Not part of make check
# or .ci/run: it takes about half an hour on two cores.  Needs root,
# debootstrap and bubblewrap (installed when missing).  The logs stay in
# WORKDIR/logs; the roots are removed unless KEEP=1.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "fresh: needs root (debootstrap, bwrap as root)" >&2; exit 2; }
work=${1:-$(mktemp -d /var/tmp/envpreflight-fresh.XXXXXX)}
mkdir -p "$work/logs"
logs=$work/logs

for t in debootstrap bwrap; do
	command -v $t >/dev/null 2>&1 && continue
	apt-get install -y -q --no-install-recommends debootstrap bubblewrap >/dev/null
done

# the mirror apt uses: deb822 sources first, then sources.list
mirror=$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null |
	grep -v security | head -n 1)
[ -n "$mirror" ] || mirror=$(sed -n 's/^deb  *\(\[[^]]*\]  *\)\{0,1\}\([^ ]*\) .*/\2/p' \
	/etc/apt/sources.list 2>/dev/null | grep -v security | head -n 1)
[ -n "$mirror" ] || { echo "fresh: no Debian mirror in apt's sources" >&2; exit 2; }

# the quickstart, as the README writes it: the lines of the fenced block
# after the marker <!-- quickstart ... -->, comments dropped
quick=$(awk '/<!-- quickstart/ {m=1; next} m && /^```/ {if (b) exit; b=1; next} m && b' \
	"$top/README.md" | sed 's/ *#.*//' | grep -v '^ *$')
[ -n "$quick" ] || { echo "fresh: no quickstart block in README.md" >&2; exit 2; }
printf 'fresh: the quickstart:\n%s\n' "$quick" | sed '2,$s/^/  /'

step() { printf '%s fresh: %s\n' "$(date +%T)" "$*"; }

base=$work/base
if [ ! -x "$base/usr/bin/make" ]; then
	step "debootstrap --variant=minbase bookworm from $mirror"
	rm -rf "$base"
	debootstrap --variant=minbase bookworm "$base" "$mirror" >"$logs/debootstrap.log" 2>&1
fi

# bwrap_root ROOT USER CMD: CMD in ROOT as USER, with a login's environment
bwrap_root() {
	r=$1 u=$2
	shift 2
	bwrap --bind "$r" / --proc /proc --dev /dev --ro-bind /sys /sys \
		--ro-bind /etc/resolv.conf /etc/resolv.conf \
		--unshare-pid --unshare-ipc --unshare-uts --hostname fresh \
		--die-with-parent --cap-add ALL --chdir / \
		/usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root TERM=dumb \
		/usr/sbin/runuser -l "$u" -c "$*"
}

if [ ! -x "$base/usr/bin/git" ]; then
	step "apt-get install git make build-essential ca-certificates sudo"
	bwrap_root "$base" root 'apt-get update -q && DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q git make build-essential ca-certificates sudo' \
		>"$logs/base-install.log" 2>&1
	bwrap_root "$base" root 'useradd -m -s /bin/bash dev && chmod 700 /home/dev &&
		echo "dev ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/dev && chmod 440 /etc/sudoers.d/dev' \
		>>"$logs/base-install.log" 2>&1
fi

# this checkout's branch, as a bundle any user can clone from (a clone
# of a repository another user owns trips git's safe.directory check)
branch=$(git -C "$top" rev-parse --abbrev-ref HEAD)
git -C "$top" bundle create "$work/envpreflight.bundle" HEAD "$branch" >/dev/null 2>&1
head=$(git -C "$top" rev-parse --short HEAD)

status=0
for who in root dev; do
	r=$work/root-$who
	rm -rf "$r"
	cp -a "$base" "$r"
	cp "$work/envpreflight.bundle" "$r/tmp/envpreflight.bundle"
	chmod 644 "$r/tmp/envpreflight.bundle"
	step "$who: git clone ($head) into ~, then the quickstart"
	cmds="set -x; cd && git clone -q /tmp/envpreflight.bundle envpreflight && cd envpreflight"
	cmds="$cmds && ls -ld ~ && $(printf '%s\n' "$quick" | sed 's/$/ \&\&/' | tr '\n' ' ') echo QUICKSTART-PASSED"
	st=0
	bwrap_root "$r" "$who" "$cmds" >"$logs/$who.log" 2>&1 </dev/null || st=$?
	if grep -q '^QUICKSTART-PASSED' "$logs/$who.log"; then
		step "$who: passed"
	else
		step "$who: FAILED (status $st)"
		status=1
	fi
	grep -E '^(\+ |deps:|.* passed, [0-9]+ failed|✖ [0-9]+ of|\[FAIL\] [0-9]+ of)' "$logs/$who.log" |
		sed "s/^/  $who | /" | tail -n 30
	[ "${KEEP:-0}" = 1 ] || rm -rf "$r"
done
step "logs in $logs"
exit $status
