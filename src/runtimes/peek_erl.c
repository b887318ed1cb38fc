/* peek_erl.c - Erlang/OTP's version without running erl (which would
 * start an Erlang shell: there is no version flag).
 *
 * Every OTP install, the system's (/usr/lib/erlang), kerl's under asdf
 * (~/.asdf/installs/erlang/26.2.5) or mise's, keeps the full release in
 * releases/<major>/OTP_VERSION ("26.2.5\n"), a few directories above the
 * real erl (bin/erl, or erts-X/bin/erl).  The newest one found there is
 * the version.  A shim (asdf's, mise's) resolves to no install: 0.
 */
#include "peek_int.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define OTP_UP 3		/* lib/erlang/erts-14.2/bin/erl: three up */

/* "26.2.5", "26.2.5.3", "25": digits and single dots. */
static int otp_version_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n >= PEEK_VERSION_MAX || s[0] == '.' || s[n - 1] == '.')
		return 0;
	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && s[i + 1] != '.')))
			return 0;
	return 1;
}

/* a > b as dotted numbers. */
static int otp_newer(const char *a, const char *b)
{
	while (*a || *b) {
		unsigned long x = strtoul(a, (char **)&a, 10);
		unsigned long y = strtoul(b, (char **)&b, 10);

		if (x != y)
			return x > y;
		a += *a == '.';
		b += *b == '.';
	}
	return 0;
}

/* The newest releases/<N>/OTP_VERSION under dir into best. */
static void otp_releases(const char *dir, char *best, size_t len)
{
	char *rel = path_join(dir, "releases");
	DIR *d = opendir(rel);
	struct dirent *e;

	while (d && (e = readdir(d)) != NULL) {
		char *sub, *file;
		struct blob b;

		if (e->d_name[0] == '.' || strspn(e->d_name, "0123456789") !=
		    strlen(e->d_name))
			continue;
		sub = path_join(rel, e->d_name);
		file = path_join(sub, "OTP_VERSION");
		if (peek_read_text(file, PEEK_SMALL_CAP, &b, NULL) == 0) {
			size_t n = strcspn(b.data, "\r\n");

			if (otp_version_ok(b.data, n) && n < len &&
			    (!*best || otp_newer(b.data, best))) {
				memcpy(best, b.data, n);
				best[n] = '\0';
			}
			blob_release(&b);
		}
		free(file);
		free(sub);
	}
	if (d)
		closedir(d);
	free(rel);
}

int peek_erlang_lookup(const char *c, char *out, size_t outlen)
{
	char best[PEEK_VERSION_MAX] = "";
	char *dir = xstrdup(c);
	int up;

	for (up = 0; up <= OTP_UP && !*best; up++) {
		char *slash = strrchr(dir, '/');

		if (!slash || slash == dir)
			break;
		*slash = '\0';
		otp_releases(dir, best, sizeof(best));
	}
	free(dir);
	return *best && peek_put_out(out, outlen, best, strlen(best));
}
