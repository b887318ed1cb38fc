#!/bin/sh
# sandbox_route.sh - network.route, network.dns and network.metadata in
# network namespaces made here, each judged against what the kernel of that
# namespace does.  Cases: only a connected subnet (10.9.9.0/24, with the
# name server 10.9.9.53 in a private /etc/resolv.conf, a mount namespace,
# beside an unreachable one and a local stub's 127.0.0.53, which forwards
# only by a route out),
# split defaults (0.0.0.0/1 + 128.0.0.0/1, OpenVPN's def1, wg-quick), a
# default in a policy table (ip rule ... lookup 100), a route to the cloud
# metadata address alone, reject defaults (unreachable, prohibit), an IPv6
# default.  In each a prober tries, from the same namespace: `ip route
# get` (the kernel's own answer) and a UDP connect(2) to the address
# (which sends nothing: it succeeds, or fails ENETUNREACH, EHOSTUNREACH,
# EACCES, EINVAL); the two must agree, and envpreflight's verdicts and
# data must match them.  strace (when present) shows that envpreflight
# sent nothing but its netlink requests.  Without netlink (a fixture
# /proc) the answer is the old one, said in data.source.
. "$(dirname "$0")/../lib.sh"
T=$TEST_TMPDIR/route
mkdir -p "$T/repo"
if ! command -v ip >/dev/null 2>&1; then
	skip "ip (iproute2) is not installed: make deps-check lists it"
	finish
	exit
fi
if ! unshare --user --map-root-user --net --mount true 2>/dev/null; then
	skip "user, network and mount namespaces are not allowed here"
	finish
	exit
fi
if ! unshare --user --map-root-user --net ip link add r0 type veth peer name r1 \
	2>/dev/null; then
	skip "no veth in a network namespace here"
	finish
	exit
fi

# the prober: "ADDR routed|unrouted", by ip route get and by a UDP
# connect, or "ADDR disagree ..." when the two do not agree
cat >"$T/probe.py" <<'PY'
import errno, socket, subprocess, sys
for a in sys.argv[1:]:
    fam = socket.AF_INET6 if ":" in a else socket.AF_INET
    r = subprocess.run(["ip", "route", "get", a], capture_output=True, text=True)
    words = r.stdout.split()
    ip_says = r.returncode == 0 and bool(words) and \
        words[0] not in ("unreachable", "prohibit", "blackhole", "throw")
    s = socket.socket(fam, socket.SOCK_DGRAM)
    try:
        s.connect((a, 53))
        conn = True
    except OSError as e:
        if e.errno not in (errno.ENETUNREACH, errno.EHOSTUNREACH, errno.EACCES,
                           errno.EINVAL):
            raise
        conn = False
    s.close()
    if ip_says != conn:
        print(a, "disagree", "ip:", r.stdout.strip() or r.stderr.strip(), "connect:", conn)
    else:
        print(a, "routed" if conn else "unrouted")
PY

printf 'nameserver 10.9.9.53\nnameserver 10.8.8.8\nnameserver 127.0.0.53\n' >"$T/resolv.conf"
ADDRS="192.0.2.1 2001:db8::1 169.254.169.254 10.9.9.53 10.8.8.8 127.0.0.53"

# the namespace: a veth pair up, 10.9.9.1/24 on r0, the private
# resolv.conf, then the case's routes; the prober's answers, then the
# command (the report)
cat >"$T/inner.sh" <<INNER
set -e
mount --bind "$T/resolv.conf" /etc/resolv.conf
ip link set lo up
ip link add r0 type veth peer name r1
ip link set r0 up
ip link set r1 up
ip addr add 10.9.9.1/24 dev r0
case "\$1" in
subnet) ;;
split) ip route add 0.0.0.0/1 dev r0; ip route add 128.0.0.0/1 dev r0 ;;
rule) ip rule add pref 100 lookup 100; ip route add default dev r0 table 100 ;;
metadata) ip route add 169.254.169.254/32 dev r0 ;;
reject) ip route add unreachable default; ip -6 route add prohibit default ;;
ipv6) ip -6 route add default dev r0 ;;
esac
/usr/bin/python3 "$T/probe.py" $ADDRS >"$T/\$1.oracle"
set +e
shift
exec "\$@"
INNER

keep() {
	if [ -n "${EP_JSON_DIR:-}" ] && [ -s "$1" ]; then
		cp "$1" "$(mktemp "$EP_JSON_DIR/sandbox_route.XXXXXX")"
	fi
}

# run CASE [WRAPPER...]: the report of --only=sandbox in CASE's namespace
run() {
	c=$1
	shift
	env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 \
		unshare --user --map-root-user --net --mount sh "$T/inner.sh" "$c" "$@" \
		"$EP_BIN" --json --only=sandbox "$T/repo" >"$T/$c.json" 2>"$T/$c.err"
	keep "$T/$c.json"
}

