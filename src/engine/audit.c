/* audit.c - one audit: load, plan, run under the deadline, and the report
 * with its run block (see audit.h). */
#include "audit.h"
#include "fix_git.h"
#include "runner.h"
#include "spawnrun.h"
#include "spec_workspaces.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int in_list(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return 1;
		p = comma ? comma + 1 : NULL;
	}
	return 0;
}

int audit_probe_selected(const struct audit_opts *o, const struct probe *p)
{
	if (o->only && !in_list(o->only, p->name))
		return 0;
	return !(o->skip && in_list(o->skip, p->name));
}

/* --only names an opt-in probe that --skip leaves in */
static int opt_in_named(const struct audit_opts *o, const struct probe *p)
{
	return p->opt_in && o->only && audit_probe_selected(o, p);
}

int audit_probe_requested(const struct audit_opts *o, const struct probe *p)
{
	return audit_probe_selected(o, p) && (!p->opt_in || opt_in_named(o, p));
}

int audit_probe_runs(const struct audit_opts *o, const struct probe *p,
		     const struct spec *spec)
{
	if (!audit_probe_selected(o, p))
		return 0;
	return !p->opt_in || opt_in_named(o, p) || (spec && p->opt_in(spec));
}

/* An opt-in probe that --only names needs no spec file (it looks at the
 * machine, not the repository): then a directory without one is no
 * "nothing to audit". */
static int needs_spec_file(const struct audit_opts *o)
{
	size_t i;

	for (i = 0; probe_table[i]; i++)
		if (opt_in_named(o, probe_table[i]))
			return 0;
	return 1;
}

/* ---- the run block ---------------------------------------------------- */

/* One effective option and where it came from. */
static void add_option(cJSON *opts, const char *name, cJSON *value,
		       enum opt_from from, const char *file, unsigned line)
{
	cJSON *o = cJSON_AddObjectToObject(opts, name);
	struct buf b = BUF_INIT;

	cJSON_AddItemToObject(o, "value", value);
	switch (from) {
	case FROM_DEFAULT:
		buf_puts(&b, "default");
		break;
	case FROM_CLI:
		buf_puts(&b, "command line");
		break;
	case FROM_CALL:
		buf_puts(&b, "tool call");
		break;
	case FROM_CONFIG:
	case FROM_REPO:
		buf_printf(&b, "%s:%u", file ? file : "?", line);
		break;
	}
	cJSON_AddStringToObject(o, "from", buf_str(&b));
	buf_release(&b);
}

static cJSON *probes_json(const struct audit_opts *o, const struct spec *spec)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; probe_table[i]; i++)
		if (audit_probe_runs(o, probe_table[i], spec))
			cJSON_AddItemToArray(arr, cJSON_CreateString(probe_table[i]->name));
	return arr;
}

/* {"enabled", "only", "sources": [{kind, file, patterns: [{pattern,
 * negate, line, matched}]}], "found": [{dir, kind, file, pattern,
 * loaded}], "findings": [{kind, dir, file, line, message}]}: which
 * workspaces were found, and from where. */
