/* test_runtimes.c - the runtimes and tools probes through their public
 * face (spec_load_any, the probe descriptors, runner_run):
 *
 *   - the version-file loaders, one row a file content, every error path;
 *   - the id and title scheme when several sources speak for one runtime;
 *   - the evaluation table: kind x required x found -> status, with the
 *     version printed by a fake command (/bin/echo or a script);
 *   - output that is empty, junk, a failure or a hang: an error, never a
 *     pass; one exec for many requirements (run_once);
 *   - binaries inside the repository are never run;
 *   - hints fit for the version manager in use;
 *   - the docker daemon on a real unix socket served by a thread;
 *   - the tools probe.
 */
#include "test.h"
#include "saferead.h"
#include "probe.h"
#include "runner.h"
#include "runtimes.h"
#include "spawnrun.h"
#include "spec.h"
#include "util.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* ---- helpers ---- */


/* The source the loader of file would give a requirement (the rows name
 * a file; the model wants the typed source). */
static enum req_source src_for(const char *file, enum req_kind kind,
			       const char *name, const char *spec)
{
	static const struct { const char *file; enum req_source src; } files[] = {
		{ ".nvmrc", SRC_NVMRC }, { ".node-version", SRC_NODE_VERSION },
		{ ".python-version", SRC_PYTHON_VERSION },
		{ "pyproject.toml", SRC_PYPROJECT }, { "setup.cfg", SRC_SETUP_CFG },
		{ ".tool-versions", SRC_TOOL_VERSIONS },
	};
	size_t i, n = strlen(name);

	if (!file)
		return SRC_PREFLIGHT;
	if (!strcmp(file, "package.json")) {
		if (kind == REQ_SEMVER)
			return SRC_ENGINES;
		return !strncmp(spec, name, n) && (spec[n] == '@' || !spec[n]) ?
		       SRC_PACKAGE_MANAGER : SRC_VOLTA;
	}
	if (!strcmp(file, "go.mod"))
		return !strncmp(spec, "go", 2) ? SRC_GO_TOOLCHAIN : SRC_GO_MOD;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(file, files[i].file))
			return files[i].src;
	return SRC_PREFLIGHT;
}

static char *tmpdir(const char *name)
{
	return xstrdup(test_tmpdir(name));
}

static void write_exec(const char *dir, const char *name, const char *script)
{
	char *p = path_join(dir, name);

	test_write_str(dir, name, script);
	chmod(p, 0755);
	free(p);
}

/* Run every check probe p plans for spec; *n results, caller releases. */
static struct result *run_probe(const struct spec *spec, const struct probe *p,
				size_t *n, double budget_ms)
{
	struct plan plan = { NULL, 0, 0 };
	struct result *res;

	p->plan(spec, &plan);
	res = xcalloc(plan.n + 1, sizeof(*res));
	if (runner_run(spec, &plan, clock_ms() + budget_ms, 0, res)) {
		/* cut off: end its child, then wait for its worker, which
		 * still reads spec and plan */
		spawn_kill_all(clock_ms() + 1000, NULL);
		runner_drain();
	}
	*n = plan.n;
	plan_release(&plan);
	return res;
}

static void results_free(struct result *res, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		result_release(&res[i]);
	free(res);
}

static const char *data_str(const struct result *r, const char *key)
{
	const cJSON *v = r->data ? cJSON_GetObjectItemCaseSensitive(r->data, key) : NULL;

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int has(const char *s, const char *part)
{
	return s && part && strstr(s, part) != NULL;
}

/* A clean environment for hints and lookups: no version manager. */
static void no_managers(const char *home)
{
	static const char *const vars[] = {
		"NVM_DIR", "VOLTA_HOME", "ASDF_DIR", "ASDF_DATA_DIR", "MISE_DATA_DIR",
		"MISE_SHELL", "PYENV_ROOT", "DOCKER_HOST",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vars); i++)
		unsetenv(vars[i]);
	setenv("HOME", home, 1);
}

/* ---- the loaders ---- */

struct load_row {
	const char *file;
	const char *text;
	size_t len;		/* 0: strlen(text) */
	const char *err;	/* a part of the error; NULL: loads */
	size_t nreq;		/* requirements it adds */
	const char *name, *spec;	/* of the first */
	enum req_kind kind;
	unsigned line, col;
	const char *problem;	/* a part of the first's problem, or NULL */
};

