/* spec.h - the read-only model of what a repository requires.
 *
 * spec_load() reads every spec file of one repository once, before any
 * probe runs, and fills one struct spec.  Probes only read it (they get a
 * const pointer from the runner), so no locks are needed.  Every
 * requirement keeps its provenance, so that --explain, JSON "source" and a
 * future `envpreflight init` can say where it came from.
 */
#ifndef EP_SPEC_H
#define EP_SPEC_H

#include <stddef.h>

#include "dotenv.h"
#include "origin.h"
#include "sandbox.h"
#include "util.h"


/*
 * Where a requirement comes from, set once by its loader.  Everything
 * downstream (check ids, titles, hints, JSON "source_key") reads it and
 * never re-derives it from a file name or from the requirement's text.
 * The names are in spec.c's table; a check id's source part is
 * req_source_key(): part of envpreflight/1, so never rename one.
 */
enum req_source {
	SRC_PREFLIGHT,		/* preflight.yaml */
	SRC_ENGINES,		/* package.json engines */
	SRC_DEV_ENGINES,	/* package.json devEngines */
	SRC_PACKAGE_MANAGER,	/* package.json packageManager */
	SRC_VOLTA,		/* package.json volta */
	SRC_NVMRC,		/* .nvmrc */
	SRC_NODE_VERSION,	/* .node-version */
	SRC_PYTHON_VERSION,	/* .python-version */
	SRC_PYPROJECT,		/* pyproject.toml requires-python */
	SRC_SETUP_CFG,		/* setup.cfg python_requires */
	SRC_TOOL_VERSIONS,	/* .tool-versions (asdf, mise) */
	SRC_GO_MOD,		/* go.mod's go line */
	SRC_GO_TOOLCHAIN,	/* go.mod's toolchain line */
	SRC_RUBY_VERSION,	/* .ruby-version */
	SRC_RUST_TOOLCHAIN,	/* rust-toolchain(.toml) */
	SRC_MISE,		/* mise.toml [tools] (and mise's other names) */
	SRC_BUN_VERSION,	/* .bun-version */
	SRC_POETRY,		/* pyproject.toml [tool.poetry.dependencies] python */
	SRC_JAVA_VERSION,	/* .java-version (jenv) */
	SRC_SDKMANRC,		/* .sdkmanrc java= */
	SRC_MIX,		/* mix.exs project elixir: */
	SRC_GEMFILE,		/* Gemfile ruby directive */
	SRC_DVMRC,		/* .dvmrc (dvm, setup-deno) */
	SRC_DENO_VERSION,	/* .deno-version (mise, asdf-deno) */
	SRC_COMPOSE,		/* a port a compose service publishes */
	SRC_ENV_URL,		/* a .env *_URL value naming this machine */
	SRC_ENV_PORT,		/* a .env PORT-style key: the app's own port */
};
#define SRC_COUNT (SRC_ENV_PORT + 1)

/* "engines", "nvmrc", ...: the id part and JSON source_key (static) */
const char *req_source_key(enum req_source s);
/* "package.json engines", ".nvmrc", ...: for titles and messages */
const char *req_source_label(enum req_source s);
/* 1 for a source a version manager reads to choose the version it runs
 * (.nvmrc, .node-version, .python-version, .tool-versions, volta,
 * packageManager, .ruby-version, rust-toolchain, mise.toml,
 * .bun-version, .dvmrc, .deno-version): a version file or a pin, not a
 * range. */
int req_source_selects(enum req_source s);

struct env_key {
	char *name;
	struct origin origin;
};

struct env_spec {
	char *file;		/* the .env as configured (repo-relative or
				 * absolute); by default .env, or the target
				 * of a .env.NAME.example (spec_env.c) */
	char *file_abs;		/* the same, joined to the root */
	struct origin file_origin;	/* where env.file was set; file NULL: default */
	char *example;		/* repo-relative example file, NULL: none found */
	struct origin example_origin;
	const char **other_examples;	/* the other example names that exist
					 * (static strings); the list owned */
	size_t nother_examples;
	int process_env;	/* a key exported in our environment counts */
	struct env_key *required;	/* beyond the example */
	size_t nrequired;
	struct env_key *optional;	/* may be missing or empty */
	size_t noptional;

