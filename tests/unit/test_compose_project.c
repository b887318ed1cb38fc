/* test_compose_project.c - the compose project as docker compose v2
 * (compose-go) reads it: COMPOSE_FILE and COMPOSE_PROFILES from the
 * environment, the .env or preflight.yaml, profiles, depends_on, include,
 * !reset and !override, and what compose would refuse (a problem in the
 * model, never a load error).  One row a case, each a small repository
 * shaped like a real one.
 */
#include "test.h"

#include "composevar.h"
#include "spec.h"
#include "util.h"

#include <cJSON.h>
#include <stdlib.h>

struct file {
	const char *name, *text;
};

/* A typical app's stack: two services behind profiles, a required
 * variable, and a dependency chain. */
#define STACK \
	"services:\n" \
	"  db:\n" \
	"    image: postgres:16\n" \
	"    environment:\n" \
	"      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set it in .env}\n" \
	"    ports: [\"${DB_PORT:-5432}:5432\"]\n" \
	"  cache:\n" \
	"    image: redis:7\n" \
	"    ports: [\"6379:6379\"]\n" \
	"  web:\n" \
	"    build: .\n" \
	"    depends_on: [db, cache]\n" \
	"    ports: [\"3000:3000\"]\n" \
	"  worker:\n" \
	"    build: .\n" \
	"    depends_on:\n" \
	"      db: {condition: service_healthy}\n" \
	"  mailpit:\n" \
	"    image: axllent/mailpit\n" \
	"    profiles: [debug]\n" \
	"    ports: [\"8025:8025\"]\n" \
	"  adminer:\n" \
	"    image: adminer\n" \
	"    profiles: [tools, debug]\n" \
	"    ports: [\"8081:8080\"]\n"

/* the .env value holds "secret": no message may show it */
#define DOTENV "POSTGRES_PASSWORD=secret-pw\n"

#define OVERRIDE \
	"services:\n" \
	"  db:\n" \
	"    ports: !override [\"5433:5432\"]\n" \
	"  web:\n" \
	"    ports: !reset []\n" \
	"  cache:\n" \
	"    ports: [\"6380:6379\", \"6379:6379\"]\n"

