/* probe_sandbox.c - is this really a sandbox?  (opt-in: --only=sandbox, or
 * preflight.yaml `sandbox:`)
 *
 * One check per item of what an agent's sandbox should close: the network,
 * the file system, the identity it runs as, the processes it can see, the
 * escape hatches (a container daemon's socket, sudo) and the secrets in its
 * home.  Each is judged against preflight.yaml's sandbox: expectations
 * (struct sandbox_spec), whose defaults are the strict sandbox; a key set
 * to `any` is reported and not judged.
 *
 * What it touches, and never more: files under proc_root() (status,
 * net/dev, net/route, net/ipv6_route, self/mountinfo, self/uid_map, the
 * ns links, 1/comm, the process directories' owners); /etc/resolv.conf,
 * /etc/passwd, /etc/group, /etc/sudoers and the files of /etc/sudoers.d
 * (only when readable); statvfs and access(2) on /, the repository, HOME and
 * /var/run; stat and access on the container sockets (never connected);
 * an AF_UNIX datagram socket to ask the kernel an interface's flags
 * (SIOCGIFFLAGS: no packet leaves it); a NETLINK_ROUTE socket to ask the
 * kernel the route to a few addresses (RTM_GETROUTE, os/rtroute.c: a
 * lookup, no packet leaves it); and in HOME and the passwd home
 * the credential files by name, those whose "token line" decides read
 * only to find that line, ~/.ssh's files only as far as a key's header
 * (credkind.h), /run/secrets by name, the environment's names; never
 * shown; faccessat(W_OK) on a few /proc/sys files, /sys/kernel/uevent_helper,
 * each cgroup v1 hierarchy's release_agent and the host's mount points,
 * <proc>/filesystems and uname(2) (sandbox_kernel.c: none opened for
 * writing); the sysctls of user namespaces.  Nothing is run, no packet
 * is sent; sandbox_seccomp.c forks a child (no exec, killed and reaped at
 * the deadline) to try a few refused calls under a seccomp filter, and one
 * to try making a user namespace.
 * The parsers are in sandbox.c; the escape hatches in sandbox_reach.c,
 * the secrets in sandbox_cred.c, the kernel's in sandbox_kernel.c, the
 * privileges (the capability sets, the host's root, fs.root's remount,
 * setns) in sandbox_priv.c.
 */
#include "probe_sandbox.h"
#include "procnet.h"
#include "rtroute.h"
#include "saferead.h"
#include "spawnrun.h"
#include "sandbox_privtext.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define SHOW_MAX 6		/* names in a message */

/* ---- the verdict, and what the checks share (probe_sandbox.h) ------ */

/* a lax key left out of preflight.yaml means any */
static int lax_default(const struct sandbox_expect *e, enum sandbox_key k)
{
	return e->want == SANDBOX_WANT_DEFAULT && !e->origin.file && sandbox_key_lax(k);
}

int sbx_judged(const struct sbx *x)
{
	if (x->e->want == SANDBOX_WANT_ANY || lax_default(x->e, x->it->key))
		return 0;
	if (x->it->key == SANDBOX_SECRETS && x->e->want == SANDBOX_WANT_LIST)
		return !(x->e->secrets & (1U << x->it->secret));
	return 1;
}

void sbx_verdict(const struct sbx *x, struct result *r, int ok, enum status sev,
		 enum reason why, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvformat(fmt, ap);
	va_end(ap);
	if (!ok && !sbx_judged(x)) {
		result_note(r, "not judged: sandbox.%s allows it",
			    sandbox_key_name(x->it->key));
		ok = 1;
	}
	result_set(r, ok ? STATUS_PASS : sev != STATUS_PASS ? sev : x->it->sev, "%s", msg);
	free(msg);
	if (ok)
		return;
	r->reason = why != REASON_NONE ? why : x->it->why;
	result_hint(r, "%s", x->it->hint);
	result_fix_edit(r, NULL, 0);
}

/* A check that could not look: an error naming what failed. */
void sbx_could_not(struct result *r, const char *what, int code)
{
	result_set(r, STATUS_ERROR, "cannot read %s: %s", what,
		   code ? saferead_strerror(code) : "it does not parse");
	r->reason = REASON_UNREADABLE;
	r->no_fix = NO_FIX_OUTSIDE;	/* what the sandbox lets us see */
}

/* Read <proc>/rel: 0, or -1 with r set to an error. */
static int read_proc(const struct sbx *x, const char *rel, size_t cap,
		     struct blob *b, struct result *r)
{
	char *path = path_join(x->proc, rel);
	int rc = saferead_path(path, cap, b);

	if (rc < 0)
		sbx_could_not(r, path, errno);
	free(path);
	return rc;
}

/* The identity of this process: 0, or -1 with r set to an error. */
int sbx_read_identity(const struct sbx *x, struct proc_identity *id,
			 struct result *r)
{
	struct blob b;
	const char *bad;
	char *path;
	int rc;

	if (read_proc(x, "self/status", SBX_PROC_CAP, &b, r) < 0) {
		memset(id, 0, sizeof(*id));
		return -1;
	}
	rc = sandbox_status_parse(b.data, b.len, id, &bad);
	blob_release(&b);
	if (rc == 0)
		return 0;
	path = path_join(x->proc, "self/status");
	result_set(r, STATUS_ERROR, "cannot read %s: its %s line does not parse", path, bad);
	r->reason = REASON_UNREADABLE;
	r->no_fix = NO_FIX_OUTSIDE;
	free(path);
	proc_identity_release(id);
	return -1;
}

/* A short list for a message: "a, b, c and 4 more". */
void sbx_list_text(struct buf *b, char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n && i < SHOW_MAX; i++)
		buf_printf(b, "%s%s", i ? ", " : "", names[i]);
	if (n > SHOW_MAX)
		buf_printf(b, " and %zu more", n - SHOW_MAX);
}

void sbx_names_add(struct names *s, const char *name)
{
	grow(&s->v, sizeof(*s->v), &s->cap, s->n + 1);
	s->v[s->n++] = xstrdup(name);
}

void sbx_names_release(struct names *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

cJSON *sbx_names_json(const struct names *s)
{
	cJSON *a = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < s->n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(s->v[i]));
	return a;
}

void sbx_add_nullable(cJSON *o, const char *key, const char *s)
{
	if (s)
		cJSON_AddStringToObject(o, key, s);
	else
		cJSON_AddNullToObject(o, key);
}

/* ---- network -------------------------------------------------------- */

static void name_collect(const char *name, void *arg)
{
	struct names *s = arg;

	if (s->n < SBX_LIST_MAX)
		sbx_names_add(s, name);
}

/* <proc>/net/NAME, or self/net/NAME where procfs hides net/ (subset=pid) */
static int read_net(const struct sbx *x, const char *name, struct blob *b,
		    struct result *r)
{
	struct buf rel = BUF_INIT;
	char *path;
	int rc, code;

	buf_printf(&rel, "net/%s", name);
	path = path_join(x->proc, buf_str(&rel));
	rc = saferead_path(path, SBX_PROC_CAP, b);
	code = errno;
	if (rc < 0 && code != ENOENT && r)
		sbx_could_not(r, path, code);
	free(path);
	buf_release(&rel);
	if (rc == 0 || code != ENOENT || !r)
		return rc;
	buf_printf(&rel, "self/net/%s", name);
	rc = read_proc(x, buf_str(&rel), SBX_PROC_CAP, b, r);
	buf_release(&rel);
	return rc;
}

/* IFF_* flags of an interface of our network namespace, as `ip link`
 * shows them (UP is IFF_UP), asked over an AF_UNIX socket: 0, or -1 when
 * the kernel does not know the name (a fixture's). */
static int if_flags(int fd, const char *name, unsigned *flags)
{
	struct ifreq ifr;
	size_t n = strlen(name);

	if (fd < 0 || n >= sizeof(ifr.ifr_name))
		return -1;
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, name, n);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		return -1;
	*flags = (unsigned short)ifr.ifr_flags;
	return 0;
}

