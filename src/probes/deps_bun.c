/* deps_bun.c - the deps probe's bun: bun.lock against node_modules, as
 * `bun install --frozen-lockfile` judges it.
 *
 * bun keeps no record of what it installed (no hidden lockfile, no state
 * file): on every install it walks the lockfile's packages and asks each
 * folder whether it holds the package (PackageInstall.zig verify), so this
 * probe asks the same of the same files.  Which folders depends on the
 * linker bun picks (install_with_manager.zig):
 *   hoisted   node_modules/a, node_modules/a/node_modules/b, a workspace's
 *             packages/w/node_modules/c: bun.lock's keys (deps_bun.c)
 *   isolated  node_modules/.bun/NAME@VERSION/node_modules/NAME, the store,
 *             and a link per direct dependency in each workspace's
 *             node_modules
 * and before any of that, whether package.json still says what bun.lock
 * was written from (else the frozen install refuses).  What every manager
 * shares is probe_deps.c's (deps_probe.h).
 */
#include "deps_probe.h"
#include "probe.h"
#include "deps.h"
#include "platform.h"
#include "semver.h"
#include "toml.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BUN_WALK_DEPTH 32	/* nested node_modules looked into for extras */

static int is_dir(const char *root, const char *rel);

/* ---- which linker ---- */

/* What bunfig.toml's [install] says that changes what bun installs. */
struct bunfig {
	char *linker;		/* "isolated", "hoisted", or NULL */
	int production;		/* production = true: no devDependencies */
};

static void bunfig_read(const struct spec *spec, struct bunfig *cfg)
{
	struct blob b;
	struct lread lr;
	struct toml_value *root = NULL;
	struct parse_error e;
	const struct toml_value *install, *prod;
	const char *v;

	memset(cfg, 0, sizeof(*cfg));
	if (deps_read(spec->root, "bunfig.toml", 1, DEPS_META_CAP, &b, &lr) < 0)
		return;
	if (toml_parse(b.data, b.len, NULL, &root, &e) == 0) {
		install = toml_get(root, "install");
		if ((v = toml_str(toml_get(install, "linker"))))
			cfg->linker = xstrdup(v);
		prod = toml_get(install, "production");
		cfg->production = prod && prod->type == TOML_BOOL && prod->b;
	}
	toml_free(root);
	blob_release(&b);
}

/* Does node_modules hold a package folder (a name not starting with '.':
 * .bin, .cache and the like are no install's)? */
static int has_packages(const char *root)
{
	char *nm = path_join(root, "node_modules");
	DIR *d = opendir(nm);
	struct dirent *e;
	int any = 0;

	free(nm);
	if (!d)
		return 0;
	while (!any && (e = readdir(d)))
		any = e->d_name[0] != '.';
	closedir(d);
	return any;
}

/* The bun version package.json's packageManager pins ("bun@1.3.1"):
 * 1 with *minor and *patch of a 1.x, else 0. */
static int pinned_bun(const struct spec *spec, unsigned *minor, unsigned *patch)
{
	size_t i;
	struct semver sv;
	int ok;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *q = &spec->runtimes[i];

		const char *v;

		if (q->src != SRC_PACKAGE_MANAGER || q->problem || !q->name || !q->spec ||
		    strcmp(q->name, "bun"))
			continue;
		v = strchr(q->spec, '@') ? strchr(q->spec, '@') + 1 : q->spec;	/* "bun@1.3.1" */
		if (semver_parse(v, 0, &sv) < 0)
			continue;
		ok = sv.major == 1 && sv.minor <= UINT_MAX && sv.patch <= UINT_MAX;
		*minor = (unsigned)sv.minor;
		*patch = (unsigned)sv.patch;
		semver_release(&sv);
		return ok;
	}
	return 0;
}

/* install_with_manager.zig: the linker asked for (bunfig.toml's
 * install.linker, package.json's workspaces.nodeLinker), else by the
 * lockfile's configVersion: 0 (or none: a lockfile of bun before 1.3)
 * hoisted; 1 isolated when there are workspaces, else hoisted.  That is
 * bun 1.3.2's rule (oven-sh/bun#24170 added configVersion, #24503's
 * docs: "Existing projects continue using hoisted installs"); bun 1.3.0
 * and 1.3.1 used the isolated linker for every workspaces project, and
 * bun before 1.3 the hoisted one.  Which bun runs is not the
 * repository's to say, so what is installed decides first: a
 * node_modules/.bun is the isolated linker's store (bun 1.3.1 installed
 * t3-env that way), package folders without one the hoisted linker's;
 * else (nothing installed) package.json's packageManager names the bun;
 * else configVersion.  The --linker flag is the command line's: not
 * seen. */