static const struct prow {
	const char *what;
	struct file files[8];
	const char *env[3];	/* KEY=VALUE exported for the row */
	const char *files_want;	/* "a + b" */
	const char *profiles_want;	/* "debug, tools" */
	const char *skipped_want;	/* "adminer(tools, debug) mailpit(debug)" */
	const char *ports_want;	/* "5432 db, 6379 cache" */
	const char *problems_want;	/* "variable-unset X compose.yaml:3, ..." */
	const char *note_want;	/* a substring of one note, or NULL */
} rows[] = {
	{ "profiles: none active",
	  { { "compose.yaml", STACK }, { ".env", DOTENV } }, { NULL },
	  "compose.yaml", "", "mailpit(debug) adminer(tools, debug)",
	  "5432 db, 6379 cache, 3000 web", "", NULL },
	{ "COMPOSE_PROFILES in the committed .env",
	  { { "compose.yaml", STACK }, { ".env", DOTENV "COMPOSE_PROFILES=debug\n" } },
	  { NULL }, "compose.yaml", "debug", "",
	  "5432 db, 6379 cache, 3000 web, 8025 mailpit, 8081 adminer", "", NULL },
	{ "COMPOSE_PROFILES exported wins over the .env",
	  { { "compose.yaml", STACK }, { ".env", DOTENV "COMPOSE_PROFILES=debug\n" } },
	  { "COMPOSE_PROFILES= tools " }, "compose.yaml", "tools", "mailpit(debug)",
	  "5432 db, 6379 cache, 3000 web, 8081 adminer", "",
	  "COMPOSE_PROFILES in .env:2 is not used: COMPOSE_PROFILES in the environment wins" },
	{ "COMPOSE_PROFILES=* starts every service",
	  { { "compose.yaml", STACK }, { ".env", DOTENV } }, { "COMPOSE_PROFILES=*" },
	  "compose.yaml", "*", "",
	  "5432 db, 6379 cache, 3000 web, 8025 mailpit, 8081 adminer", "", NULL },
	{ "a .env profile no service names is not shown",
	  { { "compose.yaml", STACK },
	    { ".env", DOTENV "COMPOSE_PROFILES=secretprofile,debug\n" } }, { NULL },
	  "compose.yaml", "debug", "", "5432 db, 6379 cache, 3000 web, 8025 mailpit, "
	  "8081 adminer", "", NULL },
	{ "override: !override replaces, !reset drops, ports append once",
	  { { "compose.yaml", STACK }, { ".env", DOTENV },
	    { "compose.override.yaml", OVERRIDE } }, { NULL },
	  "compose.yaml + compose.override.yaml", "", "mailpit(debug) adminer(tools, debug)",
	  "5433 db, 6379 cache, 6380 cache", "", NULL },
	{ "override: profiles merge, so an override can hide a service",
	  { { "compose.yaml", "services:\n  web:\n    ports: [\"3000:3000\"]\n" },
	    { "docker-compose.override.yml", "services:\n  web:\n    profiles: [web]\n" } },
	  { NULL }, "compose.yaml + docker-compose.override.yml", "", "web(web)", "", "",
	  NULL },
	{ "override: profiles !reset starts it",
	  { { "compose.yaml", "services:\n  dbg:\n    profiles: [debug]\n"
	      "    ports: [\"9229:9229\"]\n" },
	    { "compose.override.yml", "services:\n  dbg:\n    profiles: !reset []\n" } },
	  { NULL }, "compose.yaml + compose.override.yml", "", "", "9229 dbg", "", NULL },
	{ "override: a service !reset is gone",
	  { { "compose.yaml", "services:\n  a:\n    ports: [\"1111:1\"]\n"
	      "  b:\n    ports: [\"2222:2\"]\n" },
	    { "compose.override.yml", "services:\n  a: !reset {}\n" } },
	  { NULL }, "compose.yaml + compose.override.yml", "", "", "2222 b", "", NULL },
	{ "override: a service !override forgets the base",
	  { { "compose.yaml", "services:\n  a:\n    profiles: [x]\n"
	      "    ports: [\"1111:1\"]\n" },
	    { "compose.override.yml", "services:\n  a: !override\n    image: a\n"
	      "    ports: [\"3333:1\"]\n" } },
	  { NULL }, "compose.yaml + compose.override.yml", "", "", "3333 a", "", NULL },
	{ "a value behind !reset is not interpolated",
	  { { "compose.yaml", "services:\n  a:\n    environment: !reset\n"
	      "      X: ${NOPE:?never read}\n" } },
	  { NULL }, "compose.yaml", "", "", "", "", NULL },
	/* depends_on (loader/validate.go checkConsistency) */
	{ "depends_on a service left out by its profile",
	  { { "compose.yaml", "services:\n  web:\n    depends_on: [mailpit]\n"
	      "  mailpit:\n    profiles: [debug]\n" } },
	  { NULL }, "compose.yaml", "", "mailpit(debug)", "",
	  "bad-dependency web compose.yaml:3", NULL },
	{ "depends_on it, required: false",
	  { { "compose.yaml", "services:\n  web:\n    depends_on:\n"
	      "      mailpit: {condition: service_started, required: false}\n"
	      "  mailpit:\n    profiles: [debug]\n" } },
	  { NULL }, "compose.yaml", "", "mailpit(debug)", "", "", NULL },
	{ "depends_on it, its profile active",
	  { { "compose.yaml", "services:\n  web:\n    depends_on: [mailpit]\n"
	      "  mailpit:\n    profiles: [debug]\n" } },
	  { "COMPOSE_PROFILES=debug" }, "compose.yaml", "debug", "", "", "", NULL },
	{ "depends_on an undefined service",
	  { { "compose.yaml", "services:\n  web:\n    depends_on: [dbb]\n" } },
	  { NULL }, "compose.yaml", "", "", "", "bad-dependency web compose.yaml:3", NULL },
	{ "a skipped service's dependencies are not checked",
	  { { "compose.yaml", "services:\n  dbg:\n    profiles: [debug]\n"
	      "    depends_on: [nothing]\n" } },
	  { NULL }, "compose.yaml", "", "dbg(debug)", "", "", NULL },
	/* env_file of a started service (types/project.go loadEnvFile) */
	{ "env_file missing: one problem for every service naming it",
	  { { "compose.yaml", "services:\n  api:\n    env_file: .env\n"
	      "  worker:\n    env_file: [.env, {path: ./local.env, required: false}]\n"
	      "  dbg:\n    profiles: [debug]\n    env_file: debug.env\n" },
	    { ".env.example", "A=1\n" } },
	  { NULL }, "compose.yaml", "", "dbg(debug)", "",
	  "env-file-missing .env compose.yaml:3", NULL },
	{ "env_file present, or dropped by !reset",
	  { { "compose.yaml", "services:\n  api:\n    env_file: [.env, apps/api/.env]\n" },
	    { "compose.override.yaml", "services:\n  api:\n    env_file: !reset []\n" },
	    { ".env", "A=1\n" } },
	  { NULL }, "compose.yaml + compose.override.yaml", "", "", "", "", NULL },
	{ "env_file relative to the included project",
	  { { "compose.yaml", "include: [infra/compose.yaml]\n" },
	    { "infra/compose.yaml", "services:\n  db:\n    env_file: db.env\n" },
	    { "infra/db.env", "A=1\n" } },
	  { NULL }, "compose.yaml + infra/compose.yaml", "", "", "", "", NULL },
	/* include (loader/include.go) */
	{ "include, short form: the included project's services",
	  { { "compose.yaml", "include:\n  - infra/compose.yaml\nservices:\n"
	      "  web:\n    ports: [\"3000:3000\"]\n" },
	    { "infra/compose.yaml", "services:\n  db:\n    ports: [\"5432:5432\"]\n" } },
	  { NULL }, "compose.yaml + infra/compose.yaml", "", "", "5432 db, 3000 web",
	  "", NULL },
	{ "include: the including file's service merges over the included",
	  { { "compose.yaml", "include: [infra/compose.yaml]\nservices:\n"
	      "  db:\n    ports: [\"6543:5432\"]\n" },
	    { "infra/compose.yaml", "services:\n  db:\n    ports: [\"5432:5432\"]\n" } },
	  { NULL }, "compose.yaml + infra/compose.yaml", "", "", "5432 db, 6543 db", "",
	  NULL },
	{ "include: the included project's .env",
	  { { "compose.yaml", "include:\n  - path: infra/compose.yaml\n" },
	    { "infra/compose.yaml", "services:\n  db:\n    ports: [\"${PG_PORT}:5432\"]\n" },
	    { "infra/.env", "PG_PORT=5544\n" } },
	  { NULL }, "compose.yaml + infra/compose.yaml", "", "", "5544 db", "", NULL },
	{ "include: the including project's variables win",
	  { { "compose.yaml", "include:\n  - path: infra/compose.yaml\n" },
	    { ".env", "PG_PORT=6000\n" },
	    { "infra/compose.yaml", "services:\n  db:\n    ports: [\"${PG_PORT}:5432\"]\n" },
	    { "infra/.env", "PG_PORT=5544\n" } },
	  { NULL }, "compose.yaml + infra/compose.yaml", "", "", "6000 db", "", NULL },
	{ "include: env_file and project_directory, relative to the includer",
	  { { "compose.yaml", "include:\n  - path: [infra/db.yaml, infra/db.dev.yaml]\n"
	      "    project_directory: infra\n    env_file: [config/a.env, config/b.env]\n" },
	    { "infra/db.yaml", "services:\n  db:\n    ports: [\"${PG_PORT}:5432\"]\n" },
	    { "infra/db.dev.yaml", "services:\n  db:\n    ports: [\"${DEV_PORT}:5432\"]\n" },
	    { "infra/.env", "PG_PORT=1\n" },
	    { "config/a.env", "PG_PORT=5000\nDEV_PORT=5001\n" },
	    { "config/b.env", "DEV_PORT=5002\n" } },
	  { NULL }, "compose.yaml + infra/db.yaml + infra/db.dev.yaml", "", "",
	  "5000 db, 5002 db", "", NULL },
	{ "include: env_file that does not exist",
	  { { "compose.yaml", "include:\n  - path: infra/compose.yaml\n"
	      "    env_file: infra/missing.env\n" },
	    { "infra/compose.yaml", "services: {}\n" } },
	  { NULL }, "compose.yaml", "", "", "",
	  "file-missing infra/missing.env compose.yaml:3", NULL },
	{ "include: a cycle",
	  { { "compose.yaml", "include: [a.yaml]\n" },
	    { "a.yaml", "include: [b/b.yaml]\n" },
	    { "b/b.yaml", "include: [../a.yaml]\nservices:\n  b:\n    ports: [\"7000:1\"]\n" } },
	  { NULL }, "compose.yaml + a.yaml + b/b.yaml", "", "", "7000 b",
	  "include-cycle a.yaml b/b.yaml:1", NULL },
	{ "include: itself",
	  { { "compose.yaml", "include: [./compose.yaml]\n" } },
	  { NULL }, "compose.yaml", "", "", "", "include-cycle compose.yaml compose.yaml:1",
	  NULL },
	{ "include: leaving the repository is refused",
	  { { "compose.yaml", "include:\n  - ../shared/compose.yaml\n  - path: /etc/x.yaml\n" } },
	  { NULL }, "compose.yaml", "", "", "",
	  "outside-repository ../shared/compose.yaml compose.yaml:2, "
	  "outside-repository /etc/x.yaml compose.yaml:3", NULL },
	{ "include: a file that does not exist",
	  { { "compose.yaml", "include: [infra/compose.yaml]\n" } },
	  { NULL }, "compose.yaml", "", "", "",
	  "file-missing infra/compose.yaml compose.yaml:1", NULL },
	{ "include: a remote project is a note",
	  { { "compose.yaml", "include:\n  - oci://docker.io/x/y:latest\n"
	      "services:\n  a:\n    ports: [\"1:1\"]\n" } },
	  { NULL }, "compose.yaml", "", "", "1 a", "",
	  "include of a remote project (oci://docker.io/x/y:latest) is not read" },
	/* COMPOSE_FILE (cli/options.go WithConfigFileEnv) */
	{ "COMPOSE_FILE in .env: the stack in docker/development",
	  { { ".env", "COMPOSE_FILE=docker/development/compose.yml\nAPI_PORT=4000\n" },
	    { "docker/development/compose.yml", "services:\n  api:\n"
	      "    ports: [\"${API_PORT}:4000\", \"${DEBUG_PORT}:9229\"]\n" },
	    { "docker/development/.env", "API_PORT=1\nDEBUG_PORT=9230\n" } },
	  { NULL }, "docker/development/compose.yml", "", "", "4000 api, 9230 api", "",
	  NULL },
	{ "COMPOSE_FILE in the project's own .env does not count",
	  { { "compose.yaml", "services:\n  a:\n    ports: [\"1:1\"]\n" },
	    { "docker/.env", "COMPOSE_FILE=other.yml\n" } },
	  { NULL }, "compose.yaml", "", "", "1 a", "", NULL },
	{ "COMPOSE_FILE with COMPOSE_PATH_SEPARATOR",
	  { { "a.yml", "services:\n  a:\n    ports: [\"1:1\"]\n" },
	    { "b.yml", "services:\n  a:\n    ports: [\"2:1\"]\n" } },
	  { "COMPOSE_FILE=a.yml;b.yml", "COMPOSE_PATH_SEPARATOR=;" }, "a.yml + b.yml",
	  "", "", "1 a, 2 a", "", NULL },
	{ "COMPOSE_FILE in .env names a missing file: its name is a .env value",
	  { { ".env", "COMPOSE_FILE=compose.yaml:secret.yml\n" },
	    { "compose.yaml", "services: {}\n" } },
	  { NULL }, "compose.yaml", "", "", "", "file-missing - .env:1", NULL },
	{ "COMPOSE_FILE exported names a missing file",
	  { { "compose.yaml", "services: {}\n" } },
	  { "COMPOSE_FILE=docker-compose.dev.yml" }, "", "", "", "",
	  "file-missing docker-compose.dev.yml -:0", NULL },
	{ "COMPOSE_FILE leaving the repository",
	  { { "compose.yaml", "services: {}\n" } },
	  { "COMPOSE_FILE=../elsewhere/compose.yaml" }, "", "", "", "",
	  "outside-repository ../elsewhere/compose.yaml -:0", NULL },
	{ "COMPOSE_FILE with an empty entry",
	  { { "compose.yaml", "services: {}\n" } },
	  { "COMPOSE_FILE=compose.yaml:" }, "compose.yaml", "", "", "",
	  "file-missing - -:0", NULL },
	/* preflight.yaml compose: (precedence: exported > preflight.yaml >
	 * .env > the default names) */
	{ "preflight.yaml compose.files and profiles",
	  { { "preflight.yaml", "version: 1\ncompose:\n  files: [docker-compose.dev.yml]\n"
	      "  profiles: [debug]\n" },
	    { "docker-compose.yml", "services:\n  prod:\n    ports: [\"80:80\"]\n" },
	    { "docker-compose.dev.yml", STACK }, { ".env", DOTENV } },
	  { NULL }, "docker-compose.dev.yml", "debug", "",
	  "5432 db, 6379 cache, 3000 web, 8025 mailpit, 8081 adminer", "", NULL },
	/* compose.files is docker compose -f: the first file's directory's
	 * .env, not the repository's (compose.go setEnvWithDotEnv,
	 * toProjectOptions: GetWorkingDir is the first -f file's directory) */
	{ "preflight.yaml compose.files in docker/: docker/.env, not the root's",
	  { { "preflight.yaml", "version: 1\ncompose:\n  files: [docker/compose.yml]\n" },
	    { ".env", "API_PORT=4000\nCOMPOSE_PROFILES=debug\n" },
	    { "docker/compose.yml", "services:\n  api:\n    ports: [\"${API_PORT:-1}:4000\", "
	      "\"${DEBUG_PORT:-2}:9229\"]\n  dbg:\n    profiles: [debug]\n" },
	    { "docker/.env", "DEBUG_PORT=9230\n" } },
	  { NULL }, "docker/compose.yml", "", "dbg(debug)", "1 api, 9230 api", "", NULL },
	{ "preflight.yaml compose.files in docker/, no .env there: none",
	  { { "preflight.yaml", "version: 1\ncompose:\n  files: [docker/compose.yml]\n" },
	    { ".env", "API_PORT=4000\n" },
	    { "docker/compose.yml", "services:\n  api:\n    ports: [\"${API_PORT:-1}:4000\"]\n" } },
	  { NULL }, "docker/compose.yml", "", "", "1 api", "", NULL },
	{ "preflight.yaml compose.files at the top: the root's .env",
	  { { "preflight.yaml", "version: 1\ncompose:\n  files: [dev.yml]\n" },
	    { ".env", "API_PORT=4000\n" },
	    { "dev.yml", "services:\n  api:\n    ports: [\"${API_PORT:-1}:4000\"]\n" } },
	  { NULL }, "dev.yml", "", "", "4000 api", "", NULL },
	{ "preflight.yaml wins over COMPOSE_FILE in .env",
	  { { "preflight.yaml", "version: 1\ncompose: {files: [b.yml]}\n" },
	    { ".env", "COMPOSE_FILE=a.yml\n" },
	    { "a.yml", "services:\n  a:\n    ports: [\"1:1\"]\n" },
	    { "b.yml", "services:\n  b:\n    ports: [\"2:1\"]\n" } },
	  { NULL }, "b.yml", "", "", "2 b", "",
	  "COMPOSE_FILE in .env:1 is not used: preflight.yaml compose.files wins" },
	{ "an exported COMPOSE_FILE wins over preflight.yaml",
	  { { "preflight.yaml", "version: 1\ncompose: {files: [b.yml]}\n" },
	    { "a.yml", "services:\n  a:\n    ports: [\"1:1\"]\n" },
	    { "b.yml", "services:\n  b:\n    ports: [\"2:1\"]\n" } },
	  { "COMPOSE_FILE=a.yml" }, "a.yml", "", "", "1 a", "",
	  "preflight.yaml compose.files (line 2) is not used" },
	{ "preflight.yaml profiles: [] turns the .env's off",
	  { { "preflight.yaml", "version: 1\ncompose: {profiles: []}\n" },
	    { "compose.yaml", STACK }, { ".env", DOTENV "COMPOSE_PROFILES=debug\n" } },
	  { NULL }, "compose.yaml", "", "mailpit(debug) adminer(tools, debug)",
	  "5432 db, 6379 cache, 3000 web", "", NULL },
	/* variables anywhere (interpolation.Interpolate) */
	{ "unset ${VAR:?}: named with its line, once",
	  { { "compose.yaml", STACK "  other:\n    environment: [\"P=${POSTGRES_PASSWORD:?x}\"]\n" } },
	  { NULL }, "compose.yaml", "", "mailpit(debug) adminer(tools, debug)",
	  "5432 db, 6379 cache, 3000 web", "variable-unset POSTGRES_PASSWORD compose.yaml:5",
	  NULL },
	{ "set but empty: :? fails, ? does not",
	  { { "compose.yaml", "services:\n  a:\n    image: ${TAG?need TAG}\n"
	      "    command: ${CMD:?need CMD}\n" }, { ".env", "TAG=\nCMD=\n" } },
	  { NULL }, "compose.yaml", "", "", "", "variable-unset CMD compose.yaml:4", NULL },
	{ "in an extension field and in include",
	  { { "compose.yaml", "x-common: &c\n  image: ${IMAGE:?}\n"
	      "include:\n  - ${INC:?where}\n" } },
	  { NULL }, "compose.yaml", "", "", "",
	  "variable-unset IMAGE compose.yaml:2, variable-unset INC compose.yaml:4", NULL },
	{ "COMPOSE_DISABLE_ENV_FILE: the .env is not read",
	  { { "compose.yaml", "services:\n  a:\n    image: ${IMAGE:?}\n" },
	    { ".env", "IMAGE=x\n" } },
	  { "COMPOSE_DISABLE_ENV_FILE=true" }, "compose.yaml", "", "", "",
	  "variable-unset IMAGE compose.yaml:3", NULL },
	{ "$$ is a literal dollar",
	  { { "compose.yaml", "services:\n  a:\n    command: echo $$HOME ${X:-$$}\n" } },
	  { NULL }, "compose.yaml", "", "", "", "", NULL },
};

