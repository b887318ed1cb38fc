/* probe_deps.c - is what is installed what the lockfile says?  One check
 * per lockfile found by spec_deps.c; nothing is ever run.
 *
 * Lockfiles are read here, on the check's worker and under the deadline,
 * not at load time: they run to tens of megabytes (the cap is
 * DEPS_LOCK_CAP, not the 1 MiB of spec files), and what they are
 * compared with (node_modules, a virtual environment) is state that only
 * a probe reads.  Every file goes through deps_read, the one place that
 * reads (to be switched to saferead when it lands).  The parsers are the
 * pure functions of deps.h; this file walks directories and words the
 * result.
 */
#include "probe.h"
#include "pool.h"
#include "saferead.h"
#include "deps.h"
#include "toml.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Lockfiles of the largest monorepos are some tens of megabytes; past
 * this one is skipped with a message naming it, never read. */
#define DEPS_LOCK_CAP ((size_t)64 * 1024 * 1024)
#define DEPS_META_CAP ((size_t)1024 * 1024)	/* a package.json, METADATA */
#define DEPS_SHOWN 5		/* packages named in the message */
#define DEPS_WALK_MAX 200000	/* package folders looked at */
#define DEPS_WALK_DEPTH 64	/* nested node_modules */
#define DEPS_MANY_THREADED 64	/* install records read on two threads from here */

/* ---- reading ---- */

struct lread {
	int err;		/* 0, or errno: ENOENT missing, EFBIG over cap */
	size_t size;		/* EFBIG: the size found */
};

/* The one function that reads a file for this probe: root/name (or name
 * itself when absolute) into out.  inside: the file is the repository's
 * own (a lockfile) and must not resolve outside it.  Returns 0, or -1
 * with l->err. */
static int deps_read(const char *root, const char *name, int inside, size_t cap,
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

static const char *lread_why(const struct lread *l, char *buf, size_t size)
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

static double mtime_ms(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec * 1000.0 + (double)st->st_mtim.tv_nsec / 1e6;
}

/* ---- what each manager is ---- */

static const struct manager {
	const char *name, *title;
	const char *fix[5];	/* argv, NULL-terminated */
} managers[] = {
	[LOCK_NPM] = { "npm", "npm packages", { "npm", "ci", NULL } },
	[LOCK_PNPM] = { "pnpm", "pnpm packages",
			{ "pnpm", "install", "--frozen-lockfile", NULL } },
	[LOCK_YARN] = { "yarn", "yarn packages", { "yarn", "install", "--immutable", NULL } },
	[LOCK_UV] = { "uv", "Python packages", { "uv", "sync", "--locked", NULL } },
	[LOCK_POETRY] = { "poetry", "Python packages", { "poetry", "install", NULL } },
	[LOCK_PIP] = { "pip", "Python packages", { NULL } },
};

/* The install command as fix.argv (printed, never run). */
static void set_fix(struct result *r, const struct lock_req *l)
{
	const char *const *a = managers[l->kind].fix;
	char *py;

	if (l->kind != LOCK_PIP) {
		result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, a[0], a[1], a[2], a[3], (char *)NULL);
		return;
	}
	if (!l->venv)
		return;
	/* the environment's own pip; refused (no fix) when a path has a
	 * character an argv word may not */
	py = path_join(l->venv, "bin/python");
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, py, "-m", "pip", "install", "-r",
			l->origin.file, (char *)NULL);
	free(py);
}

static void fix_hint(struct result *r, const struct lock_req *l)
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

static cJSON *data_new(const struct lock_req *l, const char *installed)
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

/* "lodash: lockfile 4.17.21, installed 4.17.20" */
static void describe(struct buf *b, const struct dep_diff_item *it)
{
	const struct dep *w = it->want, *h = it->have;
	const char *name = w ? w->name : h ? h->name : "?";

	buf_add_clean(b, name);
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
		buf_puts(b, ": not in the lockfile, installed ");
		buf_add_clean(b, side_version(h, 0, "?"));
		break;
	case DEP_UNKNOWN_VERSION:
		buf_puts(b, ": lockfile ");
		buf_add_clean(b, side_version(w, 0, "?"));
		buf_puts(b, ", installed version unknown (no Version: in its metadata)");
		break;
	}
}

/* Fill r from a comparison: every difference in data, the first few in
 * the message.  against: what the lockfile was compared with. */
