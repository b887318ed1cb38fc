/* runtime_ask.c - a runtime's version from the machine, asked once a run
 * (run_once, keyed on the runtime name) however many requirements name
 * it: node is asked once whether .nvmrc, engines and preflight.yaml all
 * want it.
 *
 * Asking means, in order: the exec-free shortcuts of peek_version, the
 * version cache, and only then one spawn of the binary found on PATH
 * (relative entries and entries inside the audited repository skipped),
 * with an argv, the repository as working directory, a scrubbed
 * environment and the run's deadline.  Before any spawn, exec_guard_check
 * looks for repository configuration that would make the binary run code
 * the repository ships, and runtime_cmd_allowed for a preflight.yaml
 * command that is more than a version query: either means it is not run.
 * The docker daemon is asked over its socket instead.
 *
 * Two steps, each once a run: runtime_prepare does everything short of
 * the spawn (or the daemon's answer) and, when one is needed, leaves a
 * pending answer that already says what the check will report should the
 * program not answer in time; runtime_ask completes it.  Between the two
 * a check publishes that pending report (run_publish), so that a check
 * the run's deadline cuts off says the same as one that saw the program
 * killed at its own, slightly earlier, deadline.  Each child is recorded
 * as the check's that ran it (spawn_run_for), so that one the kernel will
 * not let die is named in that check.
 *
 * Workspaces: one answer serves the repository and every workspace
 * ("runtime:NAME"), asked from the repository.  A workspace gets an answer
 * of its own ("runtime:NAME@apps/web"), asked from its directory, only when
 * both hold: it has a file a version manager reads to choose NAME's
 * version (spec_selects_version: .nvmrc, .python-version, .tool-versions,
 * volta, packageManager), and the shared answer could depend on the
 * directory asked from (it came from running the binary, or from a pyenv
 * shim resolved from the repository's .python-version).  An answer read
 * from an install path, an npm manifest, the cache or a socket, or a
 * binary missing from PATH, is the same from any directory, and is shared:
 * fifty workspaces with an .nvmrc cost no more than one.
 */
#include "runtime_ask.h"
#include "runtime_select.h"
#include "runtimes.h"
#include "spawnrun.h"
#include "spec_workspaces.h"

#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>	/* environ, with _GNU_SOURCE */

#define VERSION_MAX 64		/* longer "versions" are junk */
#define EXEC_MARGIN_MS 50	/* an exec ends this much before the run's
				 * deadline, so the check can say which
				 * binary hung rather than the runner's
				 * anonymous "timed out" */

/* ---- the child's environment ---- */

/* Forced on every child whatever our environment says: a version check
 * must never download code the repository names (corepack's pinned
 * package manager, pnpm's own switch to the pnpm packageManager names -
 * spelt for pnpm 9.7 to 10 and for pnpm 11 -, a go.mod toolchain, a
 * missing tool that mise, rustup or tfenv would install), run a file the
 * repository names (yarnPath: yarn is not run at all then, this is a
 * second fence; npm 6's onload-script from a project .npmrc, which the
 * environment outranks), edit the repository (corepack auto-pins
 * packageManager into package.json) or phone home.  Corepack (0.29 and
 * later, specUtils' loadSpec) also takes COREPACK_* variables from a
 * .corepack.env beside each package.json it passes: a repository's
 * COREPACK_HOME there would make it run the repository's own "pnpm";
 * COREPACK_ENV_FILE=0 turns that reading off. */
