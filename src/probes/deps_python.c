/* deps_python.c - the deps probe's uv, poetry and pip: the lockfile
 * against a virtual environment's site-packages, its markers decided for
 * the interpreter pyvenv.cfg names.  What the managers share is
 * probe_deps.c's (deps_probe.h).
 */
#include "deps_probe.h"
#include "probe.h"
#include "deps.h"
#include "pep440.h"
#include "poetryhash.h"
#include "toml.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* ---- Python ---- */

struct venv {
	char *dir;		/* absolute */
	char *site[4];		/* site-packages directories found */
	size_t nsite;
	char version[32];	/* pyvenv.cfg version_info / version */
	char short_version[16];
	char impl[32];
	int by_uv, seeded;	/* pyvenv.cfg: "uv = ..." and "seed = true" */
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
		} else if (k == 2 && !memcmp(s, "uv", 2)) {
			v->by_uv = 1;
		} else if (k == 4 && !memcmp(s, "seed", 4)) {
			v->seeded = n == 4 && !strncasecmp(eq, "true", 4);
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

/* deps_list_entries of the directory abs (NULL when it cannot be read). */
static char **list_dir(const char *abs, size_t *n)
{
	DIR *d = opendir(abs);
	char **v;

	*n = 0;
	if (!d)
		return NULL;
	v = deps_list_entries(d, n);
	closedir(d);
	return v;
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
		if (deps_many_read_run(&m, v->site[s]) < 0)
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

/* pyproject.toml's tree, which says what poetry install installs (its
 * declarations and optional groups: deps_poetry_parse), or NULL. */
/* The pyproject.toml beside the lockfile, parsed (NULL: none, or not
 * TOML). */
static struct toml_value *lock_pyproject(const struct spec *spec, const struct lock_req *l)
{
	const char *slash = strrchr(l->origin.file, '/');
	struct blob b;
	struct lread lr;
	struct toml_value *root = NULL;
	struct parse_error te;
	struct buf name = BUF_INIT;
	int rc;

	if (slash)
		buf_printf(&name, "%.*s/", (int)(slash - l->origin.file), l->origin.file);
	buf_puts(&name, "pyproject.toml");
	rc = deps_read(spec->root, buf_str(&name), 1, DEPS_META_CAP, &b, &lr);
	buf_release(&name);
	if (rc < 0)
		return NULL;
	if (toml_parse(b.data, b.len, NULL, &root, &te) < 0)
		root = NULL;
	blob_release(&b);
	return root;
}

/* What poetry install says of the lock before it installs: fresh is
 * poetry_hash_fresh's answer on the lock's content-hash; refused, that
 * a stale lock is refused, not installed with a warning. */
struct poetry_state {
	int fresh;
	int refused;
};

/* The value of a `key = "..."` line of poetry.lock's [metadata], as
 * poetry's writer puts it (tomlkit: one line, a basic string without
 * escapes): a new string, or NULL. */
static char *lock_meta(const struct blob *b, const char *key)
{
	size_t kl = strlen(key), i;
	const char *p = b->data, *end = b->data + b->len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *q;

		if (!nl)
			nl = end;
		if ((size_t)(nl - p) > kl + 4 && !memcmp(p, key, kl) &&
		    !memcmp(p + kl, " = \"", 4)) {
			q = memchr(p + kl + 4, '"', (size_t)(nl - p - kl - 4));
			for (i = kl + 4; q && p + i < q; i++)
				if (p[i] == '\\')
					return NULL;
			return q ? xstrndup(p + kl + 4, (size_t)(q - p - kl - 4)) : NULL;
		}
		p = nl + 1;
	}
	return NULL;
}

/* The poetry that wrote the lock, from its first line ("# This file is
 * automatically @generated by Poetry 2.3.1 and ..."): major * 100 +
 * minor, or -1 when it does not say (poetry before 1.2). */
static int lock_writer(const struct blob *b)
{
	static const char lead[] = "# This file is automatically @generated by Poetry ";
	const char *p = b->data;
	unsigned long major, minor;
	char *end;

	if (b->len < sizeof(lead) || memcmp(p, lead, sizeof(lead) - 1))
		return -1;
	p += sizeof(lead) - 1;
	if (*p < '0' || *p > '9')
		return -1;
	major = strtoul(p, &end, 10);
	if (*end != '.' || end[1] < '0' || end[1] > '9' || major > 99)
		return -1;
	minor = strtoul(end + 1, NULL, 10);
	return minor > 99 ? -1 : (int)(major * 100 + minor);
}

/* Which of poetryhash.h's releases may judge the lock, from who wrote it:
 * poetry >= 2.3 hashes [dependency-groups] and falls back to the hash
 * without them only for a lock an older poetry wrote (locker.py
 * is_fresh); 2.0 to 2.2 wrote lock-version 2.1 with [project]'s hash;
 * 1.x anything.  A stale lock is refused from poetry 1.8 on
 * (installer.py: "pyproject.toml changed significantly since poetry.lock
 * was last generated"), installed with a warning before ("poetry.lock is
 * not consistent with pyproject.toml"): the writer stands for the poetry
 * that will install. */
static void poetry_state_read(struct poetry_state *ps, const struct blob *b,
			      const struct toml_value *pyproject)
{
	char *hash = lock_meta(b, "content-hash"), *lv = lock_meta(b, "lock-version");
	int lock21 = deps_poetry_lock21(lv);
	int writer = lock_writer(b);
	int since = writer >= 203 ? 2 : lock21 || writer >= 200 ? 1 : 0;

	ps->fresh = poetry_hash_fresh(pyproject, hash, since);
	ps->refused = lock21 || writer >= 108;
	free(hash);
	free(lv);
}

/* The lockfile's packages for the environment v (b: the lockfile's
 * bytes).  Returns 0, or -1 with e; pip: what deps_pip_parse says of the
 * lines not compared, in *pip. */
static int python_parse(const struct spec *spec, const struct lock_req *l,
			const struct venv *v, const struct blob *b, struct dep_set *want,
			struct parse_error *e, struct pip_parse *pip, struct buf *unlocked,
			struct poetry_state *ps)
{
	struct toml_value *pyproject;
	int rc;

	memset(pip, 0, sizeof(*pip));
	if (l->kind == LOCK_UV) {
		pyproject = unlocked ? lock_pyproject(spec, l) : NULL;
		rc = deps_uv_parse(b->data, b->len, &v->env, pyproject, want, unlocked, e);
		toml_free(pyproject);
		return rc;
	}
	if (l->kind == LOCK_PIP) {
		/* pip expands ${NAME} with os.getenv(): our environment, the
		 * one pip would run in (read only: nothing sets it meanwhile) */
		pip->env = &v->env;
		pip->environ = (const char *const *)environ;
		return deps_pip_parse(b->data, b->len, pip, want, e);
	}
	pyproject = lock_pyproject(spec, l);
	rc = deps_poetry_parse(b->data, b->len, &v->env, pyproject, want, unlocked, e);
	if (rc == 0 && ps && pyproject)
		poetry_state_read(ps, b, pyproject);
	toml_free(pyproject);
	return rc;
}

struct py_job_arg {
	const struct spec *spec;
	const struct lock_req *l;
	const struct venv *v;
	struct pip_parse pip;
	struct buf unlocked;	/* poetry: declared, not in the lock; uv: why
				 * uv sync --locked refuses it */
	struct poetry_state ps;
};

static int py_job(struct parse_job *j)
{
	struct py_job_arg *a = (struct py_job_arg *)j->arg;

	return python_parse(a->spec, a->l, a->v, j->b, j->out, &j->err, &a->pip, &a->unlocked,
			    &a->ps);
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
		deps_not_installed(r, l, l->kind == LOCK_UV && !strcmp(l->venv_from, ".venv") ?
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
		deps_not_installed(r, l, "the virtual environment is not a directory");
		return -1;
	}
	read_pyvenv(v);
	venv_env(v);
	find_site(v);
	if (!v->nsite) {
		deps_not_installed(r, l,
				   "the virtual environment has no lib/python*/site-packages: "
				   "nothing is installed");
		return -1;
	}
	return 0;
}

/* Is the installed h what pip's requirement w asks?  pip keeps an
 * installed distribution when specifier.contains(version,
 * prereleases=True) (pip src/pip/_internal/resolution/resolvelib/
 * factory.py _get_installed_candidate), packaging's rules
 * (src/packaging/specifiers.py): "==V" ignores the installed version's
 * local label unless V has one (_compare_equal: 2.1.0 is satisfied by
 * 2.1.0+cpu, 2.1.0+cpu only by itself), "===V" is string equality with
 * str(Version), the normalised form, case-insensitively
 * (_compare_arbitrary). */
static int pip_satisfied(const struct dep *w, const struct dep *h)
{
	char spec[512], norm[256];

	if (!w->version)
		return 1;	/* no specifier: any version will do */
	if (!h->version)
		return 0;
	if (strchr("=!<>~", w->version[0]))	/* a specifier, not a pin */
		return pep440_check(w->version, h->version, NULL, 0) == 1;
	if (w->extra && !strncmp(w->extra, "===", 3)) {
		if (pep440_normalize(h->version, norm, sizeof(norm)) < 0)
			snprintf(norm, sizeof(norm), "%s", h->version);
		return !strcasecmp(norm, w->version);
	}
	if ((size_t)snprintf(spec, sizeof(spec), "==%s", w->version) >= sizeof(spec))
		return 0;
	/* a version that is no PEP 440 (an unset ${VAR}): pip finds no such
	 * version and stops */
	return pep440_check(spec, h->version, NULL, 0) == 1;
}

/* deps_compare for pip: by normalised name (pip's canonical names),
 * versions by pip_satisfied; extras are not pip's business. */
static void pip_compare(const struct dep_set *want, const struct dep_set *have,
			struct dep_diff *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < want->n; i++) {
		const struct dep *w = &want->v[i], *h = dep_set_get(have, w->key);
		struct dep_diff_item it = { DEP_MISSING, w, h };

		if (!h && (w->flags & DEP_UNDECIDED)) {
			out->skipped++;
			continue;
		}
		out->compared++;
		if (h && (h->flags & DEP_NO_VERSION))
			it.problem = DEP_UNKNOWN_VERSION;
		else if (h && pip_satisfied(w, h))
			continue;
		else if (h)
			it.problem = DEP_VERSION;
		grow(&out->v, sizeof(*out->v), &out->cap, out->n + 1);
		out->v[out->n++] = it;
	}
}