# judge CASE: envpreflight's verdicts against the prober's, one line a
# mismatch (nothing: they agree)
judge() {
	py - "$T/$1.json" "$T/$1.oracle" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
o = dict(l.split()[:2] for l in open(sys.argv[2]))
bad = [a + ": the prober's two answers disagree" for a, v in o.items() if v == "disagree"]
c = {x["id"]: x for x in doc["checks"]}
def want(cid, routed, breach):
    got, exp = c[cid]["status"], breach if routed else "pass"
    if got != exp:
        bad.append("%s: %s, want %s (%s)" % (cid, got, exp, c[cid]["message"]))
    if c[cid]["data"].get("source") != "netlink":
        bad.append("%s: source %s" % (cid, c[cid]["data"].get("source")))
out = "routed" in (o["192.0.2.1"], o["2001:db8::1"])
# a local name server (127.0.0.53) forwards only by a route out
o["127.0.0.53"] = "routed" if o["127.0.0.53"] == "routed" and out else "unrouted"
want("sandbox.network.route", out, "fail")
want("sandbox.network.metadata", o["169.254.169.254"] == "routed", "fail")
want("sandbox.network.dns", "routed" in (o["10.9.9.53"], o["10.8.8.8"], o["127.0.0.53"]), "warn")
d = c["sandbox.network.route"]["data"]["routes"] + c["sandbox.network.dns"]["data"]["servers"] \
    + [c["sandbox.network.metadata"]["data"]["route"]]
for r in d:
    if r["routed"] != (o[r["address"]] == "routed"):
        bad.append("%s: routed %s, the kernel: %s" % (r["address"], r["routed"], o[r["address"]]))
    dev = "lo" if r["address"].startswith("127.") else "r0"
    if r["routed"] and r["interface"] != dev:
        bad.append("%s: interface %s, want %s" % (r["address"], r["interface"], dev))
if len(d) != 6:
    bad.append("%d destinations in data, want 6" % len(d))
print("; ".join(bad))
PY
}

for c in subnet split rule metadata reject ipv6; do
	run "$c"
	if [ ! -s "$T/$c.oracle" ]; then
		skip "$c: the namespace could not be made: $(head -c 200 "$T/$c.err")"
		continue
	fi
	m=$(judge "$c")
	check "$c: envpreflight's verdicts match the kernel's routes${m:+: $m}" [ -z "$m" ]
done
# what each case is, as the prober found it: the cases above are not all
# alike (a kernel that routes otherwise fails here, not above)
check "subnet: the name server on the connected subnet is reachable" \
	grep -qx '10.9.9.53 routed' "$T/subnet.oracle"
check "subnet: no route out" grep -qx '192.0.2.1 unrouted' "$T/subnet.oracle"
check "subnet: the kernel routes the local name server (lo is up)" \
	grep -qx '127.0.0.53 routed' "$T/subnet.oracle"
check "split: everything routed" grep -qx '192.0.2.1 routed' "$T/split.oracle"
check "rule: the policy table routes it" grep -qx '192.0.2.1 routed' "$T/rule.oracle"
check "metadata: routed alone" sh -c "grep -qx '169.254.169.254 routed' '$T/metadata.oracle' &&
	grep -qx '192.0.2.1 unrouted' '$T/metadata.oracle'"
check "reject: neither family routed" sh -c "grep -qx '192.0.2.1 unrouted' '$T/reject.oracle' &&
	grep -qx '2001:db8::1 unrouted' '$T/reject.oracle'"

# the metadata key: any reports it and does not judge it; a wrong word is
# an error naming the line
printf 'version: 1\nsandbox:\n  metadata: any\n' >"$T/repo/preflight.yaml"
run metadata
st=$(py -c '
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}["sandbox.network.metadata"]
print(c["status"], c["data"]["judged"], c["data"]["routed"], c["source"]["line"])' "$T/metadata.json" 2>&1)
check "metadata: any: routed, not judged, a pass from line 3 ($st)" [ "$st" = "pass False True 3" ]
printf 'version: 1\nsandbox:\n  metadata: open\n' >"$T/repo/preflight.yaml"
"$EP_BIN" "$T/repo" >/dev/null 2>"$T/key.err"
rc=$?
check "metadata: a wrong word is exit 2 ($rc)" [ "$rc" = 2 ]
check "metadata: the error names the line and the words" grep -q "preflight.yaml:3:13: 'sandbox.metadata' expects none or any" "$T/key.err"
rm -f "$T/repo/preflight.yaml"

# without netlink (a fixture /proc stands for another machine): the main
# table's default routes, as before, and data.source says so
ln -s /proc "$T/proc"
env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$TEST_TMPDIR/home" LC_ALL=C.UTF-8 \
	ENVPREFLIGHT_PROC_ROOT="$T/proc" unshare --user --map-root-user --net --mount \
	sh "$T/inner.sh" split "$EP_BIN" --json --only=sandbox "$T/repo" \
	>"$T/proc.json" 2>"$T/proc.err"
keep "$T/proc.json"
src=$(py -c '
import json, sys
c = {x["id"]: x for x in json.load(open(sys.argv[1]))["checks"]}
print(" ".join(c["sandbox.network." + i]["data"]["source"] for i in ("route", "dns", "metadata")),
      c["sandbox.network.route"]["status"])' "$T/proc.json" 2>&1)
check "a fixture /proc: source proc, split defaults unseen ($src)" [ "$src" = "proc proc proc pass" ]

# nothing sent but the route lookups: the only sockets are netlink and
# unix ones, every sendto/sendmsg goes to the kernel over netlink, and
# nothing connects to an inet address
if command -v strace >/dev/null 2>&1 && strace -f -o /dev/null true 2>/dev/null; then
	run split strace -f -qq -e trace=socket,connect,sendto,sendmsg,sendmmsg -o "$T/strace"
	check "strace: the report was written" [ -s "$T/split.json" ]
	check "strace: netlink requests were sent" grep -q 'sa_family=AF_NETLINK' "$T/strace"
	check "strace: no inet socket" sh -c "! grep -E 'socket\\(AF_INET6?,' '$T/strace'"
	check "strace: no connect to an inet address" \
		sh -c "! grep -E 'connect\\(.*AF_INET' '$T/strace'"
	check "strace: every send goes to the kernel over netlink" \
		sh -c "! grep -E 'send(to|msg|mmsg)\\(' '$T/strace' | grep -v AF_NETLINK"
else
	skip "strace is not installed or cannot trace here: the no-packet check"
fi
finish