static const char *const forced_env[] = {
	"COREPACK_ENABLE_NETWORK=0", "COREPACK_ENABLE_DOWNLOAD_PROMPT=0",
	"COREPACK_ENV_FILE=0",
	"COREPACK_ENABLE_AUTO_PIN=0", "GOTOOLCHAIN=local", "CHECKPOINT_DISABLE=1",
	"DENO_NO_UPDATE_CHECK=1", "NO_UPDATE_NOTIFIER=1",
	"DOTNET_CLI_TELEMETRY_OPTOUT=1", "DOTNET_NOLOGO=1",
	"DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1",
	"npm_config_manage_package_manager_versions=false",
	"pnpm_config_manage_package_manager_versions=false",
	"npm_config_pm_on_fail=ignore", "pnpm_config_pm_on_fail=ignore",
	"npm_config_onload_script=", "YARN_IGNORE_PATH=1",
	"MISE_AUTO_INSTALL=0", "MISE_EXEC_AUTO_INSTALL=0",
	"MISE_NOT_FOUND_AUTO_INSTALL=0", "RUSTUP_AUTO_INSTALL=0",
	"TFENV_AUTO_INSTALL=false",
};

/* Never passed on, though spawn_env_for_repo's MISE_ prefix would: they
 * make mise trust (and so run) a repository's mise.toml unasked. */
static const char *const dropped_env[] = {
	"MISE_YES", "MISE_TRUSTED_CONFIG_PATHS",
};

static int forced_name(const char *entry)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forced_env); i++) {
		size_t n = strcspn(forced_env[i], "=") + 1;

		if (!strncmp(entry, forced_env[i], n))
			return 1;
	}
	for (i = 0; i < ARRAY_SIZE(dropped_env); i++) {
		size_t n = strlen(dropped_env[i]);

		if (!strncmp(entry, dropped_env[i], n) && entry[n] == '=')
			return 1;
	}
	return 0;
}

/* The child's environment: spawn_env_for_repo, less dropped_env, plus
 * forced_env. */
static char **child_env(const char *root)
{
	char **env = spawn_env_for_repo(environ, root);
	size_t n = 0, i;

	for (i = 0; env[i]; i++) {
		if (forced_name(env[i]))
			free(env[i]);
		else
			env[n++] = env[i];
	}
	env = xrealloc(env, (n + ARRAY_SIZE(forced_env) + 1) * sizeof(*env));
	for (i = 0; i < ARRAY_SIZE(forced_env); i++)
		env[n++] = xstrdup(forced_env[i]);
	env[n] = NULL;
	return env;
}

/* ---- what it printed ---- */

/* A version as found: digits first, then version characters only. */
static int version_ok(const char *s)
{
	size_t n = strlen(s);

	return n && n < VERSION_MAX && s[0] >= '0' && s[0] <= '9' &&
	       strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+-_") == n;
}

/* The first line of out, quoted for a message. */
static const char *first_line(const char *out, size_t len, char *q, size_t qlen)
{
	const char *s = out;

	while (len && versions_isspace((unsigned char)*s))
		s++, len--;
	versions_quote(q, qlen, s, strcspn(s, "\n") < len ? strcspn(s, "\n") : len);
	return q;
}

/* The version in out by regex rx (first group, or the whole match).
 * Returns a new string, or NULL. */
static char *extract(const char *rx, const char *out)
{
	regmatch_t m[2];
	regex_t re;
	char *v = NULL;
	int g;

	if (regcomp(&re, rx, REG_EXTENDED | REG_NEWLINE) != 0)
		return NULL;
	if (regexec(&re, out, 2, m, 0) == 0) {
		g = re.re_nsub > 0 && m[1].rm_so >= 0 ? 1 : 0;
		v = xstrndup(out + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so));
	}
	regfree(&re);
	if (v && v[0] == 'v' && v[1] >= '0' && v[1] <= '9')
		memmove(v, v + 1, strlen(v));
	return v;
}