static cJSON *workspaces_json(const struct audit *a, const struct audit_opts *o)
{
	static const char *const fkinds[] = {
		[WS_UNMATCHED] = "unmatched", [WS_OUTSIDE] = "outside",
		[WS_BAD_NAME] = "bad-name", [WS_NO_MANIFEST] = "no-manifest",
		[WS_INVALID] = "invalid", [WS_CAPPED] = "capped",
	};
	const struct spec_workspaces *w = a->loaded ? a->spec.workspaces : NULL;
	cJSON *j = cJSON_CreateObject(), *arr;
	size_t i, k;

	cJSON_AddBoolToObject(j, "enabled", !o->no_workspaces);
	if (w && w->only)
		cJSON_AddStringToObject(j, "only", w->only);
	else
		cJSON_AddNullToObject(j, "only");
	arr = cJSON_AddArrayToObject(j, "sources");
	for (i = 0; w && i < w->nsources; i++) {
		const struct ws_source *s = &w->sources[i];
		cJSON *so = cJSON_CreateObject(), *pats;

		cJSON_AddStringToObject(so, "kind", ws_kind_key(s->kind));
		cJSON_AddStringToObject(so, "file", s->file);
		pats = cJSON_AddArrayToObject(so, "patterns");
		for (k = 0; k < s->pats.n; k++) {
			cJSON *p = cJSON_CreateObject();

			cJSON_AddStringToObject(p, "pattern", s->pats.v[k].text);
			cJSON_AddBoolToObject(p, "negate", s->pats.v[k].negate);
			if (s->pats.v[k].line)
				cJSON_AddNumberToObject(p, "line", s->pats.v[k].line);
			else
				cJSON_AddNullToObject(p, "line");
			cJSON_AddNumberToObject(p, "matched", s->matched ?
						(double)s->matched[k] : 0);
			cJSON_AddItemToArray(pats, p);
		}
		cJSON_AddItemToArray(arr, so);
	}
	arr = cJSON_AddArrayToObject(j, "found");
	for (i = 0; w && i < w->n; i++) {
		const struct workspace *x = &w->v[i];
		const struct ws_source *s = &w->sources[x->source];
		cJSON *f = cJSON_CreateObject();

		cJSON_AddStringToObject(f, "dir", x->dir);
		cJSON_AddStringToObject(f, "kind", ws_kind_key(s->kind));
		cJSON_AddStringToObject(f, "file", s->file);
		cJSON_AddStringToObject(f, "pattern", s->pats.v[x->pattern].text);
		cJSON_AddBoolToObject(f, "loaded", x->loaded);
		cJSON_AddItemToArray(arr, f);
	}
	arr = cJSON_AddArrayToObject(j, "findings");
	for (i = 0; w && i < w->nfindings; i++) {
		const struct ws_finding *f = &w->findings[i];
		cJSON *fo = cJSON_CreateObject();

		cJSON_AddStringToObject(fo, "kind", fkinds[f->kind]);
		if (f->dir)
			cJSON_AddStringToObject(fo, "dir", f->dir);
		else
			cJSON_AddNullToObject(fo, "dir");
		if (f->origin.file)
			cJSON_AddStringToObject(fo, "file", f->origin.file);
		else
			cJSON_AddNullToObject(fo, "file");
		if (f->origin.line)
			cJSON_AddNumberToObject(fo, "line", f->origin.line);
		else
			cJSON_AddNullToObject(fo, "line");
		cJSON_AddStringToObject(fo, "message", f->message);
		cJSON_AddItemToArray(arr, fo);
	}
	return j;
}

/* The pause between --wait's rounds: the caller's, else the default,
 * never longer than the wait itself. */
static long interval_pick(const struct audit_opts *o)
{
	if (o->interval_ms)
		return o->interval_ms;
	if (o->wait_ms && o->wait_ms < DEFAULT_INTERVAL_MS)
		return o->wait_ms;
	return DEFAULT_INTERVAL_MS;
}

