/* runtime_eval.c - a version found, judged against a requirement with
 * the semantics of its req_kind: npm semver (includePrerelease), nvm's
 * .nvmrc, PEP 440, pyenv's prefix rule, an exact pin, Go's minimum, and
 * asdf's or mise's version names.
 *
 * A kind that cannot tell (an nvm alias, a version that is not a number)
 * warns rather than fails; a found version that cannot be compared at all
 * is an error of the check, never a pass.
 */
#include "runtimes.h"
#include "gomod.h"
#include "elixirreq.h"
#include "gemreq.h"
#include "poetrycon.h"
#include "toolversions.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	const char *w = toolversions_core(want, &wn);
	const char *f = toolversions_core(found, &fn);
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

/* ---- per req_kind: 1 met, 0 not, -1 cannot compare; where the kind
 * can only warn, v->status is STATUS_WARN and the return does not
 * count ---- */

static void said_satisfies(struct runtime_verdict *v, int m, const char *want,
			   const struct runtime_req *r)
{
	buf_printf(&v->msg, m ? " (satisfies %s from %s)" :
		   " does not satisfy %s from %s", want, runtime_req_from(r));
}

static void said_matches(struct runtime_verdict *v, int m, const char *want,
			 const struct runtime_req *r)
{
	buf_printf(&v->msg, m ? " (matches %s from %s)" :
		   " does not match %s from %s", want, runtime_req_from(r));
}

/* This kind cannot judge the requirement: a warning that says why. */
static int cannot_tell(const struct runtime_prep *p, struct runtime_verdict *v,
		       const char *why)
{
	v->status = STATUS_WARN;
	buf_printf(&v->msg, " (not checked: '%s' in %s %s)", p->want,
		   runtime_req_from(p->r), why);
	return 0;
}

static int judge_semver(const struct runtime_prep *p, const char *found,
			struct runtime_verdict *v)
{
	struct semver sv = SEMVER_INIT;
	int m;

	if (found_semver(found, &sv) < 0)
		return -1;
	m = semver_satisfies(&sv, p->range, SEMVER_INCLUDE_PRERELEASE);
	semver_release(&sv);
	said_satisfies(v, m, p->want, p->r);
	return m;
}

static int judge_nvmrc(const struct runtime_prep *p, const char *found,
		       struct runtime_verdict *v)
{
	const char *from = runtime_req_from(p->r);
	char desc[160];
	int m;

	nvmrc_describe(&p->nvmrc, desc, sizeof(desc));
	m = nvmrc_matches(&p->nvmrc, found);
	if (m < 0 && p->nvmrc.kind == NVMRC_ALIAS)
		return cannot_tell(p, v, "is an nvm alias that only nvm can "
				   "resolve");
	if (m == 0 && p->nvmrc.kind == NVMRC_LTS_ANY && p->nvmrc.from_nvm)
		buf_printf(&v->msg, " does not match lts/* from %s: nvm resolves "
			   "lts/* to %s (lts/%s)", from, p->nvmrc.nvm_version,
			   p->nvmrc.codename);
	else if (m == 0 && p->nvmrc.kind == NVMRC_LTS_ANY)
		buf_printf(&v->msg, " does not match lts/* from %s: lts/* is "
			   "v%lu.x (%s), the newest LTS line", from,
			   p->nvmrc.major, p->nvmrc.codename);
	else
		said_matches(v, m, desc, p->r);
	return m;
}

static int judge_pep440(const struct runtime_prep *p, const char *found,
			struct runtime_verdict *v)
{
	char err[256];
	int m = pep440_check(p->r->spec, found, err, sizeof(err));

	said_satisfies(v, m, p->want, p->r);
	return m;
}

/* poetry refuses an interpreter its python constraint does not allow
 * (poetry-core's rules: poetrycon.h) */
