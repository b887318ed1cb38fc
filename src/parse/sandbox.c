/* sandbox.c - the sandbox probe's words and pure parsers (see sandbox.h).
 *
 * No function here makes a system call: the probe reads, these judge.
 * Lines may be of any length and the text need not end in a NUL, so every
 * scan is bounded by the length given, never by a terminator.
 */
#include "sandbox.h"
#include "span.h"
#include "util.h"

#include <ctype.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

/* ---- words ---------------------------------------------------------- */

static const struct {
	const char *name, *def, *alt;
} keys[SANDBOX_KEYS] = {
	[SANDBOX_NETWORK] = { "network", "none", NULL },
	[SANDBOX_ROOT] = { "root", "read-only", NULL },
	[SANDBOX_REPOSITORY] = { "repository", "writable", "read-only" },
	[SANDBOX_HOME] = { "home", "writable", NULL },
	[SANDBOX_USER] = { "user", "non-root", NULL },
	[SANDBOX_GROUPS] = { "groups", "unprivileged", NULL },
	[SANDBOX_NO_NEW_PRIVS] = { "no_new_privs", "required", NULL },
	[SANDBOX_CAPABILITIES] = { "capabilities", "none", NULL },
	[SANDBOX_SECCOMP] = { "seccomp", "filter", NULL },
	[SANDBOX_PID_NAMESPACE] = { "pid_namespace", "private", NULL },
	[SANDBOX_PROCESSES] = { "processes", NULL, NULL },
	[SANDBOX_HIDEPID] = { "hidepid", "required", NULL },
	[SANDBOX_DOCKER] = { "docker", "none", NULL },
	[SANDBOX_SUDO] = { "sudo", "none", NULL },
	[SANDBOX_VAR_RUN] = { "var_run", "read-only", NULL },
	[SANDBOX_SECRETS] = { "secrets", "none", NULL },
	[SANDBOX_METADATA] = { "metadata", "none", NULL },
	[SANDBOX_KERNEL] = { "kernel", "protected", NULL },
	[SANDBOX_HOST_MOUNTS] = { "host_mounts", "none", NULL },
	[SANDBOX_PTRACE] = { "ptrace", "restricted", NULL },
	[SANDBOX_LSM] = { "lsm", "confined", NULL },
	[SANDBOX_LANDLOCK] = { "landlock", "required", NULL },
	[SANDBOX_DEVICES] = { "devices", "none", NULL },
	[SANDBOX_HOST_ROOT] = { "host_root", "none", NULL },
	[SANDBOX_USERNS] = { "userns", "denied", NULL },
};

const char *sandbox_key_name(enum sandbox_key k)
{
	return (unsigned)k < SANDBOX_KEYS ? keys[k].name : NULL;
}

const char *sandbox_key_default(enum sandbox_key k)
{
	return (unsigned)k < SANDBOX_KEYS ? keys[k].def : NULL;
}

const char *sandbox_key_alt(enum sandbox_key k)
{
	return (unsigned)k < SANDBOX_KEYS ? keys[k].alt : NULL;
}

/* landlock: few sandboxes use it yet, so leaving it out must not fail
 * every docker container (the man page, sandbox.identity.landlock) */
int sandbox_key_lax(enum sandbox_key k)
{
	return k == SANDBOX_LANDLOCK;
}

/* include/uapi/linux/capability.h, in order */
static const char *const caps[SANDBOX_CAPS_KNOWN] = {
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
};

const char *sandbox_cap_name(unsigned bit)
{
	return bit < SANDBOX_CAPS_KNOWN ? caps[bit] : NULL;
}

int sandbox_cap_parse(const char *name)
{
	unsigned i;

	if (!strncasecmp(name, "CAP_", 4))
		name += 4;
	for (i = 0; i < SANDBOX_CAPS_KNOWN; i++)
		if (!strcasecmp(caps[i] + 4, name))
			return (int)i;
	return -1;
}

static const char *const secrets[SANDBOX_SECRETS_KNOWN] = {
	[SECRET_SSH] = "ssh", [SECRET_AWS] = "aws", [SECRET_GCLOUD] = "gcloud",
	[SECRET_DOCKER] = "docker", [SECRET_NPMRC] = "npmrc", [SECRET_NETRC] = "netrc",
	[SECRET_GIT] = "git", [SECRET_GH] = "gh", [SECRET_KUBE] = "kube",
	[SECRET_PYPIRC] = "pypirc", [SECRET_ENVIRONMENT] = "environment",
	[SECRET_MOUNTED] = "mounted",
};