/* The settings that decided this run (a->loaded: the files read). */
static cJSON *run_json(const struct audit *a, const struct audit_opts *o,
		       const struct config *cfg, const char *timeout_file,
		       unsigned timeout_line)
{
	cJSON *run = cJSON_CreateObject(), *opts, *conf, *files, *notes;
	const char *cfg_file = cfg ? cfg->path : NULL;
	size_t i;

	cJSON_AddStringToObject(run, "version", EP_VERSION);
	opts = cJSON_AddObjectToObject(run, "options");
	add_option(opts, "format", cJSON_CreateString(format_name(o->format)),
		   o->format_from, cfg_file, cfg ? cfg->format_line : 0);
	add_option(opts, "strict", cJSON_CreateBool(o->strict), o->strict_from,
		   cfg_file, cfg ? cfg->strict_line : 0);
	add_option(opts, "exit_zero", cJSON_CreateBool(o->exit_zero),
		   o->exit_zero ? FROM_CLI : FROM_DEFAULT, NULL, 0);
	add_option(opts, "timeout_ms", cJSON_CreateNumber((double)a->timeout_ms),
		   o->timeout_from, timeout_file, timeout_line);
	add_option(opts, "probes", probes_json(o, a->loaded ? &a->spec : NULL),
		   o->probes_from, NULL, 0);
	add_option(opts, "wait_ms", o->wait_ms ? cJSON_CreateNumber((double)o->wait_ms) :
		   cJSON_CreateNull(), o->wait_from, NULL, 0);
	add_option(opts, "interval_ms", cJSON_CreateNumber((double)interval_pick(o)),
		   o->interval_from, NULL, 0);
	conf = cJSON_AddObjectToObject(run, "config");
	if (cfg_file)
		cJSON_AddStringToObject(conf, "file", cfg_file);
	else
		cJSON_AddNullToObject(conf, "file");
	cJSON_AddBoolToObject(conf, "ignored", o->no_config);
	cJSON_AddBoolToObject(run, "path_set", getenv("PATH") != NULL);
	for (i = 0; probe_table[i]; i++)
		if (probe_table[i]->run_key)
			cJSON_AddItemToObject(run, probe_table[i]->run_key,
					      probe_table[i]->run_json(&a->marks[i]));
	files = cJSON_AddArrayToObject(run, "files_read");
	for (i = 0; a->loaded && i < a->spec.nfiles; i++)
		cJSON_AddItemToArray(files, cJSON_CreateString(a->spec.files[i]));
	if (a->loaded && a->spec.workspaces) {
		const struct spec_workspaces *w = a->spec.workspaces;
		size_t k;

		for (k = 0; k < w->n; k++)
			for (i = 0; w->v[k].loaded && i < w->v[k].spec.nfiles; i++)
				cJSON_AddItemToArray(files, cJSON_CreateString(
					w->v[k].spec.files[i]));
	}
	cJSON_AddItemToObject(run, "workspaces", workspaces_json(a, o));
	notes = cJSON_AddArrayToObject(run, "notes");
	if (o->dir_note)
		cJSON_AddItemToArray(notes, cJSON_CreateString(o->dir_note));
	if (a->timeout_note)
		cJSON_AddItemToArray(notes, cJSON_CreateString(a->timeout_note));
	return run;
}

/* ---- the deadline ----------------------------------------------------- */

/* The caller's, then the repository's (at most REPO_TIMEOUT_MAX_MS),
 * then the user's default, then ours; where it came from in *file and
 * *line, and a->timeout_note when the repository's was clamped. */
static long deadline_pick(struct audit *a, struct audit_opts *o,
			  const struct config *cfg, const char **file,
			  unsigned *line)
{
	const struct spec *spec = &a->spec;

	*file = NULL;
	*line = 0;
	if (o->timeout_from == FROM_CLI || o->timeout_from == FROM_CALL)
		return o->timeout_ms;
	if (spec->timeout_ms) {
		struct buf b = BUF_INIT;

		o->timeout_from = FROM_REPO;
		*file = spec->timeout_origin.file;
		*line = spec->timeout_origin.line;
		if (spec->timeout_ms <= REPO_TIMEOUT_MAX_MS)
			return spec->timeout_ms;
		buf_printf(&b, "timeout_ms %ld from %s:%u clamped to %d: a repository "
			   "may not raise the deadline above %d ms (--timeout can)",
			   spec->timeout_ms, *file ? *file : "preflight.yaml", *line,
			   REPO_TIMEOUT_MAX_MS, REPO_TIMEOUT_MAX_MS);
		a->timeout_note = buf_detach(&b);
		return REPO_TIMEOUT_MAX_MS;
	}
	if (cfg && cfg->timeout_ms) {
		o->timeout_from = FROM_CONFIG;
		*file = cfg->path;
		*line = cfg->timeout_line;
		return cfg->timeout_ms;
	}
	return DEFAULT_TIMEOUT_MS;
}

/* ---- when the audit cannot run -------------------------------------- */

