/* yarnstate.c - yarn's Plug'n'Play install state (.yarn/install-state.gz
 * once gunzipped) and the checksum it keeps of yarn.lock (yarnstate.h).
 *
 * berry's Project.ts persistInstallStateFile writes
 * gzip(v8.serialize(pick(project, INSTALL_STATE_FIELDS))): node's
 * DefaultSerializer, a header (0xFF, version) then one JS object whose
 * fields are Maps, Sets, strings and plain objects.  Only what the deps
 * check needs is kept: lockFileChecksum (restoreInstallState compares it
 * with the lockfile's, setupResolutions: makeHash(INSTALL_STATE_VERSION,
 * content)) and the sizes of accessibleLocators and disabledLocators.
 * Every other value is skipped by its tag (v8's value-serializer.cc);
 * a tag this reader does not know makes the whole state unreadable,
 * never a guess.  Last, package.json's resolutions against yarn.lock.
 */
#include "yarnstate.h"
#include "util.h"

#include <cJSON.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- sha512 (FIPS 180-4), for lockFileChecksum ---- */

static const uint64_t K512[80] = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

struct sha512 {
	uint64_t h[8];
	unsigned char blk[128];
	size_t used;
	uint64_t total;
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))

static void sha512_block(struct sha512 *c, const unsigned char *p)
{
	uint64_t w[80], a, b, cc, d, e, f, g, h, t1, t2;
	int i;

	for (i = 0; i < 16; i++) {
		int j;

		w[i] = 0;
		for (j = 0; j < 8; j++)
			w[i] = (w[i] << 8) | p[i * 8 + j];
	}
	for (i = 16; i < 80; i++) {
		uint64_t s0 = ROR(w[i - 15], 1) ^ ROR(w[i - 15], 8) ^ (w[i - 15] >> 7);
		uint64_t s1 = ROR(w[i - 2], 19) ^ ROR(w[i - 2], 61) ^ (w[i - 2] >> 6);

		w[i] = w[i - 16] + s0 + w[i - 7] + s1;
	}
	a = c->h[0], b = c->h[1], cc = c->h[2], d = c->h[3];
	e = c->h[4], f = c->h[5], g = c->h[6], h = c->h[7];
	for (i = 0; i < 80; i++) {
		t1 = h + (ROR(e, 14) ^ ROR(e, 18) ^ ROR(e, 41)) + ((e & f) ^ (~e & g)) + K512[i] + w[i];
		t2 = (ROR(a, 28) ^ ROR(a, 34) ^ ROR(a, 39)) + ((a & b) ^ (a & cc) ^ (b & cc));
		h = g, g = f, f = e, e = d + t1, d = cc, cc = b, b = a, a = t1 + t2;
	}
	c->h[0] += a, c->h[1] += b, c->h[2] += cc, c->h[3] += d;
	c->h[4] += e, c->h[5] += f, c->h[6] += g, c->h[7] += h;
}

static void sha512_init(struct sha512 *c)
{
	static const uint64_t iv[8] = {
		0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL,
		0xa54ff53a5f1d36f1ULL, 0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL,
		0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL,
	};
	memcpy(c->h, iv, sizeof(iv));
	c->used = 0;
	c->total = 0;
}

static void sha512_update(struct sha512 *c, const void *data, size_t len)
{
	const unsigned char *p = data;

	c->total += len;
	if (c->used) {
		size_t take = 128 - c->used < len ? 128 - c->used : len;

		memcpy(c->blk + c->used, p, take);
		c->used += take;
		p += take;
		len -= take;
		if (c->used < 128)
			return;
		sha512_block(c, c->blk);
		c->used = 0;
	}
	for (; len >= 128; p += 128, len -= 128)
		sha512_block(c, p);
	memcpy(c->blk, p, len);
	c->used = len;
}

static void sha512_hex(struct sha512 *c, char out[129])
{
	uint64_t bits = c->total * 8;
	unsigned char pad = 0x80, zero = 0, len[16];
	int i;

	sha512_update(c, &pad, 1);
	while (c->used != 112)
		sha512_update(c, &zero, 1);
	memset(len, 0, 8);
	for (i = 0; i < 8; i++)
		len[8 + i] = (unsigned char)(bits >> (56 - 8 * i));
	sha512_update(c, len, 16);
	for (i = 0; i < 64; i++)
		snprintf(out + 2 * i, 3, "%02x", (unsigned)(c->h[i / 8] >> (56 - 8 * (i % 8))) & 0xff);
	out[128] = 0;
}

