/* probe_runtimes.c - every declared runtime version, each requirement its
 * own check, with npm's, nvm's, PEP 440's, pyenv's, asdf's and Go's own
 * semantics.
 *
 * A check first reads its requirement (runtime_req.c: an invalid range
 * fails the check without running anything), then gets the runtime's
 * version from runtime_ask (asked once a run however many requirements
 * name the runtime), judges it (runtime_eval.c) and, when it falls short,
 * says how to get the one version that every requirement of the runtime
 * admits (runtime_target.c, picked once a run; runtime_hint.c), so that
 * the hints of two checks never disagree.  This file plans the checks and
 * turns each answer into a result.
 */
#include "probe.h"
#include "runtime_ask.h"
#include "runtimes.h"
#include "nodelts.h"
#include "platform.h"
#include "peek.h"
#include "util.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

/* ---- what a requirement is called: ids, titles, JSON ---- */

static const char *kind_name(enum req_kind k)
{
	static const char *const names[] = {
		[REQ_SEMVER] = "semver", [REQ_NVMRC] = "nvmrc",
		[REQ_PEP440] = "pep440", [REQ_PYENV] = "pyenv",
		[REQ_EXACT] = "exact", [REQ_GO_MIN] = "go-min",
		[REQ_ASDF] = "asdf", [REQ_ANY] = "any",
		[REQ_DEV_ENGINES] = "devEngines", [REQ_PLATFORM] = "platform",
		[REQ_POETRY] = "poetry", [REQ_ELIXIR] = "elixir",
		[REQ_GEM] = "gem",
	};

	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "any";
}

/* ---- messages for what could not be judged ---- */

static const char *docker_state_name(int s)
{
	static const char *const names[] = {
		[DOCKER_OK] = "ok", [DOCKER_NO_SOCKET] = "no-socket",
		[DOCKER_DOWN] = "down", [DOCKER_DENIED] = "denied",
		[DOCKER_BAD_REPLY] = "bad-reply", [DOCKER_TIMEOUT] = "timeout",
		[DOCKER_UNSUPPORTED_HOST] = "unsupported-host",
	};

	return s >= 0 && (size_t)s < ARRAY_SIZE(names) ? names[s] : "bad-reply";
}

/* The daemon did not give a version: say why, with a hint for each. */
static void report_docker(struct result *res, const struct runtime_answer *a)
{
	const struct docker_info *d = &a->docker;
	const char *sock = d->socket_path ? d->socket_path : "the docker socket";

	static const enum reason why[] = {
		[DOCKER_NO_SOCKET] = REASON_NOT_FOUND, [DOCKER_DOWN] = REASON_DAEMON_DOWN,
		[DOCKER_DENIED] = REASON_PERMISSION_DENIED,
		[DOCKER_TIMEOUT] = REASON_TIMEOUT,
		[DOCKER_UNSUPPORTED_HOST] = REASON_OUT_OF_SCOPE,
	};

	res->reason = d->state >= 0 && (size_t)d->state < ARRAY_SIZE(why) &&
		      why[d->state] ? why[d->state] : REASON_EXEC_FAILED;
	switch (d->state) {
	case DOCKER_NO_SOCKET:
		if (a->docker_cli) {
			result_set(res, STATUS_FAIL, "no Docker daemon socket at %s "
				   "(the docker CLI is at %s)", sock, a->docker_cli);
			result_hint(res, "start the daemon (sudo systemctl start "
				    "docker, or Docker Desktop); if it listens "
				    "elsewhere (rootless, Colima, Podman), set "
				    "DOCKER_HOST=unix:///path/to/docker.sock");
		} else {
			result_set(res, STATUS_FAIL, "not installed: no socket at %s "
				   "and no docker on PATH", sock);
			result_hint(res, "install Docker Engine (https://docs.docker."
				    "com/engine/install/), or point DOCKER_HOST at "
				    "a running daemon");
		}
		break;
	case DOCKER_DOWN:
		result_set(res, STATUS_FAIL, "daemon not running: nothing listens on %s",
			   sock);
		result_hint(res, "start it: sudo systemctl start docker (or start "
			    "Docker Desktop)");
		break;
	case DOCKER_DENIED:
		result_set(res, STATUS_FAIL, "permission denied on %s", sock);
		result_hint(res, "add your user to the docker group (sudo usermod -aG "
			    "docker $USER), then log in again");
		break;
	case DOCKER_TIMEOUT:
		result_set(res, STATUS_ERROR, "no answer from the daemon on %s before "
			   "the deadline", sock);
		result_hint(res, "the daemon may be busy or hung; raise the deadline "
			    "with --timeout=MS");
		break;
	case DOCKER_UNSUPPORTED_HOST:
		result_set(res, STATUS_WARN, "not checked: DOCKER_HOST is not a unix:// "
			   "socket, and only local sockets are asked");
		break;
	default:
		result_set(res, STATUS_ERROR, "unexpected reply from the daemon on %s%s%s",
			   sock, d->detail ? ": " : "", d->detail ? d->detail : "");
		break;
	}
}

