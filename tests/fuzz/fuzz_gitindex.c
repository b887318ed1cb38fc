/* fuzz_gitindex.c - the git index reader (src/parse/gitindex.c): a repository
 * ships its own .git, so the index is untrusted bytes.
 *
 * Input: the index file.  Looked up: ".env", "a/.env" and a path taken
 * from the input's tail, in SHA-1 and SHA-256 layouts.  ASan guards the
 * reads; the answer must be -1, 0 or 1.
 */
#include "fuzz.h"
#include "gitindex.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t hashes[] = { 20, 32 };
	const char *paths[3] = { ".env", "a/.env", NULL };
	size_t h, i, tail = size > 16 ? 16 : size;
	char *last = fuzz_str(data + size - tail, tail);

	paths[2] = last;
	for (h = 0; h < 2; h++)
		for (i = 0; i < 3; i++) {
			int rc = gitindex_tracked((const char *)data, size,
						  hashes[h], paths[i]);

			FUZZ_CHECK(rc >= -1 && rc <= 1);
		}
	free(last);
	return 0;
}
