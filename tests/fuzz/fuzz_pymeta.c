/* fuzz_pymeta.c - an installed package's core metadata
 * (src/parse/deps_py.c deps_pymeta_parse: the Name: and Version: of a
 * .dist-info/METADATA or PKG-INFO header) and PEP 503 names
 * (pep503_normalize), which the deps probe reads from a virtual
 * environment the repository may ship.
 *
 * Invariants: Name and Version, when found, are NUL-free text of the
 * header, no longer than it; a normalised name is lower case, has no '_'
 * or '.', no two '-' in a row, and normalises to itself.
 */
#include "fuzz.h"
#include "deps.h"

#include <stdlib.h>
#include <string.h>

static void check_norm(const char *s, size_t n)
{
	char *a = pep503_normalize(s, n), *b;
	size_t i;

	for (i = 0; a[i]; i++) {
		FUZZ_CHECK(!(a[i] >= 'A' && a[i] <= 'Z') && a[i] != '_' && a[i] != '.');
		FUZZ_CHECK(!(a[i] == '-' && a[i + 1] == '-'));
	}
	b = pep503_normalize(a, strlen(a));
	FUZZ_CHECK(!strcmp(a, b));
	free(a);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = NULL, *version = NULL;
	uint8_t *owned;

	data = fuzz_scale(data, &size, &owned);
	deps_pymeta_parse((const char *)data, size, &name, &version);
	if (name) {
		FUZZ_CHECK(strlen(name) <= size);
		check_norm(name, strlen(name));
	}
	FUZZ_CHECK(!version || strlen(version) <= size);
	free(name);
	free(version);
	check_norm((const char *)data, size > 4096 ? 4096 : size);
	free(owned);
	return 0;
}
