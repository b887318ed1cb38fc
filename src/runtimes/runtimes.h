/* runtimes.h - what the runtimes probe's modules share: the table of
 * runtimes envpreflight knows, a requirement read once per check, the
 * verdict on a version found, and install hints.
 *
 *   runtime_table.c  the known runtimes and how to ask each its version
 *   runtime_req.c    where a requirement came from; reading it per req_kind
 *   runtime_eval.c   a version found, judged against it per req_kind
 *   runtime_hint.c   how to get a version that satisfies it
 *   runtime_ask.c    asking the machine (runtime_ask.h)
 *   probe_runtimes.c the probe: plan, run, results
 *
 * Not for other probes: they see only probe_runtimes.
 */
#ifndef EP_RUNTIMES_H
#define EP_RUNTIMES_H

#include "nvmrc.h"
#include "pep440.h"
#include "probe.h"
#include "result.h"
#include "semver.h"
#include "spec.h"
#include "util.h"
#include "versions.h"

#define RUNTIME_QUOTE_MAX 100	/* repository text quoted in a message */

/* ---- runtime_table.c ---- */

/* How to ask a runtime envpreflight knows for its version.  The regex is
 * a POSIX ERE whose first group is the bare version; NULL for python,
 * whose output pep440_python_output reads. */
struct known_runtime {
	const char *name;		/* the runtime name in the model */
	const char *display;		/* "Node.js": titles, messages */
	const char *bins[3];		/* tried in order on PATH */
	const char *args[3];
	const char *regex;
	const char *prefix;		/* shown before the bare version */
	int socket;			/* docker: asked over its socket */
	int noexec;			/* never run (erl would start a shell):
					 * the exec-free shortcut or nothing */
};

/* For a name we do not know: NAME --version, the first dotted number. */
#define RUNTIME_GENERIC_REGEX "([0-9]+\\.[0-9]+(\\.[0-9]+)?)"

/* The table's entry for name (static storage), or NULL. */
const struct known_runtime *runtime_table_find(const char *name);

/* ---- runtime_req.c ---- */

/* The file r came from, for messages: "preflight.yaml" when none. */
const char *runtime_req_from(const struct runtime_req *r);

/* A requirement read for one check: runtime_prep_init parses r->spec by
 * r->kind; runtime_prep_release frees what it made.  r is borrowed from
 * the model. */
struct runtime_prep {
	const struct runtime_req *r;
	int bad;			/* the requirement itself is at fault */
	int never;			/* and no version can satisfy it */
	struct buf problem;		/* then: why, naming file:line */
	struct semver_range *range;	/* REQ_SEMVER */
	struct nvmrc nvmrc;		/* REQ_NVMRC */
	int have_nvmrc;
	struct pyenv_file pyenv;	/* REQ_PYENV */
	struct pkgmanager pm;		/* REQ_EXACT, packageManager */
	struct semver exact;		/* REQ_EXACT */
	int have_exact;
	char want[RUNTIME_QUOTE_MAX];	/* the requirement, quoted for messages */
	char num[48];			/* a validated version for hints ("20",
					 * "3.12", "9.1.0"), or "" */
	char nvm[48];			/* what nvm takes instead ("lts/iron",
					 * "--lts"), or "" */
	long today;			/* yyyymmdd: what lts/ names depends on it */
	int nvm_dir_seen;		/* nvm is installed (its answer was asked) */
};

void runtime_prep_init(struct runtime_prep *p, const struct runtime_req *r);
void runtime_prep_release(struct runtime_prep *p);

/* 1 when no version satisfies both a and b, and that is certain: every
 * comparator set of a, joined with every set of b, has its lower bound
 * above its upper bound (runtime_req.c's emptiness test, which counts
 * what it cannot judge as satisfiable).  0 when some version may. */
int runtime_ranges_disjoint(const struct semver_range *a,
			    const struct semver_range *b);

/* ---- runtime_eval.c ---- */

/* The status and message of one check; the caller releases msg. */
struct runtime_verdict {
	enum status status;
	struct buf msg;
};

/* Whether version found (of runtime k, or NULL) meets p: v filled. */
void runtime_judge(const struct runtime_prep *p, const struct known_runtime *k,
		   const char *found, struct runtime_verdict *v);

/* ---- runtime_workspaces.c ---- */

/* runtime.NAME.workspaces: the checks of ranges that exclude each other
 * across workspaces, planned for the repository's model as checks of
 * probe self (the runtimes probe, passed in so that this file does not
 * import its caller; its check's index is RUNTIME_WORKSPACES_CHECK, its
 * arg the first requirement). */
#define RUNTIME_WORKSPACES_CHECK ((size_t)-2)
void runtime_workspaces_plan(const struct probe *self, const struct spec *spec,
			     struct plan *plan);
void runtime_workspaces_run(const struct run_ctx *ctx, const struct check *c,
			    struct result *res);

/* ---- runtime_hint.c ---- */

/* A hint on how to get a version that satisfies p, fit for the version
 * manager in use (named in res->data's "version_manager").  path: the
 * binary found, or NULL when missing. */
void runtime_hint_install(struct result *res, const struct runtime_prep *p,
			  const struct known_runtime *k, const char *path);

#endif
