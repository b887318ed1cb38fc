/* init.c - the text of a commented preflight.yaml from a loaded model
 * (see init.h for what becomes a line and what a comment).
 *
 * Every value is written as a YAML double-quoted scalar (init_quote) and
 * every comment is cleaned (comment_add), so that hostile repository text
 * (": #", a newline, an escape sequence, a Unicode line separator) can
 * neither break out of its place nor change what loads back.
 */
#include "init.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- quoting ---------------------------------------------------------- */

/* The code point of the UTF-8 sequence at s into *cp: its length, or 0
 * for a byte that does not start a valid sequence (overlong forms and
 * surrogates included). */
static size_t utf8_decode(const unsigned char *s, unsigned *cp)
{
	size_t n, i;
	unsigned c = s[0], min;

	if (c < 0x80)
		return *cp = c, 1;
	if (c >= 0xc2 && c <= 0xdf)
		n = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		n = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		n = 4, c &= 0x07, min = 0x10000;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/* YAML's printable set (YAML 1.1 section 5.1) less what libyaml reads as
 * a line break inside a scalar (NEL, LS, PS) and the byte-order mark. */
static int yaml_printable(unsigned c)
{
	if (c >= 0x20 && c <= 0x7e)
		return 1;
	if (c == 0x85 || c == 0x2028 || c == 0x2029 || c == 0xfeff)
		return 0;
	return (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) ||
	       (c >= 0x10000 && c <= 0x10ffff);
}

void init_quote(struct buf *b, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	buf_putc(b, '"');
	while (*s) {
		unsigned c;
		size_t n = utf8_decode(s, &c);

		if (!n) {
			buf_puts(b, "\\uFFFD");	/* not UTF-8: cannot be kept */
			s++;
			continue;
		}
		if (c == '"' || c == '\\') {
			buf_putc(b, '\\');
			buf_putc(b, (char)c);
		} else if (c == '\t') {
			buf_puts(b, "\\t");
		} else if (c == '\n') {
			buf_puts(b, "\\n");
		} else if (yaml_printable(c)) {
			buf_add(b, (const char *)s, n);
		} else if (c < 0x100) {
			buf_printf(b, "\\x%02X", c);
		} else {
			buf_printf(b, "\\u%04X", c);
		}
		s += n;
	}
	buf_putc(b, '"');
}

/* A name as a plain scalar when it reads back as that text and as
 * nothing else (no null, no boolean), else quoted. */
static void put_name(struct buf *b, const char *s)
{
	static const char *const special[] = {
		"y", "n", "yes", "no", "on", "off", "true", "false", "null",
	};
	const char *p;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(special); i++)
		if (!strcasecmp(s, special[i]))
			goto quote;
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')))
		goto quote;
	for (p = s; *p; p++)
		if (!(*p == '_' || *p == '-' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z')))
			goto quote;
	buf_puts(b, s);
	return;
quote:
	init_quote(b, s);
}

/* Repository text in a comment: cleaned of control characters (as the
 * terminal gets it) and of the line breaks libyaml honours inside a
 * comment (LS, PS; NEL is a C1 control, cleaned already), so that it
 * cannot end the comment and become YAML. */
static void comment_add(struct buf *b, const char *s)
{
	char *clean = text_clean(s ? s : "");
	const char *p = clean;

	while (*p) {
		if (!strncmp(p, "\xe2\x80\xa8", 3) || !strncmp(p, "\xe2\x80\xa9", 3) ||
		    !strncmp(p, "\xef\xbb\xbf", 3)) {
			buf_putc(b, '?');
			p += 3;
		} else {
			buf_putc(b, *p++);
		}
	}
	free(clean);
}

/* A quoted value inside a comment: init_quote's escapes, then cleaned. */
static void comment_quoted(struct buf *b, const char *s)
{
	struct buf q = BUF_INIT;

	init_quote(&q, s);
	comment_add(b, buf_str(&q));
	buf_release(&q);
}

/* ---- pins ------------------------------------------------------------- */

/* The leading decimal number of *s (at most 9 digits), advancing *s. */
static int take_num(const char **s, long *out)
{
	const char *p = *s;
	long v = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9' && p - *s < 9)
		v = v * 10 + (*p++ - '0');
	if (*p >= '0' && *p <= '9')
		return -1;
	*s = p;
	*out = v;
	return 0;
}

int init_pin_range(const char *name, const char *v, struct buf *out)
{
	int python = !strcmp(name, "python");
	size_t len = strcspn(v, "+"), i;	/* build metadata is dropped */
	const char *p = v;
	long major, minor = -1, patch;

	if (len > 64 || take_num(&p, &major) < 0)
		return -1;
	if (*p == '.') {
		p++;
		if (take_num(&p, &minor) < 0)
			return -1;
		if (*p == '.' && (p++, take_num(&p, &patch) < 0))
			return -1;
	}
	/* what may follow: a prerelease ("-rc.1") for semver, a PEP 440
	 * suffix ("rc1", ".post1") for python */
	if (!python && (size_t)(p - v) < len && *p != '-')
		return -1;
	for (i = (size_t)(p - v); i < len; i++) {
		char c = v[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || c == '.' ||
		      (!python && ((c >= 'A' && c <= 'Z') || c == '-'))))
			return -1;
	}
	if (python && minor >= 0)
		buf_printf(out, ">=%.*s,<%ld.%ld", (int)len, v, major, minor + 1);
	else if (python)
		buf_printf(out, ">=%.*s,<%ld", (int)len, v, major + 1);
	else if (major == 0 && minor >= 0)
		buf_printf(out, ">=%.*s <0.%ld", (int)len, v, minor + 1);
	else
		buf_printf(out, ">=%.*s <%ld", (int)len, v, major + 1);
	return 0;
}

/* ---- the document ----------------------------------------------------- */

struct gen {
	const struct spec *spec;
	struct buf out;		/* the lines, then the comments */
	struct buf found;	/* the comments on what was found */
	struct buf unpinned;	/* --snapshot's runtimes without a pin, why */
	cJSON *from;
	size_t nlines, ncomments;
};

/* One entry of derived_from: where an entry of the file came from. */
static cJSON *derive(struct gen *g, const struct origin *o, const char *source,
		     const char *entry, int line)
{
	cJSON *d = cJSON_CreateObject();
	char *clean;

	if (o && o->file) {
		clean = text_clean(o->file);
		cJSON_AddStringToObject(d, "file", clean);
		free(clean);
	} else {
		cJSON_AddNullToObject(d, "file");
	}
	if (o && o->file && o->line)
		cJSON_AddNumberToObject(d, "line", o->line);
	else
		cJSON_AddNullToObject(d, "line");
	cJSON_AddStringToObject(d, "source", source);
	clean = text_clean(entry);
	cJSON_AddStringToObject(d, "entry", clean);
	free(clean);
	cJSON_AddStringToObject(d, "written", line ? "line" : "comment");
	cJSON_AddItemToArray(g->from, d);
	if (line)
		g->nlines++;
	else
		g->ncomments++;
	return d;
}

/* "  # kept from preflight.yaml:3" after a line that an earlier
 * preflight.yaml held (the caller ends the line). */
static void kept(struct gen *g, const struct origin *o)
{
	buf_puts(&g->out, "  # kept from ");
	if (o && o->file) {
		comment_add(&g->out, o->file);
		if (o->line)
			buf_printf(&g->out, ":%u", o->line);
	} else {
		buf_puts(&g->out, "the earlier file");
	}
}

/* "(file:line: what)" at the end of a comment on something found. */
static void found_at(struct gen *g, const struct origin *o, const char *what)
{
	buf_puts(&g->found, "  (");
	if (o && o->file) {
		comment_add(&g->found, o->file);
		if (o->line)
			buf_printf(&g->found, ":%u", o->line);
		if (what)
			buf_puts(&g->found, ", ");
	}
	if (what)
		comment_add(&g->found, what);
	buf_puts(&g->found, ")\n");
}

static void found_heading(struct gen *g, const char *section, int *done)
{
	if (*done)
		return;
	*done = 1;
	buf_printf(&g->found, "# %s:\n", section);
}

/* ---- env ---- */

static void list_keys(struct gen *g, const char *key, const struct env_key *k,
		      size_t n)
{
	struct buf entry = BUF_INIT;
	size_t i;

	if (!n)
		return;
	buf_printf(&g->out, "  %s:\n", key);
	buf_printf(&entry, "env.%s", key);
	for (i = 0; i < n; i++) {
		buf_puts(&g->out, "    - ");
		put_name(&g->out, k[i].name);
		kept(g, &k[i].origin);
		buf_putc(&g->out, '\n');
		derive(g, &k[i].origin, "preflight", buf_str(&entry), 1);
	}
	buf_release(&entry);
}

static void gen_env(struct gen *g)
{
	const struct spec *spec = g->spec;
	const struct env_spec *e = &spec->env;
	int discovered = e->example && !e->example_origin.file;
	int settings = e->file_origin.file || e->example_origin.file ||
		       !e->process_env || e->nrequired || e->noptional;
	int heading = 0;

	if (!spec->has_env)
		return;
	/* env checks with no example come from preflight.yaml's env: keep
	 * the section even when it says nothing else */
	if (!discovered || settings) {
		buf_puts(&g->out, "env:");
		if (!settings)
			kept(g, NULL);
		buf_putc(&g->out, '\n');
	}
	if (e->file_origin.file) {
		buf_puts(&g->out, "  file: ");
		init_quote(&g->out, e->file);
		kept(g, &e->file_origin);
		buf_putc(&g->out, '\n');
		derive(g, &e->file_origin, "preflight", "env.file", 1);
	}
	if (e->example_origin.file) {
		buf_puts(&g->out, "  example: ");
		init_quote(&g->out, e->example);
		kept(g, &e->example_origin);
		buf_putc(&g->out, '\n');
		derive(g, &e->example_origin, "preflight", "env.example", 1);
	}
	if (!e->process_env) {
		buf_puts(&g->out, "  process_env: false");
		kept(g, NULL);
		buf_putc(&g->out, '\n');
		derive(g, NULL, "preflight", "env.process_env", 1);
	}
	list_keys(g, "required", e->required, e->nrequired);
	list_keys(g, "optional", e->optional, e->noptional);
	if (discovered) {
		struct origin o = { NULL, 0, 0 };
		size_t i;

		for (i = 0; i < spec->nfiles; i++)	/* the spec-owned name */
			if (!strcmp(spec->files[i], e->example))
				o.file = spec->files[i];
		found_heading(g, "env", &heading);
		buf_puts(&g->found, "#   ");
		comment_add(&g->found, e->file ? e->file : ".env");
		buf_puts(&g->found, " must set every key of ");
		comment_add(&g->found, e->example);
		found_at(g, &o, NULL);
		derive(g, &o, "env-example", "env", 0);
	}
}

/* ---- ports ---- */

static void list_ports(struct gen *g, enum port_expect expect, const char *key)
{
	const struct spec *spec = g->spec;
	struct buf entry = BUF_INIT;
	size_t i;
	int any = 0;

	buf_printf(&entry, "ports.%s", key);
	for (i = 0; i < spec->nports; i++) {
		const struct port_req *p = &spec->ports[i];

		if (p->src != SRC_PREFLIGHT || p->kind != PORT_REQ_PORT ||
		    p->expect != expect)
			continue;
		if (!any++)
			buf_printf(&g->out, "  %s:\n", key);
		buf_printf(&g->out, "    - %u", p->port);
		kept(g, &p->origin);
		buf_putc(&g->out, '\n');
		derive(g, &p->origin, "preflight", buf_str(&entry), 1);
	}
	buf_release(&entry);
}

/* What a port requirement that discovery found asks, for its comment. */
static void port_found(struct gen *g, const struct port_req *p)
{
	static const char *const protos[] = {
		[PORT_TCP] = "", [PORT_UDP] = "/udp", [PORT_SCTP] = "/sctp"
	};
	struct buf *b = &g->found;

	buf_puts(b, "#   ");
	switch (p->kind) {
	case PORT_REQ_BAD_URL:
		comment_add(b, p->service);
		buf_puts(b, " names this machine with an invalid port");
		break;
	case PORT_REQ_URLS_CAPPED:
		buf_printf(b, "%u more *_URL keys naming a local port, from ", p->capped);
		comment_add(b, p->service);
		break;
	case PORT_REQ_COMPOSE_CAPPED:
		buf_printf(b, "%u more compose host ports, from service ", p->capped);
		comment_add(b, p->service);
		break;
	case PORT_REQ_PORT:
		buf_printf(b, "%u", p->port);
		if (p->port_last)
			buf_printf(b, "-%u", p->port_last);
		buf_puts(b, protos[p->proto]);
		if (p->src == SRC_COMPOSE) {
			buf_puts(b, " compose service ");
			comment_add(b, p->service);
			buf_puts(b, " publishes it");
		} else if (p->app) {
			buf_puts(b, " the app's own port (");
			comment_add(b, p->service);
			buf_putc(b, ')');
		} else {
			buf_puts(b, " must listen for ");
			comment_add(b, p->service);
		}
		break;
	}
	found_at(g, &p->origin, NULL);
}

static void gen_ports(struct gen *g)
{
	const struct spec *spec = g->spec;
	size_t i;
	int kept_any = 0, heading = 0;

	for (i = 0; i < spec->nports; i++)
		kept_any |= spec->ports[i].src == SRC_PREFLIGHT &&
			    spec->ports[i].kind == PORT_REQ_PORT;
	if (kept_any) {
		buf_puts(&g->out, "ports:\n");
		list_ports(g, PORT_FREE, "free");
		list_ports(g, PORT_LISTENING, "listening");
	}
	for (i = 0; i < spec->nports; i++) {
		const struct port_req *p = &spec->ports[i];

		if (p->src == SRC_PREFLIGHT)
			continue;
		found_heading(g, "ports", &heading);
		port_found(g, p);
		derive(g, &p->origin, req_source_key(p->src), "ports", 0);
	}
}

/* ---- runtimes ---- */

static const struct init_pin *pin_find(const struct init_pin *pins, size_t n,
				       const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(pins[i].name, name))
			return &pins[i];
	return NULL;
}