static int judge_poetry(const struct runtime_prep *p, const char *found,
			struct runtime_verdict *v)
{
	char err[256];
	int m = poetry_check(p->r->spec, found, err, sizeof(err));

	said_satisfies(v, m, p->want, p->r);
	return m;
}

/* Mix stops on an Elixir its project's elixir: requirement does not
 * match (elixirreq.h) */
static int judge_elixir(const struct runtime_prep *p, const char *found,
			struct runtime_verdict *v)
{
	int m = elixir_req_check(p->r->spec, found);

	said_satisfies(v, m, p->want, p->r);
	return m;
}

/* Bundler stops on a Ruby the Gemfile's ruby directive does not allow
 * (gemreq.h: RubyGems' rules) */
static int judge_gem(const struct runtime_prep *p, const char *found,
		     struct runtime_verdict *v)
{
	char err[160];
	int m = gem_req_check(p->r->spec, found, err, sizeof(err));

	said_satisfies(v, m, p->want, p->r);
	return m;
}

static int judge_pyenv(const struct runtime_prep *p, const char *found,
		       struct runtime_verdict *v)
{
	const struct pyenv_entry *want = &p->pyenv.v[0];
	int m = pyenv_matches(want, found);

	if (m < 0 && want->kind != PYENV_CPYTHON && want->kind != PYENV_SYSTEM)
		return cannot_tell(p, v, "is not a CPython version envpreflight "
				   "can compare");
	said_matches(v, m, p->want, p->r);
	return m;
}

static int judge_exact(const struct runtime_prep *p, const char *found,
		       struct runtime_verdict *v)
{
	const struct runtime_req *r = p->r;
	const char *pin = r->src == SRC_PACKAGE_MANAGER ? "packageManager" :
			  "volta";
	struct semver sv = SEMVER_INIT;
	char desc[160];
	int m;

	if (found_semver(found, &sv) < 0)
		return -1;
	m = semver_compare(&sv, &p->exact) == 0;
	semver_release(&sv);
	semver_format(&p->exact, desc, sizeof(desc));
	if (m)
		buf_printf(&v->msg, " (exactly %s from %s %s)", desc,
			   runtime_req_from(r), pin);
	else
		buf_printf(&v->msg, ", but %s %s pins exactly %s",
			   runtime_req_from(r), pin, desc);
	return m;
}

static int judge_go(const struct runtime_prep *p, const char *found,
		    struct runtime_verdict *v)
{
	const struct runtime_req *r = p->r;
	int m = goversion_at_least(found, r->spec);

	if (m == 0 && r->src == SRC_GO_TOOLCHAIN) {
		v->status = STATUS_WARN;
		buf_printf(&v->msg, " is older than the toolchain %s preferred "
			   "by go.mod (its go line allows it)", p->want);
		return 0;
	}
	buf_printf(&v->msg, m ? " (at least %s from %s)" :
		   " is older than %s required by %s", p->want,
		   runtime_req_from(r));
	return m;
}

/* asdf-elixir's and mise's "1.20.3-otp-29" is Elixir 1.20.3 as built for
 * OTP 29 (the Hex builds' names, which asdf-elixir's bin/install fetches
 * as v1.20.3-otp-29.zip), and that elixir --version names 1.20.3: the
 * Elixir version is what is compared, the OTP one is not.  Into buf; NULL
 * when want is not such a name. */
static const char *elixir_otp_cut(const char *name, const char *want, char *buf,
				  size_t n)
{
	const char *o = strstr(want, "-otp-");

	if (strcmp(name, "elixir") || !o || !o[5] ||
	    strspn(o + 5, "0123456789") != strlen(o + 5) || (size_t)(o - want) >= n)
		return NULL;
	memcpy(buf, want, (size_t)(o - want));
	buf[o - want] = '\0';
	return buf;
}

