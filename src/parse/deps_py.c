/* deps_py.c - Python lockfiles as the set of distributions that should be
 * installed on this machine (see deps.h).
 *
 * uv.lock and poetry.lock are universal: they list the packages of every
 * platform and every Python, each edge of the graph guarded by a PEP 508
 * marker.  What `uv sync` or `poetry install` would put in the virtual
 * environment here is what is reached from the project through edges
 * whose markers hold; a marker that cannot be decided (an extra, a
 * variable not known) makes the package "undecided": checked when it is
 * installed, not counted when it is not.
 */
#include "deps.h"
#include "toml.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum reach { R_NO, R_UNDECIDED, R_YES };

struct pypkg {
	char *name;		/* normalised */
	const char *version;	/* in the tree, or NULL */
	const struct toml_value *t;
	size_t next_same;	/* the next package of this name, or (size_t)-1 */
	int virtual_root;	/* uv: source virtual (never installed) */
	enum reach reach;
	enum reach queued;	/* the best reach it was queued at without an
				 * extra (R_NO: not yet) */
};

struct pygraph {
	struct pypkg *v;
	size_t n;
	struct strmap by_name;	/* first package of a name */
	const struct pymarker_env *env;
	/* the work list: package, extra to follow (or NULL), reach */
	struct { size_t pkg; const char *extra; enum reach r; } *q;
	size_t nq, qcap;
	struct strmap seen;	/* "pkg/extra" already queued with reach (an
				 * extra's; a package's own: pypkg.queued) */
	char **seen_keys;
	size_t nseen, seen_cap;
};

#define NONE ((size_t)-1)

static int graph_load(struct pygraph *g, const struct toml_value *pkgs,
		      struct parse_error *err)
{
	size_t i;

	g->n = pkgs->n;
	g->v = xcalloc(g->n ? g->n : 1, sizeof(*g->v));
	for (i = 0; i < pkgs->n; i++) {
		const struct toml_value *t = pkgs->items[i];
		const char *name = toml_str(toml_get(t, "name"));
		struct pypkg *p = &g->v[i];
		size_t first;

		if (t->type != TOML_TABLE || !name) {
			parse_error_set(err, t->line, t->col, "a [[package]] without a name");
			return -1;
		}
		p->name = pep503_normalize(name, strlen(name));
		p->version = toml_str(toml_get(t, "version"));
		p->t = t;
		p->next_same = NONE;
		first = strmap_get(&g->by_name, p->name, strlen(p->name));
		if (first == NONE) {
			strmap_put(&g->by_name, p->name, strlen(p->name), i);
		} else {
			while (g->v[first].next_same != NONE)
				first = g->v[first].next_same;
			g->v[first].next_same = i;
		}
	}
	return 0;
}

static void graph_release(struct pygraph *g)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		free(g->v[i].name);
	free(g->v);
	free(g->q);
	for (i = 0; i < g->nseen; i++)
		free(g->seen_keys[i]);
	free(g->seen_keys);
	strmap_release(&g->by_name);
	strmap_release(&g->seen);
}

/* Was package i's extra queued at r or better already?  Notes that it
 * is now. */
static int extra_queued(struct pygraph *g, size_t i, const char *extra, enum reach r)
{
	struct buf key = BUF_INIT;
	size_t at;

	buf_printf(&key, "%zu/%s", i, extra);
	at = strmap_get(&g->seen, key.s, key.len);
	if (at != NONE && at >= (size_t)r) {
		buf_release(&key);
		return 1;
	}
	if (at == NONE) {
		grow(&g->seen_keys, sizeof(*g->seen_keys), &g->seen_cap, g->nseen + 1);
		g->seen_keys[g->nseen++] = key.s;
		strmap_put(&g->seen, key.s, key.len, (size_t)r);
	} else {
		strmap_put(&g->seen, key.s, key.len, (size_t)r);
		buf_release(&key);
	}
	return 0;
}

/* Queue package i (with extra, or NULL) at reach r (never R_NO), unless
 * it was queued at r or better already. */
static void graph_push(struct pygraph *g, size_t i, const char *extra, enum reach r)
{
	if (!extra) {
		if (g->v[i].queued >= r)
			return;
		g->v[i].queued = r;
	} else if (extra_queued(g, i, extra, r)) {
		return;
	}
	if (r > g->v[i].reach)
		g->v[i].reach = r;
	grow(&g->q, sizeof(*g->q), &g->qcap, g->nq + 1);
	g->q[g->nq].pkg = i;
	g->q[g->nq].extra = extra;
	g->q[g->nq].r = r;
	g->nq++;
}