void yarn_lockfile_checksum(const char *version, const char *buf, size_t len, char out[129])
{
	struct sha512 c;

	/* hashUtils.makeHash: the string arguments joined, then hashed */
	sha512_init(&c);
	sha512_update(&c, version, strlen(version));
	sha512_update(&c, buf, len);
	sha512_hex(&c, out);
}

/* ---- v8.deserialize, as far as the install state needs ---- */

struct v8r {
	const unsigned char *p, *end;
	int depth;
};

#define V8_MAX_DEPTH 200

static int v8_varint(struct v8r *r, uint64_t *out)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (r->p < r->end) {
		unsigned char b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80)) {
			*out = v;
			return 0;
		}
		if (shift > 70)
			return -1;
	}
	return -1;
}

static int v8_skip_bytes(struct v8r *r, uint64_t n)
{
	if (n > (uint64_t)(r->end - r->p))
		return -1;
	r->p += n;
	return 0;
}

/* A string's bytes (one-byte latin1, utf8 or two-byte): *s, *n and
 * *wide point into the buffer.  The tag is already read. */
static int v8_string_body(struct v8r *r, unsigned char tag, const unsigned char **s, size_t *n)
{
	uint64_t len;

	(void)tag;
	if (v8_varint(r, &len) < 0 || len > (uint64_t)(r->end - r->p))
		return -1;
	*s = r->p;
	*n = (size_t)len;
	r->p += len;
	return 0;
}

static int v8_skip(struct v8r *r);

static unsigned char v8_tag(struct v8r *r)
{
	/* padding bytes come before a two-byte string to align it */
	while (r->p < r->end && *r->p == 0x00)
		r->p++;
	return r->p < r->end ? *r->p++ : 0xff;
}

/* Values until the end tag end, then its counts (n of them). */
static int v8_skip_until(struct v8r *r, unsigned char end, int counts, size_t *items)
{
	uint64_t x;
	int i;

	if (++r->depth > V8_MAX_DEPTH)
		return -1;
	for (;;) {
		while (r->p < r->end && *r->p == 0x00)
			r->p++;
		if (r->p >= r->end)
			return -1;
		if (*r->p == end) {
			r->p++;
			break;
		}
		if (v8_skip(r) < 0)
			return -1;
		if (items)
			(*items)++;
	}
	for (i = 0; i < counts; i++)
		if (v8_varint(r, &x) < 0)
			return -1;
	r->depth--;
	return 0;
}

static int v8_skip(struct v8r *r)
{
	unsigned char tag = v8_tag(r);
	const unsigned char *s;
	size_t n;
	uint64_t x, i;

	switch (tag) {
	case '_': case '0': case 'T': case 'F': case '-':	/* undefined null true false hole */
		return 0;
	case 'I': case 'U': case '^':	/* int32, uint32, an object seen before */
		return v8_varint(r, &x);
	case 'N': case 'D':		/* double, Date */
		return v8_skip_bytes(r, 8);
	case 'Z':			/* BigInt: bitfield, then its digits */
		if (v8_varint(r, &x) < 0)
			return -1;
		return v8_skip_bytes(r, x / 2);
	case '"': case 'S': case 'c':	/* strings */
		return v8_string_body(r, tag, &s, &n);
	case 'y': case 'x':		/* Boolean objects */
		return 0;
	case 'n':			/* Number object */
		return v8_skip_bytes(r, 8);
	case 's':			/* String object */
		return v8_skip(r);
	case 'R':			/* RegExp: source, flags */
		if (v8_skip(r) < 0)
			return -1;
		return v8_varint(r, &x);
	case 'o':			/* object: key value ... '{' count */
		return v8_skip_until(r, '{', 1, NULL);
	case ';':			/* Map: key value ... ':' 2n */
		return v8_skip_until(r, ':', 1, NULL);
	case '\'':			/* Set: value ... ',' n */
		return v8_skip_until(r, ',', 1, NULL);
	case 'A':			/* dense array: n values, then props '$' */
		if (v8_varint(r, &x) < 0 || ++r->depth > V8_MAX_DEPTH)
			return -1;
		for (i = 0; i < x; i++)
			if (v8_skip(r) < 0)
				return -1;
		r->depth--;
		return v8_skip_until(r, '$', 2, NULL);
	case 'a':			/* sparse array: length, props '@' */
		if (v8_varint(r, &x) < 0)
			return -1;
		return v8_skip_until(r, '@', 2, NULL);
	case 'B':			/* ArrayBuffer */
		if (v8_varint(r, &x) < 0)
			return -1;
		return v8_skip_bytes(r, x);
	case '\\':			/* node's host object: a Buffer (type,
					 * length, bytes: node_serdes.cc) */
		if (v8_varint(r, &i) < 0 || v8_varint(r, &x) < 0)
			return -1;
		return v8_skip_bytes(r, x);
	default:
		return -1;
	}
}

