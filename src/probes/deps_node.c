/* deps_node.c - the deps probe's npm: the lockfile against node_modules
 * (its hidden lockfile, or the package.json files of its folders); and
 * what npm, pnpm and yarn share (node_modules itself, an install record
 * read and compared).  pnpm is deps_pnpm.c's, yarn deps_yarn.c's; what
 * every manager shares is probe_deps.c's (deps_probe.h).
 */
#include "deps_probe.h"
#include "npm_cache.h"
#include "probe.h"
#include "deps.h"
#include "spec_workspaces.h"
#include "platform.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEPS_WALK_MAX 200000	/* package folders looked at */
#define DEPS_WALK_DEPTH 64	/* nested node_modules */

static double mtime_ms(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec * 1000.0 + (double)st->st_mtim.tv_nsec / 1e6;
}

/* What the lockfile is read with: this machine, and where the specs of
 * its importers go (or NULL). */
struct npm_job_arg {
	const struct npm_platform *here;
	struct npm_importers *imp;
};

static int npm_job(struct parse_job *j)
{
	const struct npm_job_arg *a = j->arg;
	int version;

	return deps_npm_parse_all(j->b->data, j->b->len, a->here, j->out, a->imp, &version,
				  &j->err);
}

/* ---- npm's config: what an install leaves out, the platform ---- */

/* The settings of npm's that decide what `npm ci` installs here, from
 * the places npm reads them in its order (@npmcli/config lib/index.js
 * load: the environment's npm_config_*, then the project's .npmrc, then
 * the user's; the command line is not ours to see, and the global npmrc
 * below npm's own prefix is not read). */
#define NPM_CONF_VALS 8
struct npm_conf {
	struct blob rc[2];	/* the project's .npmrc, the user's */
	int have[2];
	char *where;		/* where omit=dev came from, for a note */
	int omit_dev;
	char os[32], cpu[72], libc[16];
	struct npm_platform here;
};

/* The values of key from the first place that sets it, into vals;
 * returns how many (0: nowhere) and *from names the place. */
static size_t npm_conf_get(const struct npm_conf *c, const char *key, char **vals,
			   const char **from)
{
	static const char *const rc_names[] = { ".npmrc", "the user's .npmrc" };
	char env[64];
	const char *v;
	size_t i, n;

	/* @npmcli/config loadEnv: npm_config_KEY, any case, "-" as "_" */
	snprintf(env, sizeof(env), "npm_config_%s", key);
	for (i = 0; env[i]; i++)
		if (env[i] == '-')
			env[i] = '_';
	if (!(v = getenv(env)) || !*v) {
		for (i = 0; env[i]; i++)
			env[i] = (char)(env[i] >= 'a' && env[i] <= 'z' ? env[i] - 32 : env[i]);
		v = getenv(env);
	}
	if (v && *v) {
		vals[0] = xstrdup(v);
		*from = "the environment";
		return 1;
	}
	for (i = 0; i < 2; i++) {
		if (!c->have[i])
			continue;
		n = deps_npmrc_values(c->rc[i].data, c->rc[i].len, key, vals, NPM_CONF_VALS);
		if (n) {
			*from = rc_names[i];
			return n;
		}
	}
	return 0;
}

static void free_vals(char **vals, size_t n)
{
	while (n)
		free(vals[--n]);
}

/* One setting as npm's Boolean: 1 true, 0 false, -1 not set. */
static int npm_conf_bool(const struct npm_conf *c, const char *key)
{
	char *vals[NPM_CONF_VALS];
	const char *from;
	size_t n = npm_conf_get(c, key, vals, &from);
	int b = n ? strcmp(vals[n - 1], "false") != 0 && strcmp(vals[n - 1], "0") != 0 : -1;

	free_vals(vals, n);
	return b;
}

/* Whether a list setting holds word; from set when it does. */
static int npm_conf_has(const struct npm_conf *c, const char *key, const char *word,
			int *set, const char **from)
{
	char *vals[NPM_CONF_VALS];
	size_t n = npm_conf_get(c, key, vals, from), i;
	int found = 0;

	for (i = 0; i < n; i++)
		found |= !strcmp(vals[i], word);
	*set = n > 0;
	free_vals(vals, n);
	return found;
}

/* @npmcli/config lib/definitions/definitions.js buildOmitList: omit
 * (default ["dev"] when NODE_ENV is production), only=prod and
 * production add dev; include=dev, production=false, also=dev and dev
 * take it out again. */
static void npm_conf_omit(struct npm_conf *c)
{
	char *vals[NPM_CONF_VALS];
	const char *from = NULL, *f2;
	const char *node_env = getenv("NODE_ENV");
	int set, omit, include, prod;
	size_t n;

	omit = npm_conf_has(c, "omit", "dev", &set, &from);
	if (!set && node_env && !strcmp(node_env, "production")) {
		omit = 1;
		from = "NODE_ENV=production";
	}
	prod = npm_conf_bool(c, "production");
	n = npm_conf_get(c, "only", vals, &f2);
	if (n && (!strcmp(vals[n - 1], "prod") || !strcmp(vals[n - 1], "production"))) {
		omit = 1;
		from = f2;
	} else if (prod == 1) {
		omit = 1;
		from = "production=true";
	}
	free_vals(vals, n);
	include = npm_conf_has(c, "include", "dev", &set, &f2) || prod == 0 ||
		  npm_conf_bool(c, "dev") == 1;
	n = npm_conf_get(c, "also", vals, &f2);
	include |= n && !strncmp(vals[n - 1], "dev", 3);
	free_vals(vals, n);
	c->omit_dev = omit && !include;
	if (c->omit_dev)
		c->where = xstrdup(from ? from : "npm's config");
}

/* One platform field: npm's setting (--os, --cpu, --libc, arborist's
 * options for optional packages), else this machine's. */
static const char *npm_conf_field(const struct npm_conf *c, const char *key, char *buf,
				  size_t size, const char *mine)
{
	char *vals[NPM_CONF_VALS];
	const char *from;
	size_t n = npm_conf_get(c, key, vals, &from);

	if (n)
		snprintf(buf, size, "%s", vals[n - 1]);
	free_vals(vals, n);
	return n ? buf : mine;
}

