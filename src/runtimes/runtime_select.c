/* runtime_select.c - see runtime_select.h
 *
 * A context is text: the directory the child runs in, its whole
 * environment (already scrubbed to a few dozen variables, sorted), and the
 * identity (device, inode, size, modification and change times) of each
 * file the tool reads to pick its version, found or not.  Any change to
 * any of them is a miss: the cache never answers for a state the tool
 * itself was not asked in.  What each tool reads, from its own source:
 *
 *   go      cmd/go/internal/toolchain/select.go (Select): GOTOOLCHAIN from
 *           the environment, else the go env file ($GOENV, else
 *           os.UserConfigDir()/go/env), else $GOROOT/go.env; with "auto"
 *           the go and toolchain lines of go.work or go.mod, found
 *           upwards from the working directory (modload.FindGoWork,
 *           FindGoMod).
 *   rustc   rustup's src/config.rs (find_override_config): RUSTUP_TOOLCHAIN,
 *   ...     the directory overrides of $RUSTUP_HOME/settings.toml (by
 *           path), rust-toolchain and rust-toolchain.toml upwards, then
 *           settings.toml's default; a channel's toolchain is updated in
 *           place (`rustup update`), so each toolchain's binary is in too.
 *   dotnet  the host's SDK resolution (hostfxr, sdk_resolver): global.json
 *           upwards, among the SDKs in the sdk directory beside dotnet.
 *   pnpm,   corepack's sources/specUtils.ts (loadSpec: packageManager of
 *   yarn    package.json upwards) and its home (folderUtils: COREPACK_HOME,
 *           else $XDG_CACHE_HOME/node/corepack, else ~/.cache/node/corepack:
 *           the versions installed and lastKnownGood.json); pnpm's own
 *           switch to the packageManager version (its .npmrc setting
 *           manage-package-manager-versions, pnpm-workspace.yaml); yarn's
 *           .yarnrc.yml and .yarnrc.  These are scripts: cached only when
 *           the file is a declared bin of pnpm's, yarn's or corepack's
 *           own package (peek_js_owned), with the identity of the node
 *           that runs them.
 *
 * The child's environment is forced (runtime_ask.c: GOTOOLCHAIN=local,
 * COREPACK_ENABLE_NETWORK=0, pnpm's manage-package-manager-versions
 * false, ...), and is part of the context: so go, for one, answers with
 * its own toolchain whatever go.mod says; go.mod and go.work stay in its
 * context all the same, as what go would read were it let.
 */
#include "runtime_select.h"
#include "peek_int.h"
#include "spawnrun.h"
#include "util.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct selector {
	const char *names[10];	/* runtime names and binaries' base names */
	const char *up[6];	/* read in the working directory and above */
	/* what else it reads: binary as called, real its canonical file */
	void (*extra)(struct buf *b, const char *binary, const char *real,
		      char *const env[]);
	int script;		/* an npm package's script (see above) */
};

static void go_files(struct buf *b, const char *binary, const char *real,
			char *const env[]);
static void rust_files(struct buf *b, const char *binary, const char *real,
			char *const env[]);
static void dotnet_files(struct buf *b, const char *binary, const char *real,
			char *const env[]);
static void corepack_files(struct buf *b, const char *binary, const char *real,
			char *const env[]);

static const struct selector selectors[] = {
	{ { "go", "gofmt" }, { "go.work", "go.mod" }, go_files, 0 },
	{ { "rust", "rustc", "cargo", "rustup", "rustfmt", "rustdoc",
	    "rust-analyzer", "cargo-clippy", "clippy-driver" },
	  { "rust-toolchain", "rust-toolchain.toml" }, rust_files, 0 },
	{ { "dotnet" }, { "global.json" }, dotnet_files, 0 },
	{ { "pnpm", "yarn", "yarnpkg" },
	  { "package.json", ".npmrc", ".yarnrc", ".yarnrc.yml",
	    "pnpm-workspace.yaml" }, corepack_files, 1 },
};

static const char *base_of(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static const struct selector *selector_find(const char *name, const char *binary)
{
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(selectors); i++)
		for (k = 0; k < ARRAY_SIZE(selectors[i].names) && selectors[i].names[k]; k++)
			if (!strcmp(name, selectors[i].names[k]) ||
			    !strcmp(base_of(binary), selectors[i].names[k]))
				return &selectors[i];
	return NULL;
}