static void test_loaders(void)
{
	static const struct load_row rows[] = {
		/* .nvmrc: nvm's cleanup; what nvm rejects is a failed check, only
		 * a file that is not text exits 2 */
		{ ".nvmrc", "20\n", 0, NULL, 1, "node", "20", REQ_NVMRC, 1, 1 },
		{ ".nvmrc", "# pin\n\n  lts/iron  # for the CI\n", 0, NULL, 1, "node",
		  "lts/iron", REQ_NVMRC, 3, 3 },
		{ ".nvmrc", "lts/*\r\n", 0, NULL, 1, "node", "lts/*", REQ_NVMRC, 1, 1 },
		{ ".nvmrc", "20\nfoo=bar\n", 0, NULL, 1, "node", "20", REQ_NVMRC, 1, 1 },
		{ ".nvmrc", "lts/foo\n", 0, NULL, 1, "node", "lts/foo", REQ_NVMRC, 1, 1 },
		{ ".nvmrc", "a=1\n ^20\n", 0, NULL, 1, "node", "^20", REQ_NVMRC, 2, 2 },
		{ ".nvmrc", "\"20\"\n", 0, NULL, 1, "node", "\"20\"", REQ_NVMRC, 1, 1 },
		{ ".nvmrc", "20\n22\n", 0, NULL, 1, "node", "22", REQ_ANY, 2, 1,
		  "second version line" },
		{ ".nvmrc", "# only a comment\n", 0, NULL, 1, "node", "", REQ_ANY, 0, 0,
		  "no version line" },
		{ ".nvmrc", "", 0, NULL, 1, "node", "", REQ_ANY, 0, 0, "no version line" },
		{ ".nvmrc", "a=1\na=2\n20\n", 0, NULL, 1, "node", "a=2", REQ_ANY, 2, 1,
		  "duplicate key 'a'" },
		{ ".nvmrc", "node=20\n", 0, NULL, 1, "node", "node=20", REQ_ANY, 1, 1,
		  "'node' cannot be a key" },
		/* issue 7: a range is a failed check with the reason, not exit 2 */
		{ ".nvmrc", ">=18.16.0\n", 0, NULL, 1, "node", ">=18.16.0", REQ_ANY, 1, 1,
		  "'>=18.16.0' holds '=', which nvm reads as a key=value line" },
		{ ".nvmrc", "2\0000\n", 3, ".nvmrc:1:2: ", 0 },
		{ ".nvmrc", "\xff\n", 0, ".nvmrc:1:1: ", 0 },
		{ ".node-version", "v20.11.1\n", 0, NULL, 1, "node", "v20.11.1", REQ_NVMRC, 1, 1 },
		{ ".node-version", "20\n21\n", 0, NULL, 1, "node", "21", REQ_ANY, 2, 1,
		  "second version line" },
		/* .python-version: the first name pyenv uses */
		{ ".python-version", "3.11\n", 0, NULL, 1, "python", "3.11", REQ_PYENV, 1, 1 },
		{ ".python-version", "# c\n../x\n3.12.1 3.11\n", 0, NULL, 1, "python",
		  "3.12.1", REQ_PYENV, 3, 1 },
		{ ".python-version", "pypy3.10-7.3.12\n", 0, NULL, 1, "python",
		  "pypy3.10-7.3.12", REQ_PYENV, 1, 1 },
		{ ".python-version", "", 0, NULL, 0 },
		{ ".python-version", "3.11\0", 5, ".python-version:1:5: ", 0 },
		/* pyproject.toml: [project] requires-python only */
		{ "pyproject.toml", "[project]\nname = \"x\"\nrequires-python = \">=3.10\"\n",
		  0, NULL, 1, "python", ">=3.10", REQ_PEP440, 3, 1 },
		{ "pyproject.toml", "[ project ]\n  requires-python='>=3.9' # c\n", 0, NULL,
		  1, "python", ">=3.9", REQ_PEP440, 2, 3 },
		{ "pyproject.toml", "[project]\n\"requires-python\" = \"~=3.11\"\n", 0, NULL,
		  1, "python", "~=3.11", REQ_PEP440, 2, 1 },
		{ "pyproject.toml", "[project]\ndependencies = [\n  \"a\",\n  [\"b\"],\n"
		  "]\ndescription = \"\"\"\n[tool.x]\n\"\"\"\nrequires-python = \">=3.8\"\n",
		  0, NULL, 1, "python", ">=3.8", REQ_PEP440, 9, 1 },
		{ "pyproject.toml", "[tool.poetry]\nrequires-python = \">=3.8\"\n", 0, NULL, 0 },
		{ "pyproject.toml", "[project.urls]\nrequires-python = \">=3.8\"\n", 0, NULL, 0 },
		{ "pyproject.toml", "[project]\nname = \"x\"\n[tool.x]\nrequires-python = \"3\"\n",
		  0, NULL, 0 },
		{ "pyproject.toml", "[[project]]\nrequires-python = \"3\"\n", 0, NULL, 0 },
		/* pip refuses a number: a failed check; not TOML: exit 2 */
		{ "pyproject.toml", "[project]\nrequires-python = 3.10\n", 0, NULL, 1,
		  "python", "requires-python = 3.10", REQ_ANY, 2, 19,
		  "'requires-python' expects a string" },
		{ "pyproject.toml", "[project]\nrequires-python = >=3.10\n", 0,
		  "pyproject.toml:2:19: invalid value '>=3.10' (a string must be quoted: \">=3.10\")", 0 },
		{ "pyproject.toml", "[project]\nrequires-python = \">=3.10\n", 0,
		  "pyproject.toml:2:19: unterminated string", 0 },
		/* the whole of TOML 1.0 (toml.c): multi-line, escaped, dotted,
		 * inline; a file that is not TOML anywhere is refused */
		{ "pyproject.toml", "[project]\nrequires-python = \"\"\">=3.10\"\"\"\n", 0,
		  NULL, 1, "python", ">=3.10", REQ_PEP440, 2, 1 },
		{ "pyproject.toml", "[project]\nrequires-python = \">=3.1\\u0030\"\n", 0,
		  NULL, 1, "python", ">=3.10", REQ_PEP440, 2, 1 },
		{ "pyproject.toml", "name = 'x'\nproject.requires-python = '>=3.9'\n", 0,
		  NULL, 1, "python", ">=3.9", REQ_PEP440, 2, 1 },
		{ "pyproject.toml", "project = { name = 'x', requires-python = '>=3.8' }\n", 0,
		  NULL, 1, "python", ">=3.8", REQ_PEP440, 1, 25 },
		{ "pyproject.toml", "[tool.x]\na = [1,\n[project]\nrequires-python = '3'\n", 0,
		  "pyproject.toml:3:2: ", 0 },
		{ "pyproject.toml", "[project]\nrequires-python = \">=3\" x\n", 0,
		  "pyproject.toml:2:25: expected the end of the line", 0 },
		{ "pyproject.toml", "[project]\nrequires-python = \"3\"\nrequires-python = \"4\"\n",
		  0, "pyproject.toml:3:1: duplicate key 'requires-python'", 0 },
		/* setup.cfg: [options] python_requires, through libinih */
		{ "setup.cfg", "[metadata]\nname = x\n[options]\npython_requires = >=3.8\n",
		  0, NULL, 1, "python", ">=3.8", REQ_PEP440, 4, 1 },
		{ "setup.cfg", "[options]\npython_requires =\n    >=3.8,\n    <4\n", 0, NULL,
		  1, "python", ">=3.8, <4", REQ_PEP440, 2, 1 },
		{ "setup.cfg", "[metadata]\nlong_description = "
		  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		  "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		  "\nnot ini at all\n[options]\nPython_Requires: >=3.9 ; why\n", 0, NULL, 1,
		  "python", ">=3.9", REQ_PEP440, 5, 1 },
		{ "setup.cfg", "[metadata]\npython_requires = >=3.8\n", 0, NULL, 0 },
		{ "setup.cfg", "[options]\npython_requires =\n", 0, NULL, 0 },
		{ "setup.cfg", "[options]\nzip_safe = False\njunk line\n", 0,
		  "setup.cfg:3:1: malformed INI in [options]", 0 },
		{ "setup.cfg", "[options]\npython_requires = 3\npython_requires = 4\n", 0,
		  "setup.cfg:3:1: duplicate key 'python_requires' in [options] (first at line 2)", 0 },
		/* .tool-versions: known plugins map to runtimes */
		{ ".tool-versions", "nodejs 20.11.1\npython 3.11.7 3.10.0\n", 0, NULL, 2,
		  "node", "20.11.1", REQ_ASDF, 1, 8 },
		{ ".tool-versions", "# tools\ngolang 1.22.3 # pin\n", 0, NULL, 1, "go",
		  "1.22.3", REQ_ASDF, 2, 8 },
		{ ".tool-versions", "nodejs system\n", 0, NULL, 1, "node", "system", REQ_ANY, 1, 8 },
		{ ".tool-versions", "nodejs lts\n", 0, NULL, 1, "node", "lts", REQ_ANY, 1, 8 },
		{ ".tool-versions", "core:node 20\n", 0, NULL, 1, "node", "20", REQ_ASDF, 1, 11 },
		{ ".tool-versions", "erlang 26.2\n", 0, NULL, 1, "erlang", "26.2", REQ_ASDF, 1, 8 },
		{ ".tool-versions", "ubi:owner/repo 1.0\n", 0, NULL, 0 },
		{ ".tool-versions", "nodejs\n", 0, NULL, 1, "node", "", REQ_ANY, 1, 1,
		  "'nodejs' has no version" },
		{ ".tool-versions", "python 3.12\nnodejs\ngolang\n", 0, NULL, 3, "node", "",
		  REQ_ANY, 2, 1, "'nodejs' has no version" },
		{ ".tool-versions", "nodejs 20\0\n", 10, ".tool-versions:1:10: ", 0 },
		/* go.mod: go is a minimum, toolchain kept with its "go" */
		{ "go.mod", "module x\n\ngo 1.22\ntoolchain go1.22.3\n", 0, NULL, 2, "go",
		  "1.22", REQ_GO_MIN, 3, 4 },
		{ "go.mod", "module x\ntoolchain default\ngo 1.21\n", 0, NULL, 1, "go",
		  "1.21", REQ_GO_MIN, 3, 4 },
		{ "go.mod", "module x\n", 0, NULL, 0 },
		{ "go.mod", "go 1.22\ngo 1.23\n", 0, NULL, 1, "go", "go 1.23", REQ_ANY, 2, 1,
		  "repeated go statement (first on line 1)" },
		{ "go.mod", "go banana\n", 0, NULL, 1, "go", "go banana", REQ_ANY, 1, 4,
		  "invalid go version 'banana'" },
		/* .ruby-version: rbenv's first word of the first 1024 bytes,
		 * "ruby-" dropped; ".." or a '/' refused */
		{ ".ruby-version", "3.3.0\n", 0, NULL, 1, "ruby", "3.3.0", REQ_ASDF, 1, 1 },
		{ ".ruby-version", "\n  ruby-3.2.2 extra\n", 0, NULL, 1, "ruby", "3.2.2",
		  REQ_ASDF, 2, 3 },
		{ ".ruby-version", "system\n", 0, NULL, 1, "ruby", "system", REQ_ANY, 1, 1 },
		{ ".ruby-version", "\n\n", 0, NULL, 0 },
		{ ".ruby-version", "jruby-9.4.5.0\n", 0, NULL, 1, "ruby", "jruby-9.4.5.0",
		  REQ_ANY, 1, 1, "names another Ruby than CRuby" },
		{ ".bun-version", "^1.1.0\n", 0, NULL, 1, "bun", "^1.1.0", REQ_SEMVER, 1, 1 },
		{ "mise.toml", "[tools]\nnode = { version = \"24\", os = [\"macos\"] }\n", 0, NULL, 0 },
		{ ".ruby-version", "../x\n", 0, NULL, 1, "ruby", "../x", REQ_ANY, 1, 1,
		  "rbenv refuses it" },
		/* rust-toolchain: one line is the channel; TOML otherwise */
		{ "rust-toolchain", "1.75.0\n", 0, NULL, 1, "rust", "1.75.0", REQ_ASDF, 1, 1 },
		{ "rust-toolchain", "  stable  \n", 0, NULL, 1, "rust", "stable", REQ_ANY, 1, 3 },
		{ "rust-toolchain", "nightly-2024-01-01\n", 0, NULL, 1, "rust",
		  "nightly-2024-01-01", REQ_ANY, 1, 1 },
		{ "rust-toolchain", "1.75-x86_64-unknown-linux-gnu\n", 0, NULL, 1, "rust",
		  "1.75", REQ_ASDF, 1, 1 },
		{ "rust-toolchain", "[toolchain]\nchannel = \"1.80.1\"\n", 0, NULL, 1, "rust",
		  "1.80.1", REQ_ASDF, 2, 11 },
		{ "rust-toolchain", "\n", 0, NULL, 1, "rust", "", REQ_ANY, 1, 1,
		  "the toolchain file is empty" },
		{ "rust-toolchain.toml", "[toolchain]\nchannel = \"1.75\"\n", 0, NULL, 1,
		  "rust", "1.75", REQ_ASDF, 2, 11 },
		{ "rust-toolchain.toml", "[toolchain]\npath = \"/opt/rust\"\n", 0, NULL, 1,
		  "rust", "path", REQ_ANY, 2, 8 },
		{ "rust-toolchain.toml", "1.75.0\n", 0, NULL, 1, "rust", "1.75.0", REQ_ANY,
		  1, 7, "rustup cannot parse it as TOML" },
		{ "rust-toolchain.toml", "[toolchain]\nprofile = \"minimal\"\n", 0, NULL, 1,
		  "rust", "", REQ_ANY, 1, 1, "no [toolchain] channel, path" },
		{ "rust-toolchain.toml", "[toolchain]\ncomponents = [\"clippy\"]\n", 0, NULL, 1,
		  "rust", "", REQ_ANY, 1, 1 },
		/* mise's [tools]: a string, an array's first, a table's version */
		{ "mise.toml", "[tools]\ngo = \"1.25\"\n", 0, NULL, 1, "go", "1.25", REQ_ASDF, 2, 6 },
		{ "mise.toml", "[tools]\nnode = [\"22\", \"20\"]\n", 0, NULL, 1, "node", "22",
		  REQ_ASDF, 2, 9 },
		{ "mise.toml", "[tools]\npython = { version = \"3.12\", virtualenv = \".venv\" }\n",
		  0, NULL, 1, "python", "3.12", REQ_ASDF, 2, 22 },
		{ "mise.toml", "[tools]\n\"core:node\" = \"prefix:20\"\n", 0, NULL, 1, "node",
		  "20", REQ_ASDF, 2, 15 },
		{ "mise.toml", "[tools]\nnode = \"lts\"\n", 0, NULL, 1, "node", "lts", REQ_ANY, 2, 8 },
		{ "mise.toml", "[tools]\n\"npm:prettier\" = \"3\"\n", 0, NULL, 0 },
		{ "mise.toml", "[env]\nA = \"1\"\n", 0, NULL, 0 },
		{ "mise.toml", "[tools]\ngo = \n", 0, "mise.toml:2:", 0 },
		{ ".mise.toml", "[tools]\nbun = \"1.1\"\n", 0, NULL, 1, "bun", "1.1", REQ_ASDF, 2, 7 },
		/* pyproject.toml's poetry python: a string or a table's version */
		{ "pyproject.toml", "[tool.poetry]\nname = \"m\"\n[tool.poetry.dependencies]\n"
		  "python = \"^3.10\"\n", 0, NULL, 1, "python", "^3.10", REQ_POETRY, 4, 10 },
		{ "pyproject.toml", "[tool.poetry.dependencies]\npython = { version = \">=3.9\" }\n",
		  0, NULL, 1, "python", ">=3.9", REQ_POETRY, 2, 22 },
		{ "pyproject.toml", "[tool.poetry.dependencies]\npython = 3\n", 0, NULL, 1,
		  "python", "python = 3", REQ_ANY, 2, 10, "poetry expects python" },
		/* .java-version (jenv: the first word), .sdkmanrc (java=) */
		{ ".java-version", "temurin64-21.0.1\n", 0, NULL, 1, "java", "temurin64-21.0.1",
		  REQ_ASDF, 1, 1 },
		{ ".java-version", "system\n", 0, NULL, 1, "java", "system", REQ_ANY, 1, 1 },
		{ ".sdkmanrc", "# env\nmaven=3.9.5\njava = 21.0.2-tem\n", 0, NULL, 1, "java",
		  "21.0.2", REQ_ASDF, 3, 8 },
		{ ".sdkmanrc", "gradle=8.4\n", 0, NULL, 0 },
		/* mix.exs: project's elixir:, a string or the attribute it names */
		{ "mix.exs", "defmodule A do\n  # elixir: \"~> 9.0\"\n  def project, do: [app: :a, "
		  "elixir: \"~> 1.14\"]\nend\n", 0, NULL, 1, "elixir", "~> 1.14", REQ_ELIXIR, 3, 39 },
		{ "mix.exs", "defmodule A do\n  @elixir_requirement \"~> 1.16\"\n  def project do\n"
		  "    [elixir: @elixir_requirement]\n  end\nend\n", 0, NULL, 1, "elixir", "~> 1.16",
		  REQ_ELIXIR, 2, 24 },
		{ "mix.exs", "defmodule A do\n  def project, do: [elixir: req()]\nend\n", 0, NULL, 0 },
		/* .bun-version: its first line */
		{ ".bun-version", "\n1.1.38\n", 0, NULL, 1, "bun", "1.1.38", REQ_ASDF, 2, 1 },
		{ ".bun-version", "bun-v1.2.0\n", 0, NULL, 1, "bun", "v1.2.0", REQ_ASDF, 1, 5 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct load_row *w = &rows[i];
		char *dir = tmpdir("loaders");
		struct spec spec;
		struct errbuf err;
		int rc;

		test_write(dir, w->file, w->text, w->len ? w->len : strlen(w->text));
		err.msg[0] = '\0';
		rc = spec_load_any(dir, &spec, &err);
		if (w->err) {
			CHECK(rc < 0, "row %zu (%s): must not load", i, w->file);
			CHECK(has(err.msg, w->err), "row %zu: error '%s', want '%s'", i,
			      err.msg, w->err);
			if (rc == 0)
				spec_release(&spec);
			free(dir);
			continue;
		}
		CHECK(rc == 0, "row %zu (%s): %s", i, w->file, err.msg);
		if (rc < 0) {
			free(dir);
			continue;
		}
		CHECK_INT(spec.nruntimes, w->nreq, "row %zu (%s): requirements", i, w->file);
		if (w->nreq && spec.nruntimes) {
			const struct runtime_req *r = &spec.runtimes[0];

			CHECK_STR(r->name, w->name, "row %zu: name", i);
			CHECK_STR(r->spec, w->spec, "row %zu: spec", i);
			CHECK_INT(r->kind, w->kind, "row %zu: kind", i);
			CHECK_STR(r->origin.file, w->file, "row %zu: file", i);
			CHECK_INT(r->origin.line, w->line, "row %zu: line", i);
			CHECK_INT(r->origin.col, w->col, "row %zu: col", i);
			CHECK(w->problem ? r->problem && has(r->problem, w->problem) :
			      !r->problem, "row %zu: problem '%s'", i,
			      r->problem ? r->problem : "(none)");
		}
		spec_release(&spec);
		free(dir);
	}
}

/* A spec file that is a symlink out of the repository is refused. */
static void test_loader_symlink(void)
{
	char *dir = tmpdir("loaders-link");
	char *outside = tmpdir("loaders-outside");
	char *target = path_join(outside, "nvmrc");
	char *link = path_join(dir, ".nvmrc");
	struct spec spec;
	struct errbuf err;

	test_write_str(outside, "nvmrc", "20\n");
	CHECK(symlink(target, link) == 0, "symlink: %s", strerror(errno));
	CHECK(spec_load_any(dir, &spec, &err) < 0, "outside symlink must not load");
	CHECK(has(err.msg, ".nvmrc: symlink resolving outside the repository refused"),
	      "error: %s", err.msg);
	free(target);
	free(link);
	free(outside);
	free(dir);
}

/* ---- ids and titles ---- */

static void test_ids(void)
{
	static const char *const want[][2] = {
		{ "runtime.node.preflight", "Node.js (preflight.yaml)" },
		{ "runtime.python.preflight", "Python (preflight.yaml)" },
		{ "runtime.node.engines", "Node.js (package.json engines)" },
		{ "runtime.pnpm.engines", "pnpm (package.json engines)" },
		{ "runtime.pnpm.packageManager", "pnpm (packageManager)" },
		{ "runtime.node.volta", "Node.js (volta)" },
		{ "runtime.node.nvmrc", "Node.js (.nvmrc)" },
		{ "runtime.node.node-version", "Node.js (.node-version)" },
		{ "runtime.python.python-version", "Python (.python-version)" },
		{ "runtime.python.pyproject", "Python (pyproject.toml)" },
		{ "runtime.python.setup-cfg", "Python (setup.cfg)" },
		{ "runtime.node.tool-versions", "Node.js (.tool-versions)" },
		{ "runtime.node.tool-versions.2", "Node.js (.tool-versions)" },
		{ "runtime.go.tool-versions", "Go (.tool-versions)" },
		{ "runtime.go.go-mod", "Go (go.mod)" },
		{ "runtime.go.toolchain", "Go (go.mod toolchain)" },
		{ "runtime.mytool.preflight", "mytool (preflight.yaml)" },
	};
	char *dir = tmpdir("ids");
	struct plan plan = { NULL, 0, 0 };
	struct spec spec;
	struct errbuf err;
	size_t i;

	test_write_str(dir, "preflight.yaml", "version: 1\nruntimes:\n  node: \">=20\"\n"
		       "  python: \">=3.10\"\n");
	test_write_str(dir, "package.json", "{\"engines\": {\"node\": \">=20\", "
		       "\"pnpm\": \"^9\"}, \"packageManager\": \"pnpm@9.1.0\", "
		       "\"volta\": {\"node\": \"20.11.1\"}}");
	test_write_str(dir, ".nvmrc", "20\n");
	test_write_str(dir, ".node-version", "20\n");
	test_write_str(dir, ".python-version", "3.11\n");
	test_write_str(dir, "pyproject.toml", "[project]\nrequires-python = \">=3.9\"\n");
	test_write_str(dir, "setup.cfg", "[options]\npython_requires = >=3.9\n");
	test_write_str(dir, ".tool-versions", "nodejs 20.11.1\nnode 20\ngolang 1.22.3\n");
	test_write_str(dir, "go.mod", "module x\ngo 1.22\ntoolchain go1.22.3\n");
	CHECK(spec_load(dir, &spec, &err) == 0, "load: %s", err.msg);
	/* mytool only in the model: a name without a table entry */
	spec_add_runtime(&spec, SRC_PREFLIGHT, "mytool", "", REQ_ANY, spec.runtimes[0].origin);
	probe_runtimes.plan(&spec, &plan);
	CHECK_INT(plan.n, ARRAY_SIZE(want), "checks planned");
	for (i = 0; i < plan.n && i < ARRAY_SIZE(want); i++) {
		CHECK_STR(plan.checks[i].id, want[i][0], "id %zu", i);
		CHECK_STR(plan.checks[i].title, want[i][1], "title %zu", i);
		CHECK(plan.checks[i].source.file != NULL, "source of %zu", i);
	}
	plan_release(&plan);
	spec_release(&spec);
	free(dir);
}

/* ---- the evaluation table ---- */

struct eval_row {
	const char *name;
	enum req_kind kind;
	const char *file;	/* origin */
	const char *spec;
	const char *found;	/* what the fake command prints */
	enum status want;
	const char *msg;	/* a part of the message */
};

static const struct eval_row eval_rows[] = {
	/* npm engines: node-semver with includePrerelease */
	{ "node", REQ_SEMVER, "package.json", ">=20 <23", "v22.11.0", STATUS_PASS,
	  "v22.11.0 (satisfies >=20 <23 from package.json)" },
	{ "node", REQ_SEMVER, "package.json", ">=20 <23", "v23.0.0", STATUS_FAIL,
	  "v23.0.0 does not satisfy >=20 <23 from package.json" },
	{ "node", REQ_SEMVER, "package.json", "<23", "v23.0.0-rc.1", STATUS_FAIL, NULL },
	{ "node", REQ_SEMVER, "package.json", ">=18", "v21.0.0-nightly2023", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "^18 || ^20", "v20.1.0", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "^1.2.3 ||", "v0.1.0", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "20.x", "v21.0.0", STATUS_FAIL, NULL },
	{ "node", REQ_SEMVER, "package.json", ">=20 <<23", "v22.0.0", STATUS_FAIL,
	  "invalid range '>=20 <<23' in package.json:1" },
	{ "node", REQ_SEMVER, "package.json", "lts/*", "v22.0.0", STATUS_FAIL,
	  "invalid range" },
	/* a range no version can satisfy is the requirement's fault */
	{ "node", REQ_SEMVER, "package.json", ">=20 <18", "v22.0.0", STATUS_FAIL,
	  "the range '>=20 <18' in package.json:1 can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", ">=20 <18 || >22.0.0 <=22.0.0", "v22.0.0",
	  STATUS_FAIL, "can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", ">=1.0.0 <1.0.0", "v1.0.0", STATUS_FAIL,
	  "can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", "1.2.3 2.0.0", "v1.2.3", STATUS_FAIL,
	  "can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", "=1.2.3 >1.2.3", "v1.2.3", STATUS_FAIL,
	  "can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", "<0.0.0-0", "v0.0.0", STATUS_FAIL,
	  "can never be satisfied" },
	{ "node", REQ_SEMVER, "package.json", "^20 <20", "v20.0.0", STATUS_FAIL,
	  "can never be satisfied" },
	/* ... and only such a range */
	{ "node", REQ_SEMVER, "package.json", ">=1.0.0 <=1.0.0", "v1.0.0", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", ">=20 <18 || 22", "v22.1.0", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "=1.2.3 >=1.2.3", "v1.2.3", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "<0.0.0", "v0.0.0-rc.1", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", ">=20 <20.0.1", "v20.0.0", STATUS_PASS, NULL },
	{ "node", REQ_SEMVER, "package.json", "*", "v1.0.0", STATUS_PASS, NULL },
	{ "go", REQ_SEMVER, "preflight.yaml", ">=1.20", "1.22", STATUS_PASS, NULL },
	{ "java", REQ_SEMVER, "preflight.yaml", ">=17", "21", STATUS_PASS, NULL },
	/* .nvmrc, as nvm reads it */
	{ "node", REQ_NVMRC, ".nvmrc", "20", "v20.11.1", STATUS_PASS,
	  "v20.11.1 (matches v20.x from .nvmrc)" },
	{ "node", REQ_NVMRC, ".nvmrc", "20", "v21.0.0", STATUS_FAIL,
	  "v21.0.0 does not match v20.x from .nvmrc" },
	{ "node", REQ_NVMRC, ".nvmrc", "2", "v20.0.0", STATUS_FAIL, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "20.11", "v20.11.9", STATUS_PASS, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "20.11", "v20.1.0", STATUS_FAIL, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "v20.11.1", "v20.11.1", STATUS_PASS, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/iron", "v20.1.0", STATUS_PASS, "lts/iron" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/iron", "v22.1.0", STATUS_FAIL, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/*", "v21.0.0", STATUS_FAIL, NULL },
	/* "lts/" "*" is the newest LTS line only (nvm), not any LTS line */
	/* on 2026-11-30 (ENVPREFLIGHT_TODAY, set by test_main): lithium */
	{ "node", REQ_NVMRC, ".nvmrc", "lts/*", "v24.11.1", STATUS_FAIL,
	  "v24.11.1 does not match lts/* from .nvmrc: lts/* is v26.x (lithium)" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/*", "v20.20.2", STATUS_FAIL,
	  "lts/* is v26.x (lithium)" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/*", "v26.1.0", STATUS_PASS,
	  "v26.1.0 (matches lts/* = lts/lithium (v26.x) from .nvmrc)" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/-1", "v24.1.0", STATUS_PASS,
	  "v24.1.0 (matches lts/-1 = lts/krypton (v24.x) from .nvmrc)" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/lithium", "v26.1.0", STATUS_PASS, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "node", "v23.1.0", STATUS_PASS, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "system", "v18.0.0", STATUS_PASS, NULL },
	{ "node", REQ_NVMRC, ".nvmrc", "default", "v22.0.0", STATUS_WARN, "nvm alias" },
	{ "node", REQ_NVMRC, ".nvmrc", "lts/foo", "v22.0.0", STATUS_FAIL,
	  "not an LTS codename envpreflight knows" },
	{ "node", REQ_NVMRC, ".nvmrc", "^20", "v20.0.0", STATUS_FAIL, "no range syntax" },
	{ "node", REQ_NVMRC, ".nvmrc", "\"20\"", "v20.0.0", STATUS_FAIL, "quotes" },
	/* PEP 440 */
	{ "python", REQ_PEP440, "pyproject.toml", ">=3.10,<3.13", "3.11.7", STATUS_PASS,
	  "3.11.7 (satisfies >=3.10,<3.13 from pyproject.toml)" },
	{ "python", REQ_PEP440, "pyproject.toml", ">=3.10,<3.13", "3.13.0", STATUS_FAIL,
	  "3.13.0 does not satisfy >=3.10,<3.13 from pyproject.toml" },
	{ "python", REQ_PEP440, "pyproject.toml", "~=3.11", "3.12.1", STATUS_PASS, NULL },
	{ "python", REQ_PEP440, "pyproject.toml", "~=3.11.4", "3.12.1", STATUS_FAIL, NULL },
	{ "python", REQ_PEP440, "pyproject.toml", "==3.11.*", "3.11.0", STATUS_PASS, NULL },
	{ "python", REQ_PEP440, "pyproject.toml", "!=3.11.2", "3.11.2", STATUS_FAIL, NULL },
	{ "python", REQ_PEP440, "pyproject.toml", ">=3.10", "3.13.0rc1", STATUS_PASS, NULL },
	{ "python", REQ_PEP440, "pyproject.toml", "^3.10", "3.11.0", STATUS_FAIL,
	  "invalid specifier '^3.10' in pyproject.toml:1" },
	/* pyenv's prefix rule */
	{ "python", REQ_PYENV, ".python-version", "3.11", "3.11.7", STATUS_PASS,
	  "3.11.7 (matches 3.11 from .python-version)" },
	{ "python", REQ_PYENV, ".python-version", "3.11", "3.12.0", STATUS_FAIL, NULL },
	{ "python", REQ_PYENV, ".python-version", "3.1", "3.11.0", STATUS_FAIL, NULL },
	{ "python", REQ_PYENV, ".python-version", "3.11.7", "3.11.7", STATUS_PASS, NULL },
	{ "python", REQ_PYENV, ".python-version", "system", "3.9.1", STATUS_PASS, NULL },
	{ "python", REQ_PYENV, ".python-version", "pypy3.10-7.3.12", "3.10.1", STATUS_WARN,
	  "not checked" },
	/* packageManager and volta: exact */
	{ "pnpm", REQ_EXACT, "package.json", "pnpm@9.1.0+sha512.abcdef", "9.1.0",
	  STATUS_PASS, "9.1.0 (exactly 9.1.0 from package.json packageManager)" },
	{ "pnpm", REQ_EXACT, "package.json", "pnpm@9.1.0", "8.15.4", STATUS_FAIL,
	  "8.15.4, but package.json packageManager pins exactly 9.1.0" },
	{ "pnpm", REQ_EXACT, "package.json", "pnpm@^9", "9.1.0", STATUS_FAIL,
	  "packageManager 'pnpm@^9'" },
	{ "pnpm", REQ_EXACT, "package.json", "pnpm", "9.1.0", STATUS_FAIL,
	  "expected name@version" },
	{ "node", REQ_EXACT, "package.json", "20.11.1", "v20.11.1", STATUS_PASS, "volta" },
	{ "node", REQ_EXACT, "package.json", "20.11.1", "v20.11.2", STATUS_FAIL, NULL },
	{ "node", REQ_EXACT, "package.json", "20", "v20.0.0", STATUS_FAIL,
	  "invalid version '20' in package.json:1" },
	/* go.mod */
	{ "go", REQ_GO_MIN, "go.mod", "1.22", "1.22.3", STATUS_PASS,
	  "go1.22.3 (at least 1.22 from go.mod)" },
	{ "go", REQ_GO_MIN, "go.mod", "1.22", "1.21.9", STATUS_FAIL,
	  "go1.21.9 is older than 1.22 required by go.mod" },
	{ "go", REQ_GO_MIN, "go.mod", "1.21", "1.21rc1", STATUS_PASS, NULL },
	{ "go", REQ_GO_MIN, "go.mod", "go1.22.3", "1.22.1", STATUS_WARN, "toolchain" },
	{ "go", REQ_GO_MIN, "go.mod", "go1.22.3", "1.23.0", STATUS_PASS, NULL },
	/* .tool-versions */
	{ "node", REQ_ASDF, ".tool-versions", "20.11.1", "v20.11.1", STATUS_PASS, NULL },
	{ "node", REQ_ASDF, ".tool-versions", "20.11.1", "v20.11.10", STATUS_FAIL, NULL },
	{ "node", REQ_ASDF, ".tool-versions", "20", "v20.3.0", STATUS_PASS, NULL },
	{ "node", REQ_ASDF, ".tool-versions", "20", "v2.0.0", STATUS_FAIL, NULL },
	{ "java", REQ_ASDF, ".tool-versions", "temurin-21.0.2+13.0.LTS", "21.0.2",
	  STATUS_PASS, NULL },
	{ "python", REQ_ASDF, ".tool-versions", "3.13.0rc1", "3.13.0rc1", STATUS_PASS, NULL },
	{ "python", REQ_ASDF, ".tool-versions", "3.13.0rc1", "3.13.0rc10", STATUS_FAIL, NULL },
	{ "python", REQ_ASDF, ".tool-versions", "3.13.0rc1", "3.13.0", STATUS_FAIL, NULL },
	{ "python", REQ_ASDF, ".tool-versions", "3.13.0", "3.13.0rc1", STATUS_FAIL, NULL },
	{ "node", REQ_ASDF, ".tool-versions", "banana", "v20.0.0", STATUS_WARN, "not checked" },
	/* asdf-elixir's and mise's builds for an OTP: the Elixir version is
	 * compared (firezone's elixir 1.20.3-otp-29) */
	{ "elixir", REQ_ASDF, ".tool-versions", "1.20.3-otp-29", "1.20.3", STATUS_PASS,
	  "1.20.3 (matches 1.20.3-otp-29 from .tool-versions)" },
	{ "elixir", REQ_ASDF, ".tool-versions", "1.20.4-otp-29", "1.20.3", STATUS_FAIL, NULL },
	{ "elixir", REQ_ASDF, ".tool-versions", "1.20-otp-29", "1.20.3", STATUS_PASS, NULL },
	{ "node", REQ_ASDF, ".tool-versions", "20.1.0-otp-29", "v20.1.0", STATUS_FAIL, NULL },
	/* Mix: Version.match?/2 of a release candidate ("~> 1.18" is
	 * >= 1.18.0, which 1.18.0-rc.1 is not) */
	{ "elixir", REQ_ELIXIR, "mix.exs", "~> 1.18", "1.18.0-rc.1", STATUS_FAIL, NULL },
	/* presence only */
	{ "node", REQ_ANY, "preflight.yaml", "", "v1.0.0", STATUS_PASS, "any version" },
	{ "node", REQ_ANY, ".tool-versions", "system", "v1.0.0", STATUS_PASS, "system" },
	{ "node", REQ_ANY, ".tool-versions", "latest", "v1.0.0", STATUS_PASS,
	  "presence only" },
};

/* One requirement, asked with `/abs/fake --version`, a script that prints
 * FOUND (through preflight.yaml's command and version_regex, so no
 * shortcut or cache takes part). */
static void eval_one(const char *dir, const char *bin, const struct eval_row *w,
		     size_t i)
{
	struct buf name = BUF_INIT, script = BUF_INIT;
	struct origin o;
	struct runtime_req *r;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	size_t n;

	if (spec_load_any(dir, &spec, &err) < 0) {
		CHECK(0, "load: %s", err.msg);
		return;
	}
	buf_printf(&name, "fake%zu", i);
	buf_printf(&script, "#!/bin/sh\n[ \"$1\" = --version ] && echo '%s'\n", w->found);
	write_exec(bin, name.s, script.s);
	o.file = spec_add_file(&spec, w->file);
	o.line = 1;
	o.col = 1;
	r = spec_add_runtime(&spec, src_for(w->file, w->kind, w->name, w->spec),
			     w->name, w->spec, w->kind, o);
	r->command = xcalloc(3, sizeof(*r->command));
	r->command[0] = path_join(bin, name.s);
	r->command[1] = xstrdup("--version");
	buf_release(&name);
	buf_release(&script);
	r->version_regex = xstrdup("^v?([0-9][^ ]*)");
	res = run_probe(&spec, &probe_runtimes, &n, 5000);
	CHECK_INT(n, 1, "row %zu: one check", i);
	if (n == 1) {
		CHECK(res[0].status == w->want, "row %zu (%s %s vs %s): %s, want %s: %s",
		      i, w->name, w->spec, w->found, status_name(res[0].status),
		      status_name(w->want), res[0].message);
		if (w->msg)
			CHECK(has(res[0].message, w->msg), "row %zu: '%s' lacks '%s'", i,
			      res[0].message, w->msg);
		CHECK(res[0].data != NULL, "row %zu: data", i);
		CHECK_STR(data_str(&res[0], "runtime"), w->name, "row %zu: data.runtime", i);
		CHECK_STR(data_str(&res[0], "required"), w->spec, "row %zu: data.required", i);
	}
	results_free(res, n);
	spec_release(&spec);
}

static void test_eval(void)
{
	char *dir = tmpdir("eval");
	char *repo = path_join(dir, "repo");
	char *bin = path_join(dir, "bin");
	size_t i;

	test_write_str(repo, "x", "");
	for (i = 0; i < ARRAY_SIZE(eval_rows); i++)
		eval_one(repo, bin, &eval_rows[i], i);
	free(bin);
	free(repo);
	free(dir);
}

/* ---- what a binary prints ---- */

struct output_row {
	const char *name;	/* runtime, also the script's name */
	const char *script;
	enum status want;
	const char *msg;
	const char *found;	/* data.found, or NULL */
};

static void test_outputs(void)
{
	static const struct output_row rows[] = {
		{ "node", "#!/bin/sh\necho v22.11.0\n", STATUS_PASS, "v22.11.0", "22.11.0" },
		{ "node", "#!/bin/sh\necho 'warning: x' >&2\necho v22.1.0\n", STATUS_PASS,
		  "v22.1.0", "22.1.0" },
		{ "node", "#!/bin/sh\nexit 0\n", STATUS_ERROR, "printed nothing", NULL },
		{ "node", "#!/bin/sh\necho\necho '  '\n", STATUS_ERROR, "printed nothing", NULL },
		{ "node", "#!/bin/sh\nexit 4\n", STATUS_ERROR,
		  "printed nothing and exited with status 4", NULL },
		{ "node", "#!/bin/sh\nprintf 'v22\\000.1.0'\n", STATUS_ERROR,
		  "printed binary output", NULL },
		{ "node", "#!/bin/sh\nprintf '\\377\\033[31mv22.0.0'\n", STATUS_ERROR,
		  "printed binary output", NULL },
		{ "node", "#!/bin/sh\necho 'Segmentation fault' >&2\nexit 139\n", STATUS_ERROR,
		  "exited with status 139: 'Segmentation fault'", NULL },
		{ "node", "#!/bin/sh\necho 'hello world'\n", STATUS_ERROR,
		  "printed no version: 'hello world'", NULL },
		{ "node", "#!/bin/sh\necho 'v22'\n", STATUS_ERROR, "printed no version", NULL },
		{ "node", "#!/bin/sh\nkill -KILL $$\n", STATUS_ERROR, "killed by signal 9", NULL },
		{ "python", "#!/bin/sh\necho 'Python 3.12.1'\n", STATUS_PASS, "3.12.1", "3.12.1" },
		{ "python", "#!/bin/sh\necho 'Python 3.13.0rc1+'\n", STATUS_PASS, "3.13.0rc1",
		  "3.13.0rc1" },
		{ "python", "#!/bin/sh\necho 'Python three'\n", STATUS_ERROR, "no version", NULL },
		/* elixir --version: Erlang's banner, a blank line, then Elixir's;
		 * a release candidate is one (Mix's Version.match? sees it) */
		{ "elixir", "#!/bin/sh\necho 'Erlang/OTP 27 [erts-15.0]'\necho\n"
		  "echo 'Elixir 1.18.0-rc.1 (compiled with Erlang/OTP 27)'\n", STATUS_PASS,
		  "1.18.0-rc.1", "1.18.0-rc.1" },
		/* a shim's warning before the version: the first line that
		 * holds one */
		{ "python", "#!/bin/sh\necho 'pyenv: cannot rehash: 2 shims locked' >&2\n"
		  "echo 'Python 3.12.1'\n", STATUS_PASS, "3.12.1", "3.12.1" },
		{ "python", "#!/bin/sh\necho\necho 'WARNING: python3.11 is deprecated'\n"
		  "echo '  Python 3.11.9  '\n", STATUS_PASS, "3.11.9", "3.11.9" },
		/* past the first line, a bare number is not taken */
		{ "python", "#!/bin/sh\necho 'warning: x'\necho '3.12'\n", STATUS_ERROR,
		  "printed no version: 'warning: x'", NULL },
		{ "python", "#!/bin/sh\necho '3.12.4'\n", STATUS_PASS, "3.12.4", "3.12.4" },
		{ "node", "#!/bin/sh\necho 'npm warn config x 1.2'\necho v22.1.0\n",
		  STATUS_PASS, "v22.1.0", "22.1.0" },
		{ "go", "#!/bin/sh\necho 'go version go1.22.3 linux/amd64'\n", STATUS_PASS,
		  "go1.22.3", "1.22.3" },
		{ "go", "#!/bin/sh\necho 'go version devel go1.23-abc'\n", STATUS_ERROR,
		  "no version", NULL },
		{ "java", "#!/bin/sh\necho 'openjdk version \"21.0.2\" 2024-01-16' >&2\n",
		  STATUS_PASS, "21.0.2", "21.0.2" },
		{ "ruby", "#!/bin/sh\necho 'ruby 3.3.0 (2023-12-25 revision 5124f9ac75) "
		  "[x86_64-linux]'\n", STATUS_PASS, "3.3.0", "3.3.0" },
		{ "unknowntool", "#!/bin/sh\necho \"unknowntool $1 4.5.6-linux\"\n",
		  STATUS_PASS, "4.5.6", "4.5.6" },
	};
	char *home = tmpdir("outputs-home");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	size_t i;

	no_managers(home);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct output_row *w = &rows[i];
		struct buf bin = BUF_INIT, path = BUF_INIT;
		char *dir = tmpdir("outputs");
		char *repo = path_join(dir, "repo");
		struct origin o = { NULL, 1, 1 };
		struct result *res;
		struct spec spec;
		struct errbuf err;
		size_t n;

		/* a bin dir per row: a fresh path for every binary */
		buf_printf(&bin, "%s/bin%zu", dir, i);
		write_exec(bin.s, w->name, w->script);
		if (!strcmp(w->name, "python"))
			write_exec(bin.s, "python3", w->script);
		test_write_str(repo, "x", "");
		buf_printf(&path, "%s:/usr/bin:/bin", bin.s);
		setenv("PATH", path.s, 1);
		if (spec_load_any(repo, &spec, &err) == 0) {
			o.file = spec_add_file(&spec, "preflight.yaml");
			spec_add_runtime(&spec, SRC_PREFLIGHT, w->name, "", REQ_ANY, o);
			res = run_probe(&spec, &probe_runtimes, &n, 5000);
			CHECK(n == 1 && res[0].status == w->want, "row %zu (%s): %s: %s", i,
			      w->name, n ? status_name(res[0].status) : "-",
			      n ? res[0].message : "");
			CHECK(n == 1 && has(res[0].message, w->msg), "row %zu: '%s' lacks '%s'",
			      i, n ? res[0].message : "", w->msg);
			CHECK_STR(n ? data_str(&res[0], "found") : NULL, w->found, "row %zu", i);
			if (w->want == STATUS_PASS)
				CHECK_STR(n ? data_str(&res[0], "method") : NULL, "exec",
					  "row %zu: method", i);
			results_free(res, n);
			spec_release(&spec);
		} else {
			CHECK(0, "load: %s", err.msg);
		}
		buf_release(&bin);
		buf_release(&path);
		free(repo);
		free(dir);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	free(home);
}

/* A runtime that hangs: an error naming it, well inside the deadline, and
 * the check does not pass. */
static void test_hang(void)
{
	char *dir = tmpdir("hang");
	char *bin = path_join(dir, "bin");
	char *repo = path_join(dir, "repo");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct origin o = { NULL, 1, 1 };
	struct buf path = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	double t0;
	size_t n;

	write_exec(bin, "node", "#!/bin/sh\nsleep 30 &\nsleep 30\n");
	test_write_str(repo, "x", "");
	buf_printf(&path, "%s:/usr/bin:/bin", bin);
	setenv("PATH", path.s, 1);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	CHECK(spec_load_any(repo, &spec, &err) == 0, "load: %s", err.msg);
	o.file = spec_add_file(&spec, "package.json");
	spec_add_runtime(&spec, SRC_ENGINES, "node", ">=20", REQ_SEMVER, o);
	t0 = clock_ms();
	res = run_probe(&spec, &probe_runtimes, &n, 400);
	/* a generous bound, there to catch a run held by its child (30 s) */
	CHECK(clock_ms() - t0 < 10000, "took %.0f ms", clock_ms() - t0);
	CHECK(n == 1 && res[0].status == STATUS_ERROR, "hung: %s",
	      n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "node --version' did not answer within"),
	      "message: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "ms and was killed"),
	      "message: %s", n ? res[0].message : "");
	/* the data a consumer reads: what ran, for how long, nothing found */
	CHECK(n == 1 && has(data_str(&res[0], "command"), "node --version"),
	      "command: %s", n ? data_str(&res[0], "command") : "");
	CHECK(n == 1 && cJSON_IsNumber(cJSON_GetObjectItem(res[0].data, "timed_out_ms")),
	      "timed_out_ms");
	CHECK(n == 1 && cJSON_IsNull(cJSON_GetObjectItem(res[0].data, "found")),
	      "found is null");
	CHECK(n == 1 && cJSON_IsNull(cJSON_GetObjectItem(res[0].data, "unreaped")),
	      "reaped");
	results_free(res, n);
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	buf_release(&path);
	free(bin);
	free(repo);
	free(dir);
}

/* The run's deadline cutting a runtime check off must not change what it
 * says: the probe, wrapped so that it outlives the run's deadline once its
 * own query was killed, is reported by what it published before it ran
 * the program, which must equal the result it then made itself. */
static pthread_mutex_t cut_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cut_cv = PTHREAD_COND_INITIALIZER;
static int cut_open, cut_saved;
static struct result cut_final;

static void cut_run(const struct run_ctx *ctx, const struct check *c,
		    struct result *r)
{
	probe_runtimes.run(ctx, c, r);
	pthread_mutex_lock(&cut_lock);
	result_copy(&cut_final, r);
	cut_saved = 1;
	pthread_cond_broadcast(&cut_cv);
	while (!cut_open)
		pthread_cond_wait(&cut_cv, &cut_lock);
	pthread_mutex_unlock(&cut_lock);
}

static const struct probe cut_probe = {
	.name = "runtimes", .summary = "test", .run = cut_run,
};

static void test_hang_cut(void)
{
	char *dir = tmpdir("hang-cut");
	char *bin = path_join(dir, "bin");
	char *repo = path_join(dir, "repo");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct origin o = { NULL, 1, 1 };
	struct plan plan = { NULL, 0, 0 };
	struct buf path = BUF_INIT;
	struct result res[1];
	struct spec spec;
	struct errbuf err;
	size_t abandoned;

	write_exec(bin, "node", "#!/bin/sh\nsleep 30 &\nsleep 30\n");
	test_write_str(repo, "x", "");
	buf_printf(&path, "%s:/usr/bin:/bin", bin);
	setenv("PATH", path.s, 1);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	CHECK(spec_load_any(repo, &spec, &err) == 0, "load: %s", err.msg);
	o.file = spec_add_file(&spec, "package.json");
	spec_add_runtime(&spec, SRC_ENGINES, "node", ">=20", REQ_SEMVER, o);
	probe_runtimes.plan(&spec, &plan);
	CHECK_INT(plan.n, 1, "one check");
	if (plan.n == 1) {
		plan.checks[0].probe = &cut_probe;
		cut_open = cut_saved = 0;
		abandoned = runner_run(&spec, &plan, clock_ms() + 600, 0, res);
		CHECK_INT(abandoned, 1, "cut off by the run's deadline");
		pthread_mutex_lock(&cut_lock);
		while (!cut_saved)	/* its own result, made after all */
			pthread_cond_wait(&cut_cv, &cut_lock);
		pthread_mutex_unlock(&cut_lock);
		CHECK_INT(res[0].status, cut_final.status, "status");
		CHECK_STR(res[0].message, cut_final.message, "message");
		CHECK(has(res[0].message, "node --version' did not answer within"),
		      "names the program: %s", res[0].message);
		CHECK_STR(res[0].hint, cut_final.hint, "hint");
		CHECK_INT(res[0].reason, cut_final.reason, "reason");
		CHECK(cJSON_Compare(res[0].data, cut_final.data, 1), "the same data");
		CHECK(cJSON_IsNumber(cJSON_GetObjectItem(res[0].data, "timed_out_ms")),
		      "timed_out_ms kept");
		CHECK(res[0].duration_ms > 0, "ran %.0f ms", res[0].duration_ms);
		result_release(&res[0]);
		result_release(&cut_final);
		pthread_mutex_lock(&cut_lock);
		cut_open = 1;
		pthread_cond_broadcast(&cut_cv);
		pthread_mutex_unlock(&cut_lock);
		runner_drain();
	}
	plan_release(&plan);
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	buf_release(&path);
	free(bin);
	free(repo);
	free(dir);
}

/* Many requirements of one runtime: one exec (run_once). */
static void test_once(void)
{
	char *dir = tmpdir("once");
	char *bin = path_join(dir, "bin");
	char *repo = path_join(dir, "repo");
	char *count = path_join(dir, "count");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf path = BUF_INIT, script = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	struct blob b = { NULL, 0 };
	size_t n, i;

	buf_printf(&script, "#!/bin/sh\necho run >>'%s'\nsleep 0.05\necho v20.5.0\n", count);
	write_exec(bin, "node", script.s);
	test_write_str(repo, "package.json", "{\"engines\": {\"node\": \">=20\"}, "
		       "\"volta\": {\"node\": \"20.5.0\"}}");
	test_write_str(repo, ".nvmrc", "20\n");
	test_write_str(repo, ".node-version", "v20.5\n");
	test_write_str(repo, ".tool-versions", "nodejs 20.5.0\n");
	test_write_str(repo, "preflight.yaml", "version: 1\nruntimes:\n  node: \"^20\"\n");
	buf_printf(&path, "%s:/usr/bin:/bin", bin);
	setenv("PATH", path.s, 1);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	CHECK(spec_load(repo, &spec, &err) == 0, "load: %s", err.msg);
	res = run_probe(&spec, &probe_runtimes, &n, 5000);
	CHECK_INT(n, 6, "six requirements");
	for (i = 0; i < n; i++)
		CHECK(res[i].status == STATUS_PASS, "%s: %s", res[i].id, res[i].message);
	CHECK(saferead_path(count, 4096, &b) == 0, "count file");
	CHECK_STR(b.data, "run\n", "node ran once");
	blob_release(&b);
	results_free(res, n);
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	buf_release(&path);
	buf_release(&script);
	free(count);
	free(bin);
	free(repo);
	free(dir);
}

/* A node inside the repository is never run, whichever way PATH names
 * it; the message says why nothing was found. */
static void test_repo_binary(void)
{
	char *dir = tmpdir("inside");
	char *repo = path_join(dir, "repo");
	char *marker = path_join(repo, "EXECUTED");
	char *rbin = path_join(repo, "bin");
	char *empty = path_join(dir, "empty");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf path = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	struct stat st;
	size_t n;

	write_exec(rbin, "node", "#!/bin/sh\ntouch \"$(dirname \"$0\")/../EXECUTED\"\n"
		   "echo v22.0.0\n");
	write_exec(rbin, "make", "#!/bin/sh\ntouch \"$(dirname \"$0\")/../EXECUTED\"\n");
	test_write_str(empty, "x", "");
	test_write_str(repo, "package.json", "{\"engines\": {\"node\": \">=20\"}}");
	test_write_str(repo, "preflight.yaml", "version: 1\ntools: [make]\n");
	buf_printf(&path, "%s:bin:./bin::%s", rbin, empty);
	setenv("PATH", path.s, 1);
	CHECK(spec_load(repo, &spec, &err) == 0, "load: %s", err.msg);
	res = run_probe(&spec, &probe_runtimes, &n, 5000);
	CHECK(n == 1 && res[0].status == STATUS_FAIL, "node: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "bin/node' skipped: inside the audited repository"),
	      "message: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "'./bin/node' skipped: relative PATH entry"),
	      "message: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(data_str(&res[0], "skipped_path_entries"), "inside"),
	      "data.skipped_path_entries");
	results_free(res, n);
	res = run_probe(&spec, &probe_tools, &n, 5000);
	CHECK(n == 1 && res[0].status == STATUS_FAIL, "make: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "inside the audited repository"),
	      "tool message: %s", n ? res[0].message : "");
	results_free(res, n);
	CHECK(stat(marker, &st) < 0, "the repository's own binaries never ran");
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	buf_release(&path);
	free(marker);
	free(rbin);
	free(empty);
	free(repo);
	free(dir);
}

/* A .venv/bin/python3 inside the repository comes first on PATH: it is
 * skipped, never run, and the message names the python that answered. */
static void test_venv_skipped(void)
{
	char *dir = tmpdir("venv");
	char *repo = path_join(dir, "repo");
	char *venv = path_join(repo, ".venv/bin");
	char *bin = path_join(dir, "bin");
	char *marker = path_join(repo, "EXECUTED");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf path = BUF_INIT, want = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	struct stat st;
	size_t n;

	write_exec(venv, "python3", "#!/bin/sh\ntouch \"$(dirname \"$0\")/../../EXECUTED\"\n"
		   "echo 'Python 3.9.0'\n");
	write_exec(bin, "python3", "#!/bin/sh\necho 'Python 3.12.1'\n");
	test_write_str(repo, "pyproject.toml", "[project]\nrequires-python = \">=3.10\"\n");
	buf_printf(&path, "%s:%s:/usr/bin:/bin", venv, bin);
	setenv("PATH", path.s, 1);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	CHECK(spec_load(repo, &spec, &err) == 0, "load: %s", err.msg);
	res = run_probe(&spec, &probe_runtimes, &n, 5000);
	CHECK(n == 1 && res[0].status == STATUS_PASS, "python: %s",
	      n ? res[0].message : "");
	buf_printf(&want, "3.12.1 (satisfies >=3.10 from pyproject.toml); checked "
		   "%s/python3 instead: '%s/.venv/bin/python3' skipped: inside the "
		   "audited repository", bin, spec.root);
	CHECK_STR(n ? res[0].message : NULL, want.s, "the message names both");
	CHECK(n == 1 && has(data_str(&res[0], "skipped_path_entries"), ".venv/bin/python3"),
	      "data.skipped_path_entries");
	CHECK(stat(marker, &st) < 0, "the repository's python never ran");
	results_free(res, n);
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	buf_release(&path);
	buf_release(&want);
	free(marker);
	free(bin);
	free(venv);
	free(repo);
	free(dir);
}

/* nvm's "node" and lts/ "*" say in a note what they were taken to mean. */
static void test_nvmrc_notes(void)
{
	static const struct {
		const char *spec, *note;
	} rows[] = {
		{ "node", "'node' is the newest Node.js release to nvm; with no "
		  "release list offline, any version is accepted" },
		{ "stable", "'stable' is the newest Node.js release to nvm" },
		{ "lts/*", "lts/* on 2026-11-30 is lts/lithium (v26.x, LTS since "
		  "2026-10-28)" },
	};
	char *dir = tmpdir("nvmrc-notes");
	char *repo = path_join(dir, "repo");
	char *bin = path_join(dir, "bin");
	size_t i;

	test_write_str(repo, "x", "");
	write_exec(bin, "node", "#!/bin/sh\necho v20.20.2\n");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct origin o = { NULL, 1, 1 };
		struct runtime_req *r;
		struct result *res;
		struct spec spec;
		struct errbuf err;
		size_t n, k;
		int found = 0;

		if (spec_load_any(repo, &spec, &err) < 0) {
			CHECK(0, "load: %s", err.msg);
			continue;
		}
		o.file = spec_add_file(&spec, ".nvmrc");
		r = spec_add_runtime(&spec, SRC_NVMRC, "node", rows[i].spec, REQ_NVMRC, o);
		r->command = xcalloc(3, sizeof(*r->command));
		r->command[0] = path_join(bin, "node");
		r->command[1] = xstrdup("--version");
		res = run_probe(&spec, &probe_runtimes, &n, 5000);
		for (k = 0; n == 1 && k < res[0].nnotes; k++)
			found |= has(res[0].notes[k], rows[i].note);
		CHECK(found, "row %zu (%s): note '%s' missing", i, rows[i].spec,
		      rows[i].note);
		if (n == 1 && !strcmp(rows[i].spec, "lts/*"))
			CHECK(res[0].status == STATUS_FAIL &&
			      has(res[0].message, "v20.20.2 does not match lts/* from "
				  ".nvmrc: lts/* is v26.x (lithium)"),
			      "lts/* against v20.20.2: %s", res[0].message);
		else if (n == 1)
			CHECK(res[0].status == STATUS_PASS, "row %zu: %s", i,
			      res[0].message);
		results_free(res, n);
		spec_release(&spec);
	}
	free(bin);
	free(repo);
	free(dir);
}

/* Every runtime check's JSON data has the same keys, in the same order,
 * whatever happened: found, missing, a bad requirement, a skip, docker. */
static void test_data_keys(void)
{
	static const char *const want[] = {
		"runtime", "required", "kind", "source", "source_key", "found", "runs_as", "path",
		"method", "resolved_path", "command", "skipped_path_entries",
		"not_run", "docker", "version_manager", "target", "default_path",
		"timed_out_ms", "unreaped", "lts",
	};
	char *dir = tmpdir("data-keys");
	char *repo = path_join(dir, "repo");
	char *bin = path_join(dir, "bin");
	char *home = path_join(dir, "home");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf host = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	size_t n, i, k;

	test_write_str(home, ".nvm/x", "");
	no_managers(home);
	write_exec(bin, "node", "#!/bin/sh\necho v18.0.0\n");
	test_write_str(repo, "package.json", "{\"engines\": {\"node\": \">=20\", "
		       "\"npm\": \">=20 <18\"}}");
	test_write_str(repo, ".tool-versions", "erlang 26.2\n");
	test_write_str(repo, "preflight.yaml", "version: 1\nruntimes:\n  docker: "
		       "\">=24\"\n  python: \">=3.10\"\n");
	buf_printf(&host, "unix://%s/no.sock", dir);
	setenv("DOCKER_HOST", host.s, 1);
	setenv("PATH", bin, 1);
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	CHECK(spec_load(repo, &spec, &err) == 0, "load: %s", err.msg);
	res = run_probe(&spec, &probe_runtimes, &n, 5000);
	CHECK_INT(n, 5, "docker, python, node, npm, erlang");
	for (i = 0; i < n; i++) {
		const cJSON *item = res[i].data ? res[i].data->child : NULL;

		for (k = 0; k < ARRAY_SIZE(want); k++, item = item ? item->next : NULL)
			CHECK(item && !strcmp(item->string, want[k]), "%s: key %zu is "
			      "'%s', want '%s'", res[i].id, k, item ? item->string : "(none)",
			      want[k]);
		CHECK(item == NULL, "%s: no more keys", res[i].id);
	}
	for (i = 0; i < n; i++) {
		const cJSON *vm = cJSON_GetObjectItem(res[i].data, "version_manager");
		const cJSON *dk = cJSON_GetObjectItem(res[i].data, "docker");

		if (!strcmp(res[i].id, "runtime.node.engines"))
			CHECK(cJSON_IsString(vm) && !strcmp(vm->valuestring, "nvm"),
			      "node: the manager of its hint");
		else
			CHECK(cJSON_IsNull(vm), "%s: version_manager null", res[i].id);
		CHECK(!strcmp(res[i].id, "runtime.docker.preflight") ? cJSON_IsObject(dk) :
		      cJSON_IsNull(dk), "%s: docker", res[i].id);
	}
	results_free(res, n);
	spec_release(&spec);
	unsetenv("DOCKER_HOST");
	unsetenv("XDG_CACHE_HOME");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	buf_release(&host);
	free(home);
	free(bin);
	free(repo);
	free(dir);
}

/* package.json deeper than cJSON goes: said so, where it stops. */
static void test_package_depth(void)
{
	static const struct {
		size_t depth;	/* of the "x" array, inside the top object */
		const char *err;	/* NULL: loads */
	} rows[] = {
		{ 999, NULL },
		{ 1000, "package.json:1:1006: nested too deeply (more than 1000 "
		  "levels of arrays and objects)" },
		{ 5000, "package.json:1:1006: nested too deeply" },
	};
	size_t i, d;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *dir = tmpdir("package-depth");
		struct buf json = BUF_INIT;
		struct spec spec;
		struct errbuf err;
		int rc;

		buf_puts(&json, "{\"x\": ");
		for (d = 0; d < rows[i].depth; d++)
			buf_putc(&json, '[');
		for (d = 0; d < rows[i].depth; d++)
			buf_putc(&json, ']');
		buf_puts(&json, ", \"engines\": {\"node\": \">=20\"}}");
		test_write_str(dir, "package.json", json.s);
		err.msg[0] = '\0';
		rc = spec_load(dir, &spec, &err);
		if (!rows[i].err) {
			CHECK(rc == 0 && spec.nruntimes == 1, "depth %zu: %s",
			      rows[i].depth, err.msg);
		} else {
			CHECK(rc < 0 && has(err.msg, rows[i].err), "depth %zu: '%s'",
			      rows[i].depth, err.msg);
		}
		if (rc == 0)
			spec_release(&spec);
		buf_release(&json);
		free(dir);
	}
}

