/* rtreply.c - a route lookup's request and the kernel's answer (see
 * rtreply.h).  Bytes in, values out: no system call.
 */
#include "rtreply.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

/* iproute2 ip/iproute.c iproute_get: the same three parts, nlmsghdr,
 * rtmsg, RTA_DST; rtm_dst_len is the address's whole length */
size_t rtreply_request(void *buf, size_t size, int family, const void *addr,
		       unsigned seq)
{
	size_t alen = family == AF_INET ? 4 : family == AF_INET6 ? 16 : 0;
	size_t len = NLMSG_LENGTH(sizeof(struct rtmsg)) + RTA_SPACE(alen);
	struct nlmsghdr *h = buf;
	struct rtmsg *rtm;
	struct rtattr *rta;

	if (!alen || size < len)
		return 0;
	memset(buf, 0, len);
	h->nlmsg_len = (unsigned)len;
	h->nlmsg_type = RTM_GETROUTE;
	h->nlmsg_flags = NLM_F_REQUEST;
	h->nlmsg_seq = seq;
	rtm = NLMSG_DATA(h);
	rtm->rtm_family = (unsigned char)family;
	rtm->rtm_dst_len = (unsigned char)(alen * 8);
	rta = (struct rtattr *)((char *)h + NLMSG_LENGTH(sizeof(struct rtmsg)));
	rta->rta_type = RTA_DST;
	rta->rta_len = (unsigned short)RTA_LENGTH(alen);
	memcpy(RTA_DATA(rta), addr, alen);
	return len;
}

/* errors that answer "no route": ENETUNREACH (no route at all), and
 * net/ipv4/fib_semantics.c fib_props' errors of the reject types:
 * unreachable EHOSTUNREACH, prohibit EACCES, blackhole EINVAL, throw
 * EAGAIN (a throw with nothing after it) */
static int no_route_error(int e)
{
	return e == ENETUNREACH || e == EHOSTUNREACH || e == EACCES || e == EINVAL ||
	       e == EAGAIN;
}

static int reject_type(unsigned char t)
{
	return t == RTN_UNREACHABLE || t == RTN_BLACKHOLE || t == RTN_PROHIBIT ||
	       t == RTN_THROW;
}

static void route_attrs(const struct rtmsg *rtm, size_t len, struct rtroute *out)
{
	const struct rtattr *rta = RTM_RTA(rtm);
	int n = (int)len;

	for (; RTA_OK(rta, n); rta = RTA_NEXT(rta, n)) {
		size_t dl = RTA_PAYLOAD(rta);

		if (rta->rta_type == RTA_OIF && dl >= 4)
			memcpy(&out->oif, RTA_DATA(rta), 4);
		else if (rta->rta_type == RTA_TABLE && dl >= 4)
			memcpy(&out->table, RTA_DATA(rta), 4);
		else if (rta->rta_type == RTA_GATEWAY && (dl == 4 || dl == 16)) {
			memcpy(out->gateway, RTA_DATA(rta), dl);
			out->gateway_len = dl;
		}
	}
}

int rtreply_parse(const void *buf, size_t len, unsigned seq, struct rtroute *out)
{
	const struct nlmsghdr *h = buf;
	const struct rtmsg *rtm;

	memset(out, 0, sizeof(*out));
	if (len < sizeof(*h) || h->nlmsg_len < sizeof(*h) || h->nlmsg_len > len ||
	    h->nlmsg_seq != seq)
		return -1;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);

		/* INT_MIN: no errno, and its negation overflows */
		if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)) || e->error >= 0 ||
		    e->error == INT_MIN)
			return -1;
		out->error = -e->error;
		return no_route_error(out->error) ? 0 : -1;
	}
	if (h->nlmsg_type != RTM_NEWROUTE || h->nlmsg_len < NLMSG_LENGTH(sizeof(*rtm)))
		return -1;
	rtm = NLMSG_DATA(h);
	out->type = rtm->rtm_type;
	out->table = rtm->rtm_table;
	route_attrs(rtm, h->nlmsg_len - NLMSG_LENGTH(sizeof(*rtm)), out);
	/* IPv6 answers a reject route with the route itself (ip -6 route get
	 * prints "unreachable ... dev lo") */
	out->routed = !reject_type(rtm->rtm_type);
	return 0;
}

const char *rtreply_type_name(unsigned char type)
{
	static const char *const names[] = {
		[RTN_UNSPEC] = "none", [RTN_UNICAST] = "unicast", [RTN_LOCAL] = "local",
		[RTN_BROADCAST] = "broadcast", [RTN_ANYCAST] = "anycast",
		[RTN_MULTICAST] = "multicast", [RTN_BLACKHOLE] = "blackhole",
		[RTN_UNREACHABLE] = "unreachable", [RTN_PROHIBIT] = "prohibit",
		[RTN_THROW] = "throw", [RTN_NAT] = "nat", [RTN_XRESOLVE] = "xresolve",
	};

	return type < sizeof(names) / sizeof(names[0]) && names[type] ? names[type] :
	       "unknown";
}