static void quoted_list(struct buf *b, char *const *v)
{
	buf_putc(b, '[');
	for (; *v; v++) {
		init_quote(b, *v);
		if (v[1])
			buf_puts(b, ", ");
	}
	buf_putc(b, ']');
}

/* A runtime of the earlier preflight.yaml, as it was written. */
static void runtime_kept(struct gen *g, const struct runtime_req *r,
			 const struct init_pin *pin)
{
	struct buf *b = &g->out;
	struct buf entry = BUF_INIT;

	buf_puts(b, "  ");
	put_name(b, r->name);
	buf_putc(b, ':');
	/* "" is a range of its own (any version, judged as a range); only
	 * no value at all is REQ_ANY */
	if (!r->command && !r->version_regex && r->kind != REQ_ANY) {
		buf_putc(b, ' ');
		init_quote(b, r->spec);
	}
	kept(g, &r->origin);
	if (pin && pin->version) {
		/* one check is enough: the earlier line wins over a pin */
		buf_puts(b, "; this machine has ");
		comment_add(b, pin->version);
	}
	buf_putc(b, '\n');
	if (r->command || r->version_regex) {
		if (r->kind != REQ_ANY) {
			buf_puts(b, "    version: ");
			init_quote(b, r->spec);
			buf_putc(b, '\n');
		}
		if (r->command) {
			buf_puts(b, "    command: ");
			quoted_list(b, r->command);
			buf_putc(b, '\n');
		}
		if (r->version_regex) {
			buf_puts(b, "    version_regex: ");
			init_quote(b, r->version_regex);
			buf_putc(b, '\n');
		}
	}
	buf_printf(&entry, "runtimes.%s", r->name);
	derive(g, &r->origin, "preflight", buf_str(&entry), 1);
	buf_release(&entry);
}