static void report_missing(struct result *res, const struct runtime_prep *p,
			   const struct runtime_answer *a)
{
	const char *comma = strstr(a->tried, ", ");
	struct buf m = BUF_INIT, where = BUF_INIT;

	if (a->default_path)
		buf_printf(&where, "the default search path %s (PATH is not set)",
			   a->default_path);
	else
		buf_puts(&where, "PATH");
	/* "python3, python": the table tries two names */
	if (comma && !strstr(comma + 2, ", "))
		buf_printf(&m, "neither %.*s nor %s found on %s",
			   (int)(comma - a->tried), a->tried, comma + 2,
			   buf_str(&where));
	else
		buf_printf(&m, "%s not found on %s", a->tried, buf_str(&where));
	buf_release(&where);
	if (*p->r->spec)
		buf_printf(&m, " (needs %s from %s)", p->want, runtime_req_from(p->r));
	else
		buf_printf(&m, " (required by %s)", runtime_req_from(p->r));
	if (a->skipped)
		buf_printf(&m, "; %s", a->skipped);
	result_set(res, STATUS_FAIL, "%s", buf_str(&m));
	res->reason = REASON_NOT_FOUND;
	buf_release(&m);
}

/* ---- JSON data and --explain notes ---- */

static void add_str(cJSON *o, const char *key, const char *v)
{
	if (v)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *data_new(const struct runtime_req *r)
{
	cJSON *d = cJSON_CreateObject();

	cJSON_AddStringToObject(d, "runtime", r->name);
	cJSON_AddStringToObject(d, "required", r->spec);
	cJSON_AddStringToObject(d, "kind", kind_name(r->kind));
	cJSON_AddStringToObject(d, "source", runtime_req_from(r));
	cJSON_AddStringToObject(d, "source_key", req_source_key(r->src));
	return d;
}

static void data_answer(cJSON *d, const struct runtime_answer *a)
{
	add_str(d, "found", a && a->state == ANS_FOUND ? a->version : NULL);
	cJSON_AddNullToObject(d, "runs_as");	/* report_found: pnpm's switch */
	add_str(d, "path", a ? a->path : NULL);
	add_str(d, "method", a && (a->state == ANS_FOUND || a->asked_docker) ?
		vmethod_name(a->method) : NULL);
	add_str(d, "resolved_path", a ? a->resolved : NULL);
	add_str(d, "command", a ? a->command : NULL);
	add_str(d, "skipped_path_entries", a ? a->skipped : NULL);
	/* every runtime check carries every key, null where it does not
	 * apply, so that a consumer needs no per-runtime schema */
	add_str(d, "not_run", a && (a->note || a->state == ANS_REFUSED) ?
		(a->note ? a->note : a->error) : NULL);
	if (a && a->asked_docker) {
		cJSON *o = cJSON_AddObjectToObject(d, "docker");

		cJSON_AddStringToObject(o, "state", docker_state_name(a->docker.state));
		add_str(o, "socket", a->docker.socket_path);
		add_str(o, "api_version", a->docker.api_version);
		add_str(o, "cli", a->docker_cli);
	} else {
		cJSON_AddNullToObject(d, "docker");
	}
	/* runtime_hint_install names the manager it picked, and the
	 * version every requirement of the runtime admits */
	cJSON_AddNullToObject(d, "version_manager");
	cJSON_AddNullToObject(d, "target");
	add_str(d, "default_path", a ? a->default_path : NULL);
	if (a && a->timed_out)
		cJSON_AddNumberToObject(d, "timed_out_ms", (double)(long)a->budget_ms);
	else
		cJSON_AddNullToObject(d, "timed_out_ms");
	/* the run fills it in when a child could not be reaped */
	cJSON_AddNullToObject(d, "unreaped");
}

static void explain(struct result *res, const struct runtime_answer *a)
{
	switch (a->method) {
	case VMETHOD_EXEC:
		result_note(res, "asked '%s'", a->command);
		break;
	case VMETHOD_CACHE:
		result_note(res, "version cached from an earlier '%s'", a->command);
		break;
	case VMETHOD_SOCKET:
		result_note(res, "asked the daemon on %s", a->path ? a->path : "its socket");
		break;
	default:
		result_note(res, "version read without running %s (%s)", a->path,
			    vmethod_name(a->method));
		break;
	}
	if (a->note)
		result_note(res, "%s", a->note);
	/* a->skipped is in the message already */
}

/* How an lts/ spec was resolved, for JSON: "lts" (null for every other
 * requirement). */
static void data_lts(cJSON *d, const struct runtime_prep *p)
{
	const struct nvmrc *n = &p->nvmrc;
	char t[16];
	cJSON *o;

	if (!p->have_nvmrc || !n->resolved ||
	    (n->kind != NVMRC_LTS_ANY && n->kind != NVMRC_LTS)) {
		cJSON_AddNullToObject(d, "lts");
		return;
	}
	o = cJSON_AddObjectToObject(d, "lts");
	cJSON_AddStringToObject(o, "codename", n->codename);
	cJSON_AddNumberToObject(o, "major", (double)n->major);
	add_str(o, "release", n->nvm_version[0] ? n->nvm_version : NULL);
	cJSON_AddStringToObject(o, "resolved_by", n->from_nvm ? "nvm" : "schedule");
	add_str(o, "nvm_alias_file", n->from_nvm ? n->nvm_file : NULL);
	cJSON_AddStringToObject(o, "schedule_date", NODELTS_TABLE_DATE);
	cJSON_AddStringToObject(o, "today", nodelts_date_format(p->today, t, sizeof(t)));
}

/* What an nvm alias was taken to mean, for --explain. */
static void nvmrc_notes(struct result *res, const struct runtime_prep *p)
{
	const struct nvmrc *n = &p->nvmrc;
	char d[16], t[16];

	if (!p->have_nvmrc)
		return;
	if (n->kind == NVMRC_NODE)
		result_note(res, "'%s' is the newest Node.js release to nvm; with no "
			    "release list offline, any version is accepted",
			    n->spec);
	if ((n->kind != NVMRC_LTS_ANY && n->kind != NVMRC_LTS) || !n->resolved)
		return;
	if (n->from_nvm)
		result_note(res, "%s resolved by nvm's own alias files: %s names "
			    "%s (lts/%s); nvm uses exactly that release", n->spec,
			    n->nvm_file, n->nvm_version, n->codename);
	else if (n->kind == NVMRC_LTS && !n->back)
		result_note(res, "lts/%s is v%lu.x, LTS since %s (the Node.js "
			    "release schedule, envpreflight's table of %s)%s",
			    n->codename, n->major,
			    nodelts_date_format(n->lts_start, d, sizeof(d)),
			    NODELTS_TABLE_DATE, p->nvm_dir_seen ? "; nvm has no "
			    "alias for it yet ('nvm ls-remote' writes them)" : "");
	else
		result_note(res, "%s on %s is lts/%s (v%lu.x, LTS since %s): the "
			    "newest LTS line%s of the Node.js release schedule "
			    "(envpreflight's table of %s)%s", n->spec,
			    nodelts_date_format(p->today, t, sizeof(t)),
			    n->codename, n->major,
			    nodelts_date_format(n->lts_start, d, sizeof(d)),
			    n->back ? ", counted back," : "", NODELTS_TABLE_DATE,
			    p->nvm_dir_seen ? "; nvm is installed but has no LTS "
			    "aliases yet ('nvm ls-remote' writes them)" : "");
	if (n->lts_end && n->lts_end <= p->today)
		result_note(res, "Node.js %lu (%s) reached its end of life on %s",
			    n->major, n->codename,
			    nodelts_date_format(n->lts_end, d, sizeof(d)));
}

/* ---- one check ---- */

static enum status severity_status(enum req_severity s)
{
	return s == SEV_WARN ? STATUS_WARN : s == SEV_SKIP ? STATUS_SKIP :
	       STATUS_FAIL;
}

/* The requirement itself is at fault (or, a warning, one envpreflight
 * cannot read). */
static void report_bad(struct result *res, const struct runtime_prep *p)
{
	const struct runtime_req *r = p->r;

	if (r->problem && r->unmet == SEV_WARN) {
		result_set(res, STATUS_WARN, "%s", buf_str(&p->problem));
		result_hint(res, "check this requirement by hand");
		res->reason = REASON_CANNOT_COMPARE;
		return;
	}
	result_set(res, STATUS_FAIL, "%s", buf_str(&p->problem));
	result_hint(res, "fix the requirement where it is written");
	res->reason = p->never ? REASON_UNSATISFIABLE : REASON_INVALID_REQUIREMENT;
	result_fix_edit(res, runtime_req_from(p->r), p->r->origin.line);
}

/* A not-met requirement whose own tool only warns or ignores it: the
 * status its rule gives, and the rule said. */
static void apply_unmet(struct result *res, const struct runtime_req *r,
			enum req_severity sev)
{
	if (sev == SEV_FAIL || res->status != STATUS_FAIL)
		return;
	res->status = severity_status(sev);
	if (r->unmet_rule)
		result_note(res, "%s %s: %s", sev == SEV_WARN ? "a warning, not a "
			    "failure" : "skipped", "as its own tool does",
			    r->unmet_rule);
}

/* Of the requirements that name runtime r->name, the one whose check
 * reports it missing (one failure, one hint): a packageManager pin
 * first (its hint names what corepack runs), else the first that fails
 * when the runtime is missing, else the first.  devEngines keys with more
 * than one entry, and requirements with a problem of their own, take no
 * part. */
static const struct runtime_req *missing_lead(const struct spec *spec,
					      const struct runtime_req *r)
{
	const struct runtime_req *first = NULL, *fails = NULL, *pin = NULL;
	size_t i;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *q = &spec->runtimes[i];

		if (strcmp(q->name, r->name) || q->nalt != 1 || q->problem)
			continue;
		if (!first)
			first = q;
		if (!fails && q->missing == SEV_FAIL)
			fails = q;
		if (!pin && q->src == SRC_PACKAGE_MANAGER && q->missing == SEV_FAIL)
			pin = q;
	}
	return pin ? pin : fails ? fails : first ? first : r;
}

