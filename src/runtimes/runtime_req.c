/* runtime_req.c - a runtime requirement: where it came from, and what
 * its text means, read per req_kind before anything is asked of the
 * machine (an invalid range fails the check without running anything).
 *
 * Reading also finds a validated version to name in hints (p->num,
 * p->nvm): a version that parsed, a codename from the built-in table,
 * never text as the repository wrote it.
 */
#include "runtimes.h"
#include "gomod.h"
#include "nodelts.h"
#include "elixirreq.h"
#include "gemreq.h"
#include "poetrycon.h"
#include "toolversions.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- where a requirement came from ---- */

const char *runtime_req_from(const struct runtime_req *r)
{
	return r->origin.file ? r->origin.file : "preflight.yaml";
}

static void where(struct buf *b, const struct runtime_req *r)
{
	buf_puts(b, runtime_req_from(r));
	if (r->origin.line)
		buf_printf(b, ":%u", r->origin.line);
}

/* The requirement itself is at fault: p->problem gets fmt, then
 * " in FILE:LINE"; the caller may add more. */
static void prep_fail(struct runtime_prep *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void prep_fail(struct runtime_prep *p, const char *fmt, ...)
{
	va_list ap;

	p->bad = 1;
	va_start(ap, fmt);
	buf_vprintf(&p->problem, fmt, ap);
	va_end(ap);
	buf_puts(&p->problem, " in ");
	where(&p->problem, p->r);
}

/* ---- versions to name in hints ---- */

/* 1 when range admits the first release of major m, or its last. */
static int major_admitted(const struct semver_range *range, unsigned long m)
{
	int k;

	for (k = 0; k < 2; k++) {
		char v[64];
		struct semver sv = SEMVER_INIT;
		int ok;

		if (k)
			snprintf(v, sizeof(v), "%lu.99999.99999", m);
		else
			snprintf(v, sizeof(v), "%lu.0.0", m);
		if (semver_parse(v, 0, &sv) < 0)
			continue;
		ok = semver_satisfies(&sv, range, SEMVER_INCLUDE_PRERELEASE);
		semver_release(&sv);
		if (ok)
			return 1;
	}
	return 0;
}

/* The newest major of node (LTS lines first) or of any tool that r
 * admits, as a hint; "" when no major is admitted whole or in part, or
 * when the range has no upper bound and we do not know the tool's newest
 * major (a bare "npm install -g npm" then gets the latest). */
static void suggest_major(struct runtime_prep *p, int node)
{
	struct semver far = SEMVER_INIT;
	long today = nodelts_today();
	unsigned long m;
	int pass, open_ended;

	if (semver_parse("99999.0.0", 0, &far) < 0)
		return;
	open_ended = semver_satisfies(&far, p->range, SEMVER_INCLUDE_PRERELEASE);
	semver_release(&far);
	if (open_ended && !node)
		return;
	for (pass = node ? 0 : 1; pass < 2; pass++) {
		for (m = 40; m-- > 0;) {
			const struct nodelts_line *l = nodelts_by_major(m);

			if ((pass || (l && l->lts <= today)) &&
			    major_admitted(p->range, m)) {
				snprintf(p->num, sizeof(p->num), "%lu", m);
				return;
			}
		}
	}
}

/* The newest 3.x minor a PEP 440 specifier admits, as "3.12". */
static void suggest_python(struct runtime_prep *p,
			   int (*check)(const char *, const char *, char *, size_t))
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
			if (check(p->r->spec, v, err, sizeof(err)) == 1) {
				snprintf(p->num, sizeof(p->num), "3.%d", m);
				return;
			}
		}
	}
}

/* ---- a range no version satisfies ---- */

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

/* Tighten lo or hi by one comparator of validRange's canonical text
 * ("<18.0.0-0", ">=20.0.0-0", "1.2.3"), s[0..len): 0, or -1 when it is
 * not understood. */
