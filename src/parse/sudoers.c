/* sudoers.c - who sudo lets run a command without a password, read from
 * sudoers text as sudo reads it (sudoers(5)): User_Alias definitions, user
 * specifications with NOPASSWD:, Defaults !authenticate.  Pure, like every
 * parser here: the sandbox probe reads the files, this judges them.
 */
#include "sudoers.h"
#include "span.h"
#include "util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* ---- sudoers ------------------------------------------------------------
 * sudoers(5): a logical line continues over a backslash-newline; '#'
 * starts a comment unless it is #include/#includedir or is followed by a
 * digit (a uid); the first word says what the line is. */

#define SUDO_LINE_MAX (64 * 1024)	/* longer logical lines are skipped */
#define SUDO_ALIAS_DEPTH 8

/* The next logical line into b (comments cut): 1 with *first set to the
 * number of its first physical line, 0 at the end. */
static int sudo_line(const char *buf, size_t len, size_t *pos, unsigned *lineno,
		     struct buf *b, unsigned *first)
{
	struct span line;
	int more = 1, any = 0, dropped = 0;
	char *s, *hash;

	b->len = 0;
	*first = *lineno + 1;
	while (more && span_next_line(buf, len, pos, &line)) {
		size_t n = line.n;

		any = 1;
		(*lineno)++;
		while (n && span_blank(line.p[n - 1]))
			n--;
		more = n && line.p[n - 1] == '\\';
		if (more)
			n--;
		dropped |= b->len + n > SUDO_LINE_MAX;
		if (dropped)
			continue;	/* too long: dropped whole */
		buf_add(b, line.p, n);
		buf_putc(b, ' ');
	}
	if (!any)
		return 0;
	if (dropped)
		b->len = 0;
	buf_puts(b, "");	/* terminated, and allocated even when empty */
	s = b->s;
	if (!strncmp(s + strspn(s, " \t"), "#include", 8))
		s[0] = '\0';	/* a directive: the probe reads sudoers.d itself */
	for (hash = s; (hash = strchr(hash, '#')) != NULL; hash++) {
		if (!isdigit((unsigned char)hash[1])) {
			*hash = '\0';
			break;
		}
	}
	return 1;
}

static const char *skip_blanks(const char *p)
{
	while (*p && span_blank(*p))
		p++;
	return p;
}

/* The list item at *p (up to ',', a blank or end), copied without
 * quotes into item; *p moves past it.  0, or -1 when there is none. */
static int list_item(const char **p, char *item, size_t size, const char *stop)
{
	const char *s = skip_blanks(*p);
	size_t n = 0;

	if (!*s || strchr(stop, *s))
		return -1;
	while (*s && *s != ',' && !span_blank(*s) && !strchr(stop, *s)) {
		if (*s == '"') {
			s++;
			continue;
		}
		if (*s == '\\' && s[1])
			s++;
		if (n + 1 < size)
			item[n++] = *s;
		s++;
	}
	item[n] = '\0';
	*p = s;
	return 0;
}

/*
 * The aliases of one scan: looked up by name through idx (sorted by name,
 * and of a name defined twice only the first definition, the one used),
 * and each resolved once for the user (memo): a user list naming
 * an alias a thousand times, or aliases of aliases each naming the next
 * many times, cost one resolution each, not one per mention (which made
 * the lookup quadratic and nested aliases exponential).  An alias met
 * again while it is being resolved (a loop, which visudo refuses) or
 * deeper than SUDO_ALIAS_DEPTH matches nothing.
 */
enum { ALIAS_UNKNOWN, ALIAS_BUSY, ALIAS_NO, ALIAS_YES };

struct alias_ref {
	const char *name;
	size_t pos;
};

struct alias_ctx {
	const struct sudo_aliases *a;
	struct alias_ref *idx;	/* nidx, by name */
	size_t nidx;
	unsigned char *memo;	/* a->n, by position */
};

static int list_match(const char *list, const struct sudo_who *who,
		      struct alias_ctx *c, int depth, const char **end,
		      const char *stop);

static int parse_id(const char *s, unsigned long *out)
{
	struct span sp = { s, strlen(s) };
	unsigned long long v;

	if (span_number(sp, 10, 10, &v) < 0 || v > 4294967295ULL)
		return -1;
	*out = (unsigned long)v;
	return 0;
}

static int alias_name_cmp(const void *x, const void *y)
{
	return strcmp(((const struct alias_ref *)x)->name,
		      ((const struct alias_ref *)y)->name);
}