/* A variable of env, or NULL. */
static const char *env_get(char *const env[], const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; env && env[i]; i++)
		if (!strncmp(env[i], name, n) && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

/* "f PATH DEV INO SIZE MTIME CTIME" for a file that is there (a directory
 * too: its times change as entries come and go), nothing otherwise. */
static void file_id(struct buf *b, const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return;
	buf_printf(b, "f %s %llu %llu %lld %lld.%09ld %lld.%09ld\n", path,
		   (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		   (long long)st.st_size, (long long)st.st_mtim.tv_sec,
		   st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec,
		   st.st_ctim.tv_nsec);
}

static void file_id_in(struct buf *b, const char *dir, const char *name)
{
	char *p = path_join(dir, name);

	file_id(b, p);
	free(p);
}

/* The user's directory of XDG variable xdg (absolute), else HOME/dflt;
 * a new string, or NULL. */
static char *user_dir(char *const env[], const char *xdg, const char *dflt)
{
	const char *x = env_get(env, xdg), *home = env_get(env, "HOME");

	if (x && x[0] == '/')
		return xstrdup(x);
	return home && home[0] == '/' ? path_join(home, dflt) : NULL;
}

/* The directory two levels above the canonical binary (GOROOT for
 * GOROOT/bin/go): a new string. */
static char *install_root(const char *real)
{
	char *r = xstrdup(real), *s;
	int i;

	for (i = 0; i < 2 && (s = strrchr(r, '/')) != NULL; i++)
		*s = '\0';
	return r;
}

static void go_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *goenv = env_get(env, "GOENV"), *goroot = env_get(env, "GOROOT");
	char *cfg, *root;

	if (goenv && strcmp(goenv, "off"))
		file_id(b, goenv);
	else if (!goenv && (cfg = user_dir(env, "XDG_CONFIG_HOME", ".config")) != NULL) {
		char *f = path_join(cfg, "go/env");

		file_id(b, f);
		free(f);
		free(cfg);
	}
	root = goroot && goroot[0] == '/' ? xstrdup(goroot) : install_root(real);
	file_id_in(b, root, "go.env");
	free(root);
}

static void rust_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *home = env_get(env, "RUSTUP_HOME"), *h = env_get(env, "HOME");
	char *rh = home && home[0] == '/' ? xstrdup(home) :
		   h && h[0] == '/' ? path_join(h, ".rustup") : NULL;
	char *tc;
	DIR *d;
	struct dirent *de;

	if (!rh)
		return;
	file_id_in(b, rh, "settings.toml");
	tc = path_join(rh, "toolchains");
	file_id(b, tc);
	if ((d = opendir(tc)) != NULL) {
		/* readdir's order is the directory's, the same while it is
		 * unchanged (and a change is in its times above) */
		while ((de = readdir(d)) != NULL) {
			struct buf f = BUF_INIT;

			if (de->d_name[0] == '.')
				continue;
			/* the name it was called by: a proxy is rustup itself */
			buf_printf(&f, "%s/%s/bin/%s", tc, de->d_name, base_of(binary));
			file_id(b, buf_str(&f));
			buf_release(&f);
		}
		closedir(d);
	}
	free(tc);
	free(rh);
}

static void dotnet_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *root = env_get(env, "DOTNET_ROOT");
	char *dir = xstrdup(real), *s = strrchr(dir, '/');

	if (s)
		*s = '\0';
	file_id_in(b, dir, "sdk");
	if (root && root[0] == '/')
		file_id_in(b, root, "sdk");
	free(dir);
}

static void corepack_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *ch = env_get(env, "COREPACK_HOME"), *h = env_get(env, "HOME");
	char *cache = user_dir(env, "XDG_CACHE_HOME", ".cache");
	char *home = ch && ch[0] == '/' ? xstrdup(ch) :
		     cache ? path_join(cache, "node/corepack") : NULL;
	char *cfg = user_dir(env, "XDG_CONFIG_HOME", ".config");
	static const char *const homes[] = { ".npmrc", ".yarnrc", ".yarnrc.yml" };
	static const char *const kept[] = { "lastKnownGood.json", "pnpm", "yarn",
					    "v1/pnpm", "v1/yarn" };
	size_t i;

	(void)real;
	if (home) {
		file_id(b, home);
		for (i = 0; i < ARRAY_SIZE(kept); i++)
			file_id_in(b, home, kept[i]);
	}
	for (i = 0; h && h[0] == '/' && i < ARRAY_SIZE(homes); i++)
		file_id_in(b, h, homes[i]);
	if (cfg)
		file_id_in(b, cfg, "pnpm/rc");
	free(cfg);
	free(home);
	free(cache);
}

