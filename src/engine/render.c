/* render.c - human, JSON, JUnit XML, GitHub annotations (and the job
 * summary) and TAP over one result list.  Every string that may come from the repository passes
 * through text_clean/buf_add_clean on its way out, whatever the format.
 */
#include "render.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char *const format_names[] = {
	[FORMAT_HUMAN] = "human", [FORMAT_JSON] = "json",
	[FORMAT_JUNIT] = "junit", [FORMAT_GITHUB] = "github",
	[FORMAT_TAP] = "tap", [FORMAT_TAP13] = "tap13",
};

const char *format_names_text(void)
{
	/* the table above in words (test_main checks that it agrees) */
	return "human, json, junit, github, tap or tap13";
}

int format_parse(const char *s, enum format *out)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(format_names); i++) {
		if (!strcmp(s, format_names[i])) {
			*out = (enum format)i;
			return 0;
		}
	}
	return -1;
}

const char *format_name(enum format f)
{
	return (unsigned)f < ARRAY_SIZE(format_names) ? format_names[f] : "human";
}

const char *root_from_name(enum root_from f)
{
	switch (f) {
	case ROOT_FROM_ARGUMENT:
		return "argument";
	case ROOT_FROM_GIT:
		return "git";
	case ROOT_FROM_CWD:
		break;
	}
	return "cwd";
}

/* What the paths of an annotation are relative to: DIR as given, so that
 * they are right from where the command ran; below a top found from .git,
 * the top itself, the repository root that GitHub resolves an
 * annotation's file against (not "../../compose.yaml"). */
static const char *annotation_dir(const struct report *rep)
{
	return rep->root_from == ROOT_FROM_GIT ? "." : rep->display_dir;
}

struct summary {
	size_t total, count[STATUS_COUNT];
};

static void report_summarize(const struct report *rep, struct summary *s)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->total = rep->n;
	for (i = 0; i < rep->n; i++)
		s->count[rep->results[i].status]++;
}

int report_failed(const struct report *rep)
{
	struct summary s;

	report_summarize(rep, &s);
	return s.count[STATUS_FAIL] || s.count[STATUS_ERROR] ||
	       (rep->strict && s.count[STATUS_WARN]);
}

const char *report_outcome(const struct report *rep)
{
	if (rep->error)
		return "not-run";
	if (!rep->n)
		return "nothing-to-check";
	return report_failed(rep) ? "failed" : "passed";
}

/* -------- human -------- */

struct style {
	const char *sym, *color;
};

static struct style style_of(enum status st, const struct render_opts *o)
{
	static const struct style utf8[STATUS_COUNT] = {
		[STATUS_PASS] = { "\u2714", "\033[32m" },	/* ✔ green */
		[STATUS_WARN] = { "\u26a0", "\033[33m" },	/* ⚠ yellow */
		[STATUS_FAIL] = { "\u2716", "\033[31m" },	/* ✖ red */
		[STATUS_SKIP] = { "\u25cb", "\033[2m" },	/* ○ dim */
		[STATUS_ERROR] = { "\u203c", "\033[35m" },	/* ‼ magenta */
	};
	static const struct style ascii[STATUS_COUNT] = {
		[STATUS_PASS] = { "[ok]", "\033[32m" },
		[STATUS_WARN] = { "[warn]", "\033[33m" },
		[STATUS_FAIL] = { "[FAIL]", "\033[31m" },
		[STATUS_SKIP] = { "[skip]", "\033[2m" },
		[STATUS_ERROR] = { "[ERROR]", "\033[35m" },
	};

	return o->utf8 ? utf8[st] : ascii[st];
}

static void put_clean(FILE *out, const char *s)
{
	char *c = text_clean(s ? s : "");

	fputs(c, out);
	free(c);
}

static void put_ms(FILE *out, double ms)
{
	if (ms < 10)
		fprintf(out, "%.1f ms", ms);
	else
		fprintf(out, "%.0f ms", ms);
}

/* "MESSAGE (also in N other workspaces)", a new string. */
static char *xvformat_n(const char *message, size_t others)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s (also in %zu other workspace%s)", message ? message : "",
		   others, others == 1 ? "" : "s");
	return buf_detach(&b);
}

static void human_line(FILE *out, const struct result *r, const struct render_opts *o)
{
	struct style st = style_of(r->status, o);
	size_t i;

	fprintf(out, "%s%s%s ", o->color ? st.color : "", st.sym, o->color ? "\033[0m" : "");
	put_clean(out, r->title);
	fputs(": ", out);
	put_clean(out, r->message);
	fputc('\n', out);
	if (r->hint) {
		fputs("  hint: ", out);
		put_clean(out, r->hint);
		fputc('\n', out);
	}
	if (!o->explain)
		return;
	if (r->source.file) {
		fputs("  from: ", out);
		put_clean(out, r->source.file);
		if (r->source.line)
			fprintf(out, ":%u", r->source.line);
		if (r->source.line && r->source.col)
			fprintf(out, ":%u", r->source.col);
		fputc('\n', out);
	}
	for (i = 0; i < r->nnotes; i++) {
		fputs("  note: ", out);
		put_clean(out, r->notes[i]);
		fputc('\n', out);
	}
}

