/* main.c - the command line: options, load the model, plan, run, render.
 * Only main decides the exit status.
 *
 * Every exit prints one report in the chosen format: when the audit cannot
 * run (exit 2), the JSON document has "ok": null and an "error" object,
 * JUnit an errored test case, GitHub an ::error, and the human message
 * goes to stderr as before.
 */
#include "config.h"
#include "probe.h"
#include "render.h"
#include "runner.h"
#include "schema.h"
#include "spec.h"
#include "vfast.h"

#include <getopt.h>
#include <langinfo.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EP_VERSION "0.2.0"
#define DEFAULT_TIMEOUT_MS 3000
/* A repository may set its own deadline, but may not buy itself more
 * than this inside a harness; only the command line can go further. */
#define REPO_TIMEOUT_MAX_MS 30000

enum exit_status { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* Where an effective option came from: JSON run.options.*.from. */
enum opt_from { FROM_DEFAULT, FROM_CLI, FROM_CONFIG, FROM_REPO };

struct options {
	enum format format;
	enum opt_from format_from, strict_from, timeout_from, probes_from;
	const char *only, *skip;
	long timeout_ms;	/* from the command line; 0: not given */
	int strict, explain, no_color, quiet, no_config;
	int list_probes, schema;
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
	      "      --no-config           ignore the user's config.ini\n"
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
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
	err->kind = ERRK_OTHER;
	err->file[0] = '\0';
	err->line = err->col = 0;
	err->what = 0;
	return EXIT_USAGE;
}

static void list_probes_text(FILE *out)
{
	size_t i;

	for (i = 0; probe_table[i]; i++)
		fprintf(out, "%-10s %s\n", probe_table[i]->name, probe_table[i]->summary);
}

/* {"schema": "envpreflight-probes/1", "probes": [{name, summary, ids}]} */
static void list_probes_json(FILE *out)
{
	cJSON *doc = cJSON_CreateObject(), *arr;
	size_t i, k;

	cJSON_AddStringToObject(doc, "schema", "envpreflight-probes/1");
	arr = cJSON_AddArrayToObject(doc, "probes");
	for (i = 0; probe_table[i]; i++) {
		const struct probe *p = probe_table[i];
		cJSON *o = cJSON_CreateObject(), *ids;

		cJSON_AddStringToObject(o, "name", p->name);
		cJSON_AddStringToObject(o, "summary", p->summary);
		ids = cJSON_AddArrayToObject(o, "ids");
		for (k = 0; p->ids && p->ids[k]; k++)
			cJSON_AddItemToArray(ids, cJSON_CreateString(p->ids[k]));
		cJSON_AddItemToArray(arr, o);
	}
	render_json_value(out, doc);
	cJSON_Delete(doc);
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
	       OPT_NO_COLOR, OPT_LIST, OPT_NO_CONFIG, OPT_SCHEMA };
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
		{ "no-config", no_argument, NULL, OPT_NO_CONFIG },
		{ "list-probes", no_argument, NULL, OPT_LIST },
		{ "schema", no_argument, NULL, OPT_SCHEMA },
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
				return usage_error(err, "unknown format '%s' (expected human, "
						   "json, junit or github)", optarg);
			o->format_from = FROM_CLI;
			break;
		case OPT_JSON:
			o->format = FORMAT_JSON;
			o->format_from = FROM_CLI;
			break;
		case OPT_ONLY:
			if (check_probe_list(optarg, "--only", err))
				return EXIT_USAGE;
			o->only = optarg;
			o->probes_from = FROM_CLI;
			break;
		case OPT_SKIP:
			if (check_probe_list(optarg, "--skip", err))
				return EXIT_USAGE;
			o->skip = optarg;
			o->probes_from = FROM_CLI;
			break;
		case 't':
			if (parse_long(optarg, 1, 600000, &o->timeout_ms) < 0)
				return usage_error(err, "--timeout expects milliseconds from 1 "
						   "to 600000, not '%s'", optarg);
			o->timeout_from = FROM_CLI;
			break;
		case OPT_STRICT:
			o->strict = 1;
			o->strict_from = FROM_CLI;
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
			o->no_config = 1;
			break;
		case OPT_LIST:
			o->list_probes = 1;
			break;
		case OPT_SCHEMA:
			o->schema = 1;
			break;
		case 'V':
			printf("envpreflight %s\n", EP_VERSION);
			return EXIT_OK;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case ':':
			return usage_error(err, "option '%s' needs a value", argv[optind - 1]);
		default:
			return usage_error(err, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		o->dir = argv[optind++];
	if (optind < argc)
		return usage_error(err, "one directory at most ('%s' is extra)", argv[optind]);
	if (o->only || o->skip) {
		size_t i, n = 0;

		for (i = 0; probe_table[i]; i++)
			n += probe_selected(o, probe_table[i]);
		if (!n)
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

/* ---- the run block ---------------------------------------------------- */

/* Where each effective option came from, named as JSON says it. */
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
	case FROM_CONFIG:
	case FROM_REPO:
		buf_printf(&b, "%s:%u", file ? file : "?", line);
		break;
	}
	cJSON_AddStringToObject(o, "from", buf_str(&b));
	buf_release(&b);
}

static cJSON *probes_json(const struct options *o)
{
	cJSON *arr = cJSON_CreateArray();
	size_t i;

	for (i = 0; probe_table[i]; i++)
		if (probe_selected(o, probe_table[i]))
			cJSON_AddItemToArray(arr, cJSON_CreateString(probe_table[i]->name));
	return arr;
}

static cJSON *cache_json(void)
{
	static const char *const states[] = {
		[VCACHE_READY] = "ready", [VCACHE_EMPTY] = "empty",
		[VCACHE_UNAVAILABLE] = "unavailable",
	};
	struct vcache_info v;
	cJSON *o = cJSON_CreateObject();

	vcache_describe(&v);
	if (v.dir)
		cJSON_AddStringToObject(o, "dir", v.dir);
	else
		cJSON_AddNullToObject(o, "dir");
	cJSON_AddStringToObject(o, "state", states[v.state]);
	cJSON_AddNumberToObject(o, "entries", (double)v.entries);
	cJSON_AddNumberToObject(o, "hits", v.hits);
	cJSON_AddNumberToObject(o, "misses", v.misses);
	cJSON_AddNumberToObject(o, "stores", v.stores);
	free(v.dir);
	return o;
}

/* The settings that decided this run (spec may be NULL: not loaded). */
static cJSON *run_json(const struct options *o, const struct config *cfg,
		       const struct spec *spec, long timeout, const char *timeout_file,
		       unsigned timeout_line, const char *timeout_note)
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
	add_option(opts, "timeout_ms", cJSON_CreateNumber((double)timeout),
		   o->timeout_from, timeout_file, timeout_line);
	add_option(opts, "probes", probes_json(o), o->probes_from, NULL, 0);
	conf = cJSON_AddObjectToObject(run, "config");
	if (cfg_file)
		cJSON_AddStringToObject(conf, "file", cfg_file);
	else
		cJSON_AddNullToObject(conf, "file");
	cJSON_AddBoolToObject(conf, "ignored", o->no_config);
	cJSON_AddBoolToObject(run, "path_set", getenv("PATH") != NULL);
	cJSON_AddItemToObject(run, "version_cache", cache_json());
	files = cJSON_AddArrayToObject(run, "files_read");
	for (i = 0; spec && i < spec->nfiles; i++)
		cJSON_AddItemToArray(files, cJSON_CreateString(spec->files[i]));
	notes = cJSON_AddArrayToObject(run, "notes");
	if (timeout_note)
		cJSON_AddItemToArray(notes, cJSON_CreateString(timeout_note));
	return run;
}

