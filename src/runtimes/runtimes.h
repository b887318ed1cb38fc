/* runtimes.h - what the runtimes probe's modules share: the table of
 * runtimes envpreflight knows, a requirement read once per check, the
 * verdict on a version found, and install hints.
 *
 *   runtime_table.c  the known runtimes and how to ask each its version
 *   runtime_req.c    where a requirement came from; reading it per req_kind
 *   runtime_eval.c   a version found, judged against it per req_kind
 *   runtime_target.c the one version every requirement of a runtime admits
 *   runtime_hint.c   how to get it
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

/* ---- runtime_target.c ---- */

#define PYTHON_NEWEST_MINOR 14	/* hints suggest no CPython newer than 3.14:
				 * raise it as releases come out */

enum target_state {
	TARGET_NONE,		/* no requirement names a version */
	TARGET_OPEN,		/* the newest release meets them all: hints
				 * name no version (npm install -g npm) */
	TARGET_VERSION,		/* num meets them all */
	TARGET_CONFLICT,	/* no version meets them all: a and b */
	TARGET_UNKNOWN,		/* every two meet, but no candidate meets
				 * them all: each check names its own */
};

/* The version every requirement of one runtime in one model admits: what
 * every install hint and fix of that runtime names. */
struct runtime_target {
	enum target_state state;
	char num[48];		/* TARGET_VERSION: "20", "20.11", "9.1.0": a
				 * line stands for its newest release */
	char found[80];		/* the version num is judged as
				 * ("20.99999.99999") */
	char nvm[48];		/* what nvm takes for it, when the .nvmrc or
				 * .node-version that named it says so
				 * ("lts/iron"), or "" */
	unsigned reads;		/* 1u << SRC_NVMRC, SRC_TOOL_VERSIONS,
				 * SRC_PYTHON_VERSION: that file selects num
				 * itself (nvm install with no argument
				 * installs it) */
	const struct runtime_req *a, *b;	/* TARGET_CONFLICT: the first two
						 * no version meets together */
	size_t nreqs;		/* the requirements weighed */
	const struct runtime_req *const *reqs;	/* runtime_target's: every
						 * requirement of the runtime in
						 * the model (owned), nall many */
	size_t nall;
};

/* The target of reqs[0..n), the requirements of runtime name (those that
 * name another, that are at fault, that are one of several devEngines
 * alternatives or that their own tool ignores are passed over) into *t;
 * t->reqs is left NULL.  Reads the date and nvm's alias files, as
 * runtime_prep_init does; nothing else. */
void runtime_target_pick(const struct runtime_req *const *reqs, size_t n,
			 const char *name, struct runtime_target *t);

/* 1 when every requirement of t's runtime (name) admits version. */
int runtime_target_admits(const struct runtime_target *t, const char *name,
			  const char *version);

/* 1 when requirement p admits version found (a pass, or a kind that
 * cannot tell: an nvm alias, go.mod's toolchain). */
int runtime_prep_admits(const struct runtime_prep *p, const char *found);

/* The target of runtime name in ctx's model, picked once a run (owned by
 * the run). */
const struct runtime_target *runtime_target(const struct run_ctx *ctx,
					    const char *name);

/* ---- runtime_hint.c ---- */

/* A hint on how to get the version every requirement of p's runtime in
 * the model admits (runtime_target), fit for the version manager in use
 * (named in res->data's "version_manager", the target in its "target"),
 * or that no version does.  path: the binary found, or NULL when
 * missing. */
void runtime_hint_install(const struct run_ctx *ctx, struct result *res,
			  const struct runtime_prep *p,
			  const struct known_runtime *k, const char *path);

#endif
