/* runtime_shim.c - see runtime_shim.h
 *
 * A shim runs whatever version its manager picks for the working
 * directory.  Its answer is cached in a context holding the identity of
 * everything the manager reads to pick one, found or not, from each
 * manager's own source:
 *
 *   rbenv,  libexec/<tool>-version-file and -version-name: <TOOL>_VERSION;
 *   nodenv, the version file (.ruby-version, jenv's .java-version and
 *   pyenv,  .jenv-version, ...) from <TOOL>_DIR up, then from the working
 *   goenv,  directory up; else <ROOT>/version (jenv and plenv: global,
 *   jenv,   default too); what <ROOT>/versions holds, with each version's
 *   plenv   bin/<program> (`rbenv install --force` writes over a prefix);
 *           every hook directory of libexec/<tool>'s <TOOL>_HOOK_PATH
 *           (<ROOT>/<tool>.d, the install's <tool>.d, /usr/etc,
 *           /usr/local/etc, /etc, /usr/lib/<tool>/hooks, each plugin's
 *           etc/<tool>.d).  A version-name, version-file or
 *           version-origin hook may read anything (nodenv-package-json-
 *           engine reads package.json): not cached.  The shim names the
 *           manager and its root: rbenv-rehash's prototype shim
 *           (export RBENV_ROOT="..."; exec "<rbenv>" exec "$program" "$@"),
 *           jenv 0.6's (its exec path unquoted), plenv-rehash's one line
 *           (PLENV_ROOT='...' exec '<plenv>' exec "<its name>" "$@").
 *   asdf    ASDF_<TOOL>_VERSION; the tool-versions file from the working
 *           directory up and in $HOME (bash asdf's utils.bash:
 *           ASDF_DEFAULT_TOOL_VERSIONS_FILENAME; the Go asdf's config.go:
 *           ASDF_TOOL_VERSIONS_FILENAME, falling back to it; both names
 *           are in); its config (ASDF_CONFIG_FILE, else ~/.asdfrc and, for
 *           bash asdf, .asdfrc upwards; ASDF_CONFIG_DEFAULT_FILE, the
 *           install's defaults); what $ASDF_DATA_DIR (~/.asdf)/installs and
 *           plugins hold.  With legacy_version_file = yes the legacy files
 *           are each plugin's list-legacy-filenames: not cached.  Its
 *           shims (reshim.bash, shims.go) say "# asdf-plugin: NAME VERSION"
 *           and exec `asdf exec`.
 *   mise    the config files of config/mod.rs's list from the working
 *           directory up (mise.toml, .mise.toml, mise/config.toml,
 *           .config/mise/conf.d/, the .local variants, .tool-versions,
 *           the idiomatic version files of its registry, mise.lock), its
 *           config directory, the system one (MISE_SYSTEM_CONFIG_DIR,
 *           /etc/mise), what its installs and plugins directories hold
 *           (env.rs: MISE_INSTALLS_DIR, MISE_SYSTEM_DATA_DIR,
 *           MISE_SHARED_INSTALL_DIRS) and which configs are trusted (its
 *           state directory).  A shim is a link to the mise binary
 *           (shims.rs, add_shim).  Not cached: a profile (MISE_ENV,
 *           MISE_PROFILE, MISE_ENVIRONMENT) or auto_env (MISE_AUTO_ENV),
 *           which add files named after them; the filename overrides
 *           (MISE_OVERRIDE_*_FILENAMES); a miserc (config/miserc.rs), which
 *           may set any of these.
 *   volta   crates/volta-core/src/project: the nearest package.json up and
 *           its "volta" key, following "extends" (not cached when any
 *           package.json up names one); $VOLTA_HOME (~/.volta)/tools/user/
 *           platform.json, what tools/image holds, hooks.json.  A shim is
 *           a link to volta-shim.
 *   proto   .prototools from the working directory up, $PROTO_HOME
 *           (~/.proto)/.prototools, PROTO_<TOOL>_VERSION, the ecosystem's
 *           version files, what tools/ holds.  A shim is a copy of (or a
 *           link to) proto-shim.
 *
 * Every manager falls back to the program further along PATH ("system"):
 * its identity is in too.  Files are stat()ed, not parsed (but for the
 * few settings that say the inputs cannot be told): an input that did
 * not change the answer only costs a miss.  The variables each manager
 * reads are in the child's environment, which the context holds whole.
 */
