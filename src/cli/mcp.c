/* mcp.c - the Model Context Protocol over JSON-RPC 2.0, one message at a
 * time (see mcp.h).  The rules followed are the MCP specification's
 * (modelcontextprotocol.io/specification: basic/lifecycle for initialize
 * and version negotiation, server/tools for tools/list and tools/call)
 * and JSON-RPC 2.0's for errors:
 *
 *   -32700  the message is not JSON              id null
 *   -32600  not a valid request (no "jsonrpc": "2.0", an id that is not
 *           a string or a number, no method, a batch), or a request
 *           before initialize                    id null when unknown
 *   -32601  a method this server does not have
 *   -32602  params that do not fit the method, an unknown tool, and -
 *           before revision 2025-11-25 - a bad tool argument
 *
 * A notification (no "id") never gets a response, not even an error.
 * From revision 2025-11-25 on, a bad tool argument is a tool result with
 * isError (the specification's "input validation errors" are tool
 * execution errors, so that a model can correct its call).
 */
#include "mcp.h"
#include "audit.h"
#include "schema.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RPC_PARSE_ERROR (-32700)
#define RPC_INVALID_REQUEST MCP_INVALID_REQUEST
#define RPC_METHOD_NOT_FOUND (-32601)
#define RPC_INVALID_PARAMS (-32602)
#define RPC_INTERNAL_ERROR MCP_INTERNAL_ERROR

static const char *const protocol_versions[] = {
	MCP_PROTOCOL_LATEST, "2025-06-18", "2025-03-26", "2024-11-05",
};

struct mcp_server {
	const struct mcp_config *cfg;
	int initialized;	/* initialize was answered */
	const char *version;	/* the revision agreed on */
	cJSON *tools;		/* tools/list's result, made once */
	void (*notify)(void *arg, const char *line);	/* mcp_notify_to's */
	void *notify_arg;
	int (*busy)(void *arg, const char *id);	/* mcp_ids_busy's */
	void *busy_arg;
};

/* One message's way through handle: what mcp_take is told beyond the
 * response. */
struct take {
	int may_defer;		/* mcp_take: an audit call is left to the
				 * transport once its arguments are good */
	int deferred;		/* ... and this one was */
	const cJSON *token;	/* the call's params._meta.progressToken */
	char *cancel_id;	/* notifications/cancelled's requestId */
};

/* What a request did wrong: a JSON-RPC error. */
struct rpc_error {
	int code;
	char msg[600];
};