static void net_interfaces(const struct sbx *x, struct result *r)
{
	struct names all = { 0 }, up = { 0 }, down = { 0 }, gone = { 0 };
	struct blob b;
	struct buf msg = BUF_INIT;
	int fd, lo_up = 0;
	size_t i;

	if (read_net(x, "dev", &b, r) < 0)
		return;
	sandbox_netdev_names(b.data, b.len, name_collect, &all);
	blob_release(&b);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	for (i = 0; i < all.n; i++) {
		unsigned flags;

		if (if_flags(fd, all.v[i], &flags) < 0)
			sbx_names_add(&gone, all.v[i]);
		else if (flags & IFF_LOOPBACK)
			lo_up |= (flags & IFF_UP) != 0;
		else
			sbx_names_add(flags & IFF_UP ? &up : &down, all.v[i]);
	}
	if (fd >= 0)
		close(fd);
	cJSON_AddItemToObject(r->data, "up", sbx_names_json(&up));
	cJSON_AddItemToObject(r->data, "down", sbx_names_json(&down));
	cJSON_AddItemToObject(r->data, "unknown", sbx_names_json(&gone));
	cJSON_AddBoolToObject(r->data, "loopback_up", lo_up);
	if (up.n) {
		sbx_list_text(&msg, up.v, up.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%s %s up", buf_str(&msg),
			up.n == 1 ? "is" : "are");
	} else if (sbx_netns_reach(x, r, &msg)) {
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no interface is up here but "
			"the loopback, but %s", buf_str(&msg));
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no interface is up but the "
			"loopback (lo %s)", lo_up ? "up" : "down");
	}
	if (gone.n)
		result_note(r, "%zu interface%s of %s/net/dev unknown to the kernel here",
			    gone.n, gone.n == 1 ? "" : "s", x->proc);
	buf_release(&msg);
	sbx_names_release(&all);
	sbx_names_release(&up);
	sbx_names_release(&down);
	sbx_names_release(&gone);
}

/* ---- routes: the kernel's answer for each destination ---------------
 *
 * A default route in the main table is not what decides whether a packet
 * leaves: split defaults (0/1 and 128/1, OpenVPN's def1 and wg-quick), a
 * default in a table an `ip rule` selects, a connected subnet.  So the
 * kernel is asked, per destination, what it would do, as `ip route get`
 * asks it (iproute2 ip/iproute.c iproute_get: RTM_GETROUTE with RTA_DST,
 * rtnetlink(7)): a lookup, no packet.  Where netlink cannot be asked (a
 * seccomp filter, a fixture ENVPREFLIGHT_PROC_ROOT, which stands for
 * another machine) the main table of /proc/net/route is read as before,
 * and data.source says so. */

#define ROUTE_TIMEOUT_MS 250	/* one answer; the kernel's is immediate */
#define TEST_NET4 "192.0.2.1"	/* RFC 5737 TEST-NET-1: routed only by a
				 * route that reaches everything */
#define TEST_NET6 "2001:db8::1"	/* RFC 3849 documentation prefix */
#define METADATA_ADDR "169.254.169.254"	/* EC2, GCE, Azure's instance
					 * metadata service */

struct dest {
	char addr[64];
	int routed;			/* 1 or 0 */
	const char *answer;		/* "unicast", "no route", ... */
	char ifname[IF_NAMESIZE];
	char gateway[INET6_ADDRSTRLEN];
};

/* errors of rtreply_parse's "no route", as the route types they are */
static const char *no_route_word(int e)
{
	switch (e) {
	case ENETUNREACH: return "no route";
	case EHOSTUNREACH: return "unreachable";
	case EACCES: return "prohibit";
	case EINVAL: return "blackhole";
	case EAGAIN: return "throw";
	default: return "error";
	}
}

static int netlink_allowed(const struct sbx *x)
{
	return !strcmp(x->proc, "/proc");
}

/* The kernel's route to text (an IPv4 or IPv6 address; a %scope is
 * dropped): 0 with d filled, or -1 when netlink did not answer (the
 * caller falls back).  Text that is no address is unrouted: glibc's
 * res_init skips a nameserver line inet_pton does not take. */
static int route_lookup(const struct sbx *x, const char *text, struct dest *d)
{
	unsigned char a[16];
	struct rtroute_answer ans;
	char bare[64];
	char *pct;
	int family = AF_INET;
	int timeout = ROUTE_TIMEOUT_MS;

	memset(d, 0, sizeof(*d));
	snprintf(d->addr, sizeof(d->addr), "%s", text);
	snprintf(bare, sizeof(bare), "%s", text);
	if ((pct = strchr(bare, '%')))
		*pct = '\0';
	if (inet_pton(AF_INET, bare, a) != 1) {
		family = AF_INET6;
		if (inet_pton(AF_INET6, bare, a) != 1) {
			d->answer = "not an address";
			return 0;
		}
	}
	if (!netlink_allowed(x)) {
		errno = 0;
		return -1;
	}
	if (x->deadline_ms > 0 && x->deadline_ms - clock_ms() < timeout)
		timeout = x->deadline_ms - clock_ms() > 0 ? (int)(x->deadline_ms - clock_ms()) : 0;
	if (rtroute_get(family, a, timeout, &ans) < 0) {
		/* IPv6 switched off (ipv6.disable=1): no IPv6 route at all */
		if (family == AF_INET6 && errno == EAFNOSUPPORT) {
			d->answer = "no route";
			return 0;
		}
		return -1;
	}
	d->routed = ans.r.routed;
	d->answer = ans.r.error ? no_route_word(ans.r.error) : rtreply_type_name(ans.r.type);
	snprintf(d->ifname, sizeof(d->ifname), "%s", ans.ifname);
	if (ans.r.gateway_len)
		inet_ntop(ans.r.gateway_len == 4 ? AF_INET : AF_INET6, ans.r.gateway,
			  d->gateway, sizeof(d->gateway));
	return 0;
}

static cJSON *dest_json(const struct dest *d)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "address", d->addr);
	cJSON_AddBoolToObject(o, "routed", d->routed);
	cJSON_AddStringToObject(o, "answer", d->answer);
	sbx_add_nullable(o, "interface", d->ifname[0] ? d->ifname : NULL);
	sbx_add_nullable(o, "gateway", d->gateway[0] ? d->gateway : NULL);
	return o;
}

/* "192.0.2.1 via eth0, gateway 192.0.2.254" */
static void dest_text(struct buf *b, const struct dest *d)
{
	buf_puts(b, d->addr);
	if (d->ifname[0])
		buf_printf(b, " via %s", d->ifname);
	if (d->gateway[0])
		buf_printf(b, ", gateway %s", d->gateway);
	if (!d->routed)
		buf_printf(b, " (%s)", d->answer);
}

static void route_collect(const char *iface, void *arg)
{
	struct names *s = arg;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->v[i], iface))
			return;
	if (s->n < SBX_LIST_MAX)
		sbx_names_add(s, iface);
}

/* The default routes of /proc/net/route (and ipv6_route when there is
 * one) into v4 and v6: 0, or -1 with r set (when r) when the IPv4 table
 * cannot be read. */
static int proc_defaults(const struct sbx *x, struct names *v4, struct names *v6,
			 struct result *r)
{
	struct blob b;

	if (read_net(x, "route", &b, r) < 0)
		return -1;
	sandbox_default_routes(b.data, b.len, 4, route_collect, v4);
	blob_release(&b);
	/* no ipv6_route: IPv6 is off, so there is no IPv6 route */
	if (read_net(x, "ipv6_route", &b, NULL) == 0) {
		sandbox_default_routes(b.data, b.len, 6, route_collect, v6);
		blob_release(&b);
	}
	return 0;
}

/* data.source "proc", and why the kernel was not asked: code is
 * route_lookup's errno, 0 for a fixture /proc */
static void proc_source(struct result *r, int code)
{
	cJSON_AddStringToObject(r->data, "source", "proc");
	result_note(r, "the kernel was not asked (%s): only the main table's default "
		    "routes of /proc/net/route were read", code ? strerror(code) :
		    "ENVPREFLIGHT_PROC_ROOT stands for another machine");
}