/* ---- hints ---- */

struct hint_row {
	const char *manager_dir;	/* below $HOME, or NULL */
	const char *file;		/* the requirement's source */
	const char *name;
	enum req_kind kind;
	const char *spec;
	const char *hint;		/* a part of it */
};

static void test_hints(void)
{
	static const struct hint_row rows[] = {
		{ NULL, "package.json", "node", REQ_SEMVER, ">=20 <23",
		  "install Node.js 22 (https://nodejs.org/" },
		{ ".nvm", "package.json", "node", REQ_SEMVER, ">=20 <23", "nvm install 22" },
		{ ".nvm", ".nvmrc", "node", REQ_NVMRC, "lts/iron", "nvm install (it reads .nvmrc)" },
		{ ".nvm", ".node-version", "node", REQ_NVMRC, "lts/iron", "nvm install lts/iron" },
		{ ".nvm", ".node-version", "node", REQ_NVMRC, "lts/*", "nvm install lts/*" },
		{ NULL, ".nvmrc", "node", REQ_NVMRC, "lts/*", "install Node.js 26 (" },
		{ ".volta", "package.json", "node", REQ_EXACT, "20.11.1",
		  "volta install node@20.11.1" },
		{ ".asdf", ".tool-versions", "node", REQ_ASDF, "20.11.1",
		  "asdf install (it reads .tool-versions)" },
		{ ".asdf", "package.json", "node", REQ_SEMVER, "^20", "asdf install nodejs latest:20" },
		{ ".local/share/mise", "package.json", "node", REQ_SEMVER, "^18",
		  "mise use node@18" },
		{ ".pyenv", ".python-version", "python", REQ_PYENV, "3.11",
		  "pyenv install (it reads .python-version)" },
		{ ".pyenv", "pyproject.toml", "python", REQ_PEP440, ">=3.10,<3.13",
		  "pyenv install 3.12" },
		/* an installed pyenv version that fits needs no install */
		{ ".pyenv/versions/3.12.1", "pyproject.toml", "python", REQ_PEP440,
		  ">=3.10,<3.13", "pyenv local 3.12.1 (installed already, it satisfies "
		  "every python requirement)" },
		{ ".pyenv/versions/3.9.18", "pyproject.toml", "python", REQ_PEP440,
		  ">=3.10,<3.13", "pyenv install 3.12" },
		{ ".pyenv/versions/3.12.1", "setup.cfg", "python", REQ_PEP440, "~=3.12",
		  "pyenv local 3.12.1" },
		{ ".pyenv/versions/3.12.1", ".python-version", "python", REQ_PYENV, "3.12",
		  "pyenv has 3.12.1 installed, which .python-version selects" },
		{ NULL, "pyproject.toml", "python", REQ_PEP440, "~=3.9.2", "install Python 3.9" },
		/* npm missing, and node too: Node.js ships npm */
		{ NULL, "package.json", "npm", REQ_EXACT, "npm@10.9.0",
		  "install Node.js (https://nodejs.org/ or your package manager): "
		  "Node.js ships npm" },
		/* no node to key corepack on */
		{ NULL, "package.json", "pnpm", REQ_EXACT, "pnpm@9.1.0",
		  "npm install -g pnpm@9.1.0, or corepack enable (with Node.js 25 "
		  "and later, npm install -g corepack first): corepack then runs "
		  "pnpm 9.1.0" },
		{ NULL, "package.json", "npm", REQ_SEMVER, ">=9", "npm install -g npm" },
		{ NULL, "package.json", "npm", REQ_SEMVER, "^9.1", "npm install -g npm@9" },
		{ NULL, "go.mod", "go", REQ_GO_MIN, "1.22", "install Go 1.22 or later" },
		/* a range no version satisfies: no install would help */
		{ NULL, "package.json", "node", REQ_SEMVER, ">=20 <18",
		  "fix the requirement where it is written" },
		/* repository text never reaches a hint */
		{ NULL, "package.json", "node", REQ_SEMVER, ">=20 <<23; rm -rf",
		  "fix the requirement" },
	};
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct hint_row *w = &rows[i];
		char *dir, *home, *repo, *empty;
		struct origin o = { NULL, 1, 1 };
		struct result *res;
		struct spec spec;
		struct errbuf err;
		char name[32];
		size_t n;

		/* test_tmpdir runs rm from PATH: give the usual one back */
		if (saved)
			setenv("PATH", saved, 1);
		snprintf(name, sizeof(name), "hints-%zu", i);
		dir = tmpdir(name);
		home = path_join(dir, "home");
		repo = path_join(dir, "repo");
		empty = path_join(dir, "empty");
		test_write_str(home, "x", "");
		if (w->manager_dir) {
			char *m = path_join(home, w->manager_dir);

			test_write_str(m, "x", "");
			free(m);
		}
		test_write_str(repo, "x", "");
		test_write_str(empty, "x", "");
		no_managers(home);
		setenv("PATH", empty, 1);	/* nothing is found */
		if (spec_load_any(repo, &spec, &err) == 0) {
			o.file = spec_add_file(&spec, w->file);
			spec_add_runtime(&spec, src_for(w->file, w->kind, w->name, w->spec),
					 w->name, w->spec, w->kind, o);
			res = run_probe(&spec, &probe_runtimes, &n, 5000);
			CHECK(n == 1 && res[0].status == STATUS_FAIL, "row %zu: %s", i,
			      n ? res[0].message : "");
			CHECK(n == 1 && has(res[0].hint, w->hint), "row %zu: hint '%s', "
			      "want '%s'", i, n && res[0].hint ? res[0].hint : "(none)",
			      w->hint);
			CHECK(n == 1 && !has(res[0].hint, "rm -rf"), "row %zu: raw text "
			      "in hint", i);
			results_free(res, n);
			spec_release(&spec);
		} else {
			CHECK(0, "load: %s", err.msg);
		}
		free(home);
		free(repo);
		free(empty);
		free(dir);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* ---- one target for every hint of a runtime (issue 16) ---- */

struct target_req {
	const char *file;	/* as src_for reads it */
	enum req_kind kind;
	const char *spec;
};

struct target_row {
	const char *name;
	struct target_req reqs[3];
	enum target_state state;
	const char *num;	/* TARGET_VERSION, TARGET_OPEN ("") */
	int a, b;		/* TARGET_CONFLICT: indices into reqs */
	enum req_source reads;	/* a file whose manager reads it: the
				 * target is its own selection; SRC_COUNT
				 * for none */
};

static void test_target_rows(void)
{
	static const struct target_row rows[] = {
		/* the issue: engines and lts/iron meet at 20 only */
		{ "node", { { "package.json", REQ_SEMVER, ">=20 <23" },
			    { ".nvmrc", REQ_NVMRC, "lts/iron" } },
		  TARGET_VERSION, "20", 0, 0, SRC_NVMRC },
		{ "node", { { ".nvmrc", REQ_NVMRC, "lts/iron" },
			    { "package.json", REQ_SEMVER, ">=20" } },
		  TARGET_VERSION, "20", 0, 0, SRC_NVMRC },
		/* alone, an open range gets the newest LTS line */
		{ "node", { { "package.json", REQ_SEMVER, ">=20" } },
		  TARGET_VERSION, "26", 0, 0, SRC_COUNT },
		/* a version file's own choice wins where both are met */
		{ "node", { { "package.json", REQ_SEMVER, ">=20 <23" },
			    { ".nvmrc", REQ_NVMRC, "20" } },
		  TARGET_VERSION, "20", 0, 0, SRC_NVMRC },
		{ "node", { { "package.json", REQ_SEMVER, ">=20 <23" },
			    { ".node-version", REQ_NVMRC, "lts/jod" } },
		  TARGET_VERSION, "22", 0, 0, SRC_COUNT },
		/* a pin is the only version: named whole */
		{ "node", { { "package.json", REQ_SEMVER, ">=20" },
			    { "package.json", REQ_EXACT, "20.11.1" } },
		  TARGET_VERSION, "20.11.1", 0, 0, SRC_COUNT },
		{ "node", { { "package.json", REQ_SEMVER, ">=20 <23" },
			    { ".tool-versions", REQ_ASDF, "22.11.0" } },
		  TARGET_VERSION, "22.11.0", 0, 0, SRC_TOOL_VERSIONS },
		/* a range inside one major: its minor line */
		{ "node", { { "package.json", REQ_SEMVER, ">=20.11 <20.12" } },
		  TARGET_VERSION, "20.11", 0, 0, SRC_COUNT },
		{ "node", { { "package.json", REQ_SEMVER, "20.11.1 - 20.11.5" },
			    { ".nvmrc", REQ_NVMRC, "20" } },
		  TARGET_VERSION, "20.11.1", 0, 0, SRC_COUNT },
		/* no version meets both: the pair is named */
		{ "node", { { "package.json", REQ_SEMVER, ">=20 <22" },
			    { ".nvmrc", REQ_NVMRC, "lts/jod" } },
		  TARGET_CONFLICT, NULL, 0, 1, SRC_COUNT },
		{ "node", { { NULL, REQ_SEMVER, "^18" },
			    { ".nvmrc", REQ_NVMRC, "20" },
			    { "package.json", REQ_SEMVER, ">=20" } },
		  TARGET_CONFLICT, NULL, 0, 1, SRC_COUNT },
		{ "node", { { "package.json", REQ_SEMVER, ">=20" },
			    { "package.json", REQ_EXACT, "18.19.0" } },
		  TARGET_CONFLICT, NULL, 0, 1, SRC_COUNT },
		/* presence only: no version to name */
		{ "node", { { NULL, REQ_ANY, "" } }, TARGET_NONE, NULL, 0, 0, SRC_COUNT },
		/* a tool whose newest release envpreflight does not know */
		{ "npm", { { "package.json", REQ_SEMVER, ">=9" } },
		  TARGET_OPEN, "", 0, 0, SRC_COUNT },
		{ "npm", { { "package.json", REQ_SEMVER, ">=9" },
			   { NULL, REQ_SEMVER, "<11" } },
		  TARGET_VERSION, "10", 0, 0, SRC_COUNT },
		{ "pnpm", { { "package.json", REQ_SEMVER, ">=9" },
			    { "package.json", REQ_EXACT, "pnpm@9.1.0" } },
		  TARGET_VERSION, "9.1.0", 0, 0, SRC_COUNT },
		{ "pnpm", { { "package.json", REQ_SEMVER, "^8" },
			    { "package.json", REQ_EXACT, "pnpm@9.1.0" } },
		  TARGET_CONFLICT, NULL, 0, 1, SRC_COUNT },
		/* python: the .python-version line, when the range admits it */
		{ "python", { { "pyproject.toml", REQ_PEP440, ">=3.10,<3.13" },
			      { ".python-version", REQ_PYENV, "3.11" } },
		  TARGET_VERSION, "3.11", 0, 0, SRC_PYTHON_VERSION },
		{ "python", { { "pyproject.toml", REQ_PEP440, ">=3.10,<3.13" } },
		  TARGET_VERSION, "3.12", 0, 0, SRC_COUNT },
		{ "python", { { "pyproject.toml", REQ_PEP440, ">=3.13" },
			      { ".python-version", REQ_PYENV, "3.11" } },
		  TARGET_CONFLICT, NULL, 0, 1, SRC_COUNT },
		/* asdf-elixir's build for an OTP names its Elixir version */
		{ "elixir", { { ".tool-versions", REQ_ASDF, "1.16.2-otp-26" } },
		  TARGET_VERSION, "1.16.2", 0, 0, SRC_TOOL_VERSIONS },
		/* a version envpreflight cannot name: no claim */
		{ "node", { { ".tool-versions", REQ_ASDF, "20.1.0-otp-26" } },
		  TARGET_UNKNOWN, NULL, 0, 0, SRC_COUNT },
		/* go: at least 1.22 and at least 1.23: the newest */
		{ "go", { { "go.mod", REQ_GO_MIN, "1.22" },
			  { NULL, REQ_SEMVER, ">=1.23" } },
		  TARGET_OPEN, "", 0, 0, SRC_COUNT },
	};
	char *dir = tmpdir("target-rows");
	char *home = path_join(dir, "home");
	size_t i, k;

	test_write_str(home, "x", "");
	no_managers(home);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct target_row *w = &rows[i];
		struct runtime_req reqs[3];
		const struct runtime_req *v[3];
		struct runtime_target t;
		size_t n = 0;

		for (k = 0; k < 3 && w->reqs[k].spec; k++, n++) {
			const struct target_req *q = &w->reqs[k];

			memset(&reqs[k], 0, sizeof(reqs[k]));
			reqs[k].name = (char *)w->name;
			reqs[k].spec = (char *)q->spec;
			reqs[k].kind = q->kind;
			reqs[k].src = src_for(q->file, q->kind, w->name, q->spec);
			reqs[k].origin.file = q->file;
			reqs[k].origin.line = (unsigned)k + 1;
			reqs[k].nalt = 1;
			v[k] = &reqs[k];
		}
		runtime_target_pick(v, n, w->name, &t);
		CHECK_INT(t.state, w->state, "row %zu: state (num '%s')", i, t.num);
		if (w->num)
			CHECK_STR(t.num, w->num, "row %zu", i);
		if (w->state == TARGET_CONFLICT) {
			CHECK(t.a == v[w->a] && t.b == v[w->b], "row %zu: the pair", i);
		}
		if (w->reads != SRC_COUNT)
			CHECK(t.reads == 1u << w->reads, "row %zu: reads %#x", i, t.reads);
		else
			CHECK(t.reads == 0, "row %zu: reads %#x", i, t.reads);
		/* the version named meets every requirement, as the checks
		 * judge it */
		for (k = 0; w->state == TARGET_VERSION && k < n; k++) {
			struct runtime_prep p;

			runtime_prep_init(&p, v[k]);
			CHECK(runtime_prep_admits(&p, t.found), "row %zu: %s misses %s",
			      i, t.found, v[k]->spec);
			runtime_prep_release(&p);
		}
	}
	free(home);
	free(dir);
}