static void report_unaskable(struct result *res, const struct runtime_req *r)
{
	result_set(res, STATUS_SKIP, "not checked: '%s' is an asdf or mise "
		   "plugin envpreflight has no version query for (its table: "
		   "node, python, go, ruby, java, rust, erlang, elixir, caddy, ...)",
		   r->name);
	res->reason = REASON_UNKNOWN;
	result_hint(res, "to check it, declare it under runtimes: in "
		    "preflight.yaml with a command and a version_regex");
}

static void report_error(struct result *res, const struct runtime_req *r,
			 const struct runtime_answer *a)
{
	if (a->not_installed) {
		/* a verdict, not a failure to ask: rustup itself says the
		 * toolchain this directory selects is missing */
		result_set(res, STATUS_FAIL, "toolchain %s is not installed: rustup "
			   "selects it here (needs %s from %s)", a->not_installed,
			   *r->spec ? r->spec : "it", runtime_req_from(r));
		res->reason = REASON_NOT_INSTALLED;
		if (fix_word_safe(a->not_installed) && a->not_installed[0] != '-') {
			result_hint(res, "rustup toolchain install %s", a->not_installed);
			result_fix_argv(res, FIX_AGENT, FIX_NEEDS_NETWORK, "rustup",
					"toolchain", "install", a->not_installed,
					(char *)NULL);
		}
		return;
	}
	if (r->src == SRC_RUST_TOOLCHAIN && !a->timed_out &&
	    strstr(a->error, "exited with status 1: 'error: ")) {
		/* rustup's proxy refuses what the toolchain file names (a host
		 * tuple in the channel, a malformed name): every cargo and
		 * rustc there fails, a verdict on the file */
		result_set(res, STATUS_FAIL, "rustup refuses the toolchain %s names: %s",
			   r->origin.file ? r->origin.file : "the toolchain file",
			   strstr(a->error, "'error: ") + 1);
		res->reason = REASON_INVALID_REQUIREMENT;
		if (r->origin.file) {
			result_fix_edit(res, r->origin.file, r->origin.line);
			result_hint(res, "correct the channel in %s:%u (rustup names a "
				    "release, stable, beta or nightly, without a host)",
				    r->origin.file, r->origin.line);
		}
		return;
	}
	result_set(res, STATUS_ERROR, "%s", a->error);
	res->reason = a->timed_out ? REASON_TIMEOUT : REASON_EXEC_FAILED;
	if (a->timed_out)
		result_hint(res, "if it is only slow, raise the deadline with "
			    "--timeout=MS");
	else if (a->no_process)
		result_hint(res, "no process could be started: the limit on "
			    "processes is reached (ulimit -u, the cgroup's pids.max)");
	else if (a->no_version && versions_token_safe(r->name))
		result_hint(res, "if it prints its version some other way, give "
			    "runtimes.%s a command and a version_regex in "
			    "preflight.yaml", r->name);
	if (a->skipped)
		result_note(res, "%s", a->skipped);
}

