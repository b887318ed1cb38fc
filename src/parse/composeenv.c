/* composeenv.c - see composeenv.h.  Each step follows compose-go's
 * dotenv/parser.go (named in the comments), at compose-spec/compose-go
 * e70e961. */
#include "composeenv.h"

#include "strmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

struct cenvp {
	const unsigned char *s, *end;
	unsigned line;			/* parser.line */
	struct dotenv_entry *v;		/* read so far: keys and values owned */
	size_t n, cap;
	struct strmap keys;		/* key -> its last entry: a lookup
					 * stays O(1) in a file of many keys */
	composevar_lookup env;
	void *ctx;
};

/* One UTF-8 rune at p (Go's range over a string: a bad byte is U+FFFD,
 * one byte long); its length in *len. */
static unsigned rune_at(const unsigned char *p, const unsigned char *end, size_t *len)
{
	unsigned c = p[0], r;
	size_t n, i;

	if (c < 0x80) {
		*len = 1;
		return c;
	}
	n = c >= 0xf0 && c < 0xf8 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
	if (n == 4 && c > 0xf4)
		n = 0;
	if (!n || (size_t)(end - p) < n) {
		*len = 1;
		return 0xfffd;
	}
	r = c & (0xff >> (n + 1));
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*len = 1;
			return 0xfffd;
		}
		r = r << 6 | (p[i] & 0x3f);
	}
	if ((n == 2 && r < 0x80) || (n == 3 && r < 0x800) || (n == 4 && r < 0x10000) ||
	    (r >= 0xd800 && r <= 0xdfff) || r > 0x10ffff) {
		*len = 1;
		return 0xfffd;
	}
	*len = n;
	return r;
}

/* parser.go isSpace: a space but not a line break */
static int is_space(unsigned r)
{
	return r == '\t' || r == '\v' || r == '\f' || r == '\r' || r == ' ' ||
	       r == 0x85 || r == 0xa0;
}

/* Go's unicode.IsSpace */
static int is_uspace(unsigned r)
{
	return is_space(r) || r == '\n' || r == 0x1680 || (r >= 0x2000 && r <= 0x200a) ||
	       r == 0x2028 || r == 0x2029 || r == 0x202f || r == 0x205f || r == 0x3000;
}

/* strings.TrimRightFunc(s, unicode.IsSpace): the end of [s, e) past
 * its trailing spaces, a rune at a time from the end */
static const unsigned char *trim_end(const unsigned char *s, const unsigned char *e)
{
	while (e > s) {
		const unsigned char *b = e - 1;
		size_t len;

		while (b > s && (*b & 0xc0) == 0x80 && e - b < 4)
			b--;
		if (!is_uspace(rune_at(b, e, &len)) || b + len != e)
			break;
		e = b;
	}
	return e;
}

/* unicode.IsLetter || unicode.IsNumber, for a key.  Exact for ASCII;
 * beyond it, every rune but the format, space, punctuation and symbol
 * blocks below counts as a letter: compose-go's Unicode tables are not
 * carried here, and a key beyond ASCII is rare (a byte-order mark in the
 * middle of a file, U+FEFF, is refused, as compose refuses it). */
static int is_key_rune(unsigned r)
{
	if (r < 0x80)
		return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9');
	if (r < 0xc0)	/* Latin-1's punctuation and symbols; ª µ º, ¹ ² ³ ¼ ½ ¾ */
		return r == 0xaa || r == 0xb5 || r == 0xba || r == 0xb2 || r == 0xb3 ||
		       r == 0xb9 || (r >= 0xbc && r <= 0xbe);
	if (r == 0xd7 || r == 0xf7 || r == 0xfffd || r == 0xfeff)
		return 0;
	if ((r >= 0x2000 && r <= 0x2bff) || (r >= 0x3000 && r <= 0x3003) ||
	    (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe000 && r <= 0xf8ff))
		return 0;
	return 1;
}

static void entry_add(struct cenvp *p, const unsigned char *key, size_t klen,
		      char *value, size_t vlen, unsigned line, char quote)
{
	struct dotenv_entry *e;

	grow(&p->v, sizeof(*p->v), &p->cap, p->n + 1);
	e = &p->v[p->n++];
	memset(e, 0, sizeof(*e));
	e->key = xstrndup((const char *)key, klen);
	e->value = value;
	e->value_len = vlen;
	e->line = line;
	e->col = 1;
	e->quote = quote;
	strmap_put(&p->keys, e->key, klen, p->n - 1);
}

/* godotenv.go expandVariables / env.go GetEnvFromFile's lookup: the
 * environment first, then the keys of this file read so far (the last
 * assignment) */
