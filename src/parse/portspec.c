/* portspec.c - see portspec.h
 *
 * The compose short syntax is split from the right, as docker's own parser
 * (go-connections nat.ParsePortSpec) does: the last ':' part is the
 * container port, the one before it the host port, everything before that
 * the host IP (so "::1:8080:80" and "[::1]:8080:80" both work).
 */
#include "portspec.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define QUOTE_MAX 40

/* Copy at most QUOTE_MAX bytes of [s, s+n) to dst for an error message,
 * non-printable bytes replaced: the text comes from the repository. */
static const char *quote(char *dst, size_t size, const char *s, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n && k + 4 < size; i++) {
		if (i == QUOTE_MAX) {
			memcpy(dst + k, "...", 3);
			k += 3;
			break;
		}
		dst[k++] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
	}
	dst[k] = '\0';
	return dst;
}

/* A decimal port of [s, s+n): 1 in range, 0 when the digits are out of
 * 1-65535, -1 when it is not a number at all. */
static int port_digits(const char *s, size_t n, unsigned *out)
{
	unsigned long v = 0;
	size_t i;

	if (n == 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v < 100000)
			v = v * 10 + (unsigned long)(s[i] - '0');
	}
	if (v < 1 || v > 65535)
		return 0;
	*out = (unsigned)v;
	return 1;
}

/* "P" or "LO-HI" of [s, s+n).  0, or -1 with err filled. */
static int range_parse(const char *s, size_t n, unsigned *lo, unsigned *hi,
		       char *err, size_t errlen)
{
	const char *dash = memchr(s, '-', n);
	size_t n1 = dash ? (size_t)(dash - s) : n;
	char q[64];
	int a, b = 1;

	a = port_digits(s, n1, lo);
	if (dash)
		b = port_digits(dash + 1, n - n1 - 1, hi);
	else
		*hi = *lo;
	if (a < 0 || b < 0) {
		snprintf(err, errlen, "'%s' is not a port number or range",
			 quote(q, sizeof(q), s, n));
		return -1;
	}
	if (a == 0 || b == 0) {
		snprintf(err, errlen, "port '%s' is out of range 1-65535",
			 quote(q, sizeof(q), s, n));
		return -1;
	}
	if (*hi < *lo) {
		snprintf(err, errlen, "port range '%s' is reversed",
			 quote(q, sizeof(q), s, n));
		return -1;
	}
	return 0;
}

int portspec_range(const char *s, unsigned *lo, unsigned *hi)
{
	char err[8];

	return range_parse(s, strlen(s), lo, hi, err, sizeof(err));
}

/* The host IP part [s, s+n), brackets allowed around IPv6, into out. */
static int ip_parse(const char *s, size_t n, struct portspec *out, char *err,
		    size_t errlen)
{
	char ip[64], q[64];
	unsigned char a[16];

	if (n >= 2 && s[0] == '[' && s[n - 1] == ']')
		s++, n -= 2;
	if (n == 0 || n >= sizeof(ip) || memchr(s, '\0', n))
		goto bad;
	memcpy(ip, s, n);
	ip[n] = '\0';
	if (inet_pton(AF_INET, ip, a) != 1 && inet_pton(AF_INET6, ip, a) != 1)
		goto bad;
	memcpy(out->host_ip, ip, n + 1);
	return 0;
bad:
	snprintf(err, errlen, "'%s' is not an IP address",
		 quote(q, sizeof(q), s, n));
	return -1;
}

static int proto_parse(const char *s, struct portspec *out, char *err,
		       size_t errlen)
{
	static const char *const known[] = { "tcp", "udp", "sctp" };
	char q[64];
	size_t i;

	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
		if (!strcmp(s, known[i])) {
			memcpy(out->proto, known[i], strlen(known[i]) + 1);
			out->tcp = i == 0;
			return 0;
		}
	}
	snprintf(err, errlen, "unknown protocol '%s' (tcp, udp or sctp)",
		 quote(q, sizeof(q), s, strlen(s)));
	return -1;
}