/* "a, b" of what the model says about the row's fields */
static char *files_of(const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nfiles; i++)
		buf_printf(&b, "%s%s", i ? " + " : "", cs->files[i]);
	return b.s ? buf_detach(&b) : xstrdup("");
}

static char *profiles_of(const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nprofiles; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", cs->profiles[i]);
	return b.s ? buf_detach(&b) : xstrdup("");
}

static char *skipped_of(const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nskipped; i++)
		buf_printf(&b, "%s%s(%s)", i ? " " : "", cs->skipped[i].service,
			   cs->skipped[i].profiles);
	return b.s ? buf_detach(&b) : xstrdup("");
}

static char *ports_of(const struct spec *spec)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < spec->nports; i++)
		if (spec->ports[i].src == SRC_COMPOSE)
			buf_printf(&b, "%s%u %s", b.len ? ", " : "",
				   spec->ports[i].port, spec->ports[i].service);
	return b.s ? buf_detach(&b) : xstrdup("");
}

static const char *kind_name(enum compose_problem_kind k)
{
	static const char *const names[] = {
		"variable-unset", "variable-syntax", "file-missing", "include-cycle",
		"outside-repository", "bad-port", "bad-dependency", "invalid",
		"env-file-missing",
	};

	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "?";
}

static char *problems_of(const struct compose_spec *cs)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < cs->nproblems; i++) {
		const struct compose_problem *p = &cs->problems[i];

		buf_printf(&b, "%s%s %s %s:%u", i ? ", " : "", kind_name(p->kind),
			   p->name ? p->name : "-", p->origin.file ? p->origin.file : "-",
			   p->origin.line);
	}
	return b.s ? buf_detach(&b) : xstrdup("");
}

