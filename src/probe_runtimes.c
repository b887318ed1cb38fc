/* probe_runtimes.c - every declared runtime version, each requirement its
 * own check, with npm's, nvm's, PEP 440's, pyenv's, asdf's and Go's own
 * semantics.
 *
 * A check first reads its requirement (an invalid range fails the check
 * without running anything), then asks for the runtime's version through
 * run_once, keyed on the runtime name, so that node is asked once a run
 * however many requirements name it.  Asking means, in order: the exec-free
 * shortcuts of vfast_lookup, the version cache, and only then one spawn of
 * the binary found on PATH (relative entries and entries inside the
 * audited repository skipped), with an argv, the repository as working
 * directory, a scrubbed environment and the run's deadline.  The docker
 * daemon is asked over its socket instead.
 *
 * Hints name a command only with values this file validated (a version
 * that parsed, a codename from the built-in table), never text as the
 * repository wrote it.
 */
#include "probe.h"
#include "docker.h"
#include "gomod.h"
#include "nvmrc.h"
#include "pep440.h"
#include "semver.h"
#include "spawnrun.h"
#include "versions.h"
#include "vfast.h"

#include <errno.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

#define VERSION_MAX 64		/* longer "versions" are junk */
#define EXEC_MARGIN_MS 50	/* an exec ends this much before the run's
				 * deadline, so the check can say which
				 * binary hung rather than the runner's
				 * anonymous "timed out" */
#define QUOTE_RANGE 100		/* repository text quoted in a message */
#define PYTHON_NEWEST_MINOR 14	/* hints suggest no CPython newer than 3.14:
				 * raise it as releases come out */

/* How to ask a runtime envpreflight knows for its version.  The regex is
 * a POSIX ERE whose first group is the bare version; NULL for python,
 * whose output pep440_python_output reads. */
struct known {
	const char *name;		/* the runtime name in the model */
	const char *display;		/* "Node.js" */
	const char *title;		/* of its first check */
	const char *bins[3];		/* tried in order on PATH */
	const char *args[3];
	const char *regex;
	const char *prefix;		/* shown before the bare version */
	int socket;			/* docker: asked over its socket */
};

#define LINE_SEMVER "^v?([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)"