	struct dotenv example_doc;	/* parsed example (valid when example) */
	int env_errno;		/* 0: .env read; ENOENT: missing; else why not
				 * (saferead.h's codes: EINVAL not a regular file) */
	struct dotenv env_doc;		/* parsed .env (valid when !env_errno) */
	/* .env is not text: where and what (what NULL when it is fine) */
	const char *env_bad_what;
	unsigned env_bad_line, env_bad_col;
};

/* What one source wants of a port. */
enum port_expect {
	PORT_FREE,		/* we will bind it: nothing else may */
	PORT_LISTENING,		/* a service we depend on must be up */
};
/* Only TCP is checked; a UDP or SCTP entry is kept so that the report can
 * say it was not checked. */
enum port_proto { PORT_TCP, PORT_UDP, PORT_SCTP };

/* What a port requirement names.  Most name a port to look up; two kinds
 * from spec_urls.c and one from spec_compose.c name none, and the ports
 * probe reports each as a check of its own (a cap as a skipped one). */
enum port_req_kind {
	PORT_REQ_PORT,		/* port (..port_last), proto: look it up */
	PORT_REQ_BAD_URL,	/* a *_URL key names this machine with a port
				 * that is not 1-65535; service is the key */
	PORT_REQ_URLS_CAPPED,	/* past the cap on *_URL requirements,
				 * capped more keys named a local port;
				 * service is the first of them */
	PORT_REQ_COMPOSE_CAPPED,	/* past the cap on compose host
				 * ports, capped more were published; the
				 * first of them at origin, its service */
};

/* Every source's port requirement is kept, also when several name the same
 * port: the ports probe decides which one is checked (preflight.yaml over
 * what is discovered, listening over free) and notes the others. */
struct port_req {
	enum port_req_kind kind;
	enum req_source src;	/* SRC_PREFLIGHT, SRC_COMPOSE, SRC_ENV_URL, SRC_ENV_PORT */
	unsigned port;		/* PORT_REQ_PORT: 1-65535; else unused */
	unsigned port_last;	/* > port: any one free port of port..port_last
				 * will do (a compose host range for one
				 * container port); else 0 */
	unsigned capped;	/* PORT_REQ_URLS_CAPPED: keys not taken;
				 * PORT_REQ_COMPOSE_CAPPED: ports */
	enum port_expect expect;
	int app;		/* PORT_FREE for the repository's own app (an
				 * http:// URL, a PORT key): another program
				 * holding it is a warning, not a failure */
	enum port_proto proto;
	struct origin origin;
	char *service;		/* SRC_COMPOSE: the service ("db"); SRC_ENV_*:
				 * the key ("DATABASE_URL"); else NULL */
	char *scheme;		/* SRC_ENV_URL: the URL's scheme, lowercase */
	const char *ws;		/* the workspace that wants it ("apps/web",
				 * its model's string), NULL for the
				 * repository: ports are one namespace, so a
				 * workspace's requirements are resolved with
				 * the repository's (spec_workspaces.c) */
};

/*
 * What the ports probe checks for one port, resolved once at load time
 * from every requirement that names it (spec_ports.c), so that the probe
 * only reads it.  In order of precedence:
 */
enum port_rule {
	PORT_RULE_FREE,		/* preflight.yaml ports.free: a holder fails */
	PORT_RULE_LISTEN,	/* preflight.yaml ports.listening, or a service
				 * URL (postgres://localhost:5432): must listen */
	PORT_RULE_STACK,	/* the compose stack publishes it: free (the
				 * stack is down) or held by a container (it is
				 * up) pass; a host process is a collision */
	PORT_RULE_STACK_UP,	/* the same, and a service URL depends on it:
				 * free fails too (start the stack) */
	PORT_RULE_APP,		/* only the repository's own app wants it (an
				 * http:// URL, a PORT key): free passes, a
				 * holder from this repository fails, another
				 * holder warns */
};

/* One check of the ports probe: a port (or a compose range, or a *_URL
 * mark that names no port) with every requirement behind it. */
