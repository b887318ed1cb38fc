/* util.c - see util.h */
#include "util.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void die_oom(size_t n)
{
	fprintf(stderr, "envpreflight: out of memory (%zu bytes)\n", n);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

void *xcalloc(size_t nmemb, size_t size)
{
	void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (!p)
		die_oom(nmemb * size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die_oom(n);
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

void grow(void *v, size_t elem, size_t *cap, size_t need)
{
	void **pp = v;
	size_t c = *cap;

	if (need <= c)
		return;
	c = c ? c : 8;
	while (c < need)
		c *= 2;
	*pp = xrealloc(*pp, c * elem);
	*cap = c;
}

void buf_add(struct buf *b, const char *s, size_t n)
{
	grow(&b->s, 1, &b->cap, b->len + n + 1);
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void buf_putc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(NULL, 0, fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	grow(&b->s, 1, &b->cap, b->len + (size_t)n + 1);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *xvformat(const char *fmt, va_list ap)
{
	struct buf b = BUF_INIT;

	buf_vprintf(&b, fmt, ap);
	return buf_detach(&b);
}

const char *buf_str(const struct buf *b)
{
	return b->s ? b->s : "";
}

char *buf_detach(struct buf *b)
{
	char *s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void buf_release(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void err_vset(struct errbuf *e, const char *fmt, va_list ap)
{
	if (!e)
		return;
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	e->kind = ERRK_OTHER;
	e->file[0] = '\0';
	e->line = e->col = 0;
	e->what = 0;
}

void err_set(struct errbuf *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, fmt, ap);
	va_end(ap);
}

void blob_release(struct blob *b)
{
	free(b->data);
	b->data = NULL;
	b->len = 0;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	size_t need, i;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		need = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		need = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		need = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < need)
		return 0;
	for (i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((need == 3 && cp < 0x800) || (need == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return need;
}

int text_check(const char *buf, size_t len, unsigned *line, unsigned *col,
	       const char **what)
{
	/* a word of plain ASCII has no byte with its high bit set and none
	 * zero (the test for a zero byte is exact when used as a whole) */
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	const unsigned char *s = (const unsigned char *)buf;
	size_t i = 0, n, ls = 0;
	unsigned l = 1;

	while (i < len) {
		uint64_t w;

		/* lockfiles run to megabytes of ASCII: eight bytes at a time */
		if (len - i >= 8) {
			memcpy(&w, s + i, 8);
			if (!((w | ((w - ones) & ~w)) & highs)) {
				i += 8;
				continue;
			}
		}
		if (s[i] - 1u < 0x7f) {		/* plain ASCII, not NUL */
			i++;
			continue;
		}
		if (s[i] == '\0') {
			*what = "NUL byte";
			goto bad;
		}
		n = utf8_len(s + i, len - i);
		if (!n) {
			*what = "invalid UTF-8";
			goto bad;
		}
		i += n;
	}
	return 0;
bad:
	/* where, counted once on failure: the column in bytes */
	for (n = 0; n < i; n++)
		if (s[n] == '\n')
			l++, ls = n + 1;
	*line = l;
	*col = (unsigned)(i - ls) + 1;
	return -1;
}

void text_pos(const char *buf, size_t len, size_t off, unsigned *line,
	      unsigned *col)
{
	size_t i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off && i < len; i++) {
		if (buf[i] == '\n')
			(*line)++, *col = 1;
		else if (((unsigned char)buf[i] & 0xc0) != 0x80)
			(*col)++;
	}
}

/* The length of the YAML line break at buf[i] (CR LF, CR, LF, NEL, LS,
 * PS: what libyaml counts its lines by), or 0. */
static size_t yaml_break(const char *buf, size_t len, size_t i)
{
	const unsigned char *u = (const unsigned char *)buf + i;
	size_t left = len - i;

	if (u[0] == '\r')
		return left > 1 && u[1] == '\n' ? 2 : 1;
	if (u[0] == '\n')
		return 1;
	if (left > 1 && u[0] == 0xc2 && u[1] == 0x85)
		return 2;
	if (left > 2 && u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
		return 3;
	return 0;
}

void text_yaml_end(const char *buf, size_t len, unsigned *lines, unsigned *col)
{
	size_t i = 0, k;

	*lines = *col = 1;
	while (i < len) {
		if ((k = yaml_break(buf, len, i))) {
			(*lines)++, *col = 1;
			i += k;
			continue;
		}
		if (((unsigned char)buf[i] & 0xc0) != 0x80)
			(*col)++;
		i++;
	}
}

void buf_add_clean(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len = strlen(str), i = 0;

	while (i < len) {
		size_t n = utf8_len(s + i, len - i);

		if (!n) {
			buf_putc(b, '?');
			i++;
		} else if (n == 1 && s[i] == '\t') {
			buf_putc(b, ' ');
			i++;
		} else if (n == 1 && (s[i] < 0x20 || s[i] == 0x7f)) {
			buf_putc(b, '?');
			i++;
		} else if (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0) {
			buf_putc(b, '?');	/* C1 controls, e.g. U+009B CSI */
			i += n;
		} else {
			buf_add(b, (const char *)s + i, n);
			i += n;
		}
	}
}

char *text_clean(const char *s)
{
	struct buf b = BUF_INIT;

	buf_add_clean(&b, s);
	return buf_detach(&b);
}

int path_rel_inside(const char *p)
{
	const char *s;

	if (!*p || *p == '/')
		return 0;
	for (s = p; (s = strstr(s, "..")); s += 2)
		if ((s == p || s[-1] == '/') && (!s[2] || s[2] == '/'))
			return 0;
	return 1;
}

char *path_join(const char *a, const char *b)
{
	struct buf out = BUF_INIT;
	size_t la = strlen(a);

	if (b[0] == '/' || !la)
		return xstrdup(b);
	buf_puts(&out, a);
	if (a[la - 1] != '/')
		buf_putc(&out, '/');
	buf_puts(&out, b);
	return buf_detach(&out);
}

char *path_lexical(const char *p)
{
	struct buf out = BUF_INIT;
	const char *c = p;
	size_t ups = 0;		/* leading ".." of a relative path */
	int abs = *p == '/';

	if (abs)
		buf_putc(&out, '/');
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.') {
			if (out.len > (size_t)abs + ups * 3) {
				/* drop the last step */
				while (out.len > (size_t)abs && out.s[out.len - 1] != '/')
					out.len--;
				if (out.len > (size_t)abs)
					out.len--;
			} else if (!abs) {
				buf_puts(&out, out.len ? "/.." : "..");
				ups++;
			}
		} else if (n && !(n == 1 && c[0] == '.')) {
			if (out.len > (size_t)abs)
				buf_putc(&out, '/');
			buf_add(&out, c, n);
		}
		c += n;
		c += *c == '/';
	}
	if (!out.len)
		buf_putc(&out, '.');
	out.s[out.len] = '\0';	/* a step dropped last leaves its bytes */
	return buf_detach(&out);
}

int path_is_relative_inside(const char *p)
{
	const char *c = p;

	if (!*p || *p == '/')
		return 0;
	while (*c) {
		size_t n = strcspn(c, "/");

		if (n == 2 && c[0] == '.' && c[1] == '.')
			return 0;
		c += n;
		c += *c == '/';
	}
	return 1;
}

int path_is_inside(const char *p, const char *root)
{
	size_t n = strlen(root);

	if (n == 1 && root[0] == '/')
		return p[0] == '/';
	return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

double clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	if (!s || !*s || *s == ' ' || *s == '+')
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}