#include "runtime_shim.h"
#include "runtime_select.h"
#include "peek_int.h"
#include "spawnrun.h"
#include "util.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SHIM_HEAD 4096		/* a shim says what it is in its first lines */
#define SHIM_DIR_ENTRIES 256	/* more in one directory: not cached */

/* The context being written, and whether it can be trusted. */
struct ids {
	struct buf *b;
	int unsure;		/* an input no context can hold: not cached */
};

/* Version files a manager may read from any directory up: the idiomatic
 * (legacy) files of the tools mise's registry and proto know. */
static const char *const version_files[] = {
	".tool-versions", ".nvmrc", ".node-version", ".python-version",
	".python-versions", ".ruby-version", "Gemfile", ".go-version", "go.mod",
	"global.json", ".java-version", ".sdkmanrc", ".bun-version",
	".deno-version", ".yvmrc", "package.json", "rust-toolchain",
	"rust-toolchain.toml", ".terraform-version", ".opentofu-version",
	".terragrunt-version", ".packer-version", ".perl-version",
	".crystal-version", ".swift-version", ".zig-version", ".exenv-version",
};

/* mise's config files (config/mod.rs DEFAULT_CONFIG_FILENAMES, with the
 * .local variants, the auto_env platform files and the lockfiles). */
static const char *const mise_files[] = {
	"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml",
	".mise/config.toml", ".mise/config.local.toml", "mise/config.toml",
	"mise/config.local.toml", ".config/mise.toml", ".config/mise.local.toml",
	".config/mise/config.toml", ".config/mise/config.local.toml",
	".config/mise/mise.toml", ".config/mise/mise.local.toml", ".rtx.toml",
	".rtx.local.toml", "mise.lock", "mise.local.lock", "mise.unix.toml",
	"mise.linux.toml", "mise.linux-x64.toml", "mise.linux-arm64.toml",
};
static const char *const mise_dirs[] = {	/* *.toml fragments */
	".config/mise/conf.d", ".mise/conf.d",
};

/* The *env family, by the variable its shims set. */
static const struct xenv {
	const char *tool, *root_var, *dir_var, *hook_var;
	const char *up[3];
} xenvs[] = {
	{ "rbenv", "RBENV_ROOT", "RBENV_DIR", "RBENV_HOOK_PATH", { ".ruby-version" } },
	{ "nodenv", "NODENV_ROOT", "NODENV_DIR", "NODENV_HOOK_PATH", { ".node-version" } },
	{ "pyenv", "PYENV_ROOT", "PYENV_DIR", "PYENV_HOOK_PATH", { ".python-version" } },
	{ "goenv", "GOENV_ROOT", "GOENV_DIR", "GOENV_HOOK_PATH", { ".go-version", "go.mod" } },
	{ "jenv", "JENV_ROOT", "JENV_DIR", "JENV_HOOK_PATH",
	  { ".java-version", ".jenv-version" } },
	{ "plenv", "PLENV_ROOT", "PLENV_DIR", "PLENV_HOOK_PATH",
	  { ".perl-version", ".plenv-version" } },
};

/* The end of a shim's exec line: the *env shims' two forms. */
static const char *const exec_tails[] = {
	" exec \"$program\" \"$@\"", " exec \"${0##*/}\" \"$@\"",
};

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* ---- reading a shim ---- */

/* The file's first bytes, NUL-terminated, cut after its last whole line
 * when there was more: the count kept. */
static size_t head_read(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "re");
	size_t n;
	char *nl;

	if (!f)
		return 0;
	n = fread(out, 1, cap - 1, f);
	fclose(f);
	out[n] = '\0';
	if (n == cap - 1) {
		nl = strrchr(out, '\n');
		n = nl ? (size_t)(nl - out) + 1 : 0;
		out[n] = '\0';
	}
	return n;
}

/* A path as a shim writes it, between p and end: quoted (' or ") or bare,
 * absolute, with nothing a shell would expand: a new string, or NULL. */
