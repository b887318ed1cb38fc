/* dotenv.c - the npm dotenv package's parse(), without a regex library.
 *
 * dotenv (lib/main.js, the default parser) turns CRLF and CR into LF, then
 * runs this regex with the g and m flags over the whole text:
 *
 *   (?:^|^)\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)
 *   (\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*`(?:\\`|[^`])*`|[^#\r\n]+)?
 *   \s*(?:#.*)?(?:$|$)
 *
 * and for each match trims the value, strips one pair of surrounding quotes
 * with /^(['"`])([\s\S]*)\1$/mg, and when the trimmed value began with a
 * double quote turns every backslash-n and backslash-r into LF and CR.  The
 * last assignment of a key wins.
 *
 * Working the backtracking through by hand shows a scan that needs no
 * general regex engine and stays linear.  The notes are referred to below:
 *
 * 1. A match starts only at a line start (after LF, U+2028 or U+2029).  The
 *    leading \s*, the \s+ after "export", the key and the \s* before '=' can
 *    only succeed at their longest, because what follows each is never a
 *    space (or never a key character).  So an attempt from line start p
 *    depends only on k, the first non-space character from p; when it
 *    fails, every line start up to k fails as well.
 * 2. The value matches with the lazy \s*? or \s+? at its shortest: either
 *    a quoted alternative matches there, or [^#\r\n]+ does (the next
 *    character is not '#', LF or the end) and so does the tail after it,
 *    or else the empty value and the tail do.
 * 3. A quoted alternative may close at any quote Q after the opening one up
 *    to and including the first Q that is not preceded by a backslash;
 *    the escaped quotes before it are candidates too.  Backtracking tries
 *    them from the last to the first and keeps the first one the tail
 *    (note 4) accepts.  So A="\\" ends at its own quote when later lines
 *    hold more quotes, and an unterminated quote falls back to [^#\r\n]+,
 *    which keeps the quote in the value.  Both the quoted value and the
 *    leading \s* may run over line breaks.
 * 4. The tail \s*(?:#.*)?$ matches at x when the whitespace from x runs to
 *    the end, to a '#', or over a line break.  Where the match ends (and so
 *    where the next search starts) follows the same greedy order: the end,
 *    the end of the comment, else the last line break in the run.
 * 5. \s and String.prototype.trim() strip the same set: ASCII tab to CR,
 *    space, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
 *    U+3000 and U+FEFF, so a byte-order mark is whitespace anywhere.
 * 6. The quote strip has the m flag too: it may match at any line start
 *    inside the value and closes at the last quote that ends a line.
 *
 * Work is on UTF-8 bytes; invalid UTF-8 is kept as it is (Node would turn
 * it into U+FFFD), since callers reject such files before parsing anyway.
 */
#include "dotenv.h"
#include "util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NONE SIZE_MAX

struct pending_issue {
	size_t pos, seq;	/* offset in the scanned text; tie-break */
	enum dotenv_issue_kind kind;
	size_t entry;		/* DOTENV_MISREAD: the entry; else NONE */
	unsigned char badquote;	/* the unterminated-quote or text-after-
				 * the-quote issue of its entry */
	unsigned char dropped;	/* told better by another issue */
	char *message;
};

/* What the scan learnt of an entry beyond struct dotenv_entry, for
 * places_mark(): where its text ends, and how it went. */
struct entry_info {
	unsigned last;		/* the line of its last byte: the value's, or
				 * the '=''s when the value is empty */
	unsigned char broken;	/* a value that may run on, misread: an
				 * unterminated quote, the '=' or the value
				 * on a later line */
	unsigned char badquote;	/* a quote that dotenv did not treat as one */
	unsigned char pem;	/* its value starts like a PEM block
				 * (-----BEGIN), unquoted or with a quote that
				 * did not close, and ends on the key's line */
	unsigned char block;	/* ... and the lines after it hold the rest */
};

struct scan {
	unsigned char *s;	/* the input with CRLF and CR turned into LF */
	size_t n;
	size_t *lines;		/* offset of the start of each line */
	size_t nlines;
	size_t cursor;		/* locate()'s last line: positions mostly rise */
	size_t textlen;		/* the bytes that every key and value need */
	struct {		/* see unescaped_quote() */
		size_t lo, hi;
	} qcache[3];
	struct dotenv *out;
	size_t cap_entries;
	struct entry_info *info;	/* one per entry */
	size_t cap_info;
	struct pending_issue *pending;
	size_t npending, cap_pending;
};

/* One regex match: offsets into scan.s. */
struct match {
	size_t key, keyend;
	size_t sep;		/* the '=' or ':' */
	size_t vbeg, vend;	/* capture group 2, the raw value */
	size_t from;		/* where the value's text starts, or NONE */
	size_t end;		/* where the whole match ends */
	size_t badquote;	/* an opening quote that did not close, or NONE */
	int closable;		/* ... though a quote to close it existed */
};

static const char quotes[] = "'\"`";

/* The index of c in quotes[], or -1; a switch, since strip_quotes() asks
 * for every byte of every value. */