static int rpc_fail(struct rpc_error *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rpc_fail(struct rpc_error *e, int code, const char *fmt, ...)
{
	va_list ap;

	e->code = code;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

/* Text from the client in a message of ours: cleaned (control
 * characters, invalid UTF-8) and cut, so that the response stays one
 * valid line whatever was sent. */
static char *quote_text(const char *s)
{
	char *c = text_clean(s);

	if (strlen(c) > 80)
		memcpy(c + 77, "...", 4);
	return c;
}

/* ---- the tools -------------------------------------------------------- */

static const char audit_description[] =
	"Check this machine against what the repository in dir declares it "
	"needs (.env keys against .env.example, ports that must be free or "
	"listening, node/python/go/docker/... versions, tools on PATH) and "
	"return the envpreflight/1 report: ok, and every check with its "
	"status, reason, message, hint and fix. Reads only: nothing is "
	"changed, nothing the repository ships is run. isError is true only "
	"when the audit could not run (a malformed spec file, nothing to "
	"audit, a bad argument); failed checks are a report with ok false.";

static const char probes_description[] =
	"List the probes an audit runs (for only and skip) and the check ids "
	"each can report.";

/* An integer property of milliseconds, 1 to max, into props. */
static void add_ms_property(cJSON *props, const char *name, double max,
			    const char *description)
{
	cJSON *p = cJSON_AddObjectToObject(props, name);

	cJSON_AddStringToObject(p, "type", "integer");
	cJSON_AddNumberToObject(p, "minimum", 1);
	cJSON_AddNumberToObject(p, "maximum", max);
	cJSON_AddStringToObject(p, "description", description);
}

/* {"type": "object", "properties": {...}} of the audit tool. */
static cJSON *audit_input_schema(void)
{
	cJSON *s = cJSON_CreateObject(), *props, *p, *any, *form, *names;
	const char *const lists[] = { "only", "skip" };
	size_t i, k;

	cJSON_AddStringToObject(s, "type", "object");
	props = cJSON_AddObjectToObject(s, "properties");
	p = cJSON_AddObjectToObject(props, "dir");
	cJSON_AddStringToObject(p, "type", "string");
	cJSON_AddStringToObject(p, "description", "the repository: a path relative "
				"to the directory the server was started in (default: that "
				"directory), which it may not leave, or an absolute path "
				"inside it or inside an --allow-dir");
	for (k = 0; k < ARRAY_SIZE(lists); k++) {
		p = cJSON_AddObjectToObject(props, lists[k]);
		any = cJSON_AddArrayToObject(p, "anyOf");
		form = cJSON_CreateObject();
		cJSON_AddStringToObject(form, "type", "array");
		names = cJSON_AddArrayToObject(cJSON_AddObjectToObject(form, "items"),
					       "enum");
		for (i = 0; probe_table[i]; i++)
			cJSON_AddItemToArray(names, cJSON_CreateString(probe_table[i]->name));
		cJSON_AddItemToArray(any, form);
		form = cJSON_CreateObject();
		cJSON_AddStringToObject(form, "type", "string");
		cJSON_AddStringToObject(form, "description", "probe names separated by "
					"commas");
		cJSON_AddItemToArray(any, form);
		cJSON_AddStringToObject(p, "description", k ? "skip these probes" :
					"run only these probes");
	}
	p = cJSON_AddObjectToObject(props, "strict");
	cJSON_AddStringToObject(p, "type", "boolean");
	cJSON_AddStringToObject(p, "description", "warnings fail the audit");
	add_ms_property(props, "timeout_ms", 600000, "deadline of this audit in ms "
			"(default: the repository's timeout_ms, at most 30000, "
			"else the user's, else 3000)");
	add_ms_property(props, "wait_ms", MCP_WAIT_MAX_MS, "wait up to this many ms "
			"for the checks that waiting can change (TCP ports, the "
			"docker daemon) to pass, running them again (as --wait)");
	add_ms_property(props, "interval_ms", MCP_WAIT_MAX_MS, "with wait_ms: the "
			"pause between two rounds, at most wait_ms (default 250)");
	p = cJSON_AddObjectToObject(props, "workspace");
	cJSON_AddStringToObject(p, "type", "string");
	cJSON_AddNumberToObject(p, "minLength", 1);
	cJSON_AddStringToObject(p, "description", "audit the repository and this "
				"one workspace (its directory, relative to dir), as "
				"--workspace");
	p = cJSON_AddObjectToObject(props, "no_workspaces");
	cJSON_AddStringToObject(p, "type", "boolean");
	cJSON_AddStringToObject(p, "description", "do not look for workspaces, as "
				"--no-workspaces");
	cJSON_AddBoolToObject(s, "additionalProperties", 0);
	return s;
}

static const char probes_output_schema[] =
	"{\"type\":\"object\",\"required\":[\"schema\",\"probes\"],"
	"\"properties\":{\"schema\":{\"const\":\"envpreflight-probes/1\"},"
	"\"probes\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	"\"required\":[\"name\",\"summary\",\"ids\"],\"properties\":{"
	"\"name\":{\"type\":\"string\"},\"summary\":{\"type\":\"string\"},"
	"\"ids\":{\"type\":\"array\",\"items\":{\"type\":\"string\"}}}}}}}";

static cJSON *tool_new(const char *name, const char *title, const char *desc,
		       cJSON *input, cJSON *output)
{
	cJSON *t = cJSON_CreateObject(), *ann;

	cJSON_AddStringToObject(t, "name", name);
	cJSON_AddStringToObject(t, "title", title);
	cJSON_AddStringToObject(t, "description", desc);
	cJSON_AddItemToObject(t, "inputSchema", input);
	cJSON_AddItemToObject(t, "outputSchema", output);
	ann = cJSON_AddObjectToObject(t, "annotations");
	cJSON_AddStringToObject(ann, "title", title);
	/* it writes nothing but its own version cache */
	cJSON_AddBoolToObject(ann, "readOnlyHint", 1);
	cJSON_AddBoolToObject(ann, "destructiveHint", 0);
	cJSON_AddBoolToObject(ann, "idempotentHint", 1);
	cJSON_AddBoolToObject(ann, "openWorldHint", 0);
	return t;
}

static cJSON *tools_new(void)
{
	cJSON *res = cJSON_CreateObject(), *list, *none;

	list = cJSON_AddArrayToObject(res, "tools");
	/* the envpreflight/1 schema is built in; it parses, or no test would */
	cJSON_AddItemToArray(list, tool_new("audit", "Audit a repository against "
					    "this machine", audit_description,
					    audit_input_schema(), cJSON_Parse(schema_text)));
	none = cJSON_CreateObject();
	cJSON_AddStringToObject(none, "type", "object");
	cJSON_AddObjectToObject(none, "properties");
	cJSON_AddBoolToObject(none, "additionalProperties", 0);
	cJSON_AddItemToArray(list, tool_new("list_probes", "List the probes",
					    probes_description, none,
					    cJSON_Parse(probes_output_schema)));
	return res;
}

/* ---- tool results ----------------------------------------------------- */

static int revision_at_least(const struct mcp_server *s, const char *rev)
{
	return strcmp(s->version, rev) >= 0;	/* dates compare as text */
}

/* {content: [{type: text, text}], structuredContent: doc, isError}: doc
 * is taken.  Before revision 2025-06-18 a client knows no
 * structuredContent, so the document is a second text item too. */
static cJSON *tool_result(const struct mcp_server *s, const char *text, cJSON *doc,
			  int is_error)
{
	cJSON *r = cJSON_CreateObject(), *content, *item;

	content = cJSON_AddArrayToObject(r, "content");
	item = cJSON_CreateObject();
	cJSON_AddStringToObject(item, "type", "text");
	cJSON_AddStringToObject(item, "text", text);
	cJSON_AddItemToArray(content, item);
	if (!revision_at_least(s, "2025-06-18")) {
		char *json = cJSON_PrintUnformatted(doc);

		item = cJSON_CreateObject();
		cJSON_AddStringToObject(item, "type", "text");
		cJSON_AddStringToObject(item, "text", json);
		cJSON_AddItemToArray(content, item);
		free(json);
	}
	cJSON_AddItemToObject(r, "structuredContent", doc);
	cJSON_AddBoolToObject(r, "isError", is_error);
	return r;
}

/* An audit that could not run: the envpreflight/1 error document. */
static cJSON *not_run_result(const struct mcp_server *s, struct audit *a)
{
	char *clean = text_clean(a->err.msg);
	struct buf text = BUF_INIT;
	cJSON *r;

	buf_printf(&text, "envpreflight: %s", clean);
	r = tool_result(s, buf_str(&text), report_json(&a->rep), 1);
	buf_release(&text);
	free(clean);
	return r;
}

/* A bad tool argument: from 2025-11-25 a tool result (the envpreflight/1
 * usage document, as the command line gives for a bad option), before
 * it a -32602 error.  Returns the result, or NULL with e filled. */
static cJSON *bad_argument(const struct mcp_server *s, const struct audit_opts *o,
			   struct rpc_error *e, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static cJSON *bad_argument(const struct mcp_server *s, const struct audit_opts *o,
			   struct rpc_error *e, const char *fmt, ...)
{
	struct errbuf err;
	struct audit a;
	va_list ap;
	cJSON *r;

	memset(&err, 0, sizeof(err));
	va_start(ap, fmt);
	vsnprintf(err.msg, sizeof(err.msg), fmt, ap);
	va_end(ap);
	if (!revision_at_least(s, "2025-11-25")) {
		rpc_fail(e, RPC_INVALID_PARAMS, "%s", err.msg);
		return NULL;
	}
	memset(&a, 0, sizeof(a));
	audit_fail(&a, o, s->cfg->cfg, &err, "usage", clock_ms());
	r = not_run_result(s, &a);
	audit_release(&a);
	return r;
}

/* ---- the audit tool's arguments ---------------------------------------- */

/* A probe list (an array of names or one comma-separated string) as the
 * comma list audit_opts takes, into *out (a new string); an error
 * message in why otherwise. */
static int probe_list(const cJSON *v, const char *key, char **out, struct buf *why)
{
	struct buf list = BUF_INIT;
	const cJSON *item;
	char *copy, *p, *name;

	if (cJSON_IsString(v)) {
		buf_puts(&list, v->valuestring);
	} else if (cJSON_IsArray(v)) {
		cJSON_ArrayForEach(item, v) {
			if (!cJSON_IsString(item) || strchr(item->valuestring, ',')) {
				buf_printf(why, "'%s' expects probe names", key);
				buf_release(&list);
				return -1;
			}
			buf_printf(&list, "%s%s", list.len ? "," : "", item->valuestring);
		}
	} else {
		buf_printf(why, "'%s' expects a list of probe names", key);
		return -1;
	}
	copy = xstrdup(buf_str(&list));
	for (p = copy; (name = strsep(&p, ",")) != NULL;) {
		char *q;
		size_t i;

		if (probe_find(name))
			continue;
		q = quote_text(name);
		buf_printf(why, "'%s': unknown probe '%s' (the probes are ", key, q);
		free(q);
		for (i = 0; probe_table[i]; i++)
			buf_printf(why, "%s%s", i ? ", " : "", probe_table[i]->name);
		buf_putc(why, ')');
		free(copy);
		buf_release(&list);
		return -1;
	}
	free(copy);
	*out = buf_detach(&list);
	return 0;
}

/* The directory dir (relative to the root, or absolute) resolves to, as
 * a new canonical path in *out; 0, or -1 with why.  A path that does not
 * resolve is still judged by its text, so that what lies outside is
 * refused before anything about it (whether it exists) is told: then
 * *out is the joined path and the audit reports it unreadable. */
static int dir_resolve(const struct mcp_config *cfg, const char *dir, char **out,
		       struct buf *why)
{
	char *joined = path_join(cfg->root, dir), *real = realpath(joined, NULL);
	/* "..", "." and "//" resolved by text alone */
	char *lex = real ? NULL : path_lexical(joined);
	const char *judged = real ? real : lex;
	size_t i;
	int inside;

	inside = path_is_inside(judged, cfg->root);
	for (i = 0; !inside && i < cfg->nallow; i++)
		inside = path_is_inside(judged, cfg->allow[i]);
	free(lex);
	if (!inside) {
		char *q = quote_text(dir);

		buf_printf(why, "'dir': '%s' is outside the directory the server was "
			   "started in (%s)%s", q, cfg->root, cfg->nallow ?
			   " and its --allow-dir directories" :
			   "; start it with --allow-dir=PATH to allow another");
		free(q);
		free(joined);
		free(real);
		return -1;
	}
	if (real) {
		free(joined);
		*out = real;
	} else {
		*out = joined;
	}
	return 0;
}

/* A whole number of ms from 1 to max, or -1. */
static long whole_ms(const cJSON *v, long max)
{
	double d = cJSON_IsNumber(v) ? v->valuedouble : 0;

	return d >= 1 && d <= (double)max && d == floor(d) ? (long)d : -1;
}

/* wait_ms and interval_ms, as --wait and --interval; 0, or -1 with why. */
static int wait_args_parse(const cJSON *args, struct audit_opts *o,
			   struct buf *why)
{
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(args, "wait_ms");
	const cJSON *i = cJSON_GetObjectItemCaseSensitive(args, "interval_ms");
	long wait = w ? whole_ms(w, MCP_WAIT_MAX_MS) : 0;
	long interval = i ? whole_ms(i, MCP_WAIT_MAX_MS) : 0;

	if (wait < 0)
		return buf_printf(why, "'wait_ms' expects a whole number of "
				  "milliseconds from 1 to %d", MCP_WAIT_MAX_MS), -1;
	if (interval < 0)
		return buf_printf(why, "'interval_ms' expects a whole number of "
				  "milliseconds from 1 to %d", MCP_WAIT_MAX_MS), -1;
	if (interval && !wait)
		return buf_puts(why, "'interval_ms' needs 'wait_ms' (the pause "
				"between the rounds of a wait)"), -1;
	if (interval > wait)
		return buf_puts(why, "'interval_ms' is longer than 'wait_ms': no "
				"second round could start"), -1;
	o->wait_ms = wait;
	o->interval_ms = interval;
	o->wait_from = w ? FROM_CALL : FROM_DEFAULT;
	o->interval_from = i ? FROM_CALL : FROM_DEFAULT;
	return 0;
}

/* The arguments of audit into o (strings owned by the caller's bufs);
 * 0, or -1 with why. */
struct audit_args {
	char *dir, *only, *skip, *workspace;
};

/* The arguments of an audit call into o.  Where dir leads (realpath) is
 * looked at only when resolve is set: in the call's own process, never
 * on the server's thread, where a directory that hangs (a stuck network
 * or FUSE mount) would hold up every ping behind it. */
static int audit_args_parse(const struct mcp_server *s, const cJSON *args,
			    struct audit_opts *o, struct audit_args *own,
			    struct buf *why, int resolve)
{
	static const char *const known[] = {
		"dir", "only", "skip", "strict", "timeout_ms", "wait_ms",
		"interval_ms", "workspace", "no_workspaces", NULL
	};
	const cJSON *v;
	size_t i;

	cJSON_ArrayForEach(v, args) {
		for (i = 0; known[i] && strcmp(known[i], v->string); i++)
			;
		if (!known[i]) {
			char *q = quote_text(v->string);

			buf_printf(why, "unknown argument '%s' (expected dir, only, "
				   "skip, strict, timeout_ms, wait_ms, interval_ms, "
				   "workspace, no_workspaces)", q);
			free(q);
			return -1;
		}
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "only")) &&
	    probe_list(v, "only", &own->only, why) < 0)
		return -1;
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "skip")) &&
	    probe_list(v, "skip", &own->skip, why) < 0)
		return -1;
	o->only = own->only;
	o->skip = own->skip;
	if (o->only || o->skip) {
		size_t n = 0;

		o->probes_from = FROM_CALL;
		for (i = 0; probe_table[i]; i++)
			n += audit_probe_requested(o, probe_table[i]);
		if (!n)
			return buf_puts(why, "'only' and 'skip' leave no probe to run"), -1;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "strict"))) {
		if (!cJSON_IsBool(v))
			return buf_puts(why, "'strict' expects true or false"), -1;
		o->strict = cJSON_IsTrue(v);
		o->strict_from = FROM_CALL;
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "timeout_ms"))) {
		double d = cJSON_IsNumber(v) ? v->valuedouble : 0;

		if (!(d >= 1 && d <= 600000) || d != floor(d))
			return buf_puts(why, "'timeout_ms' expects a whole number of "
					"milliseconds from 1 to 600000"), -1;
		o->timeout_ms = (long)d;
		o->timeout_from = FROM_CALL;
	}
	if (wait_args_parse(args, o, why) < 0)
		return -1;
	/* as --workspace and --no-workspaces */
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "no_workspaces"))) {
		if (!cJSON_IsBool(v))
			return buf_puts(why, "'no_workspaces' expects true or false"), -1;
		o->no_workspaces = cJSON_IsTrue(v);
	}
	if ((v = cJSON_GetObjectItemCaseSensitive(args, "workspace"))) {
		if (!cJSON_IsString(v) || !*v->valuestring)
			return buf_puts(why, "'workspace' expects a workspace's "
					"directory"), -1;
		if (o->no_workspaces)
			return buf_puts(why, "'workspace' and 'no_workspaces' exclude "
					"each other"), -1;
		o->workspace = own->workspace = xstrdup(v->valuestring);
	}
	v = cJSON_GetObjectItemCaseSensitive(args, "dir");
	if (v && (!cJSON_IsString(v) || !*v->valuestring))
		return buf_puts(why, "'dir' expects a path"), -1;
	if (!resolve)
		return 0;
	if (dir_resolve(s->cfg, v ? v->valuestring : ".", &own->dir, why) < 0)
		return -1;
	o->dir = own->dir;
	/* no dir: the directory the server was started in, never a top
	 * above it (the server may not leave that directory) */
	o->dir_from = v ? ROOT_FROM_ARGUMENT : ROOT_FROM_CWD;
	return 0;
}

