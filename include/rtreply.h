/* rtreply.h - a route lookup's request and the kernel's answer, as bytes
 * (pure: src/parse/rtreply.c; the socket is src/os/rtroute.c's).
 *
 * What `ip route get ADDR` asks (iproute2 ip/iproute.c iproute_get): one
 * RTM_GETROUTE message, NLM_F_REQUEST, a struct rtmsg of the family and
 * an RTA_DST attribute of the address (rtnetlink(7)).  The kernel looks
 * the destination up as it would for a packet it sends (policy rules,
 * every table) and answers with one RTM_NEWROUTE, or an NLMSG_ERROR whose
 * error is why there is no route.  No packet is sent.  Thread-safe.
 */
#ifndef EP_RTREPLY_H
#define EP_RTREPLY_H

#include <stddef.h>

/* What the kernel answered for one destination. */
struct rtroute {
	int routed;		/* 1: a packet to it would leave by a route */
	int error;		/* the NLMSG_ERROR's errno (positive), or 0 */
	unsigned char type;	/* RTN_UNICAST, RTN_LOCAL, RTN_UNREACHABLE, ...
				 * (0 with an error) */
	unsigned table;		/* RTA_TABLE, else rtm_table */
	unsigned oif;		/* RTA_OIF, the interface's index, or 0 */
	unsigned char gateway[16];	/* RTA_GATEWAY, gateway_len bytes */
	size_t gateway_len;	/* 4, 16, or 0: on-link (no gateway) */
};

/* The request for family (AF_INET or AF_INET6) and addr (4 or 16 bytes)
 * with sequence number seq, written to buf: its length, or 0 when buf is
 * too small or the family unknown. */
size_t rtreply_request(void *buf, size_t size, int family, const void *addr,
		       unsigned seq);

/* The answer to request seq in buf (one datagram): 0 with *out filled, or
 * -1 when it is not one (truncated, another sequence number, another
 * message type).  An error that means "no route" (ENETUNREACH,
 * EHOSTUNREACH; IPv4's unreachable, prohibit, blackhole and throw routes
 * answer EHOSTUNREACH, EACCES, EINVAL and EAGAIN: net/ipv4/fib_semantics.c
 * fib_props) is a 0 with routed 0; any other error is -1 with out->error
 * set. */
int rtreply_parse(const void *buf, size_t len, unsigned seq, struct rtroute *out);

/* "unicast", "local", "unreachable", "blackhole", "prohibit", "throw", ...
 * for an RTN_* type (static; "unknown" past the known). */
const char *rtreply_type_name(unsigned char type);

#endif
