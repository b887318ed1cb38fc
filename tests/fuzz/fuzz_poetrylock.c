/* fuzz_poetrylock.c - poetry.lock (src/parse/deps_py.c deps_poetry_parse
 * over toml.c): every non-optional package whose markers hold.
 *
 * The first byte: bit 0, no python version known; bit 1, the group "dev"
 * is left out (a pyproject.toml saying it is optional); bit 2, the rest
 * is pyproject.toml NUL poetry.lock (the declarations poetry 1.x solves
 * again; one that does not parse is none).  Invariants (deps_check.h): each entry
 * found by its normalised name, with known flags and a line inside the
 * file, and the set equal to itself under deps_compare; every key is its
 * own PEP 503 form; a failure names a line inside the file and says why,
 * printably.
 */
#include "deps_check.h"
#include "poetryhash.h"
#include "toml.h"
#include "util.h"

#include <stdlib.h>

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char dev_text[] = "[tool.poetry.group.dev]\noptional = true\n";
	struct toml_value *proj = NULL;
	struct parse_error perr;
	struct dep_set s = DEP_SET_INIT;
	struct buf unlocked = BUF_INIT;
	struct pymarker_env env = py312;
	struct parse_error err;
	unsigned lines;
	uint8_t *owned;
	size_t i;
	int opts;

	if (!size)
		return 0;
	opts = data[0];
	if (opts & 1)
		env.python_version = env.python_full_version = NULL;
	data++;
	size--;
	if (opts & 4) {
		const uint8_t *a, *b;
		size_t alen, blen;

		fuzz_split(data, size, &a, &alen, &b, &blen);
		if (toml_parse((const char *)a, alen, NULL, &proj, &perr) < 0)
			proj = NULL;
		data = b;
		size = blen;
	} else if (opts & 2) {
		FUZZ_CHECK(toml_parse(dev_text, sizeof(dev_text) - 1, NULL, &proj, &perr) == 0);
	}
	data = fuzz_scale(data, &size, &owned);
	lines = deps_lines(data, size);
	memset(&err, 0, sizeof(err));
	if (deps_poetry_parse((const char *)data, size, &env, proj, &s, &unlocked, &err) == 0) {
		deps_check_set(&s, lines, DEPS_CMP_PEP440);
		for (i = 0; i < s.n; i++) {
			char *norm = pep503_normalize(s.v[i].key, strlen(s.v[i].key));

			FUZZ_CHECK(!strcmp(norm, s.v[i].key));
			free(norm);
		}
		/* names of the declarations, each printable text */
		FUZZ_CHECK(!unlocked.len || (proj && strlen(buf_str(&unlocked)) == unlocked.len));
	} else {
		deps_check_error(&err, lines);
	}
	if (proj) {
		/* the content-hash text: ASCII JSON, no NUL, the same twice */
		static const char zeros[] = "00000000000000000000000000000000"
					    "00000000000000000000000000000000";
		int k;

		for (k = 0; k < 3; k++) {
			char *t1 = NULL, *t2 = NULL;
			int r1 = poetry_hash_text(proj, k, &t1), r2 = poetry_hash_text(proj, k, &t2);

			FUZZ_CHECK(r1 == r2 && (r1 < 0) == !t1);
			if (t1) {
				size_t j;

				FUZZ_CHECK(!strcmp(t1, t2) && t1[0] == '{');
				for (j = 0; t1[j]; j++)
					FUZZ_CHECK(t1[j] >= 0x20 && t1[j] < 0x7f);
			}
			free(t1);
			free(t2);
		}
		/* no text hashes to 64 zeros */
		FUZZ_CHECK(poetry_hash_fresh(proj, zeros, opts & 1) <= 0);
	}
	dep_set_release(&s);
	buf_release(&unlocked);
	toml_free(proj);
	free(owned);
	return 0;
}