static void report_refused(struct result *res, const struct runtime_req *r,
			   const struct runtime_answer *a)
{
	result_set(res, a->refused, "%s%s", a->refused == STATUS_WARN ?
		   "not checked: " : "", a->error);
	res->reason = REASON_REFUSED;
	if (a->refused == STATUS_WARN)
		result_hint(res, "envpreflight never runs code a repository "
			    "ships; check this one by hand if you trust the "
			    "repository");
	else if (versions_token_safe(r->name))
		result_hint(res, "give runtimes.%s a command such as [%s, "
			    "--version] and a version_regex", r->name, r->name);
	if (a->skipped)
		result_note(res, "%s", a->skipped);
}

/* The version a pnpm found runs as, when it is not its own: pnpm 9.7 to
 * 10 switch to the version a pnpm packageManager pins when
 * manage-package-manager-versions is on (pnpm 10's default; pnpm
 * switchCliVersion.ts), pnpm 11 when pmOnFail is "download" (its
 * default), before they read anything else.  So every pnpm requirement,
 * a workspace's too, is met or not by that version.  NULL: no pin,
 * another tool, or a pnpm that runs itself. */
static const char *pnpm_runs_as(const struct spec *spec, const struct runtime_req *r,
				const char *found)
{
	struct semver f = SEMVER_INIT;
	int sw = 0;

	/* a workspace's pnpm is the repository's: pnpm reads packageManager
	 * and its settings at the workspace root */
	while (spec->parent)
		spec = spec->parent;
	if (strcmp(r->name, "pnpm") || !spec->pnpm_pin || !strcmp(spec->pnpm_pin, found) ||
	    semver_parse(found, SEMVER_LOOSE, &f) < 0)
		return NULL;
	if (f.major >= 11)
		sw = !spec->pnpm_on_fail[0] || !strcmp(spec->pnpm_on_fail, "download");
	else if (f.major == 10)
		sw = spec->pnpm_manage >= 0;
	else if (f.major == 9 && f.minor >= 7)
		sw = spec->pnpm_manage > 0;
	semver_release(&f);
	return sw ? spec->pnpm_pin : NULL;
}

