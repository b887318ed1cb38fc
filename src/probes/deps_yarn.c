/* deps_yarn.c - the deps probe's yarn (2 and later): what yarn's next
 * `yarn install --immutable` would do, read from its own files.
 *
 *   1. yarn.lock itself: a __metadata version this yarn does not write,
 *      or a workspace's package.json that no longer matches its lockfile
 *      entry: the frozen install refuses (YN0028); the fix relocks.
 *   2. node-modules linker: what the lockfile installs on this machine
 *      (yarnstate.h: yarn_lock_wanted) against
 *      node_modules/.yarn-state.yml, then every folder that record says
 *      exists (each parent folder read once, src/os/dirset.c: yarn links a
 *      missing one again).
 *   3. Plug'n'Play: .yarn/install-state.gz (gzip, then v8.serialize of
 *      the project's state) holds lockFileChecksum, the checksum of the
 *      yarn.lock it was installed from; .pnp.cjs must be there.
 */
#include "deps_probe.h"
#include "probe.h"
#include "dirset.h"
#include "platform.h"
#include "deps.h"
#include "yarnstate.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define YARN_STATE_CAP ((size_t)256 * 1024 * 1024)	/* gunzipped install state */
#define YARN_LOCS_SHOWN 3

/* The relock command, said as such: what `--immutable` refuses, only a
 * plain `yarn install` can write (berry's Project.ts persistLockfile). */
static void set_relock(struct result *r, const struct lock_req *l, const char *what)
{
	r->reason = REASON_OUT_OF_DATE;
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "yarn", "install", (char *)NULL);
	deps_relock_writes(r, l);
	result_hint(r, "%s: yarn install --immutable refuses (YN0028, the lockfile would be "
		    "modified); run yarn install to relock, then commit %s", what,
		    l->origin.file);
}

/* A packageManager pin's yarn version, "4.0.0-rc.2" read as
 * {4, 0, 0, 2} (rc: -1 for a release).  0, or -1 with no yarn pin. */
struct yarn_pin {
	long major, minor, patch, rc;
};

static int pinned_yarn(const struct spec *spec, struct yarn_pin *pin)
{
	size_t i;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *rq = &spec->runtimes[i];
		const char *v;
		char *end;
		long *part[3];
		int k;

		if (rq->src != SRC_PACKAGE_MANAGER || rq->problem || !rq->name ||
		    strcmp(rq->name, "yarn") || !rq->spec)
			continue;
		v = strchr(rq->spec, '@') ? strchr(rq->spec, '@') + 1 : rq->spec;
		part[0] = &pin->major, part[1] = &pin->minor, part[2] = &pin->patch;
		pin->minor = pin->patch = 0;
		pin->rc = -1;
		for (k = 0; k < 3; k++) {
			if (*v < '0' || *v > '9')
				return k ? 0 : -1;
			errno = 0;
			*part[k] = strtol(v, &end, 10);
			if (errno || *part[k] > 100000)
				return -1;
			v = end;
			if (k < 2 && *v != '.')
				return 0;
			v += k < 2;
		}
		if (!strncmp(v, "-rc.", 4) && v[4] >= '0' && v[4] <= '9')
			pin->rc = strtol(v + 4, NULL, 10);
		else if (*v == '-')
			pin->rc = 0;	/* another prerelease: before every rc */
		return 0;
	}
	return -1;
}

/* Which __metadata versions the pinned yarn writes: its Project.ts
 * LOCKFILE_VERSION, read from each release's bundle (@yarnpkg/cli-dist
 * on the npm registry, bin/yarn.js: `__metadata={version:X}` and X's
 * value; 4.0.0-rc.2 from a project's .yarn/releases): 2.x and 3.0.x
 * write 4, 3.1.x 5, 3.2 to 3.8 6; 4.0.0-rc.2 to rc.45 7 (rc.35, .42,
 * .45 seen), rc.48 to rc.53 and 4.0.0 to 4.13 8, 4.14 9, 4.15 to 4.18
 * 10 (YARN_LOCKFILE_VERSION_OVERRIDE ?? 10).  A release not seen gets
 * its neighbours' range (rc.1: 6 or 7; rc.46 and .47: 7 or 8; a later
 * yarn: 10 or more), so a lockfile the pinned yarn itself writes never
 * fails.  *lo, *hi. */
