/* redact.c - see redact.h.
 *
 * By shape: each argument gets a mask of the bytes to hide, which every
 * rule below may add to; hidden runs are then written as one "***".  The
 * rules, with the forms they cover:
 *
 *   option=VALUE       --password=X  --api-key=X  -Dssl.keyStorePassword=X
 *   option VALUE       --password X  --token X  --requirepass X  --auth X
 *   NAME=VALUE         PGPASSWORD=X  AWS_SECRET_ACCESS_KEY=X (env-style
 *                      arguments), ?access_token=X&sig=Y (URL queries),
 *                      "host=h password=X" (libpq conninfo)
 *   Name: VALUE        "Authorization: Bearer X", "X-Api-Key: X",
 *                      {"password": "X"}
 *   scheme CREDENTIAL  "Bearer X", "Basic X", "Token X", "Digest X"
 *   URL userinfo       scheme://user:X@host, scheme://X@host (a token as
 *                      the user name)
 *   token shapes       AKIA.. (AWS), ghp_.. github_pat_.. (GitHub),
 *                      glpat-.. (GitLab), xoxb-.. (Slack), sk_live_..
 *                      (Stripe), sk-.. (OpenAI and others), AIza..
 *                      (Google), npm_.., pypi-.., hf_.., eyJ...  (JWT),
 *                      -----BEGIN .. (a private key), and any run of 32+
 *                      letters and digits mixing upper case, lower case
 *                      and digits (a random key)
 *   client options     mysql/mariadb -pX, sshpass -p X, redis-cli -a X,
 *                      mongosh -p X, curl -u user:X, zip -P X, 7z -pX
 *
 * A name is secret-ish when it holds one of secret_words (any case), or is
 * one of secret_names.
 */
#include "redact.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- by shape ------------------------------------------------------ */

static const char *const secret_words[] = {
	"pass", "pwd", "secret", "token", "key", "auth", "cred", "cookie",
	"session", "private", "signature", "bearer",
};
static const char *const secret_names[] = { "pw", "sig", "sas" };

/* Whether the name [s, s+n) smells of a secret. */
static int secret_name(const char *s, size_t n)
{
	size_t i, j;

	while (n && *s == '-')
		s++, n--;
	for (i = 0; i < ARRAY_SIZE(secret_words); i++) {
		size_t wl = strlen(secret_words[i]);

		for (j = 0; j + wl <= n; j++)
			if (!strncasecmp(s + j, secret_words[i], wl))
				return 1;
	}
	for (i = 0; i < ARRAY_SIZE(secret_names); i++)
		if (strlen(secret_names[i]) == n && !strncasecmp(s, secret_names[i], n))
			return 1;
	return 0;
}

/* Clients that take a password as a short option.  ATTACHED: "-pX";
 * NEXT: "-p X" (mysql reads a bare -p as "ask me", so not for it). */
enum { ATTACHED = 1, NEXT = 2 };

static const struct client {
	const char *name;	/* the command's base name; '*' at the end: a prefix */
	char opt;		/* the short option */
	int how;
} clients[] = {
	{ "mysql*", 'p', ATTACHED },	/* mysql, mysqldump, mysqladmin, ... */
	{ "mariadb*", 'p', ATTACHED },
	{ "mydumper", 'p', ATTACHED | NEXT },
	{ "myloader", 'p', ATTACHED | NEXT },
	{ "sshpass", 'p', ATTACHED | NEXT },
	{ "redis-cli", 'a', ATTACHED | NEXT },
	{ "valkey-cli", 'a', ATTACHED | NEXT },
	{ "keydb-cli", 'a', ATTACHED | NEXT },
	{ "mongo*", 'p', ATTACHED | NEXT },	/* mongo, mongosh, mongodump, ... */
	{ "curl", 'u', ATTACHED | NEXT },	/* user:password */
	{ "curl", 'U', ATTACHED | NEXT },	/* proxy user:password */
	{ "zip", 'P', ATTACHED | NEXT },
	{ "unzip", 'P', ATTACHED | NEXT },
	{ "7z", 'p', ATTACHED },
	{ "7za", 'p', ATTACHED },
	{ "rar", 'p', ATTACHED },
	{ "unrar", 'p', ATTACHED },
	{ "smbclient", 'U', ATTACHED | NEXT },	/* user%password */
};

