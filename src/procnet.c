/* procnet.c - see procnet.h
 *
 * Facts this code relies on (shared/conformance/proc-net-tcp.md):
 * addresses are printed as 32-bit words in memory order, so each 8-digit
 * group is parsed as a number and stored back in host order (no hard-coded
 * byte swap); the port is printed in host order; the first line is a header;
 * tcp lines are padded with spaces; a socket's holders are found by
 * readlink() of /proc/PID/fd/N, which reads "socket:[INODE]".
 */
#include "procnet.h"
#include "redact.h"
#include "saferead.h"
#include "util.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <pthread.h>
#include <pwd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#define TCP_LISTEN 0x0a
/* /proc/net/tcp of a busy server holds ~150 bytes a socket */
#define NET_TCP_CAP (64UL * 1024 * 1024)
#define CMDLINE_MAX 120

static pthread_once_t root_once = PTHREAD_ONCE_INIT;
static const char *root_path = "/proc";

static void root_init(void)
{
	const char *e = getenv("ENVPREFLIGHT_PROC_ROOT");

	/* kept for the life of the process, like the environment itself */
	if (e && *e)
		root_path = xstrdup(e);
}

const char *proc_root(void)
{
	pthread_once(&root_once, root_init);
	return root_path;
}

static pthread_once_t boot_once = PTHREAD_ONCE_INIT;
static char boot_id[40];

static void boot_init(void)
{
	char path[4096], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/sys/kernel/random/boot_id", proc_root());
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 36)
		return;
	buf[36] = '\0';
	/* a UUID: hex digits and dashes, or nothing */
	if (strspn(buf, "0123456789abcdef-") == 36)
		memcpy(boot_id, buf, 37);
}

const char *proc_boot_id(void)
{
	pthread_once(&boot_once, boot_init);
	return boot_id[0] ? boot_id : NULL;
}

static int dec_parse(const char *s, size_t n, unsigned long long max,
		     unsigned long long *out);

int procnet_stat_starttime(const char *stat, unsigned long long *out)
{
	const char *p = strrchr(stat, ')');
	int field;

	/* "PID (COMM) S PPID ...": fields after the last ')' start at 3;
	 * starttime is field 22 */
	if (!p)
		return -1;
	p++;
	for (field = 2; field < 22; field++) {
		if (*p != ' ')
			return -1;
		p++;
		if (field < 21)
			p += strcspn(p, " ");
	}
	{
		size_t n = strspn(p, "0123456789");

		if (!n || (p[n] && p[n] != ' ' && p[n] != '\n'))
			return -1;
		return dec_parse(p, n, ULLONG_MAX, out);
	}
}

/* ---- parsing ------------------------------------------------------- */

/* The next space-separated field of a mountinfo line [*p, end), with
 * its \ooo escapes (a space is \040) decoded into out (cut to outlen). */
static int mi_field(const char **p, const char *end, char *out, size_t outlen)
{
	const char *s = *p;
	size_t n = 0;

	while (s < end && *s == ' ')
		s++;
	if (s >= end)
		return 0;
	while (s < end && *s != ' ') {
		char c = *s++;

		if (c == '\\' && end - s >= 3 && s[0] >= '0' && s[0] <= '3' &&
		    s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') * 64 + (s[1] - '0') * 8 + (s[2] - '0'));
			s += 3;
		}
		if (n + 1 < outlen)
			out[n++] = c;
	}
	out[n] = '\0';
	*p = s;
	return 1;
}

/* hidepid= in a proc mount's super options ("rw,hidepid=invisible"). */
static int mi_hidepid(const char *opts)
{
	static const struct { const char *name; int v; } values[] = {
		{ "0", 0 }, { "off", 0 }, { "1", 1 }, { "noaccess", 1 },
		{ "2", 2 }, { "invisible", 2 }, { "4", 4 }, { "ptraceable", 4 },
	};
	const char *h;
	size_t i, n;

	for (h = opts; (h = strstr(h, "hidepid=")) != NULL; h += 8) {
		if (h != opts && h[-1] != ',')
			continue;
		n = strcspn(h + 8, ",");
		for (i = 0; i < ARRAY_SIZE(values); i++)
			if (strlen(values[i].name) == n &&
			    !strncmp(h + 8, values[i].name, n))
				return values[i].v;
	}
	return 0;
}

/* One mountinfo line (proc(5)): ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS
 * [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS.  The hidepid of a proc
 * mount at mnt, or -1. */
