/* spec_workspaces.h - the workspaces of the model: what discovery found
 * (src/model/spec_workspaces.c) and one child model per workspace, loaded
 * with the same loaders as the repository (preflight.yaml excepted).
 * Every probe reads the result through struct spec: spec->workspaces of
 * the repository's model, and spec->dir / spec->parent of a workspace's.
 * The pure part (patterns, go.work, uv's members) is workspaces.h.
 */
#ifndef EP_SPEC_WORKSPACES_H
#define EP_SPEC_WORKSPACES_H

#include "spec.h"
#include "workspaces.h"

/* ---- what discovery found (spec_workspaces.c) ------------------------ */

/* A manifest that declares workspaces. */
struct ws_source {
	enum ws_kind kind;
	const char *file;		/* spec-owned: "pnpm-workspace.yaml" */
	struct ws_patterns pats;
	size_t *matched;		/* per pattern: workspaces it matched */
};

/* What stands in the way of a directory a pattern names. */
enum ws_finding_kind {
	WS_UNMATCHED,		/* a pattern matches no workspace: warn */
	WS_OUTSIDE,		/* a symlink (or ../) that leads out of the
				 * repository: refused, not read: warn */
	WS_BAD_NAME,		/* a path that cannot be part of a check id */
	WS_NO_MANIFEST,		/* go/uv: the tool refuses a member without
				 * go.mod / pyproject.toml: fail */
	WS_INVALID,		/* the manifest's workspace list is not what
				 * its tool accepts: fail */
	WS_CAPPED,		/* past WS_MAX workspaces or WS_VISIT_MAX
				 * directories: the rest not found: warn */
};

struct ws_finding {
	enum ws_finding_kind kind;
	char *dir;		/* the directory, or NULL */
	char *message;		/* one line, repository text cleaned */
	struct origin origin;	/* the manifest entry at fault */
};

/* One workspace: its own model, loaded as the repository's is. */
struct workspace {
	char *dir;		/* repository-relative, normalised ("apps/web") */
	size_t source;		/* index in sources */
	size_t pattern;		/* the pattern that matched it first */
	struct spec spec;	/* loaded when `loaded` */
	int loaded;
	int linked;		/* found through a symbolic link (which stays
				 * inside the repository) */
};

struct spec_workspaces {
	struct ws_source sources[WS_KIND_COUNT];
	size_t nsources;
	struct workspace *v;	/* sorted by dir */
	size_t n, cap;
	struct ws_finding *findings;
	size_t nfindings, findings_cap;
	const char *only;	/* --workspace: the one loaded (spec-owned), or NULL */
};

/* How spec_load_opts treats workspaces. */
struct spec_opts {
	int workspaces;		/* discover and load them */
	const char *only;	/* load this one only (a directory as written:
				 * "apps/web", "./apps/web/"), or NULL */
	int any;		/* no spec file is needed (as spec_load_any) */
};

/* spec_load, with options: workspaces found and loaded into
 * spec->workspaces, their port requirements resolved with the
 * repository's.  --workspace naming no workspace is an error (ERRK_OTHER,
 * the message lists the workspaces found). */
int spec_load_opts(const char *dir, const struct spec_opts *o,
		   struct spec *spec, struct errbuf *err);

/* Discovery and the children, for spec.c's load() (spec_workspaces.c):
 * 0, or -1 with err filled. */
int spec_workspaces_load(struct spec *spec, const struct spec_opts *o,
			 struct errbuf *err);
void spec_workspaces_release(struct spec *spec);

/* The repository's model behind any model (itself for the repository). */
const struct spec *spec_top(const struct spec *spec);

/* 1 when the workspace model spec holds a file that a version manager
 * reads to choose name's version (.nvmrc, .node-version, .python-version,
 * .tool-versions, package.json volta or packageManager): a shim asked
 * from that directory may answer otherwise than from the repository's. */
int spec_selects_version(const struct spec *spec, const char *name);

#endif