static int isolated_linker(const struct spec *spec, const struct bunfig *bf,
			   const struct bun_lock *lock, const char *pkg_linker, const char **from)
{
	const char *cfg = bf->linker;
	unsigned minor, patch;
	int iso;

	if (cfg && (!strcmp(cfg, "isolated") || !strcmp(cfg, "hoisted"))) {
		iso = !strcmp(cfg, "isolated");
		*from = "bunfig.toml";
	} else if (pkg_linker && (!strcmp(pkg_linker, "isolated") ||
				  !strcmp(pkg_linker, "hoisted"))) {
		iso = !strcmp(pkg_linker, "isolated");
		*from = "package.json";
	} else if (is_dir(spec->root, "node_modules/.bun")) {
		iso = 1;
		*from = "node_modules/.bun";
	} else if (has_packages(spec->root)) {
		/* a node_modules of packages and no store: the hoisted linker
		 * made it (t3-env, packageManager bun@1.3.1, installed by bun
		 * 1.4.5: "(no changes)" from bun 1.4.5) */
		iso = 0;
		*from = "node_modules";
	} else if (pinned_bun(spec, &minor, &patch) &&
		   (minor < 3 || (minor == 3 && patch < 2))) {
		iso = minor == 3 && lock->nws > 1;
		*from = "package.json's packageManager";
	} else {
		iso = lock->config_version >= 1 && lock->nws > 1;
		*from = "bun.lock";
	}
	return iso;
}

/* ---- package.json against bun.lock ---- */

/* Every workspace's package.json against bun.lock: 1 stale (the result
 * is set), 0 in sync (*pkg_linker: the root's workspaces.nodeLinker), -1
 * with the result set. */
static int manifests(const struct spec *spec, const struct lock_req *l,
		     struct bun_lock *lock, char **pkg_linker, struct result *r)
{
	struct buf why = BUF_INIT;
	size_t i;
	int stale = 0;

	for (i = 0; i < lock->nws && !stale; i++) {
		struct bun_workspace m;
		struct parse_error e;
		struct blob b;
		struct lread lr;
		char *file = *lock->ws[i].path ? path_join(lock->ws[i].path, "package.json") :
						 xstrdup("package.json");
		int rc;

		if (deps_read(spec->root, file, 1, DEPS_META_CAP, &b, &lr) < 0) {
			/* a workspace gone: bun stops ("Workspace dependency ...
			 * not found") until it is relocked */
			buf_printf(&why, "%s cannot be read (%s), bun.lock has workspace %s",
				   file, strerror(lr.err), lock->ws[i].path);	/* cleaned below */
			stale = 1;
			free(file);
			break;
		}
		rc = deps_bun_manifest(b.data, b.len, &m, i ? NULL : pkg_linker, &e);
		blob_release(&b);
		if (rc < 0) {
			char *clean = text_clean(file);

			result_set(r, STATUS_FAIL, "%s:%u:%u: %s: bun cannot read it either", clean,
				   e.line, e.col, e.msg);
			free(clean);
			r->reason = REASON_UNREADABLE;
			if (!i)	/* a static name: fix.edit keeps the pointer */
				result_fix_edit(r, "package.json", e.line);
			free(file);
			return -1;
		}
		stale = deps_bun_manifest_stale(lock, i, &m, &why);
		if (!stale)
			deps_bun_regroup(&lock->ws[i], &m);
		bun_workspace_release(&m);
		free(file);
	}
	if (!stale) {
		/* which packages are dev-only, by package.json's groups */
		deps_bun_dev_only(lock);
		buf_release(&why);
		return 0;
	}
	{
		char *clean = text_clean(buf_str(&why));	/* names from the repository */

		result_set(r, STATUS_FAIL, "package.json changed after %s was written: %s",
			   l->origin.file, clean);
		free(clean);
	}
	r->reason = REASON_OUT_OF_DATE;
	/* no fix loop: the frozen install refuses here, so the fix is the
	 * command that relocks, said as such */
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "bun", "install", (char *)NULL);
	deps_relock_writes(r, l);
	result_hint(r, "bun install --frozen-lockfile refuses (\"lockfile had changes, but "
		    "lockfile is frozen\"): run bun install to update %s, then commit it",
		    l->origin.file);
	buf_release(&why);
	return 1;
}

