/* runtime_hint.c - how to get a version that satisfies a requirement,
 * fit for the version manager in use (volta, nvm, asdf, mise, pyenv), or
 * generic advice by runtime.
 *
 * Hints name a command only with values runtime_req.c validated (a
 * version that parsed, a codename from the built-in table), never text as
 * the repository wrote it.
 */
#include "runtimes.h"

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

/* Which manager should install r's runtime (one bit of wanted), or NULL:
 * the one the binary found came from, then the one that reads r's file,
 * then the first in use. */
static const struct manager *manager_pick(const struct runtime_req *r, unsigned wanted,
					  const char *path)
{
	unsigned prefer = 0;
	size_t i;

	for (i = 0; path && i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted) && strstr(path, managers[i].in_path))
			return &managers[i];
	if (r->src == SRC_NVMRC)
		prefer = MGR_NVM;
	else if (r->src == SRC_PYTHON_VERSION)
		prefer = MGR_PYENV;
	else if (r->src == SRC_TOOL_VERSIONS)
		prefer = MGR_ASDF | MGR_MISE;
	else if (r->src == SRC_VOLTA)
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

/* Generic advice, by runtime, with v a validated version or "". */
static void hint_generic(struct result *res, const char *name, const char *v,
			 const char *display)
{
	const char *sp = *v ? " " : "";

	if (!strcmp(name, "node"))
		result_hint(res, "install Node.js%s%s (https://nodejs.org/ or your "
			    "package manager)", sp, v);
	else if (!strcmp(name, "python"))
		result_hint(res, "install Python%s%s (https://www.python.org/downloads/ "
			    "or your package manager)", sp, v);
	else if (!strcmp(name, "go"))
		result_hint(res, "install Go%s%s%s (https://go.dev/dl/)", sp, v,
			    *v ? " or later" : "");
	else if (!strcmp(name, "npm")) {
		struct buf pkg = BUF_INIT;

		buf_printf(&pkg, "npm%s%s", *v ? "@" : "", v);
		result_hint(res, "npm install -g %s", pkg.s);
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "npm", "install",
				"-g", pkg.s, (char *)NULL);
		buf_release(&pkg);
	}
	else if (!strcmp(name, "pnpm") || !strcmp(name, "yarn"))
		result_hint(res, "corepack enable, or npm install -g %s%s%s", name,
			    *v ? "@" : "", v);
	else if (versions_token_safe(name))
		result_hint(res, "install %s%s%s, or add the directory that holds it "
			    "to PATH", display, sp, v);
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
 * or ~/.pyenv) and that satisfies p, into out; 0 when none.  Only plain
 * X.Y.Z names count: they are safe to name in a hint. */
static int pyenv_installed(const struct runtime_prep *p, char *out, size_t n)
{
	const char *root = getenv("PYENV_ROOT"), *home = getenv("HOME");
	char *base, *dir;
	struct dirent *e;
	DIR *d;
	char err[128];

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
		int ok;

		if (strspn(v, "0123456789.") != strlen(v) || strlen(v) >= n ||
		    !versions_token_safe(v) || (*out && dotted_cmp(v, out) <= 0))
			continue;
		if (p->r->kind == REQ_PEP440)
			ok = pep440_check(p->r->spec, v, err, sizeof(err)) == 1;
		else
			ok = p->r->kind == REQ_PYENV && p->pyenv.n &&
			     pyenv_matches(&p->pyenv.v[0], v) == 1;
		if (ok)
			memcpy(out, v, strlen(v) + 1);
	}
	closedir(d);
	return *out != '\0';
}

/* pyenv: a version it has installed that fits needs no install
 * (issue 7): pick it for the repository instead. */
static void hint_pyenv(struct result *res, const struct runtime_prep *p)
{
	const struct runtime_req *r = p->r;
	char have[40];

	if (pyenv_installed(p, have, sizeof(have))) {
		if (r->src == SRC_PYTHON_VERSION) {
			result_hint(res, "pyenv has %s installed, which .python-version "
				    "selects, but it is not the python on PATH: put "
				    "pyenv's shims first (eval \"$(pyenv init -)\")", have);
		} else {
			result_hint(res, "pyenv local %s (installed already, it "
				    "satisfies %s)", have, p->want);
			result_fix_argv(res, FIX_AGENT, 0, "pyenv", "local", have, (char *)NULL);
		}
	} else if (r->src == SRC_PYTHON_VERSION) {
		result_hint(res, "pyenv install (it reads .python-version)");
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "pyenv", "install",
				(char *)NULL);
	} else if (*p->num) {
		result_hint(res, "pyenv install %s", p->num);
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "pyenv", "install",
				p->num, (char *)NULL);
	} else {
		result_hint(res, "pyenv install --list, then pyenv install a "
			    "version the requirement admits");
	}
}

/* The install command of version manager m for p. */
static void hint_manager(struct result *res, const struct runtime_prep *p,
			 const struct manager *m)
{
	const struct runtime_req *r = p->r;
	const char *name = r->name, *num = p->num;
	const char *sep = *num ? "@" : "";

	struct buf arg = BUF_INIT;

	/* every fix below runs the manager as its hint says, with words
	 * that passed versions_token_safe (num, p->nvm, name); nvm is a
	 * shell function, which a harness runs in a shell that loaded it */
	switch (m->bit) {
	case MGR_NVM:
		if (r->src == SRC_NVMRC) {
			result_hint(res, "nvm install (it reads .nvmrc)");
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "nvm",
					"install", (char *)NULL);
		} else if (*p->nvm || *num) {
			result_hint(res, "nvm install %s", *p->nvm ? p->nvm : num);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "nvm",
					"install", *p->nvm ? p->nvm : num, (char *)NULL);
		} else {
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
		if (r->src == SRC_TOOL_VERSIONS) {
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
		if (r->src == SRC_TOOL_VERSIONS) {
			result_hint(res, "mise install (it reads .tool-versions)");
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "mise",
					"install", (char *)NULL);
		} else {
			buf_printf(&arg, "%s%s%s", name, sep, num);
			result_hint(res, "mise use %s", arg.s);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "mise", "use",
					arg.s, (char *)NULL);
		}
		break;
	case MGR_PYENV:
		hint_pyenv(res, p);
		break;
	}
	buf_release(&arg);
}

void runtime_hint_install(struct result *res, const struct runtime_prep *p,
			  const struct known_runtime *k, const char *path)
{
	const struct runtime_req *r = p->r;
	const struct manager *m;

	if (p->bad || !versions_token_safe(r->name))
		return;
	if (r->src == SRC_PACKAGE_MANAGER) {
		/* a bare `corepack enable` shims pnpm and yarn only (corepack's
		 * default SupportedPackageManagers less npm) */
		result_hint(res, "corepack enable%s: corepack then runs %s %s, as "
			    "packageManager asks", strcmp(p->pm.name, "npm") ? "" :
			    " npm", p->pm.name, p->num);
		result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "corepack",
				"enable", strcmp(p->pm.name, "npm") ? NULL : "npm",
				(char *)NULL);
		return;
	}
	m = manager_pick(r, managers_for(r->name), path);
	if (!m) {
		hint_generic(res, r->name, p->num, k ? k->display : r->name);
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(res->data, "version_manager",
					       cJSON_CreateString(m->name));
	hint_manager(res, p, m);
	/* nvm install, pyenv local, asdf install, mise use: they read (or
	 * write) the version files of the directory they run in, which for
	 * a workspace's requirement is the workspace's */
	result_fix_cwd(res, res->workspace);
}