static const struct known known[] = {
	{ "node", "Node.js", "Node.js runtime", { "node" }, { "--version" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "v", 0 },
	{ "npm", "npm", "npm", { "npm" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "pnpm", "pnpm", "pnpm", { "pnpm" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "yarn", "Yarn", "Yarn", { "yarn" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "bun", "Bun", "Bun runtime", { "bun" }, { "--version" }, LINE_SEMVER, "", 0 },
	{ "deno", "Deno", "Deno runtime", { "deno" }, { "--version" },
	  "^deno ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?)", "", 0 },
	{ "python", "Python", "Python runtime", { "python3", "python" },
	  { "--version" }, NULL, "", 0 },
	{ "go", "Go", "Go toolchain", { "go" }, { "version" },
	  "go version go([0-9]+(\\.[0-9]+)*((rc|beta)[0-9]+)?)", "go", 0 },
	{ "ruby", "Ruby", "Ruby runtime", { "ruby" }, { "--version" },
	  "^ruby ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "java", "Java", "Java runtime", { "java" }, { "-version" },
	  "version \"([0-9]+(\\.[0-9]+)*)", "", 0 },
	{ "rust", "Rust", "Rust compiler", { "rustc" }, { "--version" },
	  "^rustc ([0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.]+)?)", "", 0 },
	{ "php", "PHP", "PHP runtime", { "php" }, { "--version" },
	  "^PHP ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "elixir", "Elixir", "Elixir", { "elixir" }, { "--version" },
	  "Elixir ([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "dotnet", ".NET SDK", ".NET SDK", { "dotnet" }, { "--version" },
	  LINE_SEMVER, "", 0 },
	{ "terraform", "Terraform", "Terraform", { "terraform" }, { "version" },
	  "^Terraform v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "kubectl", "kubectl", "kubectl", { "kubectl" }, { "version", "--client" },
	  "Client Version: v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "helm", "Helm", "Helm", { "helm" }, { "version", "--short" },
	  "^v([0-9]+\\.[0-9]+\\.[0-9]+)", "", 0 },
	{ "docker", "Docker", "Docker daemon", { NULL }, { NULL }, NULL, "", 1 },
};

/* For a name we do not know: NAME --version, the first dotted number. */
#define GENERIC_REGEX "([0-9]+\\.[0-9]+(\\.[0-9]+)?)"

/* Forced on every child whatever our environment says: a version check
 * must never download code the repository names (corepack's pinned
 * package manager, pnpm's own switch to the pnpm packageManager names -
 * spelt for pnpm 9.7 to 10 and for pnpm 11 -, a go.mod toolchain, a
 * missing tool that mise, rustup or tfenv would install), run a file the
 * repository names (yarnPath: yarn is not run at all then, this is a
 * second fence; npm 6's onload-script from a project .npmrc, which the
 * environment outranks), edit the repository (corepack auto-pins
 * packageManager into package.json) or phone home. */
static const char *const forced_env[] = {
	"COREPACK_ENABLE_NETWORK=0", "COREPACK_ENABLE_DOWNLOAD_PROMPT=0",
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

static const struct known *known_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(known); i++)
		if (!strcmp(known[i].name, name))
			return &known[i];
	return NULL;
}

/* ---- where a requirement came from ---- */

static int is_file(const struct runtime_req *r, const char *name)
{
	return r->origin.file && !strcmp(r->origin.file, name);
}

/* packageManager keeps its value as written, starting with the name;
 * volta's value is a bare version. */
static int is_package_manager(const struct runtime_req *r)
{
	size_t n = strlen(r->name);

	return r->kind == REQ_EXACT && is_file(r, "package.json") &&
	       !strncmp(r->spec, r->name, n) && (r->spec[n] == '@' || !r->spec[n]);
}

/* go.mod's toolchain line is kept as "go1.22.3"; its go line as "1.22". */
static int is_toolchain(const struct runtime_req *r)
{
	return r->kind == REQ_GO_MIN && is_file(r, "go.mod") &&
	       !strncmp(r->spec, "go", 2);
}

/* The id suffix and the title label of a requirement that is not the
 * first for its runtime. */
static void source_tag(const struct runtime_req *r, const char **tag,
		       const char **label)
{
	static const struct { const char *file, *tag; } files[] = {
		{ ".nvmrc", "nvmrc" }, { ".node-version", "node-version" },
		{ ".python-version", "python-version" },
		{ "pyproject.toml", "pyproject" }, { "setup.cfg", "setup-cfg" },
		{ ".tool-versions", "tool-versions" },
		{ "preflight.yaml", "preflight" }, { ".preflight.yaml", "preflight" },
	};
	size_t i;

	*tag = "other";
	*label = r->origin.file ? r->origin.file : "preflight.yaml";
	if (is_file(r, "package.json")) {
		if (is_package_manager(r))
			*tag = "packageManager", *label = "packageManager";
		else if (r->kind == REQ_EXACT)
			*tag = "volta", *label = "volta";
		else
			*tag = "engines", *label = "package.json engines";
		return;
	}
	if (is_file(r, "go.mod")) {
		if (is_toolchain(r))
			*tag = "toolchain", *label = "go.mod toolchain";
		else
			*tag = "go-mod";
		return;
	}
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (is_file(r, files[i].file))
			*tag = files[i].tag;
}

static const char *kind_name(enum req_kind k)
{
	static const char *const names[] = {
		[REQ_SEMVER] = "semver", [REQ_NVMRC] = "nvmrc",
		[REQ_PEP440] = "pep440", [REQ_PYENV] = "pyenv",
		[REQ_EXACT] = "exact", [REQ_GO_MIN] = "go-min",
		[REQ_ASDF] = "asdf", [REQ_ANY] = "any",
	};

	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "any";
}

/* ---- the requirement, read ---- */

struct prepared {
	const struct runtime_req *r;
	int bad;			/* the requirement itself is at fault */
	struct buf problem;		/* then: why, naming file:line */
	struct semver_range *range;	/* REQ_SEMVER */
	struct nvmrc nvmrc;		/* REQ_NVMRC */
	int have_nvmrc;
	struct pyenv_file pyenv;	/* REQ_PYENV */
	struct pkgmanager pm;		/* REQ_EXACT, packageManager */
	struct semver exact;		/* REQ_EXACT */
	int have_exact;
	char want[QUOTE_RANGE];		/* the requirement, quoted for messages */
	char num[48];			/* a validated version for hints ("20",
					 * "3.12", "9.1.0"), or "" */
	char nvm[48];			/* what nvm takes instead ("lts/iron",
					 * "--lts"), or "" */
};

static void where(struct buf *b, const struct runtime_req *r)
{
	buf_puts(b, r->origin.file ? r->origin.file : "preflight.yaml");
	if (r->origin.line)
		buf_printf(b, ":%u", r->origin.line);
}

/* 1 when s is made of the characters a version may hold: safe to put in
 * a hint. */
static int hint_safe(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= 40)
		return 0;
	return strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz"
		      "ABCDEFGHIJKLMNOPQRSTUVWXYZ.+-_") == n;
}

/* The newest major of node (LTS lines first) or of any tool that r
 * admits, as a hint; "" when no major is admitted whole or in part, or
 * when the range has no upper bound and we do not know the tool's newest
 * major (a bare "npm install -g npm" then gets the latest). */
static void suggest_major(struct prepared *p, int node)
{
	struct semver far = SEMVER_INIT;
	unsigned long m;
	int pass, k, open_ended;

	if (semver_parse("99999.0.0", 0, &far) < 0)
		return;
	open_ended = semver_satisfies(&far, p->range, SEMVER_INCLUDE_PRERELEASE);
	semver_release(&far);
	if (open_ended && !node)
		return;
	for (pass = node ? 0 : 1; pass < 2; pass++) {
		for (m = 40; m-- > 0;) {
			if (!pass && !nvmrc_lts_codename(m))
				continue;
			for (k = 0; k < 2; k++) {
				char v[64];
				struct semver sv = SEMVER_INIT;
				int ok;

				/* the first release of the major, or its last */
				if (k)
					snprintf(v, sizeof(v), "%lu.99999.99999", m);
				else
					snprintf(v, sizeof(v), "%lu.0.0", m);
				if (semver_parse(v, 0, &sv) < 0)
					continue;
				ok = semver_satisfies(&sv, p->range,
						      SEMVER_INCLUDE_PRERELEASE);
				semver_release(&sv);
				if (ok) {
					snprintf(p->num, sizeof(p->num), "%lu", m);
					return;
				}
			}
		}
	}
}

/* The newest 3.x minor a PEP 440 specifier admits, as "3.12". */
static void suggest_python(struct prepared *p)
{
	char err[128];
	int m, k;

	for (m = PYTHON_NEWEST_MINOR; m >= 6; m--) {
		for (k = 0; k < 2; k++) {
			char v[32];

			if (k)
				snprintf(v, sizeof(v), "3.%d.999", m);
			else
				snprintf(v, sizeof(v), "3.%d.0", m);
			if (pep440_check(p->r->spec, v, err, sizeof(err)) == 1) {
				snprintf(p->num, sizeof(p->num), "3.%d", m);
				return;
			}
		}
	}
}

/* The dotted numbers a .tool-versions version starts with, after an
 * optional flavour ("temurin-21.0.2+13" gives "21.0.2"). */
static const char *asdf_core(const char *s, size_t *len)
{
	const char *dash = strchr(s, '-');
	size_t n;

	if (dash && dash[1] >= '0' && dash[1] <= '9' &&
	    strcspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") <
	    (size_t)(dash - s))
		s = dash + 1;
	if (*s == 'v')
		s++;
	n = strspn(s, "0123456789.");
	while (n && s[n - 1] == '.')
		n--;
	*len = s[0] >= '0' && s[0] <= '9' ? n : 0;
	return s;
}

/* One bound of a comparator set: the version and whether it is strict. */
struct bound {
	struct semver v;
	int set, strict;
};

/* Tighten b to v when v is the tighter bound (sign 1: a lower bound, the
 * higher wins; -1: an upper bound, the lower wins).  Takes v. */
static void bound_tighten(struct bound *b, struct semver *v, int strict, int sign)
{
	int c = b->set ? semver_compare(v, &b->v) * sign : 1;

	if (c > 0 || (c == 0 && strict)) {
		if (b->set)
			semver_release(&b->v);
		b->v = *v;
		b->set = 1;
		b->strict = strict;
	} else {
		semver_release(v);
	}
}

/* 1 when no version satisfies the comparators of one set, [s, s+n) of
 * validRange's canonical text (">=20.0.0-0 <18.0.0-0"): its lower bound
 * is above its upper bound, or meets it with a strict side.  0 when some
 * version may, or the text is not understood. */
static int set_empty(const char *s, size_t n)
{
	struct bound lo = { SEMVER_INIT, 0, 0 }, hi = { SEMVER_INIT, 0, 0 };
	size_t i = 0;
	int empty = 0, ok = 1;

	while (ok && i < n) {
		size_t len = strcspn(s + i, " |"), op = 0;
		struct semver v = SEMVER_INIT;

		if (len > n - i)
			len = n - i;
		while (op < len && op < 2 && strchr("<>=", s[i + op]))
			op++;
		if (!len) {
			i++;
			continue;
		}
		if (semver_parse_mem(s + i + op, len - op, 0, &v) < 0) {
			ok = 0;
			break;
		}
		if (s[i] == '>') {
			bound_tighten(&lo, &v, op == 1, 1);
		} else if (s[i] == '<') {
			bound_tighten(&hi, &v, op == 1, -1);
		} else {
			/* an exact version is a bound on both sides */
			struct semver w = SEMVER_INIT;
			char text[SEMVER_TEXT_MAX];

			semver_format(&v, text, sizeof(text));
			if (semver_parse(text, 0, &w) < 0) {
				semver_release(&v);
				ok = 0;
				break;
			}
			bound_tighten(&lo, &v, 0, 1);
			bound_tighten(&hi, &w, 0, -1);
		}
		i += len;
	}
	if (ok && lo.set && hi.set) {
		int c = semver_compare(&lo.v, &hi.v);

		empty = c > 0 || (c == 0 && (lo.strict || hi.strict));
	}
	/* nothing sorts below 0.0.0-0, the least version there is */
	if (ok && !empty && hi.set && hi.strict) {
		char text[SEMVER_TEXT_MAX];

		empty = !strcmp(semver_format(&hi.v, text, sizeof(text)), "0.0.0-0");
	}
	if (lo.set)
		semver_release(&lo.v);
	if (hi.set)
		semver_release(&hi.v);
	return ok && empty;
}

/* 1 when no version can satisfy r: every comparator set is empty.  A
 * cheap, certain test, not node-semver's intersects(): a set it cannot
 * judge counts as satisfiable. */
static int range_never_satisfied(const struct semver_range *r)
{
	char *text = semver_range_format(r);
	const char *s = text;
	int never = 1;

	if (!text)
		return 0;
	for (;;) {
		const char *bar = strstr(s, "||");
		size_t n = bar ? (size_t)(bar - s) : strlen(s);

		if (!set_empty(s, n)) {
			never = 0;
			break;
		}
		if (!bar)
			break;
		s = bar + 2;
	}
	free(text);
	return never;
}

static void prepare_semver(struct prepared *p)
{
	p->range = semver_range_parse(p->r->spec, SEMVER_INCLUDE_PRERELEASE);
	if (!p->range) {
		p->bad = 1;
		buf_printf(&p->problem, "invalid range '%s' in ", p->want);
		where(&p->problem, p->r);
		return;
	}
	if (range_never_satisfied(p->range)) {
		p->bad = 1;
		buf_printf(&p->problem, "the range '%s' in ", p->want);
		where(&p->problem, p->r);
		buf_puts(&p->problem, " can never be satisfied: no version is in "
			 "all of its bounds");
		return;
	}
	suggest_major(p, !strcmp(p->r->name, "node"));
}

static void prepare_nvmrc(struct prepared *p)
{
	const struct nvmrc *n = &p->nvmrc;
	char err[256];
	unsigned line;

	if (nvmrc_parse(p->r->spec, strlen(p->r->spec), &p->nvmrc, err,
			sizeof(err), &line) < 0) {
		p->bad = 1;
		buf_printf(&p->problem, "%s in ", err);
		where(&p->problem, p->r);
		return;
	}
	p->have_nvmrc = 1;
	if (n->kind == NVMRC_VERSION && n->nparts == 1)
		snprintf(p->num, sizeof(p->num), "%lu", n->major);
	else if (n->kind == NVMRC_VERSION && n->nparts == 2)
		snprintf(p->num, sizeof(p->num), "%lu.%lu", n->major, n->minor);
	else if (n->kind == NVMRC_VERSION)
		snprintf(p->num, sizeof(p->num), "%lu.%lu.%lu", n->major,
			 n->minor, n->patch);
	else if (n->kind == NVMRC_LTS && n->codename)
		snprintf(p->nvm, sizeof(p->nvm), "lts/%s", n->codename);
	else if (n->kind == NVMRC_LTS_ANY)
		snprintf(p->nvm, sizeof(p->nvm), "lts/*");
	if (n->kind == NVMRC_LTS || n->kind == NVMRC_LTS_ANY)
		snprintf(p->num, sizeof(p->num), "%lu", n->major);
}

static void prepare_exact(struct prepared *p)
{
	const struct runtime_req *r = p->r;
	char err[256], v[SEMVER_TEXT_MAX];
	const char *version = r->spec;

	if (is_package_manager(r)) {
		if (pkgmanager_parse(r->spec, strlen(r->spec), &p->pm, err,
				     sizeof(err)) < 0) {
			p->bad = 1;
			buf_printf(&p->problem, "packageManager %s in ", err);
			where(&p->problem, r);
			return;
		}
		version = p->pm.version;
	}
	if (semver_parse(version, 0, &p->exact) < 0) {
		p->bad = 1;
		buf_printf(&p->problem, "invalid version '%s' in ", p->want);
		where(&p->problem, r);
		buf_puts(&p->problem, " (an exact X.Y.Z is expected)");
		return;
	}
	p->have_exact = 1;
	semver_format(&p->exact, v, sizeof(v));
	if (hint_safe(v))
		snprintf(p->num, sizeof(p->num), "%.40s", v);
}

static void prepare(struct prepared *p, const struct runtime_req *r)
{
	char err[256];
	size_t n;

	memset(p, 0, sizeof(*p));
	p->r = r;
	versions_quote(p->want, sizeof(p->want), r->spec, strlen(r->spec));
	switch (r->kind) {
	case REQ_SEMVER:
		prepare_semver(p);
		break;
	case REQ_NVMRC:
		prepare_nvmrc(p);
		break;
	case REQ_PEP440:
		if (pep440_check(r->spec, "0", err, sizeof(err)) < 0) {
			p->bad = 1;
			buf_printf(&p->problem, "invalid specifier '%s' in ", p->want);
			where(&p->problem, r);
			buf_printf(&p->problem, ": %s", err);
			break;
		}
		suggest_python(p);
		break;
	case REQ_PYENV:
		/* read by pyenv_parse already when the file was loaded */
		if (pyenv_parse(r->spec, strlen(r->spec), &p->pyenv, err, sizeof(err),
				NULL, NULL) < 0 || !p->pyenv.n) {
			p->bad = 1;
			buf_printf(&p->problem, "'%s' in ", p->want);
			where(&p->problem, r);
			buf_puts(&p->problem, " is not a pyenv version name");
			break;
		}
		if (p->pyenv.v[0].kind == PYENV_CPYTHON && hint_safe(r->spec))
			snprintf(p->num, sizeof(p->num), "%.40s", r->spec);
		break;
	case REQ_EXACT:
		prepare_exact(p);
		break;
	case REQ_GO_MIN:
		if (goversion_at_least(r->spec, r->spec) < 0) {
			p->bad = 1;
			buf_printf(&p->problem, "invalid Go version '%s' in ", p->want);
			where(&p->problem, r);
			break;
		}
		if (hint_safe(r->spec))
			snprintf(p->num, sizeof(p->num), "%.40s",
				 r->spec + (is_toolchain(r) ? 2 : 0));
		break;
	case REQ_ASDF: {
		const char *core = asdf_core(r->spec, &n);

		if (n && n < sizeof(p->num))
			snprintf(p->num, sizeof(p->num), "%.*s", (int)n, core);
		break;
	}
	case REQ_ANY:
		break;
	}
}

static void prepared_release(struct prepared *p)
{
	buf_release(&p->problem);
	if (p->range)
		semver_range_free(p->range);
	if (p->have_nvmrc)
		nvmrc_release(&p->nvmrc);
	pyenv_release(&p->pyenv);
	pkgmanager_release(&p->pm);
	if (p->have_exact)
		semver_release(&p->exact);
}

/* ---- asking for the version ---- */

enum answer_state { ANS_FOUND, ANS_MISSING, ANS_ERROR, ANS_DOCKER, ANS_REFUSED };

/* What run_once shares between every check of one runtime.  Read-only
 * once made; freed by answer_free when the run is over. */
struct answer {
	int state;
	char *version;		/* ANS_FOUND: bare, validated ("20.11.1") */
	enum vmethod method;
	char *path;		/* the binary found on PATH, or the socket */
	char *resolved;		/* a shim's real binary (vfast), or NULL */
	char *command;		/* "/usr/bin/node --version" as run */
	char *skipped;		/* PATH entries skipped, or NULL */
	char *tried;		/* "python3, python" */
	char *error;		/* ANS_ERROR: what went wrong; ANS_REFUSED:
				 * why the binary was not run */
	int refused;		/* ANS_REFUSED: the check's status */
	char *note;		/* FOUND without running it because running
				 * it would run repository code: why */
	int timed_out;		/* ANS_ERROR: killed at the deadline */
	int no_version;		/* ANS_ERROR: it ran, but printed no version */
	struct docker_info docker;	/* ANS_DOCKER, and FOUND by socket */
	int asked_docker;
	char *docker_cli;	/* no socket: the docker CLI on PATH (looked
				 * up, never run), or NULL */
};

static void answer_free(void *v)
{
	struct answer *a = v;

	if (!a)
		return;
	free(a->version);
	free(a->path);
	free(a->resolved);
	free(a->command);
	free(a->skipped);
	free(a->tried);
	free(a->error);
	free(a->note);
	free(a->docker_cli);
	if (a->asked_docker)
		docker_info_release(&a->docker);
	free(a);
}

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

static void answer_error(struct answer *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void answer_error(struct answer *a, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&b, fmt, ap);
	va_end(ap);
	a->state = ANS_ERROR;
	free(a->error);
	a->error = buf_detach(&b);
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

/* Turn what the child printed into a->version, or a->error. */
static void read_output(struct answer *a, const struct spawn_result *res,
			const char *rx)
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

/* How one runtime is asked: the built-in table, overridden by
 * preflight.yaml's command and version_regex for that name (which then
 * holds for every requirement of the name, whatever file it came from). */
struct ask {
	const char *name;
	const struct known *k;
	char *const *command;
	const char *regex;
};

static void ask_init(struct ask *q, const struct spec *spec, const char *name)
{
	size_t i;

	memset(q, 0, sizeof(*q));
	q->name = name;
	q->k = known_find(name);
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
static void find_binary(struct answer *a, const struct ask *q, const char *root)
{
	const char *path_env = getenv("PATH");
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
	for (i = 1; argv[i]; i++)
		buf_printf(&b, " %s", argv[i]);
	return buf_detach(&b);
}

/* ---- what preflight.yaml's command may run ---- */

/* A repository chooses both the program and the arguments of its
 * command, so only version queries run: PROGRAM --version for any
 * program, the other usual forms only for a program that is not a shell,
 * an interpreter, a package manager, a task runner or a tool that acts
 * on files or processes - to those "-v" or "version" can mean "run this"
 * (rake -v runs the Rakefile, java version a class in the repository,
 * bash version a script of that name, pkill -v kills). */
static const char *const cmd_shapes[][3] = {
	{ "--version" }, { "-version" }, { "-v" }, { "-V" }, { "-vV" },
	{ "version" }, { "version", "--short" }, { "version", "--client" },
	{ "-dumpversion" }, { "-dumpfullversion" }, { "--numeric-version" },
};

static const char *const cmd_risky[] = {
	/* shells and wrappers that run their arguments */
	"sh", "bash", "dash", "zsh", "ksh", "mksh", "yash", "fish", "csh", "tcsh",
	"busybox", "toybox", "env", "nice", "nohup", "timeout", "stdbuf", "xargs",
	"sudo", "doas", "su", "runuser", "setsid", "chroot", "unshare", "nsenter",
	"flock", "script", "expect", "watch", "time", "strace", "ltrace", "gdb",
	"valgrind", "exec", "eval", "command", "systemd-run",
	/* interpreters and compilers that run a file or class named so */
	"python", "pypy", "node", "nodejs", "deno", "bun", "perl", "ruby", "irb",
	"php", "lua", "luajit", "tclsh", "wish", "Rscript", "R", "julia", "java",
	"javaw", "jshell", "groovy", "scala", "kotlin", "clojure", "elixir",
	"iex", "erl", "escript", "guile", "racket", "sbcl", "runghc", "ghci",
	"swift", "dotnet", "awk", "gawk", "mawk", "nawk", "sed", "ed", "ex", "vi",
	"vim", "nvim", "emacs", "osascript", "pwsh",
	/* package managers and task runners that run the repository's scripts */
	"npm", "npx", "pnpm", "pnpx", "yarn", "yarnpkg", "corepack", "bunx",
	"cargo", "pip", "pipx", "uv", "uvx", "poetry", "pdm", "hatch", "tox",
	"nox", "gem", "bundle", "bundler", "rake", "make", "gmake", "bmake",
	"ninja", "just", "task", "cmake", "meson", "scons", "ant", "mvn", "mvnd",
	"gradle", "sbt", "lein", "mix", "bazel", "bazelisk", "buck", "pants",
	"grunt", "gulp", "jake", "nx", "turbo", "lerna", "composer",
	/* tools that act on files or processes */
	"kill", "pkill", "killall", "skill", "snice", "rm", "rmdir", "shred",
	"unlink", "mv", "cp", "dd", "truncate", "chmod", "chown", "ln", "install",
	"tee", "touch", "mkdir", "xdg-open", "open",
};

/* prog's file name without a trailing version ("python3.11" is python). */
static int cmd_is_risky(const char *prog)
{
	const char *base = strrchr(prog, '/');
	size_t n, i;

	base = base ? base + 1 : prog;
	n = strlen(base);
	while (n > 1 && strchr("0123456789.-", base[n - 1]))
		n--;
	for (i = 0; i < ARRAY_SIZE(cmd_risky); i++)
		if (strlen(cmd_risky[i]) == n && !strncmp(base, cmd_risky[i], n))
			return 1;
	return 0;
}

/* 1 when the command, whose program was found at path, is a version
 * query envpreflight runs. */
static int cmd_allowed(char *const *command, const char *path)
{
	char *real = realpath(path, NULL);
	int risky = cmd_is_risky(command[0]) || cmd_is_risky(path) ||
		    (real && cmd_is_risky(real));
	size_t i, j;

	free(real);
	for (i = 0; i < (risky ? 1 : ARRAY_SIZE(cmd_shapes)); i++) {
		for (j = 0; j < 3 && cmd_shapes[i][j] && command[j + 1] &&
		     !strcmp(cmd_shapes[i][j], command[j + 1]); j++)
			;
		if ((j == 3 || !cmd_shapes[i][j]) && !command[j + 1])
			return 1;
	}
	return 0;
}

static void refuse_command(struct answer *a, const struct ask *q)
{
	struct buf b = BUF_INIT;
	size_t i;

	for (i = 0; q->command[i] && b.len < QUOTE_RANGE; i++) {
		if (i)
			buf_putc(&b, ' ');
		buf_add_clean(&b, q->command[i]);
	}
	answer_error(a, "not run: '%.*s' (the command preflight.yaml gives %s) is "
		     "not a version query envpreflight runs: a repository chooses "
		     "that command, so only PROGRAM --version runs, and -version, -v, "
		     "-V or version [--short|--client] for a program that is not a "
		     "shell, an interpreter, a package manager or a task runner",
		     QUOTE_RANGE, buf_str(&b), q->name);
	a->state = ANS_REFUSED;
	a->refused = STATUS_ERROR;
	buf_release(&b);
}

/* The deadline of one exec: a little before the run's, when there is
 * time for it. */
static double exec_deadline(const struct run_ctx *ctx)
{
	double left = ctx->deadline_ms - clock_ms();

	return left > 4 * EXEC_MARGIN_MS ? ctx->deadline_ms - EXEC_MARGIN_MS :
	       ctx->deadline_ms;
}

static void ask_exec(const struct run_ctx *ctx, struct answer *a, const struct ask *q)
{
	const char *root = ctx->spec->root;
	const char *rx = q->regex ? q->regex : q->command ? GENERIC_REGEX :
			 q->k ? q->k->regex : GENERIC_REGEX;
	const char *argv[66];
	const char *run_path;
	char **env = child_env(root);
	struct vguard guard;
	struct spawn_result res;
	char v[VERSION_MAX];
	enum vmethod method;
	size_t n = 0, i;

	if (q->command) {
		for (i = 0; q->command[i] && n < ARRAY_SIZE(argv) - 1; i++)
			argv[n++] = q->command[i];
	} else {
		argv[n++] = a->path;
		for (i = 0; q->k && q->k->args[i]; i++)
			argv[n++] = q->k->args[i];
		if (!q->k)
			argv[n++] = "--version";
	}
	argv[n] = NULL;

	/* the shortcuts know the stock commands only */
	if (!q->command && !q->regex) {
		char *real = NULL;
		int got = vfast_lookup(q->name, a->path, root, env, v, sizeof(v),
				       &method, &real);

		/* a shim's target is run (or cached) instead of the shim,
		 * but never one inside the repository */
		if (real) {
			char *canon = realpath(real, NULL);

			if (canon && !path_is_inside(canon, root))
				a->resolved = real;
			else
				free(real);
			free(canon);
		}
		if (got == 1 && version_ok(v)) {
			a->state = ANS_FOUND;
			a->version = xstrdup(v);
			a->method = method;
			spawn_env_free(env);
			return;
		}
	}
	run_path = a->resolved ? a->resolved : a->path;
	if (q->command && !cmd_allowed(q->command, a->path)) {
		refuse_command(a, q);
		spawn_env_free(env);
		return;
	}
	/* repository config that would make the binary (or the shim's
	 * target) run code the repository ships: never run it then */
	if (vguard_check(q->name, a->path, root, env, &guard) ||
	    (a->resolved && vguard_check(q->name, a->resolved, root, env, &guard))) {
		if (guard.version[0] && version_ok(guard.version) && !q->command &&
		    !q->regex) {
			a->state = ANS_FOUND;
			a->version = xstrdup(guard.version);
			a->method = VMETHOD_PATH;
			a->note = guard.why;
		} else {
			a->state = ANS_REFUSED;
			a->refused = STATUS_WARN;
			a->error = guard.why;
		}
		guard.why = NULL;
		vguard_release(&guard);
		spawn_env_free(env);
		return;
	}
	vguard_release(&guard);
	a->command = command_text(run_path, (char *const *)argv);
	if (!q->command && !q->regex &&
	    vcache_get(q->name, run_path, v, sizeof(v)) == 1 && version_ok(v)) {
		a->state = ANS_FOUND;
		a->version = xstrdup(v);
		a->method = VMETHOD_CACHE;
		spawn_env_free(env);
		return;
	}
	if (spawn_run(run_path, (char *const *)argv, root, env, exec_deadline(ctx),
		      &res) < 0) {
		answer_error(a, "could not run '%s': %s", a->command, strerror(res.err));
	} else if (res.status == SPAWN_TIMED_OUT) {
		answer_error(a, "'%s' did not answer before the deadline and was killed",
			     a->command);
		a->timed_out = 1;
	} else if (res.status == SPAWN_SIGNALED) {
		answer_error(a, "'%s' was killed by signal %d", a->command, res.code);
	} else {
		read_output(a, &res, rx);
		if (a->state == ANS_FOUND && !q->command && !q->regex)
			vcache_put(q->name, run_path, a->version);
	}
	spawn_result_release(&res);
	spawn_env_free(env);
}

static void ask_docker(const struct run_ctx *ctx, struct answer *a)
{
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
		char *cli = spawn_which("docker", getenv("PATH"), ctx->spec->root);

		if (cli) {
			a->docker_cli = text_clean(cli);
			free(cli);
		}
	}
}

/* run_once's maker: arg is the runtime name. */
static void *ask_version(const struct run_ctx *ctx, const void *arg)
{
	struct answer *a = xcalloc(1, sizeof(*a));
	struct ask q;

	ask_init(&q, ctx->spec, arg);
	if (!q.command && q.k && q.k->socket) {
		ask_docker(ctx, a);
		return a;
	}
	find_binary(a, &q, ctx->spec->root);
	if (a->path)
		ask_exec(ctx, a, &q);
	return a;
}

/* ---- judging the version found ---- */

/* "1.22", "21", "1.8.0_392" as a semver: the numbers, missing ones 0. */
static int found_semver(const char *found, struct semver *v)
{
	unsigned long p[3] = { 0, 0, 0 };
	const char *s = found;
	char text[80];
	int i;

	if (semver_parse(found, 0, v) == 0)
		return 0;
	for (i = 0; i < 3; i++) {
		char *end;

		if (*s < '0' || *s > '9')
			break;
		errno = 0;
		p[i] = strtoul(s, &end, 10);
		if (errno)
			return -1;
		s = end;
		if (*s != '.')
			break;
		s++;
	}
	if (s == found)
		return -1;
	snprintf(text, sizeof(text), "%lu.%lu.%lu", p[0], p[1], p[2]);
	return semver_parse(text, 0, v);
}

/* asdf installs exactly the version named; mise also takes a prefix
 * ("20" is the newest 20.x).  The dotted numbers of want (after a flavour
 * such as "temurin-") must equal the first numbers of found, at component
 * boundaries; a pre-release want ("3.13.0rc1") must be found as such,
 * and a final want is not met by a pre-release.  1, 0, or -1 when want
 * holds no number. */
static int asdf_matches(const char *want, const char *found)
{
	size_t wn, fn, i = 0, j = 0;
	const char *w = asdf_core(want, &wn), *f = asdf_core(found, &fn);
	const char *wrest, *frest;

	if (!wn)
		return -1;
	if (!fn)
		return 0;
	for (;;) {
		size_t a = strspn(w + i, "0123456789"), b = strspn(f + j, "0123456789");

		if (j >= fn || !b || versions_numcmp(w + i, a, f + j, b))
			return 0;
		i += a;
		j += b;
		if (i >= wn)
			break;
		if (j >= fn || f[j] != '.')	/* want has more numbers */
			return 0;
		i++;
		j++;
	}
	wrest = w + wn;
	frest = f + j;
	if (*wrest && *wrest != '+')	/* a pre-release: the same one */
		return j == fn && strcspn(frest, "+") == strcspn(wrest, "+") &&
		       !strncmp(frest, wrest, strcspn(wrest, "+"));
	if (j < fn)
		return 1;		/* a prefix: "20" and 20.11.1 */
	return !*frest || *frest == '+';
}

struct verdict {
	enum status status;
	struct buf msg;
};

static void shown(struct buf *b, const struct known *k, const char *version)
{
	buf_printf(b, "%s%s", k && k->prefix ? k->prefix : "", version);
}

static const char *from(const struct runtime_req *r)
{
	return r->origin.file ? r->origin.file : "preflight.yaml";
}

/* found met, or not, the requirement p: status and message. */
static void judge(const struct prepared *p, const struct known *k, const char *found,
		  struct verdict *v)
{
	const struct runtime_req *r = p->r;
	char desc[160], err[256];
	struct semver sv = SEMVER_INIT;
	int m = -1;

	v->status = STATUS_FAIL;
	shown(&v->msg, k, found);
	switch (r->kind) {
	case REQ_SEMVER:
		if (found_semver(found, &sv) < 0)
			break;
		m = semver_satisfies(&sv, p->range, SEMVER_INCLUDE_PRERELEASE);
		semver_release(&sv);
		buf_printf(&v->msg, m ? " (satisfies %s from %s)" :
			   " does not satisfy %s from %s", p->want, from(r));
		break;
	case REQ_NVMRC:
		nvmrc_describe(&p->nvmrc, desc, sizeof(desc));
		m = nvmrc_matches(&p->nvmrc, found);
		if (m < 0 && p->nvmrc.kind == NVMRC_ALIAS) {
			v->status = STATUS_WARN;
			buf_printf(&v->msg, " (not checked: '%s' in %s is an nvm alias "
				   "that only nvm can resolve)", p->want, from(r));
			return;
		}
		if (m == 0 && p->nvmrc.kind == NVMRC_LTS_ANY)
			buf_printf(&v->msg, " does not match lts/* from %s: lts/* is "
				   "v%lu.x (%s), the newest LTS line", from(r),
				   p->nvmrc.major, p->nvmrc.codename);
		else
			buf_printf(&v->msg, m ? " (matches %s from %s)" :
				   " does not match %s from %s", desc, from(r));
		break;
	case REQ_PEP440:
		m = pep440_check(r->spec, found, err, sizeof(err));
		buf_printf(&v->msg, m ? " (satisfies %s from %s)" :
			   " does not satisfy %s from %s", p->want, from(r));
		break;
	case REQ_PYENV:
		m = pyenv_matches(&p->pyenv.v[0], found);
		if (m < 0 && p->pyenv.v[0].kind != PYENV_CPYTHON &&
		    p->pyenv.v[0].kind != PYENV_SYSTEM) {
			v->status = STATUS_WARN;
			buf_printf(&v->msg, " (not checked: '%s' in %s is not a "
				   "CPython version envpreflight can compare)",
				   p->want, from(r));
			return;
		}
		buf_printf(&v->msg, m ? " (matches %s from %s)" :
			   " does not match %s from %s", p->want, from(r));
		break;
	case REQ_EXACT:
		if (found_semver(found, &sv) < 0)
			break;
		m = semver_compare(&sv, &p->exact) == 0;
		semver_release(&sv);
		semver_format(&p->exact, desc, sizeof(desc));
		if (m)
			buf_printf(&v->msg, " (exactly %s from %s %s)", desc, from(r),
				   is_package_manager(r) ? "packageManager" : "volta");
		else
			buf_printf(&v->msg, ", but %s %s pins exactly %s", from(r),
				   is_package_manager(r) ? "packageManager" : "volta", desc);
		break;
	case REQ_GO_MIN:
		m = goversion_at_least(found, r->spec);
		if (m == 0 && is_toolchain(r)) {
			v->status = STATUS_WARN;
			buf_printf(&v->msg, " is older than the toolchain %s preferred "
				   "by go.mod (its go line allows it)", p->want);
			return;
		}
		buf_printf(&v->msg, m ? " (at least %s from %s)" :
			   " is older than %s required by %s", p->want, from(r));
		break;
	case REQ_ASDF:
		m = asdf_matches(r->spec, found);
		if (m < 0) {
			v->status = STATUS_WARN;
			buf_printf(&v->msg, " (not checked: '%s' in %s is not a version "
				   "envpreflight can compare)", p->want, from(r));
			return;
		}
		buf_printf(&v->msg, m ? " (matches %s from %s)" :
			   " does not match %s from %s", p->want, from(r));
		break;
	case REQ_ANY:
		m = 1;
		if (!*r->spec)
			buf_printf(&v->msg, " (any version, from %s)", from(r));
		else if (!strcmp(r->spec, "system"))
			buf_printf(&v->msg, " (system from %s: any version on PATH)",
				   from(r));
		else
			buf_printf(&v->msg, " ('%s' from %s names no version to "
				   "compare: presence only)", p->want, from(r));
		break;
	}
	if (m < 0) {
		buf_release(&v->msg);
		v->status = STATUS_ERROR;
		buf_printf(&v->msg, "found version '%s' cannot be compared with %s "
			   "from %s", found, p->want, from(r));
		return;
	}
	v->status = m ? STATUS_PASS : STATUS_FAIL;
}

/* ---- hints ---- */

enum {
	MGR_VOLTA = 1 << 0, MGR_NVM = 1 << 1, MGR_ASDF = 1 << 2,
	MGR_MISE = 1 << 3, MGR_PYENV = 1 << 4,
};

/* A version manager is in use when its variable is set or its home
 * directory exists; it is the one that installed a binary whose path
 * goes through its directory. */
static const struct manager {
	unsigned bit;
	const char *name;
	const char *env[2];
	const char *home;	/* below $HOME */
	const char *in_path;
} managers[] = {
	{ MGR_VOLTA, "volta", { "VOLTA_HOME", NULL }, ".volta", "/.volta/" },
	{ MGR_NVM, "nvm", { "NVM_DIR", NULL }, ".nvm", "/.nvm/" },
	{ MGR_ASDF, "asdf", { "ASDF_DIR", "ASDF_DATA_DIR" }, ".asdf", "/.asdf/" },
	{ MGR_MISE, "mise", { "MISE_DATA_DIR", "MISE_SHELL" }, ".local/share/mise",
	  "/mise/" },
	{ MGR_PYENV, "pyenv", { "PYENV_ROOT", NULL }, ".pyenv", "/.pyenv/" },
};

static int manager_present(const struct manager *m)
{
	const char *home = getenv("HOME");
	struct stat st;
	char *dir;
	int yes;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(m->env); i++) {
		const char *v = m->env[i] ? getenv(m->env[i]) : NULL;

		if (v && *v)
			return 1;
	}
	if (!home || home[0] != '/')
		return 0;
	dir = path_join(home, m->home);
	yes = stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
	free(dir);
	return yes;
}

/* Which manager should install r's runtime (one bit of wanted), or NULL:
 * the one the binary found came from, then the one that reads r's file,
 * then the first in use. */
static const struct manager *manager_pick(const struct runtime_req *r, unsigned wanted,
					  const char *path)
{
	unsigned prefer = 0;
	size_t i;

	for (i = 0; path && i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted) && strstr(path, managers[i].in_path))
			return &managers[i];
	if (is_file(r, ".nvmrc"))
		prefer = MGR_NVM;
	else if (is_file(r, ".python-version"))
		prefer = MGR_PYENV;
	else if (is_file(r, ".tool-versions"))
		prefer = MGR_ASDF | MGR_MISE;
	else if (r->kind == REQ_EXACT && !is_package_manager(r))
		prefer = MGR_VOLTA;
	for (i = 0; i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted & prefer) && manager_present(&managers[i]))
			return &managers[i];
	for (i = 0; i < ARRAY_SIZE(managers); i++)
		if ((managers[i].bit & wanted) && manager_present(&managers[i]))
			return &managers[i];
	return NULL;
}

