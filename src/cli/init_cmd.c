/* init_cmd.c - `envpreflight init [OPTIONS] [DIR]`: discovery
 * (spec_load_any), --snapshot's versions (the runtimes probe, under the
 * deadline, as an audit asks them), and a file that is whole or absent.
 *
 * The file is written to a temporary file created with O_EXCL in the same
 * directory, flushed with fsync, then renamed over the name (without
 * --force, with RENAME_NOREPLACE, so that a file made meanwhile is not
 * replaced either); on any failure the temporary file is removed.
 */
#include "init.h"
#include "audit.h"
#include "cliopt.h"
#include "saferead.h"
#include "gittop.h"
#include "render.h"
#include "runner.h"
#include "spec_workspaces.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct init_opts {
	const char *dir;
	enum root_from dir_from;	/* how dir was chosen (gittop.h) */
	int force, to_stdout, snapshot;
	enum format format;		/* human or json */
	long timeout_ms;		/* 0: not given */
};

/* What went wrong, for stderr and JSON's error (kind as in
 * envpreflight/1, plus "exists" and "unwritable"). */
struct init_fail {
	const char *kind;
	struct errbuf err;
};

static void usage(FILE *out)
{
	fputs("usage: envpreflight init [OPTIONS] [DIR]\n"
	      "Write DIR/preflight.yaml (default: at the top of the git work tree\n"
	      "holding the current directory, else in the current directory) from\n"
	      "what envpreflight finds in the repository, each entry's source in a\n"
	      "comment.\n"
	      "\n"
	      "      --force               replace an existing preflight.yaml\n"
	      "      --stdout              print the file instead of writing it\n"
	      "      --snapshot            pin the versions found on this machine\n"
	      "  -t, --timeout=MS          deadline for --snapshot (default 3000)\n"
	      "  -f, --format=FORMAT       human (default) or json\n"
	      "      --json                same as --format=json\n"
	      "  -h, --help                print this help and exit\n"
	      "\n"
	      "Exit status: 0 written (or printed), 2 not: the file exists, the\n"
	      "directory cannot be written, a spec file is malformed, or a bad option.\n",
	      out);
}

static int fail(struct init_fail *f, const char *kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct init_fail *f, const char *kind, const char *fmt, ...)
{
	va_list ap;

	memset(&f->err, 0, sizeof(f->err));
	va_start(ap, fmt);
	vsnprintf(f->err.msg, sizeof(f->err.msg), fmt, ap);
	va_end(ap);
	f->kind = kind;
	return -1;
}

/* Returns -1 to go on, 0 when done (--help), or 2 with f filled. */
static int parse_options(int argc, char **argv, struct init_opts *o,
			 struct init_fail *f)
{
	enum { OPT_FORCE = 256, OPT_STDOUT, OPT_SNAPSHOT, OPT_JSON };
	static const struct option longopts[] = {
		{ "force", no_argument, NULL, OPT_FORCE },
		{ "stdout", no_argument, NULL, OPT_STDOUT },
		{ "snapshot", no_argument, NULL, OPT_SNAPSHOT },
		{ "timeout", required_argument, NULL, 't' },
		{ "format", required_argument, NULL, 'f' },
		{ "json", no_argument, NULL, OPT_JSON },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	static const char optstring[] = ":f:t:h";
	struct buf b = BUF_INIT;
	int c, n;

	opterr = 0;
	for (n = 0; (c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1; n++) {
		switch (c) {
		case OPT_FORCE:
			o->force = 1;
			break;
		case OPT_STDOUT:
			o->to_stdout = 1;
			break;
		case OPT_SNAPSHOT:
			o->snapshot = 1;
			break;
		case 't':
			if (parse_long(optarg, 1, 600000, &o->timeout_ms) < 0) {
				cliopt_value_hint(&b, argv[optind - 1], optarg, longopts);
				fail(f, "usage", "--timeout expects milliseconds from 1 to "
				     "600000, not '%s'%s", optarg, buf_str(&b));
				buf_release(&b);
				return 2;
			}
			break;
		case 'f':
			if (format_parse(optarg, &o->format) < 0 ||
			    (o->format != FORMAT_HUMAN && o->format != FORMAT_JSON)) {
				cliopt_value_hint(&b, argv[optind - 1], optarg, longopts);
				fail(f, "usage", "init: unknown format '%s' (expected human "
				     "or json)%s", optarg, buf_str(&b));
				buf_release(&b);
				return 2;
			}
			break;
		case OPT_JSON:
			o->format = FORMAT_JSON;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:	/* '?' or ':' */
			cliopt_error(&b, argc, argv, optstring, longopts, n, c);
			fail(f, "usage", "init: %s", buf_str(&b));
			buf_release(&b);
			return 2;
		}
	}
	if (optind < argc)
		o->dir = argv[optind++];
	if (optind < argc)
		return fail(f, "usage", "init: one directory at most ('%s' is "
			    "extra)", argv[optind]), 2;
	return -1;
}

/* The name to write: the one the repository has, else preflight.yaml;
 * *exists when it is there already. */
static const char *target_name(const char *root, int *exists)
{
	static const char *const names[] = { "preflight.yaml", ".preflight.yaml" };
	struct stat st;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = path_join(root, names[i]);
		int found = lstat(p, &st) == 0;

		free(p);
		if (found) {
			*exists = 1;
			return names[i];
		}
	}
	*exists = 0;
	return names[0];
}

/* ---- --snapshot ------------------------------------------------------- */

static struct init_pin *pin_get(struct init_pin **v, size_t *n, const char *name)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	memset(&(*v)[*n], 0, sizeof(**v));
	(*v)[*n].name = name;
	return &(*v)[(*n)++];
}