/* Every failing check of a runtime, through the probe: the same hint,
 * and a fix that clears each. */
struct agree_row {
	const char *bins;	/* "node=18.19.0 pnpm=8.15.4 npm=10.9.0" */
	const char *manager_dir;	/* below HOME, or NULL */
	int dpkg;		/* write a dpkg list naming the fake node */
	struct target_req reqs[3];
	const char *names[3];	/* each requirement's runtime */
	const char *runtime;	/* the checks looked at */
	const char *hint;	/* a part of each of their hints */
	const char *not_hint;	/* in none of them, or NULL */
	const char *fix;	/* fix.argv joined by spaces, "edit FILE",
				 * or "" for none */
	const char *who;	/* "agent", "human", or NULL for no fix */
};

static void fix_text(const struct fix *f, struct buf *b)
{
	size_t i;

	if (!f)
		return;
	if (f->edit.file)
		buf_printf(b, "edit %s", f->edit.file);
	for (i = 0; f->argv && f->argv[i]; i++)
		buf_printf(b, "%s%s", i ? " " : "", f->argv[i]);
}

static void agree_bins(const char *bin, const char *bins)
{
	const char *s = bins;

	while (s && *s) {
		size_t n = strcspn(s, " "), eq = strcspn(s, "=");
		char name[32], script[96];

		if (eq < n && eq < sizeof(name)) {
			snprintf(name, sizeof(name), "%.*s", (int)eq, s);
			snprintf(script, sizeof(script), "#!/bin/sh\necho %s%.*s\n",
				 !strcmp(name, "node") ? "v" : !strcmp(name, "python3") ?
				 "Python " : "", (int)(n - eq - 1), s + eq + 1);
			write_exec(bin, name, script);
		}
		s += n + (s[n] == ' ');
	}
}

