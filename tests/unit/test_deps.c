/* test_deps.c - the deps probe's pure half: PEP 508 markers, PEP 503
 * names, core metadata, requirements lines, the lockfile parsers on the
 * fixtures of tests/fixtures/deps, the comparison; garbage never crashes. */
#include "test.h"
#include "deps.h"
#include "poetryhash.h"
#include "toml.h"
#include "util.h"
#include "saferead.h"

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};
static const struct pymarker_env unknown_py = {
	NULL, NULL, NULL, NULL, "linux", "Linux", "posix", "x86_64", NULL
};

static const struct {
	const char *marker;
	int want;		/* 1, 0, -1 undecided */
	int unknown_python;	/* with no python version known */
} marker_rows[] = {
	{ "sys_platform == 'win32'", 0, 0 },
	{ "sys_platform == \"linux\"", 1, 1 },
	{ "sys_platform != 'win32'", 1, 1 },
	{ "platform_system == 'Windows'", 0, 0 },
	{ "python_version < '3.11'", 0, -1 },
	{ "python_version >= \"3.8\"", 1, -1 },
	{ "python_full_version < '3.12.4'", 1, -1 },
	{ "python_full_version >= '3.13'", 0, -1 },
	{ "'3.8' < python_version", 1, -1 },
	{ "python_version > '3.9' and sys_platform == 'win32'", 0, 0 },
	{ "sys_platform == 'win32' or python_version >= '3.10'", 1, -1 },
	{ "(sys_platform == 'darwin' or sys_platform == 'linux') and os_name == 'posix'", 1, 1 },
	{ "extra == 'socks'", -1, -1 },
	{ "extra == 'socks' and sys_platform == 'win32'", 0, 0 },
	{ "extra == 'socks' or sys_platform == 'linux'", 1, 1 },
	{ "platform_machine in 'x86_64 aarch64'", 1, 1 },
	{ "platform_machine not in 'x86_64 aarch64'", 0, 0 },
	{ "implementation_name == 'pypy'", 0, -1 },
	{ "platform_release >= '5'", -1, -1 },
	{ "python_version < ", -1, -1 },
	{ "sys_platform == 'linux' junk", -1, -1 },
	{ "((((sys_platform == 'linux'))))", 1, 1 },
	{ "", -1, -1 },
};

static void markers(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marker_rows); i++) {
		const char *m = marker_rows[i].marker;

		CHECK_INT(pymarker_eval(m, strlen(m), &py312), marker_rows[i].want, "%s", m);
		CHECK_INT(pymarker_eval(m, strlen(m), &unknown_py),
			  marker_rows[i].unknown_python, "unknown python: %s", m);
	}
}

static void names_and_metadata(void)
{
	static const struct {
		const char *in, *out;
	} rows[] = {
		{ "Django", "django" }, { "typing_extensions", "typing-extensions" },
		{ "zope.interface", "zope-interface" }, { "A-_.-B", "a-b" },
		{ "ruamel.yaml.clib", "ruamel-yaml-clib" }, { "pip", "pip" },
	};
	static const char meta[] =
		"Metadata-Version: 2.1\r\nName: Typing_Extensions \r\nVersion: 4.12.2\r\n"
		"Summary: x\r\n\r\nVersion: 0\n";
	static const char nover[] = "Metadata-Version: 2.1\nName: idna\n\nVersion: 3\n";
	char *n, *v;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = pep503_normalize(rows[i].in, strlen(rows[i].in));

		CHECK_STR(got, rows[i].out, "pep503 %s", rows[i].in);
		free(got);
	}
	deps_pymeta_parse(meta, sizeof(meta) - 1, &n, &v);
	CHECK_STR(n, "Typing_Extensions", "Name:");
	CHECK_STR(v, "4.12.2", "Version:");
	free(n);
	free(v);
	/* the body's "Version: 3" is not the header's */
	deps_pymeta_parse(nover, sizeof(nover) - 1, &n, &v);
	CHECK_STR(n, "idna", "Name: without Version:");
	CHECK(v == NULL, "no Version: in the header");
	free(n);
	free(v);
}

static void requirements(void)
{
	static const char txt[] =
		"# a comment\n"
		"Django==5.0.6 \\\n    --hash=sha256:aa \\\n    --hash=sha256:bb\n"
		"psycopg[binary,pool] == 3.1.19 ; python_version >= \"3.8\"\n"
		"pywin32==306; sys_platform == \"win32\"\n"
		"uvloop==0.19.0 ; extra == \"fast\"\n"
		"requests>=2.31\n"
		"flask==3.*\n"
		"numpy==1.26.4,<2\n"
		"-r other.txt\n--constraint c.txt\n-e .\n"
		"git+https://example.invalid/x.git#egg=x\n"
		"Jinja2===3.1.4  # pinned\n"
		"Django==4.0\n";
	struct dep_set s = DEP_SET_INIT;
	struct parse_error e;
	size_t unpinned, includes;
	const struct dep *d;

	struct pip_parse pp = { &py312, NULL, 0, 0, "", 0 };

	CHECK(deps_pip_parse(txt, sizeof(txt) - 1, &pp, &s, &e) == 0, "parse");
	unpinned = pp.unpinned;
	includes = pp.includes;
	CHECK_INT(s.n, 6, "requirements kept (pywin32 and uvloop false, the second Django ignored)");
	d = dep_set_get(&s, "django");
	CHECK(d && !strcmp(d->version, "5.0.6") && d->line == 2, "continuation lines");
	d = dep_set_get(&s, "psycopg");
	CHECK(d && !strcmp(d->version, "3.1.19") && d->flags == 0, "extras and a true marker");
	d = dep_set_get(&s, "uvloop");
	CHECK(!d, "an extra: pip asks for none (req_install.py match_markers)");
	d = dep_set_get(&s, "jinja2");
	CHECK(d && !strcmp(d->version, "3.1.4"), "=== and a comment");
	CHECK(!dep_set_get(&s, "pywin32"), "a false marker");
	d = dep_set_get(&s, "numpy");
	CHECK(d && !strcmp(d->version, "==1.26.4,<2"), "a range: the specifier");
	CHECK_INT(unpinned, 1, "not compared: a URL");
	CHECK_INT(includes, 2, "-r and --constraint");
	dep_set_release(&s);
}