static unsigned managers_for(const char *name)
{
	if (!strcmp(name, "node"))
		return MGR_VOLTA | MGR_NVM | MGR_ASDF | MGR_MISE;
	if (!strcmp(name, "python"))
		return MGR_PYENV | MGR_ASDF | MGR_MISE;
	if (!strcmp(name, "npm") || !strcmp(name, "pnpm") || !strcmp(name, "yarn"))
		return MGR_VOLTA;
	return MGR_ASDF | MGR_MISE;
}

static const char *asdf_plugin(const char *name)
{
	return !strcmp(name, "node") ? "nodejs" : !strcmp(name, "go") ? "golang" : name;
}

/* Generic advice, by runtime, with v a validated version or "". */
static void hint_generic(struct result *res, const char *name, const char *v,
			 const char *display)
{
	const char *sp = *v ? " " : "";

	if (!strcmp(name, "node"))
		result_hint(res, "install Node.js%s%s (https://nodejs.org/ or your "
			    "package manager)", sp, v);
	else if (!strcmp(name, "python"))
		result_hint(res, "install Python%s%s (https://www.python.org/downloads/ "
			    "or your package manager)", sp, v);
	else if (!strcmp(name, "go"))
		result_hint(res, "install Go%s%s%s (https://go.dev/dl/)", sp, v,
			    *v ? " or later" : "");
	else if (!strcmp(name, "npm"))
		result_hint(res, "npm install -g npm%s%s", *v ? "@" : "", v);
	else if (!strcmp(name, "pnpm") || !strcmp(name, "yarn"))
		result_hint(res, "corepack enable, or npm install -g %s%s%s", name,
			    *v ? "@" : "", v);
	else if (hint_safe(name))
		result_hint(res, "install %s%s%s, or add the directory that holds it "
			    "to PATH", display, sp, v);
}