static void npm_conf_load(const struct spec *spec, struct npm_conf *c, struct platform *p)
{
	struct lread lr;
	const char *user = getenv("npm_config_userconfig");
	const char *home = getenv("HOME");
	char *upath = NULL;

	memset(c, 0, sizeof(*c));
	if (!user || !*user)
		user = getenv("NPM_CONFIG_USERCONFIG");
	c->have[0] = deps_read(spec->root, ".npmrc", 1, DEPS_META_CAP, &c->rc[0], &lr) == 0;
	if (user && *user)
		upath = xstrdup(user);
	else if (home && *home)
		upath = path_join(home, ".npmrc");
	/* @npmcli/config loadProjectConfig: the project's file is not read
	 * twice when it is the user's */
	if (upath) {
		char *proj = path_join(spec->root, ".npmrc");

		if (strcmp(upath, proj))
			c->have[1] = deps_read(spec->root, upath, 0, DEPS_META_CAP, &c->rc[1],
					       &lr) == 0;
		free(proj);
	}
	free(upath);
	npm_conf_omit(c);
	platform_current(p);
	c->here.os = npm_conf_field(c, "os", c->os, sizeof(c->os), p->os[0] ? p->os : NULL);
	c->here.cpu = npm_conf_field(c, "cpu", c->cpu, sizeof(c->cpu), p->cpu[0] ? p->cpu : NULL);
	c->here.libc = npm_conf_field(c, "libc", c->libc, sizeof(c->libc), p->libc);
}

static void npm_conf_release(struct npm_conf *c)
{
	if (c->have[0])
		blob_release(&c->rc[0]);
	if (c->have[1])
		blob_release(&c->rc[1]);
	free(c->where);
}

/* ---- node_modules ---- */

/* node_modules itself: 0 a directory, else the result is set. */
int deps_node_modules_dir(const struct spec *spec, const struct lock_req *l,
			    struct result *r)
{
	struct stat st;
	char *nm = path_join(spec->root, "node_modules");
	int rc = stat(nm, &st);
	int e = errno;

	free(nm);
	if (rc == 0 && S_ISDIR(st.st_mode))
		return 0;
	if (rc < 0 && e != ENOENT && e != ENOTDIR) {
		result_set(r, STATUS_FAIL, "cannot use node_modules: %s", strerror(e));
		r->reason = REASON_UNREADABLE;
		deps_set_fix(r, l);
		return -1;
	}
	deps_not_installed(r, l, rc == 0 ?
			   "node_modules is not a directory: nothing is installed" :
			   "node_modules does not exist: nothing is installed");
	return -1;
}

/* Which manager's record node_modules holds, for a message. */
const char *deps_installed_by(const struct spec *spec)
{
	static const struct {
		const char *file, *who;
	} marks[] = {
		{ "node_modules/.package-lock.json", "npm" },
		{ "node_modules/.modules.yaml", "pnpm" },
		{ "node_modules/.yarn-state.yml", "yarn" },
	};
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marks); i++) {
		char *p = path_join(spec->root, marks[i].file);
		int found = lstat(p, &st) == 0;

		free(p);
		if (found)
			return marks[i].who;
	}
	return NULL;
}

/* The walk of node_modules as arborist's assertNoNewer does it
 * (npm/cli workspaces/arborist/lib/shrinkwrap.js): every package folder,
 * scoped ones and nested node_modules, symbolic links followed to their
 * targets.  npm trusts its hidden lockfile only when no folder is newer
 * than it (+10 ms), every folder is in it and every entry of it is a
 * folder; otherwise it reads the folders, and so does this probe.
 *
 * The hidden lockfile is parsed on a thread of its own while the walk
 * runs: the walk notes the folders it judges (seen, in its order) and
 * nm_judge judges them once the lockfile is there, so that the first
 * reason is the one a walk against the parsed lockfile would give. */
struct nm_seen {
	char *folder;		/* a node_modules or scope folder (owned), or
				 * NULL: the package folder found.v[pkg] */
	size_t pkg;
	double mtime;
};

struct nm_walk {
	const char *root;
	int rootfd;		/* root, open (O_PATH): the walk goes by
				 * descriptors, each name a step or two long */
	struct dep_set found;	/* key: path from the root; extra: link target */
	const struct dep_set *hidden;	/* or NULL */
	double lock_time;	/* the hidden lockfile's mtime + 10 ms */
	char *distrust;		/* why npm would not trust it (first reason) */
	int note;		/* a hidden lockfile is there: fill seen */
	struct nm_seen *seen;
	size_t nseen, seen_cap;
	double deadline;
	int stopped;		/* the cap or the deadline */
	size_t looked;
};

static void nm_note(struct nm_walk *w, char *folder, size_t pkg, const struct stat *st)
{
	grow(&w->seen, sizeof(*w->seen), &w->seen_cap, w->nseen + 1);
	w->seen[w->nseen].folder = folder;
	w->seen[w->nseen].pkg = pkg;
	w->seen[w->nseen].mtime = mtime_ms(st);
	w->nseen++;
}

static void distrust(struct nm_walk *w, const char *why, const char *path)
{
	struct buf b = BUF_INIT;

	if (w->distrust)
		return;
	buf_printf(&b, "%s: ", why);
	buf_add_clean(&b, path);
	w->distrust = buf_detach(&b);
}

/* The folders the walk noted, against the parsed hidden lockfile, in
 * the walk's order. */
static void nm_judge(struct nm_walk *w)
{
	size_t i;

	for (i = 0; i < w->nseen && !w->distrust; i++) {
		const struct nm_seen *e = &w->seen[i];
		const char *rel = e->folder ? e->folder : w->found.v[e->pkg].key;

		if (e->mtime > w->lock_time)
			distrust(w, "out of date, updated", rel);
		else if (!e->folder && !dep_set_get(w->hidden, rel))
			distrust(w, "missing from lockfile", rel);
	}
}

static void nm_walk_release(struct nm_walk *w)
{
	size_t i;

	for (i = 0; i < w->nseen; i++)
		free(w->seen[i].folder);
	free(w->seen);
	free(w->distrust);
	dep_set_release(&w->found);
}

static void walk_nm(struct nm_walk *w, int dfd, const char *name, const char *rel,
		    unsigned depth);

/* a "/" b, a new string (the walk makes thousands: no printf) */
static char *join3(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = xmalloc(la + lb + 2);

	memcpy(s, a, la);	/* NOLINT(bugprone-not-null-terminated-result): */
	s[la] = '/';		/* the second copy brings b's terminator */
	memcpy(s + la + 1, b, lb + 1);
	return s;
}

/* real (a canonical path) relative to root, as npm's relpath writes it
 * ("packages/a", "../lib"): a new string, or NULL for root itself. */
static char *rel_path(const char *root, const char *real)
{
	size_t common = 0, i, up = 0;
	struct buf b = BUF_INIT;

	if (path_is_inside(real, root))
		return strlen(real) > strlen(root) ? xstrdup(real + strlen(root) + 1) : NULL;
	for (i = 0; root[i] && root[i] == real[i]; i++)
		if (root[i] == '/')
			common = i;
	if (!root[i] && real[i] == '/')
		common = i;
	for (i = common; root[i]; i++)
		up += root[i] == '/' && root[i + 1];
	if (!strcmp(root, "/"))
		up = 0;
	while (up--)
		buf_puts(&b, "../");
	buf_puts(&b, real + common + (real[common] == '/'));
	return buf_detach(&b);
}

