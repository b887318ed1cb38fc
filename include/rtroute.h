/* rtroute.h - ask the kernel the route to one address, as `ip route get`
 * does (src/os/rtroute.c; the bytes are rtreply.h's).
 *
 * One NETLINK_ROUTE socket, one RTM_GETROUTE request, one reply read
 * within a timeout, the socket closed: a route lookup, no packet is sent
 * (rtnetlink(7); iproute2 ip/iproute.c iproute_get).  Thread-safe.
 */
#ifndef EP_RTROUTE_H
#define EP_RTROUTE_H

#include <net/if.h>

#include "rtreply.h"

struct rtroute_answer {
	struct rtroute r;
	char ifname[IF_NAMESIZE];	/* RTA_OIF's name, or "" */
};

/*
 * The route to addr (4 bytes for AF_INET, 16 for AF_INET6), waiting at
 * most timeout_ms for the answer.  0 with *out filled (routed 0 when the
 * kernel has none), or -1 with errno when netlink could not be asked or
 * did not answer (EAFNOSUPPORT, EPERM under a seccomp filter, ETIMEDOUT,
 * EPROTO for a reply that does not parse, or the kernel's own error).
 */
int rtroute_get(int family, const void *addr, int timeout_ms,
		struct rtroute_answer *out);

#endif
