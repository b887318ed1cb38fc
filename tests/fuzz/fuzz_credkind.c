/* fuzz_credkind.c - the sandbox secrets' recognisers (src/parse/
 * credkind.c): a private key's head, git's credential store, gh's
 * hosts.yml, a kubeconfig, .pypirc and environment names.  Whoever
 * shares the home decides these texts.
 *
 * Input: one selector byte (its value modulo 3), then the text.
 * Invariants: credkind_key answers a kind or CREDKIND_MORE, never MORE
 * at the end of the file nor past CREDKIND_HEAD_MAX bytes, and once a
 * head has decided a longer read of the same file says the same (but for
 * a NUL byte further on); every kind has a
 * name; the file recognisers answer 0 or 1 (the kubeconfig's a kind with
 * a name); a name is judged the same in any case.
 */
#include "fuzz.h"
#include "credkind.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static void key(const uint8_t *t, size_t len)
{
	const char *s = (const char *)t;
	int whole = credkind_key(s, len, 1);
	size_t cut;

	FUZZ_CHECK(whole >= CREDKIND_KEY_NONE && whole <= CREDKIND_KEY_PUTTY);
	FUZZ_CHECK(whole == CREDKIND_KEY_NONE || credkind_key_name(whole));
	FUZZ_CHECK(credkind_key(s, len, 0) != CREDKIND_MORE || len < CREDKIND_HEAD_MAX);
	/* a head cut anywhere either waits for more or already says what the
	 * longer read says (unless a NUL byte past the cut makes that one
	 * not a text file) */
	for (cut = 0; cut <= len && cut <= 256; cut += 1 + cut / 8) {
		int part = credkind_key(s, cut, 0), full = credkind_key(s, len, 0);

		FUZZ_CHECK(part == CREDKIND_MORE || part == full ||
			   (full == CREDKIND_KEY_NONE && memchr(s + cut, '\0', len - cut)) ||
			   len > CREDKIND_HEAD_MAX);
	}
}

static void files(const uint8_t *t, size_t len)
{
	const char *s = (const char *)t;
	int k;

	FUZZ_CHECK(credkind_git_credentials(s, len) == 0 || credkind_git_credentials(s, len) == 1);
	FUZZ_CHECK(credkind_gh_hosts(s, len) == 0 || credkind_gh_hosts(s, len) == 1);
	FUZZ_CHECK(credkind_pypirc(s, len) == 0 || credkind_pypirc(s, len) == 1);
	k = credkind_kube(s, len);
	FUZZ_CHECK(k == CREDKIND_KUBE_NONE || credkind_kube_name(k));
}

static void names(const uint8_t *t, size_t len)
{
	char *s = fuzz_str(t, len), *up = fuzz_str(t, len);
	size_t i;

	for (i = 0; up[i]; i++)
		up[i] = (char)toupper((unsigned char)up[i]);
	FUZZ_CHECK(credkind_env_name(s) == credkind_env_name(up));
	free(s);
	free(up);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	unsigned which;

	if (!size)
		return 0;
	which = data[0] % 3;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	if (which == 0)
		key(data, size);
	else if (which == 1)
		files(data, size);
	else
		names(data, size);
	free(owned);
	return 0;
}