static struct blob fixture(const char *rel)
{
	struct blob b;
	char path[256];

	snprintf(path, sizeof(path), "tests/fixtures/deps/%s", rel);
	if (saferead_path(path, 1 << 20, &b) < 0) {
		b.data = xstrdup("");
		b.len = 0;
		CHECK(0, "cannot read %s", path);
	}
	return b;
}

static void node_lockfiles(void)
{
	struct blob b = fixture("pnpm/pnpm-lock.yaml");
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT, skipped = DEP_SET_INIT;
	struct parse_error e;
	struct dep_diff d;
	const struct dep *x;
	char *by = NULL;

	CHECK(deps_pnpm_parse(b.data, b.len, &want, &e) == 0, "pnpm: %s", e.msg);
	CHECK_INT(want.n, 8, "pnpm 9: the snapshots");
	x = dep_set_get(&want, "react-dom@18.2.0(react@18.2.0)");
	/* issue 18: the version is shown without its peer suffix; the key
	 * (pnpm's id) keeps it */
	CHECK(x && !strcmp(x->name, "react-dom") && !strcmp(x->version, "18.2.0"),
	      "a peer suffix");
	x = dep_set_get(&want, "fsevents@2.3.3");
	CHECK(x && (x->flags & DEP_OPTIONAL), "optional: true");
	blob_release(&b);
	b = fixture("pnpm/modules.yaml");
	CHECK(deps_pnpm_modules(b.data, b.len, &skipped, &by, &e) == 0, "modules: %s", e.msg);
	CHECK(skipped.n == 1 && dep_set_get(&skipped, "fsevents@2.3.3"), "skipped");
	CHECK_STR(by, "pnpm@9.1.0", "packageManager");
	free(by);
	blob_release(&b);

	/* v6 and v5 ids */
	{
		static const char v6[] = "lockfileVersion: '6.0'\npackages:\n  /@babel/core@7.24.0:\n"
					 "    dev: true\n  /lodash@4.17.21:\n    dev: false\n";
		static const char v5[] = "lockfileVersion: 5.4\npackages:\n  /@types/node/20.1.0:\n"
					 "    dev: true\n  /react-dom/18.2.0_react@18.2.0:\n    dev: false\n";

		CHECK(deps_pnpm_parse(v6, sizeof(v6) - 1, &have, &e) == 0, "v6");
		x = dep_set_get(&have, "@babel/core@7.24.0");
		CHECK(x && !strcmp(x->name, "@babel/core") && !strcmp(x->version, "7.24.0"), "v6 id");
		dep_set_release(&have);
		CHECK(deps_pnpm_parse(v5, sizeof(v5) - 1, &have, &e) == 0, "v5");
		x = dep_set_get(&have, "@types/node/20.1.0");
		CHECK(x && !strcmp(x->name, "@types/node") && !strcmp(x->version, "20.1.0"), "v5 id");
		dep_set_release(&have);
	}

	/* pairing: one id missing and one extra of that name is one version item */
	b = fixture("pnpm/current-lock.yaml");
	{
		char *p;

		while ((p = strstr(b.data, "typescript@5.4.5")))
			memcpy(p, "typescript@5.4.4", 16);
	}
	CHECK(deps_pnpm_parse(b.data, b.len, &have, &e) == 0, "current");
	blob_release(&b);
	dep_set_add(&have, "left-pad@1.3.0", "left-pad", "1.3.0", 0);
	dep_set_add(&have, "removed@1.0.0", "removed", "1.0.0", 0);
	deps_compare(&want, &have, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	CHECK_INT(d.n, 3, "typescript paired, left-pad and 'removed' extra");
	CHECK(d.n && d.v[0].problem == DEP_VERSION && !strcmp(d.v[0].want->version, "5.4.5") &&
	      !strcmp(d.v[0].have->version, "5.4.4"), "the version item");
	CHECK_INT(d.skipped, 1, "fsevents optional");
	dep_diff_release(&d);
	dep_set_release(&want);
	dep_set_release(&have);
	dep_set_release(&skipped);

	/* yarn: what the workspace reaches (the darwin-only package is no
	 * one's dependency: never linked; test_yarn.c has the rules); the
	 * state devirtualizes */
	b = fixture("yarn-nm/yarn.lock");
	CHECK(deps_yarn_parse(b.data, b.len, 0, &want, &e) == 0, "yarn.lock: %s", e.msg);
	CHECK_INT(want.n, 3, "three packages, the workspace left out");
	x = dep_set_get(&want, "@esbuild/darwin-arm64@npm:0.20.2");
	CHECK(x == NULL, "unreached: not wanted");
	blob_release(&b);
	b = fixture("yarn-nm/yarn-state.yml");
	CHECK(deps_yarn_parse(b.data, b.len, 1, &have, &e) == 0, "state: %s", e.msg);
	CHECK(dep_set_get(&have, "debug@npm:4.3.4") != NULL, "devirtualized");
	blob_release(&b);
	deps_compare(&want, &have, DEPS_CMP_EXTRAS | DEPS_CMP_PAIR, &d);
	CHECK(d.n == 0 && d.compared == 3, "yarn in sync (%zu differ)", d.n);
	dep_diff_release(&d);
	dep_set_release(&want);
	dep_set_release(&have);
	CHECK_INT(deps_yarn_parse("# yarn lockfile v1\n", 19, 0, &want, &e), 1, "yarn 1");

	/* npm v1 lockfiles nest */
	{
		static const char v1[] = "{\"lockfileVersion\": 1, \"dependencies\": {\"a\": {"
					 "\"version\": \"1.0.0\", \"dependencies\": {\"b\": {\"version\": "
					 "\"2.0.0\", \"optional\": true}}}}}";
		int ver;

		CHECK(deps_npm_parse(v1, sizeof(v1) - 1, &want, &ver, &e) == 0 && ver == 1, "v1");
		x = dep_set_get(&want, "node_modules/a/node_modules/b");
		CHECK(x && !strcmp(x->name, "b") && (x->flags & DEP_OPTIONAL), "nested path");
		dep_set_release(&want);
		CHECK(deps_npm_parse("{\"a\": 1} x", 10, &want, &ver, &e) < 0 && e.line == 1 &&
		      e.col == 10, "text after the document at %u:%u", e.line, e.col);
		CHECK_STR(deps_npm_path_name("node_modules/a/node_modules/@s/b"), "@s/b", "path");
		CHECK_STR(deps_npm_path_name("packages/web"), "packages/web", "workspace");
	}
}

static void python_lockfiles(void)
{
	static const struct pymarker_env py310 = {
		"3.10", "3.10.14", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
	};
	/* pyproject.toml: the docs group optional, or not */
	static const char docs_text[] = "[tool.poetry.group.docs]\noptional = true\n";
	static const char no_groups_text[] = "[tool.poetry.group.docs]\noptional = false\n";
	struct toml_value *docs = NULL, *no_groups = NULL;
	struct blob b = fixture("uv/uv.lock");
	struct dep_set s = DEP_SET_INIT;
	struct parse_error e;
	const struct dep *x;

	CHECK(deps_uv_parse(b.data, b.len, &py312, NULL, &s, NULL, &e) == 0, "uv: %s", e.msg);
	CHECK_INT(s.n, 7, "uv on 3.12: the project (editable), its deps, the dev group");
	CHECK(!dep_set_get(&s, "colorama") && !dep_set_get(&s, "exceptiongroup") &&
	      !dep_set_get(&s, "trio"), "win32, <3.11 and an extra left out");
	x = dep_set_get(&s, "typing-extensions");
	CHECK(x && !strcmp(x->version, "4.12.2") && !x->flags, "a marker that holds");
	dep_set_release(&s);
	CHECK(deps_uv_parse(b.data, b.len, &py310, NULL, &s, NULL, &e) == 0 && dep_set_get(&s, "exceptiongroup"),
	      "uv on 3.10: exceptiongroup");
	dep_set_release(&s);
	CHECK(deps_uv_parse(b.data, b.len, &unknown_py, NULL, &s, NULL, &e) == 0, "uv, python unknown");
	x = dep_set_get(&s, "exceptiongroup");
	CHECK(x && (x->flags & DEP_UNDECIDED), "undecided without a python version");
	dep_set_release(&s);
	blob_release(&b);

	b = fixture("poetry/poetry.lock");
	CHECK(toml_parse(docs_text, sizeof(docs_text) - 1, NULL, &docs, &e) == 0 &&
	      toml_parse(no_groups_text, sizeof(no_groups_text) - 1, NULL, &no_groups, &e) == 0,
	      "the pyproject.toml texts");
	CHECK(deps_poetry_parse(b.data, b.len, &py312, docs, &s, NULL, &e) == 0, "poetry: %s", e.msg);
	CHECK(s.n == 2 && dep_set_get(&s, "requests") && dep_set_get(&s, "certifi"),
	      "poetry: main only (%zu)", s.n);
	dep_set_release(&s);
	CHECK(deps_poetry_parse(b.data, b.len, &py310, no_groups, &s, NULL, &e) == 0 && s.n == 4 &&
	      dep_set_get(&s, "tomli") && dep_set_get(&s, "sphinx"),
	      "poetry on 3.10, docs not optional: tomli and sphinx (%zu)", s.n);
	dep_set_release(&s);
	blob_release(&b);

	/* lock-version 2.0: no groups, the graph decides */
	{
		static const char old[] =
			"[[package]]\nname = \"pytest\"\nversion = \"8.0.0\"\noptional = false\n"
			"[package.dependencies]\ncolorama = {version = \"*\", markers = \"sys_platform == \\\"win32\\\"\"}\n"
			"iniconfig = \"*\"\n"
			"[[package]]\nname = \"colorama\"\nversion = \"0.4.6\"\noptional = false\n"
			"[[package]]\nname = \"iniconfig\"\nversion = \"2.0.0\"\noptional = false\n"
			"[metadata]\nlock-version = \"2.0\"\n";

		/* poetry 1.x solves pyproject's declarations again: a root
		 * behind a marker, an optional group and a python constraint
		 * are not installed here, whatever the graph says */
		static const char oldproj[] =
			"[[package]]\nname = \"alpha\"\nversion = \"1.0.0\"\noptional = false\n"
			"[package.dependencies]\ngamma = \"*\"\n"
			"[[package]]\nname = \"gamma\"\nversion = \"1.0.0\"\noptional = false\n"
			"[[package]]\nname = \"win\"\nversion = \"1.0.0\"\noptional = false\n"
			"[[package]]\nname = \"eps\"\nversion = \"1.0.0\"\noptional = false\n"
			"[[package]]\nname = \"old-py\"\nversion = \"1.0.0\"\noptional = false\n"
			"[[package]]\nname = \"delta\"\nversion = \"1.0.0\"\noptional = false\n"
			"[[package]]\nname = \"mac\"\nversion = \"1.0.0\"\noptional = false\n"
			"[metadata]\nlock-version = \"2.0\"\n";
		static const char proj[] =
			"[tool.poetry.dependencies]\npython = \">=3.8\"\nalpha = \"*\"\n"
			"win = {version = \"*\", markers = \"sys_platform == 'win32'\"}\n"
			"old-py = {version = \"*\", python = \"<3.0\"}\n"
			"mac = [{version = \"*\", platform = \"darwin\"}]\n"
			"[tool.poetry.dev-dependencies]\ndelta = \"*\"\n"
			"[tool.poetry.group.docs]\noptional = true\n"
			"[tool.poetry.group.docs.dependencies]\neps = \"*\"\n";
		static const char stale[] =
			"[project]\ndependencies = [\"alpha>=1\", \"New.Pkg[x] ; sys_platform == 'linux'\",\n"
			"\"skipped ; python_version < '3'\", \"gamma[x] (>=2)\", \"alpha @ https://x\"]\n"
			"[project.optional-dependencies]\nx = [\"extra-one\"]\n"
			"[dependency-groups]\ntest = [\"pytest>=8\", {include-group = \"x\"}]\n"
			"[tool.poetry]\nname = \"My_App\"\n"
			"[tool.poetry.dependencies]\npython = \">=3.8\"\nalpha = \"*\"\ngamma = \"^2\"\n"
			"old = {version = \"*\", python = \"<3\"}\n"
			"newpy = {version = \"*\", python = \">=3.9\"}\n"
			"pywin = {version = \"*\", markers = \"sys_platform == 'win32'\"}\n"
			"my-app = {version = \"*\", extras = [\"docs\"]}\n"
			"[tool.poetry.group.docs]\noptional = true\n"
			"[tool.poetry.group.docs.dependencies]\neps = \"*\"\nzeta = \"*\"\n";
		struct toml_value *pp = NULL;
		struct buf unl = BUF_INIT;

		CHECK(deps_poetry_parse(old, sizeof(old) - 1, &py312, NULL, &s, NULL, &e) == 0 &&
		      s.n == 2 && !dep_set_get(&s, "colorama"), "poetry 2.0 graph (%zu)", s.n);
		dep_set_release(&s);
		/* extras asked for on the way, and of two locked versions the
		 * one for this Python */
		static const char extras_lock[] =
			"[[package]]\nname = \"textual\"\nversion = \"1.0\"\noptional = false\n"
			"python-versions = \"*\"\n[package.dependencies]\n"
			"markdown-it-py = {version = \">=2.1.0\", extras = [\"plugins\"]}\n"
			"mypy = [{version = \"1.4.1\", python = \"<3.8\"}, {version = \"1.10.0\", python = \">=3.8\"}]\n"
			"[[package]]\nname = \"markdown-it-py\"\nversion = \"3.0.0\"\noptional = false\n"
			"python-versions = \">=3.8\"\n[package.dependencies]\n"
			"mdit-py-plugins = {version = \"*\", optional = true}\n"
			"linkify-it-py = {version = \">=1,<3\", optional = true}\n"
			"[package.extras]\nplugins = [\"mdit-py-plugins\"]\nlinkify = [\"linkify-it-py (>=1,<3)\"]\n"
			"[[package]]\nname = \"mdit-py-plugins\"\nversion = \"0.4.0\"\noptional = true\n"
			"[[package]]\nname = \"linkify-it-py\"\nversion = \"2.0.0\"\noptional = true\n"
			"[[package]]\nname = \"mypy\"\nversion = \"1.4.1\"\noptional = false\n"
			"python-versions = \">=3.7\"\n"
			"[[package]]\nname = \"mypy\"\nversion = \"1.10.0\"\noptional = false\n"
			"python-versions = \">=3.8\"\n"
			"[metadata]\nlock-version = \"2.0\"\n";
		static const char extras_proj[] =
			"[tool.poetry.dependencies]\npython = \">=3.8\"\ntextual = \"*\"\n";
		const struct dep *m;

		CHECK(toml_parse(extras_proj, sizeof(extras_proj) - 1, NULL, &pp, &e) == 0,
		      "pyproject: %s", e.msg);
		CHECK(deps_poetry_parse(extras_lock, sizeof(extras_lock) - 1, &py312, pp, &s, NULL,
					&e) == 0 && s.n == 4 && dep_set_get(&s, "mdit-py-plugins") &&
		      !dep_set_get(&s, "linkify-it-py"), "the extra asked for, not the other (%zu)",
		      s.n);
		m = dep_set_get(&s, "mypy");
		CHECK(m && !strcmp(m->version, "1.10.0"), "mypy of this Python: %s",
		      m ? m->version : "none");
		dep_set_release(&s);
		toml_free(pp);
		pp = NULL;
		CHECK(toml_parse(proj, sizeof(proj) - 1, NULL, &pp, &e) == 0, "pyproject: %s", e.msg);
		CHECK(deps_poetry_parse(oldproj, sizeof(oldproj) - 1, &py312, pp, &s, &unl, &e) == 0 &&
		      s.n == 3 && dep_set_get(&s, "alpha") && dep_set_get(&s, "gamma") &&
		      dep_set_get(&s, "delta"), "poetry 1.x: what pyproject reaches here (%zu)", s.n);
		CHECK(!unl.len, "every declaration locked (%s)", buf_str(&unl));
		dep_set_release(&s);
		toml_free(pp);
		/* a declaration the lock lacks, in a group or in [project] */
		CHECK(toml_parse(stale, sizeof(stale) - 1, NULL, &pp, &e) == 0, "pyproject: %s", e.msg);
		CHECK(deps_poetry_parse(oldproj, sizeof(oldproj) - 1, &py312, pp, &s, &unl, &e) == 0 &&
		      !strcmp(buf_str(&unl), "gamma ^2 (the lock has 1.0.0), newpy, pywin, zeta"),
		      "not locked, poetry 1.x's tables only: %s", buf_str(&unl));
		dep_set_release(&s);
		buf_release(&unl);
		/* a lock of poetry 2: [project] and [dependency-groups] too */
		{
			struct buf v21 = BUF_INIT;
			const char *at = strstr(oldproj, "lock-version = \"2.0\"");

			buf_add(&v21, oldproj, (size_t)(at - oldproj));
			buf_puts(&v21, "lock-version = \"2.1\"\n");
			CHECK(deps_poetry_parse(v21.s, v21.len, &py312, pp, &s, &unl, &e) == 0 &&
			      !strcmp(buf_str(&unl), "gamma ^2 (the lock has 1.0.0), newpy, pywin, zeta, "
				       "New.Pkg, gamma >=2 (the lock has 1.0.0), extra-one, pytest"),
			      "not locked, poetry 2's tables too: %s", buf_str(&unl));
			dep_set_release(&s);
			buf_release(&unl);
			buf_release(&v21);
		}
		toml_free(pp);
		/* a ';' inside the extras is no PEP 508 requirement: skipped */
		{
			static const char odd[] = "[project]\ndependencies = [\"alpha[a;b]\", "
						  "\"alpha[a;]>=9\"]\n";
			struct buf v21 = BUF_INIT;
			const char *at = strstr(oldproj, "lock-version = \"2.0\"");

			buf_add(&v21, oldproj, (size_t)(at - oldproj));
			buf_puts(&v21, "lock-version = \"2.1\"\n");
			CHECK(toml_parse(odd, sizeof(odd) - 1, NULL, &pp, &e) == 0, "odd: %s", e.msg);
			CHECK(deps_poetry_parse(v21.s, v21.len, &py312, pp, &s, &unl, &e) == 0 &&
			      !unl.len, "a ';' in the extras: %s", buf_str(&unl));
			dep_set_release(&s);
			buf_release(&unl);
			buf_release(&v21);
			toml_free(pp);
		}
	}
	toml_free(docs);
	toml_free(no_groups);
	CHECK(deps_uv_parse("version = 1\n[[package]]\nversion = \"1\"\n", 38, &py312, NULL, &s, NULL, &e) < 0 &&
	      e.line == 2 && strstr(e.msg, "without a name"), "a package without a name: %s", e.msg);
	dep_set_release(&s);
	/* uv refuses a lock without its schema version, or of another one */
	{
		static const struct {
			const char *text;
			unsigned line;
		} bad[] = {
			{ "", 1 }, { "# nothing\n", 1 }, { "[[package]]\nname = \"a\"\n", 1 },
			{ "version = 2\n", 1 }, { "\nversion = \"1\"\n", 2 },
		};
		size_t i;

		for (i = 0; i < ARRAY_SIZE(bad); i++) {
			CHECK(deps_uv_parse(bad[i].text, strlen(bad[i].text), &py312, NULL, &s, NULL, &e) < 0 &&
			      e.line == bad[i].line && strstr(e.msg, "version"),
			      "uv.lock row %zu refused at line %u: %s", i, bad[i].line, e.msg);
			dep_set_release(&s);
		}
		CHECK(deps_uv_parse("version = 1\nrevision = 3\n", 25, &py312, NULL, &s, NULL, &e) == 0,
		      "a lock of nothing, with its version: %s", e.msg);
		dep_set_release(&s);
	}
}

/* poetry's content-hash text (poetryhash.c) against Python's json.dumps
 * of tomllib's tree, for each release (tests/poetryhash.py printed the
 * expected texts); a float is not told. */
static void poetry_hash_rows(void)
{
	static const struct {
		const char *toml;
		int k;
		const char *json;	/* NULL: not told */
	} rows[] = {
		{ "",
		  0, "{\"dependencies\": null, \"dev-dependencies\": null, \"extras\": null, \"source\": null}" },
		{ "[tool.poetry]\nname = \"x\"\n[tool.poetry.dependencies]\npython = \"^3.10\"\nb = \"1\"\na = {version = \"2\", extras = [\"z\", \"y\"], optional = true}\n",
		  0, "{\"dependencies\": {\"a\": {\"extras\": [\"z\", \"y\"], \"optional\": true, \"version\": \"2\"}, \"b\": \"1\", \"python\": \"^3.10\"}, \"dev-dependencies\": null, \"extras\": null, \"source\": null}" },
		{ "[tool.poetry.group.dev.dependencies]\npytest = \"*\"\n[tool.poetry.extras]\n\"\\u00fcber\" = [\"a\"]\n",
		  0, "{\"dependencies\": null, \"dev-dependencies\": null, \"extras\": {\"\\u00fcber\": [\"a\"]}, \"group\": {\"dev\": {\"dependencies\": {\"pytest\": \"*\"}}}, \"source\": null}" },
		{ "[project]\nrequires-python = \">=3.9\"\ndependencies = []\n[tool.poetry]\nsource = [{name = \"q\\\"\\\\\\t\\u0001\\u007f\", url = \"u\"}]\n",
		  1, "{\"project\": {\"dependencies\": [], \"requires-python\": \">=3.9\"}, \"tool\": {\"poetry\": {\"source\": [{\"name\": \"q\\\"\\\\\\t\\u0001\\u007f\", \"url\": \"u\"}]}}}" },
		{ "[project]\nname = \"n\"\n[dependency-groups]\ndev = [\"x\", {include-group = \"y\"}]\n[tool.poetry.dependencies]\nn = 7\nt = true\n",
		  2, "{\"dependency-groups\": {\"dev\": [\"x\", {\"include-group\": \"y\"}]}, \"tool\": {\"poetry\": {\"dependencies\": {\"n\": 7, \"t\": true}}}}" },
		{ "[project]\nname = \"n\"\n[dependency-groups]\ndev = [\"x\"]\n",
		  1, "{\"dependencies\": null, \"dev-dependencies\": null, \"extras\": null, \"source\": null}" },
		{ "[tool.poetry.dependencies]\nemoji = \"\\U0001F600\"\n",
		  0, "{\"dependencies\": {\"emoji\": \"\\ud83d\\ude00\"}, \"dev-dependencies\": null, \"extras\": null, \"source\": null}" },
		{ "[tool.poetry.dependencies]\nx = 1.5\n", 0, NULL },
		{ "[project]\ndependencies = [\"a\"]\n[tool.poetry.dependencies]\nd = 1979-05-27\n", 1, NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct toml_value *root = NULL;
		struct parse_error e;
		char *got = NULL;
		int rc;

		CHECK_INT(toml_parse(rows[i].toml, strlen(rows[i].toml), NULL, &root, &e), 0,
			  "poetry hash row %zu parses: %s", i, e.msg);
		rc = poetry_hash_text(root, rows[i].k, &got);
		if (!rows[i].json)
			CHECK(rc < 0 && !got, "poetry hash row %zu: not told", i);
		else
			CHECK(rc == 0 && got && !strcmp(got, rows[i].json),
			      "poetry hash row %zu: %s", i, got ? got : "(none)");
		free(got);
		toml_free(root);
	}
}

/* How uv's graph is walked: a package reached first through a marker
 * that cannot be decided and then through one that holds is decided
 * (queued again at the better reach), in either order; an extra is
 * followed once per package; one reached only undecided stays so. */
static const char uv_head[] =
	"version = 1\n"
	"[[package]]\nname = \"app\"\nversion = \"0.1.0\"\nsource = { editable = \".\" }\n";
static const struct {
	const char *body;	/* after uv_head: app's dependencies and the rest */
	const char *key;
	int present;
	unsigned flags;
} uv_graph_rows[] = {
	{ "dependencies = [{ name = \"a\" }, { name = \"b\", marker = \"platform_release >= '5'\" }]\n"
	  "[[package]]\nname = \"a\"\nversion = \"1\"\ndependencies = [{ name = \"b\" }]\n"
	  "[[package]]\nname = \"b\"\nversion = \"2\"\n", "b", 1, 0 },
	{ "dependencies = [{ name = \"b\", marker = \"platform_release >= '5'\" }, { name = \"a\" }]\n"
	  "[[package]]\nname = \"a\"\nversion = \"1\"\ndependencies = [{ name = \"b\" }]\n"
	  "[[package]]\nname = \"b\"\nversion = \"2\"\n", "b", 1, 0 },
	{ "dependencies = [{ name = \"b\", marker = \"platform_release >= '5'\" }]\n"
	  "[[package]]\nname = \"b\"\nversion = \"2\"\n", "b", 1, DEP_UNDECIDED },
	{ "dependencies = [{ name = \"a\", extra = [\"fast\"] }, { name = \"a\", extra = [\"fast\"] }]\n"
	  "[[package]]\nname = \"a\"\nversion = \"1\"\n"
	  "[package.optional-dependencies]\nfast = [{ name = \"c\" }]\n"
	  "[[package]]\nname = \"c\"\nversion = \"3\"\n", "c", 1, 0 },
	{ "dependencies = [{ name = \"a\" }]\n"
	  "[[package]]\nname = \"a\"\nversion = \"1\"\n"
	  "[package.optional-dependencies]\nfast = [{ name = \"c\" }]\n"
	  "[[package]]\nname = \"c\"\nversion = \"3\"\n", "c", 0, 0 },
	{ "dependencies = [{ name = \"a\", marker = \"sys_platform == 'win32'\" }]\n"
	  "[[package]]\nname = \"a\"\nversion = \"1\"\n", "a", 0, 0 },
};

static void uv_graph(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(uv_graph_rows); i++) {
		struct buf b = BUF_INIT;
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		const struct dep *d;

		buf_puts(&b, uv_head);
		buf_puts(&b, uv_graph_rows[i].body);
		CHECK(deps_uv_parse(b.s, b.len, &py312, NULL, &s, NULL, &e) == 0, "uv row %zu: %s", i, e.msg);
		d = dep_set_get(&s, uv_graph_rows[i].key);
		CHECK_INT(d != NULL, uv_graph_rows[i].present, "uv row %zu: %s present", i,
			  uv_graph_rows[i].key);
		if (d && uv_graph_rows[i].present)
			CHECK_INT((int)d->flags, (int)uv_graph_rows[i].flags, "uv row %zu: flags", i);
		dep_set_release(&s);
		buf_release(&b);
	}
}

/* Bytes that are not a lockfile: an error or a result, never a crash. */
/* deps_uv_parse's word on a lock for a pyproject.toml, both as text,
 * into why (the caller's to release); label and i name the row. */
static void uv_sync_why(const char *label, size_t i, const char *pyproject, const char *lock,
			struct buf *why)
{
	struct toml_value *py = NULL;
	struct dep_set s = DEP_SET_INIT;
	struct parse_error e;

	CHECK(toml_parse(pyproject, strlen(pyproject), NULL, &py, &e) == 0,
	      "%s %zu: pyproject parses: %s", label, i, e.msg);
	CHECK(deps_uv_parse(lock, strlen(lock), &py312, py, &s, why, &e) == 0,
	      "%s %zu: the lock parses: %s", label, i, e.msg);
	dep_set_release(&s);
	toml_free(py);
}

/* pyproject.toml's [project] against uv.lock: what uv sync --locked
 * refuses (uv-resolver lock/mod.rs Lock::satisfies: MissingRoot,
 * satisfies_requires_dist), by names.  The locks are in the shape uv
 * writes ([package.metadata] requires-dist, requires-dev), as uv's own
 * tests show them. */
static void uv_sync_rows(void)
{
	static const char lock_head[] =
		"version = 1\nrequires-python = \">=3.8\"\n\n"
		"[[package]]\nname = \"app\"\nversion = \"0.1.0\"\nsource = { editable = \".\" }\n"
		"dependencies = [{ name = \"rich\" }]\n\n";
	static const struct {
		const char *pyproject, *meta, *why;
	} rows[] = {
		/* in sync */
		{ "[project]\nname = \"app\"\ndependencies = [\"rich>=13\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\", specifier = \">=13\" }]\n",
		  NULL },
		/* a specifier changed: not judged (names only) */
		{ "[project]\nname = \"app\"\ndependencies = [\"Rich >= 14 ; python_version > '3'\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\", specifier = \">=13\" }]\n",
		  NULL },
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\", \"httpx\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n",
		  "httpx is in pyproject.toml's dependencies, not in the lock's" },
		{ "[project]\nname = \"app\"\ndependencies = []\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n",
		  "rich is in the lock's dependencies, no longer in pyproject.toml's" },
		/* no metadata at all: nothing locked */
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n", "",
		  "rich is in pyproject.toml's dependencies" },
		/* an extra's, and the project's own extra left out */
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\", \"app[x]\"]\n"
		  "[project.optional-dependencies]\nx = [\"Typing_Extensions\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }, { name = \"typing-extensions\","
		  " marker = \"extra == 'x'\" }]\n", NULL },
		/* dynamic: uv builds it to know */
		{ "[project]\nname = \"app\"\ndynamic = [\"dependencies\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n", NULL },
		/* groups: [dependency-groups] with include-group, and
		 * tool.uv.dev-dependencies as dev */
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n[dependency-groups]\n"
		  "test = [\"pytest\"]\nlint = [{include-group = \"test\"}, \"ruff\"]\n"
		  "[tool.uv]\ndev-dependencies = [\"ipython\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n\n"
		  "[package.metadata.requires-dev]\ndev = [{ name = \"ipython\" }]\n"
		  "lint = [{ name = \"pytest\" }, { name = \"ruff\" }]\ntest = [{ name = \"pytest\" }]\n",
		  NULL },
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n[dependency-groups]\n"
		  "test = [\"pytest\", \"hypothesis\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n\n"
		  "[package.metadata.requires-dev]\ntest = [{ name = \"pytest\" }]\n",
		  "hypothesis is in pyproject.toml's group test, not in the lock's" },
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n\n"
		  "[package.metadata.requires-dev]\ndev = [{ name = \"pytest\" }]\n",
		  "pytest is in the lock's group dev" },
		/* an empty group on one side only: not a difference */
		{ "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n[dependency-groups]\ndev = []\n",
		  "[package.metadata]\nrequires-dist = [{ name = \"rich\" }]\n", NULL },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct buf lock = BUF_INIT, why = BUF_INIT;

		buf_printf(&lock, "%s%s\n[[package]]\nname = \"rich\"\nversion = \"13.0\"\n"
			   "source = { registry = \"https://pypi.org/simple\" }\n", lock_head,
			   rows[i].meta);
		uv_sync_why("row", i, rows[i].pyproject, buf_str(&lock), &why);
		CHECK(rows[i].why ? strstr(buf_str(&why), rows[i].why) != NULL : why.len == 0,
		      "row %zu: \"%s\", want \"%s\"", i, buf_str(&why), rows[i].why ? rows[i].why : "");
		buf_release(&lock);
		buf_release(&why);
	}
	/* what uv does not compare, or compares otherwise (each read in uv's
	 * source: the review of this check) */
	{
		static const struct {
			const char *pyproject, *lock, *why;
		} more[] = {
			/* include-group's target normalised (GroupName) */
			{ "[project]\nname = \"app\"\n[dependency-groups]\nTest_Suite = [\"pytest\"]\n"
			  "lint = [{include-group = \"test-suite\"}, \"ruff\"]\n",
			  "[package.metadata.requires-dev]\nlint = [{ name = \"pytest\" }, { name = \"ruff\" }]\n"
			  "test-suite = [{ name = \"pytest\" }]\n", NULL },
			/* poetry's tables beside a [project] without dependencies:
			 * uv builds the package to learn them */
			{ "[project]\nname = \"app\"\nversion = \"0.1.0\"\n[tool.poetry.dependencies]\n"
			  "requests = \"^2.31\"\n",
			  "[package.metadata]\nrequires-dist = [{ name = \"requests\" }]\n", NULL },
			/* unmanaged: uv never reads the lock */
			{ "[project]\nname = \"app\"\ndependencies = [\"httpx\"]\n[tool.uv]\nmanaged = false\n",
			  "", NULL },
			/* uv 0.4.27's name for requires-dev */
			{ "[project]\nname = \"app\"\n[dependency-groups]\ndev = [\"pytest\"]\n",
			  "[package.metadata.dependency-groups]\ndev = [{ name = \"pytest\" }]\n", NULL },
			/* the project renamed: no package of its name */
			{ "[project]\nname = \"api\"\n", "", "the lock has no package for the project api" },
			/* dynamic, but the package must be there still */
			{ "[project]\nname = \"api\"\ndynamic = [\"dependencies\"]\n", "",
			  "the lock has no package for the project api" },
		};
		size_t k;

		for (k = 0; k < ARRAY_SIZE(more); k++) {
			struct buf lock = BUF_INIT, why = BUF_INIT;

			buf_printf(&lock, "version = 1\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n"
				   "source = { editable = \".\" }\n\n%s", more[k].lock);
			uv_sync_why("more", k, more[k].pyproject, buf_str(&lock), &why);
			CHECK(more[k].why ? !strcmp(buf_str(&why), more[k].why) : why.len == 0,
			      "more %zu: \"%s\"", k, buf_str(&why));
			buf_release(&lock);
			buf_release(&why);
		}
	}
	/* a lock of revision 4 without metadata (uv's lock-without-metadata
	 * preview), and a root uv 0.8 locks as a directory (editable = false) */
	{
		static const char *const locks[] = {
			"version = 1\nrevision = 4\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n"
			"source = { virtual = \".\" }\ndependencies = [{ name = \"rich\" }]\n",
			"version = 1\nrevision = 3\n\n[[package]]\nname = \"app\"\nversion = \"0.1.0\"\n"
			"source = { directory = \".\" }\n\n[package.metadata]\n"
			"requires-dist = [{ name = \"rich\" }]\n",
		};
		static const char py_text[] = "[project]\nname = \"app\"\ndependencies = [\"rich\"]\n";
		size_t k;

		for (k = 0; k < ARRAY_SIZE(locks); k++) {
			struct buf why = BUF_INIT;

			uv_sync_why("lock", k, py_text, locks[k], &why);
			CHECK(why.len == 0, "lock %zu: \"%s\"", k, buf_str(&why));
			buf_release(&why);
		}
	}
	/* the lock has no package for the project (textual's header-only lock) */
	{
		struct buf why = BUF_INIT;

		uv_sync_why("header only", 0, "[project]\nname = \"App\"\ndependencies = [\"rich\"]\n",
			    "version = 1\nrevision = 3\n", &why);
		CHECK(!strcmp(buf_str(&why), "the lock has no package for the project app"),
		      "header only: \"%s\"", buf_str(&why));
		buf_release(&why);
	}
}