/* ---- the installed side ---- */

struct bun_seen {
	char *name, *version, *tag;	/* what the folder says, or NULL */
	int read;			/* the file asked for was read */
};

struct bun_check {
	const struct bun_lock *lock;
	struct bun_seen *seen;
};

/* The file bun reads of package i: a tarball's or git package's .bun-tag
 * (its integrity or commit, PackageInstall.zig verifyGitResolution; a
 * tarball's, as bun 1.4.5 does: deps_bun.sh), an npm or workspace
 * package's package.json (verifyPackageJSONNameAndVersion); a folder or
 * link only exists (verifyTransitiveSymlinkedFolder): no file. */
static const char *pkg_file(const struct many_read *m, size_t i, char *buf, size_t size)
{
	const struct bun_check *c = m->arg;
	const struct bun_pkg *p = &c->lock->pkgs[i];
	const char *f;

	switch (p->kind) {
	case BUN_NPM:
	case BUN_WORKSPACE:
		f = "package.json";
		break;
	case BUN_TARBALL:
		f = p->tag ? ".bun-tag" : "package.json";
		break;
	case BUN_GIT:
		f = ".bun-tag";
		break;
	default:
		return NULL;
	}
	if ((size_t)snprintf(buf, size, "%s/%s", p->path, f) >= size)
		return NULL;
	return buf;
}

static void pkg_take(const struct many_read *m, size_t i, const struct blob *b)
{
	const struct bun_check *c = m->arg;
	const struct bun_pkg *p = &c->lock->pkgs[i];
	struct bun_seen *s = &c->seen[i];

	s->read = 1;
	if (p->kind == BUN_GIT || (p->kind == BUN_TARBALL && p->tag))
		s->tag = xstrndup(b->data, b->len);
	else if (deps_bun_package_json(b->data, b->len, &s->name, &s->version) < 0)
		s->read = 0;	/* bun cannot parse it: it reinstalls */
}

static int is_dir(const char *root, const char *rel)
{
	struct stat st;
	char *p = path_join(root, rel);
	int ok = stat(p, &st) == 0 && S_ISDIR(st.st_mode);

	free(p);
	return ok;
}

/* Package i against what its folder says: 0 as bun wants it, else the
 * problem (DEP_MISSING: bun installs it; DEP_VERSION: bun replaces it). */
static int judge(const struct bun_pkg *p, const struct bun_seen *s, const char *root,
		 int *problem)
{
	switch (p->kind) {
	case BUN_FOLDER:
	case BUN_LINK:
		*problem = DEP_MISSING;
		return !is_dir(root, p->path);
	case BUN_GIT:
		*problem = s->read ? DEP_VERSION : DEP_MISSING;
		return !s->read || !p->tag || strcmp(s->tag, p->tag);
	case BUN_TARBALL:
		if (p->tag) {
			*problem = s->read ? DEP_VERSION : DEP_MISSING;
			return !s->read || strcmp(s->tag, p->tag);
		}
		*problem = DEP_MISSING;
		return !s->read || !s->name || strcmp(s->name, p->name);
	case BUN_WORKSPACE:
		/* a workspace needs no version (verifyPackageJSONNameAndVersion) */
		*problem = DEP_MISSING;
		return !s->read || !s->name || strcmp(s->name, p->name);
	case BUN_NPM:
		*problem = s->read ? DEP_VERSION : DEP_MISSING;
		return !s->read || !s->name || !s->version || strcmp(s->name, p->name) ||
		       !deps_bun_version_matches(s->version, p->resolution);
	case BUN_ROOT:
		break;
	}
	return 0;
}

/* A diff item by hand: deps_compare knows one rule, bun has one a kind. */
static void diff_push(struct dep_diff *d, enum dep_problem p, const struct dep *want,
		      const struct dep *have)
{
	grow(&d->v, sizeof(*d->v), &d->cap, d->n + 1);
	d->v[d->n].problem = p;
	d->v[d->n].want = want;
	d->v[d->n].have = have;
	d->n++;
	if (p == DEP_EXTRA)
		d->extra++;
}

