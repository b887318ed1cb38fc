/* probe_ports.c - TCP ports that must be free (we will bind them) or
 * listening (a service we depend on must be up).
 *
 * One check per port record (spec_ports.c resolved, at load time, what is
 * checked for each port and why: enum port_rule); this file only reads
 * the records, looks the ports up and words the verdicts.
 *
 * The socket tables and the /proc scan are read once per run for every
 * port (run_once), whatever the number of checks.  Nothing here signals or
 * kills a process.
 *
 * A holder's command line may hold a .env value (redis-server
 * --requirepass S3CRET): every token that holds one is shown as "***"
 * (redact.h, by value), in the JSON and wherever else the command line
 * goes; procnet has already hidden the secrets it knows by shape.
 */
#include "probe.h"
#include "procnet.h"
#include "redact.h"
#include "spec_workspaces.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GROUPS_IN_MESSAGE 3	/* holder groups named before "and N more" */
#define PIDS_IN_GROUP 4
#define NOTES_MAX 16		/* notes on the other requirements of a port */

/* ---- the plan: one check a port record ---------------------------- */

static int not_a_port(const struct port_req *r)
{
	return r->kind != PORT_REQ_PORT;
}

static const char *proto_name(enum port_proto p)
{
	return p == PORT_UDP ? "udp" : p == PORT_SCTP ? "sctp" : "tcp";
}

static const char *expect_name(enum port_expect e)
{
	return e == PORT_LISTENING ? "listening" : "free";
}

/* JSON "expect": what the check wants, one word per rule */
static const char *rule_name(enum port_rule rule)
{
	static const char *const names[] = {
		[PORT_RULE_FREE] = "free", [PORT_RULE_LISTEN] = "listening",
		[PORT_RULE_STACK] = "stack", [PORT_RULE_STACK_UP] = "stack-up",
		[PORT_RULE_APP] = "app",
	};

	return (unsigned)rule < ARRAY_SIZE(names) ? names[rule] : "free";
}

/* Ids: ports.tcp.PORT (ports.tcp.8000-8010 for a compose range,
 * ports.udp.53 for a port not checked), ports.url.KEY for a *_URL whose
 * port is not valid, ports.urls for the keys past the cap, ports.compose
 * for the compose host ports past theirs. */