/* By name, then by position: the first definition of a name first. */
static int alias_ref_cmp(const void *x, const void *y)
{
	const struct alias_ref *a = x, *b = y;
	int d = strcmp(a->name, b->name);

	return d ? d : (a->pos > b->pos) - (a->pos < b->pos);
}

/* The position of the alias named name (its first definition), or -1. */
static long alias_find(const struct alias_ctx *c, const char *name)
{
	const struct alias_ref key = { name, 0 }, *r;

	if (!c->nidx)
		return -1;
	/* the index holds each name once: pos does not take part */
	r = bsearch(&key, c->idx, c->nidx, sizeof(*c->idx), alias_name_cmp);
	return r ? (long)r->pos : -1;
}

static int item_match(const char *item, const struct sudo_who *who,
		      struct alias_ctx *c, int depth)
{
	long k;
	unsigned long id;
	size_t i;

	if (!strcmp(item, "ALL"))
		return 1;
	if (item[0] == '#')
		return parse_id(item + 1, &id) == 0 && id == who->uid;
	if (item[0] == '+' || (item[0] == '%' && item[1] == ':'))
		return 0;	/* netgroups, non-Unix groups: not resolved */
	if (item[0] == '%' && item[1] == '#') {
		if (parse_id(item + 2, &id) < 0)
			return 0;
		for (i = 0; i < who->ngroups; i++)
			if (who->gids[i] == id)
				return 1;
		return 0;
	}
	if (item[0] == '%') {
		for (i = 0; i < who->ngroups; i++)
			if (who->groups[i] && !strcmp(who->groups[i], item + 1))
				return 1;
		return 0;
	}
	k = alias_find(c, item);
	if (k >= 0) {
		const char *end;
		int r;

		if (c->memo[k] == ALIAS_YES || c->memo[k] == ALIAS_NO)
			return c->memo[k] == ALIAS_YES;
		if (c->memo[k] == ALIAS_BUSY || depth >= SUDO_ALIAS_DEPTH)
			return 0;
		c->memo[k] = ALIAS_BUSY;
		r = list_match(c->a->list[k], who, c, depth + 1, &end, "");
		c->memo[k] = r ? ALIAS_YES : ALIAS_NO;
		return r;
	}
	return who->user && !strcmp(who->user, item);
}

/* A comma list (User_List) from list, up to a blank that no comma
 * follows or a character of stop; *end is where it ended.  The last item
 * that matches decides, a '!' negating it. */
static int list_match(const char *list, const struct sudo_who *who,
		      struct alias_ctx *c, int depth, const char **end,
		      const char *stop)
{
	const char *p = list;
	int result = 0;
	char item[256];

	for (;;) {
		const char *s = skip_blanks(p);
		int neg = 0;

		while (*s == '!') {
			neg = !neg;
			s = skip_blanks(s + 1);
		}
		p = s;
		if (list_item(&p, item, sizeof(item), stop) < 0)
			break;
		if (item_match(item, who, c, depth))
			result = !neg;
		s = skip_blanks(p);
		if (*s != ',')
			break;
		p = s + 1;
	}
	*end = p;
	return result;
}

/* "NAME = list : NAME2 = list2" after User_Alias */
static void alias_add(struct sudo_aliases *a, const char *defs)
{
	const char *p = defs;

	while (*p) {
		const char *eq, *colon;
		char name[128];
		size_t n;

		p = skip_blanks(p);
		n = strcspn(p, " \t=");
		eq = strchr(p, '=');
		if (!eq || !n || n >= sizeof(name))
			return;
		memcpy(name, p, n);
		name[n] = '\0';
		colon = strchr(eq + 1, ':');
		if (a->n == a->cap) {	/* both arrays grow together */
			grow(&a->name, sizeof(*a->name), &a->cap, a->n + 1);
			a->list = xrealloc(a->list, a->cap * sizeof(*a->list));
		}
		a->name[a->n] = xstrdup(name);
		a->list[a->n] = colon ? xstrndup(eq + 1, (size_t)(colon - eq - 1)) :
				xstrdup(eq + 1);
		a->n++;
		if (!colon)
			return;
		p = colon + 1;
	}
}

static int word_is(const char *s, const char *word)
{
	size_t n = strlen(word);

	return !strncmp(s, word, n) && (!s[n] || span_blank(s[n]) || s[n] == ':' ||
					 s[n] == '@' || s[n] == '>' || s[n] == '!');
}

