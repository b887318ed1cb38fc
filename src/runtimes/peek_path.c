/* peek_path.c - the path rule of peek.c: nvm, n, volta, asdf, mise,
 * fnm and pyenv install each version in a directory named after it, so
 * the canonical path of a binary names its version.
 *
 * Only plain X.Y.Z names count, and where the install carries its own
 * header (node_version.h, patchlevel.h) that header must agree.  Shims
 * (asdf, mise, volta) never resolve to such a path, so they fall out by
 * themselves.
 */
#include "peek_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Install layouts whose version directory names the version.  Components
 * are matched from the end of the canonical path: '%' is the version
 * directory ("%v": a leading 'v' is allowed, as nvm and fnm write it),
 * "python*" is any python executable name (checked against the version
 * afterwards).  The directory that holds bin/ is the install prefix, whose
 * include/ has the header we cross-check.  nodenv's "versions/%/bin/node"
 * is left out on purpose: nodeenv can put a node into a pyenv version's
 * bin/, and that path would name the python version. */
struct pathrule {
	enum peek_install kind;
	const char *pattern;
	/* cppcheck-suppress unusedStructMember ; documentation kept in the table */
	const char *who;	/* for the reader */
};

static const struct pathrule pathrules[] = {
	{ PEEK_NODE, "versions/node/%v/bin/node", "nvm, n" },
	{ PEEK_NODE, "tools/image/node/%/bin/node", "volta" },
	{ PEEK_NODE, "installs/nodejs/%/bin/node", "asdf" },
	{ PEEK_NODE, "installs/node/%/bin/node", "mise" },
	{ PEEK_NODE, "node-versions/%v/installation/bin/node", "fnm" },
	{ PEEK_PYTHON, "versions/%/bin/python*", "pyenv" },
	{ PEEK_PYTHON, "installs/python/%/bin/python*", "asdf, mise" },
};

/* The components of path, at most max of them, from the end: comp[0] is
 * the last.  Returns how many. */
static size_t path_tail(const char *path, const char **comp, size_t *len,
			size_t max)
{
	const char *end = path + strlen(path), *p;
	size_t n = 0;

	while (n < max && end > path) {
		for (p = end; p > path && p[-1] != '/'; p--)
			;
		if (p == end)
			break;		/* "//" or a trailing '/' */
		comp[n] = p;
		len[n] = (size_t)(end - p);
		n++;
		end = p - 1;
		if (p == path)
			break;
	}
	return n;
}

/* The executable name python, python3 or python3.11 fits version v. */
static int python_name_fits(const char *exe, size_t len, const char *v)
{
	size_t vl = strlen(v), major;

	if (len < 6 || memcmp(exe, "python", 6))
		return 0;
	exe += 6;
	len -= 6;
	if (len == 0)
		return 1;
	major = strcspn(v, ".");
	if (len == major && !memcmp(exe, v, major))
		return 1;
	/* "3.11" is v up to its second dot */
	{
		const char *dot2 = strchr(v + major + 1, '.');
		size_t mm = dot2 ? (size_t)(dot2 - v) : vl;

		return len == mm && !memcmp(exe, v, mm);
	}
}

/* Match canonical path c against rule r: 1 with the bare version in
 * v[0..vsize) and the install prefix (a new string) in *prefix. */