static int note_has(const struct compose_spec *cs, const char *want)
{
	size_t i;

	for (i = 0; i < cs->nnotes; i++)
		if (strstr(cs->notes[i], want))
			return 1;
	return 0;
}

/* No .env value ("secret") anywhere in what the model would show. */
static int shows_secret(const struct compose_spec *cs)
{
	size_t i;

	for (i = 0; i < cs->nproblems; i++)
		if (strstr(cs->problems[i].message, "secret") ||
		    (cs->problems[i].name && strstr(cs->problems[i].name, "secret")))
			return 1;
	for (i = 0; i < cs->nnotes; i++)
		if (strstr(cs->notes[i], "secret"))
			return 1;
	for (i = 0; i < cs->nprofiles; i++)
		if (strstr(cs->profiles[i], "secret"))
			return 1;
	return 0;
}

static void set_env(const char *const *env, int set)
{
	size_t i;

	for (i = 0; i < 3 && env[i]; i++) {
		const char *eq = strchr(env[i], '=');
		char *key = xstrndup(env[i], (size_t)(eq - env[i]));

		if (set)
			setenv(key, eq + 1, 1);
		else
			unsetenv(key);
		free(key);
	}
}

static void check_field(char *got, const char *want, const char *what,
			const char *field)
{
	CHECK_STR(got, want, "%s: %s", what, field);
	free(got);
}