static void report_found(const struct run_ctx *ctx, struct result *res,
			 const struct runtime_prep *p,
			 const struct known_runtime *k,
			 const struct runtime_answer *a)
{
	struct runtime_verdict v = { STATUS_PASS, BUF_INIT };
	const char *as = pnpm_runs_as(ctx->spec, p->r, a->version);

	if (as) {
		/* judged as the pnpm that will run: the pin itself is met,
		 * the other requirements by the pinned version */
		buf_printf(&v.msg, "pnpm %s found switches to %s, the packageManager pin, "
			   "before it runs", a->version, as);
		if (p->r->src != SRC_PACKAGE_MANAGER) {
			struct runtime_verdict w = { STATUS_PASS, BUF_INIT };

			runtime_judge(p, k, as, &w);
			buf_printf(&v.msg, ": %s", buf_str(&w.msg));
			v.status = w.status;
			buf_release(&w.msg);
		}
		if (res->data)
			cJSON_ReplaceItemInObject(res->data, "runs_as", cJSON_CreateString(as));
	} else {
		runtime_judge(p, k, a->version, &v);
	}
	if (v.status == STATUS_FAIL && p->r->unmet != SEV_FAIL)
		v.status = severity_status(p->r->unmet);
	/* a binary PATH offered first (.venv/bin/python3 inside the
	 * repository) was passed over: say which one answered */
	if (a->skipped && a->path)
		buf_printf(&v.msg, "; checked %s instead: %s", a->path, a->skipped);
	result_set(res, v.status, "%s", buf_str(&v.msg));
	/* a warning is a version that could not be compared, or go.mod's
	 * toolchain preferred over the go found */
	if (v.status == STATUS_FAIL || (v.status == STATUS_WARN &&
					p->r->src == SRC_GO_TOOLCHAIN))
		res->reason = REASON_VERSION_MISMATCH;
	else if (v.status != STATUS_PASS)
		res->reason = REASON_CANNOT_COMPARE;
	if (as && v.status != STATUS_PASS) {
		/* installing another pnpm changes nothing: it switches too */
		result_hint(res, "the packageManager pin (pnpm %s) does not meet %s from %s: "
			    "change the one or the other", as, p->want, runtime_req_from(p->r));
		result_fix_edit(res, runtime_req_from(p->r), p->r->origin.line);
	} else if (v.status == STATUS_FAIL || (v.status == STATUS_WARN &&
					       (p->r->kind == REQ_GO_MIN ||
						p->r->unmet == SEV_WARN))) {
		runtime_hint_install(ctx, res, p, k, a->path);
	}
	if (v.status != STATUS_PASS && p->r->unmet != SEV_FAIL && p->r->unmet_rule)
		result_note(res, "%s, not a failure: %s",
			    v.status == STATUS_WARN ? "a warning" : "skipped",
			    p->r->unmet_rule);
	explain(res, a);
	nvmrc_notes(res, p);
	buf_release(&v.msg);
}

/* The requirements past the cap (spec.h SPEC_RUNTIMES_MAX): how many,
 * from where; nothing of them is checked. */
static void report_capped(const struct spec *spec, struct result *res)
{
	const struct origin *o = &spec->runtimes_capped_origin;

	res->data = cJSON_CreateObject();
	cJSON_AddNumberToObject(res->data, "requirements_not_checked",
				(double)spec->runtimes_capped);
	cJSON_AddNumberToObject(res->data, "max", SPEC_RUNTIMES_MAX);
	result_set(res, STATUS_SKIP, "not checked: %zu more runtime requirement%s "
		   "(from %s:%u on); only the first %d are taken",
		   spec->runtimes_capped, spec->runtimes_capped > 1 ? "s" : "",
		   o->file ? o->file : "?", o->line, SPEC_RUNTIMES_MAX);
	res->reason = REASON_OUT_OF_SCOPE;
	result_hint(res, "keep %s to the tools this repository uses",
		    o->file ? o->file : "the version files");
}