static void human_summary(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct summary s;
	int failed = report_failed(rep);
	struct style st;
	size_t bad;

	report_summarize(rep, &s);
	st = style_of(failed ? STATUS_FAIL : STATUS_PASS, o);
	fprintf(out, "%s%s%s ", o->color ? st.color : "", st.sym, o->color ? "\033[0m" : "");
	bad = s.count[STATUS_FAIL];
	if (!s.total) {
		fputs("nothing to check", out);
	} else if (bad || s.count[STATUS_ERROR] || failed) {
		const char *sep = "";

		fprintf(out, "%zu of %zu check%s ", bad ? bad : s.count[STATUS_ERROR] ?
			s.count[STATUS_ERROR] : s.count[STATUS_WARN], s.total,
			s.total == 1 ? "" : "s");
		fputs(bad ? "failed" : s.count[STATUS_ERROR] ? "could not run" :
		      "warned (strict mode)", out);
		sep = ", ";
		if (bad && s.count[STATUS_ERROR])
			fprintf(out, "%s%zu could not run", sep, s.count[STATUS_ERROR]);
		if ((bad || s.count[STATUS_ERROR]) && s.count[STATUS_WARN])
			fprintf(out, "%s%zu warning%s", sep, s.count[STATUS_WARN],
				/* cppcheck-suppress knownConditionTrueFalse ; any count */
				s.count[STATUS_WARN] == 1 ? "" : "s");
		if (s.count[STATUS_SKIP])
			fprintf(out, "%s%zu skipped", sep, s.count[STATUS_SKIP]);
	} else if (s.count[STATUS_PASS] == s.total) {
		fprintf(out, "all %zu check%s ok", s.total, s.total == 1 ? "" : "s");
	} else {
		fprintf(out, "no check failed: %zu ok", s.count[STATUS_PASS]);
		if (s.count[STATUS_WARN])
			fprintf(out, ", %zu warning%s", s.count[STATUS_WARN],
				s.count[STATUS_WARN] == 1 ? "" : "s");
		if (s.count[STATUS_SKIP])
			fprintf(out, ", %zu skipped", s.count[STATUS_SKIP]);
	}
	fputs(" (", out);
	put_ms(out, rep->duration_ms);
	fputs(")\n", out);
}

/* ---- workspaces: a heading per workspace, identical lines folded ----
 *
 * The repository's checks come first, then each workspace's under a
 * heading line ("── apps/web").  Results of two workspaces are identical
 * when their id after the "WORKSPACE:" prefix, status, title, message
 * and hint are the same once every "WORKSPACE/" is taken out of them
 * ("apps/web/.env parity" and "apps/docs/.env parity" are the same
 * title): such a result is printed once, in the first workspace's group,
 * with "(also in N other workspaces)", and the later groups say how many
 * of theirs were folded away.  The repository's own results never fold;
 * JSON, JUnit and the annotations never fold. */

/* s with every "ws/" taken out (a new string). */
static char *unprefixed(const char *s, const char *ws)
{
	struct buf b = BUF_INIT;
	size_t n = strlen(ws);
	const char *p;

	if (!s)
		return NULL;
	for (p = s; *p;) {
		if (!strncmp(p, ws, n) && p[n] == '/') {
			p += n + 1;
			continue;
		}
		buf_putc(&b, *p++);
	}
	return b.s ? buf_detach(&b) : xstrdup("");
}

struct fold_key {
	char *id, *title, *message, *hint;
};

static void fold_key_make(struct fold_key *k, const struct result *r)
{
	const char *ws = r->workspace;

	k->id = xstrdup(r->id + strlen(ws) + 1);
	k->title = unprefixed(r->title, ws);
	k->message = unprefixed(r->message, ws);
	k->hint = unprefixed(r->hint, ws);
}

static void fold_key_release(struct fold_key *k)
{
	free(k->id);
	free(k->title);
	free(k->message);
	free(k->hint);
}

static int str_eq(const char *a, const char *b)
{
	return (!a && !b) || (a && b && !strcmp(a, b));
}

static int fold_key_eq(const struct fold_key *a, const struct fold_key *b)
{
	return !strcmp(a->id, b->id) && !strcmp(a->title, b->title) &&
	       !strcmp(a->message, b->message) && str_eq(a->hint, b->hint);
}

/* into[i]: the first result that result i folds into (i itself when it
 * is printed); count[i]: how many fold into a printed one, itself
 * included.  Results of no workspace fold into nothing. */
static void fold_compute(const struct report *rep, size_t *into, size_t *count)
{
	struct fold_key *k = xcalloc(rep->n ? rep->n : 1, sizeof(*k));
	size_t i, j;

	for (i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];

		into[i] = i;
		count[i] = 1;
		if (!r->workspace)
			continue;
		fold_key_make(&k[i], r);
		for (j = 0; j < i; j++) {
			const struct result *q = &rep->results[j];

			if (!q->workspace || into[j] != j ||
			    q->status != r->status || !strcmp(q->workspace, r->workspace) ||
			    !fold_key_eq(&k[j], &k[i]))
				continue;
			into[i] = j;
			count[j]++;
			break;
		}
	}
	for (i = 0; i < rep->n; i++)
		if (rep->results[i].workspace)
			fold_key_release(&k[i]);
	free(k);
}

static int shown(const struct report *rep, const struct result *r,
		 const struct render_opts *o)
{
	return !o->quiet || r->status == STATUS_FAIL || r->status == STATUS_ERROR ||
	       (rep->strict && r->status == STATUS_WARN);
}

/* "── apps/web" and, when some of its results were folded into lines
 * above, how many. */
static void human_heading(FILE *out, const char *ws, size_t folded,
			  const struct render_opts *o)
{
	fputs(o->utf8 ? "── " : "-- ", out);
	put_clean(out, ws);
	if (folded)
		fprintf(out, " (%zu check%s the same as above)", folded,
			folded == 1 ? "" : "s");
	fputc('\n', out);
}

/* The workspaces that result i stands for (--explain). */
static void fold_note(FILE *out, const struct report *rep, const size_t *into,
		      size_t i)
{
	size_t j, listed = 0, more = 0;

	fputs("  note: the same in ", out);
	for (j = i + 1; j < rep->n; j++) {
		if (into[j] != i || j == i)
			continue;
		if (listed == 10) {
			more++;
			continue;
		}
		fputs(listed++ ? ", " : "", out);
		put_clean(out, rep->results[j].workspace);
	}
	if (more)
		fprintf(out, " and %zu more", more);
	fputc('\n', out);
}

