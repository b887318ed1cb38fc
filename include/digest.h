/* digest.h - SHA-256 and MD5 of bytes, base64 (src/parse/digest.c). */
#ifndef EP_DIGEST_H
#define EP_DIGEST_H

#include <stddef.h>

/* The SHA-256 of p[0..n) into out (FIPS 180-4). */
void digest_sha256(const unsigned char *p, size_t n, unsigned char out[32]);
/* The MD5 of p[0..n) into out (RFC 1321): pnpm 8 and 9's checksums. */
void digest_md5(const unsigned char *p, size_t n, unsigned char out[16]);

/* Standard base64 (RFC 4648, '=' padding optional) of s[0..n) into out
 * (at most cap bytes): the length, or -1 for a text that is not base64
 * or does not fit. */
long digest_base64_decode(const char *s, size_t n, unsigned char *out, size_t cap);

#endif