/* /proc/net/route's answer: a default route, or none */
static void net_route_proc(const struct sbx *x, struct result *r, int code)
{
	struct names v4 = { 0 }, v6 = { 0 };
	struct buf msg = BUF_INIT;

	if (proc_defaults(x, &v4, &v6, r) < 0)
		return;
	proc_source(r, code);
	cJSON_AddItemToObject(r->data, "ipv4", sbx_names_json(&v4));
	cJSON_AddItemToObject(r->data, "ipv6", sbx_names_json(&v6));
	cJSON_AddItemToObject(r->data, "routes", cJSON_CreateArray());
	if (v4.n) {
		buf_puts(&msg, "IPv4 via ");
		sbx_list_text(&msg, v4.v, v4.n);
	}
	if (v6.n) {
		buf_puts(&msg, v4.n ? "; IPv6 via " : "IPv6 via ");
		sbx_list_text(&msg, v6.v, v6.n);
	}
	if (v4.n || v6.n)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "a default route: %s", buf_str(&msg));
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no default route");
	buf_release(&msg);
	sbx_names_release(&v4);
	sbx_names_release(&v6);
}

/* A way out is a route to an address that stands for anywhere: the
 * documentation addresses, which no sandbox routes unless everything is
 * routed (a default, split defaults, a policy table's default). */
static void net_route(const struct sbx *x, struct result *r)
{
	static const char *const test_net[2] = { TEST_NET4, TEST_NET6 };
	struct dest d[2];
	struct names v4 = { 0 }, v6 = { 0 };
	struct buf msg = BUF_INIT;
	cJSON *a;
	size_t i;

	for (i = 0; i < 2; i++)
		if (route_lookup(x, test_net[i], &d[i]) < 0) {
			net_route_proc(x, r, errno);
			return;
		}
	cJSON_AddStringToObject(r->data, "source", "netlink");
	a = cJSON_AddArrayToObject(r->data, "routes");
	for (i = 0; i < 2; i++) {
		cJSON_AddItemToArray(a, dest_json(&d[i]));
		if (d[i].routed) {
			route_collect(d[i].ifname[0] ? d[i].ifname : "?", i ? &v6 : &v4);
			buf_puts(&msg, msg.len ? "; " : "");
			dest_text(&msg, &d[i]);
		}
	}
	cJSON_AddItemToObject(r->data, "ipv4", sbx_names_json(&v4));
	cJSON_AddItemToObject(r->data, "ipv6", sbx_names_json(&v6));
	if (msg.len)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "a route out: %s",
			    buf_str(&msg));
	else if (sbx_netns_reach(x, r, &msg))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no route out here, but %s",
			    buf_str(&msg));
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no route out (the kernel "
			    "routes neither %s nor %s: %s, %s)", TEST_NET4, TEST_NET6,
			    d[0].answer, d[1].answer);
	buf_release(&msg);
	sbx_names_release(&v4);
	sbx_names_release(&v6);
}

/* The number of default routes, IPv4 and IPv6, or -1 when the IPv4 table
 * cannot be read. */
static long default_routes(const struct sbx *x)
{
	struct names v4 = { 0 }, v6 = { 0 };
	long n;

	if (proc_defaults(x, &v4, &v6, NULL) < 0)
		return -1;
	n = (long)(v4.n + v6.n);
	sbx_names_release(&v4);
	sbx_names_release(&v6);
	return n;
}

/* 1 when the kernel routes a TEST-NET address, 0 when neither, -1 when
 * it cannot be asked. */
static int route_out(const struct sbx *x)
{
	struct dest d4, d6;

	if (route_lookup(x, TEST_NET4, &d4) < 0 || route_lookup(x, TEST_NET6, &d6) < 0)
		return -1;
	return d4.routed || d6.routed;
}

/* A name server at a local address (systemd-resolved's 127.0.0.53, a
 * dnsmasq) is a process of this network namespace, or nothing: it
 * forwards a question only by this namespace's routes, so it is a way out
 * only when there is a route out.  d is marked unrouted when there is
 * none; *out caches the answer (-2: not asked yet). */
static void local_server(const struct sbx *x, struct dest *d, int *out)
{
	if (!d->routed || strcmp(d->answer, "local"))
		return;
	if (*out == -2)
		*out = route_out(x);
	if (*out == 0) {
		d->routed = 0;
		d->answer = "local, no route out";
	}
}

/* Each name server by its own route: one on a connected subnet answers
 * without a default route, and one behind an unreachable route does not
 * with one.  Without netlink, a default route stands for all of them. */
static void dns_judge(const struct sbx *x, struct result *r, const struct names *ns)
{
	struct buf msg = BUF_INIT, reach = BUF_INIT;
	cJSON *a = cJSON_CreateArray();
	size_t i, n = 0;
	long routes = 0;
	int netlink = 1, code = 0, out = -2;
	struct dest d;

	for (i = 0; i < ns->n && netlink; i++) {
		if (route_lookup(x, ns->v[i], &d) < 0) {
			code = errno;
			netlink = 0;
			break;
		}
		local_server(x, &d, &out);
		cJSON_AddItemToArray(a, dest_json(&d));
		if (d.routed && n++ < SHOW_MAX) {
			buf_puts(&reach, reach.len ? "; " : "");
			dest_text(&reach, &d);
		}
	}
	if (!netlink) {
		cJSON_Delete(a);
		a = cJSON_CreateArray();
		routes = default_routes(x);
		proc_source(r, code);
	} else {
		cJSON_AddStringToObject(r->data, "source", "netlink");
	}
	cJSON_AddItemToObject(r->data, "servers", a);
	cJSON_AddBoolToObject(r->data, "reachable", netlink ? n > 0 : routes != 0);
	sbx_list_text(&msg, ns->v, ns->n);
	if (netlink && n)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "/etc/resolv.conf names %s, "
			    "reachable: %s", buf_str(&msg), buf_str(&reach));
	else if (netlink)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/etc/resolv.conf names %s, "
			    "unreachable: the kernel routes none of them", buf_str(&msg));
	else if (!routes)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/etc/resolv.conf names %s, "
			    "unreachable: no default route", buf_str(&msg));
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "/etc/resolv.conf names %s%s",
			    buf_str(&msg), routes < 0 ? "" : ", reachable by the default route");
	buf_release(&msg);
	buf_release(&reach);
}

static void net_dns(const struct sbx *x, struct result *r)
{
	struct names ns = { 0 };
	struct blob b;

	cJSON_AddStringToObject(r->data, "file", "/etc/resolv.conf");
	if (saferead_path("/etc/resolv.conf", SBX_PROC_CAP, &b) < 0) {
		int code = errno;

		cJSON_AddItemToObject(r->data, "nameservers", cJSON_CreateArray());
		cJSON_AddNullToObject(r->data, "reachable");
		if (code == ENOENT || code == ENOTDIR)
			sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no /etc/resolv.conf");
		else
			sbx_could_not(r, "/etc/resolv.conf", code);
		return;
	}
	sandbox_resolv_nameservers(b.data, b.len, name_collect, &ns);
	blob_release(&b);
	cJSON_AddItemToObject(r->data, "nameservers", sbx_names_json(&ns));
	if (!ns.n) {
		cJSON_AddNullToObject(r->data, "reachable");
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/etc/resolv.conf names no "
			    "name server");
	} else {
		dns_judge(x, r, &ns);
	}
	sbx_names_release(&ns);
}

/* The instance metadata service answers credentials of the machine's
 * role to whoever reaches it (AWS IMDS, GCE and Azure alike, at
 * 169.254.169.254): a route to it is its own hole, even in a sandbox
 * whose other routes are closed. */