/* ---- devEngines: cpu, os, libc, and alternatives ---- */

/* One devEngines cpu/os/libc entry against this machine, as npm's
 * checkDependency: 1 met, 0 not, -1 npm cannot tell; why in msg. */
static int judge_platform(const struct runtime_req *r, const struct platform *pl,
			  struct buf *msg)
{
	const char *cur = !strcmp(r->name, "os") ? pl->os :
			  !strcmp(r->name, "cpu") ? pl->cpu : pl->libc;
	struct semver_range *range;
	char want[RUNTIME_QUOTE_MAX];
	int m;

	versions_quote(want, sizeof(want), r->spec, strlen(r->spec));
	if (!cur || !*cur) {
		buf_printf(msg, "cannot tell this machine's %s (npm stops: "
			   "'Unable to determine \"name\" for \"%s\"')", r->name,
			   r->name);
		return -1;
	}
	if (strcmp(cur, r->spec)) {
		buf_printf(msg, "%s is not %s", cur, want);
		return 0;
	}
	if (!r->platform_version) {
		buf_printf(msg, "%s", cur);
		return 1;
	}
	versions_quote(want, sizeof(want), r->platform_version,
		       strlen(r->platform_version));
	range = semver_range_parse(r->platform_version, 0);
	if (range) {
		m = semver_satisfies_str(pl->os_version, r->platform_version, 0) == 1;
		semver_range_free(range);
	} else {
		m = !strcmp(pl->os_version, r->platform_version);
	}
	buf_printf(msg, m ? "%s %s (version %s)" : "%s %s does not satisfy version "
		   "%s (npm matches os.release() as semver, without prereleases)",
		   cur, pl->os_version, want);
	return m;
}

/* One alternative that names a runtime: its verdict into msg. */
static int judge_alt_runtime(const struct run_ctx *ctx, const struct runtime_req *q,
			     struct buf *msg, const struct runtime_answer **first)
{
	const struct known_runtime *k = runtime_table_find(q->name);
	const struct runtime_answer *a;
	struct runtime_prep p;
	struct runtime_verdict v = { STATUS_PASS, BUF_INIT };
	int m = -1;

	runtime_prep_init(&p, q);
	a = runtime_ask(ctx, q->name);
	if (!*first)
		*first = a;
	if (a->state == ANS_FOUND) {
		runtime_judge(&p, k, a->version, &v);
		buf_puts(msg, buf_str(&v.msg));
		m = v.status == STATUS_PASS ? 1 : v.status == STATUS_FAIL ? 0 : -1;
		buf_release(&v.msg);
	} else if (a->state == ANS_MISSING) {
		buf_printf(msg, "%s not found on PATH", a->tried);
		m = 0;
	} else {
		buf_printf(msg, "%s: %s", q->name, a->error ? a->error : "not asked");
	}
	runtime_prep_release(&p);
	return m;
}

/* A devEngines key: every entry an alternative (npm: the key fails when
 * every entry fails), judged in order; the first that is met passes.
 * Otherwise the key's onFail (on r, the first) decides. */
/* Cut off while the runtimes of alternatives are asked: the data of a
 * check that learnt nothing, and what it was doing. */
static void publish_asking(const struct run_ctx *ctx, const struct result *res,
			   const struct runtime_req *r)
{
	struct result cut;

	result_copy(&cut, res);
	data_answer(cut.data, NULL);
	result_set(&cut, STATUS_ERROR, "timed out: still asking for %s's version "
		   "at the deadline", r->name);
	cut.reason = REASON_TIMEOUT;
	run_publish(ctx, &cut);
	result_release(&cut);
}

