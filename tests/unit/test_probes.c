/* test_probes.c - a self-test of the probe table: every registered probe,
 * on an empty repository, plans and runs cleanly (pass or skip only), its
 * ids among the patterns it lists, or, opt-in, is not asked for; and
 * the runner keeps plan order and turns an overrun into "timed out". */
#include "test.h"
#include "probe.h"
#include "runner.h"

#include <pthread.h>
#include <time.h>
#include <unistd.h>

/* Whether id fits one of the probe's id patterns: as written, or up to
 * the pattern's first word in capitals ("runtime.NAME.SOURCE": runtime.). */
static int id_listed(const struct probe *p, const char *id)
{
	size_t k, n;

	for (k = 0; p->ids && p->ids[k]; k++) {
		n = strcspn(p->ids[k], "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
		if (p->ids[k][n] ? !strncmp(id, p->ids[k], n) : !strcmp(id, p->ids[k]))
			return 1;
	}
	return 0;
}

static void test_empty_repo(void)
{
	const char *dir = test_tmpdir("empty-repo");
	struct spec spec;
	struct errbuf err;
	size_t i, j;

	CHECK(spec_load_any(dir, &spec, &err) == 0, "load: %s", err.msg);
	for (i = 0; probe_table[i]; i++) {
		const struct probe *p = probe_table[i];
		struct plan plan = { NULL, 0, 0 };
		struct result *res;

		CHECK(p->name && *p->name && p->summary && p->plan && p->run &&
		      p->ids && p->ids[0], "probe %zu is complete", i);
		CHECK(probe_find(p->name) == p, "probe_find(%s)", p->name);
		if (p->opt_in) {
			/* an empty repository asks for no opt-in probe: it does
			 * not run (it looks at the machine, which may fail) */
			CHECK(!p->opt_in(&spec), "%s: not asked for", p->name);
			continue;
		}
		p->plan(&spec, &plan);
		res = calloc(plan.n + 1, sizeof(*res));
		runner_run(&spec, &plan, clock_ms() + 5000, 0, res);
		for (j = 0; j < plan.n; j++) {
			CHECK(res[j].status == STATUS_PASS || res[j].status == STATUS_SKIP,
			      "%s: %s is %s: %s", p->name, res[j].id,
			      status_name(res[j].status), res[j].message);
			CHECK(id_listed(p, res[j].id), "%s: id %s is one of its .ids",
			      p->name, res[j].id);
			result_release(&res[j]);
		}
		free(res);
		plan_release(&plan);
	}
	CHECK(probe_find("no-such-probe") == NULL, "unknown probe");
	spec_release(&spec);
}

/* A probe made up for the runner: check i sleeps sleeps[i] ms, or, for
 * HANG, waits until the test opens the gate (after the deadline), having
 * published what it would say if cut off when publish[i]: an error (1),
 * or a pass (2: a port known to listen whose holder is not named yet). */
#define HANG 100000u
static const unsigned sleeps[] = { 30, 0, 10, HANG, 0, HANG, HANG };
static const int publish[] = { 0, 0, 0, 1, 0, 0, 2 };

static pthread_mutex_t gate_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gate_cv = PTHREAD_COND_INITIALIZER;
static int gate_open;
static int ctx_wrong;	/* a check got another check's context */

static void fake_plan(const struct spec *spec, struct plan *plan);
static void fake_run(const struct run_ctx *ctx, const struct check *c, struct result *r)
{
	struct timespec ts = { 0, (long)sleeps[c->index] * 1000000L };

	if (ctx->check != c)	/* no CHECK here: the counts are not atomic */
		__atomic_store_n(&ctx_wrong, 1, __ATOMIC_SEQ_CST);
	if (sleeps[c->index] != HANG) {
		nanosleep(&ts, NULL);
		result_set(r, STATUS_PASS, "slept %u ms", sleeps[c->index]);
		return;
	}
	if (publish[c->index] == 2) {
		result_set(r, STATUS_PASS, "listening (holder not found yet)");
		run_publish(ctx, r);
	} else if (publish[c->index]) {
		r->data = cJSON_CreateObject();
		cJSON_AddStringToObject(r->data, "waiting_for", "the gate");
		result_set(r, STATUS_ERROR, "the gate did not open in time");
		result_note(r, "a note");
		run_publish(ctx, r);
		result_set(r, STATUS_PASS, "changed after publishing");
	}
	pthread_mutex_lock(&gate_lock);
	while (!gate_open)
		pthread_cond_wait(&gate_cv, &gate_lock);
	pthread_mutex_unlock(&gate_lock);
	result_set(r, STATUS_PASS, "too late");
}

static const struct probe fake = {
	.name = "fake", .summary = "test", .plan = fake_plan, .run = fake_run,
};

static void fake_plan(const struct spec *spec, struct plan *plan)
{
	struct origin none = { NULL, 0, 0 };
	char id[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sleeps); i++) {
		snprintf(id, sizeof(id), "fake.%zu", i);
		plan_add(plan, &fake, id, id, none, NULL, i);
	}
}