static void runtime_found(struct gen *g, const struct runtime_req *r)
{
	struct buf *b = &g->found;
	struct buf entry = BUF_INIT;

	buf_puts(b, "#   ");
	comment_add(b, r->name);
	buf_putc(b, ' ');
	if (*r->spec)
		comment_quoted(b, r->spec);
	else
		buf_puts(b, "(any version)");
	if (r->problem) {
		buf_puts(b, ", which its tool rejects: ");
		comment_add(b, r->problem);
	}
	found_at(g, &r->origin, req_source_label(r->src));
	buf_printf(&entry, "runtimes.%s", r->name);
	derive(g, &r->origin, req_source_key(r->src), buf_str(&entry), 0);
	buf_release(&entry);
}

/* --snapshot: a pinned line, unless the earlier file names the runtime. */
static void runtime_pin(struct gen *g, const struct init_pin *pin, int *section)
{
	const struct spec *spec = g->spec;
	struct buf range = BUF_INIT, entry = BUF_INIT;
	size_t i;
	cJSON *d;

	for (i = 0; i < spec->nruntimes; i++)
		if (spec->runtimes[i].src == SRC_PREFLIGHT &&
		    !strcmp(spec->runtimes[i].name, pin->name))
			return;
	if (!pin->version || init_pin_range(pin->name, pin->version, &range) < 0) {
		buf_puts(&g->unpinned, "#   ");
		comment_add(&g->unpinned, pin->name);
		buf_puts(&g->unpinned, ": ");
		if (pin->version) {
			comment_quoted(&g->unpinned, pin->version);
			buf_puts(&g->unpinned, " is not a version init can pin\n");
		} else {
			comment_add(&g->unpinned, pin->why ? pin->why : "no version found");
			buf_putc(&g->unpinned, '\n');
		}
		return;
	}
	if (!(*section)++)
		buf_puts(&g->out, "runtimes:\n");
	buf_puts(&g->out, "  ");
	put_name(&g->out, pin->name);
	buf_puts(&g->out, ": ");
	init_quote(&g->out, buf_str(&range));
	buf_puts(&g->out, "  # --snapshot: ");
	comment_add(&g->out, pin->version);
	buf_puts(&g->out, " on the machine that ran init");
	if (pin->unmet)	/* pinned all the same: it is what the machine has */
		buf_puts(&g->out, ", which a requirement below does not accept");
	buf_putc(&g->out, '\n');
	buf_printf(&entry, "runtimes.%s", pin->name);
	d = derive(g, NULL, "machine", buf_str(&entry), 1);
	cJSON_AddStringToObject(d, "version", pin->version);
	if (pin->path)
		cJSON_AddStringToObject(d, "path", pin->path);
	buf_release(&entry);
	buf_release(&range);
}

