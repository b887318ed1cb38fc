/* peek_util.c - what the exec-free lookups (peek_js.c, peek_path.c,
 * peek_py.c, peek_erl.c) and the guards share (peek_int.h): below all
 * of them, so that the dispatcher in peek.c and the shortcuts never
 * import each other.  Thread-safe: no state but the file system. */
#include "peek_int.h"
#include "saferead.h"

#include <ctype.h>
#include <errno.h>
#include <string.h>

extern char **environ;

/* The value of key in env (NULL: our own environment), or NULL. */
const char *peek_env_get(char *const env[], const char *key)
{
	size_t n = strlen(key);
	char *const *e;

	for (e = env ? env : environ; e && *e; e++)
		if (!strncmp(*e, key, n) && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

const char *peek_base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* A run of 1..9 digits without a leading zero (a lone "0" is fine). */
static size_t num_len(const char *s)
{
	size_t n = 0;

	while (isdigit((unsigned char)s[n]))
		n++;
	if (n == 0 || n > 9 || (n > 1 && s[0] == '0'))
		return 0;
	return n;
}

/* "20.11.1": exactly three numbers, the form every version manager uses
 * for a release.  Prereleases and vendor names ("3.13.0rc1", "pypy3.10",
 * "lts") are not plain: we do not guess what they print. */
int peek_version_plain(const char *s, size_t len)
{
	size_t i = 0, n;
	int part;

	for (part = 0; part < 3; part++) {
		if (part) {
			if (i >= len || s[i] != '.')
				return 0;
			i++;
		}
		n = num_len(s + i);
		if (!n || i + n > len)
			return 0;
		i += n;
	}
	return i == len;
}

/* semver as npm writes it into package.json: X.Y.Z[-pre][+build]. */
int peek_version_semver(const char *s)
{
	size_t n = strlen(s), i, dots = 0;

	if (n == 0 || n > PEEK_VERSION_MAX)
		return 0;
	for (i = 0; i < n && s[i] != '-' && s[i] != '+'; i++)
		dots += s[i] == '.';
	if (dots != 2 || !peek_version_plain(s, i))
		return 0;
	for (; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(".-+", s[i]))
			return 0;
	return 1;
}

int peek_put_out(char *out, size_t outlen, const char *v, size_t len)
{
	if (!out || len + 1 > outlen)
		return 0;
	memcpy(out, v, len);
	out[len] = '\0';
	return 1;
}

int peek_read_text(const char *path, size_t cap, struct blob *b, int *missing)
{
	struct saferead_policy p = { SAFEREAD_ANYWHERE, SAFEREAD_NO_NUL, cap };
	struct saferead_error err;

	if (missing)
		*missing = 0;
	if (saferead_file(&p, NULL, path, b, &err) == 0)
		return 0;
	if (missing)
		*missing = err.code == ENOENT || err.code == ENOTDIR;
	return -1;
}