/* One package folder at rel (a directory or a link to one), which is
 * name below the open directory dfd. */
static void walk_pkg(struct nm_walk *w, int dfd, const char *name, const char *rel,
		     unsigned depth)
{
	struct stat st, tst;
	struct dep *d;
	char *sub, *subname, *target;

	if (++w->looked > DEPS_WALK_MAX || clock_ms() > w->deadline) {
		w->stopped = 1;
		return;
	}
	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return;
	if (S_ISLNK(st.st_mode)) {
		char real[PATH_MAX];
		char *abs = path_join(w->root, rel);
		int ok = realpath(abs, real) && stat(real, &tst) == 0 && S_ISDIR(tst.st_mode);

		free(abs);
		if (!ok)
			return;
		d = dep_set_add(&w->found, rel, deps_npm_path_name(rel), NULL, DEP_LINK);
		if ((target = rel_path(w->root, real))) {
			d->extra = target;
			/* a workspace, or a file: folder beside the project
			 * ("../lib", as the lockfile keys it): walked once, as
			 * its own folder, as shrinkwrap.js assertNoNewer
			 * follows every link */
			if (!dep_set_get(&w->found, target) && depth < DEPS_WALK_DEPTH)
				walk_pkg(w, w->rootfd, target, target, depth + 1);
		}
		return;
	}
	if (!S_ISDIR(st.st_mode))
		return;
	d = dep_set_add(&w->found, rel, deps_npm_path_name(rel), NULL, 0);
	if (w->note)
		nm_note(w, NULL, (size_t)(d - w->found.v), &st);
	if (depth < DEPS_WALK_DEPTH) {
		sub = join3(rel, "node_modules");
		subname = join3(name, "node_modules");
		walk_nm(w, dfd, subname, sub, depth + 1);
		free(subname);
		free(sub);
	}
}

/* A node_modules folder (or a scope inside one) at rel, which is name
 * below the open directory dfd. */
static void walk_nm(struct nm_walk *w, int dfd, const char *name, const char *rel,
		    unsigned depth)
{
	int fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	size_t n = 0, i;
	char **names;
	struct stat st;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	names = deps_list_entries(dir, &n);
	if (names && w->note && strcmp(rel, "node_modules") && fstat(fd, &st) == 0)
		nm_note(w, xstrdup(rel), 0, &st);
	for (i = 0; names && i < n; i++) {
		char *child = join3(rel, names[i]);

		if (!w->stopped) {
			if (names[i][0] == '@' && depth < DEPS_WALK_DEPTH)
				walk_nm(w, fd, names[i], child, depth + 1);
			else
				walk_pkg(w, fd, names[i], child, depth);
		}
		free(child);
		free(names[i]);
	}
	free(names);
	closedir(dir);	/* and fd */
}

/* "KEY/package.json" of found package i; NULL for a link (its target
 * is a folder of its own). */
static const char *pkg_json(const struct many_read *m, size_t i, char *buf, size_t size)
{
	const struct nm_walk *w = m->arg;
	const struct dep *d = &w->found.v[i];

	if ((d->flags & DEP_LINK) ||
	    (size_t)snprintf(buf, size, "%s/package.json", d->key) >= size)
		return NULL;
	return buf;
}

static void pkg_json_take(const struct many_read *m, size_t i, const struct blob *b)
{
	const struct nm_walk *w = m->arg;

	struct dep *d = &w->found.v[i];

	d->version = deps_npm_package_version(b->data, b->len);
	if (!d->version)
		d->extra = xstrdup("its package.json has no version");
}

/* Folders whose version could not be read, said as what they are (a
 * folder without package.json: arborist loadActual makes it a node of
 * no version, which npm replaces); not a version to compare. */
static void unread_versions(struct nm_walk *w)
{
	size_t i;

	for (i = 0; i < w->found.n; i++) {
		struct dep *d = &w->found.v[i];

		if ((d->flags & DEP_LINK) || d->version)
			continue;
		d->flags |= DEP_NO_VERSION;
		if (!d->extra)
			d->extra = xstrdup("a folder without package.json");
	}
}

/* The versions of the folders found, from their package.json files. */
static void read_versions(struct nm_walk *w)
{
	struct many_read m;

	memset(&m, 0, sizeof(m));
	m.n = w->found.n;
	m.name = pkg_json;
	m.take = pkg_json_take;
	m.arg = w;
	m.deadline = w->deadline;
	if (deps_many_read_run(&m, w->root) < 0)
		w->stopped = 1;
	else
		unread_versions(w);
}

/* The installed side of npm: the hidden lockfile when npm would trust
 * it, else the folders' package.json files.  Fills w (and hidden);
 * returns 1 trusted, 0 not, -1 with the result set. */
static int npm_installed(const struct run_ctx *ctx, const struct lock_req *l,
			 const struct npm_job_arg *arg, struct nm_walk *w,
			 struct dep_set *hidden, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct parse_job job;
	struct blob b;
	struct lread lr;
	struct stat st;
	int have_file = 0, have_hidden = 0;
	const char *by;
	char *hpath;
	size_t i;

	w->root = spec->root;
	w->deadline = ctx->deadline_ms;
	hpath = path_join(spec->root, "node_modules/.package-lock.json");
	if (stat(hpath, &st) == 0 &&
	    deps_read(spec->root, "node_modules/.package-lock.json", 0, DEPS_LOCK_CAP, &b,
		      &lr) == 0) {
		/* parsed while node_modules is walked */
		memset(&job, 0, sizeof(job));
		job.fn = npm_job;
		job.b = &b;
		job.out = hidden;
		job.arg = arg;
		deps_parse_job_start(&job);
		have_file = w->note = 1;
	}
	free(hpath);
	/* with a hidden lockfile there, installed_by says npm */
	if (!have_file && (by = deps_installed_by(spec)) && strcmp(by, "npm")) {
		result_set(r, STATUS_FAIL, "node_modules was installed by %s "
			   "(node_modules/.%s), not by npm", by,
			   !strcmp(by, "pnpm") ? "modules.yaml" : "yarn-state.yml");
		r->reason = REASON_OUT_OF_DATE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
		return -1;
	}
	w->rootfd = open(spec->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->rootfd >= 0) {
		walk_nm(w, w->rootfd, "node_modules", "node_modules", 0);
		close(w->rootfd);
	}
	if (have_file) {
		if (deps_parse_job_finish(&job) == 0) {
			have_hidden = 1;
			w->hidden = hidden;
			w->lock_time = mtime_ms(&st) + 10;
			nm_judge(w);
		} else {
			w->distrust = xstrdup("it cannot be parsed");
		}
		blob_release(&b);
	}
	for (i = 0; have_hidden && !w->distrust && i < hidden->n; i++)
		if (!dep_set_get(&w->found, hidden->v[i].key))
			distrust(w, "missing from node_modules", hidden->v[i].key);
	if (!w->stopped && (!have_hidden || w->distrust))
		read_versions(w);
	if (w->stopped) {
		result_set(r, STATUS_ERROR, "node_modules not compared: more than %d package "
			   "folders, or the deadline came first", DEPS_WALK_MAX);
		r->reason = REASON_TIMEOUT;
		return -1;
	}
	return have_hidden && !w->distrust;
}