static void gen_runtimes(struct gen *g, const struct init_pin *pins, size_t npins)
{
	const struct spec *spec = g->spec;
	size_t i;
	int section = 0, heading = 0;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];

		if (r->src != SRC_PREFLIGHT)
			continue;
		if (!section++)
			buf_puts(&g->out, "runtimes:\n");
		runtime_kept(g, r, pin_find(pins, npins, r->name));
	}
	for (i = 0; i < npins; i++)
		runtime_pin(g, &pins[i], &section);
	for (i = 0; i < spec->nruntimes; i++) {
		if (spec->runtimes[i].src == SRC_PREFLIGHT)
			continue;
		found_heading(g, "runtimes", &heading);
		runtime_found(g, &spec->runtimes[i]);
	}
}

/* preflight.yaml's compose: files and profiles, kept as they were (they
 * name the stack to read; compose's own files say nothing of that) */
static void compose_names(struct gen *g, const char *key,
			  const struct compose_name *v, size_t n)
{
	struct buf entry = BUF_INIT;
	size_t i;

	buf_printf(&g->out, "  %s:", key);
	if (!n)
		buf_puts(&g->out, " []");
	buf_putc(&g->out, '\n');
	buf_printf(&entry, "compose.%s", key);
	for (i = 0; i < n; i++) {
		buf_puts(&g->out, "    - ");
		init_quote(&g->out, v[i].name);
		kept(g, &v[i].origin);
		buf_putc(&g->out, '\n');
		derive(g, &v[i].origin, "preflight", entry.s, 1);
	}
	buf_release(&entry);
}

