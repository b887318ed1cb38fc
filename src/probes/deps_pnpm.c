/* deps_pnpm.c - the deps probe's pnpm: what `pnpm install
 * --frozen-lockfile` would do here.  In pnpm's order: the lockfile read
 * as pnpm reads it (the project's YAML document), each importer against
 * its package.json (a frozen install refuses an outdated lockfile), then
 * the install: pnpm-lock.yaml against pnpm's current lockfile
 * (node_modules/.pnpm/lock.yaml) less the optional packages it skipped
 * (node_modules/.modules.yaml), each package's folder in the virtual
 * store, and each project's links to its direct dependencies.
 */
#include "deps_probe.h"
#include "deps_pnpm.h"
#include "deps_pnpm_cfg.h"
#include "dirset.h"
#include "probe.h"
#include "spec_workspaces.h"
#include "pool.h"
#include "deps.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PNPM_SHOWN 5		/* links named in a message */

/* The install record name cannot be read (lr says why): r, the install
 * as fix. */
static void record_unreadable(const struct lock_req *l, const char *name,
			      const struct lread *lr, struct result *r)
{
	char why[128];

	result_set(r, STATUS_FAIL, "cannot read %s: %s", name, deps_lread_why(lr, why, sizeof(why)));
	r->reason = REASON_UNREADABLE;
	deps_set_fix(r, l);
}

/* Read the install record name into b: 1, 0 missing, -1 with r set
 * (unreadable, the install as fix). */
static int read_blob(const struct spec *spec, const struct lock_req *l, const char *name,
		     struct blob *b, struct result *r)
{
	struct lread lr;

	if (deps_read(spec->root, name, 0, DEPS_LOCK_CAP, b, &lr) < 0) {
		if (lr.err == ENOENT)
			return 0;
		record_unreadable(l, name, &lr, r);
		return -1;
	}
	return 1;
}

static void record_invalid(const struct lock_req *l, const char *name,
			   const struct parse_error *e, struct result *r)
{
	result_set(r, STATUS_FAIL, "%s:%u:%u: %s: what pnpm installed cannot be read",
		   name, e->line, e->col, e->msg);
	r->reason = REASON_UNREADABLE;
	deps_set_fix(r, l);
	deps_fix_hint(r, l);
}

/* Read and parse the install record name with parse into out: 1, 0
 * missing, -1 with r set (unreadable, the install as fix). */
static int read_record(const struct spec *spec, const struct lock_req *l, const char *name,
		       int (*parse)(const char *, size_t, void *, struct parse_error *),
		       void *out, struct result *r)
{
	struct blob b;
	struct parse_error e;
	int rc = read_blob(spec, l, name, &b, r);

	if (rc <= 0)
		return rc;
	rc = parse(b.data, b.len, out, &e);
	blob_release(&b);
	if (rc < 0) {
		record_invalid(l, name, &e, r);
		return -1;
	}
	return 1;
}

static int modules_parse(const char *buf, size_t len, void *out, struct parse_error *e)
{
	return deps_pnpm_modules_read(buf, len, out, e);
}

/* pnpm's current lockfile (node_modules/.pnpm/lock.yaml), read as the
 * check starts and parsed into have on a thread of its own while the
 * wanted one is parsed (a parse job: the check costs the longer of the two
 * parses, not their sum); what it says is taken where pnpm looks at it,
 * after the lockfile's own checks.  Right after an install it is, byte for
 * byte, the lockfile pnpm wrote beside it (pnpm 8 and 12 alike): its
 * packages are then the ones parsed from want's bytes (the parse is
 * deterministic), and the caller compares them with themselves
 * (deps_compare reads the two sets, and pnpm sets no flag on an installed
 * package that it reads: DEP_OPTIONAL, added to the wanted ones, is only
 * looked at on a wanted package that is not installed). */
static const char current_name[] = "node_modules/.pnpm/lock.yaml";

struct current {
	struct blob b;
	struct lread lr;
	int state;		/* as current_finish returns */
	struct parse_job job;
};

static int current_job(struct parse_job *j)
{
	return deps_pnpm_parse(j->b->data, j->b->len, j->out, &j->err);
}