/* A string value (the tag read here): a new string (latin1 or utf8
 * kept as bytes; two-byte strings with their high bytes dropped). */
static char *v8_string(struct v8r *r)
{
	unsigned char tag = v8_tag(r);
	const unsigned char *s;
	size_t n, i;
	char *out;

	if ((tag != '"' && tag != 'S' && tag != 'c') || v8_string_body(r, tag, &s, &n) < 0)
		return NULL;
	if (tag != 'c')
		return xstrndup((const char *)s, n);
	out = xmalloc(n / 2 + 1);
	for (i = 0; i + 1 < n; i += 2)
		out[i / 2] = (char)s[i];
	out[n / 2] = 0;
	return out;
}

/* A Set's size (the tag read here), or -1 when it is not a Set. */
static int v8_set_size(struct v8r *r, size_t *n)
{
	*n = 0;
	if (v8_tag(r) != '\'')
		return -1;
	return v8_skip_until(r, ',', 1, n);
}

/* accessibleLocators: a Set of locator hashes, kept (st->locs and its
 * index).  -1 when it is not a Set of strings. */
static int v8_locators(struct v8r *r, struct yarn_install_state *st)
{
	uint64_t x;

	if (v8_tag(r) != '\'')
		return -1;
	for (;;) {
		char *h;

		while (r->p < r->end && *r->p == 0x00)
			r->p++;
		if (r->p >= r->end)
			return -1;
		if (*r->p == ',') {
			r->p++;
			return v8_varint(r, &x);
		}
		if (!(h = v8_string(r)))
			return -1;
		grow(&st->locs, sizeof(*st->locs), &st->locs_cap, st->nlocs + 1);
		st->locs[st->nlocs++] = h;
		strmap_put(&st->index, h, strlen(h), st->nlocs - 1);
	}
}

/* A virtual package's base: berry's structUtils.devirtualizeLocator,
 * makeLocator(locator, reference.replace(/^[^#]*#/, "")), whose
 * locatorHash is makeHash(identHash, that reference).  A new string,
 * or NULL when reference is not "virtual:<entropy>#<base reference>". */
static char *devirtual_hash(const char *ident_hash, const char *reference)
{
	const char *hash = reference ? strchr(reference, '#') : NULL;
	struct sha512 c;
	char *out;

	if (!ident_hash || !hash || strncmp(reference, "virtual:", 8))
		return NULL;
	out = xmalloc(129);
	sha512_init(&c);
	sha512_update(&c, ident_hash, strlen(ident_hash));
	sha512_update(&c, hash + 1, strlen(hash + 1));
	sha512_hex(&c, out);
	return out;
}

/* One field of a Package object (its key k read): the dependencies
 * Map's size into *items (*have set), identHash and reference kept
 * (*ident, *ref), every other value skipped.  0, or -1. */
static int v8_package_field(struct v8r *r, const char *k, size_t *items, int *have,
			    char **ident, char **ref)
{
	char **keep = !strcmp(k, "identHash") ? ident : !strcmp(k, "reference") ? ref : NULL;

	if (!strcmp(k, "dependencies") && r->p < r->end && *r->p == ';') {
		r->p++;
		*have = 1;
		return v8_skip_until(r, ':', 1, items);
	}
	if (keep && r->p < r->end && (*r->p == '"' || *r->p == 'S' || *r->p == 'c')) {
		free(*keep);
		*keep = v8_string(r);
		return *keep ? 0 : -1;
	}
	return v8_skip(r);
}

/* storedPackages: a Map of locator hash -> Package object; of each, the
 * size of its dependencies Map is kept (st->deps, by hash), and of a
 * virtual package the hash of its base (devirtual_hash). */
