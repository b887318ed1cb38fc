/* semver.h - npm's semver: versions, ranges and satisfies, exactly as
 * node-semver 7.x (checked against 7.8.6) evaluates them.
 *
 * npm's install-time engines check is
 *     semver.satisfies(version, range, { includePrerelease: true })
 * and this module gives the same answer, the same canonical range text
 * (validRange) and the same idea of what is invalid, loose mode included.
 *
 * Parsers never print and never exit: invalid input is a -1 or NULL return.
 * Every parser has a (buffer, length) form for fuzzing; the plain forms
 * take a NUL-terminated string.
 */
#ifndef EP_SEMVER_H
#define EP_SEMVER_H

#include <stddef.h>

enum {
	SEMVER_LOOSE = 1,		/* node-semver { loose: true } */
	SEMVER_INCLUDE_PRERELEASE = 2,	/* { includePrerelease: true } */
};

/* Room for any semver_format() result: a version is at most 256 characters
 * and normalising it adds at most one. */
#define SEMVER_TEXT_MAX 320

/* One prerelease identifier.  is_num is set where node-semver turns the
 * identifier into a number (all digits, value below 2^53-1); num is then its
 * value.  Otherwise it is compared as text. */
struct semver_id {
	const char *s;		/* points into semver.pre; not NUL-terminated */
	size_t len;
	int is_num;
	unsigned long long num;
};

struct semver {
	unsigned long long major, minor, patch;	/* each <= 2^53-1 */
	char *pre;		/* normalised prerelease "alpha.1", NULL if none */
	struct semver_id *ids;	/* the nids identifiers of pre */
	size_t nids;
};
#define SEMVER_INIT { 0, 0, 0, NULL, NULL, 0 }

/* Parse one version (node-semver's new SemVer(s, opts)): strict "1.2.3",
 * "v1.2.3", surrounding whitespace; loose also "=1.2.3", "v 1.2.3",
 * "1.2.3beta", leading zeros.  Build metadata is accepted and dropped.
 * Returns 0 and fills *out (release it with semver_release), or -1 with
 * *out left empty.  Only SEMVER_LOOSE matters in opts. */
int semver_parse(const char *s, unsigned opts, struct semver *out);
int semver_parse_mem(const char *s, size_t len, unsigned opts,
		     struct semver *out);
void semver_release(struct semver *v);

/* -1, 0 or 1 as node-semver's compare(): build metadata is ignored, a
 * release sorts above its prereleases. */
int semver_compare(const struct semver *a, const struct semver *b);

/* The normalised text ("1.2.3-alpha.1", no build metadata) written into
 * buf, truncated to size like snprintf; returns buf. */
char *semver_format(const struct semver *v, char *buf, size_t size);

/* A parsed range (node-semver's new Range(s, opts)), opaque.  NULL when the
 * range is invalid.  Linear in the length of s; the caller frees the result
 * with semver_range_free. */
struct semver_range;
struct semver_range *semver_range_parse(const char *s, unsigned opts);
struct semver_range *semver_range_parse_mem(const char *s, size_t len,
					    unsigned opts);
void semver_range_free(struct semver_range *r);

/* 1 when v satisfies r.  SEMVER_INCLUDE_PRERELEASE in opts turns off the
 * prerelease exclusion rule; pass the opts the range was parsed with to get
 * node-semver's satisfies(). */
int semver_satisfies(const struct semver *v, const struct semver_range *r,
		     unsigned opts);

/* validRange's canonical text, e.g. ">=1.0.0 <2.0.0-0||>=3.0.0", or "*"
 * for a range that matches any release.  The caller frees it. */
char *semver_range_format(const struct semver_range *r);

/* satisfies(version, range, opts) on strings; 0 when either is invalid. */
int semver_satisfies_str(const char *version, const char *range,
			 unsigned opts);

/* node-semver's intersects(a, b) (no options): some comparator set of a
 * and one of b whose comparators pairwise intersect. */
int semver_range_intersects(const struct semver_range *a, const struct semver_range *b);

#endif
