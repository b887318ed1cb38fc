/* deps.c - package sets and their comparison (see deps.h) */
#include "deps.h"
#include "pep440.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct dep *dep_set_add(struct dep_set *s, const char *key, const char *name,
			const char *version, unsigned flags)
{
	size_t i = strmap_get(&s->index, key, strlen(key));
	struct dep *d;

	if (i != STRMAP_NONE) {	/* a key again: its version, flags and extra
				 * are the last one's (JSON.parse keeps the
				 * last of duplicate keys) */
		d = &s->v[i];
		free(d->version);
		free(d->extra);
		d->version = version ? xstrdup(version) : NULL;
		d->extra = NULL;
		d->flags = flags;
		return d;
	}
	grow(&s->v, sizeof(*s->v), &s->cap, s->n + 1);
	d = &s->v[s->n];
	memset(d, 0, sizeof(*d));
	d->key = xstrdup(key);
	d->name = xstrdup(name);
	d->version = version ? xstrdup(version) : NULL;
	d->flags = flags;
	/* the key string is owned by the entry and never moves */
	strmap_put(&s->index, d->key, strlen(d->key), s->n);
	s->n++;
	return d;
}

void dep_set_reserve(struct dep_set *s, size_t n)
{
	grow(&s->v, sizeof(*s->v), &s->cap, s->n + n);
	strmap_reserve(&s->index, s->n + n);
}

const struct dep *dep_set_get(const struct dep_set *s, const char *key)
{
	size_t i = strmap_get((struct strmap *)&s->index, key, strlen(key));

	return i == STRMAP_NONE ? NULL : &s->v[i];
}

void dep_set_release(struct dep_set *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].key);
		free(s->v[i].name);
		free(s->v[i].version);
		free(s->v[i].extra);
	}
	free(s->v);
	strmap_release(&s->index);
	memset(s, 0, sizeof(*s));
}

static void diff_add(struct dep_diff *d, enum dep_problem p, const struct dep *want,
		     const struct dep *have)
{
	struct dep_diff_item *it;

	grow(&d->v, sizeof(*d->v), &d->cap, d->n + 1);
	it = &d->v[d->n++];
	it->problem = p;
	it->want = want;
	it->have = have;
	if (p == DEP_EXTRA)
		d->extra++;
}

static int same_version(const char *a, const char *b, int pep440)
{
	int cmp;

	if (!strcmp(a, b))
		return 1;
	/* PEP 440: "1.0" and "1.0.0" are one version, as pip's == says */
	return pep440 && pep440_compare(a, b, &cmp) == 0 && cmp == 0;
}

/* DEPS_CMP_PAIR: a missing id and an extra one of the same name (the
 * first of each) become one DEP_VERSION item, in the missing one's place. */
static void pair_by_name(struct dep_diff *d)
{
	struct strmap extra_of = STRMAP_INIT;
	size_t i, j, k;

	for (i = 0; i < d->n; i++)
		if (d->v[i].problem == DEP_EXTRA &&
		    strmap_get(&extra_of, d->v[i].have->name,
			       strlen(d->v[i].have->name)) == STRMAP_NONE)
			strmap_put(&extra_of, d->v[i].have->name,
				   strlen(d->v[i].have->name), i);
	for (i = 0; i < d->n; i++) {
		const char *name;

		if (d->v[i].problem != DEP_MISSING)
			continue;
		name = d->v[i].want->name;
		j = strmap_get(&extra_of, name, strlen(name));
		if (j == STRMAP_NONE || !d->v[j].have)
			continue;
		d->v[i].problem = DEP_VERSION;
		d->v[i].have = d->v[j].have;
		d->v[j].have = NULL;	/* taken: dropped below */
		d->extra--;
		/* a second missing id of that name stays missing */
		strmap_put(&extra_of, name, strlen(name), STRMAP_NONE);
	}
	for (i = k = 0; i < d->n; i++)
		if (d->v[i].problem != DEP_EXTRA || d->v[i].have)
			d->v[k++] = d->v[i];
	d->n = k;
	strmap_release(&extra_of);
}