/* The package an edge names: by name, and by version when it says one. */
static size_t graph_find(const struct pygraph *g, const char *name, const char *version)
{
	char *norm = pep503_normalize(name, strlen(name));
	size_t i = strmap_get((struct strmap *)&g->by_name, norm, strlen(norm));

	free(norm);
	while (version && i != NONE && (!g->v[i].version || strcmp(g->v[i].version, version)))
		i = g->v[i].next_same;
	return i;
}

static enum reach marker_reach(const struct pygraph *g, const char *marker, enum reach r)
{
	int m;

	if (!marker || !*marker)
		return r;
	m = pymarker_eval(marker, strlen(marker), g->env);
	return m == 0 ? R_NO : m < 0 ? R_UNDECIDED : r;
}

/* uv: follow one array of edges { name, version?, marker?, extra? }. */
static void uv_edges(struct pygraph *g, const struct toml_value *edges, enum reach r)
{
	size_t i, j;

	if (!edges || edges->type != TOML_ARRAY)
		return;
	for (i = 0; i < edges->n; i++) {
		const struct toml_value *e = edges->items[i];
		const char *name = toml_str(toml_get(e, "name"));
		const struct toml_value *extras = toml_get(e, "extra");
		enum reach er;
		size_t to;

		if (!name)
			continue;
		er = marker_reach(g, toml_str(toml_get(e, "marker")), r);
		to = graph_find(g, name, toml_str(toml_get(e, "version")));
		if (er == R_NO || to == NONE)
			continue;
		graph_push(g, to, NULL, er);
		for (j = 0; extras && extras->type == TOML_ARRAY && j < extras->n; j++)
			if (toml_str(extras->items[j]))
				graph_push(g, to, toml_str(extras->items[j]), er);
	}
}

/* Every package reached, as the set; `skip_virtual`: uv's virtual
 * projects are never installed. */
static void graph_result(const struct pygraph *g, struct dep_set *s)
{
	size_t i;

	for (i = 0; i < g->n; i++) {
		const struct pypkg *p = &g->v[i];
		const struct dep *old;

		if (p->reach == R_NO || p->virtual_root)
			continue;
		old = dep_set_get(s, p->name);
		if (old && p->version && old->version && strcmp(old->version, p->version)) {
			/* two versions of one name reached (an undecided fork):
			 * either will do */
			struct dep *d = dep_set_add(s, p->name, p->name, NULL,
						    old->flags | DEP_UNDECIDED);

			d->line = old->line;
			continue;
		}
		if (old && old->flags == 0)
			continue;
		dep_set_add(s, p->name, p->name, p->version,
			    p->reach == R_UNDECIDED ? DEP_UNDECIDED : 0)->line = p->t->line;
	}
}

static const struct toml_value *lock_packages(const char *buf, size_t len,
					      struct toml_value **root,
					      struct parse_error *err)
{
	const struct toml_value *pkgs;

	memset(err, 0, sizeof(*err));
	if (toml_parse(buf, len, NULL, root, err) < 0)
		return NULL;
	pkgs = toml_get(*root, "package");
	if (pkgs && pkgs->type != TOML_ARRAY) {
		parse_error_set(err, pkgs->line, pkgs->col,
				"'package' is not an array of tables");
		toml_free(*root);
		*root = NULL;
		return NULL;
	}
	return pkgs;
}

static int source_is(const struct toml_value *t, const char *kind, int dot)
{
	const char *v = toml_str(toml_get(toml_get(t, "source"), kind));

	return v && (!dot || !strcmp(v, "."));
}

/* The lock's packages into g (uv and poetry share the graph): 1 loaded
 * (the caller releases g and *root), 0 no package table (nothing to
 * release), -1 an error in err (nothing to release). */
static int graph_open(const char *buf, size_t len, const struct pymarker_env *env,
		      struct pygraph *g, struct toml_value **root, struct parse_error *err)
{
	const struct toml_value *pkgs = lock_packages(buf, len, root, err);

	if (!*root)
		return -1;
	if (!pkgs) {
		toml_free(*root);
		return 0;
	}
	memset(g, 0, sizeof(*g));
	g->env = env;
	if (graph_load(g, pkgs, err) < 0) {
		graph_release(g);
		toml_free(*root);
		return -1;
	}
	return 1;
}

int deps_uv_parse(const char *buf, size_t len, const struct pymarker_env *env,
		  struct dep_set *s, struct parse_error *err)
{
	struct toml_value *root = NULL;
	struct pygraph g;
	size_t i, nroots = 0;
	int pass, rc = graph_open(buf, len, env, &g, &root, err);