static void net_metadata(const struct sbx *x, struct result *r)
{
	struct dest d;
	struct buf msg = BUF_INIT;
	struct names v4 = { 0 }, v6 = { 0 };
	int code;

	cJSON_AddStringToObject(r->data, "address", METADATA_ADDR);
	if (route_lookup(x, METADATA_ADDR, &d) == 0) {
		cJSON_AddStringToObject(r->data, "source", "netlink");
		cJSON_AddItemToObject(r->data, "route", dest_json(&d));
		cJSON_AddBoolToObject(r->data, "routed", d.routed);
		dest_text(&msg, &d);
		sbx_verdict(x, r, !d.routed, STATUS_PASS, REASON_NONE, "%s %s", d.routed ?
			    "the metadata address is routed:" : "the metadata address is not "
			    "routed:", buf_str(&msg));
		buf_release(&msg);
		return;
	}
	code = errno;
	if (proc_defaults(x, &v4, &v6, r) < 0)
		return;
	proc_source(r, code);
	cJSON_AddNullToObject(r->data, "route");
	cJSON_AddBoolToObject(r->data, "routed", v4.n > 0);
	sbx_verdict(x, r, v4.n == 0, STATUS_PASS, REASON_NONE, v4.n ? "the metadata "
		    "address %s is routed by the default route" : "no default route to the "
		    "metadata address %s", METADATA_ADDR);
	sbx_names_release(&v4);
	sbx_names_release(&v6);
}

/* ---- file system ---------------------------------------------------- */

static int mounted_read_only(const char *path)
{
	struct statvfs sv;

	return statvfs(path, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

int sbx_can_write(const char *path)
{
	return faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0;
}

static void fs_repository(const struct sbx *x, struct result *r)
{
	const char *root = x->spec->root;
	int w = sbx_can_write(root), ro = mounted_read_only(root);
	int want_ro = x->e->want == SANDBOX_WANT_READ_ONLY;

	cJSON_AddStringToObject(r->data, "path", root);
	cJSON_AddBoolToObject(r->data, "writable", w);
	cJSON_AddBoolToObject(r->data, "read_only_mount", ro);
	if (want_ro)
		sbx_verdict(x, r, !w, STATUS_FAIL, REASON_WRITABLE, "the repository is %s",
			w ? "writable" : ro ? "on a read-only mount" : "not writable");
	else
		sbx_verdict(x, r, w, STATUS_PASS, REASON_NONE, "the repository is %s",
			w ? "writable" : ro ? "on a read-only mount" : "not writable");
	if (want_ro && w)
		result_hint(r, "mount the repository read-only (-v SRC:DST:ro)");
}

static void fs_home(const struct sbx *x, struct result *r)
{
	const char *home = getenv("HOME");
	struct stat st;
	int dir = 0, w = 0;

	sbx_add_nullable(r->data, "home", home && *home ? home : NULL);
	if (home && *home && home[0] == '/' && stat(home, &st) == 0) {
		dir = S_ISDIR(st.st_mode);
		w = dir && sbx_can_write(home);
	}
	cJSON_AddBoolToObject(r->data, "directory", dir);
	cJSON_AddBoolToObject(r->data, "writable", w);
	if (!home || !*home)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "HOME is not set");
	else if (home[0] != '/')
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "HOME (%s) is not an absolute path",
			home);
	else if (!dir)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "HOME (%s) is not a directory", home);
	else
		sbx_verdict(x, r, w, STATUS_PASS, REASON_NONE, "HOME (%s) is %s", home,
			w ? "writable" : "not writable");
}

/* ---- identity ------------------------------------------------------- */

int sbx_ns_ino(const struct sbx *x, const char *rel, const char *type, unsigned long *ino)
{
	char *path = path_join(x->proc, rel), link[64];
	ssize_t n = readlink(path, link, sizeof(link) - 1);

	free(path);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	return sandbox_ns_inode(link, type, ino);
}

/* The user namespace: 1 a child namespace, 0 the initial one, -1 unknown. */
int sbx_in_user_namespace(const struct sbx *x)
{
	unsigned long ino;

	if (sbx_ns_ino(x, "self/ns/user", "user", &ino) < 0)
		return -1;
	return ino != SANDBOX_USER_INIT_INO;
}

int sbx_etc_read(const char *path, struct blob *b)
{
	if (saferead_path(path, SBX_ETC_CAP, b) == 0)
		return 0;
	b->data = NULL;
	b->len = 0;
	return -1;
}

static void id_user(const struct sbx *x, struct result *r)
{
	struct proc_identity id;
	struct blob pw, map;
	char name[64] = "", *path;
	unsigned long outside = 0;
	int whole = 0, mapped = -1, userns = sbx_in_user_namespace(x);
	long euid;

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	euid = id.uid[1];
	if (sbx_etc_read("/etc/passwd", &pw) == 0) {
		sandbox_passwd_find(pw.data, pw.len, (unsigned long)euid, name, sizeof(name),
				    NULL, 0);
		blob_release(&pw);
	}
	path = path_join(x->proc, "self/uid_map");
	if (saferead_path(path, SBX_PROC_CAP, &map) == 0) {
		mapped = sandbox_id_map(map.data, map.len, (unsigned long)euid, &outside,
					&whole) == 0;
		blob_release(&map);
	}
	free(path);
	cJSON_AddNumberToObject(r->data, "uid", (double)id.uid[0]);
	cJSON_AddNumberToObject(r->data, "euid", (double)euid);
	sbx_add_nullable(r->data, "user", *name ? name : NULL);
	if (userns < 0)
		cJSON_AddNullToObject(r->data, "user_namespace");
	else
		cJSON_AddBoolToObject(r->data, "user_namespace", userns);
	if (mapped == 1 && !whole)
		cJSON_AddNumberToObject(r->data, "uid_outside", (double)outside);
	else
		cJSON_AddNullToObject(r->data, "uid_outside");
	if (euid != 0)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "uid %ld%s%s%s", euid,
			*name ? " (" : "", name, *name ? ")" : "");
	else if (userns == 1 && mapped == 1 && !whole)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "root (uid 0) in a user namespace, "
			"uid %lu outside", outside);
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "root (uid 0)%s",
			userns == 0 ? ", in the initial user namespace: the host's root" : "");
	proc_identity_release(&id);
}

/* /proc/sys/kernel/overflow<which> ("uid", "gid"), else the kernel's
 * default 65534.  Read with one read(2): an integer sysctl answers only a
 * read at offset 0 (kernel/sysctl.c, proc_dointvec: a partial read ends
 * the file), so saferead's small first read would leave one digit. */
unsigned long sbx_overflow_id(const struct sbx *x, const char *which)
{
	char name[32], *path, tmp[32], *end;
	unsigned long v = 65534, got;
	ssize_t n = -1;
	int fd;

	snprintf(name, sizeof(name), "sys/kernel/overflow%s", which);
	path = path_join(x->proc, name);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	free(path);
	if (fd >= 0) {
		n = read(fd, tmp, sizeof(tmp) - 1);
		close(fd);
	}
	if (n <= 0)
		return v;
	tmp[n] = '\0';
	got = strtoul(tmp, &end, 10);
	if (end != tmp && (*end == '\n' || !*end))
		v = got;
	return v;
}

/*
 * Which gid here is the host's gid 0 (kgid 0), in a user namespace on the
 * live system: the group of /proc/sys/kernel, which the kernel gives
 * GLOBAL_ROOT_GID (fs/proc/proc_sysctl.c proc_sys_make_inode), shown by
 * stat(2) as its gid here or as overflowgid when unmapped (fs/stat.c
 * cp_new_stat, from_kgid_munged).  That sees through nested namespaces,
 * where gid_map names only the parent's gids: bwrap started by nobody
 * reads "65534 0 1" there, the 0 its outer namespace's (the host's
 * 65534).  When the map gives overflowgid inside, it is either; no sysctl
 * has group bits that differ from the others' to ask the kernel with
 * (proc_sysctl.c test_perm's in_egroup_p(GLOBAL_ROOT_GID)), and the
 * parent namespace cannot be looked at (NS_GET_PARENT on one's own user
 * namespace is EPERM, ioctl_ns(2)): bwrap started with gid 0 and --gid
 * 65534 shows the very same maps and owner while its 65534 is the host's
 * 0.  Returns sandbox_host_id0's answer, or -2 when not asked (no user
 * namespace, a fixture, no /proc/sys/kernel).
 */