static void answer_error(struct runtime_answer *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void answer_error(struct runtime_answer *a, const char *fmt, ...)
{
	va_list ap;

	a->state = ANS_ERROR;
	free(a->error);
	va_start(ap, fmt);
	a->error = xvformat(fmt, ap);
	va_end(ap);
}

static void answer_found(struct runtime_answer *a, const char *v,
			 enum vmethod method)
{
	a->state = ANS_FOUND;
	a->version = xstrdup(v);
	a->method = method;
}

/* The version in python's output: the first line that holds one, since a
 * shim (pyenv's, asdf's) may print a warning first.  Past the first line
 * only "Python X.Y.Z" counts, so that a number in a warning is never
 * taken for the version. */
static int python_output(const char *out, size_t len, char *buf, size_t buflen)
{
	size_t i = 0;
	int first = 1;

	while (i < len) {
		const char *nl = memchr(out + i, '\n', len - i);
		size_t n = nl ? (size_t)(nl - out) - i : len - i;
		const char *s = out + i;
		size_t k = n;

		versions_trim(&s, &k);
		i += n + 1;
		if (!k)
			continue;
		if ((first || (k > 7 && !memcmp(s, "Python ", 7))) &&
		    pep440_python_output(s, k, buf, buflen) == 0)
			return 0;
		first = 0;
	}
	return -1;
}

/* rustup's proxy, in a directory whose toolchain file selects a
 * toolchain that is not installed, exits 1 with "error: toolchain 'NAME'
 * is not installed" (src/errors.rs RustupError::ToolchainNotInstalled;
 * RUSTUP_AUTO_INSTALL=0 keeps it from installing it): NAME as a new
 * string, or NULL. */
static char *rustup_not_installed(const char *out, size_t len)
{
	static const char pre[] = "error: toolchain '", post[] = "' is not installed";
	const char *end = memchr(out, '\n', len), *q;

	if (!end)
		end = out + len;
	if ((size_t)(end - out) <= sizeof(pre) - 1 + sizeof(post) - 1 ||
	    memcmp(out, pre, sizeof(pre) - 1))
		return NULL;
	q = memchr(out + sizeof(pre) - 1, '\'', (size_t)(end - out) - (sizeof(pre) - 1));
	if (!q || q == out + sizeof(pre) - 1 || (size_t)(end - q) < sizeof(post) - 1 ||
	    memcmp(q, post, sizeof(post) - 1))
		return NULL;
	return xstrndup(out + sizeof(pre) - 1, (size_t)(q - out) - (sizeof(pre) - 1));
}

/* Turn what the child printed into a->version, or a->error. */
static void read_output(struct runtime_answer *a,
			const struct spawn_result *res, const char *rx)
{
	const char *what;
	unsigned line, col;
	char q[64], pv[VERSION_MAX];
	size_t i;
	char *v = NULL;

	for (i = 0; i < res->out_len && versions_isspace((unsigned char)res->out[i]); i++)
		;
	if (i == res->out_len) {
		if (res->code)
			answer_error(a, "'%s' printed nothing and exited with status %d",
				     a->command, res->code);
		else
			answer_error(a, "'%s' printed nothing", a->command);
		return;
	}
	if (memchr(res->out, 0, res->out_len) ||
	    text_check(res->out, res->out_len, &line, &col, &what) < 0) {
		answer_error(a, "'%s' printed binary output, not a version", a->command);
		return;
	}
	if (res->code) {
		answer_error(a, "'%s' exited with status %d: '%s'", a->command, res->code,
			     first_line(res->out, res->out_len, q, sizeof(q)));
		free(a->not_installed);
		a->not_installed = rustup_not_installed(res->out + i, res->out_len - i);
		return;
	}
	if (rx)
		v = extract(rx, res->out);	/* REG_NEWLINE: any line */
	else if (python_output(res->out, res->out_len, pv, sizeof(pv)) == 0)
		v = xstrdup(pv);
	if (!v || !version_ok(v)) {
		answer_error(a, "'%s' printed no version: '%s'", a->command,
			     first_line(res->out, res->out_len, q, sizeof(q)));
		a->no_version = 1;
		free(v);
		return;
	}
	a->state = ANS_FOUND;
	a->version = v;
	a->method = VMETHOD_EXEC;
}

/* ---- which binary ---- */

/* How one runtime is asked: the built-in table, overridden by
 * preflight.yaml's command and version_regex for that name (which then
 * holds for every requirement of the name, whatever file it came from). */
struct ask {
	const char *name;
	const struct known_runtime *k;
	char *const *command;
	const char *regex;
};

static void ask_init(struct ask *q, const struct spec *spec, const char *name)
{
	size_t i;

	memset(q, 0, sizeof(*q));
	q->name = name;
	q->k = runtime_table_find(name);
	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];

		if (strcmp(r->name, name))
			continue;
		if (r->command && !q->command)
			q->command = r->command;
		if (r->version_regex && !q->regex)
			q->regex = r->version_regex;
	}
}

