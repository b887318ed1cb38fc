/* test_util.c - util.c's paths, row by row: path_lexical resolves "." and
 * ".." by text alone, as realpath would on a tree with no symlink, and
 * keeps the ".." a relative path cannot resolve. */
#include "test.h"
#include "util.h"

#include <stdlib.h>

static void test_path_lexical(void)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "a/b/../c", "a/c" },
		{ "/x/../..", "/" },		/* above / is / */
		{ "", "." },
		{ ".", "." },
		{ "./a/./b/", "a/b" },
		{ "a//b", "a/b" },
		{ "/a//b/../c", "/a/c" },
		{ "..", ".." },
		{ "../a", "../a" },
		{ "a/../../b", "../b" },
		{ "../a/..", ".." },
		{ "../../a/../b", "../../b" },
		{ "a/..", "." },
		{ "/", "/" },
		{ "/..", "/" },
		{ "packages/a/../../mise.toml", "mise.toml" },
		{ "/root/nonexist/../..", "/" },	/* the last step dropped */
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = path_lexical(rows[i].in);

		CHECK_STR(got, rows[i].want, "path_lexical(\"%s\")", rows[i].in);
		free(got);
	}
}

void test_main(void)
{
	test_path_lexical();
}