static void yarn_lock_versions(const struct yarn_pin *p, long *lo, long *hi)
{
	*lo = *hi = 4;
	if (p->major == 3 && p->minor >= 2)
		*lo = *hi = 6;
	else if (p->major == 3 && p->minor == 1)
		*lo = *hi = 5;
	else if (p->major == 4 && p->minor == 0 && p->patch == 0 && p->rc >= 0) {
		if (p->rc < 2)
			*lo = 6, *hi = 7;
		else if (p->rc <= 45)
			*lo = *hi = 7;
		else if (p->rc < 48)
			*lo = 7, *hi = 8;
		else
			*lo = *hi = 8;
	} else if (p->major == 4 && p->minor <= 13)
		*lo = *hi = 8;
	else if (p->major == 4 && p->minor == 14)
		*lo = *hi = 9;
	else if (p->major >= 4)
		*lo = 10, *hi = p->major == 4 && p->minor <= 18 ? 10 : LONG_MAX;
}

/* berry's Project.ts setupResolutions reads __metadata.version; a
 * lockfile of another version than the one this yarn writes is
 * rewritten (lockfileNeedsRefresh when older, and generateLockfile
 * writes `version: LOCKFILE_VERSION` whatever it read), and --immutable
 * refuses (YN0028; seen with yarn 3.8.6, which writes 6, and 4.18.1,
 * which writes 10 and refuses the 8 that yarn 4.0 wrote).  Which yarn
 * runs is not known here: with packageManager naming a version, only
 * what that release writes passes (yarn_lock_versions), else any a
 * yarn 2 to 4 writes.  1: failed. */
static int check_metadata(const struct spec *spec, const struct lock_req *l,
			  const struct yarn_lock *y, struct result *r)
{
	struct yarn_pin pin;
	/* a yarn 1 pin over a yarn 2+ lockfile: not the yarn that wrote it */
	int pinned = pinned_yarn(spec, &pin) == 0 && pin.major >= 2;
	long v = y->meta_version, lo = 4, hi = 10;
	struct buf why = BUF_INIT;

	if (pinned)
		yarn_lock_versions(&pin, &lo, &hi);
	if (v >= lo && v <= hi)
		return 0;
	if (v == -1)
		buf_printf(&why, "%s has no __metadata version: yarn reads it as a lockfile "
			   "to write anew", l->origin.file);
	else if (v < 0)
		buf_printf(&why, "%s:%u: __metadata version is not a number", l->origin.file,
			   y->meta_line);
	else if (lo == hi)
		buf_printf(&why, "%s:%u: __metadata version %ld is not %ld, the one the pinned "
			   "yarn writes", l->origin.file, y->meta_line, v, lo);
	else if (hi == LONG_MAX)
		buf_printf(&why, "%s:%u: __metadata version %ld is older than the pinned yarn "
			   "writes (%ld or later)", l->origin.file, y->meta_line, v, lo);
	else
		buf_printf(&why, "%s:%u: __metadata version %ld is not one %s writes (%ld to %ld)",
			   l->origin.file, y->meta_line, v, pinned ? "the pinned yarn" : "yarn 2 to 4",
			   lo, hi);
	result_set(r, STATUS_FAIL, "%s", buf_str(&why));
	set_relock(r, l, "the lockfile would be rewritten");
	r->data = deps_data_new(l, NULL);
	buf_release(&why);
	return 1;
}

static int file_exists(const struct spec *spec, const char *name);

