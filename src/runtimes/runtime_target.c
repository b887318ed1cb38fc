/* runtime_target.c - the one version of a runtime that every requirement
 * of a model admits, so that every hint and fix of that runtime names it
 * (issue 16: engines ">=20 <23" and .nvmrc lts/iron are both met by
 * Node.js 20 only, and two hints that name 22 and 20 send a user from one
 * failure to the other).
 *
 * Candidates are versions the requirements themselves name (a pin, a
 * version file, the newest major a range admits, a range's lower bounds)
 * and, for node and python, the release lines envpreflight knows.  Each
 * is judged by runtime_judge, the judge of the checks themselves, so the
 * version named passes every check it is named in.  A candidate of fewer
 * than three numbers ("20", "3.12") stands for the newest release of that
 * line, which is what `nvm install 20`, `volta install node@20`, `pyenv
 * install 3.12` install: it is judged as 20.99999.99999.  The first
 * candidate, in this order, that every requirement admits is the target:
 *
 *   1. what a version file or a pin selects (.nvmrc, .node-version,
 *      .python-version, .tool-versions, volta, packageManager, a
 *      devEngines version), so that `nvm install` reading .nvmrc and
 *      "install Node.js 20" name the same release;
 *   2. node's LTS lines, newest first; python's 3.x minors, newest first;
 *   3. the newest major each range admits; "the newest release" (no
 *      version named: npm install -g npm) when every requirement admits
 *      it; each range's lower bounds;
 *   4. node's other majors, newest first.
 *
 * A requirement no candidate admits (a version envpreflight cannot name,
 * "1.16.2-otp-26") is left out.  No candidate admitted by all the others:
 * a conflict, named by the first two requirements that no candidate
 * admits together, or, when every two meet, not known.
 */
#include "runtimes.h"
#include "nodelts.h"
#include "spec_workspaces.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CANDS_MAX 512
#define TOP 99999UL		/* the newest release of a line, as judged */

struct cand {
	unsigned long v[3];
	unsigned n;		/* numbers given: 1 to 3; 0: the newest release */
	size_t from;		/* the requirement that named it, or (size_t)-1 */
};

struct cands {
	struct cand c[CANDS_MAX];
	size_t n;
};

static void cand_add(struct cands *cs, const unsigned long *v, unsigned n,
		     size_t from)
{
	struct cand *c;

	if (cs->n == CANDS_MAX)
		return;
	c = &cs->c[cs->n++];
	memset(c, 0, sizeof(*c));
	if (n)
		memcpy(c->v, v, n * sizeof(*v));
	c->n = n;
	c->from = from;
}

/* A candidate from text of one to three dotted numbers ("20", "v20.11",
 * "9.1.0"), nothing else: 0, or -1 when it is not one. */
static int cand_parse(const char *s, unsigned long *v, unsigned *n)
{
	*n = 0;
	if (*s == 'v')
		s++;
	while (*n < 3) {
		char *end;

		if (*s < '0' || *s > '9')
			return -1;
		errno = 0;
		v[*n] = strtoul(s, &end, 10);
		if (errno || v[*n] >= TOP)
			return -1;
		(*n)++;
		s = end;
		if (!*s)
			return 0;
		if (*s++ != '.')
			return -1;
	}
	return -1;
}

static void cand_add_text(struct cands *cs, const char *s, size_t from)
{
	unsigned long v[3];
	unsigned n;

	if (s && cand_parse(s, v, &n) == 0)
		cand_add(cs, v, n, from);
}

/* The version a candidate is judged as: its numbers, the rest at TOP. */
static void cand_found(const struct cand *c, char *buf, size_t len)
{
	unsigned long v[3];
	unsigned i;

	for (i = 0; i < 3; i++)
		v[i] = i < c->n ? c->v[i] : TOP;
	snprintf(buf, len, "%lu.%lu.%lu", v[0], v[1], v[2]);
}

/* The version a hint names: "20", "20.11", "9.1.0"; "" for the newest. */
static void cand_text(const struct cand *c, char *buf, size_t len)
{
	if (c->n == 3)
		snprintf(buf, len, "%lu.%lu.%lu", c->v[0], c->v[1], c->v[2]);
	else if (c->n == 2)
		snprintf(buf, len, "%lu.%lu", c->v[0], c->v[1]);
	else if (c->n == 1)
		snprintf(buf, len, "%lu", c->v[0]);
	else if (len)
		buf[0] = '\0';
}

