/* runtime_hint.c - how to get a version that satisfies a requirement,
 * fit for the version manager in use (volta, nvm, asdf, mise, pyenv), or
 * generic advice by runtime.
 *
 * Hints name a command only with values runtime_req.c validated (a
 * version that parsed, a codename from the built-in table), never text as
 * the repository wrote it.
 */
#include "runtimes.h"
#include "runtime_ask.h"
#include "saferead.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum {
	MGR_VOLTA = 1 << 0, MGR_NVM = 1 << 1, MGR_ASDF = 1 << 2,
	MGR_MISE = 1 << 3, MGR_PYENV = 1 << 4,
};

/* A version manager is in use when its variable is set or its home
 * directory exists; it is the one that installed a binary whose path
 * goes through its directory. */
static const struct manager {
	unsigned bit;
	const char *name;
	const char *env[2];
	const char *home;	/* below $HOME */
	const char *in_path;
} managers[] = {
	{ MGR_VOLTA, "volta", { "VOLTA_HOME", NULL }, ".volta", "/.volta/" },
	{ MGR_NVM, "nvm", { "NVM_DIR", NULL }, ".nvm", "/.nvm/" },
	{ MGR_ASDF, "asdf", { "ASDF_DIR", "ASDF_DATA_DIR" }, ".asdf", "/.asdf/" },
	{ MGR_MISE, "mise", { "MISE_DATA_DIR", "MISE_SHELL" }, ".local/share/mise",
	  "/mise/" },
	{ MGR_PYENV, "pyenv", { "PYENV_ROOT", NULL }, ".pyenv", "/.pyenv/" },
};

static int manager_present(const struct manager *m)
{
	const char *home = getenv("HOME");
	struct stat st;
	char *dir;
	int yes;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m->env); i++) {
		const char *v = m->env[i] ? getenv(m->env[i]) : NULL;

		if (v && *v)
			return 1;
	}
	if (!home || home[0] != '/')
		return 0;
	dir = path_join(home, m->home);
	yes = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	free(dir);
	return yes;
}

/* Which manager should install a runtime (one bit of wanted), or NULL:
 * the one the binary found came from, then the one that reads the file
 * of the requirement checked (src), then the first in use. */
static const struct manager *manager_pick(enum req_source src, unsigned wanted,
					  const char *path)
{
	unsigned prefer = 0;
	size_t i;

	for (i = 0; path && i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted) && strstr(path, managers[i].in_path))
			return &managers[i];
	if (src == SRC_NVMRC)
		prefer = MGR_NVM;
	else if (src == SRC_PYTHON_VERSION)
		prefer = MGR_PYENV;
	else if (src == SRC_TOOL_VERSIONS)
		prefer = MGR_ASDF | MGR_MISE;
	else if (src == SRC_VOLTA)
		prefer = MGR_VOLTA;
	for (i = 0; i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted & prefer) && manager_present(&managers[i]))
			return &managers[i];
	for (i = 0; i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted) && manager_present(&managers[i]))
			return &managers[i];
	return NULL;
}

static unsigned managers_for(const char *name)
{
	if (!strcmp(name, "node"))
		return MGR_VOLTA | MGR_NVM | MGR_ASDF | MGR_MISE;
	if (!strcmp(name, "python"))
		return MGR_PYENV | MGR_ASDF | MGR_MISE;
	if (!strcmp(name, "npm") || !strcmp(name, "pnpm") || !strcmp(name, "yarn"))
		return MGR_VOLTA;
	return MGR_ASDF | MGR_MISE;
}

static const char *asdf_plugin(const char *name)
{
	return !strcmp(name, "node") ? "nodejs" : !strcmp(name, "go") ? "golang" : name;
}

/* What one hint is about: runtime name, checked for a requirement of
 * source src, to be brought to target t. */
struct want {
	const char *name;
	const char *display;	/* "Node.js" */
	enum req_source src;
	const struct runtime_target *t;
	const char *path;	/* the binary found, or NULL */
	const char *dir;	/* where the fix runs (absolute) */
	const char *root;	/* the repository (absolute) */
};