static void test_hint_agree(void)
{
	static const struct agree_row rows[] = {
		/* the issue: Debian's node 18, engines and lts/iron */
		{ "node=18.19.0 npm=9.2.0", NULL, 0,
		  { { "package.json", REQ_SEMVER, ">=20 <23" },
		    { ".nvmrc", REQ_NVMRC, "lts/iron" } }, { "node", "node" },
		  "node", "install Node.js 20 (", "22", "", NULL },
		{ "node=18.19.0 npm=9.2.0", ".nvm", 0,
		  { { "package.json", REQ_SEMVER, ">=20 <23" },
		    { ".nvmrc", REQ_NVMRC, "lts/iron" } }, { "node", "node" },
		  "node", "nvm install (it reads .nvmrc)", NULL, "nvm install",
		  "agent" },
		{ "node=18.19.0", ".volta", 0,
		  { { "package.json", REQ_SEMVER, ">=20 <23" },
		    { ".nvmrc", REQ_NVMRC, "lts/iron" } }, { "node", "node" },
		  "node", "volta install node@20", NULL, "volta install node@20",
		  "agent" },
		/* no node at all: the one check that reports it names 20 */
		{ "", NULL, 0,
		  { { "package.json", REQ_SEMVER, ">=20" },
		    { ".nvmrc", REQ_NVMRC, "lts/iron" } }, { "node", "node" },
		  "node", "install Node.js 20 (", "26", "", NULL },
		/* no version meets both: one hint that says so, an edit */
		{ "node=18.19.0", ".nvm", 0,
		  { { "package.json", REQ_SEMVER, ">=20 <22" },
		    { ".nvmrc", REQ_NVMRC, "lts/jod" } }, { "node", "node" },
		  "node", "no Node.js version satisfies both >=20 <22 (package.json:1) "
		  "and lts/jod (.nvmrc:2)", "nvm install", "edit .nvmrc", "human" },
		/* npm missing, node found: no npm command in the hint */
		{ "node=20.19.0", NULL, 0,
		  { { "package.json", REQ_SEMVER, ">=20" },
		    { NULL, REQ_SEMVER, "" } }, { "node", "npm" },
		  "npm", "the node on PATH has no npm beside it", "npm install", "",
		  NULL },
		/* ... and Debian's nodejs package, which ships none */
		{ "node=18.19.0", NULL, 1,
		  { { NULL, REQ_SEMVER, "" } }, { "npm" },
		  "npm", "apt-get install npm (as root)", "npm install",
		  "apt-get install npm", "human" },
		/* ... and a version wanted that Debian's npm may not have:
		 * two steps, so no fix */
		{ "node=18.19.0", NULL, 1,
		  { { "package.json", REQ_SEMVER, ">=10" } }, { "npm" },
		  "npm", "apt-get install npm (as root)", NULL, "", NULL },
		/* npm and node missing: node's install, which ships npm */
		{ "", ".nvm", 0,
		  { { "package.json", REQ_SEMVER, ">=20 <23" },
		    { NULL, REQ_SEMVER, "" } }, { "node", "npm" },
		  "npm", "nvm install 22: Node.js ships npm", NULL, "nvm install 22",
		  "agent" },
		/* corepack on the node that runs: 25 ships none */
		{ "node=25.2.0 pnpm=8.15.4 npm=11.6.2", NULL, 0,
		  { { "package.json", REQ_EXACT, "pnpm@9.1.0" } }, { "pnpm" },
		  "pnpm", "npm install -g corepack (Node.js 25 ships none), then "
		  "corepack enable", NULL, "npm install -g pnpm@9.1.0", "agent" },
		/* ... and the node that will run is the target, 22, not the
		 * 26 found */
		{ "node=26.1.0 pnpm=8.15.4 npm=11.6.2", NULL, 0,
		  { { "package.json", REQ_EXACT, "pnpm@9.1.0" },
		    { "package.json", REQ_SEMVER, ">=20 <23" } }, { "pnpm", "node" },
		  "pnpm", "or corepack enable: corepack then runs pnpm 9.1.0",
		  "npm install -g corepack", "npm install -g pnpm@9.1.0", "agent" },
		/* no npm to run the fix with: none */
		{ "node=22.11.0 pnpm=8.15.4", NULL, 0,
		  { { "package.json", REQ_EXACT, "pnpm@9.1.0" } }, { "pnpm" },
		  "pnpm", "npm install -g pnpm@9.1.0, or corepack enable", NULL, "",
		  NULL },
		/* yarn 4: corepack only, two steps */
		{ "node=22.11.0 yarn=1.22.22 npm=10.9.0", NULL, 0,
		  { { "package.json", REQ_EXACT, "yarn@4.1.0" } }, { "yarn" },
		  "yarn", "corepack enable, then corepack install", "npm install -g",
		  "", NULL },
		/* bun is no business of corepack's */
		{ "node=25.2.0 npm=11.6.2", NULL, 0,
		  { { "package.json", REQ_EXACT, "bun@1.1.0" } }, { "bun" },
		  "bun", "install Bun 1.1.0: npm install -g bun@1.1.0", "corepack enable",
		  "npm install -g bun@1.1.0", "agent" },
		/* pnpm engines and its pin: the pin's version in both */
		{ "node=22.11.0 pnpm=8.15.4 npm=10.9.0", NULL, 0,
		  { { "package.json", REQ_SEMVER, ">=9" },
		    { "package.json", REQ_EXACT, "pnpm@9.1.0" } }, { "pnpm", "pnpm" },
		  "pnpm", "npm install -g pnpm@9.1.0", NULL,
		  "npm install -g pnpm@9.1.0", "agent" },
		/* python: the .python-version line in every hint */
		{ "python3=3.9.18", ".pyenv", 0,
		  { { "pyproject.toml", REQ_PEP440, ">=3.10,<3.13" },
		    { ".python-version", REQ_PYENV, "3.11" } }, { "python", "python" },
		  "python", "pyenv install (it reads .python-version)", "3.12",
		  "pyenv install", "agent" },
	};
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct agree_row *w = &rows[i];
		char *dir, *home, *repo, *bin, *dpkg = NULL;
		struct result *res;
		struct spec spec;
		struct errbuf err;
		char name[32];
		size_t n, seen = 0;

		if (saved)
			setenv("PATH", saved, 1);
		snprintf(name, sizeof(name), "agree-%zu", i);
		dir = tmpdir(name);
		home = path_join(dir, "home");
		repo = path_join(dir, "repo");
		bin = path_join(dir, "bin");
		test_write_str(home, "x", "");
		test_write_str(repo, "x", "");
		test_write_str(bin, "x", "");
		if (w->manager_dir) {
			char *m = path_join(home, w->manager_dir);

			test_write_str(m, "x", "");
			free(m);
		}
		agree_bins(bin, w->bins);
		no_managers(home);
		unsetenv("DPKG_ADMINDIR");
		if (w->dpkg) {
			struct buf list = BUF_INIT;

			dpkg = path_join(dir, "dpkg");
			buf_printf(&list, "/.\n/usr\n%s/node\n/usr/share/doc/nodejs\n", bin);
			test_write_str(dpkg, "info/nodejs.list", list.s);
			buf_release(&list);
			setenv("DPKG_ADMINDIR", dpkg, 1);
		}
		setenv("PATH", bin, 1);
		if (spec_load_any(repo, &spec, &err) < 0) {
			CHECK(0, "row %zu: load: %s", i, err.msg);
			goto next;
		}
		for (k = 0; k < 3 && w->reqs[k].spec; k++) {
			const struct target_req *q = &w->reqs[k];
			struct origin o = { NULL, (unsigned)k + 1, 1 };
			struct runtime_req *r;

			o.file = q->file ? spec_add_file(&spec, q->file) : NULL;
			r = spec_add_runtime(&spec, src_for(q->file, q->kind, w->names[k],
							    q->spec),
					     w->names[k], q->spec, q->kind, o);
			if (r->src == SRC_PACKAGE_MANAGER && strcmp(w->names[k], "yarn"))
				r->unmet = SEV_WARN;
		}
		res = run_probe(&spec, &probe_runtimes, &n, 5000);
		for (k = 0; k < n; k++) {
			const struct result *r = &res[k];
			struct buf fx = BUF_INIT;

			if (strcmp(data_str(r, "runtime") ? data_str(r, "runtime") : "",
				   w->runtime) || r->status == STATUS_PASS ||
			    r->status == STATUS_SKIP)
				continue;
			seen++;
			CHECK(has(r->hint, w->hint), "row %zu: %s: hint '%s', want '%s'",
			      i, r->id, r->hint ? r->hint : "(none)", w->hint);
			CHECK(!w->not_hint || !has(r->hint, w->not_hint),
			      "row %zu: %s: hint '%s' has '%s'", i, r->id,
			      r->hint ? r->hint : "(none)", w->not_hint);
			fix_text(r->fix, &fx);
			CHECK_STR(buf_str(&fx), w->fix, "row %zu: %s: fix", i, r->id);
			CHECK(w->who ? r->fix && (r->fix->who == FIX_HUMAN) ==
			      !strcmp(w->who, "human") : !r->fix,
			      "row %zu: %s: fix.who", i, r->id);
			buf_release(&fx);
		}
		CHECK(seen > 0, "row %zu: no failing %s check", i, w->runtime);
		results_free(res, n);
		spec_release(&spec);
next:
		unsetenv("DPKG_ADMINDIR");
		free(dpkg);
		free(bin);
		free(home);
		free(repo);
		free(dir);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

/* ---- docker over a real unix socket ---- */

struct fake_daemon {
	int lfd;
	const char *reply;
	pthread_t thread;
};

static void *fake_daemon_main(void *arg)
{
	struct fake_daemon *d = arg;
	struct pollfd pf = { .fd = d->lfd, .events = POLLIN };
	char req[2048];
	size_t len = 0;
	int c;

	if (poll(&pf, 1, 5000) <= 0)
		return NULL;
	c = accept(d->lfd, NULL, NULL);
	if (c < 0)
		return NULL;
	pf.fd = c;
	while (len < sizeof(req) - 1 && poll(&pf, 1, 5000) > 0) {
		ssize_t r = recv(c, req + len, sizeof(req) - 1 - len, 0);

		if (r <= 0)
			break;
		len += (size_t)r;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n"))
			break;
	}
	if (send(c, d->reply, strlen(d->reply), MSG_NOSIGNAL) < 0)
		d->reply = NULL;
	close(c);
	return NULL;
}

/* A bound unix socket at path; listening when listen_too. */
static int unix_socket(const char *path, int listen_too)
{
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	unlink(path);
	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    (listen_too && listen(fd, 4) < 0)) {
		close(fd);
		return -1;
	}
	return fd;
}