const char *sandbox_secret_name(enum sandbox_secret s)
{
	return (unsigned)s < SANDBOX_SECRETS_KNOWN ? secrets[s] : NULL;
}

int sandbox_secret_parse(const char *name)
{
	int i;

	for (i = 0; i < SANDBOX_SECRETS_KNOWN; i++)
		if (!strcmp(secrets[i], name))
			return i;
	return -1;
}

/* ---- /proc/self/status ------------------------------------------------ */

/* "Uid:\t0\t0\t0\t0": four ids */
static int ids4(struct span rest, long out[4])
{
	struct span w[5];
	unsigned long long v;
	size_t i;

	if (span_words(rest, w, 5) != 4)
		return -1;
	for (i = 0; i < 4; i++) {
		if (span_number(w[i], 10, 10, &v) < 0 || v > 4294967295ULL)
			return -1;
		out[i] = (long)v;
	}
	return 0;
}

static int groups_parse(struct span rest, struct proc_identity *id)
{
	size_t i = 0, cap = 0;

	for (;;) {
		struct span w;
		unsigned long long v;

		while (i < rest.n && span_blank(rest.p[i]))
			i++;
		if (i >= rest.n)
			return 0;
		w.p = rest.p + i;
		while (i < rest.n && !span_blank(rest.p[i]))
			i++;
		w.n = (size_t)(rest.p + i - w.p);
		if (span_number(w, 10, 10, &v) < 0 || v > 4294967295ULL)
			return -1;
		/* the kernel has at most NGROUPS_MAX (65536) */
		if (id->ngroups >= 65536)
			return -1;
		grow(&id->groups, sizeof(*id->groups), &cap, id->ngroups + 1);
		id->groups[id->ngroups++] = (unsigned long)v;
	}
}

/* A single number field: 0, or -1. */
static int one_number(struct span rest, int base, size_t max_digits,
		      unsigned long long *out)
{
	struct span w[2];

	if (span_words(rest, w, 2) != 1)
		return -1;
	return span_number(w[0], base, max_digits, out);
}

/* CapInh, CapPrm, CapBnd, CapAmb (fs/proc/array.c render_cap_t: 16 hex
 * digits each; CapAmb since Linux 4.3): 0 (another line: ignored), or -1
 * when the line does not parse. */
static int cap_set_field(struct span name, struct span rest, struct proc_identity *id,
			 const char **bad)
{
	static const char *const names[SANDBOX_CAP_SETS] = {
		[CAPSET_INH] = "CapInh", [CAPSET_PRM] = "CapPrm",
		[CAPSET_BND] = "CapBnd", [CAPSET_AMB] = "CapAmb",
	};
	unsigned long long v;
	size_t i;

	for (i = 0; i < SANDBOX_CAP_SETS; i++) {
		if (!span_is(name, names[i]))
			continue;
		*bad = names[i];
		if (one_number(rest, 16, 16, &v) < 0)
			return -1;
		id->caps[i] = v;
		id->have_caps |= 1U << i;
	}
	return 0;
}

static int status_field(struct span name, struct span rest, struct proc_identity *id,
			const char **bad)
{
	unsigned long long v;

	if (span_is(name, "Uid")) {
		*bad = "Uid";
		return ids4(rest, id->uid);
	}
	if (span_is(name, "Gid")) {
		*bad = "Gid";
		return ids4(rest, id->gid);
	}
	if (span_is(name, "Groups")) {
		*bad = "Groups";
		id->ngroups = 0;
		return groups_parse(rest, id);
	}
	if (span_is(name, "NoNewPrivs")) {
		*bad = "NoNewPrivs";
		if (one_number(rest, 10, 1, &v) < 0 || v > 1)
			return -1;
		id->no_new_privs = (int)v;
	} else if (span_is(name, "Seccomp")) {
		*bad = "Seccomp";
		if (one_number(rest, 10, 1, &v) < 0 || v > 2)
			return -1;
		id->seccomp = (int)v;
	} else if (span_is(name, "Seccomp_filters")) {
		*bad = "Seccomp_filters";
		if (one_number(rest, 10, 9, &v) < 0)
			return -1;
		id->seccomp_filters = (long)v;
	} else if (span_is(name, "CapEff")) {
		*bad = "CapEff";
		if (one_number(rest, 16, 16, &v) < 0)
			return -1;
		id->cap_eff = v;
		id->have_cap_eff = 1;
	} else {
		return cap_set_field(name, rest, id, bad);
	}
	return 0;
}