static int client_is(const struct client *c, const char *base, size_t n)
{
	size_t cl = strlen(c->name);

	if (c->name[cl - 1] == '*')
		return n >= cl - 1 && !memcmp(base, c->name, cl - 1);
	return n == cl && !memcmp(base, c->name, n);
}

/* Whether the word arg names a client: its base name into base. */
static int client_word(const char *arg, char *base, size_t size)
{
	const char *b = strrchr(arg, '/');
	size_t i, n;

	b = b ? b + 1 : arg;
	n = strlen(b);
	if (!n || n >= size)
		return 0;
	for (i = 0; i < ARRAY_SIZE(clients); i++) {
		if (client_is(&clients[i], b, n)) {
			memcpy(base, b, n + 1);
			return 1;
		}
	}
	return 0;
}

static int name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* The argument being looked at, and which of its bytes to hide. */
struct arg {
	const char *s;
	size_t n;
	unsigned char *hide;
};

static void hide_range(struct arg *a, size_t from, size_t to)
{
	if (from < to && to <= a->n)
		memset(a->hide + from, 1, to - from);
}

/* option=VALUE: the whole rest of the argument */
static void rule_option_value(struct arg *a)
{
	const char *eq = memchr(a->s, '=', a->n);

	if (a->s[0] == '-' && eq && secret_name(a->s, (size_t)(eq - a->s)))
		hide_range(a, (size_t)(eq - a->s) + 1, a->n);
}

/* NAME=VALUE anywhere: the value up to a separator */
static void rule_assignments(struct arg *a)
{
	size_t i, k, end;

	for (i = 1; i < a->n; i++) {
		if (a->s[i] != '=')
			continue;
		for (k = i; k > 0 && name_char(a->s[k - 1]); k--)
			;
		if (k == i || !secret_name(a->s + k, i - k))
			continue;
		end = i + 1 + strcspn(a->s + i + 1, " &;,\"'");
		hide_range(a, i + 1, end < a->n ? end : a->n);
	}
}

/* Name: VALUE (a header, a JSON or YAML pair) */
static void rule_headers(struct arg *a)
{
	size_t i, k, v;

	for (i = 1; i < a->n; i++) {
		size_t nend = i;

		if (a->s[i] != ':')
			continue;
		if (a->s[nend - 1] == '"' || a->s[nend - 1] == '\'')
			nend--;
		for (k = nend; k > 0 && name_char(a->s[k - 1]); k--)
			;
		if (k == nend || !secret_name(a->s + k, nend - k))
			continue;
		if (i + 2 < a->n && a->s[i + 1] == '/' && a->s[i + 2] == '/')
			continue;	/* a URL's scheme: the userinfo rule's */
		for (v = i + 1; v < a->n && a->s[v] == ' '; v++)
			;
		if (v < a->n && (a->s[v] == '"' || a->s[v] == '\'')) {
			const char *q = memchr(a->s + v + 1, a->s[v], a->n - v - 1);

			hide_range(a, v + 1, q ? (size_t)(q - a->s) : a->n);
		} else {
			hide_range(a, v, a->n);
		}
	}
}