int portspec_parse(const char *s, struct portspec *out, char *err,
		   size_t errlen)
{
	const char *slash, *end, *c, *h = NULL;
	char q[64], q2[64];
	size_t hn = 0;

	memset(out, 0, sizeof(*out));
	memcpy(out->proto, "tcp", 4);
	out->tcp = 1;
	if (!*s) {
		snprintf(err, errlen, "empty port entry");
		return -1;
	}
	slash = strchr(s, '/');
	end = slash ? slash : s + strlen(s);
	if (slash && slash[1] && proto_parse(slash + 1, out, err, errlen) < 0)
		return -1;
	/* the container port: after the last ':' */
	for (c = end; c > s && c[-1] != ':'; c--)
		;
	if (c > s) {
		/* the host port: between the two last ':' */
		const char *hs;

		for (hs = c - 1; hs > s && hs[-1] != ':'; hs--)
			;
		h = hs;
		hn = (size_t)(c - 1 - hs);
		/* an empty IP (":8080:80") is allowed, as docker allows it */
		if (hs - 1 > s && ip_parse(s, (size_t)(hs - 1 - s), out, err,
					   errlen) < 0)
			return -1;
	}
	if (c == end) {
		snprintf(err, errlen, "no container port in '%s'",
			 quote(q, sizeof(q), s, strlen(s)));
		return -1;
	}
	if (range_parse(c, (size_t)(end - c), &out->ctr_lo, &out->ctr_hi,
			err, errlen) < 0)
		return -1;
	/* "3000", "127.0.0.1::80": no fixed host port */
	if (!hn)
		return 0;
	if (range_parse(h, hn, &out->host_lo, &out->host_hi, err, errlen) < 0)
		return -1;
	if (out->host_hi - out->host_lo == out->ctr_hi - out->ctr_lo)
		return 0;
	if (out->ctr_lo == out->ctr_hi) {
		out->pick_one = 1;
		return 0;
	}
	snprintf(err, errlen,
		 "host ports '%s' and container ports '%s' differ in number",
		 quote(q, sizeof(q), h, hn),
		 quote(q2, sizeof(q2), c, (size_t)(end - c)));
	return -1;
}

/* ---- URLs ---------------------------------------------------------- */

struct scheme {
	const char *scheme, *name;
	unsigned port;
};

static const struct scheme schemes[] = {
	{ "postgres", "postgresql", 5432 },
	{ "postgresql", "postgresql", 5432 },
	{ "mysql", "mysql", 3306 },
	{ "mysql2", "mysql", 3306 },	/* Rails */
	{ "mariadb", "mariadb", 3306 },
	{ "redis", "redis", 6379 },
	{ "rediss", "redis", 6379 },
	{ "mongodb", "mongodb", 27017 },
	{ "amqp", "amqp", 5672 },
	{ "amqps", "amqp", 5671 },
	{ "http", "http", 80 },
	{ "https", "https", 443 },
	{ "ws", "http", 80 },
	{ "wss", "https", 443 },
	{ "nats", "nats", 4222 },
	{ "memcached", "memcached", 11211 },
	{ "sqlserver", "sqlserver", 1433 },
	{ "mssql", "sqlserver", 1433 },
	{ "clickhouse", "clickhouse", 9000 },
	{ "kafka", "kafka", 9092 },
	{ "mqtt", "mqtt", 1883 },
	{ "mqtts", "mqtt", 8883 },
	{ "neo4j", "neo4j", 7687 },
	{ "bolt", "neo4j", 7687 },
	{ "smtp", "smtp", 25 },
	{ "smtps", "smtp", 465 },
	{ "ldap", "ldap", 389 },
	{ "ldaps", "ldap", 636 },
	{ "ftp", "ftp", 21 },
};

static int is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* The table row of the scheme [s, s+n) ("postgresql+asyncpg" as
 * "postgresql"), or NULL. */
static const struct scheme *scheme_find(const char *s, size_t n)
{
	const char *plus = memchr(s, '+', n);
	size_t i;

	if (plus)
		n = (size_t)(plus - s);
	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++)
		if (strlen(schemes[i].scheme) == n &&
		    !strncasecmp(s, schemes[i].scheme, n))
			return &schemes[i];
	return NULL;
}