static int mi_line(const char *p, const char *end, const char *mnt)
{
	char f[PATH_MAX], point[PATH_MAX];
	int i;

	for (i = 0; i < 5; i++)
		if (!mi_field(&p, end, i == 4 ? point : f, i == 4 ? sizeof(point) :
			      sizeof(f)))
			return -1;
	if (strcmp(point, mnt))
		return -1;
	do
		if (!mi_field(&p, end, f, sizeof(f)))
			return -1;
	while (strcmp(f, "-"));
	if (!mi_field(&p, end, f, sizeof(f)) || strcmp(f, "proc") ||
	    !mi_field(&p, end, f, sizeof(f)) || !mi_field(&p, end, f, sizeof(f)))
		return -1;
	return mi_hidepid(f);
}

int procnet_hidepid(const char *text, size_t len, const char *mnt)
{
	const char *const points[] = { mnt, "/proc" };
	size_t k;

	for (k = 0; k < ARRAY_SIZE(points); k++) {
		const char *p = text, *end = text + len;
		int found = -1;

		if (!points[k])
			continue;
		while (p < end) {
			const char *nl = memchr(p, '\n', (size_t)(end - p));
			const char *eol = nl ? nl : end;
			int h = mi_line(p, eol, points[k]);

			if (h >= 0)
				found = h;
			p = eol + 1;
		}
		if (found >= 0)
			return found;
	}
	return -1;
}

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* The next whitespace-separated field of [*p, end) in *f, *flen; 0 when
 * there is none left. */
static int field_next(const char **p, const char *end, const char **f,
		      size_t *flen)
{
	const char *s = *p;

	while (s < end && is_space(*s))
		s++;
	if (s == end)
		return 0;
	*f = s;
	while (s < end && !is_space(*s))
		s++;
	*flen = (size_t)(s - *f);
	*p = s;
	return 1;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Exactly n (1..8) hex digits into *out. */
static int hex_parse(const char *s, size_t n, uint32_t *out)
{
	uint32_t v = 0;
	size_t i;

	if (n == 0 || n > 8)
		return -1;
	for (i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0)
			return -1;
		v = (v << 4) | (uint32_t)d;
	}
	*out = v;
	return 0;
}