/* The lower bounds of a range's comparator sets (">=20.11.0-0",
 * ">1.2.3", "1.2.3"), each as its minor line and as itself. */
static void cand_add_floors(struct cands *cs, const struct semver_range *r,
			    size_t from)
{
	char *text = r ? semver_range_format(r) : NULL;
	const char *s = text;

	while (s && *s) {
		size_t len = strcspn(s, " |");
		unsigned long v[3];
		unsigned n = 0;
		char word[64];

		if (len && len < sizeof(word) && *s != '<') {
			size_t op = strspn(s, ">=");

			snprintf(word, sizeof(word), "%.*s", (int)(len - op), s + op);
			word[strcspn(word, "-+")] = '\0';
			if (cand_parse(word, v, &n) == 0 && n == 3) {
				cand_add(cs, v, 2, from);
				cand_add(cs, v, 3, from);
			}
		}
		s += len;
		s += strspn(s, " |");
	}
	free(text);
}

/* Requirements whose file or pin selects a version (step 1). */
static int selects(const struct runtime_prep *p)
{
	if (req_source_selects(p->r->src))
		return 1;
	if (p->r->src == SRC_DEV_ENGINES)
		return !p->range && *p->r->spec;
	return p->r->kind == REQ_EXACT;
}

/* What requirement p itself names, as candidates. */
static void cand_add_own(struct cands *cs, const struct runtime_prep *p, size_t i)
{
	const struct nvmrc *nv = &p->nvmrc;

	if (p->have_nvmrc && nv->nvm_version[0])
		cand_add_text(cs, nv->nvm_version, i);	/* nvm's exact release */
	else if (p->have_nvmrc && nv->kind == NVMRC_NODE)
		cand_add(cs, NULL, 0, i);		/* the newest release */
	else
		cand_add_text(cs, p->num, i);
	if (p->r->kind == REQ_DEV_ENGINES && !p->range)
		cand_add_text(cs, p->r->spec, i);
}

static void sweep_lts(struct cands *cs, long today)
{
	unsigned long m = nodelts_last()->major + 1;

	while (m-- > 0) {
		const struct nodelts_line *l = nodelts_by_major(m);

		if (l && l->lts <= today)
			cand_add(cs, &m, 1, (size_t)-1);
	}
}

static void sweep_majors(struct cands *cs)
{
	unsigned long m = nodelts_last()->major + 1;

	while (m-- > 0)
		cand_add(cs, &m, 1, (size_t)-1);
}

static void sweep_python(struct cands *cs)
{
	unsigned long v[2] = { 3, PYTHON_NEWEST_MINOR + 1 };

	while (v[1]-- > 6)
		cand_add(cs, v, 2, (size_t)-1);
}

int runtime_prep_admits(const struct runtime_prep *p, const char *found)
{
	struct runtime_verdict v = { STATUS_PASS, BUF_INIT };
	struct semver sv = SEMVER_INIT;
	int ok;

	/* the common kind without the message runtime_judge writes: as
	 * judge_semver, for a found version that is a plain X.Y.Z */
	if (p->r->kind == REQ_SEMVER && p->range && semver_parse(found, 0, &sv) == 0) {
		ok = semver_satisfies(&sv, p->range, SEMVER_INCLUDE_PRERELEASE);
		semver_release(&sv);
		return ok;
	}
	runtime_judge(p, NULL, found, &v);
	ok = v.status == STATUS_PASS || v.status == STATUS_WARN;
	buf_release(&v.msg);
	return ok;
}

/* The requirements weighed: every one of runtime name with a check of
 * its own that a version can meet (not a requirement at fault, not one
 * of several devEngines alternatives, not one its own tool ignores). */
static int weighed(const struct runtime_req *r, const char *name)
{
	return !strcmp(r->name, name) && r->nalt == 1 && !r->problem &&
	       r->kind != REQ_PLATFORM && r->unmet != SEV_SKIP;
}

static void candidates(struct cands *cs, const struct runtime_prep *pv, size_t n,
		       const char *name)
{
	int node = !strcmp(name, "node"), python = !strcmp(name, "python");
	size_t i;

	for (i = 0; i < n; i++)
		if (selects(&pv[i]))
			cand_add_own(cs, &pv[i], i);
	if (node)
		sweep_lts(cs, pv[0].today);
	else if (python)
		sweep_python(cs);
	for (i = 0; i < n; i++)
		if (!selects(&pv[i]))
			cand_add_own(cs, &pv[i], i);
	if (!node && !python)
		cand_add(cs, NULL, 0, (size_t)-1);
	for (i = 0; i < n; i++)
		cand_add_floors(cs, pv[i].range, i);
	if (node)
		sweep_majors(cs);
}