/* The lockfile's side for the report: an npm package's version, else
 * where it comes from ("../a.tgz", "github:u/r#abc"); the installed side
 * of a tarball or git package is its .bun-tag. */
static const char *want_text(const struct bun_pkg *p)
{
	return p->resolution;
}

/* ---- extras (hoisted) ---- */

struct extra_walk {
	const char *root;
	struct strmap wanted;	/* folder paths of the lockfile's packages */
	const struct dep_set *want;	/* what wanted's values index */
	struct dep_set *have;	/* extras go here */
	double deadline;
	int stopped;
};

static void walk_extras(struct extra_walk *w, const char *rel, unsigned depth);

static void extra_pkg(struct extra_walk *w, const char *rel, const char *name, unsigned depth)
{
	struct stat st;
	size_t at = strmap_get(&w->wanted, rel, strlen(rel));
	int link = 0;

	/* a package bun.lock names is a folder of its own unless it is a
	 * workspace, folder or link: only the others cost an lstat */
	if (at == STRMAP_NONE || (w->want->v[at].flags & DEP_LINK)) {
		char *abs = path_join(w->root, rel);

		link = lstat(abs, &st) == 0 && S_ISLNK(st.st_mode);
		free(abs);
	}
	if (at == STRMAP_NONE) {
		struct blob b;
		struct lread lr;
		char *pj = path_join(rel, "package.json"), *n = NULL, *v = NULL;

		if (!link && deps_read(w->root, pj, 0, DEPS_META_CAP, &b, &lr) == 0) {
			deps_bun_package_json(b.data, b.len, &n, &v);
			blob_release(&b);
		}
		dep_set_add(w->have, rel, n ? n : name, v, link ? DEP_LINK : 0);
		free(pj);
		free(n);
		free(v);
	}
	if (!link && depth < BUN_WALK_DEPTH) {
		char *sub = path_join(rel, "node_modules");

		walk_extras(w, sub, depth + 1);
		free(sub);
	}
}

/* Folders of a node_modules that bun.lock does not name (npm's
 * "extraneous"): bun leaves them (an install neither removes nor
 * replaces them), so they are a warning. */
static void walk_extras(struct extra_walk *w, const char *rel, unsigned depth)
{
	char *abs = path_join(w->root, rel);
	DIR *d = opendir(abs);
	char **names;
	size_t n = 0, i;

	free(abs);
	if (!d)
		return;
	names = deps_list_entries(d, &n);
	closedir(d);
	for (i = 0; i < n; i++) {
		char *child = path_join(rel, names[i]);

		if (clock_ms() > w->deadline)
			w->stopped = 1;
		if (!w->stopped) {
			if (names[i][0] == '@' && depth < BUN_WALK_DEPTH) {
				char *sd = path_join(w->root, child);
				DIR *s = opendir(sd);
				char **sn;
				size_t k, sc = 0;

				free(sd);
				sn = s ? deps_list_entries(s, &sc) : NULL;
				if (s)
					closedir(s);
				for (k = 0; k < sc; k++) {
					char *scoped = path_join(child, sn[k]), *full = NULL;
					struct buf nm = BUF_INIT;

					buf_printf(&nm, "%s/%s", names[i], sn[k]);
					full = buf_detach(&nm);
					extra_pkg(w, scoped, full, depth);
					free(full);
					free(scoped);
					free(sn[k]);
				}
				free(sn);
			} else {
				extra_pkg(w, child, names[i], depth);
			}
		}
		free(child);
		free(names[i]);
	}
	free(names);
}

/* ---- the two linkers ---- */

/* A package bun does not install here: another platform's, one only
 * another platform's packages reach (deps_bun_dev_only: Tree.zig skips
 * a disabled package's subtree), or one only devDependencies reach under
 * bunfig.toml's production = true. */
static int not_installed_here(const struct bun_pkg *p, int production)
{
	return p->other_platform || p->platform_only || (production && p->dev_only);
}

/* Where node's resolution finds name from folder from (relative to
 * root; "" the root): from/node_modules/name, then each parent's that is
 * not itself a node_modules.  The first folder there is the answer (a new
 * string), NULL when there is none. */
