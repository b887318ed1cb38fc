/* gitindex.h - is a path tracked by git?  Read from the index file itself
 * (.git/index, versions 2, 3 and 4), never by running git, so that the
 * env probe can tell a .env that is already committed from one that is
 * merely not ignored. */
#ifndef EP_GITINDEX_H
#define EP_GITINDEX_H

#include <stddef.h>

/* buf/len: the whole index file; hash_len: 20 (SHA-1) or 32 (SHA-256
 * repositories); path: relative to the top of the work tree.  Returns 1
 * when an entry for path is there, or one below it (path is a directory
 * that holds tracked files: git add -A of it records a change), 0 when
 * not, -1 when the index is not one we can read (bad signature, unknown
 * version, truncated). */
int gitindex_tracked(const char *buf, size_t len, size_t hash_len, const char *path);
/* The same for paths[0..n) in one pass over the index: out[i] is 1 or 0
 * for paths[i]; returns 0, or -1 (out untouched) when the index is not one
 * we can read. */
int gitindex_tracked_many(const char *buf, size_t len, size_t hash_len,
			  const char *const *paths, size_t n, signed char *out);

#endif
