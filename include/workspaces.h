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
 * This header is the pure part's; what discovery found, and the child
 * models, are the model's: spec_workspaces.h.
 */
#ifndef EP_WORKSPACES_H
#define EP_WORKSPACES_H

#include <stddef.h>

#include "origin.h"
#include "parse_error.h"

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
 * skipped.  Returns 0, or -1 with e filled (a use block never closed, a
 * quote never closed, text go would refuse). */
int ws_gowork_parse(const char *buf, size_t len, struct ws_patterns *out,
		    struct parse_error *e);

/* pyproject.toml [tool.uv.workspace]: members (and exclude, as negated
 * patterns), arrays of strings, over several lines or one.  Just enough
 * TOML to find them (a full TOML parser is meant to replace this).
 * Returns 1 when the table is there, 0 when it is not, -1 with e filled
 * when members or exclude is not an array of strings (uv refuses that
 * pyproject.toml). */
int ws_uv_parse(const char *buf, size_t len, struct ws_patterns *out,
		struct parse_error *e);

/* 1 when dir may name a workspace in a check id: segments of
 * [A-Za-z0-9._@+-], none "." or "..", joined by '/'. */
int ws_dir_valid(const char *dir);

/* The word of dir's segments that makes it a sample, not a part of the
 * project a developer runs: "templates" (payload's templates/blank, which
 * create-payload-app copies), "examples", "starters" and their singulars;
 * NULL when none does. */
const char *ws_dir_sample(const char *dir);

#endif
