/* deps.h - lockfiles and install records as sets of packages, and the
 * comparison of two such sets: the pure half of the deps probe.
 *
 * Every parser here takes a buffer and a length and fills a dep_set or
 * an error with line:column; none makes a system call, so a fuzz target
 * is one call (tests/fuzz).  The probe reads the files (probe_deps.c),
 * walks node_modules (deps_node.c) and the virtual environment
 * (deps_python.c), and calls these.
 *
 *   deps_npm_parse      package-lock.json, npm-shrinkwrap.json and
 *                       node_modules/.package-lock.json (cJSON)
 *   deps_pnpm_parse     pnpm-lock.yaml and node_modules/.pnpm/lock.yaml
 *   deps_pnpm_modules   node_modules/.modules.yaml (skipped packages)
 *   deps_yarn_parse     yarn.lock (berry) and node_modules/.yarn-state.yml
 *   deps_uv_parse       uv.lock (toml.c)
 *   deps_poetry_parse   poetry.lock (toml.c)
 *   deps_pip_parse      requirements*.txt (== pins)
 *   deps_pymeta_parse   a .dist-info/METADATA or PKG-INFO header
 */
#ifndef EP_DEPS_H
#define EP_DEPS_H

#include <stddef.h>

#include "parse_error.h"
#include "strmap.h"

/* What one entry of a set says beyond its key and version. */
enum dep_flag {
	DEP_OPTIONAL = 1 << 0,	/* may be absent: npm optional, a skipped
				 * optional, a marker that is false here */
	DEP_DEV = 1 << 1,	/* npm "dev": only a development install */
	DEP_LINK = 1 << 2,	/* npm "link": a symlink to a workspace */
	DEP_UNDECIDED = 1 << 3,	/* python: a marker envpreflight cannot
				 * evaluate; absent is not counted */
	DEP_NO_VERSION = 1 << 4,	/* installed, but its record has no version */
	DEP_RESOLVED = 1 << 5,	/* npm, no integrity: extra holds "resolved",
				 * compared as well as the version (a git
				 * dependency: arborist lib/diff.js) */
	DEP_ALIAS = 1 << 6,	/* npm alias (npm:real@1): extra holds the
				 * real package's name */
	DEP_NOT_HERE = 1 << 7,	/* npm: left out here (an optional package
				 * of another platform, a dev one under
				 * omit=dev): may be absent, and npm removes
				 * it when installed */
};

struct dep {
	char *key;		/* unique in the set: an npm path
				 * ("node_modules/a/node_modules/b"), a pnpm or
				 * yarn package id, a normalised python name */
	char *name;		/* the package name ("b", "@s/b") */
	char *version;		/* NULL: none recorded */
	char *extra;		/* npm link: "resolved"; else NULL */
	unsigned flags;		/* enum dep_flag */
	unsigned line;		/* where the lockfile says it, 0: unknown */
};

struct dep_set {
	struct dep *v;
	size_t n, cap;
	struct strmap index;	/* key -> v index */
};

#define DEP_SET_INIT { NULL, 0, 0, STRMAP_INIT }

/* Add a package (strings copied); a key already there keeps its name
 * and takes the new version and flags, its extra cleared, and is
 * returned.  version may be NULL. */
struct dep *dep_set_add(struct dep_set *s, const char *key, const char *name,
			const char *version, unsigned flags);
const struct dep *dep_set_get(const struct dep_set *s, const char *key);
void dep_set_release(struct dep_set *s);

/* ---- node ---- */

/* A package-lock.json of any lockfileVersion (1: nested "dependencies";
 * 2 and 3: "packages"), or npm's hidden lockfile, into s keyed by path;
 * the root entry "" is left out.  *version gets lockfileVersion.
 * Returns 0, or -1 with err. */
int deps_npm_parse(const char *buf, size_t len, struct dep_set *s, int *version,
		   struct parse_error *err);

/* This machine as npm-install-checks sees it (lib/current-env.js and
 * npm's os, cpu and libc settings); NULL: cannot tell. */
struct npm_platform {
	const char *os, *cpu, *libc;
};

/* deps_npm_parse, with what npm decides from outside the lockfile: an
 * optional entry whose os, cpu and libc all admit here (npm-install-
 * checks checkPlatform) is wanted, not optional (here NULL: as
 * deps_npm_parse); root (or NULL) gets the root entry's dependency
 * specs, keyed by name, the spec as version, DEP_DEV for a
 * devDependency, DEP_OPTIONAL for an optional or peer one. */
int deps_npm_parse_here(const char *buf, size_t len, const struct npm_platform *here,
			struct dep_set *s, struct dep_set *root, int *version,
			struct parse_error *err);

/* A package.json's dependency specs, in the shape of root above. */
int deps_npm_manifest(const char *buf, size_t len, struct dep_set *s,
		      struct parse_error *err);

/* Whether spec (a package.json's) is met by the lockfile's entry at
 * version, named real (an alias's package, or NULL), as arborist's
 * dep-valid.js judges a range, a version or an alias: 1 met, 0 not,
 * -1 not a range (a file:, git or tag spec: compare the text). */
int deps_npm_spec_met(const char *spec, const char *version, const char *real);

/* The values .npmrc text gives key at its top level ("omit=dev", or
 * "omit[]=dev" lines; a quoted value unquoted), into vals (new strings,
 * at most max); returns how many, 0 when the key is not set. */
size_t deps_npmrc_values(const char *buf, size_t len, const char *key, char **vals,
			 size_t max);

/* The package name of an install path: what follows its last
 * "node_modules/" ("@s/b" for a scoped one), else the path itself. */
const char *deps_npm_path_name(const char *path);

