/* test_peek.c - versions without exec (peek_version) and the version
 * cache (version_cache_get/put).
 *
 * Fixture trees in the scratch directory (fake nvm, volta, asdf, mise, fnm
 * and pyenv layouts, fake npm packages) make the rules deterministic; the
 * real runtimes of this machine, where present, check each shortcut
 * against what running the binary prints. */
#include "test.h"
#include "saferead.h"
#include "spawnrun.h"
#include "util.h"
#include "peek.h"
#include "runtime_select.h"
#include "runtime_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static char base[4096];		/* canonical scratch directory */

/* base/rel in one of a few rotating static buffers */
static const char *at(const char *rel)
{
	static char bufs[8][4400];
	static unsigned next;
	char *p = bufs[next++ % 8];

	snprintf(p, sizeof(bufs[0]), "%.3800s/%.500s", base, rel);
	return p;
}

static void mkdir_p(const char *path)
{
	char p[4400], *s;

	snprintf(p, sizeof(p), "%s", path);
	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	mkdir(p, 0755);
}

static void put_file(const char *rel, const char *data, size_t len, mode_t mode)
{
	test_write(base, rel, data, len);
	chmod(at(rel), mode);
}

static void put_str(const char *rel, const char *s, mode_t mode)
{
	put_file(rel, s, strlen(s), mode);
}

#define ELF "\177ELF\002\001\001\000fake binary\n"

static void put_elf(const char *rel)
{
	put_file(rel, ELF, sizeof(ELF) - 1, 0755);
}

/* A symlink at rel (parents created) pointing to target as given. */
static void put_link(const char *target, const char *rel)
{
	char dir[4400], *slash;

	snprintf(dir, sizeof(dir), "%s", at(rel));
	slash = strrchr(dir, '/');
	*slash = '\0';
	mkdir_p(dir);
	unlink(at(rel));
	if (symlink(target, at(rel)) < 0)
		CHECK(0, "symlink %s: %s", rel, strerror(errno));
}

/* ---- the path rule ---- */

struct path_case {
	const char *name;
	const char *file;	/* created as a fake ELF under base */
	const char *link;	/* looked up through this symlink, if set */
	const char *link_to;	/* the symlink's target (default: base/file) */
	const char *lookup;	/* what to look up (default: link, else file) */
	const char *hdr;	/* a header file to create beside, if set */
	const char *hdr_text;
	const char *want;	/* NULL: no shortcut */
};

static const struct path_case path_cases[] = {
	{ "node", "h/.nvm/versions/node/v20.11.1/bin/node", NULL, NULL, NULL, NULL, NULL, "20.11.1" },
	{ "node", "h/.nvm/versions/node/v18.19.0/bin/node", "h/bin/node", NULL, NULL, NULL, NULL, "18.19.0" },
	{ "nodejs", "h/.nvm/versions/node/v16.20.2/bin/node", NULL, NULL, NULL, NULL, NULL, "16.20.2" },
	{ "node", "n/versions/node/21.7.3/bin/node", NULL, NULL, NULL, NULL, NULL, "21.7.3" },
	{ "node", "h/.volta/tools/image/node/22.11.0/bin/node", NULL, NULL, NULL, NULL, NULL, "22.11.0" },
	{ "node", "h/.asdf/installs/nodejs/20.10.0/bin/node", NULL, NULL, NULL, NULL, NULL, "20.10.0" },
	{ "node", "h/.local/share/mise/installs/node/21.6.2/bin/node", NULL, NULL, NULL, NULL, NULL, "21.6.2" },
	/* mise's alias directory "21" -> "21.6.2": the canonical path counts */
	{ "node", "h/.local/share/mise/installs/node/21.6.2/bin/node",
	  "h/.local/share/mise/installs/node/21", "21.6.2",
	  "h/.local/share/mise/installs/node/21/bin/node", NULL, NULL, "21.6.2" },
	{ "node", "h/.local/share/fnm/node-versions/v20.9.0/installation/bin/node", NULL, NULL, NULL, NULL, NULL, "20.9.0" },
	{ "node", "h/.local/state/fnm/node-versions/v19.9.0/installation/bin/node",
	  "h/.local/state/fnm_multishells/123_456/bin/node", NULL, NULL, NULL, NULL, "19.9.0" },
	{ "node", "h/.nvm/versions/node/v20.11.2/bin/node", NULL, NULL, NULL,
	  "h/.nvm/versions/node/v20.11.2/include/node/node_version.h",
	  "#define NODE_MAJOR_VERSION 20\n#define NODE_MINOR_VERSION 11\n#define NODE_PATCH_VERSION 2\n",
	  "20.11.2" },
	{ "python", "h/.pyenv/versions/3.11.7/bin/python3.11", NULL, NULL, NULL, NULL, NULL, "3.11.7" },
	{ "python", "h/.pyenv/versions/3.11.7/bin/python3.11", "h/.pyenv/versions/3.11.7/bin/python3",
	  "python3.11", NULL, NULL, NULL, "3.11.7" },
	{ "python3", "h/.asdf/installs/python/3.12.1/bin/python3.12", NULL, NULL, NULL, NULL, NULL, "3.12.1" },
	{ "python", "h/.local/share/mise/installs/python/3.10.13/bin/python3", NULL, NULL, NULL, NULL, NULL, "3.10.13" },
	{ "python", "h/.pyenv/versions/3.9.18/bin/python", NULL, NULL, NULL,
	  "h/.pyenv/versions/3.9.18/include/python3.9/patchlevel.h",
	  "#define PY_MINOR_VERSION 9\n#define PY_VERSION \"3.9.18\"\n", "3.9.18" },
	/* no shortcut */
	{ "node", "h/.nvm/versions/node/v20.11.3/bin/node", NULL, NULL, NULL,
	  "h/.nvm/versions/node/v20.11.3/include/node/node_version.h",
	  "#define NODE_MAJOR_VERSION 20\n#define NODE_MINOR_VERSION 11\n#define NODE_PATCH_VERSION 1\n",
	  NULL },
	{ "python", "h/.pyenv/versions/3.8.18/bin/python3.8", NULL, NULL, NULL,
	  "h/.pyenv/versions/3.8.18/include/python3.8/patchlevel.h",
	  "#define PY_VERSION \"3.8.17\"\n", NULL },
	{ "node", "h/.nvm/versions/node/v21.0.0-nightly2023/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.nvm/versions/node/v20.11/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.nvm/versions/node/v020.1.1/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.asdf/installs/nodejs/lts/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.volta/bin/volta-shim", "h/.volta/bin/node", "volta-shim", NULL, NULL, NULL, NULL },
	{ "node", "h/.local/share/mise/bin/mise", "h/.local/share/mise/shims/node", NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.asdf/shims/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "usr/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.pyenv/versions/3.11.7/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "node", "h/.pyenv/versions/3.11.7/bin/python3.11", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.nvm/versions/node/v20.11.1/bin/node", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.pyenv/versions/3.13.0rc1/bin/python3.13", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.pyenv/versions/3.11.7/bin/python3.12", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.pyenv/versions/3.11.7/bin/python3.11-config", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.pyenv/versions/pypy3.10-7.3.12/bin/python3", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "python", "h/.pyenv/versions/system/bin/python3", NULL, NULL, NULL, NULL, NULL, NULL },
	{ "ruby", "h/.asdf/installs/ruby/3.3.0/bin/ruby", NULL, NULL, NULL, NULL, NULL, NULL },
};

static void test_path_rule(void)
{
	char *const env[] = { NULL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(path_cases); i++) {
		const struct path_case *c = &path_cases[i];
		char out[64] = "", *real = (char *)1;
		enum vmethod m = VMETHOD_EXEC;
		const char *p;
		int r;

		put_elf(c->file);
		if (c->hdr)
			test_write_str(base, c->hdr, c->hdr_text);
		p = at(c->file);
		if (c->link) {
			put_link(c->link_to ? c->link_to : at(c->file), c->link);
			p = at(c->link);
		}
		if (c->lookup)
			p = at(c->lookup);
		r = peek_version(c->name, p, at("repo"), env, out, sizeof(out), &m, &real);
		if (c->want)
			CHECK(r == 1 && !strcmp(out, c->want) && m == VMETHOD_PATH,
			      "row %zu: %s %s: r=%d out=%s, want %s", i, c->name,
			      c->file, r, out, c->want);
		else
			CHECK(r == 0, "row %zu: %s %s: r=%d out=%s, want none", i,
			      c->name, c->file, r, out);
		CHECK(real == NULL, "row %zu: *real set", i);
		free(real == (char *)1 ? NULL : real);
	}
}

/* ---- the manifest rule ---- */

static void make_pkg(const char *dir, const char *json, const char *const *files)
{
	char rel[512];

	snprintf(rel, sizeof(rel), "%s/package.json", dir);
	test_write_str(base, rel, json);
	for (; *files; files++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, *files);
		put_file(rel, "#!/usr/bin/env node\n", 20, 0755);
	}
}

struct pkg_case {
	const char *name;
	const char *link;	/* under base, pointing to target */
	const char *target;	/* under base */
	const char *repo;	/* under base */
	const char *want;
};

