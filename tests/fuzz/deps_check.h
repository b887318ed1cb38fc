/* deps_check.h - what the lockfile fuzz targets check of a dep_set
 * (static functions: each target includes it once). */
#ifndef EP_FUZZ_DEPS_CHECK_H
#define EP_FUZZ_DEPS_CHECK_H

#include "deps.h"
#include "fuzz.h"

#include <string.h>

/* Every entry has a key that finds it, a name, known flags and a line
 * inside the input; the set compared with itself differs nowhere. */
static void deps_check_set(const struct dep_set *s, unsigned lines, unsigned how)
{
	struct dep_diff d;
	size_t i;

	memset(&d, 0, sizeof(d));
	for (i = 0; i < s->n; i++) {
		const struct dep *e = &s->v[i];

		FUZZ_CHECK(e->key && e->name);
		FUZZ_CHECK(dep_set_get(s, e->key) == e);
		FUZZ_CHECK((e->flags & ~0xffU) == 0);
		FUZZ_CHECK(e->line <= lines);
	}
	deps_compare(s, s, how, &d);
	FUZZ_CHECK(d.n == 0 && d.extra == 0);
	FUZZ_CHECK(d.compared + d.skipped <= s->n);
	dep_diff_release(&d);
}

/* A failure says where, inside the input, and what, printably. */
static void deps_check_error(const struct parse_error *e, unsigned lines)
{
	FUZZ_CHECK(e->msg[0] && fuzz_printable(e->msg));
	FUZZ_CHECK(e->line <= lines);
}

/* How many lines YAML sees in data: CR LF, CR, LF, NEL, LS and PS each
 * end one (libyaml's marks, which pnpm's and yarn's readers report). */
static inline unsigned deps_yaml_lines(const uint8_t *d, size_t size)
{
	unsigned n = 1;
	size_t i = 0;

	while (i < size) {
		size_t k = 0;

		if (d[i] == '\r')
			k = i + 1 < size && d[i + 1] == '\n' ? 2 : 1;
		else if (d[i] == '\n')
			k = 1;
		else if (i + 1 < size && d[i] == 0xc2 && d[i + 1] == 0x85)
			k = 2;
		else if (i + 2 < size && d[i] == 0xe2 && d[i + 1] == 0x80 &&
			 (d[i + 2] == 0xa8 || d[i + 2] == 0xa9))
			k = 3;
		n += k > 0;
		i += k ? k : 1;
	}
	return n;
}

static inline unsigned deps_lines(const uint8_t *data, size_t size)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < size; i++)
		n += data[i] == '\n';
	return n;
}

#endif