static const char *lookup(void *ctx, const char *name, size_t n)
{
	struct cenvp *p = ctx;
	const char *v = p->env ? p->env(p->ctx, name, n) : NULL;
	size_t i;

	if (!v && (i = strmap_get(&p->keys, name, n)) != STRMAP_NONE)
		v = p->v[i].value;
	return v;
}

static int expand(struct cenvp *p, const char *text, size_t len, char **out,
		  size_t *out_len, struct composeenv_error *err)
{
	struct buf b = BUF_INIT;
	struct composevar_error e;

	if (composevar_subst(text, len, lookup, p, &b, &e) < 0) {
		if (b.s)
			explicit_bzero(b.s, b.len);
		buf_release(&b);
		err->what = e.status == COMPOSEVAR_UNSET ?
			    "a value compose cannot read: a required variable is "
			    "missing a value" :
			    "a value compose cannot read: invalid interpolation format";
		err->value = 1;
		return -1;
	}
	*out_len = b.len;
	*out = b.s ? b.s : xstrdup("");
	return 0;
}

/* parser.go expandEscapes: \a \b \f \n \r \t \v \" \\ and \0 with up to
 * three digits (its \0 made \, then strconv.UnquoteChar: three octal
 * digits, at most 0377, else that text); \$ becomes $$, which the
 * substitution then reads as a '$'.  In place: never longer. */
static size_t expand_escapes(char *v, size_t n)
{
	size_t i = 0, o = 0;

	while (i < n) {
		char c = i + 1 < n && v[i] == '\\' ? v[i + 1] : 0;
		const char *esc = c ? strchr("abfnrtv\"\\", c) : NULL;

		if (c && esc && *esc) {
			static const char to[] = "\a\b\f\n\r\t\v\"\\";

			v[o++] = to[esc - "abfnrtv\"\\"];
			i += 2;
		} else if (c == '$') {
			v[o++] = '$';
			v[o++] = '$';
			i += 2;
		} else if (c == '0') {
			size_t d = 0;

			while (d < 3 && i + 2 + d < n && v[i + 2 + d] >= '0' && v[i + 2 + d] <= '9')
				d++;
			if (d == 3 && v[i + 2] <= '7' && v[i + 3] <= '7' && v[i + 4] <= '7' &&
			    v[i + 2] <= '3') {
				unsigned r = (unsigned)(v[i + 2] - '0') << 6 |
					     (unsigned)(v[i + 3] - '0') << 3 | (unsigned)(v[i + 4] - '0');

				/* string(rune): UTF-8 */
				if (r < 0x80) {
					v[o++] = (char)r;
				} else {
					v[o++] = (char)(0xc0 | r >> 6);
					v[o++] = (char)(0x80 | (r & 0x3f));
				}
			} else {
				/* the match with \0 made \ is what is kept:
				 * "\0128" is "\128" */
				v[o++] = '\\';
				memmove(v + o, v + i + 2, d);
				o += d;
			}
			i += 2 + d;
		} else {
			v[o++] = v[i++];
		}
	}
	return o;
}

/* parser.go extractVarValue, from s (after the key's separator and the
 * spaces after it); *rest where the next statement is looked for */
static int value_read(struct cenvp *p, const unsigned char *s,
		      const unsigned char **rest, char **value, size_t *vlen,
		      char *quote, struct composeenv_error *err)
{
	const unsigned char *end = p->end, *q;
	struct buf chars = BUF_INIT;
	int esc = 0, rc;

	*quote = 0;
	if (s == end || (*s != '\'' && *s != '"')) {
		/* unquoted: to the line's end, cut at " #", spaces trimmed
		 * (unicode.IsSpace), then substituted */
		const unsigned char *nl = memchr(s, '\n', (size_t)(end - s)), *e;
		size_t k;

		e = nl ? nl : end;
		*rest = nl ? nl + 1 : end;
		p->line++;
		for (q = s; q + 1 < e; q++)
			if (q[0] == ' ' && q[1] == '#') {
				e = q;
				break;
			}
		k = (size_t)(trim_end(s, e) - s);
		return expand(p, (const char *)s, k, value, vlen, err);
	}
	*quote = (char)*s;
	for (q = s + 1; q < end; q++) {
		if (*q == '\n')
			p->line++;
		if (*q != (unsigned char)*quote) {
			if (!esc && *q == '\\') {
				esc = 1;
				continue;
			}
			if (esc) {
				esc = 0;
				buf_putc(&chars, '\\');
			}
			buf_putc(&chars, (char)*q);
			continue;
		}
		if (esc) {	/* \" or \' */
			esc = 0;
			buf_putc(&chars, (char)*q);
			continue;
		}
		*rest = q + 1;
		if (*quote == '\'') {
			*vlen = chars.len;
			*value = chars.s ? chars.s : xstrdup("");
			return 0;
		}
		chars.len = chars.s ? expand_escapes(chars.s, chars.len) : 0;
		rc = expand(p, chars.s ? chars.s : "", chars.len, value, vlen, err);
		if (chars.s)
			explicit_bzero(chars.s, chars.len);
		buf_release(&chars);
		return rc;
	}
	if (chars.s)
		explicit_bzero(chars.s, chars.len);
	buf_release(&chars);
	err->what = "a line compose cannot read: a quoted value that is never closed";
	return -1;
}