/* ---- node, python, go and the rest: a version manager, or generic ---- */

/* Generic advice, by runtime, with v a validated version or "". */
static void hint_generic(struct result *res, const struct want *w)
{
	const char *v = w->t->num, *sp = *v ? " " : "";

	if (!strcmp(w->name, "node"))
		result_hint(res, "install Node.js%s%s (https://nodejs.org/ or your "
			    "package manager)", sp, v);
	else if (!strcmp(w->name, "python"))
		result_hint(res, "install Python%s%s (https://www.python.org/downloads/ "
			    "or your package manager)", sp, v);
	else if (!strcmp(w->name, "go"))
		/* go.mod's lines are minimums; a version file's (.tool-versions,
		 * mise) names that release line only */
		result_hint(res, "install Go%s%s%s (https://go.dev/dl/)", sp, v,
			    *v && (w->src == SRC_GO_MOD || w->src == SRC_GO_TOOLCHAIN) ?
			    " or later" : "");
	else if (versions_token_safe(w->name))
		result_hint(res, "install %s%s%s, or add the directory that holds it "
			    "to PATH", w->display, sp, v);
}

/* "3.12.1" < "3.12.10": dotted numbers by value. */
static int dotted_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		size_t na = strspn(a, "0123456789"), nb = strspn(b, "0123456789");
		int c = versions_numcmp(a, na, b, nb);

		if (c)
			return c;
		a += na + (a[na] == '.');
		b += nb + (b[nb] == '.');
	}
	return *a ? 1 : *b ? -1 : 0;
}

/* The newest CPython that pyenv has installed ($PYENV_ROOT/versions/X.Y.Z,
 * or ~/.pyenv) and that every python requirement admits, into out; 0 when
 * none.  Only plain X.Y.Z names count: they are safe to name in a hint. */
static int pyenv_installed(const struct runtime_target *t, char *out, size_t n)
{
	const char *root = getenv("PYENV_ROOT"), *home = getenv("HOME");
	char *base, *dir;
	struct dirent *e;
	DIR *d;

	*out = '\0';
	if (root && root[0] == '/')
		base = xstrdup(root);
	else if (home && home[0] == '/')
		base = path_join(home, ".pyenv");
	else
		return 0;
	dir = path_join(base, "versions");
	free(base);
	d = opendir(dir);
	free(dir);
	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		const char *v = e->d_name;

		if (strspn(v, "0123456789.") != strlen(v) || strlen(v) >= n ||
		    !versions_token_safe(v) || (*out && dotted_cmp(v, out) <= 0))
			continue;
		if (runtime_target_admits(t, "python", v))
			memcpy(out, v, strlen(v) + 1);
	}
	closedir(d);
	return *out != '\0';
}

/* pyenv: a version it has installed that fits needs no install
 * (issue 7): pick it for the repository instead. */
static void hint_pyenv(struct result *res, const struct want *w)
{
	const struct runtime_target *t = w->t;
	int reads = (t->reads >> SRC_PYTHON_VERSION) & 1;
	char have[40];

	if (pyenv_installed(t, have, sizeof(have))) {
		if (reads) {
			result_hint(res, "pyenv has %s installed, which .python-version "
				    "selects, but it is not the python on PATH: put "
				    "pyenv's shims first (eval \"$(pyenv init -)\")", have);
			/* an installer is there: the shell's setup is not */
			res->no_fix = NO_FIX_NEEDS_A_PERSON;
		} else {
			result_hint(res, "pyenv local %s (installed already, it "
				    "satisfies every python requirement)", have);
			result_fix_argv(res, FIX_AGENT, 0, "pyenv", "local", have, (char *)NULL);
			result_fix_writes(res, ".python-version");
		}
	} else if (reads) {
		result_hint(res, "pyenv install (it reads .python-version)");
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "pyenv", "install",
				(char *)NULL);
	} else if (*t->num) {
		result_hint(res, "pyenv install %s", t->num);
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "pyenv", "install",
				t->num, (char *)NULL);
	} else {
		res->no_fix = NO_FIX_NEEDS_A_PERSON;	/* a version to choose */
		result_hint(res, "pyenv install --list, then pyenv install a "
			    "version the requirement admits");
	}
}