const char *audit_error_kind(enum err_kind k)
{
	switch (k) {
	case ERRK_INVALID:
		return "spec-invalid";
	case ERRK_UNREADABLE:
		return "spec-unreadable";
	case ERRK_NOTHING:
		return "nothing-to-audit";
	case ERRK_DIR:
		return "repo-unreadable";
	case ERRK_OTHER:
		break;
	}
	return "usage";
}

/* Which directory the report is of, and how it was chosen. */
static void report_dir(struct report *rep, const struct audit_opts *o)
{
	rep->display_dir = o->dir ? o->dir : ".";
	rep->root_from = o->dir_from;
	rep->root_note = o->dir_note;
}

void audit_fail(struct audit *a, const struct audit_opts *o,
		const struct config *cfg, const struct errbuf *err,
		const char *kind, double start)
{
	if (err != &a->err)
		a->err = *err;
	memset(&a->error, 0, sizeof(a->error));
	a->error.kind = kind;
	a->error.file = a->err.file[0] ? a->err.file : NULL;
	a->error.line = a->err.line;
	a->error.col = a->err.col;
	a->error.message = a->err.msg + a->err.what;
	if (!a->timeout_ms)
		a->timeout_ms = o->timeout_from == FROM_CLI ||
				o->timeout_from == FROM_CALL ? o->timeout_ms :
				DEFAULT_TIMEOUT_MS;
	memset(&a->rep, 0, sizeof(a->rep));
	report_dir(&a->rep, o);
	a->rep.strict = o->strict;
	a->rep.error = &a->error;
	a->rep.run = run_json(a, o, cfg, NULL, 0);
	a->rep.duration_ms = clock_ms() - start;
}

/* ---- the children ----------------------------------------------------- */

/* How long, past the checks, the children get to die: the report is out
 * by the deadline plus this and the rendering. */
#define KILL_GRACE_MS 50

/* End every child the checks started (the runner has returned: no check
 * starts one any more, their deadlines have passed), waiting until
 * KILL_GRACE_MS past the deadline at the latest whatever a child does, and
 * name each one that could not be reaped in the result of the check that
 * started it.  The audit owns its children; the runner kills none. */
static void children_end(struct audit *a, double deadline_ms)
{
	double now = clock_ms();
	struct spawn_stuck *stuck;
	size_t n, i;

	n = spawn_kill_all((now < deadline_ms ? now : deadline_ms) + KILL_GRACE_MS,
			   &stuck);
	for (i = 0; i < n; i++) {
		const struct check *c = stuck[i].owner;

		if (c >= a->plan.checks && c < a->plan.checks + a->plan.n)
			result_unreaped(&a->results[c - a->plan.checks],
					stuck[i].pid, stuck[i].path, stuck[i].ran_ms);
		else {
			/* a descendant's own program: any path, cleaned */
			char *shown = text_clean(stuck[i].path);

			fprintf(stderr, "envpreflight: pid %d (%s) could not be "
				"reaped\n", stuck[i].pid, shown);
			free(shown);
		}
	}
	spawn_stuck_free(stuck, n);
}

/* ---- --wait ----------------------------------------------------------- */

/* 1 when r makes the run fail (report_failed's rule for one check). */
static int fails_run(const struct result *r, int strict)
{
	return r->status == STATUS_FAIL || r->status == STATUS_ERROR ||
	       (strict && r->status == STATUS_WARN);
}

/* 1 when waiting may yet make r pass: it fails the run for a state of the
 * machine that changes by itself (nothing listens yet, a port not yet
 * released, no daemon socket yet, no answer yet), not for a verdict that
 * waiting cannot change (a version that does not satisfy, permission
 * denied, a port that is not valid, a table we cannot read).  The check
 * must also be volatile (plan time): a node that is too old stays so. */
static int wait_may_change(const struct result *r, int strict)
{
	if (!fails_run(r, strict))
		return 0;
	switch (r->reason) {
	case REASON_HELD:		/* a port still held */
	case REASON_NOT_LISTENING:	/* not listening yet */
	case REASON_DAEMON_DOWN:	/* a socket, nobody on it yet */
	case REASON_NOT_FOUND:		/* no daemon socket yet */
	case REASON_EXEC_FAILED:	/* a daemon's bad reply: starting */
	case REASON_TIMEOUT:		/* no answer before the deadline */
	case REASON_NOT_RUN:
		return 1;
	default:
		return 0;
	}
}

