/* spec_repo.c - the repository's model: its top directory (spec.c), the
 * workspaces found in it (spec_workspaces.c), each loaded as one more
 * directory, and the ports resolved across them all (spec_ports.c).
 *
 * The one file that knows all three, so that the others call only
 * downwards: spec.c loads one directory and never calls back up into the
 * workspaces, which load each child through spec.c like any directory.
 */
#include "spec_workspaces.h"
#include "specfile.h"

int spec_load_opts(const char *dir, const struct spec_opts *o,
		   struct spec *spec, struct errbuf *err)
{
	int workspaces = o && o->workspaces;
	size_t i;

	if (spec_load_root(dir, spec, err) < 0)
		return -1;
	if (workspaces && spec_workspaces_load(spec, o, err) < 0) {
		spec_release(spec);
		return -1;
	}
	for (i = 0; i < spec->nlocks; i++)
		spec->locks[i].ws = spec->workspaces;
	/* after the workspaces: their ports are resolved with ours */
	spec_resolve_ports(spec);
	if (spec_nothing_found(spec, dir, o && o->any, workspaces, err)) {
		spec_release(spec);
		return -1;
	}
	return 0;
}

int spec_load(const char *dir, struct spec *spec, struct errbuf *err)
{
	return spec_load_opts(dir, NULL, spec, err);
}

int spec_load_any(const char *dir, struct spec *spec, struct errbuf *err)
{
	const struct spec_opts o = { 0, NULL, 1 };

	return spec_load_opts(dir, &o, spec, err);
}

void spec_release(struct spec *spec)
{
	/* the workspaces first: the repository's port records point into
	 * their models */
	spec_workspaces_release(spec);
	spec_release_dir(spec);
}