/* What a message and the data show of a pin is its version as written:
 * one that came from ${VAR} is never shown expanded (a value of the
 * environment may be a secret). */
static void pip_shown(struct dep_set *want)
{
	size_t i;

	for (i = 0; i < want->n; i++) {
		struct dep *w = &want->v[i];
		const char *raw = w->extra;

		if (!raw || !w->version)
			continue;
		if (!strchr("=!<>~", w->version[0]))	/* a pin: its version */
			raw += strspn(raw, "= \t");
		if (strcmp(w->version, raw)) {
			free(w->version);
			w->version = xstrdup(raw);
		}
	}
}

/* A ${NAME} pip leaves as written (unset or empty): no version is
 * called that, so `pip install -r` stops as this check does; setting the
 * variable is the fix, no command (the name is said, never a value). */
static void pip_unset(struct result *r, const struct lock_req *l, const struct pip_parse *p)
{
	result_fix_clear(r);
	result_hint(r, "%s:%u: ${%s} is not set in the environment, and pip leaves it as "
		    "written: set it, then run pip install -r %s", l->origin.file,
		    p->unset_line, p->unset, l->origin.file);
}

/* uv sync is exact (uv-installer src/plan.rs Planner::build: every
 * installed distribution the lock does not name is "extraneous" and
 * removed), but for the seed packages it keeps unless uv made the
 * environment without --seed (pyvenv.cfg "uv" and no "seed = true"):
 * is_seed_package() is pip and uv, and on Python < 3.12 setuptools and
 * wheel too. */