/* Authorization schemes: the word after them */
static void rule_schemes(struct arg *a)
{
	static const char *const schemes[] = {
		"bearer", "basic", "token", "digest", "negotiate", "ntlm",
	};
	size_t i, j, v;

	for (i = 0; i < a->n; i++) {
		if (i && name_char(a->s[i - 1]))
			continue;	/* only at the start of a word */
		for (j = 0; j < ARRAY_SIZE(schemes); j++) {
			size_t sl = strlen(schemes[j]);

			if (i + sl >= a->n || strncasecmp(a->s + i, schemes[j], sl) ||
			    a->s[i + sl] != ' ')
				continue;
			for (v = i + sl; v < a->n && a->s[v] == ' '; v++)
				;
			hide_range(a, v, v + strcspn(a->s + v, " \"'"));
		}
	}
}

/* scheme://USERINFO@host: the password, or a lone user name (a token) */
static void rule_urls(struct arg *a)
{
	const char *p = a->s, *end = a->s + a->n;

	while ((p = strstr(p, "://")) != NULL && p < end) {
		const char *auth = p + 3, *stop, *at = NULL, *colon, *q;

		stop = auth + strcspn(auth, "/?# \"'");
		for (q = auth; q < stop; q++)
			if (*q == '@')
				at = q;
		p = auth;
		if (!at)
			continue;
		colon = memchr(auth, ':', (size_t)(at - auth));
		hide_range(a, (size_t)((colon ? colon + 1 : auth) - a->s),
			   (size_t)(at - a->s));
	}
}

/* Well-known token forms: a prefix, then at least min token bytes. */
static const struct shape {
	const char *prefix;
	size_t min;		/* bytes after the prefix */
} shapes[] = {
	{ "AKIA", 16 }, { "ASIA", 16 }, { "AGPA", 16 }, { "AIDA", 16 },
	{ "AROA", 16 }, { "ANPA", 16 }, { "ANVA", 16 }, { "AIPA", 16 },
	{ "ghp_", 20 }, { "gho_", 20 }, { "ghu_", 20 }, { "ghs_", 20 },
	{ "ghr_", 20 }, { "github_pat_", 20 }, { "glpat-", 16 },
	{ "xoxb-", 10 }, { "xoxp-", 10 }, { "xoxa-", 10 }, { "xoxr-", 10 },
	{ "xoxs-", 10 }, { "sk_live_", 10 }, { "sk_test_", 10 },
	{ "rk_live_", 10 }, { "rk_test_", 10 }, { "sk-", 20 }, { "AIza", 30 },
	{ "npm_", 30 }, { "pypi-", 16 }, { "hf_", 20 }, { "eyJ", 20 },
	{ "dop_v1_", 20 }, { "SG.", 20 },
};

static int token_char(char c)
{
	return name_char(c) || c == '+' || c == '/' || c == '=';
}

static void rule_shapes(struct arg *a)
{
	const char *key = strstr(a->s, "-----BEGIN");
	size_t i, j;

	if (key && (size_t)(key - a->s) < a->n)
		hide_range(a, (size_t)(key - a->s), a->n);
	for (i = 0; i < a->n; i++) {
		size_t run, up = 0, low = 0, dig = 0;

		if (i && token_char(a->s[i - 1]) && a->s[i - 1] != '/' &&
		    a->s[i - 1] != '=')
			continue;	/* only where a token can start */
		for (run = 0; i + run < a->n && token_char(a->s[i + run]); run++)
			;
		for (j = 0; j < ARRAY_SIZE(shapes); j++) {
			size_t pl = strlen(shapes[j].prefix);

			if (run >= pl + shapes[j].min &&
			    !strncmp(a->s + i, shapes[j].prefix, pl))
				hide_range(a, i, i + run);
		}
		/* a random key: 32+ letters and digits of both cases (hex
		 * ids and paths, of one case, stay shown) */
		for (run = 0; i + run < a->n && (name_char(a->s[i + run]) ||
						 a->s[i + run] == '+'); run++) {
			up += is_upper(a->s[i + run]);
			low += is_lower(a->s[i + run]);
			dig += is_digit(a->s[i + run]);
		}
		if (run >= 32 && up && low && dig)
			hide_range(a, i, i + run);
	}
}