static void plan_one(struct plan *plan, const struct port_record *rec)
{
	const struct port_req *r = rec->req;
	struct buf id = BUF_INIT, title = BUF_INIT;
	struct check *c;

	switch (r->kind) {
	case PORT_REQ_URLS_CAPPED:
		buf_puts(&id, "ports.urls");
		buf_puts(&title, ".env URL ports");
		break;
	case PORT_REQ_COMPOSE_CAPPED:
		buf_puts(&id, "ports.compose");
		buf_puts(&title, "Compose host ports");
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
	c = plan_add(plan, &probe_ports, id.s, title.s, r->origin, rec, 0);
	/* waiting changes what listens on a TCP port, not a port out of
	 * scope or one that is not valid */
	c->volatile_state = r->kind == PORT_REQ_PORT && r->proto == PORT_TCP;
	buf_release(&id);
	buf_release(&title);
}

static void ports_plan(const struct spec *spec, struct plan *plan)
{
	size_t i;

	for (i = 0; i < spec->nport_records; i++)
		plan_one(plan, &spec->port_records[i]);
}

/* ---- one look at the machine for every port ---------------------- */

struct ports_scan {
	int rc, err;		/* ports_tables' */
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

/* The values of one model's .env, to hide. */
static void redact_add_env(struct redact_values *x, const struct spec *spec)
{
	const struct dotenv *d = &spec->env.env_doc;
	size_t i;

	if (spec->env.env_errno)
		return;
	for (i = 0; i < d->n; i++)
		redact_values_add(x, d->entries[i].value, d->entries[i].value_len);
}

/* Hide the .env's values in every holder's command line (redact.h): the
 * repository's and every workspace's, since their ports are checked
 * here together. */
static void scan_redact(const struct spec *spec, struct ports_scan *s)
{
	const struct spec_workspaces *w = spec->workspaces;
	struct redact_values *x;
	size_t i, j, nh = 0;

	for (i = 0; i < s->n; i++)
		nh += s->st[i].nh;
	if (!nh)
		return;		/* no command line to look at */
	x = redact_values_new();
	redact_add_env(x, spec);
	for (i = 0; w && i < w->n; i++)
		if (w->v[i].loaded)
			redact_add_env(x, &w->v[i].spec);
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

/* Every TCP port of the model (ranges expanded), looked up at once in
 * the socket tables. */
static void *scan_make(const struct run_ctx *ctx, const void *arg)
{
	const struct spec *spec = ctx->spec;
	struct ports_scan *s = xcalloc(1, sizeof(*s));
	size_t i, j, cap = 0;

	for (i = 0; i < spec->nport_records; i++) {
		const struct port_req *r = spec->port_records[i].req;
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
	s->rc = ports_tables(s->ports, s->n, s->st);
	s->err = s->rc < 0 ? errno : 0;
	return s;
}

/* The holders of the busy ports of arg, the tables' scan: one walk of
 * /proc, the tables not read again (the verdict a busy port published
 * while it ran is on the same reading). */
static void *holders_make(const struct run_ctx *ctx, const void *arg)
{
	const struct ports_scan *t = arg;
	struct ports_scan *s = xcalloc(1, sizeof(*s));

	s->rc = t->rc;
	s->err = t->err;
	s->n = t->n;
	s->ports = xcalloc(t->n ? t->n : 1, sizeof(*s->ports));
	if (t->n)
		memcpy(s->ports, t->ports, t->n * sizeof(*s->ports));
	if (t->rc == 0) {
		s->st = ports_holders(t->st, t->n, ctx->spec->root);
		scan_redact(ctx->spec, s);
	} else {
		s->st = xcalloc(1, sizeof(*s->st));
		s->n = 0;
	}
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
	if (s->scan_cut)
		buf_printf(b, "uid %u, holder not found by the deadline", s->hidden_uid);
	else if (s->hidden)
		buf_printf(b, "%suid %u, process not visible%s", s->nh ? "; " : "",
			   s->hidden_uid, s->hidden_denied ? ": permission denied" : "");
}

static const char *hidden_reason(const struct port_status *s)
{
	if (s->scan_cut)
		return "holder not found by the deadline";
	if (s->hidden_denied)
		return "permission denied";
	if (s->hidden_view == PROC_VIEW_UNMOUNTED)
		return "/proc is not mounted";
	if (s->hidden_view == PROC_VIEW_HIDEPID)
		return "/proc is mounted with hidepid";
	return "no visible process holds it";
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
		HOLDER_THIS_REPO, HOLDER_SAME_USER, HOLDER_OTHER_USER, HOLDER_CONTAINER,
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		for (j = 0; j < s->nh; j++)
			if (s->holders[j].klass == order[i])
				return &s->holders[j];
	return NULL;
}

static int held_by(const struct port_status *s, int klass)
{
	size_t i;

	for (i = 0; i < s->nh; i++)
		if (s->holders[i].klass == klass)
			return 1;
	return 0;
}

/* Only containers' proxies (docker-proxy, rootlesskit, podman's conmon or
 * pasta: procnet.c's list) hold it, and every listener's holder is seen. */
static int held_by_containers(const struct port_status *s)
{
	size_t i;

	if (!s->nh || s->hidden)
		return 0;
	for (i = 0; i < s->nh; i++)
		if (s->holders[i].klass != HOLDER_CONTAINER)
			return 0;
	return 1;
}

/* No holder in sight, and the socket is root's: docker-proxy runs as
 * root, so to a user who cannot see it a running stack looks like this. */
static int hidden_root_only(const struct port_status *s)
{
	return s->hidden && !s->nh && s->hidden_uid == 0;
}

static void collision_hint(struct result *r, const struct port_record *rec,
			   const struct port_status *s)
{
	const struct port_holder *h = main_holder(s);
	const char *server;

	/* the holders' pid, start time and boot id are in data.holders:
	 * what a harness needs to be sure it stops the same process */
	r->reason = REASON_HELD;
	if (!h) {
		if (s->scan_cut)
			result_hint(r, "in use by uid %u; the scan for its process "
				    "did not end by the deadline: raise it with "
				    "--timeout=MS to see which", s->hidden_uid);
		else if (s->hidden_denied)
			result_hint(r, "in use by uid %u (process not visible: "
				    "permission denied); run envpreflight as that "
				    "user or as root to see which", s->hidden_uid);
		else if (s->hidden_view == PROC_VIEW_UNMOUNTED)
			result_hint(r, "in use by uid %u (no process can be seen: "
				    "/proc is not mounted); mount it (mount -t proc "
				    "proc /proc) to see which", s->hidden_uid);
		else if (s->hidden_view == PROC_VIEW_HIDEPID)
			result_hint(r, "in use by uid %u (/proc is mounted with "
				    "hidepid, which hides other users' processes); "
				    "run envpreflight as that user, or as root or a "
				    "member of the mount's gid= group, to see which",
				    s->hidden_uid);
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
		result_hint(r, "a container publishes this port (%s); docker ps "
			    "to find it", h->command);
		break;
	default:
		if (server && rec->stack)
			result_hint(r, "another %s runs on the host (PID %d, user %s): "
				    "docker compose up will fail with \"port is "
				    "already allocated\"; stop it, or publish service "
				    "%s on another port", server, h->pid, h->user,
				    rec->stack->service);
		else if (server)
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

/* A compose service name as compose-spec allows it ([a-zA-Z0-9._-]+),
 * not starting with '-' or '.': fit for a fix's argv. */
static int service_name_ok(const char *s)
{
	return s && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		     (*s >= '0' && *s <= '9')) &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._-") == strlen(s);
}

/* A requirement's name for a message: its key or service, and the
 * workspace it belongs to ("DATABASE_URL of apps/web"), since the ports
 * of every workspace are checked together.  buf holds it. */
#define NAME_MAX_LEN 300
static const char *named(const struct port_req *r, char *buf)
{
	if (!r->service)
		return NULL;
	if (!r->ws)
		return r->service;
	snprintf(buf, NAME_MAX_LEN, "%s of %s", r->service, r->ws);
	return buf;
}

/* How to bring up what should listen: the hint, and for a compose
 * service the fix a harness can run. */
static void silent_hint(struct result *r, const struct port_record *rec)
{
	const struct port_req *req = rec->req;
	char nb[NAME_MAX_LEN];

	r->reason = REASON_NOT_LISTENING;
	if (rec->stack && !service_name_ok(rec->stack->service))
		r->no_fix = NO_FIX_NEEDS_A_PERSON;	/* a name no argv may hold */
	if (rec->stack && service_name_ok(rec->stack->service)) {
		result_fix_argv(r, FIX_AGENT, FIX_NEEDS_DOCKER, "docker", "compose",
				"up", "-d", rec->stack->service, (char *)NULL);
		/* a workspace's stack starts from its own directory */
		result_fix_cwd(r, rec->stack->ws);
	}
	if (rec->stack && rec->stack->ws)
		result_hint(r, "start the stack: docker compose up -d %s in %s (%s "
			    "provides it)", rec->stack->service, rec->stack->ws,
			    rec->stack->origin.file);
	else if (rec->stack)
		result_hint(r, "start the stack: docker compose up -d %s (%s "
			    "provides it)", rec->stack->service,
			    rec->stack->origin.file);
	else if (rec->other && service_name_ok(rec->other_service)) {
		result_hint(r, "start it: docker compose -f %s up -d %s (service %s "
			    "of %s publishes it; compose does not read that file "
			    "by default)", rec->other->file, rec->other_service,
			    rec->other_service, rec->other->file);
		result_fix_argv(r, FIX_AGENT, FIX_NEEDS_DOCKER, "docker", "compose",
				"-f", rec->other->file, "up", "-d", rec->other_service,
				(char *)NULL);
	}
	else if (req->service)
		result_hint(r, "start the service %s points to (%s:%u)",
			    named(req, nb), req->origin.file, req->origin.line);
	else
		result_hint(r, "start the service that should listen on port %u",
			    req->port);
}

/* Who wants a requirement, for notes: "compose service db",
 * "DATABASE_URL", "preflight.yaml". */
static void who_wants(struct buf *b, const struct port_req *o)
{
	char nb[NAME_MAX_LEN];

	if (o->src == SRC_COMPOSE)
		buf_printf(b, "compose service %s", named(o, nb));
	else if (o->service)
		buf_puts(b, named(o, nb));
	else
		buf_puts(b, "preflight.yaml");
}

/* --explain lines for the requirements of the port besides the one that
 * decides, the first NOTES_MAX of them. */
static void sibling_notes(struct result *r, const struct spec *spec,
			  const struct port_record *rec)
{
	char nb[NAME_MAX_LEN];
	size_t j, shown = 0;

	for (j = 0; j < rec->nreqs; j++) {
		const struct port_req *o = &spec->ports[rec->reqs[j]];
		struct buf who = BUF_INIT, where = BUF_INIT;

		if (o == rec->req)
			continue;
		if (shown++ == NOTES_MAX) {
			result_note(r, "and %zu more requirements of this port",
				    rec->nreqs - j - (o < rec->req));
			break;
		}
		who_wants(&who, o);
		buf_printf(&where, "%s:%u", o->origin.file ? o->origin.file : "?",
			   o->origin.line);
		if (o->origin.col)
			buf_printf(&where, ":%u", o->origin.col);
		if (rec->req->src == SRC_PREFLIGHT)
			result_note(r, "%s (%s) wants it %s; preflight.yaml overrides "
				    "what is discovered", where.s, who.s,
				    expect_name(o->expect));
		else if (rec->stack && o->src != SRC_COMPOSE)
			result_note(r, "%s (%s) points at it: compose service %s "
				    "publishes it", where.s, who.s,
				    named(rec->stack, nb));
		else
			result_note(r, "also wanted %s by %s (%s)",
				    o->app ? "free (its own app)" : expect_name(o->expect),
				    who.s, where.s);
		buf_release(&who);
		buf_release(&where);
	}
}

/* ---- JSON -------------------------------------------------------- */

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

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
		if (h->have_start)
			cJSON_AddNumberToObject(o, "start_time", (double)h->start_time);
		else
			cJSON_AddNullToObject(o, "start_time");
		add_str(o, "boot_id", proc_boot_id());
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


/* Every requirement of the record: what a harness needs to say why. */
static cJSON *wanted_by_json(const struct spec *spec,
			     const struct port_record *rec)
{
	cJSON *arr = cJSON_CreateArray();
	size_t j;

	for (j = 0; j < rec->nreqs; j++) {
		const struct port_req *o = &spec->ports[rec->reqs[j]];
		cJSON *w = cJSON_CreateObject();

		cJSON_AddStringToObject(w, "source", req_source_key(o->src));
		add_str(w, "file", o->origin.file);
		cJSON_AddNumberToObject(w, "line", o->origin.line);
		cJSON_AddStringToObject(w, "expect", o->src == SRC_COMPOSE ?
					"publishes" : o->app ? "app" :
					expect_name(o->expect));
		/* every key on every entry, null where it does not apply */
		add_str(w, "service", o->src == SRC_COMPOSE ? o->service : NULL);
		add_str(w, "key", o->src == SRC_ENV_URL || o->src == SRC_ENV_PORT ?
			o->service : NULL);
		add_str(w, "scheme", o->scheme);
		add_str(w, "workspace", o->ws);
		cJSON_AddItemToArray(arr, w);
	}
	return arr;
}

static cJSON *data_new(const struct spec *spec, const struct port_record *rec)
{
	const struct port_req *req = rec->req;
	cJSON *d = cJSON_CreateObject();

	if (not_a_port(req))
		cJSON_AddNullToObject(d, "port");
	else
		cJSON_AddNumberToObject(d, "port", req->port);
	if (req->port_last)
		cJSON_AddNumberToObject(d, "port_last", req->port_last);
	cJSON_AddStringToObject(d, "protocol", proto_name(req->proto));
	cJSON_AddStringToObject(d, "expect", rule_name(rec->rule));
	/* the key or service of the deciding requirement (a name, never a
	 * value); null for preflight.yaml */
	if (req->src == SRC_PREFLIGHT)
		cJSON_AddNullToObject(d, "service");
	else
		cJSON_AddStringToObject(d, "service", req->service);
	add_str(d, "compose_service", rec->stack ? rec->stack->service : NULL);
	cJSON_AddItemToObject(d, "wanted_by", wanted_by_json(spec, rec));
	return d;
}

/* ---- the checks -------------------------------------------------- */

/* "free (for APP_URL)" / "listening for DATABASE_URL (...)" */
static void for_whom(struct buf *b, const struct port_req *req)
{
	char nb[NAME_MAX_LEN];

	if (req->src == SRC_COMPOSE)
		buf_printf(b, "compose service %s", named(req, nb));
	else if (req->service)
		buf_puts(b, named(req, nb));
}

static void run_free(struct result *r, const struct port_record *rec,
		     const struct port_status *s, const char *who)
{
	struct buf whom = BUF_INIT;

	for_whom(&whom, rec->req);
	if (!s->busy) {
		if (whom.len)
			result_set(r, STATUS_PASS, "free (for %s)", whom.s);
		else
			result_set(r, STATUS_PASS, "free");
	} else if (rec->rule == PORT_RULE_APP && !held_by(s, HOLDER_THIS_REPO)) {
		/* the app's own port: another program on it may well be
		 * something the developer runs on purpose */
		result_set(r, STATUS_WARN, "in use (%s); %s is this repository's "
			   "own app, which will want it", who, whom.s);
		collision_hint(r, rec, s);
	} else {
		result_set(r, STATUS_FAIL, "COLLISION (%s)", who);
		collision_hint(r, rec, s);
	}
	buf_release(&whom);
}

static void run_listen(struct result *r, const struct port_record *rec,
		       const struct port_status *s, const char *who)
{
	const struct port_req *req = rec->req;
	char nb[NAME_MAX_LEN];

	if (s->busy) {
		if (req->service)
			result_set(r, STATUS_PASS, "listening for %s (%s)",
				   named(req, nb), who);
		else
			result_set(r, STATUS_PASS, "listening (%s)", who);
		return;
	}
	if (req->service && req->origin.file)
		result_set(r, STATUS_FAIL, "nothing listening (wanted by %s in %s)",
			   req->service, req->origin.file);
	else if (req->service)
		result_set(r, STATUS_FAIL, "nothing listening (wanted by %s)",
			   named(req, nb));
	else
		result_set(r, STATUS_FAIL, "nothing listening");
	silent_hint(r, rec);
}

/* The compose stack publishes the port (PORT_RULE_STACK, _STACK_UP). */
static void run_stack(struct result *r, const struct port_record *rec,
		      const struct port_status *s, const char *who)
{
	char nb[NAME_MAX_LEN], ub[NAME_MAX_LEN];
	const char *svc = named(rec->stack, nb);

	if (!s->busy && rec->rule == PORT_RULE_STACK_UP) {
		result_set(r, STATUS_FAIL, "nothing listening: compose service %s "
			   "publishes it and %s needs it (the stack is down)", svc,
			   named(rec->user, ub));
		silent_hint(r, rec);
	} else if (!s->busy) {
		result_set(r, STATUS_PASS, "free (compose service %s publishes it)",
			   svc);
	} else if (held_by_containers(s)) {
		result_set(r, STATUS_PASS, "published by a container (%s): the stack "
			   "is up (compose service %s)", who, svc);
	} else if (hidden_root_only(s)) {
		result_set(r, STATUS_WARN, "in use by uid 0, process not visible "
			   "(%s): docker-proxy runs as root, so it may be the stack "
			   "(compose service %s) or a host service", hidden_reason(s),
			   svc);
		r->reason = REASON_NOT_VISIBLE;
		result_hint(r, "run docker compose ps: if service %s is not up, "
			    "something else holds the port", svc);
	} else if (rec->stack->ws) {
		/* a workspace's stack (a benchmark's, an end-to-end test's) is
		 * not the one docker compose up at the top starts: what holds
		 * its port is in the way only when that stack is started, as
		 * what compose refuses there is (probe_compose.c; issue 21,
		 * item 5: karakeep's web app on 3000, which its
		 * packages/benchmarks stack publishes too) */
		result_set(r, STATUS_WARN, "if you start %s's stack: in use (%s) "
			   "\xe2\x80\x94 its compose service %s publishes it",
			   rec->stack->ws, who, rec->stack->service);
		r->reason = REASON_HELD;
		result_hint(r, "docker compose up in %s would fail with \"port is "
			    "already allocated\" while it is held: stop what holds "
			    "it first, or publish service %s on another port",
			    rec->stack->ws, rec->stack->service);
	} else {
		result_set(r, STATUS_FAIL, "COLLISION (%s) \xe2\x80\x94 compose service "
			   "%s publishes it", who, svc);
		collision_hint(r, rec, s);
	}
}

static void run_single(struct result *r, const struct port_record *rec,
		       const struct port_status *s)
{
	struct buf who = BUF_INIT;
	cJSON *holders = cJSON_CreateArray();

	holders_json(holders, s, 0);
	cJSON_AddItemToObject(r->data, "holders", holders);
	cJSON_AddItemToObject(r->data, "hidden", hidden_json(s));
	if (s->busy)
		holders_text(&who, s);
	switch (rec->rule) {
	case PORT_RULE_FREE:
	case PORT_RULE_APP:
		run_free(r, rec, s, buf_str(&who));
		break;
	case PORT_RULE_LISTEN:
		run_listen(r, rec, s, buf_str(&who));
		break;
	case PORT_RULE_STACK:
	case PORT_RULE_STACK_UP:
		run_stack(r, rec, s, buf_str(&who));
		break;
	}
	if (s->hidden)
		result_note(r, "a listener on port %u belongs to uid %u: %s", s->port,
			    s->hidden_uid, hidden_reason(s));
	buf_release(&who);
}

/* A busy port's check as it stands before the holder scan: what it says
 * should the deadline cut that scan off (run_publish) - in use, its
 * holder unknown (a socket of uid N), not "timed out" - so that a harness
 * knows the port is taken even on a machine too crowded to name who took
 * it in time. */
static void publish_holder_unknown(const struct run_ctx *ctx, const struct result *r,
				   const struct port_record *rec,
				   const struct port_status *s)
{
	struct port_status cut = *s;
	struct result p;

	cut.holders = NULL;
	cut.nh = 0;
	cut.hidden = 1;
	cut.hidden_uid = s->nl ? s->listeners[0].uid : 0;
	cut.scan_cut = 1;
	result_copy(&p, r);
	run_single(&p, rec, &cut);
	if (rec->rule != PORT_RULE_FREE && rec->rule != PORT_RULE_LISTEN) {
		/* the stack's own container, or the app itself, may hold it:
		 * only the holder decides, so no verdict without it */
		result_set(&p, STATUS_WARN, "in use (uid %u, holder not found by the "
			   "deadline)", cut.hidden_uid);
		p.reason = REASON_NOT_VISIBLE;
	}
	run_publish(ctx, &p);
	result_release(&p);
}

/* 1 when the tables show a port of req's range free. */
static int range_has_free(const struct ports_scan *scan, const struct port_req *req)
{
	unsigned p;

	for (p = req->port; p <= req->port_last; p++) {
		const struct port_status *s = scan_find(scan, p);

		if (!s || !s->busy)
			return 1;
	}
	return 0;
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
	r->reason = REASON_HELD;
	if (req->origin.file)
		result_fix_edit(r, req->origin.file, req->origin.line);
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
	r->reason = REASON_OUT_OF_SCOPE;
	result_hint(r, "list the ports that matter under ports.listening "
		    "in preflight.yaml");
}

/* The compose host ports past spec_compose.c's cap: a skipped check in
 * every format, so that a report never says "all ok" over them. */
static void run_compose_capped(const struct spec *spec, const struct port_req *req,
			       struct result *r)
{
	cJSON_AddNumberToObject(r->data, "ports_not_checked", req->capped);
	result_set(r, STATUS_SKIP, "not checked: %s%u more host port%s published "
		   "in compose files (from service %s on); only the first %d are "
		   "checked", spec->compose.capped_floor ? "at least " : "",
		   req->capped, req->capped > 1 ? "s" : "", req->service,
		   PORTS_COMPOSE_MAX);
	r->reason = REASON_OUT_OF_SCOPE;
	result_hint(r, "list the ports that matter under ports.free in "
		    "preflight.yaml");
}

/* A *_URL key that names this machine with a port that is not valid:
 * the app will fail to connect, so the check fails.  The value is never
 * shown. */
static void run_bad_url(const struct port_req *req, struct result *r)
{
	result_set(r, STATUS_FAIL, "the port in %s is not a valid port "
		   "(1-65535): the app cannot connect", req->service);
	r->reason = REASON_INVALID_REQUIREMENT;
	result_fix_edit(r, req->origin.file, req->origin.line);
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
	else if (req->kind == PORT_REQ_COMPOSE_CAPPED)
		run_compose_capped(spec, req, r);
	else
		run_bad_url(req, r);
}

static void ports_run(const struct run_ctx *ctx, const struct check *c,
		      struct result *r)
{
	const struct port_record *rec = c->arg;
	const struct port_req *req = rec->req;
	const struct ports_scan *scan;
	const struct port_status *s;

	r->data = data_new(ctx->spec, rec);
	if (not_a_port(req)) {
		run_not_a_port(ctx->spec, req, r);
		return;
	}
	if (req->proto != PORT_TCP) {
		cJSON_AddItemToObject(r->data, "holders", cJSON_CreateArray());
		cJSON_AddItemToObject(r->data, "hidden", cJSON_CreateNull());
		result_set(r, STATUS_SKIP, "not checked: %s is out of scope (TCP "
			   "only)", req->proto == PORT_UDP ? "UDP" : "SCTP");
		r->reason = REASON_OUT_OF_SCOPE;
		sibling_notes(r, ctx->spec, rec);
		return;
	}
	/* the tables first, which a free port's verdict needs alone, and a
	 * busy one's should the holder scan (a /proc walk, long on a
	 * crowded machine) not end by the deadline */
	scan = run_once(ctx, "ports.tables", scan_make, NULL, scan_release);
	if (scan->rc < 0) {
		result_set(r, STATUS_ERROR, "cannot read the TCP socket tables "
			   "(%s/net/tcp): %s", proc_root(), strerror(scan->err));
		r->reason = REASON_UNREADABLE;
		return;
	}
	sibling_notes(r, ctx->spec, rec);
	if (req->port_last) {
		/* one free port decides a range; every port busy: in use,
		 * should the holders not be found in time */
		if (!range_has_free(scan, req)) {
			struct result p;

			result_copy(&p, r);
			run_range(scan, req, &p);
			run_publish(ctx, &p);
			result_release(&p);
			scan = run_once(ctx, "ports.lookup", holders_make, scan,
					scan_release);
			if (scan->rc < 0) {
				result_set(r, STATUS_ERROR, "cannot read the TCP socket "
					   "tables (%s/net/tcp): %s", proc_root(),
					   strerror(scan->err));
				r->reason = REASON_UNREADABLE;
				return;
			}
		}
		run_range(scan, req, r);
		return;
	}
	s = scan_find(scan, req->port);
	if (s && s->busy) {
		publish_holder_unknown(ctx, r, rec, s);
		scan = run_once(ctx, "ports.lookup", holders_make, scan, scan_release);
		s = scan->rc < 0 ? NULL : scan_find(scan, req->port);
	}
	if (!s) {
		result_set(r, STATUS_ERROR, "port %u was not looked up", req->port);
		r->reason = REASON_PROBE_ERROR;
		return;
	}
	run_single(r, rec, s);
}

static const char *const ports_ids[] = {
	"ports.tcp.PORT",
	"ports.tcp.PORT-LAST",
	"ports.udp.PORT",
	"ports.sctp.PORT",
	"ports.url.KEY",
	"ports.urls",
	NULL
};

const struct probe probe_ports = {
	.name = "ports",
	.summary = "TCP ports that must be free or listening (preflight.yaml, "
		   "compose, .env URLs and PORT keys)",
	.plan = ports_plan,
	.run = ports_run,
	.volatile_state = 1,
	.ids = ports_ids,
};
