/* dirset.c - see dirset.h */
#include "dirset.h"
#include "strmap.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* entries read, at most, in all: 8 a path and 4,096 more */
#define DIRSET_BUDGET_PER_PATH 8
#define DIRSET_BUDGET_BASE 4096

/* The length of path's parent (0: dirfd itself), or -1 when the path is
 * not plainly "a/b/c" (an empty, "." or ".." component, a trailing or
 * leading "/"): those are left to a stat, which walks them as it does. */
static long parent_len(const char *path)
{
	const char *c = path, *last = NULL;

	for (;;) {
		size_t k = strcspn(c, "/");

		if (!k || (k == 1 && c[0] == '.') || (k == 2 && c[0] == '.' && c[1] == '.'))
			return -1;
		if (!c[k])
			break;
		last = c + k;
		c += k + 1;
	}
	return last ? (long)(last - path) : 0;
}

static const char *name_of(const char *path, long plen)
{
	return plen ? path + plen + 1 : path;
}

/* Reads the parent of the paths group[0..k) (each with parent length
 * plen), marking the names listed FOUND; *budget entries at most. */
static void read_parent(int dirfd, const char *const *paths, const long *plen,
			const size_t *group, size_t k, struct dirset_res *res, size_t *dup,
			size_t *budget)
{
	struct strmap names = STRMAP_INIT;
	const char *first = paths[group[0]];
	char *parent = plen[group[0]] ? xstrndup(first, (size_t)plen[group[0]]) : NULL;
	size_t j, unique = 0, found = 0;
	struct dirent *e;
	DIR *d;
	int fd;

	for (j = 0; j < k; j++) {
		size_t i = group[j], at;
		const char *nm = name_of(paths[i], plen[i]);
		size_t len = strlen(nm);

		at = strmap_get(&names, nm, len);
		if (at != STRMAP_NONE) {
			dup[i] = at;	/* the same path twice: one answer */
			continue;
		}
		strmap_put(&names, nm, len, i);
		unique++;
	}
	fd = openat(dirfd, parent ? parent : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		/* not there: a stat of any name below it fails the same way;
		 * anything else (EACCES: reading refused, searching perhaps
		 * not) is left to the stats */
		int err = errno;

		for (j = 0; (err == ENOENT || err == ENOTDIR) && j < k; j++) {
			res[group[j]].state = DIRSET_ABSENT;
			res[group[j]].err = err;
		}
		goto out;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		goto out;
	}
	while (found < unique && *budget && (e = readdir(d)) != NULL) {
		size_t at = strmap_get(&names, e->d_name, strlen(e->d_name));

		(*budget)--;
		if (at == STRMAP_NONE || res[at].state == DIRSET_FOUND)
			continue;
		res[at].state = DIRSET_FOUND;
		res[at].d_type = e->d_type;
		found++;
	}
	closedir(d);	/* and fd */
out:
	free(parent);
	strmap_release(&names);
}

size_t dirset_lookup(int dirfd, const char *const *paths, size_t n, struct dirset_res *res)
{
	struct strmap parents = STRMAP_INIT;
	long *plen = xcalloc(n ? n : 1, sizeof(*plen));
	size_t *pof = xcalloc(n ? n : 1, sizeof(*pof));		/* path -> parent */
	size_t *dup = xcalloc(n ? n : 1, sizeof(*dup));
	size_t *count = NULL, *start, *order, *fill, cap = 0, np = 0, i, p, read = 0;
	size_t budget = DIRSET_BUDGET_BASE + DIRSET_BUDGET_PER_PATH * n;

	memset(res, 0, n * sizeof(*res));
	/* group the paths by parent (the parent's key is the path's own
	 * prefix: nothing copied) */
	for (i = 0; i < n; i++) {
		size_t at;

		dup[i] = (size_t)-1;
		pof[i] = (size_t)-1;
		if (!paths[i] || (plen[i] = parent_len(paths[i])) < 0)
			continue;
		at = strmap_get(&parents, paths[i], (size_t)plen[i]);
		if (at == STRMAP_NONE) {
			at = np++;
			strmap_put(&parents, paths[i], (size_t)plen[i], at);
			grow(&count, sizeof(*count), &cap, np);
			count[at] = 0;
		}
		count[at]++;
		pof[i] = at;
	}
	start = xcalloc(np + 1, sizeof(*start));
	fill = xcalloc(np + 1, sizeof(*fill));
	order = xcalloc(n ? n : 1, sizeof(*order));
	for (p = 0; p < np; p++)
		start[p + 1] = start[p] + count[p];
	for (i = 0; i < n; i++)
		if (pof[i] != (size_t)-1)
			order[start[pof[i]] + fill[pof[i]]++] = i;
	for (p = 0; p < np && budget; p++) {
		if (count[p] < DIRSET_MIN_NAMES)
			continue;
		read_parent(dirfd, paths, plen, order + start[p], count[p], res, dup, &budget);
		read++;
	}
	for (i = 0; i < n; i++)
		if (dup[i] != (size_t)-1)
			res[i] = res[dup[i]];
	strmap_release(&parents);
	free(order);
	free(fill);
	free(start);
	free(count);
	free(dup);
	free(pof);
	free(plen);
	return read;
}