/* Every workspace's package.json against its lockfile entry.  1: failed. */
static int check_manifests(const struct spec *spec, const struct lock_req *l,
			   const struct yarn_lock *y, struct result *r)
{
	size_t i;

	/* the project's own workspace is in every lockfile yarn writes
	 * (Project.ts generateLockfile: every workspace's locator) */
	if (!yarn_lock_workspace(y, ".") && file_exists(spec, "package.json")) {
		result_set(r, STATUS_FAIL, "%s has no entry for the project itself (no "
			   "\"...@workspace:.\")", l->origin.file);
		set_relock(r, l, "the lockfile would gain it");
		r->data = deps_data_new(l, NULL);
		return 1;
	}
	for (i = 0; i < y->n; i++) {
		const struct yarn_entry *ws = &y->v[i];
		const char *cwd;
		struct blob b;
		struct lread lr;
		char *name, *why = NULL;
		int n;

		if (!ws->workspace || !(cwd = strstr(ws->resolution, "@workspace:")))
			continue;
		cwd += 11;
		if (!path_is_relative_inside(cwd) && strcmp(cwd, "."))
			continue;
		name = strcmp(cwd, ".") ? path_join(cwd, "package.json") : xstrdup("package.json");
		if (deps_read(spec->root, name, 1, DEPS_META_CAP, &b, &lr) < 0) {
			/* a workspace gone: yarn drops it from the lockfile (the
			 * root's own gone: no project yarn would run in) */
			if (lr.err == ENOENT && strcmp(cwd, ".")) {
				result_set(r, STATUS_FAIL, "%s names the workspace %s, which has no "
					   "package.json", l->origin.file, cwd);
				set_relock(r, l, "the lockfile would lose that workspace");
				r->data = deps_data_new(l, NULL);
				free(name);
				return 1;
			}
			free(name);
			continue;
		}
		n = yarn_manifest_differs(b.data, b.len, ws, &why);
		blob_release(&b);
		if (n > 0) {
			struct buf m = BUF_INIT;

			buf_add_clean(&m, name);
			buf_printf(&m, " does not match %s (%d dependenc%s): ", l->origin.file, n,
				   n == 1 ? "y" : "ies");
			buf_add_clean(&m, why);
			result_set(r, STATUS_FAIL, "%s", buf_str(&m));
			set_relock(r, l, "package.json changed without relocking");
			r->data = deps_data_new(l, NULL);
			buf_release(&m);
		}
		free(why);
		free(name);
		if (n > 0)
			return 1;
	}
	return 0;
}

/* package.json's resolutions against the lockfile: berry applies a
 * resolution to a dependency's descriptor before it is resolved
 * (Project.ts resolveEverything, the resolutionAliases its comment
 * describes: "the lockfile will contain the second descriptor but not
 * the first one"), so yarn.lock keys the package by the resolution's
 * own descriptor ("is-number@npm:6.0.0" for "is-number": "6.0.0").
 * One missing, or a dependency it overrode (no entry of its own) that
 * no resolution covers any more (one removed), and --immutable refuses (YN0028; seen with yarn
 * 3.8.6 and 4.18.1).  Only the project's own package.json: yarn reads
 * no other workspace's resolutions.  1: failed. */
static int check_resolutions(const struct spec *spec, const struct lock_req *l,
			     const struct yarn_lock *y, struct result *r)
{
	struct blob b;
	struct lread lr;
	struct buf m = BUF_INIT;
	char *why = NULL;
	int n;

	if (deps_read(spec->root, "package.json", 1, DEPS_META_CAP, &b, &lr) < 0)
		return 0;
	n = yarn_resolutions_differ(b.data, b.len, y, &why);
	blob_release(&b);
	if (n <= 0) {
		free(why);
		return 0;
	}
	if (n == 1) {
		buf_puts(&m, "package.json's resolution ");
		buf_add_clean(&m, why);
		buf_printf(&m, " is not in %s", l->origin.file);
	} else {
		buf_printf(&m, "%s resolves no entry for ", l->origin.file);
		buf_add_clean(&m, why);
		buf_puts(&m, ") and no resolution in package.json covers it (a resolution "
			 "removed)");
	}
	result_set(r, STATUS_FAIL, "%s", buf_str(&m));
	set_relock(r, l, "package.json's resolutions changed without relocking");
	r->data = deps_data_new(l, NULL);
	buf_release(&m);
	free(why);
	return 1;
}

