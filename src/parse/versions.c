/* versions.c - package.json "packageManager" and the shared helpers of the
 * version-file parsers; see versions.h */
#include "versions.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void versions_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

int versions_text(const char *buf, size_t len, struct parse_error *e)
{
	unsigned l = 0, c = 0;
	const char *what = NULL;

	if (text_check(buf, len, &l, &c, &what) == 0)
		return 0;
	parse_error_set(e, l, c, "%s: not a text file", what);
	return -1;
}

const char *versions_quote(char *dst, size_t n, const char *s, size_t len)
{
	size_t i, o = 0, room = n ? n - 1 : 0;
	int dots = len > room && room >= 3;

	if (!n)
		return dst;
	if (dots)
		room -= 3;		/* keep space for "..." */
	for (i = 0; i < len && o < room; i++) {
		unsigned char c = (unsigned char)s[i];

		dst[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	if (dots && i < len) {
		memcpy(dst + o, "...", 3);
		o += 3;
	}
	dst[o] = '\0';
	return dst;
}

int versions_next_line(const char *buf, size_t len, size_t *pos,
		       struct versions_line *out)
{
	const char *nl;
	size_t start = *pos;

	if (start >= len)
		return 0;
	nl = memchr(buf + start, '\n', len - start);
	out->s = buf + start;
	out->len = nl ? (size_t)(nl - (buf + start)) : len - start;
	out->no++;
	*pos = start + out->len + 1;
	return 1;
}

int versions_isspace(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\v' || c == '\f';
}

int versions_isblank(int c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

size_t versions_next_word(const char **pp, const char *end)
{
	const char *p = *pp, *w;

	while (p < end && versions_isblank((unsigned char)*p))
		p++;
	w = p;
	while (p < end && !versions_isblank((unsigned char)*p))
		p++;
	*pp = w;
	return (size_t)(p - w);
}

int versions_starts(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);

	return len >= n && memcmp(s, prefix, n) == 0;
}

void versions_trim(const char **s, size_t *len)
{
	while (*len && versions_isspace((unsigned char)(*s)[0]))
		(*s)++, (*len)--;
	while (*len && versions_isspace((unsigned char)(*s)[*len - 1]))
		(*len)--;
}

int versions_numcmp(const char *a, size_t alen, const char *b, size_t blen)
{
	int c;

	while (alen && *a == '0')
		a++, alen--;
	while (blen && *b == '0')
		b++, blen--;
	if (alen != blen)
		return alen < blen ? -1 : 1;
	c = alen ? memcmp(a, b, alen) : 0;
	return (c > 0) - (c < 0);
}

/* ---- packageManager ---- */

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int is_ident_char(char c)
{
	return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-';
}

/* A semver numeric part: "0" or no leading zero, at most 2^53-1 as
 * node-semver demands. */
static int semver_number_ok(const char *s, size_t n)
{
	static const char max[] = "9007199254740991";
	size_t i;

	if (!n || (n > 1 && s[0] == '0'))
		return 0;
	for (i = 0; i < n; i++)
		if (!is_digit(s[i]))
			return 0;
	return versions_numcmp(s, n, max, sizeof(max) - 1) <= 0;
}

/* Dot-separated identifiers of [0-9A-Za-z-]; numeric ones must not have a
 * leading zero when strict_num (prerelease) is set. */
static int semver_idents_ok(const char *s, size_t n, int strict_num)
{
	size_t i = 0;

	if (!n)
		return 0;
	while (i <= n) {
		size_t j = i, digits = 1;

		while (j < n && s[j] != '.') {
			if (!is_ident_char(s[j]))
				return 0;
			digits &= is_digit(s[j]);
			j++;
		}
		if (j == i)
			return 0;
		if (strict_num && digits && j - i > 1 && s[i] == '0')
			return 0;
		i = j + 1;
	}
	return 1;
}

/* Strict "X.Y.Z[-pre]" (no build part: the caller split it off). */
static int semver_exact_ok(const char *s, size_t n)
{
	size_t i = 0, part;

	if (n > 256)
		return 0;
	for (part = 0; part < 3; part++) {
		size_t j = i;

		while (j < n && is_digit(s[j]))
			j++;
		if (!semver_number_ok(s + i, j - i))
			return 0;
		if (part < 2) {
			if (j >= n || s[j] != '.')
				return 0;
			j++;
		}
		i = j;
	}
	if (i == n)
		return 1;
	if (s[i] != '-')
		return 0;
	return semver_idents_ok(s + i + 1, n - i - 1, 1);
}

static int pm_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > 214)
		return 0;
	for (i = 0; i < n; i++) {
		char c = s[i];

		if (is_digit(c) || (c >= 'a' && c <= 'z'))
			continue;
		if (i > 0 && (c == '.' || c == '_' || c == '-'))
			continue;
		return 0;
	}
	return 1;
}

int pkgmanager_parse(const char *value, size_t len, struct pkgmanager *out,
		     char *err, size_t errlen)
{
	char q[VERSIONS_QUOTE_MAX];
	const char *at, *plus, *ver;
	size_t vlen;

	memset(out, 0, sizeof(*out));
	versions_quote(q, sizeof(q), value, len);
	if (!len) {
		versions_err(err, errlen, "'packageManager' is empty");
		return -1;
	}
	at = memchr(value, '@', len);
	if (!at || at == value) {
		versions_err(err, errlen, "'%s': expected name@version, "
			     "e.g. pnpm@9.1.0", q);
		return -1;
	}
	if (!pm_name_ok(value, (size_t)(at - value))) {
		versions_err(err, errlen, "'%s': not a package manager name", q);
		return -1;
	}
	ver = at + 1;
	vlen = len - (size_t)(ver - value);
	plus = memchr(ver, '+', vlen);
	if (plus) {
		size_t hlen = vlen - (size_t)(plus - ver) - 1;

		if (!semver_idents_ok(plus + 1, hlen, 0)) {
			versions_err(err, errlen, "'%s': malformed hash after '+'", q);
			return -1;
		}
		vlen = (size_t)(plus - ver);
	}
	if (!semver_exact_ok(ver, vlen)) {
		versions_err(err, errlen, "'%s': the version must be exact "
			     "semver (X.Y.Z), not a range, tag or URL", q);
		return -1;
	}
	out->name = xstrndup(value, (size_t)(at - value));
	out->version = xstrndup(ver, vlen);
	if (plus)
		out->hash = xstrndup(plus + 1, len - (size_t)(plus + 1 - value));
	return 0;
}

void pkgmanager_release(struct pkgmanager *pm)
{
	free(pm->name);
	free(pm->version);
	free(pm->hash);
	memset(pm, 0, sizeof(*pm));
}

int versions_token_safe(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= 40)
		return 0;
	return strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+-_") == n;
}