static void uv_keeps(const struct venv *v, struct dep_diff *d)
{
	int keep_seed = !(v->by_uv && !v->seeded);
	int old = !v->env.python_version || pep440_check("<3.12", v->env.python_version,
							 NULL, 0) == 1;
	size_t i, k;

	for (i = k = 0; i < d->n; i++) {
		const struct dep_diff_item *it = &d->v[i];
		const char *key = it->have ? it->have->key : "";

		if (it->problem == DEP_EXTRA && keep_seed &&
		    (!strcmp(key, "pip") || !strcmp(key, "uv") ||
		     (old && (!strcmp(key, "setuptools") || !strcmp(key, "wheel"))))) {
			d->extra--;
			continue;
		}
		d->v[k++] = d->v[i];
	}
	d->n = k;
}

/* pyproject.toml declares what poetry.lock lacks: poetry install cannot
 * install from this lock (1.x fails to solve a registry package from it;
 * 2.x refuses it whole), so the fix is the relock, said as such: poetry
 * lock, which every poetry takes (poetry 2.0 dropped --no-update, which
 * 1.x needs to keep the other versions: the hint says so). */
static void poetry_relock(struct result *r, const struct lock_req *l, const char *names,
			  const char *why)
{
	if (names) {
		char *clean = text_clean(names);	/* names from the repository */

		result_set(r, STATUS_FAIL, "pyproject.toml declares what %s does not have: %s",
			   l->origin.file, clean);
		free(clean);
	} else {
		result_set(r, STATUS_FAIL, "pyproject.toml changed significantly since %s "
			   "was last generated: %s", l->origin.file, why);
	}
	r->reason = REASON_OUT_OF_DATE;
	r->data = deps_data_new(l, l->venv);
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "poetry", "lock", (char *)NULL);
	result_fix_writes(r, l->origin.file);
	result_hint(r, "poetry install cannot install from %s as it is (\"pyproject.toml "
		    "changed significantly since poetry.lock was last generated\"): run poetry "
		    "lock to relock (poetry lock --no-update with poetry 1.x, to keep the other "
		    "versions), then poetry install, and commit %s", l->origin.file,
		    l->origin.file);
}