static int judge_asdf(const struct runtime_prep *p, const char *found,
		      struct runtime_verdict *v)
{
	char cut[64];
	const char *want = elixir_otp_cut(p->r->name, p->r->spec, cut, sizeof(cut));
	int m = asdf_matches(want ? want : p->r->spec, found);

	if (m < 0)
		return cannot_tell(p, v, "is not a version envpreflight can "
				   "compare");
	said_matches(v, m, p->want, p->r);
	return m;
}

static int judge_any(const struct runtime_prep *p, const char *found,
		     struct runtime_verdict *v)
{
	const struct runtime_req *r = p->r;
	const char *from = runtime_req_from(r);

	if (!*r->spec)
		buf_printf(&v->msg, " (any version, from %s)", from);
	else if (!strcmp(r->spec, "system"))
		buf_printf(&v->msg, " (system from %s: any version on PATH)",
			   from);
	else
		buf_printf(&v->msg, " ('%s' from %s names no version to "
			   "compare: presence only)", p->want, from);
	return 1;
}

/* devEngines, as npm's checkDevEngines: satisfies() without
 * includePrerelease for a valid range, else the text compared with the
 * version as npm sees it (node's "v22.11.0"). */
static int judge_dev(const struct runtime_prep *p, const char *found,
		     struct runtime_verdict *v)
{
	const struct runtime_req *r = p->r;
	struct semver sv = SEMVER_INIT;
	char seen[96];
	int m;

	if (!*r->spec) {
		buf_printf(&v->msg, " (any version, from %s devEngines)",
			   runtime_req_from(r));
		return 1;
	}
	if (p->range) {
		if (found_semver(found, &sv) < 0)
			return -1;
		m = semver_satisfies(&sv, p->range, 0);
		semver_release(&sv);
		buf_printf(&v->msg, m ? " (satisfies %s from %s devEngines)" :
			   " does not satisfy %s from %s devEngines", p->want,
			   runtime_req_from(r));
		return m;
	}
	snprintf(seen, sizeof(seen), "%s%s", strcmp(r->name, "node") ? "" : "v", found);
	m = !strcmp(seen, r->spec);
	buf_printf(&v->msg, m ? " (exactly '%s' from %s devEngines)" :
		   " is not '%s' from %s devEngines (not a semver range, so "
		   "npm compares the text with '%s')", p->want,
		   runtime_req_from(r), seen);
	return m;
}

/* One judge per req_kind, in the order of enum req_kind. */
static int (*const judges[])(const struct runtime_prep *p, const char *found,
			     struct runtime_verdict *v) = {
	[REQ_SEMVER] = judge_semver, [REQ_NVMRC] = judge_nvmrc,
	[REQ_PEP440] = judge_pep440, [REQ_PYENV] = judge_pyenv,
	[REQ_EXACT] = judge_exact, [REQ_GO_MIN] = judge_go,
	[REQ_ASDF] = judge_asdf, [REQ_ANY] = judge_any,
	[REQ_DEV_ENGINES] = judge_dev, [REQ_POETRY] = judge_poetry,
	[REQ_ELIXIR] = judge_elixir, [REQ_GEM] = judge_gem,
};

void runtime_judge(const struct runtime_prep *p, const struct known_runtime *k,
		   const char *found, struct runtime_verdict *v)
{
	int m;

	v->status = STATUS_FAIL;
	buf_printf(&v->msg, "%s%s", k && k->prefix ? k->prefix : "", found);
	m = (unsigned)p->r->kind < ARRAY_SIZE(judges) && judges[p->r->kind] ?
	    judges[p->r->kind](p, found, v) : -1;
	if (v->status == STATUS_WARN)
		return;
	if (m < 0) {
		buf_release(&v->msg);
		v->status = STATUS_ERROR;
		buf_printf(&v->msg, "found version '%s' cannot be compared with %s "
			   "from %s", found, p->want, runtime_req_from(p->r));
		return;
	}
	v->status = m ? STATUS_PASS : STATUS_FAIL;
}