/* ---- version managers' shims ----
 *
 * A shim runs whatever version its manager picks for the working
 * directory.  Its answer is kept in a context holding everything the
 * manager reads to pick one, from each manager's own source:
 *
 *   rbenv,  libexec/<tool>-version-file and -version-name: <TOOL>_VERSION,
 *   nodenv, the version file (.ruby-version, ...) from the working
 *   pyenv,  directory up, else <ROOT>/version; the version installed under
 *   goenv,  <ROOT>/versions; the hooks of <TOOL>_HOOK_PATH as libexec/<tool>
 *   jenv,   builds it (<ROOT>/<tool>.d, the install's <tool>.d,
 *   plenv   /usr/local/etc, /etc, /usr/lib/<tool>/hooks, each plugin's
 *           etc/<tool>.d).  The shim says which manager and which root
 *           (rbenv-rehash's prototype shim: export RBENV_ROOT="...", exec
 *           "<rbenv>" exec "$program" "$@").
 *   asdf    ASDF_<TOOL>_VERSION, ASDF_TOOL_VERSIONS_FILENAME (.tool-versions)
 *           from the working directory up, $HOME's, the legacy version
 *           files when .asdfrc (ASDF_CONFIG_FILE) allows them; what is
 *           installed under $ASDF_DATA_DIR (~/.asdf)/installs and the
 *           plugins' scripts.  Its shims say "# asdf-plugin: NAME VERSION"
 *           and exec `asdf exec`.
 *   mise    the config files of its docs' "mise.toml" list (mise.toml,
 *           .mise.toml, mise/config.toml, .config/mise.toml, ...,
 *           .tool-versions, the idiomatic version files) from the working
 *           directory up, its config directory, /etc/mise, what is
 *           installed under its data directory and which configs are
 *           trusted (its state directory).  A shim is a link to the mise
 *           binary.  With MISE_ENV (or a profile) mise reads files named
 *           after it as well: not cached.
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
 * Any manager also falls back to the program further along PATH ("system"):
 * its identity is in too.  What is read is stat()ed, never parsed: an
 * input that did not change the answer only costs a miss. */

/* Version files a manager may read from any directory up: the idiomatic
 * (legacy) files of the tools mise and asdf's plugins know, and mise's
 * own config files. */
static const char *const up_version_files[] = {
	".tool-versions", ".nvmrc", ".node-version", ".python-version",
	".python-versions", ".ruby-version", "Gemfile", ".go-version",
	".java-version", ".sdkmanrc", ".bun-version", ".yvmrc", "package.json",
	"rust-toolchain", "rust-toolchain.toml", ".terraform-version",
};
static const char *const up_mise_files[] = {
	".miserc.toml", "mise.toml", ".mise.toml", "mise.local.toml",
	".mise.local.toml", ".mise/config.toml", ".mise/config.local.toml",
	"mise/config.toml", ".config/mise.toml", ".config/mise.local.toml",
	".config/mise/config.toml", ".config/mise/config.local.toml",
	".config/mise/mise.toml", ".config/mise/mise.local.toml",
	".config/mise/conf.d", ".rtx.toml", ".rtx.local.toml",
};

/* The *env family, by the variable its shims export. */
static const struct xenv {
	const char *tool, *root_var, *version_file, *also;
} xenvs[] = {
	{ "rbenv", "RBENV_ROOT", ".ruby-version", NULL },
	{ "nodenv", "NODENV_ROOT", ".node-version", NULL },
	{ "pyenv", "PYENV_ROOT", ".python-version", NULL },
	{ "goenv", "GOENV_ROOT", ".go-version", "go.mod" },
	{ "jenv", "JENV_ROOT", ".java-version", NULL },
	{ "plenv", "PLENV_ROOT", ".perl-version", NULL },
};

