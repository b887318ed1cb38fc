/* fuzz.c - helpers for the fuzz targets (see fuzz.h) */
#include "fuzz.h"
#include "spec.h"
#include "specfile.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: invariant broken: %s\n", file, line, what);
	abort();
}

char *fuzz_str(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	if (size)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a,
		size_t *alen, const uint8_t **b, size_t *blen)
{
	const uint8_t *nul = size ? memchr(data, 0, size) : NULL;

	*a = data;
	*alen = nul ? (size_t)(nul - data) : size;
	*b = nul ? nul + 1 : data + size;
	*blen = size - *alen - (nul != NULL);
}

/* FUZZ_SCALE_MAX, or 0 (scaling off) when it is not a number */
static size_t scale_max(void)
{
	static size_t max = (size_t)-1;

	if (max == (size_t)-1) {
		const char *e = getenv("FUZZ_SCALE_MAX");
		char *end = NULL;
		unsigned long v = e ? strtoul(e, &end, 10) : 0;

		max = e && *e && end && !*end ? v : 0;
	}
	return max;
}

/* Append src[0..len) to out (n used of max), the slot byte replaced by
 * num when num is not NULL. */
static void scale_add(uint8_t *out, size_t *n, size_t max, const uint8_t *src,
		      size_t len, const char *num)
{
	size_t i, j;

	for (i = 0; i < len && *n < max; i++) {
		if (!num || src[i] != FUZZ_SCALE_SLOT) {
			out[(*n)++] = src[i];
			continue;
		}
		for (j = 0; num[j] && *n < max; j++)
			out[(*n)++] = (uint8_t)num[j];
	}
}

const uint8_t *fuzz_scale(const uint8_t *data, size_t *size, uint8_t **owned)
{
	const uint8_t *part[3] = { NULL, NULL, NULL }, *p, *end, *m;
	size_t len[3] = { 0, 0, 0 }, np = 0, max = scale_max(), n = 0, body, copy;
	size_t slots = 0, i;
	uint8_t *out;

	*owned = NULL;
	if (!max || !*size || data[0] != FUZZ_SCALE_MARK)
		return data;
	/* up to three parts, split at the next marks */
	for (p = data + 1, end = data + *size; np < 3; np++) {
		m = np < 2 ? memchr(p, FUZZ_SCALE_MARK, (size_t)(end - p)) : NULL;
		part[np] = p;
		len[np] = (size_t)((m ? m : end) - p);
		if (!m) {
			np++;
			break;
		}
		p = m + 1;
	}
	/* [unit], [head, unit] or [head, unit, tail] */
	if (np == 1) {
		part[1] = part[0], len[1] = len[0];
		len[0] = 0;
	}
	if (!len[1] || len[0] + len[2] >= max)
		return data;
	out = malloc(max);
	if (!out)
		abort();
	for (i = 0; i < len[1]; i++)
		slots += part[1][i] == FUZZ_SCALE_SLOT;
	scale_add(out, &n, max, part[0], len[0], NULL);
	body = max - len[2];
	for (copy = 0;; copy++) {	/* whole copies only */
		char num[24];
		int k = snprintf(num, sizeof(num), "%zu", copy);

		if (len[1] + slots * ((size_t)k - 1) > body - n)
			break;
		scale_add(out, &n, body, part[1], len[1], num);
	}
	scale_add(out, &n, max, part[2], len[2], NULL);
	*owned = out;
	*size = n;
	return out;
}

int fuzz_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

static char scratch[4096];

static int rm_one(const char *path, const struct stat *st, int type,
		  struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

static void scratch_remove(void)
{
	if (scratch[0])
		nftw(scratch, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void scratch_make(void)
{
	const char *tmp = getenv("TMPDIR");
	char path[4200];
	int n;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	n = snprintf(scratch, sizeof(scratch), "%s/envpreflight-fuzz.XXXXXX", tmp);
	if (n < 0 || (size_t)n >= sizeof(scratch) || !mkdtemp(scratch)) {
		perror("fuzz: mkdtemp");
		abort();
	}
	atexit(scratch_remove);
	snprintf(path, sizeof(path), "%s/repo", scratch);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/config", scratch);
	mkdir(path, 0700);
	setenv("HOME", scratch, 1);
	setenv("XDG_CONFIG_HOME", path, 1);
}

const char *fuzz_repo(void)
{
	static char repo[4200];

	if (!scratch[0])
		scratch_make();
	if (!repo[0])
		snprintf(repo, sizeof(repo), "%s/repo", scratch);
	return repo;
}

/* mkdir -p of the directories in path before its last '/' */
static void make_parents(char *path, size_t from)
{
	char *p;

	for (p = path + from; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST) {
			perror(path);
			abort();
		}
		*p = '/';
	}
}

void fuzz_put(const char *rel, const uint8_t *data, size_t size)
{
	char path[8192];
	int fd, n;

	fuzz_repo();
	n = snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	if (n < 0 || (size_t)n >= sizeof(path))
		abort();
	if (!data) {
		if (unlink(path) < 0 && errno != ENOENT)
			abort();
		return;
	}
	make_parents(path, strlen(scratch) + 1);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		abort();
	}
	while (size) {
		ssize_t w = write(fd, data, size);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			perror(path);
			abort();
		}
		data += w;
		size -= (size_t)w;
	}
	close(fd);
}

static void check_origin(const struct origin *o)
{
	FUZZ_CHECK(o->file != NULL);
}

static void check_model(const struct spec *s, const char *file)
{
	size_t i;
	int found = 0;

	for (i = 0; file && i < s->nfiles; i++)
		found |= !strcmp(s->files[i], file);
	FUZZ_CHECK(found || !file);
	for (i = 0; i < s->nports; i++) {
		const struct port_req *p = &s->ports[i];

		check_origin(&p->origin);
		if (p->kind != PORT_REQ_PORT)
			continue;
		FUZZ_CHECK(p->port >= 1 && p->port <= 65535);
		FUZZ_CHECK(!p->port_last ||
			   (p->port_last > p->port && p->port_last <= 65535));
	}
	for (i = 0; i < s->nruntimes; i++) {
		const struct runtime_req *r = &s->runtimes[i];

		check_origin(&r->origin);
		FUZZ_CHECK(r->name && r->spec);
		/* packageManager is kept as written, its name included: the
		 * runtimes probe refuses a bad one as a failed check
		 * (spec_package.c) */
		if (r->kind != REQ_EXACT || strcmp(r->origin.file, "package.json"))
			FUZZ_CHECK(spec_name_valid(r->name));
	}
	for (i = 0; i < s->ntools; i++) {
		FUZZ_CHECK(spec_name_valid(s->tools[i].name));
		check_origin(&s->tools[i].origin);
	}
	for (i = 0; i < s->env.nrequired; i++)
		FUZZ_CHECK(env_key_valid(s->env.required[i].name));
	for (i = 0; i < s->env.noptional; i++)
		FUZZ_CHECK(env_key_valid(s->env.optional[i].name));
	FUZZ_CHECK(s->timeout_ms >= 0);
}

void fuzz_spec_load(const char *file)
{
	struct spec s;
	struct errbuf err;

	err.msg[0] = '\0';
	if (spec_load_any(fuzz_repo(), &s, &err) < 0) {
		FUZZ_CHECK(err.msg[0] != '\0');
		return;
	}
	check_model(&s, file);
	spec_release(&s);
}