static const struct pkg_case pkg_cases[] = {
	{ "npm", "m/bin/npm", "m/lib/node_modules/npm/bin/npm-cli.js", "repo", "10.2.4" },
	{ "npx", "m/bin/npx", "m/lib/node_modules/npm/bin/npx-cli.js", "repo", "10.2.4" },
	{ "npm", "m/bin/npm2", "m/lib/node_modules/npm/bin/npm-cli.js", "pm", "10.2.4" },
	{ "corepack", "m/bin/corepack", "m/lib/node_modules/corepack/dist/corepack.js", "repo", "0.24.0" },
	{ "pnpm", "m/bin/pnpm", "m/lib/node_modules/pnpm/bin/pnpm.cjs", "repo", "9.1.0" },
	{ "yarn", "m/bin/yarn", "m/lib/node_modules/yarn/bin/yarn.js", "repo", "1.22.22" },
	{ "yarnpkg", "m/bin/yarnpkg", "m/lib/node_modules/yarn/bin/yarn.js", "repo", "1.22.22" },
	{ "yarn", "b/bin/yarn", "b/lib/node_modules/@yarnpkg/cli-dist/bin/yarn.js", "repo", "4.1.1-rc.2" },
	{ "pnpm", "m/bin/pnpm", "m/lib/node_modules/pnpm/bin/pnpm.cjs", "yrc", "9.1.0" },
	/* corepack shims: the version depends on the repository */
	{ "pnpm", "shims/pnpm", "m/lib/node_modules/corepack/dist/pnpm.js", "repo", NULL },
	{ "yarn", "shims/yarn", "m/lib/node_modules/corepack/dist/yarn.js", "repo", NULL },
	{ "npm", "shims/npm", "m/lib/node_modules/corepack/dist/npm.js", "repo", NULL },
	/* a pin in the repository (or above it) can switch pnpm and yarn */
	{ "pnpm", "m/bin/pnpm", "m/lib/node_modules/pnpm/bin/pnpm.cjs", "pm", NULL },
	{ "pnpm", "m/bin/pnpm", "m/lib/node_modules/pnpm/bin/pnpm.cjs", "pm/sub", NULL },
	{ "yarn", "m/bin/yarn", "m/lib/node_modules/yarn/bin/yarn.js", "pm", NULL },
	{ "yarn", "m/bin/yarn", "m/lib/node_modules/yarn/bin/yarn.js", "yrc", NULL },
	{ "yarn", "m/bin/yarn", "m/lib/node_modules/yarn/bin/yarn.js", "badpkg", NULL },
	/* not the package's own binary, or not a package we can trust */
	{ "npm", "m/bin/npm-other", "m/lib/node_modules/npm/lib/cli.js", "repo", NULL },
	{ "npm", "x/bin/npm", "x/lib/node_modules/not-npm/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-latest", "x/lib/node_modules/npm-latest/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-badjson", "x/lib/node_modules/npm-badjson/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-nul", "x/lib/node_modules/npm-nul/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-huge", "x/lib/node_modules/npm-huge/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-nopkg", "x/lib/node_modules/npm-nopkg/bin/npm-cli.js", "repo", NULL },
	{ "npm", "x/bin/npm-esc", "x/lib/node_modules/npm-esc/bin/npm-cli.js", "repo", NULL },
	{ "node", "m/bin/node-npm", "m/lib/node_modules/npm/bin/npm-cli.js", "repo", NULL },
};

static void make_packages(void)
{
	static const char *const npm_files[] = { "bin/npm-cli.js", "bin/npx-cli.js", "lib/cli.js", NULL };
	static const char *const cp_files[] = {
		"dist/corepack.js", "dist/pnpm.js", "dist/yarn.js", "dist/npm.js", NULL,
	};
	static const char *const pnpm_files[] = { "bin/pnpm.cjs", NULL };
	static const char *const yarn_files[] = { "bin/yarn.js", NULL };
	static const char *const cli_files[] = { "bin/npm-cli.js", NULL };
	char *huge;
	size_t i;

	make_pkg("m/lib/node_modules/npm",
		 "{\"name\":\"npm\",\"version\":\"10.2.4\",\"bin\":{\"npm\":\"bin/npm-cli.js\","
		 "\"npx\":\"bin/npx-cli.js\"}}", npm_files);
	make_pkg("m/lib/node_modules/corepack",
		 "{\"name\":\"corepack\",\"version\":\"0.24.0\",\"bin\":{\"corepack\":"
		 "\"./dist/corepack.js\",\"pnpm\":\"./dist/pnpm.js\",\"yarn\":\"./dist/yarn.js\"}}",
		 cp_files);
	make_pkg("m/lib/node_modules/pnpm",
		 "{\"name\":\"pnpm\",\"version\":\"9.1.0\",\"bin\":{\"pnpm\":\"bin/pnpm.cjs\"}}",
		 pnpm_files);
	/* a package.json without a name only marks the module type */
	test_write_str(base, "m/lib/node_modules/pnpm/bin/package.json", "{\"type\":\"commonjs\"}");
	make_pkg("m/lib/node_modules/yarn",
		 "{\"name\":\"yarn\",\"version\":\"1.22.22\",\"bin\":{\"yarn\":\"./bin/yarn.js\","
		 "\"yarnpkg\":\"./bin/yarn.js\"}}", yarn_files);
	make_pkg("b/lib/node_modules/@yarnpkg/cli-dist",
		 "{\"name\":\"@yarnpkg/cli-dist\",\"version\":\"4.1.1-rc.2\",\"bin\":\"bin/yarn.js\"}",
		 yarn_files);
	make_pkg("x/lib/node_modules/not-npm",
		 "{\"name\":\"not-npm\",\"version\":\"1.0.0\",\"bin\":{\"npm\":\"bin/npm-cli.js\"}}",
		 cli_files);
	make_pkg("x/lib/node_modules/npm-latest",
		 "{\"name\":\"npm\",\"version\":\"latest\",\"bin\":{\"npm\":\"bin/npm-cli.js\"}}",
		 cli_files);
	make_pkg("x/lib/node_modules/npm-badjson",
		 "{\"name\":\"npm\",\"version\":\"10.0.0\",\"bin\":{\"npm\":\"bin/npm-cli.js\"}",
		 cli_files);
	make_pkg("x/lib/node_modules/npm-esc",
		 "{\"name\":\"npm\",\"version\":\"10.0.0\\u001b[31m\",\"bin\":{\"npm\":\"bin/npm-cli.js\"}}",
		 cli_files);
	make_pkg("x/lib/node_modules/npm-nopkg/sub", "{}", cli_files);
	put_file("x/lib/node_modules/npm-nopkg/bin/npm-cli.js", "x", 1, 0755);
	test_write(base, "x/lib/node_modules/npm-nul/package.json",
		   "{\"name\":\"npm\",\0\"version\":\"10.0.0\"}", 35);
	put_file("x/lib/node_modules/npm-nul/bin/npm-cli.js", "x", 1, 0755);
	huge = xmalloc(2 * 1024 * 1024);
	memset(huge, ' ', 2 * 1024 * 1024);
	memcpy(huge, "{\"name\":\"npm\",\"version\":\"10.0.0\",\"bin\":\"bin/npm-cli.js\"}", 56);
	test_write(base, "x/lib/node_modules/npm-huge/package.json", huge, 2 * 1024 * 1024);
	free(huge);
	put_file("x/lib/node_modules/npm-huge/bin/npm-cli.js", "x", 1, 0755);

	mkdir_p(at("repo"));
	test_write_str(base, "pm/package.json",
		       "{\"name\":\"app\",\"packageManager\":\"pnpm@8.15.0\"}");
	mkdir_p(at("pm/sub"));
	test_write_str(base, "yrc/.yarnrc.yml", "yarnPath: .yarn/releases/yarn-4.0.0.cjs\n");
	test_write_str(base, "badpkg/package.json", "{not json");
	for (i = 0; i < ARRAY_SIZE(pkg_cases); i++) {
		char target[4400];

		snprintf(target, sizeof(target), "%s", at(pkg_cases[i].target));
		put_link(target, pkg_cases[i].link);
	}
}

static void test_manifest(void)
{
	char home[4400], henv[4500];
	char *env[3];
	size_t i;

	snprintf(home, sizeof(home), "%s", at("home"));
	mkdir_p(home);
	snprintf(henv, sizeof(henv), "HOME=%s", home);
	env[0] = henv;
	env[1] = "PATH=/usr/bin:/bin";
	env[2] = NULL;
	make_packages();
	for (i = 0; i < ARRAY_SIZE(pkg_cases); i++) {
		const struct pkg_case *c = &pkg_cases[i];
		enum vmethod m = VMETHOD_EXEC;
		char out[64] = "", *real = NULL;
		int r;

		r = peek_version(c->name, at(c->link), at(c->repo), env, out,
				 sizeof(out), &m, &real);
		if (c->want)
			CHECK(r == 1 && !strcmp(out, c->want) && m == VMETHOD_MANIFEST,
			      "row %zu: %s via %s in %s: r=%d out=%s, want %s", i,
			      c->name, c->link, c->repo, r, out, c->want);
		else
			CHECK(r == 0, "row %zu: %s via %s in %s: r=%d out=%s, want none",
			      i, c->name, c->link, c->repo, r, out);
		free(real);
	}
	/* a user-wide yarnrc with yarn-path is a pin as well */
	test_write_str(home, ".yarnrc", "yarn-path \"/opt/yarn.js\"\n");
	{
		char out[64];

		CHECK_INT(peek_version("yarn", at("m/bin/yarn"), at("repo"), env, out,
				       sizeof(out), NULL, NULL), 0, "~/.yarnrc yarn-path");
		CHECK_INT(peek_version("npm", at("m/bin/npm"), at("repo"), env, out,
				       5, NULL, NULL), 0, "version longer than outlen");
	}
}

/* ---- pyenv ---- */

static char pyroot[4096];

static void make_shim(const char *root, const char *dir, const char *name)
{
	struct buf b = BUF_INIT;
	char rel[4400];

	buf_printf(&b, "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\n"
		   "program=\"${0##*/}\"\n\nexport PYENV_ROOT=\"%s\"\nSHIM_PATH=${0%%/*}\n"
		   "if [[ $SHIM_PATH != \"%s/shims\" ]]; then\n"
		   "  export _PYENV_SHIM_PATH=\"$SHIM_PATH\"\nfi\n"
		   "exec \"%s/libexec/pyenv\" exec \"$program\" \"$@\"\n", root, root, root);
	snprintf(rel, sizeof(rel), "%s/%s", dir, name);
	put_file(rel, b.s, b.len, 0755);
	buf_release(&b);
}

/* versions/<v>/bin/python3 -> python<mm> (an ELF), and python<mm> */
static void make_version(const char *root, const char *v, const char *mm,
			 int with_python3)
{
	char rel[4400];

	snprintf(rel, sizeof(rel), "%s/versions/%s/bin/python%s", root, v, mm);
	put_elf(rel);
	if (with_python3) {
		char target[64];

		snprintf(rel, sizeof(rel), "%s/versions/%s/bin/python3", root, v);
		snprintf(target, sizeof(target), "python%s", mm);
		put_link(target, rel);
	}
}

static void make_pyenv(const char *root)
{
	char rel[4400];

	snprintf(rel, sizeof(rel), "%s/libexec/pyenv", root);
	put_file(rel, "#!/usr/bin/env bash\n", 20, 0755);
	make_version(root, "3.10.13", "3.10", 1);
	make_version(root, "3.11.7", "3.11", 1);
	make_version(root, "3.11.9", "3.11", 1);
	make_version(root, "3.12.1", "3.12", 1);
	make_version(root, "3.13.0rc1", "3.13", 1);
	make_version(root, "3.11-dev", "3.11", 1);
	make_version(root, "3.12.2t", "3.12t", 1);
	make_version(root, "2.7.18", "2.7", 0);
	make_version(root, "pypy3.10-7.3.12", "3.10", 1);
	make_version(root, "3.7.16", "3.7", 1);
	snprintf(rel, sizeof(rel), "%s/versions/3.7.16/include/python3.7/patchlevel.h", root);
	test_write_str(base, rel, "#define PY_VERSION \"3.7.15\"\n");
	/* a pyenv-virtualenv env and its alias */
	snprintf(rel, sizeof(rel), "%s/versions/3.11.7/envs/myenv/bin/python3", root);
	put_link(at("py/versions/3.11.7/bin/python3.11"), rel);
	snprintf(rel, sizeof(rel), "%s/versions/myenv", root);
	put_link(at("py/versions/3.11.7/envs/myenv"), rel);
	snprintf(rel, sizeof(rel), "%s/version", root);
	test_write_str(base, rel, "3.11.7\n");
}

