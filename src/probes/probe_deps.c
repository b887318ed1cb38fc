/* probe_deps.c - is what is installed what the lockfile says?  One check
 * per lockfile found by spec_deps.c; nothing is ever run.
 *
 * Lockfiles are read here, on the check's worker and under the deadline,
 * not at load time: they run to tens of megabytes (the cap is
 * DEPS_LOCK_CAP, not the 1 MiB of spec files), and what they are
 * compared with (node_modules, a virtual environment) is state that only
 * a probe reads.  Every file goes through deps_read, the one place that
 * reads (to be switched to saferead when it lands).  The parsers are the
 * pure functions of deps.h; this file plans the checks, hands each to its
 * manager (deps_node.c, deps_python.c walk the directories) and words the
 * result.  deps_probe.h says which file has what.
 */
#include "deps_probe.h"
#include "probe.h"
#include "pool.h"
#include "saferead.h"
#include "deps.h"
#include "spec_workspaces.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define DEPS_SHOWN 5		/* packages named in the message */
#define DEPS_MANY_THREADED 64	/* install records read on two threads from here */

/* ---- reading ---- */

int deps_read(const char *root, const char *name, int inside, size_t cap,
	      struct blob *out, struct lread *l)
{
	/* the one safe reader: opened first, the descriptor judged, kept
	 * below the repository when asked */
	struct saferead_policy pol = { inside ? SAFEREAD_BENEATH : SAFEREAD_ANYWHERE,
				       SAFEREAD_BYTES, cap };
	struct saferead_error e;
	struct stat st;
	char *path = path_join(root, name);
	int rc;

	memset(l, 0, sizeof(*l));
	out->data = NULL;
	out->len = 0;
	rc = inside ? saferead_file(&pol, root, name, out, &e) :
		      saferead_file(&pol, NULL, path, out, &e);
	if (rc < 0) {
		l->err = e.code;
		if (e.code == EFBIG && stat(path, &st) == 0)
			l->size = (size_t)st.st_size;
	}
	free(path);
	return rc;
}

const char *deps_lread_why(const struct lread *l, char *buf, size_t size)
{
	switch (l->err) {
	case EXDEV:
		return "it resolves outside the repository";
	case EISDIR:
		return "it is a directory";
	case EINVAL:
		return "it is not a regular file";
	case EFBIG:
		snprintf(buf, size, "it is %.1f MiB, over the %zu MiB cap for lockfiles",
			 (double)l->size / (1024.0 * 1024.0), DEPS_LOCK_CAP >> 20);
		return buf;
	default:
		return strerror(l->err);
	}
}

/* ---- what each manager is ---- */

static const struct manager {
	const char *name, *title;
	const char *fix[5];	/* argv, NULL-terminated */
	const char *writes[5];	/* what that install may write in the work
				 * tree (the lockfile stays as it is: each
				 * is the frozen install), NULL-terminated;
				 * a directory ends in '/' */
} managers[] = {
	[LOCK_NPM] = { "npm", "npm packages", { "npm", "ci", NULL }, { "node_modules/", NULL } },
	[LOCK_PNPM] = { "pnpm", "pnpm packages",
			{ "pnpm", "install", "--frozen-lockfile", NULL }, { "node_modules/", NULL } },
	/* yarn berry: by its linker node_modules or .pnp.cjs, and .yarn's
	 * install state (Project.ts persistInstallStateFile) and cache */
	[LOCK_YARN] = { "yarn", "yarn packages", { "yarn", "install", "--immutable", NULL },
			{ "node_modules/", ".pnp.cjs", ".pnp.loader.mjs", ".yarn/", NULL } },
	[LOCK_BUN] = { "bun", "bun packages", { "bun", "install", "--frozen-lockfile", NULL },
		       { "node_modules/", NULL } },
	/* the Python managers write the environment the model found
	 * (l->venv: .venv, UV_PROJECT_ENVIRONMENT, poetry's in-project
	 * one), see install_writes */
	[LOCK_UV] = { "uv", "Python packages", { "uv", "sync", "--locked", NULL }, { NULL } },
	[LOCK_POETRY] = { "poetry", "Python packages", { "poetry", "install", NULL }, { NULL } },
	[LOCK_PIP] = { "pip", "Python packages", { NULL }, { NULL } },
};

const char *deps_manager_name(enum lock_kind kind)
{
	return managers[kind].name;
}