/* ---- the audit tool ------------------------------------------------- */

/* Audits left with a stuck worker at their deadline: the worker may
 * still read the audit's model, so it is never freed (see audit.h).  A
 * static list keeps them reachable, not leaked, until the call's process
 * ends (mcp_stdio.c runs each call in one of its own). */
static struct audit **abandoned_audits;
static size_t nabandoned_audits;

static char *human_report(const struct report *rep)
{
	struct render_opts ro;
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return xstrdup("");
	memset(&ro, 0, sizeof(ro));
	ro.utf8 = 1;		/* JSON is UTF-8; no colour */
	render_human(f, rep, &ro);
	fclose(f);
	return text;
}

/* A progress notification (server/utilities/progress) before each pause
 * of a wait: the time waited so far as progress (it only grows), the
 * wait as total, and the line --wait shows on a terminal as message, so
 * that a client that resets its timeout on progress (the TypeScript
 * SDK's resetTimeoutOnProgress) keeps a long wait alive. */
struct progress {
	const struct mcp_server *s;
	const cJSON *token;
	long total_ms;
	double last;
};

static void audit_progress(void *arg, const struct result *pending, size_t n,
			   double elapsed_ms)
{
	struct progress *p = arg;
	double ms = floor(elapsed_ms);
	cJSON *msg, *params;
	char *text, *line;

	if (!pending || ms <= p->last)
		return;		/* the end of the wait; or no progress made */
	p->last = ms;
	msg = cJSON_CreateObject();
	cJSON_AddStringToObject(msg, "jsonrpc", "2.0");
	cJSON_AddStringToObject(msg, "method", "notifications/progress");
	params = cJSON_AddObjectToObject(msg, "params");
	cJSON_AddItemToObject(params, "progressToken", cJSON_Duplicate(p->token, 0));
	cJSON_AddNumberToObject(params, "progress", ms);
	cJSON_AddNumberToObject(params, "total", (double)p->total_ms);
	text = render_progress_text(pending, n, elapsed_ms);
	cJSON_AddStringToObject(params, "message", text);
	free(text);
	line = cJSON_PrintUnformatted(msg);
	cJSON_Delete(msg);
	if (line)
		p->s->notify(p->s->notify_arg, line);
	free(line);
}

