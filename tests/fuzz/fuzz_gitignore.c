/* fuzz_gitignore.c - .gitignore rules and git's wildmatch (src/parse/gitignore.c).
 *
 * Input: rule text, then (after the first NUL) up to 8 paths, one a line.
 * The rules are added twice, as the root .gitignore and as a/.gitignore,
 * and every path is matched as a file and as a directory.
 *
 * Invariants: the answer is 0 or 1 and names its rule (a file this set
 * holds, a line inside it); a path that is ignored was not decided by a
 * negated rule.  Matching is bounded (gitignore.h): a pathological pattern
 * must end within libFuzzer's -timeout.
 */
#include "fuzz.h"
#include "gitignore.h"

#include <stdlib.h>
#include <string.h>

#define MAX_PATHS 8

static void check(const struct gitignore *g, const char *path, int is_dir,
		  unsigned lines)
{
	struct gitignore_match m;
	int rc = gitignore_match(g, path, is_dir, &m);

	FUZZ_CHECK(rc == 0 || rc == 1);
	if (m.source) {
		FUZZ_CHECK(!strcmp(m.source, ".gitignore") ||
			   !strcmp(m.source, "a/.gitignore"));
		FUZZ_CHECK(m.line >= 1 && m.line <= lines && m.pattern);
	} else {
		FUZZ_CHECK(rc == 0 && m.line == 0);
	}
	if (rc == 1)
		FUZZ_CHECK(!m.negated);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *rules, *paths;
	size_t rlen, plen, i;
	unsigned lines = 1, n = 0;
	struct gitignore *g;
	char *all, *p;
	uint8_t *owned;

	fuzz_split(data, size, &rules, &rlen, &paths, &plen);
	rules = fuzz_scale(rules, &rlen, &owned);
	for (i = 0; i < rlen; i++)
		lines += rules[i] == '\n';
	g = gitignore_new();
	gitignore_add(g, (const char *)rules, rlen, "", ".gitignore");
	gitignore_add(g, (const char *)rules, rlen, "a", "a/.gitignore");
	all = fuzz_str(paths, plen);
	for (p = all; p && n < MAX_PATHS; n++) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		check(g, p, 0, lines);
		check(g, p, 1, lines);
		p = nl ? nl + 1 : NULL;
	}
	free(all);
	gitignore_free(g);
	free(owned);
	return 0;
}