/* An absolute command from preflight.yaml: never one inside the
 * repository, and it must be an executable file.  Returns its canonical
 * path (a new string), or NULL with a note in skipped. */
static char *absolute_binary(const char *path, const char *root, struct buf *skipped)
{
	char *real = realpath(path, NULL);
	struct stat st;
	const char *why = NULL;

	if (!real)
		return NULL;
	if (path_is_inside(real, root))
		why = "inside the audited repository";
	else if (stat(real, &st) < 0 || !S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (access(real, X_OK) < 0)
		why = "not executable";
	/* the canonical path is what was judged, so it is what runs: a path
	 * through /proc/self/cwd or a symlink would be read again by the
	 * child, from the repository it runs in */
	if (!why)
		return real;
	free(real);
	buf_puts(skipped, "'");
	buf_add_clean(skipped, path);
	buf_printf(skipped, "' skipped: %s", why);
	return NULL;
}

/* Look the binary up: a->path, or a->state ANS_MISSING. */
static void find_binary(struct runtime_answer *a, const struct ask *q,
			const char *root)
{
	int dflt;
	const char *path_env = spawn_search_path(&dflt);
	struct buf tried = BUF_INIT, skipped = BUF_INIT;
	const char *one[2] = { NULL, NULL };
	const char *const *bins = one;

	if (q->command)
		one[0] = q->command[0];
	else if (q->k)
		bins = q->k->bins;
	else
		one[0] = q->name;
	for (; *bins && !a->path; bins++) {
		char *why = NULL;

		buf_printf(&tried, "%s%s", tried.len ? ", " : "", *bins);
		if ((*bins)[0] == '/') {
			a->path = absolute_binary(*bins, root, &skipped);
			continue;
		}
		a->path = spawn_which_why(*bins, path_env, root, &why);
		if (why) {
			if (skipped.len)
				buf_puts(&skipped, "; ");
			buf_puts(&skipped, why);
			free(why);
		}
	}
	a->tried = buf_detach(&tried);
	a->default_path = dflt ? xstrdup(path_env) : NULL;
	a->skipped = skipped.len ? buf_detach(&skipped) : NULL;
	buf_release(&skipped);
	if (!a->path)
		a->state = ANS_MISSING;
}

/* "path arg..." as run, for messages. */
static char *command_text(const char *path, char *const *argv)
{
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, path);
	for (i = 1; argv[0] && argv[i]; i++)
		buf_printf(&b, " %s", argv[i]);
	return buf_detach(&b);
}

/* ---- asking ---- */

static void answer_free(void *v)
{
	struct runtime_answer *a = v;

	if (!a)
		return;
	free(a->name);
	free(a->default_path);
	free(a->version);
	free(a->path);
	free(a->resolved);
	free(a->command);
	free(a->skipped);
	free(a->tried);
	free(a->error);
	free(a->note);
	free(a->not_installed);
	free(a->docker_cli);
	if (a->asked_docker)
		docker_info_release(&a->docker);
	free(a);
}

static void refuse_command(struct runtime_answer *a, const struct ask *q)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; q->command[i] && b.len < RUNTIME_QUOTE_MAX; i++) {
		if (i)
			buf_putc(&b, ' ');
		buf_add_clean(&b, q->command[i]);
	}
	answer_error(a, "not run: '%.*s' (the command preflight.yaml gives %s) is "
		     "not a version query envpreflight runs: a repository chooses "
		     "that command, so only PROGRAM --version runs, and -version, -v, "
		     "-V or version [--short|--client] for a program that is not a "
		     "shell, an interpreter, a package manager or a task runner",
		     RUNTIME_QUOTE_MAX, buf_str(&b), q->name);
	a->state = ANS_REFUSED;
	a->refused = STATUS_ERROR;
	buf_release(&b);
}