/* The checks to run again, in plan order, into which; how many. */
static size_t wait_pending(const struct audit *a, int strict, size_t *which)
{
	size_t i, n = 0;

	for (i = 0; i < a->plan.n; i++)
		if (a->plan.checks[i].volatile_state &&
		    wait_may_change(&a->results[i], strict))
			which[n++] = i;
	return n;
}

static void sleep_ms(double ms)
{
	double until = clock_ms() + ms, left;

	/* the signals are blocked in this thread (signals.c): a signal ends
	 * the process from the watcher, never interrupts this */
	while ((left = until - clock_ms()) > 0) {
		struct timespec ts;

		ts.tv_sec = (time_t)(left / 1000);
		ts.tv_nsec = (long)((left - (double)ts.tv_sec * 1000) * 1e6);
		nanosleep(&ts, NULL);
	}
}

/* One more round: the n checks of which, with a memo of their own (a
 * fresh look at the socket tables) and a deadline of their own; their
 * results replace the earlier ones, counting the attempts. */
static void wait_round(struct audit *a, const size_t *which, size_t n,
		       int strict, double start)
{
	struct result *got = xcalloc(n, sizeof(*got));
	double deadline = clock_ms() + (double)a->timeout_ms;
	size_t i;

	a->abandoned += runner_run_some(&a->spec, &a->plan, which, n, deadline, 0,
					got);
	for (i = 0; i < n; i++) {
		struct result *r = &a->results[which[i]];

		got[i].attempts += r->attempts;
		if (!fails_run(&got[i], strict)) {
			struct report_wait *w = &a->wait;
			double after = clock_ms() - start;

			w->ready = xrealloc(w->ready, (w->nready + 1) * sizeof(*w->ready));
			w->ready[w->nready].id = a->plan.checks[which[i]].id;
			w->ready[w->nready++].after_ms = after;
			result_note(&got[i], "ready after %.1f s, at attempt %u (--wait)",
				    after / 1000, got[i].attempts);
		}
		result_release(r);
		*r = got[i];
	}
	free(got);
	children_end(a, deadline);
}

/* Run the checks that waiting can change again until they pass or
 * o->wait_ms from start runs out (see audit.h); a->wait says how it
 * went, and each check still failing says so in a note. */
static void wait_run(struct audit *a, const struct audit_opts *o, double start)
{
	struct report_wait *w = &a->wait;
	double end = start + (double)o->wait_ms, first = clock_ms(), now;
	long interval = interval_pick(o);
	size_t *which = xcalloc(a->plan.n ? a->plan.n : 1, sizeof(*which));
	size_t n, i;

	w->rounds = 1;
	for (;;) {
		n = wait_pending(a, o->strict, which);
		now = clock_ms();
		if (!n)
			break;
		if (now >= end) {
			w->timed_out = 1;
			break;
		}
		if (o->progress)
			o->progress(o->progress_arg, &a->results[which[0]], n,
				    now - start);
		/* the last pause ends with the wait, for a last look */
		sleep_ms(end - now < (double)interval ? end - now : (double)interval);
		wait_round(a, which, n, o->strict, start);
		w->rounds++;
	}
	if (w->rounds > 1)
		w->waited_ms = now - first;
	if (o->progress)
		o->progress(o->progress_arg, NULL, 0, now - start);
	if (w->timed_out) {
		w->not_ready = xcalloc(n, sizeof(*w->not_ready));
		for (i = 0; i < n; i++) {
			struct result *r = &a->results[which[i]];

			w->not_ready[w->nnot_ready++] = a->plan.checks[which[i]].id;
			result_note(r, "not ready when the wait ran out, after %.1f s "
				    "and %u attempt%s (--wait)", (now - start) / 1000,
				    r->attempts, r->attempts == 1 ? "" : "s");
		}
	}
	free(which);
}