static int host_gid0(const struct sbx *x, int userns, const struct blob *map,
		     unsigned long *inside)
{
	struct sandbox_id0 e;
	struct stat st;
	char *path;
	int rc;

	if (userns != 1 || strcmp(x->proc, "/proc") != 0 || !map)
		return -2;
	path = path_join(x->proc, "sys/kernel");
	rc = stat(path, &st);
	free(path);
	if (rc != 0)
		return -2;
	e.shown = st.st_gid;
	e.overflow = sbx_overflow_id(x, "gid");
	e.overflow_mapped = 0;
	if (e.shown == e.overflow) {
		unsigned long out;
		int whole;

		e.overflow_mapped = sandbox_id_map_inside(map->data, map->len, 0, &out) < 0 ? -1 :
			sandbox_id_map(map->data, map->len, e.overflow, &out, &whole) == 0;
	}
	e.asked = -1;
	return sandbox_host_id0(&e, inside);
}

/* Whether gid is a privileged group: 1, 0, or -1 (it may be the host's
 * gid 0: cannot tell).  Inside a user namespace that maps it to another
 * gid outside (map: its gid_map), the name of this /etc/group says
 * nothing of what it grants: the kernel checks the host's gid, so only
 * the host's gid 0 counts (hg, host_gid0's answer, h0 its gid here; gid 0
 * of a namespace that unshare --map-root-user made is the user's own
 * group).  Where the host's gid 0 was not asked (a fixture), the map
 * decides, taking the parent for the initial namespace. */
static int group_privileged(const char *name, unsigned long gid, const struct blob *map,
			    int hg, unsigned long h0)
{
	unsigned long outside;
	int whole = 0, host = hg == -2 ? -2 : hg == 0 ? 0 : gid != h0 ? 0 : hg;

	if (map && sandbox_id_map(map->data, map->len, gid, &outside, &whole) == 0 &&
	    !whole && outside != gid)
		return host != -2 ? host : outside == 0;
	if (host == 1 || (host == -1 && !sandbox_group_privileged(name, gid)))
		return host;
	return sandbox_group_privileged(name, gid);
}

static void id_groups(const struct sbx *x, struct result *r)
{
	struct proc_identity id;
	struct blob gr, gmap;
	struct names priv = { 0 }, undecided = { 0 };
	struct buf msg = BUF_INIT;
	cJSON *list;
	size_t i, unmapped = 0;
	unsigned long overflow = 65534, h0 = 0;
	int userns, hg, pr;

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	userns = sbx_in_user_namespace(x);
	gmap.data = NULL;
	if (userns == 1) {
		char *path = path_join(x->proc, "self/gid_map");

		overflow = sbx_overflow_id(x, "gid");
		if (saferead_path(path, SBX_PROC_CAP, &gmap) < 0)
			gmap.data = NULL;
		free(path);
	}
	hg = host_gid0(x, userns, gmap.data ? &gmap : NULL, &h0);
	if (sbx_etc_read("/etc/group", &gr) < 0)
		gr.data = NULL;
	cJSON_AddNumberToObject(r->data, "gid", (double)id.gid[1]);
	/* null: not asked (-2) or cannot tell (-1) */
	if (hg >= 0)
		cJSON_AddBoolToObject(r->data, "host_root_gid_mapped", hg);
	else
		cJSON_AddNullToObject(r->data, "host_root_gid_mapped");
	if (hg == 1)
		cJSON_AddNumberToObject(r->data, "host_root_gid", (double)h0);
	else
		cJSON_AddNullToObject(r->data, "host_root_gid");
	list = cJSON_AddArrayToObject(r->data, "groups");
	for (i = 0; i <= id.ngroups; i++) {
		/* the effective gid first, then the supplementary groups */
		unsigned long gid = i ? id.groups[i - 1] : (unsigned long)id.gid[1];
		char name[64] = "";
		cJSON *g;

		if (gr.data)
			sandbox_group_name(gr.data, gr.len, gid, name, sizeof(name));
		if (i && gid == (unsigned long)id.gid[1])
			continue;
		/* a group the user namespace does not map reads as the
		 * overflow gid (user_namespaces(7), "Unmapped user and group
		 * IDs"); the kernel still checks the real one */
		if (i && userns == 1 && gid == overflow)
			unmapped++;
		pr = group_privileged(*name ? name : NULL, gid, gmap.data ? &gmap : NULL, hg, h0);
		if (pr != 0 && (pr > 0 ? priv.n : undecided.n) < SBX_LIST_MAX) {
			struct buf b = BUF_INIT;

			if (*name)
				buf_puts(&b, name);
			else
				buf_printf(&b, "gid %lu", gid);
			sbx_names_add(pr > 0 ? &priv : &undecided, buf_str(&b));
			buf_release(&b);
		}
		if (cJSON_GetArraySize(list) >= 256)
			continue;	/* the kernel allows 65536; JSON lists 256 */
		g = cJSON_CreateObject();
		cJSON_AddNumberToObject(g, "gid", (double)gid);
		sbx_add_nullable(g, "name", *name ? name : NULL);
		cJSON_AddItemToArray(list, g);
	}
	if (gr.data)
		blob_release(&gr);
	if (gmap.data)
		blob_release(&gmap);
	cJSON_AddItemToObject(r->data, "privileged", sbx_names_json(&priv));
	cJSON_AddItemToObject(r->data, "undecided", sbx_names_json(&undecided));
	cJSON_AddNumberToObject(r->data, "unmapped", (double)unmapped);
	sbx_list_text(&msg, priv.v, priv.n);
	if (priv.n) {
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "member of %s", buf_str(&msg));
	} else if (undecided.n) {
		struct buf names = BUF_INIT;

		sbx_list_text(&names, undecided.v, undecided.n);
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell whether %s "
			    "(gid %lu here) is the host's gid 0: /proc/sys/kernel's group shows "
			    "as it, which is also how the kernel shows an unmapped one, and "
			    "nothing here tells the two apart (nested user namespaces)",
			    buf_str(&names), h0);
		buf_release(&names);
	}
	else if (unmapped)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%zu supplementary group%s "
			"not mapped into this user namespace (shown as gid %lu): which cannot be "
			"seen, and each still grants outside what it grants (a docker group, its "
			"socket)", unmapped, unmapped == 1 ? " is" : "s are", overflow);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%zu group%s, none privileged",
			id.ngroups + 1, id.ngroups ? "s" : "");
	buf_release(&msg);
	sbx_names_release(&priv);
	sbx_names_release(&undecided);
	proc_identity_release(&id);
}

static void id_no_new_privs(const struct sbx *x, struct result *r)
{
	struct proc_identity id;

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	if (id.no_new_privs < 0)
		cJSON_AddNullToObject(r->data, "no_new_privs");
	else
		cJSON_AddBoolToObject(r->data, "no_new_privs", id.no_new_privs);
	if (id.no_new_privs < 0)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "the kernel does not say "
			"(no NoNewPrivs line: before Linux 4.10)");
	else if (id.no_new_privs)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no_new_privs is set: setuid "
			"programs cannot raise privileges");
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no_new_privs is not set: a "
			"setuid program (sudo, su) can raise privileges");
	proc_identity_release(&id);
}

/* ---- processes ------------------------------------------------------ */

/* PID 1's command (cleaned, at most 15 bytes), or "" */
static void pid1_comm(const struct sbx *x, char *comm, size_t size)
{
	struct blob b;
	char *path = path_join(x->proc, "1/comm");

	comm[0] = '\0';
	if (saferead_path(path, 4096, &b) == 0) {
		size_t n = strcspn(b.data, "\n");
		char *c;

		b.data[n] = '\0';
		c = text_clean(b.data);
		snprintf(comm, size, "%s", c);
		free(c);
		blob_release(&b);
	}
	free(path);
}

/* 1 when the proc file system is another PID namespace's: its "self"
 * names another pid than ours (a namespace entered without mounting its
 * own /proc); 0 when it is ours; -1 when it cannot tell (a fixture). */
static int proc_foreign(const struct sbx *x)
{
	char *path = path_join(x->proc, "self"), link[32];
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	long pid;

	free(path);
	if (n <= 0)
		return -1;
	link[n] = '\0';
	if (parse_long(link, 1, 4194304, &pid) < 0)
		return -1;
	return pid != (long)getpid();
}