static void current_start(const struct spec *spec, const struct blob *want, struct current *c,
			  struct dep_set *have)
{
	memset(c, 0, sizeof(*c));
	if (deps_read(spec->root, current_name, 0, DEPS_LOCK_CAP, &c->b, &c->lr) < 0) {
		c->state = c->lr.err == ENOENT ? 0 : -1;
		return;
	}
	if (c->b.len == want->len && !memcmp(c->b.data, want->data, c->b.len)) {
		c->state = 2;
		return;
	}
	c->state = 1;
	c->job.fn = current_job;
	c->job.b = &c->b;
	c->job.out = have;
	deps_parse_job_start(&c->job);
}

/* 1 parsed into have, 2 the same bytes as want (have not filled), 0
 * missing, -1 with r set. */
static int current_finish(const struct lock_req *l, struct current *c, struct result *r)
{
	if (c->state < 0)
		record_unreadable(l, current_name, &c->lr, r);
	else if (c->state == 1 && deps_parse_job_finish(&c->job) < 0) {
		record_invalid(l, current_name, &c->job.err, r);
		return -1;
	}
	return c->state;
}

/* Joined (also on a path that never looked at it) and freed. */
static void current_release(struct current *c)
{
	deps_parse_job_finish(&c->job);
	blob_release(&c->b);
}

/* ---- package.json against the lockfile ---- */


static char *importer_file(const char *id, const char *name)
{
	return !strcmp(id, ".") ? xstrdup(name) : path_join(id, name);
}

/* The relock as the fix, and the data of a lockfile that package.json
 * outgrew (field, manifest, lockfile: NULL when none). */
static void outdated_result(struct result *r, const struct lock_req *l, const char *importer,
			    const char *file, const char *field, const char *name,
			    const char *manifest, const char *lockfile)
{
	cJSON *o;

	r->reason = REASON_OUT_OF_DATE;
	r->data = deps_data_new(l, NULL);
	o = cJSON_AddObjectToObject(r->data, "outdated_lockfile");
	cJSON_AddStringToObject(o, "importer", importer);
	cJSON_AddStringToObject(o, "manifest_file", file);
	if (field)
		cJSON_AddStringToObject(o, "field", field);
	else
		cJSON_AddNullToObject(o, "field");
	cJSON_AddStringToObject(o, "name", name);
	if (manifest)
		cJSON_AddStringToObject(o, "manifest", manifest);
	else
		cJSON_AddNullToObject(o, "manifest");
	if (lockfile)
		cJSON_AddStringToObject(o, "lockfile", lockfile);
	else
		cJSON_AddNullToObject(o, "lockfile");
	/* the relock: --no-frozen-lockfile, since pnpm turns frozen
	 * on by itself in CI (config's ci-info default) */
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "pnpm", "install",
			"--no-frozen-lockfile", (char *)NULL);
	deps_relock_writes(r, l);
	result_hint(r, "%s was changed without relocking: run pnpm install "
		    "--no-frozen-lockfile to update %s and install (commit the lockfile)",
		    file, l->origin.file);
}

/* A workspace project of pnpm-workspace.yaml with no importer: pnpm 8
 * refuses with ERR_PNPM_OUTDATED_LOCKFILE (satisfiesPackageManifest: "no
 * importer"), pnpm 12 with ERR_PNPM_PACKAGE_MANAGER_NO_IMPORTER
 * (freshness.rs StalenessReason::NoImporter).  Returns 1 with r set. */
static int no_importer(const struct spec *spec, const struct lock_req *l,
		       const struct pnpm_lock *lock, struct result *r)
{
	const struct spec_workspaces *ws = spec->workspaces;
	size_t i;

	for (i = 0; ws && i < ws->n; i++) {
		const struct workspace *w = &ws->v[i];
		char *file;

		if (ws->sources[w->source].kind != WS_PNPM || pnpm_lock_importer(lock, w->dir))
			continue;
		file = path_join(w->dir, "package.json");
		result_set(r, STATUS_FAIL, "%s is not up to date with %s: the workspace project "
			   "%s has no importer in it (pnpm install --frozen-lockfile refuses it)",
			   l->origin.file, ws->sources[w->source].file, w->dir);
		outdated_result(r, l, w->dir, file, NULL, w->dir, NULL, NULL);
		free(file);
		return 1;
	}
	return 0;
}