static int quote_index(unsigned char c)
{
	switch (c) {
	case '\'':
		return 0;
	case '"':
		return 1;
	case '`':
		return 2;
	}
	return -1;
}

/* [\w.-]: A-Z, a-z, 0-9, '_', '.' and '-' (bytes from 0x80 are not). */
static const unsigned char key_chars[256] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x00 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,	/* 0x10 */
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0,	/* 0x20 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0,	/* 0x30 */
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x40 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,	/* 0x50 */
	0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,	/* 0x60 */
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,	/* 0x70 */
};

static int is_key_char(unsigned char c)
{
	return key_chars[c];
}

/* Width in bytes of the \s character at s[i] (note 5), or 0; i < n. */
static size_t ws_at(const unsigned char *s, size_t n, size_t i)
{
	unsigned char c = s[i], b1, b2;

	if (c == ' ' || (c >= '\t' && c <= '\r'))
		return 1;
	if (c == 0xc2)
		return i + 1 < n && s[i + 1] == 0xa0 ? 2 : 0;
	if (c < 0xe1 || n - i < 3)
		return 0;
	b1 = s[i + 1];
	b2 = s[i + 2];
	switch (c) {
	case 0xe1:	/* U+1680 */
		return b1 == 0x9a && b2 == 0x80 ? 3 : 0;
	case 0xe2:	/* U+2000-U+200A, U+2028, U+2029, U+202F, U+205F */
		if (b1 == 0x80 && ((b2 >= 0x80 && b2 <= 0x8a) || b2 == 0xa8 ||
				   b2 == 0xa9 || b2 == 0xaf))
			return 3;
		return b1 == 0x81 && b2 == 0x9f ? 3 : 0;
	case 0xe3:	/* U+3000 */
		return b1 == 0x80 && b2 == 0x80 ? 3 : 0;
	case 0xef:	/* U+FEFF */
		return b1 == 0xbb && b2 == 0xbf ? 3 : 0;
	}
	return 0;
}

/* Width of the whitespace character that ends just before s[b] and starts
 * at or after s[a], or 0. */
static size_t ws_before(const unsigned char *s, size_t a, size_t b)
{
	size_t w;

	for (w = 1; w <= 3 && w <= b - a; w++)
		if (ws_at(s, b, b - w) == w)
			return w;
	return 0;
}

/* Width of the line terminator (LF, U+2028, U+2029) at s[i], or 0. */
static size_t lt_at(const unsigned char *s, size_t n, size_t i)
{
	if (s[i] == '\n')
		return 1;
	if (s[i] == 0xe2 && n - i >= 3 && s[i + 1] == 0x80 &&
	    (s[i + 2] == 0xa8 || s[i + 2] == 0xa9))
		return 3;
	return 0;
}

static int is_line_start(const unsigned char *s, size_t i)
{
	return i == 0 || s[i - 1] == '\n' ||
	       (i >= 3 && s[i - 3] == 0xe2 && s[i - 2] == 0x80 &&
		(s[i - 1] == 0xa8 || s[i - 1] == 0xa9));
}

/* Offset of the first line terminator at or after i, or n. */
static size_t lt_find(const unsigned char *s, size_t n, size_t i)
{
	for (; i < n; i++)
		if (s[i] == '\n' || (s[i] == 0xe2 && lt_at(s, n, i)))
			return i;
	return n;
}

/* The first line start after i, or n. */
static size_t next_line(const unsigned char *s, size_t n, size_t i)
{
	i = lt_find(s, n, i);
	return i < n ? i + lt_at(s, n, i) : n;
}

static size_t ws_end(const struct scan *sc, size_t i)
{
	size_t w;

	while (i < sc->n && (w = ws_at(sc->s, sc->n, i)))
		i += w;
	return i;
}

/* Note 4: does \s*(?:#.*)?$ match at x?  If so *end is where it ends. */
static int tail_match(const struct scan *sc, size_t x, size_t *end)
{
	size_t e = x, last_lt = NONE, w;

	while (e < sc->n && (w = ws_at(sc->s, sc->n, e))) {
		if (lt_at(sc->s, sc->n, e))
			last_lt = e;
		e += w;
	}
	if (e == sc->n)
		*end = e;
	else if (sc->s[e] == '#')
		*end = lt_find(sc->s, sc->n, e);
	else if (last_lt != NONE)
		*end = last_lt;
	else
		return 0;
	return 1;
}

/* Offset of the first quote quotes[qi] at or after p that does not follow
 * a backslash, or n.  The answer is the same for every p up to it, so one
 * remembered range per quote keeps the scanning linear in the file size
 * however many quotes are left open. */
static size_t unescaped_quote(struct scan *sc, int qi, size_t p)
{
	unsigned char q = (unsigned char)quotes[qi];
	size_t lo = sc->qcache[qi].lo, hi = sc->qcache[qi].hi, i;

	if (lo != NONE && lo <= p && p <= hi)
		return hi;
	for (i = p; i < sc->n; i++) {
		if (i == lo) {
			i = hi;
			break;
		}
		if (sc->s[i] == q && sc->s[i - 1] != '\\')
			break;
	}
	sc->qcache[qi].lo = p;
	sc->qcache[qi].hi = i;
	return i;
}