/* Where a runtime is asked from: the repository, or a workspace's
 * directory (its version files are the ones a shim reads there). */
static const char *ask_dir(const struct run_ctx *ctx)
{
	return ctx->spec->dir_abs ? ctx->spec->dir_abs : ctx->spec->root;
}

/* The deadline of one exec: a little before the run's, when there is
 * time for it. */
static double exec_deadline(const struct run_ctx *ctx)
{
	double left = ctx->deadline_ms - clock_ms();

	return left > 4 * EXEC_MARGIN_MS ? ctx->deadline_ms - EXEC_MARGIN_MS :
	       ctx->deadline_ms;
}

/* The argv that asks: preflight.yaml's command, else the binary found
 * with the table's arguments (or --version).  The strings are q's and
 * a's; max counts the closing NULL. */
static void ask_argv(const struct runtime_answer *a, const struct ask *q,
		     const char **argv, size_t max)
{
	size_t n = 0, i;

	if (q->command) {
		for (i = 0; q->command[i] && n < max - 1; i++)
			argv[n++] = q->command[i];
	} else {
		argv[n++] = a->path;
		for (i = 0; q->k && q->k->args[i]; i++)
			argv[n++] = q->k->args[i];
		if (!q->k)
			argv[n++] = "--version";
	}
	argv[n] = NULL;
}

/* The exec-free shortcuts: 1 when they gave the version.  A shim's target
 * goes into a->resolved, to be run (or cached) instead of the shim, but
 * never one inside the repository. */
static int ask_shortcut(struct runtime_answer *a, const struct ask *q,
			const char *where, const char *root, char **env)
{
	char v[VERSION_MAX], *real = NULL;
	enum vmethod method;
	int got = peek_version(q->name, a->path, where, env, v, sizeof(v),
			       &method, &real);

	if (real) {
		char *canon = realpath(real, NULL);

		if (canon && !path_is_inside(canon, root))
			a->resolved = real;
		else
			free(real);
		free(canon);
	}
	if (got != 1 || !version_ok(v))
		return 0;
	answer_found(a, v, method);
	return 1;
}

/* Repository config that would make the binary (or the shim's target)
 * run code the repository ships: 1 when a guard stopped it, with a
 * version read without running it (a->note says why) or refused. */
static int ask_guarded(struct runtime_answer *a, const struct ask *q,
		       const char *root, char **env)
{
	struct exec_guard guard;

	if (!exec_guard_check(q->name, a->path, root, env, &guard) &&
	    !(a->resolved && exec_guard_check(q->name, a->resolved, root, env,
					  &guard))) {
		exec_guard_release(&guard);
		return 0;
	}
	if (guard.version[0] && version_ok(guard.version) && !q->command &&
	    !q->regex) {
		answer_found(a, guard.version, VMETHOD_PATH);
		a->note = guard.why;
	} else {
		a->state = ANS_REFUSED;
		a->refused = STATUS_WARN;
		a->error = guard.why;
	}
	guard.why = NULL;
	exec_guard_release(&guard);
	return 1;
}

/* The cache's context for q's binary run in where (runtime_select.h):
 * *ctx, or NULL when nothing but the binary picks its version. */
static struct version_context *ask_context(const struct ask *q, const char *run_path,
					   const char *where, char **env,
					   struct version_context *ctx)
{
	return runtime_select_context(q->name, run_path, where, env, ctx) == 0 ?
	       ctx : NULL;
}