	if (rc <= 0)
		return rc;
	/* the project at ".", else every workspace member (a virtual root) */
	for (pass = 0; pass < 2 && !nroots; pass++)
		for (i = 0; i < g.n; i++) {
			const struct toml_value *t = g.v[i].t;

			if (!source_is(t, "virtual", !pass) && !source_is(t, "editable", !pass))
				continue;
			g.v[i].virtual_root = source_is(t, "virtual", 0);
			graph_push(&g, i, NULL, R_YES);
			/* uv sync installs the "dev" group by default */
			uv_edges(&g, toml_get(toml_get(t, "dev-dependencies"), "dev"), R_YES);
			nroots++;
		}
	for (i = 0; i < g.nq; i++) {
		const struct pypkg *p = &g.v[g.q[i].pkg];

		if (g.q[i].extra)
			uv_edges(&g, toml_get(toml_get(p->t, "optional-dependencies"),
					      g.q[i].extra), g.q[i].r);
		else
			uv_edges(&g, toml_get(p->t, "dependencies"), g.q[i].r);
	}
	graph_result(&g, s);
	graph_release(&g);
	toml_free(root);
	return 0;
}

/* ---- poetry ---- */

static int in_list(const char *const *list, const char *s)
{
	for (; list && *list; list++)
		if (!strcmp(*list, s))
			return 1;
	return 0;
}

/* lock-version 2.1: groups and markers on the package itself. */
static enum reach poetry_own(const struct pygraph *g, const struct toml_value *t,
			     const char *const *optional_groups)
{
	const struct toml_value *groups = toml_get(t, "groups");
	const struct toml_value *markers = toml_get(t, "markers");
	enum reach best = R_NO;
	size_t i;

	for (i = 0; i < groups->n; i++) {
		const char *grp = toml_str(groups->items[i]);
		const char *m;
		enum reach r;

		if (!grp || in_list(optional_groups, grp))
			continue;
		m = markers && markers->type == TOML_TABLE ? toml_str(toml_get(markers, grp)) :
		    toml_str(markers);
		r = marker_reach(g, m, R_YES);
		if (r > best)
			best = r;
	}
	return best;
}

/* Older locks: an edge's markers ("markers" of an inline table, or
 * none for a plain version string); optional edges belong to extras. */
static void poetry_edges(struct pygraph *g, const struct toml_value *deps, enum reach r)
{
	size_t i, j;

	if (!deps || deps->type != TOML_TABLE)
		return;
	for (i = 0; i < deps->n; i++) {
		const struct toml_value *e = deps->kv[i].val;
		const struct toml_value *one = e;
		enum reach er = R_NO;
		size_t to = graph_find(g, deps->kv[i].key, NULL);

		if (to == NONE)
			continue;
		/* a list of alternatives: [{version, markers}, ...] */
		for (j = 0; j < (e->type == TOML_ARRAY ? e->n : 1); j++) {
			enum reach x;

			if (e->type == TOML_ARRAY)
				one = e->items[j];
			if (one->type == TOML_TABLE &&
			    toml_get(one, "optional") && toml_get(one, "optional")->b)
				continue;
			x = one->type == TOML_TABLE ?
			    marker_reach(g, toml_str(toml_get(one, "markers")), r) : r;
			if (one->type == TOML_TABLE && toml_get(one, "python") && x == R_YES)
				x = R_UNDECIDED;	/* a poetry python constraint */
			if (x > er)
				er = x;
		}
		if (er != R_NO)
			graph_push(g, to, NULL, er);
	}
}

int deps_poetry_parse(const char *buf, size_t len, const struct pymarker_env *env,
		      const char *const *optional_groups, struct dep_set *s,
		      struct parse_error *err)
{
	struct toml_value *root = NULL;
	struct pygraph g;
	unsigned char *incoming;
	size_t i, j;
	int rc = graph_open(buf, len, env, &g, &root, err);

	if (rc <= 0)
		return rc;
	incoming = xcalloc(g.n ? g.n : 1, 1);
	for (i = 0; i < g.n; i++) {
		const struct toml_value *deps = toml_get(g.v[i].t, "dependencies");

		for (j = 0; deps && deps->type == TOML_TABLE && j < deps->n; j++) {
			size_t to = graph_find(&g, deps->kv[j].key, NULL);

			if (to != NONE)
				incoming[to] = 1;
		}
	}
	for (i = 0; i < g.n; i++) {
		const struct toml_value *t = g.v[i].t;
		const struct toml_value *groups = toml_get(t, "groups");
		const struct toml_value *opt = toml_get(t, "optional");

		if (opt && opt->type == TOML_BOOL && opt->b)
			continue;	/* an extra's: only with that extra */
		if (groups && groups->type == TOML_ARRAY) {
			enum reach r = poetry_own(&g, t, optional_groups);

			if (r != R_NO)
				graph_push(&g, i, NULL, r);
		} else if (!incoming[i]) {
			graph_push(&g, i, NULL, R_YES);	/* a top-level dependency */
		}
	}
	/* lock 2.1 decided every package itself; older ones follow edges */
	for (i = 0; i < g.nq; i++)
		if (!toml_get(g.v[g.q[i].pkg].t, "groups"))
			poetry_edges(&g, toml_get(g.v[g.q[i].pkg].t, "dependencies"), g.q[i].r);
	free(incoming);
	graph_result(&g, s);
	graph_release(&g);
	toml_free(root);
	return 0;
}

