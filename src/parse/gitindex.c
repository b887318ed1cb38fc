/* gitindex.c - see gitindex.h.  The format is git's
 * Documentation/gitformat-index.txt: a 12-byte header ("DIRC", version,
 * entry count), then the entries sorted by path.  Every read is checked
 * against len: the file comes from the repository and may be anything. */
#include "gitindex.h"

#include <stdint.h>
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

int gitindex_tracked(const char *buf, size_t len, size_t hash_len, const char *path)
{
	const unsigned char *p = (const unsigned char *)buf, *end = p + len;
	char prev[4096] = "";
	size_t prev_len = 0, want = strlen(path);
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
		/* path itself, or a directory holding tracked files */
		if ((name_len == want || (name_len > want && name[want] == '/')) &&
		    !memcmp(name, path, want))
			return 1;
	}
	return extensions_complete(p, end, hash_len) ? 0 : -1;
}
