/* npm_cache.c - a packument from npm's cache (npm_cache.h).
 *
 * The layout is cacache's (lib/entry-index.js, lib/content/path.js) under
 * the key make-fetch-happen gives a request (lib/cache/key.js):
 *
 *   index-v5/<sha256 of the key, as aa/bb/rest>   lines "\n<sha1>\t<JSON>",
 *                                                 appended; the last one
 *                                                 whose "key" is the key
 *                                                 wins, and its integrity
 *                                                 null means deleted
 *   content-v2/sha512/<hex digest, as aa/bb/rest> the body
 *
 * The key is "make-fetch-happen:request-cache:" and the URL.  A line's
 * sha1 is not checked (no SHA-1 here): a line that is not JSON, or not an
 * entry, is skipped as cacache skips one whose sha1 is wrong.
 */
#include "npm_cache.h"
#include "digest.h"
#include "saferead.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NPM_INDEX_CAP (1024 * 1024)
#define NPM_PACKUMENT_CAP (64 * 1024 * 1024)	/* a popular package's is ~30 MiB */

/* hex as cacache's hashToSegments: "aa/bb/rest". */
static void segments(struct buf *b, const unsigned char *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf_printf(b, "%s%02x", i == 1 || i == 2 ? "/" : "", d[i]);
}

/* The integrity of the last entry of bucket text for key, or NULL (none,
 * or deleted): a new string. */
static char *bucket_find(const char *text, size_t len, const char *key)
{
	const char *s = text, *end = text + len;
	char *found = NULL;

	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s)), *tab;
		const char *e = nl ? nl : end;
		cJSON *j;

		tab = memchr(s, '\t', (size_t)(e - s));
		if (tab && (j = cJSON_ParseWithLength(tab + 1, (size_t)(e - tab - 1)))) {
			const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "key");
			const cJSON *in = cJSON_GetObjectItemCaseSensitive(j, "integrity");

			if (cJSON_IsString(k) && !strcmp(k->valuestring, key)) {
				free(found);
				found = cJSON_IsString(in) ? xstrdup(in->valuestring) : NULL;
			}
			cJSON_Delete(j);
		}
		s = e + 1;
	}
	return found;
}

int npm_cache_packument(const char *cacache, const char *url, struct blob *out)
{
	unsigned char d[64];
	struct buf key = BUF_INIT, path = BUF_INIT;
	struct blob idx;
	char *integrity = NULL;
	const char *b64;
	long n;
	int rc = -1;

	out->data = NULL;
	out->len = 0;
	buf_printf(&key, "make-fetch-happen:request-cache:%s", url);
	digest_sha256((const unsigned char *)key.s, key.len, d);
	buf_printf(&path, "%s/index-v5/", cacache);
	segments(&path, d, 32);
	if (saferead_path(buf_str(&path), NPM_INDEX_CAP, &idx) < 0)
		goto out;
	integrity = bucket_find(idx.data, idx.len, buf_str(&key));
	blob_release(&idx);
	/* ssri: "sha512-<base64>", the one algorithm npm's cache writes */
	if (!integrity || strncmp(integrity, "sha512-", 7))
		goto out;
	b64 = integrity + 7;
	n = digest_base64_decode(b64, strcspn(b64, " ?"), d, sizeof(d));
	if (n != 64)
		goto out;
	path.len = 0;
	buf_printf(&path, "%s/content-v2/sha512/", cacache);
	segments(&path, d, 64);
	rc = saferead_path(buf_str(&path), NPM_PACKUMENT_CAP, out);
out:
	free(integrity);
	buf_release(&key);
	buf_release(&path);
	return rc < 0 ? -1 : 0;
}