void deps_compare(const struct dep_set *want, const struct dep_set *have,
		  unsigned how, struct dep_diff *out)
{
	int extras = (how & (DEPS_CMP_EXTRAS | DEPS_CMP_PAIR)) != 0;
	int pep440 = (how & DEPS_CMP_PEP440) != 0;
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < want->n; i++) {
		const struct dep *w = &want->v[i];
		const struct dep *h = dep_set_get(have, w->key);

		/* npm leaves it out here: absent is right, and one there is
		 * the caller's to report (deps_node.c) */
		if (w->flags & DEP_NOT_HERE) {
			out->skipped += !h;
			continue;
		}
		if (!h) {
			if (w->flags & (DEP_OPTIONAL | DEP_UNDECIDED)) {
				out->skipped++;
				continue;
			}
			out->compared++;
			diff_add(out, DEP_MISSING, w, NULL);
			continue;
		}
		out->compared++;
		if (h->flags & DEP_NO_VERSION) {
			diff_add(out, DEP_UNKNOWN_VERSION, w, h);
		} else if (w->flags & DEP_LINK) {
			/* a workspace link: where it points is what matters */
			if (w->extra && (!h->extra || strcmp(w->extra, h->extra)))
				diff_add(out, DEP_VERSION, w, h);
		} else if (w->version && (!h->version ||
					  !same_version(w->version, h->version, pep440))) {
			diff_add(out, DEP_VERSION, w, h);
		} else if ((w->flags & DEP_RESOLVED) && w->extra && h->extra &&
			   strcmp(w->extra, h->extra)) {
			/* npm, no integrity: another "resolved" is another
			 * package (arborist lib/diff.js getAction) */
			diff_add(out, DEP_VERSION, w, h);
		}
	}
	if (!extras)
		return;
	for (i = 0; i < have->n; i++)
		/* v is set whenever n > 0; the analyser forgets it when
		 * dep_set_get lends the set to strmap_get to count probes */
		/* NOLINTNEXTLINE(clang-analyzer-core.NullDereference) */
		if (!dep_set_get(want, have->v[i].key))
			diff_add(out, DEP_EXTRA, NULL, &have->v[i]);
	if (how & DEPS_CMP_PAIR)
		pair_by_name(out);
	if (!(how & DEPS_CMP_EXTRAS)) {	/* extras were only for pairing */
		size_t k;

		for (i = k = 0; i < out->n; i++)
			if (out->v[i].problem != DEP_EXTRA)
				out->v[k++] = out->v[i];
		out->n = k;
		out->extra = 0;
	}
}

void dep_diff_release(struct dep_diff *d)
{
	free(d->v);
	memset(d, 0, sizeof(*d));
}

/* ---- python names and metadata ---- */

char *pep503_normalize(const char *name, size_t len)
{
	char *out = xmalloc(len + 1);
	size_t i, j = 0;

	for (i = 0; i < len; i++) {
		char c = name[i];

		if (c == '-' || c == '_' || c == '.') {
			if (j && out[j - 1] == '-')
				continue;
			c = '-';
		} else if (c >= 'A' && c <= 'Z') {
			c = (char)(c - 'A' + 'a');
		}
		out[j++] = c;
	}
	out[j] = 0;
	return out;
}

/* The value of header field `field` ("Name") on line s[0..n), or NULL. */
static char *header_value(const char *s, size_t n, const char *field)
{
	size_t flen = strlen(field);

	if (n <= flen || s[flen] != ':' || strncasecmp(s, field, flen))
		return NULL;
	s += flen + 1;
	n -= flen + 1;
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	return n ? xstrndup(s, n) : NULL;
}

/* Core metadata is an email header (PEP 241, 566): fields up to the first
 * empty line; the body after it (the long description) is not read. */
void deps_pymeta_parse(const char *buf, size_t len, char **name, char **version)
{
	size_t pos = 0;

	*name = *version = NULL;
	while (pos < len) {
		const char *s = buf + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		pos += n + 1;
		/* cppcheck-suppress knownConditionTrueFalse ; n is 0 on an empty line */
		if (!n || (n == 1 && s[0] == '\r'))
			break;
		if (!*name)
			*name = header_value(s, n, "Name");
		if (!*version)
			*version = header_value(s, n, "Version");
		if (*name && *version)
			break;
	}
}

/* ---- PEP 508 markers ---- */