/* The config files mise use may write in one directory: the model's
 * spec_mise_files (mise's LOCAL_CONFIG_FILENAMES, src/config/mod.rs, less
 * the conf.d drop-ins it never writes); .tool-versions is taken only
 * where it is the one there (first_config_file). */


/* What `mise use` run in w->dir writes, relative to it, into b; 0 when
 * it writes outside the repository.  mise's resolve_target_config_path
 * and nearest_local_config_file: the nearest directory upwards that has
 * a config file, and in it the first of spec_mise_files; none at all: a new
 * mise.toml where it runs (in HOME it writes the global file). */
static int mise_use_writes(const struct want *w, struct buf *b)
{
	const char *home = getenv("HOME");
	char *d = xstrdup(w->dir), *slash;
	int inside = 0, found = 0;

	if (home && !strcmp(home, w->dir)) {
		free(d);
		return 0;
	}
	while (!found) {
		size_t i;

		for (i = 0; spec_mise_files[i] && !found; i++) {
			char *f = path_join(*d ? d : "/", spec_mise_files[i]);
			struct stat st;

			if (stat(f, &st) == 0 && S_ISREG(st.st_mode)) {
				found = 1;
				inside = path_is_inside(*d ? d : "/", w->root);
				if (inside) {
					/* relative to where it runs: up from
					 * w->dir to d, then the file */
					const char *c;

					for (c = w->dir + strlen(d); *c; c++)
						if (*c == '/')
							buf_puts(b, "../");
					buf_puts(b, spec_mise_files[i]);
				}
			}
			free(f);
		}
		if (found || !*d || !(slash = strrchr(d, '/')))
			break;
		*slash = '\0';
	}
	free(d);
	if (!found) {
		buf_puts(b, "mise.toml");
		return 1;
	}
	return inside && b->len;
}

/* The install command of version manager m for w. */
static void hint_manager(struct result *res, const struct want *w,
			 const struct manager *m)
{
	const struct runtime_target *t = w->t;
	const char *name = w->name, *num = t->num;
	const char *sep = *num ? "@" : "";
	struct buf arg = BUF_INIT, writes = BUF_INIT;

	/* every fix below runs the manager as its hint says, with words
	 * that passed versions_token_safe (num, t->nvm, name); nvm is a
	 * shell function, which a harness runs in a shell that loaded it */
	switch (m->bit) {
	case MGR_NVM:
		if ((t->reads >> SRC_NVMRC) & 1) {
			result_hint(res, "nvm install (it reads .nvmrc)");
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK | FIX_NEEDS_SHELL,
					"nvm", "install", (char *)NULL);
		} else if (*t->nvm || *num) {
			result_hint(res, "nvm install %s", *t->nvm ? t->nvm : num);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK | FIX_NEEDS_SHELL,
					"nvm", "install", *t->nvm ? t->nvm : num, (char *)NULL);
		} else {
			res->no_fix = NO_FIX_NEEDS_A_PERSON;	/* a version to choose */
			result_hint(res, "nvm ls-remote, then nvm install a version "
				    "the requirement admits");
		}
		break;
	case MGR_VOLTA:
		buf_printf(&arg, "%s%s%s", name, sep, num);
		result_hint(res, "volta install %s", arg.s);
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "volta", "install",
				arg.s, (char *)NULL);
		break;
	case MGR_ASDF:
		if ((t->reads >> SRC_TOOL_VERSIONS) & 1) {
			result_hint(res, "asdf install (it reads .tool-versions)");
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "asdf",
					"install", (char *)NULL);
		} else {
			buf_printf(&arg, "latest%s%s", *num ? ":" : "", num);
			result_hint(res, "asdf install %s %s", asdf_plugin(name), arg.s);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "asdf",
					"install", asdf_plugin(name), arg.s, (char *)NULL);
		}
		break;
	case MGR_MISE:
		if ((t->reads >> SRC_TOOL_VERSIONS) & 1) {
			result_hint(res, "mise install (it reads .tool-versions)");
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "mise",
					"install", (char *)NULL);
		} else {
			buf_printf(&arg, "%s%s%s", name, sep, num);
			result_hint(res, "mise use %s", arg.s);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "mise", "use",
					arg.s, (char *)NULL);
			/* mise use writes the nearest config file (see
			 * mise_use_writes; before 2024.7 a directory
			 * without one got the global file, jdx/mise#2256) */
			if (mise_use_writes(w, &writes))
				result_fix_writes(res, writes.s);
		}
		break;
	case MGR_PYENV:
		hint_pyenv(res, w);
		break;
	}
	buf_release(&arg);
	buf_release(&writes);
}

