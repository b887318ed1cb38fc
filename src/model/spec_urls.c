/* spec_urls.c - local services and app ports the .env points at.
 *
 * A key whose name ends in _URL or _URI (DATABASE_URL, REDIS_URL, and
 * MONGODB_URI, which is MongoDB's own convention) and whose value is a URL
 * naming this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0, ::) names a
 * port.  What it wants of it depends on the scheme:
 *   - a service scheme (postgres, mysql, redis, mongodb, amqp, nats, kafka,
 *     ...; and any scheme not in portspec.c's table): a service the app
 *     depends on, which must listen (PORT_LISTENING);
 *   - http, https, ws, wss: usually the repository's own apps
 *     (NEXT_PUBLIC_WEBAPP_URL=http://localhost:3000), which will bind the
 *     port when they start: it should be free (PORT_FREE, app).
 * A PORT-style key (app_port_key: PORT, APP_PORT, VITE_PORT, ...) whose
 * value is a port number is the app's own port too.  spec_ports.c then
 * lets the compose stack and preflight.yaml override either reading.
 * The winning assignment of each key is used, as dotenv would.
 *
 * The .env is the user's secrets file: the env loader has parsed it, and
 * nothing of its values is kept here but a port number and a scheme name
 * from a fixed table.  A requirement carries the key name (service) and
 * the key's line; its file is interned, not recorded as a spec file, so a
 * .env alone never makes a repository auditable.  Whatever is wrong with
 * the .env is the env probe's to report: this loader never fails.
 *
 * Two kinds of requirement name no port, and the ports probe reports each
 * as a check of its own, not looked up (enum port_req_kind):
 *   - PORT_REQ_BAD_URL: the URL names this machine but its port is not a
 *     valid port ("postgres://localhost:99999"): the app will fail to
 *     connect, so the check fails; service is the key;
 *   - PORT_REQ_URLS_CAPPED: past URLS_MAX requirements, capped more keys
 *     named a local port and were not taken; service is the first of them.
 * URLS_MAX keeps a .env of many thousand keys from becoming as many
 * checks: every planned port costs a check and a line of output.
 */
#include "specfile.h"
#include "portspec.h"

#include <stdint.h>
#include <string.h>
#include <strings.h>

#define URLS_MAX 1024	/* requirements from one .env, as compose's cap */

static const char *const none[] = { NULL };

/* Whether key names a URL: "..._URL" or "..._URI", any case. */
static int url_key(const char *key)
{
	size_t n = strlen(key);

	return n > 4 && (!strcasecmp(key + n - 4, "_URL") ||
			 !strcasecmp(key + n - 4, "_URI"));
}

/*
 * Whether key is the app's own port: PORT itself, or PREFIX_PORT for a
 * prefix that names the app or its dev server (frameworks read these:
 * Vite VITE_PORT, Storybook STORYBOOK_PORT, many servers APP_PORT or
 * SERVER_PORT).  DB_PORT, REDIS_PORT and friends name a service the app
 * connects to, which the *_URL keys cover: they are not read.
 */
static int app_port_key(const char *key)
{
	static const char *const prefixes[] = {
		"APP", "SERVER", "HTTP", "HTTPS", "WEB", "API", "VITE", "DEV",
		"NEXT", "NUXT", "FRONTEND", "BACKEND", "CLIENT", "ADMIN",
		"STORYBOOK", "DOCS", "EXPRESS", "NODE", "LISTEN",
	};
	size_t n = strlen(key), i;

	if (!strcmp(key, "PORT"))
		return 1;
	if (n <= 5 || strcmp(key + n - 5, "_PORT"))
		return 0;
	for (i = 0; i < ARRAY_SIZE(prefixes); i++)
		if (strlen(prefixes[i]) == n - 5 && !strncmp(key, prefixes[i], n - 5))
			return 1;
	return 0;
}

/* What a local URL's scheme wants: http and ws are the app's own. */
static int scheme_is_app(const char *scheme)
{
	return scheme && (!strcmp(scheme, "http") || !strcmp(scheme, "https"));
}

/* What entry i of d names. */
enum url_got { GOT_NOTHING, GOT_PORT, GOT_BAD_PORT };

struct url_target {
	unsigned port;
	const char *scheme;	/* static, or NULL */
	int app;
};

static enum url_got url_entry(const struct dotenv *d, size_t i,
			      struct url_target *t)
{
	const struct dotenv_entry *e = &d->entries[i];
	long port;

	memset(t, 0, sizeof(*t));
	/* a key inside or right after text dotenv skipped or misread may be
	 * a piece of a secret (dotenv.h): its name would be a check's id and
	 * title, so it names no port; the env probe reports that text */
	if (dotenv_is_shadowed(d, i) || !e->value_len ||
	    e->place != DOTENV_PLACE_CLEAN ||
	    memchr(e->value, '\0', e->value_len))
		return GOT_NOTHING;
	if (app_port_key(e->key)) {
		if (parse_long(e->value, 1, 65535, &port) < 0)
			return GOT_NOTHING;	/* "${PORT}", "auto": not a port */
		t->port = (unsigned)port;
		t->app = 1;
		return GOT_PORT;
	}
	if (!url_key(e->key))
		return GOT_NOTHING;
	switch (portspec_local_url(e->value, &t->port, &t->scheme)) {
	case 1:
		t->app = scheme_is_app(t->scheme);
		return GOT_PORT;
	case -1:
		return GOT_BAD_PORT;
	default:
		return GOT_NOTHING;
	}
}

static void add_target(struct spec *spec, const struct dotenv_entry *e,
		       const struct url_target *t, struct origin o)
{
	struct port_req *r;

	r = spec_add_port(spec, url_key(e->key) ? SRC_ENV_URL : SRC_ENV_PORT,
			  t->port, t->app ? PORT_FREE : PORT_LISTENING, o, e->key);
	r->app = t->app;
	if (t->scheme)
		r->scheme = xstrdup(t->scheme);
}

static void add_urls(struct spec *spec, const struct dotenv *d, const char *name)
{
	const char *file = NULL;
	size_t i, taken = 0, mark = SIZE_MAX;	/* the capped mark's index */

	for (i = 0; i < d->n; i++) {
		const struct dotenv_entry *e = &d->entries[i];
		struct url_target t;
		struct origin o;
		enum url_got got = url_entry(d, i, &t);

		if (got == GOT_NOTHING)
			continue;
		if (!file)
			file = spec_intern(spec, name);
		o.file = file;
		o.line = e->line;
		o.col = e->col;
		if (mark != SIZE_MAX) {
			spec->ports[mark].capped++;
		} else if (taken == URLS_MAX) {
			mark = spec->nports;
			spec_add_url_mark(spec, PORT_REQ_URLS_CAPPED, o, e->key)->capped = 1;
		} else {
			if (got == GOT_PORT)
				add_target(spec, e, &t, o);
			else
				spec_add_url_mark(spec, PORT_REQ_BAD_URL, o, e->key);
			taken++;
		}
	}
}

static int urls_load(struct spec *spec, struct errbuf *err)
{
	const struct env_spec *e = &spec->env;

	(void)err;
	if (!e->env_errno)
		add_urls(spec, &e->env_doc, e->file);
	return 0;
}

const struct spec_source source_urls = {
	.name = ".env URLs",
	.files = none,
	.load = urls_load,
};