static char *node_resolve(const char *root, const char *from, const char *name)
{
	char *dir = xstrdup(from);

	for (;;) {
		char *slash = strrchr(dir, '/');
		const char *base = slash ? slash + 1 : dir;

		if (strcmp(base, "node_modules")) {
			char *nm = *dir ? path_join(dir, "node_modules") : xstrdup("node_modules");
			char *cand = path_join(nm, name);

			free(nm);
			if (is_dir(root, cand)) {
				free(dir);
				return cand;
			}
			free(cand);
		}
		if (!*dir)
			break;
		if (slash)
			*slash = 0;
		else
			*dir = 0;
	}
	free(dir);
	return NULL;
}

/* Does folder rel hold npm package p at its version? */
static int holds(const char *root, const char *rel, const struct bun_pkg *p)
{
	struct blob b;
	struct lread lr;
	char *pj = path_join(rel, "package.json"), *n = NULL, *v = NULL;
	int ok = 0;

	if (deps_read(root, pj, 0, DEPS_META_CAP, &b, &lr) == 0) {
		if (deps_bun_package_json(b.data, b.len, &n, &v) == 0)
			ok = n && v && !strcmp(n, p->name) &&
			     deps_bun_version_matches(v, p->resolution);
		blob_release(&b);
	}
	free(pj);
	free(n);
	free(v);
	return ok;
}

/* bun's hoisted layout is not always bun.lock's keys: the lockfile is
 * written from Tree.zig's tree built without filtering (method
 * .resolvable), the install from one built with it (.filter,
 * isFilteredDependencyOrWorkspace), and hoistDependency's placement
 * depends on what came first (t3-env with bun 1.4.5: zod-to-json-schema
 * and zod-to-ts, keyed at the top, installed in
 * node_modules/astro/node_modules).  Where the filtered tree cannot be
 * derived from bun.lock alone, an npm package missing at its key's
 * folder counts as installed when node's resolution finds it, at its
 * version, from every package and workspace that needs it (from where
 * each of those is found in turn).  The folder each is found at, or
 * NULL; a new array. */
static char **found_elsewhere(const char *root, const struct bun_lock *lock, const int *bad,
			      const int *prob)
{
	char **at = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*at));
	const char **loc = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*loc));
	size_t i, j;
	int changed = 1, pass;

	for (i = 0; i < lock->npkgs; i++)
		if (!bad[i])
			loc[i] = lock->pkgs[i].path;
	/* a package found elsewhere may be what another one's users are:
	 * a few passes (each settles at least one more level) */
	for (pass = 0; changed && pass < 8; pass++) {
		changed = 0;
		for (i = 0; i < lock->npkgs; i++) {
			const struct bun_pkg *p = &lock->pkgs[i];
			char *first = NULL;
			int ok = p->nusers > 0;

			if (!bad[i] || at[i] || prob[i] != DEP_MISSING || p->kind != BUN_NPM)
				continue;
			for (j = 0; j < p->nusers && ok; j++) {
				size_t u = p->users[j];
				const char *from = u >= lock->npkgs ? lock->ws[u - lock->npkgs].path :
								     loc[u];
				char *got;

				if (!from) {
					ok = 0;
					break;
				}
				got = node_resolve(root, from, p->name);
				ok = got && holds(root, got, p);
				if (ok && !first)
					first = got;
				else
					free(got);
			}
			if (ok && first) {
				at[i] = first;
				loc[i] = first;
				changed = 1;
			} else {
				free(first);
			}
		}
	}
	free(loc);
	return at;
}