/* Exactly n (1..20) decimal digits, at most max, into *out. */
static int dec_parse(const char *s, size_t n, unsigned long long max,
		     unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i;

	if (n == 0 || n > 20)
		return -1;
	for (i = 0; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -1;
		d = (unsigned)(s[i] - '0');
		if (v > (max - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

/* Fill the derived fields of l from family and addr. */
static void listener_text(struct tcp_listener *l)
{
	size_t i, words = l->family == AF_INET ? 1 : 4;
	int mapped = 0, zero = 1;

	if (l->family == AF_INET6) {
		struct in6_addr a;

		memcpy(&a, l->addr, 16);
		mapped = IN6_IS_ADDR_V4MAPPED(&a);
	}
	for (i = mapped ? 12 : 0; i < words * 4; i++)
		if (l->addr[i])
			zero = 0;
	l->v4mapped = mapped;
	l->any = zero;
	if (l->family == AF_INET || mapped)
		inet_ntop(AF_INET, l->addr + (mapped ? 12 : 0), l->addr_text,
			  sizeof(l->addr_text));
	else
		inet_ntop(AF_INET6, l->addr, l->addr_text,
			  sizeof(l->addr_text));
}

/* "0100007F:1F90" (tcp) or 32 hex digits ":PPPP" (tcp6) into l. */
static int addr_parse(const char *s, size_t n, int family,
		      struct tcp_listener *l)
{
	size_t words = family == AF_INET ? 1 : 4, i;
	uint32_t w, port;

	if (n != words * 8 + 5 || s[words * 8] != ':')
		return -1;
	memset(l->addr, 0, sizeof(l->addr));
	for (i = 0; i < words; i++) {
		if (hex_parse(s + i * 8, 8, &w) < 0)
			return -1;
		/* printed from memory as a word: store it back the same way */
		memcpy(l->addr + i * 4, &w, 4);
	}
	if (hex_parse(s + words * 8 + 1, 4, &port) < 0)
		return -1;
	l->port = port;
	l->family = family;
	listener_text(l);
	return 0;
}

/* One socket line.  Returns 1 for a LISTEN entry (l filled), 0 for another
 * state, -1 for a line that does not parse. */
static int line_parse(const char *s, size_t len, int family,
		      struct tcp_listener *l)
{
	const char *p = s, *end = s + len, *f[10];
	size_t fl[10], i;
	unsigned long long v;
	uint32_t st;

	for (i = 0; i < 10; i++)
		if (!field_next(&p, end, &f[i], &fl[i]))
			return -1;
	/* "sl" is decimal followed by ':' */
	if (fl[0] < 2 || f[0][fl[0] - 1] != ':' ||
	    dec_parse(f[0], fl[0] - 1, ULLONG_MAX, &v) < 0)
		return -1;
	if (fl[3] != 2 || hex_parse(f[3], 2, &st) < 0)
		return -1;
	if (addr_parse(f[1], fl[1], family, l) < 0)
		return -1;
	if (dec_parse(f[7], fl[7], UINT_MAX, &v) < 0)
		return -1;
	l->uid = (unsigned)v;
	if (dec_parse(f[9], fl[9], ULONG_MAX, &v) < 0)
		return -1;
	l->inode = (unsigned long)v;
	return st == TCP_LISTEN;
}

void procnet_parse(const char *buf, size_t len, int family,
		   struct tcp_listener **v, size_t *n, size_t *cap)
{
	const char *p = buf, *end = buf + len;
	int header = 1;

	if (family != AF_INET && family != AF_INET6)
		return;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		struct tcp_listener l;

		memset(&l, 0, sizeof(l));
		if (!header &&
		    line_parse(p, (size_t)(eol - p), family, &l) == 1) {
			grow(v, sizeof(**v), cap, *n + 1);
			(*v)[(*n)++] = l;
		}
		header = 0;
		p = nl ? nl + 1 : end;
	}
}

static int table_read(const char *proc, const char *name, int family,
		      struct tcp_listener **v, size_t *n, size_t *cap)
{
	struct blob b;
	char *path;
	int rc;

	path = path_join(proc, name);
	rc = saferead_path(path, NET_TCP_CAP, &b);
	free(path);
	if (rc < 0)
		return -1;
	procnet_parse(b.data, b.len, family, v, n, cap);
	blob_release(&b);
	return 0;
}

int procnet_listeners(const char *proc, struct tcp_listener **v, size_t *n,
		      size_t *cap)
{
	if (!proc)
		proc = proc_root();
	/* procfs mounted with subset=pid hides /proc/net, not self/net */
	if (table_read(proc, "net/tcp", AF_INET, v, n, cap) < 0) {
		if (errno != ENOENT ||
		    table_read(proc, "self/net/tcp", AF_INET, v, n, cap) < 0)
			return -1;
		table_read(proc, "self/net/tcp6", AF_INET6, v, n, cap);
		return 0;
	}
	/* no tcp6 when IPv6 is disabled: nothing listens there then */
	table_read(proc, "net/tcp6", AF_INET6, v, n, cap);
	return 0;
}

/* One LISTEN-only sock_diag dump of family; 0, or -1 with errno. */
static int diag_dump(int fd, int family, struct tcp_listener **v, size_t *n,
		     size_t *cap)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} req;
	struct sockaddr_nl sa;
	/* aligned for struct nlmsghdr; 8 KiB holds ~100 listeners a recv */
	long buf[8192 / sizeof(long)];

	memset(&req, 0, sizeof(req));
	memset(&sa, 0, sizeof(sa));
	sa.nl_family = AF_NETLINK;
	req.nlh.nlmsg_len = sizeof(req);
	req.nlh.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	req.nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nlh.nlmsg_seq = (unsigned)family;
	req.r.sdiag_family = (unsigned char)family;
	req.r.sdiag_protocol = IPPROTO_TCP;
	req.r.idiag_states = 1U << TCP_LISTEN;
	if (sendto(fd, &req, sizeof(req), 0, (struct sockaddr *)&sa,
		   sizeof(sa)) < 0)
		return -1;
	for (;;) {
		ssize_t k = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *h;
		size_t len;

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {
			if (k == 0)
				errno = EPROTO;
			return -1;
		}
		len = (size_t)k;
		for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, len);
		     h = NLMSG_NEXT(h, len)) {
			const struct inet_diag_msg *m = NLMSG_DATA(h);
			struct tcp_listener l;

			if (h->nlmsg_seq != (unsigned)family)
				continue;
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);

				errno = e->error ? -e->error : EPROTO;
				return -1;
			}
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*m)) ||
			    m->idiag_state != TCP_LISTEN ||
			    m->idiag_family != family)
				continue;
			memset(&l, 0, sizeof(l));
			l.family = family;
			l.port = ntohs(m->id.idiag_sport);
			/* already in network order: no per-word decoding */
			memcpy(l.addr, m->id.idiag_src,
			       family == AF_INET ? 4 : 16);
			l.uid = m->idiag_uid;
			l.inode = m->idiag_inode;
			listener_text(&l);
			grow(v, sizeof(**v), cap, *n + 1);
			(*v)[(*n)++] = l;
		}
	}
}

int procnet_listeners_diag(struct tcp_listener **v, size_t *n, size_t *cap)
{
	struct timeval tv = { 1, 0 };
	size_t n0 = *n;
	int fd, rc;

	fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (fd < 0)
		return -1;
	/* the kernel answers at once; never hang a check on it regardless */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	rc = diag_dump(fd, AF_INET, v, n, cap);
	/* IPv6 may be off: an IPv4 answer alone is a whole answer then */
	if (rc == 0 && diag_dump(fd, AF_INET6, v, n, cap) < 0 &&
	    errno != ENOENT && errno != EAFNOSUPPORT && errno != EINVAL)
		rc = -1;
	close(fd);
	if (rc < 0)
		*n = n0;
	return rc;
}