/* What the arguments before told: the client being run (mysql, after
 * env or sudo too), and whether the next argument is a secret whole. */
struct shape_state {
	char client[32];	/* base name; "" when none */
	int hide_next;
};

/* The client's short option at a: "-pX" hides X, "-p" may hide the next
 * argument (*hide_next).  1 when a was that option. */
static int rule_client(struct arg *a, const char *client, int *hide_next)
{
	size_t i, cn = strlen(client);
	int hit = 0;

	if (a->n < 2 || a->s[0] != '-' || a->s[1] == '-')
		return 0;
	for (i = 0; i < ARRAY_SIZE(clients); i++) {
		const struct client *c = &clients[i];

		if (a->s[1] != c->opt || !client_is(c, client, cn))
			continue;
		if (a->n > 2 && (c->how & ATTACHED))
			hide_range(a, 2, a->n), hit = 1;
		else if (a->n == 2 && (c->how & NEXT))
			*hide_next = 1, hit = 1;
	}
	return hit;
}

/* Append one argument to b with what is to hide as "***". */
static void add_arg(struct buf *b, const char *s, struct shape_state *st)
{
	struct arg a;
	size_t i;
	int next = 0;

	a.s = s;
	a.n = strlen(s);
	if (st->hide_next) {
		/* hidden whole; if it is itself an option named like a
		 * secret ("--token --password X"), what follows is too */
		st->hide_next = s[0] == '-' && !memchr(s, '=', a.n) &&
				secret_name(s, a.n);
		buf_puts(b, REDACT_MASK);
		return;
	}
	if (s[0] != '-')
		client_word(s, st->client, sizeof(st->client));
	a.hide = xcalloc(a.n + 1, 1);
	/* -pX glued: X is the password, not the name of an option */
	if (!(st->client[0] && rule_client(&a, st->client, &next)) &&
	    s[0] == '-' && !memchr(s, '=', a.n) && secret_name(s, a.n))
		next = 1;
	rule_option_value(&a);
	rule_assignments(&a);
	rule_headers(&a);
	rule_schemes(&a);
	rule_urls(&a);
	rule_shapes(&a);
	for (i = 0; i < a.n; i++) {
		if (!a.hide[i]) {
			buf_putc(b, s[i]);
			continue;
		}
		buf_puts(b, REDACT_MASK);
		while (i + 1 < a.n && a.hide[i + 1])
			i++;
	}
	free(a.hide);
	st->hide_next = next;
}

char *redact_cmdline(const char *args, size_t len, size_t max)
{
	struct buf joined = BUF_INIT, arg = BUF_INIT;
	struct shape_state st;
	char *clean;
	size_t i, n;

	memset(&st, 0, sizeof(st));
	while (len && (args[len - 1] == '\0' || args[len - 1] == ' '))
		len--;
	for (i = 0; i < len; i += n + 1) {
		const char *nul = memchr(args + i, '\0', len - i);

		n = nul ? (size_t)(nul - (args + i)) : len - i;
		buf_release(&arg);
		buf_add(&arg, args + i, n);
		if (joined.len)
			buf_putc(&joined, ' ');
		add_arg(&joined, buf_str(&arg), &st);
	}
	buf_release(&arg);
	clean = text_clean(buf_str(&joined));
	buf_release(&joined);
	n = strlen(clean);
	if (n <= max)
		return clean;
	n = max > 3 ? max - 3 : 0;
	while (n && ((unsigned char)clean[n] & 0xc0) == 0x80)
		n--;
	memcpy(clean + n, "...", 4);
	return clean;
}

/* ---- by value ------------------------------------------------------ */

#define VALUE_SCAN 256		/* longer values never fit a whole command
				 * line (procnet cuts it at 120 bytes) */
#define CUT_SCAN_MAX 1024	/* values compared with a cut-off last token;
				 * past that the token is hidden unlooked */
