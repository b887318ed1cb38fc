/* exec_guard.c - the guards of exec_guard.h: repository configuration that would
 * make asking a binary for its version run code the repository ships, or
 * download code it names.  Such a binary is never run.
 *
 * Files are found by a walk from the repository up, which stops below the
 * user's home (walk_on), and read with the spec rules (cfg_read).  yarn's
 * yarnPath still gives a version, by the file name "yarn-X.Y.Z.cjs"; every
 * other guard only says why not to run.
 *
 * Nothing here runs a process, prints or exits; thread-safe (no state but
 * the file system).
 */
#include "exec_guard.h"
#include "peek_int.h"
#include "saferead.h"
#include "ytree.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the walk up, and what it reads ---- */

/* The 1-based line of byte off in text. */
static unsigned line_of(const char *text, size_t off)
{
	unsigned line = 1;
	size_t i;

	for (i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/* A file of the walk up from the repository, read with the spec rules. */
struct cfg {
	char *shown;		/* relative in the repository, else absolute */
	struct blob b;
};

static void cfg_release(struct cfg *c)
{
	free(c->shown);
	c->shown = NULL;
	blob_release(&c->b);
}

static void guard_why(struct exec_guard *g, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void guard_why(struct exec_guard *g, const char *fmt, ...)
{
	va_list ap;

	free(g->why);
	va_start(ap, fmt);
	g->why = xvformat(fmt, ap);
	va_end(ap);
}

/* Read dir/name.  1 read (c filled), 0 absent, -1 refused (g->why set):
 * over the size cap, not text, or in the repository a symlink that
 * resolves outside it.  Unreadable counts as refused too: what the tool
 * would make of it is unknown.  Files above the repository are the
 * user's (walk_on stops below $HOME): symlinks there are followed. */
static int cfg_read(const char *root, const char *dir, const char *name,
		    struct cfg *c, struct exec_guard *g)
{
	static const struct saferead_policy in_repo = {
		SAFEREAD_BENEATH, SAFEREAD_NO_NUL, SPEC_FILE_CAP
	};
	static const struct saferead_policy above = {
		SAFEREAD_ANYWHERE, SAFEREAD_NO_NUL, SPEC_FILE_CAP
	};
	int inside = !strcmp(dir, root);
	struct saferead_error why;

	memset(c, 0, sizeof(*c));
	c->shown = inside ? xstrdup(name) : path_join(dir, name);
	if (saferead_file(inside ? &in_repo : &above, dir, name, &c->b, &why) == 0)
		return 1;
	if ((why.code == ENOENT || why.code == ENOTDIR) &&
	    !(inside && why.symlink)) {
		cfg_release(c);
		return 0;
	}
	/* a dangling symlink in the repository leads nowhere we may go */
	if (why.code == EXDEV || why.code == ENOENT || why.code == ENOTDIR)
		guard_why(g, "%s is a symlink resolving outside the repository, "
			  "which envpreflight does not follow", c->shown);
	else
		guard_why(g, "%s could not be read (too large, not text, or not a "
			  "file)", c->shown);
	cfg_release(c);
	return -1;
}

/* The directory above dir, in place; 0 once dir was "/". */
static int dir_up(char *dir)
{
	char *slash = strrchr(dir, '/');

	if (!slash || (slash == dir && !dir[1]))
		return 0;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	return 1;
}

/* The walk up from the repository stops below the user's home: files in
 * $HOME and above it are the user's own (a global ~/.tool-versions, a
 * ~/.yarnrc.yml), not something the repository ships.  home is the
 * canonical $HOME of the child's environment, or NULL. */
static int walk_on(char *dir, const char *home)
{
	return dir_up(dir) && !(home && !strcmp(dir, home));
}

/* Every file of names in the repository and each directory above it
 * (walk_on), or only the nearest that has one: the first that check finds
 * bad.  1 bad (g->why set), 0 none. */
static int walk_files(const char *root, const char *home,
		      const char *const *names, size_t n,
		      int (*check)(const struct cfg *c, size_t i, struct exec_guard *g),
		      int nearest_only, struct exec_guard *g)
{
	char *dir = xstrdup(root);
	int bad = 0, found = 0;

	do {
		size_t i;

		for (i = 0; i < n && !bad; i++) {
			struct cfg c;
			int r = cfg_read(root, dir, names[i], &c, g);

			if (r < 0)
				bad = 1;
			if (r <= 0)
				continue;
			found = 1;
			bad = check(&c, i, g);
			cfg_release(&c);
		}
	} while (!bad && !(nearest_only && found) && walk_on(dir, home));
	free(dir);
	return bad;
}

/* ---- yarn ---- */

/* "yarnPath", "yarn-path", "yarn_path" all read "yarnpath". */
static int key_is(const char *key, const char *want)
{
	for (; *key && *want; key++) {
		if (*key == '-' || *key == '_')
			continue;
		if (tolower((unsigned char)*key) != *want++)
			return 0;
	}
	/* the loop may stop at the end of want with a separator left in key
	 * ("yarnPath_") */
	/* cppcheck-suppress knownConditionTrueFalse */
	while (*key == '-' || *key == '_')
		key++;
	return !*key && !*want;
}

/* The version in a yarnPath's file name, "yarn-4.1.0.cjs" or
 * "yarn-1.22.19.js", into g->version. */
static void yarn_path_version(const char *value, struct exec_guard *g)
{
	const char *base = peek_base_name(value);
	size_t n = strlen(base), ext;
	char v[PEEK_VERSION_MAX + 1];

	if (strncmp(base, "yarn-", 5))
		return;
	ext = n > 4 && !strcmp(base + n - 4, ".cjs") ? 4 :
	      n > 3 && !strcmp(base + n - 3, ".js") ? 3 : 0;
	if (!ext || n - ext - 5 > PEEK_VERSION_MAX || n - ext <= 5)
		return;
	memcpy(v, base + 5, n - ext - 5);
	v[n - ext - 5] = '\0';
	if (peek_version_semver(v) && strlen(v) < sizeof(g->version))
		memcpy(g->version, v, strlen(v) + 1);
}

/* What the walk found for yarn. */
struct yarn_found {
	char *path_value;	/* the nearest yarnPath, as written */
	char *path_where;	/* "file:line" */
	char *plugins_where;	/* the first "plugins", or NULL */
};

/* .yarnrc.yml (berry, and classic from 1.22): top-level yarnPath and
 * plugins, keys compared as yarn normalises them.  -1 with g->why when
 * the file is not YAML we can read. */
static int yarn_yml(const struct cfg *c, struct yarn_found *f, struct exec_guard *g)
{
	struct ynode *root = NULL;
	struct parse_error err;
	size_t i;

	if (ytree_parse(c->b.data, c->b.len, YTREE_MAX_NODES, &root, &err) < 0) {
		guard_why(g, "%s:%u:%u is not YAML envpreflight can read (%s), and "
			  "yarn may run a file it names", c->shown, err.line, err.col,
			  err.msg);
		return -1;
	}
	for (i = 0; root && root->kind == YNODE_MAP && i + 1 < root->n; i += 2) {
		const struct ynode *k = root->items[i], *v = root->items[i + 1];
		struct buf where = BUF_INIT;

		if (k->kind != YNODE_SCALAR || ynode_is_null(v))
			continue;
		buf_printf(&where, "%s:%u", c->shown, k->line);
		if (key_is(k->text, "plugins") && !f->plugins_where) {
			f->plugins_where = buf_detach(&where);
		} else if (key_is(k->text, "yarnpath") && !f->path_where) {
			f->path_where = buf_detach(&where);
			f->path_value = xstrdup(v->kind == YNODE_SCALAR ? v->text : "");
		}
		buf_release(&where);
	}
	ynode_free(root);
	return 0;
}

/* One token of a classic .yarnrc line: bare or "quoted".  Returns its
 * length in *len and where the rest starts, or NULL on an escape (JSON
 * escapes in a quoted token could spell anything). */
static const char *yarnrc_token(const char *s, const char **tok, size_t *len)
{
	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '"') {
		const char *q = strchr(s + 1, '"');

		if (!q || memchr(s + 1, '\\', (size_t)(q - s - 1)))
			return NULL;
		*tok = s + 1;
		*len = (size_t)(q - s - 1);
		return q + 1;
	}
	*tok = s;
	*len = strcspn(s, " \t\r");
	return s + *len;
}

/* .yarnrc (classic): "yarn-path ./x.js" lines. */
static int yarn_rc(const struct cfg *c, struct yarn_found *f, struct exec_guard *g)
{
	const char *p = c->b.data;
	unsigned line = 0;

	while (*p && !f->path_where) {
		size_t n = strcspn(p, "\n"), klen, vlen;
		char *l = xstrndup(p, n), *key;
		const char *rest, *tok, *val;

		line++;
		p += n + (p[n] == '\n');
		rest = yarnrc_token(l, &tok, &klen);
		if (!rest) {
			guard_why(g, "%s:%u has an escaped string envpreflight does not "
				  "decode, and yarn may run a file it names", c->shown, line);
			free(l);
			return -1;
		}
		key = xstrndup(tok, klen);
		if (klen && key[klen - 1] == ':')
			key[klen - 1] = '\0';
		if (key[0] != '#' && key_is(key, "yarnpath") &&
		    yarnrc_token(rest, &val, &vlen)) {
			struct buf where = BUF_INIT;

			buf_printf(&where, "%s:%u", c->shown, line);
			f->path_where = buf_detach(&where);
			f->path_value = xstrndup(val, vlen);
		}
		free(key);
		free(l);
	}
	return 0;
}

/* Read every .yarnrc.yml and .yarnrc from root up into f: 0, or -1 with
 * g->why when one cannot be read. */
static int yarn_walk(const char *root, const char *home, struct yarn_found *f,
		     struct exec_guard *g)
{
	static const char *const names[] = { ".yarnrc.yml", ".yarnrc" };
	char *dir = xstrdup(root);
	int bad = 0;

	do {
		size_t i;

		for (i = 0; i < ARRAY_SIZE(names) && !bad; i++) {
			struct cfg c;
			int r = cfg_read(root, dir, names[i], &c, g);

			if (r < 0)
				bad = 1;
			else if (r > 0)
				bad = (i ? yarn_rc(&c, f, g) : yarn_yml(&c, f, g)) < 0;
			if (r > 0)
				cfg_release(&c);
		}
	} while (!bad && walk_on(dir, home));
	free(dir);
	return bad ? -1 : 0;
}

/* What the walk found: 1 with g->why (and g->version, where yarnPath's
 * file name gives one) when yarn must not run, else 0. */
static int yarn_verdict(const struct yarn_found *f, struct exec_guard *g)
{
	struct buf q = BUF_INIT;

	if (f->plugins_where) {
		/* never run, but a yarnPath named for its version still says
		 * which yarn the repository runs (issue 7) */
		if (f->path_value)
			yarn_path_version(f->path_value, g);
		if (g->version[0])
			guard_why(g, "version read from the file name of yarnPath "
				  "in %s; yarn itself is not run: 'plugins' in %s "
				  "loads plugin code on every command, --version too",
				  f->path_where, f->plugins_where);
		else
			guard_why(g, "'plugins' in %s: yarn loads plugin code on "
				  "every command, --version too", f->plugins_where);
		return 1;
	}
	if (!f->path_where)
		return 0;
	buf_add_clean(&q, f->path_value);
	yarn_path_version(f->path_value, g);
	if (g->version[0])
		guard_why(g, "version read from the file name '%s' (yarnPath in "
			  "%s): running yarn would execute that file, which the "
			  "repository ships", buf_str(&q), f->path_where);
	else
		guard_why(g, "yarnPath in %s names '%s': running yarn would execute "
			  "that file, which the repository ships, and its name "
			  "gives no version", f->path_where, buf_str(&q));
	buf_release(&q);
	return 1;
}

/* yarn runs the file yarnPath names, for every command, --version too;
 * berry loads every plugin .yarnrc.yml lists before it looks at the
 * command.  Neither is ever run: a yarnPath of "yarn-X.Y.Z.cjs" gives
 * the version by its name. */
static int yarn_guard(const char *root, const char *home, struct exec_guard *g)
{
	struct yarn_found f = { NULL, NULL, NULL };
	int bad = yarn_walk(root, home, &f, g) < 0 || yarn_verdict(&f, g);

	free(f.path_value);
	free(f.path_where);
	free(f.plugins_where);
	return bad;
}

/* ---- pnpm ---- */

/* pnpm 9.7 to 10 switch to the pnpm packageManager names when
 * managePackageManagerVersions is on, pnpm 11 when pmOnFail is
 * "download" (its default).  The child gets both turned off in its
 * environment; a pnpm-workspace.yaml that sets them is still not run,
 * since not every release lets the environment outrank that file. */
static int pnpm_guard(const char *root, const char *home, struct exec_guard *g)
{
	char *dir = xstrdup(root);
	int bad = 0, found = 0;

	do {
		struct ynode *y = NULL;
		struct parse_error err;
		struct cfg c;
		size_t i;
		int r = cfg_read(root, dir, "pnpm-workspace.yaml", &c, g);

		if (r < 0) {
			bad = 1;
			break;
		}
		if (!r)
			continue;
		found = 1;
		if (ytree_parse(c.b.data, c.b.len, YTREE_MAX_NODES, &y, &err) < 0) {
			guard_why(g, "%s:%u:%u is not YAML envpreflight can read (%s), and "
				  "it may tell pnpm to switch versions", c.shown, err.line,
				  err.col, err.msg);
			bad = 1;
		}
		for (i = 0; y && y->kind == YNODE_MAP && i + 1 < y->n && !bad; i += 2) {
			const struct ynode *k = y->items[i];

			if (k->kind == YNODE_SCALAR &&
			    (key_is(k->text, "managepackagemanagerversions") ||
			     key_is(k->text, "pmonfail"))) {
				guard_why(g, "'%s' in %s:%u: pnpm may download and run the "
					  "pnpm that packageManager names", k->text, c.shown,
					  k->line);
				bad = 1;
			}
		}
		ynode_free(y);
		cfg_release(&c);
	} while (!bad && !found && walk_on(dir, home));
	free(dir);
	return bad;
}

/* ---- version managers, rustup, dotnet ---- */

/* Version files a shim's version manager reads: a version that is a
 * path (pyenv before 2.3.3 and its kin joined it to their versions/
 * directory, CVE-2022-35861; asdf and mise take "path:DIR") makes the
 * shim run whatever is there. */
static const char *const shim_files[] = {
	".tool-versions", ".python-version", ".ruby-version", ".node-version",
	".go-version", ".java-version", ".perl-version", ".terraform-version",
};

static int shim_token_bad(const char *t, size_t n)
{
	return memchr(t, '/', n) || (n == 2 && !memcmp(t, "..", 2)) ||
	       (n >= 5 && !memcmp(t, "path:", 5));
}

/* 1 with g->why when a line of c names a path as a version. */
static int shim_file_bad(const struct cfg *c, int tool_versions, struct exec_guard *g)
{
	const char *p = c->b.data;
	unsigned line = 0;

	while (*p) {
		size_t n = strcspn(p, "\n");
		const char *s = p, *end = p + n;
		int first = 1;

		line++;
		p += n + (p[n] == '\n');
		for (;;) {
			size_t t;

			while (s < end && strchr(" \t\r", *s))
				s++;
			if (s >= end || *s == '#')
				break;
			t = strcspn(s, " \t\r\n");
			if ((size_t)(end - s) < t)
				t = (size_t)(end - s);
			if (!(tool_versions && first) && shim_token_bad(s, t)) {
				struct buf q = BUF_INIT;
				char *tok = xstrndup(s, t);

				buf_add_clean(&q, tok);
				guard_why(g, "'%s' in %s:%u names a path as a version: the "
					  "version manager's shim would run a program from it",
					  buf_str(&q), c->shown, line);
				buf_release(&q);
				free(tok);
				return 1;
			}
			first = 0;
			s += t;
		}
	}
	return 0;
}

/* mise's own files: a "path:" version, or an escape that could spell
 * one.  (What else they can run - env directives, templates, hooks -
 * mise itself runs only once the user has trusted the file.) */
static const char *const mise_files[] = {
	"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml",
	".mise/config.toml", "mise/config.toml", ".config/mise.toml",
	".config/mise/config.toml", ".rtx.toml", ".rtx.local.toml",
};

static int mise_file_bad(const struct cfg *c, struct exec_guard *g)
{
	const char *hit = strstr(c->b.data, "path:");

	if (!hit)
		hit = strstr(c->b.data, "\\u");
	if (!hit)
		hit = strstr(c->b.data, "\\U");
	if (!hit)
		return 0;
	guard_why(g, "%s:%u names a path as a tool version (or hides one in an "
		  "escape): mise would run a program from it", c->shown,
		  line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

static int shim_check(const struct cfg *c, size_t i, struct exec_guard *g)
{
	return shim_file_bad(c, i == 0, g);
}

static int mise_check(const struct cfg *c, size_t i, struct exec_guard *g)
{
	return mise_file_bad(c, g);
}

/* rustup's rust-toolchain.toml can name a toolchain by path ("path =
 * ..."), relative to the file: the proxy would run the repository's
 * rustc.  The legacy rust-toolchain file is held to the same words. */
static int rustup_check(const struct cfg *c, size_t i, struct exec_guard *g)
{
	const char *hit = strstr(c->b.data, "path");

	if (!hit)
		hit = strchr(c->b.data, '\\');
	if (!hit && i == 1)
		hit = strchr(c->b.data, '/');
	if (!hit)
		return 0;
	guard_why(g, "%s:%u may name a toolchain by path (or hide one in an "
		  "escape): rustup would run the rustc found there", c->shown,
		  line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

/* global.json "sdk": {"paths": [...]} (.NET 10) makes the dotnet host
 * look for SDKs in directories the repository names. */
static int dotnet_check(const struct cfg *c, size_t i, struct exec_guard *g)
{
	const char *hit = strcasestr(c->b.data, "paths");

	if (!hit)
		hit = strstr(c->b.data, "\\u");
	if (!hit)
		return 0;
	guard_why(g, "%s:%u may add SDK search paths (or hide them in an "
		  "escape): dotnet would run an SDK the repository ships",
		  c->shown, line_of(c->b.data, (size_t)(hit - c->b.data)));
	return 1;
}

/* ---- build tools' project files ---- */

/* Tools that read project files of their own before they look at their
 * arguments, and whose files can load code. */
struct projcfg {
	const char *tool;
	const char *file;
	const char *why;
};

static const struct projcfg projcfgs[] = {
	{ "mvn", ".mvn", "Maven reads .mvn/jvm.config, maven.config and "
	  "extensions.xml, which can load code the repository ships" },
	{ "mvnd", ".mvn", "Maven reads .mvn/jvm.config, maven.config and "
	  "extensions.xml, which can load code the repository ships" },
	{ "sbt", ".jvmopts", "sbt passes .jvmopts to the JVM, which can load "
	  "code the repository ships" },
	{ "sbt", ".sbtopts", "sbt reads .sbtopts, which can load code the "
	  "repository ships" },
	{ "bazel", ".bazeliskrc", "bazelisk reads .bazeliskrc, which can make it "
	  "download and run any program" },
	{ "bazelisk", ".bazeliskrc", "bazelisk reads .bazeliskrc, which can make "
	  "it download and run any program" },
};

static int projcfg_guard(const char *root, const char *home, const char *tool,
			 struct exec_guard *g)
{
	char *dir = xstrdup(root);
	size_t i;
	int bad = 0;

	do {
		for (i = 0; i < ARRAY_SIZE(projcfgs) && !bad; i++) {
			struct stat st;
			char *p;

			if (strcmp(projcfgs[i].tool, tool))
				continue;
			p = path_join(dir, projcfgs[i].file);
			if (lstat(p, &st) == 0) {
				guard_why(g, "%s: %s", strcmp(dir, root) ? p :
					  projcfgs[i].file, projcfgs[i].why);
				bad = 1;
			}
			free(p);
		}
	} while (!bad && walk_on(dir, home));
	free(dir);
	return bad;
}

/* ---- which guards apply ---- */

/* A version manager's dispatcher: a shim directory, or a binary that
 * dispatches on its name (mise's shims are symlinks to mise). */
static int is_shim(const char *path, const char *c)
{
	static const char *const dispatchers[] = { "mise", "rtx", "asdf" };
	size_t i;

	if (strstr(path, "/shims/") || strstr(c, "/shims/"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(dispatchers); i++)
		if (!strcmp(peek_base_name(c), dispatchers[i]))
			return 1;
	return 0;
}

static int is_mise(const char *c)
{
	return !strcmp(peek_base_name(c), "mise") || !strcmp(peek_base_name(c), "rtx");
}

/* rustup installs its proxies (rustc, cargo, ...) as links to itself:
 * symbolic, or hard ones beside a file called rustup. */
static int is_rustup_proxy(const char *c)
{
	struct stat a, b;
	char *dir, *r;
	int same;

	if (!strcmp(peek_base_name(c), "rustup"))
		return 1;
	dir = xstrdup(c);
	*strrchr(dir, '/') = '\0';
	r = path_join(dir[0] ? dir : "/", "rustup");
	same = stat(c, &a) == 0 && stat(r, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
	free(r);
	free(dir);
	return same;
}

/* The binary asked about, and where the walk up runs. */
struct target {
	const char *name;	/* the runtime */
	const char *path;	/* the binary found */
	const char *c;		/* its canonical path (path when it has none) */
	const char *root;	/* the canonical repository */
	const char *home;	/* the child's canonical $HOME, or NULL */
};

/* want is the runtime, or the file the binary is or resolves to. */
static int named(const struct target *t, const char *want)
{
	return !strcmp(t->name, want) || !strcmp(peek_base_name(t->path), want) ||
	       !strcmp(peek_base_name(t->c), want);
}

/* Every guard that applies to t, in turn: 1 at the first that finds it
 * must not run (g->why set), else 0. */
static int guards_run(const struct target *t, char *const env[],
		      struct exec_guard *g)
{
	static const char *const rustup_files[] = {
		"rust-toolchain.toml", "rust-toolchain",
	};
	static const char *const dotnet_files[] = { "global.json" };
	const char *tc = peek_env_get(env, "RUSTUP_TOOLCHAIN");
	const char *root = t->root, *home = t->home;
	size_t i;

	if ((named(t, "yarn") || named(t, "yarnpkg")) && yarn_guard(root, home, g))
		return 1;
	if ((named(t, "pnpm") || named(t, "pnpx")) && pnpm_guard(root, home, g))
		return 1;
	if (is_shim(t->path, t->c) &&
	    walk_files(root, home, shim_files, ARRAY_SIZE(shim_files),
		       shim_check, 0, g))
		return 1;
	if (is_mise(t->c) &&
	    walk_files(root, home, mise_files, ARRAY_SIZE(mise_files),
		       mise_check, 0, g))
		return 1;
	if (!(tc && *tc) && is_rustup_proxy(t->c) &&
	    walk_files(root, home, rustup_files, ARRAY_SIZE(rustup_files),
		       rustup_check, 1, g))
		return 1;
	if (named(t, "dotnet") &&
	    walk_files(root, home, dotnet_files, 1, dotnet_check, 1, g))
		return 1;
	for (i = 0; i < ARRAY_SIZE(projcfgs); i++)
		if (named(t, projcfgs[i].tool) &&
		    projcfg_guard(root, home, projcfgs[i].tool, g))
			return 1;
	return 0;
}

int exec_guard_check(const char *name, const char *path, const char *repo_root,
		 char *const env[], struct exec_guard *g)
{
	struct target t = { name, path, NULL, NULL, NULL };
	char *root, *c, *home_real = NULL;
	const char *home;
	int bad;

	memset(g, 0, sizeof(*g));
	if (!name || !path || !repo_root || !(root = realpath(repo_root, NULL)))
		return 0;
	home = peek_env_get(env, "HOME");
	home = home && home[0] == '/' ? (home_real = realpath(home, NULL)) : NULL;
	c = realpath(path, NULL);
	if (!c)
		c = xstrdup(path);
	t.c = c;
	t.root = root;
	t.home = home;
	bad = guards_run(&t, env, g);
	free(c);
	free(root);
	free(home_real);
	if (!bad) {
		free(g->why);
		g->why = NULL;
		g->version[0] = '\0';
	}
	return bad;
}

void exec_guard_release(struct exec_guard *g)
{
	free(g->why);
	memset(g, 0, sizeof(*g));
}