/* ---- one audit -------------------------------------------------------- */

/* The repository's checks, then each workspace's, in the order of the
 * report: the human report groups them so, and JSON keeps that order. */
static void plan_all(struct audit *a, const struct audit_opts *o)
{
	const struct spec_workspaces *w = a->spec.workspaces;
	size_t i, k;

	for (i = 0; probe_table[i]; i++)
		if (audit_probe_runs(o, probe_table[i], &a->spec))
			probe_table[i]->plan(&a->spec, &a->plan);
	for (k = 0; w && k < w->n; k++) {
		if (!w->v[k].loaded)
			continue;
		a->plan.spec = &w->v[k].spec;
		a->plan.ws = w->v[k].dir;
		/* an opt-in probe looks at the machine: once, for the
		 * repository */
		for (i = 0; probe_table[i]; i++)
			if (!probe_table[i]->opt_in &&
			    audit_probe_selected(o, probe_table[i]))
				probe_table[i]->plan(&w->v[k].spec, &a->plan);
	}
	a->plan.spec = NULL;
	a->plan.ws = NULL;
}

int audit_run(struct audit *a, struct audit_opts *o, const struct config *cfg,
	      double start)
{
	struct spec_opts sopts = { 0, NULL, 0 };
	const char *timeout_file;
	unsigned timeout_line;
	size_t i;

	memset(a, 0, sizeof(*a));
	for (i = 0; probe_table[i]; i++)
		if (probe_table[i]->run_mark)
			probe_table[i]->run_mark(&a->marks[i]);
	if (cfg && o->format_from == FROM_DEFAULT && cfg->format_line) {
		o->format = cfg->format;
		o->format_from = FROM_CONFIG;
	}
	if (cfg && o->strict_from == FROM_DEFAULT && cfg->strict) {
		o->strict = 1;
		o->strict_from = FROM_CONFIG;
	}
	sopts.workspaces = !o->no_workspaces;
	sopts.only = o->workspace;
	sopts.any = !needs_spec_file(o);
	if (spec_load_opts(o->dir ? o->dir : ".", &sopts, &a->spec, &a->err) < 0) {
		audit_fail(a, o, cfg, &a->err, audit_error_kind(a->err.kind), start);
		return -1;
	}
	a->loaded = 1;
	a->timeout_ms = deadline_pick(a, o, cfg, &timeout_file, &timeout_line);
	plan_all(a, o);
	a->results = xcalloc(a->plan.n ? a->plan.n : 1, sizeof(*a->results));
	a->abandoned = runner_run(&a->spec, &a->plan, start + (double)a->timeout_ms,
				  0, a->results);
	children_end(a, start + (double)a->timeout_ms);
	if (o->wait_ms) {
		wait_run(a, o, start);
		a->rep.wait = &a->wait;
	}
	a->rep.root = a->spec.root;
	report_dir(&a->rep, o);
	a->rep.results = a->results;
	a->rep.n = a->plan.n;
	a->rep.strict = o->strict;
	/* only JSON shows it, and it reads the version cache once more */
	if (o->format == FORMAT_JSON)
		a->rep.run = run_json(a, o, cfg, timeout_file, timeout_line);
	/* only JSON shows what git makes of a fix's writes: the index is
	 * read for it, after the checks */
	if (o->format == FORMAT_JSON)
		fix_git_mark(a->results, a->plan.n, a->spec.root);
	a->rep.duration_ms = clock_ms() - start;
	return 0;
}

void audit_release(struct audit *a)
{
	size_t i;

	cJSON_Delete(a->rep.run);
	free(a->timeout_note);
	free(a->wait.ready);
	free(a->wait.not_ready);
	if (a->abandoned)
		return;		/* a stuck worker may still read the model */
	for (i = 0; a->results && i < a->plan.n; i++)
		result_release(&a->results[i]);
	free(a->results);
	plan_release(&a->plan);
	if (a->loaded)
		spec_release(&a->spec);
	memset(a, 0, sizeof(*a));
}
