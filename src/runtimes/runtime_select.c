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
 * A version manager's shim (rbenv's, asdf's, mise's, ...) has its
 * manager's inputs added by runtime_shim.c, whatever its name.
 *
 * The child's environment is forced (runtime_ask.c: GOTOOLCHAIN=local,
 * COREPACK_ENABLE_NETWORK=0, pnpm's manage-package-manager-versions
 * false, ...), and is part of the context: so go, for one, answers with
 * its own toolchain whatever go.mod says; go.mod and go.work stay in its
 * context all the same, as what go would read were it let.
 */
#include "runtime_select.h"
#include "runtime_shim.h"
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

const char *select_env_get(char *const env[], const char *name)
{
	size_t n = strlen(name), i;

	for (i = 0; env && env[i]; i++)
		if (!strncmp(env[i], name, n) && env[i][n] == '=')
			return env[i] + n + 1;
	return NULL;
}

void select_file_id(struct buf *b, const char *path)
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

void select_file_id_in(struct buf *b, const char *dir, const char *name)
{
	char *p = path_join(dir, name);

	select_file_id(b, p);
	free(p);
}

void select_file_id_up(struct buf *b, const char *dir, const char *name)
{
	char *d = xstrdup(dir), *slash;

	for (;;) {
		select_file_id_in(b, *d ? d : "/", name);
		if (!*d || !(slash = strrchr(d, '/')))
			break;
		*slash = '\0';
	}
	free(d);
}

char *select_user_dir(char *const env[], const char *xdg, const char *dflt)
{
	const char *x = select_env_get(env, xdg), *home = select_env_get(env, "HOME");

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
	const char *goenv = select_env_get(env, "GOENV"), *goroot = select_env_get(env, "GOROOT");
	char *cfg, *root;

	if (goenv && strcmp(goenv, "off"))
		select_file_id(b, goenv);
	else if (!goenv && (cfg = select_user_dir(env, "XDG_CONFIG_HOME", ".config")) != NULL) {
		char *f = path_join(cfg, "go/env");

		select_file_id(b, f);
		free(f);
		free(cfg);
	}
	root = goroot && goroot[0] == '/' ? xstrdup(goroot) : install_root(real);
	select_file_id_in(b, root, "go.env");
	free(root);
}

static void rust_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *home = select_env_get(env, "RUSTUP_HOME"), *h = select_env_get(env, "HOME");
	char *rh = home && home[0] == '/' ? xstrdup(home) :
		   h && h[0] == '/' ? path_join(h, ".rustup") : NULL;
	char *tc;
	DIR *d;
	struct dirent *de;

	if (!rh)
		return;
	select_file_id_in(b, rh, "settings.toml");
	tc = path_join(rh, "toolchains");
	select_file_id(b, tc);
	if ((d = opendir(tc)) != NULL) {
		/* readdir's order is the directory's, the same while it is
		 * unchanged (and a change is in its times above) */
		while ((de = readdir(d)) != NULL) {
			struct buf f = BUF_INIT;

			if (de->d_name[0] == '.')
				continue;
			/* the name it was called by: a proxy is rustup itself */
			buf_printf(&f, "%s/%s/bin/%s", tc, de->d_name, base_of(binary));
			select_file_id(b, buf_str(&f));
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
	const char *root = select_env_get(env, "DOTNET_ROOT");
	char *dir = xstrdup(real), *s = strrchr(dir, '/');

	if (s)
		*s = '\0';
	select_file_id_in(b, dir, "sdk");
	if (root && root[0] == '/')
		select_file_id_in(b, root, "sdk");
	free(dir);
}

static void corepack_files(struct buf *b, const char *binary, const char *real,
			char *const env[])
{
	const char *ch = select_env_get(env, "COREPACK_HOME"), *h = select_env_get(env, "HOME");
	char *cache = select_user_dir(env, "XDG_CACHE_HOME", ".cache");
	char *home = ch && ch[0] == '/' ? xstrdup(ch) :
		     cache ? path_join(cache, "node/corepack") : NULL;
	char *cfg = select_user_dir(env, "XDG_CONFIG_HOME", ".config");
	static const char *const homes[] = { ".npmrc", ".yarnrc", ".yarnrc.yml" };
	static const char *const kept[] = { "lastKnownGood.json", "pnpm", "yarn",
					    "v1/pnpm", "v1/yarn" };
	size_t i;

	(void)real;
	if (home) {
		select_file_id(b, home);
		for (i = 0; i < ARRAY_SIZE(kept); i++)
			select_file_id_in(b, home, kept[i]);
	}
	for (i = 0; h && h[0] == '/' && i < ARRAY_SIZE(homes); i++)
		select_file_id_in(b, h, homes[i]);
	if (cfg)
		select_file_id_in(b, cfg, "pnpm/rc");
	free(cfg);
	free(home);
	free(cache);
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
			const char *path = select_env_get(env, "PATH");

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
	if (!sel && !runtime_shim_known(binary, real)) {
		free(real);
		return -1;
	}
	buf_printf(&b, "envpreflight-context 1\nname %s\ndir %s\n", name, dir);
	select_file_id(&b, real);
	if (sel && sel->script) {
		char *interp = NULL;

		if (peek_js_owned(name, real) || peek_js_owned(base_of(binary), real))
			interp = script_interpreter(real, env);
		if (interp) {
			buf_printf(&b, "interpreter %s\n", interp);
			select_file_id(&b, interp);
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
		for (i = 0; i < ARRAY_SIZE(sel->up) && sel->up[i]; i++)
			select_file_id_up(&b, d, sel->up[i]);
		sel->extra(&b, binary, real, env);
	}
	shim = runtime_shim_inputs(&b, binary, real, d, env);
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