static cJSON *call_audit(struct mcp_server *s, const cJSON *args, struct rpc_error *e,
			 struct take *t)
{
	struct progress prog;
	struct audit_opts o;
	struct audit_args own = { NULL, NULL, NULL, NULL };
	struct buf why = BUF_INIT;
	struct audit *a;
	double start = clock_ms();
	cJSON *r;

	memset(&o, 0, sizeof(o));
	o.format = FORMAT_JSON;		/* structuredContent is the JSON report */
	o.format_from = FROM_CALL;
	o.no_config = s->cfg->cfg == NULL;
	if (audit_args_parse(s, args, &o, &own, &why, !t->may_defer) < 0) {
		r = bad_argument(s, &o, e, "%s", buf_str(&why));
		goto out;
	}
	if (s->cfg->no_audit) {
		r = bad_argument(s, &o, e, "this server runs no audit (no_audit)");
		goto out;
	}
	if (t->may_defer) {	/* good arguments: the transport runs it */
		t->deferred = 1;
		r = NULL;
		goto out;
	}
	if (t->token && s->notify && o.wait_ms) {
		prog.s = s;
		prog.token = t->token;
		prog.total_ms = o.wait_ms;
		prog.last = 0;
		o.progress = audit_progress;
		o.progress_arg = &prog;
	}
	a = xcalloc(1, sizeof(*a));
	if (audit_run(a, &o, s->cfg->cfg, start) < 0) {
		r = not_run_result(s, a);
	} else {
		char *text = human_report(&a->rep);

		r = tool_result(s, text, report_json(&a->rep), 0);
		free(text);
	}
	audit_release(a);
	if (a->abandoned) {
		abandoned_audits = xrealloc(abandoned_audits, (nabandoned_audits + 1) *
					    /* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
					    sizeof(*abandoned_audits));
		abandoned_audits[nabandoned_audits++] = a;
	} else {
		free(a);
	}
out:
	buf_release(&why);
	free(own.dir);
	free(own.only);
	free(own.skip);
	free(own.workspace);
	return r;
}

static cJSON *call_list_probes(struct mcp_server *s, const cJSON *args,
			       struct rpc_error *e)
{
	struct buf text = BUF_INIT;
	struct audit_opts o;
	cJSON *r;
	size_t i;

	if (args && args->child) {	/* any argument at all */
		char *q = quote_text(args->child->string);

		memset(&o, 0, sizeof(o));
		o.format = FORMAT_JSON;
		r = bad_argument(s, &o, e, "unknown argument '%s' (list_probes takes "
				 "none)", q);
		free(q);
		return r;
	}
	for (i = 0; probe_table[i]; i++)
		buf_printf(&text, "%-10s %s\n", probe_table[i]->name,
			   probe_table[i]->summary);
	r = tool_result(s, buf_str(&text), probe_list_json(), 0);
	buf_release(&text);
	return r;
}

/* ---- methods ---------------------------------------------------------- */

static cJSON *method_initialize(struct mcp_server *s, const cJSON *params,
				struct rpc_error *e)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(params, "protocolVersion");
	cJSON *r, *caps, *info;
	size_t i;