/* How to get a version that satisfies p, fit for the version manager in
 * use.  path: the binary found (or NULL when missing). */
static void hint_install(struct result *res, const struct prepared *p,
			 const struct known *k, const char *path)
{
	const struct runtime_req *r = p->r;
	const struct manager *m;
	const char *name = r->name, *num = p->num;
	const char *sep = *num ? "@" : "";

	if (p->bad || !hint_safe(name))
		return;
	if (is_package_manager(r)) {
		result_hint(res, "corepack enable: corepack then runs %s %s, as "
			    "packageManager asks", p->pm.name, num);
		return;
	}
	m = manager_pick(r, managers_for(name), path);
	if (!m) {
		hint_generic(res, name, num, k ? k->display : name);
		return;
	}
	cJSON_ReplaceItemInObjectCaseSensitive(res->data, "version_manager",
					       cJSON_CreateString(m->name));
	switch (m->bit) {
	case MGR_NVM:
		if (is_file(r, ".nvmrc"))
			result_hint(res, "nvm install (it reads .nvmrc)");
		else if (*p->nvm || *num)
			result_hint(res, "nvm install %s", *p->nvm ? p->nvm : num);
		else
			result_hint(res, "nvm ls-remote, then nvm install a version "
				    "the requirement admits");
		break;
	case MGR_VOLTA:
		result_hint(res, "volta install %s%s%s", name, sep, num);
		break;
	case MGR_ASDF:
		if (is_file(r, ".tool-versions"))
			result_hint(res, "asdf install (it reads .tool-versions)");
		else
			result_hint(res, "asdf install %s latest%s%s", asdf_plugin(name),
				    *num ? ":" : "", num);
		break;
	case MGR_MISE:
		if (is_file(r, ".tool-versions"))
			result_hint(res, "mise install (it reads .tool-versions)");
		else
			result_hint(res, "mise use %s%s%s", name, sep, num);
		break;
	case MGR_PYENV:
		if (is_file(r, ".python-version"))
			result_hint(res, "pyenv install (it reads .python-version)");
		else if (*num)
			result_hint(res, "pyenv install %s", num);
		else
			result_hint(res, "pyenv install --list, then pyenv install a "
				    "version the requirement admits");
		break;
	}
}