/* .yarnrc.yml's nodeLinker (a new string).  Unset there, yarn's
 * default is pnp, unless YARN_NODE_LINKER or a .yarnrc.yml above the
 * project says otherwise: node_modules/.yarn-state.yml then tells. */
static char *node_linker(const struct spec *spec)
{
	struct blob b;
	struct lread lr;
	struct stat st;
	char *v = NULL, *p;

	if (deps_read(spec->root, ".yarnrc.yml", 1, DEPS_META_CAP, &b, &lr) == 0) {
		v = yarn_rc_linker(b.data, b.len);
		blob_release(&b);
	}
	if (v)
		return v;
	p = path_join(spec->root, "node_modules/.yarn-state.yml");
	v = xstrdup(lstat(p, &st) == 0 ? "node-modules" : "pnp");
	free(p);
	return v;
}

/* ---- node-modules ---- */

/* A folder the record names that is not on the disk, as a difference
 * of data (problem "missing", key the folder). */
static void add_missing(cJSON *data, const struct yarn_loc *loc, const struct dep_set *want)
{
	cJSON *o = cJSON_CreateObject();
	char *dv = NULL, *name;
	const struct dep *w;
	const char *at = loc->locator[0] ? strchr(loc->locator + 1, '@') : NULL;
	const char *virt = at && !strncmp(at + 1, "virtual:", 8) ? strchr(at, '#') : NULL;

	/* the lockfile's version of the devirtualised locator */
	if (virt) {
		struct buf b = BUF_INIT;

		buf_add(&b, loc->locator, (size_t)(at - loc->locator) + 1);
		buf_puts(&b, virt + 1);
		dv = buf_detach(&b);
	}
	w = dep_set_get(want, dv ? dv : loc->locator);
	name = at ? xstrndup(loc->locator, (size_t)(at - loc->locator)) : xstrdup(loc->locator);
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "problem", "missing");
	cJSON_AddStringToObject(o, "key", loc->path);
	if (w && w->version)
		cJSON_AddStringToObject(o, "lockfile", w->version);
	else
		cJSON_AddNullToObject(o, "lockfile");
	cJSON_AddNullToObject(o, "installed");
	cJSON_AddItemToArray(cJSON_GetObjectItemCaseSensitive(data, "differences"), o);
	free(name);
	free(dv);
}

/* What node_modules/.yarn-state.yml says, read (and its folders stat'ed)
 * while the lockfile is parsed on a thread of its own. */
struct nm_read {
	int rc;			/* 1 read, 0 no record, -1 unreadable (lr),
				 * -2 unparsable (e) */
	struct dep_set have;
	struct yarn_loc *locs;
	size_t nlocs;
	unsigned char *gone;	/* per location: missing from the disk */
	size_t ngone;
	struct lread lr;
	struct parse_error e;
};

static const char nm_record[] = "node_modules/.yarn-state.yml";

/* plugin-nm NodeModulesLinker.ts refreshLocationTree: a node_modules
 * folder newer than the record is read again and the locations missing
 * from it are dropped from the tree yarn believes installed, so that
 * persistNodeModules lays them out again: a deleted package folder,
 * top-level link or workspace link comes back with the next install
 * (deleting one is what makes its folder newer).  Here an lstat's answer
 * a location, "there" being any file, a dangling link too (the lstat
 * never followed the last component); "" is the project itself and a
 * workspace's own folder is not the linker's.  The locations are looked
 * up by parent (dirset.h: node_modules, node_modules/@scope, a nested
 * x/node_modules read once each, about 4 us a stat saved a package);
 * what a listing does not tell (a name not listed, a parent read
 * refused, a parent of few names) is lstat'ed as before. */
