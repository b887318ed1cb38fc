/* probe_ports.c - TCP ports that must be free (we will bind them) or
 * listening (a service we depend on must be up).
 *
 * One check per port.  When several sources name the same port, one
 * requirement is checked and the others become --explain notes:
 * preflight.yaml wins over what is discovered (DESIGN.md: it "overrides
 * what is discovered"); among discovered ones, listening wins over free,
 * because a compose port that a *_URL also points at is one service seen
 * from two sides: the stack binds it, the app connects to it.  While the
 * stack is down the port must come up; while it is up docker-proxy holds
 * it and the check passes.
 *
 * The socket tables and the /proc scan are read once per run for every
 * port (run_once), whatever the number of checks.  Nothing here signals or
 * kills a process.
 *
 * The requirements of one port are found through an index sorted by port
 * (O(n log n) to build, once to plan and once per run), never by a scan
 * of the model per requirement: a .env of a thousand *_URL keys plans and
 * runs in milliseconds.
 *
 * A holder's command line may hold a .env value (redis-server
 * --requirepass S3CRET): every token that holds one is shown as "***"
 * (redact.h, by value), in the JSON and wherever else the command line
 * goes; procnet has already hidden the secrets it knows by shape.
 */
#include "probe.h"
#include "procnet.h"
#include "redact.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS_IN_MESSAGE 3	/* holder groups named before "and N more" */
#define PIDS_IN_GROUP 4
#define NOTES_MAX 16		/* notes on the other requirements of a port */

/* ---- which requirement is checked -------------------------------- */

/* spec_urls.c's marks (a *_URL key whose port is not valid, the keys
 * past its cap) name no port: each is a skipped check of its own, kept
 * out of the index and the lookup. */
static int not_a_port(const struct port_req *r)
{
	return r->kind != PORT_REQ_PORT;
}

/* Lower wins: preflight.yaml (no service), then listening, then free. */
static int rank(const struct port_req *r)
{
	return !r->service ? 0 : r->expect == PORT_LISTENING ? 1 : 2;
}

/* One requirement in the index: what makes two of them the same port,
 * then its place in the model. */
struct pkey {
	unsigned port, last;
	int proto;
	size_t i;
};

struct port_index {
	struct pkey *k;		/* sorted by port, last, proto, then i */
	size_t n;
};

static int cmp_u(unsigned long long a, unsigned long long b)
{
	return a < b ? -1 : a > b;
}

static int pkey_cmp_port(const struct pkey *x, const struct pkey *y)
{
	int c = cmp_u(x->port, y->port);

	if (!c)
		c = cmp_u(x->last, y->last);
	if (!c)
		c = cmp_u((unsigned)x->proto, (unsigned)y->proto);
	return c;
}

static int pkey_cmp(const void *a, const void *b)
{
	const struct pkey *x = a, *y = b;
	int c = pkey_cmp_port(x, y);

	return c ? c : cmp_u(x->i, y->i);
}

static void index_build(const struct spec *spec, struct port_index *ix)
{
	size_t i;

	ix->k = xcalloc(spec->nports ? spec->nports : 1, sizeof(*ix->k));
	ix->n = 0;
	for (i = 0; i < spec->nports; i++) {
		const struct port_req *r = &spec->ports[i];
		struct pkey *k = &ix->k[ix->n];

		if (not_a_port(r))
			continue;
		k->port = r->port;
		k->last = r->port_last;
		k->proto = (int)r->proto;
		k->i = i;
		ix->n++;
	}
	if (ix->n)
		qsort(ix->k, ix->n, sizeof(*ix->k), pkey_cmp);
}

/* The run [*lo, *hi) of ix holding requirement i (which must be in it):
 * every requirement of its port, in model order. */
static void index_group(const struct port_index *ix, const struct spec *spec,
			size_t i, size_t *lo, size_t *hi)
{
	const struct port_req *r = &spec->ports[i];
	struct pkey want = { r->port, r->port_last, (int)r->proto, i };
	const struct pkey *at = bsearch(&want, ix->k, ix->n, sizeof(*ix->k),
					pkey_cmp);
	size_t a, b;

	if (!at) {
		*lo = *hi = 0;
		return;
	}
	a = b = (size_t)(at - ix->k);
	while (a > 0 && !pkey_cmp_port(&ix->k[a - 1], at))
		a--;
	while (b < ix->n && !pkey_cmp_port(&ix->k[b], at))
		b++;
	*lo = a;
	*hi = b;
}