/* A frozen install first checks every importer against its package.json
 * and refuses with ERR_PNPM_OUTDATED_LOCKFILE on the first difference
 * (pnpm 8 lockfile/verification satisfiesPackageManifest, called by
 * core's install; pnpm 12 crates/lockfile/src/freshness.rs).  No install
 * clears that: the fix is the command that relocks, said as such.
 * Returns 1 with r set on a difference, else 0.  An importer without a
 * readable package.json is left to the manager. */
static int outdated_lockfile(const struct spec *spec, const struct lock_req *l,
			     const struct pnpm_lock *lock, struct result *r)
{
	size_t i;

	for (i = 0; i < lock->nimp; i++) {
		const struct pnpm_importer *imp = &lock->imp[i];
		struct pnpm_manifest m;
		struct pnpm_mismatch why;
		struct lread lr;
		struct blob b;
		struct buf what = BUF_INIT;
		char *file;
		int ok;

		if (!path_rel_inside(imp->id))
			continue;
		file = importer_file(imp->id, "package.json");
		if (deps_read(spec->root, file, 1, DEPS_META_CAP, &b, &lr) < 0) {
			free(file);
			continue;
		}
		ok = deps_pnpm_manifest(b.data, b.len, &m) < 0 ||
		     deps_pnpm_satisfies(lock, imp, &m, &why);
		blob_release(&b);
		if (ok) {
			pnpm_manifest_release(&m);
			free(file);
			continue;
		}
		buf_add_clean(&what, why.field ? why.field : "dependencies");
		buf_puts(&what, ".");
		buf_add_clean(&what, why.name);
		if (why.manifest && why.lockfile) {
			buf_puts(&what, " is ");
			buf_add_clean(&what, why.manifest);
			buf_printf(&what, " in %s, ", file);
			buf_add_clean(&what, why.lockfile);
			buf_printf(&what, " in %s", l->origin.file);
		} else if (why.manifest) {
			buf_printf(&what, " is in %s, not in %s", file, l->origin.file);
		} else {
			buf_printf(&what, " is in %s, not in %s", l->origin.file, file);
		}
		result_set(r, STATUS_FAIL, "%s is not up to date with %s: %s (pnpm install "
			   "--frozen-lockfile refuses it: ERR_PNPM_OUTDATED_LOCKFILE)",
			   l->origin.file, file, buf_str(&what));
		outdated_result(r, l, imp->id, file, why.field, why.name, why.manifest,
				why.lockfile);
		buf_release(&what);
		pnpm_manifest_release(&m);
		free(file);
		return 1;
	}
	return no_importer(spec, l, lock, r);
}

/* ---- the install ---- */

/* have without the ids pnpm skipped (pnpm 12's current lockfile keeps
 * them: crates/package-manager writes the wanted lockfile whole) and
 * without packages whose folder is gone. */
struct pnpm_view {
	const struct spec *spec;
	const struct pnpm_modules *mods;
	int vfd;		/* the virtual store, or -1: folders not looked at */
	unsigned max_length;
};

/* Whether pnpm would find the package id installed: its folder
 * <virtual store>/<depPathToFilename(id)>/node_modules/<name> is there.
 * pnpm's headless install re-imports a package whose folder is missing
 * though the current lockfile has it (pnpm 8 deps/graph-builder
 * lockfileToDepGraph: pathExists(dir) else brokenModulesLogger; pnpm 12
 * crates/deps-restorer create_virtual_store/snapshot_plan.rs: !dir.is_dir()).
 * Its contents are not looked at, as pnpm does not.  1: there (or not
 * told: a name pnpm shortens with a hash), 0: missing. */
static int folder_there(const struct pnpm_view *v, const struct dep *d)
{
	char small[512], *rel = small, *dir;
	size_t cap = sizeof(small), dl, nl;
	struct stat st;
	int there, rc;

	if (!d->name || !*d->name || !path_rel_inside(d->name))
		return 1;
	/* the path on the stack (these run on two threads: no allocation,
	 * no second malloc arena); a long one on the heap */
	nl = strlen(d->name);
	if (strlen(d->key) + 6 + sizeof("/node_modules/") + nl > cap) {
		cap = strlen(d->key) + 6 + sizeof("/node_modules/") + nl;
		rel = xmalloc(cap);
	}
	rc = pnpm_dep_dirname_to(d->key, v->max_length, rel, cap);
	dir = rel;
	if (rc <= 0 || strchr(dir, '/')) {
		if (rel != small)
			free(rel);
		return 1;
	}
	dl = strlen(dir);
	memcpy(rel + dl, "/node_modules/", sizeof("/node_modules/") - 1);
	memcpy(rel + dl + sizeof("/node_modules/") - 1, d->name, nl + 1);
	if (fstatat(v->vfd, rel, &st, 0) < 0)
		there = errno != ENOENT && errno != ENOTDIR;	/* else not told */
	else
		there = S_ISDIR(st.st_mode);
	if (rel != small)
		free(rel);
	return there;
}