static char *shim_path(const char *p, const char *end)
{
	const char *q;

	if (end > p + 1 && (*p == '"' || *p == '\'') && end[-1] == *p) {
		p++;
		end--;
	}
	if (p >= end || *p != '/')
		return NULL;
	for (q = p; q < end; q++)
		if (strchr("$`\\\"' \t\n", *q))
			return NULL;
	return xstrndup(p, (size_t)(end - p));
}

/* The value of var set at the start of a line ("export VAR=..." or
 * "VAR=... exec ..."): a new string, or NULL. */
static char *shim_var(const char *text, const char *var)
{
	size_t n = strlen(var);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		const char *v = p, *end;

		if (!strncmp(v, "export ", 7))
			v += 7;
		if (strncmp(v, var, n) || v[n] != '=')
			continue;
		v += n + 1;
		if (*v == '"' || *v == '\'') {
			end = strchr(v + 1, *v);
			end = end ? end + 1 : NULL;
		} else {
			end = v + strcspn(v, " \t\n");
		}
		return end ? shim_path(v, end) : NULL;
	}
	return NULL;
}

/* What an *env shim execs: the path of its line `... exec <path> exec
 * "$program" "$@"`, a new string, or NULL. */
static char *shim_exec(const char *text)
{
	const char *p;
	size_t i;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		size_t len = strcspn(p, "\n");

		for (i = 0; i < ARRAY_SIZE(exec_tails); i++) {
			size_t t = strlen(exec_tails[i]);
			const char *tail = p + len - t, *e;

			if (len < t || strncmp(tail, exec_tails[i], t))
				continue;
			/* the first "exec " of the line */
			for (e = p; e + 5 <= tail; e++)
				if (!strncmp(e, "exec ", 5) && (e == p || e[-1] == ' '))
					return shim_path(e + 5, tail);
			return NULL;
		}
	}
	return NULL;
}

/* The *env shim in text: its manager, with *root and *exe (new strings). */
static const struct xenv *xenv_shim(const char *text, char **root, char **exe)
{
	size_t i;

	*root = *exe = NULL;
	if (strncmp(text, "#!", 2) || !(*exe = shim_exec(text)))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(xenvs); i++)
		if ((*root = shim_var(text, xenvs[i].root_var)) != NULL)
			return &xenvs[i];
	free(*exe);
	*exe = NULL;
	return NULL;
}

/* asdf's shim: "# asdf-plugin: NAME VERSION" lines, then
 * `exec <asdf> exec "<cmd>" "$@"`; its asdf (a path, or a name to find
 * on PATH) as a new string. */
static char *asdf_shim(const char *text)
{
	const char *p = strstr(text, "\nexec "), *e;

	if (strncmp(text, "#!", 2) || !strstr(text, "\n# asdf-plugin: ") || !p)
		return NULL;
	p += 6;
	e = strstr(p, " exec \"");
	if (!e || e == p || memchr(p, '\n', (size_t)(e - p)) ||
	    memchr(p, '$', (size_t)(e - p)) || memchr(p, '`', (size_t)(e - p)))
		return NULL;
	return xstrndup(p, (size_t)(e - p));
}

/* proto's shims: links to proto-shim, or copies of it in its shims
 * directory ($PROTO_HOME/shims). */
static int proto_shim(const char *binary, const char *real)
{
	const char *rb = base_of(real);
	size_t n;

	if (!strcmp(rb, "proto-shim"))
		return strcmp(base_of(binary), rb) != 0;
	n = strlen(real) - strlen(rb);
	return n >= 14 && !strncmp(real + n - 14, "/.proto/shims/", 14);
}

/* A dispatcher the shims of its manager link to, called by another name. */
static int links_to(const char *binary, const char *real, const char *name)
{
	return !strcmp(base_of(real), name) && strcmp(base_of(binary), name);
}

/* ---- what the manager reads ---- */

/* file id of dir and of its entries, depth levels down: a version
 * installed or removed, a hook or plugin added, is a change.  readdir's
 * order is stable while the directory is unchanged, and a change is in
 * the directory's own times. */