#define HASH_BASE 1099511628211ULL

/*
 * The values as a command line shows them (cleaned as redact_cmdline
 * cleans it, trimmed), found in a command line by one rolling hash per
 * distinct value length: the work per command line is its length times
 * the number of distinct lengths (at most VALUE_SCAN), whatever the
 * number of values.  The copies are wiped when freed.
 */
struct secret {
	char *s;
	size_t len;
	uint64_t h;
};

struct redact_values {
	struct secret *v;
	size_t n, cap;
	size_t *slots;		/* index + 1 of the values that fit VALUE_SCAN,
				 * by hash; 0 free; built by the first apply */
	size_t mask;
	size_t lens[VALUE_SCAN + 1];	/* distinct lengths, ascending */
	size_t nlens;
};

static uint64_t hash_mem(const char *s, size_t n)
{
	uint64_t h = 0;
	size_t i;

	for (i = 0; i < n; i++)
		h = h * HASH_BASE + (unsigned char)s[i];
	return h;
}

static size_t slot_of(const struct redact_values *x, uint64_t h, size_t len)
{
	return (size_t)((h ^ (h >> 29) ^ (len * 0x9e3779b97f4a7c15ULL)) & x->mask);
}

struct redact_values *redact_values_new(void)
{
	return xcalloc(1, sizeof(struct redact_values));
}

/* One NUL-free part of a value. */
static void add_part(struct redact_values *x, const char *value)
{
	char *c = text_clean(value);
	const char *s = c;
	size_t n = strlen(c);

	while (n && s[0] == ' ')
		s++, n--;
	while (n && s[n - 1] == ' ')
		n--;
	if (n < REDACT_VALUE_MIN) {
		memset(c, 0, strlen(c));
		free(c);
		return;
	}
	memmove(c, s, n);
	memset(c + n, 0, strlen(c + n));
	grow(&x->v, sizeof(*x->v), &x->cap, x->n + 1);
	x->v[x->n].s = c;
	x->v[x->n].len = n;
	x->v[x->n].h = hash_mem(c, n);
	x->n++;
}

void redact_values_add(struct redact_values *x, const char *v, size_t len)
{
	size_t off = 0;

	/* argv has no NUL: each NUL-separated part on its own, read within
	 * v[0..len) only (v need not end in a NUL: fuzzing found the last
	 * part read on to the next NUL in memory) */
	while (off < len) {
		size_t n = strnlen(v + off, len - off);
		char *part = xstrndup(v + off, n);

		add_part(x, part);
		explicit_bzero(part, n);
		free(part);
		off += n + 1;
	}
}

size_t redact_values_count(const struct redact_values *x)
{
	return x->n;
}

/* 0 when a and b are the same text. */
static int secret_differs(const struct secret *a, const struct secret *b)
{
	return a->len != b->len || a->h != b->h || memcmp(a->s, b->s, a->len);
}

static void build_index(struct redact_values *x)
{
	unsigned char seen[VALUE_SCAN + 1] = { 0 };
	size_t i, size = 16;

	while (size < 2 * x->n)
		size *= 2;
	x->slots = xcalloc(size, sizeof(*x->slots));
	x->mask = size - 1;
	for (i = 0; i < x->n; i++) {
		size_t len = x->v[i].len, k;

		if (len > VALUE_SCAN)
			continue;
		seen[len] = 1;
		/* a value met before is in already: keep the chains short */
		for (k = slot_of(x, x->v[i].h, len); x->slots[k]; k = (k + 1) & x->mask)
			if (!secret_differs(&x->v[x->slots[k] - 1], &x->v[i]))
				break;
		if (!x->slots[k])
			x->slots[k] = i + 1;
	}
	for (i = REDACT_VALUE_MIN; i <= VALUE_SCAN; i++)
		if (seen[i])
			x->lens[x->nlens++] = i;
}