static void render_grouped(FILE *out, const struct report *rep,
			   const struct render_opts *o)
{
	size_t *into = xcalloc(rep->n, sizeof(*into));
	size_t *count = xcalloc(rep->n, sizeof(*count));
	size_t i, j;

	fold_compute(rep, into, count);
	for (i = 0; i < rep->n; i = j) {
		const char *ws = rep->results[i].workspace;
		size_t folded = 0, visible = 0;

		/* one group: the run of results of the same workspace */
		for (j = i; j < rep->n && str_eq(rep->results[j].workspace, ws); j++) {
			if (!shown(rep, &rep->results[j], o))
				continue;
			if (into[j] != j)
				folded++;
			else
				visible++;
		}
		if (ws && (visible || folded))
			human_heading(out, ws, folded, o);
		for (j = i; j < rep->n && str_eq(rep->results[j].workspace, ws); j++) {
			const struct result *r = &rep->results[j];
			struct result copy;
			char *msg = NULL;

			if (!shown(rep, r, o) || into[j] != j)
				continue;
			if (count[j] == 1) {
				human_line(out, r, o);
				continue;
			}
			/* the message says how many workspaces it stands for */
			copy = *r;
			msg = xvformat_n(r->message, count[j] - 1);
			copy.message = msg;
			human_line(out, &copy, o);
			free(msg);
			if (o->explain)
				fold_note(out, rep, into, j);
		}
	}
	free(into);
	free(count);
}

/* --wait ran out: what never became ready, just above the summary line
 * (--quiet too: it says why the run failed). */
static void human_wait(FILE *out, const struct report *rep)
{
	const struct report_wait *w = rep->wait;
	size_t i;

	if (!w || !w->timed_out || !w->nnot_ready)
		return;
	fprintf(out, "never ready within --wait (%u round%s): ", w->rounds,
		w->rounds == 1 ? "" : "s");
	for (i = 0; i < w->nnot_ready; i++) {
		fputs(i ? ", " : "", out);
		put_clean(out, w->not_ready[i]);
	}
	fputc('\n', out);
}

/* The directory audited, on the first line: with --explain always, in
 * full and how it was chosen; else only when it is a top found above the
 * current directory, which the user did not name ("auditing ../.. (the
 * top of this git work tree)"), and not under --quiet. */
static void human_root(FILE *out, const struct report *rep, const struct render_opts *o)
{
	static const char *const how[] = {
		[ROOT_FROM_CWD] = "the current directory (no .git found above it)",
		[ROOT_FROM_ARGUMENT] = "the directory given",
		[ROOT_FROM_GIT] = ("the top of the git work tree holding the "
				   "current directory"),
	};
	int found_above = rep->root_from == ROOT_FROM_GIT &&
			  strcmp(rep->display_dir, ".");

	if (o->explain) {
		fputs("auditing ", out);
		put_clean(out, rep->display_dir);
		if (rep->root && strcmp(rep->root, rep->display_dir)) {
			fputs(" (", out);
			put_clean(out, rep->root);
			fputc(')', out);
		}
		fprintf(out, ": %s\n", how[rep->root_from]);
		if (rep->root_note) {
			fputs("  note: ", out);
			put_clean(out, rep->root_note);
			fputc('\n', out);
		}
	} else if (found_above && !o->quiet) {
		fputs("auditing ", out);
		put_clean(out, rep->display_dir);
		fputs(" (the top of this git work tree)\n", out);
	}
}

void render_human(FILE *out, const struct report *rep, const struct render_opts *o)
{
	size_t i;
	int grouped = 0;

	human_root(out, rep, o);
	for (i = 0; i < rep->n && !grouped; i++)
		grouped = rep->results[i].workspace != NULL;
	if (grouped) {
		render_grouped(out, rep, o);
	} else {
		for (i = 0; i < rep->n; i++)
			if (shown(rep, &rep->results[i], o))
				human_line(out, &rep->results[i], o);
	}
	human_wait(out, rep);
	human_summary(out, rep, o);
}

/* -------- JSON -------- */

/* Replace the cJSON-owned string *sp by its cleaned form. */
static void clean_in_place(char **sp)
{
	char *s = text_clean(*sp);

	if (strcmp(s, *sp)) {
		free(*sp);
		*sp = s;
	} else {
		free(s);
	}
}

/* Replace every string in a cJSON tree by its cleaned form. */
static void json_clean(cJSON *j)
{
	cJSON *c;

	if (!j)
		return;
	if (cJSON_IsString(j) && j->valuestring)
		clean_in_place(&j->valuestring);
	for (c = j->child; c; c = c->next) {
		if (c->string && !(c->type & cJSON_StringIsConst))
			clean_in_place(&c->string);
		json_clean(c);
	}
}

static cJSON *json_str(const char *s)
{
	char *c;
	cJSON *j;

	if (!s)
		return cJSON_CreateNull();
	c = text_clean(s);
	j = cJSON_CreateString(c);
	free(c);
	return j;
}

static double round3(double ms)
{
	return round(ms * 1000) / 1000;
}

/* {"who", "argv", "cwd", "writes", "writes_git", "needs", "edit"}: every
 * key, null where it does not apply (writes: [] without argv); writes are
 * repository-relative, as edit's file, and writes_git says of each what
 * git makes of it (null: unknown).  The words were checked by
 * result_fix_argv already. */