/* ---- package.json files against the lockfile's importers ---- */

/* The first difference between a package.json and the lockfile, as
 * the message says it and data.outdated_lockfile carries it (every
 * string owned, NULL where there is none). */
struct npm_outdated {
	int found;
	char *importer;		/* "." or the lockfile's key ("packages/a") */
	char *file;		/* the package.json at fault */
	char *field, *name, *manifest, *lockfile, *locked;
	struct buf why;		/* "NAME: ..." for the message */
	int folder;		/* a range a folder of the project does not
				 * meet: no relock mends that */
};

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* Records the first difference (strings copied); parts: the words of
 * the message after "NAME: ", NULL-ended. */
static void outdated_note(struct npm_outdated *o, const char *importer, const char *file,
			  const char *field, const char *name, const char *manifest,
			  const char *lockfile, const char *locked, const char *const *parts)
{
	if (o->found++)
		return;
	o->importer = xstrdup(*importer ? importer : ".");
	o->file = xstrdup(file);
	o->field = dup_or_null(field);
	o->name = xstrdup(name);
	o->manifest = dup_or_null(manifest);
	o->lockfile = dup_or_null(lockfile);
	o->locked = dup_or_null(locked);
	buf_add_clean(&o->why, name);
	buf_puts(&o->why, ": ");
	for (; *parts; parts++)
		buf_add_clean(&o->why, *parts);
}

static void outdated_release(struct npm_outdated *o)
{
	free(o->importer);
	free(o->file);
	free(o->field);
	free(o->name);
	free(o->manifest);
	free(o->lockfile);
	free(o->locked);
	buf_release(&o->why);
}

/* Where a dependency of the folder at importer resolves in the lockfile:
 * its own node_modules, then those of the importers it is inside, the
 * root's last (arborist node.js resolve() walks resolveParent, the
 * parent or else the fsParent, the folder holding it). */
static const struct dep *npm_resolve(const struct dep_set *want,
				     struct npm_importers *imp,
				     const char *importer, const char *name)
{
	char *dir = xstrdup(importer), *slash;
	const struct dep *node = NULL;

	for (;;) {
		if (!*dir || npm_importer_find(imp, dir)) {
			char *nm = *dir ? join3(dir, "node_modules") : xstrdup("node_modules");
			char *key = join3(nm, name);

			node = dep_set_get(want, key);
			free(key);
			free(nm);
			if (node || !*dir)
				break;
		}
		slash = strrchr(dir, '/');
		if (slash)
			*slash = '\0';
		else
			*dir = '\0';
	}
	free(dir);
	return node;
}

/* A lockfile key that names a folder of the project itself is one
 * path_rel_inside takes (a file: folder outside is not arborist's to
 * check: build-ideal-tree.js #resolveLinks leaves a link target outside
 * the root alone). */

/* The version in the package.json of a folder of the project a link
 * leads to (a workspace, a file: folder; a new string or NULL): arborist
 * load-virtual.js #resolveLinks reads it from the disk, not the
 * lockfile, "because they can be changed by the local user". */
static char *npm_link_version(const struct spec *spec, const char *dir)
{
	char *file = path_join(dir, "package.json"), *v = NULL;
	struct lread lr;
	struct blob b;

	if (deps_read(spec->root, file, 1, DEPS_META_CAP, &b, &lr) == 0) {
		v = deps_npm_package_version(b.data, b.len);
		blob_release(&b);
	}
	free(file);
	return v;
}

/* One folder's package.json (manifest) against its importer entry
 * (specs): what `npm ci` refuses, "not in sync" (npm/cli
 * lib/commands/ci.js: validateLockfile, lib/utils/validate-lockfile.js,
 * compares the inventory of the tree arborist builds from the
 * package.json files and the lockfile with the lockfile's own; arborist
 * build-ideal-tree.js #problemEdges re-resolves an edge with no package
 * or one that does not meet its spec, dep-valid.js, and the package it
 * then places is "Missing" or "Invalid").  A spec written as locked, or
 * met by the package it resolves to, is no problem: npm ci accepts it.
 * A dependency removed from package.json is not refused, but npm ci then
 * leaves its package out while the lockfile still names it (the dry run
 * says "remove"): only relocking ends that too. */
static void npm_sync(const struct spec *spec, const struct dep_set *manifest,
		     const struct npm_importer *imp, struct npm_importers *all,
		     const struct dep_set *want, const char *file, struct npm_outdated *o)
{
	const struct dep_set *specs = &imp->specs;
	size_t i;

	for (i = 0; i < manifest->n && !o->found; i++) {
		const struct dep *d = &manifest->v[i], *r = dep_set_get(specs, d->key), *node;
		const char *version, *real, *wants = d->version ? d->version : "";
		char *disk = NULL;
		int same = r && r->version && d->version && !strcmp(r->version, d->version);
		int folder, met;

		node = npm_resolve(want, all, imp->path, d->key);
		folder = node && (node->flags & DEP_LINK) && node->extra && path_rel_inside(node->extra);
		/* a spec as it was locked resolves as it did, but for a
		 * folder of the project, whose version is its own */
		if (same && !folder)
			continue;
		if (!node) {
			/* an optional or peer dependency not locked is not
			 * installed either (peerOptional, another platform's) */
			if (!r && (d->flags & DEP_OPTIONAL))
				continue;
			outdated_note(o, imp->path, file, d->extra, d->key, d->version,
				      r ? r->version : NULL, NULL, (const char *const[]){
				      wants, " in ", file, ", not in the lockfile", NULL });
			continue;
		}
		version = node->version;
		if (folder && (disk = npm_link_version(spec, node->extra))) {
			version = disk;
		} else if ((node->flags & DEP_LINK) && node->extra) {
			const struct dep *t = dep_set_get(want, node->extra);

			version = t ? t->version : NULL;
		}
		real = node->flags & DEP_ALIAS ? node->extra : node->name;
		met = deps_npm_spec_met(wants, version, real);
		/* no importer entry (lockfileVersion 1): nothing to hold a
		 * file: or git spec against */
		if (met == 1 || (met < 0 && (same || !specs->n))) {
			free(disk);
			continue;
		}
		if (met == 0 && version && disk && !o->found) {
			o->folder = 1;
			outdated_note(o, imp->path, file, d->extra, d->key, d->version,
				      r ? r->version : NULL, version, (const char *const[]){
				      file, " wants ", wants, ", ", node->extra,
				      "/package.json has ", version, NULL });
		} else if (met == 0 && version)
			outdated_note(o, imp->path, file, d->extra, d->key, d->version,
				      r ? r->version : NULL, version, (const char *const[]){
				      file, " wants ", wants, ", the lockfile has ", version, NULL });
		else
			outdated_note(o, imp->path, file, d->extra, d->key, d->version,
				      r ? r->version : NULL, version, (const char *const[]){
				      file, " wants ", wants, ", the lockfile was made for ",
				      r && r->version ? r->version : "another spec", NULL });
		free(disk);
	}
	for (i = 0; i < specs->n && !o->found; i++)
		if (!dep_set_get(manifest, specs->v[i].key))
			outdated_note(o, imp->path, file, specs->v[i].extra, specs->v[i].key,
				      NULL, specs->v[i].version, NULL, (const char *const[]){
				      "in the lockfile, no longer in ", file, NULL });
}