/* Whether s[0..len), of hash h, is one of the values. */
static int values_has(const struct redact_values *x, const char *s, size_t len,
		      uint64_t h)
{
	size_t k;

	for (k = slot_of(x, h, len); x->slots[k]; k = (k + 1) & x->mask) {
		const struct secret *v = &x->v[x->slots[k] - 1];

		if (v->len == len && v->h == h && !memcmp(v->s, s, len))
			return 1;
	}
	return 0;
}

/* Mark in hit every byte of cmd[0..n) inside an occurrence of a value. */
static int mark_values(const struct redact_values *x, const char *cmd, size_t n,
		       unsigned char *hit)
{
	size_t k, p;
	int any = 0;

	for (k = 0; k < x->nlens && x->lens[k] <= n; k++) {
		size_t len = x->lens[k];
		uint64_t h = hash_mem(cmd, len), top = 1;

		for (p = 0; p < len; p++)
			top *= HASH_BASE;
		for (p = 0;; p++) {
			if (values_has(x, cmd + p, len, h)) {
				memset(hit + p, 1, len);
				any = 1;
			}
			if (p + len >= n)
				break;
			h = h * HASH_BASE + (unsigned char)cmd[p + len] -
			    (unsigned char)cmd[p] * top;
		}
	}
	return any;
}

/* Whether the cut token tok[0..m) ends with the first bytes (at least
 * REDACT_VALUE_MIN of them) of a value; past CUT_SCAN_MAX values, assume
 * so. */
static int cut_holds_value(const struct redact_values *x, const char *tok, size_t m)
{
	const char *end = tok + m;
	size_t i;

	if (x->n > CUT_SCAN_MAX)
		return 1;
	for (i = 0; i < x->n; i++) {
		const struct secret *v = &x->v[i];
		const char *q = tok;

		while ((q = memchr(q, v->s[0], (size_t)(end - q)))) {
			size_t k = (size_t)(end - q);

			if (k < REDACT_VALUE_MIN)
				break;
			if (k < v->len && !memcmp(q, v->s, k))
				return 1;
			q++;
		}
	}
	return 0;
}

/* redact_cmdline cuts a long command line and ends it with "...": the
 * cut last token may end with the first bytes of a value.  Mark it then. */
static int mark_cut(const struct redact_values *x, const char *cmd, size_t n,
		    unsigned char *hit)
{
	size_t t;

	if (n < 3 || memcmp(cmd + n - 3, "...", 3))
		return 0;
	n -= 3;
	for (t = n; t > 0 && cmd[t - 1] != ' '; t--)
		;
	if (n - t < REDACT_VALUE_MIN || !cut_holds_value(x, cmd + t, n - t))
		return 0;
	memset(hit + t, 1, n - t);
	return 1;
}

char *redact_values_apply(struct redact_values *x, const char *cmd)
{
	size_t n = strlen(cmd), a, b;
	unsigned char *hit;
	struct buf out = BUF_INIT;
	int any;

	if (!x->n || !n)
		return NULL;
	if (!x->slots)
		build_index(x);
	hit = xcalloc(n, 1);
	any = mark_values(x, cmd, n, hit);
	any |= mark_cut(x, cmd, n, hit);
	for (a = 0; any && a <= n; a = b + 1) {
		b = a + strcspn(cmd + a, " ");
		if (memchr(hit + a, 1, b - a))
			buf_puts(&out, REDACT_MASK);
		else
			buf_add(&out, cmd + a, b - a);
		if (b < n)
			buf_putc(&out, ' ');
	}
	free(hit);
	return any ? buf_detach(&out) : NULL;
}

void redact_values_free(struct redact_values *x)
{
	size_t i;

	if (!x)
		return;
	for (i = 0; i < x->n; i++) {
		memset(x->v[i].s, 0, x->v[i].len);
		free(x->v[i].s);
	}
	free(x->v);
	free(x->slots);
	free(x);
}
