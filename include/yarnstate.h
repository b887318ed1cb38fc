/* yarnstate.h - yarn 2 and later as yarn itself reads it: the lockfile
 * as a graph (which packages the linker installs on this machine), the
 * node-modules linker's record with the folders it made, the root
 * workspace's dependency specs, and the Plug'n'Play install state
 * (.yarn/install-state.gz, once gunzipped: v8.serialize of an object).
 * Pure: bytes in, values out (src/parse/deps_yarn.c, yarnstate.c).
 */
#ifndef EP_YARNSTATE_H
#define EP_YARNSTATE_H

#include <stddef.h>

#include "deps.h"
#include "parse_error.h"
#include "strmap.h"

/* The machine a `conditions:` field is judged for (yarn's
 * supportedArchitectures, default "current": process.platform,
 * process.arch and the C library).  NULL fields: none supported. */
struct yarn_arch {
	const char *os, *cpu, *libc;
};

struct yarn_dep {
	char *name, *range;	/* as the lockfile writes them */
	int optional;		/* dependenciesMeta: optional: true */
	int peer;		/* a peerDependencies entry (never an edge) */
	size_t to;		/* the entry it resolves to (yarn_lock_parse),
				 * or (size_t)-1: none */
};

struct yarn_entry {
	char *key;		/* the descriptors, ", "-separated */
	char *resolution;	/* the locator, or NULL */
	char *version;
	char *conditions;	/* "os=darwin & cpu=arm64", or NULL */
	struct yarn_dep *deps;
	size_t ndeps, cap;
	unsigned line;
	int workspace;		/* resolution is a workspace: locator */
};

struct yarn_lock {
	struct yarn_entry *v;
	size_t n, cap;
	long meta_version;	/* __metadata.version, -1: none, -2: not
				 * a number */
	unsigned meta_line;	/* where it is written */
	struct strmap desc;	/* normalised descriptor -> entry */
	struct strmap compat;	/* a compat patch's source descriptor -> the
				 * patch entry (plugin-compat) */
	char **keys;		/* the strings desc, compat and names borrow */
	size_t nkeys, keys_cap;
	struct strmap names;	/* a package name -> its first entry */
	size_t *same_name;	/* entry -> the next of its name, or -1 */
};

#define YARN_LOCK_INIT { NULL, 0, 0, -1, 0, STRMAP_INIT, STRMAP_INIT, NULL, 0, 0, \
			 STRMAP_INIT, NULL }

/* yarn.lock (yarn 2 and later).  Returns 0; 1 for a yarn 1 lockfile
 * (nothing read); -1 with err. */
int yarn_lock_parse(const char *buf, size_t len, struct yarn_lock *y, struct parse_error *err);
void yarn_lock_release(struct yarn_lock *y);

/* What the linker installs on arch (NULL: every conditional package
 * counted as optional): every package reached from the workspaces
 * through dependencies, a compat patch in place of its source, leaving
 * out an optional package whose conditions do not hold and what only it
 * reaches.  Into out keyed by locator; *skipped counts those left out
 * for the platform. */
void yarn_lock_wanted(const struct yarn_lock *y, const struct yarn_arch *arch,
		      struct dep_set *out, size_t *skipped);

/* The lockfile's entry of the workspace at cwd ("." the root), or NULL. */
const struct yarn_entry *yarn_lock_workspace(const struct yarn_lock *y, const char *cwd);

/* yarn's descriptor of a manifest range, as the lockfile writes it:
 * a range without a protocol takes "npm:" (berry's defaultProtocol).
 * A new string. */
char *yarn_normalize_range(const char *range);
/* "name@range" (name: its first nlen bytes), the range normalised as
 * above: the key yarn.lock files it under.  A new string. */
char *yarn_descriptor(const char *name, size_t nlen, const char *range);