/* The top-level link of want to the folder at path, or NULL. */
static const struct dep *npm_link_to(const struct dep_set *want, const char *path)
{
	size_t i;

	for (i = 0; i < want->n; i++) {
		const struct dep *d = &want->v[i];

		if ((d->flags & DEP_LINK) && d->extra && !strcmp(d->extra, path) &&
		    !strncmp(d->key, "node_modules/", 13) && !strchr(d->key + 13 +
		    (d->key[13] == '@' ? strcspn(d->key + 13, "/") + 1 : 0), '/'))
			return d;
	}
	return NULL;
}

/* The package.json at file (a new set in m): 0, or -1 unreadable (npm
 * keeps the lockfile's word then: load-virtual.js catches the read). */
static int npm_read_manifest(const struct spec *spec, const char *file, struct dep_set *m)
{
	struct parse_error e;
	struct lread lr;
	struct blob b;
	int rc;

	if (deps_read(spec->root, file, 1, DEPS_META_CAP, &b, &lr) < 0)
		return -1;
	rc = deps_npm_manifest(b.data, b.len, m, &e);
	blob_release(&b);
	return rc;
}

/* Whether dir is one of package.json's workspaces now. */
static int npm_is_workspace(const struct spec_workspaces *ws, const char *dir)
{
	size_t i;

	for (i = 0; i < ws->n; i++)
		if (ws->sources[ws->v[i].source].kind == WS_NPM && !strcmp(ws->v[i].dir, dir))
			return 1;
	return 0;
}

/* The workspaces of package.json against those the lockfile has: a new
 * one is refused by npm ci (its link is "Missing" from the lockfile:
 * the root's workspace edge, arborist node.js, has nothing to resolve
 * to); one no longer listed is left out by npm ci (nothing reaches its
 * link, build-ideal-tree.js prunes it) while the lockfile keeps it.
 * root: the root's package.json specs (a file: folder's link is the
 * root's dependency, not a workspace). */
static void npm_sync_workspaces(const struct spec *spec, struct npm_importers *imp,
				const struct dep_set *want, const struct dep_set *root,
				struct npm_outdated *o)
{
	const struct spec_workspaces *ws = spec->workspaces;
	size_t i;

	if (!ws)
		return;
	/* pnpm-workspace.yaml's list is not npm's, which then was not read
	 * (spec_workspaces.c); a capped discovery is not all of it */
	for (i = 0; i < ws->nsources; i++)
		if (ws->sources[i].kind == WS_PNPM)
			return;
	for (i = 0; i < ws->nfindings; i++)
		if (ws->findings[i].kind == WS_CAPPED)
			return;
	for (i = 0; i < ws->n && !o->found; i++) {
		const struct workspace *w = &ws->v[i];

		if (ws->sources[w->source].kind != WS_NPM || npm_importer_find(imp, w->dir) ||
		    dep_set_get(want, w->dir))
			continue;
		outdated_note(o, w->dir, "package.json", "workspaces", w->dir, w->dir, NULL,
			      NULL, (const char *const[]){ "a workspace of package.json, not "
			      "in the lockfile", NULL });
	}
	for (i = 0; i < imp->n && !o->found; i++) {
		const struct npm_importer *x = &imp->v[i];
		const struct dep *link, *entry = dep_set_get(want, x->path);

		if (!path_rel_inside(x->path) || !(link = npm_link_to(want, x->path)) ||
		    dep_set_get(root, link->name) || npm_is_workspace(ws, x->path) ||
		    (entry && (entry->flags & DEP_OPTIONAL)))
			continue;
		outdated_note(o, x->path, "package.json", "workspaces", x->path, NULL, x->path,
			      NULL, (const char *const[]){ "a workspace in the lockfile, no "
			      "longer of package.json", NULL });
	}
}

/* The first difference of any package.json the lockfile keeps specs of
 * (the root's, then every folder of the project a link leads to: the
 * workspaces, file: folders, whose package.json arborist reads from the
 * disk, load-virtual.js #resolveLinks) and of the workspace list. */
static void npm_find_outdated(const struct spec *spec, struct npm_importers *imp,
			      const struct dep_set *want, struct npm_outdated *o)
{
	struct dep_set root = DEP_SET_INIT;
	static const struct npm_importer none = { (char *)"", DEP_SET_INIT };
	const struct npm_importer *ri = npm_importer_find(imp, "");
	size_t i;

	if (npm_read_manifest(spec, "package.json", &root) < 0) {
		dep_set_release(&root);
		return;
	}
	npm_sync(spec, &root, ri ? ri : &none, imp, want, "package.json", o);
	for (i = 0; i < imp->n && !o->found; i++) {
		const struct npm_importer *x = &imp->v[i];
		struct dep_set m = DEP_SET_INIT;
		char *file;

		if (!path_rel_inside(x->path) || !npm_link_to(want, x->path))
			continue;
		file = path_join(x->path, "package.json");
		if (npm_read_manifest(spec, file, &m) == 0)
			npm_sync(spec, &m, x, imp, want, file, o);
		dep_set_release(&m);
		free(file);
	}
	/* lockfileVersion 1 keeps no workspaces */
	if (ri)
		npm_sync_workspaces(spec, imp, want, &root, o);
	dep_set_release(&root);
}