static void nm_read_record(const struct spec *spec, struct nm_read *nr)
{
	struct blob b;
	struct dirset_res *seen;
	const char **paths;
	size_t i;
	int root;

	memset(nr, 0, sizeof(*nr));
	if (deps_read(spec->root, nm_record, 0, DEPS_LOCK_CAP, &b, &nr->lr) < 0) {
		nr->rc = nr->lr.err == ENOENT ? 0 : -1;
		return;
	}
	nr->rc = yarn_nm_state_parse(b.data, b.len, &nr->have, &nr->locs, &nr->nlocs, &nr->e) < 0 ?
		 -2 : 1;
	blob_release(&b);
	nr->gone = xcalloc(nr->nlocs + 1, 1);
	if (nr->rc != 1)
		return;
	/* the linker's locations (NULL: not looked at) */
	paths = xcalloc(nr->nlocs + 1, sizeof(*paths));
	seen = xcalloc(nr->nlocs + 1, sizeof(*seen));
	for (i = 0; i < nr->nlocs; i++) {
		const char *loc = nr->locs[i].path;

		if ((!strncmp(loc, "node_modules/", 13) || strstr(loc, "/node_modules/")) &&
		    path_is_relative_inside(loc))
			paths[i] = loc;
	}
	/* each location relative to the project, opened once: no path
	 * built and no walk from / a location */
	root = open(spec->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root >= 0)
		dirset_lookup(root, paths, nr->nlocs, seen);
	for (i = 0; i < nr->nlocs; i++) {
		const char *loc = paths[i];
		struct stat st;
		int rc, err;

		if (!loc || seen[i].state == DIRSET_FOUND)
			continue;
		if (seen[i].state == DIRSET_ABSENT) {
			rc = -1;
			err = seen[i].err;
		} else if (root >= 0) {
			rc = fstatat(root, loc, &st, AT_SYMLINK_NOFOLLOW);
			err = errno;
		} else {
			char *p = path_join(spec->root, loc);

			rc = lstat(p, &st);
			err = errno;
			free(p);
		}
		if (rc < 0 && (err == ENOENT || err == ENOTDIR)) {
			nr->gone[i] = 1;
			nr->ngone++;
		}
	}
	if (root >= 0)
		close(root);
	free(seen);
	free(paths);
}

static void nm_read_release(struct nm_read *nr)
{
	dep_set_release(&nr->have);
	yarn_locs_release(nr->locs, nr->nlocs);
	free(nr->gone);
}

/* The missing folders into data's differences and m (the first few). */
static void missing_folders(const struct nm_read *nr, const struct dep_set *want, cJSON *data,
			    struct buf *m)
{
	size_t i, shown = 0;

	for (i = 0; i < nr->nlocs; i++) {
		if (!nr->gone[i])
			continue;
		if (shown < YARN_LOCS_SHOWN) {
			buf_puts(m, shown ? ", " : "");
			buf_add_clean(m, nr->locs[i].path);
		}
		shown++;
		add_missing(data, &nr->locs[i], want);
	}
}

