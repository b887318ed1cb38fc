/* fuzz_sudoers.c - sudoers as the sandbox probe reads it
 * (src/parse/sudoers.c): User_Alias definitions collected from every
 * file, then the lines that let the user run a command without a
 * password (NOPASSWD:, Defaults !authenticate).
 *
 * Input: /etc/sudoers, then (after the first NUL) a file of
 * /etc/sudoers.d; the user is "dev" (uid 1000) in the groups dev (1000),
 * docker (999) and an unnamed 4242.  Invariants: each hit names a line
 * of the file scanned and says "NOPASSWD" or "!authenticate"; the count
 * returned is the number of hits; hits come in line order; the answer
 * does not depend on scanning twice; a file without "NOPASSWD" and
 * without "authenticate" (any case) has no hit.
 */
#include "fuzz.h"
#include "sandbox.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct hits {
	unsigned lines, last;
	size_t n;
};

static void hit(unsigned line, const char *what, void *arg)
{
	struct hits *h = arg;

	FUZZ_CHECK(line >= 1 && line <= h->lines && line >= h->last);
	FUZZ_CHECK(!strcmp(what, "NOPASSWD") || !strcmp(what, "!authenticate"));
	h->last = line;
	h->n++;
}

static unsigned lines_of(const uint8_t *t, size_t len)
{
	unsigned n = 1;
	size_t i;

	for (i = 0; i < len; i++)
		n += t[i] == '\n';
	return n;
}

static int mentions(const uint8_t *t, size_t len, const char *word)
{
	size_t i, wl = strlen(word);

	for (i = 0; i + wl <= len; i++)
		if (!strncasecmp((const char *)t + i, word, wl))
			return 1;
	return 0;
}

static void scan(const uint8_t *t, size_t len, const struct sudo_who *who,
		 const struct sudo_aliases *a)
{
	struct hits h = { lines_of(t, len), 0, 0 }, again = h;
	size_t n;

	n = sandbox_sudoers_scan((const char *)t, len, who, a, hit, &h);
	FUZZ_CHECK(n == h.n);
	FUZZ_CHECK(sandbox_sudoers_scan((const char *)t, len, who, a, hit, &again) == n);
	if (!mentions(t, len, "nopasswd") && !mentions(t, len, "authenticate"))
		FUZZ_CHECK(n == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const groups[] = { "dev", "docker", NULL };
	static const unsigned long gids[] = { 1000, 999, 4242 };
	static const struct sudo_who dev = { "dev", 1000, groups, gids, 3 };
	struct sudo_aliases a;
	const uint8_t *main_file, *d_file;
	size_t mlen, dlen;
	uint8_t *owned;

	memset(&a, 0, sizeof(a));
	fuzz_split(data, size, &main_file, &mlen, &d_file, &dlen);
	main_file = fuzz_scale(main_file, &mlen, &owned);
	sandbox_sudoers_aliases((const char *)main_file, mlen, &a);
	sandbox_sudoers_aliases((const char *)d_file, dlen, &a);
	scan(main_file, mlen, &dev, &a);
	scan(d_file, dlen, &dev, &a);
	sudo_aliases_release(&a);
	free(owned);
	return 0;
}