void sandbox_sudoers_aliases(const char *buf, size_t len, struct sudo_aliases *a)
{
	struct buf b = BUF_INIT;
	size_t pos = 0;
	unsigned lineno = 0, first;

	while (sudo_line(buf, len, &pos, &lineno, &b, &first)) {
		const char *s = skip_blanks(buf_str(&b));

		if (word_is(s, "User_Alias"))
			alias_add(a, s + 10);
	}
	buf_release(&b);
}

void sudo_aliases_release(struct sudo_aliases *a)
{
	size_t i;

	for (i = 0; i < a->n; i++) {
		free(a->name[i]);
		free(a->list[i]);
	}
	free(a->name);
	free(a->list);
	memset(a, 0, sizeof(*a));
}

/* A word of a comma-and-blank separated option list: "!authenticate". */
static int has_option(const char *s, const char *opt)
{
	size_t n = strlen(opt);
	const char *p = s;

	while ((p = strstr(p, opt)) != NULL) {
		int before = p == s || span_blank(p[-1]) || p[-1] == ',';
		int after = !p[n] || span_blank(p[n]) || p[n] == ',';

		if (before && after)
			return 1;
		p += n;
	}
	return 0;
}

/* A NOPASSWD tag after the '=' of a user specification. */
static int has_nopasswd(const char *s)
{
	const char *p = s;

	while ((p = strstr(p, "NOPASSWD")) != NULL) {
		int before = p == s || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');

		p += 8;
		if (before && *skip_blanks(p) == ':')
			return 1;
	}
	return 0;
}

static const char *sudo_defaults(const char *s, const struct sudo_who *who,
				 struct alias_ctx *c)
{
	const char *end;

	s += 8;
	if (*s == ':') {
		if (!list_match(s + 1, who, c, 0, &end, ""))
			return NULL;
		s = end;
	} else if (*s == '@' || *s == '>' || *s == '!') {
		/* per host, per runas user or per command: the host and the
		 * command are not known here, so these count for everyone */
		s += strcspn(s, " \t");
	}
	return has_option(s, "!authenticate") ? "!authenticate" : NULL;
}

/* The index of a's names, each name once (its first definition). */
static void alias_ctx_init(struct alias_ctx *c, const struct sudo_aliases *a)
{
	size_t i, n = a ? a->n : 0;

	c->a = a;
	c->idx = xmalloc((n ? n : 1) * sizeof(*c->idx));
	c->memo = xcalloc(n ? n : 1, 1);
	for (i = 0; i < n; i++) {
		c->idx[i].name = a->name[i];
		c->idx[i].pos = i;
	}
	if (n > 1)
		qsort(c->idx, n, sizeof(*c->idx), alias_ref_cmp);
	for (i = c->nidx = 0; i < n; i++)
		if (!c->nidx || strcmp(c->idx[i].name, c->idx[c->nidx - 1].name))
			c->idx[c->nidx++] = c->idx[i];
}

size_t sandbox_sudoers_scan(const char *buf, size_t len, const struct sudo_who *who,
			    const struct sudo_aliases *aliases,
			    void (*fn)(unsigned line, const char *what, void *arg),
			    void *arg)
{
	static const char *const skip[] = {
		"User_Alias", "Runas_Alias", "Host_Alias", "Cmnd_Alias", "Cmd_Alias",
		"@include", "@includedir",
	};
	struct buf b = BUF_INIT;
	struct alias_ctx c;
	size_t pos = 0, count = 0, i;
	unsigned lineno = 0, first;

	alias_ctx_init(&c, aliases);
	while (sudo_line(buf, len, &pos, &lineno, &b, &first)) {
		const char *s = skip_blanks(buf_str(&b)), *end, *what = NULL;

		if (!*s)
			continue;
		for (i = 0; i < ARRAY_SIZE(skip) && !word_is(s, skip[i]); i++)
			;
		if (i < ARRAY_SIZE(skip))
			continue;
		if (word_is(s, "Defaults")) {
			what = sudo_defaults(s, who, &c);
		} else if (list_match(s, who, &c, 0, &end, "=")) {
			const char *eq = strchr(end, '=');

			if (eq && has_nopasswd(eq + 1))
				what = "NOPASSWD";
		}
		if (!what)
			continue;
		fn(first, what, arg);
		count++;
	}
	buf_release(&b);
	free(c.idx);
	free(c.memo);
	return count;
}

int sandbox_sudoers_d_name(const char *name)
{
	size_t n = strlen(name);

	return n && name[n - 1] != '~' && !strchr(name, '.');
}