static cJSON *json_fix(const struct fix *f)
{
	static const char *const fix_git_names[] = {
		[FIX_GIT_TRACKED] = "tracked", [FIX_GIT_UNTRACKED] = "untracked",
		[FIX_GIT_IGNORED] = "ignored",
	};
	static const struct { unsigned bit; const char *name; } needs[] = {
		{ FIX_NEEDS_NETWORK, "network" }, { FIX_NEEDS_DOCKER, "docker" },
		{ FIX_NEEDS_SHELL, "shell" },
	};
	cJSON *o, *arr;
	size_t i;

	if (!f)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "who", f->who == FIX_AGENT ? "agent" : "human");
	if (f->argv) {
		arr = cJSON_AddArrayToObject(o, "argv");
		for (i = 0; f->argv[i]; i++)
			cJSON_AddItemToArray(arr, json_str(f->argv[i]));
		cJSON_AddItemToObject(o, "cwd", json_str(f->cwd ? f->cwd : "."));
	} else {
		cJSON_AddNullToObject(o, "argv");
		cJSON_AddNullToObject(o, "cwd");
	}
	arr = cJSON_AddArrayToObject(o, "writes");
	for (i = 0; i < f->nwrites; i++) {
		char *j = f->cwd ? path_join(f->cwd, f->writes[i].path) :
			  xstrdup(f->writes[i].path);
		char *w = path_lexical(j);	/* mise use's "../mise.toml" */

		free(j);

		cJSON_AddItemToArray(arr, json_str(w));
		free(w);
	}
	arr = cJSON_AddArrayToObject(o, "writes_git");
	for (i = 0; i < f->nwrites; i++)
		cJSON_AddItemToArray(arr, f->writes[i].git == FIX_GIT_UNKNOWN ?
				     cJSON_CreateNull() :
				     cJSON_CreateString(fix_git_names[f->writes[i].git]));
	arr = cJSON_AddArrayToObject(o, "needs");
	for (i = 0; i < ARRAY_SIZE(needs); i++)
		if (f->needs & needs[i].bit)
			cJSON_AddItemToArray(arr, cJSON_CreateString(needs[i].name));
	if (f->edit.file) {
		cJSON *e = cJSON_AddObjectToObject(o, "edit");

		cJSON_AddItemToObject(e, "file", json_str(f->edit.file));
		if (f->edit.line)
			cJSON_AddNumberToObject(e, "line", f->edit.line);
		else
			cJSON_AddNullToObject(e, "line");
	} else {
		cJSON_AddNullToObject(o, "edit");
	}
	return o;
}

static cJSON *json_check(const struct result *r)
{
	cJSON *c = cJSON_CreateObject(), *notes, *data;
	size_t i;

	cJSON_AddItemToObject(c, "id", json_str(r->id));
	cJSON_AddItemToObject(c, "workspace", json_str(r->workspace));
	cJSON_AddItemToObject(c, "probe", json_str(r->probe));
	cJSON_AddStringToObject(c, "status", status_name(r->status));
	cJSON_AddItemToObject(c, "reason", json_str(reason_name(r->reason)));
	cJSON_AddItemToObject(c, "title", json_str(r->title));
	cJSON_AddItemToObject(c, "message", json_str(r->message));
	if (r->source.file) {
		cJSON *src = cJSON_CreateObject();

		cJSON_AddItemToObject(src, "file", json_str(r->source.file));
		if (r->source.line)
			cJSON_AddNumberToObject(src, "line", r->source.line);
		if (r->source.col)
			cJSON_AddNumberToObject(src, "column", r->source.col);
		cJSON_AddItemToObject(c, "source", src);
	} else {
		cJSON_AddNullToObject(c, "source");
	}
	cJSON_AddItemToObject(c, "hint", json_str(r->hint));
	cJSON_AddItemToObject(c, "fix", json_fix(r->fix));
	cJSON_AddItemToObject(c, "no_fix", json_str(result_no_fix(r)));
	notes = cJSON_AddArrayToObject(c, "notes");
	for (i = 0; i < r->nnotes; i++)
		cJSON_AddItemToArray(notes, json_str(r->notes[i]));
	cJSON_AddNumberToObject(c, "duration_ms", round3(r->duration_ms));
	cJSON_AddNumberToObject(c, "attempts", r->attempts);
	if (r->data) {
		data = cJSON_Duplicate(r->data, 1);
		json_clean(data);
		cJSON_AddItemToObject(c, "data", data);
	} else {
		cJSON_AddNullToObject(c, "data");
	}
	return c;
}

/* {"rounds", "waited_ms", "timed_out", "ready": [{"id", "after_ms"}],
 * "not_ready": [id]}, or null without --wait */
static cJSON *json_wait(const struct report_wait *w)
{
	cJSON *o, *arr;
	size_t i;

	if (!w)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "rounds", w->rounds);
	cJSON_AddNumberToObject(o, "waited_ms", round3(w->waited_ms));
	cJSON_AddBoolToObject(o, "timed_out", w->timed_out);
	arr = cJSON_AddArrayToObject(o, "ready");
	for (i = 0; i < w->nready; i++) {
		cJSON *r = cJSON_CreateObject();

		cJSON_AddItemToObject(r, "id", json_str(w->ready[i].id));
		cJSON_AddNumberToObject(r, "after_ms", round3(w->ready[i].after_ms));
		cJSON_AddItemToArray(arr, r);
	}
	arr = cJSON_AddArrayToObject(o, "not_ready");
	for (i = 0; i < w->nnot_ready; i++)
		cJSON_AddItemToArray(arr, json_str(w->not_ready[i]));
	return o;
}

static cJSON *json_error(const struct report_error *e)
{
	cJSON *o;

	if (!e)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "kind", e->kind);
	cJSON_AddItemToObject(o, "file", json_str(e->file));
	if (e->file && e->line)
		cJSON_AddNumberToObject(o, "line", e->line);
	else
		cJSON_AddNullToObject(o, "line");
	if (e->file && e->line && e->col)
		cJSON_AddNumberToObject(o, "column", e->col);
	else
		cJSON_AddNullToObject(o, "column");
	cJSON_AddItemToObject(o, "message", json_str(e->message));
	return o;
}

/* cJSON indents with tabs and writes "key":\tvalue; re-indent with two
 * spaces.  Safe because cJSON escapes every tab inside a string. */
static void json_put_indented(FILE *out, const char *s)
{
	int bol = 1;

	for (; *s; s++) {
		if (*s == '\t')
			fputs(bol ? "  " : " ", out);
		else
			fputc(*s, out), bol = *s == '\n';
	}
	fputc('\n', out);
}