int sandbox_status_parse(const char *buf, size_t len, struct proc_identity *out,
			 const char **bad)
{
	struct span line;
	size_t pos = 0;
	int have_uid = 0, have_gid = 0;

	memset(out, 0, sizeof(*out));
	out->no_new_privs = out->seccomp = -1;
	out->seccomp_filters = -1;
	*bad = NULL;
	while (span_next_line(buf, len, &pos, &line)) {
		const char *colon = memchr(line.p, ':', line.n);
		struct span name, rest;

		if (!colon)
			continue;
		name.p = line.p;
		name.n = (size_t)(colon - line.p);
		rest.p = colon + 1;
		rest.n = line.n - name.n - 1;
		if (status_field(name, rest, out, bad) < 0)
			return -1;
		have_uid |= span_is(name, "Uid");
		have_gid |= span_is(name, "Gid");
		*bad = NULL;
	}
	if (!have_uid || !have_gid) {
		*bad = have_uid ? "Gid" : "Uid";
		return -1;
	}
	return 0;
}

void proc_identity_release(struct proc_identity *id)
{
	free(id->groups);
	id->groups = NULL;
	id->ngroups = 0;
}

/* ---- /proc/net ---------------------------------------------------------- */

/* Copy a span into a NUL-terminated buffer of size: 0, or -1 when it does
 * not fit or is empty. */
static int span_copy(struct span s, char *out, size_t size)
{
	/* a NUL inside would cut the copy short: another, shorter name than
	 * the text's (fuzz_sandbox: an empty interface name) */
	if (!s.n || s.n >= size || memchr(s.p, '\0', s.n))
		return -1;
	memcpy(out, s.p, s.n);
	out[s.n] = '\0';
	return 0;
}

size_t sandbox_netdev_names(const char *buf, size_t len,
			    void (*fn)(const char *name, void *arg), void *arg)
{
	struct span line;
	size_t pos = 0, lineno = 0, count = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		const char *colon;
		struct span w[1];
		char name[IFNAMSIZ];

		if (++lineno <= 2)
			continue;	/* "Inter-|   Receive ...", " face |bytes ..." */
		colon = memchr(line.p, ':', line.n);
		if (!colon)
			continue;
		line.n = (size_t)(colon - line.p);
		if (span_words(line, w, 1) != 1 || w[0].p + w[0].n != colon ||
		    span_copy(w[0], name, sizeof(name)) < 0)
			continue;
		fn(name, arg);
		count++;
	}
	return count;
}

#define ROUTE_RTF_UP 0x0001U		/* include/uapi/linux/route.h */
#define ROUTE_RTF_REJECT 0x0200U

/* Iface Destination Gateway Flags RefCnt Use Metric Mask MTU Window IRTT */
static int route4_default(struct span line, char *iface)
{
	struct span w[8];
	unsigned long long dest, flags, mask;

	if (span_words(line, w, 8) != 8 || span_copy(w[0], iface, IFNAMSIZ) < 0 ||
	    span_number(w[1], 16, 8, &dest) < 0 || span_number(w[3], 16, 8, &flags) < 0 ||
	    span_number(w[7], 16, 8, &mask) < 0)
		return 0;
	return !dest && !mask && (flags & ROUTE_RTF_UP) && !(flags & ROUTE_RTF_REJECT);
}

/* dest plen src splen nexthop metric refcnt use flags iface */
static int route6_default(struct span line, char *iface)
{
	struct span w[10];
	unsigned long long plen, flags;
	size_t i;

	if (span_words(line, w, 10) != 10 || w[0].n != 32 ||
	    span_copy(w[9], iface, IFNAMSIZ) < 0 ||
	    span_number(w[1], 16, 2, &plen) < 0 || span_number(w[8], 16, 8, &flags) < 0)
		return 0;
	for (i = 0; i < 32; i++)
		if (w[0].p[i] != '0')
			return 0;
	return !plen && (flags & ROUTE_RTF_UP) && !(flags & ROUTE_RTF_REJECT);
}

size_t sandbox_default_routes(const char *buf, size_t len, int family,
			      void (*fn)(const char *iface, void *arg), void *arg)
{
	struct span line;
	size_t pos = 0, count = 0, lineno = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		char iface[IFNAMSIZ];
		int hit;

		if (family == 4 && ++lineno == 1)
			continue;	/* the header */
		hit = family == 4 ? route4_default(line, iface) : route6_default(line, iface);
		if (!hit)
			continue;
		fn(iface, arg);
		count++;
	}
	return count;
}

