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
#include "util.h"

struct origin {
	const char *file;	/* repository-relative name, owned by the spec; NULL: none */
	unsigned line, col;	/* 1-based; 0 when unknown */
};

struct env_key {
	char *name;
	struct origin origin;
};

struct env_spec {
	char *file;		/* the .env as configured (repo-relative or absolute) */
	char *file_abs;		/* the same, joined to the root */
	struct origin file_origin;	/* where env.file was set; file NULL: default */
	char *example;		/* repo-relative example file, NULL: none found */
	struct origin example_origin;
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

enum port_expect { PORT_FREE, PORT_LISTENING };
/* Only TCP is checked; a UDP or SCTP entry is kept so that the report can
 * say it was not checked. */
enum port_proto { PORT_TCP, PORT_UDP, PORT_SCTP };

/* What a port requirement names.  Most name a port to look up; two kinds
 * from spec_urls.c name none, and the ports probe reports each as a
 * skipped check of its own. */
enum port_req_kind {
	PORT_REQ_PORT,		/* port (..port_last), proto: look it up */
	PORT_REQ_BAD_URL,	/* a *_URL key names this machine with a port
				 * that is not 1-65535; service is the key */
	PORT_REQ_URLS_CAPPED,	/* past the cap on *_URL requirements,
				 * capped more keys named a local port;
				 * service is the first of them */
};

/* Every source's port requirement is kept, also when several name the same
 * port: the ports probe decides which one is checked (preflight.yaml over
 * what is discovered, listening over free) and notes the others. */
struct port_req {
	enum port_req_kind kind;
	unsigned port;		/* PORT_REQ_PORT: 1-65535; else unused */
	unsigned port_last;	/* > port: any one free port of port..port_last
				 * will do (a compose host range for one
				 * container port); else 0 */
	unsigned capped;	/* PORT_REQ_URLS_CAPPED: keys not taken */
	enum port_expect expect;
	enum port_proto proto;
	struct origin origin;
	char *service;		/* what wants it: "compose service db", "DATABASE_URL"; or NULL */
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
};

struct runtime_req {
	char *name;		/* "node", "python", "pnpm", or any tool */
	char *spec;		/* the requirement as written */
	enum req_kind kind;
	struct origin origin;
	char **command;		/* argv to ask the version (NULL-terminated), or NULL */
	char *version_regex;	/* or NULL */
};

struct tool_req {
	char *name;
	struct origin origin;
};

struct spec {
	char *root;		/* canonical absolute path of the audited repository */
	char **files;		/* repo-relative names of the spec files read */
	size_t nfiles, files_cap;
	char **strings;		/* spec_intern's copies */
	size_t nstrings, strings_cap;

	int has_env;		/* anything for the env probe to compare */
	struct env_spec env;

	struct port_req *ports;
	size_t nports, ports_cap;
	struct runtime_req *runtimes;
	size_t nruntimes, runtimes_cap;
	/* past SPEC_RUNTIMES_MAX: how many requirements were not taken, and
	 * where the first of them was (the runtimes probe reports it) */
	size_t runtimes_capped;
	struct origin runtimes_capped_origin;
	struct tool_req *tools;
	size_t ntools, tools_cap;

	long timeout_ms;	/* 0: not set by the repository */
	struct origin timeout_origin;
};

/* Read the repository at dir into *spec.  Returns 0, or -1 with a message
 * in err naming file:line:column (the caller exits 2).  On -1 *spec is
 * released already. */
int spec_load(const char *dir, struct spec *spec, struct errbuf *err);
void spec_release(struct spec *spec);

/* Load a repository without requiring any spec file (the probe self-test
 * and `init` use it). */
int spec_load_any(const char *dir, struct spec *spec, struct errbuf *err);

/* For source loaders (spec_*.c): remember a spec file that was read,
 * returning the spec-owned copy that origins point to. */
const char *spec_add_file(struct spec *spec, const char *name);
/* A spec-owned copy of s for origins that name a file which is not a spec
 * file (the .env a URL came from); does not count as a spec file. */
const char *spec_intern(struct spec *spec, const char *s);
struct port_req *spec_add_port(struct spec *spec, unsigned port,
			       enum port_expect expect, struct origin origin,
			       const char *service);
/* A *_URL requirement that names no port to look up: kind is
 * PORT_REQ_BAD_URL or PORT_REQ_URLS_CAPPED (the caller counts capped).
 * It wants a listener, as every URL requirement does. */
struct port_req *spec_add_url_mark(struct spec *spec, enum port_req_kind kind,
				   struct origin origin, const char *service);
struct runtime_req *spec_add_runtime(struct spec *spec, const char *name,
				     const char *text, enum req_kind kind,
				     struct origin origin);
/* At most SPEC_RUNTIMES_MAX runtime requirements a repository (as
 * spec_urls.c caps the *_URL ports): every one is a check, and a file of
 * 100,000 tools must neither take minutes nor print as many lines.  A
 * loader whose file can name any number of runtimes (.tool-versions; the
 * others are bounded by their format or by MAX_ENTRIES) asks before each:
 * 1 there is room, 0 not (the requirement at origin is counted in
 * spec->runtimes_capped, and the runtimes probe reports them). */
#define SPEC_RUNTIMES_MAX 1024
int spec_runtime_room(struct spec *spec, struct origin origin);
struct tool_req *spec_add_tool(struct spec *spec, const char *name,
			       struct origin origin);

#endif