/* pyproject.toml and uv.lock disagree (deps_uv_parse's stale): uv sync
 * --locked refuses ("The lockfile at `uv.lock` needs to be updated, but
 * `--locked` was provided"; uv's project/lock.rs), so the fix is the
 * relock, said as such. */
static void uv_relock(struct result *r, const struct lock_req *l, const char *why)
{
	char *clean = text_clean(why);	/* names from the repository */

	result_set(r, STATUS_FAIL, "pyproject.toml and %s are not in sync: %s", l->origin.file,
		   clean);
	free(clean);
	r->reason = REASON_OUT_OF_DATE;
	r->data = deps_data_new(l, l->venv);
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "uv", "lock", (char *)NULL);
	result_fix_writes(r, l->origin.file);
	result_hint(r, "uv sync --locked refuses %s as it is (it needs to be updated): run uv "
		    "lock to relock, then uv sync --locked, and commit %s", l->origin.file,
		    l->origin.file);
}

/* python_parse's unlocked: the manager's relock is due (r replaced). */
static void relock_due(struct result *r, const struct lock_req *l, const char *what)
{
	cJSON_Delete(r->data);
	r->data = NULL;
	if (l->kind == LOCK_UV)
		uv_relock(r, l, what);
	else
		poetry_relock(r, l, what, NULL);
}

/* A lock a poetry before 1.8 wrote whose content-hash no longer matches:
 * that poetry installs from it all the same, with a warning (installer.py:
 * "poetry.lock is not consistent with pyproject.toml"); 1.8 and later
 * refuse it.  Which poetry runs is not told: a pass becomes a warning,
 * with the relock as the fix. */
static void poetry_stale_old(struct result *r, const struct lock_req *l)
{
	result_note(r, "%s is not consistent with pyproject.toml (its content-hash no "
		    "longer matches): the poetry that wrote it installs from it with a "
		    "warning, poetry 1.8 and later refuse it", l->origin.file);
	if (r->status != STATUS_PASS)
		return;
	result_set(r, STATUS_WARN, "%s, but %s is not consistent with pyproject.toml",
		   r->message ? r->message : "", l->origin.file);
	r->reason = REASON_OUT_OF_DATE;
	result_fix_argv(r, FIX_AGENT, FIX_NEEDS_NETWORK, "poetry", "lock", (char *)NULL);
	result_fix_writes(r, l->origin.file);
	result_hint(r, "run poetry lock (poetry lock --no-update with poetry 1.x, to keep "
		    "the versions) and commit %s", l->origin.file);
}

