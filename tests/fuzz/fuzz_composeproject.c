/* fuzz_composeproject.c - the compose project loader (src/model/spec_compose.c):
 * which files make the project (COMPOSE_FILE and COMPOSE_PATH_SEPARATOR
 * from the .env, compose.override.yaml, include: entries with their own
 * env_file and project directory), which profiles are active
 * (COMPOSE_PROFILES), env_file: of services, depends_on and extends, all
 * over several files of one repository.
 *
 * Input: up to six parts split at NUL bytes, written into the scratch
 * repository: compose.yaml, .env, compose.override.yaml,
 * inc/compose.yaml, inc/.env, app.env (a missing part: no file).  The
 * first part may be a scaled unit (fuzz.h).  Invariants: those of
 * fuzz_spec_load (fuzz.h): every port in range, every name one a check
 * id can hold, every origin a file, and a failure that says why
 * (compose.yaml need not be read: COMPOSE_FILE may name others).
 */
#include "fuzz.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"repo/compose.yaml", "repo/.env", "repo/compose.override.yaml",
		"repo/inc/compose.yaml", "repo/inc/.env", "repo/app.env",
	};
	const uint8_t *part = data, *rest;
	size_t plen, rlen, left = size, i;
	uint8_t *owned = NULL;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!part) {
			fuzz_put(names[i], NULL, 0);
			continue;
		}
		fuzz_split(part, left, &part, &plen, &rest, &rlen);
		if (i == 0) {
			const uint8_t *scaled = fuzz_scale(part, &plen, &owned);

			fuzz_put(names[i], scaled, plen);
		} else {
			fuzz_put(names[i], part, plen);
		}
		/* no NUL left: the later files are absent */
		part = rest > part + plen ? rest : NULL;
		left = rlen;
	}
	fuzz_spec_load(NULL);
	free(owned);
	return 0;
}
