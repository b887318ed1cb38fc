/* deps_yarn.c - the deps probe's yarn (2 and later): yarn.lock against
 * the node-modules linker's node_modules/.yarn-state.yml, or Plug'n'Play's
 * .yarn/install-state.gz.
 */
#include "deps_probe.h"
#include "probe.h"
#include "deps.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <stdint.h>

static int yarn_state_parse(const char *buf, size_t len, struct dep_set *s,
			    struct parse_error *e)
{
	return deps_yarn_parse(buf, len, 1, s, e) < 0 ? -1 : 0;
}

/* ---- yarn ---- */

void deps_run_yarn(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT;
	struct parse_error e;
	struct blob b;
	struct stat lst, gst;
	char *p;
	int rc, gz;

	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	rc = deps_yarn_parse(b.data, b.len, 0, &want, &e);
	blob_release(&b);
	if (rc < 0) {
		deps_lockfile_invalid(r, l, &e);
		goto out;
	}
	if (rc == 1) {
		result_set(r, STATUS_SKIP, "%s is a yarn 1 lockfile: not compared "
			   "(yarn 2 and later only)", l->origin.file);
		r->reason = REASON_OUT_OF_SCOPE;
		goto out;
	}
	/* the node-modules linker records what it installed in
	 * node_modules/.yarn-state.yml: compare package by package */
	rc = deps_read_record(spec, l, "node_modules/.yarn-state.yml", yarn_state_parse, &have, r);
	if (rc < 0)
		goto out;
	if (rc > 0) {
		deps_compare_record(r, l, &want, &have, "node_modules/.yarn-state.yml");
		goto out;
	}
	/* Plug'n'Play: the install state is gzip-compressed (v8 serialised)
	 * and envpreflight links no zlib, so only its time can tell: yarn
	 * rewrites it on every install */
	p = path_join(spec->root, ".yarn/install-state.gz");
	gz = stat(p, &gst) == 0 && S_ISREG(gst.st_mode);
	free(p);
	p = path_join(spec->root, l->origin.file);
	rc = stat(p, &lst);
	free(p);
	r->data = deps_data_new(l, gz ? ".yarn/install-state.gz" : NULL);
	if (!gz) {
		deps_not_installed(r, l, "neither node_modules/.yarn-state.yml nor "
				   ".yarn/install-state.gz exists: nothing is installed");
	} else if (rc == 0 && deps_mtime_ms(&gst) < deps_mtime_ms(&lst)) {
		result_set(r, STATUS_FAIL, "%s changed after the last install "
			   "(.yarn/install-state.gz is older)", l->origin.file);
		r->reason = REASON_OUT_OF_DATE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
	} else {
		result_set(r, STATUS_PASS, ".yarn/install-state.gz is newer than %s",
			   l->origin.file);
		result_note(r, "compared by time only: the install state is "
			    "gzip-compressed (%jd bytes) and envpreflight reads no gzip",
			    (intmax_t)gst.st_size);
	}
out:
	dep_set_release(&want);
	dep_set_release(&have);
}