static void ids_dir(struct ids *x, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	select_file_id(x->b, dir);
	if (depth <= 0 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d)) != NULL) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++n > SHIM_DIR_ENTRIES) {
			x->unsure = 1;
			break;
		}
		p = path_join(dir, de->d_name);
		ids_dir(x, p, depth - 1);
		free(p);
	}
	closedir(d);
}

static void ids_dir_in(struct ids *x, const char *dir, const char *name, int depth)
{
	char *p = path_join(dir, name);

	ids_dir(x, p, depth);
	free(p);
}

/* The files of list (n of them, or to its first NULL) in dir and every
 * directory above it. */
static void ids_up(struct ids *x, const char *dir, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n && list[i]; i++)
		select_file_id_up(x->b, dir, list[i]);
}

/* An absolute path of the variable, or NULL. */
static const char *env_abs(char *const env[], const char *name)
{
	const char *v = select_env_get(env, name);

	return v && v[0] == '/' ? v : NULL;
}

/* A variable set and not empty. */
static int env_set(char *const env[], const char *name)
{
	const char *v = select_env_get(env, name);

	return v && *v;
}

/* A new string: the absolute directory of variable var, else HOME/dflt. */
static char *home_dir(char *const env[], const char *var, const char *dflt)
{
	const char *home = env_abs(env, "HOME");

	if (env_abs(env, var))
		return xstrdup(env_abs(env, var));
	return home ? path_join(home, dflt) : NULL;
}

/* fn(DIR/name, arg) for the canonical dir and each directory above it,
 * up to /: the first nonzero answer, or 0. */
static int up_find(const char *dir, const char *name,
		   int (*fn)(const char *path, void *arg), void *arg)
{
	char *d = xstrdup(dir), *slash;
	int found;

	for (;;) {
		char *p = path_join(*d ? d : "/", name);

		found = fn(p, arg);
		free(p);
		if (found || !*d || !(slash = strrchr(d, '/')))
			break;
		*slash = '\0';
	}
	free(d);
	return found;
}

static int path_exists(const char *path, void *arg)
{
	struct stat st;

	(void)arg;
	return stat(path, &st) == 0;
}

/* Any file of names in dir or above: 1. */
static int any_up(const char *dir, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (up_find(dir, names[i], path_exists, NULL))
			return 1;
	return 0;
}

/* ids_dir(path, 1) for up_find: never stops it. */
static int ids_dir1(const char *path, void *arg)
{
	ids_dir(arg, path, 1);
	return 0;
}

/* The hook directory PRE TOOL POST of an *env manager, with its
 * commands' subdirectories and their scripts. */
static void xenv_hooks(struct ids *x, const char *pre, const char *tool,
		       const char *post)
{
	static const char *const picks[] = { "version-name", "version-file",
					     "version-origin" };
	struct buf h = BUF_INIT;
	size_t i;

	buf_printf(&h, "%s%s%s", pre, tool, post);
	if (buf_str(&h)[0] != '/') {
		buf_release(&h);
		return;
	}
	ids_dir(x, buf_str(&h), 2);
	for (i = 0; i < ARRAY_SIZE(picks); i++) {
		char *sub = path_join(buf_str(&h), picks[i]);
		DIR *d = opendir(sub);
		struct dirent *de;

		free(sub);
		while (d && (de = readdir(d)) != NULL)
			if (de->d_name[0] != '.')
				x->unsure = 1;	/* a hook that picks the version */
		if (d)
			closedir(d);
	}
	buf_release(&h);
}

/* What <ROOT>/versions holds, and each version's bin/<program>. */
static void xenv_versions(struct ids *x, const char *root, const char *program)
{
	struct buf v = BUF_INIT;
	struct dirent *de;
	DIR *d;
	int n = 0;

	buf_printf(&v, "%s/versions", root);
	select_file_id(x->b, buf_str(&v));
	d = opendir(buf_str(&v));
	while (d && (de = readdir(d)) != NULL) {
		struct buf p = BUF_INIT;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (++n > SHIM_DIR_ENTRIES) {
			x->unsure = 1;
			break;
		}
		buf_printf(&p, "%s/%s", buf_str(&v), de->d_name);
		select_file_id(x->b, buf_str(&p));
		buf_printf(&p, "/bin/%s", program);
		select_file_id(x->b, buf_str(&p));
		buf_release(&p);
	}
	if (d)
		closedir(d);
	buf_release(&v);
}