static int v8_packages(struct v8r *r, struct yarn_install_state *st)
{
	uint64_t x;

	if (v8_tag(r) != ';')
		return -1;
	for (;;) {
		char *h, *ident = NULL, *ref = NULL, *base;
		size_t items = 0;
		int have = 0, bad = 0;

		while (r->p < r->end && *r->p == 0x00)
			r->p++;
		if (r->p >= r->end)
			return -1;
		if (*r->p == ':') {
			r->p++;
			return v8_varint(r, &x);
		}
		if (!(h = v8_string(r)))
			return -1;
		if (v8_tag(r) != 'o') {
			/* a reference to a package seen before: not kept */
			free(h);
			r->p--;
			if (v8_skip(r) < 0)
				return -1;
			continue;
		}
		for (;;) {
			char *k;
			int rc;

			while (r->p < r->end && *r->p == 0x00)
				r->p++;
			if (r->p >= r->end || *r->p == '{')
				break;
			k = v8_string(r);
			rc = k ? v8_package_field(r, k, &items, &have, &ident, &ref) : -1;
			free(k);
			if (rc < 0) {
				bad = 1;
				break;
			}
		}
		if (bad || r->p >= r->end || (r->p++, v8_varint(r, &x) < 0)) {
			free(h);
			free(ident);
			free(ref);
			return -1;
		}
		base = devirtual_hash(ident, ref);
		free(ident);
		free(ref);
		ident = ref = NULL;
		if (!have) {
			free(h);
			free(base);
			continue;
		}
		grow(&st->pkgs, sizeof(*st->pkgs), &st->pkgs_cap, st->npkgs + 1);
		st->pkgs[st->npkgs].hash = h;
		st->pkgs[st->npkgs].base = base;
		st->pkgs[st->npkgs].ndeps = items / 2;
		strmap_put(&st->pkg_index, h, strlen(h), st->npkgs);
		st->npkgs++;
	}
}

/* berry's structUtils.makeIdent / makeLocator: identHash is
 * makeHash(scope, name) (a null scope adds nothing), locatorHash
 * makeHash(identHash, reference). */
void yarn_locator_hash(const char *locator, char out[129])
{
	const char *at = *locator ? strchr(locator + 1, '@') : NULL;
	const char *slash;
	struct sha512 c;
	char ident[129];

	if (!at)
		at = locator + strlen(locator);
	sha512_init(&c);
	if (locator[0] == '@' && (slash = memchr(locator, '/', (size_t)(at - locator)))) {
		sha512_update(&c, locator + 1, (size_t)(slash - locator - 1));
		sha512_update(&c, slash + 1, (size_t)(at - slash - 1));
	} else {
		sha512_update(&c, locator, (size_t)(at - locator));
	}
	sha512_hex(&c, ident);
	sha512_init(&c);
	sha512_update(&c, ident, 128);
	if (*at)
		sha512_update(&c, at + 1, strlen(at + 1));
	sha512_hex(&c, out);
}

long yarn_install_state_deps(const struct yarn_install_state *st, const char *locator)
{
	char h[129];
	size_t i;

	yarn_locator_hash(locator, h);
	i = strmap_get((struct strmap *)&st->pkg_index, h, 128);
	return i == STRMAP_NONE ? -1 : (long)st->pkgs[i].ndeps;
}

int yarn_install_state_has(const struct yarn_install_state *st, const char *locator)
{
	char h[129];

	yarn_locator_hash(locator, h);
	return strmap_get((struct strmap *)&st->index, h, 128) != STRMAP_NONE;
}

/* A package with peer dependencies is reached only through its
 * virtuals: Project.ts resolveEverything (applyVirtualResolutionMutations)
 * adds the virtual locator, virtualizePackage(pkg, parent), to
 * accessibleLocators in place of the dependency and never visits the
 * base package, which stays in storedPackages (with the virtual, whose
 * reference is "virtual:<entropy>#<base reference>").  So the base of
 * every accessible virtual is accessible too: added to locs and index
 * (st->accessible stays the Set's own size). */
static void accessible_bases(struct yarn_install_state *st)
{
	size_t i;

	for (i = 0; i < st->npkgs; i++) {
		const char *b = st->pkgs[i].base, *h = st->pkgs[i].hash;

		if (!b || strmap_get(&st->index, h, strlen(h)) == STRMAP_NONE ||
		    strmap_get(&st->index, b, strlen(b)) != STRMAP_NONE)
			continue;
		grow(&st->locs, sizeof(*st->locs), &st->locs_cap, st->nlocs + 1);
		st->locs[st->nlocs++] = xstrdup(b);
		strmap_put(&st->index, st->locs[st->nlocs - 1], strlen(b), st->nlocs - 1);
	}
}