struct mk {
	const char *p, *end;
	const struct pymarker_env *env;
	int bad;
	unsigned depth;
};

static void mk_ws(struct mk *m)
{
	while (m->p < m->end && (*m->p == ' ' || *m->p == '\t'))
		m->p++;
}

static int mk_word(struct mk *m, const char *w)
{
	size_t n = strlen(w);

	mk_ws(m);
	if ((size_t)(m->end - m->p) < n || memcmp(m->p, w, n))
		return 0;
	if (m->p + n < m->end) {
		char c = m->p[n];

		if ((c >= 'a' && c <= 'z') || c == '_' || (c >= '0' && c <= '9'))
			return 0;
	}
	m->p += n;
	return 1;
}

/* A marker variable's value here, or NULL (unknown); *version: it is
 * compared as a PEP 440 version. */
static const char *mk_var(const struct mk *m, const char *s, size_t n, int *known,
			  int *version)
{
	static const struct {
		const char *name;
		size_t off;
		int version;
	} vars[] = {
		{ "python_version", offsetof(struct pymarker_env, python_version), 1 },
		{ "python_full_version", offsetof(struct pymarker_env, python_full_version), 1 },
		{ "implementation_name", offsetof(struct pymarker_env, implementation_name), 0 },
		{ "platform_python_implementation",
		  offsetof(struct pymarker_env, platform_python_implementation), 0 },
		{ "sys_platform", offsetof(struct pymarker_env, sys_platform), 0 },
		{ "platform_system", offsetof(struct pymarker_env, platform_system), 0 },
		{ "os_name", offsetof(struct pymarker_env, os_name), 0 },
		{ "platform_machine", offsetof(struct pymarker_env, platform_machine), 0 },
		{ "extra", offsetof(struct pymarker_env, extra), 0 },
	};
	/* packaging src/packaging/_tokenizer.py VARIABLE accepts the legacy
	 * names os.name, sys.platform, platform.version, platform.machine,
	 * platform.python_implementation and python_implementation;
	 * _parser.py _parse_marker_var() replaces "." by "_" and
	 * process_env_var() reads python_implementation as
	 * platform_python_implementation */
	static const char *const legacy[][2] = {
		{ "os.name", "os_name" }, { "sys.platform", "sys_platform" },
		{ "platform.machine", "platform_machine" },
		{ "platform.python_implementation", "platform_python_implementation" },
		{ "python_implementation", "platform_python_implementation" },
	};
	size_t i;

	*known = 0;
	*version = 0;
	for (i = 0; i < ARRAY_SIZE(legacy); i++)
		if (strlen(legacy[i][0]) == n && !memcmp(legacy[i][0], s, n)) {
			s = legacy[i][1];
			n = strlen(s);
			break;
		}
	for (i = 0; i < ARRAY_SIZE(vars); i++) {
		if (strlen(vars[i].name) != n || memcmp(vars[i].name, s, n))
			continue;
		*known = 1;
		*version = vars[i].version;
		return *(const char *const *)((const char *)m->env + vars[i].off);
	}
	return NULL;
}

/* One side of a comparison: a quoted string or a variable.  Returns the
 * text (new string) or NULL when unknown; *isvar, *version. */
static char *mk_operand(struct mk *m, int *isvar, int *version)
{
	const char *s;
	int known;

	mk_ws(m);
	*isvar = 0;
	*version = 0;
	if (m->p < m->end && (*m->p == '"' || *m->p == '\'')) {
		char q = *m->p++;

		s = m->p;
		while (m->p < m->end && *m->p != q)
			m->p++;
		if (m->p >= m->end) {
			m->bad = 1;
			return NULL;
		}
		m->p++;
		return xstrndup(s, (size_t)(m->p - 1 - s));
	}
	s = m->p;
	while (m->p < m->end && ((*m->p >= 'a' && *m->p <= 'z') || *m->p == '_' ||
				 (*m->p >= '0' && *m->p <= '9') || *m->p == '.'))
		m->p++;
	if (m->p == s) {
		m->bad = 1;
		return NULL;
	}
	*isvar = 1;
	{
		const char *v = mk_var(m, s, (size_t)(m->p - s), &known, version);

		/* "extra", implementation_version, platform_release...: unknown */
		return v ? xstrdup(v) : NULL;
	}
}