static void xenv_inputs(struct ids *x, const struct xenv *xe, const char *root,
			const char *exe, const char *binary, const char *dir,
			char *const env[])
{
	static const char *const root_files[] = { "version", "global", "default" };
	static const char *const etc[] = { "/usr/etc/", "/usr/local/etc/", "/etc/" };
	const char *hp, *tdir = select_env_get(env, xe->dir_var);
	char *real = realpath(exe, NULL), *s;
	struct buf p = BUF_INIT;
	struct dirent *de;
	DIR *d;
	size_t i;

	buf_printf(x->b, "shim %s %s\n", xe->tool, root);
	/* <TOOL>_DIR first (relative to the working directory) */
	if (tdir && *tdir) {
		char *td = path_join(dir, tdir), *c = realpath(td, NULL);

		ids_up(x, c ? c : td, xe->up, ARRAY_SIZE(xe->up));
		free(c);
		free(td);
	}
	ids_up(x, dir, xe->up, ARRAY_SIZE(xe->up));
	for (i = 0; i < ARRAY_SIZE(root_files); i++)
		select_file_id_in(x->b, root, root_files[i]);
	xenv_versions(x, root, base_of(binary));
	for (hp = select_env_get(env, xe->hook_var); hp && *hp; hp += *hp == ':') {
		size_t n = strcspn(hp, ":");
		char *one = xstrndup(hp, n);

		xenv_hooks(x, one, "", "");
		free(one);
		hp += n;
	}
	buf_printf(&p, "%s/", root);
	xenv_hooks(x, buf_str(&p), xe->tool, ".d");
	buf_release(&p);
	if (real) {
		select_file_id(x->b, real);
		/* the install's own <tool>.d, beside its libexec/ */
		for (i = 0; i < 2 && (s = strrchr(real, '/')) != NULL; i++)
			*s = '\0';
		buf_printf(&p, "%s/", real);
		xenv_hooks(x, buf_str(&p), xe->tool, ".d");
		buf_release(&p);
		free(real);
	}
	for (i = 0; i < ARRAY_SIZE(etc); i++)
		xenv_hooks(x, etc[i], xe->tool, ".d");
	xenv_hooks(x, "/usr/lib/", xe->tool, "/hooks");
	buf_printf(&p, "%s/plugins", root);
	select_file_id(x->b, buf_str(&p));
	d = opendir(buf_str(&p));
	buf_release(&p);
	while (d && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		buf_printf(&p, "%s/plugins/%s/etc/", root, de->d_name);
		xenv_hooks(x, buf_str(&p), xe->tool, ".d");
		buf_release(&p);
	}
	if (d)
		closedir(d);
}

/* The asdf config at path turns the legacy version files on (arg
 * unused: up_find's). */
static int asdf_legacy_on(const char *path, void *arg)
{
	struct blob bl;
	const char *p;
	int on = 0;

	(void)arg;
	if (peek_read_text(path, 64 * 1024, &bl, NULL) < 0)
		return 0;
	for (p = bl.data; p && !on; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		p += strspn(p, " \t");
		if (strncmp(p, "legacy_version_file", 19))
			continue;
		p += 19 + strspn(p + 19, " \t");
		on = *p == '=' && !strncmp(p + 1 + strspn(p + 1, " \t"), "yes", 3);
	}
	blob_release(&bl);
	return on;
}