static void test_rows(void)
{
	static const char *const vars[] = {
		"COMPOSE_FILE", "COMPOSE_PROFILES", "COMPOSE_PATH_SEPARATOR",
		"COMPOSE_DISABLE_ENV_FILE", "POSTGRES_PASSWORD", "DB_PORT", "PG_PORT",
		"DEV_PORT", "API_PORT", "DEBUG_PORT", "IMAGE", "INC", "TAG", "CMD",
		"NOPE", "X",
	};
	size_t i, k;

	for (i = 0; i < ARRAY_SIZE(vars); i++)
		unsetenv(vars[i]);
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct prow *r = &rows[i];
		const char *dir = test_tmpdir("project");
		struct spec spec;
		struct errbuf err;

		for (k = 0; k < 8 && r->files[k].name; k++)
			test_write_str(dir, r->files[k].name, r->files[k].text);
		set_env(r->env, 1);
		err.msg[0] = '\0';
		if (spec_load_any(dir, &spec, &err) < 0) {
			CHECK(0, "%s: loads: %s", r->what, err.msg);
			set_env(r->env, 0);
			continue;
		}
		set_env(r->env, 0);
		check_field(files_of(&spec.compose), r->files_want, r->what, "files");
		check_field(profiles_of(&spec.compose), r->profiles_want, r->what,
			    "profiles");
		check_field(skipped_of(&spec.compose), r->skipped_want, r->what,
			    "skipped");
		check_field(ports_of(&spec), r->ports_want, r->what, "ports");
		check_field(problems_of(&spec.compose), r->problems_want, r->what,
			    "problems");
		if (r->note_want)
			CHECK(note_has(&spec.compose, r->note_want), "%s: a note '%s'",
			      r->what, r->note_want);
		CHECK(!shows_secret(&spec.compose), "%s: no .env value shown", r->what);
		CHECK(spec.compose.used, "%s: a compose.config check", r->what);
		spec_release(&spec);
	}
}

