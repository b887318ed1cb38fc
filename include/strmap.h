/* strmap.h - a string -> index hash table, for parsers that must not turn
 * quadratic on hostile input (a .tool-versions of 100,000 tools, a YAML
 * file of 50,000 anchors): lookups and inserts in O(1) on average.
 *
 * Keys are borrowed, not copied: each must stay valid and unchanged as
 * long as the map is used (they point into the caller's own entries).
 * The hash is seeded per map from addresses that ASLR randomises, so that
 * a file cannot be crafted to make every key collide.  Pure: no system
 * call, no global state.
 */
#ifndef EP_STRMAP_H
#define EP_STRMAP_H

#include <stddef.h>
#include <stdint.h>

#define STRMAP_NONE ((size_t)-1)

struct strmap_slot {
	const char *key;	/* NULL: free */
	size_t len;
	uint64_t hash;
	size_t value;
};

struct strmap {
	struct strmap_slot *slots;
	size_t mask;		/* slots - 1; the size is a power of two */
	size_t n;		/* keys held */
	size_t probes;		/* slots looked at, ever: what the work cost
				 * (tests assert it stays linear) */
	uint64_t seed;		/* set with the first slots */
};

#define STRMAP_INIT { NULL, 0, 0, 0, 0 }

/* The value for key[0..len), or STRMAP_NONE. */
size_t strmap_get(struct strmap *m, const char *key, size_t len);
/* Map key[0..len) to value, replacing what it mapped to. */
void strmap_put(struct strmap *m, const char *key, size_t len, size_t value);
/* Room for n keys without a rehash (a count known beforehand: each
 * doubling is a new table to fill and page in). */
void strmap_reserve(struct strmap *m, size_t n);
void strmap_release(struct strmap *m);

#endif