struct pyenv_case {
	const char *repo;	/* under base/pyrepo */
	const char *pyenv_version;
	const char *want;	/* NULL: no shortcut */
	const char *real;	/* "sys", a version dir name, or NULL */
};

static const struct pyenv_case pyenv_cases[] = {
	{ "none", NULL, "3.11.7", "3.11.7" },		/* the global version file */
	{ "none", "3.12.1", "3.12.1", "3.12.1" },
	{ "none", "3.11", "3.11.9", "3.11.9" },		/* prefix: latest 3.11.x */
	{ "none", "3", "3.12.1", "3.12.1" },		/* rc, -dev and t dropped */
	{ "none", "python-3.10.13", "3.10.13", "3.10.13" },
	{ "none", "python-3.11", "3.11.9", "3.11.9" },
	{ "none", "2.7.18:3.11.7", "3.11.7", "3.11.7" },/* 2.7 has no python3 */
	{ "none", "myenv", "3.11.7", "myenv" },		/* a virtualenv */
	{ "none", "system", NULL, "sys" },
	{ "none", "2.7.18", NULL, "sys" },		/* falls back to system */
	{ "none", "3.99", NULL, "sys" },		/* not installed: system */
	{ "none", "system:3.11.7", NULL, "sys" },
	{ "none", "3.7.16", NULL, "3.7.16" },		/* its header disagrees */
	{ "none", "3.11.7:", NULL, NULL },
	{ "none", ":3.11.7", NULL, NULL },
	{ "none", "../3.11.7", NULL, NULL },
	{ "none", "3.1*", NULL, NULL },
	{ "none", "pypy3.10", NULL, NULL },		/* vendor names: no guess */
	{ "none", "3.12t", NULL, NULL },
	{ "a", NULL, "3.10.13", "3.10.13" },
	{ "a/sub/deeper", NULL, "3.10.13", "3.10.13" },	/* nearest, walking up */
	{ "a", "3.12.1", "3.12.1", "3.12.1" },		/* PYENV_VERSION wins */
	{ "a/sub/own", NULL, "3.12.1", "3.12.1" },
	{ "comments", NULL, "3.11.9", "3.11.9" },
	{ "list", NULL, "3.12.1", "3.12.1" },
	{ "empty", NULL, NULL, "sys" },			/* empty file: system */
	{ "nul", NULL, NULL, NULL },
	{ "traversal", NULL, NULL, NULL },
	{ "longline", NULL, NULL, NULL },
	{ "missing", NULL, NULL, "sys" },
};

static void make_pyrepos(void)
{
	char line[2100];

	mkdir_p(at("pyrepo/none"));
	test_write_str(base, "pyrepo/a/.python-version", "3.10.13\n");
	mkdir_p(at("pyrepo/a/sub/deeper"));
	test_write_str(base, "pyrepo/a/sub/own/.python-version", "3.12.1");
	test_write_str(base, "pyrepo/comments/.python-version",
		       "# pinned for CI\n\n   3.11   trailing words\r\n");
	test_write_str(base, "pyrepo/list/.python-version", "2.7.18\n3.12.1\n");
	test_write_str(base, "pyrepo/empty/.python-version", "");
	test_write(base, "pyrepo/nul/.python-version", "3.11\0\n", 6);
	test_write_str(base, "pyrepo/traversal/.python-version", "../../../etc\n");
	memset(line, '3', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	test_write_str(base, "pyrepo/longline/.python-version", line);
	test_write_str(base, "pyrepo/missing/.python-version", "3.99.1\n");
	put_elf("sys/bin/python3");
}

/* env: PATH=shims:sys, HOME, and PYENV_VERSION when v is set */
static char **py_env(const char *shimdir, const char *v, const char *extra)
{
	static char path[9000], ver[300], home[4500], more[4500];
	static char *env[6];
	size_t n = 0;

	snprintf(path, sizeof(path), "PATH=%s:%s", shimdir, at("sys/bin"));
	snprintf(home, sizeof(home), "HOME=%s", at("home"));
	env[n++] = path;
	env[n++] = home;
	if (v) {
		snprintf(ver, sizeof(ver), "PYENV_VERSION=%s", v);
		env[n++] = ver;
	}
	if (extra) {
		snprintf(more, sizeof(more), "%s", extra);
		env[n++] = more;
	}
	env[n] = NULL;
	return env;
}

static void check_py(const char *what, const char *shim, const char *repo,
		     char **env, const char *want, const char *want_real)
{
	char out[64] = "", *real = NULL;
	enum vmethod m = VMETHOD_EXEC;
	int r;

	r = peek_version("python", shim, repo, env, out, sizeof(out), &m, &real);
	if (want)
		CHECK(r == 1 && !strcmp(out, want) && m == VMETHOD_PATH,
		      "%s: r=%d out=%s, want %s", what, r, out, want);
	else
		CHECK(r == 0, "%s: r=%d out=%s, want none", what, r, out);
	CHECK_STR(real, want_real, "%s: *real", what);
	free(real);
}

static void test_pyenv(void)
{
	char shim[8192], real[8192], repo[8192], hookdir[8192], extra[8192];
	size_t i;

	snprintf(pyroot, sizeof(pyroot), "%s", at("py"));
	test_write_str(base, "py/libexec/pyenv", "#!/usr/bin/env bash\n");
	make_shim(pyroot, "py/shims", "python3");
	make_shim(pyroot, "py/shims", "python");
	make_pyenv("py");
	make_pyrepos();
	snprintf(shim, sizeof(shim), "%s/shims/python3", pyroot);

	for (i = 0; i < ARRAY_SIZE(pyenv_cases); i++) {
		const struct pyenv_case *c = &pyenv_cases[i];
		char what[128];
		const char *want_real = NULL;

		snprintf(repo, sizeof(repo), "%s", at("pyrepo"));
		snprintf(repo + strlen(repo), sizeof(repo) - strlen(repo), "/%s", c->repo);
		if (c->real && !strcmp(c->real, "sys")) {
			want_real = at("sys/bin/python3");
		} else if (c->real) {
			snprintf(real, sizeof(real), "%s/versions/%s/bin/python3", pyroot, c->real);
			want_real = real;
		}
		snprintf(what, sizeof(what), "row %zu (%s, PYENV_VERSION=%s)", i,
			 c->repo, c->pyenv_version ? c->pyenv_version : "-");
		check_py(what, shim, repo, py_env(at("py/shims"), c->pyenv_version, NULL),
			 c->want, want_real);
	}

	/* the shim named python runs python, which 2.7.18 has */
	snprintf(real, sizeof(real), "%s/shims/python", pyroot);
	make_version("py", "2.7.18", "", 0);
	{
		char out[64] = "", *r = NULL;

		CHECK_INT(peek_version("python", real, at("pyrepo/none"),
				       py_env(at("py/shims"), "2.7.18", NULL), out,
				       sizeof(out), NULL, &r), 1, "python shim, 2.7.18");
		CHECK_STR(out, "2.7.18", "python shim, 2.7.18");
		free(r);
	}

	/* PYENV_DIR is searched before the working directory */
	snprintf(extra, sizeof(extra), "PYENV_DIR=%s", at("pyrepo/a"));
	snprintf(real, sizeof(real), "%s/versions/3.10.13/bin/python3", pyroot);
	check_py("PYENV_DIR", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, extra), "3.10.13", real);
	check_py("PYENV_DIR relative", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, "PYENV_DIR=a"), NULL, NULL);

	/* a copy of the shim elsewhere still names the same root */
	make_shim(pyroot, "othershims", "python3");
	snprintf(real, sizeof(real), "%s/versions/3.12.1/bin/python3", pyroot);
	check_py("shim outside root/shims", at("othershims/python3"), at("pyrepo/none"),
		 py_env(at("othershims"), "3.12.1", NULL), "3.12.1", real);

	/* system with no other python3 on PATH: nothing to name */
	{
		char *env[] = { NULL, "PYENV_VERSION=system", NULL };
		char path[4500];

		snprintf(path, sizeof(path), "PATH=%s", at("py/shims"));
		env[0] = path;
		check_py("system, none on PATH", shim, at("pyrepo/none"), env, NULL, NULL);
	}
	/* pyenv puts its own libexec and plugin bins in front of PATH */
	put_elf("py/plugins/odd/bin/python3");
	check_py("system, a plugin ships python3", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), "system", NULL), NULL, NULL);
	unlink(at("py/plugins/odd/bin/python3"));
	/* "~" in PATH is $HOME to pyenv */
	{
		char *env[] = { NULL, NULL, "PYENV_VERSION=system", NULL };
		char path[9000], home[4500];

		snprintf(path, sizeof(path), "PATH=%s:~/bin", at("py/shims"));
		snprintf(home, sizeof(home), "HOME=%s", at("sys"));
		env[0] = path;
		env[1] = home;
		check_py("system, ~ in PATH", shim, at("pyrepo/none"), env, NULL,
			 at("sys/bin/python3"));
	}

	/* hooks: pyenv-virtualenv's which hooks are known no-ops ... */
	snprintf(hookdir, sizeof(hookdir),
		 "py/plugins/pyenv-virtualenv/etc/pyenv.d/which/system-site-packages.bash");
	test_write_str(base, hookdir, "# no-op unless not found\n");
	test_write_str(base, "py/pyenv.d/exec/pip-rehash.bash", "# pip only\n");
	snprintf(real, sizeof(real), "%s/versions/3.11.7/bin/python3", pyroot);
	check_py("known hooks", shim, at("pyrepo/none"), py_env(at("py/shims"), NULL, NULL),
		 "3.11.7", real);
	/* ... any other hook could change the answer */
	test_write_str(base, "hooks/which/mine.bash", "PYENV_COMMAND_PATH=/x\n");
	snprintf(extra, sizeof(extra), "PYENV_HOOK_PATH=%s", at("hooks"));
	check_py("PYENV_HOOK_PATH hook", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, extra), NULL, NULL);
	test_write_str(base, "py/plugins/other/etc/pyenv.d/version-name/x.bash", "PYENV_VERSION=3.12.1\n");
	check_py("plugin version-name hook", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, NULL), NULL, NULL);
	unlink(at("py/plugins/other/etc/pyenv.d/version-name/x.bash"));
	test_write_str(base, "py/pyenv.d/which/y.bash", "true\n");
	check_py("own which hook", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, NULL), NULL, NULL);
	unlink(at("py/pyenv.d/which/y.bash"));
	test_write_str(base, "py/plugins/pyenv-virtualenv/etc/pyenv.d/exec/z.bash", "true\n");
	check_py("unknown exec hook", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, NULL), NULL, NULL);
	unlink(at("py/plugins/pyenv-virtualenv/etc/pyenv.d/exec/z.bash"));
	check_py("hooks removed again", shim, at("pyrepo/none"),
		 py_env(at("py/shims"), NULL, NULL), "3.11.7", real);

	/* not pyenv shims */
	put_str("notashim/python3", "#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n", 0755);
	check_py("a script that is not a pyenv shim", at("notashim/python3"),
		 at("pyrepo/none"), py_env(at("notashim"), NULL, NULL), NULL, NULL);
	put_str("badshim/python3",
		"#!/usr/bin/env bash\nprogram=\"${0##*/}\"\nexport PYENV_ROOT=\"$HOME/.pyenv\"\n"
		"exec \"$PYENV_ROOT/libexec/pyenv\" exec \"$program\" \"$@\"\n", 0755);
	check_py("a shim with a variable root", at("badshim/python3"), at("pyrepo/none"),
		 py_env(at("badshim"), NULL, NULL), NULL, NULL);
	{
		struct buf b = BUF_INIT;

		buf_printf(&b, "#!/usr/bin/env bash\nprogram=\"${0##*/}\"\n"
			   "export PYENV_ROOT=\"%s\"\nexport PYENV_VERSION=3.12.1\n"
			   "exec \"%s/libexec/pyenv\" exec \"$program\" \"$@\"\n",
			   pyroot, pyroot);
		put_str("editedshim/python3", b.s, 0755);
		buf_release(&b);
		check_py("a shim edited to pin a version", at("editedshim/python3"),
			 at("pyrepo/none"), py_env(at("editedshim"), NULL, NULL), NULL, NULL);
	}
}