int yarn_install_state_parse(const unsigned char *buf, size_t len, struct yarn_install_state *st)
{
	struct v8r r = { buf, buf + len, 0 };
	uint64_t ver;

	memset(st, 0, sizeof(*st));
	/* the header: 0xFF and the serializer's version */
	if (len < 3 || buf[0] != 0xff)
		return -1;
	r.p++;
	if (v8_varint(&r, &ver) < 0 || v8_tag(&r) != 'o')
		return -1;
	for (;;) {
		char *key;
		int rc = 0;

		while (r.p < r.end && *r.p == 0x00)
			r.p++;
		if (r.p >= r.end) {
			yarn_install_state_release(st);
			return -1;
		}
		if (*r.p == '{')
			break;
		if (!(key = v8_string(&r))) {
			yarn_install_state_release(st);
			return -1;
		}
		if (!strcmp(key, "lockFileChecksum") && r.p < r.end && *r.p != '0' && *r.p != '_') {
			free(st->lockfile_checksum);
			st->lockfile_checksum = v8_string(&r);
			rc = st->lockfile_checksum ? 0 : -1;
		} else if (!strcmp(key, "accessibleLocators")) {
			rc = v8_locators(&r, st);
			st->accessible = st->nlocs;
		} else if (!strcmp(key, "storedPackages")) {
			rc = v8_packages(&r, st);
		} else if (!strcmp(key, "disabledLocators")) {
			rc = v8_set_size(&r, &st->disabled);
		} else {
			rc = v8_skip(&r);
		}
		free(key);
		if (rc < 0) {
			yarn_install_state_release(st);
			return -1;
		}
	}
	st->found = 1;
	accessible_bases(st);
	return 0;
}

void yarn_install_state_release(struct yarn_install_state *st)
{
	size_t i;

	free(st->lockfile_checksum);
	for (i = 0; i < st->nlocs; i++)
		free(st->locs[i]);
	free(st->locs);
	strmap_release(&st->index);
	for (i = 0; i < st->npkgs; i++) {
		free(st->pkgs[i].hash);
		free(st->pkgs[i].base);
	}
	free(st->pkgs);
	strmap_release(&st->pkg_index);
	memset(st, 0, sizeof(*st));
}

/* ---- package.json's resolutions against yarn.lock ---- */

/* The '@' between a descriptor's name and its range, or NULL. */
static const char *desc_at(const char *d)
{
	return *d ? strchr(d + 1, '@') : NULL;
}

/* One resolutions entry, as berry's parseResolution reads its key. */
struct resolution {
	const char *key, *value;
	const char *name;	/* the target's name (nlen bytes, in key) */
	size_t nlen;
	char *range;		/* the target's range, or NULL: any */
	char *parent;		/* the parent's name, or NULL: any */
};

/* A resolutions key ("**\/a/b@^1", "@s/a/b") into res.  -1 when it is
 * not one this reader knows. */
static int resolution_key(const char *k, struct resolution *res)
{
	const char *seg[2], *p;
	size_t nseg = 0, i;

	res->range = res->parent = NULL;
	while (!strncmp(k, "**/", 3))	/* the legacy glob: yarn strips it */
		k += 3;
	for (p = k; *p && nseg < 2;) {
		const char *e = p;

		seg[nseg++] = p;
		if (*e == '@')
			e = strchr(e, '/') ? strchr(e, '/') + 1 : e + strlen(e);
		e += strcspn(e, "/");
		p = *e ? e + 1 : e;
		if (*e && !*p)
			return -1;
	}
	if (!nseg || *p)
		return -1;
	p = seg[nseg - 1];
	res->name = p;
	res->nlen = strcspn(p + 1, "@") + 1;
	if (p[res->nlen] == '@')
		res->range = xstrdup(p + res->nlen + 1);
	if (nseg == 2) {
		i = (size_t)(seg[1] - seg[0] - 1);
		res->parent = xstrndup(seg[0], strcspn(seg[0] + 1, "@") + 1 < i ?
				       strcspn(seg[0] + 1, "@") + 1 : i);
	}
	return *res->name ? 0 : -1;
}

