/* deps_pnpm.h - pnpm's files beyond a set of packages (src/parse/deps_pnpm.c):
 * the importers of pnpm-lock.yaml (each project's direct dependencies,
 * their specifiers), node_modules/.modules.yaml's layout, a package.json's
 * dependency specs, pnpm's rule that compares the two before a frozen
 * install (satisfiesPackageManifest) and the folder of a package in the
 * virtual store.  Pure: bytes in, values out.  deps.h's deps_pnpm_parse
 * and deps_pnpm_modules are the package sets of the same files.
 */
#ifndef EP_DEPS_PNPM_H
#define EP_DEPS_PNPM_H

#include <stddef.h>

#include "deps.h"
#include "parse_error.h"
#include "pnpm_settings.h"

/* The dependency fields of a manifest and of a lockfile importer, in
 * pnpm's DEPENDENCIES_FIELDS order; peer only in a manifest. */
enum pnpm_field {
	PNPM_DEPS,		/* dependencies */
	PNPM_DEV,		/* devDependencies */
	PNPM_OPTIONAL,		/* optionalDependencies */
	PNPM_PEER,		/* peerDependencies */
	PNPM_NFIELDS,
};

/* The field's package.json name (static). */
const char *pnpm_field_name(enum pnpm_field f);

/* One direct dependency: alias, the specifier package.json had (a
 * lockfile's "specifier", or the manifest's value) and, in a lockfile,
 * what it resolved to ("3.0.1", "18.2.0(react@18.2.0)", "link:../a",
 * "string-width@4.2.3" for an alias). */
struct pnpm_direct {
	char *alias;
	char *spec;		/* NULL: none recorded */
	char *ref;		/* NULL: none recorded (a manifest) */
	enum pnpm_field field;
	unsigned line;
};

struct pnpm_importer {
	char *id;		/* "." or a project's directory ("packages/a") */
	struct pnpm_direct *v;
	size_t n, cap;
	unsigned line;
};

struct pnpm_lock {
	struct dep_set pkgs;	/* as deps_pnpm_parse */
	struct pnpm_importer *imp;
	size_t nimp, impcap;
	unsigned major;		/* lockfileVersion's major (5, 6, 9), 0: none */
	int auto_install_peers;	/* settings.autoInstallPeers: 1, 0; -1 unsaid */
	int exclude_links;	/* settings.excludeLinksFromLockfile: 1, 0, -1 */
	unsigned docs;		/* YAML documents: 2 with pnpm 11's env document */
	struct pnpm_lockcfg cfg;	/* its configuration (pnpm_settings.h) */
};

/* pnpm-lock.yaml (or node_modules/.pnpm/lock.yaml) whole: the project's
 * document (the second when the file starts with pnpm's env document),
 * its packages and importers.  A lockfile without "importers" (v5, v6 of
 * one project) has the one importer ".".  Returns 0, or -1 with err (a
 * file pnpm would refuse: three documents, a second one without the env
 * document, an env document alone, err naming the line). */
int deps_pnpm_lock(const char *buf, size_t len, struct pnpm_lock *out, struct parse_error *err);
void pnpm_lock_release(struct pnpm_lock *l);
const struct pnpm_importer *pnpm_lock_importer(const struct pnpm_lock *l, const char *id);

/* The package id a direct dependency's ref names in pkgs' keys (a new
 * string), or NULL for a link: (a workspace project) or a ref it cannot
 * tell. */
char *pnpm_ref_id(const struct pnpm_lock *l, const char *alias, const char *ref);

/* node_modules/.modules.yaml: what pnpm's last install here was. */
struct pnpm_modules {
	struct dep_set skipped;	/* ids not installed: another platform's */
	char *by;		/* packageManager: "pnpm@9.1.0", or NULL */
	char *virtual_store_dir;	/* or NULL (".pnpm") */
	unsigned max_length;	/* virtualStoreDirMaxLength, 0: unsaid (120) */
	char *node_linker;	/* "isolated", "hoisted", ..., or NULL */
	int included[3];	/* PNPM_DEPS..PNPM_OPTIONAL linked (1, 0; -1 unsaid) */
	struct pnpm_hoist {	/* hoistedDependencies: a link per alias */
		char *id;	/* the package's id (depPath) */
		char *alias;
		int pub;	/* "public": node_modules/ALIAS; "private":
				 * <virtualStoreDir>/node_modules/ALIAS */
	} *hoisted;
	size_t nhoisted, hoisted_cap;
};
int deps_pnpm_modules_read(const char *buf, size_t len, struct pnpm_modules *m,
			   struct parse_error *err);
void pnpm_modules_release(struct pnpm_modules *m);

/* A package.json's dependency fields (every string value). */
struct pnpm_manifest {
	struct pnpm_direct *v;
	size_t n, cap;
};
/* Returns 0, or -1 when it is not a JSON object. */
int deps_pnpm_manifest(const char *buf, size_t len, struct pnpm_manifest *m);
void pnpm_manifest_release(struct pnpm_manifest *m);

/* The first difference satisfiesPackageManifest finds (strings borrowed
 * from the importer and the manifest; NULL: that side has none). */
struct pnpm_mismatch {
	const char *field;	/* "dependencies", ..., or NULL (any) */
	const char *name;
	const char *manifest;
	const char *lockfile;
};

/* Whether a lockfile importer satisfies a package.json as pnpm's
 * frozen install requires (lockfile/verification satisfiesPackageManifest;
 * pnpm 12: crates/lockfile/src/freshness.rs): 1 yes, 0 no with *why. */
int deps_pnpm_satisfies(const struct pnpm_lock *l, const struct pnpm_importer *imp,
			const struct pnpm_manifest *m, struct pnpm_mismatch *why);

/* The virtual store folder of a package id (deps.path depPathToFilename):
 * a new string, or NULL when pnpm would shorten it with a hash (longer
 * than max_length, or upper case), which is not computed here. */
char *pnpm_dep_dirname(const char *id, unsigned max_length);

/* pnpm_dep_dirname into out (cap bytes; no allocation, for the folder
 * stats): 1 written, 0 where pnpm_dep_dirname says NULL, -1 when it does
 * not fit (strlen(id) + 6 always does). */
int pnpm_dep_dirname_to(const char *id, unsigned max_length, char *out, size_t cap);

#endif