/* ---- against the real runtimes of this machine ---- */

/* Run path --version in repo with env: the output's last word, trimmed
 * ("Python 3.11.7" -> "3.11.7", "v20.1.0" -> "v20.1.0"), in out. */
static int run_version(const char *path, const char *repo, char **env,
		       char *out, size_t outlen)
{
	char *argv[] = { (char *)path, "--version", NULL };
	struct spawn_result r;
	char *s, *e, *w;
	int ok;

	out[0] = '\0';
	if (spawn_run(path, argv, repo, env, clock_ms() + 20000, &r) < 0)
		return -1;
	s = r.out;
	e = s + strlen(s);
	while (e > s && strchr(" \t\r\n", e[-1]))
		*--e = '\0';
	w = strrchr(s, ' ');
	w = w ? w + 1 : s;
	snprintf(out, outlen, "%s", w);
	ok = r.status == SPAWN_EXITED && r.code == 0;
	spawn_result_release(&r);
	return ok ? 0 : -1;
}

static void test_real_packages(void)
{
	static const char *const names[] = { "npm", "npx", "corepack", "pnpm", "yarn" };
	const char *path = getenv("PATH");
	char **env = spawn_env_for_repo(environ, at("realrepo"));
	size_t i;

	mkdir_p(at("realrepo"));
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = spawn_which(names[i], path, NULL), *c;
		char got[64] = "", ran[64] = "";
		int r;

		if (!p)
			continue;
		r = peek_version(names[i], p, at("realrepo"), env, got, sizeof(got), NULL, NULL);
		c = realpath(p, NULL);
		/* npm, npx and corepack as shipped with node are JS files of
		 * their own package: the shortcut must apply */
		if (c && strstr(c, "/node_modules/") && i < 3)
			CHECK(r == 1, "real %s (%s): no shortcut", names[i], c);
		if (r == 1 && run_version(p, at("realrepo"), env, ran, sizeof(ran)) == 0)
			CHECK_STR(got, ran, "real %s: manifest vs --version", names[i]);
		free(c);
		free(p);
	}
	/* corepack's own shims, as `corepack enable` installs them */
	{
		char *p = spawn_which("corepack", path, NULL), *c = p ? realpath(p, NULL) : NULL;

		if (c && strlen(c) > 12 && !strcmp(c + strlen(c) - 12, "/corepack.js")) {
			char target[4400], got[64];

			snprintf(target, sizeof(target), "%.*s/pnpm.js",
				 (int)(strlen(c) - 12), c);
			put_link(target, "cpshims/pnpm");
			CHECK_INT(peek_version("pnpm", at("cpshims/pnpm"), at("realrepo"),
					       env, got, sizeof(got), NULL, NULL), 0,
				  "a real corepack pnpm shim is not certain");
		}
		free(c);
		free(p);
	}
	spawn_env_free(env);
}

struct real_py_case {
	const char *pyenv_version;	/* NULL: unset */
	const char *file;		/* .python-version in the repo, or NULL */
};

static const struct real_py_case real_py_cases[] = {
	{ NULL, NULL }, { "3.10", NULL }, { NULL, "3.12\n" }, { "system", NULL },
	{ "2.7.18", NULL }, { "3", NULL }, { NULL, "3.11.7\n" }, { "3.99", NULL },
};

static void test_real_python(void)
{
	char *p = spawn_which("python3", getenv("PATH"), NULL);
	struct blob b;
	int is_shim = 0;
	size_t i;

	if (!p)
		return;
	if (saferead_path(p, 65536, &b) == 0) {
		is_shim = strstr(b.data, "libexec/pyenv\" exec") != NULL;
		blob_release(&b);
	}
	for (i = 0; i < ARRAY_SIZE(real_py_cases); i++) {
		const struct real_py_case *c = &real_py_cases[i];
		char repo[4400], got[64] = "", ran[64] = "", viareal[64] = "";
		char **env, *real = NULL, **e;
		size_t n;
		int r;

		snprintf(repo, sizeof(repo), "%s/realpy%zu", base, i);
		mkdir_p(repo);
		if (c->file)
			test_write_str(repo, ".python-version", c->file);
		env = spawn_env_for_repo(environ, repo);
		/* drop an inherited PYENV_VERSION, then set ours */
		for (n = 0, e = env; *e; e++)
			if (strncmp(*e, "PYENV_VERSION=", 14))
				env[n++] = *e;
			else
				free(*e);
		env[n] = NULL;
		if (c->pyenv_version) {
			struct buf v = BUF_INIT;

			buf_printf(&v, "PYENV_VERSION=%s", c->pyenv_version);
			env = xrealloc(env, (n + 2) * sizeof(*env));
			env[n] = buf_detach(&v);
			env[n + 1] = NULL;
		}
		r = peek_version("python", p, repo, env, got, sizeof(got), NULL, &real);
		if (is_shim && i == 0)
			CHECK(r == 1, "real pyenv shim, default version: no shortcut");
		if (run_version(p, repo, env, ran, sizeof(ran)) < 0) {
			free(real);
			spawn_env_free(env);
			continue;	/* pyenv itself failed: nothing to compare */
		}
		if (r == 1)
			CHECK_STR(got, ran, "real pyenv row %zu: shortcut vs shim", i);
		if (real && run_version(real, repo, env, viareal, sizeof(viareal)) == 0)
			CHECK_STR(viareal, ran, "real pyenv row %zu: *real %s vs shim", i, real);
		free(real);
		spawn_env_free(env);
	}
	free(p);
}

/* ---- the cache ---- */

static void set_cache(const char *rel)
{
	setenv("XDG_CACHE_HOME", at(rel), 1);
}

static int cached(const char *name, const char *rel, char *out, size_t n)
{
	return version_cache_get(name, at(rel), out, n);
}

static const char *cache_file(const char *rel)
{
	static char p[4600];

	snprintf(p, sizeof(p), "%s/envpreflight/versions", at(rel));
	return p;
}

static void set_mtime(const char *path, time_t sec, long nsec)
{
	struct timespec ts[2] = { { sec, nsec }, { sec, nsec } };

	utimensat(AT_FDCWD, path, ts, 0);
}

static void test_cache_basic(void)
{
	static const char *const bad_versions[] = {
		"", "garbage", "v", "1.2.3\n", "1.2.3\t4", "1.2.3 beta", "\0331.2",
		"12345678901234567890123456789012345678901234567890123456789012345",
	};
	char out[64] = "";
	struct stat st;
	size_t i;

	set_cache("cache1");
	put_elf("cbin/node");
	put_elf("cbin2/node");
	CHECK_INT(cached("node", "cbin/node", out, sizeof(out)), 0, "empty cache");
	version_cache_put("node", at("cbin/node"), "20.11.1");
	CHECK_INT(cached("node", "cbin/node", out, sizeof(out)), 1, "round trip");
	CHECK_STR(out, "20.11.1", "round trip");
	CHECK(stat(at("cache1/envpreflight"), &st) == 0 && (st.st_mode & 0777) == 0700,
	      "cache dir mode %o", (unsigned)st.st_mode & 0777);
	CHECK(stat(cache_file("cache1"), &st) == 0 && (st.st_mode & 0777) == 0600,
	      "cache file mode %o", (unsigned)st.st_mode & 0777);
	CHECK_INT(cached("python", "cbin/node", out, sizeof(out)), 0, "another name");
	CHECK_INT(cached("node", "cbin2/node", out, sizeof(out)), 0, "another binary");
	CHECK_INT(cached("node", "cbin/node", out, 7), 0, "outlen too small");
	version_cache_put("node", at("cbin2/node"), "v18.0.0");
	CHECK(cached("node", "cbin2/node", out, sizeof(out)) && !strcmp(out, "v18.0.0"),
	      "second entry: %s", out);
	CHECK(cached("node", "cbin/node", out, sizeof(out)) && !strcmp(out, "20.11.1"),
	      "first entry kept: %s", out);
	version_cache_put("node", at("cbin/node"), "20.11.2");
	CHECK(cached("node", "cbin/node", out, sizeof(out)) && !strcmp(out, "20.11.2"),
	      "replaced: %s", out);

	/* through a symlink: the key is the canonical path */
	put_link(at("cbin/node"), "cbin3/nodejs");
	CHECK(version_cache_get("node", at("cbin3/nodejs"), out, sizeof(out)) &&
	      !strcmp(out, "20.11.2"), "through a symlink: %s", out);

	for (i = 0; i < ARRAY_SIZE(bad_versions); i++) {
		put_elf("cbin4/node");
		version_cache_put("node", at("cbin4/node"), bad_versions[i]);
		CHECK_INT(cached("node", "cbin4/node", out, sizeof(out)), 0,
			  "bad version %zu stored", i);
	}
	version_cache_put("node", at("cbin4/node"), NULL);
	version_cache_put(NULL, at("cbin4/node"), "1.0.0");
	version_cache_put("node", NULL, "1.0.0");
	version_cache_put("no de", at("cbin4/node"), "1.0.0");
	CHECK_INT(cached("node", "cbin4/node", out, sizeof(out)), 0, "NULLs stored");
	CHECK_INT(version_cache_get(NULL, NULL, out, sizeof(out)), 0, "get NULLs");
	CHECK_INT(version_cache_get("node", "relative/node", out, sizeof(out)), 0, "relative");
	CHECK_INT(version_cache_get("node", at("nonexistent/node"), out, sizeof(out)), 0, "missing");
}