/* Three checks hang (on 4 threads, so the others still run): each is cut
 * off at the deadline, those that published with what they published (a
 * pass stays a pass, with no reason or hint added), the other as "timed
 * out"; the rest pass, in plan order. */
static void test_runner(void)
{
	struct plan plan = { NULL, 0, 0 };
	struct result res[ARRAY_SIZE(sleeps)];
	size_t i, abandoned;
	char id[32];

	gate_open = 0;
	fake_plan(NULL, &plan);
	abandoned = runner_run(NULL, &plan, clock_ms() + 3000, 4, res);
	CHECK_INT(abandoned, 3, "three checks hung");
	CHECK_INT(__atomic_load_n(&ctx_wrong, __ATOMIC_SEQ_CST), 0,
		  "each context names its check");
	for (i = 0; i < ARRAY_SIZE(sleeps); i++) {
		snprintf(id, sizeof(id), "fake.%zu", i);
		CHECK_STR(res[i].id, id, "results in plan order");
		CHECK_STR(res[i].probe, "fake", "probe name");
		if (sleeps[i] != HANG) {
			CHECK_INT(res[i].status, STATUS_PASS, "%s", res[i].message);
		} else if (publish[i] == 2) {
			CHECK_INT(res[i].status, STATUS_PASS, "a published pass");
			CHECK_STR(res[i].message, "listening (holder not found yet)",
				  "what it published");
			CHECK(res[i].reason == REASON_NONE && !res[i].hint,
			      "no reason, no hint: the deadline cost it only detail");
		} else if (publish[i]) {
			CHECK_INT(res[i].status, STATUS_ERROR, "cut off");
			CHECK_STR(res[i].message, "the gate did not open in time",
				  "what it published");
			CHECK(res[i].nnotes == 1 && !strcmp(res[i].notes[0], "a note"),
			      "its notes");
			CHECK(cJSON_IsString(cJSON_GetObjectItem(res[i].data,
							      "waiting_for")),
			      "its data");
			CHECK_STR(res[i].hint, "raise the deadline with --timeout=MS",
				  "the runner's hint");
			CHECK(res[i].duration_ms > 0, "ran %.0f ms", res[i].duration_ms);
		} else {
			CHECK_INT(res[i].status, STATUS_ERROR, "overrun is an error");
			CHECK(strstr(res[i].message, "timed out") != NULL, "%s",
			      res[i].message);
			CHECK(res[i].data == NULL, "no data");
		}
		result_release(&res[i]);
	}
	/* the abandoned workers still hold the plan: let them finish before
	 * releasing it (in the tool, main exits instead) */
	pthread_mutex_lock(&gate_lock);
	gate_open = 1;
	pthread_cond_broadcast(&gate_cv);
	pthread_mutex_unlock(&gate_lock);
	runner_drain();
	plan_release(&plan);
}

/* run_publish outside the runner does nothing, and does not crash. */
static void test_publish_alone(void)
{
	struct run_ctx ctx = { NULL, 0, NULL, NULL, NULL };
	struct result r;

	memset(&r, 0, sizeof(r));
	result_set(&r, STATUS_PASS, "x");
	run_publish(&ctx, &r);
	CHECK_STR(r.message, "x", "untouched");
	result_release(&r);
}

/* run_once: four checks ask for the same key; make runs once. */
static int makes;

static void *memo_make(const struct run_ctx *ctx, const void *arg)
{
	struct timespec ts = { 0, 20 * 1000000L };

	nanosleep(&ts, NULL);	/* long enough for the others to wait */
	__atomic_add_fetch(&makes, 1, __ATOMIC_SEQ_CST);
	return xstrdup(arg);
}

static void memo_run(const struct run_ctx *ctx, const struct check *c, struct result *r)
{
	const char *v = run_once(ctx, c->index < 4 ? "shared" : "other", memo_make,
				 c->index < 4 ? "value" : "else", free);

	result_set(r, STATUS_PASS, "%s", v);
}

static const struct probe memo_probe = {
	.name = "memo", .summary = "test", .run = memo_run,
};

static void test_run_once(void)
{
	struct plan plan = { NULL, 0, 0 };
	struct result res[5];
	struct origin none = { NULL, 0, 0 };
	size_t i;

	for (i = 0; i < 5; i++)
		plan_add(&plan, &memo_probe, "memo.x", "memo", none, NULL, i);
	CHECK_INT(runner_run(NULL, &plan, clock_ms() + 5000, 4, res), 0, "none abandoned");
	CHECK_INT(makes, 2, "one make per key");
	for (i = 0; i < 5; i++) {
		CHECK_STR(res[i].message, i < 4 ? "value" : "else", "shared value %zu", i);
		result_release(&res[i]);
	}
	plan_release(&plan);
}

void test_main(void)
{
	test_empty_repo();
	test_runner();
	test_publish_alone();
	test_run_once();
}