static void add_str_or_null(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

/* The model's own copy of the file name (it outlives the result), or
 * NULL: the repository's files, then each workspace's below its
 * directory. */
static const char *spec_file_named(const struct spec *spec, const char *name)
{
	const struct spec_workspaces *ws = spec->workspaces;
	size_t i, j, n;

	for (i = 0; i < spec->nfiles; i++)
		if (!strcmp(spec->files[i], name))
			return spec->files[i];
	for (i = 0; ws && i < ws->n; i++) {
		const struct spec *w = &ws->v[i].spec;

		n = strlen(ws->v[i].dir);
		if (!ws->v[i].loaded || strncmp(name, ws->v[i].dir, n) || name[n] != '/')
			continue;
		for (j = 0; j < w->nfiles; j++)
			if (!strcmp(w->files[j], name))
				return w->files[j];
	}
	return NULL;
}

/* A package.json out of sync with the lockfile: `npm ci` refuses (or
 * leaves out what the lockfile still names), and only a relock clears
 * it.  Returns 1 with r set, else 0. */
static int npm_check_sync(const struct spec *spec, const struct lock_req *l,
			  struct npm_importers *imp, const struct dep_set *want,
			  struct result *r)
{
	struct npm_outdated o;
	cJSON *d;

	memset(&o, 0, sizeof(o));
	npm_find_outdated(spec, imp, want, &o);
	if (o.found) {
		cJSON_Delete(r->data);
		result_set(r, STATUS_FAIL, "%s and %s are not in sync: %s", o.file,
			   l->origin.file, buf_str(&o.why));
		r->reason = REASON_OUT_OF_DATE;
		r->data = deps_data_new(l, NULL);
		d = cJSON_AddObjectToObject(r->data, "outdated_lockfile");
		cJSON_AddStringToObject(d, "importer", o.importer);
		cJSON_AddStringToObject(d, "manifest_file", o.file);
		add_str_or_null(d, "field", o.field);
		cJSON_AddStringToObject(d, "name", o.name);
		add_str_or_null(d, "manifest", o.manifest);
		add_str_or_null(d, "lockfile", o.lockfile);
		add_str_or_null(d, "locked", o.locked);
		if (o.folder) {
			/* arborist would look for the package elsewhere (the
			 * registry) rather than link the folder: a person
			 * decides, the range or the folder's version */
			const char *f = spec_file_named(spec, o.file);

			if (f)
				result_fix_edit(r, f, 0);
			result_hint(r, "the range in %s is not met by the folder it names: "
				    "npm would not link it (npm ci refuses, npm install "
				    "fetches the package from the registry); change the range "
				    "or the folder's version, then run npm install to relock",
				    o.file);
		} else {
			/* the relock, said as such: npm ci never writes the
			 * lockfile */
			result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "npm", "install",
					(char *)NULL);
			deps_relock_writes(r, l);
			result_hint(r, "run npm install to update %s from %s (a relock: "
				    "npm ci refuses a lockfile out of sync, or leaves out what "
				    "package.json no longer names, and never writes the "
				    "lockfile), then commit it", l->origin.file, o.file);
		}
	}
	outdated_release(&o);
	return o.found > 0;
}

/* The data of an override finding, as outdated_lockfile carries it. */
static void npm_override_data(struct result *r, const struct lock_req *l, const char *importer,
			      const char *name, const char *manifest, const char *lockfile,
			      const char *locked)
{
	cJSON *d;

	cJSON_Delete(r->data);
	r->data = deps_data_new(l, NULL);
	d = cJSON_AddObjectToObject(r->data, "outdated_lockfile");
	cJSON_AddStringToObject(d, "importer", importer);
	cJSON_AddStringToObject(d, "manifest_file", "package.json");
	cJSON_AddStringToObject(d, "field", "overrides");
	cJSON_AddStringToObject(d, "name", name);
	add_str_or_null(d, "manifest", manifest);
	add_str_or_null(d, "lockfile", lockfile);
	add_str_or_null(d, "locked", locked);
}

/* package.json's overrides (only the root's: arborist reads them from
 * the root node alone, node.js loadOverrides) against the lockfile.
 * Before the sync check: a rule npm refuses outright (EOVERRIDE), which
 * no relock mends.  Returns 1 with r set. */
static int npm_check_eoverride(const struct spec *spec, const struct lock_req *l,
			       const struct npm_overrides *o, struct result *r)
{
	const char *f;

	if (!o->direct_name)
		return 0;
	/* arborist node.js assertRootOverrides, run by loadVirtual (npm ci
	 * then says only that it needs a lockfile) and by npm install
	 * (EOVERRIDE): an override of a direct dependency must be its spec */
	result_set(r, STATUS_FAIL, "package.json: overrides: %s: the override (%s) conflicts "
		   "with the direct dependency (%s: %s): npm refuses it (EOVERRIDE)",
		   o->direct_name, o->direct_value, o->direct_field, o->direct_spec);
	r->reason = REASON_OUT_OF_DATE;
	npm_override_data(r, l, ".", o->direct_name, o->direct_value, o->direct_spec, NULL);
	if ((f = spec_file_named(spec, "package.json")))
		result_fix_edit(r, f, 0);
	result_hint(r, "npm ci and npm install both refuse an override of a direct dependency "
		    "that is not its spec: make the override the same as %s's spec in %s "
		    "(or \"$%s\"), or change the dependency itself, then run npm install",
		    o->direct_name, o->direct_field, o->direct_name);
	return 1;
}

/* ---- what the registry holds, as npm's cache says ---- */

/* The npm_registry of the overrides check: the packument npm last
 * fetched, from its cache (config `cache`, default ~/.npm, and its
 * _cacache: @npmcli/config definitions.js, flatOptions.cache), for the
 * registry a name is fetched from (`@scope:registry`, else `registry`:
 * npm-registry-fetch getRegistry; pacote registry.js packumentUrl), with
 * the default dist-tag (`tag`).  Not known with `before` set (npm then
 * picks by date).  Answers are kept until the check returns. */
struct npm_reg {
	const struct npm_conf *conf;
	char *cacache;		/* NULL: not known */
	char tag[128];
	char **kept;
	size_t nkept;
};

static const char *npm_reg_pick(void *ctx, const char *name, const char *range)
{
	struct npm_reg *g = ctx;
	char val[1024], key[300];
	const char *reg = NULL, *slash;
	struct buf url = BUF_INIT;
	struct blob b;
	char *v = NULL;
	size_t n;

	if (!g->cacache || g->nkept >= 64)
		return NULL;
	if (name[0] == '@' && (slash = strchr(name, '/'))) {
		snprintf(key, sizeof(key), "%.*s:registry", (int)(slash - name), name);
		reg = npm_conf_field(g->conf, key, val, sizeof(val), NULL);
	}
	if (!reg)
		reg = npm_conf_field(g->conf, "registry", val, sizeof(val),
				     "https://registry.npmjs.org/");
	n = strlen(reg);
	while (n && reg[n - 1] == '/')
		n--;
	buf_printf(&url, "%.*s/", (int)n, reg);
	/* npa's escapedName: the scope's slash as %2f */
	for (; *name; name++) {
		if (*name == '/')
			buf_puts(&url, "%2f");
		else
			buf_putc(&url, *name);
	}
	if (npm_cache_packument(g->cacache, buf_str(&url), &b) == 0) {
		v = deps_npm_pick(b.data, b.len, range, g->tag);
		blob_release(&b);
	}
	buf_release(&url);
	if (v) {
		g->kept = xrealloc(g->kept, (g->nkept + 1) * sizeof(*g->kept));
		g->kept[g->nkept++] = v;
	}
	return v;
}