static void proc_pid_namespace(const struct sbx *x, struct result *r)
{
	unsigned long self, one;
	int have_self = sbx_ns_ino(x, "self/ns/pid", "pid", &self) == 0;
	int have_one = sbx_ns_ino(x, "1/ns/pid", "pid", &one) == 0;
	int foreign = proc_foreign(x);
	char comm[64];

	pid1_comm(x, comm, sizeof(comm));
	if (have_self)
		cJSON_AddNumberToObject(r->data, "namespace", (double)self);
	else
		cJSON_AddNullToObject(r->data, "namespace");
	if (have_self)
		cJSON_AddBoolToObject(r->data, "host", self == SANDBOX_PID_INIT_INO);
	else
		cJSON_AddNullToObject(r->data, "host");
	sbx_add_nullable(r->data, "pid1", *comm ? comm : NULL);
	if (foreign == 1)
		have_one = 0;	/* PID 1 of the parent's namespace, not ours */
	if (foreign == 1 || (have_self && have_one))
		cJSON_AddBoolToObject(r->data, "pid1_in_namespace", foreign != 1 && self == one);
	else
		cJSON_AddNullToObject(r->data, "pid1_in_namespace");
	if (!have_self)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot read %s/self/ns/pid "
			"(PID 1 is %s)", x->proc, *comm ? comm : "not visible");
	else if (self == SANDBOX_PID_INIT_INO)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "the host's PID namespace (PID 1 "
			"is %s)", *comm ? comm : "not visible");
	else if (foreign == 1 || (have_one && self != one))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "a private PID namespace, but %s "
			"is the parent's: PID 1 (%s) is outside it", x->proc,
			*comm ? comm : "?");
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "a private PID namespace (PID 1 "
			"is %s)", *comm ? comm : "not visible");
}

static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* The processes in view under <proc>, and how many are other users':
 * 0, or -1 with errno set when it cannot be listed.  The children this
 * run started (the seccomp, user namespace and Landlock tries of the
 * checks beside this one) are not counted: they are envpreflight's own,
 * and come and go while it looks. */
static int proc_visible(const struct sbx *x, size_t *seen, size_t *others)
{
	DIR *d = opendir(x->proc);
	struct dirent *de;
	uid_t me = geteuid();

	*seen = *others = 0;
	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL && *seen < 10000000) {
		struct stat st;

		if (!all_digits(de->d_name))
			continue;
		/* a process that exits meanwhile is not counted */
		if (fstatat(dirfd(d), de->d_name, &st, 0) < 0)
			continue;
		if (st.st_uid == me && spawn_is_ours((pid_t)strtol(de->d_name, NULL, 10)))
			continue;
		(*seen)++;
		*others += st.st_uid != me;
	}
	closedir(d);
	return 0;
}

static void proc_count(const struct sbx *x, struct result *r)
{
	size_t seen, others;
	struct buf msg = BUF_INIT;
	long max = x->e->want == SANDBOX_WANT_MAX ? x->e->max : SANDBOX_PROCESSES_DEFAULT;

	if (proc_visible(x, &seen, &others) < 0) {
		sbx_could_not(r, x->proc, errno);
		return;
	}
	cJSON_AddNumberToObject(r->data, "visible", (double)seen);
	cJSON_AddNumberToObject(r->data, "other_users", (double)others);
	if (x->e->want == SANDBOX_WANT_ANY)
		cJSON_AddNullToObject(r->data, "max");
	else
		cJSON_AddNumberToObject(r->data, "max", (double)max);
	if (others)
		buf_printf(&msg, ", %zu of other users", others);
	if (x->e->want != SANDBOX_WANT_ANY)
		buf_printf(&msg, " (at most %ld expected)", max);
	sbx_verdict(x, r, seen <= (size_t)max, STATUS_PASS, REASON_NONE,
		"%zu process%s in view%s", seen, seen == 1 ? "" : "es", buf_str(&msg));
	buf_release(&msg);
}

static const char *hidepid_word(enum sandbox_hidepid h)
{
	switch (h) {
	case HIDEPID_NOACCESS:
		return "noaccess";
	case HIDEPID_INVISIBLE:
		return "invisible";
	case HIDEPID_PTRACEABLE:
		return "ptraceable";
	case HIDEPID_OFF:
		break;
	}
	return "off";
}

static void proc_hidepid(const struct sbx *x, struct result *r)
{
	struct blob b;
	struct proc_mount m;
	unsigned long self;
	size_t seen = 0, others = 0;
	int priv = -1;

	if (sbx_ns_ino(x, "self/ns/pid", "pid", &self) == 0)
		priv = self != SANDBOX_PID_INIT_INO && proc_foreign(x) != 1;
	if (read_proc(x, "self/mountinfo", SBX_MOUNTINFO_CAP, &b, r) < 0)
		return;
	if (sandbox_mountinfo_proc(b.data, b.len, "/proc", &m) < 0) {
		char *path = path_join(x->proc, "self/mountinfo");

		blob_release(&b);
		sbx_could_not(r, path, 0);
		free(path);
		return;
	}
	blob_release(&b);
	if (m.found && m.hidepid != HIDEPID_OFF && proc_visible(x, &seen, &others) < 0)
		others = 0;
	sbx_add_nullable(r->data, "hidepid", m.found ? hidepid_word(m.hidepid) : NULL);
	cJSON_AddNumberToObject(r->data, "other_users_visible", (double)others);
	cJSON_AddBoolToObject(r->data, "subset_pid", m.subset_pid);
	if (priv < 0)
		cJSON_AddNullToObject(r->data, "private_pid_namespace");
	else
		cJSON_AddBoolToObject(r->data, "private_pid_namespace", priv);
	if (!m.found)
		sbx_verdict(x, r, priv == 1, STATUS_WARN, REASON_UNDECIDED, "no proc file system "
			"is mounted on /proc");
	else if (m.hidepid != HIDEPID_OFF && others)
		/* hidepid hides nothing from a process the kernel exempts
		 * (fs/proc/base.c has_pid_permissions: a member of the mount's
		 * gid= group, or one that may ptrace the task: root, or
		 * CAP_SYS_PTRACE): what is in view decides, not the option */
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "/proc is mounted with "
			"hidepid=%s, but %zu processes of other users are in view (this process "
			"is exempt: root, CAP_SYS_PTRACE or the mount's gid= group)",
			hidepid_word(m.hidepid), others);
	else if (m.hidepid != HIDEPID_OFF)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/proc hides other users' "
			"processes (hidepid=%s)", hidepid_word(m.hidepid));
	else if (priv == 1)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "hidepid=off, not needed: a "
			"private PID namespace");
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "/proc shows other users' "
			"processes (hidepid=off)");
}

int sbx_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* ---- the items, in report order ------------------------------------- */


#define NET_HINT "start the sandbox without a network: --network none " \
	"(docker, podman), or unshare --net"