/* t->a, t->b: the first two requirements, each admitted by some
 * candidate, that no candidate admits together; 0 when there are none. */
static int find_conflict(struct runtime_target *t, const struct runtime_prep *pv,
			 size_t n, const unsigned char *ok, size_t nc,
			 const unsigned char *judged)
{
	size_t i, j, c;

	for (j = 1; j < n; j++) {
		for (i = 0; i < j; i++) {
			if (!judged[i] || !judged[j])
				continue;
			for (c = 0; c < nc && !(ok[c * n + i] && ok[c * n + j]); c++)
				;
			if (c == nc) {
				t->a = pv[i].r;
				t->b = pv[j].r;
				return 1;
			}
		}
	}
	return 0;
}

/* Pick from judged candidates: the first that all n requirements admit,
 * leaving out those no candidate admits at all (a version envpreflight
 * cannot name: their own checks' hints name what they can). */
static void pick(struct runtime_target *t, const struct runtime_prep *pv, size_t n,
		 const struct cands *cs, const unsigned char *ok)
{
	unsigned char *judged = xcalloc(n, 1);
	size_t c, i, njudged = 0;

	for (c = 0; c < cs->n; c++)
		for (i = 0; i < n; i++)
			judged[i] |= ok[c * n + i];
	for (i = 0; i < n; i++)
		njudged += judged[i];
	for (c = 0; njudged && c < cs->n; c++) {
		for (i = 0; i < n && (ok[c * n + i] || !judged[i]); i++)
			;
		if (i < n)
			continue;
		t->state = cs->c[c].n ? TARGET_VERSION : TARGET_OPEN;
		cand_text(&cs->c[c], t->num, sizeof(t->num));
		cand_found(&cs->c[c], t->found, sizeof(t->found));
		if (cs->c[c].from != (size_t)-1)
			memcpy(t->nvm, pv[cs->c[c].from].nvm, sizeof(t->nvm));
		free(judged);
		return;
	}
	t->state = find_conflict(t, pv, n, ok, cs->n, judged) ? TARGET_CONFLICT :
		   TARGET_UNKNOWN;
	free(judged);
}

/* The version files whose own selection is the target: their manager
 * installs it reading them (nvm install, asdf install). */
static void find_readers(struct runtime_target *t, const struct runtime_prep *pv,
			 size_t n)
{
	size_t i, c;

	for (i = 0; i < n; i++) {
		struct cands own;
		enum req_source s = pv[i].r->src;

		if (s != SRC_NVMRC && s != SRC_TOOL_VERSIONS && s != SRC_PYTHON_VERSION)
			continue;
		own.n = 0;
		cand_add_own(&own, &pv[i], i);
		for (c = 0; c < own.n; c++) {
			char text[48];

			cand_text(&own.c[c], text, sizeof(text));
			if (own.c[c].n && !strcmp(text, t->num))
				t->reads |= 1u << s;
		}
	}
}

/* 1 when a requirement weighed before reqs[i] reads as it does (fifty
 * workspaces that all say ">=18" are one requirement to judge). */
static int seen_before(const struct runtime_req *const *reqs, size_t i,
		       const char *name)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (weighed(reqs[j], name) && reqs[j]->kind == reqs[i]->kind &&
		    reqs[j]->src == reqs[i]->src && !strcmp(reqs[j]->spec, reqs[i]->spec))
			return 1;
	return 0;
}