static void report_alternatives(const struct run_ctx *ctx,
				const struct runtime_req *r, struct result *res)
{
	const struct runtime_answer *first = NULL;
	struct platform pl;
	struct buf msg = BUF_INIT, one = BUF_INIT;
	unsigned i;
	int unknown = 0, have_pl = 0;

	if (r->kind != REQ_PLATFORM)
		publish_asking(ctx, res, r);
	for (i = 0; i < r->nalt; i++) {
		const struct runtime_req *q = r + i;
		int m;

		buf_release(&one);
		if (q->kind == REQ_PLATFORM && !have_pl) {
			platform_current(&pl);	/* once, when first asked */
			have_pl = 1;
		}
		m = q->kind == REQ_PLATFORM ? judge_platform(q, &pl, &one) :
		    judge_alt_runtime(ctx, q, &one, &first);
		if (m == 1) {
			if (r->nalt > 1)
				buf_printf(&one, " (entry %u of %u of package.json "
					   "devEngines)", i + 1, r->nalt);
			else if (q->kind == REQ_PLATFORM)
				buf_puts(&one, " (package.json devEngines)");
			data_answer(res->data, first);
			result_set(res, STATUS_PASS, "%s", buf_str(&one));
			goto out;
		}
		unknown |= m < 0;
		buf_printf(&msg, "%s%s", i ? "; " : "", buf_str(&one));
	}
	data_answer(res->data, first);
	if (r->nalt > 1)
		buf_printf(&msg, " (none of the %u entries of package.json devEngines "
			   "is met)", r->nalt);
	else if (r->kind == REQ_PLATFORM)
		buf_puts(&msg, " (package.json devEngines)");
	result_set(res, unknown && r->kind == REQ_PLATFORM ? STATUS_ERROR :
		   severity_status(r->unmet), "%s", buf_str(&msg));
	res->reason = unknown ? REASON_CANNOT_COMPARE : REASON_VERSION_MISMATCH;
	if (res->status == STATUS_FAIL && r->kind == REQ_PLATFORM)
		result_hint(res, "this machine cannot run the project as its "
			    "package.json devEngines asks: use a machine (or a "
			    "container) that matches");
	else if (res->status != STATUS_PASS && r->unmet_rule)
		result_note(res, "%s, not a failure: %s",
			    res->status == STATUS_WARN ? "a warning" : "skipped",
			    r->unmet_rule);
out:
	buf_release(&one);
	buf_release(&msg);
}

/* What a, final or pending, says about requirement p: status, message,
 * hint, notes and the answer's data keys. */
static void report_answer(const struct run_ctx *ctx, struct result *res,
			  const struct runtime_prep *p,
			  const struct known_runtime *k,
			  const struct runtime_answer *a)
{
	const struct runtime_req *r = p->r, *lead;

	data_answer(res->data, a);
	switch (a->state) {
	case ANS_MISSING:
		lead = missing_lead(ctx->spec, r);
		/* a workspace's: the repository's own check reports it, when
		 * it has one (one missing pnpm, one failure for the whole
		 * monorepo) */
		if (ctx->spec->parent && missing_lead(ctx->spec->parent, r) != r)
			lead = missing_lead(ctx->spec->parent, r);
		if (lead != r) {
			result_set(res, STATUS_SKIP, "not checked: %s is not on PATH, "
				   "which the %s%s check reports (needs %s here)",
				   r->name, lead == missing_lead(ctx->spec, r) ? "" :
				   "repository's ", req_source_label(lead->src),
				   *r->spec ? p->want : "any version");
			res->reason = REASON_NOT_FOUND;
			break;
		}
		report_missing(res, p, a);
		if (r->missing != SEV_FAIL)
			apply_unmet(res, r, r->missing);
		else
			runtime_hint_install(ctx, res, p, k, NULL);
		break;
	case ANS_ERROR:
		report_error(res, r, a);
		break;
	case ANS_PENDING:	/* as it will be, should it not answer */
		if (a->asked_docker)
			report_docker(res, a);
		else
			report_error(res, r, a);
		break;
	case ANS_REFUSED:
		report_refused(res, r, a);
		break;
	case ANS_DOCKER:
		report_docker(res, a);
		break;
	case ANS_FOUND:
		report_found(ctx, res, p, k, a);
		break;
	}
	if (a->default_path)
		result_note(res, "PATH is not set: looked on the system's default "
			    "search path %s (confstr _CS_PATH), as sh and execvp do",
			    a->default_path);
}

/* Before the program runs (or the daemon is asked): publish what this
 * check says should the run's deadline cut it off meanwhile, the same as
 * it would say once the program is killed at its own deadline. */
static void publish_pending(const struct run_ctx *ctx, const struct result *res,
			    const struct runtime_prep *p,
			    const struct known_runtime *k,
			    const struct runtime_answer *a)
{
	struct result cut;

	result_copy(&cut, res);
	report_answer(ctx, &cut, p, k, a);
	data_lts(cut.data, p);
	run_publish(ctx, &cut);
	result_release(&cut);
}

static void runtimes_run(const struct run_ctx *ctx, const struct check *c,
			 struct result *res)
{
	const struct runtime_req *r = c->arg;
	const struct known_runtime *k;
	const struct runtime_answer *a;
	struct runtime_prep p;