/* ---- results ---- */

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
static void report_docker(struct result *res, const struct answer *a)
{
	const struct docker_info *d = &a->docker;
	const char *sock = d->socket_path ? d->socket_path : "the docker socket";

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

static void report_missing(struct result *res, const struct prepared *p,
			   const struct answer *a)
{
	const char *comma = strstr(a->tried, ", ");
	struct buf m = BUF_INIT;

	/* "python3, python": the table tries two names */
	if (comma && !strstr(comma + 2, ", "))
		buf_printf(&m, "neither %.*s nor %s found on PATH",
			   (int)(comma - a->tried), a->tried, comma + 2);
	else
		buf_printf(&m, "%s not found on PATH", a->tried);
	if (*p->r->spec)
		buf_printf(&m, " (needs %s from %s)", p->want, from(p->r));
	else
		buf_printf(&m, " (required by %s)", from(p->r));
	if (a->skipped)
		buf_printf(&m, "; %s", a->skipped);
	result_set(res, STATUS_FAIL, "%s", buf_str(&m));
	buf_release(&m);
}

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
	const char *tag, *label;

	source_tag(r, &tag, &label);
	cJSON_AddStringToObject(d, "runtime", r->name);
	cJSON_AddStringToObject(d, "required", r->spec);
	cJSON_AddStringToObject(d, "kind", kind_name(r->kind));
	cJSON_AddStringToObject(d, "source", from(r));
	cJSON_AddStringToObject(d, "source_key", tag);
	return d;
}