/* Note 3: the quoted alternative opening at w (p >= 1 there, since a quote
 * opens after '=', ':' or a space).  Returns 1 with the closing quote in
 * *close and the match end in *end; *closable tells whether any closing
 * quote was there at all. */
static int quoted_match(struct scan *sc, size_t w, size_t *close,
			size_t *end, int *closable)
{
	unsigned char q = sc->s[w];
	size_t c = unescaped_quote(sc, quote_index(q), w + 1), i;

	*closable = c < sc->n;
	if (c < sc->n && tail_match(sc, c + 1, end)) {
		*close = c;
		return 1;
	}
	/* the escaped quotes before c, from the last one back */
	for (i = c; i > w + 1; i--) {
		if (sc->s[i - 1] != q)
			continue;
		*closable = 1;
		if (tail_match(sc, i, end)) {
			*close = i - 1;
			return 1;
		}
	}
	return 0;
}

/* Note 2: capture group 2 starting at r, and the tail after it. */
static void value_match(struct scan *sc, size_t r, struct match *m)
{
	const unsigned char *s = sc->s;
	size_t w = ws_end(sc, r), x, close;

	m->badquote = NONE;
	m->closable = 0;
	if (w < sc->n && quote_index(s[w]) >= 0) {
		if (quoted_match(sc, w, &close, &m->end, &m->closable)) {
			m->vbeg = r;
			m->vend = close + 1;
			m->from = w;
			return;
		}
		m->badquote = w;
	}
	if (r < sc->n && s[r] != '#' && s[r] != '\n') {
		for (x = r; x < sc->n && s[x] != '#' && s[x] != '\n'; x++)
			;
		m->vbeg = r;
		m->vend = x;
		m->from = r;
		tail_match(sc, x, &m->end);	/* cannot fail here */
		return;
	}
	m->vbeg = m->vend = r;
	m->from = NONE;
	tail_match(sc, r, &m->end);		/* nor here */
}

/* The key, the separator, then the value; 0 when there is no separator. */
static int rest_match(struct scan *sc, size_t k, struct match *m)
{
	const unsigned char *s = sc->s;
	size_t i = k, t, w, r;

	while (i < sc->n && is_key_char(s[i]))
		i++;
	if (i == k)
		return 0;
	t = ws_end(sc, i);
	if (t < sc->n && s[t] == '=') {
		m->sep = t;
		r = t + 1;
	} else if (s[i] == ':' && i + 1 < sc->n &&
		   (w = ws_at(s, sc->n, i + 1))) {
		m->sep = i;
		r = i + 1 + w;
	} else {
		return 0;
	}
	m->key = k;
	m->keyend = i;
	value_match(sc, r, m);
	return 1;
}

/* Note 1: the whole match for the line start whose first non-space is k. */
static int attempt(struct scan *sc, size_t k, struct match *m)
{
	if (sc->n - k > 6 && !memcmp(sc->s + k, "export", 6) &&
	    ws_at(sc->s, sc->n, k + 6) &&
	    rest_match(sc, ws_end(sc, k + 6), m))
		return 1;
	return rest_match(sc, k, m);
}

/* tail_match() for the commonest case first: a line break followed by the
 * next line's key ends the match at the break (nothing after it is
 * whitespace, a comment or the end). */
static void tail_end(const struct scan *sc, size_t x, size_t *end)
{
	if (x < sc->n && sc->s[x] == '\n' && x + 1 < sc->n &&
	    is_key_char(sc->s[x + 1]))
		*end = x;
	else if (!tail_match(sc, x, end))
		*end = x;	/* cannot happen after a value: *end is set anyway */
}

/* attempt() for the shapes nearly every line has, KEY=value and KEY=,
 * without its general machinery: 1 when *m is what attempt() gives, 0 when
 * only attempt() can tell.  The key must reach the '=' directly, so the
 * "export " branch cannot apply (the byte after "export" would be a key
 * character or the '=', never a space).  Then value_match():
 * - a first value byte that is printable ASCII, not a space, quote or '#'
 *   is no \s and opens no quote, so the value is [^#\n]+ from there;
 * - at the end, or at a line break followed by the end or by a key
 *   character (no \s, quote or '#'), \s* cannot reach a quote and the
 *   value is empty.  Any other empty one may still come from a later line
 *   (A= then "x" on the next line gives x) and is left to attempt(). */
static int attempt_fast(const struct scan *sc, size_t k, struct match *m)
{
	const unsigned char *s = sc->s;
	size_t n = sc->n, i = k, r, x;

	while (i < n && is_key_char(s[i]))
		i++;
	if (i == k || i == n || s[i] != '=')
		return 0;
	r = i + 1;
	if (r < n && s[r] > ' ' && s[r] < 0x7f && s[r] != '#' &&
	    quote_index(s[r]) < 0) {
		for (x = r + 1; x < n && s[x] != '#' && s[x] != '\n'; x++)
			;
		m->vbeg = m->from = r;
		m->vend = x;
		tail_end(sc, x, &m->end);
	} else if (r == n || (s[r] == '\n' &&
			      (r + 1 == n || is_key_char(s[r + 1])))) {
		m->vbeg = m->vend = r;
		m->from = NONE;
		tail_end(sc, r, &m->end);
	} else {
		return 0;
	}
	m->key = k;
	m->keyend = m->sep = i;
	m->badquote = NONE;
	m->closable = 0;
	return 1;
}