/* ---- when the audit cannot run -------------------------------------- */

static const char *error_kind(enum err_kind k, int config)
{
	if (config)
		return "config-invalid";
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

/* Messages may quote text from the repository (a key, a file name): the
 * terminal gets it with control characters and escapes replaced. */
static void print_error(const struct errbuf *err, int usage_hint)
{
	char *clean = text_clean(err->msg);

	fprintf(stderr, "envpreflight: %s\n", clean);
	if (usage_hint)
		fputs("Try 'envpreflight --help'.\n", stderr);
	free(clean);
}

/* Exit 2: the message on stderr, and one report of the error on stdout
 * for every format but human. */
static int not_run(const struct options *o, const struct config *cfg,
		   const struct errbuf *err, const char *kind, const char *root,
		   double start)
{
	struct report_error e;
	struct report rep;
	struct render_opts ro;

	print_error(err, !strcmp(kind, "usage"));
	if (o->format == FORMAT_HUMAN)
		return EXIT_USAGE;
	memset(&e, 0, sizeof(e));
	e.kind = kind;
	e.file = err->file[0] ? err->file : NULL;
	e.line = err->line;
	e.col = err->col;
	e.message = err->msg + err->what;
	memset(&rep, 0, sizeof(rep));
	rep.root = root;
	rep.display_dir = o->dir ? o->dir : ".";
	rep.strict = o->strict;
	rep.error = &e;
	rep.run = run_json(o, cfg, NULL, o->timeout_ms ? o->timeout_ms :
			   DEFAULT_TIMEOUT_MS, NULL, 0, NULL);
	memset(&ro, 0, sizeof(ro));
	rep.duration_ms = clock_ms() - start;
	render(&rep, o->format, &ro);
	cJSON_Delete(rep.run);
	fflush(stdout);
	return EXIT_USAGE;
}

/* ---- the deadline ----------------------------------------------------- */

/* The command line, then the repository (at most REPO_TIMEOUT_MAX_MS),
 * then the user's default, then ours.  *note gets a new string when the
 * repository's value was clamped. */
static long deadline_pick(struct options *o, const struct spec *spec,
			  const struct config *cfg, const char **file,
			  unsigned *line, char **note)
{
	*file = NULL;
	*line = 0;
	*note = NULL;
	if (o->timeout_from == FROM_CLI)
		return o->timeout_ms;
	if (spec->timeout_ms) {
		o->timeout_from = FROM_REPO;
		*file = spec->timeout_origin.file;
		*line = spec->timeout_origin.line;
		if (spec->timeout_ms <= REPO_TIMEOUT_MAX_MS)
			return spec->timeout_ms;
		{
			struct buf b = BUF_INIT;

			buf_printf(&b, "timeout_ms %ld from %s:%u clamped to %d: a "
				   "repository may not raise the deadline above %d ms "
				   "(--timeout can)", spec->timeout_ms,
				   *file ? *file : "preflight.yaml", *line,
				   REPO_TIMEOUT_MAX_MS, REPO_TIMEOUT_MAX_MS);
			*note = buf_detach(&b);
		}
		return REPO_TIMEOUT_MAX_MS;
	}
	if (cfg->timeout_ms) {
		o->timeout_from = FROM_CONFIG;
		*file = cfg->path;
		*line = cfg->timeout_line;
		return cfg->timeout_ms;
	}
	return DEFAULT_TIMEOUT_MS;
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
	const char *timeout_file;
	unsigned timeout_line;
	char *timeout_note;
	long timeout;
	size_t i, abandoned;
	int rc;

	/* the options first, so that --help and --version work whatever the
	 * user's config says; the config then fills in what they left open */
	memset(&o, 0, sizeof(o));
	memset(&cfg, 0, sizeof(cfg));
	o.format = format_prescan(argc, argv);
	rc = parse_options(argc, argv, &o, &err);
	if (rc == EXIT_USAGE)
		return not_run(&o, NULL, &err, "usage", NULL, start);
	if (rc >= 0)
		return rc;
	if (o.schema) {
		fputs(schema_text, stdout);
		return EXIT_OK;
	}
	if (o.list_probes) {
		if (o.format == FORMAT_JSON)
			list_probes_json(stdout);
		else
			list_probes_text(stdout);
		return EXIT_OK;
	}
	if (!o.no_config && config_load(&cfg, &err) < 0) {
		/* the way out is --no-config: say so */
		size_t n = strlen(err.msg);

		snprintf(err.msg + n, sizeof(err.msg) - n, " (--no-config ignores it)");
		return not_run(&o, NULL, &err, "config-invalid", NULL, start);
	}
	if (o.format_from != FROM_CLI && cfg.format_line) {
		o.format = cfg.format;
		o.format_from = FROM_CONFIG;
	}
	if (!o.strict && cfg.strict) {
		o.strict = 1;
		o.strict_from = FROM_CONFIG;
	}
	if (!o.dir)
		o.dir = ".";
	if (spec_load(o.dir, &spec, &err) < 0) {
		rc = not_run(&o, &cfg, &err, error_kind(err.kind, 0), NULL, start);
		config_release(&cfg);
		return rc;
	}
	timeout = deadline_pick(&o, &spec, &cfg, &timeout_file, &timeout_line,
				&timeout_note);

	for (i = 0; probe_table[i]; i++)
		if (probe_selected(&o, probe_table[i]))
			probe_table[i]->plan(&spec, &plan);
	/* setlocale is not thread-safe: settle it before any worker starts */
	render_opts_init(&ro, &o, &cfg);
	results = xcalloc(plan.n ? plan.n : 1, sizeof(*results));
	abandoned = runner_run(&spec, &plan, start + (double)timeout, 0, results);

	memset(&rep, 0, sizeof(rep));
	rep.root = spec.root;
	rep.display_dir = o.dir;
	rep.results = results;
	rep.n = plan.n;
	rep.strict = o.strict;
	rep.run = run_json(&o, &cfg, &spec, timeout, timeout_file, timeout_line,
			   timeout_note);
	rep.duration_ms = clock_ms() - start;
	render(&rep, o.format, &ro);
	rc = report_failed(&rep) ? EXIT_FAIL : EXIT_OK;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("envpreflight: stdout");
		rc = EXIT_USAGE;
	}
	if (abandoned)
		return rc;	/* a stuck worker may still read the model */
	cJSON_Delete(rep.run);
	free(timeout_note);
	for (i = 0; i < plan.n; i++)
		result_release(&results[i]);
	free(results);
	plan_release(&plan);
	spec_release(&spec);
	config_release(&cfg);
	return rc;
}