#define SHIM_HEAD 4096		/* a shim says what it is in its first lines */
#define SHIM_DIR_ENTRIES 256	/* a directory's entries looked at, at most */

/* The file's first bytes, NUL-terminated (a binary's stop at its first
 * NUL): the count read. */
static size_t head_read(const char *path, char *out, size_t cap)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return 0;
	n = fread(out, 1, cap - 1, f);
	fclose(f);
	out[n] = '\0';
	return n;
}

/* The value of a line `<lead>"/abs"<tail>` of text: a new string, or
 * NULL when there is none or it is not a plain absolute path. */
static char *line_quoted(const char *text, const char *lead, const char *tail)
{
	const char *p = text, *q;
	size_t n = strlen(lead), t = strlen(tail), i;

	for (; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strncmp(p, lead, n))
			continue;
		q = strchr(p + n, '"');
		if (p[n] != '/' || !q || strncmp(q + 1, tail, t) ||
		    (q[1 + t] != '\n' && q[1 + t] != '\0'))
			return NULL;
		for (i = n; p + i < q; i++)
			if (strchr("$`\\\n", p[i]))
				return NULL;
		return xstrndup(p + n, (size_t)(q - p - n));
	}
	return NULL;
}

/* file_id of dir and of up to SHIM_DIR_ENTRIES of its entries (and,
 * depth 2, theirs): a version installed or removed, a hook or plugin
 * added, is a change.  readdir's order is stable while the directory
 * is unchanged, and a change is in the directory's own times. */
static void dir_ids(struct buf *b, const char *dir, int depth)
{
	struct dirent *de;
	DIR *d;
	int n = 0;

	file_id(b, dir);
	if (depth <= 0 || !(d = opendir(dir)))
		return;
	while ((de = readdir(d)) != NULL && n++ < SHIM_DIR_ENTRIES) {
		char *p;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		p = path_join(dir, de->d_name);
		dir_ids(b, p, depth - 1);
		free(p);
	}
	closedir(d);
}

static void dir_ids_in(struct buf *b, const char *dir, const char *name, int depth)
{
	char *p = path_join(dir, name);

	dir_ids(b, p, depth);
	free(p);
}

/* The files of list (n of them) in every directory from the canonical
 * dir up to /. */
static void up_ids(struct buf *b, const char *dir, const char *const *list, size_t n)
{
	char *d = xstrdup(dir), *slash;
	size_t i;

	for (;;) {
		for (i = 0; i < n && list[i]; i++)
			file_id_in(b, *d ? d : "/", list[i]);
		if (!*d || !(slash = strrchr(d, '/')))
			break;
		*slash = '\0';
	}
	free(d);
}

/* An absolute path of the variable, or NULL. */
static const char *env_abs(char *const env[], const char *name)
{
	const char *v = env_get(env, name);

	return v && v[0] == '/' ? v : NULL;
}

/* The *env shim in text: its manager, with *root and *exe (new strings). */
static const struct xenv *xenv_shim(const char *text, char **root, char **exe)
{
	size_t i;

	if (strncmp(text, "#!", 2) || !strstr(text, "\nprogram=\"${0##*/}\"\n"))
		return NULL;
	for (i = 0; i < ARRAY_SIZE(xenvs); i++) {
		struct buf lead = BUF_INIT;

		buf_printf(&lead, "export %s=\"", xenvs[i].root_var);
		*root = line_quoted(text, buf_str(&lead), "");
		buf_release(&lead);
		if (!*root)
			continue;
		*exe = line_quoted(text, "exec \"", " exec \"$program\" \"$@\"");
		if (*exe)
			return &xenvs[i];
		free(*root);
		*root = NULL;
	}
	return NULL;
}

/* A hook directory of an *env manager, PRE TOOL POST: its commands'
 * subdirectories and their scripts. */
static void xenv_hooks(struct buf *b, const char *pre, const char *tool,
		       const char *post)
{
	struct buf h = BUF_INIT;

	buf_printf(&h, "%s%s%s", pre, tool, post);
	if (buf_str(&h)[0] == '/')
		dir_ids(b, buf_str(&h), 2);
	buf_release(&h);
}

