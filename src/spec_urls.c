/* spec_urls.c - local services the .env points at.
 *
 * A key whose name ends in _URL or _URI (DATABASE_URL, REDIS_URL, and
 * MONGODB_URI, which is MongoDB's own convention) and whose value is a URL
 * naming this machine (localhost, 127.0.0.0/8, ::1, 0.0.0.0, ::) gives a
 * PORT_LISTENING requirement: the service must be up.  The winning
 * assignment of each key is used, as dotenv would.
 *
 * The .env is the user's secrets file: the env loader has parsed it, and
 * nothing of its values is kept here.  A requirement carries the key name
 * (service) and the key's line; its file is interned, not recorded as a
 * spec file, so a .env alone never makes a repository auditable.  Whatever
 * is wrong with the .env is the env probe's to report: this loader never
 * fails.
 *
 * Two kinds of requirement name no port, and the ports probe reports each
 * as a skipped check, not looked up (enum port_req_kind):
 *   - PORT_REQ_BAD_URL: the URL names this machine but its port is not a
 *     valid port ("http://localhost:99999"), service the key;
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

/* What entry i of d asks for: 1 a local port (*port set), 0 a local URL
 * whose port is not valid, -1 nothing (not a URL key, not local, or not
 * the winning assignment). */
static int url_entry(const struct dotenv *d, size_t i, unsigned *port)
{
	const struct dotenv_entry *e = &d->entries[i];

	if (!url_key(e->key) || dotenv_is_shadowed(d, i) || !e->value_len ||
	    memchr(e->value, '\0', e->value_len))
		return -1;
	switch (portspec_local_url(e->value, port, NULL)) {
	case 1:
		return 1;
	case -1:
		return 0;
	default:
		return -1;
	}
}

static void add_urls(struct spec *spec, const struct dotenv *d, const char *name)
{
	const char *file = NULL;
	size_t i, taken = 0, mark = SIZE_MAX;	/* the capped mark's index */

	for (i = 0; i < d->n; i++) {
		const struct dotenv_entry *e = &d->entries[i];
		struct origin o;
		unsigned port = 0;
		int got = url_entry(d, i, &port);

		if (got < 0)
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
			if (got)
				spec_add_port(spec, port, PORT_LISTENING, o, e->key);
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