static void *index_make(const struct run_ctx *ctx, const void *arg)
{
	struct port_index *ix = xcalloc(1, sizeof(*ix));

	(void)arg;
	index_build(ctx->spec, ix);
	return ix;
}

static void index_free(void *v)
{
	struct port_index *ix = v;

	free(ix->k);
	free(ix);
}

static const char *proto_name(enum port_proto p)
{
	return p == PORT_UDP ? "udp" : p == PORT_SCTP ? "sctp" : "tcp";
}

static const char *expect_name(enum port_expect e)
{
	return e == PORT_LISTENING ? "listening" : "free";
}

/* One check to plan: the port's first requirement in the model, and the
 * one checked. */
struct planned {
	size_t first, winner;
};

static int planned_cmp(const void *a, const void *b)
{
	return cmp_u(((const struct planned *)a)->first,
		     ((const struct planned *)b)->first);
}

static void plan_one(const struct spec *spec, struct plan *plan, size_t w)
{
	const struct port_req *r = &spec->ports[w];
	struct buf id = BUF_INIT, title = BUF_INIT;

	switch (r->kind) {
	case PORT_REQ_URLS_CAPPED:
		buf_puts(&id, "ports.urls");
		buf_puts(&title, ".env URL ports");
		break;
	case PORT_REQ_BAD_URL:
		/* a dotenv key is [A-Za-z0-9_.-]+: fit for an id */
		buf_printf(&id, "ports.url.%s", r->service);
		buf_printf(&title, "Port of %s", r->service);
		break;
	case PORT_REQ_PORT:
		buf_printf(&id, "ports.%s.%u", proto_name(r->proto), r->port);
		buf_printf(&title, "Port%s %u", r->port_last ? "s" : "", r->port);
		if (r->port_last) {
			buf_printf(&id, "-%u", r->port_last);
			buf_printf(&title, "-%u", r->port_last);
		}
		if (r->proto != PORT_TCP)
			buf_printf(&title, "/%s", proto_name(r->proto));
		break;
	}
	plan_add(plan, &probe_ports, id.s, title.s, r->origin, r, w);
	buf_release(&id);
	buf_release(&title);
}

/* One check a port, in the order ports first appear in the model,
 * whichever requirement is checked for them. */
static void ports_plan(const struct spec *spec, struct plan *plan)
{
	struct port_index ix;
	struct planned *todo = xcalloc(spec->nports ? spec->nports : 1,
				       sizeof(*todo));
	size_t i, j, n = 0;

	index_build(spec, &ix);
	for (i = 0; i < ix.n; i = j) {
		size_t w = ix.k[i].i;

		/* within a run the model order ascends: the first of the
		 * best rank wins */
		for (j = i + 1; j < ix.n && !pkey_cmp_port(&ix.k[j], &ix.k[i]); j++)
			if (rank(&spec->ports[ix.k[j].i]) < rank(&spec->ports[w]))
				w = ix.k[j].i;
		todo[n].first = ix.k[i].i;
		todo[n++].winner = w;
	}
	for (i = 0; i < spec->nports; i++) {
		if (not_a_port(&spec->ports[i])) {
			todo[n].first = todo[n].winner = i;
			n++;
		}
	}
	if (n)
		qsort(todo, n, sizeof(*todo), planned_cmp);
	for (i = 0; i < n; i++)
		plan_one(spec, plan, todo[i].winner);
	free(todo);
	free(ix.k);
}

/* ---- one look at the machine for every port ---------------------- */

struct ports_scan {
	int rc, err;		/* ports_lookup's */
	unsigned *ports;	/* sorted, unique */
	struct port_status *st;	/* st[i] for ports[i] */
	size_t n;
};

static int uint_cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

/* ---- .env values out of command lines ---------------------------- */

/* Hide the .env's values in every holder's command line (redact.h). */
static void scan_redact(const struct spec *spec, struct ports_scan *s)
{
	const struct dotenv *d = &spec->env.env_doc;
	struct redact_values *x;
	size_t i, j, nh = 0;

	for (i = 0; i < s->n; i++)
		nh += s->st[i].nh;
	if (!nh || spec->env.env_errno)
		return;		/* no command line to look at, or no values */
	x = redact_values_new();
	for (i = 0; i < d->n; i++)
		redact_values_add(x, d->entries[i].value, d->entries[i].value_len);
	for (i = 0; redact_values_count(x) && i < s->n; i++) {
		for (j = 0; j < s->st[i].nh; j++) {
			struct port_holder *h = &s->st[i].holders[j];
			char *r = redact_values_apply(x, h->cmdline);

			if (r) {
				free(h->cmdline);
				h->cmdline = r;
			}
		}
	}
	redact_values_free(x);
}

