/* main.c - the command line: options, load the model, plan, run, render.
 * Only main decides the exit status. */
#include "config.h"
#include "probe.h"
#include "render.h"
#include "runner.h"
#include "signals.h"
#include "spawnrun.h"
#include "spec.h"

#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EP_VERSION "0.1.0"
#define DEFAULT_TIMEOUT_MS 3000
/* How long, past the checks, the children get to die: the report is out
 * by the deadline plus this and the rendering. */
#define KILL_GRACE_MS 50

enum exit_status { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

struct options {
	enum format format;
	int format_set;
	const char *only, *skip;
	long timeout_ms;
	int strict, explain, no_color, quiet;
	const char *dir;
};

static void usage(FILE *out)
{
	fputs("usage: envpreflight [OPTIONS] [DIR]\n"
	      "Audit the repository at DIR (default: the current directory) against this machine.\n"
	      "\n"
	      "  -f, --format=FORMAT       human (default), json, junit or github\n"
	      "      --json                same as --format=json\n"
	      "      --only=PROBE[,...]    run only these probes (see --list-probes)\n"
	      "      --skip=PROBE[,...]    skip these probes\n"
	      "  -t, --timeout=MS          deadline for the whole audit (default 3000)\n"
	      "      --strict              warnings fail the run\n"
	      "      --explain             show where each requirement came from\n"
	      "      --no-color            no colour (NO_COLOR does the same)\n"
	      "  -q, --quiet               print failures and the summary only\n"
	      "      --list-probes         list the probes and exit\n"
	      "  -V, --version             print the version and exit\n"
	      "  -h, --help                print this help and exit\n"
	      "\n"
	      "Exit status: 0 every check passed, 1 a check failed, 2 the audit could not run.\n",
	      out);
}

static int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("envpreflight: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'envpreflight --help'.\n", stderr);
	return EXIT_USAGE;
}

static void list_probes(FILE *out)
{
	size_t i;

	for (i = 0; probe_table[i]; i++)
		fprintf(out, "%-10s %s\n", probe_table[i]->name, probe_table[i]->summary);
}

/* Every name of a comma list must be a probe; 0 or -1 (message printed). */
static int check_probe_list(const char *list, const char *opt)
{
	char *copy = xstrdup(list), *p = copy, *name;
	int rc = 0;

	while ((name = strsep(&p, ",")) != NULL) {
		if (probe_find(name))
			continue;
		{
			char *clean = text_clean(name);

			fprintf(stderr, "envpreflight: %s: unknown probe '%s'; the probes are:\n",
				opt, clean);
			free(clean);
		}
		list_probes(stderr);
		rc = -1;
		break;
	}
	free(copy);
	return rc;
}

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

static int probe_selected(const struct options *o, const struct probe *p)
{
	if (o->only && !in_list(o->only, p->name))
		return 0;
	return !(o->skip && in_list(o->skip, p->name));
}

/* Returns -1 to go on, or an exit status. */
static int parse_options(int argc, char **argv, struct options *o)
{
	enum { OPT_JSON = 256, OPT_ONLY, OPT_SKIP, OPT_STRICT, OPT_EXPLAIN,
	       OPT_NO_COLOR, OPT_LIST };
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "only", required_argument, NULL, OPT_ONLY },
		{ "skip", required_argument, NULL, OPT_SKIP },
		{ "timeout", required_argument, NULL, 't' },
		{ "strict", no_argument, NULL, OPT_STRICT },
		{ "explain", no_argument, NULL, OPT_EXPLAIN },
		{ "no-color", no_argument, NULL, OPT_NO_COLOR },
		{ "quiet", no_argument, NULL, 'q' },
		{ "list-probes", no_argument, NULL, OPT_LIST },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:t:qVh", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (format_parse(optarg, &o->format) < 0)
				return usage_error("unknown format '%s' (expected human, json, "
						   "junit or github)", optarg);
			o->format_set = 1;
			break;
		case OPT_JSON:
			o->format = FORMAT_JSON;
			o->format_set = 1;
			break;
		case OPT_ONLY:
			if (check_probe_list(optarg, "--only") < 0)
				return EXIT_USAGE;
			o->only = optarg;
			break;
		case OPT_SKIP:
			if (check_probe_list(optarg, "--skip") < 0)
				return EXIT_USAGE;
			o->skip = optarg;
			break;
		case 't':
			if (parse_long(optarg, 1, 600000, &o->timeout_ms) < 0)
				return usage_error("--timeout expects milliseconds from 1 to "
						   "600000, not '%s'", optarg);
			break;
		case OPT_STRICT:
			o->strict = 1;
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
		case OPT_LIST:
			list_probes(stdout);
			return EXIT_OK;
		case 'V':
			printf("envpreflight %s\n", EP_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case ':':
			return usage_error("option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->dir = argv[optind++];
	if (optind < argc)
		return usage_error("one directory at most ('%s' is extra)", argv[optind]);
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
	if (o->no_color || (no_color && *no_color) || cfg->color == COLOR_NEVER)
		r->color = 0;
	else if (cfg->color == COLOR_ALWAYS)
		r->color = 1;
	else
		r->color = isatty(STDOUT_FILENO) && !(term && !strcmp(term, "dumb"));
	r->quiet = o->quiet;
	r->explain = o->explain;
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
		break;
	}
}

