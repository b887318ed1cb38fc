/* main.c - the command line: options, load the model, plan, run, render.
 * Only main decides the exit status.
 *
 * Every exit prints one report in the chosen format: when the audit cannot
 * run (exit 2), the JSON document has "ok": null and an "error" object,
 * JUnit an errored test case, GitHub an ::error, and the human message
 * goes to stderr as before.
 */
#include "audit.h"
#include "cliopt.h"
#include "duration.h"
#include "gittop.h"
#include "init.h"
#include "mcp.h"
#include "schema.h"
#include "signals.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

enum exit_status { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* The command line: what the audit takes, and how to show it. */
struct options {
	struct audit_opts a;
	const char *wait_arg, *interval_arg;	/* as given, for messages */
	int explain, no_color, quiet;
	int list_probes, schema;
};

static void usage(FILE *out)
{
	fputs("usage: envpreflight [OPTIONS] [DIR]\n"
	      "       envpreflight init [--force] [--stdout] [--snapshot] [DIR]\n"
	      "       envpreflight mcp [--allow-dir=PATH]...\n"
	      "Audit the repository at DIR against this machine (default: the top of the git\n"
	      "work tree holding the current directory, found as git finds it, else the\n"
	      "current directory);\n"
	      "init writes a commented preflight.yaml, mcp serves the audit to agents over MCP\n"
	      "(envpreflight init --help, envpreflight mcp --help).\n"
	      "\n"
	      "  -f, --format=FORMAT       human (default), json, junit, github, tap\n"
	      "                            (TAP 14) or tap13\n"
	      "      --json                same as --format=json\n"
	      "      --only=PROBE[,...]    run only these probes (see --list-probes)\n"
	      "      --skip=PROBE[,...]    skip these probes\n"
	      "  -t, --timeout=MS          deadline for the whole audit (default 3000)\n"
	      "      --wait=DURATION       run the checks that waiting can change (ports, the\n"
	      "                            docker daemon) again until they pass or DURATION\n"
	      "                            (30s, 500ms, 2m, 1m30s) runs out\n"
	      "      --interval=DURATION   the pause between those rounds (default 250ms)\n"
	      "      --strict              warnings fail the run\n"
	      "      --exit-zero           exit 0 when checks fail or there is nothing to\n"
	      "                            audit (the report says so; for hooks)\n"
	      "      --explain             show where each requirement came from\n"
	      "      --no-color            no colour (NO_COLOR does the same)\n"
	      "  -q, --quiet               print failures and the summary only\n"
	      "      --no-config           ignore the user's config.ini\n"
	      "      --workspace=PATH      audit the repository and this one workspace\n"
	      "      --no-workspaces       do not look for workspaces\n"
	      "      --list-probes         list the probes and exit (--format=json: as JSON)\n"
	      "      --schema              print the JSON Schema of envpreflight/1 and exit\n"
	      "  -V, --version             print the version and exit\n"
	      "  -h, --help                print this help and exit\n"
	      "\n"
	      "Exit status: 0 every check passed, 1 a check failed, 2 the audit could not run.\n",
	      out);
}

/* A usage error: the message in err (kind ERRK_OTHER), "Try --help" on
 * stderr is added when it is printed. */
static int usage_error(struct errbuf *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int usage_error(struct errbuf *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(err, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* A usage error for getopt_long's '?' or ':' (cliopt.h). */
static int option_error(struct errbuf *err, int argc, char **argv,
			const char *optstring, const struct option *longopts,
			int nparsed, int c)
{
	struct buf b = BUF_INIT;

	cliopt_error(&b, argc, argv, optstring, longopts, nparsed, c);
	usage_error(err, "%s", buf_str(&b));
	buf_release(&b);
	return EXIT_USAGE;
}

/* A usage error for a short option's bad value, with "; did you mean
 * '--format=json'?" when it was glued to the option in a one-dash word
 * that is a long option ("-format=json": -f with "ormat=json"). */
static int value_error(struct errbuf *err, char **argv, const struct option *longopts,
		       const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int value_error(struct errbuf *err, char **argv, const struct option *longopts,
		       const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	cliopt_value_hint(&b, argv[optind - 1], optarg, longopts);
	usage_error(err, "%s", buf_str(&b));
	buf_release(&b);
	return EXIT_USAGE;
}

static void list_probes_text(FILE *out)
{
	size_t i;

	for (i = 0; probe_table[i]; i++)
		fprintf(out, "%-10s %s\n", probe_table[i]->name, probe_table[i]->summary);
}

static void list_probes_json(FILE *out)
{
	cJSON *doc = probe_list_json();

	render_json_value(out, doc);
	cJSON_Delete(doc);
}

/* A --wait or --interval value: 0 with *ms set, or a usage error that
 * gives the accepted forms. */
static int parse_duration_opt(const char *opt, const char *v, long *ms,
			      struct errbuf *err)
{
	static const char forms[] = "500ms, 30s, 2m or 1m30s (units ms, s, m and h; "
				    "from 1ms to 1h)";

	switch (duration_parse(v, strlen(v), WAIT_MAX_MS, ms)) {
	case DURATION_OK:
		return 0;
	case DURATION_NO_UNIT:
		if (strspn(v, "0.") == strlen(v))
			break;	/* "0": zero, whatever the unit */
		return usage_error(err, "%s=%s: a duration needs a unit (%sms? %ss?): "
				   "give one such as %s", opt, v, v, v, forms);
	case DURATION_NEGATIVE:
		return usage_error(err, "%s=%s: a duration cannot be negative: give "
				   "one such as %s", opt, v, forms);
	case DURATION_ZERO:
		break;
	case DURATION_TOO_LONG:
		return usage_error(err, "%s=%s: longer than 1h: give a duration such "
				   "as %s", opt, v, forms);
	case DURATION_SYNTAX:
		return usage_error(err, "%s expects a duration such as %s, not '%s'",
				   opt, forms, v);
	}
	return usage_error(err, "%s=%s: a duration must be longer than zero: give "
			   "one such as %s", opt, v, forms);
}

/* Every name of a comma list must be a probe: 0, or a usage error. */
static int check_probe_list(const char *list, const char *opt, struct errbuf *err)
{
	char *copy = xstrdup(list), *p = copy, *name;
	int rc = 0;

	while ((name = strsep(&p, ",")) != NULL) {
		struct buf known = BUF_INIT;
		size_t i;

		if (probe_find(name))
			continue;
		for (i = 0; probe_table[i]; i++)
			buf_printf(&known, "%s%s", i ? ", " : "", probe_table[i]->name);
		rc = usage_error(err, "%s: unknown probe '%s' (the probes are %s)", opt,
				 name, buf_str(&known));
		buf_release(&known);
		break;
	}
	free(copy);
	return rc;
}

/*
 * The format asked for, looked up before the options are parsed, so that
 * a usage error anywhere on the line is reported in that format too (a
 * harness that asked for JSON gets JSON).  The last one given wins, as in
 * the real parse; a value that is not a format is left to the parse.
 */
static enum format format_prescan(int argc, char **argv)
{
	enum format f = FORMAT_HUMAN, g;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i], *v = NULL;

		if (!strcmp(a, "--json"))
			f = FORMAT_JSON;
		else if (!strncmp(a, "--format=", 9))
			v = a + 9;
		else if (!strncmp(a, "-f", 2) && a[2])
			v = a + 2;
		else if ((!strcmp(a, "--format") || !strcmp(a, "-f")) && i + 1 < argc)
			v = argv[++i];
		if (v && format_parse(v, &g) == 0)
			f = g;
	}
	return f;
}

/* Returns -1 to go on, EXIT_OK when done (help, version), or EXIT_USAGE
 * with err filled. */
static int parse_options(int argc, char **argv, struct options *o, struct errbuf *err)
{
	enum { OPT_JSON = 256, OPT_ONLY, OPT_SKIP, OPT_STRICT, OPT_EXPLAIN,
	       OPT_NO_COLOR, OPT_LIST, OPT_NO_CONFIG, OPT_SCHEMA, OPT_WORKSPACE,
	       OPT_NO_WORKSPACES, OPT_WAIT, OPT_INTERVAL, OPT_EXIT_ZERO };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "timeout", required_argument, NULL, 't' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "exit-zero", no_argument, NULL, OPT_EXIT_ZERO },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "quiet", no_argument, NULL, 'q' },
		{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
		{ "list-probes", no_argument, NULL, OPT_LIST },
		{ "schema", no_argument, NULL, OPT_SCHEMA },
		{ "workspace", required_argument, NULL, OPT_WORKSPACE },
		{ "no-workspaces", no_argument, NULL, OPT_NO_WORKSPACES },
		{ "wait", required_argument, NULL, OPT_WAIT },
		{ "interval", required_argument, NULL, OPT_INTERVAL },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char optstring[] = ":f:t:qVh";
	int c, n;

	opterr = 0;
	for (n = 0; (c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1; n++) {
		switch (c) {
		case 'f':
			if (format_parse(optarg, &o->a.format) < 0)
				return value_error(err, argv, longopts, "unknown format "
						   "'%s' (expected %s)", optarg,
						   format_names_text());
			o->a.format_from = FROM_CLI;
			break;
		case OPT_JSON:
			o->a.format = FORMAT_JSON;
			o->a.format_from = FROM_CLI;
			break;
		case OPT_ONLY:
			if (check_probe_list(optarg, "--only", err))
				return EXIT_USAGE;
			o->a.only = optarg;
			o->a.probes_from = FROM_CLI;
			break;
		case OPT_SKIP:
			if (check_probe_list(optarg, "--skip", err))
				return EXIT_USAGE;
			o->a.skip = optarg;
			o->a.probes_from = FROM_CLI;
			break;
		case 't':
			if (parse_long(optarg, 1, 600000, &o->a.timeout_ms) < 0)
				return value_error(err, argv, longopts, "--timeout expects "
						   "milliseconds from 1 to 600000, not '%s'",
						   optarg);
			o->a.timeout_from = FROM_CLI;
			break;
		case OPT_STRICT:
			o->a.strict = 1;
			o->a.strict_from = FROM_CLI;
			break;
		case OPT_EXIT_ZERO:
			o->a.exit_zero = 1;
			break;
		case OPT_EXPLAIN:
			o->explain = 1;
			break;
		case OPT_NO_COLOR:
			o->no_color = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_NO_CONFIG:
			o->a.no_config = 1;
			break;
		case OPT_LIST:
			o->list_probes = 1;
			break;
		case OPT_SCHEMA:
			o->schema = 1;
			break;
		case OPT_WORKSPACE:
			if (!*optarg)
				return usage_error(err, "--workspace expects a "
						   "workspace's directory");
			o->a.workspace = optarg;
			break;
		case OPT_NO_WORKSPACES:
			o->a.no_workspaces = 1;
			break;
		case OPT_WAIT:
			if (parse_duration_opt("--wait", optarg, &o->a.wait_ms, err))
				return EXIT_USAGE;
			o->a.wait_from = FROM_CLI;
			o->wait_arg = optarg;
			break;
		case OPT_INTERVAL:
			if (parse_duration_opt("--interval", optarg, &o->a.interval_ms, err))
				return EXIT_USAGE;
			o->a.interval_from = FROM_CLI;
			o->interval_arg = optarg;
			break;
		case 'V':
			printf("envpreflight %s\n", EP_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		default:	/* '?' or ':' */
			return option_error(err, argc, argv, optstring, longopts, n, c);
		}
	}
	if (optind < argc) {
		o->a.dir = argv[optind++];
		o->a.dir_from = ROOT_FROM_ARGUMENT;
	}
	if (optind < argc)
		return usage_error(err, "one directory at most ('%s' is extra)", argv[optind]);
	if (o->a.interval_ms && !o->a.wait_ms)
		return usage_error(err, "--interval needs --wait (the pause between "
				   "the rounds of a wait)");
	if (o->a.interval_ms > o->a.wait_ms)
		return usage_error(err, "--interval=%s is longer than --wait=%s: no "
				   "second round could start", o->interval_arg,
				   o->wait_arg);
	if (o->a.workspace && o->a.no_workspaces)
		return usage_error(err, "--workspace and --no-workspaces exclude "
				   "each other");
	if (o->a.only || o->a.skip) {
		size_t i, nprobes = 0;

		for (i = 0; probe_table[i]; i++)
			nprobes += audit_probe_requested(&o->a, probe_table[i]);
		if (!nprobes)
			return usage_error(err, "--only and --skip leave no probe to run");
	}
	return -1;
}

static void render_opts_init(struct render_opts *r, const struct options *o,
			     const struct config *cfg)
{
	const char *no_color = getenv("NO_COLOR");
	const char *term = getenv("TERM");

	memset(r, 0, sizeof(*r));
	setlocale(LC_CTYPE, "");
	r->utf8 = !strcmp(nl_langinfo(CODESET), "UTF-8");
	if (o->no_color || (no_color && *no_color) || (cfg && cfg->color == COLOR_NEVER))
		r->color = 0;
	else if (cfg && cfg->color == COLOR_ALWAYS)
		r->color = 1;
	else
		r->color = isatty(STDOUT_FILENO) && !(term && !strcmp(term, "dumb"));
	r->quiet = o->quiet;
	r->explain = o->explain;
}

/*
 * --format=github in a GitHub Actions job: the job summary, appended to
 * the file GITHUB_STEP_SUMMARY names (the runner makes it; an unset or
 * empty variable is no job).  One write with O_APPEND, so that the table
 * lands whole after what other steps wrote; O_NONBLOCK only so that a
 * FIFO without a reader fails instead of hanging the run.  A file that
 * cannot be written is a warning: the exit status stays the audit's.
 */
static void step_summary(const struct report *rep)
{
	const char *path = getenv("GITHUB_STEP_SUMMARY");
	char *text = NULL, *shown;
	size_t len = 0, off = 0;
	FILE *mem;
	int fd, e = 0;

	if (!path || !*path)
		return;
	mem = open_memstream(&text, &len);
	if (!mem) {
		e = errno;
	} else {
		render_github_summary(mem, rep);
		if (fclose(mem) != 0)
			e = errno ? errno : EIO;
	}
	fd = e ? -1 : open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY |
			   O_NONBLOCK, 0666);
	if (!e && fd < 0)
		e = errno;
	if (fd >= 0 && fcntl(fd, F_SETFL, O_APPEND) < 0)
		e = errno;
	while (!e && off < len) {
		ssize_t n = write(fd, text + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			e = n < 0 ? errno : EIO;
		else
			off += (size_t)n;
	}
	if (fd >= 0 && close(fd) < 0 && !e)
		e = errno;
	if (e) {
		shown = text_clean(path);
		fprintf(stderr, "envpreflight: warning: cannot write the job summary to "
			"'%s' (GITHUB_STEP_SUMMARY): %s\n", shown, strerror(e));
		free(shown);
	}
	free(text);
}

/* --wait's progress line: on stderr, and only when it is a terminal (the
 * report is stdout's; a log or a pipe gets nothing extra).  arg is the
 * width on the line now (render_progress). */
static void wait_progress(void *arg, const struct result *pending, size_t n,
			  double elapsed_ms)
{
	size_t *width = arg;

	if (pending || *width)
		render_progress(stderr, pending, n, elapsed_ms, width);
}

static void render(const struct report *rep, enum format f, const struct render_opts *ro)
{
	switch (f) {
	case FORMAT_HUMAN:
		render_human(stdout, rep, ro);
		break;
	case FORMAT_JSON:
		render_json(stdout, rep, ro);
		break;
	case FORMAT_JUNIT:
		render_junit(stdout, rep, ro);
		break;
	case FORMAT_GITHUB:
		render_github(stdout, rep, ro);
		step_summary(rep);
		break;
	case FORMAT_TAP:
		render_tap(stdout, rep, 14);
		break;
	case FORMAT_TAP13:
		render_tap(stdout, rep, 13);
		break;
	}
}

/* Messages may quote text from the repository (a key, a file name): the
 * terminal gets it with control characters and escapes replaced, and
 * with --format=github no workflow command (the runner reads stderr too). */
static void print_error(const struct errbuf *err, int usage_hint, enum format f)
{
	struct buf b = BUF_INIT;

	buf_puts(&b, "envpreflight: ");
	buf_add_clean(&b, err->msg);
	buf_putc(&b, '\n');
	if (usage_hint)
		buf_puts(&b, "Try 'envpreflight --help'.\n");
	if (f == FORMAT_GITHUB)
		render_github_text(stderr, buf_str(&b));
	else
		fputs(buf_str(&b), stderr);
	buf_release(&b);
}

/* Exit 2: the message on stderr, and the report of the error on stdout
 * for every format but human. */
static int not_run(struct audit *a, const struct options *o)
{
	struct render_opts ro;
	/* a hook run in every repository (--exit-zero) is not in the wrong
	 * place where there is nothing to audit; a bad option or spec file
	 * is still news to whoever wrote it */
	int rc = o->a.exit_zero && !strcmp(a->error.kind, "nothing-to-audit") ?
		 EXIT_OK : EXIT_USAGE;

	print_error(&a->err, !strcmp(a->error.kind, "usage"), o->a.format);
	if (o->a.format != FORMAT_HUMAN) {
		memset(&ro, 0, sizeof(ro));
		render(&a->rep, o->a.format, &ro);
		fflush(stdout);
	}
	audit_release(a);
	return rc;
}

int main(int argc, char **argv)
{
	struct options o;
	char *top = NULL, *top_note = NULL;
	struct config cfg, *cfgp = NULL;
	struct errbuf err;
	struct audit a;
	struct render_opts ro;
	double start = clock_ms();
	size_t progress_width = 0;
	int rc, threads_ok;

#ifdef M_TOP_PAD
	/* glibc grows a thread's heap by what each malloc needs, one
	 * mprotect a page or so (malloc/arena.c grow_heap; only a new heap
	 * is made top_pad larger): 200 calls in a yarn check of 2,000
	 * packages, whose lockfile is parsed on the check's thread.  8 MiB
	 * of address space, not of memory: a page is only had once touched.
	 * bench/deps.sh's yarn and pnpm-differ: 4 to 6 % less time. */
	mallopt(M_TOP_PAD, 8 << 20);
#endif
	/* a subcommand is the first word, before any option (a directory
	 * named so is audited as ./init or ./mcp) */
	if (argc > 1 && !strcmp(argv[1], "init"))
		return init_main(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "mcp"))	/* its signal thread ends too */
		signals_exit(mcp_main(argc - 1, argv + 1));
	/* the options first, so that --help and --version work whatever the
	 * user's config says; the config then fills in what they left open */
	memset(&o, 0, sizeof(o));
	memset(&a, 0, sizeof(a));
	o.a.format = format_prescan(argc, argv);
	rc = parse_options(argc, argv, &o, &err);
	if (rc == EXIT_USAGE) {
		audit_fail(&a, &o.a, NULL, &err, "usage", start);
		return not_run(&a, &o);
	}
	if (rc >= 0)
		return rc;
	if (o.schema) {
		fputs(schema_text, stdout);
		return EXIT_OK;
	}
	if (o.list_probes) {
		if (o.a.format == FORMAT_JSON)
			list_probes_json(stdout);
		else
			list_probes_text(stdout);
		return EXIT_OK;
	}
	if (!o.a.no_config) {
		if (config_load(&cfg, &err) < 0) {
			/* the way out is --no-config: say so */
			size_t n = strlen(err.msg);

			snprintf(err.msg + n, sizeof(err.msg) - n,
				 " (--no-config ignores it)");
			audit_fail(&a, &o.a, NULL, &err, "config-invalid", start);
			return not_run(&a, &o);
		}
		cfgp = &cfg;
	}
	/* setlocale is not thread-safe: settle it before any worker starts */
	render_opts_init(&ro, &o, cfgp);
	if (o.a.wait_ms && !o.quiet && isatty(STDERR_FILENO)) {
		o.a.progress = wait_progress;
		o.a.progress_arg = &progress_width;
	}
	/* without DIR, the top of the git work tree we are in, as git and
	 * npm and compose look upwards (gittop.h); DIR is taken as given */
	if (!o.a.dir && gittop_from_cwd(&top, &top_note)) {
		o.a.dir = top;
		o.a.dir_from = ROOT_FROM_GIT;
	}
	o.a.dir_note = top_note;
	/* before the audit's first thread, so that none of them takes the
	 * signals; from here on every exit is signals_exit */
	threads_ok = signals_guard() == 0;
	rc = audit_run(&a, &o.a, cfgp, start);
	if (!threads_ok)
		signals_act_pending();
	signals_gate();		/* no report once a signal is ending the run */
	if (rc < 0) {
		rc = not_run(&a, &o);
		if (cfgp)
			config_release(cfgp);
		free(top);
		free(top_note);
		signals_exit(rc);
	}
	render(&a.rep, o.a.format, &ro);
	rc = report_failed(&a.rep) && !o.a.exit_zero ? EXIT_FAIL : EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("envpreflight: stdout");
		rc = EXIT_USAGE;
	}
	audit_release(&a);
	if (cfgp)
		config_release(cfgp);
	free(top);
	free(top_note);
	signals_exit(rc);
}