static const char *string_of(const cJSON *o, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Why no version was learnt, from a check's reason; no path, no text of
 * the machine's, since it goes into a file that may be committed. */
static const char *pin_why(enum reason why)
{
	switch (why) {
	case REASON_NOT_FOUND:
		return "not found on PATH";
	case REASON_TIMEOUT:
	case REASON_NOT_RUN:
		return "the deadline passed before its version was known (--timeout)";
	case REASON_REFUSED:
		return "not run, for safety (see SECURITY in envpreflight(1))";
	case REASON_DAEMON_DOWN:
	case REASON_PERMISSION_DENIED:
		return "the daemon did not answer";
	default:
		return "its version could not be learnt";
	}
}

/* Ask this machine for every runtime the repository names, as an audit
 * does: the runtimes probe's checks on the runner, under the deadline.
 * The pins' names point into spec.  Returns how many checks were
 * abandoned (then spec must outlive every thread: it is not freed). */
static size_t snapshot(const struct spec *spec, double deadline,
		       struct init_pin **pins, size_t *npins)
{
	struct plan plan = { NULL, 0, 0, NULL, NULL };
	struct result *res;
	size_t i, abandoned;

	*pins = NULL;
	*npins = 0;
	for (i = 0; i < spec->nruntimes; i++)
		if (spec->runtimes[i].kind != REQ_PLATFORM)
			pin_get(pins, npins, spec->runtimes[i].name);
	if (!*npins)
		return 0;
	probe_runtimes.plan(spec, &plan);
	res = xcalloc(plan.n ? plan.n : 1, sizeof(*res));
	abandoned = runner_run(spec, &plan, deadline, 0, res);
	for (i = 0; i < plan.n; i++) {
		const char *name = string_of(res[i].data, "runtime");
		const char *found = string_of(res[i].data, "found");
		const char *kind = string_of(res[i].data, "kind");
		struct init_pin *p;
		size_t k;

		if (!name || (kind && !strcmp(kind, "platform")))
			continue;
		for (k = 0; k < *npins && strcmp((*pins)[k].name, name); k++)
			;
		if (k == *npins)
			continue;
		p = &(*pins)[k];
		p->unmet |= res[i].status == STATUS_FAIL;
		if (found && !p->version) {
			p->version = xstrdup(found);
			if (string_of(res[i].data, "path"))
				p->path = xstrdup(string_of(res[i].data, "path"));
			free(p->why);
			p->why = NULL;
		} else if (!p->version && !p->why) {
			p->why = xstrdup(pin_why(res[i].reason));
		}
	}
	for (i = 0; i < *npins; i++)
		if (!(*pins)[i].version && !(*pins)[i].why)
			(*pins)[i].why = xstrdup(pin_why(abandoned ? REASON_TIMEOUT :
							 REASON_UNKNOWN));
	if (abandoned)
		return abandoned;	/* a worker may still read the plan */
	for (i = 0; i < plan.n; i++)
		result_release(&res[i]);
	free(res);
	plan_release(&plan);
	return 0;
}

static void pins_release(struct init_pin *pins, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(pins[i].version);
		free(pins[i].why);
		free(pins[i].path);
	}
	free(pins);
}

/* ---- writing ------------------------------------------------------------ */