/* parser.go getStatementStart: past spaces (unicode.IsSpace, counting
 * lines) and '#' comment lines; NULL at the end */
static const unsigned char *statement_start(struct cenvp *p, const unsigned char *s)
{
	for (;;) {
		size_t len;

		while (s < p->end && is_uspace(rune_at(s, p->end, &len))) {
			if (*s == '\n')
				p->line++;
			s += len;
		}
		if (s == p->end)
			return NULL;
		if (*s != '#')
			return s;
		s = memchr(s, '\n', (size_t)(p->end - s));
		if (!s)
			return NULL;
	}
}

/* "export" and then \s+ (RE2's \s: \t \n \f \r and space) */
static int export_prefix(const unsigned char *s, const unsigned char *end)
{
	return end - s > 6 && !memcmp(s, "export", 6) && strchr("\t\n\f\r ", s[6]) && s[6];
}

static void entries_free(struct cenvp *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		explicit_bzero(p->v[i].value, p->v[i].value_len);
		free(p->v[i].value);
		free(p->v[i].key);
	}
	free(p->v);
	strmap_release(&p->keys);
}

int composeenv_parse(const char *buf, size_t len, composevar_lookup env, void *ctx,
		     struct dotenv *out, struct composeenv_error *err)
{
	struct cenvp p;
	const unsigned char *s = (const unsigned char *)buf;
	int rc = 0;

	memset(&p, 0, sizeof(p));
	p.keys = (struct strmap)STRMAP_INIT;
	memset(out, 0, sizeof(*out));
	memset(err, 0, sizeof(*err));
	p.s = s;
	p.end = s + len;
	p.line = 1;
	p.env = env;
	p.ctx = ctx;
	/* godotenv.go: a UTF-8 byte-order mark at the start is dropped */
	if (len >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
		s += 3;
	while (rc == 0 && (s = statement_start(&p, s))) {
		const unsigned char *k, *key_end = NULL, *q, *vs;
		unsigned key_line = p.line;
		int inherited = 0;
		size_t rl, klen;
		char *value = NULL, quote;
		size_t vlen = 0;

		/* locateKeyName */
		if (export_prefix(s, p.end)) {
			s += 6;
			while (s < p.end && is_space(rune_at(s, p.end, &rl)))
				s += rl;
		}
		k = s;
		for (q = s; q < p.end; q += rl) {
			unsigned r = rune_at(q, p.end, &rl);

			if (is_space(r))
				continue;
			if (r == '=' || r == ':' || r == '\n') {
				key_end = q;
				inherited = r == '\n';
				break;
			}
			if (r == '_' || r == '.' || r == '-' || r == '[' || r == ']' ||
			    is_key_rune(r))
				continue;
			err->line = p.line;
			err->what = "a line compose cannot read: a character compose does not "
				    "take in a variable name";
			rc = -1;
			break;
		}
		if (rc)
			break;
		/* no '=', ':' or line end: the key is "" and the value the
		 * rest, from the statement's start (the loop's zero key) */
		vs = key_end ? key_end + 1 : k;
		klen = key_end ? (size_t)(key_end - k) : 0;
		if (inherited && !memchr(k, ' ', klen))
			p.line++;
		klen = (size_t)(trim_end(k, k + klen) - k);
		while (vs < p.end && is_space(rune_at(vs, p.end, &rl)))
			vs += rl;
		if (memchr(k, ' ', klen)) {
			err->line = p.line;
			err->what = "a line compose cannot read: a variable name with a space";
			rc = -1;
			break;
		}
		if (inherited) {
			/* a bare KEY: its value from the environment, else
			 * left out */
			const char *v;

			v = lookup(&p, (const char *)k, klen);
			if (v)
				entry_add(&p, k, klen, xstrdup(v), strlen(v), key_line, 0);
			s = vs;
			continue;
		}
		if (value_read(&p, vs, &s, &value, &vlen, &quote, err) < 0) {
			/* compose-go names no line for a value it cannot
			 * substitute: the key's is the one to look at */
			err->line = err->value ? key_line : p.line;
			rc = -1;
			break;
		}
		entry_add(&p, k, klen, value, vlen, key_line, quote);
	}
	if (rc == 0)
		dotenv_from_entries(out, p.v, p.n);
	entries_free(&p);
	return rc;
}
