/* rtroute.c - one route lookup over NETLINK_ROUTE (see rtroute.h).
 *
 * The socket is non-blocking and read once after poll(2) says the answer
 * is there: a kernel that never answers costs timeout_ms, no more.  The
 * request is sent to the kernel (nl_pid 0), never to a peer.
 */
#include "rtroute.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <sys/socket.h>

#define RTROUTE_SEQ 0x6570	/* "ep": any number; the reply echoes it */

static int ask(int fd, int family, const void *addr, int timeout_ms,
	       struct rtroute_answer *out)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	unsigned char req[128];
	/* an RTM_NEWROUTE of one route, or an error echoing the request */
	unsigned char reply[4096] __attribute__((aligned(4)));
	struct pollfd p = { .fd = fd, .events = POLLIN };
	size_t n = rtreply_request(req, sizeof(req), family, addr, RTROUTE_SEQ);
	ssize_t got;
	int rc;

	if (!n) {
		errno = EAFNOSUPPORT;
		return -1;
	}
	if (sendto(fd, req, n, 0, (struct sockaddr *)&kernel, sizeof(kernel)) != (ssize_t)n)
		return -1;
	do
		rc = poll(&p, 1, timeout_ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0)
		errno = ETIMEDOUT;
	if (rc <= 0)
		return -1;
	got = recv(fd, reply, sizeof(reply), MSG_DONTWAIT);
	if (got < 0)
		return -1;
	if (rtreply_parse(reply, (size_t)got, RTROUTE_SEQ, &out->r) < 0) {
		errno = out->r.error ? out->r.error : EPROTO;
		return -1;
	}
	if (out->r.oif && !if_indextoname(out->r.oif, out->ifname))
		out->ifname[0] = '\0';
	return 0;
}

int rtroute_get(int family, const void *addr, int timeout_ms,
		struct rtroute_answer *out)
{
	int fd, rc, code;

	memset(out, 0, sizeof(*out));
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, NETLINK_ROUTE);
	if (fd < 0)
		return -1;
	rc = ask(fd, family, addr, timeout_ms < 0 ? 0 : timeout_ms, out);
	code = errno;
	close(fd);
	errno = code;
	return rc;
}