static void data_answer(cJSON *d, const struct answer *a)
{
	add_str(d, "found", a && a->state == ANS_FOUND ? a->version : NULL);
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
	/* hint_install names the manager it picked */
	cJSON_AddNullToObject(d, "version_manager");
}

static void explain(struct result *res, const struct answer *a)
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

/* What an nvm alias was taken to mean, for --explain. */
static void nvmrc_notes(struct result *res, const struct prepared *p)
{
	const struct nvmrc *n = &p->nvmrc;

	if (!p->have_nvmrc)
		return;
	if (n->kind == NVMRC_NODE)
		result_note(res, "'%s' is the newest Node.js release to nvm; with no "
			    "release list offline, any version is accepted",
			    n->spec);
	else if (n->kind == NVMRC_LTS_ANY)
		result_note(res, "lts/* is the newest LTS line of the built-in "
			    "table: lts/%s (v%lu.x); a later LTS line needs a newer "
			    "envpreflight", n->codename, n->major);
}

static void runtimes_run(const struct run_ctx *ctx, const struct check *c,
			 struct result *res)
{
	const struct runtime_req *r = c->arg;
	const struct known *k = known_find(r->name);
	const struct answer *a;
	struct verdict v = { STATUS_PASS, BUF_INIT };
	struct prepared p;
	struct ask q;
	struct buf key = BUF_INIT;

