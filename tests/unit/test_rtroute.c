/* test_rtroute.c - the route lookup's bytes (rtreply.h): the request
 * iproute2's iproute_get builds, and the kernel's answers as
 * net/ipv4/route.c and net/ipv6/route.c write them: a route, a reject
 * route (IPv6 answers with the route), an error (IPv4's reject types,
 * no route at all), and what is not an answer. */
#include "test.h"
#include "rtreply.h"
#include "rtroute.h"

#include <errno.h>
#include <string.h>
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sys/socket.h>

#define SEQ 42

/* an RTM_NEWROUTE of type with an RTA_OIF and, when gw, an RTA_GATEWAY */
static size_t route_msg(unsigned char *buf, unsigned char type, unsigned oif,
			const char *gw)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct rtmsg *rtm;
	struct rtattr *rta;
	size_t len = NLMSG_LENGTH(sizeof(*rtm));

	memset(buf, 0, 512);
	h->nlmsg_type = RTM_NEWROUTE;
	h->nlmsg_seq = SEQ;
	rtm = NLMSG_DATA(h);
	rtm->rtm_family = AF_INET;
	rtm->rtm_type = type;
	rtm->rtm_table = RT_TABLE_MAIN;
	rta = (struct rtattr *)(buf + len);
	rta->rta_type = RTA_OIF;
	rta->rta_len = RTA_LENGTH(4);
	memcpy(RTA_DATA(rta), &oif, 4);
	len += RTA_SPACE(4);
	if (gw) {
		rta = (struct rtattr *)(buf + len);
		rta->rta_type = RTA_GATEWAY;
		rta->rta_len = RTA_LENGTH(4);
		inet_pton(AF_INET, gw, RTA_DATA(rta));
		len += RTA_SPACE(4);
	}
	h->nlmsg_len = (unsigned)len;
	return len;
}

static size_t error_msg(unsigned char *buf, int error)
{
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	struct nlmsgerr *e;

	memset(buf, 0, 512);
	h->nlmsg_type = NLMSG_ERROR;
	h->nlmsg_seq = SEQ;
	h->nlmsg_len = NLMSG_LENGTH(sizeof(*e));
	e = NLMSG_DATA(h);
	e->error = error;
	return h->nlmsg_len;
}

static void test_request(void)
{
	unsigned char buf[128], a[16];
	const struct nlmsghdr *h = (const struct nlmsghdr *)buf;
	const struct rtmsg *rtm = NLMSG_DATA(h);
	const struct rtattr *rta;
	size_t n;

	inet_pton(AF_INET6, "2001:db8::1", a);
	n = rtreply_request(buf, sizeof(buf), AF_INET6, a, 7);
	CHECK_INT((int)n, (int)(NLMSG_LENGTH(sizeof(struct rtmsg)) + RTA_SPACE(16)), "length");
	CHECK_INT(h->nlmsg_type, RTM_GETROUTE, "type");
	CHECK_INT(h->nlmsg_flags, NLM_F_REQUEST, "a request, no dump");
	CHECK_INT((int)h->nlmsg_seq, 7, "seq");
	CHECK_INT(rtm->rtm_family, AF_INET6, "family");
	CHECK_INT(rtm->rtm_dst_len, 128, "a host");
	rta = (const struct rtattr *)(buf + NLMSG_LENGTH(sizeof(struct rtmsg)));
	CHECK_INT(rta->rta_type, RTA_DST, "RTA_DST");
	CHECK(!memcmp(RTA_DATA(rta), a, 16), "the address");
	CHECK_INT((int)rtreply_request(buf, 10, AF_INET, a, 7), 0, "too small");
	CHECK_INT((int)rtreply_request(buf, sizeof(buf), AF_UNIX, a, 7), 0, "a family "
		  "without routes");
}

static void test_answers(void)
{
	unsigned char buf[512];
	struct rtroute r;
	size_t n;

	n = route_msg(buf, RTN_UNICAST, 3, "10.0.0.1");
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "a route");
	CHECK_INT(r.routed, 1, "routed");
	CHECK_INT((int)r.oif, 3, "oif");
	CHECK_INT((int)r.gateway_len, 4, "gateway");
	CHECK_INT(r.gateway[0], 10, "gateway bytes");
	n = route_msg(buf, RTN_UNICAST, 4, NULL);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "on-link");
	CHECK_INT((int)r.gateway_len, 0, "on-link: no gateway");
	n = route_msg(buf, RTN_LOCAL, 1, NULL);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "local");
	CHECK_INT(r.routed, 1, "a local address is reached");
	CHECK_STR(rtreply_type_name(r.type), "local", "local's name");
	n = route_msg(buf, RTN_UNREACHABLE, 1, NULL);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "IPv6's unreachable route");
	CHECK_INT(r.routed, 0, "unreachable: not routed");
	n = route_msg(buf, RTN_PROHIBIT, 1, NULL);
	rtreply_parse(buf, n, SEQ, &r);
	CHECK_INT(r.routed, 0, "prohibit: not routed");
	n = route_msg(buf, RTN_BLACKHOLE, 1, NULL);
	rtreply_parse(buf, n, SEQ, &r);
	CHECK_INT(r.routed, 0, "blackhole: not routed");
	CHECK_INT(rtreply_parse(buf, n, SEQ + 1, &r), -1, "another sequence number");
	CHECK_INT(rtreply_parse(buf, n - 1, SEQ, &r), -1, "truncated");
	CHECK_INT(rtreply_parse(buf, 3, SEQ, &r), -1, "shorter than a header");
	n = error_msg(buf, -ENETUNREACH);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "no route at all");
	CHECK_INT(r.routed, 0, "ENETUNREACH: not routed");
	CHECK_INT(r.error, ENETUNREACH, "the error");
	n = error_msg(buf, -EINVAL);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "IPv4's blackhole");
	n = error_msg(buf, -EACCES);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), 0, "IPv4's prohibit");
	n = error_msg(buf, -ENOBUFS);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), -1, "another error: no answer");
	CHECK_INT(r.error, ENOBUFS, "and said");
	n = error_msg(buf, 0);
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), -1, "an ack is no answer");
	((struct nlmsghdr *)buf)->nlmsg_type = RTM_NEWLINK;
	CHECK_INT(rtreply_parse(buf, n, SEQ, &r), -1, "another message");
	CHECK_STR(rtreply_type_name(200), "unknown", "past the known types");
}

/* the kernel here answers, whatever it answers: 0 or -1 with errno, and
 * never a hang (the timeout) */
static void test_live(void)
{
	struct rtroute_answer a;
	unsigned char addr[4] = { 192, 0, 2, 1 };
	int rc = rtroute_get(AF_INET, addr, 250, &a);

	CHECK(rc == 0 || errno != 0, "an answer or a reason");
	if (rc == 0)
		CHECK(a.r.routed == 0 || a.r.routed == 1, "routed is 0 or 1");
}

void test_main(void)
{
	test_request();
	test_answers();
	test_live();
}