/* glibc resolv/res_init.c: a line that starts with the keyword and a
 * blank; '#' and ';' at the start are comments */
size_t sandbox_resolv_nameservers(const char *buf, size_t len,
				  void (*fn)(const char *addr, void *arg), void *arg)
{
	struct span line;
	size_t pos = 0, count = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		struct span w[2], rest;
		char addr[64];

		if (line.n < 11 || memcmp(line.p, "nameserver", 10) || !span_blank(line.p[10]))
			continue;
		rest.p = line.p + 10;
		rest.n = line.n - 10;
		if (span_words(rest, w, 1) != 1 || span_copy(w[0], addr, sizeof(addr)) < 0)
			continue;
		fn(addr, arg);
		count++;
	}
	return count;
}

/* ---- processes -------------------------------------------------------- */

/* mountinfo escapes space, tab, newline and backslash as \ooo
 * (fs/proc_namespace.c show_mountinfo, seq_path_root(..., " \t\n\\")) */
int sandbox_mountinfo_field_is(const char *p, size_t len, const char *want)
{
	size_t i = 0, k = 0, n = strlen(want);

	while (i < len) {
		char c = p[i];

		if (c == '\\' && i + 3 < len && p[i + 1] >= '0' && p[i + 1] <= '3' &&
		    p[i + 2] >= '0' && p[i + 2] <= '7' && p[i + 3] >= '0' && p[i + 3] <= '7') {
			c = (char)((p[i + 1] - '0') * 64 + (p[i + 2] - '0') * 8 + (p[i + 3] - '0'));
			i += 4;
		} else {
			i++;
		}
		if (k >= n || want[k] != c)
			return 0;
		k++;
	}
	return k == n;
}

static void proc_options(struct span opts, struct proc_mount *out)
{
	size_t i = 0;

	out->hidepid = HIDEPID_OFF;
	out->subset_pid = 0;
	while (i < opts.n) {
		struct span o = { opts.p + i, 0 };
		const char *comma = memchr(o.p, ',', opts.n - i);

		o.n = comma ? (size_t)(comma - o.p) : opts.n - i;
		i += o.n + 1;
		if (span_is(o, "hidepid=1") || span_is(o, "hidepid=noaccess"))
			out->hidepid = HIDEPID_NOACCESS;
		else if (span_is(o, "hidepid=2") || span_is(o, "hidepid=invisible"))
			out->hidepid = HIDEPID_INVISIBLE;
		else if (span_is(o, "hidepid=4") || span_is(o, "hidepid=ptraceable"))
			out->hidepid = HIDEPID_PTRACEABLE;
		else if (span_is(o, "hidepid=0") || span_is(o, "hidepid=off"))
			out->hidepid = HIDEPID_OFF;
		else if (span_is(o, "subset=pid"))
			out->subset_pid = 1;
	}
}

/* ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER */
int sandbox_mountinfo_proc(const char *buf, size_t len, const char *mount_point,
			   struct proc_mount *out)
{
	struct span line;
	size_t pos = 0;
	int parsed = 0;

	memset(out, 0, sizeof(*out));
	while (span_next_line(buf, len, &pos, &line)) {
		struct span w[32];
		size_t n = span_words(line, w, 32), dash;

		for (dash = 6; dash < n && !span_is(w[dash], "-"); dash++)
			;
		if (n < 10 || dash + 3 >= n)
			continue;
		parsed = 1;
		if (!sandbox_mountinfo_field_is(w[4].p, w[4].n, mount_point))
			continue;
		/* a later mount on the same point hides the earlier one */
		if (!span_is(w[dash + 1], "proc")) {
			out->found = 0;
			continue;
		}
		out->found = 1;
		proc_options(w[dash + 3], out);
	}
	return parsed ? 0 : -1;
}

int sandbox_ns_inode(const char *link, const char *type, unsigned long *ino)
{
	size_t n = strlen(type);
	struct span s;
	unsigned long long v;
	const char *end;

	if (strncmp(link, type, n) || link[n] != ':' || link[n + 1] != '[')
		return -1;
	s.p = link + n + 2;
	end = strchr(s.p, ']');
	if (!end || end[1])
		return -1;
	s.n = (size_t)(end - s.p);
	if (span_number(s, 10, 10, &v) < 0 || v > 4294967295ULL)
		return -1;
	*ino = (unsigned long)v;
	return 0;
}

