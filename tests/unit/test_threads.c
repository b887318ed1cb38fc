/* test_threads.c - the runner under load, for ThreadSanitizer (make tsan)
 * as much as for its answers: many checks on many workers sharing run_once
 * values, and the ports lookup (its own threads, its one-time /proc root)
 * called from several workers at once against a real listening socket. */
#include "test.h"
#include "probe.h"
#include "procnet.h"
#include "runner.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#define NCHECKS 64
#define NKEYS 4
#define ROUNDS 4

static int makes;
static unsigned port;

static void *key_make(const struct run_ctx *ctx, const void *arg)
{
	__atomic_add_fetch(&makes, 1, __ATOMIC_SEQ_CST);
	return xstrdup(arg);
}

/* 1 when our own process is named as the port's holder */
static int held_by_us(void)
{
	struct port_status s;
	int ok;

	ok = ports_lookup(&port, 1, NULL, &s) == 0 && s.busy && s.nh >= 1 &&
	     s.holders[0].pid == (int)getpid();
	port_status_release(&s);
	return ok;
}

static void *ports_make(const struct run_ctx *ctx, const void *arg)
{
	int *ok = xmalloc(sizeof(*ok));

	__atomic_add_fetch(&makes, 1, __ATOMIC_SEQ_CST);
	*ok = held_by_us();
	return ok;
}

static void load_run(const struct run_ctx *ctx, const struct check *c,
		     struct result *r)
{
	static const char *const keys[NKEYS] = { "k0", "k1", "k2", "k3" };
	const char *v = run_once(ctx, keys[c->index % NKEYS], key_make,
				 keys[c->index % NKEYS], free);
	int ok = 1;

	if (c->index % 8 == 0)		/* one shared lookup */
		ok = *(const int *)run_once(ctx, "ports", ports_make, NULL, free);
	else if (c->index % 8 == 4)	/* and lookups of their own, at once */
		ok = held_by_us();
	result_set(r, ok ? STATUS_PASS : STATUS_FAIL, "%s", v);
}

static const struct probe load_probe = {
	.name = "load", .summary = "test", .run = load_run,
};

static int listen_any(unsigned *out)
{
	struct sockaddr_in sa;
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 1) < 0 || getsockname(fd, (struct sockaddr *)&sa, &len) < 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	*out = ntohs(sa.sin_port);
	return fd;
}

static void one_round(unsigned threads)
{
	struct plan plan = { NULL, 0, 0 };
	struct result res[NCHECKS];
	struct origin none = { NULL, 0, 0 };
	char id[32];
	size_t i;

	for (i = 0; i < NCHECKS; i++) {
		snprintf(id, sizeof(id), "load.%zu", i);
		plan_add(&plan, &load_probe, id, id, none, NULL, i);
	}
	makes = 0;
	/* a deadline no busy machine reaches: the test is about answers */
	CHECK_INT(runner_run(NULL, &plan, clock_ms() + 120000, threads, res), 0,
		  "none abandoned with %u threads", threads);
	CHECK_INT(makes, NKEYS + 1, "one make per key with %u threads", threads);
	for (i = 0; i < NCHECKS; i++) {
		snprintf(id, sizeof(id), "load.%zu", i);
		CHECK_STR(res[i].id, id, "plan order");
		CHECK_INT(res[i].status, STATUS_PASS, "%s: port %u held by us", id, port);
		CHECK(res[i].message && res[i].message[0] == 'k' &&
		      res[i].message[1] == (char)('0' + i % NKEYS), "%s: shared value", id);
		result_release(&res[i]);
	}
	plan_release(&plan);
}

void test_main(void)
{
	static const unsigned threads[ROUNDS] = { 8, 2, 16, 0 };
	int fd = listen_any(&port);
	size_t i;

	CHECK(fd >= 0, "a listening socket on 127.0.0.1");
	if (fd < 0)
		return;
	for (i = 0; i < ROUNDS; i++)
		one_round(threads[i]);
	close(fd);
}