/* What compose would refuse is quoted as written, never substituted. */
static void test_messages(void)
{
	const char *dir = test_tmpdir("messages");
	struct spec spec;
	struct errbuf err;

	test_write_str(dir, "compose.yaml", "services:\n  a:\n"
		       "    ports: [\"${P}:80\"]\n    image: ${TAG:?tag the ${X} image}\n");
	test_write_str(dir, ".env", "P=99999secret\nX=secretx\n");
	CHECK(spec_load_any(dir, &spec, &err) == 0, "%s", err.msg);
	CHECK_INT(spec.compose.nproblems, 2, "two problems");
	if (spec.compose.nproblems == 2) {
		CHECK_STR(spec.compose.problems[0].message,
			  "required variable TAG is missing a value: tag the ${X} image",
			  "the message as written");
	}
	spec_release(&spec);

	/* a long message is cut on a character boundary */
	test_write_str(dir, "compose.yaml", "x-a: ${V:?"
		       "ééééééééééééééééééééééééééééééééééééééééééééééééé}\n");
	CHECK(spec_load_any(dir, &spec, &err) == 0, "%s", err.msg);
	if (spec.compose.nproblems == 1)
		CHECK_STR(spec.compose.problems[0].message, "required variable V "
			  "is missing a value: éééééééééééééééééééééééééééééééééééééééé...",
			  "cut on a character");
	spec_release(&spec);

	test_write_str(dir, "compose.yaml", "services:\n  a:\n"
		       "    ports: [\"${P}:80\"]\n    image: ${TAG:?tag the ${X} image}\n");
	CHECK(spec_load_any(dir, &spec, &err) == 0, "%s", err.msg);
	if (spec.compose.nproblems == 2) {
		CHECK_STR(spec.compose.problems[0].message,
			  "required variable TAG is missing a value: tag the ${X} image",
			  "the message as written");
		CHECK_STR(spec.compose.problems[1].message,
			  "'services.a.ports': '${P}:80' is not a valid port entry once "
			  "its variables are substituted", "the entry as written");
	}
	spec_release(&spec);
}

/* A repository without compose files has no compose check, even when
 * COMPOSE_FILE is exported for another project; a parse error still
 * stops the audit. */
static void test_unused_and_errors(void)
{
	const char *dir = test_tmpdir("nocompose");
	struct spec spec;
	struct errbuf err;

	test_write_str(dir, "package.json", "{}\n");
	setenv("COMPOSE_FILE", "elsewhere.yml", 1);
	CHECK(spec_load_any(dir, &spec, &err) == 0, "%s", err.msg);
	unsetenv("COMPOSE_FILE");
	CHECK(!spec.compose.used, "no compose.config");
	spec_release(&spec);

	dir = test_tmpdir("badinclude");
	test_write_str(dir, "compose.yaml", "include: [sub/compose.yaml]\n");
	test_write_str(dir, "sub/compose.yaml", "services: [\n");
	CHECK(spec_load_any(dir, &spec, &err) == -1 &&
	      !strncmp(err.msg, "sub/compose.yaml:2:1:", 21),
	      "an included file that does not parse: %s", err.msg);

	dir = test_tmpdir("pfbad");
	test_write_str(dir, "preflight.yaml", "version: 1\ncompose: {file: [a]}\n");
	CHECK(spec_load_any(dir, &spec, &err) == -1 &&
	      strstr(err.msg, "unknown key 'file' in 'compose'"), "strict: %s", err.msg);
	test_write_str(dir, "preflight.yaml", "version: 1\ncompose: {files: [../a.yml]}\n");
	CHECK(spec_load_any(dir, &spec, &err) == -1 &&
	      strstr(err.msg, "'compose.files' must be relative paths inside"),
	      "inside: %s", err.msg);
	test_write_str(dir, "preflight.yaml", "version: 1\ncompose: {profiles: [\"a b\"]}\n");
	CHECK(spec_load_any(dir, &spec, &err) == -1 &&
	      strstr(err.msg, "is not a profile name"), "profile name: %s", err.msg);
}

/* ---- composevar: the interpolation alone (template/template.go) ---- */

static const char *row_lookup(void *ctx, const char *name, size_t n)
{
	/* ctx: "A=1\nB=\n": a variable is set when it has a line */
	static char value[64];
	const char *p = ctx;

	while (p && *p) {
		const char *eq = strchr(p, '='), *nl = strchr(p, '\n');

		if (eq && (size_t)(eq - p) == n && !strncmp(p, name, n)) {
			size_t len = nl ? (size_t)(nl - eq - 1) : strlen(eq + 1);

			snprintf(value, sizeof(value), "%.*s", (int)len, eq + 1);
			return value;
		}
		p = nl ? nl + 1 : NULL;
	}
	return NULL;
}