struct docker_row {
	const char *how;	/* "serve", "none", "down", "tcp" */
	const char *range;
	enum status want;
	const char *msg;
	const char *state;	/* data.docker.state */
};

static void test_docker(void)
{
	static const struct docker_row rows[] = {
		{ "serve", ">=24", STATUS_PASS, "24.0.7 (satisfies >=24 from preflight.yaml)", "ok" },
		{ "serve", ">=25", STATUS_FAIL, "24.0.7 does not satisfy >=25", "ok" },
		{ "none", ">=24", STATUS_FAIL, "not installed: no socket at", "no-socket" },
		/* the CLI on PATH but no socket: a daemon that is not running
		 * (or elsewhere), not a missing install; the CLI never runs */
		{ "cli", ">=24", STATUS_FAIL, "no Docker daemon socket at", "no-socket" },
		{ "down", ">=24", STATUS_FAIL, "daemon not running", "down" },
		{ "tcp", ">=24", STATUS_WARN, "not a unix:// socket", "unsupported-host" },
		{ "junk", ">=24", STATUS_ERROR, "unexpected reply", "bad-reply" },
		{ "serve", ">=24 <<25", STATUS_FAIL, "invalid range", NULL },
	};
	static const char *const body = "{\"Version\":\"24.0.7\",\"ApiVersion\":\"1.43\"}";
	char *dir = tmpdir("docker");
	char *sock = path_join(dir, "d.sock");
	char *repo = path_join(dir, "repo");
	char *clidir = path_join(dir, "cli");
	char *nocli = path_join(dir, "nocli");
	char *marker = path_join(dir, "CLI-RAN");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf reply = BUF_INIT, host = BUF_INIT, script = BUF_INIT;
	struct stat ran;
	size_t i;

	test_write_str(repo, "x", "");
	test_write_str(nocli, "x", "");
	buf_printf(&script, "#!/bin/sh\ntouch '%s'\n", marker);
	write_exec(clidir, "docker", script.s);
	buf_release(&script);
	buf_printf(&reply, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
		   "Content-Length: %zu\r\n\r\n%s", strlen(body), body);
	buf_printf(&host, "unix://%s", sock);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct docker_row *w = &rows[i];
		struct fake_daemon d = { -1, reply.s, 0 };
		struct origin o = { NULL, 3, 11 };
		struct result *res;
		struct spec spec;
		struct errbuf err;
		int served = 0;
		size_t n;

		unlink(sock);
		setenv("DOCKER_HOST", host.s, 1);
		setenv("PATH", !strcmp(w->how, "cli") ? clidir : nocli, 1);
		if (!strcmp(w->how, "serve") || !strcmp(w->how, "junk")) {
			if (!strcmp(w->how, "junk"))
				d.reply = "SSH-2.0-OpenSSH\r\n";
			d.lfd = unix_socket(sock, 1);
			served = d.lfd >= 0 &&
				 pthread_create(&d.thread, NULL, fake_daemon_main, &d) == 0;
			CHECK(served, "row %zu: fake daemon", i);
		} else if (!strcmp(w->how, "down")) {
			d.lfd = unix_socket(sock, 0);
			CHECK(d.lfd >= 0, "row %zu: socket", i);
		} else if (!strcmp(w->how, "tcp")) {
			setenv("DOCKER_HOST", "tcp://127.0.0.1:2375", 1);
		}
		if (spec_load_any(repo, &spec, &err) == 0) {
			o.file = spec_add_file(&spec, "preflight.yaml");
			spec_add_runtime(&spec, SRC_PREFLIGHT, "docker", w->range, REQ_SEMVER, o);
			res = run_probe(&spec, &probe_runtimes, &n, 3000);
			CHECK(n == 1 && res[0].status == w->want, "row %zu (%s): %s: %s", i,
			      w->how, n ? status_name(res[0].status) : "-",
			      n ? res[0].message : "");
			CHECK(n == 1 && has(res[0].message, w->msg), "row %zu: '%s' lacks '%s'",
			      i, n ? res[0].message : "", w->msg);
			if (n == 1 && w->state) {
				const cJSON *dk = cJSON_GetObjectItem(res[0].data, "docker");
				const cJSON *st = cJSON_GetObjectItem(dk, "state");

				CHECK(cJSON_IsString(st) && !strcmp(st->valuestring, w->state),
				      "row %zu: docker.state", i);
				CHECK_STR(data_str(&res[0], "method"), "socket", "row %zu", i);
			}
			if (n == 1 && w->want == STATUS_FAIL && strcmp(w->how, "serve"))
				CHECK(res[0].hint != NULL, "row %zu: a hint", i);
			if (n == 1 && !strcmp(w->how, "cli")) {
				const cJSON *dk = cJSON_GetObjectItem(res[0].data, "docker");

				CHECK(has(res[0].message, "(the docker CLI is at ") &&
				      !has(res[0].message, "not installed"),
				      "row %zu: %s", i, res[0].message);
				CHECK(has(res[0].hint, "DOCKER_HOST"), "row %zu: hint %s",
				      i, res[0].hint ? res[0].hint : "(none)");
				CHECK(cJSON_IsString(cJSON_GetObjectItem(dk, "cli")),
				      "row %zu: docker.cli", i);
			} else if (n == 1 && !strcmp(w->how, "none")) {
				CHECK(has(res[0].message, "and no docker on PATH"),
				      "row %zu: %s", i, res[0].message);
			}
			results_free(res, n);
			spec_release(&spec);
		} else {
			CHECK(0, "load: %s", err.msg);
		}
		if (served) {
			/* a query that never came must not keep the thread */
			if (!strcmp(w->range, ">=24 <<25"))
				shutdown(d.lfd, SHUT_RDWR);
			pthread_join(d.thread, NULL);
		}
		if (d.lfd >= 0)
			close(d.lfd);
	}
	unsetenv("DOCKER_HOST");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	CHECK(stat(marker, &ran) < 0, "the docker CLI was looked up, never run");
	unlink(sock);
	buf_release(&reply);
	buf_release(&host);
	free(marker);
	free(nocli);
	free(clidir);
	free(sock);
	free(repo);
	free(dir);
}