/* The listeners as seen from proc.  For the real /proc, ask the kernel
 * over sock_diag first, as ss does: a read of /proc/net/tcp walks the
 * whole established hash table (262144 buckets on a 24 GiB machine, about
 * 2 ms), and does it again for the read that finds EOF, for each of the
 * two files, while a LISTEN-only dump walks the listening table alone.
 * The files remain the fallback (sock_diag refused, or not built). */
static int listeners_get(const char *proc, struct tcp_listener **v,
			 size_t *n, size_t *cap)
{
	if (!strcmp(proc, "/proc") && procnet_listeners_diag(v, n, cap) == 0)
		return 0;
	return procnet_listeners(proc, v, n, cap);
}

/* ---- who holds a socket ------------------------------------------- */

/* One (socket, process) pair found in the scan. */
struct match {
	unsigned long inode;
	int pid;
};

/* A process known to hold a wanted socket, and its family ties. */
struct kin {
	int pid, ppid, pgrp;	/* ppid, pgrp 0: unknown */
};

struct scan {
	const unsigned long *want;	/* sorted, unique, non-zero */
	size_t nwant;
	unsigned char *seen;	/* per want[]: some holder found */
	size_t nseen;
	struct match *m;
	size_t nm, cap;
	int denied;		/* some fd directory could not be read */
	int view;		/* enum proc_view, when some want is unseen */
	struct kin *kin;	/* holders so far, for phase 2 */
	size_t nkin, kin_cap;
	struct procnet_stats st;
};

static int ulong_cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a;
	unsigned long y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