	prepare(&p, r);
	res->data = data_new(r);
	if (p.bad) {
		data_answer(res->data, NULL);
		result_set(res, STATUS_FAIL, "%s", buf_str(&p.problem));
		result_hint(res, "fix the requirement where it is written");
		prepared_release(&p);
		return;
	}
	ask_init(&q, ctx->spec, r->name);
	if (!q.k && !q.command && is_file(r, ".tool-versions")) {
		data_answer(res->data, NULL);
		result_set(res, STATUS_SKIP, "not checked: envpreflight does not know "
			   "how to ask '%s' for its version", r->name);
		result_hint(res, "to check it, declare it under runtimes: in "
			    "preflight.yaml with a command and a version_regex");
		prepared_release(&p);
		return;
	}
	buf_printf(&key, "runtime:%s", r->name);
	a = run_once(ctx, buf_str(&key), ask_version, r->name, answer_free);
	buf_release(&key);
	data_answer(res->data, a);
	switch (a->state) {
	case ANS_MISSING:
		report_missing(res, &p, a);
		hint_install(res, &p, k, NULL);
		break;
	case ANS_ERROR:
		result_set(res, STATUS_ERROR, "%s", a->error);
		if (a->timed_out)
			result_hint(res, "if it is only slow, raise the deadline with "
				    "--timeout=MS");
		else if (a->no_version && hint_safe(r->name))
			result_hint(res, "if it prints its version some other way, give "
				    "runtimes.%s a command and a version_regex in "
				    "preflight.yaml", r->name);
		if (a->skipped)
			result_note(res, "%s", a->skipped);
		break;
	case ANS_REFUSED:
		result_set(res, a->refused, "%s%s", a->refused == STATUS_WARN ?
			   "not checked: " : "", a->error);
		if (a->refused == STATUS_WARN)
			result_hint(res, "envpreflight never runs code a repository "
				    "ships; check this one by hand if you trust the "
				    "repository");
		else if (hint_safe(r->name))
			result_hint(res, "give runtimes.%s a command such as [%s, "
				    "--version] and a version_regex", r->name, r->name);
		if (a->skipped)
			result_note(res, "%s", a->skipped);
		break;
	case ANS_DOCKER:
		report_docker(res, a);
		break;
	case ANS_FOUND:
		judge(&p, k, a->version, &v);
		/* a binary PATH offered first (.venv/bin/python3 inside the
		 * repository) was passed over: say which one answered */
		if (a->skipped && a->path)
			buf_printf(&v.msg, "; checked %s instead: %s", a->path,
				   a->skipped);
		result_set(res, v.status, "%s", buf_str(&v.msg));
		if (v.status == STATUS_FAIL || (v.status == STATUS_WARN &&
						r->kind == REQ_GO_MIN))
			hint_install(res, &p, k, a->path);
		explain(res, a);
		nvmrc_notes(res, &p);
		buf_release(&v.msg);
		break;
	}
	prepared_release(&p);
}