cJSON *report_json(const struct report *rep)
{
	cJSON *doc = cJSON_CreateObject(), *sum, *checks;
	struct summary s;
	size_t i;

	report_summarize(rep, &s);
	cJSON_AddStringToObject(doc, "schema", "envpreflight/1");
	/* null: the audit did not run, so it neither passed nor failed */
	if (rep->error)
		cJSON_AddNullToObject(doc, "ok");
	else
		cJSON_AddBoolToObject(doc, "ok", !report_failed(rep));
	cJSON_AddStringToObject(doc, "outcome", report_outcome(rep));
	cJSON_AddItemToObject(doc, "root", json_str(rep->root));
	cJSON_AddStringToObject(doc, "root_from", root_from_name(rep->root_from));
	cJSON_AddNumberToObject(doc, "duration_ms", round3(rep->duration_ms));
	sum = cJSON_AddObjectToObject(doc, "summary");
	cJSON_AddNumberToObject(sum, "total", (double)s.total);
	for (i = 0; i < STATUS_COUNT; i++)
		cJSON_AddNumberToObject(sum, status_name((enum status)i),
					(double)s.count[i]);
	cJSON_AddItemToObject(doc, "wait", json_wait(rep->wait));
	checks = cJSON_AddArrayToObject(doc, "checks");
	for (i = 0; i < rep->n; i++)
		cJSON_AddItemToArray(checks, json_check(&rep->results[i]));
	cJSON_AddItemToObject(doc, "error", json_error(rep->error));
	if (rep->run) {
		cJSON *run = cJSON_Duplicate(rep->run, 1);

		json_clean(run);
		cJSON_AddItemToObject(doc, "run", run);
	} else {
		cJSON_AddNullToObject(doc, "run");
	}
	return doc;
}

void render_json(FILE *out, const struct report *rep, const struct render_opts *o)
{
	cJSON *doc = report_json(rep);

	render_json_value(out, doc);
	cJSON_Delete(doc);
}

void render_json_value(FILE *out, const cJSON *doc)
{
	char *text = cJSON_Print(doc);

	json_put_indented(out, text);
	free(text);
}

/* -------- --wait's progress line -------- */

/* Short enough not to wrap on an 80-column terminal, which would defeat
 * the carriage return. */
#define PROGRESS_MAX 76

/* The title of c as the progress line names it: "Port 5432" reads "port
 * 5432" in a sentence ("TCP" stays), and the source in parentheses that a
 * runtime's title ends with ("Docker daemon (preflight.yaml)") goes, so
 * that the time is the line's only parenthesis.  The caller frees it. */
static char *progress_title(const struct result *c)
{
	char *t = text_clean(c->title ? c->title : c->id);
	size_t len = strlen(t);
	char *open = strrchr(t, '(');

	if (len > 1 && t[len - 1] == ')' && open && open > t + 1 && open[-1] == ' ')
		open[-1] = '\0';
	if (t[0] >= 'A' && t[0] <= 'Z' && t[1] >= 'a' && t[1] <= 'z')
		t[0] = (char)(t[0] - 'A' + 'a');
	return t;
}

char *render_progress_text(const struct result *pending, size_t n,
			   double elapsed_ms)
{
	struct buf b = BUF_INIT;
	char *title = progress_title(pending);

	buf_printf(&b, "waiting for %s", title);
	free(title);
	if (n > 1)
		buf_printf(&b, " and %zu more", n - 1);
	buf_printf(&b, " (%.1f s)", elapsed_ms / 1000);
	return buf_detach(&b);
}

void render_progress(FILE *out, const struct result *pending, size_t n,
		     double elapsed_ms, size_t *width)
{
	char *text = pending ? render_progress_text(pending, n, elapsed_ms) :
		     xstrdup("");
	size_t len = strlen(text), i;

	if (len > PROGRESS_MAX) {
		len = PROGRESS_MAX;
		while (len && ((unsigned char)text[len] & 0xc0) == 0x80)
			len--;	/* not in the middle of a character */
	}
	fputc('\r', out);
	fwrite(text, 1, len, out);
	for (i = len; i < *width; i++)
		fputc(' ', out);
	if (!pending)
		fputc('\r', out);
	*width = pending ? len : 0;
	fflush(out);
	free(text);
}

/* -------- JUnit XML -------- */

static void xml_put(FILE *out, const char *s)
{
	char *c = text_clean(s ? s : "");
	const char *p;

	for (p = c; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default: fputc(*p, out);
		}
	}
	free(c);
}

static void junit_body(FILE *out, const struct result *r)
{
	xml_put(out, r->message);
	if (r->hint) {
		fputs("\nhint: ", out);
		xml_put(out, r->hint);
	}
	if (r->source.file) {
		fputs("\nsource: ", out);
		xml_put(out, r->source.file);
		if (r->source.line)
			fprintf(out, ":%u", r->source.line);
	}
}

static void junit_case(FILE *out, const struct result *r, int strict)
{
	fputs("    <testcase classname=\"envpreflight.", out);
	xml_put(out, r->probe);
	fputs("\" name=\"", out);
	xml_put(out, r->id);
	fputs(": ", out);
	xml_put(out, r->title);
	fprintf(out, "\" time=\"%.3f\">\n", r->duration_ms / 1000);
	switch (r->status) {
	case STATUS_PASS:
		break;
	case STATUS_WARN:
		if (strict) {
			fputs("      <failure type=\"warn\" message=\"", out);
			xml_put(out, r->message);
			fputs("\">", out);
			junit_body(out, r);
			fputs("</failure>\n", out);
		} else {
			fputs("      <system-out>warning: ", out);
			junit_body(out, r);
			fputs("</system-out>\n", out);
		}
		break;
	case STATUS_FAIL:
	case STATUS_ERROR:
		fprintf(out, "      <%s type=\"%s\" message=\"",
			r->status == STATUS_FAIL ? "failure" : "error", status_name(r->status));
		xml_put(out, r->message);
		fputs("\">", out);
		junit_body(out, r);
		fprintf(out, "</%s>\n", r->status == STATUS_FAIL ? "failure" : "error");
		break;
	case STATUS_SKIP:
		fputs("      <skipped message=\"", out);
		xml_put(out, r->message);
		fputs("\"/>\n", out);
		break;
	}
	fputs("    </testcase>\n", out);
}

