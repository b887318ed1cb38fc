/* toolversions.h - asdf / mise .tool-versions: "tool version [version...]"
 * per line, '#' to the end of the line a comment.
 */
#ifndef EP_TOOLVERSIONS_H
#define EP_TOOLVERSIONS_H

#include <stddef.h>

#include "parse_error.h"

enum toolversions_kind {
	TOOLVERSIONS_VERSION,	/* "20.11.1", "3.11", "temurin-21.0.2+13.0.LTS" */
	TOOLVERSIONS_REF,	/* "ref:v1.2.3": built from a git ref */
	TOOLVERSIONS_PATH,	/* "path:/opt/node": a local directory */
	TOOLVERSIONS_SYSTEM,	/* "system": whatever is on PATH */
	TOOLVERSIONS_OTHER,	/* "latest", "lts", "prefix:1.2" (mise): not a
				 * version that can be compared */
};

struct toolversions_entry {
	char *tool;		/* the plugin name as written (owned) */
	const char *runtime;	/* "node" for "nodejs" (static), or NULL for a
				 * plugin outside the built-in table */
	char *version;		/* the first version as written (owned) */
	enum toolversions_kind kind;
	unsigned nversions;	/* how many versions the line lists */
	unsigned line, col;	/* of the tool name, 1-based; col in bytes */
	unsigned version_col;
	unsigned dup_line;	/* a later line naming the same tool, which
				 * asdf ignores (first wins), or 0 */
};

struct toolversions {
	struct toolversions_entry *v;	/* in file order, one per tool */
	size_t n, cap;
};

/* Parse buf[0..len) into *out (released with toolversions_release).
 * Returns 0, or -1 with e filled (a tool without a version, a NUL byte,
 * bytes that are not UTF-8; e may be NULL); *out is then empty. */
int toolversions_parse(const char *buf, size_t len, struct toolversions *out,
		       struct parse_error *e);

/* The entry for a runtime name ("node", "python", "go"), or NULL. */
const struct toolversions_entry *
toolversions_find(const struct toolversions *t, const char *runtime);

/* The runtime name of an asdf/mise plugin ("nodejs" -> "node"; mise's
 * "core:" prefix is allowed), or NULL when it is not in the table. */
const char *toolversions_runtime(const char *plugin, size_t len);

void toolversions_release(struct toolversions *t);

/* What kind of version s[0..len) is, as a .tool-versions entry's (mise's
 * config files and the other version files take the same words). */
enum toolversions_kind toolversions_classify(const char *s, size_t len);

/* The dotted numbers a version starts with, after an optional flavour
 * ("temurin-21.0.2+13" gives "21.0.2", "v20.1" gives "20.1"): a pointer
 * into s, with their length in *len (0: none). */
const char *toolversions_core(const char *s, size_t *len);

#endif