static void xenv_inputs(struct buf *b, const struct xenv *x, const char *root,
			const char *exe, const char *dir, char *const env[])
{
	const char *up[2] = { x->version_file, x->also };
	struct buf v = BUF_INIT, p = BUF_INIT;
	const char *hp;
	char *real = realpath(exe, NULL), *s;
	struct dirent *de;
	DIR *d;
	size_t i;

	buf_printf(b, "shim %s %s\n", x->tool, root);
	up_ids(b, dir, up, ARRAY_SIZE(up));
	file_id_in(b, root, "version");
	dir_ids_in(b, root, "versions", 1);
	/* <TOOL>_HOOK_PATH, then the directories libexec/<tool> appends */
	for (i = 0; x->tool[i]; i++)
		buf_putc(&v, (char)(x->tool[i] - 'a' + 'A'));
	buf_puts(&v, "_HOOK_PATH");
	for (hp = env_get(env, buf_str(&v)); hp && *hp; hp += *hp == ':') {
		size_t n = strcspn(hp, ":");
		char *one = xstrndup(hp, n);

		xenv_hooks(b, one, "", "");
		free(one);
		hp += n;
	}
	buf_release(&v);
	buf_printf(&p, "%s/", root);
	xenv_hooks(b, buf_str(&p), x->tool, ".d");
	buf_release(&p);
	if (real) {
		file_id(b, real);
		/* the install's own <tool>.d, beside its libexec/ */
		for (i = 0; i < 2 && (s = strrchr(real, '/')) != NULL; i++)
			*s = '\0';
		buf_printf(&p, "%s/", real);
		xenv_hooks(b, buf_str(&p), x->tool, ".d");
		buf_release(&p);
		free(real);
	}
	xenv_hooks(b, "/usr/local/etc/", x->tool, ".d");
	xenv_hooks(b, "/etc/", x->tool, ".d");
	xenv_hooks(b, "/usr/lib/", x->tool, "/hooks");
	buf_printf(&p, "%s/plugins", root);
	file_id(b, buf_str(&p));
	if ((d = opendir(buf_str(&p))) != NULL) {
		while ((de = readdir(d)) != NULL) {
			struct buf e = BUF_INIT;

			if (de->d_name[0] == '.')
				continue;
			buf_printf(&e, "%s/plugins/%s/etc/", root, de->d_name);
			xenv_hooks(b, buf_str(&e), x->tool, ".d");
			buf_release(&e);
		}
		closedir(d);
	}
	buf_release(&p);
}

/* asdf's shim: "# asdf-plugin: NAME VERSION" lines, then
 * `exec <asdf> exec "<cmd>" "$@"`; its asdf as a new string. */
static char *asdf_shim(const char *text)
{
	const char *p = strstr(text, "\nexec "), *e;

	if (strncmp(text, "#!", 2) || !strstr(text, "\n# asdf-plugin: ") || !p)
		return NULL;
	p += 6;
	e = strstr(p, " exec \"");
	if (!e || memchr(p, '\n', (size_t)(e - p)) || e == p)
		return NULL;
	return xstrndup(p, (size_t)(e - p));
}

static void asdf_inputs(struct buf *b, const char *asdf, const char *dir,
			char *const env[])
{
	const char *home = env_abs(env, "HOME"), *fn = env_get(env, "ASDF_TOOL_VERSIONS_FILENAME");
	const char *dfn = env_get(env, "ASDF_DEFAULT_TOOL_VERSIONS_FILENAME");
	const char *up[] = { fn && *fn ? fn : ".tool-versions" };
	char *data = env_abs(env, "ASDF_DATA_DIR") ? xstrdup(env_abs(env, "ASDF_DATA_DIR")) :
		     home ? path_join(home, ".asdf") : NULL;
	char *found = asdf[0] == '/' ? xstrdup(asdf) :
		      spawn_which(asdf, env_get(env, "PATH") ? env_get(env, "PATH") : "", NULL);

	buf_printf(b, "shim asdf %s\n", data ? data : "-");
	if (found)
		file_id(b, found);
	up_ids(b, dir, up, ARRAY_SIZE(up));
	up_ids(b, dir, up_version_files, ARRAY_SIZE(up_version_files));
	if (env_abs(env, "ASDF_CONFIG_FILE"))
		file_id(b, env_abs(env, "ASDF_CONFIG_FILE"));
	else if (home)
		file_id_in(b, home, ".asdfrc");
	if (home)
		file_id_in(b, home, dfn && *dfn ? dfn : ".tool-versions");
	if (data) {
		dir_ids_in(b, data, "installs", 2);
		dir_ids_in(b, data, "plugins", 2);
	}
	free(found);
	free(data);
}