/* Every TCP port of the model (ranges expanded), looked up at once. */
static void *scan_make(const struct run_ctx *ctx, const void *arg)
{
	const struct spec *spec = ctx->spec;
	struct ports_scan *s = xcalloc(1, sizeof(*s));
	size_t i, j, cap = 0;

	(void)arg;
	for (i = 0; i < spec->nports; i++) {
		const struct port_req *r = &spec->ports[i];
		unsigned p, last = r->port_last ? r->port_last : r->port;

		if (r->proto != PORT_TCP || not_a_port(r))
			continue;
		for (p = r->port; p <= last; p++) {
			grow(&s->ports, sizeof(*s->ports), &cap, s->n + 1);
			s->ports[s->n++] = p;
		}
	}
	if (s->n)
		qsort(s->ports, s->n, sizeof(*s->ports), uint_cmp);
	for (i = j = 0; i < s->n; i++)
		if (!j || s->ports[j - 1] != s->ports[i])
			s->ports[j++] = s->ports[i];
	s->n = j;
	s->st = xcalloc(s->n ? s->n : 1, sizeof(*s->st));
	s->rc = ports_lookup(s->ports, s->n, spec->root, s->st);
	s->err = s->rc < 0 ? errno : 0;
	if (s->rc == 0)
		scan_redact(spec, s);
	return s;
}

static void scan_release(void *v)
{
	struct ports_scan *s = v;
	size_t i;

	for (i = 0; i < s->n; i++)
		port_status_release(&s->st[i]);
	free(s->st);
	free(s->ports);
	free(s);
}

static const struct port_status *scan_find(const struct ports_scan *s,
					   unsigned port)
{
	const unsigned *p = bsearch(&port, s->ports, s->n, sizeof(*s->ports),
				    uint_cmp);

	return p ? &s->st[p - s->ports] : NULL;
}

/* ---- words ------------------------------------------------------- */

/* "PID 14208: postgres, user postgres", holders with the same command and
 * user grouped ("PIDs 100, 101: postgres, user postgres"). */
static void holders_text(struct buf *b, const struct port_status *s)
{
	size_t i, j, groups = 0, more = 0;
	unsigned char *done = xcalloc(s->nh ? s->nh : 1, 1);

	for (i = 0; i < s->nh; i++) {
		const struct port_holder *h = &s->holders[i];
		size_t npids = 0, k;

		if (done[i])
			continue;
		if (groups == GROUPS_IN_MESSAGE) {
			more++;
			continue;
		}
		for (j = i; j < s->nh; j++)
			if (!done[j] && !strcmp(s->holders[j].command, h->command) &&
			    !strcmp(s->holders[j].user, h->user))
				npids++;
		buf_printf(b, "%sPID%s ", groups ? "; " : "", npids > 1 ? "s" : "");
		for (j = i, k = 0; j < s->nh; j++) {
			if (done[j] || strcmp(s->holders[j].command, h->command) ||
			    strcmp(s->holders[j].user, h->user))
				continue;
			done[j] = 1;
			if (k < PIDS_IN_GROUP)
				buf_printf(b, "%s%d", k ? ", " : "", s->holders[j].pid);
			k++;
		}
		if (k > PIDS_IN_GROUP)
			buf_printf(b, " and %zu more", k - PIDS_IN_GROUP);
		buf_printf(b, ": %s, user %s", h->command, h->user);
		groups++;
	}
	if (more)
		buf_printf(b, "; and %zu other process%s", more, more > 1 ? "es" : "");
	free(done);
	if (s->hidden)
		buf_printf(b, "%suid %u, process not visible%s", s->nh ? "; " : "",
			   s->hidden_uid, s->hidden_denied ? ": permission denied" : "");
}

static const char *hidden_reason(const struct port_status *s)
{
	return s->hidden_denied ? "permission denied" :
	       "no visible process holds it";
}