static void asdf_inputs(struct ids *x, const char *asdf, const char *dir,
			char *const env[])
{
	static const char *const name_vars[] = { "ASDF_TOOL_VERSIONS_FILENAME",
						 "ASDF_DEFAULT_TOOL_VERSIONS_FILENAME" };
	const char *home = env_abs(env, "HOME"), *cfg = select_env_get(env, "ASDF_CONFIG_FILE");
	const char *path = select_env_get(env, "PATH");
	char *data = home_dir(env, "ASDF_DATA_DIR", ".asdf");
	char *found = asdf[0] == '/' ? xstrdup(asdf) :
		      spawn_which(asdf, path ? path : "", NULL);
	char *slash;
	size_t i;

	buf_printf(x->b, "shim asdf %s\n", data ? data : "-");
	select_file_id_up(x->b, dir, ".tool-versions");
	if (home)
		select_file_id_in(x->b, home, ".tool-versions");
	for (i = 0; i < ARRAY_SIZE(name_vars); i++) {
		const char *n = select_env_get(env, name_vars[i]);

		if (!n || !*n)
			continue;
		if (strchr(n, '/'))
			x->unsure = 1;
		select_file_id_up(x->b, dir, n);
		if (home)
			select_file_id_in(x->b, home, n);
	}
	/* the config: ASDF_CONFIG_FILE, else ~/.asdfrc; bash asdf's upwards */
	if (cfg && *cfg && cfg[0] != '/')
		x->unsure = 1;
	else if (cfg && *cfg)
		select_file_id(x->b, cfg);
	if (cfg && *cfg ? asdf_legacy_on(cfg, NULL) : 0)
		x->unsure = 1;
	if (home) {
		char *rc = path_join(home, ".asdfrc");

		select_file_id(x->b, rc);
		if (asdf_legacy_on(rc, NULL))
			x->unsure = 1;
		free(rc);
	}
	select_file_id_up(x->b, dir, ".asdfrc");
	if (up_find(dir, ".asdfrc", asdf_legacy_on, NULL))
		x->unsure = 1;
	if (env_abs(env, "ASDF_CONFIG_DEFAULT_FILE"))
		select_file_id(x->b, env_abs(env, "ASDF_CONFIG_DEFAULT_FILE"));
	if (found) {
		char *r = realpath(found, NULL);

		select_file_id(x->b, found);
		/* bash asdf's $(asdf_dir)/defaults: beside its bin/ */
		for (i = 0; r && i < 2 && (slash = strrchr(r, '/')) != NULL; i++)
			*slash = '\0';
		if (r)
			select_file_id_in(x->b, r, "defaults");
		free(r);
	}
	if (data) {
		ids_dir_in(x, data, "installs", 2);
		ids_dir_in(x, data, "plugins", 2);
	}
	free(found);
	free(data);
}

/* The directory of mise's kind: MISE_<KIND>_DIR, else XDG_<xdg> or
 * HOME/<dflt>, with /mise; a new string or NULL. */
static char *mise_dir(char *const env[], const char *var, const char *xdg,
		      const char *dflt)
{
	char *base, *d;

	if (env_abs(env, var))
		return xstrdup(env_abs(env, var));
	base = select_user_dir(env, xdg, dflt);
	if (!base)
		return NULL;
	d = path_join(base, "mise");
	free(base);
	return d;
}

/* The directories of a ':' list, depth levels each. */
static void ids_dir_list(struct ids *x, const char *list, int depth)
{
	for (; list && *list; list += *list == ':') {
		size_t n = strcspn(list, ":");

		if (n && list[0] == '/') {
			char *one = xstrndup(list, n);

			ids_dir(x, one, depth);
			free(one);
		}
		list += n;
	}
}

