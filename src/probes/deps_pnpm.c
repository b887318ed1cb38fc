/* deps_pnpm.c - the deps probe's pnpm: pnpm-lock.yaml against pnpm's
 * current lockfile (node_modules/.pnpm/lock.yaml) and the optional
 * packages it skipped (node_modules/.modules.yaml).
 */
#include "deps_probe.h"
#include "probe.h"
#include "deps.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int pnpm_modules_parse(const char *buf, size_t len, struct dep_set *s,
			      struct parse_error *e)
{
	char *by = NULL;
	int rc = deps_pnpm_modules(buf, len, s, &by, e);

	free(by);
	return rc;
}

void deps_run_pnpm(const struct run_ctx *ctx, const struct lock_req *l, struct result *r)
{
	const struct spec *spec = ctx->spec;
	struct dep_set want = DEP_SET_INIT, have = DEP_SET_INIT, skipped = DEP_SET_INIT;
	struct parse_error e;
	struct blob b;
	const char *by;
	size_t i;
	int rc;

	if (deps_read_lockfile(spec, l, &b, r) < 0)
		return;
	rc = deps_pnpm_parse(b.data, b.len, &want, &e);
	blob_release(&b);
	if (rc < 0) {
		deps_lockfile_invalid(r, l, &e);
		goto out;
	}
	if (deps_node_modules_dir(spec, l, r) < 0)
		goto out;
	rc = deps_read_record(spec, l, "node_modules/.modules.yaml", pnpm_modules_parse, &skipped, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		by = deps_installed_by(spec);
		result_set(r, STATUS_FAIL, "node_modules was %s (no node_modules/.modules.yaml)",
			   by ? (!strcmp(by, "npm") ? "installed by npm, not by pnpm" :
				 "installed by yarn, not by pnpm") : "not installed by pnpm");
		r->reason = REASON_OUT_OF_DATE;
		deps_set_fix(r, l);
		deps_fix_hint(r, l);
		goto out;
	}
	/* pnpm keeps what it installed as a lockfile of its own (the "current
	 * lockfile"), and compares the wanted one with it on every install */
	rc = deps_read_record(spec, l, "node_modules/.pnpm/lock.yaml", deps_pnpm_parse, &have, r);
	if (rc < 0)
		goto out;
	if (rc == 0) {
		result_set(r, STATUS_WARN, "no node_modules/.pnpm/lock.yaml: what pnpm "
			   "installed cannot be compared");
		r->reason = REASON_CANNOT_COMPARE;
		goto out;
	}
	/* optional packages pnpm skipped here (another platform's) */
	for (i = 0; i < skipped.n; i++) {
		size_t at = strmap_get(&want.index, skipped.v[i].key, strlen(skipped.v[i].key));

		if (at != STRMAP_NONE)
			want.v[at].flags |= DEP_OPTIONAL;
	}
	deps_compare_record(r, l, &want, &have, "node_modules/.pnpm/lock.yaml");
out:
	dep_set_release(&want);
	dep_set_release(&have);
	dep_set_release(&skipped);
}