struct port_record {
	const struct port_req *req;	/* the one that decides: its origin
					 * is the check's source */
	enum port_rule rule;
	const struct port_req *stack;	/* the first compose service that
					 * publishes it, or NULL */
	const struct port_req *user;	/* a service URL that needs it up,
					 * or NULL */
	const struct compose_other *other;	/* no stack publishes it, but
					 * a service of this other compose file
					 * of the repository does (other_service),
					 * or NULL */
	const char *other_service;
	size_t *reqs;		/* spec->ports indices of every requirement of
				 * this port, model order (req among them) */
	size_t nreqs;
};

/* How a runtime requirement's text is to be read. */
enum req_kind {
	REQ_SEMVER,		/* npm semver range (engines, preflight.yaml) */
	REQ_NVMRC,		/* .nvmrc / .node-version, as nvm reads it */
	REQ_PEP440,		/* python specifier */
	REQ_PYENV,		/* .python-version prefix rule */
	REQ_EXACT,		/* packageManager: that exact version */
	REQ_GO_MIN,		/* go.mod: at least */
	REQ_ASDF,		/* .tool-versions: exact, or prefix */
	REQ_ANY,		/* only needs to be present */
	REQ_DEV_ENGINES,	/* devEngines runtime/packageManager, as npm's
				 * checkDevEngines: a semver range (no
				 * prereleases), else the exact text; "": any */
	REQ_PLATFORM,		/* devEngines cpu/os/libc: name is "cpu", "os"
				 * or "libc", spec the wanted value ("linux"),
				 * platform_version os's version range or NULL */
	REQ_POETRY,		/* a poetry constraint ("^3.10"), poetrycon.h */
	REQ_ELIXIR,		/* an Elixir requirement ("~> 1.15"), elixirreq.h */
	REQ_GEM,		/* RubyGems requirements ("~> 3.3, < 3.5"), gemreq.h */
};

/* What a requirement that is not met makes of its check: set by the
 * loader from the source's own rule (npm's devEngines onFail, pnpm's
 * package-manager-strict-version), so that the probe only reads it. */
enum req_severity {
	SEV_FAIL,		/* the default */
	SEV_WARN,		/* the tool warns and goes on */
	SEV_SKIP,		/* the tool ignores it (onFail "ignore") */
};

struct runtime_req {
	char *name;		/* "node", "python", "pnpm", or any tool */
	char *spec;		/* the requirement as written */
	enum req_kind kind;
	enum req_source src;
	struct origin origin;
	/* The file holds a requirement its own tool would reject (an .nvmrc
	 * with no version line, a .tool-versions plugin without a version,
	 * a go line go refuses): why, without the file name; the check fails
	 * with it (or warns, with `unmet` SEV_WARN: one envpreflight cannot
	 * read).  NULL: none. */
	char *problem;
	enum req_severity unmet;	/* a version found that does not satisfy it */
	enum req_severity missing;	/* no binary at all */
	const char *unmet_rule;	/* why unmet is not SEV_FAIL (spec-owned or
				 * static), or NULL */
	/* devEngines: this and the next nalt - 1 requirements are the
	 * alternatives of one key (one check: any one met passes); 0 for
	 * those next ones, which have no check of their own; 1 otherwise */
	unsigned nalt;
	char *platform_version;	/* REQ_PLATFORM os: devEngines' version */

	char **command;		/* argv to ask the version (NULL-terminated), or NULL */
	char *version_regex;	/* or NULL */
};

struct tool_req {
	char *name;
	struct origin origin;
};

/* ---- compose: what `docker compose up` would read and start ----------
 * spec_compose.c fills struct compose_spec (spec_preflight.c only the
 * pf_ lists); the compose probe (check compose.config) only reads it. */

/* Who chose the compose files, or the active profiles.  In this order of
 * precedence (see the man page, FILES): */
enum compose_from {
	COMPOSE_FROM_ENV,	/* COMPOSE_FILE / COMPOSE_PROFILES exported */
	COMPOSE_FROM_PREFLIGHT,	/* preflight.yaml compose.files / .profiles */
	COMPOSE_FROM_DOTENV,	/* COMPOSE_FILE / COMPOSE_PROFILES in the .env */
	COMPOSE_FROM_DEFAULT,	/* compose.yaml, ... in the root; no profile */
};