static const struct var_row {
	const char *text, *vars;
	const char *want;	/* the output, or "UNSET name: msg" / "SYNTAX" */
} var_rows[] = {
	{ "plain", "", "plain" },
	{ "$$A and $${A}", "A=1\n", "$A and ${A}" },
	{ "$A-${A}-${B}", "A=1\nB=\n", "1-1-" },
	{ "${UNSET}x", "", "x" },
	{ "${A:-d} ${A-d}", "A=\n", "d " },
	{ "${U:-d} ${U-d}", "", "d d" },
	{ "${A:+alt}|${A+alt}|${U+alt}", "A=\n", "|alt|" },
	{ "${A:-${B:-${C:-deep}}}", "", "deep" },
	{ "${A:?need A}", "A=1\n", "1" },
	{ "${A?need A}", "A=\n", "" },
	{ "x ${A:?need A} y", "A=\n", "UNSET A: need A" },
	{ "${A?}", "", "UNSET A: " },
	{ "${A:?a ${B} b}", "", "UNSET A: a ${B} b" },
	{ "${B:-${A:?inner}}", "", "UNSET A: inner" },
	/* a '$' that starts nothing compose-go's pattern matches stays as
	 * written (template_test.go TestUnescaped), and so does the text of
	 * a shell command or a regex (issue 21: 26,367 of 300,000 generated
	 * compose files failed on one) */
	{ "$", "", "$" },
	{ "$ x", "", "$ x" },
	{ "$1", "", "$1" },
	{ "a $ string", "", "a $ string" },
	{ "^REGEX$", "", "^REGEX$" },
	{ "$}", "", "$}" },
	{ "echo $1; awk '{print $2}' $", "", "echo $1; awk '{print $2}' $" },
	/* a "${" no braced form follows (TestInvalid) */
	{ "${", "", "SYNTAX" },
	{ "${A", "A=1\n", "SYNTAX" },
	{ "${}", "", "SYNTAX" },
	{ "${ }", "", "SYNTAX" },
	{ "${ foo}", "", "SYNTAX" },
	{ "${foo }", "", "SYNTAX" },
	{ "${foo!}", "", "SYNTAX" },
	{ "${1A}", "", "SYNTAX" },
	{ "${A:x}", "", "SYNTAX" },
	{ "${A:-x\n}", "", "SYNTAX" },	/* '.' stops at a newline */
	{ "${a_b9}", "a_b9=lower\n", "lower" },
	/* template_test.go's own cases, its mapping FOO=first, BAR= and
	 * JSON={"json":2} */
	{ "$${foo}", "", "${foo}" },
	{ "$FOO-bar", "FOO=first\n", "first-bar" },
	{ "ok ${BAR:-/non:-alphanumeric}", "BAR=\n", "ok /non:-alphanumeric" },
	{ "+ok ${UNSET:-${BAR-defaultValue}}", "BAR=\n", "+ok " },
	{ ":?ok ${BAR:-defaultValue}", "BAR=\n", ":?ok defaultValue" },
	{ "ok ${UNSET_VAR-${FOO} ${FOO}}", "FOO=first\n", "ok first first" },
	{ "ok ${BAR+$FOO ${FOO:+second}}", "FOO=first\nBAR=\n", "ok first second" },
	{ "ok ${missing:-{\"json\":1}}", "", "ok {\"json\":1}" },
	{ "ok ${missing-{\"json\":1}}", "", "ok {\"json\":1}" },
	{ "ok ${JSON:-{\"json\":1}}", "JSON={\"json\":2}\n", "ok {\"json\":2}" },
	/* the match is greedy to the line's last '}', then cut at its own
	 * closing brace, and the rest substituted on */
	{ "${A:-a} ${B:-b} x}", "", "a b x}" },
	/* getFirstBraceClosingIndex skips the byte after each '{': "{}"
	 * closes nothing, and the match runs to the line's last '}' */
	{ "${A:-{}} and ${A-}}", "", "{}} and " },
	{ "${A:-${A:-${A:-${A:-${A:-${A:-${A:-${A:-${A:-${A:-x}}}}}}}}}}", "", "x" },
};

static void test_composevar(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(var_rows); i++) {
		const struct var_row *r = &var_rows[i];
		struct buf out = BUF_INIT, got = BUF_INIT;
		struct composevar_error e;
		int rc = composevar_subst(r->text, strlen(r->text), row_lookup,
					  (void *)r->vars, &out, &e);

		if (rc == 0)
			buf_puts(&got, buf_str(&out));
		else if (e.status == COMPOSEVAR_UNSET)
			buf_printf(&got, "UNSET %.*s: %.*s", (int)e.name_len, e.name,
				   (int)e.msg_len, e.msg ? e.msg : "");
		else
			buf_puts(&got, "SYNTAX");
		CHECK_STR(buf_str(&got), r->want, "'%s'", r->text);
		CHECK_INT(rc == 0, e.status == COMPOSEVAR_OK, "'%s': status", r->text);
		buf_release(&out);
		buf_release(&got);
	}
}

/* A row's variables: a JSON object of the set ones */
static const char *json_lookup(void *ctx, const char *name, size_t n)
{
	const cJSON *v;

	cJSON_ArrayForEach(v, (const cJSON *)ctx)
		if (strlen(v->string) == n && !memcmp(v->string, name, n))
			return cJSON_GetStringValue(v);
	return NULL;
}