static int ask_cached(struct runtime_answer *a, const struct ask *q,
		      const char *run_path, const char *where, char **env)
{
	struct version_context ctx;
	const struct version_context *c = ask_context(q, run_path, where, env, &ctx);
	char v[VERSION_MAX];
	int hit = version_cache_get_in(q->name, run_path, c, v, sizeof(v)) == 1 &&
		  version_ok(v);

	runtime_select_release(&ctx);
	if (!hit)
		return 0;
	answer_found(a, v, VMETHOD_CACHE);
	return 1;
}

/* Run it, and read what it printed (the stock commands' answers go into
 * the cache). */
/* What the answer will be if the program does not answer in time: set
 * before it runs, so that a check the run's deadline cuts off says the
 * same as one that saw it killed. */
static void answer_pending(struct runtime_answer *a, double budget_ms)
{
	a->budget_ms = budget_ms > 0 ? budget_ms : 0;
	answer_error(a, "'%s' did not answer within %.0f ms and was killed",
		     a->command, a->budget_ms);
	a->timed_out = 1;
	a->state = ANS_PENDING;
}

/* Keep what the child printed, in the context it started in, unless
 * that context changed while it ran (a go.mod that came and went): the
 * answer may be the other state's. */
static void cache_store(const struct run_ctx *ctx, const struct runtime_answer *a,
			const struct ask *q, const char *run_path, char **env,
			const struct version_context *before)
{
	struct version_context now;
	const struct version_context *after = before ?
		ask_context(q, run_path, ask_dir(ctx), env, &now) : NULL;

	if (!before || (after && !strcmp(before->text, after->text)))
		version_cache_put_in(q->name, run_path, before, a->version);
	if (after)
		runtime_select_release(&now);
}

static void ask_spawn(const struct run_ctx *ctx, struct runtime_answer *a,
		      const struct ask *q, const char *run_path,
		      const char **argv, char **env,
		      const struct version_context *ctx_in)
{
	const char *rx = q->regex ? q->regex :
			 q->command ? RUNTIME_GENERIC_REGEX :
			 q->k ? q->k->regex : RUNTIME_GENERIC_REGEX;
	struct spawn_result res;

	if (spawn_run_for(ctx->check, run_path, (char *const *)argv,
			  ask_dir(ctx), env, exec_deadline(ctx), &res) < 0) {
		a->timed_out = 0;
		a->no_process = res.err == EAGAIN;
		answer_error(a, "could not run '%s': %s", a->command, strerror(res.err));
	} else if (res.status == SPAWN_TIMED_OUT) {
		a->state = ANS_ERROR;	/* what answer_pending said holds */
	} else if (res.status == SPAWN_SIGNALED) {
		a->timed_out = 0;
		answer_error(a, "'%s' was killed by signal %d", a->command, res.code);
	} else {
		a->timed_out = 0;
		free(a->error);
		a->error = NULL;
		read_output(a, &res, rx);
		if (a->state == ANS_FOUND && !q->command && !q->regex)
			cache_store(ctx, a, q, run_path, env, ctx_in);
	}
	spawn_result_release(&res);
}

/* Everything short of the spawn: ANS_PENDING when it must run. */
static void prepare_exec(const struct run_ctx *ctx, struct runtime_answer *a,
			 const struct ask *q)
{
	const char *root = ctx->spec->root, *where = ask_dir(ctx);
	const int stock = !q->command && !q->regex;	/* the table's query */
	const char *argv[66];
	const char *run_path;
	char **env = child_env(root);

	ask_argv(a, q, argv, ARRAY_SIZE(argv));
	/* the shortcuts know the stock commands only; the repository still
	 * bounds what a shim may resolve to */
	if (stock && ask_shortcut(a, q, where, root, env))
		goto out;
	if (stock && q->k && q->k->noexec) {
		answer_error(a, "%s: no version readable without running it "
			     "(no releases/*/OTP_VERSION beside its real file: a "
			     "shim?), and it is never run", a->path);
		goto out;
	}
	run_path = a->resolved ? a->resolved : a->path;
	if (q->command && !runtime_cmd_allowed(q->command, a->path)) {
		refuse_command(a, q);
		goto out;
	}
	/* the guards walk up from where the child runs: a workspace's own
	 * configuration, then the repository's */
	if (ask_guarded(a, q, where, env))
		goto out;
	a->command = command_text(run_path, (char *const *)argv);
	if (stock && ask_cached(a, q, run_path, where, env))
		goto out;
	answer_pending(a, exec_deadline(ctx) - clock_ms());
out:
	spawn_env_free(env);
}

