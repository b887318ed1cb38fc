/* nvm_aliases.c - the half of nodelts.h that reads the system: today's
 * date (the clock, or ENVPREFLIGHT_TODAY) and nvm's own alias files; and
 * nvmrc_resolve_lts, which asks them and lets the pure nvmrc.c settle the
 * answer.  The dated table itself is src/parse/nodelts.c.
 */
#include "nodelts.h"
#include "nvmrc.h"
#include "saferead.h"
#include "util.h"

#include <dirent.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

long nodelts_today(void)
{
	const char *env = getenv("ENVPREFLIGHT_TODAY");
	time_t now = time(NULL);
	struct tm tm;
	long d;

	if (env && nodelts_date_parse(env, &d) == 0)
		return d;
	if (!gmtime_r(&now, &tm))
		return nodelts_last()->lts;
	return (long)(tm.tm_year + 1900) * 10000 + (tm.tm_mon + 1) * 100 + tm.tm_mday;
}

/* ---- nvm ---- */

char *nodelts_nvm_dir(void)
{
	const char *env = getenv("NVM_DIR"), *home = getenv("HOME");
	struct stat st;
	char *dir, *sh;
	int ok;

	if (env && env[0] == '/')
		return xstrdup(env);
	if (!home || home[0] != '/')
		return NULL;
	dir = path_join(home, ".nvm");
	sh = path_join(dir, "nvm.sh");
	ok = stat(sh, &st) == 0 && S_ISREG(st.st_mode);
	free(sh);
	if (!ok) {
		free(dir);
		return NULL;
	}
	return dir;
}

#define ALIAS_CAP 4096		/* an alias file holds one short line */
#define ALIAS_HOPS 8		/* lts/<star> -> lts/lithium -> v26.1.0 */

/* The first line of an alias file as nvm_alias prints it: '#' to the end
 * of a line cut, blank lines skipped, trailing blanks trimmed.  1 with
 * out set; 0 when the file is missing (or not a small regular file);
 * -1 when it holds no line. */
static int alias_read(const char *path, char *out, size_t outlen)
{
	struct blob b;
	const char *p;
	int rc = -1;

	if (saferead_path(path, ALIAS_CAP, &b) < 0)
		return 0;
	for (p = b.data; p < b.data + b.len && rc < 0;) {
		size_t n = strcspn(p, "\n"), k;
		const char *hash = memchr(p, '#', n);

		k = hash ? (size_t)(hash - p) : n;
		while (k && strchr(" \t\r\f\v", p[k - 1]))
			k--;
		if (k && strspn(p, " \t\r\f\v") < k && k < outlen) {
			memcpy(out, p, k);
			out[k] = '\0';
			rc = 1;
		}
		p += n + 1;
	}
	blob_release(&b);
	return rc;
}

