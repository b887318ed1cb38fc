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
 *   deps_bun_parse      bun.lock (bun's JSON dialect: deps_bun.c)
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
	char *extra;		/* npm link: "resolved"; pip: the clause
				 * as written ("==${VER}"); else NULL */
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
/* Room for n more packages (a count known beforehand). */
void dep_set_reserve(struct dep_set *s, size_t n);
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

/* A folder of the project that the lockfile keeps the dependency specs
 * of, as written when it was locked: the root (""), a workspace
 * ("packages/a"), a file: folder ("libx"); specs in the shape of root
 * above, each one's field ("dependencies", ...) as extra. */
struct npm_importer {
	char *path;
	struct dep_set specs;
};

struct npm_importers {
	struct npm_importer *v;
	size_t n, cap;
	struct strmap index;	/* path -> its place in v (a lockfile of
				 * many folders must not turn quadratic) */
};
#define NPM_IMPORTERS_INIT { NULL, 0, 0, STRMAP_INIT }

/* deps_npm_parse_here, every importer's specs into imp (or NULL) in
 * the lockfile's order. */
int deps_npm_parse_all(const char *buf, size_t len, const struct npm_platform *here,
		       struct dep_set *s, struct npm_importers *imp, int *version,
		       struct parse_error *err);
/* The importer at path, or NULL. */
const struct npm_importer *npm_importer_find(struct npm_importers *x, const char *path);
void npm_importers_release(struct npm_importers *x);

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

/* package.json's "overrides" as arborist override-set.js reads them: a
 * tree of rules, each a key ("b", "b@^1") and what the spec of a
 * dependency it matches becomes. */
#define NPM_OVR_ROOT ((size_t)-1)
struct npm_override {
	char *key;		/* as written */
	char *name;		/* the package the key names */
	char *key_spec;		/* its selector, "*" when none */
	char *value;		/* the "." value, else key_spec; a "$name"
				 * reference resolved against the root's
				 * specs; NULL: not resolvable here */
	size_t parent;		/* the rule it is nested in, or NPM_OVR_ROOT */
};

struct npm_overrides {
	struct npm_override *v;	/* parents before their children */
	size_t n, cap;
	int undecided;		/* a shape npm reads otherwise (a value
				 * neither string nor object): not judged */
	int every;		/* the caller's: judge the tree also with no
				 * rule (one may have been removed) */
	/* a rule that changes a direct dependency's spec (npm's EOVERRIDE,
	 * arborist node.js assertRootOverrides), or all NULL */
	char *direct_name, *direct_field, *direct_spec, *direct_value;
};

/* The overrides of a package.json into o (empty when it has none).
 * Returns 0, or -1 with err. */
int deps_npm_overrides(const char *buf, size_t len, struct npm_overrides *o,
		       struct parse_error *err);
void npm_overrides_release(struct npm_overrides *o);

/* The first dependency edge of the lockfile's tree that npm, applying
 * overrides o, finds invalid (arborist edge.js satisfiedBy): strings
 * owned, released with npm_override_miss_release. */
struct npm_override_miss {
	char *from;		/* the dependent's key ("" the root) */
	char *name, *spec;	/* the dependency and its spec in the lockfile */
	char *want;		/* the spec overrides make of it */
	char *at, *locked;	/* where it resolves, the version there */
	char *above;		/* 2: the version of the copy above it */
};

/* What the registry gives for name@range, as npm picks it from the
 * packument (npm-pick-manifest), when the caller knows it: a version (the
 * caller's, kept until the check returns), else NULL. */
struct npm_registry {
	const char *(*pick)(void *ctx, const char *name, const char *range);
	void *ctx;
};

/* 1 with m set; 2 with m set when whether npm keeps the lockfile depends
 * on what reg does not know (the registry's newest version in an
 * override's range), and no edge is invalid otherwise; 0 none, or the
 * tree is one this cannot judge (then npm's answer is not claimed); -1
 * the lockfile does not parse.  reg may be NULL. */
int deps_npm_overrides_check(const char *lock, size_t len, const struct npm_overrides *o,
			     const struct npm_registry *reg, struct npm_override_miss *m);
void npm_override_miss_release(struct npm_override_miss *m);

/* The version npm picks for a semver range from a packument (the
 * registry's JSON of a package; tag: the default dist-tag, "latest"): a
 * new string, or NULL (none in range, or not a packument). */
char *deps_npm_pick(const char *buf, size_t len, const char *range, const char *tag);

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

/* yarn.lock of yarn 2 and later: the "resolution" locators
 * ("lodash@npm:4.17.21") the workspaces reach, with their versions
 * (yarnstate.h's yarn_lock_wanted with no machine: a package with
 * conditions is DEP_OPTIONAL); workspace locators are left out.  A yarn
 * 1 lockfile ("# yarn lockfile v1") returns 1 and reads nothing.
 * state: read node_modules/.yarn-state.yml instead (the locators yarn's
 * node-modules linker installed).  Returns 0, 1 or -1. */
int deps_yarn_parse(const char *buf, size_t len, int state, struct dep_set *s,
		    struct parse_error *err);

/* bun.lock (bun >= 1.2's text lockfile).  What kind of package an entry
 * of "packages" is, by its resolution (bun's Resolution tags; git and
 * github are one, local and remote tarballs one). */
enum bun_kind {
	BUN_NPM, BUN_TARBALL, BUN_GIT, BUN_FOLDER, BUN_LINK, BUN_WORKSPACE, BUN_ROOT,
};

#define BUN_LOCK_VERSION_MAX 3	/* the lockfileVersion bun 1.4 reads */

struct bun_pkg {
	char *key;		/* bun.lock's key: "a", "a/b", "ws/c" */
	char *path;		/* where the hoisted linker installs it:
				 * "node_modules/a/node_modules/b",
				 * "packages/ws/node_modules/c" */
	char *name;		/* the package's own name */
	char *resolution;	/* "1.0.0", "../a.tgz", "workspace:packages/w" */
	char *tag;		/* what its .bun-tag must hold (a tarball's
				 * integrity, a git commit), or NULL */
	enum bun_kind kind;
	unsigned line;
	int other_platform;	/* its os, cpu or libc rules this machine out */
	int platform_only;	/* only packages other_platform reach it (bun
				 * places neither: deps_bun_dev_only) */
	int dev_only;		/* only devDependencies reach it */
	size_t *edges;		/* what it needs but its devDependencies:
				 * places in bun_lock's pkgs */
	unsigned char *edge_peer;	/* edges[k] is a peerDependency */
	size_t nedges;
	size_t *users;		/* who needs it (edges and workspaces'
				 * dependencies): a place in pkgs, or npkgs
				 * plus a place in ws */
	size_t nusers;
};

struct bun_dep {
	char *name, *spec;	/* "is-odd", "^3.0.1" */
	unsigned group;		/* 0 dependencies, 1 dev, 2 optional, 3 peer */
	unsigned line;
};

struct bun_workspace {
	char *path;		/* "" for the root, "packages/a" */
	char *name, *version;	/* NULL when bun.lock has none */
	struct bun_dep *deps;
	size_t ndeps, deps_cap;
	unsigned line;
};

struct bun_lock {
	unsigned version;	/* lockfileVersion */
	unsigned version_line;
	int config_version;	/* configVersion, -1 when absent */
	struct bun_pkg *pkgs;	/* "packages", in the file's order */
	size_t npkgs, pkgs_cap;
	struct bun_workspace *ws;	/* "workspaces", the root ("") among them */
	size_t nws, ws_cap;
	struct strmap index;	/* a package's key -> its place in pkgs */
	struct strmap ws_names;	/* a member's name -> its place in ws */
	struct strmap ws_paths;	/* a member's path -> its place in ws */
	int isolated;		/* set before deps_bun_dev_only: peers as
				 * bun's isolated linker resolves them */
};

/* The machine as bun.lock's os, cpu and libc name it ("linux", "x64",
 * "glibc"); an empty or NULL field matches every entry. */
struct bun_platform {
	const char *os, *cpu, *libc;
};

/* bun.lock into l (here may be NULL: every package counts as this
 * platform's).  Returns 0; 1 when its lockfileVersion is newer than
 * BUN_LOCK_VERSION_MAX (only l->version is set, err names its line); -1
 * with err (line:col and bun's own words where it has them).  Free l with
 * bun_lock_release either way. */
int deps_bun_parse(const char *buf, size_t len, const struct bun_platform *here,
		   struct bun_lock *l, struct parse_error *err);
void bun_lock_release(struct bun_lock *l);

/* The groups of lw's dependencies as package.json m has them (bun reads
 * which are devDependencies from package.json; a move is no change to
 * bun.lock). */
void deps_bun_regroup(struct bun_workspace *lw, const struct bun_workspace *m);

/* Set every package's dev_only from the workspaces' dependency groups
 * (deps_bun_parse does, from bun.lock's; bun takes them from each
 * package.json, so the probe may set the groups again and call this),
 * and its platform_only (what only other_platform packages reach). */
void deps_bun_dev_only(struct bun_lock *l);

/* An installed package.json's "name" and "version" as bun reads them (new
 * strings or NULL).  Returns 0, or -1 when bun could not parse it. */
int deps_bun_package_json(const char *buf, size_t len, char **name, char **version);

/* 1 when an installed version satisfies bun's check against the locked
 * one (PackageInstall.zig verifyPackageJSONNameAndVersion). */
int deps_bun_version_matches(const char *found, const char *want);

/* A package.json as bun reads it, into w (path ""; the dependency
 * groups, name and version) and *linker (its workspaces.nodeLinker, a new
 * string, or NULL; linker may be NULL).  Returns 0, or -1 with err. */
int deps_bun_manifest(const char *buf, size_t len, struct bun_workspace *w, char **linker,
		      struct parse_error *err);
void bun_workspace_release(struct bun_workspace *w);

struct buf;
/* 1 when `bun install --frozen-lockfile` would refuse because package.json
 * m is no longer what bun.lock's workspace ws says (why: the first
 * difference), else 0. */
int deps_bun_manifest_stale(const struct bun_lock *l, size_t ws, const struct bun_workspace *m,
			    struct buf *why);

/* ---- python ---- */

/* The machine a PEP 508 marker is evaluated for; NULL fields are
 * unknown, and a comparison that needs one is undecided. */
struct toml_value;

struct pymarker_env {
	const char *python_version;	/* "3.12" */
	const char *python_full_version;	/* "3.12.3" */
	const char *implementation_name;	/* "cpython" */
	const char *platform_python_implementation;	/* "CPython" */
	const char *sys_platform;	/* "linux" */
	const char *platform_system;	/* "Linux" */
	const char *os_name;	/* "posix" */
	const char *platform_machine;	/* "x86_64" */
	const char *extra;	/* pip's requirements: "" (no extra asked) */
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
 * Keys are normalised names.  With pyproject (its parsed tree) and stale
 * given, stale gets why `uv sync --locked` would refuse the lock for
 * pyproject's [project] (a relock is due), when it would.  Returns 0, or
 * -1 with err. */
int deps_uv_parse(const char *buf, size_t len, const struct pymarker_env *env,
		  const struct toml_value *pyproject, struct dep_set *s, struct buf *stale,
		  struct parse_error *err);

/* poetry.lock: what `poetry install` installs here.  Lock 2.1 says it
 * of each package (its "groups" and "markers"); before that, it is what
 * pyproject's declarations (pyproject: its parsed tree, or NULL) reach
 * through the lock's dependencies whose markers hold, as poetry 1.x
 * solves the root package again against the lock; without them, the
 * packages no other one depends on stand for the declarations.  Groups
 * pyproject marks optional are left out.  unlocked (or NULL) gets the
 * names pyproject declares that the lock has no package of, ", "-
 * separated: a relock is due. */
/* A poetry.lock lock-version (NULL: none) of 2.1 or later, which
 * poetry 2 writes: 1. */
int deps_poetry_lock21(const char *lock_version);
int deps_poetry_parse(const char *buf, size_t len, const struct pymarker_env *env,
		      const struct toml_value *pyproject, struct dep_set *s,
		      struct buf *unlocked, struct parse_error *err);

/* requirements.txt, read line by line as pip reads it (its line breaks,
 * continuations, comments and ${VAR} expansion): every requirement of a
 * name ("name==V", "name===V", "name (>=1,<2)", "name[x]", markers and
 * options such as --hash allowed), keyed by normalised name, after
 * expansion; its version is a pin's version, or the specifier itself
 * (">=1,<2"), or NULL (none); its extra is the specifier as written
 * ("==${VER}"), what a message may show.  Lines that include other files
 * (-r, -c) are counted and not followed; requirement lines that name no
 * version to compare (a URL, a path, text pip cannot read) are counted
 * in unpinned. */
struct pip_parse {
	const struct pymarker_env *env;	/* in: the markers' machine */
	const char *const *environ;	/* in: NAME=value strings for ${NAME}, or NULL */
	size_t unpinned, includes;	/* out */
	char unset[64];			/* out: the first ${NAME} not set (or "") */
	unsigned unset_line;		/* out: its line */
};
int deps_pip_parse(const char *buf, size_t len, struct pip_parse *p, struct dep_set *s,
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