static void garbage(void)
{
	static const char *const rows[] = {
		"", "{", "[]", "\xff\xfe", "a: [", "packages:\n  - a\n  - b\n", "- x\n",
		"snapshots:\n  &a x: *a\n", "{\"packages\": {\"\": 1, \"x\": []}}",
		"[[package]]\nname = 1\n", "[package]\nname = \"x\"\n",
		"lockfileVersion: 9\nsnapshots: 3\n", "\"a@npm:1\":\n  resolution: [1]\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *r = rows[i];
		size_t n = strlen(r);
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		struct pip_parse pp = { NULL, NULL, 0, 0, "", 0 };
		char *by = NULL;
		int v;

		deps_npm_parse(r, n, &s, &v, &e);
		dep_set_release(&s);
		deps_pnpm_parse(r, n, &s, &e);
		dep_set_release(&s);
		deps_pnpm_modules(r, n, &s, &by, &e);
		free(by);
		dep_set_release(&s);
		deps_yarn_parse(r, n, 0, &s, &e);
		dep_set_release(&s);
		deps_yarn_parse(r, n, 1, &s, &e);
		dep_set_release(&s);
		deps_uv_parse(r, n, &py312, NULL, &s, NULL, &e);
		dep_set_release(&s);
		deps_poetry_parse(r, n, &py312, NULL, &s, NULL, &e);
		dep_set_release(&s);
		pp.env = &py312;
		deps_pip_parse(r, n, &pp, &s, &e);
		dep_set_release(&s);
		CHECK(1, "row %zu", i);
	}
}