static void gen_compose(struct gen *g)
{
	const struct compose_spec *cs = &g->spec->compose;

	if (!cs->pf_has_files && !cs->pf_has_profiles)
		return;
	buf_puts(&g->out, "compose:\n");
	if (cs->pf_has_files)
		compose_names(g, "files", cs->pf_files, cs->npf_files);
	if (cs->pf_has_profiles)
		compose_names(g, "profiles", cs->pf_profiles, cs->npf_profiles);
}

static void gen_tools(struct gen *g)
{
	const struct spec *spec = g->spec;
	size_t i;

	if (!spec->ntools)
		return;
	buf_puts(&g->out, "tools:\n");
	for (i = 0; i < spec->ntools; i++) {
		buf_puts(&g->out, "  - ");
		put_name(&g->out, spec->tools[i].name);
		kept(g, &spec->tools[i].origin);
		buf_putc(&g->out, '\n');
		derive(g, &spec->tools[i].origin, "preflight", "tools", 1);
	}
}

static const char header[] =
	"# preflight.yaml: what this repository needs of a machine, checked by\n"
	"# envpreflight (see envpreflight(1), PREFLIGHT.YAML).  Written by\n"
	"# `envpreflight init`.\n"
	"#\n"
	"# The lines are checked as written.  What the repository's own files\n"
	"# declare (package.json, .nvmrc, compose files, .env, ...) is read from\n"
	"# those files on every run: it is listed in comments at the end, with\n"
	"# its file:line, and not repeated, since a line here would be a second\n"
	"# check of the same requirement.\n";