/* Well-known servers, for a hint that names what is running. */
static const char *server_name(const char *comm)
{
	static const struct { const char *comm, *name; } known[] = {
		{ "postgres", "PostgreSQL" }, { "mysqld", "MySQL" },
		{ "mariadbd", "MariaDB" }, { "redis-server", "Redis" },
		{ "mongod", "MongoDB" }, { "memcached", "memcached" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(comm, known[i].comm))
			return known[i].name;
	return NULL;
}

/* The holder a hint is about: the most actionable class first. */
static const struct port_holder *main_holder(const struct port_status *s)
{
	static const int order[] = {
		HOLDER_THIS_REPO, HOLDER_CONTAINER, HOLDER_SAME_USER, HOLDER_OTHER_USER,
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		for (j = 0; j < s->nh; j++)
			if (s->holders[j].klass == order[i])
				return &s->holders[j];
	return NULL;
}

static int from_compose(const struct port_req *r)
{
	return r->service && !strncmp(r->service, "compose service ", 16);
}

static void collision_hint(struct result *r, const struct port_req *req,
			   const struct port_status *s)
{
	const struct port_holder *h = main_holder(s);
	const char *server;

	if (!h) {
		if (s->hidden_denied)
			result_hint(r, "in use by uid %u (process not visible: "
				    "permission denied); run envpreflight as that "
				    "user or as root to see which", s->hidden_uid);
		else
			result_hint(r, "in use by uid %u (no process in sight holds "
				    "it: another PID namespace or the kernel)",
				    s->hidden_uid);
		return;
	}
	server = server_name(h->command);
	switch (h->klass) {
	case HOLDER_THIS_REPO:
		result_hint(r, "PID %d (%s) runs from this repository: likely left "
			    "over from an earlier run; stop it", h->pid, h->command);
		break;
	case HOLDER_CONTAINER:
		if (from_compose(req))
			result_hint(r, "a container publishes this port (%s): if it is "
				    "this stack, it is up already (docker compose ps); "
				    "else docker ps to find it", h->command);
		else
			result_hint(r, "a container publishes this port (%s); docker ps "
				    "to find it", h->command);
		break;
	default:
		if (server)
			result_hint(r, "another %s is running (PID %d, user %s); stop "
				    "it or use another port", server, h->pid, h->user);
		else if (h->klass == HOLDER_SAME_USER)
			result_hint(r, "PID %d (%s) is yours, started outside this "
				    "repository; stop it or use another port", h->pid,
				    h->command);
		else
			result_hint(r, "PID %d (%s) runs as user %s; stop that service "
				    "or use another port", h->pid, h->command, h->user);
	}
}

/* The first compose requirement behind checked one i. */
static const struct port_req *compose_sibling(const struct run_ctx *ctx, size_t i)
{
	const struct spec *spec = ctx->spec;
	const struct port_index *ix = run_once(ctx, "ports.index", index_make,
					       NULL, index_free);
	size_t lo, hi, j;

	index_group(ix, spec, i, &lo, &hi);
	for (j = lo; j < hi; j++)
		if (ix->k[j].i != i && from_compose(&spec->ports[ix->k[j].i]))
			return &spec->ports[ix->k[j].i];
	return NULL;
}

static void silent_hint(struct result *r, const struct run_ctx *ctx, size_t i)
{
	const struct port_req *req = &ctx->spec->ports[i];
	const struct port_req *stack = compose_sibling(ctx, i);

	if (stack)
		result_hint(r, "start the stack: docker compose up -d %s (%s "
			    "provides it)", stack->service + 16, stack->origin.file);
	else if (req->service)
		result_hint(r, "start the service %s points to (%s:%u)",
			    req->service, req->origin.file, req->origin.line);
	else
		result_hint(r, "start the service that should listen on port %u",
			    req->port);
}

/* --explain lines for the requirements of the same port not checked,
 * the first NOTES_MAX of them. */
static void sibling_notes(struct result *r, const struct run_ctx *ctx, size_t i)
{
	const struct spec *spec = ctx->spec;
	const struct port_req *w = &spec->ports[i];
	const struct port_index *ix = run_once(ctx, "ports.index", index_make,
					       NULL, index_free);
	size_t lo, hi, j, shown = 0;

	index_group(ix, spec, i, &lo, &hi);
	for (j = lo; j < hi; j++) {
		const struct port_req *o = &spec->ports[ix->k[j].i];
		struct buf where = BUF_INIT;

		if (ix->k[j].i == i)
			continue;
		if (shown++ == NOTES_MAX) {
			/* the rest of the run, less i if it is still ahead */
			result_note(r, "and %zu more requirements of this port",
				    hi - j - (ix->k[j].i < i));
			break;
		}
		buf_printf(&where, "%s:%u", o->origin.file ? o->origin.file : "?",
			   o->origin.line);
		if (o->origin.col)
			buf_printf(&where, ":%u", o->origin.col);
		if (!w->service)
			result_note(r, "%s (%s) wants it %s; preflight.yaml overrides "
				    "what is discovered", where.s,
				    o->service ? o->service : "preflight.yaml",
				    expect_name(o->expect));
		else if (w->expect == PORT_LISTENING && o->expect == PORT_FREE)
			result_note(r, "the stack in %s provides it (%s, %s): checked "
				    "as listening, not free", o->origin.file,
				    o->service ? o->service : "?", where.s);
		else
			result_note(r, "also wanted %s by %s (%s)",
				    expect_name(o->expect),
				    o->service ? o->service : "preflight.yaml", where.s);
		buf_release(&where);
	}
}

/* ---- JSON -------------------------------------------------------- */

static void holders_json(cJSON *arr, const struct port_status *s, int with_port)
{
	size_t i;

	for (i = 0; i < s->nh; i++) {
		const struct port_holder *h = &s->holders[i];
		cJSON *o = cJSON_CreateObject();

		if (with_port)
			cJSON_AddNumberToObject(o, "port", s->port);
		cJSON_AddNumberToObject(o, "pid", h->pid);
		cJSON_AddStringToObject(o, "command", h->command);
		cJSON_AddStringToObject(o, "cmdline", h->cmdline);
		cJSON_AddStringToObject(o, "user", h->user);
		cJSON_AddNumberToObject(o, "uid", h->uid);
		cJSON_AddStringToObject(o, "address",
					s->listeners[h->listener].addr_text);
		cJSON_AddStringToObject(o, "class", holder_class_name(h->klass));
		cJSON_AddItemToArray(arr, o);
	}
}

static cJSON *hidden_json(const struct port_status *s)
{
	cJSON *o;

	if (!s || !s->hidden)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "uid", s->hidden_uid);
	cJSON_AddStringToObject(o, "reason", hidden_reason(s));
	return o;
}

static cJSON *data_new(const struct port_req *req)
{
	cJSON *d = cJSON_CreateObject();

	if (not_a_port(req))
		cJSON_AddNullToObject(d, "port");
	else
		cJSON_AddNumberToObject(d, "port", req->port);
	if (req->port_last)
		cJSON_AddNumberToObject(d, "port_last", req->port_last);
	cJSON_AddStringToObject(d, "protocol", proto_name(req->proto));
	cJSON_AddStringToObject(d, "expect", expect_name(req->expect));
	if (req->service)
		cJSON_AddStringToObject(d, "service", req->service);
	else
		cJSON_AddNullToObject(d, "service");
	return d;
}

/* ---- the checks -------------------------------------------------- */

static void run_single(const struct run_ctx *ctx, size_t i, struct result *r,
		       const struct port_status *s)
{
	const struct port_req *req = &ctx->spec->ports[i];
	struct buf who = BUF_INIT;
	cJSON *holders = cJSON_CreateArray();

	holders_json(holders, s, 0);
	cJSON_AddItemToObject(r->data, "holders", holders);
	cJSON_AddItemToObject(r->data, "hidden", hidden_json(s));
	if (s->busy)
		holders_text(&who, s);
	if (req->expect == PORT_FREE) {
		if (!s->busy) {
			if (req->service)
				result_set(r, STATUS_PASS, "free (for %s)", req->service);
			else
				result_set(r, STATUS_PASS, "free");
		} else {
			result_set(r, STATUS_FAIL, "COLLISION (%s)", buf_str(&who));
			collision_hint(r, req, s);
		}
	} else if (s->busy) {
		if (req->service)
			result_set(r, STATUS_PASS, "listening for %s (%s)", req->service,
				   buf_str(&who));
		else
			result_set(r, STATUS_PASS, "listening (%s)", buf_str(&who));
	} else {
		if (req->service && req->origin.file)
			result_set(r, STATUS_FAIL, "nothing listening (wanted by %s "
				   "in %s)", req->service, req->origin.file);
		else if (req->service)
			result_set(r, STATUS_FAIL, "nothing listening (wanted by %s)",
				   req->service);
		else
			result_set(r, STATUS_FAIL, "nothing listening");
		silent_hint(r, ctx, i);
	}
	if (s->hidden)
		result_note(r, "a listener on port %u belongs to uid %u: %s", s->port,
			    s->hidden_uid, hidden_reason(s));
	buf_release(&who);
}

/* A compose host range for one container port: docker takes a free port
 * of the range, so one free port is enough. */
static void run_range(const struct ports_scan *scan, const struct port_req *req,
		      struct result *r)
{
	cJSON *holders = cJSON_CreateArray();
	unsigned p, free_port = 0;

	for (p = req->port; p <= req->port_last && !free_port; p++) {
		const struct port_status *s = scan_find(scan, p);

		if (!s || !s->busy)
			free_port = p;
		else
			holders_json(holders, s, 1);
	}
	cJSON_AddItemToObject(r->data, "holders", holders);
	cJSON_AddItemToObject(r->data, "hidden", cJSON_CreateNull());
	if (free_port) {
		result_set(r, STATUS_PASS, "%u is free (docker takes a free port of "
			   "the range)", free_port);
		return;
	}
	result_set(r, STATUS_FAIL, "COLLISION: all %u ports are in use",
		   req->port_last - req->port + 1);
	result_hint(r, "free one port of %u-%u, or widen the range in %s",
		    req->port, req->port_last, req->origin.file ? req->origin.file :
		    "the compose file");
}

/* The *_URL keys past spec_urls.c's cap: how many, and how many were
 * taken.  The values are never shown. */
static void run_urls_capped(const struct spec *spec, const struct port_req *req,
			    struct result *r)
{
	size_t j, taken = 0;

	/* the cap is what was taken from that file before it */
	for (j = 0; j < spec->nports; j++)
		taken += spec->ports[j].origin.file == req->origin.file &&
			 &spec->ports[j] != req;
	cJSON_AddNumberToObject(r->data, "keys_not_checked", req->capped);
	result_set(r, STATUS_SKIP, "not checked: %u more *_URL key%s of %s "
		   "name a local port (from %s on); only the first %zu "
		   "are taken", req->capped, req->capped > 1 ? "s" : "",
		   req->origin.file, req->service, taken);
	result_hint(r, "list the ports that matter under ports.listening "
		    "in preflight.yaml");
}

/* A *_URL key whose port is not valid: the value is never shown. */
static void run_bad_url(const struct port_req *req, struct result *r)
{
	result_set(r, STATUS_SKIP, "not checked: the port in %s is not a valid "
		   "port (1-65535)", req->service);
	result_hint(r, "fix the port of %s in %s:%u", req->service,
		    req->origin.file, req->origin.line);
}

/* A requirement that names no port to check (spec_urls.c). */
static void run_not_a_port(const struct spec *spec, const struct port_req *req,
			   struct result *r)
{
	cJSON_AddItemToObject(r->data, "holders", cJSON_CreateArray());
	cJSON_AddItemToObject(r->data, "hidden", cJSON_CreateNull());
	if (req->kind == PORT_REQ_URLS_CAPPED)
		run_urls_capped(spec, req, r);
	else
		run_bad_url(req, r);
}

static void ports_run(const struct run_ctx *ctx, const struct check *c,
		      struct result *r)
{
	const struct port_req *req = c->arg;
	const struct ports_scan *scan;
	const struct port_status *s;

	r->data = data_new(req);
	if (not_a_port(req)) {
		run_not_a_port(ctx->spec, req, r);
		return;
	}
	if (req->proto != PORT_TCP) {
		cJSON_AddItemToObject(r->data, "holders", cJSON_CreateArray());
		cJSON_AddItemToObject(r->data, "hidden", cJSON_CreateNull());
		result_set(r, STATUS_SKIP, "not checked: %s is out of scope (TCP "
			   "only)", req->proto == PORT_UDP ? "UDP" : "SCTP");
		sibling_notes(r, ctx, c->index);
		return;
	}
	scan = run_once(ctx, "ports.lookup", scan_make, NULL, scan_release);
	if (scan->rc < 0) {
		result_set(r, STATUS_ERROR, "cannot read the TCP socket tables "
			   "(%s/net/tcp): %s", proc_root(), strerror(scan->err));
		return;
	}
	sibling_notes(r, ctx, c->index);
	if (req->port_last) {
		run_range(scan, req, r);
		return;
	}
	s = scan_find(scan, req->port);
	if (!s) {
		result_set(r, STATUS_ERROR, "port %u was not looked up", req->port);
		return;
	}
	run_single(ctx, c->index, r, s);
}

const struct probe probe_ports = {
	.name = "ports",
	.summary = "TCP ports that must be free or listening (preflight.yaml, "
		   "compose, .env URLs)",
	.plan = ports_plan,
	.run = ports_run,
	.volatile_state = 1,
};