/* file:line:col: message, as the error was printed on stderr */
static void error_text(FILE *out, const struct report_error *e,
		       void (*put)(FILE *, const char *))
{
	if (e->file) {
		put(out, e->file);
		if (e->line)
			fprintf(out, ":%u", e->line);
		if (e->line && e->col)
			fprintf(out, ":%u", e->col);
		fputs(": ", out);
	}
	put(out, e->message);
}

static void junit_error(FILE *out, const struct report_error *e)
{
	fputs("    <testcase classname=\"envpreflight\" name=\"audit\" time=\"0\">\n"
	      "      <error type=\"", out);
	xml_put(out, e->kind);
	fputs("\" message=\"", out);
	error_text(out, e, xml_put);
	fputs("\">", out);
	error_text(out, e, xml_put);
	fputs("</error>\n    </testcase>\n", out);
}

/*
 * The shape is the one the Jenkins xUnit plugin validates every report
 * against before it reads it, skipping a file that fails (junit-10.xsd,
 * jenkinsci/xunit-plugin, as released in 3.1.6): a time on <testsuites>
 * and <testsuite> has at most three decimals (its SUREFIRE_TIME), and
 * <testsuites> takes no skipped attribute (<testsuite> does).  Readers
 * that count for themselves (GitLab, the Jenkins junit step, xunit-viewer)
 * go by each <testcase>'s <failure>, <error> or <skipped>, which agree
 * with the counts here.
 */
void render_junit(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct summary s;
	size_t i, failures;
	char counts[200];

	report_summarize(rep, &s);
	failures = s.count[STATUS_FAIL] + (rep->strict ? s.count[STATUS_WARN] : 0);
	/* an audit that could not run is one errored test case */
	snprintf(counts, sizeof(counts),
		 "tests=\"%zu\" failures=\"%zu\" errors=\"%zu\"",
		 s.total + !!rep->error, failures, s.count[STATUS_ERROR] + !!rep->error);
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"envpreflight\" %s time=\"%.3f\">\n", counts,
		rep->duration_ms / 1000);
	fprintf(out, "  <testsuite name=\"envpreflight\" %s skipped=\"%zu\" time=\"%.3f\">\n",
		counts, s.count[STATUS_SKIP], rep->duration_ms / 1000);
	fputs("    <properties>\n      <property name=\"root\" value=\"", out);
	xml_put(out, rep->root ? rep->root : "");
	fprintf(out, "\"/>\n      <property name=\"root_from\" value=\"%s\"/>\n"
		"    </properties>\n", root_from_name(rep->root_from));
	for (i = 0; i < rep->n; i++)
		junit_case(out, &rep->results[i], rep->strict);
	if (rep->error)
		junit_error(out, rep->error);
	fputs("  </testsuite>\n</testsuites>\n", out);
}

/* -------- GitHub workflow commands -------- */

/*
 * What the GitHub Actions runner takes for a workflow command, from its
 * source (actions/runner, src/Runner.Worker/Handlers/OutputManager.cs,
 * src/Runner.Worker/ActionCommandManager.cs, src/Runner.Common/
 * ActionCommand.cs, read at 258d6c8):
 *
 *  - a line is what StreamReader.ReadLine() ends at: LF, CR or CR LF, on
 *    standard output and standard error alike (one OutputManager each,
 *    one ActionCommandManager for the step);
 *  - every line holding "##[" or "::" goes to TryProcessCommand, which
 *    tries TryParseV2 and then the legacy TryParse;
 *  - TryParseV2: the line after String.TrimStart() (every char.IsWhiteSpace)
 *    must start with "::"; the command name runs from there to a space or
 *    the next "::";
 *  - TryParse (legacy): the first "##[" anywhere in the line; the command
 *    name runs from just after it to a space or ']';
 *  - either way the name must be a registered command (error, warning,
 *    set-output, add-mask, stop-commands, ...), compared ignoring case;
 *  - after ::stop-commands::TOKEN every line is still parsed both ways, and
 *    only the command TOKEN resumes: stop-commands silences both syntaxes.
 *
 * The annotations below are V2 commands whose properties escape ':' and
 * ',' and whose data escapes '%', CR and LF, so the repository's text can
 * neither end a field nor a line; a line that TryParseV2 takes is never
 * given to the legacy parser.  The human report after them and the error
 * message on standard error carry the repository's text too (an engines
 * range, a compose ${VAR:?message}, a key or a directory name), on lines
 * the runner reads: those lines are defused (gh_defuse), each on its own,
 * so that no line but our annotations is a command in either syntax.
 * That is chosen over wrapping the text in ::stop-commands::TOKEN and
 * ::TOKEN:: because it keeps the output the same from run to run, holds
 * for standard output and standard error read by two threads (a stop on
 * one stream does not order the other's lines), and leaves nothing
 * stopped when the report is cut short (| head, a kill), which would
 * swallow every later command of the step.
 */

/* Bytes of the character at s that String.TrimStart() takes away
 * (char.IsWhiteSpace: TAB to CR, space, U+0085, U+00A0, U+1680,
 * U+2000..U+200A, U+2028, U+2029, U+202F, U+205F, U+3000), and, to be
 * safe, the invisible U+180E, U+200B..U+200D, U+2060 and U+FEFF; 0 for
 * any other.  s is NUL-terminated: no byte past a NUL is read. */
static size_t gh_blank(const unsigned char *s)
{
	if (*s == ' ' || (*s >= '\t' && *s <= '\r'))
		return 1;
	if (s[0] == 0xc2)
		return s[1] == 0x85 || s[1] == 0xa0 ? 2 : 0;
	if (s[0] == 0xe1 && s[1] == 0x9a)
		return s[2] == 0x80 ? 3 : 0;
	if (s[0] == 0xe1 && s[1] == 0xa0)
		return s[2] == 0x8e ? 3 : 0;
	if (s[0] == 0xe2 && s[1] == 0x80)
		return (s[2] >= 0x80 && s[2] <= 0x8d) || s[2] == 0xa8 ||
		       s[2] == 0xa9 || s[2] == 0xaf ? 3 : 0;
	if (s[0] == 0xe2 && s[1] == 0x81)
		return s[2] == 0x9f || s[2] == 0xa0 ? 3 : 0;
	if (s[0] == 0xe3 && s[1] == 0x80)
		return s[2] == 0x80 ? 3 : 0;
	if (s[0] == 0xef && s[1] == 0xbb)
		return s[2] == 0xbf ? 3 : 0;
	return 0;
}

