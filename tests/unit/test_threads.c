/* test_threads.c - the runner under load, for ThreadSanitizer (make tsan)
 * as much as for its answers: many checks on many workers sharing run_once
 * values, and the ports lookup (its own threads, its one-time /proc root)
 * called from several workers at once against a real listening socket;
 * the env loader's thread for a large example (spec_env.c) and the deps
 * probe's lockfile parser thread (probe_deps.c), each beside the work it
 * overlaps. */
#include "test.h"
#include "probe.h"
#include "procnet.h"
#include "runner.h"
#include "spec.h"
#include "util.h"

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

/* A .env.example over the size that parses on its own thread, and a .env
 * of the same keys parsed meanwhile. */
static void env_example_thread(void)
{
	const char *dir = test_tmpdir("threads-env");
	struct buf ex = BUF_INIT, env = BUF_INIT;
	struct errbuf err;
	struct spec spec;
	int i;

	for (i = 0; i < 10000; i++) {
		buf_printf(&ex, "KEY_%05d=example value %d # a comment\n", i, i);
		buf_printf(&env, "KEY_%05d=value%d\n", i, i);
	}
	CHECK(ex.len >= 64 * 1024, "the example is large enough for a thread");
	test_write_str(dir, ".env.example", buf_str(&ex));
	test_write_str(dir, ".env", buf_str(&env));
	if (spec_load_any(dir, &spec, &err) != 0) {
		CHECK(0, "load: %s", err.msg);
	} else {
		CHECK_INT(spec.env.example_doc.n, 10000, "example keys");
		CHECK_INT(spec.env.env_doc.n, 10000, ".env keys");
		spec_release(&spec);
	}
	buf_release(&ex);
	buf_release(&env);
}

/* The deps probe's npm check: the lockfile parsed on a thread while
 * node_modules is read. */
static void deps_parse_thread(void)
{
	const char *dir = test_tmpdir("threads-deps");
	const struct probe *p = probe_find("deps");
	struct plan plan = { NULL, 0, 0 };
	struct result res[4];
	struct errbuf err;
	struct spec spec;
	size_t i;

	test_write_str(dir, "package.json", "{\"name\":\"app\",\"version\":\"1.0.0\","
		       "\"dependencies\":{\"a\":\"1.0.0\",\"b\":\"2.0.0\"}}\n");
	test_write_str(dir, "package-lock.json", "{\"name\":\"app\",\"lockfileVersion\":3,"
		       "\"packages\":{\"\":{\"name\":\"app\"},"
		       "\"node_modules/a\":{\"version\":\"1.0.0\"},"
		       "\"node_modules/b\":{\"version\":\"2.0.0\"}}}\n");
	test_write_str(dir, "node_modules/a/package.json", "{\"name\":\"a\",\"version\":\"1.0.0\"}\n");
	test_write_str(dir, "node_modules/b/package.json", "{\"name\":\"b\",\"version\":\"2.0.0\"}\n");
	CHECK(p != NULL, "the deps probe");
	if (!p || spec_load_any(dir, &spec, &err) != 0) {
		CHECK(0, "load: %s", p ? err.msg : "no probe");
		return;
	}
	p->plan(&spec, &plan);
	CHECK(plan.n >= 1 && plan.n <= 4, "deps checks planned: %zu", plan.n);
	if (plan.n >= 1 && plan.n <= 4) {
		CHECK_INT(runner_run(&spec, &plan, clock_ms() + 120000, 2, res), 0,
			  "none abandoned");
		for (i = 0; i < plan.n; i++) {
			CHECK(res[i].status == STATUS_PASS, "%s: %s", res[i].id,
			      res[i].message);
			result_release(&res[i]);
		}
	}
	plan_release(&plan);
	spec_release(&spec);
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
	env_example_thread();
	deps_parse_thread();
}