static void npm_reg_init(struct npm_reg *g, const struct npm_conf *conf)
{
	char val[PATH_MAX], before[64];
	const char *cache = npm_conf_field(conf, "cache", val, sizeof(val), NULL);
	const char *home = getenv("HOME");

	memset(g, 0, sizeof(*g));
	g->conf = conf;
	npm_conf_field(conf, "tag", g->tag, sizeof(g->tag), NULL);
	if (!g->tag[0])
		snprintf(g->tag, sizeof(g->tag), "latest");
	if (npm_conf_field(conf, "before", before, sizeof(before), NULL) && before[0])
		return;
	/* a path setting: "~/" is the home directory (@npmcli/config
	 * type-defs path) */
	if (cache && !strncmp(cache, "~/", 2) && home && *home) {
		char *c = path_join(home, cache + 2);

		g->cacache = path_join(c, "_cacache");
		free(c);
	} else if (cache && cache[0] == '/')
		g->cacache = path_join(cache, "_cacache");
	else if (!cache && home && *home)
		g->cacache = path_join(home, ".npm/_cacache");
}

static void npm_reg_release(struct npm_reg *g)
{
	while (g->nkept)
		free(g->kept[--g->nkept]);
	free(g->kept);
	free(g->cacache);
}

/* An edge of the locked tree that the overrides make invalid: npm ci
 * re-resolves it and refuses the lockfile (or leaves out a package it
 * names); a relock clears it.  Returns 1 with r set. */
static int npm_check_overrides(const struct lock_req *l, const struct blob *lock,
			       const struct npm_overrides *o, const struct npm_conf *conf,
			       struct npm_override_miss *maybe, struct result *r)
{
	struct npm_override_miss m;
	struct npm_registry reg;
	struct npm_reg g;
	struct buf why = BUF_INIT;
	int rc;

	npm_reg_init(&g, conf);
	reg.pick = npm_reg_pick;
	reg.ctx = &g;
	rc = deps_npm_overrides_check(lock->data, lock->len, o, &reg, &m);
	npm_reg_release(&g);
	if (rc == 2)
		*maybe = m;
	if (rc != 1)
		return 0;
	buf_add_clean(&why, m.name);
	if (!o->n) {
		/* no rule now: the lockfile was made under one */
		buf_puts(&why, ": ");
		buf_add_clean(&why, *m.from ? deps_npm_path_name(m.from) : "the root");
		buf_puts(&why, " wants ");
		buf_add_clean(&why, m.spec);
		buf_puts(&why, ", the lockfile has ");
		buf_add_clean(&why, m.locked ? m.locked : "no version");
		buf_puts(&why, " (package.json has no overrides that allow it: removed since "
			 "the last relock?)");
	} else {
		buf_puts(&why, ": package.json's overrides make ");
		buf_add_clean(&why, *m.from ? deps_npm_path_name(m.from) : "the root");
		buf_puts(&why, "'s ");
		buf_add_clean(&why, m.spec);
		buf_puts(&why, " into ");
		buf_add_clean(&why, m.want);
		buf_puts(&why, ", the lockfile has ");
		buf_add_clean(&why, m.locked ? m.locked : "no version");
	}
	result_set(r, STATUS_FAIL, "package.json and %s are not in sync: %s", l->origin.file,
		   buf_str(&why));
	r->reason = REASON_OUT_OF_DATE;
	npm_override_data(r, l, ".", m.name, m.want, m.spec, m.locked);
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "npm", "install", (char *)NULL);
	deps_relock_writes(r, l);
	result_hint(r, "run npm install to update %s from package.json's overrides (a relock: "
		    "the lockfile keeps no record of the overrides it was made with, npm ci "
		    "refuses a lockfile they no longer fit and never writes it), then commit it",
		    l->origin.file);
	buf_release(&why);
	npm_override_miss_release(&m);
	return 1;
}

/* An edge the overrides make invalid whose fate is the registry's to
 * say, npm's cache not saying it (deps_npm_overrides_check's 2): npm
 * re-resolves it, and keeps the lockfile as it is only when the
 * registry's pick in the range is the copy above.  A pass becomes a
 * warning; npm install asks the registry, relocks if it must, and leaves
 * the answer in its cache, which this check then reads. */
static void npm_override_maybe(struct result *r, const struct lock_req *l,
			       const struct npm_override_miss *m)
{
	struct buf why = BUF_INIT;

	buf_add_clean(&why, m->name);
	buf_puts(&why, ": package.json's overrides make ");
	buf_add_clean(&why, *m->from ? deps_npm_path_name(m->from) : "the root");
	buf_puts(&why, "'s ");
	buf_add_clean(&why, m->spec);
	buf_puts(&why, " into ");
	buf_add_clean(&why, m->want);
	buf_puts(&why, ", the lockfile has ");
	buf_add_clean(&why, m->locked ? m->locked : "no version");
	buf_puts(&why, " there: npm keeps the lockfile only if the registry's newest ");
	buf_add_clean(&why, m->want);
	buf_puts(&why, " is ");
	buf_add_clean(&why, m->above ? m->above : "the copy above");
	buf_puts(&why, ", the copy above, and npm's cache here does not say");
	if (r->status != STATUS_PASS) {
		result_note(r, "%s", buf_str(&why));
		buf_release(&why);
		return;
	}
	result_set(r, STATUS_WARN, "%s", buf_str(&why));
	r->reason = REASON_UNDECIDED;
	npm_override_data(r, l, ".", m->name, m->want, m->spec, m->locked);
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "npm", "install", (char *)NULL);
	result_hint(r, "run npm install: it asks the registry, relocks %s if %s has a newer "
		    "version (then commit it), and leaves the answer in npm's cache, which this "
		    "check reads", l->origin.file, m->want);
	buf_release(&why);
}

/* The root package.json's overrides into o: 0, or -1 (none read). */
static int npm_read_overrides(const struct spec *spec, struct npm_overrides *o)
{
	struct parse_error e;
	struct lread lr;
	struct blob b;
	int rc;

	memset(o, 0, sizeof(*o));
	if (deps_read(spec->root, "package.json", 1, DEPS_META_CAP, &b, &lr) < 0)
		return -1;
	rc = deps_npm_overrides(b.data, b.len, o, &e);
	blob_release(&b);
	return rc;
}

/* Whether package.json was written after the lockfile l, by more than
 * NPM_NEWER_S seconds: an override removed since the last relock leaves
 * the lockfile as it was, and the tree is then judged with no rule (edges
 * the override made valid are not any more: npm ci re-resolves them and
 * refuses).  Judging every edge of a large lockfile costs a third of the
 * check, so it is done only then.  A relock writes the lockfile, and a
 * checkout writes the two within moments of each other (package.json
 * last: git's index order), so neither pays it; an edit of package.json
 * since, or a pull that changed it alone, does. */