static void mise_inputs(struct ids *x, const char *dir, char *const env[])
{
	static const char *const unsure_vars[] = {
		"MISE_ENV", "MISE_PROFILE", "MISE_ENVIRONMENT", "RTX_ENV",
		"MISE_OVERRIDE_CONFIG_FILENAMES", "MISE_OVERRIDE_TOOL_VERSIONS_FILENAMES",
	};
	static const char *const named[] = {
		"MISE_CONFIG_FILE", "MISE_GLOBAL_CONFIG_FILE", "MISE_SYSTEM_CONFIG_FILE",
		"MISE_DEFAULT_CONFIG_FILENAME", "MISE_DEFAULT_TOOL_VERSIONS_FILENAME",
	};
	static const char *const miserc[] = { ".miserc.toml", ".config/miserc.toml" };
	static const char *const cfg_files[] = {
		"config.toml", "config.local.toml", "mise.toml", "mise.local.toml",
		"settings.toml",
	};
	const char *home = env_abs(env, "HOME"), *ae = select_env_get(env, "MISE_AUTO_ENV");
	char *cfg = mise_dir(env, "MISE_CONFIG_DIR", "XDG_CONFIG_HOME", ".config");
	char *data = mise_dir(env, "MISE_DATA_DIR", "XDG_DATA_HOME", ".local/share");
	char *state = mise_dir(env, "MISE_STATE_DIR", "XDG_STATE_HOME", ".local/state");
	char *sys = env_abs(env, "MISE_SYSTEM_CONFIG_DIR") ?
		    xstrdup(env_abs(env, "MISE_SYSTEM_CONFIG_DIR")) :
		    env_abs(env, "MISE_SYSTEM_DIR") ?
		    xstrdup(env_abs(env, "MISE_SYSTEM_DIR")) : xstrdup("/etc/mise");
	const char *sysdata = env_abs(env, "MISE_SYSTEM_DATA_DIR");
	char *p;
	size_t i;

	buf_puts(x->b, "shim mise\n");
	for (i = 0; i < ARRAY_SIZE(unsure_vars); i++)
		if (env_set(env, unsure_vars[i]))
			x->unsure = 1;
	if (ae && *ae && strcmp(ae, "0") && strcmp(ae, "false"))
		x->unsure = 1;
	for (i = 0; i < ARRAY_SIZE(named); i++) {
		if (env_set(env, named[i]) && !env_abs(env, named[i]))
			x->unsure = 1;	/* a name looked up that we do not list */
		else if (env_abs(env, named[i]))
			select_file_id(x->b, env_abs(env, named[i]));
	}
	if (any_up(dir, miserc, ARRAY_SIZE(miserc)))
		x->unsure = 1;
	ids_up(x, dir, mise_files, ARRAY_SIZE(mise_files));
	for (i = 0; i < ARRAY_SIZE(mise_dirs); i++)
		up_find(dir, mise_dirs[i], ids_dir1, x);
	ids_up(x, dir, version_files, ARRAY_SIZE(version_files));
	if (home)
		select_file_id_in(x->b, home, ".tool-versions");
	for (i = 0; cfg && i < ARRAY_SIZE(cfg_files); i++)
		select_file_id_in(x->b, cfg, cfg_files[i]);
	for (i = 0; i < ARRAY_SIZE(cfg_files); i++)
		select_file_id_in(x->b, sys, cfg_files[i]);
	if (cfg) {
		ids_dir_in(x, cfg, "conf.d", 1);
		p = path_join(cfg, "miserc.toml");
		if (access(p, F_OK) == 0)
			x->unsure = 1;
		free(p);
	}
	ids_dir_in(x, sys, "conf.d", 1);
	p = path_join(sys, "miserc.toml");
	if (access(p, F_OK) == 0)
		x->unsure = 1;
	free(p);
	if (env_abs(env, "MISE_INSTALLS_DIR"))
		ids_dir(x, env_abs(env, "MISE_INSTALLS_DIR"), 2);
	else if (data)
		ids_dir_in(x, data, "installs", 2);
	if (env_abs(env, "MISE_PLUGINS_DIR"))
		ids_dir(x, env_abs(env, "MISE_PLUGINS_DIR"), 1);
	else if (data)
		ids_dir_in(x, data, "plugins", 1);
	ids_dir_in(x, sysdata ? sysdata : "/usr/local/share/mise", "installs", 2);
	ids_dir_list(x, select_env_get(env, "MISE_SHARED_INSTALL_DIRS"), 2);
	if (state) {
		ids_dir_in(x, state, "trusted-configs", 1);
		ids_dir_in(x, state, "ignored-configs", 1);
	}
	free(cfg);
	free(data);
	free(state);
	free(sys);
}

/* The package.json at path names an "extends" (volta follows it to a
 * file no list here holds). */
static int volta_extends(const char *path, void *arg)
{
	struct blob bl;
	int found = 0;

	(void)arg;
	if (peek_read_text(path, 1 << 20, &bl, NULL) >= 0) {
		found = strstr(bl.data, "\"extends\"") != NULL;
		blob_release(&bl);
	}
	return found;
}