static int match_cmp(const void *a, const void *b)
{
	const struct match *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

/* The inode of a "socket:[INODE]" link text, or 0. */
static unsigned long socket_inode(const char *s, size_t n)
{
	unsigned long long v;

	if (n < 10 || memcmp(s, "socket:[", 8) || s[n - 1] != ']')
		return 0;
	if (dec_parse(s + 8, n - 9, ULONG_MAX, &v) < 0)
		return 0;
	return (unsigned long)v;
}

static int pid_name(const char *s, int *pid)
{
	unsigned long long v;

	if (dec_parse(s, strlen(s), INT_MAX, &v) < 0 || v == 0)
		return -1;
	*pid = (int)v;
	return 0;
}

static void mark_seen(struct scan *sc, unsigned long ino)
{
	const unsigned long *w = bsearch(&ino, sc->want, sc->nwant,
					 sizeof(*sc->want), ulong_cmp);

	if (w && !sc->seen[w - sc->want]) {
		sc->seen[w - sc->want] = 1;
		sc->nseen++;
	}
}

/* Record the wanted sockets that process pid holds.  A process gone by now
 * (ENOENT, ESRCH) is skipped silently.  Any other failure to read its fd
 * directory (EACCES for another user's process; ENOTDIR, which is how a
 * fixture tree stands for that case, since root may read a mode-000
 * directory) marks the scan as having missed something. */
static void scan_pid(int base, int pid, struct scan *sc)
{
	char path[64], link[64];
	size_t first = sc->nm;
	struct dirent *e;
	DIR *d;
	int fd;

	sc->st.fd_dirs++;
	snprintf(path, sizeof(path), "%d/fd", pid);
	fd = openat(base, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno != ENOENT && errno != ESRCH)
			sc->denied = 1;
		return;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((e = readdir(d)) != NULL) {
		unsigned long ino;
		ssize_t k;
		size_t i;

		if (e->d_name[0] == '.')
			continue;
		k = readlinkat(fd, e->d_name, link, sizeof(link));
		if (k < 0) {
			if (errno == EACCES || errno == EPERM) {
				sc->denied = 1;
				break;
			}
			continue;	/* closed meanwhile */
		}
		ino = socket_inode(link, (size_t)k);
		if (!ino || !bsearch(&ino, sc->want, sc->nwant,
				     sizeof(*sc->want), ulong_cmp))
			continue;
		for (i = first; i < sc->nm && sc->m[i].inode != ino; i++)
			;
		if (i < sc->nm)
			continue;	/* the same socket on another fd */
		grow(&sc->m, sizeof(*sc->m), &sc->cap, sc->nm + 1);
		sc->m[sc->nm].inode = ino;
		sc->m[sc->nm].pid = pid;
		sc->nm++;
		mark_seen(sc, ino);
		/* this process holds them all: its other fds cannot add any */
		if (sc->nm - first == sc->nwant)
			break;
	}
	closedir(d);
}

static ssize_t read_head(int base, const char *path, char *buf, size_t size);

/* The parent and process group of pid from <pid>/stat ("PID (COMM) S PPID
 * PGRP ..."; COMM may hold spaces and parentheses, so the fields are
 * counted from its last ')').  0, or -1 when it cannot be read. */
static int pid_family(int base, int pid, int *ppid, int *pgrp)
{
	char path[64], buf[512];
	unsigned long long a, b;
	const char *p, *q;
	size_t n;

	snprintf(path, sizeof(path), "%d/stat", pid);
	if (read_head(base, path, buf, sizeof(buf)) < 0)
		return -1;
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	p += 4;
	n = strspn(p, "0123456789");
	if (dec_parse(p, n, INT_MAX, &a) < 0 || p[n] != ' ')
		return -1;
	q = p + n + 1;
	n = strspn(q, "0123456789");
	if (dec_parse(q, n, INT_MAX, &b) < 0)
		return -1;
	*ppid = (int)a;
	*pgrp = (int)b;
	return 0;
}

static void kin_add(struct scan *sc, int pid, int ppid, int pgrp)
{
	grow(&sc->kin, sizeof(*sc->kin), &sc->kin_cap, sc->nkin + 1);
	sc->kin[sc->nkin].pid = pid;
	sc->kin[sc->nkin].ppid = ppid;
	sc->kin[sc->nkin].pgrp = pgrp;
	sc->nkin++;
}

/* Whether a process with these ties may share a holder's sockets: a child
 * of a holder (fork), one of its process group (pre-fork workers, also
 * when double-forked away from the master), or a holder's parent (a
 * master whose pid wrapped around above its worker's). */
static int kin_related(const struct scan *sc, int pid, int ppid, int pgrp)
{
	size_t i;

	for (i = 0; i < sc->nkin; i++) {
		const struct kin *k = &sc->kin[i];

		if (ppid == k->pid || (pgrp > 0 && pgrp == k->pgrp) ||
		    pid == k->ppid)
			return 1;
	}
	return 0;
}

static int int_cmp(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* The pids listed in the open /proc directory d, sorted, in a new array
 * the caller frees (NULL and *n 0 when there are none). */
static int *pid_list(DIR *d, size_t *n)
{
	struct dirent *e;
	int *v = NULL;
	size_t cap = 0;

	*n = 0;
	while ((e = readdir(d)) != NULL) {
		int pid;

		if (e->d_name[0] < '1' || e->d_name[0] > '9' ||
		    pid_name(e->d_name, &pid) < 0)
			continue;
		grow(&v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = pid;
	}
	/* /proc lists pids in order; a fixture tree or a copy need not */
	if (*n)
		qsort(v, *n, sizeof(*v), int_cmp);
	return v;
}

/*
 * Find every process holding one of the wanted sockets, in two phases.
 *
 * Two promises pull apart here: stop the scan as soon as every wanted
 * socket is found (the scan is most of a run's cost on a busy machine),
 * and report every process holding a socket, since after fork() several
 * do (a pre-fork server's master and its workers; systemd's socket
 * activation hands one to a service).  /proc does not say how many
 * processes hold a socket, so stopping at the first holder would report a
 * master and drop its workers.  The reconciliation:
 *
 * Phase 1 reads /proc/PID/fd of every process in pid order until each
 * wanted socket has at least one holder.  Everything before that point
 * has been looked at in full.
 *
 * Phase 2 reads, for each remaining pid, only /proc/PID/stat (one small
 * read, no readlink per descriptor) and scans the fd directory only of a
 * process that is kin to a holder: its child, a member of its process
 * group, or its parent.  A process found to hold a socket becomes kin in
 * turn, so workers of workers are followed too.  What phase 2 does not
 * find is a descriptor passed over a unix socket to an unrelated process
 * that started later (rare, and named in the man page).  When a stat
 * cannot be read the fd directory is read anyway: missing nothing matters
 * more than speed.
 *
 * Within a process, once it is seen to hold every wanted socket, its
 * other descriptors are not read.
 */
static void scan_all(const char *proc, struct scan *sc)
{
	size_t i, n, j;
	int *pids;
	DIR *d;

	d = opendir(proc);
	if (!d) {
		if (errno != ENOENT)
			sc->denied = 1;
		return;
	}
	pids = pid_list(d, &n);
	sc->st.pids = n;
	for (i = 0; i < n && sc->nseen < sc->nwant; i++)
		scan_pid(dirfd(d), pids[i], sc);
	sc->st.phase1 = i;
	/* the holders phase 1 found, with their ties */
	for (j = 0; i < n && j < sc->nm; j++) {
		int ppid = 0, pgrp = 0;

		if (j && sc->m[j - 1].pid == sc->m[j].pid)
			continue;
		pid_family(dirfd(d), sc->m[j].pid, &ppid, &pgrp);
		kin_add(sc, sc->m[j].pid, ppid, pgrp);
	}
	for (; i < n; i++) {
		int ppid = 0, pgrp = 0, known;
		size_t before = sc->nm;

		sc->st.stat_reads++;
		known = pid_family(dirfd(d), pids[i], &ppid, &pgrp) == 0;
		if (known && !kin_related(sc, pids[i], ppid, pgrp))
			continue;
		scan_pid(dirfd(d), pids[i], sc);
		if (sc->nm > before)
			kin_add(sc, pids[i], ppid, pgrp);
	}
	free(pids);
	closedir(d);
}

/* Up to size-1 bytes of base/path, NUL-terminated; the length read, or -1
 * with errno. */
static ssize_t read_head(int base, const char *path, char *buf, size_t size)
{
	size_t len = 0;
	int fd;

	fd = openat(base, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -1;
	while (len < size - 1) {
		ssize_t k = read(fd, buf + len, size - 1 - len);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int saved = errno;

			close(fd);
			errno = saved;
			return -1;
		}
		if (k == 0)
			break;
		len += (size_t)k;
	}
	close(fd);
	buf[len] = '\0';
	return (ssize_t)len;
}

/* The real uid from the "Uid:" line of a status text; -1 when absent. */
static int status_uid(const char *s, unsigned *uid)
{
	const char *p = s;
	unsigned long long v;

	while (p) {
		if (!strncmp(p, "Uid:", 4)) {
			size_t n;

			p += 4;
			while (*p == ' ' || *p == '\t')
				p++;
			n = strspn(p, "0123456789");
			if (dec_parse(p, n, UINT_MAX, &v) < 0)
				return -1;
			*uid = (unsigned)v;
			return 0;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return -1;
}

/* A new string: the user name of uid, or uid in decimal. */
static char *user_name(unsigned uid)
{
	struct passwd pw, *res = NULL;
	size_t size = 1024;
	char *buf;

	for (;;) {
		int rc;

		buf = xmalloc(size);
		rc = getpwuid_r((uid_t)uid, &pw, buf, size, &res);
		if (rc != ERANGE || size >= 1024 * 1024)
			break;
		free(buf);
		size *= 2;
	}
	if (res) {
		char *name = text_clean(res->pw_name);

		free(buf);
		return name;
	}
	free(buf);
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "%u", uid);
		return buf_detach(&b);
	}
}

static int is_container_helper(const char *comm)
{
	/* comm is cut at 15 bytes: "containerd-shim-runc-v2" reads
	 * "containerd-shim"; passt installs "pasta.avx2"; podman's rootless
	 * port forwarder is "rootlessport"; rootful podman keeps the
	 * published ports' sockets open in "conmon" */
	static const char *const exact[] = {
		"docker-proxy", "rootlesskit", "rootlessport", "slirp4netns",
		"pasta", "conmon",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(exact); i++)
		if (!strcmp(comm, exact[i]))
			return 1;
	return !strncmp(comm, "containerd-shim", 15) ||
	       !strncmp(comm, "pasta.", 6);
}

/* Fill h with what /proc says about pid.  Returns -1 when the process has
 * gone meanwhile.  Strings in h are new. */
static int holder_fill(int base, int pid, const char *repo,
		       struct port_holder *h)
{
	char path[64], buf[4096];
	ssize_t k;
	struct stat st;

	memset(h, 0, sizeof(*h));
	h->pid = pid;
	snprintf(path, sizeof(path), "%d", pid);
	if (fstatat(base, path, &st, 0) < 0)
		return -1;
	snprintf(path, sizeof(path), "%d/comm", pid);
	k = read_head(base, path, buf, 64);
	if (k < 0 && (errno == ENOENT || errno == ESRCH))
		return -1;
	if (k > 0 && buf[k - 1] == '\n')
		buf[--k] = '\0';
	h->command = text_clean(k > 0 ? buf : "?");

	snprintf(path, sizeof(path), "%d/cmdline", pid);
	k = read_head(base, path, buf, sizeof(buf));
	/* anyone may read another user's cmdline, but envpreflight never
	 * prints a secret: redact.h hides the shapes it knows */
	h->cmdline = redact_cmdline(buf, k > 0 ? (size_t)k : 0, CMDLINE_MAX);

	snprintf(path, sizeof(path), "%d/stat", pid);
	if (read_head(base, path, buf, sizeof(buf)) >= 0 &&
	    procnet_stat_starttime(buf, &h->start_time) == 0)
		h->have_start = 1;

	snprintf(path, sizeof(path), "%d/status", pid);
	h->uid = (unsigned)st.st_uid;
	if (read_head(base, path, buf, sizeof(buf)) >= 0)
		status_uid(buf, &h->uid);
	h->user = user_name(h->uid);

	snprintf(path, sizeof(path), "%d/cwd", pid);
	k = readlinkat(base, path, buf, sizeof(buf) - 1);
	if (k > 0) {
		static const char deleted[] = " (deleted)";
		size_t dl = sizeof(deleted) - 1;

		buf[k] = '\0';
		h->cwd = text_clean(buf);
		/* a repository removed and cloned again still leaves its
		 * orphans in "<repo> (deleted)": they are this repo's too */
		if ((size_t)k > dl && !strcmp(buf + k - dl, deleted))
			buf[k - dl] = '\0';
	}
	if (is_container_helper(h->command))
		h->klass = HOLDER_CONTAINER;
	else if (h->cwd && repo && buf[0] == '/' && path_is_inside(buf, repo))
		h->klass = HOLDER_THIS_REPO;
	else if (h->uid == (unsigned)geteuid())
		h->klass = HOLDER_SAME_USER;
	else
		h->klass = HOLDER_OTHER_USER;
	return 0;
}

static void holder_release(struct port_holder *h)
{
	free(h->command);
	free(h->cmdline);
	free(h->user);
	free(h->cwd);
}

static void holder_copy(struct port_holder *dst, const struct port_holder *src)
{
	*dst = *src;
	dst->command = xstrdup(src->command);
	dst->cmdline = xstrdup(src->cmdline);
	dst->user = xstrdup(src->user);
	dst->cwd = src->cwd ? xstrdup(src->cwd) : NULL;
}

const char *holder_class_name(int klass)
{
	switch (klass) {
	case HOLDER_THIS_REPO:
		return "this-repo";
	case HOLDER_SAME_USER:
		return "same-user";
	case HOLDER_OTHER_USER:
		return "other-user";
	case HOLDER_CONTAINER:
		return "container";
	}
	return "unknown";
}

/* ---- putting it together ------------------------------------------ */

static int listener_cmp(const void *a, const void *b)
{
	const struct tcp_listener *x = a, *y = b;
	int c;

	if (x->family != y->family)
		return x->family == AF_INET ? -1 : 1;
	c = memcmp(x->addr, y->addr, sizeof(x->addr));
	if (c)
		return c;
	return x->inode < y->inode ? -1 : x->inode > y->inode;
}

/* Copy the listeners of s->port out of all[], once each: the table is not
 * an atomic snapshot and may list a socket twice. */
static void port_listeners(struct port_status *s,
			   const struct tcp_listener *all, size_t n)
{
	size_t i, j, cap = 0;

	for (i = 0; i < n; i++) {
		if (all[i].port != s->port)
			continue;
		for (j = 0; j < s->nl; j++)
			if (!listener_cmp(&s->listeners[j], &all[i]))
				break;
		if (j < s->nl)
			continue;
		grow(&s->listeners, sizeof(*s->listeners), &cap, s->nl + 1);
		s->listeners[s->nl++] = all[i];
	}
	if (s->nl)
		qsort(s->listeners, s->nl, sizeof(*s->listeners), listener_cmp);
	s->busy = s->nl > 0;
}

static int holds(const struct scan *sc, int pid, unsigned long inode)
{
	struct match key = { inode, pid };

	return inode && bsearch(&key, sc->m, sc->nm, sizeof(*sc->m), match_cmp);
}

/* Give s the holders (from the per-process list hs) of its sockets, and
 * note sockets nobody visible holds. */
static void port_holders(struct port_status *s, const struct scan *sc,
			 const struct port_holder *hs, size_t nhs)
{
	size_t i, j, cap = 0;

	for (i = 0; i < nhs; i++) {
		for (j = 0; j < s->nl; j++)
			if (holds(sc, hs[i].pid, s->listeners[j].inode))
				break;
		if (j == s->nl)
			continue;
		grow(&s->holders, sizeof(*s->holders), &cap, s->nh + 1);
		holder_copy(&s->holders[s->nh], &hs[i]);
		s->holders[s->nh].listener = j;
		s->nh++;
	}
	for (j = 0; j < s->nl; j++) {
		for (i = 0; i < s->nh; i++)
			if (holds(sc, s->holders[i].pid, s->listeners[j].inode))
				break;
		if (i < s->nh)
			continue;
		if (!s->hidden)
			s->hidden_uid = s->listeners[j].uid;
		s->hidden = 1;
		s->hidden_denied = sc->denied;
		s->hidden_view = sc->view;
	}
}

/* The sorted, unique, non-zero inodes of every busy wanted port. */
static unsigned long *wanted_inodes(const struct port_status *out,
				    size_t nports, size_t *nwant)
{
	unsigned long *w = NULL;
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < nports; i++)
		for (j = 0; j < out[i].nl; j++) {
			if (!out[i].listeners[j].inode)
				continue;
			grow(&w, sizeof(*w), &cap, n + 1);
			w[n++] = out[i].listeners[j].inode;
		}
	if (n)
		qsort(w, n, sizeof(*w), ulong_cmp);
	for (i = j = 0; i < n; i++)
		if (!j || w[j - 1] != w[i])
			w[j++] = w[i];
	*nwant = j;
	return w;
}

/* Why a holder may be out of sight: proc holds no process at all (not
 * even ourselves: "self"), or it is mounted with hidepid. */
static int proc_view_of(const char *proc, size_t npids)
{
	char *self = path_join(proc, "self");
	char *canon = realpath(proc, NULL);
	struct blob b;
	int h = -1, exists;

	exists = access(self, F_OK) == 0;
	free(self);
	if (!npids && !exists) {
		free(canon);
		return PROC_VIEW_UNMOUNTED;
	}
	self = path_join(proc, "self/mountinfo");
	if (saferead_path(self, NET_TCP_CAP, &b) == 0) {
		h = procnet_hidepid(b.data, b.len, canon ? canon : proc);
		blob_release(&b);
	}
	free(self);
	free(canon);
	return h >= 2 ? PROC_VIEW_HIDEPID : PROC_VIEW_ALL;
}

/* Fill the holders of every port from one scan of proc; what the scan
 * did goes to *stats when not NULL. */
static void lookup_holders(const char *proc, const char *repo,
			   struct port_status *out, size_t nports,
			   struct procnet_stats *stats)
{
	struct scan sc;
	struct port_holder *hs = NULL;
	size_t nhs = 0, cap = 0, i;
	unsigned long *want;
	DIR *d;

	memset(&sc, 0, sizeof(sc));
	want = wanted_inodes(out, nports, &sc.nwant);
	sc.want = want;
	if (sc.nwant) {
		sc.seen = xcalloc(sc.nwant, 1);
		scan_all(proc, &sc);
	}
	if (stats)
		*stats = sc.st;
	if (sc.nm)
		qsort(sc.m, sc.nm, sizeof(*sc.m), match_cmp);
	d = sc.nm ? opendir(proc) : NULL;
	for (i = 0; d && i < sc.nm; i++) {
		if (i && sc.m[i - 1].pid == sc.m[i].pid)
			continue;
		grow(&hs, sizeof(*hs), &cap, nhs + 1);
		if (holder_fill(dirfd(d), sc.m[i].pid, repo, &hs[nhs]) == 0)
			nhs++;
		else
			holder_release(&hs[nhs]);
	}
	if (d)
		closedir(d);
	if (sc.nseen < sc.nwant)
		sc.view = proc_view_of(proc, sc.st.pids);
	for (i = 0; i < nports; i++)
		if (out[i].busy)
			port_holders(&out[i], &sc, hs, nhs);
	for (i = 0; i < nhs; i++)
		holder_release(&hs[i]);
	free(hs);
	free(sc.m);
	free(sc.seen);
	free(sc.kin);
	free(want);
}

int ports_lookup_stats(const char *proc, const unsigned *ports, size_t nports,
		       const char *repo_root, struct port_status *out,
		       struct procnet_stats *stats)
{
	struct tcp_listener *all = NULL;
	size_t n = 0, cap = 0, i;
	char *repo = NULL;

	if (stats)
		memset(stats, 0, sizeof(*stats));
	for (i = 0; i < nports; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].port = ports[i];
	}
	if (!nports)
		return 0;
	if (!proc)
		proc = proc_root();
	if (listeners_get(proc, &all, &n, &cap) < 0) {
		int saved = errno;

		free(all);
		errno = saved;
		return -1;
	}
	for (i = 0; i < nports; i++)
		port_listeners(&out[i], all, n);
	free(all);
	if (repo_root) {
		repo = realpath(repo_root, NULL);
		if (!repo)
			repo = xstrdup(repo_root);
	}
	lookup_holders(proc, repo, out, nports, stats);
	free(repo);
	return 0;
}

int ports_lookup_at(const char *proc, const unsigned *ports, size_t nports,
		    const char *repo_root, struct port_status *out)
{
	return ports_lookup_stats(proc, ports, nports, repo_root, out, NULL);
}

int ports_lookup(const unsigned *ports, size_t nports, const char *repo_root,
		 struct port_status *out)
{
	return ports_lookup_at(proc_root(), ports, nports, repo_root, out);
}

void port_status_release(struct port_status *s)
{
	size_t i;

	for (i = 0; i < s->nh; i++)
		holder_release(&s->holders[i]);
	free(s->holders);
	free(s->listeners);
	s->holders = NULL;
	s->listeners = NULL;
	s->nh = s->nl = 0;
}