static const char *const mk_ops[] = {
	"===", "==", "!=", "<=", ">=", "~=", "<", ">", NULL
};

/* "a op b" with PEP 440 rules when a version is compared, else text
 * rules (PEP 508: == and != compare strings; other operators on
 * non-versions are an error, taken as undecided). */
static int mk_compare(const char *l, const char *op, const char *r, int version)
{
	if (!strcmp(op, "in") || !strcmp(op, "not in")) {
		int in = strstr(r, l) != NULL;

		return op[0] == 'i' ? in : !in;
	}
	if (version && strcmp(op, "===")) {
		char spec[256];
		int ok;

		snprintf(spec, sizeof(spec), "%s%s", op, r);
		ok = pep440_check(spec, l, NULL, 0);
		if (ok >= 0)
			return ok;
	}
	if (!strcmp(op, "==") || !strcmp(op, "==="))
		return !strcmp(l, r);
	if (!strcmp(op, "!="))
		return strcmp(l, r) != 0;
	/* packaging markers.py _eval_op(): what is no version is compared
	 * as Python strings (_operators: operator.lt, ...), by code point,
	 * which is UTF-8's byte order */
	if (!strcmp(op, "<"))
		return strcmp(l, r) < 0;
	if (!strcmp(op, "<="))
		return strcmp(l, r) <= 0;
	if (!strcmp(op, ">"))
		return strcmp(l, r) > 0;
	if (!strcmp(op, ">="))
		return strcmp(l, r) >= 0;
	return -1;
}

static int mk_or(struct mk *m);

static int mk_atom(struct mk *m)
{
	char *l, *r;
	const char *op = NULL;
	char opbuf[8];
	int lvar, rvar, lver, rver, res;
	size_t i;

	mk_ws(m);
	if (m->p < m->end && *m->p == '(') {
		if (++m->depth > 32) {
			m->bad = 1;
			return -1;
		}
		m->p++;
		res = mk_or(m);
		mk_ws(m);
		if (m->p >= m->end || *m->p != ')')
			m->bad = 1;
		else
			m->p++;
		m->depth--;
		return res;
	}
	l = mk_operand(m, &lvar, &lver);
	if (m->bad) {
		free(l);
		return -1;
	}
	mk_ws(m);
	if (mk_word(m, "not")) {
		if (!mk_word(m, "in"))
			m->bad = 1;
		op = "not in";
	} else if (mk_word(m, "in")) {
		op = "in";
	} else {
		for (i = 0; mk_ops[i]; i++) {
			size_t n = strlen(mk_ops[i]);

			if ((size_t)(m->end - m->p) >= n && !memcmp(m->p, mk_ops[i], n)) {
				snprintf(opbuf, sizeof(opbuf), "%s", mk_ops[i]);
				op = opbuf;
				m->p += n;
				break;
			}
		}
	}
	if (!op)
		m->bad = 1;
	r = m->bad ? NULL : mk_operand(m, &rvar, &rver);
	if (m->bad || !l || !r) {
		free(l);
		free(r);
		return -1;
	}
	/* a variable on the right: the version rules still apply to it */
	res = mk_compare(l, op, r, lver || rver);
	free(l);
	free(r);
	return res;
}

/* Three-valued logic: false and anything is false, true or anything is
 * true, else undecided. */
static int mk_and(struct mk *m)
{
	int res = mk_atom(m);

	while (!m->bad && mk_word(m, "and")) {
		int r = mk_atom(m);

		res = (res == 0 || r == 0) ? 0 : (res == 1 && r == 1) ? 1 : -1;
	}
	return res;
}

static int mk_or(struct mk *m)
{
	int res = mk_and(m);

	while (!m->bad && mk_word(m, "or")) {
		int r = mk_and(m);

		res = (res == 1 || r == 1) ? 1 : (res == 0 && r == 0) ? 0 : -1;
	}
	return res;
}

int pymarker_eval(const char *marker, size_t len, const struct pymarker_env *env)
{
	struct mk m = { marker, marker + len, env, 0, 0 };
	int res = mk_or(&m);

	mk_ws(&m);
	if (m.bad || m.p != m.end)
		return -1;
	return res;
}