static int comparator_add(struct bound *lo, struct bound *hi, const char *s,
			  size_t len)
{
	struct semver v = SEMVER_INIT;
	size_t op = 0;

	while (op < len && op < 2 && strchr("<>=", s[op]))
		op++;
	if (semver_parse_mem(s + op, len - op, 0, &v) < 0)
		return -1;
	if (s[0] == '>') {
		bound_tighten(lo, &v, op == 1, 1);
	} else if (s[0] == '<') {
		bound_tighten(hi, &v, op == 1, -1);
	} else {
		/* an exact version is a bound on both sides */
		struct semver w = SEMVER_INIT;
		char text[SEMVER_TEXT_MAX];

		semver_format(&v, text, sizeof(text));
		if (semver_parse(text, 0, &w) < 0) {
			semver_release(&v);
			return -1;
		}
		bound_tighten(lo, &v, 0, 1);
		bound_tighten(hi, &w, 0, -1);
	}
	return 0;
}

/* 1 when no version lies within both bounds. */
static int bounds_empty(const struct bound *lo, const struct bound *hi)
{
	char text[SEMVER_TEXT_MAX];

	if (lo->set && hi->set) {
		int c = semver_compare(&lo->v, &hi->v);

		if (c > 0 || (c == 0 && (lo->strict || hi->strict)))
			return 1;
	}
	/* nothing sorts below 0.0.0-0, the least version there is */
	return hi->set && hi->strict &&
	       !strcmp(semver_format(&hi->v, text, sizeof(text)), "0.0.0-0");
}

/* 1 when no version satisfies the comparators of one set, [s, s+n) of
 * validRange's canonical text (">=20.0.0-0 <18.0.0-0"): its lower bound
 * is above its upper bound, or meets it with a strict side.  0 when some
 * version may, or the text is not understood. */