/* ---- requirements.txt ---- */

static int name_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static void trim(const char **s, size_t *n)
{
	while (*n && (**s == ' ' || **s == '\t')) {
		(*s)++;
		(*n)--;
	}
	while (*n && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' || (*s)[*n - 1] == '\r'))
		(*n)--;
}

/* One logical requirement line (continuations joined, comment cut). */
static void pip_line(const char *s, size_t n, unsigned line,
		     const struct pymarker_env *env, struct dep_set *set,
		     size_t *unpinned, size_t *includes)
{
	const char *semi, *p, *end, *ver;
	size_t nlen, vlen;
	char *name, *version;
	struct dep *d;
	int m = 1;

	trim(&s, &n);
	if (!n)
		return;
	if (s[0] == '-') {
		if ((n > 2 && (!strncmp(s, "-r", 2) || !strncmp(s, "-c", 2))) ||
		    !strncmp(s, "--requirement", 13) || !strncmp(s, "--constraint", 12))
			(*includes)++;
		return;	/* -e, --index-url, --hash lines: not pins */
	}
	semi = memchr(s, ';', n);
	end = semi ? semi : s + n;
	for (p = s; p < end && name_char(*p); p++)
		;
	nlen = (size_t)(p - s);
	if (!nlen || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') ||
		       (s[0] >= '0' && s[0] <= '9'))) {
		(*unpinned)++;	/* a URL, a path: nothing to compare */
		return;
	}
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p < end && *p == '[') {	/* extras */
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (!close) {
			(*unpinned)++;
			return;
		}
		p = close + 1;
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
	}
	/* cppcheck-suppress knownConditionTrueFalse ; "pkg==1" is 3 bytes from p */
	if (end - p < 3 || p[0] != '=' || p[1] != '=') {
		(*unpinned)++;
		return;
	}
	p += p[2] == '=' ? 3 : 2;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	ver = p;
	while (p < end && *p != ' ' && *p != '\t' && *p != ',')
		p++;
	vlen = (size_t)(p - ver);
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	/* one exact version, and at most options (--hash) after it */
	if (!vlen || memchr(ver, '*', vlen) || (p < end && *p != '-')) {
		(*unpinned)++;
		return;
	}
	if (semi)
		m = pymarker_eval(semi + 1, (size_t)(s + n - semi - 1), env);
	if (m == 0)
		return;
	name = pep503_normalize(s, nlen);
	version = xstrndup(ver, vlen);
	if (!dep_set_get(set, name)) {
		d = dep_set_add(set, name, name, version, m < 0 ? DEP_UNDECIDED : 0);
		d->line = line;
	}
	free(name);
	free(version);
}

int deps_pip_parse(const char *buf, size_t len, const struct pymarker_env *env,
		   struct dep_set *s, size_t *unpinned, size_t *includes,
		   struct parse_error *err)
{
	struct buf logical = BUF_INIT;
	size_t pos = 0;
	unsigned no = 0, first = 0;

	memset(err, 0, sizeof(*err));
	*unpinned = *includes = 0;
	while (pos < len) {
		const char *ln = buf + pos, *nl = memchr(ln, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - ln) : len - pos, cut;
		const char *hash;
		int cont;

		pos += n + 1;
		no++;
		if (!logical.len)
			first = no;
		/* a comment: '#' at the start or after a blank (pip's rule) */
		for (cut = 0, hash = ln; (hash = memchr(hash, '#', n - (size_t)(hash - ln)));
		     hash++) {
			if (hash == ln || hash[-1] == ' ' || hash[-1] == '\t') {
				cut = 1;
				n = (size_t)(hash - ln);
				break;
			}
		}
		while (n && (ln[n - 1] == '\r' || ln[n - 1] == ' ' || ln[n - 1] == '\t'))
			n--;
		cont = !cut && n && ln[n - 1] == '\\';
		buf_add(&logical, ln, cont ? n - 1 : n);
		if (cont && pos < len)
			continue;
		pip_line(buf_str(&logical), logical.len, first, env, s, unpinned, includes);
		buf_release(&logical);
	}
	buf_release(&logical);
	return 0;
}