/* ---- the plan: one check per requirement ---- */

static int id_taken(const struct plan *plan, const char *id)
{
	size_t i;

	for (i = 0; i < plan->n; i++)
		if (!strcmp(plan->checks[i].id, id))
			return 1;
	return 0;
}

/* Ids: runtime.NAME for the first requirement of a runtime in source
 * order (preflight.yaml, package.json, the version files), then
 * runtime.NAME.TAG for each further one (engines, packageManager, volta,
 * nvmrc, node-version, python-version, pyproject, setup-cfg,
 * tool-versions, go-mod, toolchain), with ".2", ".3" added should one
 * repeat. */
static void runtimes_plan(const struct spec *spec, struct plan *plan)
{
	struct buf id = BUF_INIT, title = BUF_INIT;
	size_t i, j, base;
	unsigned n;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];
		const struct known *k = known_find(r->name);
		const char *tag, *label;
		int first = 1;

		for (j = 0; j < i && first; j++)
			first = strcmp(spec->runtimes[j].name, r->name) != 0;
		source_tag(r, &tag, &label);
		buf_printf(&id, "runtime.%s", r->name);
		if (!first)
			buf_printf(&id, ".%s", tag);
		base = id.len;
		for (n = 2; id_taken(plan, buf_str(&id)); n++) {
			id.len = base;
			buf_printf(&id, ".%u", n);
		}
		if (first && k)
			buf_puts(&title, k->title);
		else if (first)
			buf_printf(&title, "%s runtime", r->name);
		else
			buf_printf(&title, "%s (%s)", k ? k->display : r->name, label);
		plan_add(plan, &probe_runtimes, buf_str(&id), buf_str(&title),
			 r->origin, r, i);
		buf_release(&id);
		buf_release(&title);
	}
}

const struct probe probe_runtimes = {
	.name = "runtimes",
	.summary = "node, python, go, docker, ... versions against every declared "
		   "requirement",
	.plan = runtimes_plan,
	.run = runtimes_run,
};