	if (s->initialized)
		return rpc_fail(e, RPC_INVALID_REQUEST, "already initialized"), NULL;
	if (!cJSON_IsString(v))
		return rpc_fail(e, RPC_INVALID_PARAMS, "initialize: 'protocolVersion' "
				"expects a string"), NULL;
	/* the client's revision when spoken here, else the newest */
	s->version = protocol_versions[0];
	for (i = 0; i < ARRAY_SIZE(protocol_versions); i++)
		if (!strcmp(v->valuestring, protocol_versions[i]))
			s->version = protocol_versions[i];
	s->initialized = 1;
	r = cJSON_CreateObject();
	cJSON_AddStringToObject(r, "protocolVersion", s->version);
	caps = cJSON_AddObjectToObject(r, "capabilities");
	cJSON_AddBoolToObject(cJSON_AddObjectToObject(caps, "tools"), "listChanged", 0);
	info = cJSON_AddObjectToObject(r, "serverInfo");
	cJSON_AddStringToObject(info, "name", "envpreflight");
	cJSON_AddStringToObject(info, "title", "envpreflight");
	cJSON_AddStringToObject(info, "version", EP_VERSION);
	cJSON_AddStringToObject(r, "instructions", "Call the audit tool before "
				"working in a repository: its report says whether this "
				"machine has what the repository needs (.env keys, free "
				"and listening ports, runtime versions, tools), and for "
				"each check that did not pass, why (reason) and what "
				"would fix it (fix), so that nothing has to be probed by "
				"hand.");
	return r;
}