/* ---- tools ---- */

static void test_tools(void)
{
	char *dir = tmpdir("tools");
	char *bin = path_join(dir, "bin");
	char *repo = path_join(dir, "repo");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct buf path = BUF_INIT;
	struct result *res;
	struct spec spec;
	struct errbuf err;
	size_t n;

	write_exec(bin, "mytool", "#!/bin/sh\nexit 1\n");
	test_write_str(bin, "notexec", "");
	test_write_str(repo, "preflight.yaml", "version: 1\n"
		       "tools: [mytool, nosuchtool-xyz, notexec, mytool]\n");
	buf_printf(&path, "%s", bin);
	setenv("PATH", path.s, 1);
	CHECK(spec_load(repo, &spec, &err) == 0, "load: %s", err.msg);
	res = run_probe(&spec, &probe_tools, &n, 5000);
	CHECK_INT(n, 3, "a name listed twice is one check");
	if (n == 3) {
		CHECK_STR(res[0].id, "tool.mytool", "id");
		CHECK_STR(res[0].title, "Tool mytool", "title");
		CHECK(res[0].status == STATUS_PASS, "mytool: %s", res[0].message);
		CHECK(has(res[0].message, "/bin/mytool"), "path: %s", res[0].message);
		CHECK_INT(res[0].nnotes, 1, "the second listing is a note");
		CHECK(res[1].status == STATUS_FAIL, "missing: %s", res[1].message);
		CHECK_STR(res[1].message, "not found on PATH", "missing message");
		CHECK(has(res[1].hint, "install nosuchtool-xyz"), "hint");
		CHECK(res[2].status == STATUS_FAIL, "notexec: %s", res[2].message);
		CHECK(has(res[2].message, "not executable"), "notexec: %s", res[2].message);
		CHECK(cJSON_IsFalse(cJSON_GetObjectItem(res[2].data, "found")), "data.found");
	}
	results_free(res, n);
	spec_release(&spec);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	buf_release(&path);
	free(bin);
	free(repo);
	free(dir);
}

/* ---- nothing the repository ships runs ---- */

/* Run the runtimes probe on repo with PATH=bin:/usr/bin:/bin; *n results. */
static struct result *run_in(const char *repo, const char *bin, size_t *n,
			     struct spec *spec)
{
	struct buf path = BUF_INIT;
	struct errbuf err;
	struct result *res = NULL;

	buf_printf(&path, "%s:/usr/bin:/bin", bin);
	setenv("PATH", path.s, 1);
	buf_release(&path);
	*n = 0;
	if (spec_load(repo, spec, &err) < 0) {
		CHECK(0, "load %s: %s", repo, err.msg);
		return NULL;
	}
	res = run_probe(spec, &probe_runtimes, n, 5000);
	return res;
}

static int exists(const char *p)
{
	struct stat st;

	return lstat(p, &st) == 0;
}

/* yarn runs the file yarnPath names for every command: a fake yarn that
 * does the same, and a yarnPath file that leaves a marker.  The version
 * comes from the file name, and the marker never appears. */