static void test_cache_key(void)
{
	char out[64];
	struct stat st;

	set_cache("cache2");
	put_elf("kbin/node");
	version_cache_put("node", at("kbin/node"), "20.0.0");
	CHECK_INT(cached("node", "kbin/node", out, sizeof(out)), 1, "stored");
	/* touch: another mtime */
	stat(at("kbin/node"), &st);
	set_mtime(at("kbin/node"), st.st_mtim.tv_sec + 10, 0);
	CHECK_INT(cached("node", "kbin/node", out, sizeof(out)), 0, "touched: miss");
	version_cache_put("node", at("kbin/node"), "20.0.1");
	CHECK_INT(cached("node", "kbin/node", out, sizeof(out)), 1, "stored again");
	/* rewritten in place with the mtime put back: ctime and size differ */
	stat(at("kbin/node"), &st);
	test_write(base, "kbin/node", ELF "and more", sizeof(ELF) - 1 + 8);
	set_mtime(at("kbin/node"), st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	CHECK_INT(cached("node", "kbin/node", out, sizeof(out)), 0, "rewritten: miss");
	version_cache_put("node", at("kbin/node"), "20.0.2");
	/* replaced by another file (another inode), same size and times */
	stat(at("kbin/node"), &st);
	put_file("kbin/node.new", ELF "and more", sizeof(ELF) - 1 + 8, 0755);
	set_mtime(at("kbin/node.new"), st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	rename(at("kbin/node.new"), at("kbin/node"));
	CHECK_INT(cached("node", "kbin/node", out, sizeof(out)), 0, "replaced: miss");

	/* never cached: scripts, dispatchers, per-project toolchains */
	put_str("kbin/script/node", "#!/bin/sh\necho v1.0.0\n", 0755);
	version_cache_put("node", at("kbin/script/node"), "1.0.0");
	CHECK_INT(cached("node", "kbin/script/node", out, sizeof(out)), 0, "script");
	put_elf("kbin/mise/mise");
	put_link(at("kbin/mise/mise"), "kbin/mise/shims/node");
	version_cache_put("node", at("kbin/mise/shims/node"), "1.0.0");
	CHECK_INT(cached("node", "kbin/mise/shims/node", out, sizeof(out)), 0, "mise shim");
	put_elf("kbin/volta/volta-shim");
	put_link("volta-shim", "kbin/volta/node");
	version_cache_put("node", at("kbin/volta/node"), "1.0.0");
	CHECK_INT(cached("node", "kbin/volta/node", out, sizeof(out)), 0, "volta shim");
	put_elf("kbin/multi/toolbox");
	put_link("toolbox", "kbin/multi/node");
	version_cache_put("node", at("kbin/multi/node"), "1.0.0");
	CHECK_INT(cached("node", "kbin/multi/node", out, sizeof(out)), 0, "multi-call binary");
	put_elf("kbin/go/go");
	version_cache_put("go", at("kbin/go/go"), "1.22.1");
	CHECK_INT(cached("go", "kbin/go/go", out, sizeof(out)), 0, "go switches toolchains");
	put_elf("kbin/cargo/rustc");
	version_cache_put("rust", at("kbin/cargo/rustc"), "1.75.0");
	CHECK_INT(cached("rust", "kbin/cargo/rustc", out, sizeof(out)), 0, "rustup proxy");
}

/* The shims each manager's rehash writes (rbenv-rehash's prototype
 * shim, jenv 0.6's unquoted exec, plenv's one line, asdf's bash reshim
 * and Go shims.go) are told by runtime_shim.c, each with its manager in
 * the context; a script that only looks like one is not. */
static void test_shim_detect(void)
{
	static const struct {
		const char *name, *text, *want;	/* want: NULL for no shim */
	} rows[] = {
		{ "ruby", "#!/usr/bin/env bash\nset -e\n[ -n \"$RBENV_DEBUG\" ] && set -x\n\n"
		  "program=\"${0##*/}\"\n\nexport RBENV_ROOT=\"/r\"\n"
		  "exec \"/usr/lib/rbenv/libexec/rbenv\" exec \"$program\" \"$@\"\n", "shim rbenv /r\n" },
		{ "node", "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\n"
		  "export NODENV_ROOT=\"/n\"\nexec \"/n/libexec/nodenv\" exec \"$program\" \"$@\"\n",
		  "shim nodenv /n\n" },
		{ "java", "#!/usr/bin/env bash\nset -e\nprogram=\"${0##*/}\"\n"
		  "export JENV_ROOT=\"/j\"\nexec /j/libexec/jenv exec \"$program\" \"$@\"\n",
		  "shim jenv /j\n" },
		{ "perl", "#!/usr/bin/env bash\nset -e\n[ -n \"$PLENV_DEBUG\" ] && set -x\n"
		  "PLENV_ROOT='/p' exec '/usr/bin/plenv' exec \"${0##*/}\" \"$@\"\n", "shim plenv /p\n" },
		{ "node", "#!/usr/bin/env bash\n# asdf-plugin: nodejs 20.1.0\n"
		  "exec /h/.asdf/bin/asdf exec \"node\" \"$@\" # asdf_allow: ' asdf '\n", "shim asdf " },
		{ "node", "#!/usr/bin/env bash\n# asdf-plugin: nodejs 20.1.0\n"
		  "# asdf-plugin: nodejs 22.1.0\nexec asdf exec \"node\" \"$@\" # asdf_allow: ' asdf '",
		  "shim asdf " },
		/* what a shell would expand is not a path we read */
		{ "ruby", "#!/usr/bin/env bash\nexport RBENV_ROOT=\"$HOME/.rbenv\"\n"
		  "exec \"/usr/bin/rbenv\" exec \"$program\" \"$@\"\n", NULL },
		{ "ruby", "#!/usr/bin/env bash\nexport RBENV_ROOT=\"/r\"\n"
		  "exec \"$RBENV_BIN\" exec \"$program\" \"$@\"\n", NULL },
		/* no exec line, an unknown root variable, no #! */
		{ "ruby", "#!/usr/bin/env bash\nexport RBENV_ROOT=\"/r\"\n", NULL },
		{ "lua", "#!/usr/bin/env bash\nexport LUAENV_ROOT=\"/l\"\n"
		  "exec \"/l/libexec/luaenv\" exec \"$program\" \"$@\"\n", NULL },
		{ "ruby", "export RBENV_ROOT=\"/r\"\nexec \"/usr/bin/rbenv\" exec \"$program\" \"$@\"\n", NULL },
		{ "node", "#!/bin/sh\n# asdf-plugin: nodejs 20.1.0\necho v20.1.0\n", NULL },
		{ "node", "#!/bin/sh\nexec node \"$@\"\n", NULL },
	};
	char *env[] = { "HOME=/nonexistent", "PATH=/usr/bin:/bin", NULL };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct version_context ctx;
		char rel[64];
		int rc;

		snprintf(rel, sizeof(rel), "shims%zu/%s", i, rows[i].name);
		put_str(rel, rows[i].text, 0755);
		CHECK_INT(runtime_shim_known(at(rel), at(rel)), rows[i].want != NULL,
			  "row %zu: a shim?", i);
		rc = runtime_select_context(rows[i].name, at(rel), base, env, &ctx);
		if (!rows[i].want) {
			/* java and perl pick nothing else: no context at all */
			CHECK(rc < 0 || !ctx.shim_ok, "row %zu: no shim context", i);
		} else {
			CHECK(rc == 0 && ctx.shim_ok && strstr(ctx.text, rows[i].want),
			      "row %zu: %s in the context", i, rows[i].want);
		}
		if (rc == 0)
			runtime_select_release(&ctx);
	}
}

/* A context (runtime_select.c's text) keys a toolchain that picks its
 * version per project: a hit only in the same context. */
static void test_cache_context(void)
{
	struct version_context a = { "go.mod 1", 0, 0 }, b = { "go.mod 2", 0, 0 };
	struct version_context script = { "corepack", 1, 0 };
	char out[64];

	set_cache("cache5");
	put_elf("cxbin/go/go");
	version_cache_put_in("go", at("cxbin/go/go"), &a, "1.22.1");
	version_cache_put_in("go", at("cxbin/go/go"), &b, "1.23.0");
	CHECK(version_cache_get_in("go", at("cxbin/go/go"), &a, out, sizeof(out)) == 1 &&
	      !strcmp(out, "1.22.1"), "context a: %s", out);
	CHECK(version_cache_get_in("go", at("cxbin/go/go"), &b, out, sizeof(out)) == 1 &&
	      !strcmp(out, "1.23.0"), "context b, beside a: %s", out);
	CHECK_INT(cached("go", "cxbin/go/go", out, sizeof(out)), 0, "no context: never");
	{
		struct version_context c = { "go.mod 3", 0, 0 };

		CHECK_INT(version_cache_get_in("go", at("cxbin/go/go"), &c, out, sizeof(out)), 0,
			  "another context: a miss");
	}
	/* rustup's proxies are rustup itself: with a context they may be */
	put_elf("cxbin/rustup/rustup");
	CHECK_INT(symlink(at("cxbin/rustup/rustup"), at("cxbin/rustup/rustc")), 0, "proxy link");
	version_cache_put_in("rust", at("cxbin/rustup/rustc"), &a, "1.75.0");
	CHECK_INT(version_cache_get_in("rust", at("cxbin/rustup/rustc"), &a, out, sizeof(out)), 1,
		  "rustup proxy in a context");
	/* any other dispatcher reads what no context names */
	put_elf("cxbin/mise/mise");
	CHECK_INT(symlink(at("cxbin/mise/mise"), at("cxbin/mise/go")), 0, "mise link");
	version_cache_put_in("go", at("cxbin/mise/go"), &a, "1.22.1");
	CHECK_INT(version_cache_get_in("go", at("cxbin/mise/go"), &a, out, sizeof(out)), 0,
		  "mise behind go: never");
	/* ... unless the context holds what the manager reads (a shim's) */
	{
		struct version_context shim = { "mise's config", 0, 1 };

		version_cache_put_in("go", at("cxbin/mise/go"), &shim, "1.22.1");
		CHECK_INT(version_cache_get_in("go", at("cxbin/mise/go"), &shim, out,
					       sizeof(out)), 1, "mise behind go, in its context");
		put_file("cxbin/rb/shims/ruby", "#!/usr/bin/env bash\n", 20, 0755);
		version_cache_put_in("ruby", at("cxbin/rb/shims/ruby"), &a, "3.2.2");
		CHECK_INT(version_cache_get_in("ruby", at("cxbin/rb/shims/ruby"), &a, out,
					       sizeof(out)), 0, "a shim's script, no shim context: never");
		version_cache_put_in("ruby", at("cxbin/rb/shims/ruby"), &shim, "3.2.2");
		CHECK_INT(version_cache_get_in("ruby", at("cxbin/rb/shims/ruby"), &shim, out,
					       sizeof(out)), 1, "a shim's script in its context");
	}
	/* a script only when the context vouches for it */
	put_file("cxbin/js/pnpm", "#!/usr/bin/env node\n", 20, 0755);
	version_cache_put_in("pnpm", at("cxbin/js/pnpm"), &a, "9.0.0");
	CHECK_INT(version_cache_get_in("pnpm", at("cxbin/js/pnpm"), &a, out, sizeof(out)), 0,
		  "a script without script_ok: never");
	version_cache_put_in("pnpm", at("cxbin/js/pnpm"), &script, "9.0.0");
	CHECK_INT(version_cache_get_in("pnpm", at("cxbin/js/pnpm"), &script, out, sizeof(out)), 1,
		  "a script the context vouches for");
	/* ten edits of a go.mod: the binary keeps its eight newest contexts,
	 * and the other binaries' entries stay */
	{
		char text[10][16];
		struct version_context cx[10];
		int i, kept = 0;

		for (i = 0; i < 10; i++) {
			snprintf(text[i], sizeof(text[i]), "go.mod v%d", i);
			cx[i].text = text[i];
			cx[i].script_ok = 0;
			cx[i].shim_ok = 0;
			version_cache_put_in("go", at("cxbin/go/go"), &cx[i], "1.22.1");
		}
		for (i = 0; i < 10; i++)
			kept += version_cache_get_in("go", at("cxbin/go/go"), &cx[i], out,
						     sizeof(out)) == 1;
		CHECK_INT(kept, 8, "eight contexts kept");
		CHECK_INT(version_cache_get_in("go", at("cxbin/go/go"), &cx[9], out, sizeof(out)),
			  1, "the newest kept");
		CHECK_INT(version_cache_get_in("go", at("cxbin/go/go"), &cx[0], out, sizeof(out)),
			  0, "the oldest gone");
		CHECK_INT(version_cache_get_in("pnpm", at("cxbin/js/pnpm"), &script, out,
					       sizeof(out)), 1, "another binary's entry stays");
	}
}

static void test_cache_hostile(void)
{
#define M "envpreflight-vcache 2\n"
	static const char *const bad_files[] = {
		"garbage\n",
		"envpreflight-vcache 1\n",	/* the format before contexts */
		M "node\t/x\t1\t2\t3\t4\t5\t6\t7\t-\n",
		M "node\t/x\t1\t2\t3\t4\t5\t6\t7\t-\t1.0.0\textra\n",
		M "node\t/x\t1\t2\t3\t4\t5000000000\t6\t7\t-\t1.0.0\n",
		M "node\t/x\t-1\t2\t3\t4\t5\t6\t7\t-\t1.0.0\n",
		M "node\t/x\t1\t2\t99999999999999999999999\t4\t5\t6\t7\t-\t1.0.0\n",
		M "node\trelative\t1\t2\t3\t4\t5\t6\t7\t-\t1.0.0\n",
		M "node\t/x\t1\t2\t3\t4\t5\t6\t7\tABCDEF\t1.0.0\n",
		M "node\t/x\t1\t2\t3\t4\t5\t6\t7\t"
		  "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\t1.0.0\n",
	};
#undef M
	struct buf good = BUF_INIT, line = BUF_INIT;
	char out[64];
	struct stat st;
	struct blob b;
	size_t i;
	char *big;

	set_cache("cache3");
	put_elf("hbin/node");
	version_cache_put("node", at("hbin/node"), "20.1.0");
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 1, "stored");
	if (saferead_path(cache_file("cache3"), 65536, &b) == 0) {
		buf_add(&good, b.data, b.len);
		blob_release(&b);
	}
	CHECK(good.len > 30, "cache file read back");

	/* cut short: the last line has no newline */
	test_write(at("cache3/envpreflight"), "versions", good.s, good.len - 1);
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "truncated");
	/* a NUL byte */
	test_write(at("cache3/envpreflight"), "versions", good.s, good.len);
	{
		int fd = open(cache_file("cache3"), O_WRONLY | O_APPEND);

		if (fd >= 0) {
			CHECK_INT(write(fd, "\0", 1), 1, "append NUL");
			close(fd);
		}
	}
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "NUL byte");
	/* a version that would paint the terminal */
	buf_add(&line, good.s, good.len - 1);
	buf_puts(&line, "\033[31m\n");
	test_write(at("cache3/envpreflight"), "versions", line.s, line.len);
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "escape in version");
	for (i = 0; i < ARRAY_SIZE(bad_files); i++) {
		struct buf f = BUF_INIT;

		buf_puts(&f, bad_files[i]);
		buf_add(&f, good.s + strlen("envpreflight-vcache 2\n"),
			good.len - strlen("envpreflight-vcache 2\n"));
		test_write(at("cache3/envpreflight"), "versions", f.s, f.len);
		CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0,
			  "bad file %zu: a good line after a bad one is not trusted", i);
		buf_release(&f);
	}
	/* huge: past the cap, even if every line is fine */
	big = xmalloc(400 * 1024);
	for (i = 0; i < 400 * 1024; i++)
		big[i] = "envpreflight-vcache 1\n"[i % 22];
	memcpy(big, good.s, good.len);
	test_write(at("cache3/envpreflight"), "versions", big, 400 * 1024);
	free(big);
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "huge");
	/* a corrupt file is rewritten by the next put */
	version_cache_put("node", at("hbin/node"), "20.1.1");
	CHECK(cached("node", "hbin/node", out, sizeof(out)) && !strcmp(out, "20.1.1"),
	      "rewritten after corruption: %s", out);
	CHECK(stat(cache_file("cache3"), &st) == 0 && st.st_size < 4096, "small again");
	/* a symlink in place of the file is not followed */
	test_write(at("elsewhere"), "versions", good.s, good.len);
	unlink(cache_file("cache3"));
	CHECK_INT(symlink(at("elsewhere/versions"), cache_file("cache3")), 0, "symlink");
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "symlinked file");
	/* a directory anyone can write to is not trusted */
	unlink(cache_file("cache3"));
	test_write(at("cache3/envpreflight"), "versions", good.s, good.len);
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 1, "restored");
	chmod(at("cache3/envpreflight"), 0777);
	CHECK_INT(cached("node", "hbin/node", out, sizeof(out)), 0, "world-writable dir");
	version_cache_put("node", at("hbin/node"), "20.1.2");
	chmod(at("cache3/envpreflight"), 0700);
	CHECK(cached("node", "hbin/node", out, sizeof(out)) && !strcmp(out, "20.1.0"),
	      "no write into a world-writable dir: %s", out);
	buf_release(&good);
	buf_release(&line);
}