static const char empty_hint[] =
	"\n"
	"# Nothing was found to check.  For example:\n"
	"# tools: [git, make]\n"
	"# ports:\n"
	"#   free: [3000]\n"
	"# runtimes:\n"
	"#   node: \">=20\"\n";

void init_generate(const struct spec *spec, const struct init_pin *pins,
		   size_t npins, struct init_doc *out)
{
	struct gen g;

	memset(&g, 0, sizeof(g));
	g.spec = spec;
	g.from = cJSON_CreateArray();
	buf_puts(&g.out, header);
	buf_puts(&g.out, "version: 1\n");
	if (spec->timeout_ms) {
		buf_printf(&g.out, "timeout_ms: %ld", spec->timeout_ms);
		kept(&g, &spec->timeout_origin);
		buf_putc(&g.out, '\n');
		derive(&g, &spec->timeout_origin, "preflight", "timeout_ms", 1);
	}
	gen_env(&g);
	gen_ports(&g);
	gen_runtimes(&g, pins, npins);
	gen_tools(&g);
	gen_compose(&g);
	if (g.found.len) {
		buf_puts(&g.out, "\n# Found in the repository's own files, and read from "
			 "them on every run:\n");
		buf_add(&g.out, g.found.s, g.found.len);
	} else if (!g.nlines && !g.unpinned.len) {
		buf_puts(&g.out, empty_hint);
	}
	if (g.unpinned.len) {
		buf_puts(&g.out, "\n# Not pinned by --snapshot:\n");
		buf_add(&g.out, g.unpinned.s, g.unpinned.len);
	}
	buf_release(&g.found);
	buf_release(&g.unpinned);
	out->content = buf_detach(&g.out);
	out->derived_from = g.from;
	out->nlines = g.nlines;
	out->ncomments = g.ncomments;
}

void init_doc_release(struct init_doc *d)
{
	free(d->content);
	cJSON_Delete(d->derived_from);
	memset(d, 0, sizeof(*d));
}