static void run_nm(const struct spec *spec, const struct lock_req *l, const struct dep_set *want,
		   size_t skipped, struct nm_read *nr, struct result *r)
{
	struct dep_diff d;
	char why[128];
	size_t i, gone = nr->ngone;
	struct buf m = BUF_INIT;

	if (deps_node_modules_dir(spec, l, r) < 0)
		return;
	if (nr->rc == 0) {
		deps_not_installed(r, l, "node_modules/.yarn-state.yml does not exist: "
				   "yarn's node-modules linker has not installed here");
		return;
	}
	if (nr->rc == -1) {
		result_set(r, STATUS_FAIL, "cannot read %s: %s", nm_record,
			   deps_lread_why(&nr->lr, why, sizeof(why)));
		r->reason = REASON_UNREADABLE;
		deps_set_fix(r, l);
		return;
	}
	if (nr->rc == -2) {
		result_set(r, STATUS_FAIL, "%s:%u:%u: %s: what yarn installed cannot be read",
			   nm_record, nr->e.line, nr->e.col, nr->e.msg);
		r->reason = REASON_UNREADABLE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
		return;
	}
	/* a locator pins its package exactly: the record's own is the
	 * lockfile's, and so is its version (the record writes none; a
	 * patch:, file: or git locator holds no plain one) */
	for (i = 0; i < nr->have.n; i++) {
		const struct dep *w = dep_set_get(want, nr->have.v[i].key);

		if (w && w->version) {
			free(nr->have.v[i].version);
			nr->have.v[i].version = xstrdup(w->version);
		}
	}
	r->data = deps_data_new(l, nm_record);
	deps_compare(want, &nr->have, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	d.skipped += skipped;
	if (d.n > d.extra || !gone) {
		deps_report_diff(r, l, &d, nm_record);
	} else {
		missing_folders(nr, want, r->data, &m);
		cJSON_ReplaceItemInObjectCaseSensitive(r->data, "packages",
						       cJSON_CreateNumber((double)d.compared));
		cJSON_ReplaceItemInObjectCaseSensitive(r->data, "differ",
						       cJSON_CreateNumber((double)gone));
		result_set(r, STATUS_FAIL, "%zu folder%s yarn linked %s missing: %s%s", gone,
			   gone == 1 ? "" : "s", gone == 1 ? "is" : "are", buf_str(&m),
			   gone > YARN_LOCS_SHOWN ? " and more" : "");
		r->reason = REASON_OUT_OF_DATE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
	}
	dep_diff_release(&d);
	buf_release(&m);
}

/* ---- Plug'n'Play ---- */

/* gunzip in into out (capped).  0, or -1. */
static int gunzip(const struct blob *in, struct buf *out)
{
	z_stream z;
	unsigned char chunk[65536];
	int rc;

	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return -1;
	z.next_in = (unsigned char *)in->data;
	z.avail_in = (uInt)in->len;
	do {
		z.next_out = chunk;
		z.avail_out = sizeof(chunk);
		rc = inflate(&z, Z_NO_FLUSH);
		if (rc != Z_OK && rc != Z_STREAM_END)
			break;
		buf_add(out, (const char *)chunk, sizeof(chunk) - z.avail_out);
		if (out->len > YARN_STATE_CAP)
			rc = Z_MEM_ERROR;
	} while (rc == Z_OK && (z.avail_in || !z.avail_out));
	inflateEnd(&z);
	return rc == Z_STREAM_END ? 0 : -1;
}

/* The install state's lockFileChecksum is sha512(INSTALL_STATE_VERSION
 * + yarn.lock) (Project.ts setupResolutions; the version is 1 in yarn 2
 * and 3, 3 in yarn 4): the same lockfile, whichever yarn wrote it. */
static int same_lockfile(const char *sum, const struct blob *lock)
{
	static const char *const versions[] = { "3", "1", "2" };
	char out[129];
	size_t i;

	for (i = 0; sum && i < ARRAY_SIZE(versions); i++) {
		yarn_lockfile_checksum(versions[i], lock->data, lock->len, out);
		if (!strcmp(out, sum))
			return 1;
	}
	return 0;
}

static int file_exists(const struct spec *spec, const char *name)
{
	struct stat st;
	char *p = path_join(spec->root, name);
	int ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);

	free(p);
	return ok;
}

/* Whether the install was a `yarn workspaces focus` (plugin-workspace-
 * tools focus: only some workspaces, and with --production without
 * their devDependencies, resolved and installed; Project.ts then
 * stores that in the state): a workspace of the lockfile missing from
 * the state's storedPackages, or with fewer dependencies there than
 * the lockfile lists; else a package the lockfile installs here that
 * is not among accessibleLocators.  1 with the message in m. */