static const struct sbx_item items[] = {
	{ "network.interfaces", "Sandbox: network interfaces", SANDBOX_NETWORK,
	  STATUS_FAIL, REASON_EXPOSED, "--network none", NET_HINT, net_interfaces, 0 },
	{ "network.route", "Sandbox: route out", SANDBOX_NETWORK,
	  STATUS_FAIL, REASON_EXPOSED, "--network none", NET_HINT, net_route, 0 },
	{ "network.dns", "Sandbox: DNS servers", SANDBOX_NETWORK,
	  STATUS_WARN, REASON_EXPOSED, "--network none", "--network none leaves them "
	  "unreachable; to name none, mount an empty resolv.conf "
	  "(-v /dev/null:/etc/resolv.conf:ro)",
	  net_dns, 0 },
	{ "network.metadata", "Sandbox: cloud metadata address", SANDBOX_METADATA,
	  STATUS_FAIL, REASON_EXPOSED, "--network none", "start the sandbox without a "
	  "network (--network none), or close the address in its namespace: ip route add "
	  "blackhole 169.254.169.254/32 (or a DROP in the host's DOCKER-USER chain; on EC2, "
	  "IMDSv2 with a hop limit of 1)", net_metadata, 0 },
	{ "fs.root", "Sandbox: root file system", SANDBOX_ROOT,
	  STATUS_WARN, REASON_WRITABLE, "--read-only", "mount / read-only: --read-only "
	  "(with --tmpfs /tmp for scratch space)", sbx_fs_root, 0 },
	{ "fs.repository", "Sandbox: repository", SANDBOX_REPOSITORY,
	  STATUS_WARN, REASON_NOT_WRITABLE, NULL, "mount the repository read-write "
	  "(-v SRC:DST:rw) as the user the agent runs as", fs_repository, 0 },
	{ "fs.home", "Sandbox: HOME", SANDBOX_HOME,
	  STATUS_WARN, REASON_NOT_WRITABLE, NULL, "give the sandbox a writable HOME of its "
	  "own: -e HOME=/home/agent with a volume or --tmpfs there", fs_home, 0 },
	{ "identity.user", "Sandbox: user", SANDBOX_USER,
	  STATUS_WARN, REASON_PRIVILEGED, "--user UID:GID", "run as an unprivileged user: "
	  "--user UID:GID (or a user namespace: --userns-remap, podman --userns)",
	  id_user, 0 },
	{ "identity.groups", "Sandbox: groups", SANDBOX_GROUPS,
	  STATUS_WARN, REASON_PRIVILEGED, NULL, "run as a user outside the root, sudo, "
	  "wheel, docker and disk groups (--user UID:GID, no --group-add)", id_groups, 0 },
	{ "identity.no_new_privs", "Sandbox: no_new_privs", SANDBOX_NO_NEW_PRIVS,
	  STATUS_FAIL, REASON_PRIVILEGED, "--security-opt no-new-privileges",
	  "--security-opt no-new-privileges (setpriv --no-new-privs)", id_no_new_privs, 0 },
	{ "identity.capabilities", "Sandbox: capabilities", SANDBOX_CAPABILITIES,
	  STATUS_FAIL, REASON_PRIVILEGED, "--cap-drop ALL", "--cap-drop ALL, then "
	  "--cap-add only what sandbox.capabilities allows", sbx_id_capabilities, 0 },
	{ "identity.seccomp", "Sandbox: seccomp", SANDBOX_SECCOMP,
	  STATUS_WARN, REASON_EXPOSED, NULL, "keep the runtime's default seccomp "
	  "profile: no --security-opt seccomp=unconfined, no --privileged", sbx_id_seccomp, 0 },
	{ "processes.pid_namespace", "Sandbox: PID namespace", SANDBOX_PID_NAMESPACE,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not share the host's PID namespace (no "
	  "--pid host); unshare --pid --fork --mount-proc", proc_pid_namespace, 0 },
	{ "processes.visible", "Sandbox: visible processes", SANDBOX_PROCESSES,
	  STATUS_WARN, REASON_EXPOSED, NULL, "a private PID namespace shows only the "
	  "sandbox's own processes (no --pid host)", proc_count, 0 },
	{ "processes.hidepid", "Sandbox: hidepid", SANDBOX_HIDEPID,
	  STATUS_WARN, REASON_EXPOSED, NULL, "mount /proc with hidepid=invisible, or use "
	  "a private PID namespace (no --pid host)", proc_hidepid, 0 },
	{ "escape.docker_socket", "Sandbox: container sockets", SANDBOX_DOCKER,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount a container daemon's socket "
	  "into the sandbox (no -v /var/run/docker.sock:...), nor a HOME or /run that holds "
	  "one; a stale socket file can be removed", sbx_escape_docker_socket, 0 },
	{ "escape.docker_host", "Sandbox: DOCKER_HOST", SANDBOX_DOCKER,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not pass DOCKER_HOST or CONTAINER_HOST "
	  "into the sandbox (-e)", sbx_escape_docker_host, 0 },
	{ "escape.sudo", "Sandbox: sudo", SANDBOX_SUDO,
	  STATUS_FAIL, REASON_EXPOSED, "--security-opt no-new-privileges",
	  "--security-opt no-new-privileges makes setuid sudo powerless; or remove the "
	  "rule", sbx_escape_sudo, 0 },
	{ "escape.var_run", "Sandbox: /var/run", SANDBOX_VAR_RUN,
	  STATUS_WARN, REASON_WRITABLE, "--read-only", "--read-only, or mount /var/run "
	  "read-only", sbx_escape_var_run, 0 },
	{ "secrets.ssh", "Sandbox: ~/.ssh", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.ssh or forward the agent "
	  "(SSH_AUTH_SOCK) into the sandbox; give it a HOME of its own", sbx_secret_check,
	  SECRET_SSH },
	{ "secrets.aws", "Sandbox: ~/.aws", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.aws into the sandbox; give "
	  "it a HOME of its own", sbx_secret_check, SECRET_AWS },
	{ "secrets.gcloud", "Sandbox: ~/.config/gcloud", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.config/gcloud into the "
	  "sandbox; give it a HOME of its own", sbx_secret_check, SECRET_GCLOUD },
	{ "secrets.docker", "Sandbox: ~/.docker/config.json", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.docker into the sandbox; "
	  "give it a HOME of its own", sbx_secret_check, SECRET_DOCKER },
	{ "secrets.npmrc", "Sandbox: ~/.npmrc", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.npmrc or pass its token "
	  "variable into the sandbox; give it a HOME of its own", sbx_secret_check,
	  SECRET_NPMRC },
	{ "secrets.netrc", "Sandbox: ~/.netrc", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.netrc into the sandbox; "
	  "give it a HOME of its own", sbx_secret_check, SECRET_NETRC },
	{ "secrets.git", "Sandbox: ~/.git-credentials", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.git-credentials or "
	  "~/.config/git into the sandbox; give it a HOME of its own", sbx_secret_check,
	  SECRET_GIT },
	{ "secrets.gh", "Sandbox: gh hosts.yml", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.config/gh into the sandbox "
	  "(gh auth login keeps the token in the keyring, not in hosts.yml); give it a "
	  "HOME of its own", sbx_secret_check, SECRET_GH },
	{ "secrets.kube", "Sandbox: kubeconfig", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.kube or pass KUBECONFIG "
	  "into the sandbox; give it a HOME of its own", sbx_secret_check, SECRET_KUBE },
	{ "secrets.pypirc", "Sandbox: ~/.pypirc", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount ~/.pypirc into the sandbox; "
	  "give it a HOME of its own", sbx_secret_check, SECRET_PYPIRC },
	{ "secrets.environment", "Sandbox: token variables", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not pass token, secret or password "
	  "variables into the sandbox (no -e NAME, no --env-file holding them; env -u "
	  "NAME)", sbx_secret_check, SECRET_ENVIRONMENT },
	{ "secrets.mounted", "Sandbox: mounted secrets", SANDBOX_SECRETS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount secrets into the sandbox (no "
	  "--secret, no -v ...:/run/secrets; Kubernetes: automountServiceAccountToken: "
	  "false)", sbx_secret_check, SECRET_MOUNTED },
	{ "escape.proc_sys", "Sandbox: /proc/sys", SANDBOX_KERNEL,
	  STATUS_FAIL, REASON_WRITABLE, NULL, "no --privileged, no --security-opt "
	  "systempaths=unconfined: the runtime then mounts /proc/sys read-only (bwrap "
	  "--proc does too); with it, --cap-drop ALL", sbx_escape_proc_sys, 0 },
	{ "escape.core_pattern", "Sandbox: core_pattern", SANDBOX_KERNEL,
	  STATUS_FAIL, REASON_WRITABLE, NULL, "no --privileged, no --security-opt "
	  "systempaths=unconfined (/proc/sys read-only), and an unprivileged user "
	  "(--user UID:GID)", sbx_escape_core_pattern, 0 },
	{ "escape.release_agent", "Sandbox: cgroup release_agent", SANDBOX_KERNEL,
	  STATUS_FAIL, REASON_EXPOSED, "--cap-drop ALL", "--cap-drop ALL (no "
	  "--privileged, no --cap-add SYS_ADMIN), and no -v /sys/fs/cgroup:...:rw",
	  sbx_escape_release_agent, 0 },
	{ "escape.binfmt_misc", "Sandbox: binfmt_misc", SANDBOX_KERNEL,
	  STATUS_FAIL, REASON_EXPOSED, "--cap-drop ALL", "no --privileged and --cap-drop "
	  "ALL: /proc/sys read-only and no mount; do not mount "
	  "/proc/sys/fs/binfmt_misc into the sandbox", sbx_escape_binfmt_misc, 0 },
	{ "escape.uevent_helper", "Sandbox: uevent_helper", SANDBOX_KERNEL,
	  STATUS_FAIL, REASON_WRITABLE, NULL, "no --privileged: the runtime then mounts "
	  "/sys read-only (bwrap: no --dev-bind /sys)", sbx_escape_uevent_helper, 0 },
	{ "fs.host_mounts", "Sandbox: host mounts", SANDBOX_HOST_MOUNTS,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "do not mount the host's paths into the "
	  "sandbox (no -v /:/host, -v /etc:..., -v /home:..., -v /proc:..., no "
	  "--privileged, which mounts /sys read-write); mount only the repository, and "
	  "what must be shared read-only (:ro)",
	  sbx_fs_host_mounts, 0 },
	{ "processes.ptrace", "Sandbox: ptrace", SANDBOX_PTRACE,
	  STATUS_WARN, REASON_EXPOSED, NULL, "set kernel.yama.ptrace_scope to 1 or more "
	  "on the host, run as a uid no other process has, and no --cap-add SYS_PTRACE",
	  sbx_proc_ptrace, 0 },
	{ "identity.lsm", "Sandbox: AppArmor/SELinux", SANDBOX_LSM,
	  STATUS_WARN, REASON_EXPOSED, NULL, "keep the runtime's AppArmor profile or "
	  "SELinux label: no --security-opt apparmor=unconfined or label=disable, no "
	  "--privileged", sbx_id_lsm, 0 },
	{ "identity.landlock", "Sandbox: Landlock", SANDBOX_LANDLOCK,
	  STATUS_WARN, REASON_EXPOSED, NULL, "start the agent under a Landlock ruleset "
	  "(landlock_restrict_self before exec: e.g. landrun, or Codex's and Claude Code's "
	  "Linux sandboxes)", sbx_id_landlock, 0 },
	{ "escape.block_devices", "Sandbox: block devices", SANDBOX_DEVICES,
	  STATUS_FAIL, REASON_EXPOSED, NULL, "no --privileged, no --device: keep the "
	  "host's disks out of the sandbox's /dev", sbx_escape_block_devices, 0 },
	{ "identity.host_root", "Sandbox: host root", SANDBOX_HOST_ROOT,
	  STATUS_FAIL, REASON_PRIVILEGED, "--userns=auto", "map the sandbox's users away "
	  "from the host's: dockerd --userns-remap=default, podman --userns=auto, or "
	  "bwrap/unshare started by an unprivileged user; and no CAP_SETUID (--cap-drop "
	  "ALL)", sbx_id_host_root, 0 },
	{ "identity.userns", "Sandbox: new user namespaces", SANDBOX_USERNS,
	  STATUS_WARN, REASON_EXPOSED, NULL, "refuse new user namespaces in the sandbox: "
	  "keep the runtime's default seccomp profile (it refuses unshare and clone with "
	  "CLONE_NEWUSER), bwrap --disable-userns, or sysctl user.max_user_namespaces=0 "
	  "in the sandbox's own user namespace", sbx_id_userns, 0 },
};

/* ---- the probe ------------------------------------------------------- */

/* "none", "read-only", 64, ["CAP_NET_RAW"], "any": what the key expects */
static cJSON *expect_json(const struct sbx_item *it, const struct sandbox_expect *e)
{
	cJSON *a;
	unsigned i;

	switch (e->want) {
	case SANDBOX_WANT_ANY:
		return cJSON_CreateString("any");
	case SANDBOX_WANT_READ_ONLY:
		return cJSON_CreateString(sandbox_key_alt(it->key));
	case SANDBOX_WANT_MAX:
		return cJSON_CreateNumber((double)e->max);
	case SANDBOX_WANT_LIST:
		a = cJSON_CreateArray();
		for (i = 0; i < 64; i++) {
			const char *n = it->key == SANDBOX_CAPABILITIES ?
					((e->caps & (1ULL << i)) ? sandbox_cap_name(i) : NULL) :
					(i < 32 && (e->secrets & (1U << i)) ?
					 sandbox_secret_name((enum sandbox_secret)i) : NULL);

			if (n)
				cJSON_AddItemToArray(a, cJSON_CreateString(n));
		}
		return a;
	case SANDBOX_WANT_DEFAULT:
		break;
	}
	if (it->key == SANDBOX_PROCESSES)
		return cJSON_CreateNumber(SANDBOX_PROCESSES_DEFAULT);
	if (lax_default(e, it->key))
		return cJSON_CreateString("any");
	return cJSON_CreateString(sandbox_key_default(it->key));
}

static void sandbox_run(const struct run_ctx *ctx, const struct check *c,
			struct result *r)
{
	const struct sbx_item *it = &items[c->index];
	struct sbx x = { ctx->spec, &ctx->spec->sandbox.want[it->key], it, proc_root(),
			 ctx->deadline_ms };

	r->data = cJSON_CreateObject();
	cJSON_AddStringToObject(r->data, "item", it->id);
	cJSON_AddStringToObject(r->data, "key", sandbox_key_name(it->key));
	cJSON_AddItemToObject(r->data, "expect", expect_json(it, x.e));
	cJSON_AddBoolToObject(r->data, "judged", sbx_judged(&x));
	sbx_add_nullable(r->data, "runtime_option", it->option);
	it->run(&x, r);
}

static void sandbox_plan(const struct spec *spec, struct plan *plan)
{
	struct buf id = BUF_INIT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(items); i++) {
		const struct sandbox_expect *e = &spec->sandbox.want[items[i].key];
		struct origin none = { NULL, 0, 0 };
		struct origin o = e->origin.file ? e->origin :
				  spec->sandbox.used ? spec->sandbox.origin : none;

		buf_printf(&id, "sandbox.%s", items[i].id);
		plan_add(plan, &probe_sandbox, buf_str(&id), items[i].title, o, NULL, i);
		buf_release(&id);
	}
}

