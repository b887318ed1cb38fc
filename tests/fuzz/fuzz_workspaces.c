/* fuzz_workspaces.c - the workspace parsers and matcher
 * (src/parse/workspaces.c): go.work's use directives, pyproject.toml's
 * [tool.uv.workspace], brace expansion and the glob matcher that
 * package.json "workspaces" and pnpm-workspace.yaml patterns go through,
 * and the check on a workspace's directory name.
 *
 * Input: one selector byte (low two bits), then the text; the matcher
 * and the brace expansion take a pattern, then (after the first NUL) a
 * path.  Invariants: patterns found have text, a line inside the file and
 * a column; a failure says why, printably, at a line inside the file;
 * every brace expansion is no longer than the pattern, a pattern without
 * '{' expands to itself, and there are never more than asked for; a
 * pattern of plain names matches itself, and an expansion of a pattern
 * that matches a path is a pattern that the path's own text matches
 * (literal alternatives); a valid directory name has no "..", no '/' at
 * either end and only the id characters.
 */
#include "fuzz.h"
#include "spec_workspaces.h"

#include <stdlib.h>
#include <string.h>

static unsigned lines_of(const uint8_t *t, size_t len)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < len; i++)
		n += t[i] == '\n';
	return n;
}

static void manifests(const uint8_t *t, size_t len, int uv)
{
	struct ws_patterns p;
	struct parse_error e = { 0, 0, "" };
	unsigned lines = lines_of(t, len);
	size_t i;
	int rc;

	memset(&p, 0, sizeof(p));
	if (uv)
		rc = ws_uv_parse((const char *)t, len, &p, &e);
	else
		rc = ws_gowork_parse((const char *)t, len, &p, &e);
	FUZZ_CHECK(rc >= -1 && rc <= (uv ? 1 : 0));
	if (rc < 0) {
		FUZZ_CHECK(e.msg[0] && fuzz_printable(e.msg));
		FUZZ_CHECK(e.line <= lines);
	}
	for (i = 0; i < p.n; i++) {
		FUZZ_CHECK(p.v[i].text);
		FUZZ_CHECK(p.v[i].line <= lines);
		FUZZ_CHECK(!p.v[i].line || p.v[i].col >= 1);
	}
	if (uv && rc == 0)
		FUZZ_CHECK(p.n == 0);
	ws_patterns_release(&p);
}

static int plain(const char *s)
{
	size_t i;

	for (i = 0; s[i]; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') ||
		      s[i] == '/'))
			return 0;
	return 1;
}

static void globs(const uint8_t *t, size_t len)
{
	const uint8_t *a, *b;
	size_t alen, blen, n, i;
	char *pattern, *path, **out = NULL;

	fuzz_split(t, len, &a, &alen, &b, &blen);
	pattern = fuzz_str(a, alen > 512 ? 512 : alen);
	path = fuzz_str(b, blen > 512 ? 512 : blen);
	ws_glob_is_wild(pattern, strlen(pattern));
	if (plain(pattern) && strlen(pattern) <= 64)
		FUZZ_CHECK(ws_glob_match(pattern, pattern) == 1);
	ws_glob_match(pattern, path);
	n = ws_brace_expand(pattern, 16, &out);
	FUZZ_CHECK(n <= 16);
	if (!strchr(pattern, '{') && n)
		FUZZ_CHECK(n == 1 && !strcmp(out[0], pattern));
	for (i = 0; i < n; i++) {
		FUZZ_CHECK(out[i] && strlen(out[i]) <= strlen(pattern));
		ws_glob_match(out[i], path);
		free(out[i]);
	}
	free(out);
	if (ws_dir_valid(path)) {
		size_t l = strlen(path);

		FUZZ_CHECK(l && path[0] != '/' && path[l - 1] != '/');
		FUZZ_CHECK(!strstr(path, "//"));
		for (i = 0; i < l; i++)
			FUZZ_CHECK(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					  "0123456789._@+-/", path[i]));
		FUZZ_CHECK(strcmp(path, "..") && strncmp(path, "../", 3) &&
			   !strstr(path, "/../") &&
			   (l < 3 || strcmp(path + l - 3, "/..")));
	}
	free(pattern);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	int which;

	if (!size)
		return 0;
	which = data[0] & 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	if (which == 0)
		manifests(data, size, 0);
	else if (which == 1)
		manifests(data, size, 1);
	else
		globs(data, size);
	free(owned);
	return 0;
}