static void report_diff(struct result *r, const struct lock_req *l,
			const struct dep_diff *d, const char *against)
{
	struct buf m = BUF_INIT;
	cJSON *list = cJSON_GetObjectItemCaseSensitive(r->data, "differences");
	size_t i, real = d->n - d->extra;

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
	if (real)
		buf_printf(&m, "%zu of %zu package%s differ%s from %s: ", real, d->compared,
			   d->compared == 1 ? "" : "s", real == 1 ? "s" : "", l->origin.file);
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
	set_fix(r, l);
	fix_hint(r, l);
	buf_release(&m);
}

static void lockfile_invalid(struct result *r, const struct lock_req *l,
			     const struct parse_error *e)
{
	result_set(r, STATUS_FAIL, "%s:%u:%u: %s", l->origin.file, e->line, e->col,
		   e->msg[0] ? e->msg : "cannot be parsed");
	r->reason = REASON_LOCKFILE_INVALID;
	result_fix_edit(r, l->origin.file, e->line);
	result_hint(r, "%s cannot be read by %s either: restore it from version control "
		    "or regenerate it", l->origin.file, managers[l->kind].name);
}

/* Read and judge the lockfile itself.  Returns 0 with b, else the result
 * is set. */
static int read_lockfile(const struct spec *spec, const struct lock_req *l,
			 struct blob *b, struct result *r)
{
	struct lread lr;
	char why[128];

	if (deps_read(spec->root, l->origin.file, 1, DEPS_LOCK_CAP, b, &lr) == 0)
		return 0;
	if (lr.err == EFBIG) {
		result_set(r, STATUS_SKIP, "%s not compared: %s", l->origin.file,
			   lread_why(&lr, why, sizeof(why)));
		r->reason = REASON_OUT_OF_SCOPE;
		return -1;
	}
	result_set(r, STATUS_ERROR, "cannot read %s: %s", l->origin.file,
		   lread_why(&lr, why, sizeof(why)));
	r->reason = REASON_UNREADABLE;
	return -1;
}

static void not_installed(struct result *r, const struct lock_req *l, const char *what)
{
	result_set(r, STATUS_FAIL, "%s", what);
	r->reason = REASON_NOT_INSTALLED;
	set_fix(r, l);
	fix_hint(r, l);
}

/* ---- a lockfile parsed beside the rest ---- */

/* A 2,000-package lockfile takes as long to parse as the install record
 * takes to read: the lockfile is parsed on a short-lived thread of its
 * own meanwhile (joined before the check returns), so that the check
 * costs the longer of the two, not their sum. */
struct parse_job {
	int (*fn)(struct parse_job *j);
	const struct blob *b;
	struct dep_set *out;
	struct parse_error err;
	const void *arg;	/* what fn needs besides the bytes */
	int rc;
	struct pool_thread thread;
};

static void *parse_job_main(void *arg)
{
	struct parse_job *j = arg;

	j->rc = j->fn(j);
	return NULL;
}

/* No thread to be had: parsed here and now, the same answer later. */
static void parse_job_start(struct parse_job *j)
{
	if (pool_start(&j->thread, parse_job_main, j) != 0)
		parse_job_main(j);
}

static int parse_job_finish(struct parse_job *j)
{
	pool_join(&j->thread);
	return j->rc;
}

/* ---- many small files read on two threads ---- */

/* An install record is a file a package: 2,000 METADATA or package.json
 * files for as many packages, each read with the handful of system calls
 * saferead's checks take, are most of what a check costs.  They are read
 * on two threads (pool_run), the check's own and a short-lived helper
 * (joined before the check returns), each taking the next file in turn;
 * what a file says goes to its own slot (take), so the result is the same
 * whichever thread read it.  Below DEPS_MANY_THREADED files a thread
 * costs more than it saves. */
struct many_read {
	size_t n;
	/* file i's name relative to the directory, into buf (size bytes);
	 * NULL: nothing to read for i */
	const char *(*name)(const struct many_read *m, size_t i, char *buf, size_t size);
	/* what file i says, into slot i of arg's own (either thread) */
	void (*take)(const struct many_read *m, size_t i, const struct blob *b);
	void *arg;
	double deadline;
	struct saferead_dir dir;
	atomic_int late;	/* the deadline came first */
};

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

/* Read the m->n files m names below dir (a file that cannot be read is
 * left out).  Returns 0, or -1 when the deadline came first. */