/* One line (no line break in its n bytes, NUL after them or more text)
 * added to b so that the runner reads no command in it: a backslash
 * before a "::" that starts it after blanks, and after every "##[" (the
 * runner's own defence against a forged ##[start-action is the same
 * backslash).  A command name starting with '\' is no registered command. */
static void gh_defuse(struct buf *b, const char *line, size_t n)
{
	const unsigned char *s = (const unsigned char *)line;
	size_t i = 0, k;

	while (i < n && (k = gh_blank(s + i)) && i + k <= n)
		i += k;
	buf_add(b, line, i);
	if (i + 1 < n && line[i] == ':' && line[i + 1] == ':')
		buf_putc(b, '\\');
	for (; i < n; i++) {
		buf_putc(b, line[i]);
		if (line[i] == '[' && i >= 2 && line[i - 1] == '#' && line[i - 2] == '#')
			buf_putc(b, '\\');
	}
}

void render_github_text(FILE *out, const char *text)
{
	struct buf b = BUF_INIT;
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\r\n");

		gh_defuse(&b, p, n);
		p += n;
		if (*p)
			buf_putc(&b, *p++);
	}
	fputs(buf_str(&b), out);
	buf_release(&b);
}

/* Escape per the workflow-command rules: data escapes % CR LF; property
 * values also escape ':' and ','. */
static void gh_put(FILE *out, const char *s, int property)
{
	char *c = text_clean(s ? s : "");
	const char *p;

	for (p = c; *p; p++) {
		if (*p == '%')
			fputs("%25", out);
		else if (*p == '\r')
			fputs("%0D", out);
		else if (*p == '\n')
			fputs("%0A", out);
		else if (property && *p == ':')
			fputs("%3A", out);
		else if (property && *p == ',')
			fputs("%2C", out);
		else
			fputc(*p, out);
	}
	free(c);
}

static void gh_put_data(FILE *out, const char *s)
{
	gh_put(out, s, 0);
}

/* The audit could not run: one ::error, where the file is at fault. */
static void github_error(FILE *out, const struct report *rep)
{
	const struct report_error *e = rep->error;

	fputs("::error ", out);
	if (e->file) {
		/* a spec file is named from DIR, as the other annotations are */
		const char *dir = annotation_dir(rep);
		char *path = e->file[0] != '/' && strcmp(dir, ".") ?
			path_join(dir, e->file) : xstrdup(e->file);

		fputs("file=", out);
		gh_put(out, path, 1);
		free(path);
		if (e->line)
			fprintf(out, ",line=%u", e->line);
		if (e->line && e->col)
			fprintf(out, ",col=%u", e->col);
		fputc(',', out);
	}
	fputs("title=envpreflight ", out);
	gh_put(out, e->kind, 1);
	fputs("::", out);
	error_text(out, e, gh_put_data);
	fputc('\n', out);
}

/* open_memstream and fclose fail only for want of memory: as xmalloc. */
static void die_memstream(void)
{
	fputs("envpreflight: out of memory\n", stderr);
	abort();
}

void render_github(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct render_opts plain = *o;
	char *text = NULL;
	size_t len = 0, i;
	FILE *mem;

	if (rep->error) {
		github_error(out, rep);
		return;
	}
	for (i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		const char *kind;

		if (r->status == STATUS_FAIL || r->status == STATUS_ERROR)
			kind = "error";
		else if (r->status == STATUS_WARN)
			kind = rep->strict ? "error" : "warning";
		else
			continue;
		fprintf(out, "::%s ", kind);
		if (r->source.file) {
			const char *dir = annotation_dir(rep);
			char *path = strcmp(dir, ".") ? path_join(dir, r->source.file) :
				     xstrdup(r->source.file);

			fputs("file=", out);
			gh_put(out, path, 1);
			free(path);
			if (r->source.line)
				fprintf(out, ",line=%u", r->source.line);
			if (r->source.col)
				fprintf(out, ",col=%u", r->source.col);
			fputc(',', out);
		}
		fputs("title=", out);
		gh_put(out, r->title, 1);
		fputs("::", out);
		gh_put(out, r->message, 0);
		if (r->hint) {
			fputs("%0Ahint: ", out);
			gh_put(out, r->hint, 0);
		}
		fputc('\n', out);
	}
	/* the human report, every line defused */
	plain.color = 0;
	mem = open_memstream(&text, &len);
	if (!mem)
		die_memstream();
	render_human(mem, rep, &plain);
	if (fclose(mem) != 0)
		die_memstream();
	render_github_text(out, text);
	free(text);
}

/* -------- GitHub job summary (GITHUB_STEP_SUMMARY) -------- */

/* Text in a Markdown table cell: cleaned like every output, a line break
 * as <br>, and every ASCII punctuation mark that Markdown, GitHub's
 * extensions (math $, @mentions, #refs, ~strikethrough) or HTML could
 * read as syntax escaped with a backslash (CommonMark lets any ASCII
 * punctuation be escaped so), '|' included, which would end the cell. */
static void md_put(FILE *out, const char *s)
{
	static const char special[] = "\\`*_[]<>|!~#&{}$^@";
	const char *line = s ? s : "";

	for (;;) {
		size_t n = strcspn(line, "\r\n");
		char *raw = xstrndup(line, n), *c = text_clean(raw);
		const char *p;

		for (p = c; *p; p++) {
			if (strchr(special, *p))
				fputc('\\', out);
			fputc(*p, out);
		}
		free(c);
		free(raw);
		line += n;
		if (!*line)
			break;
		/* \r\n is one break */
		line += line[0] == '\r' && line[1] == '\n' ? 2 : 1;
		fputs("<br>", out);
	}
}