static void test_cache_unwritable(void)
{
	char out[64];
	char *saved_home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;

	put_elf("ubin/node");
	/* the cache home is a regular file: nothing can be created */
	test_write_str(base, "afile", "x");
	setenv("XDG_CACHE_HOME", at("afile/cache"), 1);
	version_cache_put("node", at("ubin/node"), "1.0.0");
	CHECK_INT(cached("node", "ubin/node", out, sizeof(out)), 0, "under a file");
	/* envpreflight/ is a file */
	test_write_str(base, "cache4/envpreflight", "x");
	set_cache("cache4");
	version_cache_put("node", at("ubin/node"), "1.0.0");
	CHECK_INT(cached("node", "ubin/node", out, sizeof(out)), 0, "dir is a file");
	/* a read-only directory (root ignores the mode: then it just works) */
	mkdir_p(at("cache5/envpreflight"));
	chmod(at("cache5/envpreflight"), 0500);
	set_cache("cache5");
	version_cache_put("node", at("ubin/node"), "1.0.0");
	CHECK_INT(cached("node", "ubin/node", out, sizeof(out)), geteuid() == 0,
		  "read-only dir");
	chmod(at("cache5/envpreflight"), 0700);
	/* relative XDG_CACHE_HOME is ignored: ~/.cache */
	setenv("XDG_CACHE_HOME", "relative/cache", 1);
	setenv("HOME", at("chome"), 1);
	mkdir_p(at("chome"));
	version_cache_put("node", at("ubin/node"), "1.0.1");
	CHECK_INT(access(at("chome/.cache/envpreflight/versions"), F_OK), 0,
		  "relative XDG_CACHE_HOME: ~/.cache used");
	CHECK_INT(cached("node", "ubin/node", out, sizeof(out)), 1, "~/.cache read");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	CHECK_INT(cached("node", "ubin/node", out, sizeof(out)), 0, "no home at all");
	version_cache_put("node", at("ubin/node"), "1.0.1");
	if (saved_home)
		setenv("HOME", saved_home, 1);
	free(saved_home);
}

#define THREADS 8
#define ROUNDS 30

struct worker {
	int id;
	int misses;
	char bin[4400];
};

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	char want[32], out[64];
	int i;

	for (i = 0; i < ROUNDS; i++) {
		snprintf(want, sizeof(want), "%d.%d.0", w->id, i);
		version_cache_put("node", w->bin, want);
		if (!version_cache_get("node", w->bin, out, sizeof(out)) || strcmp(out, want))
			w->misses++;
	}
	return NULL;
}