static int many_read_run(struct many_read *m, const char *dir)
{
	atomic_init(&m->late, 0);
	saferead_dir_open(&m->dir, dir);	/* on failure each read fails */
	pool_run(m->n >= DEPS_MANY_THREADED ? 2 : 1, m->n, 1, many_read_item, m);
	saferead_dir_close(&m->dir);
	return atomic_load(&m->late) || clock_ms() > m->deadline ? -1 : 0;
}

static int npm_job(struct parse_job *j)
{
	int version;

	return deps_npm_parse(j->b->data, j->b->len, j->out, &version, &j->err);
}

/* ---- node_modules ---- */

/* node_modules itself: 0 a directory, else the result is set. */
static int node_modules_dir(const struct spec *spec, const struct lock_req *l,
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
		set_fix(r, l);
		return -1;
	}
	not_installed(r, l, rc == 0 ? "node_modules is not a directory: nothing is installed" :
		      "node_modules does not exist: nothing is installed");
	return -1;
}

/* Which manager's record node_modules holds, for a message. */
static const char *installed_by(const struct spec *spec)
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

/* One package folder at rel (a directory or a link to one), which is
 * name below the open directory dfd. */
static void walk_pkg(struct nm_walk *w, int dfd, const char *name, const char *rel,
		     unsigned depth)
{
	struct stat st, tst;
	struct dep *d;
	char *sub, *subname;

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
		if (path_is_inside(real, w->root) && strlen(real) > strlen(w->root)) {
			const char *target = real + strlen(w->root) + 1;

			d->extra = xstrdup(target);
			/* a workspace: walked once, as its own folder */
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

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of an open directory, dot names left out, sorted (so that
 * the walk and its first reason are the same every run). */
static char **list_entries(DIR *d, size_t *n)
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

/* The same of the directory abs (NULL when it cannot be read). */
static char **list_dir(const char *abs, size_t *n)
{
	DIR *d = opendir(abs);
	char **v;

	*n = 0;
	if (!d)
		return NULL;
	v = list_entries(d, n);
	closedir(d);
	return v;
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
	names = list_entries(dir, &n);
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

	w->found.v[i].version = deps_npm_package_version(b->data, b->len);
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
	if (many_read_run(&m, w->root) < 0)
		w->stopped = 1;
}

/* The installed side of npm: the hidden lockfile when npm would trust
 * it, else the folders' package.json files.  Fills w (and hidden);
 * returns 1 trusted, 0 not, -1 with the result set. */
static int npm_installed(const struct run_ctx *ctx, const struct lock_req *l,
			 struct nm_walk *w, struct dep_set *hidden, struct result *r)
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
		parse_job_start(&job);
		have_file = w->note = 1;
	}
	free(hpath);
	/* with a hidden lockfile there, installed_by says npm */
	if (!have_file && (by = installed_by(spec)) && strcmp(by, "npm")) {
		result_set(r, STATUS_FAIL, "node_modules was installed by %s "
			   "(node_modules/.%s), not by npm", by,
			   !strcmp(by, "pnpm") ? "modules.yaml" : "yarn-state.yml");
		r->reason = REASON_OUT_OF_DATE;
		set_fix(r, l);
		fix_hint(r, l);
		return -1;
	}
	w->rootfd = open(spec->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (w->rootfd >= 0) {
		walk_nm(w, w->rootfd, "node_modules", "node_modules", 0);
		close(w->rootfd);
	}
	if (have_file) {
		if (parse_job_finish(&job) == 0) {
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

static void run_npm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, hidden = DEP_SET_INIT;
	struct parse_job job;
	struct nm_walk w;
	struct dep_diff d;
	struct blob b;
	int trusted;

	if (read_lockfile(spec, l, &b, r) < 0)
		return;
	memset(&job, 0, sizeof(job));
	job.fn = npm_job;
	job.b = &b;
	job.out = &want;
	parse_job_start(&job);
	memset(&w, 0, sizeof(w));
	trusted = node_modules_dir(spec, l, r) < 0 ? -2 : npm_installed(ctx, l, &w, &hidden, r);
	if (parse_job_finish(&job) < 0) {
		/* a lockfile npm cannot read says more than node_modules: its
		 * message, reason, hint and fix replace any set above */
		cJSON_Delete(r->data);
		r->data = NULL;
		lockfile_invalid(r, l, &job.err);
		trusted = -2;
	}
	blob_release(&b);
	if (trusted >= 0) {
		r->data = data_new(l, trusted ? "node_modules/.package-lock.json" :
				   "node_modules");
		deps_compare(&want, trusted ? &hidden : &w.found, DEPS_CMP_EXTRAS, &d);
		report_diff(r, l, &d, trusted ? "node_modules/.package-lock.json" :
			    "the package.json files in node_modules");
		if (w.distrust)
			result_note(r, "node_modules/.package-lock.json not used, as npm would "
				    "not (%s): the installed package.json files were read",
				    w.distrust);
		else if (!trusted)
			result_note(r, "no node_modules/.package-lock.json: the installed "
				    "package.json files were read");
		dep_diff_release(&d);
	}
	nm_walk_release(&w);
	dep_set_release(&hidden);
	dep_set_release(&want);
}

/* ---- pnpm ---- */

/* Parse an install record (YAML) of pnpm or yarn at name: 1 read, 0
 * missing, -1 with the result set. */
static int read_record(const struct spec *spec, const struct lock_req *l, const char *name,
		       int (*parse)(const char *, size_t, struct dep_set *, struct parse_error *),
		       struct dep_set *out, struct result *r)
{
	struct blob b;
	struct lread lr;
	struct parse_error e;
	char why[128];
	int rc;

	if (deps_read(spec->root, name, 0, DEPS_LOCK_CAP, &b, &lr) < 0) {
		if (lr.err == ENOENT)
			return 0;
		result_set(r, STATUS_FAIL, "cannot read %s: %s", name,
			   lread_why(&lr, why, sizeof(why)));
		r->reason = REASON_UNREADABLE;
		set_fix(r, l);
		return -1;
	}
	rc = parse(b.data, b.len, out, &e);
	blob_release(&b);
	if (rc < 0) {
		result_set(r, STATUS_FAIL, "%s:%u:%u: %s: what %s installed cannot be read",
			   name, e.line, e.col, e.msg, managers[l->kind].name);
		r->reason = REASON_UNREADABLE;
		set_fix(r, l);
		fix_hint(r, l);
		return -1;
	}
	return 1;
}

static int yarn_state_parse(const char *buf, size_t len, struct dep_set *s,
			    struct parse_error *e)
{
	return deps_yarn_parse(buf, len, 1, s, e) < 0 ? -1 : 0;
}

static int pnpm_modules_parse(const char *buf, size_t len, struct dep_set *s,
			      struct parse_error *e)
{
	char *by = NULL;
	int rc = deps_pnpm_modules(buf, len, s, &by, e);

	free(by);
	return rc;
}

static void compare_record(struct result *r, const struct lock_req *l,
			   const struct dep_set *want, const struct dep_set *have,
			   const char *record)
{
	struct dep_diff d;

	r->data = data_new(l, record);
	deps_compare(want, have, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	report_diff(r, l, &d, record);
	dep_diff_release(&d);
}

static void run_pnpm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT, skipped = DEP_SET_INIT;
	struct parse_error e;
	struct blob b;
	const char *by;
	size_t i;
	int rc;

	if (read_lockfile(spec, l, &b, r) < 0)
		return;
	rc = deps_pnpm_parse(b.data, b.len, &want, &e);
	blob_release(&b);
	if (rc < 0) {
		lockfile_invalid(r, l, &e);
		goto out;
	}
	if (node_modules_dir(spec, l, r) < 0)
		goto out;
	rc = read_record(spec, l, "node_modules/.modules.yaml", pnpm_modules_parse, &skipped, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		by = installed_by(spec);
		result_set(r, STATUS_FAIL, "node_modules was %s (no node_modules/.modules.yaml)",
			   by ? (!strcmp(by, "npm") ? "installed by npm, not by pnpm" :
				 "installed by yarn, not by pnpm") : "not installed by pnpm");
		r->reason = REASON_OUT_OF_DATE;
		set_fix(r, l);
		fix_hint(r, l);
		goto out;
	}
	/* pnpm keeps what it installed as a lockfile of its own (the "current
	 * lockfile"), and compares the wanted one with it on every install */
	rc = read_record(spec, l, "node_modules/.pnpm/lock.yaml", deps_pnpm_parse, &have, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		result_set(r, STATUS_WARN, "no node_modules/.pnpm/lock.yaml: what pnpm "
			   "installed cannot be compared");
		r->reason = REASON_CANNOT_COMPARE;
		goto out;
	}
	/* optional packages pnpm skipped here (another platform's) */
	for (i = 0; i < skipped.n; i++) {
		size_t at = strmap_get(&want.index, skipped.v[i].key, strlen(skipped.v[i].key));

		if (at != STRMAP_NONE)
			want.v[at].flags |= DEP_OPTIONAL;
	}
	compare_record(r, l, &want, &have, "node_modules/.pnpm/lock.yaml");
out:
	dep_set_release(&want);
	dep_set_release(&have);
	dep_set_release(&skipped);
}

/* ---- yarn ---- */

static void run_yarn(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT;
	struct parse_error e;
	struct blob b;
	struct stat lst, gst;
	char *p;
	int rc, gz;

	if (read_lockfile(spec, l, &b, r) < 0)
		return;
	rc = deps_yarn_parse(b.data, b.len, 0, &want, &e);
	blob_release(&b);
	if (rc < 0) {
		lockfile_invalid(r, l, &e);
		goto out;
	}
	if (rc == 1) {
		result_set(r, STATUS_SKIP, "%s is a yarn 1 lockfile: not compared "
			   "(yarn 2 and later only)", l->origin.file);
		r->reason = REASON_OUT_OF_SCOPE;
		goto out;
	}
	/* the node-modules linker records what it installed in
	 * node_modules/.yarn-state.yml: compare package by package */
	rc = read_record(spec, l, "node_modules/.yarn-state.yml", yarn_state_parse, &have, r);
	if (rc < 0)
		goto out;
	if (rc > 0) {
		compare_record(r, l, &want, &have, "node_modules/.yarn-state.yml");
		goto out;
	}
	/* Plug'n'Play: the install state is gzip-compressed (v8 serialised)
	 * and envpreflight links no zlib, so only its time can tell: yarn
	 * rewrites it on every install */
	p = path_join(spec->root, ".yarn/install-state.gz");
	gz = stat(p, &gst) == 0 && S_ISREG(gst.st_mode);
	free(p);
	p = path_join(spec->root, l->origin.file);
	rc = stat(p, &lst);
	free(p);
	r->data = data_new(l, gz ? ".yarn/install-state.gz" : NULL);
	if (!gz) {
		not_installed(r, l, "neither node_modules/.yarn-state.yml nor "
			      ".yarn/install-state.gz exists: nothing is installed");
	} else if (rc == 0 && mtime_ms(&gst) < mtime_ms(&lst)) {
		result_set(r, STATUS_FAIL, "%s changed after the last install "
			   "(.yarn/install-state.gz is older)", l->origin.file);
		r->reason = REASON_OUT_OF_DATE;
		set_fix(r, l);
		fix_hint(r, l);
	} else {
		result_set(r, STATUS_PASS, ".yarn/install-state.gz is newer than %s",
			   l->origin.file);
		result_note(r, "compared by time only: the install state is "
			    "gzip-compressed (%jd bytes) and envpreflight reads no gzip",
			    (intmax_t)gst.st_size);
	}
out:
	dep_set_release(&want);
	dep_set_release(&have);
}

/* ---- Python ---- */

struct venv {
	char *dir;		/* absolute */
	char *site[4];		/* site-packages directories found */
	size_t nsite;
	char version[32];	/* pyvenv.cfg version_info / version */
	char short_version[16];
	char impl[32];
	struct utsname uts;
	struct pymarker_env env;
};

/* pyvenv.cfg's "version_info = 3.12.3" (uv, virtualenv) or
 * "version = 3.12.3" (venv): the interpreter the markers are for. */
static void read_pyvenv(struct venv *v)
{
	struct blob b;
	struct lread lr;
	size_t pos = 0;

	if (deps_read(v->dir, "pyvenv.cfg", 0, DEPS_META_CAP, &b, &lr) < 0)
		return;
	while (pos < b.len) {
		const char *s = b.data + pos, *nl = memchr(s, '\n', b.len - pos);
		size_t n = nl ? (size_t)(nl - s) : b.len - pos, k;
		const char *eq = memchr(s, '=', n);

		pos += n + 1;
		if (!eq)
			continue;
		for (k = (size_t)(eq - s); k && (s[k - 1] == ' ' || s[k - 1] == '\t'); k--)
			;
		eq++;
		while (eq < s + n && (*eq == ' ' || *eq == '\t'))
			eq++;
		n = (size_t)(s + n - eq);
		while (n && (eq[n - 1] == '\r' || eq[n - 1] == ' '))
			n--;
		if (((k == 12 && !memcmp(s, "version_info", 12)) ||
		     (k == 7 && !memcmp(s, "version", 7) && !v->version[0])) &&
		    n < sizeof(v->version)) {
			memcpy(v->version, eq, n);
			v->version[n] = 0;
		} else if (k == 14 && !memcmp(s, "implementation", 14) && n < sizeof(v->impl)) {
			memcpy(v->impl, eq, n);
			v->impl[n] = 0;
		}
	}
	blob_release(&b);
}

static void venv_env(struct venv *v)
{
	const char *dot;

	memset(&v->env, 0, sizeof(v->env));
	v->env.sys_platform = "linux";
	v->env.platform_system = "Linux";
	v->env.os_name = "posix";
	if (uname(&v->uts) == 0)
		v->env.platform_machine = v->uts.machine;
	if (v->version[0] && (dot = strchr(v->version, '.')) && (dot = strchr(dot + 1, '.')) &&
	    (size_t)(dot - v->version) < sizeof(v->short_version)) {
		memcpy(v->short_version, v->version, (size_t)(dot - v->version));
		v->short_version[dot - v->version] = 0;
		v->env.python_version = v->short_version;
		v->env.python_full_version = v->version;
	}
	/* uv and virtualenv write implementation = CPython / PyPy */
	if (!strcasecmp(v->impl, "cpython") || (!v->impl[0] && v->version[0])) {
		v->env.implementation_name = "cpython";
		v->env.platform_python_implementation = "CPython";
	} else if (!strcasecmp(v->impl, "pypy")) {
		v->env.implementation_name = "pypy";
		v->env.platform_python_implementation = "PyPy";
	}
}

/* lib/python3.X/site-packages (and pypy's) of the environment. */
static void find_site(struct venv *v)
{
	char *lib = path_join(v->dir, "lib");
	size_t n, i;
	char **names = list_dir(lib, &n);
	struct stat st;

	for (i = 0; i < n; i++) {
		struct buf p = BUF_INIT;

		buf_printf(&p, "%s/%s/site-packages", lib, names[i]);
		if (v->nsite < ARRAY_SIZE(v->site) && !strncmp(names[i], "py", 2) &&
		    stat(buf_str(&p), &st) == 0 && S_ISDIR(st.st_mode))
			v->site[v->nsite++] = buf_detach(&p);
		buf_release(&p);
		free(names[i]);
	}
	free(names);
	free(lib);
}

static void venv_release(struct venv *v)
{
	size_t i;

	free(v->dir);
	for (i = 0; i < v->nsite; i++)
		free(v->site[i]);
}

/* What one site-packages holds: its entries, and what the metadata of
 * each says (the slots of many_read). */
struct site_files {
	char **names;		/* sorted */
	struct site_meta {
		char *name, *version;
	} *got;
};

/* "X.dist-info/METADATA" or "X.egg-info/PKG-INFO"; NULL for any other
 * entry. */
static const char *meta_file(const struct many_read *m, size_t i, char *buf, size_t size)
{
	const struct site_files *f = m->arg;
	const char *e = f->names[i], *file;
	size_t len = strlen(e), flen;

	if (len > 10 && !strcmp(e + len - 10, ".dist-info"))
		file = "/METADATA";
	else if (len > 9 && !strcmp(e + len - 9, ".egg-info"))
		file = "/PKG-INFO";
	else
		return NULL;
	flen = strlen(file);
	if (len + flen >= size)
		return NULL;
	memcpy(buf, e, len + 1);
	memcpy(buf + len, file, flen + 1);
	return buf;
}

static void meta_take(const struct many_read *m, size_t i, const struct blob *b)
{
	const struct site_files *f = m->arg;

	deps_pymeta_parse(b->data, b->len, &f->got[i].name, &f->got[i].version);
}

/* Every *.dist-info/METADATA (and *.egg-info/PKG-INFO) of the
 * environment: normalised name -> version, read from the file (the
 * folder's name is a hint only), the first of a name in name order. */
static int scan_site(struct venv *v, struct dep_set *have, double deadline)
{
	size_t s, i, n;
	int rc = 0;

	for (s = 0; s < v->nsite; s++) {
		struct site_files f;
		struct many_read m;

		f.names = list_dir(v->site[s], &n);
		f.got = xcalloc(n ? n : 1, sizeof(*f.got));
		memset(&m, 0, sizeof(m));
		m.n = n;
		m.name = meta_file;
		m.take = meta_take;
		m.arg = &f;
		m.deadline = deadline;
		if (many_read_run(&m, v->site[s]) < 0)
			rc = -1;
		for (i = 0; i < n; i++) {
			const struct site_meta *g = &f.got[i];

			if (g->name) {
				char *key = pep503_normalize(g->name, strlen(g->name));

				if (!dep_set_get(have, key))
					dep_set_add(have, key, g->name, g->version,
						    g->version ? 0 : DEP_NO_VERSION);
				free(key);
			}
			free(g->name);
			free(g->version);
			free(f.names[i]);
		}
		free(f.got);
		free(f.names);
	}
	return rc < 0 || clock_ms() > deadline ? -1 : 0;
}

/* poetry install leaves out groups pyproject.toml marks optional
 * ([tool.poetry.group.NAME] optional = true): their names, as a new
 * NULL-terminated list (or NULL). */
static char **poetry_optional_groups(const struct spec *spec)
{
	struct blob b;
	struct lread lr;
	struct toml_value *root;
	struct parse_error te;
	const struct toml_value *groups;
	char **out = NULL;
	size_t n = 0, cap = 0, i;

	if (deps_read(spec->root, "pyproject.toml", 1, DEPS_META_CAP, &b, &lr) < 0)
		return NULL;
	if (toml_parse(b.data, b.len, NULL, &root, &te) == 0) {
		groups = toml_get(toml_get(toml_get(root, "tool"), "poetry"), "group");
		for (i = 0; groups && groups->type == TOML_TABLE && i < groups->n; i++) {
			const struct toml_value *opt = toml_get(groups->kv[i].val, "optional");

			if (opt && opt->type == TOML_BOOL && opt->b) {
				grow(&out, sizeof(*out), &cap, n + 2);
				out[n++] = xstrdup(groups->kv[i].key);
				out[n] = NULL;
			}
		}
		toml_free(root);
	}
	blob_release(&b);
	return out;
}

/* The lockfile's packages for the environment v (b: the lockfile's
 * bytes).  Returns 0, or -1 with e; *unpinned and *includes: pip's lines
 * not compared. */
static int python_parse(const struct spec *spec, const struct lock_req *l,
			const struct venv *v, const struct blob *b, struct dep_set *want,
			struct parse_error *e, size_t *unpinned, size_t *includes)
{
	char **groups, **g;
	int rc;

	*unpinned = *includes = 0;
	if (l->kind == LOCK_UV)
		return deps_uv_parse(b->data, b->len, &v->env, want, e);
	if (l->kind == LOCK_PIP)
		return deps_pip_parse(b->data, b->len, &v->env, want, unpinned, includes, e);
	groups = poetry_optional_groups(spec);
	rc = deps_poetry_parse(b->data, b->len, &v->env, (const char *const *)groups, want, e);
	for (g = groups; g && *g; g++)
		free(*g);
	free(groups);
	return rc;
}

struct py_job_arg {
	const struct spec *spec;
	const struct lock_req *l;
	const struct venv *v;
	size_t unpinned, includes;
};

static int py_job(struct parse_job *j)
{
	struct py_job_arg *a = (struct py_job_arg *)j->arg;

	return python_parse(a->spec, a->l, a->v, j->b, j->out, &j->err, &a->unpinned,
			    &a->includes);
}

/* The environment itself: 0 usable (v filled), else the result is set. */
static int open_venv(const struct spec *spec, const struct lock_req *l, struct venv *v,
		     struct result *r)
{
	struct stat st;
	int rc;

	v->dir = path_join(spec->root, l->venv);
	rc = stat(v->dir, &st);
	if (rc < 0 && (errno == ENOENT || errno == ENOTDIR)) {
		not_installed(r, l, l->kind == LOCK_UV && !strcmp(l->venv_from, ".venv") ?
			      ".venv does not exist: nothing is installed" :
			      "the virtual environment does not exist: nothing is installed");
		result_note(r, "environment %s (from %s)", l->venv, l->venv_from);
		return -1;
	}
	if (rc < 0) {
		result_set(r, STATUS_FAIL, "cannot use the virtual environment %s: %s",
			   l->venv, strerror(errno));
		r->reason = REASON_UNREADABLE;
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		not_installed(r, l, "the virtual environment is not a directory");
		return -1;
	}
	read_pyvenv(v);
	venv_env(v);
	find_site(v);
	if (!v->nsite) {
		not_installed(r, l, "the virtual environment has no lib/python*/site-packages: "
			      "nothing is installed");
		return -1;
	}
	return 0;
}

static void run_python(const struct run_ctx *ctx, const struct lock_req *l,
		       struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT;
	struct dep_diff d;
	struct venv v;
	struct buf where = BUF_INIT;
	struct blob b = { NULL, 0 };
	struct parse_error e;
	size_t unpinned, includes;
	struct parse_job job;
	struct py_job_arg pa;
	int scanned;

	memset(&v, 0, sizeof(v));
	if (read_lockfile(spec, l, &b, r) < 0)
		return;
	if (!l->venv) {
		result_set(r, STATUS_SKIP, "no virtual environment to compare %s with "
			   "(.venv, or an active VIRTUAL_ENV)", l->origin.file);
		r->reason = REASON_NOT_APPLICABLE;
		if (l->kind == LOCK_POETRY)
			result_hint(r, "poetry keeps its environments in its cache: activate "
				    "it, or set virtualenvs.in-project");
		goto out;
	}
	if (open_venv(spec, l, &v, r) < 0) {
		/* a lockfile no tool can read says more than the environment */
		venv_env(&v);
		if (python_parse(spec, l, &v, &b, &want, &e, &unpinned, &includes) < 0) {
			lockfile_invalid(r, l, &e);
		}
		goto out;
	}
	/* the lockfile is parsed while the environment is read */
	memset(&job, 0, sizeof(job));
	job.fn = py_job;
	job.b = &b;
	job.out = &want;
	pa.spec = spec;
	pa.l = l;
	pa.v = &v;
	job.arg = &pa;
	parse_job_start(&job);
	scanned = scan_site(&v, &have, ctx->deadline_ms);
	if (parse_job_finish(&job) < 0) {
		lockfile_invalid(r, l, &job.err);
		goto out;
	}
	if (pa.unpinned || pa.includes)
		result_note(r, "%s: %zu requirement%s without an == pin and %zu -r/-c "
			    "line%s not checked", l->origin.file, pa.unpinned,
			    pa.unpinned == 1 ? "" : "s", pa.includes,
			    pa.includes == 1 ? "" : "s");
	if (scanned < 0) {
		result_set(r, STATUS_ERROR, "the virtual environment was not read before "
			   "the deadline");
		r->reason = REASON_TIMEOUT;
		goto out;
	}
	buf_printf(&where, "%s (%s)", l->venv, l->venv_from);
	r->data = data_new(l, l->venv);
	deps_compare(&want, &have, DEPS_CMP_PEP440, &d);
	report_diff(r, l, &d, buf_str(&where));
	if (!v.env.python_version)
		result_note(r, "no Python version in %s/pyvenv.cfg: markers on it were not "
			    "decided", l->venv);
	dep_diff_release(&d);
out:
	blob_release(&b);
	buf_release(&where);
	venv_release(&v);
	dep_set_release(&want);
	dep_set_release(&have);
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

	if (l->kind <= LOCK_YARN && pm && strcmp(pm, managers[l->kind].name) &&
	    (!strcmp(pm, "npm") || !strcmp(pm, "pnpm") || !strcmp(pm, "yarn"))) {
		/* corepack runs only the pinned manager: this lockfile is
		 * left over, and no install will read it */
		result_set(r, STATUS_SKIP, "package.json's packageManager names %s: %s is "
			   "not the lockfile in use", pm, l->origin.file);
		r->reason = REASON_NOT_APPLICABLE;
		return;
	}
	switch (l->kind) {
	case LOCK_NPM:
		run_npm(ctx, l, r);
		break;
	case LOCK_PNPM:
		run_pnpm(ctx, l, r);
		break;
	case LOCK_YARN:
		run_yarn(ctx, l, r);
		break;
	default:
		run_python(ctx, l, r);
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
	"deps.npm", "deps.pnpm", "deps.yarn", "deps.uv", "deps.poetry", "deps.pip.FILE",
	NULL
};

const struct probe probe_deps = {
	.name = "deps",
	.summary = "installed packages (node_modules, .venv) match the lockfile",
	.plan = deps_plan,
	.run = deps_run,
	.ids = deps_ids,
};