static void hoisted(const struct run_ctx *ctx, const struct lock_req *l,
		    const struct bun_lock *lock, int production, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT;
	struct bun_check c = { lock, NULL };
	struct many_read m;
	struct extra_walk w;
	struct dep_diff d;
	size_t i, *slot = NULL, nitems = 0, items_cap = 0;
	int *bad = NULL, *prob = NULL;
	char **elsewhere = NULL;
	struct {
		int problem;
		size_t want, have;	/* places: want and have grow */
	} *items = NULL;

	c.seen = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*c.seen));
	memset(&m, 0, sizeof(m));
	m.n = lock->npkgs;
	m.name = pkg_file;
	m.take = pkg_take;
	m.arg = &c;
	m.deadline = ctx->deadline_ms;
	memset(&d, 0, sizeof(d));
	if (deps_many_read_run(&m, spec->root) < 0)
		goto late;
	slot = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*slot));
	for (i = 0; i < lock->npkgs; i++) {
		const struct bun_pkg *p = &lock->pkgs[i];

		slot[i] = SIZE_MAX;
		if (p->kind == BUN_ROOT)
			continue;
		slot[i] = want.n;
		dep_set_add(&want, p->path, p->name, want_text(p),
			    (not_installed_here(p, production) ? DEP_OPTIONAL : 0) |
			    (p->kind == BUN_WORKSPACE || p->kind == BUN_FOLDER ||
			     p->kind == BUN_LINK ? DEP_LINK : 0))->line = p->line;
	}
	bad = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*bad));
	prob = xcalloc(lock->npkgs ? lock->npkgs : 1, sizeof(*prob));
	for (i = 0; i < lock->npkgs; i++)
		if (slot[i] != SIZE_MAX)
			bad[i] = judge(&lock->pkgs[i], &c.seen[i], spec->root, &prob[i]);
	elsewhere = found_elsewhere(spec->root, lock, bad, prob);
	for (i = 0; i < lock->npkgs; i++) {
		const struct bun_pkg *p = &lock->pkgs[i];
		const struct bun_seen *s = &c.seen[i];

		if (slot[i] == SIZE_MAX)
			continue;
		if (bad[i] && not_installed_here(p, production)) {
			/* another platform's package, or a dev one in a
			 * production install: bun does not install it */
			d.skipped++;
			continue;
		}
		d.compared++;
		if (!bad[i] || elsewhere[i])
			continue;
		grow(&items, sizeof(*items), &items_cap, nitems + 1);
		items[nitems].problem = prob[i];
		items[nitems].want = slot[i];
		items[nitems].have = SIZE_MAX;
		if (prob[i] != DEP_MISSING) {
			const char *got = s->tag ? s->tag : s->version ? s->version : "?";

			dep_set_add(&have, p->path, s->name ? s->name : p->name, got, 0);
			items[nitems].have = (size_t)(dep_set_get(&have, p->path) - have.v);
		}
		nitems++;
	}
	/* extras: every node_modules bun.lock's packages live in */
	memset(&w, 0, sizeof(w));
	w.root = spec->root;
	w.have = &have;
	w.want = &want;
	w.deadline = ctx->deadline_ms;
	for (i = 0; i < want.n; i++)
		strmap_put(&w.wanted, want.v[i].key, strlen(want.v[i].key), i);
	for (i = 0; i < lock->npkgs; i++)	/* where node finds them instead */
		if (elsewhere[i] && slot[i] != SIZE_MAX)
			strmap_put(&w.wanted, elsewhere[i], strlen(elsewhere[i]), slot[i]);
	walk_extras(&w, "node_modules", 0);
	for (i = 1; i < lock->nws; i++) {
		char *nm = path_join(lock->ws[i].path, "node_modules");

		walk_extras(&w, nm, 0);
		free(nm);
	}
	strmap_release(&w.wanted);
	if (w.stopped)
		goto late;
	/* now that have stops growing: pointers into want and have */
	for (i = 0; i < nitems; i++)
		diff_push(&d, (enum dep_problem)items[i].problem, &want.v[items[i].want],
			  items[i].have == SIZE_MAX ? NULL : &have.v[items[i].have]);
	for (i = 0; i < have.n; i++)
		if (!dep_set_get(&want, have.v[i].key) &&
		    !(have.v[i].flags & DEP_LINK && !strncmp(have.v[i].key, "node_modules/.", 14)))
			diff_push(&d, DEP_EXTRA, NULL, &have.v[i]);
	r->data = deps_data_new(l, "node_modules");
	deps_report_diff(r, l, &d, "node_modules");
	if (r->status == STATUS_WARN) {
		/* bun install leaves them: no command clears this warning */
		result_fix_clear(r);
		result_hint(r, "bun install neither removes nor uses packages %s does not name: "
			    "delete those folders, or add them to package.json", l->origin.file);
	}
	goto out;
late:
	result_set(r, STATUS_ERROR, "node_modules not compared: the deadline came first");
	r->reason = REASON_TIMEOUT;