static void volta_inputs(struct ids *x, const char *dir, char *const env[])
{
	char *vh = home_dir(env, "VOLTA_HOME", ".volta");

	buf_printf(x->b, "shim volta %s\n", vh ? vh : "-");
	if (up_find(dir, "package.json", volta_extends, NULL))
		x->unsure = 1;
	select_file_id_up(x->b, dir, "package.json");
	if (vh) {
		select_file_id_in(x->b, vh, "tools/user/platform.json");
		select_file_id_in(x->b, vh, "hooks.json");
		ids_dir_in(x, vh, "tools/image", 2);
	}
	free(vh);
}

static void proto_inputs(struct ids *x, const char *dir, char *const env[])
{
	const char *home = env_abs(env, "HOME");
	char *ph = home_dir(env, "PROTO_HOME", ".proto");

	buf_printf(x->b, "shim proto %s\n", ph ? ph : "-");
	select_file_id_up(x->b, dir, ".prototools");
	ids_up(x, dir, version_files, ARRAY_SIZE(version_files));
	if (home)
		select_file_id_in(x->b, home, ".prototools");
	if (ph) {
		select_file_id_in(x->b, ph, ".prototools");
		select_file_id_in(x->b, ph, "config.toml");
		ids_dir_in(x, ph, "tools", 2);
	}
	free(ph);
}

/* What a manager falls back to ("system"): the program of the same name
 * further along PATH, past the shim's own directory (rbenv-which, pyenv's
 * _PYENV_SHIM_PATH: their own shims only), compared canonically. */
static void system_id(struct ids *x, const char *binary, char *const env[])
{
	const char *path = select_env_get(env, "PATH"), *slash = strrchr(binary, '/');
	char *own = slash ? xstrndup(binary, (size_t)(slash - binary)) : NULL;
	char *own_c = own ? realpath(own, NULL) : NULL;
	struct buf rest = BUF_INIT;
	char *found;

	for (; path && *path; path += *path == ':') {
		size_t n = strcspn(path, ":");
		char *e = xstrndup(path, n), *c = n ? realpath(e, NULL) : NULL;

		if (n && !(own_c && c && !strcmp(c, own_c))) {
			if (rest.len)
				buf_putc(&rest, ':');
			buf_add(&rest, path, n);
		}
		free(c);
		free(e);
		path += n;
	}
	found = spawn_which(base_of(binary), buf_str(&rest), NULL);
	buf_printf(x->b, "system %s\n", found ? found : "-");
	if (found)
		select_file_id(x->b, found);
	free(found);
	free(own);
	free(own_c);
	buf_release(&rest);
}

/* ---- the two entries ---- */

int runtime_shim_known(const char *binary, const char *real)
{
	char text[SHIM_HEAD], *root = NULL, *exe = NULL, *asdf = NULL;
	int known;

	if (links_to(binary, real, "mise") || links_to(binary, real, "rtx") ||
	    links_to(binary, real, "volta-shim") || proto_shim(binary, real))
		return 1;
	if (!head_read(real, text, sizeof(text)))
		return 0;
	known = xenv_shim(text, &root, &exe) || (asdf = asdf_shim(text)) != NULL;
	free(root);
	free(exe);
	free(asdf);
	return known;
}

int runtime_shim_inputs(struct buf *b, const char *binary, const char *real,
			const char *dir, char *const env[])
{
	char text[SHIM_HEAD], *root = NULL, *exe = NULL, *asdf = NULL;
	struct ids x = { b, 0 };
	const struct xenv *xe = NULL;

	if (links_to(binary, real, "mise") || links_to(binary, real, "rtx"))
		mise_inputs(&x, dir, env);
	else if (links_to(binary, real, "volta-shim"))
		volta_inputs(&x, dir, env);
	else if (proto_shim(binary, real))
		proto_inputs(&x, dir, env);
	else if (!head_read(real, text, sizeof(text)))
		return 0;
	else if ((xe = xenv_shim(text, &root, &exe)) != NULL)
		xenv_inputs(&x, xe, root, exe, binary, dir, env);
	else if ((asdf = asdf_shim(text)) != NULL)
		asdf_inputs(&x, asdf, dir, env);
	else
		return 0;
	free(root);
	free(exe);
	free(asdf);
	system_id(&x, binary, env);
	return x.unsure ? -1 : 1;
}