/* Add an issue at offset pos: entry NONE for a line dotenv skips, else
 * the entry dotenv misreads.  Returns it (valid until the next one). */
static struct pending_issue *issue_add(struct scan *sc, size_t entry,
				       size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static struct pending_issue *issue_add(struct scan *sc, size_t entry,
				       size_t pos, const char *fmt, ...)
{
	struct pending_issue *pi;
	va_list ap;

	grow(&sc->pending, sizeof(*sc->pending), &sc->cap_pending,
	     sc->npending + 1);
	pi = &sc->pending[sc->npending];
	memset(pi, 0, sizeof(*pi));
	pi->pos = pos;
	pi->seq = sc->npending++;
	pi->entry = entry;
	pi->kind = entry == NONE ? DOTENV_SKIPPED : DOTENV_MISREAD;
	va_start(ap, fmt);
	pi->message = xvformat(fmt, ap);
	va_end(ap);
	return pi;
}

/* The 1-based line of offset pos, without touching locate()'s cursor. */
static unsigned line_of(const struct scan *sc, size_t pos)
{
	size_t lo = 0, hi = sc->nlines;

	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->lines[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return lo + 1 < UINT_MAX ? (unsigned)(lo + 1) : UINT_MAX;
}

static int has_lt(const struct scan *sc, size_t a, size_t b)
{
	return lt_find(sc->s, b, a) < b;
}

/* Why the line whose first non-space is at k does not match.  Nothing of
 * the line is quoted: a line dotenv skips may well be the stray tail of a
 * secret (an unquoted multi-line key, say), even when it looks like a key. */
static void line_diagnose(struct scan *sc, size_t k, size_t eol)
{
	const unsigned char *s = sc->s;
	size_t i = k, t;

	if (eol - k > 6 && !memcmp(s + k, "export", 6) && ws_at(s, eol, k + 6)) {
		for (t = k + 6; t < eol && ws_at(s, eol, t); t += ws_at(s, eol, t))
			;
		if (t < eol && is_key_char(s[t]))
			k = i = t;
	}
	while (i < eol && is_key_char(s[i]))
		i++;
	if (i == k) {
		issue_add(sc, NONE, k, s[k] == '=' ? "missing key name before '='"
						   : "expected KEY=VALUE");
		return;
	}
	if (i < eol && s[i] == ':') {
		issue_add(sc, NONE, i, "expected '=' or ': ' after the key name");
		return;
	}
	for (t = i; t < eol && ws_at(s, eol, t); t += ws_at(s, eol, t))
		;
	if (t == i && i < eol)
		issue_add(sc, NONE, i, "invalid character in key name");
	else
		issue_add(sc, NONE, t, "expected '=' after the key name");
}

/* Report the lines of [a, b) that no match took: dotenv ignores them.  The
 * region starts and ends at line boundaries (note 4). */
static void region_check(struct scan *sc, size_t a, size_t b)
{
	const unsigned char *s = sc->s;

	while (a < b) {
		size_t eol = lt_find(s, b, a), k = a, w;

		while (k < eol && (w = ws_at(s, eol, k)))
			k += w;
		if (k < eol && s[k] != '#')
			line_diagnose(sc, k, eol);
		a = eol < b ? eol + lt_at(s, b, eol) : b;
	}
}

/* The replace of /^(['"`])([\s\S]*)\1$/mg by '$2' (note 6), from v into
 * out, which has room for len bytes; returns the length written.
 * *quoted: a pair was stripped from the value's start. */
static size_t strip_quotes(const unsigned char *v, size_t len, char *out,
			   int *quoted)
{
	size_t last[3] = { NONE, NONE, NONE }, i = 0, j, m = 0, o = 0;
	int qi;

	*quoted = 0;
	for (j = 0; j < len; j++) {
		qi = quote_index(v[j]);
		if (qi >= 0 && (j + 1 == len || lt_at(v, len, j + 1)))
			last[qi] = j;
	}
	while (m < len) {
		qi = quote_index(v[m]);
		if (qi >= 0 && last[qi] != NONE && last[qi] > m) {
			*quoted |= m == 0;
			j = last[qi];
			memcpy(out + o, v + i, m - i);
			o += m - i;
			memcpy(out + o, v + m + 1, j - m - 1);
			o += j - m - 1;
			i = m = j + 1;
		}
		m = next_line(v, len, m);
	}
	memcpy(out + o, v + i, len - i);
	return o + len - i;
}

/* Backslash-n and backslash-r become LF and CR, in place; nothing else is
 * an escape (a backslash before a backslash included, as in dotenv). */
static size_t expand_escapes(char *v, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		if (v[i] == '\\' && i + 1 < len &&
		    (v[i + 1] == 'n' || v[i + 1] == 'r')) {
			v[o++] = v[i + 1] == 'n' ? '\n' : '\r';
			i++;
		} else {
			v[o++] = v[i];
		}
	}
	return o;
}

/* Line and column of pos.  Entries, then issues, come in rising order, so
 * the line after the last answer is tried before a binary search. */
static void locate(struct scan *sc, size_t pos, unsigned *line,
		   unsigned *col)
{
	size_t lo = 0, hi = sc->nlines;	/* lines[lo] <= pos < lines[hi] */
	size_t c = sc->cursor;

	if (sc->lines[c] <= pos) {
		if (c + 1 == hi || pos < sc->lines[c + 1])
			hi = c + 1;
		else if (c + 2 == hi || pos < sc->lines[c + 2])
			hi = c + 2;
		lo = hi == sc->nlines ? c : hi - 1;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (sc->lines[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	sc->cursor = lo;
	*line = lo + 1 < UINT_MAX ? (unsigned)(lo + 1) : UINT_MAX;
	pos -= sc->lines[lo];
	*col = pos + 1 < UINT_MAX ? (unsigned)(pos + 1) : UINT_MAX;
}

/* What dotenv does here that the file does not seem to say, for entry
 * idx, just added.  No message holds the key: it may be a piece of a
 * secret, which only places_mark() can tell. */
static void entry_issues(struct scan *sc, const struct match *m, size_t idx)
{
	struct entry_info *in = &sc->info[idx];
	size_t klen = m->keyend - m->key;

	if (m->badquote != NONE && m->badquote < m->vend) {
		issue_add(sc, idx, m->badquote, m->closable ?
			  "text after the closing quote: the value keeps the quotes" :
			  "unterminated quote: the value keeps the quote")
			->badquote = 1;
		in->badquote = 1;
		/* a quote closed on a later line leaves the lines up to
		 * it skipped, which places_mark() sees anyway */
		in->broken = !m->closable;
	}
	if (has_lt(sc, m->keyend, m->sep)) {
		issue_add(sc, idx, m->sep,
			  "the '=' is on line %u: the lines are joined",
			  line_of(sc, m->sep));
		in->broken = 1;
	}
	if (m->from != NONE && has_lt(sc, m->sep, m->from)) {
		issue_add(sc, idx, m->key,
			  "no value on the key's line: the value is taken from line %u",
			  line_of(sc, m->from));
		in->broken = 1;
	}
	/* dotenv stores into a plain object, where this key sets the
	 * prototype instead: the key is lost.  We keep the entry, so that a
	 * comparison with an example file still sees it, and say so. */
	if (klen == 9 && !memcmp(sc->s + m->key, "__proto__", 9))
		issue_add(sc, idx, m->key,
			  "dropped: a JavaScript object does not keep the key __proto__");
}

/* Does the value of m start like a PEM block ("-----BEGIN"), with no
 * quote around it that dotenv honours, and end on the key's line?  Then
 * the lines after it are likely the rest of it (places_mark()). */
static int pem_start(const struct scan *sc, const struct match *m, size_t a,
		     size_t b)
{
	static const char begin[] = "-----BEGIN";
	size_t n = sizeof(begin) - 1;

	if (a < b && quote_index(sc->s[a]) >= 0) {
		if (m->badquote == NONE)
			return 0;	/* a quoted value, closed */
		a++;
	}
	return b - a >= n && !memcmp(sc->s + a, begin, n) &&
	       !has_lt(sc, m->key, b);
}

/* Trim group 2 and add the entry.  Until entries_build(), its key and
 * value point into the scanned text, unterminated and unstripped. */
static void entry_add(struct scan *sc, const struct match *m)
{
	const unsigned char *s = sc->s;
	struct dotenv *out = sc->out;
	struct dotenv_entry *e;
	struct entry_info *in;
	size_t a = m->vbeg, b = m->vend, w, last;
	unsigned col;

	while (a < b && (w = ws_at(s, b, a)))
		a += w;
	while (b > a && (w = ws_before(s, a, b)))
		b -= w;
	if (out->n == sc->cap_entries)
		grow(&out->entries, sizeof(*out->entries), &sc->cap_entries,
		     out->n + 1);
	e = &out->entries[out->n++];
	e->key = (char *)sc->s + m->key;
	e->value = (char *)sc->s + a;
	e->value_len = b - a;
	e->place = DOTENV_PLACE_CLEAN;
	locate(sc, m->key, &e->line, &e->col);
	/* no overflow: keys and values lie apart in s, each match has a
	 * separator besides, so this stays below n + n / 2 + 2 */
	sc->textlen += (m->keyend - m->key) + 1 + (b - a) + 1;
	if (out->n > sc->cap_info)	/* U+2028 starts a match mid-line */
		grow(&sc->info, sizeof(*sc->info), &sc->cap_info, out->n);
	in = &sc->info[out->n - 1];
	memset(in, 0, sizeof(*in));
	last = b > a ? b - 1 : m->sep;
	if (memchr(s + m->key, '\n', last - m->key))
		locate(sc, last, &in->last, &col);	/* still rising */
	else
		in->last = e->line;
	in->pem = a < b && (s[a] == '-' || quote_index(s[a]) >= 0) &&
		  pem_start(sc, m, a, b);
	entry_issues(sc, m, out->n - 1);
}

/* Line kinds for places_mark(), a bit set per line. */
enum {
	LK_SKIPPED = 1,		/* a line dotenv skips */
	LK_ENTRY = 2,		/* holds some of an entry (key to value end) */
	LK_BROKEN = 4,		/* ... of an entry dotenv misreads */
	LK_INSIDE = 8,		/* inside a multi-line value without quotes */
};

/* Whether line l (0-based) starts, after blanks, with the -----END of a
 * PEM block. */
static int line_is_pem_end(const struct scan *sc, size_t l)
{
	static const char end[] = "-----END";
	size_t a = sc->lines[l], e = l + 1 < sc->nlines ? sc->lines[l + 1] : sc->n;

	while (a < e && (sc->s[a] == ' ' || sc->s[a] == '\t'))
		a++;
	return e - a >= sizeof(end) - 1 && !memcmp(sc->s + a, end, sizeof(end) - 1);
}

/* The multi-line value that entry i (its info says pem) starts, written
 * without quotes: the lines after its key's up to the first -----END line,
 * when no blank or comment line comes first.  Returns that line (0-based)
 * or NONE; *stop is where the search ended, so that a later head before it
 * need not search again (the scan stays linear). */
static size_t pem_block(const struct scan *sc, const unsigned char *lk,
			size_t k, size_t *stop)
{
	size_t j;

	for (j = k + 1; j < sc->nlines && lk[j]; j++)
		if (line_is_pem_end(sc, j))
			return *stop = j;
	*stop = j;
	return NONE;
}

/* Comment lines written like an assignment ("# KEY=value", "## export
 * KEY=value"): the keys a file mentions without setting them.  lk marks
 * the lines the scan took or skipped; the others are blank or comments
 * (a comment the tail of an entry swallowed among them). */
static void mentions_find(struct scan *sc, const unsigned char *lk)
{
	const unsigned char *s = sc->s;
	struct dotenv *out = sc->out;
	size_t l, cap = 0;

	for (l = 0; l < sc->nlines; l++) {
		size_t i = sc->lines[l], e = l + 1 < sc->nlines ? sc->lines[l + 1] : sc->n;
		size_t k, kend;

		if (lk[l])
			continue;
		while (i < e && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == e || s[i] != '#')
			continue;
		while (i < e && (s[i] == '#' || s[i] == ' ' || s[i] == '\t'))
			i++;
		/* cppcheck-suppress knownConditionTrueFalse ; "# export KEY" */
		if (e - i > 7 && !memcmp(s + i, "export", 6) &&
		    (s[i + 6] == ' ' || s[i + 6] == '\t'))
			for (i += 6; i < e && (s[i] == ' ' || s[i] == '\t'); i++)
				;
		for (k = i; i < e && is_key_char(s[i]); i++)
			;
		kend = i;
		if (kend == k || kend - k > 256)
			continue;
		while (i < e && (s[i] == ' ' || s[i] == '\t'))
			i++;
		if (i == e || s[i] != '=')
			continue;
		if (out->ncommented == cap)
			grow(&out->commented, sizeof(*out->commented), &cap,
			     out->ncommented + 1);
		out->commented[out->ncommented].line = (unsigned)(l + 1 < UINT_MAX ? l + 1 : UINT_MAX);
		out->commented[out->ncommented++].key =
			xstrndup((const char *)s + k, kend - k);
	}
}

/* A key of text dotenv skipped or misread may be a piece of a secret: set
 * each entry's place (dotenv.h), and turn a multi-line value written
 * without quotes into one issue of its first key, instead of one issue per
 * skipped line and keys that are pieces of it.  Runs after the scan, while
 * the entries still point into the scanned text. */
static void places_mark(struct scan *sc)
{
	struct dotenv *out = sc->out;
	unsigned char *lk = xcalloc(sc->nlines, 1);
	size_t i, l, stop = 0;

	for (i = 0; i < sc->npending; i++)
		if (sc->pending[i].kind == DOTENV_SKIPPED)
			lk[line_of(sc, sc->pending[i].pos) - 1] |= LK_SKIPPED;
	for (i = 0; i < out->n; i++) {
		size_t last = sc->info[i].last - 1;

		for (l = out->entries[i].line - 1; l <= last; l++)
			lk[l] |= sc->info[i].broken ? LK_BROKEN : LK_ENTRY;
	}
	for (i = 0; i < out->n; i++) {
		const struct entry_info *in = &sc->info[i];
		size_t k = out->entries[i].line - 1, end;

		if (!in->pem || lk[k] & LK_INSIDE || k < stop)
			continue;
		end = pem_block(sc, lk, k, &stop);
		if (end == NONE)
			continue;
		for (l = k + 1; l <= end; l++)
			lk[l] |= LK_INSIDE;
		issue_add(sc, i, (size_t)(out->entries[i].key - (char *)sc->s),
			  in->badquote ?
			  "its quote does not close, and its value runs on to line %zu: only the first line is read, quote included" :
			  "its value runs on to line %zu without quotes: only the first line is read",
			  end + 1);
		sc->info[i].block = 1;
	}
	for (i = 0; i < out->n; i++) {
		size_t k = out->entries[i].line - 1;

		if (lk[k] & LK_INSIDE)
			out->entries[i].place = DOTENV_PLACE_INSIDE;
		else if (k && lk[k - 1] & (LK_SKIPPED | LK_BROKEN))
			out->entries[i].place = DOTENV_PLACE_AFTER;
	}
	/* inside a value: told by its first key's issue, as is that key's
	 * broken quote */
	for (i = 0; i < sc->npending; i++) {
		struct pending_issue *pi = &sc->pending[i];

		if (pi->kind == DOTENV_SKIPPED)
			pi->dropped = (lk[line_of(sc, pi->pos) - 1] & LK_INSIDE) != 0;
		else
			pi->dropped = out->entries[pi->entry].place == DOTENV_PLACE_INSIDE ||
				      (pi->badquote && sc->info[pi->entry].block);
	}
	mentions_find(sc, lk);
	free(lk);
}

/* Copy every key and value into one block, the first key at its start (so
 * dotenv_release() frees it through entries[0].key): one allocation per
 * file instead of one per entry.  Strip the quotes, expand escapes.  A key
 * runs to the first non-key character, as the scan found it. */
static void entries_build(struct scan *sc)
{
	struct dotenv *out = sc->out;
	char *p;
	size_t i;

	if (!out->n)
		return;
	p = xmalloc(sc->textlen);
	for (i = 0; i < out->n; i++) {
		struct dotenv_entry *e = &out->entries[i];
		const unsigned char *v = (const unsigned char *)e->value;
		size_t klen = 0, len;
		int quoted;

		while (is_key_char((unsigned char)e->key[klen]))
			klen++;
		memcpy(p, e->key, klen);
		p[klen] = '\0';
		e->key = p;
		e->value = p + klen + 1;
		len = strip_quotes(v, e->value_len, e->value, &quoted);
		e->quote = quoted ? (char)v[0] : 0;
		if (e->value_len && v[0] == '"')
			len = expand_escapes(e->value, len);
		e->value[len] = '\0';
		e->value_len = len;
		p = e->value + len + 1;
	}
}

/* Copy buf with CRLF and CR turned into LF; memchr() finds the CRs, since
 * most files have none. */
static unsigned char *normalize(const char *buf, size_t len, size_t *n)
{
	unsigned char *s = xmalloc(len + 1);
	size_t i = 0, o = 0;

	while (i < len) {
		const char *cr = memchr(buf + i, '\r', len - i);
		size_t run = (cr ? (size_t)(cr - buf) : len) - i;

		memcpy(s + o, buf + i, run);
		o += run;
		i += run;
		if (i < len) {
			s[o++] = '\n';
			i += i + 1 < len && buf[i + 1] == '\n' ? 2 : 1;
		}
	}
	s[o] = '\0';
	*n = o;
	return s;
}

static void lines_build(struct scan *sc)
{
	const unsigned char *lf;
	size_t cap = 0, i = 0;

	grow(&sc->lines, sizeof(*sc->lines), &cap, 1);
	sc->lines[sc->nlines++] = 0;
	while (i < sc->n && (lf = memchr(sc->s + i, '\n', sc->n - i))) {
		i = (size_t)(lf - sc->s) + 1;
		if (sc->nlines == cap)
			grow(&sc->lines, sizeof(*sc->lines), &cap,
			     sc->nlines + 1);
		sc->lines[sc->nlines++] = i;
	}
}

static int pending_cmp(const void *pa, const void *pb)
{
	const struct pending_issue *a = pa, *b = pb;

	if (a->pos != b->pos)
		return a->pos < b->pos ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void issues_finish(struct scan *sc)
{
	struct dotenv *out = sc->out;
	size_t i;

	if (!sc->npending)
		return;
	qsort(sc->pending, sc->npending, sizeof(*sc->pending), pending_cmp);
	out->issues = xcalloc(sc->npending, sizeof(*out->issues));
	for (i = 0; i < sc->npending; i++) {
		const struct pending_issue *pi = &sc->pending[i];
		struct dotenv_issue *is = &out->issues[out->nissues];

		if (pi->dropped) {
			free(pi->message);
			continue;
		}
		locate(sc, pi->pos, &is->line, &is->col);
		is->kind = pi->kind;
		is->entry = pi->entry;
		is->message = pi->message;
		out->nissues++;
	}
}

static int mention_cmp(const void *pa, const void *pb)
{
	const struct dotenv_mention *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* FNV-1a: keys are short, and the table is rebuilt per file. */
static size_t key_hash(const char *k)
{
	size_t h = (size_t)14695981039346656037ULL;

	while (*k)
		h = (h ^ (unsigned char)*k++) * (size_t)1099511628211ULL;
	return h;
}

/* slots: an open-addressed hash table of entry index + 1 (0: empty), at
 * most half full; a later assignment of a key replaces the earlier one,
 * so each key maps to the entry that wins, as in dotenv.  O(n) to build,
 * O(1) per lookup: files with 10,000+ keys stay fast. */
static void index_build(struct dotenv *d)
{
	size_t i, mask;

	if (!d->n)
		return;
	d->nslots = 16;
	while (d->nslots < 2 * d->n)
		d->nslots *= 2;
	d->slots = xcalloc(d->nslots, sizeof(*d->slots));
	mask = d->nslots - 1;
	for (i = 0; i < d->n; i++) {
		size_t h = key_hash(d->entries[i].key) & mask;

		while (d->slots[h] &&
		       strcmp(d->entries[d->slots[h] - 1].key, d->entries[i].key))
			h = (h + 1) & mask;
		d->slots[h] = i + 1;
	}
}

void dotenv_from_entries(struct dotenv *d, const struct dotenv_entry *v, size_t n)
{
	size_t i, total = 0;
	char *p;

	memset(d, 0, sizeof(*d));
	if (!n)
		return;
	for (i = 0; i < n; i++)
		total += strlen(v[i].key) + 1 + v[i].value_len + 1;
	p = xmalloc(total);
	d->entries = xcalloc(n, sizeof(*d->entries));
	for (i = 0; i < n; i++) {
		struct dotenv_entry *e = &d->entries[i];
		size_t klen = strlen(v[i].key);

		*e = v[i];
		e->key = memcpy(p, v[i].key, klen + 1);
		p += klen + 1;
		e->value = p;
		if (v[i].value_len)
			memcpy(p, v[i].value, v[i].value_len);
		p[v[i].value_len] = '\0';
		p += v[i].value_len + 1;
	}
	d->n = n;
	index_build(d);
}

void dotenv_parse(const char *buf, size_t len, struct dotenv *out)
{
	struct scan sc;
	struct match m;
	size_t p = 0, done = 0, k, i;

	memset(out, 0, sizeof(*out));
	memset(&sc, 0, sizeof(sc));
	sc.out = out;
	sc.s = normalize(buf, len, &sc.n);
	lines_build(&sc);
	/* a match starts at a line start: one entry a line, nearly always.
	 * Sized once, so that it does not grow beside the entries (two
	 * arrays growing in turn are copied on every realloc) */
	sc.cap_info = sc.nlines;
	sc.info = xmalloc(sc.cap_info * sizeof(*sc.info));
	for (i = 0; i < ARRAY_SIZE(sc.qcache); i++)
		sc.qcache[i].lo = sc.qcache[i].hi = NONE;

	while (p < sc.n) {
		if (!is_line_start(sc.s, p)) {
			p = next_line(sc.s, sc.n, p);
			continue;
		}
		k = ws_end(&sc, p);
		if (k == sc.n)
			break;
		if (!attempt_fast(&sc, k, &m) && !attempt(&sc, k, &m)) {
			p = next_line(sc.s, sc.n, k);
			continue;
		}
		region_check(&sc, done, p);
		entry_add(&sc, &m);
		p = done = m.end;
	}
	region_check(&sc, done, sc.n);
	places_mark(&sc);
	entries_build(&sc);
	sc.cursor = 0;
	issues_finish(&sc);
	index_build(out);

	explicit_bzero(sc.s, sc.n);	/* it holds every value */
	free(sc.s);
	free(sc.lines);
	free(sc.pending);
	free(sc.info);
	/* sorted by key, for dotenv_mentions() */
	if (out->ncommented > 1)
		qsort(out->commented, out->ncommented, sizeof(*out->commented),
		      mention_cmp);
}

const struct dotenv_entry *dotenv_get(const struct dotenv *d, const char *key)
{
	size_t h, mask = d->nslots - 1;

	if (!d->nslots)
		return NULL;
	for (h = key_hash(key) & mask; d->slots[h]; h = (h + 1) & mask) {
		const struct dotenv_entry *e = &d->entries[d->slots[h] - 1];

		if (!strcmp(e->key, key))
			return e;
	}
	return NULL;
}

int dotenv_is_shadowed(const struct dotenv *d, size_t i)
{
	return i < d->n && dotenv_get(d, d->entries[i].key) != &d->entries[i];
}

int dotenv_key_hidden(const struct dotenv_entry *e)
{
	size_t len = strlen(e->key);

	return e->place != DOTENV_PLACE_CLEAN || len > 64 ||
	       (len > 24 && !strchr(e->key, '_'));
}

int dotenv_mentions(const struct dotenv *d, const char *key)
{
	size_t lo = 0, hi = d->ncommented;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(d->commented[mid].key, key);

		if (!c)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

void dotenv_release(struct dotenv *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		explicit_bzero(d->entries[i].value, d->entries[i].value_len);
	if (d->n)	/* every key and value live in this one block */
		free(d->entries[0].key);
	for (i = 0; i < d->nissues; i++)
		free(d->issues[i].message);
	for (i = 0; i < d->ncommented; i++)
		free(d->commented[i].key);
	free(d->commented);
	free(d->entries);
	free(d->issues);
	free(d->slots);
	memset(d, 0, sizeof(*d));
}