/* Whether the resolution applies to entry e's dependency d. */
static int resolution_matches(const struct resolution *res, const struct yarn_entry *e,
			      const struct yarn_dep *d)
{
	const char *at = e->resolution ? desc_at(e->resolution) : NULL;
	char *a, *b;
	int same;

	if (d->peer || !d->name || strlen(d->name) != res->nlen ||
	    strncmp(d->name, res->name, res->nlen))
		return 0;
	if (res->parent && (!at || strlen(res->parent) != (size_t)(at - e->resolution) ||
			    strncmp(e->resolution, res->parent, (size_t)(at - e->resolution))))
		return 0;
	if (!res->range)
		return 1;
	a = yarn_descriptor(d->name, res->nlen, d->range ? d->range : "");
	b = yarn_descriptor(d->name, res->nlen, res->range);
	same = !strcmp(a, b);
	free(a);
	free(b);
	return same;
}

/* Whether the resolution applies to a dependency the lockfile lists. */
static int resolution_applies(const struct yarn_lock *y, const struct resolution *res)
{
	size_t i, j;

	for (i = 0; i < y->n; i++)
		for (j = 0; j < y->v[i].ndeps; j++)
			if (resolution_matches(res, &y->v[i], &y->v[i].deps[j]))
				return 1;
	return 0;
}

/* *why: "<a><b><c>", a new string. */
static void resolutions_why(char **why, const char *a, const char *b, const char *c)
{
	struct buf m = BUF_INIT;

	buf_puts(&m, a);
	buf_puts(&m, b);
	buf_puts(&m, c);
	*why = buf_detach(&m);
}

/* A dependency the lockfile does not resolve (yarn_lock_parse: to is
 * none; a resolution overrode it) that no resolution covers now: the
 * next install resolves it.  1 with *why, else 0. */
static int unresolved_dep(const struct yarn_lock *y, const struct resolution *res, size_t nres,
			  char **why)
{
	size_t i, j, k;

	for (i = 0; i < y->n; i++)
		for (j = 0; j < y->v[i].ndeps; j++) {
			const struct yarn_dep *d = &y->v[i].deps[j];
			char *desc;

			if (d->peer || d->to != STRMAP_NONE || !d->name || !d->range)
				continue;
			for (k = 0; k < nres; k++)
				if (resolution_matches(&res[k], &y->v[i], d))
					break;
			if (k < nres)
				continue;
			desc = yarn_descriptor(d->name, strlen(d->name), d->range);
			resolutions_why(why, desc, " (a dependency of ",
					y->v[i].resolution ? y->v[i].resolution : "?");
			free(desc);
			return 1;
		}
	return 0;
}

int yarn_resolutions_differ(const char *buf, size_t len, const struct yarn_lock *y, char **why)
{
	cJSON *root = cJSON_ParseWithLength(buf, len), *obj, *it;
	struct resolution *res = NULL;
	size_t nres = 0, cap = 0, i;
	int n = 0, unknown = 0;

	*why = NULL;
	if (!cJSON_IsObject(root)) {
		cJSON_Delete(root);
		return -1;
	}
	obj = cJSON_GetObjectItemCaseSensitive(root, "resolutions");
	if (!cJSON_IsObject(obj))
		obj = NULL;
	cJSON_ArrayForEach(it, obj) {
		struct resolution r;
		char *d;

		r.key = it->string;
		r.value = cJSON_GetStringValue(it);
		if (!r.value || !r.key || resolution_key(r.key, &r) < 0) {
			unknown = 1;
			continue;
		}
		grow(&res, sizeof(*res), &cap, nres + 1);
		res[nres++] = r;
		/* only a registry range is judged: another protocol's
		 * descriptor may be bound to its parent (file:, portal:,
		 * patch: take "::locator=") */
		if (n || (strchr(r.value, ':') && strncmp(r.value, "npm:", 4)))
			continue;
		d = yarn_descriptor(r.name, r.nlen, r.value);
		if (strmap_get((struct strmap *)&y->desc, d, strlen(d)) == STRMAP_NONE &&
		    resolution_applies(y, &r)) {
			resolutions_why(why, r.key, ": ", r.value);
			n = 1;
		}
		free(d);
	}
	/* a resolution removed: the dependency it overrode has no entry */
	if (!n && !unknown && unresolved_dep(y, res, nres, why))
		n = 2;
	for (i = 0; i < nres; i++) {
		free(res[i].range);
		free(res[i].parent);
	}
	free(res);
	cJSON_Delete(root);
	return n;
}
