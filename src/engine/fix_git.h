/* fix_git.h - what git makes of each path a fix writes (struct
 * fix_write's git, JSON writes_git): tracked, untracked or ignored, read from the work tree as
 * the env.gitignore check reads it (gitrepo.h), never by running git. */
#ifndef EP_FIX_GIT_H
#define EP_FIX_GIT_H

#include "result.h"

/* Fill each write's git of every fix of results[0..n), the repository at
 * root (canonical).  Each distinct path is looked up once, and the index
 * read once for all. */
void fix_git_mark(struct result *results, size_t n, const char *root);

#endif