static int focused(const struct yarn_install_state *ist, const struct yarn_lock *y,
		   const struct dep_set *want, const struct lock_req *l, struct buf *m)
{
	size_t i, j;

	for (i = 0; i < y->n && ist->npkgs; i++) {
		const struct yarn_entry *ws = &y->v[i];
		size_t n = 0;
		long got;

		if (!ws->workspace)
			continue;
		for (j = 0; j < ws->ndeps; j++)
			n += !ws->deps[j].peer;
		got = yarn_install_state_deps(ist, ws->resolution);
		if (got < 0 || (size_t)got < n) {
			buf_puts(m, "the last install left out ");
			if (got >= 0)
				buf_printf(m, "%zu of the %zu dependencies of ", n - (size_t)got, n);
			buf_puts(m, "the workspace ");
			buf_add_clean(m, ws->resolution);
			buf_printf(m, " in %s (a yarn workspaces focus install?)", l->origin.file);
			return 1;
		}
	}
	for (i = 0; i < want->n && ist->nlocs; i++)
		if (!(want->v[i].flags & DEP_OPTIONAL) && !yarn_install_state_has(ist, want->v[i].key)) {
			buf_puts(m, "the last install left out ");
			buf_add_clean(m, want->v[i].key);
			buf_printf(m, " of %s (a yarn workspaces focus install?)", l->origin.file);
			return 1;
		}
	return 0;
}

/* What keeps Plug'n'Play from being what yarn.lock says (a failure's
 * message, into m), or 0 when nothing does. */
static int pnp_problem(const struct blob *gz, const struct blob *lock, const struct lock_req *l,
		       const struct yarn_lock *y, const struct dep_set *want, int pnp, struct buf *m,
		       enum reason *why)
{
	static const char state[] = ".yarn/install-state.gz";
	struct yarn_install_state ist;
	struct buf raw = BUF_INIT;
	int bad = 1;

	memset(&ist, 0, sizeof(ist));
	*why = REASON_OUT_OF_DATE;
	if (gunzip(gz, &raw) < 0 ||
	    yarn_install_state_parse((const unsigned char *)raw.s, raw.len, &ist) < 0 ||
	    !ist.lockfile_checksum) {
		/* yarn itself throws such a state away and resolves again */
		buf_printf(m, "%s cannot be read (not gzip, or not the state yarn writes)", state);
	} else if (!same_lockfile(ist.lockfile_checksum, lock)) {
		/* restoreInstallState: another checksum, another install */
		buf_printf(m, "%s changed since the last install (its checksum is not the "
			   "lockFileChecksum of %s)", l->origin.file, state);
	} else if (!pnp) {
		buf_printf(m, ".pnp.cjs does not exist: yarn install writes it again");
		*why = REASON_NOT_INSTALLED;
	} else if (focused(&ist, y, want, l, m)) {
		/* a `yarn workspaces focus` install: fewer workspaces, or
		 * (--production) a workspace without its devDependencies;
		 * the next yarn install adds the rest */
		;
	} else {
		bad = 0;
	}
	buf_release(&raw);
	yarn_install_state_release(&ist);
	return bad;
}

static void run_pnp(const struct spec *spec, const struct lock_req *l, const struct blob *lock,
		    const struct yarn_lock *y, const struct dep_set *want, struct result *r)
{
	static const char state[] = ".yarn/install-state.gz";
	struct buf m = BUF_INIT;
	struct blob gz;
	struct lread lr;
	enum reason why;
	int pnp = file_exists(spec, ".pnp.cjs");

	if (deps_read(spec->root, state, 1, DEPS_LOCK_CAP, &gz, &lr) < 0) {
		r->data = deps_data_new(l, pnp ? ".pnp.cjs" : NULL);
		if (!pnp) {
			deps_not_installed(r, l, "neither .pnp.cjs nor node_modules/.yarn-state.yml "
					   "exists: nothing is installed");
			return;
		}
		/* a zero-install clone: .pnp.cjs and .yarn/cache come with the
		 * repository; yarn runs from them, and without an install state
		 * restoreInstallState resolves from the lockfile alone
		 * (Project.ts applyLightResolution), changing no file */
		cJSON_ReplaceItemInObjectCaseSensitive(r->data, "packages",
						       cJSON_CreateNumber((double)want->n));
		result_set(r, STATUS_PASS, ".pnp.cjs is the repository's own (zero-install; "
			   "no .yarn/install-state.gz)");
		result_note(r, "yarn runs from the committed .pnp.cjs; with no install state "
			    "it is not compared with %s", l->origin.file);
		return;
	}
	r->data = deps_data_new(l, state);
	cJSON_ReplaceItemInObjectCaseSensitive(r->data, "packages",
					       cJSON_CreateNumber((double)want->n));
	if (pnp_problem(&gz, lock, l, y, want, pnp, &m, &why)) {
		result_set(r, STATUS_FAIL, "%s", buf_str(&m));
		r->reason = why;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
	} else {
		result_set(r, STATUS_PASS, "%s was installed from this %s (%zu packages)", state,
			   l->origin.file, want->n);
	}
	buf_release(&m);
	blob_release(&gz);
}