int sandbox_id_map(const char *buf, size_t len, unsigned long id,
		   unsigned long *outside, int *whole)
{
	struct span line;
	size_t pos = 0, lines = 0;
	int found = -1, identity = 0;

	*whole = 0;
	while (span_next_line(buf, len, &pos, &line)) {
		struct span w[4];
		unsigned long long in, out, count;

		if (span_words(line, w, 4) != 3 || span_number(w[0], 10, 10, &in) < 0 ||
		    span_number(w[1], 10, 10, &out) < 0 ||
		    span_number(w[2], 10, 10, &count) < 0)
			return -1;
		lines++;
		identity |= !in && !out && count == 4294967295ULL;
		if (found < 0 && id >= in && id - in < count) {
			*outside = (unsigned long)(out + (id - in));
			found = 0;
		}
	}
	/* the identity line alone: the kernel refuses overlapping lines, so
	 * a text with another one beside it is no map it wrote (fuzz_sandbox:
	 * whole said 1 while the first line mapped the id elsewhere) */
	*whole = identity && lines == 1;
	return found;
}

/* ---- /etc ------------------------------------------------------------- */

/* The fields of a colon-separated line, at most max. */
static size_t split_colons(struct span line, struct span *f, size_t max)
{
	size_t n = 0, i = 0;

	while (n < max) {
		const char *c = memchr(line.p + i, ':', line.n - i);

		f[n].p = line.p + i;
		f[n].n = c ? (size_t)(c - f[n].p) : line.n - i;
		n++;
		if (!c)
			break;
		i += f[n - 1].n + 1;
	}
	return n;
}

static void copy_cut(struct span s, char *out, size_t size)
{
	size_t n = s.n < size - 1 ? s.n : size - 1;

	memcpy(out, s.p, n);
	out[n] = '\0';
}

int sandbox_passwd_find(const char *buf, size_t len, unsigned long uid,
			char *name, size_t name_size, char *home, size_t home_size)
{
	struct span line;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		struct span f[7];
		unsigned long long v;

		if (split_colons(line, f, 7) != 7 || span_number(f[2], 10, 10, &v) < 0 ||
		    v != uid || !f[0].n)
			continue;
		if (name)
			copy_cut(f[0], name, name_size);
		if (home)
			copy_cut(f[5], home, home_size);
		return 0;
	}
	return -1;
}

int sandbox_group_name(const char *buf, size_t len, unsigned long gid,
		       char *name, size_t name_size)
{
	struct span line;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		struct span f[4];
		unsigned long long v;

		if (split_colons(line, f, 4) != 4 || span_number(f[2], 10, 10, &v) < 0 ||
		    v != gid || !f[0].n)
			continue;
		copy_cut(f[0], name, name_size);
		return 0;
	}
	return -1;
}