/* The temporary file's content, flushed and closed; -1 with errno. */
static int fill(int fd, const char *content)
{
	if (write_all(fd, content, strlen(content)) < 0 || fsync(fd) < 0) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* tmp onto name: replacing it only with force. */
static int put_in_place(int dfd, const char *tmp, const char *name, int force)
{
	if (force)
		return renameat(dfd, tmp, dfd, name);
	if (renameat2(dfd, tmp, dfd, name, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	/* a file system without RENAME_NOREPLACE: link fails on a name
	 * that exists, as atomically */
	if (linkat(dfd, tmp, dfd, name, 0) < 0)
		return -1;
	unlinkat(dfd, tmp, 0);
	return 0;
}

/* content into root/name, whole or not at all.  0, or -1 with f filled
 * and no file left behind. */
static int write_file(const char *root, const char *name, const char *content,
		      int force, struct init_fail *f)
{
	char tmp[64];
	unsigned n;
	int dfd, fd = -1, e;

	dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return fail(f, "unwritable", "cannot open %s: %s", root, strerror(errno));
	for (n = 0; n < 100 && fd < 0; n++) {
		snprintf(tmp, sizeof(tmp), ".%s.init-%ld-%u.tmp", name[0] == '.' ?
			 name + 1 : name, (long)getpid(), n);
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			    O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0) {
		e = errno;
		close(dfd);
		return fail(f, "unwritable", "cannot create a file in %s: %s", root,
			    strerror(e));
	}
	if (fill(fd, content) < 0 || put_in_place(dfd, tmp, name, force) < 0) {
		e = errno;
		unlinkat(dfd, tmp, 0);
		close(dfd);
		if (e == EEXIST)
			return fail(f, "exists", "%s exists: --force replaces it, "
				    "--stdout prints the new one", name);
		return fail(f, "unwritable", "cannot write %s in %s: %s", name, root,
			    strerror(e));
	}
	/* the rename itself is durable once the directory is flushed */
	if (fsync(dfd) < 0 && errno != EINVAL)
		fprintf(stderr, "envpreflight: init: %s: %s (the file is written)\n",
			root, strerror(errno));
	close(dfd);
	return 0;
}

/* ---- output --------------------------------------------------------- */

static cJSON *error_json(const struct init_fail *f)
{
	cJSON *o = cJSON_CreateObject();
	const struct errbuf *e = &f->err;
	char *msg = text_clean(e->msg + e->what);

	cJSON_AddStringToObject(o, "kind", f->kind);
	if (e->file[0]) {
		char *file = text_clean(e->file);

		cJSON_AddStringToObject(o, "file", file);
		free(file);
	} else {
		cJSON_AddNullToObject(o, "file");
	}
	if (e->file[0] && e->line)
		cJSON_AddNumberToObject(o, "line", e->line);
	else
		cJSON_AddNullToObject(o, "line");
	if (e->file[0] && e->line && e->col)
		cJSON_AddNumberToObject(o, "column", e->col);
	else
		cJSON_AddNullToObject(o, "column");
	cJSON_AddStringToObject(o, "message", msg);
	free(msg);
	return o;
}

/* {"schema": "envpreflight-init/1", "ok", "root", "root_from", "file",
 * "content", "derived_from", "error"}: on every exit of --format=json. */
static void print_json(const struct init_opts *opts, const char *root,
		       const char *written, const struct init_doc *doc,
		       const struct init_fail *f)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "schema", "envpreflight-init/1");
	cJSON_AddBoolToObject(o, "ok", f == NULL);
	if (root)
		cJSON_AddStringToObject(o, "root", root);
	else
		cJSON_AddNullToObject(o, "root");
	cJSON_AddStringToObject(o, "root_from", root_from_name(opts->dir_from));
	if (written)
		cJSON_AddStringToObject(o, "file", written);
	else
		cJSON_AddNullToObject(o, "file");
	if (doc && doc->content)
		cJSON_AddStringToObject(o, "content", doc->content);
	else
		cJSON_AddNullToObject(o, "content");
	if (doc && doc->derived_from)
		cJSON_AddItemReferenceToObject(o, "derived_from", doc->derived_from);
	else
		cJSON_AddArrayToObject(o, "derived_from");
	cJSON_AddItemToObject(o, "error", f ? error_json(f) : cJSON_CreateNull());
	render_json_value(stdout, o);
	cJSON_Delete(o);
}

static int finish_error(const struct init_opts *o, const char *root,
			const struct init_fail *f)
{
	char *msg = text_clean(f->err.msg);

	fprintf(stderr, "envpreflight: %s\n", msg);
	if (!strcmp(f->kind, "usage"))
		fputs("Try 'envpreflight init --help'.\n", stderr);
	free(msg);
	if (o->format == FORMAT_JSON)
		print_json(o, root, NULL, NULL, f);
	return 2;
}

/* ---- the command ------------------------------------------------------ */

static long snapshot_deadline(const struct init_opts *o, const struct spec *spec)
{
	if (o->timeout_ms)
		return o->timeout_ms;
	if (spec->timeout_ms)
		return spec->timeout_ms < REPO_TIMEOUT_MAX_MS ? spec->timeout_ms :
		       REPO_TIMEOUT_MAX_MS;
	return DEFAULT_TIMEOUT_MS;
}

/* The name as the user reads it: below a top found above the current
 * directory, with the path up to it ("../../preflight.yaml"); the
 * caller frees it. */
static char *shown_name(const struct init_opts *o, const char *name)
{
	if (o->dir && o->dir_from == ROOT_FROM_GIT && strcmp(o->dir, "."))
		return path_join(o->dir, name);
	return xstrdup(name);
}

/* init once the options are read: the exit status. */
static int init_run(struct init_opts *o, struct init_fail *f, double start)
{
	struct init_doc doc;
	struct init_pin *pins = NULL;
	struct spec_opts sopts = { 1, NULL, 1 };
	struct spec spec;
	const char *name;
	char *shown;
	size_t npins = 0, abandoned = 0;
	int rc, exists;

	/* an existing file first: without --force nothing else matters,
	 * not even whether that file loads */
	name = target_name(o->dir ? o->dir : ".", &exists);
	shown = shown_name(o, name);
	if (exists && !o->force && !o->to_stdout) {
		fail(f, "exists", "%s exists: --force replaces it, --stdout prints "
		     "the new one", shown);
		free(shown);
		return finish_error(o, NULL, f);
	}
	/* with the workspaces, so that a workspace file no tool can parse
	 * stops init as it stops the audit */
	if (spec_load_opts(o->dir ? o->dir : ".", &sopts, &spec, &f->err) < 0) {
		f->kind = audit_error_kind(f->err.kind);
		free(shown);
		return finish_error(o, NULL, f);
	}
	if (o->snapshot)
		abandoned = snapshot(&spec, start + (double)snapshot_deadline(o, &spec),
				     &pins, &npins);
	init_generate(&spec, pins, npins, &doc);
	rc = 0;
	if (o->to_stdout) {
		if (o->format == FORMAT_JSON)
			print_json(o, spec.root, NULL, &doc, NULL);
		else
			fputs(doc.content, stdout);
	} else if (write_file(spec.root, name, doc.content, o->force, f) < 0) {
		rc = finish_error(o, spec.root, f);
	} else if (o->format == FORMAT_JSON) {
		print_json(o, spec.root, name, &doc, NULL);
	} else {
		printf("wrote %s: %zu %s to check, %zu found in the repository's "
		       "files listed as comments\n", shown, doc.nlines,
		       doc.nlines == 1 ? "entry" : "entries", doc.ncomments);
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("envpreflight: stdout");
		rc = 2;
	}
	free(shown);
	init_doc_release(&doc);
	pins_release(pins, npins);
	if (!abandoned)		/* else a stuck worker may still read it */
		spec_release(&spec);
	return rc;
}

int init_main(int argc, char **argv)
{
	struct init_opts o;
	struct init_fail f;
	char *top = NULL, *note = NULL;
	double start = clock_ms();
	int rc;

	memset(&o, 0, sizeof(o));
	memset(&f, 0, sizeof(f));
	for (rc = 1; rc < argc; rc++)	/* errors in the format asked for */
		if (!strcmp(argv[rc], "--json") || !strcmp(argv[rc], "--format=json"))
			o.format = FORMAT_JSON;
	rc = parse_options(argc, argv, &o, &f);
	if (rc == 0)
		return 0;
	if (rc == 2)
		return finish_error(&o, NULL, &f);
	/* without DIR, the file goes where the audit reads it: at the top
	 * of the git work tree we are in (only the top's preflight.yaml is
	 * read, a workspace's is not) */
	if (o.dir) {
		o.dir_from = ROOT_FROM_ARGUMENT;
	} else if (gittop_from_cwd(&top, &note)) {
		o.dir = top;
		o.dir_from = ROOT_FROM_GIT;
	}
	rc = init_run(&o, &f, start);
	free(top);
	free(note);
	return rc;
}