/* What `docker compose up` would refuse; each fails compose.config. */
enum compose_problem_kind {
	COMPOSE_VAR_UNSET,	/* ${VAR:?msg} or ${VAR?msg} with VAR unset
				 * (:? also empty); name is VAR */
	COMPOSE_VAR_SYNTAX,	/* a "$" compose cannot interpolate */
	COMPOSE_FILE_MISSING,	/* COMPOSE_FILE, compose.files or an include
				 * names no file */
	COMPOSE_INCLUDE_CYCLE,	/* an include that includes itself again */
	COMPOSE_OUTSIDE,	/* an include or COMPOSE_FILE entry that leaves
				 * the repository: refused, never read */
	COMPOSE_BAD_PORT,	/* a ports entry compose rejects */
	COMPOSE_BAD_DEPENDENCY,	/* depends_on a service a profile disables,
				 * or one that is not defined */
	COMPOSE_INVALID,	/* another shape compose rejects
				 * ("services" not a mapping, ...) */
	COMPOSE_ENV_FILE_MISSING,	/* a started service's required
					 * env_file does not exist */
};

struct compose_problem {
	enum compose_problem_kind kind;
	char *name;		/* the variable, file or service: repository
				 * text or a file name we read, never a .env
				 * value; NULL when it cannot be shown */
	char *message;		/* one line; never holds a .env value */
	struct origin origin;
};

/* A service that `docker compose up` leaves out: no active profile. */
struct compose_skip {
	char *service;
	char *profiles;		/* "debug, tools": any of them starts it */
	struct origin origin;	/* where the service is defined */
};

struct compose_name {
	char *name;
	struct origin origin;
};

/* A host port a service of such a file publishes. */
struct compose_other_port {
	unsigned port;
	char *service;		/* repository text */
};

/* A compose file of the repository that the project does not read: its
 * name, so that the report can say it is there, and the TCP host ports
 * its services publish, so that a URL to one is that service's port
 * whatever its scheme (an http:// ClickHouse, a REST Redis). */
struct compose_other {
	const char *file;	/* repository-relative, spec-owned */
	int default_name;	/* a name docker compose up looks for in its
				 * directory (docker/docker-compose.yml) */
	size_t nservices;
	struct compose_other_port *ports;	/* by port, once each */
	size_t nports;
};

struct compose_spec {
	int used;		/* a compose file was found or named: the
				 * compose probe has a check */
	int capped_floor;	/* the count of host ports past the cap is a
				 * floor: a service held more entries than
				 * were kept */
	const char **files;	/* spec-owned names of the files read, in load
				 * order, included files too */
	size_t nfiles, files_cap;
	enum compose_from files_from;
	struct origin files_origin;	/* the COMPOSE_FILE line of the .env, or
					 * compose.files; file NULL otherwise */
	char **profiles;	/* the active profiles, in order, once each */
	size_t nprofiles, profiles_cap;
	enum compose_from profiles_from;
	struct origin profiles_origin;
	struct compose_skip *skipped;	/* in definition order */
	size_t nskipped, skipped_cap;
	struct compose_problem *problems;	/* in the order found */
	size_t nproblems, problems_cap;
	size_t problems_more;	/* found past the first 64, not kept */
	size_t profiles_unnamed;	/* active profiles from the .env that no
					 * service names: not kept, never shown */
	char **notes;		/* for --explain: what was not read and why
				 * (a remote include, a COMPOSE_FILE that
				 * lost to compose.files) */
	size_t nnotes, notes_cap;

	/* the repository's other compose files, which docker compose up at
	 * its top does not read (docker-compose.dev.yml, docker/compose.yaml) */
	struct compose_other *others;
	size_t nothers;

	/* preflight.yaml compose: (set by spec_preflight.c) */
	struct compose_name *pf_files;
	size_t npf_files;
	struct compose_name *pf_profiles;
	size_t npf_profiles;
	int pf_has_files, pf_has_profiles;
	struct origin pf_profiles_at;	/* the profiles: value */
};