int sandbox_group_privileged(const char *name, unsigned long gid)
{
	static const char *const names[] = {
		"root", "sudo", "wheel", "admin", "docker", "lxd", "incus-admin",
		"libvirt", "disk", "shadow",
	};
	size_t i;

	if (gid == 0)
		return 1;
	for (i = 0; name && i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* ---- token lines -------------------------------------------------------- */

static int ends_with(struct span s, const char *suffix)
{
	size_t n = strlen(suffix);

	return s.n >= n && !memcmp(s.p + s.n - n, suffix, n);
}

static struct span trim(struct span s)
{
	while (s.n && span_blank(*s.p)) {
		s.p++;
		s.n--;
	}
	while (s.n && span_blank(s.p[s.n - 1]))
		s.n--;
	return s;
}

/* Whether s is a NAME npm's envReplace replaces: @npmcli/config's
 * envExpr is /(?<!\\)(\\*)\$\{([^${}?]+)(\?)?\}/g, so one character or more,
 * none of them '$', '{' or '?' but an optional last '?', and none a NUL,
 * which no environment variable's name holds (the text stays as written:
 * a literal, hidden as one). */
static int is_env_ref_name(const char *s, size_t n)
{
	size_t i;

	if (n && s[n - 1] == '?')
		n--;
	for (i = 0; i < n; i++)
		if (s[i] == '$' || s[i] == '{' || s[i] == '?' || s[i] == '\0')
			return 0;
	return n > 0;
}

/* A value made only of ${NAME} references (npm's envReplace): 1 with the
 * first NAME copied, else 0. */
static int only_env_refs(struct span v, char *var, size_t size)
{
	size_t i = 0;
	int first = 1;

	while (i < v.n) {
		const char *close;
		size_t n;

		if (v.n - i < 4 || v.p[i] != '$' || v.p[i + 1] != '{')
			return 0;
		close = memchr(v.p + i + 2, '}', v.n - i - 2);
		if (!close)
			return 0;
		n = (size_t)(close - (v.p + i + 2));
		if (!is_env_ref_name(v.p + i + 2, n))
			return 0;
		if (first && var && size) {
			size_t k = n < size - 1 ? n : size - 1;

			memcpy(var, v.p + i + 2, k);
			var[k] = '\0';
			/* npm 9: ${NAME?} is an optional reference */
			if (k && var[k - 1] == '?')
				var[k - 1] = '\0';
		}
		first = 0;
		i += n + 3;
	}
	return !first;
}

int sandbox_npmrc_token(const char *buf, size_t len, char *var, size_t var_size)
{
	static const char *const suffixes[] = { "_authToken", "_auth", "_password" };
	struct span line;
	size_t pos = 0, i;
	int found = 0;

	if (var && var_size)
		var[0] = '\0';
	while (span_next_line(buf, len, &pos, &line)) {
		const char *eq;
		struct span key, val;

		line = trim(line);
		if (!line.n || *line.p == '#' || *line.p == ';')
			continue;
		eq = memchr(line.p, '=', line.n);
		if (!eq)
			continue;
		key.p = line.p;
		key.n = (size_t)(eq - line.p);
		key = trim(key);
		val.p = eq + 1;
		val.n = (size_t)(line.p + line.n - val.p);
		val = trim(val);
		if (val.n >= 2 && (*val.p == '"' || *val.p == '\'') &&
		    val.p[val.n - 1] == *val.p) {
			val.p++;
			val.n -= 2;
		}
		for (i = 0; i < ARRAY_SIZE(suffixes) && !ends_with(key, suffixes[i]); i++)
			;
		if (i == ARRAY_SIZE(suffixes) || !val.n)
			continue;
		if (!only_env_refs(val, found ? NULL : var, var_size))
			return 1;
		found = 2;
	}
	return found;
}

int sandbox_aws_secret(const char *buf, size_t len)
{
	static const char *const aws_keys[] = { "aws_secret_access_key", "aws_session_token" };
	struct span line;
	size_t pos = 0, i;

	while (span_next_line(buf, len, &pos, &line)) {
		const char *eq = memchr(line.p, '=', line.n);
		struct span key, val;

		if (!eq)
			continue;
		key.p = line.p;
		key.n = (size_t)(eq - line.p);
		key = trim(key);
		val.p = eq + 1;
		val.n = (size_t)(line.p + line.n - val.p);
		val = trim(val);
		for (i = 0; i < ARRAY_SIZE(aws_keys); i++)
			if (key.n == strlen(aws_keys[i]) && !strncasecmp(key.p, aws_keys[i], key.n) &&
			    val.n)
				return 1;
	}
	return 0;
}

int sandbox_netrc_password(const char *buf, size_t len)
{
	struct span line;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &line)) {
		struct span w[64];
		size_t n = span_words(line, w, 64), i;

		for (i = 0; i < n; i++)
			if (span_is(w[i], "password") && i + 1 < n)
				return 1;
	}
	return 0;
}

int sandbox_docker_auth(const char *buf, size_t len)
{
	static const char *const names[] = {
		"\"auth\"", "\"password\"", "\"identitytoken\"", "\"registrytoken\"",
	};
	size_t i, k;

	for (k = 0; k < ARRAY_SIZE(names); k++) {
		size_t n = strlen(names[k]);

		for (i = 0; i + n <= len; i++) {
			const char *p;

			if (memcmp(buf + i, names[k], n))
				continue;
			p = buf + i + n;
			while (p < buf + len && span_blank(*p))
				p++;
			if (p >= buf + len || *p != ':')
				continue;
			p++;
			while (p < buf + len && (span_blank(*p) || *p == '\n'))
				p++;
			/* "auth": "" holds nothing */
			if (p + 1 < buf + len && p[0] == '"' && p[1] == '"')
				continue;
			if (p < buf + len && *p == '"')
				return 1;
		}
	}
	return 0;
}