static void test_cache_concurrency(void)
{
	struct worker w[THREADS];
	pthread_t th[THREADS];
	char out[64], rel[64], want[32];
	int i, j, st, all = 1;
	pid_t kids[4];

	set_cache("cache6");
	for (i = 0; i < THREADS; i++) {
		snprintf(rel, sizeof(rel), "tbin/%d/node", i);
		put_elf(rel);
		w[i].id = i;
		w[i].misses = 0;
		snprintf(w[i].bin, sizeof(w[i].bin), "%s", at(rel));
		pthread_create(&th[i], NULL, worker_run, &w[i]);
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(th[i], NULL);
		CHECK_INT(w[i].misses, 0, "thread %d lost its entry", i);
	}
	for (i = 0; i < THREADS; i++) {
		snprintf(rel, sizeof(rel), "tbin/%d/node", i);
		snprintf(want, sizeof(want), "%d.%d.0", i, ROUNDS - 1);
		all &= cached("node", rel, out, sizeof(out)) && !strcmp(out, want);
	}
	CHECK(all, "every thread's last version is there");

	/* processes: flock keeps their read-modify-writes apart.  A writer
	 * gives up after VERSION_CACHE_LOCK_MS (the cache is a shortcut: a skipped
	 * write is harmless), which a busy machine can make happen; so each
	 * writes until it reads its entry back, and only an entry lost after
	 * that, to another's write, counts */
	for (i = 0; i < 4; i++)
		for (j = 0; j < 20; j++) {
			snprintf(rel, sizeof(rel), "pbin/%d/%d/node", i, j);
			put_elf(rel);
		}
	for (i = 0; i < 4; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			for (j = 0; j < 20; j++) {
				int tries = 0;

				snprintf(rel, sizeof(rel), "pbin/%d/%d/node", i, j);
				snprintf(want, sizeof(want), "%d.%d.1", i, j);
				do
					version_cache_put("node", at(rel), want);
				while (!(cached("node", rel, out, sizeof(out)) &&
					 !strcmp(out, want)) && ++tries < 100);
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++)
		CHECK(kids[i] > 0 && waitpid(kids[i], &st, 0) == kids[i] &&
		      WIFEXITED(st) && WEXITSTATUS(st) == 0, "child %d", i);
	for (all = 1, i = 0; i < 4; i++)
		for (j = 0; j < 20; j++) {
			snprintf(rel, sizeof(rel), "pbin/%d/%d/node", i, j);
			snprintf(want, sizeof(want), "%d.%d.1", i, j);
			all &= cached("node", rel, out, sizeof(out)) && !strcmp(out, want);
		}
	CHECK(all, "no process lost another's entry");

	/* past the entry cap the oldest go */
	for (i = 0; i < 300; i++) {
		snprintf(rel, sizeof(rel), "capbin/%d/node", i);
		put_elf(rel);
		snprintf(want, sizeof(want), "1.%d.0", i);
		version_cache_put("node", at(rel), want);
	}
	CHECK_INT(cached("node", "capbin/299/node", out, sizeof(out)), 1, "newest kept");
	CHECK_INT(cached("node", "capbin/0/node", out, sizeof(out)), 0, "oldest dropped");
}

/* the real node: exec once, cache, read back */
static void test_cache_real_node(void)
{
	char *p = spawn_which("node", getenv("PATH"), NULL);
	char ran[64], out[64];
	char **env;

	if (!p)
		return;
	set_cache("cache7");
	env = spawn_env_scrubbed(environ);
	if (run_version(p, NULL, env, ran, sizeof(ran)) == 0) {
		version_cache_put("node", p, ran);
		CHECK(version_cache_get("node", p, out, sizeof(out)) && !strcmp(out, ran),
		      "real node %s cached as %s", p, ran);
	}
	spawn_env_free(env);
	free(p);
}

static void test_misc(void)
{
	char out[64], *real = (char *)1;

	CHECK_STR(vmethod_name(VMETHOD_EXEC), "exec", "name");
	CHECK_STR(vmethod_name(VMETHOD_CACHE), "cache", "name");
	CHECK_STR(vmethod_name(VMETHOD_MANIFEST), "manifest", "name");
	CHECK_STR(vmethod_name(VMETHOD_PATH), "path", "name");
	CHECK_STR(vmethod_name(VMETHOD_SOCKET), "socket", "name");
	CHECK_STR(vmethod_name((enum vmethod)99), "exec", "name");
	CHECK_INT(peek_version(NULL, "/x", NULL, NULL, out, sizeof(out), NULL, &real), 0, "NULL name");
	CHECK(real == NULL, "*real reset");
	CHECK_INT(peek_version("node", NULL, NULL, NULL, out, sizeof(out), NULL, NULL), 0, "NULL path");
	CHECK_INT(peek_version("node", "node", NULL, NULL, out, sizeof(out), NULL, NULL), 0, "relative");
	CHECK_INT(peek_version("node", at("nope/node"), NULL, NULL, out, sizeof(out), NULL, NULL),
		  0, "missing");
	CHECK_INT(peek_version("node", at("h/.nvm/versions/node/v20.11.1/bin/node"), NULL, NULL,
			       out, 4, NULL, NULL), 0, "outlen too small");
	CHECK_INT(peek_version("node", at("h/.nvm/versions/node/v20.11.1/bin/node"), NULL, NULL,
			       out, sizeof(out), NULL, NULL), 1, "NULL method and real");
}

/* ---- guards: repository config that makes a version query run code ---- */

struct guard_row {
	const char *name;		/* the runtime asked for */
	const char *bin;		/* the binary, below the row's directory */
	const char *link;		/* a symlink to bin found on PATH, or NULL */
	int hard;			/* link is a hard link */
	const char *files[2][2];	/* {path below the row's dir, content} */
	const char *env;		/* one NAME=VALUE for the child, or NULL */
	int want;
	const char *version;		/* g.version */
	const char *why;		/* a part of g.why */
};

static const struct guard_row guard_rows[] = {
	/* yarn: yarnPath in .yarnrc.yml, the version from the file name */
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n" } }, NULL, 1, "4.1.0",
	  "file name '.yarn/releases/yarn-4.1.0.cjs' (yarnPath in .yarnrc.yml:1)" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "enableTelemetry: false\nyarnPath: '.yarn/releases/yarn-4.0.0-rc.42.cjs'\n" } },
	  NULL, 1, "4.0.0-rc.42", ".yarnrc.yml:2" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: .yarn/releases/custom.cjs\n" } }, NULL, 1, "",
	  "and its name gives no version" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: .yarn/releases/yarn-latest.cjs\n" } }, NULL, 1, "", "no version" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "nodeLinker: node-modules\n" } }, NULL, 0, "", NULL },
	/* keys spelt any way yarn reads them, escapes and flow style too */
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "\"yarn\\x50ath\": x/yarn-3.0.0.cjs\n" } }, NULL, 1, "3.0.0", NULL },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "{yarn_path: a/yarn-2.4.3.cjs}\n" } }, NULL, 1, "2.4.3", NULL },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: [unclosed\n" } }, NULL, 1, "", "is not YAML envpreflight can read" },
	/* plugins run on every command */
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "plugins:\n  - path: .yarn/plugins/p.cjs\n" } }, NULL, 1, "",
	  "'plugins' in .yarnrc.yml:1" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "plugins:\n" } }, NULL, 0, "", NULL },
	/* classic .yarnrc */
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc",
	  "yarn-path \"./vendor/yarn-1.22.19.js\"\n" } }, NULL, 1, "1.22.19",
	  "yarnPath in .yarnrc:1" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc",
	  "# pinned\n--install.frozen-lockfile true\nyarn-path ./x.js\n" } }, NULL, 1, "",
	  ".yarnrc:3 names './x.js'" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc",
	  "\"yarn\\u002dpath\" \"x.js\"\n" } }, NULL, 1, "", ".yarnrc:1 has an escaped string" },
	{ "yarn", "bin/yarn", NULL, 0, { { "repo/.yarnrc",
	  "registry \"https://registry.example\"\n" } }, NULL, 0, "", NULL },
	/* above the repository: still not run, the file named absolutely */
	{ "yarn", "bin/yarn", NULL, 0, { { ".yarnrc.yml",
	  "yarnPath: yarn-4.2.0.cjs\n" } }, NULL, 1, "4.2.0", "/.yarnrc.yml:1)" },
	/* ... but not from $HOME or above ("@" is the row's directory) */
	{ "yarn", "bin/yarn", NULL, 0, { { ".yarnrc.yml",
	  "yarnPath: yarn-4.2.0.cjs\n" } }, "HOME=@", 0, "", NULL },
	{ "node", "h/.asdf/shims/node", NULL, 0, { { ".tool-versions",
	  "nodejs path:/home/me/src/node\n" } }, "HOME=@", 0, "", NULL },
	{ "node", "h/.asdf/shims/node", NULL, 0, { { "repo/.tool-versions",
	  "nodejs path:.\n" } }, "HOME=@", 1, "", NULL },
	/* the nearest wins */
	{ "yarnpkg", "bin/yarnpkg", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: r/yarn-4.1.1.cjs\n" }, { ".yarnrc.yml", "yarnPath: r/yarn-3.0.0.cjs\n" } },
	  NULL, 1, "4.1.1", NULL },
	/* found as "yarn" whatever the runtime is called */
	{ "mytool", "bin/yarn", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: yarn-4.1.0.cjs\n" } }, NULL, 1, "4.1.0", NULL },
	{ "node", "bin/node", NULL, 0, { { "repo/.yarnrc.yml",
	  "yarnPath: yarn-4.1.0.cjs\n" } }, NULL, 0, "", NULL },
	/* pnpm's own version switch, set in pnpm-workspace.yaml */
	{ "pnpm", "bin/pnpm", NULL, 0, { { "repo/pnpm-workspace.yaml",
	  "packages: [a]\nmanagePackageManagerVersions: true\n" } }, NULL, 1, "",
	  "'managePackageManagerVersions' in pnpm-workspace.yaml:2" },
	{ "pnpm", "bin/pnpm", NULL, 0, { { "repo/pnpm-workspace.yaml",
	  "pmOnFail: download\n" } }, NULL, 1, "", "pnpm may download and run" },
	{ "pnpm", "bin/pnpm", NULL, 0, { { "repo/pnpm-workspace.yaml",
	  "packages:\n  - a\n" } }, NULL, 0, "", NULL },
	{ "pnpm", "bin/pnpm", NULL, 0, { { "repo/pnpm-workspace.yaml",
	  "packages: [\n" } }, NULL, 1, "", "not YAML" },
	/* a shim and a version that is a path (pyenv CVE-2022-35861, asdf path:) */
	{ "python", "h/.pyenv/shims/python", NULL, 0, { { "repo/.python-version",
	  "../../../evil\n" } }, NULL, 1, "", "'../../../evil' in .python-version:1 names a path" },
	{ "python", "h/.pyenv/shims/python", NULL, 0, { { "repo/.python-version",
	  "# c\n3.12.1 3.11\n" } }, NULL, 0, "", NULL },
	{ "python", "h/.pyenv/shims/python", NULL, 0, { { "repo/.python-version",
	  "3.12.1\n..\n" } }, NULL, 1, "", ".python-version:2" },
	{ "python", "usr/bin/python", NULL, 0, { { "repo/.python-version",
	  "../x\n" } }, NULL, 0, "", NULL },
	{ "node", "h/.asdf/shims/node", NULL, 0, { { "repo/.tool-versions",
	  "nodejs path:./vendor/node\n" } }, NULL, 1, "", "'path:./vendor/node' in .tool-versions:1" },
	{ "node", "h/.asdf/shims/node", NULL, 0, { { "repo/.tool-versions",
	  "nodejs 20.11.1 path:.\n" } }, NULL, 1, "", NULL },
	{ "node", "h/.asdf/shims/node", NULL, 0, { { "repo/.tool-versions",
	  "ubi:owner/repo 1.0 # c/d\nnodejs 20.11.1\n" } }, NULL, 0, "", NULL },
	{ "ruby", "h/.rbenv/shims/ruby", NULL, 0, { { ".ruby-version",
	  "/opt/evil\n" } }, NULL, 1, "", "/.ruby-version:1" },
	/* mise: its shims are symlinks to mise */
	{ "node", "h/mise", "h/shimdir/node", 0, { { "repo/mise.toml",
	  "[tools]\nnode = \"path:./n\"\n" } }, NULL, 1, "", "mise.toml:2" },
	{ "node", "h/mise", "h/shimdir/node", 0, { { "repo/.mise.toml",
	  "[tools]\nnode = \"\\u0070ath:./n\"\n" } }, NULL, 1, "", ".mise.toml:2" },
	{ "node", "h/mise", "h/shimdir/node", 0, { { "repo/mise.toml",
	  "[tools]\nnode = \"20\"\n" } }, NULL, 0, "", NULL },
	{ "node", "h/mise", "h/shimdir/node", 0, { { "repo/.tool-versions",
	  "node path:/x\n" } }, NULL, 1, "", NULL },
	/* rustup's proxies and path toolchains */
	{ "rust", "h/.cargo/bin/rustup", "h/.cargo/bin/rustc", 0, { { "repo/rust-toolchain.toml",
	  "[toolchain]\npath = \"./tc\"\n" } }, NULL, 1, "", "rust-toolchain.toml:2" },
	{ "rust", "h/.cargo/bin/rustup", "h/.cargo/bin/rustc", 1, { { "repo/rust-toolchain.toml",
	  "[toolchain]\npath = \"./tc\"\n" } }, NULL, 1, "", "rustup would run" },
	{ "rust", "h/.cargo/bin/rustup", "h/.cargo/bin/rustc", 0, { { "repo/rust-toolchain.toml",
	  "[toolchain]\npath = \"./tc\"\n" } }, "RUSTUP_TOOLCHAIN=stable", 0, "", NULL },
	{ "rust", "h/.cargo/bin/rustup", "h/.cargo/bin/rustc", 0, { { "repo/rust-toolchain.toml",
	  "[toolchain]\nchannel = \"1.77\"\n" } }, NULL, 0, "", NULL },
	{ "rust", "h/.cargo/bin/rustup", "h/.cargo/bin/rustc", 0, { { "repo/rust-toolchain",
	  "/opt/tc\n" } }, NULL, 1, "", NULL },
	{ "rust", "usr/bin/rustc", NULL, 0, { { "repo/rust-toolchain.toml",
	  "[toolchain]\npath = \"./tc\"\n" } }, NULL, 0, "", NULL },
	/* global.json SDK paths */
	{ "dotnet", "usr/bin/dotnet", NULL, 0, { { "repo/global.json",
	  "{\"sdk\": {\"version\": \"10.0.100\",\n \"paths\": [\".dotnet\", \"$host$\"]}}\n" } },
	  NULL, 1, "", "global.json:2" },
	{ "dotnet", "usr/bin/dotnet", NULL, 0, { { "repo/global.json",
	  "{\"sdk\": {\"version\": \"8.0.100\"}}\n" } }, NULL, 0, "", NULL },
	/* tools that read project files that load code */
	{ "mvn", "usr/bin/mvn", NULL, 0, { { "repo/.mvn/jvm.config",
	  "-javaagent:evil.jar\n" } }, NULL, 1, "", ".mvn: Maven reads" },
	{ "maven", "usr/bin/mvn", NULL, 0, { { "repo/pom.xml", "<project/>\n" } }, NULL, 0,
	  "", NULL },
	{ "sbt", "usr/bin/sbt", NULL, 0, { { "repo/.jvmopts", "-javaagent:x.jar\n" } },
	  NULL, 1, "", ".jvmopts" },
	{ "bazel", "usr/bin/bazel", NULL, 0, { { "repo/.bazeliskrc",
	  "BAZELISK_BASE_URL=https://example.invalid\n" } }, NULL, 1, "", ".bazeliskrc" },
};