/* "COMPOSE_FILE", ...: for messages (static) */
const char *compose_from_label(enum compose_from from, int profiles);

struct spec_workspaces;

/* A lockfile the deps probe compares with what is installed, found by
 * spec_deps.c.  Only its presence is learnt at load time: lockfiles run
 * to megabytes, so the probe reads and parses each on its own worker,
 * under the deadline (see probe_deps.c). */
enum lock_kind {
	LOCK_NPM,		/* package-lock.json, npm-shrinkwrap.json */
	LOCK_PNPM,		/* pnpm-lock.yaml */
	LOCK_YARN,		/* yarn.lock */
	LOCK_BUN,		/* bun.lock (bun.lockb: named, not read) */
	LOCK_UV,		/* uv.lock */
	LOCK_POETRY,		/* poetry.lock */
	LOCK_PIP,		/* requirements*.txt */
};

struct lock_req {
	enum lock_kind kind;
	struct origin origin;	/* the lockfile (spec-owned name), line 0 */
	char *id;		/* "deps.npm", "deps.pip.requirements-dev.txt" */
	/* Python: the environment to compare with, as the manager picks it
	 * (repository-relative or absolute), and what named it (static:
	 * ".venv", "VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT"); NULL: none. */
	char *venv;
	const char *venv_from;
	/* The workspaces found beside this lockfile (spec_load_opts, when it
	 * looks for them), whose node_modules a JavaScript install may write:
	 * the model's own, or NULL. */
	const struct spec_workspaces *ws;
};

/* ---- sandbox: what preflight.yaml `sandbox:` expects -----------------
 * spec_preflight.c fills struct sandbox_spec; the sandbox probe only reads
 * it.  Each key is one expectation, judged by one or more checks (the man
 * page's PREFLIGHT.YAML has the grammar, the probe the checks).  A key the
 * file does not give keeps its default, the strict sandbox; so does every
 * key when there is no `sandbox:` at all (--only=sandbox). */

/* What one key asks for. */
enum sandbox_want {
	SANDBOX_WANT_DEFAULT,	/* the key's first word above (the default) */
	SANDBOX_WANT_ANY,	/* any: the check reports, never judges */
	SANDBOX_WANT_READ_ONLY,	/* repository: read-only (its third word) */
	SANDBOX_WANT_LIST,	/* capabilities, secrets: only those listed */
	SANDBOX_WANT_MAX,	/* processes: at most max */
};

/* At most this many processes in view, unless `processes:` says */
#define SANDBOX_PROCESSES_DEFAULT 64

struct sandbox_expect {
	enum sandbox_want want;
	long max;		/* SANDBOX_WANT_MAX */
	unsigned long long caps;	/* SANDBOX_WANT_LIST capabilities: bit n
					 * allows capability n */
	unsigned secrets;	/* SANDBOX_WANT_LIST secrets: bit n allows
				 * enum sandbox_secret n (sandbox.h) */
	struct origin origin;	/* the value in preflight.yaml; file NULL:
				 * the default */
};

struct sandbox_spec {
	int used;		/* preflight.yaml has `sandbox:`: the opt-in
				 * probe runs without --only */
	struct origin origin;	/* that key */
	struct sandbox_expect want[SANDBOX_KEYS];
};

struct spec {
	char *root;		/* canonical absolute path of the audited
				 * repository (a workspace's model too: every
				 * file stays inside the repository, and PATH
				 * entries inside it are skipped) */
	char **files;		/* repo-relative names of the spec files read */
	size_t nfiles, files_cap;
	char **strings;		/* spec_intern's copies */
	size_t nstrings, strings_cap;

	int has_env;		/* anything for the env probe to compare */
	struct env_spec env;

