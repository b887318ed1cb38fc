/* deps_node.c - the deps probe's npm: the lockfile against node_modules
 * (its hidden lockfile, or the package.json files of its folders); and
 * what npm, pnpm and yarn share (node_modules itself, an install record
 * read and compared).  pnpm is deps_pnpm.c's, yarn deps_yarn.c's; what
 * every manager shares is probe_deps.c's (deps_probe.h).
 */
#include "deps_probe.h"
#include "probe.h"
#include "deps.h"
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

double deps_mtime_ms(const struct stat *st)
{
	return (double)st->st_mtim.tv_sec * 1000.0 + (double)st->st_mtim.tv_nsec / 1e6;
}

static int npm_job(struct parse_job *j)
{
	int version;

	return deps_npm_parse(j->b->data, j->b->len, j->out, &version, &j->err);
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
	w->seen[w->nseen].mtime = deps_mtime_ms(st);
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
	if (deps_many_read_run(&m, w->root) < 0)
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
			w->lock_time = deps_mtime_ms(&st) + 10;
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

void deps_run_npm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, hidden = DEP_SET_INIT;
	struct parse_job job;
	struct nm_walk w;
	struct dep_diff d;
	struct blob b;
	int trusted;

	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	memset(&job, 0, sizeof(job));
	job.fn = npm_job;
	job.b = &b;
	job.out = &want;
	deps_parse_job_start(&job);
	memset(&w, 0, sizeof(w));
	trusted = deps_node_modules_dir(spec, l, r) < 0 ? -2 : npm_installed(ctx, l, &w, &hidden, r);
	if (deps_parse_job_finish(&job) < 0) {
		/* a lockfile npm cannot read says more than node_modules: its
		 * message, reason, hint and fix replace any set above */
		cJSON_Delete(r->data);
		r->data = NULL;
		deps_lockfile_invalid(r, l, &job.err);
		trusted = -2;
	}
	blob_release(&b);
	if (trusted >= 0) {
		r->data = deps_data_new(l, trusted ? "node_modules/.package-lock.json" :
					"node_modules");
		deps_compare(&want, trusted ? &hidden : &w.found, DEPS_CMP_EXTRAS, &d);
		deps_report_diff(r, l, &d, trusted ? "node_modules/.package-lock.json" :
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

/* ---- install records (pnpm, yarn) ---- */

/* Parse an install record (YAML) of pnpm or yarn at name: 1 read, 0
 * missing, -1 with the result set. */
int deps_read_record(const struct spec *spec, const struct lock_req *l, const char *name,
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
			   deps_lread_why(&lr, why, sizeof(why)));
		r->reason = REASON_UNREADABLE;
		deps_set_fix(r, l);
		return -1;
	}
	rc = parse(b.data, b.len, out, &e);
	blob_release(&b);
	if (rc < 0) {
		result_set(r, STATUS_FAIL, "%s:%u:%u: %s: what %s installed cannot be read",
			   name, e.line, e.col, e.msg, deps_manager_name(l->kind));
		r->reason = REASON_UNREADABLE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
		return -1;
	}
	return 1;
}

void deps_compare_record(struct result *r, const struct lock_req *l,
			   const struct dep_set *want, const struct dep_set *have,
			   const char *record)
{
	struct dep_diff d;

	r->data = deps_data_new(l, record);
	deps_compare(want, have, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	deps_report_diff(r, l, &d, record);
	dep_diff_release(&d);
}