/* A runtime's install hint: its version manager's, else generic advice.
 * res->data names the manager. */
static void hint_install(struct result *res, const struct want *w)
{
	const struct manager *m = manager_pick(w->src, managers_for(w->name),
					       w->path);

	if (!m) {
		hint_generic(res, w);
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(res->data, "version_manager",
					       cJSON_CreateString(m->name));
	hint_manager(res, w, m);
	/* nvm install, pyenv local, asdf install, mise use: they read (or
	 * write) the version files of the directory they run in, which for
	 * a workspace's requirement is the workspace's */
	result_fix_cwd(res, res->workspace);
}

/* ---- requirements no one version meets ---- */

static void req_label(struct buf *b, const struct runtime_req *r)
{
	char want[RUNTIME_QUOTE_MAX];

	versions_quote(want, sizeof(want), r->spec, strlen(r->spec));
	buf_printf(b, "%s (%s", want, runtime_req_from(r));
	if (r->origin.line)
		buf_printf(b, ":%u", r->origin.line);
	buf_putc(b, ')');
}

/* No install can clear every check of the runtime: say which two
 * requirements exclude each other; the fix is a person's edit. */
static void hint_conflict(struct result *res, const struct want *w)
{
	const struct runtime_target *t = w->t;
	struct buf a = BUF_INIT, b = BUF_INIT;

	req_label(&a, t->a);
	req_label(&b, t->b);
	result_hint(res, "no %s version satisfies both %s and %s: make them "
		    "agree, then install the version they share", w->display,
		    a.s, b.s);
	result_fix_edit(res, runtime_req_from(t->b), t->b->origin.line);
	buf_release(&a);
	buf_release(&b);
}

/* ---- npm, pnpm, yarn, bun: npm and corepack ---- */

/* The major of the Node.js that will run once node's own hints are
 * followed: the target when the node found misses it, else the node
 * found; 0 when neither is known. */
static unsigned long node_next_major(const struct run_ctx *ctx)
{
	const struct runtime_target *t = runtime_target(ctx, "node");
	const struct runtime_answer *a = runtime_ask(ctx, "node");
	int found = a->state == ANS_FOUND && a->version;

	if (t->state == TARGET_VERSION &&
	    !(found && runtime_target_admits(t, "node", a->version)))
		return strtoul(t->num, NULL, 10);
	return found ? strtoul(a->version, NULL, 10) : 0;
}

/* How to get corepack's shims (corepack enable ARGS) under the Node.js
 * that will run: Node.js 25 and later ship no corepack (nodejs/node
 * #57825, #59835), npm installs it. */
static void corepack_words(struct buf *b, unsigned long node, const char *args)
{
	if (node >= 25)
		buf_printf(b, "npm install -g corepack (Node.js %lu ships none), "
			   "then corepack enable%s", node, args);
	else if (node)
		buf_printf(b, "corepack enable%s", args);
	else
		buf_printf(b, "corepack enable%s (with Node.js 25 and later, npm "
			   "install -g corepack first)", args);
}

static int npm_on_path(const struct run_ctx *ctx)
{
	return runtime_prepare(ctx, "npm")->state != ANS_MISSING;
}

/* 1 when the npm package named NAME@num (num "": the newest) is the tool
 * itself: npm's yarn package is Yarn 1 only. */
static int npm_has_package(const char *name, const char *num)
{
	if (!strcmp(name, "yarn"))
		return !strncmp(num, "1.", 2) || !strcmp(num, "1");
	return !strcmp(name, "npm") || !strcmp(name, "pnpm") || !strcmp(name, "bun");
}

/* npm install -g NAME@num, as the hint's first words and as the fix (when
 * npm is there to run it). */
static void npm_install(const struct run_ctx *ctx, struct result *res,
			struct buf *hint, const char *name, const char *num)
{
	struct buf pkg = BUF_INIT;

	buf_printf(&pkg, "%s%s%s", name, *num ? "@" : "", num);
	buf_printf(hint, "npm install -g %s", pkg.s);
	if (npm_on_path(ctx))
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "npm", "install",
				"-g", pkg.s, (char *)NULL);
	buf_release(&pkg);
}

