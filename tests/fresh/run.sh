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
# Each runs in a container of its own (in_root below), so nothing of this
# machine's installs, users or caches is seen.  Not part of make check
# or .ci/run: it takes about half an hour on two cores.  Needs root and
# debootstrap (installed when missing).  The logs stay in
# WORKDIR/logs; the roots are removed unless KEEP=1.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
[ "$(id -u)" = 0 ] || { echo "fresh: needs root (debootstrap, namespaces, pivot_root)" >&2; exit 2; }
work=${1:-$(mktemp -d /var/tmp/envpreflight-fresh.XXXXXX)}
mkdir -p "$work/logs"
logs=$work/logs

command -v debootstrap >/dev/null 2>&1 ||
	apt-get install -y -q --no-install-recommends debootstrap >/dev/null

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

# in_root ROOT USER CMD: CMD in ROOT as USER, with a login's environment.
# A container of its own: new mount, pid, uts and ipc namespaces, ROOT
# made the mount namespace's root with pivot_root (not chroot: in a chroot
# the kernel refuses user namespaces, which the sandbox tests use), the
# host's /dev (its ptys: script and zsh's zpty need them) and /sys bound in
# after ROOT is bound onto itself (a plain bind leaves submounts behind), a
# /proc of its own, the host's network
# (the mirror, the npm registry).  Not bubblewrap: it sets no_new_privs,
# under which sudo cannot work.
in_root() {
	r=$1 u=$2
	shift 2
	unshare --mount --pid --uts --ipc --fork --propagation private /bin/sh -c '
		r=$1 u=$2 cmd=$3
		hostname fresh
		grep -q " fresh$" "$r/etc/hosts" || echo "127.0.1.1 fresh" >>"$r/etc/hosts"
		mount --bind "$r" "$r" &&
		mount --rbind /dev "$r/dev" && mount --rbind /sys "$r/sys" &&
		mount --bind /etc/resolv.conf "$r/etc/resolv.conf" &&
		cd "$r" && mkdir -p .oldroot &&
		pivot_root . .oldroot && cd / &&
		mount -t proc proc /proc && umount -l /.oldroot && rmdir /.oldroot || exit 97
		exec /usr/sbin/chroot / /usr/bin/env -i \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb \
			/usr/sbin/runuser -l "$u" -c "$cmd"' sh "$r" "$u" "$*"
}

if [ ! -x "$base/usr/bin/git" ]; then
	step "apt-get install git make build-essential ca-certificates sudo"
	in_root "$base" root 'apt-get update -q && DEBIAN_FRONTEND=noninteractive
		apt-get install -y -q git make build-essential ca-certificates sudo' \
		>"$logs/base-install.log" 2>&1
	in_root "$base" root 'useradd -m -s /bin/bash dev && chmod 700 /home/dev &&
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
	in_root "$r" "$who" "$cmds" >"$logs/$who.log" 2>&1 </dev/null || st=$?
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
