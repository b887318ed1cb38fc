/* strmap.c - see strmap.h: open addressing with linear probing, kept at
 * most half full. */
#include "strmap.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* its address varies with ASLR; its value is never used */
static const char seed_anchor;

/* murmur3's 64-bit finaliser: every input bit moves every output bit */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 33;
	return h;
}

/* FNV-1a from a seeded basis, then mixed with the seed */
static uint64_t hash_of(const struct strmap *m, const char *s, size_t len)
{
	uint64_t h = 14695981039346656037ULL ^ m->seed;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return mix(h ^ m->seed);
}

/* The slot holding key, or the free slot where it would go. */
static struct strmap_slot *find(struct strmap *m, const char *key, size_t len,
				uint64_t h)
{
	size_t k = (size_t)h & m->mask;

	for (;;) {
		struct strmap_slot *s = &m->slots[k];

		m->probes++;
		if (!s->key || (s->hash == h && s->len == len &&
				!memcmp(s->key, key, len)))
			return s;
		k = (k + 1) & m->mask;
	}
}

static void rehash(struct strmap *m, size_t size)
{
	struct strmap_slot *old = m->slots;
	size_t i, oldsize = m->slots ? m->mask + 1 : 0;

	m->slots = xcalloc(size, sizeof(*m->slots));
	m->mask = size - 1;
	for (i = 0; i < oldsize; i++)
		if (old[i].key)
			*find(m, old[i].key, old[i].len, old[i].hash) = old[i];
	free(old);
}

size_t strmap_get(struct strmap *m, const char *key, size_t len)
{
	struct strmap_slot *s;

	if (!m->n)
		return STRMAP_NONE;
	s = find(m, key, len, hash_of(m, key, len));
	return s->key ? s->value : STRMAP_NONE;
}

/* The first slots, and the seed: where the heap and this code were
 * placed, random per run. */
static void start(struct strmap *m, size_t size)
{
	rehash(m, size);
	m->seed = mix((uint64_t)(uintptr_t)m->slots ^ ((uint64_t)(uintptr_t)&seed_anchor << 17));
}

void strmap_reserve(struct strmap *m, size_t n)
{
	size_t size = 16;

	while (size / 2 < n + 1 && size < ((size_t)1 << 40))
		size *= 2;
	if (!m->slots)
		start(m, size);
	else if (size > m->mask + 1)
		rehash(m, size);
}

void strmap_put(struct strmap *m, const char *key, size_t len, size_t value)
{
	struct strmap_slot *s;
	uint64_t h;

	if (!m->slots) {
		start(m, 16);
	} else if (2 * (m->n + 1) > m->mask + 1) {
		rehash(m, 2 * (m->mask + 1));
	}
	h = hash_of(m, key, len);
	s = find(m, key, len, h);
	if (!s->key) {
		s->key = key;
		s->len = len;
		s->hash = h;
		m->n++;
	}
	s->value = value;
}

void strmap_release(struct strmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