/* The directory of mise's kind (config, data, state): MISE_<KIND>_DIR,
 * else XDG_<xdg> or HOME/<dflt>, with /mise; a new string or NULL. */
static char *mise_dir(char *const env[], const char *var, const char *xdg,
		      const char *dflt)
{
	char *base;

	if (env_abs(env, var))
		return xstrdup(env_abs(env, var));
	base = user_dir(env, xdg, dflt);
	if (base) {
		char *d = path_join(base, "mise");

		free(base);
		return d;
	}
	return NULL;
}

/* 0 with the inputs, -1 when they cannot be told (a profile). */
static int mise_inputs(struct buf *b, const char *dir, char *const env[])
{
	static const char *const profile[] = { "MISE_ENV", "MISE_PROFILE", "RTX_ENV" };
	static const char *const named[] = {
		"MISE_CONFIG_FILE", "MISE_GLOBAL_CONFIG_FILE", "MISE_SYSTEM_CONFIG_FILE",
		"MISE_DEFAULT_CONFIG_FILENAME", "MISE_DEFAULT_TOOL_VERSIONS_FILENAME",
	};
	static const char *const cfg_files[] = {
		"config.toml", "config.local.toml", "mise.toml", "mise.local.toml",
		"settings.toml",
	};
	const char *home = env_abs(env, "HOME");
	char *cfg, *data, *state;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profile); i++)
		if (env_get(env, profile[i]) && *env_get(env, profile[i]))
			return -1;
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (env_get(env, named[i]) && !env_abs(env, named[i]))
			return -1;	/* a name looked up we do not list */
	buf_puts(b, "shim mise\n");
	for (i = 0; i < ARRAY_SIZE(named); i++)
		if (env_abs(env, named[i]))
			file_id(b, env_abs(env, named[i]));
	up_ids(b, dir, up_mise_files, ARRAY_SIZE(up_mise_files));
	up_ids(b, dir, up_version_files, ARRAY_SIZE(up_version_files));
	cfg = mise_dir(env, "MISE_CONFIG_DIR", "XDG_CONFIG_HOME", ".config");
	for (i = 0; cfg && i < ARRAY_SIZE(cfg_files); i++)
		file_id_in(b, cfg, cfg_files[i]);
	if (cfg)
		dir_ids_in(b, cfg, "conf.d", 1);
	file_id(b, "/etc/mise/config.toml");
	dir_ids(b, "/etc/mise/conf.d", 1);
	if (home)
		file_id_in(b, home, ".tool-versions");
	data = mise_dir(env, "MISE_DATA_DIR", "XDG_DATA_HOME", ".local/share");
	if (data) {
		dir_ids_in(b, data, "installs", 2);
		dir_ids_in(b, data, "plugins", 1);
	}
	state = mise_dir(env, "MISE_STATE_DIR", "XDG_STATE_HOME", ".local/state");
	if (state) {
		dir_ids_in(b, state, "trusted-configs", 1);
		dir_ids_in(b, state, "ignored-configs", 1);
	}
	free(cfg);
	free(data);
	free(state);
	return 0;
}

/* 1 when a package.json from dir up names an "extends" (volta follows
 * it to a file no list here holds). */
static int volta_extends(const char *dir)
{
	char *d = xstrdup(dir), *slash;
	int found = 0;

	for (;;) {
		char *p = path_join(*d ? d : "/", "package.json");
		struct blob bl;

		if (peek_read_text(p, 1 << 20, &bl, NULL) == 0) {
			found = strstr(bl.data, "\"extends\"") != NULL;
			blob_release(&bl);
		}
		free(p);
		if (found || !*d || !(slash = strrchr(d, '/')))
			break;
		*slash = '\0';
	}
	free(d);
	return found;
}