/* The folder stats of installed_view, on two threads from
 * PNPM_STAT_THREADED packages on (each writes its own slot of gone; the
 * deadline ends the claims, and a package not looked at counts as there). */
#define PNPM_STAT_THREADED 256

struct stat_job {
	const struct pnpm_view *v;
	const struct dep_set *have;
	unsigned char *gone;
	double deadline;
};

static int stat_item(void *arg, unsigned worker, size_t i)
{
	struct stat_job *j = arg;

	(void)worker;
	if ((i & 63) == 0 && clock_ms() > j->deadline)
		return 1;
	if (!j->gone[i] && !folder_there(j->v, &j->have->v[i]))
		j->gone[i] = 1;
	return 0;
}

/* What is installed: have, or (into out, returned) have less the ids
 * skipped and the packages whose folder is gone. */
static const struct dep_set *installed_view(const struct pnpm_view *v, double deadline,
					    const struct dep_set *have, struct dep_set *out)
{
	struct stat_job j = { v, have, xcalloc(have->n ? have->n : 1, 1), deadline };
	size_t i, ngone = 0;

	for (i = 0; v->mods->skipped.n && i < have->n; i++)
		if (dep_set_get(&v->mods->skipped, have->v[i].key))
			j.gone[i] = 1;
	if (v->vfd >= 0)
		pool_run(have->n >= PNPM_STAT_THREADED ? 2 : 1, have->n, 64, stat_item, &j);
	for (i = 0; i < have->n; i++)
		ngone += j.gone[i];
	for (i = 0; ngone && i < have->n; i++) {
		const struct dep *d = &have->v[i];
		struct dep *c;

		if (j.gone[i])
			continue;
		c = dep_set_add(out, d->key, d->name, d->version, d->flags);
		c->line = d->line;
	}
	free(j.gone);
	return ngone ? out : have;
}

static int open_virtual_store(const struct spec *spec, const struct pnpm_lock *lock,
			      const struct pnpm_modules *m)
{
	const char *vsd = m->virtual_store_dir ? m->virtual_store_dir : ".pnpm";
	char *nm, *path;
	int fd;

	/* the isolated linker's layout (nodeLinker's default); the folder
	 * names of lockfile v5 (pnpm 7) are not these, nor are those of
	 * pnpm 11's global virtual store (enableGlobalVirtualStore: a
	 * virtualStoreDir outside node_modules, "<store>/links", whose
	 * folders are named by a hash of the graph): not looked at then */
	if ((m->node_linker && strcmp(m->node_linker, "isolated")) || lock->major < 6 ||
	    !path_rel_inside(vsd))
		return -1;
	nm = path_join(spec->root, "node_modules");
	path = path_join(nm, vsd);
	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	free(path);
	free(nm);
	return fd;
}

/* The version an id holds with its peer suffix ("18.2.0(react@18.2.0)" of
 * "react-dom@18.2.0(react@18.2.0)"), or NULL when the id does not start
 * with the name (v6's "file:../a.tgz"). */
static const char *id_version(const struct dep *d)
{
	size_t n = d->name ? strlen(d->name) : 0;

	if (!n || strncmp(d->key, d->name, n) || (d->key[n] != '@' && d->key[n] != '/'))
		return NULL;
	return d->key + n + 1;
}

/* Versions are shown without peer suffixes; two ids that differ only by
 * them are shown whole (from their key) so that the message says a
 * difference. */
static void show_peers(struct dep_diff *d)
{
	size_t i;

	for (i = 0; i < d->n; i++) {
		struct dep *w = (struct dep *)d->v[i].want, *h = (struct dep *)d->v[i].have;
		const char *wv, *hv;

		if (d->v[i].problem != DEP_VERSION || !w || !h || !w->version || !h->version ||
		    strcmp(w->version, h->version) || !(wv = id_version(w)) || !(hv = id_version(h)))
			continue;
		free(w->version);
		w->version = xstrdup(wv);
		free(h->version);
		h->version = xstrdup(hv);
	}
}