static int name_ok(const char *s)
{
	size_t i;

	if (!*s || !strcmp(s, ".") || !strcmp(s, ".."))
		return 0;
	for (i = 0; s[i]; i++)
		if (s[i] == '/' || (unsigned char)s[i] < 0x20)
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* nvm_normalize_lts for "lts/-N": `ls alias/lts | tail -n N+1 | head -n 1`,
 * which only works because codenames are chosen in alphabetical order.
 * 1 with the codename in out, 0 when there is no such directory, -1 with
 * err when the entry reached is the "*" alias itself. */
static int alias_back(const char *ltsdir, unsigned long n, char *out,
		      size_t outlen, char *err, size_t errlen)
{
	DIR *d = opendir(ltsdir);
	struct dirent *e;
	char **names = NULL;
	size_t count = 0, cap = 0, i;
	int rc;

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		grow(&names, sizeof(*names), &cap, count + 1);
		names[count++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (count)	/* names is NULL when the directory was empty */
		qsort(names, count, sizeof(*names), cmp_str);
	/* tail shows every entry when there are fewer: head takes the first */
	i = n + 1 <= count ? count - (n + 1) : 0;
	if (!count || !strcmp(names[i], "*") || strlen(names[i]) >= outlen ||
	    !name_ok(names[i])) {
		snprintf(err, errlen, "nvm has %s LTS aliases: 'That many LTS "
			 "releases do not exist yet'", count ? "too few" : "no");
		rc = -1;
	} else {
		memcpy(out, names[i], strlen(names[i]) + 1);
		rc = 1;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	free(names);
	return rc;
}

/* nvm_resolve_alias from "lts/<first>": follow alias files until one is
 * missing; the last value is the answer. */
static int alias_chain(const char *aliasdir, const char *first,
		       struct nodelts_nvm *out, char *err, size_t errlen)
{
	char cur[80], next[80];
	char *seen[ALIAS_HOPS + 1];
	size_t nseen = 0, i;
	int rc = 0, hop;

	snprintf(cur, sizeof(cur), "lts/%s", first);
	seen[nseen++] = xstrdup(cur);
	for (hop = 0; hop < ALIAS_HOPS; hop++) {
		char *path = path_join(aliasdir, cur);
		int r = name_ok(cur + (strncmp(cur, "lts/", 4) ? 0 : 4)) ?
			alias_read(path, next, sizeof(next)) : 0;

		if (r <= 0) {
			free(path);
			if (r < 0) {
				snprintf(err, errlen, "nvm's alias %s is empty", cur);
				rc = -1;
			}
			break;
		}
		free(out->file);
		out->file = path;
		for (i = 0; i < nseen; i++)
			if (!strcmp(seen[i], next))
				break;
		if (i < nseen) {
			snprintf(err, errlen, "nvm's aliases loop (%s)", next);
			rc = -1;
			break;
		}
		if (nseen < ARRAY_SIZE(seen))
			seen[nseen++] = xstrdup(next);
		if (!strncmp(next, "lts/", 4) && strlen(next + 4) < sizeof(out->codename))
			memcpy(out->codename, next + 4, strlen(next + 4) + 1);
		memcpy(cur, next, strlen(next) + 1);
		rc = 1;
	}
	if (rc > 0 && cur[0] == 'v' && strlen(cur) < sizeof(out->version))
		memcpy(out->version, cur, strlen(cur) + 1);
	else if (rc > 0) {
		snprintf(err, errlen, "nvm's alias lts/%s names no version "
			 "('%.40s')", first, cur);
		rc = -1;
	}
	for (i = 0; i < nseen; i++)
		free(seen[i]);
	return rc;
}

int nodelts_nvm_resolve(const char *dir, const char *alias, struct nodelts_nvm *out,
			char *err, size_t errlen)
{
	char *aliasdir, *ltsdir, *star;
	char name[40];
	struct stat st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (!dir || !alias)
		return 0;
	aliasdir = path_join(dir, "alias");
	ltsdir = path_join(aliasdir, "lts");
	star = path_join(ltsdir, "*");
	/* nvm writes lts/<star> with every lts/<codename>: without it, nvm
	 * has never listed the LTS lines */
	if (stat(star, &st) < 0 || !S_ISREG(st.st_mode)) {
		rc = 0;
	} else if (alias[0] == '-') {
		rc = alias_back(ltsdir, strtoul(alias + 1, NULL, 10), name,
				sizeof(name), err, errlen);
		if (rc > 0) {
			memcpy(out->codename, name, strlen(name) + 1);
			rc = alias_chain(aliasdir, name, out, err, errlen);
		}
	} else {
		if (strcmp(alias, "*") && strlen(alias) < sizeof(out->codename))
			memcpy(out->codename, alias, strlen(alias) + 1);
		rc = alias_chain(aliasdir, alias, out, err, errlen);
	}
	free(star);
	free(ltsdir);
	free(aliasdir);
	if (rc <= 0) {
		free(out->file);
		out->file = NULL;
		if (rc == 0)
			memset(out, 0, sizeof(*out));
	}
	return rc;
}

int nvmrc_resolve_lts(struct nvmrc *n, long today, const char *nvm_dir,
		      char *err, size_t errlen)
{
	struct nodelts_nvm nv;
	char alias[40], why[200] = "";
	int rc = 0;

	memset(&nv, 0, sizeof(nv));
	if (!nvmrc_lts_alias(n, alias, sizeof(alias)))
		return 0;
	if (nvm_dir)
		rc = nodelts_nvm_resolve(nvm_dir, alias, &nv, why, sizeof(why));
	rc = nvmrc_lts_settle(n, today, rc, &nv, why, err, errlen);
	nodelts_nvm_release(&nv);
	return rc;
}