/* pnpm's and yarn's YAML failing at the end of a file without a final
 * newline: the error names a line of the file (libyaml's mark moved one
 * past the last; fuzz_pnpmlock, fuzz_yarnlock). */
static void yaml_error_lines(void)
{
	static const struct {
		const char *text;
		int which;	/* 0 pnpm-lock.yaml, 1 .modules.yaml, 2 yarn.lock */
		unsigned line;
	} rows[] = {
		{ "lockfileVersion: '9.0'\nsnapshots:\n  a@1: {}\nb c", 0, 4 },
		{ "packageManager: pnpm@9.12.0\nskipped:\n  - a\nskipped:-  - b", 1, 4 },
		{ "__metadata:\n  version: 8\n\n\"a@npm:1\":\n  version: 1.0.0\n  con", 2, 6 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *r = rows[i].text;
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		char *by = NULL;
		int rc;

		if (rows[i].which == 0)
			rc = deps_pnpm_parse(r, strlen(r), &s, &e);
		else if (rows[i].which == 1)
			rc = deps_pnpm_modules(r, strlen(r), &s, &by, &e);
		else
			rc = deps_yarn_parse(r, strlen(r), 0, &s, &e);
		CHECK(rc < 0 && e.line == rows[i].line, "row %zu: line %u, want %u (%s)", i,
		      e.line, rows[i].line, e.msg);
		free(by);
		dep_set_release(&s);
	}
}

void test_main(void)
{
	yaml_error_lines();
	markers();
	names_and_metadata();
	requirements();
	node_lockfiles();
	python_lockfiles();
	uv_graph();
	uv_sync_rows();
	poetry_hash_rows();
	garbage();
}