/* ---- the links of each project ---- */

/* The major version of "pnpm@9.4.0" (.modules.yaml's packageManager), or 0. */
static unsigned pnpm_major(const char *by)
{
	return by && !strncmp(by, "pnpm@", 5) ? (unsigned)strtoul(by + 5, NULL, 10) : 0;
}

/* Whether the package of a hoistedDependencies key is installed.  The
 * ids are kept without v6's leading "/" (deps_pnpm.c), and pnpm 8 keys
 * hoistedDependencies the v5 way ("/is-number/6.0.0") beside a v6
 * lockfile: "is-number@6.0.0".  One not found (a peer suffix of another
 * form) is not looked at. */
static int hoisted_installed(const struct dep_set *inst, const char *id)
{
	const char *slash = strrchr(id, '/');
	char *v6;
	int yes;

	if (dep_set_get(inst, id) || (id[0] == '/' && dep_set_get(inst, id + 1)))
		return 1;
	if (id[0] != '/' || !slash || slash == id)
		return 0;
	v6 = xstrdup(id + 1);
	v6[slash - id - 1] = '@';
	yes = dep_set_get(inst, v6) != NULL;
	free(v6);
	return yes;
}

/* The hoisted links of .modules.yaml's hoistedDependencies: "public" ones
 * in node_modules (shamefully-hoist, public-hoist-pattern), "private" ones
 * in <virtualStoreDir>/node_modules (hoist-pattern, '*' by default).  pnpm
 * 8 and 9 relink a missing one on a frozen install (JavaScript pnpm's
 * headless install runs hoist() every time; seen with pnpm 8.15.9 and
 * 9.4.0), pnpm 12.23.0 does not ("Lockfile is up to date" and the link
 * stays missing): checked for the pnpm that installed it up to 10 only, so
 * that the fix, that frozen install, always clears the check.  Counted
 * into the missing links from already (shown in m past it). */
static size_t missing_hoisted(const struct pnpm_view *v, const struct dep_set *inst,
			      cJSON *list, struct buf *m, size_t already)
{
	const struct pnpm_modules *mods = v->mods;
	const char *vsd = mods->virtual_store_dir ? mods->virtual_store_dir : ".pnpm";
	unsigned major = pnpm_major(mods->by);
	size_t i, n = 0;

	if (!major || major > 10)
		return 0;
	for (i = 0; i < mods->nhoisted; i++) {
		const struct pnpm_hoist *h = &mods->hoisted[i];
		char *link, *rel, *nm;
		struct stat st;
		cJSON *o;

		if (!path_rel_inside(h->alias) || (!h->pub && !path_rel_inside(vsd)) ||
		    dep_set_get(&mods->skipped, h->id) || !hoisted_installed(inst, h->id))
			continue;
		if (h->pub) {
			link = path_join("node_modules", h->alias);
		} else {
			nm = path_join("node_modules", vsd);
			rel = path_join(nm, "node_modules");
			link = path_join(rel, h->alias);
			free(rel);
			free(nm);
		}
		rel = path_join(v->spec->root, link);
		if (lstat(rel, &st) == 0 || errno != ENOENT) {
			free(rel);
			free(link);
			continue;
		}
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", h->alias);
		cJSON_AddStringToObject(o, "problem", "missing");
		cJSON_AddStringToObject(o, "key", link);
		cJSON_AddStringToObject(o, "lockfile", h->id);
		cJSON_AddNullToObject(o, "installed");
		cJSON_AddItemToArray(list, o);
		if (already + n < PNPM_SHOWN) {
			buf_puts(m, (already + n) ? ", " : "");
			buf_add_clean(m, link);
		}
		n++;
		free(rel);
		free(link);
	}
	return n;
}

/* A link pnpm makes: the project's node_modules/<alias>, relative to the
 * repository, and what the lockfile says it is. */
struct want_link {
	char *link;
	const struct dep *p;		/* NULL: a link: dependency */
	const struct pnpm_direct *d;
};