static int sandbox_opt_in(const struct spec *spec)
{
	return spec->sandbox.used;
}

static const char *const sandbox_ids[] = {
	"sandbox.network.interfaces", "sandbox.network.route", "sandbox.network.dns",
	"sandbox.network.metadata",
	"sandbox.fs.root", "sandbox.fs.repository", "sandbox.fs.home",
	"sandbox.identity.user", "sandbox.identity.groups",
	"sandbox.identity.no_new_privs", "sandbox.identity.capabilities",
	"sandbox.identity.seccomp", "sandbox.processes.pid_namespace",
	"sandbox.processes.visible", "sandbox.processes.hidepid",
	"sandbox.escape.docker_socket", "sandbox.escape.docker_host",
	"sandbox.escape.sudo", "sandbox.escape.var_run", "sandbox.secrets.ssh",
	"sandbox.secrets.aws", "sandbox.secrets.gcloud", "sandbox.secrets.docker",
	"sandbox.secrets.npmrc", "sandbox.secrets.netrc", "sandbox.secrets.git",
	"sandbox.secrets.gh", "sandbox.secrets.kube", "sandbox.secrets.pypirc",
	"sandbox.secrets.environment", "sandbox.secrets.mounted",
	"sandbox.escape.proc_sys", "sandbox.escape.core_pattern",
	"sandbox.escape.release_agent", "sandbox.escape.binfmt_misc",
	"sandbox.escape.uevent_helper", "sandbox.fs.host_mounts",
	"sandbox.processes.ptrace", "sandbox.identity.lsm", "sandbox.identity.landlock",
	"sandbox.escape.block_devices",
	"sandbox.identity.host_root",
	"sandbox.identity.userns",
	NULL
};

const struct probe probe_sandbox = {
	.name = "sandbox",
	.summary = "is this really a sandbox? network, file system, identity, "
		   "processes, escape hatches, secrets (opt-in)",
	.plan = sandbox_plan,
	.run = sandbox_run,
	.ids = sandbox_ids,
	.opt_in = sandbox_opt_in,
};
