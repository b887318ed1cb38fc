/* gitindex.c - see gitindex.h.  The format is git's
 * Documentation/gitformat-index.txt: a 12-byte header ("DIRC", version,
 * entry count), then the entries sorted by path.  Every read is checked
 * against len: the file comes from the repository and may be anything. */
#include "gitindex.h"

#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STAT_BYTES 40		/* ctime, mtime, dev, ino, mode, uid, gid, size */
#define FLAG_EXTENDED 0x4000
#define NAME_MASK 0x0fff

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* git's varint for v4 path compression; -1 when it runs off the end or
 * overflows. */
static int varint(const unsigned char **p, const unsigned char *end, size_t *out)
{
	size_t v;
	unsigned char c;

	if (*p >= end)
		return -1;
	c = *(*p)++;
	v = c & 127;
	while (c & 128) {
		if (*p >= end || v > (SIZE_MAX >> 8))
			return -1;
		c = *(*p)++;
		v = ((v + 1) << 7) | (c & 127);
	}
	*out = v;
	return 0;
}

/* After the entries come extensions (4-byte signature, 4-byte size), then
 * the checksum.  With a split index ("link") most entries live in another
 * file, and a sparse index ("sdir") folds whole directories into one
 * entry: then "not found" means nothing, so the caller hears "unknown". */
static int extensions_complete(const unsigned char *p, const unsigned char *end,
			       size_t hash_len)
{
	while ((size_t)(end - p) >= 8 + hash_len) {
		uint32_t size = be32(p + 4);

		if (!memcmp(p, "link", 4) || !memcmp(p, "sdir", 4))
			return 0;
		if (size > (size_t)(end - p) - 8)
			break;
		p += 8 + size;
	}
	return 1;
}

/* The paths asked about, sorted, each with its place in the caller's
 * array. */
struct asked {
	const char *path;
	size_t at;
};

static int asked_cmp(const void *a, const void *b)
{
	return strcmp(((const struct asked *)a)->path, ((const struct asked *)b)->path);
}

/* The asked path equal to name[0..n), or NULL: a binary search. */
static const struct asked *asked_find(const struct asked *v, size_t count,
				      const unsigned char *name, size_t n)
{
	size_t lo = 0, hi = count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(v[mid].path, (const char *)name, n);

		if (c == 0 && v[mid].path[n])
			c = 1;	/* longer than name[0..n) */
		if (c == 0)
			return &v[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Mark out[] for entry name[0..n): the entry itself and each directory
 * above it, when asked about; how many were newly marked. */
static size_t asked_mark(const struct asked *v, size_t count, const unsigned char *name,
			 size_t n, signed char *out)
{
	size_t k, marked = 0;

	for (k = 1; k <= n; k++) {
		const struct asked *a;

		if (k < n && name[k] != '/')
			continue;
		a = asked_find(v, count, name, k);
		/* several asked paths may be equal */
		while (a && a > v && !strcmp(a[-1].path, a->path))
			a--;
		for (; a && a < v + count && strlen(a->path) == k &&
		       !memcmp(a->path, name, k); a++)
			if (!out[a->at]) {
				out[a->at] = 1;
				marked++;
			}
	}
	return marked;
}

/* One pass over the entries, marking v's places in out. */
static int tracked_scan(const char *buf, size_t len, size_t hash_len,
			const struct asked *v, size_t nv, signed char *out)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len;
	char prev[4096] = "";
	size_t prev_len = 0, left = nv;
	uint32_t version, count, i;

	if (len < 12 || memcmp(p, "DIRC", 4))
		return -1;
	version = be32(p + 4);
	count = be32(p + 8);
	if (version < 2 || version > 4)
		return -1;
	p += 12;
	for (i = 0; i < count; i++) {
		const unsigned char *entry = p, *name, *nul;
		size_t fixed = STAT_BYTES + hash_len + 2, name_len;
		unsigned flags;

		if ((size_t)(end - p) < fixed)
			return -1;
		flags = (unsigned)p[fixed - 2] << 8 | p[fixed - 1];
		if (flags & FLAG_EXTENDED) {
			if (version < 3)
				return -1;
			fixed += 2;
			/* the widening needs its own check: the entry may end
			 * right after the first fixed part */
			if ((size_t)(end - p) < fixed)
				return -1;
		}
		p += fixed;
		if (version == 4) {
			size_t strip;

			if (varint(&p, end, &strip) < 0 || strip > prev_len || p >= end)
				return -1;
			nul = memchr(p, '\0', (size_t)(end - p));
			if (!nul || (prev_len - strip) + (size_t)(nul - p) >= sizeof(prev))
				return -1;
			memcpy(prev + prev_len - strip, p, (size_t)(nul - p));
			prev_len = prev_len - strip + (size_t)(nul - p);
			prev[prev_len] = '\0';
			name = (const unsigned char *)prev;
			name_len = prev_len;
			p = nul + 1;
		} else {
			name = p;
			nul = memchr(p, '\0', (size_t)(end - p));
			if (!nul)
				return -1;
			name_len = (size_t)(nul - p);
			if ((flags & NAME_MASK) != NAME_MASK && name_len != (flags & NAME_MASK))
				return -1;
			/* entries are padded with 1 to 8 NULs to a multiple of 8 */
			p = entry + ((fixed + name_len + 8) & ~(size_t)7);
			if (p > end)
				return -1;
		}
		/* a path itself, or a directory holding tracked files */
		left -= asked_mark(v, nv, name, name_len, out);
		if (!left)
			return 0;
	}
	return extensions_complete(p, end, hash_len) ? 0 : -1;
}

int gitindex_tracked_many(const char *buf, size_t len, size_t hash_len,
			  const char *const *paths, size_t n, signed char *out)
{
	struct asked *v = xcalloc(n ? n : 1, sizeof(*v));
	signed char *got = xcalloc(n ? n : 1, 1);
	size_t i;
	int rc;

	for (i = 0; i < n; i++) {
		v[i].path = paths[i];
		v[i].at = i;
	}
	qsort(v, n, sizeof(*v), asked_cmp);
	rc = tracked_scan(buf, len, hash_len, v, n, got);
	if (rc == 0)
		memcpy(out, got, n);
	free(got);
	free(v);
	return rc;
}

int gitindex_tracked(const char *buf, size_t len, size_t hash_len, const char *path)
{
	signed char out = 0;

	return gitindex_tracked_many(buf, len, hash_len, &path, 1, &out) < 0 ? -1 : out;
}