/* What l's install writes in the work tree, as r's fix.writes: the
 * table's folders, or for Python the environment it installs into when
 * that lies in the tree (pip into the venv the model found, uv into
 * UV_PROJECT_ENVIRONMENT or .venv, poetry into its in-project .venv; one
 * under ~/.cache is not the tree's).  A JavaScript install also writes a
 * node_modules in each workspace: pnpm links every workspace's own
 * dependencies there, npm, yarn's node-modules linker and bun nest a
 * version the root's does not fit (seen with each, fixwrites.sh).  And
 * yarn berry rewrites every workspace's package.json, the root's too, in
 * its own layout when it is not already so: Project.install calls
 * persist() (unless persistProject is false, which `yarn install` never
 * sets, --immutable or not), which is persistLockfile() and each
 * workspace's persistManifest(): JSON.stringify(manifest.exportTo(),
 * null, indent) + "\n", through changeFilePromise (written only when it
 * differs).  Seen with yarn 4.18.1 on a package.json written on one line. */
static void install_writes(struct result *r, const struct lock_req *l)
{
	const char *const *w;
	size_t i;

	if (l->kind == LOCK_UV || l->kind == LOCK_POETRY || l->kind == LOCK_PIP) {
		if (l->venv && path_is_relative_inside(l->venv))
			result_fix_writes_dir(r, l->venv);
		return;
	}
	for (w = managers[l->kind].writes; *w; w++) {
		size_t n = strlen(*w);

		if ((*w)[n - 1] == '/') {
			char *dir = xstrdup(*w);

			dir[n - 1] = '\0';
			result_fix_writes_dir(r, dir);
			free(dir);
		} else {
			result_fix_writes(r, *w);
		}
	}
	if (l->kind == LOCK_YARN)
		result_fix_writes(r, "package.json");
	for (i = 0; l->ws && i < l->ws->n; i++) {
		const struct workspace *x = &l->ws->v[i];
		enum ws_kind k = l->ws->sources[x->source].kind;
		char *p;

		if (k != WS_NPM && k != WS_PNPM)
			continue;
		p = path_join(x->dir, "node_modules");
		result_fix_writes_dir(r, p);
		free(p);
		if (l->kind == LOCK_YARN) {
			p = path_join(x->dir, "package.json");
			result_fix_writes(r, p);
			free(p);
		}
	}
}

void deps_relock_writes(struct result *r, const struct lock_req *l)
{
	result_fix_writes(r, l->origin.file);
	install_writes(r, l);
}

void deps_set_fix(struct result *r, const struct lock_req *l)
{
	const char *const *a = managers[l->kind].fix;
	char *py;

	if (l->kind != LOCK_PIP) {
		result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, a[0], a[1], a[2], a[3], (char *)NULL);
		install_writes(r, l);
		return;
	}
	if (!l->venv)
		return;
	/* the environment's own pip; refused (no fix) when a path has a
	 * character an argv word may not */
	py = path_join(l->venv, "bin/python");
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, py, "-m", "pip", "install", "-r",
			l->origin.file, (char *)NULL);
	install_writes(r, l);
	free(py);
}

void deps_fix_hint(struct result *r, const struct lock_req *l)
{
	if (r->fix && r->fix->argv) {
		struct buf cmd = BUF_INIT;
		char **a;

		for (a = r->fix->argv; *a; a++)
			buf_printf(&cmd, "%s%s", a == r->fix->argv ? "" : " ", *a);
		result_hint(r, "run %s to install what %s says", buf_str(&cmd), l->origin.file);
		buf_release(&cmd);
	}
}

/* ---- the data and the message ---- */

static const char *problem_name(enum dep_problem p)
{
	static const char *const names[] = {
		[DEP_MISSING] = "missing", [DEP_VERSION] = "version",
		[DEP_EXTRA] = "extra", [DEP_UNKNOWN_VERSION] = "unknown-version",
	};
	return names[p];
}

