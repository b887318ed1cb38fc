/* dirset.h - which of many paths below a directory are there, learnt by
 * reading each parent directory once (getdents) instead of a stat a path.
 *
 * A stat costs a system call and a path walk each (about 4 us on the
 * VMs this runs on); a parent that holds many of the names (node_modules
 * with 2,000 packages) is read in a few getdents calls, and each entry is
 * looked up in a hash set of the names wanted there.
 *
 * Only what a listing says for sure is said: a name listed is FOUND (with
 * its d_type, DT_UNKNOWN when the file system does not say), a parent that
 * cannot be opened because it is not there (ENOENT, ENOTDIR) makes its
 * names ABSENT with that errno.  Everything else is UNKNOWN, for the
 * caller's own stat: a name not listed (a case-folding directory finds
 * "Foo" as "foo"; the stat is what decides), a parent that cannot be read
 * (EACCES: search may still be allowed), a parent with few names (a stat
 * is cheaper than open, getdents and close), a path that is not plainly
 * "a/b/c" (".", "..", "//", a trailing "/"), and every name past the
 * entry budget (reading stops after 8 entries a path plus 4,096 in all,
 * so that a huge directory costs no more than the stats it replaces).
 * Intermediate symbolic links are followed as a stat's path walk follows
 * them; the last component is never followed (its type is the link's).
 *
 * Thread-safe: no state but the file system.
 */
#ifndef EP_DIRSET_H
#define EP_DIRSET_H

#include <stddef.h>

enum dirset_state {
	DIRSET_UNKNOWN = 0,	/* not told: stat it */
	DIRSET_FOUND,		/* listed in its parent */
	DIRSET_ABSENT		/* its parent is not there (err) */
};

struct dirset_res {
	unsigned char state;	/* enum dirset_state */
	unsigned char d_type;	/* FOUND: DT_DIR, DT_LNK, ... or DT_UNKNOWN */
	int err;		/* ABSENT: ENOENT or ENOTDIR */
};

/* Parents with fewer than this many names are left to stats. */
#define DIRSET_MIN_NAMES 4

/* Looks up the n paths (relative to the directory dirfd; NULL: skipped,
 * UNKNOWN) into res[0..n).  Returns the number of parent directories
 * read. */
size_t dirset_lookup(int dirfd, const char *const *paths, size_t n, struct dirset_res *res);

#endif
