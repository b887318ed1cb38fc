/* spec_deps.c - the lockfiles of the repository's root, for the deps
 * probe: one lock_req per lockfile found, and for a Python lockfile the
 * environment its manager installs into.
 *
 * Nothing is read here but directory entries: a lockfile can be tens of
 * megabytes, and whether its packages are installed is state, like a
 * port, so the probe reads it on its worker under the deadline.  A
 * lockfile counts as a file to audit (a repository with only a
 * requirements.txt is not "nothing to audit").
 *
 * Workspaces: only the root's lockfiles for now; the id keeps room for
 * a workspace part after the kind.
 */
#include "specfile.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* In the order of the checks.  npm: a npm-shrinkwrap.json wins over a
 * package-lock.json beside it (npm docs, package-lock-json: "If both
 * ... are present ..., npm-shrinkwrap.json will take precedence";
 * arborist shrinkwrap.js reads `sw || lock`). */
static const char *const files[] = {
	"npm-shrinkwrap.json", "package-lock.json", "pnpm-lock.yaml", "yarn.lock",
	"bun.lock", "bun.lockb", "uv.lock", "poetry.lock", "requirements.txt", NULL
};

#define PIP_FILES_MAX 16	/* requirements*.txt files taken */

static int exists(const struct spec *spec, const char *name)
{
	struct stat st;
	char *p = path_join(spec->root, name);
	int rc = lstat(p, &st) == 0;

	free(p);
	return rc;
}

static struct lock_req *add_lock(struct spec *spec, enum lock_kind kind,
				 const char *file, const char *id)
{
	struct lock_req *l;

	grow(&spec->locks, sizeof(*spec->locks), &spec->locks_cap, spec->nlocks + 1);
	l = &spec->locks[spec->nlocks++];
	memset(l, 0, sizeof(*l));
	l->kind = kind;
	l->origin.file = spec_add_file(spec, file);
	l->id = xstrdup(id);
	return l;
}

/* The environment a Python manager installs into (see the man page's
 * deps probe):
 *   uv      UV_PROJECT_ENVIRONMENT, else .venv (uv's project environment;
 *           an active VIRTUAL_ENV elsewhere is ignored by `uv sync`);
 *   poetry  the active VIRTUAL_ENV, else .venv when it exists (poetry
 *           uses an in-project .venv it finds); else none: poetry's own
 *           environments live in its cache, not looked at;
 *   pip     the active VIRTUAL_ENV, else .venv when it exists. */
static void pick_venv(struct spec *spec, struct lock_req *l)
{
	const char *active = getenv("VIRTUAL_ENV");
	const char *uv = getenv("UV_PROJECT_ENVIRONMENT");

	if (l->kind == LOCK_UV && uv && *uv) {
		l->venv = xstrdup(uv);
		l->venv_from = "UV_PROJECT_ENVIRONMENT";
	} else if (l->kind == LOCK_UV) {
		l->venv = xstrdup(".venv");
		l->venv_from = ".venv";
	} else if (active && *active) {
		l->venv = xstrdup(active);
		l->venv_from = "VIRTUAL_ENV";
	} else if (exists(spec, ".venv")) {
		l->venv = xstrdup(".venv");
		l->venv_from = ".venv";
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* requirements.txt, requirements-dev.txt, requirements_test.txt, ...:
 * names usable in a check id only ([A-Za-z0-9._-]), sorted. */
static void pip_files(struct spec *spec)
{
	DIR *d = opendir(spec->root);
	struct dirent *e;
	char *names[PIP_FILES_MAX];
	size_t n = 0, i;

	if (!d)
		return;
	while ((e = readdir(d)) && n < PIP_FILES_MAX) {
		size_t len = strlen(e->d_name);

		if (len < 16 || strncmp(e->d_name, "requirements", 12) ||
		    strcmp(e->d_name + len - 4, ".txt") || !env_key_valid(e->d_name))
			continue;
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		struct buf id = BUF_INIT;

		buf_printf(&id, "deps.pip.%s", names[i]);
		pick_venv(spec, add_lock(spec, LOCK_PIP, names[i], buf_str(&id)));
		buf_release(&id);
		free(names[i]);
	}
}

static int deps_load(struct spec *spec, struct errbuf *err)
{
	static const struct {
		const char *file, *id;
		enum lock_kind kind;
	} fixed[] = {
		{ "npm-shrinkwrap.json", "deps.npm", LOCK_NPM },
		{ "package-lock.json", "deps.npm", LOCK_NPM },
		{ "pnpm-lock.yaml", "deps.pnpm", LOCK_PNPM },
		{ "yarn.lock", "deps.yarn", LOCK_YARN },
		/* bun reads bun.lock when both are there, and bun.lockb (the
		 * binary lockfile before bun 1.2) only without one (lockfile.zig
		 * loadFromCwd) */
		{ "bun.lock", "deps.bun", LOCK_BUN },
		{ "bun.lockb", "deps.bun", LOCK_BUN },
		{ "uv.lock", "deps.uv", LOCK_UV },
		{ "poetry.lock", "deps.poetry", LOCK_POETRY },
	};
	size_t i;
	int npm = 0, bun = 0;

	(void)err;
	/* a workspace is installed with the repository: npm, pnpm, yarn and
	 * uv keep one lockfile at the top for every workspace and ignore a
	 * workspace's own (npm's arborist loads only the root's), so only the
	 * repository's lockfiles are compared */
	if (spec->parent)
		return 0;
	for (i = 0; i < ARRAY_SIZE(fixed); i++) {
		struct lock_req *l;

		if (!exists(spec, fixed[i].file) || (fixed[i].kind == LOCK_NPM && npm++) ||
		    (fixed[i].kind == LOCK_BUN && bun++))
			continue;
		l = add_lock(spec, fixed[i].kind, fixed[i].file, fixed[i].id);
		if (l->kind == LOCK_UV || l->kind == LOCK_POETRY)
			pick_venv(spec, l);
	}
	pip_files(spec);
	return 0;
}

const struct spec_source source_deps = {
	.name = "lockfiles",
	.files = files,
	.load = deps_load,
};