/* Messages may quote text from the repository (a key, a file name): the
 * terminal gets it with control characters and escapes replaced. */
static void print_error(const struct errbuf *err)
{
	char *clean = text_clean(err->msg);

	fprintf(stderr, "envpreflight: %s\n", clean);
	free(clean);
}

/* End every child the checks started (the runner has returned: no check
 * starts one any more), waiting until KILL_GRACE_MS past the deadline at
 * the latest, and name each one that could not be reaped in the result of
 * the check that started it. */
static void children_end(const struct plan *plan, struct result *results,
			 double deadline_ms)
{
	double now = clock_ms();
	struct spawn_stuck *stuck;
	size_t n, i;

	spawn_close();
	n = spawn_kill_all((now < deadline_ms ? now : deadline_ms) + KILL_GRACE_MS,
			   &stuck);
	for (i = 0; i < n; i++) {
		const struct check *c = stuck[i].owner;

		if (c >= plan->checks && c < plan->checks + plan->n)
			result_unreaped(&results[c - plan->checks], stuck[i].pid,
					stuck[i].path, stuck[i].ran_ms);
		else
			fprintf(stderr, "envpreflight: pid %d could not be reaped\n",
				stuck[i].pid);
	}
	spawn_stuck_free(stuck, n);
}

int main(int argc, char **argv)
{
	struct options o;
	struct config cfg;
	struct errbuf err;
	struct spec spec;
	struct plan plan = { NULL, 0, 0 };
	struct result *results;
	struct render_opts ro;
	struct report rep;
	double start = clock_ms();
	long timeout;
	size_t i, abandoned;
	int rc, threads_ok;

	/* the options first, so that --help and --version work whatever the
	 * user's config says; the config then fills in what they left open */
	memset(&o, 0, sizeof(o));
	rc = parse_options(argc, argv, &o);
	if (rc >= 0)
		return rc;
	if (config_load(&cfg, &err) < 0) {
		print_error(&err);
		return EXIT_USAGE;
	}
	if (!o.format_set)
		o.format = cfg.format;
	o.strict |= cfg.strict;
	if (!o.dir)
		o.dir = ".";
	if (spec_load(o.dir, &spec, &err) < 0) {
		print_error(&err);
		config_release(&cfg);
		return EXIT_USAGE;
	}
	/* the command line, then the repository, then the user's default */
	timeout = o.timeout_ms ? o.timeout_ms : spec.timeout_ms ? spec.timeout_ms :
		  cfg.timeout_ms ? cfg.timeout_ms : DEFAULT_TIMEOUT_MS;

	for (i = 0; probe_table[i]; i++)
		if (probe_selected(&o, probe_table[i]))
			probe_table[i]->plan(&spec, &plan);
	/* setlocale is not thread-safe: settle it before any worker starts */
	render_opts_init(&ro, &o, &cfg);
	results = xcalloc(plan.n ? plan.n : 1, sizeof(*results));
	/* before the first worker, so that none of them takes the signals */
	threads_ok = signals_guard() == 0;
	abandoned = runner_run(&spec, &plan, start + (double)timeout, 0, results);
	children_end(&plan, results, start + (double)timeout);
	if (!threads_ok)
		signals_act_pending();
	signals_gate();

	rep.root = spec.root;
	rep.display_dir = o.dir;
	rep.results = results;
	rep.n = plan.n;
	rep.strict = o.strict;
	rep.duration_ms = clock_ms() - start;
	render(&rep, o.format, &ro);
	rc = report_failed(&rep) ? EXIT_FAIL : EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("envpreflight: stdout");
		rc = EXIT_USAGE;
	}
	if (abandoned)
		signals_exit(rc);	/* a stuck worker may still read the model */
	for (i = 0; i < plan.n; i++)
		result_release(&results[i]);
	free(results);
	plan_release(&plan);
	spec_release(&spec);
	config_release(&cfg);
	signals_exit(rc);
}