	struct port_req *ports;
	size_t nports, ports_cap;
	struct port_record *port_records;	/* in order of first mention */
	size_t nport_records;
	struct runtime_req *runtimes;
	size_t nruntimes, runtimes_cap;
	/* past SPEC_RUNTIMES_MAX: how many requirements were not taken, and
	 * where the first of them was (the runtimes probe reports it) */
	size_t runtimes_capped;
	struct origin runtimes_capped_origin;
	/* Whether a pnpm switches itself to the version a pnpm packageManager
	 * names, as the repository's .npmrc or pnpm-workspace.yaml sets it
	 * (read with that pin only): manage-package-manager-versions (pnpm 9.7
	 * to 10; 1 on, -1 off, 0 unset) and pmOnFail (pnpm 11; "" unset). */
	const char *pnpm_pin;	/* the version a pnpm packageManager pins, or NULL */
	int pnpm_manage;
	char pnpm_on_fail[16];
	struct tool_req *tools;
	size_t ntools, tools_cap;
	struct lock_req *locks;	/* in sources.def's order of kinds */
	size_t nlocks, locks_cap;

	struct compose_spec compose;

	long timeout_ms;	/* 0: not set by the repository */
	struct origin timeout_origin;

	/* ---- workspaces (workspaces.h) ---- */
	const char *dir;	/* a workspace's model: its directory,
				 * repository-relative ("apps/web"); every
				 * file name in it is repository-relative
				 * too ("apps/web/package.json").  NULL for
				 * the repository's model */
	char *dir_abs;		/* root/dir (NULL for the repository) */
	const struct spec *parent;	/* a workspace: the repository's model */
	struct spec_workspaces *workspaces;	/* the repository: what
						 * discovery found, NULL
						 * when it did not run */
	struct sandbox_spec sandbox;
};

/* Read the repository at dir into *spec.  Returns 0, or -1 with a message
 * in err naming file:line:column (the caller exits 2).  On -1 *spec is
 * released already. */
int spec_load(const char *dir, struct spec *spec, struct errbuf *err);
void spec_release(struct spec *spec);

/* Load a repository without requiring any spec file (the probe self-test
 * and `init` use it). */
int spec_load_any(const char *dir, struct spec *spec, struct errbuf *err);
/* spec_load and spec_load_any do not look for workspaces: spec_load_opts
 * (workspaces.h) does. */

/* For source loaders (spec_*.c): remember a spec file that was read,
 * returning the spec-owned copy that origins point to. */
const char *spec_add_file(struct spec *spec, const char *name);
/* A spec-owned copy of s for origins that name a file which is not a spec
 * file (the .env a URL came from); does not count as a spec file. */
const char *spec_intern(struct spec *spec, const char *s);
struct port_req *spec_add_port(struct spec *spec, enum req_source src,
			       unsigned port, enum port_expect expect,
			       struct origin origin, const char *service);
/* A *_URL requirement that names no port to look up: kind is
 * PORT_REQ_BAD_URL or PORT_REQ_URLS_CAPPED (the caller counts capped). */
struct port_req *spec_add_url_mark(struct spec *spec, enum port_req_kind kind,
				   struct origin origin, const char *service);
/* Compose host ports checked in a repository, each one a check. */
#define PORTS_COMPOSE_MAX 1024

/* The compose host ports past spec_compose.c's cap: one requirement of
 * kind PORT_REQ_COMPOSE_CAPPED at the first of them (its capped counts). */
struct port_req *spec_add_compose_mark(struct spec *spec, struct origin origin,
				       const char *service);
struct runtime_req *spec_add_runtime(struct spec *spec, enum req_source src,
				     const char *name, const char *text,
				     enum req_kind kind, struct origin origin);
/* At most SPEC_RUNTIMES_MAX runtime requirements a repository (as
 * spec_urls.c caps the *_URL ports): every one is a check, and a file of
 * 100,000 tools must neither take minutes nor print as many lines.  A
 * loader whose file can name any number of runtimes (.tool-versions; the
 * others are bounded by their format or by MAX_ENTRIES) asks before each:
 * 1 there is room, 0 not (the requirement at origin is counted in
 * spec->runtimes_capped, and the runtimes probe reports them). */
/* mise's config file names in a directory, lowest precedence first,
 * .tool-versions last; NULL-terminated (spec_versions.c reads them,
 * mise use's fix names the one it writes). */
extern const char *const spec_mise_files[];

#define SPEC_RUNTIMES_MAX 1024
int spec_runtime_room(struct spec *spec, struct origin origin);
struct tool_req *spec_add_tool(struct spec *spec, const char *name,
			       struct origin origin);

#endif