static cJSON *method_tools_call(struct mcp_server *s, const cJSON *params,
				struct rpc_error *e, struct take *t)
{
	const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
	const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
	const cJSON *meta = cJSON_GetObjectItemCaseSensitive(params, "_meta");
	const cJSON *token = cJSON_GetObjectItemCaseSensitive(meta, "progressToken");
	static const cJSON none = { 0 };
	char *q;

	if (!cJSON_IsString(name))
		return rpc_fail(e, RPC_INVALID_PARAMS, "tools/call: 'name' expects "
				"the name of a tool"), NULL;
	if (args && !cJSON_IsObject(args) && !cJSON_IsNull(args))
		return rpc_fail(e, RPC_INVALID_PARAMS, "tools/call: 'arguments' "
				"expects an object"), NULL;
	if (!args || cJSON_IsNull(args))
		args = &none;
	/* a progress token is a string or an integer (basic/utilities/progress) */
	if (cJSON_IsString(token) || (cJSON_IsNumber(token) &&
				      token->valuedouble == floor(token->valuedouble)))
		t->token = token;
	if (!strcmp(name->valuestring, "audit"))
		return call_audit(s, args, e, t);
	if (!strcmp(name->valuestring, "list_probes"))
		return call_list_probes(s, args, e);
	q = quote_text(name->valuestring);
	rpc_fail(e, RPC_INVALID_PARAMS, "unknown tool '%s' (the tools are audit "
		 "and list_probes)", q);
	free(q);
	return NULL;
}

/* The result of request method, or NULL with e filled. */
static cJSON *dispatch(struct mcp_server *s, const char *method,
		       const cJSON *params, struct rpc_error *e, struct take *t)
{
	char *q;

	if (!strcmp(method, "initialize"))
		return method_initialize(s, params, e);
	if (!strcmp(method, "ping"))
		return cJSON_CreateObject();
	if (!s->initialized)
		return rpc_fail(e, RPC_INVALID_REQUEST, "not initialized: the first "
				"request must be initialize"), NULL;
	if (!strcmp(method, "tools/list"))
		return cJSON_Duplicate(s->tools, 1);
	if (!strcmp(method, "tools/call"))
		return method_tools_call(s, params, e, t);
	q = quote_text(method);
	rpc_fail(e, RPC_METHOD_NOT_FOUND, "method not found: '%s'", q);
	free(q);
	return NULL;
}