static void test_yarn_path(void)
{
	static const struct {
		const char *yml, *rc;	/* .yarnrc.yml and .yarnrc, or NULL */
		enum status want;
		const char *found, *msg;
	} rows[] = {
		{ "yarnPath: .yarn/releases/yarn-4.1.0.cjs\n", NULL, STATUS_PASS,
		  "4.1.0", "4.1.0 (satisfies >=4 from package.json)" },
		{ "yarnPath: .yarn/releases/yarn-3.6.4.cjs\n", NULL, STATUS_FAIL,
		  "3.6.4", "3.6.4 does not satisfy >=4" },
		{ "yarnPath: .yarn/releases/custom.cjs\n", NULL, STATUS_WARN, NULL,
		  "not checked: yarnPath in .yarnrc.yml:1 names '.yarn/releases/custom.cjs'" },
		{ NULL, "yarn-path \".yarn/releases/yarn-4.0.2.cjs\"\n", STATUS_PASS,
		  "4.0.2", NULL },
		{ "plugins:\n  - .yarn/releases/custom.cjs\n", NULL, STATUS_WARN, NULL,
		  "not checked: 'plugins' in .yarnrc.yml:1" },
		/* nothing configured: the fake yarn runs, as any yarn would */
		{ "nodeLinker: node-modules\n", NULL, STATUS_FAIL, "1.22.19", NULL },
	};
	char *dir = tmpdir("yarnpath");
	char *bin = path_join(dir, "bin");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	size_t i;

	/* like yarn: the file yarnPath names runs, else its own version */
	write_exec(bin, "yarn", "#!/bin/sh\n"
		   "p=$(sed -n 's/^yarnPath: *//p' .yarnrc.yml 2>/dev/null)\n"
		   "[ -z \"$p\" ] && p=$(sed -n 's/^yarn-path \"\\(.*\\)\"/\\1/p' .yarnrc 2>/dev/null)\n"
		   "[ -n \"$p\" ] && exec sh \"$p\" \"$@\"\n"
		   "echo 1.22.19\n");
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct buf repo = BUF_INIT, script = BUF_INIT;
		char *marker;
		struct result *res;
		struct spec spec;
		size_t n;

		buf_printf(&repo, "%s/repo%zu", dir, i);
		marker = path_join(repo.s, "EXECUTED");
		buf_printf(&script, "touch '%s'\necho 9.9.9\n", marker);
		test_write_str(repo.s, "package.json", "{\"engines\": {\"yarn\": \">=4\"}}");
		if (rows[i].yml)
			test_write_str(repo.s, ".yarnrc.yml", rows[i].yml);
		if (rows[i].rc)
			test_write_str(repo.s, ".yarnrc", rows[i].rc);
		test_write_str(repo.s, ".yarn/releases/yarn-4.1.0.cjs", script.s);
		test_write_str(repo.s, ".yarn/releases/yarn-3.6.4.cjs", script.s);
		test_write_str(repo.s, ".yarn/releases/yarn-4.0.2.cjs", script.s);
		test_write_str(repo.s, ".yarn/releases/custom.cjs", script.s);
		res = run_in(repo.s, bin, &n, &spec);
		CHECK(n == 1 && res[0].status == rows[i].want, "row %zu: %s: %s", i,
		      n ? status_name(res[0].status) : "-", n ? res[0].message : "");
		if (n == 1 && rows[i].msg)
			CHECK(has(res[0].message, rows[i].msg), "row %zu: '%s' lacks '%s'",
			      i, res[0].message, rows[i].msg);
		CHECK_STR(n ? data_str(&res[0], "found") : NULL, rows[i].found,
			  "row %zu: found", i);
		if (i + 1 < ARRAY_SIZE(rows)) {
			CHECK(!exists(marker), "row %zu: the repository's yarn ran", i);
			CHECK(n && data_str(&res[0], "not_run"), "row %zu: data.not_run", i);
			CHECK(n && !data_str(&res[0], "command"), "row %zu: no command", i);
			if (rows[i].found)
				CHECK_STR(n ? data_str(&res[0], "method") : NULL, "path",
					  "row %zu: method", i);
		} else {
			CHECK(n && !data_str(&res[0], "not_run"), "row %zu: not_run", i);
		}
		if (res)
			results_free(res, n);
		spec_release(&spec);
		buf_release(&repo);
		buf_release(&script);
		free(marker);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	free(bin);
	free(dir);
}

/* preflight.yaml's command: only version queries run.  Every fake
 * program here leaves the marker when it runs with anything but
 * --version; the real sh is never started. */
static void test_command_policy(void)
{
	static const struct {
		const char *yaml;	/* the command line, YAML flow */
		enum status want;
		int runs;		/* 1: the program was run */
	} rows[] = {
		{ "[mytool, --version]", STATUS_PASS, 1 },
		{ "[mytool, -version]", STATUS_PASS, 1 },
		{ "[mytool, -v]", STATUS_PASS, 1 },
		{ "[mytool, -V]", STATUS_PASS, 1 },
		{ "[mytool, version]", STATUS_PASS, 1 },
		{ "[mytool, version, --short]", STATUS_PASS, 1 },
		{ "[mytool, version, --client]", STATUS_PASS, 1 },
		{ "[mytool, -dumpversion]", STATUS_PASS, 1 },
		{ "[mytool]", STATUS_ERROR, 0 },
		{ "[mytool, --version, extra]", STATUS_ERROR, 0 },
		{ "[mytool, --short]", STATUS_ERROR, 0 },
		{ "[mytool, -c, 'touch x']", STATUS_ERROR, 0 },
		{ "[sh, -c, 'touch EXECUTED; echo 1.0.0']", STATUS_ERROR, 0 },
		{ "[sh, --version]", STATUS_ERROR, 1 },	/* dash: no version */
		{ "[rake, -v]", STATUS_ERROR, 0 },
		{ "[rake, --version]", STATUS_PASS, 1 },
		{ "[python3.11, version]", STATUS_ERROR, 0 },
		{ "[pkill, -v, version]", STATUS_ERROR, 0 },
		{ "[pkill, version]", STATUS_ERROR, 0 },
		{ "[pkill, --version]", STATUS_PASS, 1 },
		{ "[alias-to-make, -v]", STATUS_ERROR, 0 },
	};
	char *dir = tmpdir("cmdpolicy");
	char *bin = path_join(dir, "bin");
	char *real = path_join(bin, "make");
	char *alias = path_join(bin, "alias-to-make");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	static const char *const fakes[] = { "mytool", "rake", "python3.11", "pkill",
					     "make" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fakes); i++)
		write_exec(bin, fakes[i], "#!/bin/sh\necho ran >>RAN\n"
			   "case \"$*\" in --version|-version|-v|-V|version*|-dumpversion)\n"
			   "  [ \"$0\" != \"${0%rake}\" ] && [ \"$1\" = -v ] && touch EXECUTED\n"
			   "  echo 'mytool 1.2.3'; exit 0;;\nesac\ntouch EXECUTED\n");
	CHECK(symlink(real, alias) == 0, "symlink: %s", strerror(errno));
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct buf repo = BUF_INIT, yaml = BUF_INIT;
		char *marker, *ran;
		struct result *res;
		struct spec spec;
		size_t n;

		buf_printf(&repo, "%s/repo%zu", dir, i);
		buf_printf(&yaml, "version: 1\nruntimes:\n  mytool:\n    version: \">=1\"\n"
			   "    command: %s\n    version_regex: '([0-9]+[.][0-9.]+)'\n",
			   rows[i].yaml);
		test_write_str(repo.s, "preflight.yaml", yaml.s);
		marker = path_join(repo.s, "EXECUTED");
		ran = path_join(repo.s, "RAN");
		res = run_in(repo.s, bin, &n, &spec);
		CHECK(n == 1 && res[0].status == rows[i].want, "row %zu %s: %s: %s", i,
		      rows[i].yaml, n ? status_name(res[0].status) : "-",
		      n ? res[0].message : "");
		if (n == 1 && !rows[i].runs) {
			CHECK(has(res[0].message, "is not a version query envpreflight runs"),
			      "row %zu: %s", i, res[0].message);
			CHECK(data_str(&res[0], "not_run") != NULL, "row %zu: not_run", i);
		}
		CHECK(!exists(marker), "row %zu %s: the marker appeared", i, rows[i].yaml);
		if (strncmp(rows[i].yaml, "[sh", 3))
			CHECK_INT(exists(ran), rows[i].runs, "row %zu %s: ran", i,
				  rows[i].yaml);
		if (res)
			results_free(res, n);
		spec_release(&spec);
		buf_release(&repo);
		buf_release(&yaml);
		free(marker);
		free(ran);
	}
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	unsetenv("XDG_CACHE_HOME");
	free(alias);
	free(real);
	free(bin);
	free(dir);
}

/* An absolute command is judged by its canonical path and run by it: a
 * path through /proc/self/cwd is our working directory when judged, but
 * would be the repository's when the child reads it. */
static void test_command_canonical(void)
{
	char *dir = tmpdir("cmdcanon");
	char *here = path_join(dir, "here");
	char *repo = path_join(dir, "repo");
	char *marker = path_join(repo, "EXECUTED");
	char cwd[4096];
	struct result *res;
	struct spec spec;
	size_t n;

	write_exec(here, "bin/tool", "#!/bin/sh\necho 'tool 2.0.0'\n");
	write_exec(repo, "bin/tool", "#!/bin/sh\ntouch EXECUTED\necho 'tool 2.0.0'\n");
	test_write_str(repo, "preflight.yaml", "version: 1\nruntimes:\n  tool:\n"
		       "    version: \">=2\"\n    command: [/proc/self/cwd/bin/tool, --version]\n");
	CHECK(getcwd(cwd, sizeof(cwd)) != NULL, "getcwd");
	CHECK(chdir(here) == 0, "chdir");
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	res = run_in(repo, "/nonexistent", &n, &spec);
	CHECK(chdir(cwd) == 0, "chdir back");
	CHECK(n == 1 && res[0].status == STATUS_PASS, "tool: %s", n ? res[0].message : "");
	CHECK(!exists(marker), "the repository's tool ran through /proc/self/cwd");
	{
		const char *p = n == 1 ? data_str(&res[0], "path") : NULL;

		CHECK(has(p, "/here/bin/tool"), "path: %s", p ? p : "(null)");
	}
	if (res)
		results_free(res, n);
	spec_release(&spec);
	unsetenv("XDG_CACHE_HOME");
	free(marker);
	free(repo);
	free(here);
	free(dir);
}

/* The forced environment reaches the child, and what makes mise trust a
 * repository unasked does not. */
static void test_forced_env(void)
{
	char *dir = tmpdir("forcedenv");
	char *bin = path_join(dir, "bin");
	char *repo = path_join(dir, "repo");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct result *res;
	struct spec spec;
	size_t n, i;

	write_exec(bin, "pnpm", "#!/bin/sh\n"
		   "[ \"$npm_config_manage_package_manager_versions\" = false ] || exit 3\n"
		   "[ \"$pnpm_config_manage_package_manager_versions\" = false ] || exit 4\n"
		   "[ \"$pnpm_config_pm_on_fail\" = ignore ] || exit 5\n"
		   "[ \"$npm_config_pm_on_fail\" = ignore ] || exit 6\n"
		   "[ \"${npm_config_onload_script-unset}\" = '' ] || exit 7\n"
		   "[ \"$COREPACK_ENABLE_AUTO_PIN\" = 0 ] || exit 8\n"
		   "[ \"$COREPACK_ENABLE_NETWORK\" = 0 ] || exit 9\n"
		   "[ \"$YARN_IGNORE_PATH\" = 1 ] || exit 10\n"
		   "[ \"$MISE_AUTO_INSTALL\" = 0 ] || exit 11\n"
		   "[ -z \"${MISE_YES+x}\" ] || exit 12\n"
		   "[ -z \"${MISE_TRUSTED_CONFIG_PATHS+x}\" ] || exit 13\n"
		   "[ \"$MISE_DATA_DIR\" = /tmp/m ] || exit 14\n"
		   "[ \"$RUSTUP_AUTO_INSTALL\" = 0 ] || exit 15\n"
		   "echo 9.1.0\n");
	test_write_str(repo, "package.json", "{\"engines\": {\"pnpm\": \"^9\"}, "
		       "\"packageManager\": \"pnpm@9.1.0\"}");
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	setenv("npm_config_manage_package_manager_versions", "true", 1);
	setenv("MISE_YES", "1", 1);
	setenv("MISE_TRUSTED_CONFIG_PATHS", "/", 1);
	setenv("MISE_AUTO_INSTALL", "1", 1);
	setenv("MISE_DATA_DIR", "/tmp/m", 1);
	res = run_in(repo, bin, &n, &spec);
	CHECK_INT(n, 2, "two checks");
	for (i = 0; i < n; i++)
		CHECK(res[i].status == STATUS_PASS, "%s: %s", res[i].id, res[i].message);
	if (res)
		results_free(res, n);
	spec_release(&spec);
	unsetenv("npm_config_manage_package_manager_versions");
	unsetenv("MISE_YES");
	unsetenv("MISE_TRUSTED_CONFIG_PATHS");
	unsetenv("MISE_AUTO_INSTALL");
	unsetenv("MISE_DATA_DIR");
	unsetenv("XDG_CACHE_HOME");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	free(repo);
	free(bin);
	free(dir);
}

/* A shim whose version file names a path: not run, a warning. */
static void test_shim_path(void)
{
	char *dir = tmpdir("shimpath");
	char *bin = path_join(dir, "home/.pyenv/shims");
	char *repo = path_join(dir, "repo");
	char *marker = path_join(repo, "EXECUTED");
	const char *old_path = getenv("PATH");
	char *saved = old_path ? xstrdup(old_path) : NULL;
	struct result *res;
	struct spec spec;
	size_t n;

	/* an old pyenv: joins the version to versions/ and runs what is there */
	write_exec(bin, "python3", "#!/bin/sh\nv=$(head -n 1 .python-version)\n"
		   "exec \"$(dirname \"$0\")/../versions/$v/bin/python3\" \"$@\"\n");
	write_exec(bin, "python", "#!/bin/sh\nexit 1\n");
	write_exec(repo, "evil/bin/python3", "#!/bin/sh\ntouch EXECUTED\necho Python 3.12.1\n");
	test_write_str(repo, ".python-version", "../../../repo/evil\n");
	test_write_str(repo, "pyproject.toml", "[project]\nrequires-python = \">=3\"\n");
	setenv("XDG_CACHE_HOME", "/dev/null/nocache", 1);
	res = run_in(repo, bin, &n, &spec);
	CHECK(n == 1 && res[0].status == STATUS_WARN, "python: %s", n ? res[0].message : "");
	CHECK(n == 1 && has(res[0].message, "names a path as a version"), "message: %s",
	      n ? res[0].message : "");
	CHECK(!exists(marker), "the repository's python ran through the shim");
	if (res)
		results_free(res, n);
	spec_release(&spec);
	unsetenv("XDG_CACHE_HOME");
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
	free(marker);
	free(repo);
	free(bin);
	free(dir);
}

void test_main(void)
{
	/* lts/ depends on the date: the rows are of 2026-11-30 */
	setenv("ENVPREFLIGHT_TODAY", "2026-11-30", 1);
	test_loaders();
	test_loader_symlink();
	test_ids();
	test_eval();
	test_outputs();
	test_hang();
	test_hang_cut();
	test_once();
	test_repo_binary();
	test_venv_skipped();
	test_nvmrc_notes();
	test_data_keys();
	test_package_depth();
	test_yarn_path();
	test_command_policy();
	test_command_canonical();
	test_forced_env();
	test_shim_path();
	test_hints();
	test_target_rows();
	test_hint_agree();
	test_docker();
	test_tools();
}