/* A package.json's "version" (a new string), or NULL. */
char *deps_npm_package_version(const char *buf, size_t len);

/* pnpm-lock.yaml (lockfileVersion 5 to 9) or pnpm's current lockfile
 * node_modules/.pnpm/lock.yaml: the package ids of "snapshots" (9) or
 * "packages" (5, 6), each split into name and version ("/a@1.0.0",
 * "a@1.0.0(peer@2)", "/a/1.0.0").  Importers' link: dependencies are
 * workspaces, not packages.  Returns 0, or -1 with err. */
int deps_pnpm_parse(const char *buf, size_t len, struct dep_set *s,
		    struct parse_error *err);

/* node_modules/.modules.yaml: the ids pnpm skipped ("skipped":
 * optional packages not for this platform) into skipped, and the
 * pnpm that wrote it (packageManager) into *by (new string or NULL). */
int deps_pnpm_modules(const char *buf, size_t len, struct dep_set *skipped,
		      char **by, struct parse_error *err);

/* yarn.lock of yarn 2 and later: one entry per "resolution" locator
 * ("lodash@npm:4.17.21"), with its version; workspace locators are left
 * out.  A yarn 1 lockfile ("# yarn lockfile v1") returns 1 and reads
 * nothing.  state: read node_modules/.yarn-state.yml instead (the
 * locators yarn's node-modules linker installed).  Returns 0, 1 or -1. */
int deps_yarn_parse(const char *buf, size_t len, int state, struct dep_set *s,
		    struct parse_error *err);

/* ---- python ---- */

/* The machine a PEP 508 marker is evaluated for; NULL fields are
 * unknown, and a comparison that needs one is undecided. */
struct pymarker_env {
	const char *python_version;	/* "3.12" */
	const char *python_full_version;	/* "3.12.3" */
	const char *implementation_name;	/* "cpython" */
	const char *platform_python_implementation;	/* "CPython" */
	const char *sys_platform;	/* "linux" */
	const char *platform_system;	/* "Linux" */
	const char *os_name;	/* "posix" */
	const char *platform_machine;	/* "x86_64" */
};

/* Evaluate a PEP 508 environment marker: 1 true, 0 false, -1 undecided
 * (an unknown variable, "extra", or a marker that does not parse). */
int pymarker_eval(const char *marker, size_t len, const struct pymarker_env *env);

/* PEP 503: lower case, every run of '-', '_' and '.' one '-'.  A new
 * string. */
char *pep503_normalize(const char *name, size_t len);

/* uv.lock: what `uv sync` installs here, from the project (the package
 * whose source is virtual or editable ".", else every workspace member)
 * through dependencies whose markers hold, its "dev" group and the
 * extras asked for on the way.  A package reached only through a marker
 * that cannot be evaluated is DEP_UNDECIDED; one not reached is left out.
 * Keys are normalised names.  Returns 0, or -1 with err. */
int deps_uv_parse(const char *buf, size_t len, const struct pymarker_env *env,
		  struct dep_set *s, struct parse_error *err);

/* poetry.lock: every non-optional package whose markers hold (lock
 * 2.1's per-package "markers"; for older locks, a package whose every
 * dependent asks for it under a marker is decided by those markers).
 * optional_groups (NULL-terminated, or NULL) are the pyproject groups
 * `poetry install` leaves out. */
int deps_poetry_parse(const char *buf, size_t len, const struct pymarker_env *env,
		      const char *const *optional_groups, struct dep_set *s,
		      struct parse_error *err);

/* requirements.txt: every "name==version" (or ===) line, extras and
 * markers allowed, hashes and options skipped; *unpinned counts the
 * requirement lines that pin nothing (not checked).  Lines that include
 * other files (-r, -c) are counted in *includes and not followed. */
int deps_pip_parse(const char *buf, size_t len, const struct pymarker_env *env,
		   struct dep_set *s, size_t *unpinned, size_t *includes,
		   struct parse_error *err);

/* The Name: and Version: of a METADATA/PKG-INFO header (new strings, or
 * NULL when the header has none). */
void deps_pymeta_parse(const char *buf, size_t len, char **name, char **version);

/* ---- comparison ---- */

enum dep_problem {
	DEP_MISSING,		/* in the lockfile, not installed */
	DEP_VERSION,		/* installed at another version */
	DEP_EXTRA,		/* installed, not in the lockfile */
	DEP_UNKNOWN_VERSION,	/* installed, its version unreadable */
};

struct dep_diff_item {
	enum dep_problem problem;
	const struct dep *want;	/* NULL for DEP_EXTRA */
	const struct dep *have;	/* NULL for DEP_MISSING */
};

struct dep_diff {
	struct dep_diff_item *v;
	size_t n, cap;
	size_t compared;	/* lockfile entries that had to be there */
	size_t skipped;		/* optional or undecided and absent */
	size_t extra;		/* of v, how many are DEP_EXTRA */
};

enum deps_cmp {
	DEPS_CMP_EXTRAS = 1 << 0,	/* report installed packages the
					 * lockfile does not name */
	DEPS_CMP_PEP440 = 1 << 1,	/* versions are PEP 440 (1.0 is
					 * 1.0.0), else compared as text */
	DEPS_CMP_PAIR = 1 << 2,		/* keys are ids holding the version
					 * (pnpm, yarn): a missing id and an
					 * extra one of the same name are one
					 * DEP_VERSION item */
};

/* Compare want (the lockfile) with have (the install), by key; items
 * point into both sets and come in want's order, extras last.  how:
 * enum deps_cmp bits. */
void deps_compare(const struct dep_set *want, const struct dep_set *have,
		  unsigned how, struct dep_diff *out);
void dep_diff_release(struct dep_diff *d);

#endif