/* 0 with the inputs, -1 when they cannot be told ("extends"). */
static int volta_inputs(struct buf *b, const char *dir, char *const env[])
{
	static const char *const up[] = { "package.json" };
	const char *home = env_abs(env, "HOME");
	char *vh = env_abs(env, "VOLTA_HOME") ? xstrdup(env_abs(env, "VOLTA_HOME")) :
		   home ? path_join(home, ".volta") : NULL;

	if (volta_extends(dir)) {
		free(vh);
		return -1;
	}
	buf_printf(b, "shim volta %s\n", vh ? vh : "-");
	up_ids(b, dir, up, ARRAY_SIZE(up));
	if (vh) {
		file_id_in(b, vh, "tools/user/platform.json");
		file_id_in(b, vh, "hooks.json");
		dir_ids_in(b, vh, "tools/image", 2);
	}
	free(vh);
	return 0;
}

static void proto_inputs(struct buf *b, const char *dir, char *const env[])
{
	static const char *const up[] = { ".prototools" };
	const char *home = env_abs(env, "HOME");
	char *ph = env_abs(env, "PROTO_HOME") ? xstrdup(env_abs(env, "PROTO_HOME")) :
		   home ? path_join(home, ".proto") : NULL;

	buf_printf(b, "shim proto %s\n", ph ? ph : "-");
	up_ids(b, dir, up, ARRAY_SIZE(up));
	up_ids(b, dir, up_version_files, ARRAY_SIZE(up_version_files));
	if (home)
		file_id_in(b, home, ".prototools");
	if (ph) {
		file_id_in(b, ph, ".prototools");
		file_id_in(b, ph, "config.toml");
		dir_ids_in(b, ph, "tools", 2);
	}
	free(ph);
}

/* What a manager falls back to ("system"): the program of the same name
 * further along PATH, past the shim's own directory and any shims/. */
static void system_id(struct buf *b, const char *binary, char *const env[])
{
	const char *path = env_get(env, "PATH"), *slash = strrchr(binary, '/');
	size_t dl = slash ? (size_t)(slash - binary) : 0;
	struct buf rest = BUF_INIT;
	char *found;

	for (; path && *path; path += *path == ':') {
		size_t n = strcspn(path, ":");

		if (n && !(n == dl && !strncmp(path, binary, n)) &&
		    !(n >= 6 && !strncmp(path + n - 6, "/shims", 6))) {
			if (rest.len)
				buf_putc(&rest, ':');
			buf_add(&rest, path, n);
		}
		path += n;
	}
	found = spawn_which(base_of(binary), buf_str(&rest), NULL);
	buf_printf(b, "system %s\n", found ? found : "-");
	if (found)
		file_id(b, found);
	free(found);
	buf_release(&rest);
}

/* proto's shims: links to proto-shim, or copies of it in its shims
 * directory (proto's shim_dir: $PROTO_HOME/shims). */
static int proto_shim(const char *binary, const char *real)
{
	const char *rb = base_of(real);
	size_t n;

	if (!strcmp(rb, "proto-shim"))
		return strcmp(base_of(binary), rb) != 0;
	n = strlen(real) - strlen(rb);
	return n >= 14 && !strncmp(real + n - 14, "/.proto/shims/", 14);
}

/* Is binary (real its canonical file) a shim of a manager we know? */
static int shim_known(const char *binary, const char *real)
{
	char text[SHIM_HEAD], *root = NULL, *exe = NULL, *asdf = NULL;
	const char *rb = base_of(real);
	int known;

	if ((!strcmp(rb, "mise") || !strcmp(rb, "rtx") || !strcmp(rb, "volta-shim")) &&
	    strcmp(base_of(binary), rb))
		return 1;
	if (proto_shim(binary, real))
		return 1;
	if (!head_read(real, text, sizeof(text)))
		return 0;
	known = xenv_shim(text, &root, &exe) || (asdf = asdf_shim(text)) != NULL;
	free(root);
	free(exe);
	free(asdf);
	return known;
}

/* The inputs of the manager whose shim binary is (real its canonical
 * file), run in the canonical dir: 1 when it is one (inputs added), 0 when
 * it is none we know, -1 when it is one whose inputs cannot be told. */