/* One of compose-go's own answers (tests/fixtures/compose/README): the
 * row's output, or its refusal, must be composevar's */
static void vector_row(char *line, int n, void *ctx)
{
	cJSON *row = cJSON_Parse(line), *want, *env;
	const char *text, *st;
	struct buf out = BUF_INIT, got = BUF_INIT, exp = BUF_INIT;
	struct composevar_error e;

	(void)ctx;
	want = cJSON_GetObjectItemCaseSensitive(row, "want");
	env = cJSON_GetObjectItemCaseSensitive(row, "env");
	text = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "text"));
	st = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(want, "status"));
	if (!text || !st) {
		CHECK(0, "vector %d is not one", n);
		cJSON_Delete(row);
		return;
	}
	if (composevar_subst(text, strlen(text), json_lookup, env, &out, &e) == 0) {
		buf_printf(&got, "ok %s", buf_str(&out));
	} else if (e.status == COMPOSEVAR_UNSET) {
		/* compose's message is the one substituted */
		struct buf msg = BUF_INIT;
		struct composevar_error e2;

		buf_printf(&got, "unset %.*s: ", (int)e.name_len, e.name);
		if (composevar_subst(e.msg ? e.msg : "", e.msg_len, json_lookup, env,
				     &msg, &e2) == 0)
			buf_puts(&got, buf_str(&msg));
		else
			buf_puts(&got, "(the message fails)");
		buf_release(&msg);
	} else {
		buf_puts(&got, "syntax");
	}
	if (!strcmp(st, "ok"))
		buf_printf(&exp, "ok %s", cJSON_GetStringValue(
				   cJSON_GetObjectItemCaseSensitive(want, "out")));
	else if (!strcmp(st, "unset"))
		buf_printf(&exp, "unset %s: %s",
			   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(want, "name")),
			   cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(want, "msg")));
	else
		buf_puts(&exp, st);
	CHECK_STR(buf_str(&got), buf_str(&exp), "compose-go vector %d '%s'", n, text);
	buf_release(&out);
	buf_release(&got);
	buf_release(&exp);
	cJSON_Delete(row);
}

/* compose-go's own answers to 3,000 generated inputs */
static void test_composevar_vectors(void)
{
	int n = test_each_line("tests/fixtures/compose/template-vectors.jsonl",
			       vector_row, NULL);

	CHECK(n < 0 || n == 3000, "%d vectors, want 3000", n);
}

/* A compose project of thousands of services, profiles, dependencies and
 * missing env files, each looked up by an index (fuzz_compose's cost pass
 * found the scans: 4,000 services of 20 missing env files each took 42 s
 * to load, 80,000 profiles named in the .env 19 s, 80,000 dependencies of
 * one service 10 s).  The answers are asserted; how long they take is the
 * fuzz run's business. */
static void test_many(void)
{
	const char *dir = test_tmpdir("many");
	struct buf y = BUF_INIT, e = BUF_INIT;
	struct spec spec;
	struct errbuf err;
	size_t i, j;

	buf_puts(&y, "services:\n  big:\n    image: x\n    profiles: [");
	for (i = 0; i < 20000; i++)
		buf_printf(&y, "%sp%zu", i ? ", " : "", i);
	buf_puts(&y, "]\n    depends_on: [");
	for (i = 0; i < 20000; i++)
		buf_printf(&y, "%ss%zu", i ? ", " : "", i % 1000);
	buf_puts(&y, "]\n");
	for (i = 0; i < 1000; i++) {
		buf_printf(&y, "  s%zu:\n    image: x\n    env_file: [", i);
		for (j = 0; j < 20; j++)
			buf_printf(&y, "%se%zu.env", j ? ", " : "", (i * 20 + j) % 19000);
		buf_puts(&y, "]\n");
	}
	buf_puts(&e, "COMPOSE_PROFILES=");
	for (i = 0; i < 20000; i++)
		buf_printf(&e, "%sp%zu", i ? "," : "", 19999 - i);
	buf_puts(&e, ",p0,unnamed\n");
	test_write_str(dir, "compose.yaml", buf_str(&y));
	test_write_str(dir, ".env", buf_str(&e));
	if (spec_load_any(dir, &spec, &err) != 0) {
		CHECK(0, "load: %s", err.msg);
	} else {
		const struct compose_spec *cs = &spec.compose;

		CHECK_INT(cs->nprofiles, 20000, "every named profile active, once");
		CHECK_INT(cs->profiles_unnamed, 1, "the one no service names");
		CHECK_INT(cs->nskipped, 0, "no service skipped");
		/* 19,000 distinct missing files: 64 kept, the rest counted;
		 * the first is named by s0 and s950 */
		CHECK_INT(cs->nproblems + cs->problems_more, 19000,
			  "one problem per missing file");
		if (cs->nproblems)
			CHECK_STR(cs->problems[0].message, "env_file 'e0.env' of "
				  "service s0 and 1 more service does not exist: "
				  "docker compose up stops (env file not found)",
				  "grouped by file");
		spec_release(&spec);
	}
	buf_release(&y);
	buf_release(&e);
}

void test_main(void)
{
	test_many();
	test_composevar();
	test_composevar_vectors();
	test_rows();
	test_messages();
	test_unused_and_errors();
}