out:
	dep_diff_release(&d);
	for (i = 0; elsewhere && i < lock->npkgs; i++)
		free(elsewhere[i]);
	free(elsewhere);
	free(items);
	free(bad);
	free(prob);
	free(slot);
	for (i = 0; i < lock->npkgs; i++) {
		free(c.seen[i].name);
		free(c.seen[i].version);
		free(c.seen[i].tag);
	}
	free(c.seen);
	dep_set_release(&want);
	dep_set_release(&have);
}

/* "@s/a" -> "@s+a" (Store.zig fmtStorePath: '/' is '+'), into b. */
static void store_name(struct buf *b, const char *name)
{
	for (; *name; name++)
		buf_putc(b, *name == '/' ? '+' : *name);
}

/* Is there a store entry for p among entries (sorted)?  npm:
 * "NAME@VERSION", or with "+PEERHASH" after it; other kinds:
 * "NAME@" and a resolution bun hashes (Store.zig Entry fmtStorePath). */
static int in_store(const struct bun_pkg *p, char *const *entries, size_t n)
{
	struct buf pre = BUF_INIT;
	size_t i, len, lo, hi;
	int hit = 0;

	store_name(&pre, p->name);
	buf_putc(&pre, '@');
	if (p->kind == BUN_NPM)
		buf_puts(&pre, p->resolution);
	len = pre.len;
	/* entries are sorted: the first not below the prefix, then those
	 * that start with it */
	lo = 0;
	hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(entries[mid], buf_str(&pre)) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i < n && !hit && !strncmp(entries[i], buf_str(&pre), len); i++)
		hit = p->kind != BUN_NPM || !entries[i][len] || entries[i][len] == '+';
	buf_release(&pre);
	return hit;
}

/* The isolated linker: bun (1.4.5, deps_bun.sh) installs a store entry
 * only when its folder is not there, and links each workspace's direct
 * dependencies on every install: so a missing entry or link is what it
 * would change, and an entry's contents are not looked at (bun does not). */
static void isolated(const struct run_ctx *ctx, const struct lock_req *l,
		     const struct bun_lock *lock, int production, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT;
	struct dep_diff d;
	char *store = path_join(spec->root, "node_modules/.bun");
	DIR *dir = opendir(store);
	char **entries;
	size_t n = 0, i, j, nmiss = 0, miss_cap = 0;
	size_t *miss = NULL;	/* places in want: pointers into it move as it grows */

	free(store);
	if (!dir) {
		deps_not_installed(r, l, "node_modules/.bun does not exist: bun's isolated "
				   "linker has not installed here");
		return;
	}
	entries = deps_list_entries(dir, &n);
	closedir(dir);
	memset(&d, 0, sizeof(d));
	for (i = 0; i < lock->npkgs; i++) {
		const struct bun_pkg *p = &lock->pkgs[i];
		struct buf key = BUF_INIT;
		struct dep *wd;

		if (p->kind == BUN_ROOT || p->kind == BUN_WORKSPACE || p->kind == BUN_LINK)
			continue;
		buf_puts(&key, "node_modules/.bun/");
		store_name(&key, p->name);
		buf_putc(&key, '@');
		store_name(&key, want_text(p));
		wd = dep_set_add(&want, buf_str(&key), p->name, want_text(p),
				 not_installed_here(p, production) ? DEP_OPTIONAL : 0);
		wd->line = p->line;
		buf_release(&key);
		if (in_store(p, entries, n)) {
			d.compared++;
		} else if (not_installed_here(p, production)) {
			d.skipped++;
		} else {
			d.compared++;
			grow(&miss, sizeof(*miss), &miss_cap, nmiss + 1);
			miss[nmiss++] = (size_t)(wd - want.v);
		}
	}
	/* the links: every workspace's dependencies but its peers */
	for (i = 0; i < lock->nws; i++) {
		const struct bun_workspace *w = &lock->ws[i];

		for (j = 0; j < w->ndeps; j++) {
			const struct bun_dep *dp = &w->deps[j];
			struct buf key = BUF_INIT;
			struct dep *wd;
			char *abs;
			struct stat st;
			int there, skip;

			if (dp->group == 3)
				continue;
			buf_printf(&key, "%s%snode_modules/%s", w->path, *w->path ? "/" : "",
				   dp->name);
			abs = path_join(spec->root, buf_str(&key));
			there = stat(abs, &st) == 0;
			free(abs);
			if (dep_set_get(&want, buf_str(&key))) {
				buf_release(&key);
				continue;
			}
			skip = dp->group == 2 || (production && dp->group == 1);
			wd = dep_set_add(&want, buf_str(&key), dp->name, dp->spec,
					 skip ? DEP_OPTIONAL : 0);
			wd->line = dp->line;
			buf_release(&key);
			if (there) {
				d.compared++;
			} else if (skip) {
				d.skipped++;
			} else {
				d.compared++;
				grow(&miss, sizeof(*miss), &miss_cap, nmiss + 1);
				miss[nmiss++] = (size_t)(wd - want.v);
			}
		}
	}
	for (i = 0; i < nmiss; i++)
		diff_push(&d, DEP_MISSING, &want.v[miss[i]], NULL);
	free(miss);
	r->data = deps_data_new(l, "node_modules/.bun");
	deps_report_diff(r, l, &d, "node_modules/.bun and its links");
	dep_diff_release(&d);
	dep_set_release(&want);
	for (i = 0; i < n; i++)
		free(entries[i]);
	free(entries);
}

