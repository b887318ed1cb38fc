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
#include "pep440.h"
#include "poetrycon.h"
#include "toml.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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

/* What a lock must hold before its packages are looked at: 0, or -1
 * with err set. */
typedef int (*lock_check_fn)(const struct toml_value *root, struct parse_error *err);

static const struct toml_value *lock_packages(const char *buf, size_t len,
					      lock_check_fn check,
					      struct toml_value **root,
					      struct parse_error *err)
{
	const struct toml_value *pkgs;

	memset(err, 0, sizeof(*err));
	if (toml_parse(buf, len, NULL, root, err) < 0)
		return NULL;
	if (check && check(*root, err) < 0) {
		toml_free(*root);
		*root = NULL;
		return NULL;
	}
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
		      lock_check_fn check, struct pygraph *g, struct toml_value **root,
		      struct parse_error *err)
{
	const struct toml_value *pkgs = lock_packages(buf, len, check, root, err);

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

/* uv refuses a lock without its schema version or of a version it does
 * not know (uv-resolver's lock/mod.rs: LockWire's required `version`;
 * "uses an unsupported schema version (vN, but only v1 is supported)"):
 * an empty uv.lock is no lock of nothing. */
static int uv_schema_check(const struct toml_value *root, struct parse_error *err)
{
	const struct toml_value *v = toml_get(root, "version");

	if (!v) {
		parse_error_set(err, 1, 1, "missing field `version`: uv refuses a "
				"uv.lock without its schema version");
		return -1;
	}
	if (v->type != TOML_INTEGER || v->i != 1) {
		parse_error_set(err, v->line, v->col, "unsupported schema version "
				"(`version` is not 1, the only one uv reads)");
		return -1;
	}
	return 0;
}

/* ---- uv: pyproject.toml against the lock ---- */

/* The name of a PEP 508 requirement ("rich[jupyter] >=13; ..."),
 * normalised, into names (a set: keys only); self (the project's own
 * name, normalised) left out, as an extra of the project names it. */
static void uv_name_add(struct dep_set *names, const char *req, const char *self)
{
	size_t n;
	char *k;

	req += strspn(req, " \t");
	n = strspn(req, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
	if (!n)
		return;
	k = pep503_normalize(req, n);
	if ((!self || strcmp(k, self)) && !dep_set_get(names, k))
		dep_set_add(names, k, k, NULL, 0);
	free(k);
}

/* The list of group name in a table of groups, names compared as uv's
 * GroupName normalises them (PEP 503, as include-group's target too:
 * uv-pypi-types dependency_groups.rs), or NULL. */
static const struct toml_value *uv_group_of(const struct toml_value *groups, const char *name)
{
	char *want = pep503_normalize(name, strlen(name));
	const struct toml_value *found = NULL;
	size_t i;

	for (i = 0; groups && groups->type == TOML_TABLE && !found && i < groups->n; i++) {
		char *k = pep503_normalize(groups->kv[i].key, groups->kv[i].klen);

		if (!strcmp(k, want))
			found = groups->kv[i].val;
		free(k);
	}
	free(want);
	return found;
}

/* A pyproject list of requirements; in [dependency-groups] an item may
 * be {include-group = "other"} (PEP 735), followed depth levels down. */
static void uv_names_of(struct dep_set *names, const struct toml_value *list, const char *self,
			const struct toml_value *groups, int depth)
{
	size_t i;

	for (i = 0; list && list->type == TOML_ARRAY && i < list->n; i++) {
		const struct toml_value *it = list->items[i];
		const char *inc = toml_str(toml_get(it, "include-group"));

		if (toml_str(it))
			uv_name_add(names, toml_str(it), self);
		else if (inc && groups && depth < 16)
			uv_names_of(names, uv_group_of(groups, inc), self, groups, depth + 1);
	}
}

/* The names of the lock's requirement tables ([{ name = "rich", ... }]). */
static void uv_lock_names(struct dep_set *names, const struct toml_value *list, const char *self)
{
	size_t i;

	for (i = 0; list && list->type == TOML_ARRAY && i < list->n; i++) {
		const char *name = toml_str(toml_get(list->items[i], "name"));

		if (name)
			uv_name_add(names, name, self);
	}
}

/* The first name in one set and not in the other, into why (after
 * what: "dependencies", "group dev"). */
static int uv_names_differ(const struct dep_set *want, const struct dep_set *locked,
			   const char *what, struct buf *why)
{
	size_t i;

	for (i = 0; i < want->n; i++)
		if (!dep_set_get(locked, want->v[i].key)) {
			buf_printf(why, "%s is in pyproject.toml's %s, not in the lock's", want->v[i].key,
				   what);
			return 1;
		}
	for (i = 0; i < locked->n; i++)
		if (!dep_set_get(want, locked->v[i].key)) {
			buf_printf(why, "%s is in the lock's %s, no longer in pyproject.toml's",
				   locked->v[i].key, what);
			return 1;
		}
	return 0;
}

/* pyproject's groups: [dependency-groups], with [tool.uv]'s
 * dev-dependencies as the group dev (uv-workspace pyproject.rs
 * dependency_groups: both, merged), names normalised as uv's GroupName. */
static void uv_groups_of(struct dep_set *groups, const struct toml_value *pyproject)
{
	const struct toml_value *dg = toml_get(pyproject, "dependency-groups");
	size_t i;

	for (i = 0; dg && dg->type == TOML_TABLE && i < dg->n; i++) {
		char *k = pep503_normalize(dg->kv[i].key, dg->kv[i].klen);

		if (!dep_set_get(groups, k))
			dep_set_add(groups, k, dg->kv[i].key, NULL, 0);
		free(k);
	}
	if (toml_get(toml_get(toml_get(pyproject, "tool"), "uv"), "dev-dependencies") &&
	    !dep_set_get(groups, "dev"))
		dep_set_add(groups, "dev", "dev", NULL, 0);
}

/* The names a group of pyproject's holds (group: its normalised name). */
static void uv_group_names(struct dep_set *names, const struct toml_value *pyproject,
			   const char *group, const char *self)
{
	const struct toml_value *dg = toml_get(pyproject, "dependency-groups");

	uv_names_of(names, uv_group_of(dg, group), self, dg, 0);
	if (!strcmp(group, "dev"))
		uv_names_of(names, toml_get(toml_get(toml_get(pyproject, "tool"), "uv"),
					    "dev-dependencies"), self, NULL, 0);
}

/* The lock's package for the project self (normalised): by name, as uv's
 * Lock::satisfies finds each member (find_by_name), its source the
 * project's own (editable, virtual, or since uv 0.8 a directory when a
 * member asks for it with editable = false), or NULL. */
static const struct toml_value *uv_root_of(const struct pygraph *g, const char *self)
{
	size_t i;

	for (i = 0; g && i < g->n; i++)
		if (!strcmp(g->v[i].name, self) &&
		    (toml_get(toml_get(g->v[i].t, "source"), "editable") ||
		     toml_get(toml_get(g->v[i].t, "source"), "virtual") ||
		     toml_get(toml_get(g->v[i].t, "source"), "directory")))
			return g->v[i].t;
	return NULL;
}

/* Whether uv sync --locked refuses the lock for pyproject.toml's
 * [project] (uv-resolver lock/mod.rs Lock::satisfies: the project's
 * package must be there, then satisfies_requires_dist compares the
 * normalised requirements of [project]'s dependencies and
 * optional-dependencies with the package's [package.metadata]
 * requires-dist, and each non-empty dependency group with its
 * requires-dev; uv 0.9 and later relock and refuse when the lock would
 * change, which the same difference makes it do).  Compared here by
 * names only: two sets of requirements whose names differ differ, so a
 * difference found is one uv finds; a changed specifier or marker is not
 * looked at.  Not judged:
 *   - [tool.uv] managed = false (uv stops before the lock: "The project
 *     is marked as unmanaged");
 *   - dependencies uv learns by building the package: dynamic ones, or
 *     [project] with no dependencies beside a [tool.poetry] table
 *     (requires_dist.rs from_pyproject_toml: PoetrySyntax);
 *   - a lock of revision 4 or later whose package has no metadata (uv's
 *     lock-without-metadata preview skips the comparison then).
 * lock: the lock's root table; g: its packages (NULL: none).  1 with
 * why set, else 0. */
static int uv_stale(const struct toml_value *lock, const struct pygraph *g,
		    const struct toml_value *pyproject, struct buf *why)
{
	const struct toml_value *project = toml_get(pyproject, "project");
	const struct toml_value *dyn = toml_get(project, "dynamic"), *meta, *opt, *root, *rev;
	const struct toml_value *managed = toml_get(toml_get(toml_get(pyproject, "tool"), "uv"),
						    "managed");
	const char *name = toml_str(toml_get(project, "name"));
	struct dep_set want = DEP_SET_INIT, locked = DEP_SET_INIT, groups = DEP_SET_INIT;
	char *self;
	size_t i;
	int stale = 0;

	if (!name || (managed && managed->type == TOML_BOOL && !managed->b))
		return 0;
	self = pep503_normalize(name, strlen(name));
	if (!(root = uv_root_of(g, self))) {
		buf_printf(why, "the lock has no package for the project %s", self);
		free(self);
		return 1;
	}
	for (i = 0; dyn && dyn->type == TOML_ARRAY && i < dyn->n; i++) {
		const char *d = toml_str(dyn->items[i]);

		if (d && (!strcmp(d, "dependencies") || !strcmp(d, "optional-dependencies")))
			goto out;
	}
	if (!toml_get(project, "dependencies") && toml_get(toml_get(pyproject, "tool"), "poetry"))
		goto out;
	meta = toml_get(root, "metadata");
	rev = toml_get(lock, "revision");
	if (!meta && rev && rev->type == TOML_INTEGER && rev->i >= 4)
		goto out;
	uv_names_of(&want, toml_get(project, "dependencies"), self, NULL, 0);
	opt = toml_get(project, "optional-dependencies");
	for (i = 0; opt && opt->type == TOML_TABLE && i < opt->n; i++)
		uv_names_of(&want, opt->kv[i].val, self, NULL, 0);
	uv_lock_names(&locked, toml_get(meta, "requires-dist"), self);
	stale = uv_names_differ(&want, &locked, "dependencies", why);
	/* the groups, empty ones left out on both sides (a lock of an older
	 * revision has none); uv 0.4.27 wrote requires-dev as
	 * dependency-groups (PackageMetadata's serde alias) */
	uv_groups_of(&groups, pyproject);
	opt = toml_get(meta, "requires-dev");
	if (!opt)
		opt = toml_get(meta, "dependency-groups");
	for (i = 0; opt && opt->type == TOML_TABLE && i < opt->n; i++) {
		char *k = pep503_normalize(opt->kv[i].key, opt->kv[i].klen);

		if (!dep_set_get(&groups, k))
			dep_set_add(&groups, k, opt->kv[i].key, NULL, 0);
		free(k);
	}
	for (i = 0; !stale && i < groups.n; i++) {
		const char *gname = groups.v[i].key;
		struct buf what = BUF_INIT;

		dep_set_release(&want);
		dep_set_release(&locked);
		uv_group_names(&want, pyproject, gname, self);
		uv_lock_names(&locked, uv_group_of(opt, gname), self);
		buf_printf(&what, "group %s", gname);
		if (want.n || locked.n)
			stale = uv_names_differ(&want, &locked, buf_str(&what), why);
		buf_release(&what);
	}
out:
	dep_set_release(&want);
	dep_set_release(&locked);
	dep_set_release(&groups);
	free(self);
	return stale;
}

int deps_uv_parse(const char *buf, size_t len, const struct pymarker_env *env,
		  const struct toml_value *pyproject, struct dep_set *s, struct buf *stale,
		  struct parse_error *err)
{
	struct toml_value *root = NULL;
	struct pygraph g;
	size_t i, nroots = 0;
	int pass, rc = graph_open(buf, len, env, uv_schema_check, &g, &root, err);

	if (rc < 0)
		return rc;
	if (pyproject && stale)	/* rc 0: no package, and the tree is freed */
		uv_stale(rc ? root : NULL, rc ? &g : NULL, pyproject, stale);
	if (rc == 0)
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

/* The groups `poetry install` leaves out: pyproject.toml's
 * [tool.poetry.group.NAME] with optional = true. */
static int group_optional(const struct toml_value *poetry, const char *name)
{
	const struct toml_value *opt = toml_get(toml_get(toml_get(poetry, "group"), name),
						"optional");

	return opt && opt->type == TOML_BOOL && opt->b;
}

/* One declaration of a dependency (in pyproject.toml, or an edge of a
 * lock before 2.1), as poetry reads it for this environment: a version
 * string holds; a table's "markers" (PEP 508), "python" (poetry's
 * constraint on python_full_version) and "platform" (sys.platform) must
 * all hold, as poetry-core's factory.py create_dependency joins them into
 * one marker; an "optional" one comes only with an extra (optional_ok:
 * this is that extra's). */
static enum reach decl_reach(const struct pygraph *g, const struct toml_value *one, enum reach r,
			     int optional_ok)
{
	const struct toml_value *opt;
	const char *py, *plat;

	if (!one || one->type != TOML_TABLE)
		return r;
	opt = toml_get(one, "optional");
	if (!optional_ok && opt && opt->type == TOML_BOOL && opt->b)
		return R_NO;
	r = marker_reach(g, toml_str(toml_get(one, "markers")), r);
	if (r != R_NO && (py = toml_str(toml_get(one, "python")))) {
		char why[128];
		int ok = g->env->python_full_version ?
			 poetry_check(py, g->env->python_full_version, why, sizeof(why)) : -1;

		r = ok == 0 ? R_NO : ok < 0 && r == R_YES ? R_UNDECIDED : r;
	}
	if (r != R_NO && (plat = toml_str(toml_get(one, "platform")))) {
		/* a plain name is compared; a constraint ("linux || darwin")
		 * is not decided here */
		if (!g->env->sys_platform || strpbrk(plat, "|!,<>= *"))
			r = r == R_YES ? R_UNDECIDED : r;
		else if (strcmp(plat, g->env->sys_platform))
			r = R_NO;
	}
	return r;
}

/* A declaration's version constraint: the string, or a table's
 * "version"; NULL for a path, a URL, a git source. */
static const char *decl_version(const struct toml_value *one)
{
	return one->type == TOML_STRING ? toml_str(one) :
	       one->type == TOML_TABLE ? toml_str(toml_get(one, "version")) : NULL;
}

/* Of the locked packages of a name (a lock holds two when they differ by
 * Python: cfgv 3.3.1 for >=3.6.1 and 3.4.0 for >=3.8), the one poetry's
 * solver takes here: the newest whose version meets the declaration's
 * constraint and whose python-versions allows this Python (the solver
 * tries the newest candidate first: puzzle/provider.py search_for sorts
 * them), else the first of the name. */
static size_t poetry_pick(const struct pygraph *g, const char *name, const char *constraint)
{
	size_t first = graph_find(g, name, NULL), i, best = NONE;
	const char *here = g->env->python_full_version;
	char why[128];

	if (first == NONE || g->v[first].next_same == NONE)
		return first;
	for (i = first; i != NONE; i = g->v[i].next_same) {
		const char *pv = toml_str(toml_get(g->v[i].t, "python-versions"));
		int cmp;

		if (constraint && g->v[i].version &&
		    poetry_check(constraint, g->v[i].version, why, sizeof(why)) == 0)
			continue;
		if (pv && here && poetry_check(pv, here, why, sizeof(why)) == 0)
			continue;
		if (best == NONE || (g->v[i].version && g->v[best].version &&
				     pep440_compare(g->v[i].version, g->v[best].version, &cmp) == 0 &&
				     cmp > 0))
			best = i;
	}
	return best != NONE ? best : first;
}

/* One declaration { name = "1.0" | {...} | [{...}, ...] }: the package
 * of each alternative that holds is queued (r at most), with the extras
 * it asks for (a table's "extras": poetry's provider follows them into
 * the package's optional dependencies). */
static void decl_push(struct pygraph *g, const char *name, const struct toml_value *e,
		      enum reach r, int optional_ok)
{
	size_t j, k;

	for (j = 0; j < (e->type == TOML_ARRAY ? e->n : 1); j++) {
		const struct toml_value *one = e->type == TOML_ARRAY ? e->items[j] : e;
		const struct toml_value *extras = toml_get(one, "extras");
		enum reach x = decl_reach(g, one, r, optional_ok);
		size_t to;

		if (x == R_NO || (to = poetry_pick(g, name, decl_version(one))) == NONE)
			continue;
		graph_push(g, to, NULL, x);
		for (k = 0; extras && extras->type == TOML_ARRAY && k < extras->n; k++)
			if (toml_str(extras->items[k]))
				graph_push(g, to, toml_str(extras->items[k]), x);
	}
}

/* A table of declarations: each one's packages queued (decl_push).
 * skip_python: [tool.poetry.dependencies], where "python" is the
 * interpreter's constraint. */
static void decls_push(struct pygraph *g, const struct toml_value *deps, enum reach r,
		       int skip_python)
{
	size_t i;

	for (i = 0; deps && deps->type == TOML_TABLE && i < deps->n; i++)
		if (!skip_python || strcmp(deps->kv[i].key, "python"))
			decl_push(g, deps->kv[i].key, deps->kv[i].val, r, 0);
}

/* A PEP 508 requirement's name: its length at the start of r. */
static size_t req_name_len(const char *r)
{
	return strspn(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-");
}

/* Package pkg's extra: the requirements its "extras" table lists for it
 * ("mdit-py-plugins", "linkify-it-py (>=1,<3)"), each through the
 * package's own declaration of it (optional = true: this extra's). */
static void extra_edges(struct pygraph *g, size_t pkg, const char *extra, enum reach r)
{
	const struct toml_value *t = g->v[pkg].t;
	const struct toml_value *list = toml_get(toml_get(t, "extras"), extra);
	const struct toml_value *deps = toml_get(t, "dependencies");
	size_t i, j;

	for (i = 0; list && list->type == TOML_ARRAY && i < list->n; i++) {
		const char *req = toml_str(list->items[i]);
		char *name, *norm;
		size_t n;
		int done = 0;

		if (!req || !(n = req_name_len(req)))
			continue;
		name = xstrndup(req, n);
		norm = pep503_normalize(name, n);
		for (j = 0; deps && deps->type == TOML_TABLE && j < deps->n && !done; j++) {
			char *k = pep503_normalize(deps->kv[j].key, strlen(deps->kv[j].key));

			if (!strcmp(k, norm)) {
				decl_push(g, deps->kv[j].key, deps->kv[j].val, r, 1);
				done = 1;
			}
			free(k);
		}
		if (!done && (j = poetry_pick(g, name, NULL)) != NONE)
			graph_push(g, j, NULL, r);
		free(norm);
		free(name);
	}
}

/* lock-version 2.1: groups and markers on the package itself. */
static enum reach poetry_own(const struct pygraph *g, const struct toml_value *t,
			     const struct toml_value *poetry)
{
	const struct toml_value *groups = toml_get(t, "groups");
	const struct toml_value *markers = toml_get(t, "markers");
	enum reach best = R_NO;
	size_t i;

	for (i = 0; i < groups->n; i++) {
		const char *grp = toml_str(groups->items[i]);
		const char *m;
		enum reach r;

		if (!grp || group_optional(poetry, grp))
			continue;
		m = markers && markers->type == TOML_TABLE ? toml_str(toml_get(markers, grp)) :
		    toml_str(markers);
		r = marker_reach(g, m, R_YES);
		if (r > best)
			best = r;
	}
	return best;
}

/* Before lock 2.1 (poetry 1.x) the lock says no group: the installer
 * solves the root package again with the locked packages as its only
 * repository, under this environment (poetry installer.py _do_install:
 * Solver(root, pool of the locked repository, ...) in
 * solver.use_environment(env), root being the package with its groups
 * less the optional ones).  So what is installed is what pyproject.toml's
 * declarations reach here: [tool.poetry.dependencies] (python aside),
 * the legacy dev-dependencies (the group "dev") and each group's that is
 * not optional.  0 when pyproject.toml declares none of that. */
static int poetry_roots(struct pygraph *g, const struct toml_value *poetry)
{
	const struct toml_value *groups = toml_get(poetry, "group");
	size_t i;

	if (!toml_get(poetry, "dependencies") && !toml_get(poetry, "dev-dependencies") &&
	    !groups)
		return 0;
	decls_push(g, toml_get(poetry, "dependencies"), R_YES, 1);
	if (!group_optional(poetry, "dev"))
		decls_push(g, toml_get(poetry, "dev-dependencies"), R_YES, 0);
	for (i = 0; groups && groups->type == TOML_TABLE && i < groups->n; i++)
		if (!group_optional(poetry, groups->kv[i].key))
			decls_push(g, toml_get(groups->kv[i].val, "dependencies"), R_YES, 0);
	return 1;
}

/* ---- what pyproject.toml declares that poetry.lock lacks ---- */

struct unlocked {
	const struct pygraph *g;
	const char *root_py;	/* the project's python: poetry's constraint, */
	const char *root_pep440;	/* or [project] requires-python */
	char *self;		/* the project's own name, normalised, or NULL */
	struct buf *out;	/* ", "-separated */
};

/* Whether a declaration is for Pythons the project does not allow: poetry
 * does not lock those (puzzle/provider.py: a dependency whose python
 * constraint, markers included, does not meet the root's is dropped).
 * Asked of Pythons 2.7 and 3.0 to 3.29, each at .0 and .99: none allowed
 * by both is disjoint. */
static int python_disjoint(const struct unlocked *u, const char *py, const char *marker,
			   size_t mlen)
{
	char full[16], minor[8], why[128];
	struct pymarker_env env;
	int k, patch;

	if (!py && !marker)
		return 0;
	/* only the Python fields: a platform marker is undecided here, as
	 * poetry locks every platform */
	memset(&env, 0, sizeof(env));
	for (k = 0; k <= 30; k++)	/* 2.7, then 3.0 to 3.29 */
		for (patch = 0; patch <= 99; patch += 99) {
			if (k)
				snprintf(minor, sizeof(minor), "3.%d", k - 1);
			else
				snprintf(minor, sizeof(minor), "2.7");
			snprintf(full, sizeof(full), "%s.%d", minor, patch);
			env.python_version = minor;
			env.python_full_version = full;
			if ((u->root_py && poetry_check(u->root_py, full, why, sizeof(why)) == 0) ||
			    (u->root_pep440 && pep440_check(u->root_pep440, full, why, sizeof(why)) == 0))
				continue;
			if (py && poetry_check(py, full, why, sizeof(why)) == 0)
				continue;
			if (marker && pymarker_eval(marker, mlen, &env) == 0)
				continue;
			return 0;
		}
	return 1;
}

static void unlocked_add(struct unlocked *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void unlocked_add(struct unlocked *u, const char *fmt, ...)
{
	va_list ap;

	if (u->out->len)
		buf_puts(u->out, ", ");
	va_start(ap, fmt);
	buf_vprintf(u->out, fmt, ap);
	va_end(ap);
}

/* name (as written) is the project itself: never in its own lock (an
 * extra of its own, "app[docs]") */
static int is_self(const struct unlocked *u, const char *name, size_t n)
{
	char *norm;
	int r;

	if (!u->self)
		return 0;
	norm = pep503_normalize(name, n);
	r = !strcmp(norm, u->self);
	free(norm);
	return r;
}

/* One table of poetry declarations. */
static void decls_unlocked(struct unlocked *u, const struct toml_value *deps)
{
	const struct pygraph *g = u->g;
	size_t i, j;

	for (i = 0; deps && deps->type == TOML_TABLE && i < deps->n; i++) {
		const char *name = deps->kv[i].key, *want;
		const struct toml_value *e = deps->kv[i].val;
		int disjoint = e->type == TOML_ARRAY ? e->n > 0 : 1;
		char why[128];
		size_t at, k;
		int met = 0;

		for (j = 0; j < (e->type == TOML_ARRAY ? e->n : 1); j++) {
			const struct toml_value *one = e->type == TOML_ARRAY ? e->items[j] : e;
			const char *py = toml_str(toml_get(one, "python"));
			const char *mk = toml_str(toml_get(one, "markers"));

			disjoint &= one->type == TOML_TABLE &&
				    python_disjoint(u, py, mk, mk ? strlen(mk) : 0);
		}
		if (!strcmp(name, "python") || disjoint || is_self(u, name, strlen(name)))
			continue;
		if ((at = graph_find(g, name, NULL)) == NONE) {
			unlocked_add(u, "%s", name);
			continue;
		}
		/* a version constraint no locked version of it meets: poetry
		 * 1.x cannot solve it from the lock, 2.x refuses the lock */
		if (e->type == TOML_ARRAY || !(want = decl_version(e)))
			continue;	/* alternatives, a path, a URL */
		for (k = at; k != NONE && !met; k = g->v[k].next_same)
			met = !g->v[k].version ||
			      poetry_check(want, g->v[k].version, why, sizeof(why)) != 0;
		if (!met)
			unlocked_add(u, "%s %s (the lock has %s)", name, want, g->v[at].version);
	}
}

/* A list of PEP 508 requirements ([project] dependencies, an extra, a
 * [dependency-groups] group; a group's {include-group} tables aside). */
static void reqs_unlocked(struct unlocked *u, const struct toml_value *reqs)
{
	const struct pygraph *g = u->g;
	size_t i;

	for (i = 0; reqs && reqs->type == TOML_ARRAY && i < reqs->n; i++) {
		const char *r = toml_str(reqs->items[i]), *semi, *spec;
		char *name, *want;
		size_t n, at, k, sn;
		int met = 0;

		if (!r)
			continue;
		r += strspn(r, " \t");
		if (!(n = req_name_len(r)) || is_self(u, r, n))
			continue;
		/* the specifier: after the extras, to the marker; a URL
		 * ("name @ url") has none */
		spec = r + n + strspn(r + n, " \t");
		if (*spec == '[' && strchr(spec, ']'))
			spec = strchr(spec, ']') + 1;
		semi = strchr(r, ';');
		if (semi && semi < spec)
			continue;	/* a ';' in the extras: not PEP 508 */
		if (semi && python_disjoint(u, NULL, semi + 1, strlen(semi + 1)))
			continue;
		name = xstrndup(r, n);
		at = graph_find(g, name, NULL);
		if (at == NONE) {
			unlocked_add(u, "%s", name);
			free(name);
			continue;
		}
		sn = (size_t)((semi ? semi : spec + strlen(spec)) - spec);
		want = xstrndup(spec, sn);
		{
			char *w = want, *e = want + strlen(want);
			char why[128];

			while (*w == ' ' || *w == '\t' || *w == '(')
				w++;
			while (e > w && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == ')'))
				*--e = 0;
			if (*w && *w != '@') {
				for (k = at; k != NONE && !met; k = g->v[k].next_same)
					met = !g->v[k].version ||
					      pep440_check(w, g->v[k].version, why, sizeof(why)) != 0;
				if (!met)
					unlocked_add(u, "%s %s (the lock has %s)", name, w,
						     g->v[at].version);
			}
		}
		free(want);
		free(name);
	}
}

/* What pyproject.toml declares that poetry.lock has no package of, or
 * asks a version of that no locked one is: the lock is older than the
 * declaration.  poetry locks every group, extra and platform, so either
 * means a relock is due (poetry 1.x warns that the lock "is not
 * consistent" and fails to solve a registry package from it; 2.x refuses:
 * "pyproject.toml changed significantly since poetry.lock was last
 * generated").  [dependency-groups] (PEP 735) is read by poetry 2.2 on. */
static void poetry_unlocked(const struct pygraph *g, const struct toml_value *pyproject,
			    int v21, struct buf *out)
{
	const struct toml_value *poetry = toml_get(toml_get(pyproject, "tool"), "poetry");
	const struct toml_value *project = toml_get(pyproject, "project");
	const struct toml_value *groups = toml_get(poetry, "group");
	const struct toml_value *extras = toml_get(project, "optional-dependencies");
	const struct toml_value *dgroups = toml_get(pyproject, "dependency-groups");
	const char *self = toml_str(toml_get(project, "name"));
	struct unlocked u;
	size_t i;

	if (!self)
		self = toml_str(toml_get(poetry, "name"));
	u.g = g;
	u.root_py = toml_str(toml_get(toml_get(poetry, "dependencies"), "python"));
	u.root_pep440 = toml_str(toml_get(project, "requires-python"));
	u.self = self ? pep503_normalize(self, strlen(self)) : NULL;
	u.out = out;
	decls_unlocked(&u, toml_get(poetry, "dependencies"));
	decls_unlocked(&u, toml_get(poetry, "dev-dependencies"));
	for (i = 0; groups && groups->type == TOML_TABLE && i < groups->n; i++)
		decls_unlocked(&u, toml_get(groups->kv[i].val, "dependencies"));
	/* [project] and [dependency-groups] are poetry 2's: poetry 1.x (a
	 * lock before 2.1) neither locks nor installs them */
	if (v21) {
		reqs_unlocked(&u, toml_get(project, "dependencies"));
		for (i = 0; extras && extras->type == TOML_TABLE && i < extras->n; i++)
			reqs_unlocked(&u, extras->kv[i].val);
		for (i = 0; dgroups && dgroups->type == TOML_TABLE && i < dgroups->n; i++)
			reqs_unlocked(&u, dgroups->kv[i].val);
	}
	free(u.self);
}

int deps_poetry_lock21(const char *lock_version)
{
	const char *v = lock_version;

	return v && (v[0] > '2' || (v[0] == '2' && v[1] == '.' && v[2] >= '1'));
}

int deps_poetry_parse(const char *buf, size_t len, const struct pymarker_env *env,
		      const struct toml_value *pyproject, struct dep_set *s,
		      struct buf *unlocked, struct parse_error *err)
{
	const struct toml_value *poetry = toml_get(toml_get(pyproject, "tool"), "poetry");
	struct toml_value *root = NULL;
	struct pygraph g;
	unsigned char *incoming = NULL;
	size_t i, j;
	int rc = graph_open(buf, len, env, NULL, &g, &root, err), roots = 0;

	if (rc <= 0)
		return rc;
	if (unlocked) {
		/* lock-version "2.1" and later: poetry 2 wrote it */
		const char *lv = toml_str(toml_get(toml_get(root, "metadata"), "lock-version"));
		int v21 = deps_poetry_lock21(lv);

		poetry_unlocked(&g, pyproject, v21, unlocked);
	}
	for (i = 0; i < g.n; i++) {
		const struct toml_value *t = g.v[i].t;
		const struct toml_value *groups = toml_get(t, "groups");
		const struct toml_value *opt = toml_get(t, "optional");

		if (opt && opt->type == TOML_BOOL && opt->b)
			continue;	/* an extra's: only with that extra */
		if (groups && groups->type == TOML_ARRAY) {
			enum reach r = poetry_own(&g, t, poetry);

			if (r != R_NO)
				graph_push(&g, i, NULL, r);
		} else if (!roots) {
			roots = poetry_roots(&g, poetry) ? 1 : -1;
		}
	}
	/* no pyproject.toml to solve from: the packages no other one
	 * depends on are taken for the top-level dependencies */
	if (roots < 0) {
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
			const struct toml_value *opt = toml_get(g.v[i].t, "optional");

			if (!incoming[i] && !toml_get(g.v[i].t, "groups") &&
			    !(opt && opt->type == TOML_BOOL && opt->b))
				graph_push(&g, i, NULL, R_YES);
		}
	}
	/* lock 2.1 decided every package itself; older ones follow edges,
	 * and the extras asked for on the way */
	for (i = 0; i < g.nq; i++) {
		const struct toml_value *t = g.v[g.q[i].pkg].t;

		if (toml_get(t, "groups"))
			continue;
		if (g.q[i].extra)
			extra_edges(&g, g.q[i].pkg, g.q[i].extra, g.q[i].r);
		else
			decls_push(&g, toml_get(t, "dependencies"), g.q[i].r, 0);
	}
	free(incoming);
	graph_result(&g, s);
	graph_release(&g);
	toml_free(root);
	return 0;
}

/* ---- requirements.txt ----
 *
 * Read as pip reads it, step by step (pypa/pip
 * src/pip/_internal/req/req_file.py): preprocess() splits the text with
 * str.splitlines(), then join_lines(), ignore_comments() and
 * expand_env_variables(); _parse_file() cuts each line with
 * break_args_options() into the requirement and its options (--hash=);
 * req/constructors.py parse_req_from_line() takes the markers after the
 * first ';', and packaging's PEP 508 parser (src/packaging/_parser.py
 * _parse_requirement) the name, extras and specifier.
 */

#define NOPOS ((size_t)-1)

/* The line break str.splitlines() sees at s (n > 0 bytes): its length,
 * or 0.  \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e and, in UTF-8 (pip
 * decodes the file as UTF-8), U+0085, U+2028 and U+2029 (CPython
 * Objects/stringlib/split.h STRINGLIB(splitlines), Py_UNICODE_ISLINEBREAK). */
static size_t py_break(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] == '\r')
		return n > 1 && u[1] == '\n' ? 2 : 1;
	if (u[0] == '\n' || u[0] == '\v' || u[0] == '\f' || (u[0] >= 0x1c && u[0] <= 0x1e))
		return 1;
	if (n > 1 && u[0] == 0xc2 && u[1] == 0x85)
		return 2;
	if (n > 2 && u[0] == 0xe2 && u[1] == 0x80 && (u[2] == 0xa8 || u[2] == 0xa9))
		return 3;
	return 0;
}

/* The whitespace character at s (n > 0 bytes) as Python's str.isspace(),
 * re's \s and str.strip() see it: its length in UTF-8, or 0. */
static size_t py_space(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;

	if (u[0] == ' ' || (u[0] >= '\t' && u[0] <= '\r') || (u[0] >= 0x1c && u[0] <= 0x1f))
		return 1;
	if (n > 1 && u[0] == 0xc2 && (u[1] == 0x85 || u[1] == 0xa0))
		return 2;
	if (n < 3)
		return 0;
	if ((u[0] == 0xe1 && u[1] == 0x9a && u[2] == 0x80) ||	/* U+1680 */
	    (u[0] == 0xe2 && u[1] == 0x80 &&			/* U+2000-200A, 2028, 2029, 202F */
	     (u[2] <= 0x8a || u[2] == 0xa8 || u[2] == 0xa9 || u[2] == 0xaf)) ||
	    (u[0] == 0xe2 && u[1] == 0x81 && u[2] == 0x9f) ||	/* U+205F */
	    (u[0] == 0xe3 && u[1] == 0x80 && u[2] == 0x80))	/* U+3000 */
		return 3;
	return 0;
}

/* str.strip(): Python's whitespace off both ends. */
static void py_strip(const char **s, size_t *n)
{
	size_t k;

	while (*n && (k = py_space(*s, *n))) {
		*s += k;
		*n -= k;
	}
	for (;;) {
		if (*n >= 1 && py_space(*s + *n - 1, 1) == 1)
			*n -= 1;
		else if (*n >= 2 && py_space(*s + *n - 2, 2) == 2)
			*n -= 2;
		else if (*n >= 3 && py_space(*s + *n - 3, 3) == 3)
			*n -= 3;
		else
			break;
	}
}

/* COMMENT_RE.match(line), COMMENT_RE = r"(^|\s+)#.*$": the line is a
 * comment from its start (join_lines never continues one). */
static int comment_line(const char *s, size_t n)
{
	size_t k;

	while (n && (k = py_space(s, n))) {
		s += k;
		n -= k;
	}
	return n && *s == '#';
}

/* COMMENT_RE.sub("", line): where the comment begins (the whitespace
 * before the first '#' that starts the line or follows whitespace), or n. */
static size_t comment_cut(const char *s, size_t n)
{
	size_t i = 0, ws = NOPOS, k;

	while (i < n) {
		if ((k = py_space(s + i, n - i))) {
			if (ws == NOPOS)
				ws = i;
			i += k;
			continue;
		}
		if (s[i] == '#' && (i == 0 || ws != NOPOS))
			return ws != NOPOS ? ws : i;
		ws = NOPOS;
		i++;
	}
	return n;
}

/* ENV_VAR_RE = r"(?P<var>\$\{(?P<name>[A-Z0-9_]+)\})" at s: the length
 * of the reference, or 0. */
static size_t env_ref(const char *s, size_t n)
{
	size_t i = 2;

	if (n < 4 || s[0] != '$' || s[1] != '{')
		return 0;
	while (i < n && ((s[i] >= 'A' && s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
			 s[i] == '_'))
		i++;
	return i > 2 && i < n && s[i] == '}' ? i + 1 : 0;
}

/* os.getenv(name): the first NAME=value of envp (CPython's os.environ
 * keeps the first of a name), or NULL. */
static const char *env_get(const char *const *envp, const char *name, size_t n)
{
	for (; envp && *envp; envp++)
		if (!strncmp(*envp, name, n) && (*envp)[n] == '=')
			return *envp + n + 1;
	return NULL;
}

/* Every occurrence of ref (n bytes) in b by value (str.replace). */
static void replace_all(struct buf *b, const char *ref, size_t n, const char *value)
{
	struct buf out = BUF_INIT;
	const char *s = buf_str(b), *end = s + b->len, *hit;

	while ((hit = memmem(s, (size_t)(end - s), ref, n))) {
		buf_add(&out, s, (size_t)(hit - s));
		buf_puts(&out, value);
		s = hit + n;
	}
	buf_add(&out, s, (size_t)(end - s));
	buf_release(b);
	*b = out;
}

/* expand_env_variables(): each ${NAME} found in the line, in order, is
 * replaced everywhere by os.getenv(NAME) when that is set and not empty
 * ("if not value: continue": it stays as written).  The first one left
 * unset goes to p->unset (its name only: a value is never kept). */
static void expand_env(struct pip_parse *p, const char *s, size_t n, unsigned line,
		       struct buf *out)
{
	size_t i, k;

	buf_add(out, s, n);
	for (i = 0; i < n; i += k ? k : 1) {
		const char *value;

		k = env_ref(s + i, n - i);
		if (!k)
			continue;
		value = env_get(p->environ, s + i + 2, k - 3);
		if (value && *value) {
			replace_all(out, s + i, k, value);
		} else if (!p->unset[0] && k - 3 < sizeof(p->unset)) {
			memcpy(p->unset, s + i + 2, k - 3);
			p->unset[k - 3] = 0;
			p->unset_line = line;
		}
	}
}

/* parse_req_from_line(): a URL (is_url: a scheme and ':'), a path
 * (_looks_like_path: a '/' or a leading '.') or an archive file
 * (is_archive_file) names no version to compare. */
static int not_a_name(const char *s, size_t n)
{
	static const char *const archives[] = {
		".whl", ".zip", ".tar.gz", ".tgz", ".tar", ".tar.bz2", ".tbz",
		".tar.xz", ".txz", ".tlz", ".tar.lz", ".tar.lzma",
	};
	size_t i;

	if (memchr(s, '/', n) || memchr(s, ':', n) || memchr(s, '@', n) || (n && s[0] == '.'))
		return 1;
	for (i = 0; i < ARRAY_SIZE(archives); i++) {
		size_t a = strlen(archives[i]);

		if (n > a && !strncasecmp(s + n - a, archives[i], a))
			return 1;
	}
	return 0;
}

static int ident_char(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	       c == '.' || c == '_' || c == '-';
}

static int is_ws(char c)
{
	return c == ' ' || c == '\t';
}

/* One requirement without its markers, by packaging's grammar
 * (_parser.py _parse_requirement): WS? IDENTIFIER WS? extras? WS?
 * specifier, the specifier "(" version_many ")" or bare (PEP 508 allows
 * both: "name (==1.0)").  *r points into s: the name, the specifier (the
 * clauses, "" for none) and, when it is a pin (one clause, == without
 * ".*", or ===), its operator and version.  Returns 0, or -1 for text
 * that is no such requirement. */
struct req {
	const char *name, *spec, *op, *ver;
	size_t nlen, slen, oplen, vlen;
	int pin;
};

static int parse_req(const char *s, size_t n, struct req *r)
{
	const char *p = s, *end = s + n, *q;

	memset(r, 0, sizeof(*r));
	while (p < end && is_ws(*p))
		p++;
	r->name = p;
	while (p < end && ident_char(*p))
		p++;
	/* IDENTIFIER = \b[a-zA-Z0-9][a-zA-Z0-9._-]*\b: ends on a word character */
	if (p == r->name || *r->name == '.' || *r->name == '-' || *r->name == '_' ||
	    p[-1] == '.' || p[-1] == '-')
		return -1;
	r->nlen = (size_t)(p - r->name);
	while (p < end && is_ws(*p))
		p++;
	if (p < end && *p == '[') {
		const char *close = memchr(p, ']', (size_t)(end - p));

		if (!close)
			return -1;
		p = close + 1;
	}
	while (p < end && is_ws(*p))
		p++;
	while (end > p && is_ws(end[-1]))
		end--;
	if (p < end && *p == '(') {
		if (end[-1] != ')')
			return -1;
		p++;
		end--;
		while (p < end && is_ws(*p))
			p++;
		while (end > p && is_ws(end[-1]))
			end--;
	}
	/* every clause begins with an operator */
	if (p < end && (!*p || !strchr("=!<>~", *p)))
		return -1;
	r->spec = p;
	r->slen = (size_t)(end - p);
	/* cppcheck-suppress knownConditionTrueFalse ; "==1" is 3 bytes from p */
	if (r->slen < 3 || p[0] != '=' || p[1] != '=' || memchr(p, ',', r->slen))
		return 0;
	r->op = p;
	for (q = p; q < end && *q == '=' && q - p < 3; q++)
		;
	r->oplen = (size_t)(q - p);
	/* the SPECIFIER regex allows \s* between the operator and the version */
	while (q < end && is_ws(*q))
		q++;
	r->ver = q;
	r->vlen = (size_t)(end - q);
	if (!r->vlen || memchr(q, ' ', r->vlen) || memchr(q, '\t', r->vlen))
		return 0;
	r->pin = r->oplen == 3 ||
		 !(r->vlen >= 2 && q[r->vlen - 2] == '.' && q[r->vlen - 1] == '*');
	return 0;
}

/* One requirement line (args, before the options) into the set; raw: the
 * same line before ${VAR} expansion.  parse_req_from_line(): markers after
 * the first ';' ("; " for a URL, which names no version anyway).  A pin
 * is kept with its version, any other specifier with the specifier
 * itself as the version (">=2,<3"; none: NULL, any version will do):
 * pip installs what is missing and what the installed version does not
 * satisfy, whatever the specifier. */
static void pip_requirement(struct pip_parse *p, const char *s, size_t n, const char *raw,
			    size_t rawn, unsigned line, struct dep_set *set)
{
	const char *semi = memchr(s, ';', n), *rsemi = memchr(raw, ';', rawn);
	size_t head = semi ? (size_t)(semi - s) : n;
	size_t rhead = rsemi ? (size_t)(rsemi - raw) : rawn;
	struct req r, rr;
	char *name, *version = NULL;
	struct pymarker_env env;
	struct dep *d;
	int m = 1;

	if (not_a_name(s, head) || parse_req(s, head, &r) < 0 || parse_req(raw, rhead, &rr) < 0 ||
	    r.nlen != rr.nlen || memcmp(r.name, rr.name, r.nlen) || r.pin != rr.pin ||
	    r.oplen != rr.oplen) {
		/* a URL, a path, no requirement pip could read, or a variable
		 * in the name or the operator: not compared, so that no value
		 * of the environment is ever shown */
		p->unpinned++;
		return;
	}
	if (semi) {
		const char *ms = semi + 1;
		size_t mn = n - head - 1;

		py_strip(&ms, &mn);
		/* pip req/req_install.py match_markers(): no extra asked, the
		 * markers are evaluated with extra "" */
		env = *p->env;
		env.extra = "";
		if (mn)
			m = pymarker_eval(ms, mn, &env);
	}
	if (m == 0)
		return;
	name = pep503_normalize(r.name, r.nlen);
	if (r.pin)
		version = xstrndup(r.ver, r.vlen);
	else if (r.slen)
		version = xstrndup(r.spec, r.slen);
	if (!dep_set_get(set, name)) {
		d = dep_set_add(set, name, name, version, m < 0 ? DEP_UNDECIDED : 0);
		d->line = line;
		/* the specifier as written, before expansion: what is shown */
		d->extra = xstrndup(rr.spec ? rr.spec : "", rr.slen);
	}
	free(name);
	free(version);
}

/* A logical line of join_lines() (line: its first line's number):
 * ignore_comments(), expand_env_variables(), break_args_options(). */
static void pip_logical(struct pip_parse *p, const char *s, size_t n, unsigned line,
			struct dep_set *set)
{
	struct buf x = BUF_INIT;
	const char *e, *opt;
	size_t en, i, args, rargs;

	n = comment_cut(s, n);
	py_strip(&s, &n);
	if (!n)
		return;
	expand_env(p, s, n, line, &x);
	e = buf_str(&x);
	en = x.len;
	/* break_args_options(): tokens split on " "; the options begin at
	 * the first token that starts with "-" */
	for (i = 0; i < en && !(e[i] == '-' && (i == 0 || e[i - 1] == ' ')); i++)
		;
	args = i == en ? en : i ? i - 1 : 0;
	opt = e + i;
	for (i = 0; i < n && !(s[i] == '-' && (i == 0 || s[i - 1] == ' ')); i++)
		;
	rargs = i == n ? n : i ? i - 1 : 0;
	if (args && rargs) {
		pip_requirement(p, e, args, s, rargs, line, set);
	} else if (!args && (!strncmp(opt, "-r", 2) || !strncmp(opt, "-c", 2) ||
			     !strncmp(opt, "--requirement", 13) ||
			     !strncmp(opt, "--constraint", 12))) {
		p->includes++;	/* _parse_and_recurse(): not followed here */
	} else if (args) {
		p->unpinned++;
	}
	/* an option line (-e, --index-url, a lone --hash): no pin */
	buf_release(&x);
}

int deps_pip_parse(const char *buf, size_t len, struct pip_parse *p, struct dep_set *s,
		   struct parse_error *err)
{
	struct buf joined = BUF_INIT;
	size_t pos = 0;
	unsigned no = 0, first = 0;
	int joining = 0;

	memset(err, 0, sizeof(*err));
	p->unpinned = p->includes = 0;
	p->unset[0] = 0;
	p->unset_line = 0;
	/* str.splitlines(): a break at the very end starts no empty line */
	while (pos < len) {
		const char *ln = buf + pos;
		size_t n = 0, k = 0;

		while (pos + n < len && !(k = py_break(ln + n, len - pos - n)))
			n++;
		pos += n + k;
		no++;
		/* join_lines(): a line ending in '\' goes on with the next one,
		 * unless it is a comment; a comment ends a continued line (with
		 * a ' ' before it, so that it is cut later); the pieces lose
		 * every leading and trailing '\' (line.strip("\\")) */
		if (!n || ln[n - 1] != '\\' || comment_line(ln, n)) {
			if (joining) {
				if (comment_line(ln, n))
					buf_putc(&joined, ' ');
				buf_add(&joined, ln, n);
				pip_logical(p, buf_str(&joined), joined.len, first, s);
				buf_release(&joined);
				joining = 0;
			} else {
				pip_logical(p, ln, n, no, s);
			}
			continue;
		}
		if (!joining)
			first = no;
		joining = 1;
		while (n && ln[n - 1] == '\\')
			n--;
		while (n && ln[0] == '\\') {
			ln++;
			n--;
		}
		buf_add(&joined, ln, n);
	}
	if (joining)	/* the last line ends in '\' */
		pip_logical(p, buf_str(&joined), joined.len, first, s);
	buf_release(&joined);
	return 0;
}
