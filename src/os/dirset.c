/* dirset.c - see dirset.h.  Small on purpose: a fresh page costs a fault
 * (~17 us on the VMs this runs on, four stats' worth), so the per-path
 * arrays are 32-bit and the names of a parent sit in one table of 32-bit
 * indices, sized once (a strmap of 2,000 names touched ~60 pages as it
 * grew; this one touches 4). */
#include "dirset.h"
#include "strmap.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* entries read, at most, in all: 8 a path and 4,096 more */
#define DIRSET_BUDGET_PER_PATH 8
#define DIRSET_BUDGET_BASE 4096
#define NONE UINT32_MAX

/* its address varies with ASLR; its value is never used */
static const char seed_anchor;

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

/* murmur3's 64-bit finaliser */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* The names of one parent: an open-addressing table of path indices,
 * at most half full, hashed from a seed that ASLR randomises (a record
 * cannot be crafted to make every name collide). */
struct names {
	const char *const *paths;
	const uint32_t *plen;
	uint32_t *slot;		/* path index + 1; 0: free */
	size_t mask;
	uint64_t seed;
};

static const char *name_of(const struct names *t, uint32_t i)
{
	return t->plen[i] ? t->paths[i] + t->plen[i] + 1 : t->paths[i];
}

/* The slot of name[0..len): the one holding it, or the free one. */
static uint32_t *names_find(const struct names *t, const char *name, size_t len)
{
	uint64_t h = 14695981039346656037ULL ^ t->seed;
	size_t i, k;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)name[i];
		h *= 1099511628211ULL;
	}
	for (k = (size_t)mix(h ^ t->seed) & t->mask;; k = (k + 1) & t->mask) {
		uint32_t *s = &t->slot[k];
		const char *nm;

		if (!*s)
			return s;
		nm = name_of(t, *s - 1);
		if (!strncmp(nm, name, len) && !nm[len])
			return s;
	}
}

/* Reads the parent of the k paths listed from first (through next),
 * marking the names listed FOUND; *budget entries at most. */
static void read_parent(int dirfd, const char *const *paths, const uint32_t *plen,
			const uint32_t *next, uint32_t first, size_t k, struct dirset_res *res,
			size_t *budget)
{
	struct names t = { paths, plen, NULL, 0, 0 };
	size_t size = 16, unique = 0, found = 0;
	char *parent = plen[first] ? xstrndup(paths[first], plen[first]) : NULL;
	struct dirent *e;
	uint32_t i, *s;
	DIR *d;
	int fd;

	while (size < 2 * k)
		size *= 2;
	t.slot = xcalloc(size, sizeof(*t.slot));
	t.mask = size - 1;
	t.seed = mix((uint64_t)(uintptr_t)t.slot ^ ((uint64_t)(uintptr_t)&seed_anchor << 17));
	for (i = first; i != NONE; i = next[i]) {
		const char *nm = name_of(&t, i);

		s = names_find(&t, nm, strlen(nm));
		if (!*s) {
			*s = i + 1;
			unique++;
		}
	}
	fd = openat(dirfd, parent ? parent : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		/* not there: a stat of any name below it fails the same way;
		 * anything else (EACCES: reading refused, searching perhaps
		 * not) is left to the stats */
		int err = errno;

		for (i = first; (err == ENOENT || err == ENOTDIR) && i != NONE; i = next[i]) {
			res[i].state = DIRSET_ABSENT;
			res[i].err = err;
		}
		goto out;
	}
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		goto out;
	}
	while (found < unique && *budget && (e = readdir(d)) != NULL) {
		(*budget)--;
		s = names_find(&t, e->d_name, strlen(e->d_name));
		if (!*s || res[*s - 1].state == DIRSET_FOUND)
			continue;
		res[*s - 1].state = DIRSET_FOUND;
		res[*s - 1].d_type = e->d_type;
		found++;
	}
	closedir(d);	/* and fd */
	/* a path given twice: the answer of its first */
	for (i = first; unique < k && i != NONE; i = next[i]) {
		const char *nm = name_of(&t, i);

		s = names_find(&t, nm, strlen(nm));
		if (*s - 1 != i)
			res[i] = res[*s - 1];
	}
out:
	free(t.slot);
	free(parent);
}

size_t dirset_lookup(int dirfd, const char *const *paths, size_t n, struct dirset_res *res)
{
	struct strmap parents = STRMAP_INIT;
	uint32_t *plen, *next, *head, *count;
	size_t np = 0, i, p, read = 0;
	size_t budget = DIRSET_BUDGET_BASE + DIRSET_BUDGET_PER_PATH * n;

	if (!n)
		return 0;
	memset(res, 0, n * sizeof(*res));
	if (n >= NONE)
		return 0;
	plen = xmalloc(n * sizeof(*plen));
	next = xmalloc(n * sizeof(*next));
	/* per parent (as many as paths at most; only those used are
	 * touched) */
	head = xmalloc(n * sizeof(*head));
	count = xmalloc(n * sizeof(*count));
	/* the paths grouped by parent, each parent a list through next (the
	 * parent's key is the path's own prefix: nothing copied) */
	for (i = 0; i < n; i++) {
		long len = paths[i] ? parent_len(paths[i]) : -1;
		size_t at;

		next[i] = NONE;
		plen[i] = 0;
		if (len < 0 || (unsigned long)len >= NONE)
			continue;
		plen[i] = (uint32_t)len;
		at = strmap_get(&parents, paths[i], (size_t)len);
		if (at == STRMAP_NONE) {
			at = np++;
			strmap_put(&parents, paths[i], (size_t)len, at);
			head[at] = NONE;
			count[at] = 0;
		}
		next[i] = head[at];
		head[at] = (uint32_t)i;
		count[at]++;
	}
	for (p = 0; p < np && budget; p++) {
		if (count[p] < DIRSET_MIN_NAMES)
			continue;
		read_parent(dirfd, paths, plen, next, head[p], count[p], res, &budget);
		read++;
	}
	strmap_release(&parents);
	free(count);
	free(head);
	free(next);
	free(plen);
	return read;
}