	if (!r) {
		report_capped(ctx->spec, res);
		return;
	}
	if (c->index == RUNTIME_WORKSPACES_CHECK) {
		runtime_workspaces_run(ctx, c, res);
		return;
	}
	k = runtime_table_find(r->name);
	runtime_prep_init(&p, r);
	res->data = data_new(r);
	if (p.bad) {
		data_answer(res->data, NULL);
		report_bad(res, &p);
		goto out;
	}
	if (r->nalt > 1 || r->kind == REQ_PLATFORM) {
		report_alternatives(ctx, r, res);
		goto out;
	}
	/* a plugin or tool name of asdf's or mise's need not be a program's:
	 * never run as NAME --version (a repository could name any program
	 * on PATH so) */
	if (!runtime_askable(ctx->spec, r->name) &&
	    (r->src == SRC_TOOL_VERSIONS || r->src == SRC_MISE)) {
		data_answer(res->data, NULL);
		report_unaskable(res, r);
		goto out;
	}
	a = runtime_prepare(ctx, r->name);
	if (a->state == ANS_PENDING) {
		publish_pending(ctx, res, &p, k, a);
		a = runtime_ask(ctx, r->name);
	}
	report_answer(ctx, res, &p, k, a);
out:
	data_lts(res->data, &p);
	runtime_prep_release(&p);
}

/* ---- the plan: one check per requirement ---- */

/* Ids: runtime.NAME.SOURCE (runtime.node.engines, runtime.node.nvmrc,
 * runtime.python.preflight): they depend on the requirement's own source
 * only, so that one source added or removed never renames another's
 * check (a harness keys its allowlists on them).  ".2", ".3" follow should
 * one source name a runtime twice.  Titles likewise: "Node.js (.nvmrc)".
 * The requirements past the cap are one skipped check, runtimes.capped. */
static void runtimes_plan(const struct spec *spec, struct plan *plan)
{
	struct buf id = BUF_INIT, title = BUF_INIT;
	struct check *c;
	size_t i, base;
	unsigned n;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];
		const struct known_runtime *k = runtime_table_find(r->name);

		if (!r->nalt)
			continue;	/* an alternative: its first's check */
		buf_printf(&id, "runtime.%s.%s", r->name, req_source_key(r->src));
		base = id.len;
		for (n = 2; plan_id_taken(plan, buf_str(&id)); n++) {
			id.len = base;
			buf_printf(&id, ".%u", n);
		}
		buf_printf(&title, "%s (%s)", k ? k->display : r->name,
			   req_source_label(r->src));
		c = plan_add(plan, &probe_runtimes, buf_str(&id), buf_str(&title),
			     r->origin, r, i);
		/* the daemon's answer changes as it starts; a program's
		 * version does not */
		c->volatile_state = runtime_by_socket(spec, r->name);
		buf_release(&id);
		buf_release(&title);
	}
	/* "runtimes.", not "runtime.": no runtime name can take this id */
	if (spec->runtimes_capped)
		plan_add(plan, &probe_runtimes, "runtimes.capped", "Runtime requirements",
			 spec->runtimes_capped_origin, NULL, 0);
	runtime_workspaces_plan(&probe_runtimes, spec, plan);
}

static const char *const runtimes_ids[] = {
	"runtime.NAME.SOURCE",
	"runtime.NAME.SOURCE.N",
	"runtimes.capped",
	"runtime.NAME.workspaces",
	NULL
};

/* The version cache's counters count for the process (an MCP server runs
 * many audits): the mark is where they stood when this audit started. */
static void cache_mark(struct probe_mark *m)
{
	version_cache_counters(&m->n[0], &m->n[1], &m->n[2]);
}

/* The run block's "version_cache": {dir, state, entries, and this
 * audit's hits, misses and stores}. */
static cJSON *cache_json(const struct probe_mark *m)
{
	static const char *const states[] = {
		[VERSION_CACHE_READY] = "ready", [VERSION_CACHE_EMPTY] = "empty",
		[VERSION_CACHE_UNAVAILABLE] = "unavailable",
	};
	struct version_cache_info v;
	cJSON *o = cJSON_CreateObject();

	version_cache_describe(&v);
	if (v.dir)
		cJSON_AddStringToObject(o, "dir", v.dir);
	else
		cJSON_AddNullToObject(o, "dir");
	cJSON_AddStringToObject(o, "state", states[v.state]);
	cJSON_AddNumberToObject(o, "entries", (double)v.entries);
	cJSON_AddNumberToObject(o, "hits", v.hits - m->n[0]);
	cJSON_AddNumberToObject(o, "misses", v.misses - m->n[1]);
	cJSON_AddNumberToObject(o, "stores", v.stores - m->n[2]);
	free(v.dir);
	return o;
}

const struct probe probe_runtimes = {
	.name = "runtimes",
	.summary = "node, python, go, docker, ... versions against every declared "
		   "requirement",
	.plan = runtimes_plan,
	.run = runtimes_run,
	.ids = runtimes_ids,
	.run_key = "version_cache",
	.run_mark = cache_mark,
	.run_json = cache_json,
};