/* A packageManager pin: the pinned version itself from npm (a global
 * install that `NAME --version` then answers with: a fix that clears the
 * check), or corepack, which runs the pinned version once enabled.  The
 * fix is never `corepack enable` alone: the check runs corepack's shim
 * with COREPACK_ENABLE_NETWORK=0, and the pinned version is not in its
 * cache until corepack install fetches it. */
static void hint_pin(const struct run_ctx *ctx, struct result *res,
		     const struct runtime_prep *p, const struct want *w)
{
	const char *name = p->pm.name, *num = p->num;
	struct buf h = BUF_INIT;

	if (!strcmp(name, "bun")) {
		/* corepack supports npm, pnpm and yarn only */
		npm_install(ctx, res, &h, "bun", num);
		result_hint(res, "install Bun %s: %s, or https://bun.sh/ (corepack "
			    "does not manage bun)", num, h.s);
	} else if (strcmp(name, "npm") && strcmp(name, "pnpm") && strcmp(name, "yarn")) {
		result_hint(res, "install %s %s, as packageManager asks", w->display, num);
	} else if (npm_has_package(name, num)) {
		npm_install(ctx, res, &h, name, num);
		buf_puts(&h, ", or ");
		corepack_words(&h, node_next_major(ctx), strcmp(name, "npm") ? "" : " npm");
		result_hint(res, "%s: corepack then runs %s %s, as packageManager asks",
			    h.s, name, num);
	} else {
		corepack_words(&h, node_next_major(ctx), "");
		result_hint(res, "%s, then corepack install: corepack then runs %s %s, "
			    "as packageManager asks (npm's yarn package is Yarn 1 only)",
			    h.s, name, num);
	}
	buf_release(&h);
}

/* 1 when a packageManager pin of name is among t's requirements (and
 * so, with a target, the version t names). */
static int pinned(const struct runtime_target *t, const char *name)
{
	size_t i;

	for (i = 0; i < t->nall; i++)
		if (t->reqs[i]->src == SRC_PACKAGE_MANAGER &&
		    !strcmp(t->reqs[i]->name, name))
			return 1;
	return 0;
}

/* pnpm or yarn of a check other than the pin's, with no volta: from npm
 * where npm has the version, else corepack. */
static void hint_pm(const struct run_ctx *ctx, struct result *res,
		    const struct want *w)
{
	const char *num = w->t->num;
	struct buf h = BUF_INIT;

	if (npm_has_package(w->name, num) &&
	    (strcmp(w->name, "yarn") || *num ||
	     runtime_target_admits(w->t, "yarn", "1.99999.99999"))) {
		npm_install(ctx, res, &h, w->name, !strcmp(w->name, "yarn") && !*num ?
			    "1" : num);
		buf_puts(&h, ", or ");
		corepack_words(&h, node_next_major(ctx), "");
		/* with no pin, corepack runs its own default version */
		if (pinned(w->t, w->name))
			buf_printf(&h, ": corepack then runs %s %s, as "
				   "packageManager asks", w->name, num);
		else if (*num)
			buf_printf(&h, ", then corepack install --global %s@%s",
				   w->name, num);
		result_hint(res, "%s", h.s);
	} else {
		/* Yarn 2 and later: not on npm as "yarn", and corepack's
		 * own default outside a pinned project is Yarn 1 */
		corepack_words(&h, node_next_major(ctx), "");
		result_hint(res, "%s, then corepack install --global %s@%s "
			    "(corepack's own default is Yarn 1)", h.s, w->name,
			    *num ? num : "stable");
	}
	buf_release(&h);
}