/* Whether host [s, s+n) (brackets removed) is this machine.  Names that
 * resolve to loopback only in some setups (*.localhost) are left out. */
static int host_is_local(const char *s, size_t n)
{
	static const char *const names[] = {
		"localhost", "localhost.", "ip6-localhost", "ip6-loopback",
	};
	unsigned char a[16];
	char h[64];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !strncasecmp(s, names[i], n))
			return 1;
	if (n == 0 || n >= sizeof(h) || memchr(s, '\0', n))
		return 0;
	memcpy(h, s, n);
	h[n] = '\0';
	if (inet_pton(AF_INET, h, a) == 1)
		return a[0] == 127 || !memcmp(a, "\0\0\0\0", 4);
	if (inet_pton(AF_INET6, h, a) != 1)
		return 0;
	{
		struct in6_addr a6;

		memcpy(&a6, a, 16);
		if (IN6_IS_ADDR_LOOPBACK(&a6) || IN6_IS_ADDR_UNSPECIFIED(&a6))
			return 1;
		return IN6_IS_ADDR_V4MAPPED(&a6) &&
		       (a[12] == 127 || !memcmp(a + 12, "\0\0\0\0", 4));
	}
}

/*
 * scheme "://" [userinfo "@"] host [":" port] [("/" | "?" | "#") ...]
 *
 * The authority ends at the first '/', '?' or '#' and the host follows its
 * last '@' (as WHATWG URL parsers do), so an unencoded '@' in a password
 * does not move the host.  Several hosts ("h1:1,h2:2", libpq and mongodb)
 * are reduced to the first one.  An empty host means a unix socket to
 * libpq and is not a TCP service.
 */
int portspec_local_url(const char *value, unsigned *port,
		       const char **scheme_out)
{
	const char *p = value, *s, *auth, *aend, *host, *hend, *q;
	const struct scheme *sc;
	size_t i, hn;

	if (scheme_out)
		*scheme_out = NULL;
	if (!strncasecmp(p, "jdbc:", 5))
		p += 5;
	s = p;
	if (!is_alpha(*p))
		return 0;
	while (is_alpha(*p) || is_digit(*p) || *p == '+' || *p == '-' ||
	       *p == '.')
		p++;
	if (strncmp(p, "://", 3))
		return 0;
	sc = scheme_find(s, (size_t)(p - s));
	/* mongodb+srv names a DNS SRV record, never a host:port */
	if ((size_t)(p - s) > 4 && !strncasecmp(p - 4, "+srv", 4))
		return 0;
	auth = p + 3;
	aend = auth + strcspn(auth, "/?#");
	host = auth;
	for (q = auth; q < aend; q++)
		if (*q == '@')
			host = q + 1;
	if (*host == '[') {
		hend = memchr(host, ']', (size_t)(aend - host));
		if (!hend)
			return 0;
		host++;
		hn = (size_t)(hend - host);
		hend++;
	} else {
		for (hend = host; hend < aend && *hend != ':' && *hend != ',';
		     hend++)
			;
		hn = (size_t)(hend - host);
	}
	if (!host_is_local(host, hn))
		return 0;
	if (hend < aend && *hend == ':' && hend + 1 < aend && hend[1] != ',') {
		for (i = 1; hend + i < aend && hend[i] != ','; i++)
			;
		/* a variable (dotenv-expand's ${DB_PORT}, $PORT) or a
		 * placeholder (<port>, {{port}}): the port is unknown */
		if (memchr(hend + 1, '$', i - 1) || memchr(hend + 1, '{', i - 1) ||
		    memchr(hend + 1, '<', i - 1))
			return 0;
		if (port_digits(hend + 1, i - 1, port) != 1)
			return -1;	/* this machine, but no valid port */
	} else if (hend < aend && *hend != ':' && *hend != ',') {
		return 0;	/* "[::1]x" */
	} else if (sc) {
		*port = sc->port;
	} else {
		return 0;
	}
	if (scheme_out && sc)
		*scheme_out = sc->name;
	return 1;
}