void runtime_target_pick(const struct runtime_req *const *reqs, size_t nreqs,
			 const char *name, struct runtime_target *t)
{
	struct runtime_prep *pv = xcalloc(nreqs ? nreqs : 1, sizeof(*pv));
	struct cands *cs = xcalloc(1, sizeof(*cs));
	unsigned char *ok;
	size_t n = 0, i, c;
	int versioned = 0;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < nreqs; i++) {
		if (!weighed(reqs[i], name) || seen_before(reqs, i, name))
			continue;
		runtime_prep_init(&pv[n], reqs[i]);
		if (pv[n].bad) {
			runtime_prep_release(&pv[n]);
			continue;
		}
		versioned |= reqs[i]->kind != REQ_ANY;
		n++;
	}
	t->nreqs = n;
	if (n && versioned) {
		candidates(cs, pv, n, name);
		ok = xcalloc(cs->n ? cs->n * n : 1, 1);
		for (c = 0; c < cs->n; c++) {
			char found[80];

			cand_found(&cs->c[c], found, sizeof(found));
			for (i = 0; i < n; i++)
				ok[c * n + i] = (unsigned char)runtime_prep_admits(&pv[i], found);
		}
		pick(t, pv, n, cs, ok);
		if (t->state == TARGET_VERSION || t->state == TARGET_OPEN)
			find_readers(t, pv, n);
		free(ok);
	}
	for (i = 0; i < n; i++)
		runtime_prep_release(&pv[i]);
	free(cs);
	free(pv);
}

int runtime_target_admits(const struct runtime_target *t, const char *name,
			  const char *version)
{
	size_t i;
	int ok = 1;

	for (i = 0; ok && i < t->nall; i++) {
		struct runtime_prep p;

		if (!weighed(t->reqs[i], name))
			continue;
		runtime_prep_init(&p, t->reqs[i]);
		ok = p.bad || runtime_prep_admits(&p, version);
		runtime_prep_release(&p);
	}
	return ok;
}

/* ---- once a run, for each model and runtime ---- */

/* What one install at the repository's top checks against the one node
 * it runs on (npm's, pnpm's engines check of every workspace project):
 * the npm semver ranges of package.json engines and preflight.yaml. */
static int checked_by_install(const struct runtime_req *r)
{
	return r->kind == REQ_SEMVER && (r->src == SRC_ENGINES || r->src == SRC_PREFLIGHT);
}

/* Add spec's requirements of name to v (all, or those one install at
 * the top checks). */
static void gather(const struct spec *spec, const char *name, int install_only,
		   const struct runtime_req ***v, size_t *n, size_t *cap)
{
	size_t i;

	for (i = 0; i < spec->nruntimes; i++) {
		const struct runtime_req *r = &spec->runtimes[i];

		if (strcmp(r->name, name) || (install_only && !checked_by_install(r)))
			continue;
		/* NOLINTNEXTLINE(bugprone-sizeof-expression): an array of pointers */
		grow(v, sizeof(**v), cap, *n + 1);
		(*v)[(*n)++] = r;
	}
}

/* The requirements the target weighs.  A workspace that selects its own
 * version (its .nvmrc, .tool-versions, volta, packageManager) runs its
 * own: its requirements alone.  Otherwise the repository's runtime is
 * the one that runs, there and in every workspace that selects none:
 * the repository's requirements, those of every such workspace, and the
 * engines of the others, which one install at the top checks too. */
static void *target_make(const struct run_ctx *ctx, const void *arg)
{
	const char *name = arg;
	const struct spec *top = spec_top(ctx->spec);
	const struct spec_workspaces *ws = top->workspaces;
	struct runtime_target *t = xcalloc(1, sizeof(*t));
	const struct runtime_req **v = NULL;
	size_t i, n = 0, cap = 0;

	if (ctx->spec != top && spec_selects_version(ctx->spec, name)) {
		gather(ctx->spec, name, 0, &v, &n, &cap);
	} else {
		gather(top, name, 0, &v, &n, &cap);
		for (i = 0; ws && i < ws->n; i++)
			if (ws->v[i].loaded)
				gather(&ws->v[i].spec, name,
				       spec_selects_version(&ws->v[i].spec, name),
				       &v, &n, &cap);
	}
	runtime_target_pick(v, n, name, t);
	t->reqs = v;
	t->nall = n;
	return t;
}

static void target_free(void *p)
{
	struct runtime_target *t = p;

	free((void *)t->reqs);
	free(t);
}

const struct runtime_target *runtime_target(const struct run_ctx *ctx,
					    const char *name)
{
	struct buf key = BUF_INIT;
	const struct runtime_target *t;

	buf_printf(&key, "runtime-target:%s", name);
	if (ctx->spec != spec_top(ctx->spec) && spec_selects_version(ctx->spec, name))
		buf_printf(&key, "@%s", ctx->spec->dir);
	t = run_once(ctx, buf_str(&key), target_make, name, target_free);
	buf_release(&key);
	return t;
}