static int shim_inputs(struct buf *b, const char *binary, const char *real,
		       const char *dir, char *const env[])
{
	char text[SHIM_HEAD], *root = NULL, *exe = NULL, *asdf;
	const struct xenv *x;
	const char *rb = base_of(real);
	int got = 1;

	if ((!strcmp(rb, "mise") || !strcmp(rb, "rtx")) &&
	    strcmp(base_of(binary), rb)) {
		got = mise_inputs(b, dir, env) == 0 ? 1 : -1;
	} else if (!strcmp(rb, "volta-shim") && strcmp(base_of(binary), rb)) {
		got = volta_inputs(b, dir, env) == 0 ? 1 : -1;
	} else if (proto_shim(binary, real)) {
		proto_inputs(b, dir, env);
	} else if (!head_read(real, text, sizeof(text))) {
		return 0;
	} else if ((x = xenv_shim(text, &root, &exe)) != NULL) {
		xenv_inputs(b, x, root, exe, dir, env);
	} else if ((asdf = asdf_shim(text)) != NULL) {
		asdf_inputs(b, asdf, dir, env);
		free(asdf);
	} else {
		return 0;
	}
	free(root);
	free(exe);
	if (got == 1)
		system_id(b, binary, env);
	return got;
}

/* The interpreter of the script at real ("#!/usr/bin/env node" is node on
 * env's PATH), canonical: a new string, or NULL. */
static char *script_interpreter(const char *real, char *const env[])
{
	char line[256], *p, *word, *found = NULL, *canon;
	FILE *f = fopen(real, "re");
	size_t n;

	if (!f)
		return NULL;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = '\0';
	if (n < 3 || line[0] != '#' || line[1] != '!')
		return NULL;
	line[strcspn(line, "\n")] = '\0';
	p = line + 2;
	word = strsep(&p, " \t");
	while (word && !*word)
		word = strsep(&p, " \t");
	if (word && !strcmp(word, "/usr/bin/env")) {
		do
			word = strsep(&p, " \t");
		while (word && (!*word || word[0] == '-'));
		if (word && !strchr(word, '/')) {
			const char *path = env_get(env, "PATH");

			found = spawn_which(word, path ? path : "", NULL);
		}
	} else if (word && word[0] == '/') {
		found = xstrdup(word);
	}
	canon = found ? realpath(found, NULL) : NULL;
	free(found);
	return canon;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int runtime_select_context(const char *name, const char *binary, const char *dir,
			   char *const env[], struct version_context *ctx)
{
	const struct selector *sel = selector_find(name, binary);
	struct buf b = BUF_INIT;
	char *real, *d, **sorted;
	size_t n = 0, i;
	int shim;

	memset(ctx, 0, sizeof(*ctx));
	if (!dir || dir[0] != '/' || !(real = realpath(binary, NULL)))
		return -1;
	if (!sel && !shim_known(binary, real)) {
		free(real);
		return -1;
	}
	buf_printf(&b, "envpreflight-context 1\nname %s\ndir %s\n", name, dir);
	file_id(&b, real);
	if (sel && sel->script) {
		char *interp = NULL;

		if (peek_js_owned(name, real) || peek_js_owned(base_of(binary), real))
			interp = script_interpreter(real, env);
		if (interp) {
			buf_printf(&b, "interpreter %s\n", interp);
			file_id(&b, interp);
			free(interp);
			ctx->script_ok = 1;
		}
	}
	for (i = 0; env && env[i]; i++)
		n++;
	sorted = xcalloc(n + 1, sizeof(*sorted));
	if (n) {
		memcpy(sorted, env, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), str_cmp);
	}
	for (i = 0; i < n; i++)
		buf_printf(&b, "env %s\n", sorted[i]);
	free(sorted);
	/* the files read upwards, from the working directory to /: the
	 * directory the child's cwd really is (a workspace may be a link) */
	d = realpath(dir, NULL);
	if (!d)
		d = xstrdup(dir);
	if (sel) {
		up_ids(&b, d, sel->up, ARRAY_SIZE(sel->up));
		sel->extra(&b, binary, real, env);
	}
	shim = shim_inputs(&b, binary, real, d, env);
	free(d);
	free(real);
	if (shim < 0 || (!sel && shim == 0)) {
		buf_release(&b);
		return -1;
	}
	ctx->shim_ok = shim;
	ctx->text = buf_detach(&b);
	return 0;
}

void runtime_select_release(struct version_context *ctx)
{
	free(ctx->text);
	ctx->text = NULL;
}
