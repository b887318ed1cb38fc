/* workspaces.h - the workspaces of a monorepo: which directories the
 * package managers (and go, and uv) treat as projects of their own.
 *
 *   workspaces.c       the pure part: the glob matcher, brace expansion,
 *                      and the parsers of go.work and of uv's
 *                      [tool.uv.workspace] (a buffer in, values or an
 *                      error value out, no system call)
 *   spec_workspaces.c  discovery (the manifests read as spec files, the
 *                      patterns expanded against directory listings) and
 *                      one child model per workspace, loaded with the same
 *                      loaders as the repository (preflight.yaml excepted)
 *
 * Every probe reads the result through struct spec: spec->workspaces of
 * the repository's model, and spec->dir / spec->parent of a workspace's.
 */
#ifndef EP_WORKSPACES_H
#define EP_WORKSPACES_H

#include <stddef.h>

#include "spec.h"

/* Who declares a workspace, and so whose rules find it. */
enum ws_kind {
	WS_NPM,		/* package.json "workspaces" (npm, yarn, bun) */
	WS_PNPM,	/* pnpm-workspace.yaml "packages" */
	WS_GO,		/* go.work "use" */
	WS_UV,		/* pyproject.toml [tool.uv.workspace] members */
};
#define WS_KIND_COUNT (WS_UV + 1)

/* "package.json workspaces", ...: for messages (static) */
const char *ws_kind_label(enum ws_kind k);
/* "npm", "pnpm", "go", "uv": JSON (static) */
const char *ws_kind_key(enum ws_kind k);

/* ---- caps ----------------------------------------------------------- */

#define WS_MAX 1000		/* workspaces of one repository */
#define WS_PATTERNS_MAX 256	/* patterns of one manifest */
#define WS_DEPTH_MAX 16		/* directory levels a pattern may reach */
#define WS_VISIT_MAX 20000	/* directories listed in one discovery */

/* ---- the pure part (workspaces.c) ----------------------------------- */

/* One entry of a manifest, as its tool reads it. */
struct ws_pattern {
	char *text;		/* normalised: no leading '!', "./" or "/" */
	int negate;		/* npm/pnpm "!pattern", uv exclude */
	unsigned line, col;	/* where it is written, 1-based (0: unknown) */
};

struct ws_patterns {
	struct ws_pattern *v;
	size_t n, cap;
};

void ws_patterns_add(struct ws_patterns *p, const char *text, size_t len,
		     int negate, unsigned line, unsigned col);
void ws_patterns_release(struct ws_patterns *p);

/*
 * Whether the repository-relative directory path ("apps/web") matches
 * pattern, segment by segment: "**" is any number of directories (none
 * included), any other segment is an fnmatch(3) pattern of one name.  As
 * the globs of npm, pnpm and uv (dot: false), a wildcard never matches a
 * name that starts with '.'.  Braces are not expanded here (see
 * ws_brace_expand).  1 or 0.
 */
int ws_glob_match(const char *pattern, const char *path);

/* 1 when the segment s[0..n) holds a wildcard (* ? [). */
int ws_glob_is_wild(const char *s, size_t n);

/* Expand the braces of pattern ("{apps,packages}/x" gives "apps/x" and
 * "packages/x"), as minimatch and fast-glob do: a brace group without a
 * top-level comma stays literal.  At most max results; returns how many,
 * in *out (new strings, the array too; the caller frees both), or 0 when
 * there would be more than max. */
size_t ws_brace_expand(const char *pattern, size_t max, char ***out);

/* go.work: every "use" path, single and block form ("use ./a" and
 * "use ( ./a ./b )"), quoted or not, with its line and column; // comments
 * skipped.  Returns 0, or -1 with msg, *line and *col (a use block never
 * closed, a quote never closed, text go would refuse). */
int ws_gowork_parse(const char *buf, size_t len, struct ws_patterns *out,
		    char *msg, size_t msglen, unsigned *line, unsigned *col);

/* pyproject.toml [tool.uv.workspace]: members (and exclude, as negated
 * patterns), arrays of strings, over several lines or one.  Just enough
 * TOML to find them (a full TOML parser is meant to replace this).
 * Returns 1 when the table is there, 0 when it is not, -1 with msg,
 * *line and *col when members or exclude is not an array of strings
 * (uv refuses that pyproject.toml). */
int ws_uv_parse(const char *buf, size_t len, struct ws_patterns *out,
		char *msg, size_t msglen, unsigned *line, unsigned *col);

/* 1 when dir may name a workspace in a check id: segments of
 * [A-Za-z0-9._@+-], none "." or "..", joined by '/'. */
int ws_dir_valid(const char *dir);

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
