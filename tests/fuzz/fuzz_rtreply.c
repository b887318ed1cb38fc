/* fuzz_rtreply.c - the kernel's answer to a route lookup
 * (src/parse/rtreply.c), one datagram of NETLINK_ROUTE.
 *
 * Input: the datagram (copied to an aligned buffer, as recv(2) fills the
 * probe's); the request's sequence number is 42.
 * Invariants: the same answer twice; 0 or -1; with 0, routed is 0 or 1,
 * a gateway is 0, 4 or 16 bytes, an error is one of "no route" and comes
 * with routed 0; every route type has a name.
 */
#include "fuzz.h"
#include "rtreply.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct rtroute a, b;
	void *buf = malloc(size ? size : 1);
	int ra, rb;

	if (!buf)
		return 0;
	if (size)
		memcpy(buf, data, size);
	ra = rtreply_parse(buf, size, 42, &a);
	rb = rtreply_parse(buf, size, 42, &b);
	FUZZ_CHECK(ra == rb && !memcmp(&a, &b, sizeof(a)));
	FUZZ_CHECK(ra == 0 || ra == -1);
	if (ra == 0) {
		FUZZ_CHECK(a.routed == 0 || a.routed == 1);
		FUZZ_CHECK(a.gateway_len == 0 || a.gateway_len == 4 || a.gateway_len == 16);
		FUZZ_CHECK(!a.error || !a.routed);
	}
	FUZZ_CHECK(rtreply_type_name(a.type) != NULL);
	free(buf);
	return 0;
}