static int pathrule_match(const struct pathrule *r, const char *c,
			  char *v, size_t vsize, char **prefix)
{
	const char *pat[8], *comp[8];
	size_t plen[8], clen[8], np, nc, i;
	const char *ver = NULL, *exe = NULL;
	size_t verlen = 0, exelen = 0;

	np = path_tail(r->pattern, pat, plen, 8);
	nc = path_tail(c, comp, clen, 8);
	if (nc < np + 1)	/* the prefix must be a real directory */
		return 0;
	for (i = 0; i < np; i++) {
		if (pat[i][0] == '%') {
			ver = comp[i];
			verlen = clen[i];
			if (plen[i] == 2 && verlen && ver[0] == 'v') {
				ver++;
				verlen--;
			}
			if (!peek_version_plain(ver, verlen) || verlen >= vsize)
				return 0;
		} else if (plen[i] > 1 && pat[i][plen[i] - 1] == '*') {
			if (clen[i] < plen[i] - 1 ||
			    memcmp(comp[i], pat[i], plen[i] - 1))
				return 0;
			exe = comp[i];
			exelen = clen[i];
		} else if (clen[i] != plen[i] || memcmp(comp[i], pat[i], plen[i])) {
			return 0;
		}
	}
	if (!ver)
		return 0;
	memcpy(v, ver, verlen);
	v[verlen] = '\0';
	if (exelen && !python_name_fits(exe, exelen, v))
		return 0;
	/* the prefix is the directory that holds bin/ (fnm: installation/) */
	for (i = 0; i < np && pat[i][0] != '%'; i++)
		;
	if (i >= 2 && !strncmp(pat[i - 1], "installation", 12))
		*prefix = xstrndup(c, (size_t)(comp[i - 2] - c) - 1);
	else
		*prefix = xstrndup(c, (size_t)(comp[i - 1] - c) - 1);
	return 1;
}

/* The three numbers of "#define NAME N" in a header text, or -1. */
static long header_define(const char *text, const char *name)
{
	const char *p = text;
	size_t n = strlen(name);
	long val;

	while ((p = strstr(p, "#define ")) != NULL) {
		p += 8;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!strncmp(p, name, n) && (p[n] == ' ' || p[n] == '\t')) {
			char num[16];
			size_t k = 0;

			p += n;
			while (*p == ' ' || *p == '\t')
				p++;
			while (k < sizeof(num) - 1 && isdigit((unsigned char)p[k])) {
				num[k] = p[k];
				k++;
			}
			num[k] = '\0';
			if (parse_long(num, 0, 999999999, &val) < 0)
				return -1;
			return val;
		}
	}
	return -1;
}

/* The install's own header, where it has one, must name the same version:
 * 1 agrees or there is no header, 0 disagrees or cannot be read. */
static int header_agrees(enum peek_install k, const char *prefix,
			 const char *v)
{
	char rel[64], want[PEEK_VERSION_MAX + 1];
	struct blob b;
	char *path;
	int missing, ok = 0;

	if (k == PEEK_NODE) {
		snprintf(rel, sizeof(rel), "include/node/node_version.h");
	} else {
		const char *dot2 = strchr(strchr(v, '.') + 1, '.');

		snprintf(rel, sizeof(rel), "include/python%.*s/patchlevel.h",
			 (int)(dot2 - v), v);
	}
	path = path_join(prefix, rel);
	if (peek_read_text(path, PEEK_SMALL_CAP, &b, &missing) < 0) {
		free(path);
		return missing;
	}
	free(path);
	if (k == PEEK_NODE) {
		snprintf(want, sizeof(want), "%ld.%ld.%ld",
			 header_define(b.data, "NODE_MAJOR_VERSION"),
			 header_define(b.data, "NODE_MINOR_VERSION"),
			 header_define(b.data, "NODE_PATCH_VERSION"));
		ok = !strcmp(want, v);
	} else {
		/* #define PY_VERSION "3.11.7" */
		const char *p = strstr(b.data, "PY_VERSION ");

		if (p) {
			p = strchr(p, '"');
			ok = p && !strncmp(p + 1, v, strlen(v)) &&
			     p[1 + strlen(v)] == '"';
		}
	}
	blob_release(&b);
	return ok;
}

/* 1 with the version when the canonical path c is a versioned install. */
int peek_path_lookup(enum peek_install k, const char *c, char *out,
		      size_t outlen)
{
	char v[PEEK_VERSION_MAX + 1];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pathrules); i++) {
		char *prefix = NULL;
		int ok;

		if (pathrules[i].kind != k ||
		    !pathrule_match(&pathrules[i], c, v, sizeof(v), &prefix))
			continue;
		ok = header_agrees(k, prefix, v);
		free(prefix);
		return ok && peek_put_out(out, outlen, v, strlen(v));
	}
	return 0;
}