/* ---- one message -------------------------------------------------------- */

static char *respond(const cJSON *id, cJSON *result, const struct rpc_error *e)
{
	cJSON *r = cJSON_CreateObject(), *err;
	char *text;

	cJSON_AddStringToObject(r, "jsonrpc", "2.0");
	cJSON_AddItemToObject(r, "id", id ? cJSON_Duplicate(id, 1) : cJSON_CreateNull());
	if (result) {
		cJSON_AddItemToObject(r, "result", result);
	} else {
		char *msg = text_clean(e->msg);

		err = cJSON_AddObjectToObject(r, "error");
		cJSON_AddNumberToObject(err, "code", e->code);
		cJSON_AddStringToObject(err, "message", msg);
		free(msg);
	}
	text = cJSON_PrintUnformatted(r);
	cJSON_Delete(r);
	return text;
}

/* 1 when s is valid UTF-8 (an id is echoed back as it came). */
static int utf8_valid(const char *s)
{
	unsigned line, col;
	const char *what;

	return text_check(s, strlen(s), &line, &col, &what) == 0;
}

/* A request id: a string or a finite number (MCP: never null). */
static int id_valid(const cJSON *id)
{
	if (!id)
		return 0;
	if (cJSON_IsString(id))
		return utf8_valid(id->valuestring);
	return cJSON_IsNumber(id) && isfinite(id->valuedouble);
}

/* The id of msg as JSON text (a new string), or NULL. */
static char *id_text(const cJSON *id)
{
	return id ? cJSON_PrintUnformatted(id) : NULL;
}

/* 1 when id names a call still in progress (mcp_ids_busy). */
static int id_busy(const struct mcp_server *s, const cJSON *id)
{
	char *text;
	int busy;

	if (!s->busy)
		return 0;
	text = id_text(id);
	busy = text && s->busy(s->busy_arg, text);
	free(text);
	return busy;
}

/* notifications/cancelled (basic/utilities/cancellation): the request
 * to stop, when its requestId is one a request could have had. */
static void note_cancel(const cJSON *params, struct take *t)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(params, "requestId");

	if (id_valid(id))
		t->cancel_id = id_text(id);
}

static char *handle(struct mcp_server *s, const cJSON *msg, struct take *t)
{
	const cJSON *id = cJSON_GetObjectItemCaseSensitive(msg, "id");
	const cJSON *method = cJSON_GetObjectItemCaseSensitive(msg, "method");
	const cJSON *params = cJSON_GetObjectItemCaseSensitive(msg, "params");
	const cJSON *version = cJSON_GetObjectItemCaseSensitive(msg, "jsonrpc");
	/* what a NULL result means when nothing said why (cJSON out of memory) */
	struct rpc_error e = { RPC_INTERNAL_ERROR, "internal error" };
	cJSON *result;

	if (!cJSON_IsObject(msg))
		return rpc_fail(&e, RPC_INVALID_REQUEST, cJSON_IsArray(msg) ?
				"batches are not supported: one message per line" :
				"a message is a JSON object"), respond(NULL, NULL, &e);
	if (!cJSON_IsString(version) || strcmp(version->valuestring, "2.0"))
		return rpc_fail(&e, RPC_INVALID_REQUEST, "'jsonrpc' must be \"2.0\""),
		       respond(id_valid(id) ? id : NULL, NULL, &e);
	if (!method) {
		/* a response to a request of ours: we send none, so drop it */
		if (id && (cJSON_GetObjectItemCaseSensitive(msg, "result") ||
			   cJSON_GetObjectItemCaseSensitive(msg, "error")))
			return NULL;
		return rpc_fail(&e, RPC_INVALID_REQUEST, "'method' is missing"),
		       respond(id_valid(id) ? id : NULL, NULL, &e);
	}
	if (!cJSON_IsString(method))
		return rpc_fail(&e, RPC_INVALID_REQUEST, "'method' expects a string"),
		       respond(id_valid(id) ? id : NULL, NULL, &e);
	if (!id) {	/* a notification: initialized, cancelled, ... */
		if (!strcmp(method->valuestring, "notifications/cancelled") &&
		    cJSON_IsObject(params))
			note_cancel(params, t);
		return NULL;
	}
	if (!id_valid(id))
		return rpc_fail(&e, RPC_INVALID_REQUEST, "'id' expects a string or a "
				"number"), respond(NULL, NULL, &e);
	if (id_busy(s, id)) {
		/* an id is never reused in a session (MCP basic): id null,
		 * since this id already names the call in progress */
		char *text = id_text(id), *q = quote_text(text);

		rpc_fail(&e, RPC_INVALID_REQUEST, "'id' %s is the id of a call in "
			 "progress", q);
		free(q);
		free(text);
		return respond(NULL, NULL, &e);
	}
	if (params && !cJSON_IsObject(params))
		return rpc_fail(&e, RPC_INVALID_PARAMS, "'params' expects an object"),
		       respond(id, NULL, &e);
	result = dispatch(s, method->valuestring, params, &e, t);
	if (t->deferred)
		return NULL;
	return respond(id, result, &e);
}