void deps_run_python(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT;
	struct dep_diff d;
	struct venv v;
	struct buf where = BUF_INIT;
	struct blob b = { NULL, 0 };
	struct parse_error e;
	struct pip_parse pip;
	struct parse_job job;
	struct py_job_arg pa;
	int scanned;

	memset(&v, 0, sizeof(v));
	memset(&pa, 0, sizeof(pa));
	if (deps_read_lockfile(spec, l, &b, r) < 0)
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
		/* a lockfile no tool can read, or one the manager refuses
		 * before it installs (its install would be a fix that cannot
		 * work), says more than the environment */
		venv_env(&v);
		if (python_parse(spec, l, &v, &b, &want, &e, &pip, &pa.unlocked, NULL) < 0)
			deps_lockfile_invalid(r, l, &e);
		else if (pa.unlocked.len)
			relock_due(r, l, buf_str(&pa.unlocked));
		goto out;
	}
	/* the lockfile is parsed while the environment is read */
	memset(&job, 0, sizeof(job));
	job.fn = py_job;
	job.b = &b;
	job.out = &want;
	pa.spec = spec;
	pa.ps.fresh = -1;
	pa.l = l;
	pa.v = &v;
	job.arg = &pa;
	deps_parse_job_start(&job);
	scanned = scan_site(&v, &have, ctx->deadline_ms);
	if (deps_parse_job_finish(&job) < 0) {
		deps_lockfile_invalid(r, l, &job.err);
		goto out;
	}
	if (pa.unlocked.len) {
		relock_due(r, l, buf_str(&pa.unlocked));
		goto out;
	}
	if (pa.ps.fresh == 0 && pa.ps.refused) {
		poetry_relock(r, l, NULL, "its content-hash no longer matches");
		goto out;
	}
	if (pa.pip.unpinned)
		result_note(r, "%s: %zu requirement%s naming no version to compare (a URL, a "
			    "path) not checked", l->origin.file, pa.pip.unpinned,
			    pa.pip.unpinned == 1 ? "" : "s");
	if (pa.pip.includes)
		result_note(r, "%s: %zu -r/-c line%s not followed (each requirements*.txt "
			    "is a check of its own)", l->origin.file, pa.pip.includes,
			    pa.pip.includes == 1 ? "" : "s");
	if (scanned < 0) {
		result_set(r, STATUS_ERROR, "the virtual environment was not read before "
			   "the deadline");
		r->reason = REASON_TIMEOUT;
		goto out;
	}
	buf_printf(&where, "%s (%s)", l->venv, l->venv_from);
	r->data = deps_data_new(l, l->venv);
	if (l->kind == LOCK_PIP) {
		pip_compare(&want, &have, &d);
		pip_shown(&want);
	} else if (l->kind == LOCK_UV) {
		deps_compare(&want, &have, DEPS_CMP_PEP440 | DEPS_CMP_EXTRAS, &d);
		uv_keeps(&v, &d);
	} else {
		deps_compare(&want, &have, DEPS_CMP_PEP440, &d);
	}
	deps_report_diff(r, l, &d, buf_str(&where));
	if (l->kind == LOCK_PIP && pa.pip.unset[0] && r->status == STATUS_FAIL)
		pip_unset(r, l, &pa.pip);
	if (pa.ps.fresh == 0)
		poetry_stale_old(r, l);
	if (!v.env.python_version)
		result_note(r, "no Python version in %s/pyvenv.cfg: markers on it were not "
			    "decided", l->venv);
	dep_diff_release(&d);
out:
	blob_release(&b);
	buf_release(&where);
	buf_release(&pa.unlocked);
	venv_release(&v);
	dep_set_release(&want);
	dep_set_release(&have);
}
