/* runtime_shim.h - a version manager's shim, and what its manager reads to
 * pick the version the shim runs, as part of runtime_select.c's context:
 * so that a shim's answer is cached per state of all of it.
 */
#ifndef EP_RUNTIME_SHIM_H
#define EP_RUNTIME_SHIM_H

struct buf;

/* Is binary (real: its canonical file) a shim of a manager we know? */
int runtime_shim_known(const char *binary, const char *real);

/* The inputs of the manager whose shim binary is, run in the canonical
 * dir with env (the child's), appended to b: 1 when it is one, 0 when it
 * is none we know (b untouched), -1 when it is one whose inputs cannot be
 * told (a hook that may read anything, mise with a profile, ...). */
int runtime_shim_inputs(struct buf *b, const char *binary, const char *real,
			const char *dir, char *const env[]);

#endif
