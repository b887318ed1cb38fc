/* fuzz_procnet.c - /proc/net/tcp and tcp6 text (src/procnet.c
 * procnet_parse), which the ports probe reads from a /proc that tests and
 * containers may point elsewhere.
 *
 * Invariants: only LISTEN entries come back, each with a port, a
 * NUL-terminated printable address text, and at most one entry per line
 * after the header; the low bit of the first byte picks the table.
 */
#include "fuzz.h"
#include "procnet.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tcp_listener *v = NULL;
	size_t n = 0, cap = 0, i, lines = 1;
	uint8_t *owned;
	int family;

	if (!size)
		return 0;
	family = data[0] & 1 ? AF_INET6 : AF_INET;
	data++;
	size--;
	data = fuzz_scale(data, &size, &owned);
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	procnet_parse((const char *)data, size, family, &v, &n, &cap);
	FUZZ_CHECK(n <= lines - 1 || n == 0);
	FUZZ_CHECK(n <= cap);
	for (i = 0; i < n; i++) {
		const struct tcp_listener *l = &v[i];

		FUZZ_CHECK(l->port <= 65535);
		FUZZ_CHECK(l->family == family);
		FUZZ_CHECK(memchr(l->addr_text, '\0', sizeof(l->addr_text)) != NULL);
		FUZZ_CHECK(l->addr_text[0] && fuzz_printable(l->addr_text));
		FUZZ_CHECK(!l->v4mapped || family == AF_INET6);
	}
	free(v);
	free(owned);
	return 0;
}