/* 1 when a string in msg (valid JSON) holds the escape \u0000: cJSON
 * (1.7.15, parse_string) ends the C string there, so that "slow\u0000junk"
 * would be read as "slow" and another directory audited than the one
 * asked for. */
static int holds_nul_escape(const char *msg, size_t len)
{
	const char *p = msg, *end = msg + len;
	int in_string = 0;

	for (; p < end; p++) {
		if (*p == '"')
			in_string = !in_string;
		else if (in_string && *p == '\\' && p + 1 < end) {
			if (p[1] == 'u' && end - p >= 6 && !memcmp(p + 2, "0000", 4))
				return 1;
			p++;	/* the escaped character: not a quote */
		}
	}
	return 0;
}

/* One message, as mcp_handle and mcp_take say. */
static char *take_message(struct mcp_server *s, const char *msg, size_t len,
			  struct take *t, char **call_id)
{
	const char *end = NULL;
	struct rpc_error e;
	cJSON *doc;
	char *out;

	doc = cJSON_ParseWithLengthOpts(msg, len, &end, 0);
	if (doc && end) {	/* only white space may follow the value */
		while (end < msg + len && strchr(" \t\r\n", *end) && *end)
			end++;
		if (end < msg + len) {
			cJSON_Delete(doc);
			doc = NULL;
		}
	}
	if (!doc) {
		rpc_fail(&e, RPC_PARSE_ERROR, "parse error: not one JSON value");
		return respond(NULL, NULL, &e);
	}
	/* a raw NUL byte is no JSON at all, but cJSON copies it into the
	 * string and ends the string there all the same */
	if (memchr(msg, '\0', len) || holds_nul_escape(msg, len)) {
		/* refused whole: any of its strings may be cut, a string id
		 * too (a number id is echoed; a notification gets no answer) */
		const cJSON *id = cJSON_GetObjectItemCaseSensitive(doc, "id");

		rpc_fail(&e, RPC_INVALID_REQUEST, "a string holds U+0000 (\\u0000 or a NUL byte), "
			 "which no path, probe name or id can hold");
		out = !cJSON_IsObject(doc) || id ?
			respond(cJSON_IsNumber(id) && isfinite(id->valuedouble) ?
				id : NULL, NULL, &e) : NULL;
		cJSON_Delete(doc);
		return out;
	}
	out = handle(s, doc, t);
	if (t->deferred)
		*call_id = id_text(cJSON_GetObjectItemCaseSensitive(doc, "id"));
	cJSON_Delete(doc);
	return out;
}

char *mcp_handle(struct mcp_server *s, const char *msg, size_t len)
{
	struct take t = { 0, 0, NULL, NULL };
	char *out = take_message(s, msg, len, &t, NULL);

	free(t.cancel_id);
	return out;
}

void mcp_take(struct mcp_server *s, const char *msg, size_t len,
	      struct mcp_taken *taken)
{
	struct take t = { 1, 0, NULL, NULL };

	memset(taken, 0, sizeof(*taken));
	taken->response = take_message(s, msg, len, &t, &taken->call_id);
	taken->cancel_id = t.cancel_id;
}

void mcp_taken_release(struct mcp_taken *t)
{
	free(t->response);
	free(t->call_id);
	free(t->cancel_id);
}

void mcp_notify_to(struct mcp_server *s, void (*fn)(void *arg, const char *line),
		   void *arg)
{
	s->notify = fn;
	s->notify_arg = arg;
}

void mcp_ids_busy(struct mcp_server *s, int (*fn)(void *arg, const char *id),
		  void *arg)
{
	s->busy = fn;
	s->busy_arg = arg;
}

char *mcp_error_line(const char *id_json, int code, const char *msg)
{
	struct rpc_error e;
	cJSON *id = id_json ? cJSON_Parse(id_json) : NULL;
	char *out;

	e.code = code;
	snprintf(e.msg, sizeof(e.msg), "%s", msg);
	out = respond(id, NULL, &e);
	cJSON_Delete(id);
	return out;
}

struct mcp_server *mcp_new(const struct mcp_config *cfg)
{
	struct mcp_server *s = xcalloc(1, sizeof(*s));

	s->cfg = cfg;
	s->version = protocol_versions[0];
	s->tools = tools_new();
	return s;
}

void mcp_free(struct mcp_server *s)
{
	if (!s)
		return;
	cJSON_Delete(s->tools);
	free(s);
}
