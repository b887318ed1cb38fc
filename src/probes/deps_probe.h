/* deps_probe.h - what the deps probe's three files share (private to
 * them: src/probes/probe_deps.c has the probe (plan, run, the dispatch by
 * manager) and what every manager uses: the one reader, the install
 * command, the data and the message, the lockfile parsed on a thread of
 * its own, the install records read on two threads, a directory's
 * entries; src/probes/deps_node.c npm, pnpm and yarn against node_modules;
 * src/probes/deps_python.c uv, poetry and pip against a virtual
 * environment).  The pure parsers are deps.h's.
 */
#ifndef EP_DEPS_PROBE_H
#define EP_DEPS_PROBE_H

#include "probe.h"
#include "pool.h"
#include "saferead.h"
#include "deps.h"

#include <dirent.h>
#include <sys/stat.h>
#include <stdatomic.h>
#include <stddef.h>

/* Lockfiles of the largest monorepos are some tens of megabytes; past
 * this one is skipped with a message naming it, never read. */
#define DEPS_LOCK_CAP ((size_t)64 * 1024 * 1024)
#define DEPS_META_CAP ((size_t)1024 * 1024)	/* a package.json, METADATA */

/* ---- reading ---- */

struct lread {
	int err;		/* 0, or errno: ENOENT missing, EFBIG over cap */
	size_t size;		/* EFBIG: the size found */
};

/* The one function that reads a file for this probe: root/name (or name
 * itself when absolute) into out.  inside: the file is the repository's
 * own (a lockfile) and must not resolve outside it.  Returns 0, or -1
 * with l->err. */
int deps_read(const char *root, const char *name, int inside, size_t cap,
	      struct blob *out, struct lread *l);
/* Why l's read failed, for a message: a static string, or buf. */
const char *deps_lread_why(const struct lread *l, char *buf, size_t size);

/* ---- what each manager is ---- */

/* The manager's name: "npm", "pip", ... (static). */
const char *deps_manager_name(enum lock_kind kind);
/* The install command as fix.argv (printed, never run). */
void deps_set_fix(struct result *r, const struct lock_req *l);
/* A relock's fix.writes (after its argv): the lockfile, and what the
 * manager's install writes. */
void deps_relock_writes(struct result *r, const struct lock_req *l);
/* "run CMD to install what LOCKFILE says" when r has a fix argv. */
void deps_fix_hint(struct result *r, const struct lock_req *l);

/* ---- the data and the message ---- */

/* r->data's object: the manager, the lockfile, what it was compared with
 * (installed: a path, or NULL), no packages yet (a new object). */
cJSON *deps_data_new(const struct lock_req *l, const char *installed);
/* Fill r from a comparison: every difference in data, the first few in
 * the message.  against: what the lockfile was compared with. */
void deps_report_diff(struct result *r, const struct lock_req *l,
		      const struct dep_diff *d, const char *against);
/* The lockfile cannot be parsed: e's place, a fix there, a hint. */
void deps_lockfile_invalid(struct result *r, const struct lock_req *l,
			   const struct parse_error *e);
/* Read and judge the lockfile itself.  Returns 0 with b, else the result
 * is set. */
int deps_read_lockfile(const struct spec *spec, const struct lock_req *l,
		       struct blob *b, struct result *r);
/* A failure, nothing installed (what: the message), with the fix and its hint. */
void deps_not_installed(struct result *r, const struct lock_req *l, const char *what);

/* ---- a lockfile parsed beside the rest ---- */

/* A 2,000-package lockfile takes as long to parse as the install record
 * takes to read: the lockfile is parsed on a short-lived thread of its
 * own meanwhile (joined before the check returns), so that the check
 * costs the longer of the two, not their sum. */
struct parse_job {
	int (*fn)(struct parse_job *j);
	const struct blob *b;
	struct dep_set *out;
	struct parse_error err;
	const void *arg;	/* what fn needs besides the bytes */
	int rc;
	struct pool_thread thread;
};
/* No thread to be had: parsed here and now, the same answer later. */
void deps_parse_job_start(struct parse_job *j);
/* Joins the thread: fn's return (j->err set by fn when it is -1). */
int deps_parse_job_finish(struct parse_job *j);

/* ---- many small files read on two threads ---- */

/* An install record is a file a package: 2,000 METADATA or package.json
 * files for as many packages, each read with the handful of system calls
 * saferead's checks take, are most of what a check costs.  They are read
 * on two threads (pool_run), the check's own and a short-lived helper
 * (joined before the check returns), each taking the next file in turn;
 * what a file says goes to its own slot (take), so the result is the same
 * whichever thread read it.  Below DEPS_MANY_THREADED files a thread
 * costs more than it saves. */
struct many_read {
	size_t n;
	/* file i's name relative to the directory, into buf (size bytes);
	 * NULL: nothing to read for i */
	const char *(*name)(const struct many_read *m, size_t i, char *buf, size_t size);
	/* what file i says, into slot i of arg's own (either thread) */
	void (*take)(const struct many_read *m, size_t i, const struct blob *b);
	void *arg;
	double deadline;
	struct saferead_dir dir;
	atomic_int late;	/* the deadline came first */
};
/* Read the m->n files m names below dir (a file that cannot be read is
 * left out).  Returns 0, or -1 when the deadline came first. */
int deps_many_read_run(struct many_read *m, const char *dir);

/* ---- a directory's entries ---- */

/* The entries of an open directory, dot names left out, sorted (so that
 * the walk and its first reason are the same every run): a new array of
 * *n new strings (or NULL). */
char **deps_list_entries(DIR *d, size_t *n);

/* ---- the managers, which deps_run hands a check to ---- */

/* deps_node.c: npm, and what the node managers share */
void deps_run_npm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r);
/* node_modules itself: 0 a directory, else the result is set. */
int deps_node_modules_dir(const struct spec *spec, const struct lock_req *l, struct result *r);
/* Which manager's record node_modules holds ("npm", "pnpm", "yarn"), or NULL. */
const char *deps_installed_by(const struct spec *spec);
/* deps_pnpm.c */
void deps_run_pnpm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r);
/* deps_yarn.c */
void deps_run_yarn(const struct run_ctx *ctx, const struct lock_req *l, struct result *r);
/* deps_bun.c: bun.lock against node_modules */
void deps_run_bun(const struct run_ctx *ctx, const struct lock_req *l, struct result *r);
/* deps_python.c: uv, poetry, pip */
void deps_run_python(const struct run_ctx *ctx, const struct lock_req *l, struct result *r);

#endif