/* A workspace's package.json against its lockfile entry ws, as yarn's
 * frozen install finds it (Project.ts: the workspace's resolved
 * dependencies differ, so the lockfile would change: YN0028): the
 * manifest's dependencies, devDependencies and optionalDependencies
 * against the entry's dependencies, and peerDependencies against its
 * peerDependencies, every range normalised.  Returns how many names
 * differ (*why: the first, a new string), or -1 when it is not JSON. */
int yarn_manifest_differs(const char *buf, size_t len, const struct yarn_entry *ws,
			  char **why);

/* The root package.json's resolutions against the lockfile y, as
 * yarn's frozen install finds them (YN0028): a resolution to a
 * registry range applies to a dependency the lockfile lists, and its
 * descriptor (the one the lockfile keys the package by) is not there;
 * or (every resolution read) a dependency the lockfile does not resolve
 * (a resolution overrode it) that no resolution covers now.  1 with
 * *why the resolution ("key: range"), 2 with *why the dependency (new
 * strings), 0, or -1 (not JSON). */
int yarn_resolutions_differ(const char *buf, size_t len, const struct yarn_lock *y, char **why);

/* .yarnrc.yml's nodeLinker: "pnp", "node-modules", "pnpm" or what it
 * says (a new string), or NULL when it sets none. */
char *yarn_rc_linker(const char *buf, size_t len);

/* A folder the node-modules linker made, and the locator it holds (as
 * the record writes it, virtual or not). */
struct yarn_loc {
	char *path;		/* "node_modules/lodash"; "" the project */
	char *locator;
};

/* node_modules/.yarn-state.yml: each locator (devirtualised; workspaces
 * left out) with its version into s, and every folder it was linked at
 * (its "locations") into *locs (new, *nlocs of them; locs NULL: not
 * asked).  Returns 0, or -1 with err. */
int yarn_nm_state_parse(const char *buf, size_t len, struct dep_set *s, struct yarn_loc **locs,
			size_t *nlocs, struct parse_error *err);
void yarn_locs_release(struct yarn_loc *locs, size_t n);

/* ---- the Plug'n'Play install state ---- */

struct yarn_install_state {
	char *lockfile_checksum;	/* lockFileChecksum, or NULL */
	size_t accessible;		/* accessibleLocators' size */
	size_t disabled;		/* disabledLocators' size */
	int found;			/* the object was read */
	char **locs;			/* accessibleLocators: locator hashes */
	size_t nlocs, locs_cap;
	struct strmap index;		/* locs' hash -> index */
	struct {
		char *hash;		/* storedPackages: a locator hash */
		size_t ndeps;		/* its dependencies' count */
		char *base;		/* a virtual's base locator hash, or NULL */
	} *pkgs;
	size_t npkgs, pkgs_cap;
	struct strmap pkg_index;	/* pkgs' hash -> index */
};

/* The bytes v8.serialize wrote (gunzipped install-state.gz): the few
 * fields the check needs.  Returns 0, or -1 (not a v8 value it can read). */
int yarn_install_state_parse(const unsigned char *buf, size_t len,
			     struct yarn_install_state *st);
void yarn_install_state_release(struct yarn_install_state *st);

/* Whether the locator ("lodash@npm:4.17.21") is one of the state's
 * accessibleLocators (by berry's locatorHash, yarn_locator_hash), or
 * the base of a virtual one (a package with peer dependencies). */
int yarn_install_state_has(const struct yarn_install_state *st, const char *locator);
/* How many dependencies the state's storedPackages gives the locator,
 * or -1 when it holds no such package. */
long yarn_install_state_deps(const struct yarn_install_state *st, const char *locator);
/* berry's locatorHash of a locator: sha512 hex (out: 129 bytes). */
void yarn_locator_hash(const char *locator, char out[129]);

/* berry's hashUtils.makeHash("1", lockfile): sha512 hex of INSTALL_STATE_VERSION
 * then the bytes, what lockFileChecksum holds; version: "1".  out: 129 bytes. */
void yarn_lockfile_checksum(const char *version, const char *buf, size_t len, char out[129]);

#endif
