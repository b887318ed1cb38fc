/* spec_ports.c - every port requirement resolved, once, into one record
 * per port: what is checked and why (enum port_rule in spec.h).
 *
 * Sources say what they want of a port: preflight.yaml (free or
 * listening), a compose service (it publishes the port), a *_URL in the
 * .env (a service scheme must listen; http and ws are the repository's
 * own apps), a PORT-style key (the app's own port).  When several name
 * the same port, the record takes, in order:
 *   1. preflight.yaml: it "overrides what is discovered" (DESIGN.md);
 *   2. the compose stack: a port it publishes belongs to it, so a
 *      container holding it means the stack is up, and a host process
 *      holding it is a collision `docker compose up` will hit ("port is
 *      already allocated"); a service URL pointing at it means the stack
 *      must be up;
 *   3. a service URL: something must listen;
 *   4. only the app: it should be free.
 *
 * The requirements are grouped through an index sorted by port, once:
 * O(n log n) for a .env of a thousand *_URL keys.
 */
#include "specfile.h"

#include <stdlib.h>
#include <string.h>

/* What makes two requirements the same port, then their model order. */
struct pkey {
	unsigned port, last;
	int proto;
	size_t i;
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

static int record_cmp(const void *a, const void *b)
{
	const struct port_record *x = a, *y = b;

	return cmp_u(x->reqs[0], y->reqs[0]);
}

/* A service URL: it needs something listening. */
static int is_user(const struct port_req *r)
{
	return r->src != SRC_PREFLIGHT && r->expect == PORT_LISTENING;
}

/* The other compose file (spec_compose.c's others) a service of which
 * publishes port, and that service, a file of a default name first;
 * NULL when none does. */
static const struct compose_other *other_publisher(const struct spec *spec,
						   unsigned port, const char **service)
{
	const struct compose_other *found = NULL;
	const char *found_service = NULL;
	size_t i, lo, hi;

	for (i = 0; i < spec->compose.nothers; i++) {
		const struct compose_other *o = &spec->compose.others[i];

		for (lo = 0, hi = o->nports; lo < hi;) {
			size_t mid = lo + (hi - lo) / 2;

			if (o->ports[mid].port < port)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < o->nports && o->ports[lo].port == port &&
		    (!found || (!found->default_name && o->default_name))) {
			found = o;
			found_service = o->ports[lo].service;
		}
	}
	*service = found_service;
	return found;
}

/* Decide the rule of the record whose requirements rec->reqs are.  A
 * URL of the app's own scheme (http, ws) to a port a compose file of the
 * repository publishes is that service's port, whatever the scheme: an
 * http:// ClickHouse or REST Redis must be up, not free (issue 21).  A
 * workspace's stack is not the one a developer starts (issue 21, item
 * 5): the app's own port that only such a stack also publishes keeps
 * the app's rule. */
static void record_decide(const struct spec *spec, struct port_record *rec)
{
	const struct port_req *pre = NULL, *app = NULL, *app_url = NULL;
	size_t i;

	for (i = 0; i < rec->nreqs; i++) {
		const struct port_req *r = &spec->ports[rec->reqs[i]];

		if (r->src == SRC_PREFLIGHT) {
			if (!pre)
				pre = r;
		} else if (r->src == SRC_COMPOSE) {
			/* the stack docker compose up at the top starts comes
			 * before a workspace's (a benchmark's, a test's) */
			if (!rec->stack || (rec->stack->ws && !r->ws))
				rec->stack = r;
		} else if (is_user(r)) {
			if (!rec->user)
				rec->user = r;
		} else {
			if (!app)
				app = r;
			if (!app_url && r->src == SRC_ENV_URL)
				app_url = r;
		}
	}
	if (!rec->stack && !pre && app_url && app_url->kind == PORT_REQ_PORT &&
	    !app_url->port_last)
		rec->other = other_publisher(spec, app_url->port, &rec->other_service);
	/* a service URL (DATABASE_URL) to a port only another compose file
	 * publishes: that file's service is what to start */
	else if (!rec->stack && !pre && rec->user && rec->user->kind == PORT_REQ_PORT &&
		 !rec->user->port_last)
		rec->other = other_publisher(spec, rec->user->port, &rec->other_service);
	if (!rec->user && app_url && (rec->stack || rec->other))
		rec->user = app_url;
	if (pre) {
		rec->req = pre;
		rec->rule = pre->expect == PORT_LISTENING ? PORT_RULE_LISTEN :
			    PORT_RULE_FREE;
	} else if (rec->stack && !(rec->stack->ws && app && !rec->user)) {
		rec->req = rec->stack;
		rec->rule = rec->user ? PORT_RULE_STACK_UP : PORT_RULE_STACK;
	} else if (rec->user) {
		rec->req = rec->user;
		rec->rule = PORT_RULE_LISTEN;
	} else {
		rec->req = app;
		rec->rule = PORT_RULE_APP;
	}
}

static struct port_record *record_add(struct spec *spec, size_t *cap)
{
	struct port_record *rec;

	grow(&spec->port_records, sizeof(*spec->port_records), cap,
	     spec->nport_records + 1);
	rec = &spec->port_records[spec->nport_records++];
	memset(rec, 0, sizeof(*rec));
	return rec;
}

void spec_resolve_ports(struct spec *spec)
{
	struct pkey *k = xcalloc(spec->nports ? spec->nports : 1, sizeof(*k));
	size_t i, j, n = 0, cap = 0;

	for (i = 0; i < spec->nports; i++) {
		const struct port_req *r = &spec->ports[i];

		if (r->kind != PORT_REQ_PORT) {
			/* a *_URL mark names no port: a record of its own */
			struct port_record *rec = record_add(spec, &cap);

			rec->reqs = xmalloc(sizeof(*rec->reqs));
			rec->reqs[0] = i;
			rec->nreqs = 1;
			rec->req = r;
			rec->rule = PORT_RULE_LISTEN;
			continue;
		}
		k[n].port = r->port;
		k[n].last = r->port_last;
		k[n].proto = (int)r->proto;
		k[n++].i = i;
	}
	if (n)
		qsort(k, n, sizeof(*k), pkey_cmp);
	for (i = 0; i < n; i = j) {
		struct port_record *rec;

		for (j = i + 1; j < n && !pkey_cmp_port(&k[j], &k[i]); j++)
			;
		rec = record_add(spec, &cap);
		rec->reqs = xcalloc(j - i, sizeof(*rec->reqs));
		for (rec->nreqs = 0; rec->nreqs < j - i; rec->nreqs++)
			rec->reqs[rec->nreqs] = k[i + rec->nreqs].i;
		record_decide(spec, rec);
	}
	if (spec->nport_records)
		qsort(spec->port_records, spec->nport_records,
		      sizeof(*spec->port_records), record_cmp);
	free(k);
}