/* The spawn runtime_prepare left pending. */
static void run_exec(const struct run_ctx *ctx, struct runtime_answer *a,
		     const struct ask *q)
{
	const char *argv[66], *run_path = a->resolved ? a->resolved : a->path;
	char **env = child_env(ctx->spec->root);
	struct version_context vc;
	const struct version_context *c = ask_context(q, run_path, ask_dir(ctx), env, &vc);

	ask_argv(a, q, argv, ARRAY_SIZE(argv));
	ask_spawn(ctx, a, q, run_path, argv, env, c);
	runtime_select_release(&vc);
	spawn_env_free(env);
}

/* What the daemon's answer will be if it does not come in time: the
 * query's own, with its deadline already gone (docker_query then asks
 * nothing).  Pending, unless the host is not one that is asked. */
static void prepare_docker(struct runtime_answer *a)
{
	a->asked_docker = 1;
	a->method = VMETHOD_SOCKET;
	docker_query(getenv("DOCKER_HOST"), 0, &a->docker);
	if (a->docker.socket_path)
		a->path = xstrdup(a->docker.socket_path);
	a->state = a->docker.state == DOCKER_TIMEOUT ? ANS_PENDING : ANS_DOCKER;
}

static void ask_docker(const struct run_ctx *ctx, struct runtime_answer *a)
{
	docker_info_release(&a->docker);
	free(a->path);
	a->path = NULL;
	a->asked_docker = 1;
	docker_query(getenv("DOCKER_HOST"), exec_deadline(ctx), &a->docker);
	if (a->docker.socket_path)
		a->path = xstrdup(a->docker.socket_path);
	a->method = VMETHOD_SOCKET;
	if (a->docker.state == DOCKER_OK && a->docker.version &&
	    version_ok(a->docker.version)) {
		a->state = ANS_FOUND;
		a->version = xstrdup(a->docker.version);
	} else {
		a->state = ANS_DOCKER;
	}
	/* no socket: "not installed" only when there is no CLI either */
	if (a->docker.state == DOCKER_NO_SOCKET) {
		char *cli = spawn_which("docker", spawn_search_path(NULL),
					ctx->spec->root);

		if (cli) {
			a->docker_cli = text_clean(cli);
			free(cli);
		}
	}
}