static void add_str_or_null(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

cJSON *deps_data_new(const struct lock_req *l, const char *installed)
{
	cJSON *d = cJSON_CreateObject();

	cJSON_AddStringToObject(d, "manager", managers[l->kind].name);
	cJSON_AddStringToObject(d, "lockfile", l->origin.file);
	add_str_or_null(d, "installed", installed);
	cJSON_AddNumberToObject(d, "packages", 0);
	cJSON_AddNumberToObject(d, "differ", 0);
	cJSON_AddItemToObject(d, "differences", cJSON_CreateArray());
	return d;
}

static void data_set_number(cJSON *d, const char *key, double v)
{
	cJSON_ReplaceItemInObjectCaseSensitive(d, key, cJSON_CreateNumber(v));
}

/* A side's version for a message (or its extra, when asked), else none. */
static const char *side_version(const struct dep *d, int extra, const char *none)
{
	if (d && d->version)
		return d->version;
	return extra && d && d->extra ? d->extra : none;
}

/* A "resolved" for a message: the part after "#" of a git URL (the
 * commit), else the URL without its user:password@. */
static void add_resolved(struct buf *b, const char *res)
{
	const char *hash = strrchr(res, '#'), *at, *scheme = strstr(res, "://");

	if (hash && hash[1]) {
		buf_add_clean(b, hash);
		return;
	}
	at = scheme ? strchr(scheme + 3, '@') : NULL;
	if (at && (!strchr(scheme + 3, '/') || at < strchr(scheme + 3, '/'))) {
		struct buf t = BUF_INIT;

		buf_printf(&t, "%.*s%s", (int)(scheme + 3 - res), res, at + 1);
		buf_add_clean(b, buf_str(&t));
		buf_release(&t);
		return;
	}
	buf_add_clean(b, res);
}

/* "lodash: lockfile 4.17.21, installed 4.17.20"; an npm alias as npm ls
 * shows it ("mylodash (npm:lodash)"); a git dependency at the same
 * version by its commit */
static void describe(struct buf *b, const struct dep_diff_item *it)
{
	const struct dep *w = it->want, *h = it->have;
	const char *name = w ? w->name : h ? h->name : "?";

	buf_add_clean(b, name);
	if (w && (w->flags & DEP_ALIAS) && w->extra) {
		buf_puts(b, " (npm:");
		buf_add_clean(b, w->extra);
		buf_puts(b, ")");
	}
	if (it->problem == DEP_VERSION && w && h && (w->flags & DEP_RESOLVED) && w->extra &&
	    h->extra && w->version && h->version && !strcmp(w->version, h->version)) {
		buf_puts(b, ": lockfile ");
		buf_add_clean(b, w->version);
		buf_puts(b, " ");
		add_resolved(b, w->extra);
		buf_puts(b, ", installed ");
		add_resolved(b, h->extra);
		return;
	}
	switch (it->problem) {
	case DEP_MISSING:
		buf_puts(b, ": lockfile ");
		buf_add_clean(b, side_version(w, 0, "(any version)"));
		buf_puts(b, ", not installed");
		break;
	case DEP_VERSION:
		buf_puts(b, ": lockfile ");
		buf_add_clean(b, side_version(w, 1, "?"));
		buf_puts(b, ", installed ");
		buf_add_clean(b, side_version(h, 1, "?"));
		break;
	case DEP_EXTRA:
		if (w && (w->flags & DEP_NOT_HERE)) {
			/* in the lockfile, but npm leaves it out here */
			buf_puts(b, ": installed ");
			buf_add_clean(b, side_version(h, 0, "?"));
			buf_puts(b, (w->flags & DEP_DEV) ? ", a dev package npm leaves out here" :
				 ", an optional package for another platform");
			break;
		}
		buf_puts(b, ": not in the lockfile, installed ");
		buf_add_clean(b, side_version(h, 0, "?"));
		break;
	case DEP_UNKNOWN_VERSION:
		buf_puts(b, ": lockfile ");
		buf_add_clean(b, side_version(w, 0, "?"));
		buf_puts(b, ", installed version unknown (");
		/* npm: what the folder is ("a folder without package.json") */
		buf_add_clean(b, h && h->extra ? h->extra : "no Version: in its metadata");
		buf_puts(b, ")");
		break;
	}
}

void deps_report_diff(struct result *r, const struct lock_req *l,
		      const struct dep_diff *d, const char *against)
{
	struct buf m = BUF_INIT;
	cJSON *list = cJSON_GetObjectItemCaseSensitive(r->data, "differences");
	size_t i, real = d->n - d->extra, unwanted = 0;

	data_set_number(r->data, "packages", (double)d->compared);
	data_set_number(r->data, "differ", (double)d->n);
	for (i = 0; i < d->n; i++) {
		const struct dep_diff_item *it = &d->v[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "name", it->want ? it->want->name : it->have->name);
		cJSON_AddStringToObject(o, "problem", problem_name(it->problem));
		add_str_or_null(o, "key", it->want ? it->want->key : it->have->key);
		add_str_or_null(o, "lockfile", it->want ? it->want->version : NULL);
		add_str_or_null(o, "installed", it->have ? it->have->version : NULL);
		cJSON_AddItemToArray(list, o);
	}
	if (!d->n) {
		result_set(r, STATUS_PASS, "%zu package%s match%s %s", d->compared,
			   d->compared == 1 ? "" : "s", d->compared == 1 ? "es" : "", against);
		if (d->skipped)
			result_note(r, "%zu optional, platform-specific or stale package%s of %s "
				    "not installed: not counted", d->skipped,
				    d->skipped == 1 ? "" : "s", l->origin.file);
		return;
	}
	/* the counts say what the items below are: the differences, then
	 * the installed packages the lockfile does not name */
	for (i = 0; i < d->n; i++)
		unwanted += d->v[i].problem == DEP_EXTRA && d->v[i].want;
	if (real && d->extra)
		buf_printf(&m, "%zu of %zu package%s differ%s from %s, and %zu installed "
			   "package%s %s: ", real, d->compared,
			   d->compared == 1 ? "" : "s", real == 1 ? "s" : "", l->origin.file,
			   d->extra, d->extra == 1 ? " is" : "s are",
			   unwanted ? "not wanted here" : "not in it");
	else if (real)
		buf_printf(&m, "%zu of %zu package%s differ%s from %s: ", real, d->compared,
			   d->compared == 1 ? "" : "s", real == 1 ? "s" : "", l->origin.file);
	else if (unwanted)
		buf_printf(&m, "%zu installed package%s not wanted here by %s: ", d->extra,
			   d->extra == 1 ? "" : "s", l->origin.file);
	else
		buf_printf(&m, "%zu installed package%s not in %s: ", d->extra,
			   d->extra == 1 ? "" : "s", l->origin.file);
	for (i = 0; i < d->n && i < DEPS_SHOWN; i++) {
		if (i)
			buf_puts(&m, "; ");
		describe(&m, &d->v[i]);
	}
	if (d->n > DEPS_SHOWN)
		buf_printf(&m, " and %zu more", d->n - DEPS_SHOWN);
	/* only packages the lockfile does not name: the code still gets what
	 * it asked for; a warning */
	result_set(r, real ? STATUS_FAIL : STATUS_WARN, "%s", buf_str(&m));
	r->reason = REASON_OUT_OF_DATE;
	deps_set_fix(r, l);
	deps_fix_hint(r, l);
	buf_release(&m);
}

void deps_lockfile_invalid(struct result *r, const struct lock_req *l,
			   const struct parse_error *e)
{
	result_set(r, STATUS_FAIL, "%s:%u:%u: %s", l->origin.file, e->line, e->col,
		   e->msg[0] ? e->msg : "cannot be parsed");
	r->reason = REASON_LOCKFILE_INVALID;
	result_fix_edit(r, l->origin.file, e->line);
	result_hint(r, "%s cannot be read by %s either: restore it from version control "
		    "or regenerate it", l->origin.file, managers[l->kind].name);
}

int deps_read_lockfile(const struct spec *spec, const struct lock_req *l,
		       struct blob *b, struct result *r)
{
	struct lread lr;
	char why[128];

	if (deps_read(spec->root, l->origin.file, 1, DEPS_LOCK_CAP, b, &lr) == 0)
		return 0;
	if (lr.err == EFBIG) {
		result_set(r, STATUS_SKIP, "%s not compared: %s", l->origin.file,
			   deps_lread_why(&lr, why, sizeof(why)));
		r->reason = REASON_OUT_OF_SCOPE;
		return -1;
	}
	result_set(r, STATUS_ERROR, "cannot read %s: %s", l->origin.file,
		   deps_lread_why(&lr, why, sizeof(why)));
	r->reason = REASON_UNREADABLE;
	return -1;
}

void deps_not_installed(struct result *r, const struct lock_req *l, const char *what)
{
	result_set(r, STATUS_FAIL, "%s", what);
	r->reason = REASON_NOT_INSTALLED;
	deps_set_fix(r, l);
	deps_fix_hint(r, l);
}

/* ---- a lockfile parsed beside the rest ---- */

static void *parse_job_main(void *arg)
{
	struct parse_job *j = arg;

	j->rc = j->fn(j);
	return NULL;
}

void deps_parse_job_start(struct parse_job *j)
{
	if (pool_start(&j->thread, parse_job_main, j) != 0)
		parse_job_main(j);
}

int deps_parse_job_finish(struct parse_job *j)
{
	pool_join(&j->thread);
	return j->rc;
}

/* ---- many small files read on two threads ---- */

/* pool_run's item: file i, unless the deadline has come (then no more). */
static int many_read_item(void *arg, unsigned worker, size_t i)
{
	struct many_read *m = arg;
	const struct saferead_policy pol = { SAFEREAD_ANYWHERE, SAFEREAD_BYTES, DEPS_META_CAP };
	char buf[PATH_MAX];
	const char *name;
	struct blob b;

	if (clock_ms() > m->deadline) {
		atomic_store(&m->late, 1);
		return 1;
	}
	name = m->name(m, i, buf, sizeof(buf));
	if (name && saferead_dir_file(&m->dir, &pol, name, &b, NULL) == 0) {
		m->take(m, i, &b);
		blob_release(&b);
	}
	return 0;
}

int deps_many_read_run(struct many_read *m, const char *dir)
{
	atomic_init(&m->late, 0);
	saferead_dir_open(&m->dir, dir);	/* on failure each read fails */
	pool_run(m->n >= DEPS_MANY_THREADED ? 2 : 1, m->n, 1, many_read_item, m);
	saferead_dir_close(&m->dir);
	return atomic_load(&m->late) || clock_ms() > m->deadline ? -1 : 0;
}

/* ---- a directory's entries ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **deps_list_entries(DIR *d, size_t *n)
{
	struct dirent *e;
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		grow(&v, sizeof(*v), &cap, *n + 1);
		v[(*n)++] = xstrdup(e->d_name);
	}
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	return v;
}

/* ---- the probe ---- */

/* The manager package.json's packageManager names, or NULL. */
static const char *pinned_manager(const struct spec *spec)
{
	size_t i;

	for (i = 0; i < spec->nruntimes; i++)
		if (spec->runtimes[i].src == SRC_PACKAGE_MANAGER && !spec->runtimes[i].problem)
			return spec->runtimes[i].name;
	return NULL;
}

static void deps_run(const struct run_ctx *ctx, const struct check *c, struct result *r)
{
	const struct lock_req *l = c->arg;
	const char *pm = pinned_manager(ctx->spec);

	if (l->kind <= LOCK_BUN && pm && strcmp(pm, managers[l->kind].name) &&
	    (!strcmp(pm, "npm") || !strcmp(pm, "pnpm") || !strcmp(pm, "yarn") ||
	     !strcmp(pm, "bun"))) {
		/* corepack runs only the pinned manager: this lockfile is
		 * left over, and no install will read it */
		result_set(r, STATUS_SKIP, "package.json's packageManager names %s: %s is "
			   "not the lockfile in use", pm, l->origin.file);
		r->reason = REASON_NOT_APPLICABLE;
		return;
	}
	switch (l->kind) {
	case LOCK_NPM:
		deps_run_npm(ctx, l, r);
		break;
	case LOCK_PNPM:
		deps_run_pnpm(ctx, l, r);
		break;
	case LOCK_YARN:
		deps_run_yarn(ctx, l, r);
		break;
	case LOCK_BUN:
		deps_run_bun(ctx, l, r);
		break;
	default:
		deps_run_python(ctx, l, r);
	}
}

static void deps_plan(const struct spec *spec, struct plan *plan)
{
	size_t i;

	for (i = 0; i < spec->nlocks; i++) {
		const struct lock_req *l = &spec->locks[i];
		struct buf title = BUF_INIT;

		buf_printf(&title, "%s (%s)", managers[l->kind].title, l->origin.file);
		plan_add(plan, &probe_deps, l->id, buf_str(&title), l->origin, l, i);
		buf_release(&title);
	}
}

static const char *const deps_ids[] = {
	"deps.npm", "deps.pnpm", "deps.yarn", "deps.bun", "deps.uv", "deps.poetry", "deps.pip.FILE",
	NULL
};

const struct probe probe_deps = {
	.name = "deps",
	.summary = "installed packages (node_modules, .venv) match the lockfile",
	.plan = deps_plan,
	.run = deps_run,
	.ids = deps_ids,
};