/* npm found, of another version, with no volta */
static void hint_npm(const struct run_ctx *ctx, struct result *res,
		     const struct want *w)
{
	struct buf h = BUF_INIT;

	npm_install(ctx, res, &h, "npm", w->t->num);
	result_hint(res, "%s", h.s);
	buf_release(&h);
}

/* ---- npm not on PATH: a hint that needs no npm ---- */

/* 1 when node (found at path) is the one Debian's nodejs package
 * installs and that package ships no npm (Debian's own nodejs leaves it
 * to the npm package; NodeSource's bundles it): dpkg's list of the
 * package's files ($DPKG_ADMINDIR, else /var/lib/dpkg). */
static int debian_node_without_npm(const char *path)
{
	const char *admin = getenv("DPKG_ADMINDIR");
	char *list = path_join(admin && admin[0] == '/' ? admin : "/var/lib/dpkg",
			       "info/nodejs.list");
	char *real = realpath(path, NULL);
	struct blob b = { NULL, 0 };
	const char *s;
	int node = 0, npm = 0;

	if (saferead_path(list, SPEC_FILE_CAP, &b) == 0) {
		for (s = b.data; s && *s;) {
			size_t n = strcspn(s, "\n");

			if ((strlen(path) == n && !memcmp(s, path, n)) ||
			    (real && strlen(real) == n && !memcmp(s, real, n)))
				node = 1;
			if (n >= 8 && !memcmp(s + n - 8, "/bin/npm", 8))
				npm = 1;
			s += n + (s[n] == '\n');
		}
		blob_release(&b);
	}
	free(real);
	free(list);
	return node && !npm;
}

/* The npm requirements name a version that what brings npm along may
 * not have: its hint says the second step, and the first is no fix that
 * clears the check on its own. */
static void npm_then(struct result *res, const struct runtime_target *t,
		     const char *first)
{
	if (t->state != TARGET_CONFLICT && runtime_target_admits(t, "npm", "0.0.0")) {
		result_hint(res, "%s", first);
		return;
	}
	result_hint(res, "%s; then, if its npm is older than the requirement, "
		    "npm install -g npm%s%s", first, *t->num ? "@" : "", t->num);
	result_fix_clear(res);
}

static void hint_npm_missing(const struct run_ctx *ctx, struct result *res,
			     const struct want *w)
{
	const struct runtime_answer *node = runtime_ask(ctx, "node");
	const struct runtime_target *tn = runtime_target(ctx, "node");
	struct want wn = { "node", "Node.js", w->src, tn, NULL, w->dir, w->root };
	struct runtime_target line;
	struct buf h = BUF_INIT;

	if (node->state == ANS_FOUND && node->path &&
	    debian_node_without_npm(node->path)) {
		buf_printf(&h, "apt-get install npm (as root): the node on PATH, %s, "
			   "is Debian's nodejs package, which leaves npm to a "
			   "package of its own", node->path);
		result_fix_argv(res, FIX_HUMAN, FIX_NEEDS_NETWORK, "apt-get", "install",
				"npm", (char *)NULL);
		npm_then(res, w->t, h.s);
		buf_release(&h);
		return;
	}
	if (tn->state == TARGET_CONFLICT) {
		hint_conflict(res, &wn);
		return;
	}
	if (node->state == ANS_FOUND) {
		wn.path = node->path;
		/* the node found meets node's requirements: its own line
		 * again, this time with npm */
		if (node->version && runtime_target_admits(tn, "node", node->version)) {
			memset(&line, 0, sizeof(line));
			line.state = TARGET_VERSION;
			snprintf(line.num, sizeof(line.num), "%lu",
				 strtoul(node->version, NULL, 10));
			wn.t = &line;
		}
	}
	hint_install(res, &wn);
	if (node->state == ANS_FOUND)
		buf_printf(&h, "the node on PATH has no npm beside it, and npm "
			   "ships with Node.js: %s, or your distribution's npm "
			   "package", res->hint ? res->hint : "install Node.js");
	else
		buf_printf(&h, "%s: Node.js ships npm (Debian's nodejs package "
			   "leaves it to the npm package)", res->hint ? res->hint :
			   "install Node.js");
	npm_then(res, w->t, h.s);
	buf_release(&h);
}