/* run_once's maker for runtime_prepare: arg is the runtime name. */
static void *prepare_version(const struct run_ctx *ctx, const void *arg)
{
	struct runtime_answer *a = xcalloc(1, sizeof(*a));
	struct ask q;

	a->name = xstrdup(arg);
	/* preflight.yaml's command is the repository's, for every model */
	ask_init(&q, spec_top(ctx->spec), arg);
	if (!q.command && q.k && q.k->socket) {
		prepare_docker(a);
		if (a->state != ANS_PENDING)
			ask_docker(ctx, a);	/* not asked: says why at once */
		return a;
	}
	find_binary(a, &q, ctx->spec->root);
	if (a->path)
		prepare_exec(ctx, a, &q);
	return a;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* A copy of a pending answer, to be completed. */
static struct runtime_answer *answer_dup(const struct runtime_answer *p)
{
	struct runtime_answer *a = xmalloc(sizeof(*a));

	*a = *p;
	a->name = xstrdup(p->name);
	a->version = dup_or_null(p->version);
	a->path = dup_or_null(p->path);
	a->resolved = dup_or_null(p->resolved);
	a->command = dup_or_null(p->command);
	a->skipped = dup_or_null(p->skipped);
	a->tried = dup_or_null(p->tried);
	a->error = dup_or_null(p->error);
	a->note = dup_or_null(p->note);
	a->default_path = dup_or_null(p->default_path);
	a->docker_cli = dup_or_null(p->docker_cli);
	a->docker.version = dup_or_null(p->docker.version);
	a->docker.api_version = dup_or_null(p->docker.api_version);
	a->docker.socket_path = dup_or_null(p->docker.socket_path);
	a->docker.detail = dup_or_null(p->docker.detail);
	return a;
}

/* run_once's maker for runtime_ask: arg is the pending prepared answer. */
static void *ask_version(const struct run_ctx *ctx, const void *arg)
{
	struct runtime_answer *a = answer_dup(arg);
	struct ask q;

	ask_init(&q, spec_top(ctx->spec), a->name);
	if (a->asked_docker)
		ask_docker(ctx, a);
	else
		run_exec(ctx, a, &q);
	return a;
}

/* 1 when an answer is the same whichever directory it is asked from. */
static int answer_shared(const struct runtime_answer *a)
{
	switch (a->state) {
	case ANS_MISSING:	/* PATH does not depend on it */
	case ANS_DOCKER:
		return 1;
	case ANS_FOUND:
		return a->method == VMETHOD_MANIFEST || a->method == VMETHOD_CACHE ||
		       a->method == VMETHOD_SOCKET ||
		       (a->method == VMETHOD_PATH && !a->resolved && !a->note);
	default:
		return 0;
	}
}

/* The key of NAME's answer asked from dir (NULL: the repository). */
static void answer_key(struct buf *key, const char *what, const char *name,
		       const char *dir)
{
	buf_printf(key, "%s:%s", what, name);
	if (dir)
		buf_printf(key, "@%s", dir);
}

static const struct runtime_answer *prepare_keyed(const struct run_ctx *ctx,
						  const char *name,
						  const char *dir)
{
	struct buf key = BUF_INIT;
	const struct runtime_answer *a;

	answer_key(&key, "runtime-prepared", name, dir);
	a = run_once(ctx, buf_str(&key), prepare_version, name, answer_free);
	buf_release(&key);
	return a;
}

static const struct runtime_answer *ask_keyed(const struct run_ctx *ctx,
					      const char *name, const char *dir)
{
	const struct runtime_answer *p = prepare_keyed(ctx, name, dir);
	struct buf key = BUF_INIT;
	const struct runtime_answer *a;

	if (p->state != ANS_PENDING)
		return p;
	answer_key(&key, "runtime", name, dir);
	a = run_once(ctx, buf_str(&key), ask_version, p, answer_free);
	buf_release(&key);
	return a;
}

/* The repository's answer asked so far: a workspace that has one of its
 * own gets it from runtime_ask, once the shared one is known. */
const struct runtime_answer *runtime_prepare(const struct run_ctx *ctx,
					     const char *name)
{
	struct run_ctx shared = *ctx;

	shared.spec = spec_top(ctx->spec);
	return prepare_keyed(&shared, name, NULL);
}

const struct runtime_answer *runtime_ask(const struct run_ctx *ctx,
					 const char *name)
{
	const struct spec *top = spec_top(ctx->spec);
	struct run_ctx shared = *ctx;
	const struct runtime_answer *a;

	shared.spec = top;
	a = ask_keyed(&shared, name, NULL);
	if (ctx->spec == top || !spec_selects_version(ctx->spec, name) ||
	    answer_shared(a))
		return a;
	return ask_keyed(ctx, name, ctx->spec->dir);
}

int runtime_askable(const struct spec *spec, const char *name)
{
	struct ask q;

	ask_init(&q, spec_top(spec), name);
	return q.k || q.command;
}

int runtime_by_socket(const struct spec *spec, const char *name)
{
	struct ask q;

	ask_init(&q, spec_top(spec), name);
	return !q.command && q.k && q.k->socket;
}