/* ---- yarn ---- */

/* The lockfile parsed and judged for this machine. */
struct lock_job {
	struct yarn_lock y;
	struct yarn_arch arch;
	size_t skipped;
};

/* node_modules/.yarn-state.yml read, parsed and its locations lstat'ed on
 * a thread of its own (deps_probe.h: parse_job) while the lockfile is
 * parsed on the check's: the record and the stats are the smaller part,
 * so the thread's own malloc arena stays small (growing a second arena
 * to the lockfile's size cost more system time than the thread saved). */
struct state_job {
	const struct spec *spec;
	struct nm_read *nr;
};

static int state_job_fn(struct parse_job *j)
{
	const struct state_job *sj = (const struct state_job *)j->arg;

	nm_read_record(sj->spec, sj->nr);
	return 0;
}

void deps_run_yarn(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct lock_job lj;
	struct state_job sj;
	struct parse_job job;
	struct parse_error err;
	struct nm_read nr;
	struct dep_set want = DEP_SET_INIT;
	struct platform plat;
	struct blob b;
	char *linker;
	int rc, nm;

	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	/* supportedArchitectures' default, "current": process.platform,
	 * process.arch and the C library (Configuration.ts
	 * getSupportedArchitectures) */
	platform_current(&plat);
	memset(&lj, 0, sizeof(lj));
	lj.y = (struct yarn_lock)YARN_LOCK_INIT;
	lj.arch.os = plat.os[0] ? plat.os : NULL;
	lj.arch.cpu = plat.cpu[0] ? plat.cpu : NULL;
	lj.arch.libc = plat.libc;
	linker = node_linker(spec);
	nm = !strcmp(linker, "node-modules");
	memset(&nr, 0, sizeof(nr));
	memset(&job, 0, sizeof(job));
	memset(&err, 0, sizeof(err));
	sj.spec = spec;
	sj.nr = &nr;
	job.fn = state_job_fn;
	job.arg = &sj;
	if (nm)
		deps_parse_job_start(&job);
	rc = yarn_lock_parse(b.data, b.len, &lj.y, &err);
	if (rc == 0)
		yarn_lock_wanted(&lj.y, &lj.arch, &want, &lj.skipped);
	if (nm)
		deps_parse_job_finish(&job);
	if (rc < 0) {
		deps_lockfile_invalid(r, l, &err);
		goto out;
	}
	if (rc == 1) {
		result_set(r, STATUS_SKIP, "%s is a yarn 1 lockfile: not compared "
			   "(yarn 2 and later only)", l->origin.file);
		r->reason = REASON_OUT_OF_SCOPE;
		goto out;
	}
	if (check_metadata(spec, l, &lj.y, r) || check_manifests(spec, l, &lj.y, r) ||
	    check_resolutions(spec, l, &lj.y, r))
		goto out;
	if (nm)
		run_nm(spec, l, &want, lj.skipped, &nr, r);
	else if (!strcmp(linker, "pnp"))
		run_pnp(spec, l, &b, &lj.y, &want, r);
	else {
		result_set(r, STATUS_SKIP, "nodeLinker %s: not compared (node-modules and pnp only)",
			   !strcmp(linker, "pnpm") ? "pnpm" : "(another)");
		r->reason = REASON_OUT_OF_SCOPE;
	}
out:
	nm_read_release(&nr);
	free(linker);
	blob_release(&b);
	yarn_lock_release(&lj.y);
	dep_set_release(&want);
}