static void guard_one(const struct guard_row *w, size_t i)
{
	char dir[64], rel[128];
	char *const none[] = { NULL };
	char envbuf[4500];
	char *one[2] = { (char *)w->env, NULL };
	const char *path;
	struct exec_guard g;
	size_t f;
	int got;

	snprintf(dir, sizeof(dir), "guard%zu", i);
	snprintf(rel, sizeof(rel), "%s/%s", dir, w->bin);
	put_str(rel, "#!/bin/sh\nexit 0\n", 0755);
	path = at(rel);
	if (w->link) {
		char target[4400];

		snprintf(target, sizeof(target), "%s", path);
		snprintf(rel, sizeof(rel), "%s/%s", dir, w->link);
		path = at(rel);
		{
			char parent[4400];

			snprintf(parent, sizeof(parent), "%s", path);
			*strrchr(parent, '/') = '\0';
			mkdir_p(parent);
		}
		unlink(path);
		CHECK((w->hard ? link(target, path) : symlink(target, path)) == 0,
		      "row %zu: link: %s", i, strerror(errno));
	}
	snprintf(rel, sizeof(rel), "%s/repo/x", dir);
	put_str(rel, "", 0644);
	for (f = 0; f < 2 && w->files[f][0]; f++) {
		snprintf(rel, sizeof(rel), "%s/%s", dir, w->files[f][0]);
		put_str(rel, w->files[f][1], 0644);
	}
	if (w->env && !strcmp(w->env, "HOME=@")) {
		snprintf(envbuf, sizeof(envbuf), "HOME=%s", at(dir));
		one[0] = envbuf;
	}
	snprintf(rel, sizeof(rel), "%s/repo", dir);
	got = exec_guard_check(w->name, path, at(rel), w->env ? one : none, &g);
	CHECK_INT(got, w->want, "row %zu (%s %s): %s", i, w->name, w->bin,
		  g.why ? g.why : "(no reason)");
	CHECK_STR(g.version, w->version, "row %zu: version", i);
	CHECK(w->want ? g.why != NULL : g.why == NULL, "row %zu: why", i);
	if (w->why)
		CHECK(g.why && strstr(g.why, w->why), "row %zu: '%s' lacks '%s'", i,
		      g.why ? g.why : "", w->why);
	exec_guard_release(&g);
}

/* The spec rules for the files read: a symlink out of the repository and
 * a file past the size cap are refused, not followed or half read. */
static void test_guard_files(void)
{
	char *const none[] = { NULL };
	struct exec_guard g;
	char *big;

	put_str("guardf/out/.yarnrc.yml", "nodeLinker: pnp\n", 0644);
	put_str("guardf/bin/yarn", "#!/bin/sh\n", 0755);
	put_str("guardf/repo/x", "", 0644);
	unlink(at("guardf/repo/.yarnrc.yml"));
	CHECK(symlink(at("guardf/out/.yarnrc.yml"), at("guardf/repo/.yarnrc.yml")) == 0,
	      "symlink: %s", strerror(errno));
	CHECK_INT(exec_guard_check("yarn", at("guardf/bin/yarn"), at("guardf/repo"), none, &g),
		  1, "symlink out");
	CHECK(g.why && strstr(g.why, ".yarnrc.yml is a symlink resolving outside the "
			      "repository"), "why: %s", g.why ? g.why : "");
	exec_guard_release(&g);
	/* a symlink inside the repository is read */
	unlink(at("guardf/repo/.yarnrc.yml"));
	put_str("guardf/repo/conf/yarn.yml", "yarnPath: yarn-4.3.0.cjs\n", 0644);
	CHECK(symlink("conf/yarn.yml", at("guardf/repo/.yarnrc.yml")) == 0, "symlink in");
	CHECK_INT(exec_guard_check("yarn", at("guardf/bin/yarn"), at("guardf/repo"), none, &g),
		  1, "symlink in");
	CHECK_STR(g.version, "4.3.0", "through an inside symlink");
	exec_guard_release(&g);
	unlink(at("guardf/repo/.yarnrc.yml"));
	big = xmalloc(SPEC_FILE_CAP + 2);
	memset(big, '#', SPEC_FILE_CAP + 1);
	big[SPEC_FILE_CAP + 1] = '\0';
	put_str("guardf/repo/.yarnrc.yml", big, 0644);
	free(big);
	CHECK_INT(exec_guard_check("yarn", at("guardf/bin/yarn"), at("guardf/repo"), none, &g),
		  1, "too large");
	CHECK(g.why && strstr(g.why, "could not be read"), "why: %s", g.why ? g.why : "");
	exec_guard_release(&g);
	put_file("guardf/repo/.yarnrc.yml", "a: 1\n\0yarnPath: x\n", 18, 0644);
	CHECK_INT(exec_guard_check("yarn", at("guardf/bin/yarn"), at("guardf/repo"), none, &g),
		  1, "NUL byte");
	exec_guard_release(&g);
	CHECK_INT(exec_guard_check("yarn", at("guardf/bin/yarn"), at("guardf/nowhere"), none, &g),
		  0, "no repository");
	exec_guard_release(&g);
}

static void test_guards(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(guard_rows); i++)
		guard_one(&guard_rows[i], i);
	test_guard_files();
}

void test_main(void)
{
	char *b = realpath(test_tmpdir("vfast"), NULL);

	snprintf(base, sizeof(base), "%s", b ? b : test_tmpdir("vfast"));
	free(b);
	test_path_rule();
	test_manifest();
	test_pyenv();
	test_misc();
	test_guards();
	test_cache_basic();
	test_cache_key();
	test_cache_hostile();
	test_cache_context();
	test_shim_detect();
	test_cache_unwritable();
	test_cache_concurrency();
	test_cache_real_node();
	test_real_packages();
	test_real_python();
}