/* ---- the hint of one check ---- */

static void data_target(struct result *res, const struct runtime_target *t)
{
	cJSON *o = cJSON_CreateObject(), *c;

	if (t->state == TARGET_VERSION)
		cJSON_AddStringToObject(o, "version", t->num);
	else
		cJSON_AddNullToObject(o, "version");
	cJSON_AddStringToObject(o, "state", t->state == TARGET_VERSION ? "version" :
				t->state == TARGET_CONFLICT ? "conflict" :
				t->state == TARGET_OPEN ? "newest" :
				t->state == TARGET_UNKNOWN ? "unknown" : "any");
	cJSON_AddNumberToObject(o, "requirements", (double)t->nreqs);
	if (t->state == TARGET_CONFLICT) {
		const struct runtime_req *v[2] = { t->a, t->b };
		size_t i;

		c = cJSON_AddArrayToObject(o, "conflict");
		for (i = 0; i < 2; i++) {
			cJSON *q = cJSON_CreateObject();

			cJSON_AddStringToObject(q, "file", runtime_req_from(v[i]));
			cJSON_AddNumberToObject(q, "line", v[i]->origin.line);
			cJSON_AddStringToObject(q, "required", v[i]->spec);
			cJSON_AddStringToObject(q, "source", req_source_key(v[i]->src));
			cJSON_AddItemToArray(c, q);
		}
	} else {
		cJSON_AddNullToObject(o, "conflict");
	}
	cJSON_ReplaceItemInObjectCaseSensitive(res->data, "target", o);
}

/* The target of p alone: its own version, its own file read. */
static void own_target(struct runtime_target *t, const struct runtime_prep *p)
{
	memset(t, 0, sizeof(*t));
	t->state = *p->num ? TARGET_VERSION : TARGET_NONE;
	memcpy(t->num, p->num, sizeof(t->num));
	memcpy(t->nvm, p->nvm, sizeof(t->nvm));
	t->reads = 1u << p->r->src;
	t->nreqs = 1;
	t->reqs = &p->r;
	t->nall = 1;
}

void runtime_hint_install(const struct run_ctx *ctx, struct result *res,
			  const struct runtime_prep *p,
			  const struct known_runtime *k, const char *path)
{
	const struct runtime_req *r = p->r;
	const struct runtime_target *t;
	struct runtime_target own;
	struct want w;
	char *dir;

	if (p->bad || !versions_token_safe(r->name))
		return;
	t = runtime_target(ctx, r->name);
	data_target(res, t);
	if (((t->state != TARGET_VERSION && t->state != TARGET_OPEN) ||
	     !runtime_prep_admits(p, t->found)) && t->state != TARGET_CONFLICT) {
		/* no version every requirement admits is known, or not one
		 * this requirement admits (one envpreflight cannot name a
		 * version for): what this requirement itself names */
		own_target(&own, p);
		t = &own;
	}
	w.name = r->name;
	w.display = k ? k->display : r->name;
	w.src = r->src;
	w.t = t;
	w.path = path;
	w.root = ctx->spec->root;
	dir = res->workspace ? path_join(ctx->spec->root, res->workspace) :
	      xstrdup(ctx->spec->root);
	w.dir = dir;
	if (t->state == TARGET_CONFLICT)
		hint_conflict(res, &w);
	else if (!strcmp(r->name, "npm") && !path)
		hint_npm_missing(ctx, res, &w);
	else if (r->src == SRC_PACKAGE_MANAGER)
		hint_pin(ctx, res, p, &w);
	else if ((!strcmp(r->name, "pnpm") || !strcmp(r->name, "yarn")) &&
		 !manager_pick(r->src, MGR_VOLTA, path))
		hint_pm(ctx, res, &w);
	else if (!strcmp(r->name, "npm") && !manager_pick(r->src, MGR_VOLTA, path))
		hint_npm(ctx, res, &w);
	else
		hint_install(res, &w);
	free(dir);
}