/* pnpm links each project's direct dependencies into its node_modules
 * and recreates a missing link on every install (pnpm 8 headless
 * linkDirectDeps; pnpm 12 crates/deps-restorer
 * symlink_direct_dependencies.rs), a workspace project's (link:) too.
 * A link is missing when its lstat fails with ENOENT; the links are looked
 * up by parent (dirset.h: each project's node_modules and its @scope
 * folders read once), and what a listing does not tell is lstat'ed.
 * Returns the number of links missing, each in data and the first in m. */
static size_t missing_links(const struct pnpm_view *v, const struct pnpm_lock *lock,
			    const struct dep_set *inst, cJSON *list, struct buf *m)
{
	struct want_link *w = NULL;
	struct dirset_res *seen;
	const char **paths;
	size_t i, j, n = 0, nw = 0, cap = 0;
	char *rel0;
	int root;

	for (i = 0; i < lock->nimp; i++) {
		const struct pnpm_importer *imp = &lock->imp[i];

		char *pj;
		struct stat pst;
		int gone;

		if (!path_rel_inside(imp->id))
			continue;
		/* a project deleted since: pnpm has no links to make there */
		pj = importer_file(imp->id, "package.json");
		rel0 = path_join(v->spec->root, pj);
		gone = lstat(rel0, &pst) < 0;
		free(rel0);
		free(pj);
		if (gone)
			continue;
		for (j = 0; j < imp->n; j++) {
			const struct pnpm_direct *d = &imp->v[j];
			char *id = NULL, *rel;
			const struct dep *p = NULL;

			if (d->field > PNPM_OPTIONAL || v->mods->included[d->field] == 0 ||
			    !d->ref || !path_rel_inside(d->alias))
				continue;
			if (strncmp(d->ref, "link:", 5)) {
				id = pnpm_ref_id(lock, d->alias, d->ref);
				p = id ? dep_set_get(&lock->pkgs, id) : NULL;
				/* one not installed (an optional one skipped) has none */
				if (!p || !dep_set_get(inst, id) ||
				    dep_set_get(&v->mods->skipped, id)) {
					free(id);
					continue;
				}
			}
			free(id);
			rel = path_join("node_modules", d->alias);
			grow(&w, sizeof(*w), &cap, nw + 1);
			w[nw].link = importer_file(imp->id, rel);
			w[nw].p = p;
			w[nw].d = d;
			nw++;
			free(rel);
		}
	}
	paths = xcalloc(nw + 1, sizeof(*paths));
	seen = xcalloc(nw + 1, sizeof(*seen));
	for (i = 0; i < nw; i++)
		paths[i] = w[i].link;
	root = open(v->spec->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root >= 0)
		dirset_lookup(root, paths, nw, seen);
	for (i = 0; i < nw; i++) {
		const struct dep *p = w[i].p;
		const char *link = w[i].link;
		struct stat st;
		cJSON *o;
		int there;

		if (seen[i].state == DIRSET_FOUND) {
			there = 1;
		} else if (seen[i].state == DIRSET_ABSENT) {
			there = seen[i].err != ENOENT;
		} else if (root >= 0) {
			there = fstatat(root, link, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT;
		} else {
			char *rel = path_join(v->spec->root, link);

			there = lstat(rel, &st) == 0 || errno != ENOENT;
			free(rel);
		}
		if (there)
			continue;
		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", p ? p->name : w[i].d->alias);
		cJSON_AddStringToObject(o, "problem", "missing");
		cJSON_AddStringToObject(o, "key", link);
		cJSON_AddStringToObject(o, "lockfile", p && p->version ? p->version : w[i].d->ref);
		cJSON_AddNullToObject(o, "installed");
		cJSON_AddItemToArray(list, o);
		if (n < PNPM_SHOWN) {
			buf_puts(m, n ? ", " : "");
			buf_add_clean(m, link);
		}
		n++;
	}
	if (root >= 0)
		close(root);
	for (i = 0; i < nw; i++)
		free(w[i].link);
	free(w);
	free(seen);
	free(paths);
	n += missing_hoisted(v, inst, list, m, n);
	if (n > PNPM_SHOWN)
		buf_printf(m, " and %zu more", n - PNPM_SHOWN);
	return n;
}

static void compare_install(const struct spec *spec, const struct lock_req *l,
			    struct pnpm_lock *lock, const struct pnpm_modules *mods,
			    const struct dep_set *have, double deadline, struct result *r)
{
	struct pnpm_view v = { spec, mods, -1, mods->max_length };
	struct dep_set inst = DEP_SET_INIT;
	const struct dep_set *view;
	struct dep_diff d;
	struct buf m = BUF_INIT;
	size_t i, links;

	/* optional packages pnpm skipped here (another platform's): not
	 * wanted, and not counted as matching */
	for (i = 0; i < mods->skipped.n; i++) {
		size_t at = strmap_get(&lock->pkgs.index, mods->skipped.v[i].key,
				       strlen(mods->skipped.v[i].key));

		if (at != STRMAP_NONE)
			lock->pkgs.v[at].flags |= DEP_OPTIONAL;
	}
	v.vfd = open_virtual_store(spec, lock, mods);
	view = installed_view(&v, deadline, have, &inst);
	r->data = deps_data_new(l, current_name);
	deps_compare(&lock->pkgs, view, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	show_peers(&d);
	deps_report_diff(r, l, &d, current_name);
	/* the links are the isolated linker's (with or without a global
	 * virtual store) */
	if (r->status == STATUS_PASS &&
	    (!mods->node_linker || !strcmp(mods->node_linker, "isolated"))) {
		links = missing_links(&v, lock, view, cJSON_GetObjectItemCaseSensitive(r->data,
										 "differences"), &m);
		if (links) {
			cJSON_ReplaceItemInObjectCaseSensitive(r->data, "differ",
							       cJSON_CreateNumber((double)links));
			result_set(r, STATUS_FAIL, "%zu package%s match%s %s, but %zu link%s to "
				   "them %s missing: %s", d.compared, d.compared == 1 ? "" : "s",
				   d.compared == 1 ? "es" : "", current_name, links,
				   links == 1 ? "" : "s", links == 1 ? "is" : "are", buf_str(&m));
			r->reason = REASON_OUT_OF_DATE;
			deps_set_fix(r, l);
			deps_fix_hint(r, l);
		}
	}
	if (v.vfd >= 0)
		close(v.vfd);
	buf_release(&m);
	dep_diff_release(&d);
	dep_set_release(&inst);
}

void deps_run_pnpm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct pnpm_lock lock;
	struct pnpm_modules mods;
	struct dep_set have = DEP_SET_INIT;
	struct parse_error e;
	struct current cur;
	struct blob b;
	const char *by;
	int rc;

	memset(&mods, 0, sizeof(mods));
	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	current_start(spec, &b, &cur, &have);
	rc = deps_pnpm_lock(b.data, b.len, &lock, &e);
	if (rc < 0) {
		deps_lockfile_invalid(r, l, &e);
		goto out;
	}
	/* pnpm compares the lockfile's configuration first, then each
	 * importer (pnpm 8 core install: getOutdatedLockfileSetting before
	 * satisfiesPackageManifest; pnpm 12 check_lockfile_freshness) */
	if (deps_pnpm_config_check(spec, l, &lock, r) || outdated_lockfile(spec, l, &lock, r))
		goto out;
	if (deps_node_modules_dir(spec, l, r) < 0)
		goto out;
	rc = read_record(spec, l, "node_modules/.modules.yaml", modules_parse, &mods, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		by = deps_installed_by(spec);
		result_set(r, STATUS_FAIL, "node_modules was %s (no node_modules/.modules.yaml)",
			   by ? (!strcmp(by, "npm") ? "installed by npm, not by pnpm" :
				 "installed by yarn, not by pnpm") : "not installed by pnpm");
		r->reason = REASON_OUT_OF_DATE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
		goto out;
	}
	/* pnpm keeps what it installed as a lockfile of its own (the "current
	 * lockfile"), and compares the wanted one with it on every install */
	rc = current_finish(l, &cur, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		result_set(r, STATUS_WARN, "no node_modules/.pnpm/lock.yaml: what pnpm "
			   "installed cannot be compared");
		r->reason = REASON_CANNOT_COMPARE;
		goto out;
	}
	compare_install(spec, l, &lock, &mods, rc == 2 ? &lock.pkgs : &have, ctx->deadline_ms, r);
out:
	current_release(&cur);
	blob_release(&b);
	pnpm_lock_release(&lock);
	pnpm_modules_release(&mods);
	dep_set_release(&have);
}
