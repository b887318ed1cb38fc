/* procnet_text.c - the texts of /proc that procnet.c reads, parsed: the
 * socket tables (/proc/net/tcp{,6}), the lines of <pid>/stat and
 * <pid>/status, mountinfo, "socket:[INODE]" links, and the order in which
 * the holder scan meets the processes.  Pure: bytes in, values out, no
 * system call (tests/integration/layers.sh); the fuzz target procnet reads
 * through here.  Facts relied on: shared/conformance/proc-net-tcp.md.
 */
#include "procnet_text.h"
#include "util.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define TCP_LISTEN 0x0a

/* Exactly n (1..20) decimal digits, at most max, into *out. */
int procnet_dec(const char *s, size_t n, unsigned long long max,
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
		return procnet_dec(p, n, ULLONG_MAX, out);
	}
}

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

	f[0] = point[0] = '\0';	/* for cppcheck: mi_field fills them */
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

/* Fill the derived fields of l from family and addr. */
void procnet_listener_text(struct tcp_listener *l)
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
	procnet_listener_text(l);
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
	    procnet_dec(f[0], fl[0] - 1, ULLONG_MAX, &v) < 0)
		return -1;
	if (fl[3] != 2 || hex_parse(f[3], 2, &st) < 0)
		return -1;
	if (addr_parse(f[1], fl[1], family, l) < 0)
		return -1;
	if (procnet_dec(f[7], fl[7], UINT_MAX, &v) < 0)
		return -1;
	l->uid = (unsigned)v;
	if (procnet_dec(f[9], fl[9], ULONG_MAX, &v) < 0)
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

/* The inode of a "socket:[INODE]" link text, or 0. */
unsigned long procnet_socket_inode(const char *s, size_t n)
{
	unsigned long long v;

	if (n < 10 || memcmp(s, "socket:[", 8) || s[n - 1] != ']')
		return 0;
	if (procnet_dec(s + 8, n - 9, ULONG_MAX, &v) < 0)
		return 0;
	return (unsigned long)v;
}

int procnet_pid_name(const char *s, int *pid)
{
	unsigned long long v;

	if (procnet_dec(s, strlen(s), INT_MAX, &v) < 0 || v == 0)
		return -1;
	*pid = (int)v;
	return 0;
}

/* The parent and process group from a <pid>/stat text ("PID (COMM) S PPID
 * PGRP ..."; COMM may hold spaces and parentheses, so the fields are
 * counted from its last ')').  0, or -1 when it does not parse. */
int procnet_stat_ties(const char *buf, int *ppid, int *pgrp)
{
	unsigned long long a, b;
	const char *p, *q;
	size_t n;

	p = strrchr(buf, ')');
	if (!p || p[1] != ' ' || !p[2] || p[3] != ' ')
		return -1;
	p += 4;
	n = strspn(p, "0123456789");
	if (procnet_dec(p, n, INT_MAX, &a) < 0 || p[n] != ' ')
		return -1;
	q = p + n + 1;
	n = strspn(q, "0123456789");
	if (procnet_dec(q, n, INT_MAX, &b) < 0)
		return -1;
	*ppid = (int)a;
	*pgrp = (int)b;
	return 0;
}

int procnet_rank(const struct procnet_key *p, const struct tcp_listener *socks,
		 size_t n)
{
	int best = 0;
	size_t i, k;

	for (i = 0; i < n; i++) {
		int r = 0;

		if (socks[i].cgroup && p->cgroup == socks[i].cgroup)
			r += 2;
		for (k = 0; k < p->nuid && k < ARRAY_SIZE(p->uid); k++)
			if (p->uid[k] == socks[i].uid)
				break;
		if (k < p->nuid && k < ARRAY_SIZE(p->uid))
			r += 1;
		if (r > best)
			best = r;
	}
	return best;
}

int procnet_key_cmp(const struct procnet_key *x, const struct procnet_key *y)
{
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

static int key_qcmp(const void *a, const void *b)
{
	return procnet_key_cmp(a, b);
}

void procnet_order(struct procnet_key *v, size_t n,
		   const struct tcp_listener *socks, size_t nsocks)
{
	size_t i;

	for (i = 0; i < n; i++)
		v[i].rank = procnet_rank(&v[i], socks, nsocks);
	if (n)
		qsort(v, n, sizeof(*v), key_qcmp);
}

/* Undo the octal escapes (\040 for a space) of a mountinfo field, in
 * place. */
void procnet_mountinfo_unescape(char *s)
{
	char *q = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' &&
		    s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*q++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*q++ = *s;
		}
	}
	*q = '\0';
}

/* Up to max tab- or space-separated decimal values of a status line,
 * after its name, into v; *n how many parsed before the first that does
 * not. */
static void q_values(const char *p, unsigned long long *v, size_t max,
		     size_t *n)
{
	*n = 0;
	while (*n < max) {
		size_t len;

		while (*p == ' ' || *p == '\t')
			p++;
		len = strspn(p, "0123456789");
		if (procnet_dec(p, len, UINT_MAX, &v[*n]) < 0)
			return;
		(*n)++;
		p += len;
	}
}

/* The values of the "Uid:", "PPid:" and "NSpgid:" lines of a status text
 * (the first of NSpgid's: as seen from this /proc).  Sets what it finds:
 * the real, effective, saved and filesystem uids and *nuid 4; both ties
 * and *ties 1 (Linux 4.1 and later). */
void procnet_status_parse(const char *s, unsigned *uid, size_t *nuid,
			  int *ppid, int *pgrp, unsigned char *ties)
{
	static const char *const names[] = { "Uid:", "PPid:", "NSpgid:" };
	unsigned long long v[4];
	int have = 0;
	const char *p;
	size_t i, k;

	for (p = s; p; p = strchr(p, '\n')) {
		if (*p == '\n')
			p++;
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (!strncmp(p, names[i], strlen(names[i])))
				break;
		if (i == ARRAY_SIZE(names))
			continue;
		q_values(p + strlen(names[i]), v, i ? 1 : 4, &k);
		if (i == 0 && k == 4) {
			for (k = 0; k < 4; k++)
				uid[k] = (unsigned)v[k];
			*nuid = 4;
		} else if (i == 1 && k == 1) {
			*ppid = (int)v[0];
			have |= 1;
		} else if (i == 2 && k == 1) {
			*pgrp = (int)v[0];
			have |= 2;
		}
	}
	if (have == 3)
		*ties = 1;
}

/* The real uid from the "Uid:" line of a status text; -1 when absent. */
int procnet_status_uid(const char *s, unsigned *uid)
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
			if (procnet_dec(p, n, UINT_MAX, &v) < 0)
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