static void md_source(FILE *out, const struct result *r)
{
	char pos[32] = "";

	if (!r->source.file)
		return;
	if (r->source.line && r->source.col)
		snprintf(pos, sizeof(pos), ":%u:%u", r->source.line, r->source.col);
	else if (r->source.line)
		snprintf(pos, sizeof(pos), ":%u", r->source.line);
	md_put(out, r->source.file);
	fputs(pos, out);
}

void render_github_summary(FILE *out, const struct report *rep)
{
	static const char *const mark[STATUS_COUNT] = {
		[STATUS_PASS] = "\u2705 pass", [STATUS_WARN] = "\u26a0\ufe0f warn",
		[STATUS_FAIL] = "\u274c fail", [STATUS_SKIP] = "\u23ed\ufe0f skip",
		[STATUS_ERROR] = "\u203c\ufe0f error",
	};
	struct render_opts plain = { .utf8 = 1 };
	size_t i;

	fputs("### envpreflight\n\n", out);
	if (rep->error) {
		fputs("\u203c\ufe0f The audit could not run: ", out);
		error_text(out, rep->error, md_put);
		fputs("\n\n", out);
		return;
	}
	/* the human report's summary line, with its mark */
	human_summary(out, rep, &plain);
	if (!rep->n) {
		fputc('\n', out);
		return;
	}
	fputs("\n| Status | Check | Message | Source |\n| --- | --- | --- | --- |\n", out);
	for (i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];

		if (rep->strict && r->status == STATUS_WARN)
			fputs("| \u274c warn (strict) | ", out);
		else
			fprintf(out, "| %s | ", mark[r->status]);
		md_put(out, r->title);
		fputs(" (", out);
		md_put(out, r->id);
		fputs(") | ", out);
		md_put(out, r->message);
		if (r->hint) {
			fputs("<br>hint: ", out);
			md_put(out, r->hint);
		}
		fputs(" | ", out);
		md_source(out, r);
		fputs(" |\n", out);
	}
	fputc('\n', out);
}

/* -------- TAP -------- */

/* A test point's description or a directive's reason: cleaned (one line),
 * '\\' and '#' escaped as TAP 14 says, so that no '#' of the repository's
 * text starts a directive. */
static void tap_put(FILE *out, const char *s)
{
	char *c = text_clean(s ? s : "");
	const char *p;

	for (p = c; *p; p++) {
		if (*p == '\\' || *p == '#')
			fputc('\\', out);
		fputc(*p, out);
	}
	free(c);
}

/* A YAML 1.2 double-quoted scalar, which the TAP 13 harnesses' YAMLish
 * reads too: cleaned text has no control character left to escape. */
static void tap_yaml_str(FILE *out, const char *key, const char *s, int indent)
{
	char *c = text_clean(s ? s : "");
	const char *p;

	fprintf(out, "%*s%s: \"", indent, "", key);
	for (p = c; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputs("\"\n", out);
	free(c);
}

/* The diagnostic of a check that did not plainly pass: the YAML block
 * after its test point, indented two spaces.  What a check found is in
 * its message (never a value); data stays in JSON. */
static void tap_diag(FILE *out, const struct result *r)
{
	fputs("  ---\n", out);
	tap_yaml_str(out, "id", r->id, 2);
	tap_yaml_str(out, "probe", r->probe, 2);
	tap_yaml_str(out, "status", status_name(r->status), 2);
	if (reason_name(r->reason))
		tap_yaml_str(out, "reason", reason_name(r->reason), 2);
	tap_yaml_str(out, "message", r->message, 2);
	if (r->hint)
		tap_yaml_str(out, "hint", r->hint, 2);
	if (r->workspace)
		tap_yaml_str(out, "workspace", r->workspace, 2);
	if (r->source.file) {
		fputs("  at:\n", out);
		tap_yaml_str(out, "file", r->source.file, 4);
		if (r->source.line)
			fprintf(out, "    line: %u\n", r->source.line);
		if (r->source.col)
			fprintf(out, "    column: %u\n", r->source.col);
	}
	fputs("  ...\n", out);
}

void render_tap(FILE *out, const struct report *rep, int version)
{
	size_t i;

	fprintf(out, "TAP version %d\n", version);
	/* the human report's first line, as a comment */
	if (rep->root_from == ROOT_FROM_GIT && strcmp(rep->display_dir, ".")) {
		fputs("# auditing ", out);
		tap_put(out, rep->display_dir);
		fputs(" (the top of this git work tree)\n", out);
	}
	if (rep->error) {
		/* the audit did not run: neither passed nor skipped */
		fputs("Bail out! ", out);
		error_text(out, rep->error, tap_put);
		fputc('\n', out);
		return;
	}
	if (!rep->n) {
		fputs("1..0 # SKIP nothing to check\n", out);
		return;
	}
	fprintf(out, "1..%zu\n", rep->n);
	for (i = 0; i < rep->n; i++) {
		const struct result *r = &rep->results[i];
		int bad = r->status == STATUS_FAIL || r->status == STATUS_ERROR ||
			  (rep->strict && r->status == STATUS_WARN);

		fprintf(out, "%s %zu - ", bad ? "not ok" : "ok", i + 1);
		/* a flat list has no workspace headings: a title that does
		 * not start with its workspace's path gets it in front */
		if (r->workspace && (strncmp(r->title, r->workspace, strlen(r->workspace)) ||
				     r->title[strlen(r->workspace)] != '/')) {
			tap_put(out, r->workspace);
			fputs(": ", out);
		}
		tap_put(out, r->title);
		if (r->status == STATUS_SKIP) {
			fputs(" # SKIP ", out);
			tap_put(out, r->message);
			fputc('\n', out);
			continue;
		}
		fputs(": ", out);
		tap_put(out, r->message);
		fputc('\n', out);
		if (r->status != STATUS_PASS)
			tap_diag(out, r);
	}
}
