/* fuzz_portspec.c - compose "ports:" entries, "published" ranges and
 * *_URL values (src/parse/portspec.c).
 *
 * Invariants: parsed ports lie in 1-65535 with lo <= hi (host 0, 0 for
 * none); the protocol is one of three and tcp says whether it is "tcp";
 * error messages are printable; a local URL's port is 1-65535.
 */
#include "fuzz.h"
#include "portspec.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_str(data, size), err[256];
	const char *scheme = NULL;
	struct portspec p;
	unsigned lo = 0, hi = 0, port = 0;
	int rc;

	err[0] = '\0';
	memset(&p, 0, sizeof(p));
	if (portspec_parse(s, &p, err, sizeof(err)) == 0) {
		FUZZ_CHECK(p.ctr_lo >= 1 && p.ctr_lo <= p.ctr_hi && p.ctr_hi <= 65535);
		if (p.host_lo)
			FUZZ_CHECK(p.host_lo <= p.host_hi && p.host_hi <= 65535);
		else
			FUZZ_CHECK(p.host_hi == 0);
		FUZZ_CHECK(memchr(p.host_ip, '\0', sizeof(p.host_ip)) != NULL);
		FUZZ_CHECK(fuzz_printable(p.host_ip));
		FUZZ_CHECK(!strcmp(p.proto, "tcp") || !strcmp(p.proto, "udp") ||
			   !strcmp(p.proto, "sctp"));
		FUZZ_CHECK(p.tcp == !strcmp(p.proto, "tcp"));
	} else {
		FUZZ_CHECK(err[0] && fuzz_printable(err));
	}
	if (portspec_range(s, &lo, &hi) == 0)
		FUZZ_CHECK(lo >= 1 && lo <= hi && hi <= 65535);
	rc = portspec_local_url(s, &port, &scheme);
	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc == 1)
		FUZZ_CHECK(port >= 1 && port <= 65535);
	free(s);
	return 0;
}