static int set_empty(const char *s, size_t n)
{
	struct bound lo = { SEMVER_INIT, 0, 0 }, hi = { SEMVER_INIT, 0, 0 };
	size_t i = 0;
	int ok = 1, empty;

	while (ok && i < n) {
		size_t len = strcspn(s + i, " |");

		if (len > n - i)
			len = n - i;
		if (!len) {
			i++;
			continue;
		}
		ok = comparator_add(&lo, &hi, s + i, len) == 0;
		i += len;
	}
	empty = ok && bounds_empty(&lo, &hi);
	if (lo.set)
		semver_release(&lo.v);
	if (hi.set)
		semver_release(&hi.v);
	return empty;
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

/* The comparator sets of r's canonical text, split on "||": how many
 * (at most max), as spans of text (which the caller frees). */
static size_t range_sets(const struct semver_range *r, char **text,
			 const char **sets, size_t *lens, size_t max)
{
	const char *s;
	size_t n = 0;

	*text = semver_range_format(r);
	if (!*text)
		return 0;
	for (s = *text; n < max;) {
		const char *bar = strstr(s, "||");

		sets[n] = s;
		lens[n++] = bar ? (size_t)(bar - s) : strlen(s);
		if (!bar)
			break;
		s = bar + 2;
	}
	return n;
}

#define SETS_MAX 32

int runtime_ranges_disjoint(const struct semver_range *a,
			    const struct semver_range *b)
{
	const char *sa[SETS_MAX], *sb[SETS_MAX];
	size_t la[SETS_MAX], lb[SETS_MAX], na, nb, i, j;
	char *ta, *tb;
	int disjoint = 1;

	na = range_sets(a, &ta, sa, la, SETS_MAX);
	nb = range_sets(b, &tb, sb, lb, SETS_MAX);
	/* a set left out by the cap, or a text we could not make: maybe */
	if (!na || !nb || (ta && strstr(sa[na - 1] + la[na - 1], "||")) ||
	    (tb && strstr(sb[nb - 1] + lb[nb - 1], "||")))
		disjoint = 0;
	/* A and B meet when some set of A meets some set of B: the two
	 * sets' comparators together are one set, judged as set_empty
	 * judges one (what it cannot judge counts as meeting) */
	for (i = 0; disjoint && i < na; i++) {
		for (j = 0; disjoint && j < nb; j++) {
			struct buf both = BUF_INIT;

			buf_add(&both, sa[i], la[i]);
			buf_putc(&both, ' ');
			buf_add(&both, sb[j], lb[j]);
			if (!set_empty(both.s, both.len))
				disjoint = 0;
			buf_release(&both);
		}
	}
	free(ta);
	free(tb);
	return disjoint;
}

/* ---- reading, per req_kind ---- */

static void prepare_semver(struct runtime_prep *p)
{
	p->range = semver_range_parse(p->r->spec, SEMVER_INCLUDE_PRERELEASE);
	if (!p->range) {
		prep_fail(p, "invalid range '%s'", p->want);
		return;
	}
	if (range_never_satisfied(p->range)) {
		p->never = 1;
		prep_fail(p, "the range '%s'", p->want);
		buf_puts(&p->problem, " can never be satisfied: no version is in "
			 "all of its bounds");
		return;
	}
	suggest_major(p, !strcmp(p->r->name, "node"));
}

static void prepare_nvmrc(struct runtime_prep *p)
{
	const struct nvmrc *n = &p->nvmrc;
	struct parse_error pe;
	char err[256];
	char *nvm_dir;
	int rc;

	if (nvmrc_parse(p->r->spec, strlen(p->r->spec), &p->nvmrc, &pe) < 0) {
		prep_fail(p, "%s", pe.msg);
		return;
	}
	p->have_nvmrc = 1;
	/* lts/ names a line by today's date, or by nvm's own alias files */
	nvm_dir = nodelts_nvm_dir();
	p->nvm_dir_seen = nvm_dir != NULL;
	rc = nvmrc_resolve_lts(&p->nvmrc, p->today, nvm_dir, err, sizeof(err));
	free(nvm_dir);
	if (rc < 0) {
		prep_fail(p, "%s", err);
		return;
	}
	if (n->kind == NVMRC_VERSION && n->nparts == 1)
		snprintf(p->num, sizeof(p->num), "%lu", n->major);
	else if (n->kind == NVMRC_VERSION && n->nparts == 2)
		snprintf(p->num, sizeof(p->num), "%lu.%lu", n->major, n->minor);
	else if (n->kind == NVMRC_VERSION)
		snprintf(p->num, sizeof(p->num), "%lu.%lu.%lu", n->major,
			 n->minor, n->patch);
	else if (n->kind == NVMRC_LTS && versions_token_safe(n->codename))
		snprintf(p->nvm, sizeof(p->nvm), "lts/%s", n->codename);
	else if (n->kind == NVMRC_LTS_ANY)
		snprintf(p->nvm, sizeof(p->nvm), "lts/*");
	if (n->kind == NVMRC_LTS || n->kind == NVMRC_LTS_ANY)
		snprintf(p->num, sizeof(p->num), "%lu", n->major);
}

static void prepare_pep440(struct runtime_prep *p)
{
	char err[256];

	if (pep440_check(p->r->spec, "0", err, sizeof(err)) < 0) {
		prep_fail(p, "invalid specifier '%s'", p->want);
		buf_printf(&p->problem, ": %s", err);
		return;
	}
	suggest_python(p, pep440_check);
}

static void prepare_elixir(struct runtime_prep *p)
{
	struct buf b = BUF_INIT;

	if (elixir_req_semver(p->r->spec, &b) < 0)
		prep_fail(p, "'%s' is not an Elixir requirement envpreflight can "
			  "compare (Version.parse_requirement's, without !=)", p->want);
	buf_release(&b);
}

static void prepare_gem(struct runtime_prep *p)
{
	char err[160];

	if (gem_req_check(p->r->spec, "0", err, sizeof(err)) < 0) {
		prep_fail(p, "invalid requirement '%s'", p->want);
		buf_printf(&p->problem, ": %s (bundler refuses it)", err);
		return;
	}
	/* an exact version is what to install; a range names none */
	if (!gem_req_exact(p->r->spec, p->num, sizeof(p->num)) ||
	    !versions_token_safe(p->num))
		p->num[0] = 0;
}

static void prepare_poetry(struct runtime_prep *p)
{
	char err[256];

	if (poetry_check(p->r->spec, "0", err, sizeof(err)) < 0) {
		prep_fail(p, "invalid constraint '%s'", p->want);
		buf_printf(&p->problem, ": %s (poetry refuses it)", err);
		return;
	}
	suggest_python(p, poetry_check);
}

/* read by pyenv_parse already when the file was loaded */
static void prepare_pyenv(struct runtime_prep *p)
{
	const char *spec = p->r->spec;
	if (pyenv_parse(spec, strlen(spec), &p->pyenv, NULL) < 0 || !p->pyenv.n) {
		prep_fail(p, "'%s'", p->want);
		buf_puts(&p->problem, " is not a pyenv version name");
		return;
	}
	if (p->pyenv.v[0].kind == PYENV_CPYTHON && versions_token_safe(spec))
		snprintf(p->num, sizeof(p->num), "%.40s", spec);
}

static void prepare_exact(struct runtime_prep *p)
{
	const struct runtime_req *r = p->r;
	char err[256], v[SEMVER_TEXT_MAX];
	const char *version = r->spec;

	/* packageManager keeps its value as written, starting with the
	 * name; volta's value is a bare version */
	if (r->src == SRC_PACKAGE_MANAGER) {
		if (pkgmanager_parse(r->spec, strlen(r->spec), &p->pm, err,
				     sizeof(err)) < 0) {
			prep_fail(p, "packageManager %s", err);
			return;
		}
		version = p->pm.version;
	}
	if (semver_parse(version, 0, &p->exact) < 0) {
		prep_fail(p, "invalid version '%s'", p->want);
		buf_puts(&p->problem, " (an exact X.Y.Z is expected)");
		return;
	}
	p->have_exact = 1;
	semver_format(&p->exact, v, sizeof(v));
	if (versions_token_safe(v))
		snprintf(p->num, sizeof(p->num), "%.40s", v);
}

static void prepare_go(struct runtime_prep *p)
{
	const struct runtime_req *r = p->r;

	if (goversion_at_least(r->spec, r->spec) < 0) {
		prep_fail(p, "invalid Go version '%s'", p->want);
		return;
	}
	if (versions_token_safe(r->spec))
		snprintf(p->num, sizeof(p->num), "%.40s",
			 r->spec + (r->src == SRC_GO_TOOLCHAIN ? 2 : 0));
}

/* npm's checkDevEngines: a valid range is matched without prereleases,
 * anything else as exact text (not an error); "" is any version. */
static void prepare_dev(struct runtime_prep *p)
{
	if (!*p->r->spec)
		return;
	p->range = semver_range_parse(p->r->spec, 0);
	if (p->range && !range_never_satisfied(p->range))
		suggest_major(p, !strcmp(p->r->name, "node"));
}

static void prepare_asdf(struct runtime_prep *p)
{
	size_t n;
	const char *core = toolversions_core(p->r->spec, &n);

	if (n && n < sizeof(p->num))
		snprintf(p->num, sizeof(p->num), "%.*s", (int)n, core);
}

void runtime_prep_init(struct runtime_prep *p, const struct runtime_req *r)
{
	memset(p, 0, sizeof(*p));
	p->r = r;
	p->today = nodelts_today();
	versions_quote(p->want, sizeof(p->want), r->spec, strlen(r->spec));
	if (r->problem) {
		/* the loader found the file's own tool would reject it */
		prep_fail(p, "%s", r->problem);
		return;
	}
	switch (r->kind) {
	case REQ_SEMVER:
		prepare_semver(p);
		break;
	case REQ_NVMRC:
		prepare_nvmrc(p);
		break;
	case REQ_PEP440:
		prepare_pep440(p);
		break;
	case REQ_POETRY:
		prepare_poetry(p);
		break;
	case REQ_ELIXIR:
		prepare_elixir(p);
		break;
	case REQ_GEM:
		prepare_gem(p);
		break;
	case REQ_PYENV:
		prepare_pyenv(p);
		break;
	case REQ_EXACT:
		prepare_exact(p);
		break;
	case REQ_GO_MIN:
		prepare_go(p);
		break;
	case REQ_ASDF:
		prepare_asdf(p);
		break;
	case REQ_DEV_ENGINES:
		prepare_dev(p);
		break;
	case REQ_ANY:
	case REQ_PLATFORM:
		break;
	}
}

void runtime_prep_release(struct runtime_prep *p)
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