#define NPM_NEWER_S 2

static int npm_manifest_newer(const struct spec *spec, const struct lock_req *l)
{
	struct stat pj, lk;
	char *a = path_join(spec->root, "package.json"), *b = path_join(spec->root, l->origin.file);
	int newer = stat(a, &pj) == 0 && stat(b, &lk) == 0 &&
		    pj.st_mtim.tv_sec > lk.st_mtim.tv_sec + NPM_NEWER_S;

	free(a);
	free(b);
	return newer;
}

/* What npm wants installed here, from what the lockfile says: dev
 * packages left out under omit=dev; a link target (a workspace, a
 * file: folder) compared by where the link points, not by its version,
 * which is the folder's own package.json (arborist lib/diff.js compares
 * a Link by its target, and npm ci leaves a bumped workspace as it
 * is). */
static size_t npm_wantshere(struct dep_set *want, int omit_dev)
{
	size_t i, dev = 0;

	for (i = 0; i < want->n; i++) {
		struct dep *d = &want->v[i];

		if ((d->flags & DEP_LINK) && d->extra) {
			struct dep *t = (struct dep *)dep_set_get(want, d->extra);

			if (t) {
				free(t->version);
				t->version = NULL;
			}
		}
		/* arborist build-ideal-tree.js: node.shouldOmit(omitSet);
		 * reify leaves them out */
		if (omit_dev && (d->flags & DEP_DEV)) {
			dev += !(d->flags & DEP_OPTIONAL);
			d->flags |= DEP_OPTIONAL | DEP_NOT_HERE;
		}
	}
	return dev;
}

/* A folder of the project a link leads to (a workspace) is walked
 * through its link only: with the link gone it is not seen, though it is
 * there, and the link's own item says what npm would do (re-link it).
 * Such targets are left out of the comparison (DEP_OPTIONAL), so that a
 * deleted workspace link is listed once. */
static void npm_unlinked_targets(struct dep_set *want, const struct dep_set *have)
{
	size_t i;

	for (i = 0; i < want->n; i++) {
		const struct dep *d = &want->v[i];
		struct dep *t;

		if (!(d->flags & DEP_LINK) || !d->extra || dep_set_get(have, d->key) ||
		    !(t = (struct dep *)dep_set_get(want, d->extra)) || dep_set_get(have, t->key))
			continue;
		t->flags |= DEP_OPTIONAL;
	}
}

/* Packages installed that npm leaves out here (DEP_NOT_HERE): extras
 * with their lockfile entry, a warning as other extras are; reify
 * removes them (arborist build-ideal-tree.js: inert and omitted nodes
 * are not in the ideal tree, and lib/diff.js REMOVEs what only the
 * actual tree has).  Added to d after its other items. */
static void npm_not_here(const struct dep_set *want, const struct dep_set *have,
			 struct dep_diff *d)
{
	size_t i;

	for (i = 0; i < want->n; i++) {
		const struct dep *w = &want->v[i], *h;

		if (!(w->flags & DEP_NOT_HERE) || !(h = dep_set_get(have, w->key)))
			continue;
		grow(&d->v, sizeof(*d->v), &d->cap, d->n + 1);
		d->v[d->n].problem = DEP_EXTRA;
		d->v[d->n].want = w;
		d->v[d->n].have = h;
		d->n++;
		d->extra++;
	}
}

void deps_run_npm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, hidden = DEP_SET_INIT;
	struct npm_importers imp = NPM_IMPORTERS_INIT;
	struct npm_job_arg arg, harg;
	struct npm_conf conf;
	struct platform plat;
	struct parse_job job;
	struct nm_walk w;
	struct dep_diff d;
	struct blob b;
	struct npm_overrides ovr;
	struct npm_override_miss maybe;
	size_t omitted;
	int trusted;

	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	memset(&maybe, 0, sizeof(maybe));
	/* package.json is small: read before the lockfile is parsed */
	if (npm_read_overrides(spec, &ovr) < 0)
		memset(&ovr, 0, sizeof(ovr));
	else if (!ovr.n)
		ovr.every = npm_manifest_newer(spec, l);
	npm_conf_load(spec, &conf, &plat);
	memset(&job, 0, sizeof(job));
	arg.here = &conf.here;
	arg.imp = &imp;
	harg.here = &conf.here;
	harg.imp = NULL;
	job.fn = npm_job;
	job.b = &b;
	job.out = &want;
	job.arg = &arg;
	deps_parse_job_start(&job);
	memset(&w, 0, sizeof(w));
	trusted = deps_node_modules_dir(spec, l, r) < 0 ? -2 :
		  npm_installed(ctx, l, &harg, &w, &hidden, r);
	if (deps_parse_job_finish(&job) < 0) {
		/* a lockfile npm cannot read says more than node_modules: its
		 * message, reason, hint and fix replace any set above */
		cJSON_Delete(r->data);
		r->data = NULL;
		deps_lockfile_invalid(r, l, &job.err);
		trusted = -2;
	} else if (npm_check_eoverride(spec, l, &ovr, r) || npm_check_sync(spec, l, &imp, &want, r) ||
		   npm_check_overrides(l, &b, &ovr, &conf, &maybe, r)) {
		/* npm ci would refuse whatever node_modules holds */
		trusted = -2;
	}
	blob_release(&b);
	if (trusted >= 0) {
		omitted = npm_wantshere(&want, conf.omit_dev);
		r->data = deps_data_new(l, trusted ? "node_modules/.package-lock.json" :
					"node_modules");
		if (!trusted)
			npm_unlinked_targets(&want, &w.found);
		deps_compare(&want, trusted ? &hidden : &w.found, DEPS_CMP_EXTRAS, &d);
		npm_not_here(&want, trusted ? &hidden : &w.found, &d);
		deps_report_diff(r, l, &d, trusted ? "node_modules/.package-lock.json" :
				 "the package.json files in node_modules");
		if (omitted)
			result_note(r, "npm leaves dev packages out here (omit=dev, from %s): "
				    "%zu dev package%s not required", conf.where, omitted,
				    omitted == 1 ? "" : "s");
		if (maybe.name)
			npm_override_maybe(r, l, &maybe);
		if (w.distrust)
			result_note(r, "node_modules/.package-lock.json not used, as npm would "
				    "not (%s): the installed package.json files were read",
				    w.distrust);
		else if (!trusted)
			result_note(r, "no node_modules/.package-lock.json: the installed "
				    "package.json files were read");
		dep_diff_release(&d);
	}
	npm_conf_release(&conf);
	npm_override_miss_release(&maybe);
	npm_overrides_release(&ovr);
	nm_walk_release(&w);
	dep_set_release(&hidden);
	npm_importers_release(&imp);
	dep_set_release(&want);
}