/* ---- the check ---- */

void deps_run_bun(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct bun_lock lock;
	struct parse_error e;
	struct platform pf;
	struct bun_platform here;
	struct blob b;
	char *pkg_linker = NULL;
	const char *from;
	struct bunfig bf;
	int rc, iso;

	if (!strcmp(l->origin.file, "bun.lockb")) {
		/* bun's binary lockfile (before bun 1.2): its layout is bun's
		 * in-memory one, versioned by bun's own source.  Not read; but
		 * with no node_modules nothing is installed whatever it says
		 * (bun install --frozen-lockfile installs from it: deps_bun.sh) */
		if (deps_node_modules_dir(spec, l, r) < 0) {
			result_note(r, "bun.lockb is bun's binary lockfile: not read");
			return;
		}
		result_set(r, STATUS_SKIP, "bun.lockb is bun's binary lockfile: not read "
			   "(only the text bun.lock of bun 1.2 and later)");
		r->reason = REASON_OUT_OF_SCOPE;
		/* bun 1.4.5 removes bun.lockb when it saves bun.lock (deps_bun.sh) */
		result_hint(r, "bun install --save-text-lockfile --frozen-lockfile "
			    "--lockfile-only writes bun.lock from it and deletes bun.lockb "
			    "(commit both)");
		return;
	}
	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	platform_current(&pf);
	here.os = pf.os;
	here.cpu = pf.cpu;
	/* npm.zig Libc.current: glibc on Linux whatever the machine's C
	 * library ("TODO" in bun's source), no libc elsewhere (a package
	 * naming one is then left out) */
	here.libc = !strcmp(pf.os, "linux") ? "glibc" : "(none)";
	rc = deps_bun_parse(b.data, b.len, &here, &lock, &e);
	blob_release(&b);
	if (rc < 0) {
		deps_lockfile_invalid(r, l, &e);
		goto out;
	}
	if (rc == 1) {
		/* bun.lock.rs: "Unsupported lockfile version N.  This lockfile
		 * was likely created by a newer version of Bun": that bun can
		 * read it; this envpreflight cannot, and says so */
		result_set(r, STATUS_SKIP, "%s:%u: lockfileVersion %u is newer than the "
			   "versions envpreflight reads (0 to %d, bun 1.4): not compared",
			   l->origin.file, e.line, lock.version, BUN_LOCK_VERSION_MAX);
		r->reason = REASON_OUT_OF_SCOPE;
		goto out;
	}
	if (manifests(spec, l, &lock, &pkg_linker, r) != 0)
		goto out;
	if (deps_node_modules_dir(spec, l, r) < 0)
		goto out;
	bunfig_read(spec, &bf);
	iso = isolated_linker(spec, &bf, &lock, pkg_linker, &from);
	if (iso) {
		/* which packages it reaches: peers as the isolated linker
		 * resolves them */
		lock.isolated = 1;
		deps_bun_dev_only(&lock);
		isolated(ctx, l, &lock, bf.production, r);
	} else
		hoisted(ctx, l, &lock, bf.production, r);
	result_note(r, "bun's %s linker (as %s decides it)", iso ? "isolated" : "hoisted", from);
	if (bf.production)
		result_note(r, "bunfig.toml asks for a production install: packages only "
			    "devDependencies need are not counted when absent");
	free(bf.linker);
out:
	free(pkg_linker);
	bun_lock_release(&lock);
}
