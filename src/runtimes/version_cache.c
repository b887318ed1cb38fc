/* version_cache.c - the version cache of peek.h: what a binary printed, so that
 * a second run spawns nothing.
 *
 * One text file, $XDG_CACHE_HOME/envpreflight/versions (XDG_CACHE_HOME
 * only when absolute, else ~/.cache), one entry a line:
 *
 *   envpreflight-vcache 2
 *   NAME \t CANONICAL-PATH \t DEV \t INO \t SIZE \t MTIME-S \t MTIME-NS
 *        \t CTIME-S \t CTIME-NS \t CONTEXT \t VERSION
 *
 * CONTEXT is "-", or the SHA-256 (hex) of what, besides the binary, picks
 * the version a toolchain reports (struct version_context: go.mod's
 * toolchain line, rust-toolchain.toml, packageManager, the variables and
 * files each reads; runtime_select.c), so that such a binary is cached
 * per context.  A file of version 1 is thrown away as any other that does
 * not parse.
 *
 * An entry matches only when every field of the key matches the binary as
 * it is now; the change time is in the key as well, so that a binary
 * rewritten in place with its mtime put back is still a miss.
 *
 * Without a context, only binaries whose answer cannot depend on the
 * repository are cached: ELF executables (a script can dispatch on
 * anything) that are not a known dispatcher (mise, volta-shim, rustup's
 * proxies, ...), whose name matches the file they resolve to (a
 * multi-call binary behind a symlink called "node" is a dispatcher), and
 * not toolchains that switch version per project on their own (go reads
 * go.mod's toolchain line, dotnet global.json, rustup
 * rust-toolchain.toml).  With one, such a toolchain is cached too, a
 * script when the context says its interpreter and inputs are in it, and
 * a version manager's shim (rbenv's, asdf's, mise's) when it holds what
 * the manager reads.
 *
 * Trust: the directory must be ours (owner, not group- or world-writable)
 * and the file a regular file of ours, opened without following a
 * symlink; the whole file is thrown away on any line that does not parse,
 * and versions must look like versions.  Failures of any kind make a miss
 * or a skipped write, never an error: the cache is only ever a shortcut.
 *
 * Writes are read-modify-write under an flock() on a side file (so that
 * concurrent runs do not lose each other's entries), into a temporary file
 * renamed over the old one (so that a reader sees the old file or the new
 * one, never half of one).  Readers take no lock.  A mutex keeps the
 * threads of one process in line as well.  No fsync: a file torn by a
 * crash is just a corrupt cache, which is ignored and rewritten.
 */
#include "peek.h"
#include "digest.h"
#include "saferead.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define VERSION_CACHE_DIR "envpreflight"
#define VERSION_CACHE_FILE "versions"
#define VERSION_CACHE_LOCK "versions.lock"
#define VERSION_CACHE_MAGIC "envpreflight-vcache 2\n"
#define VERSION_CACHE_NO_CONTEXT "-"
#define VERSION_CACHE_CAP (256 * 1024)		/* a hostile huge file is a miss */
#define VERSION_CACHE_ENTRIES 256		/* oldest entries go first */
#define VERSION_CACHE_VERSION_MAX 64
#define VERSION_CACHE_NAME_MAX 64
#define VERSION_CACHE_LOCK_MS 200		/* wait no longer for another writer */
/* Contexts kept for one binary: each edit to a go.mod or a package.json
 * is a new one, and the old ones must not push out every other binary */
#define VERSION_CACHE_CONTEXTS 8

struct ventry {
	char name[VERSION_CACHE_NAME_MAX + 1];
	char *path;			/* canonical; owned */
	unsigned long long dev, ino, size, mtime_s, mtime_ns, ctime_s, ctime_ns;
	char context[65];		/* hex SHA-256, or "-" */
	char version[VERSION_CACHE_VERSION_MAX + 1];
};

struct vtable {
	struct ventry *v;
	size_t n, cap;
};

static pthread_mutex_t version_cache_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long version_cache_seq;	/* temporary file names; under the lock */
static unsigned version_cache_hits, version_cache_misses, version_cache_stores;	/* under the lock */

static void vtable_release(struct vtable *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* ---- what may be stored ---- */

/* "20.11.1", "v20.11.1", "3.13.0rc1", "1.22.1+build": starts with a digit
 * (after an optional 'v'), then digits, letters and . + - _ only. */
static int version_ok(const char *s, size_t n)
{
	size_t i = s[0] == 'v';

	if (n == 0 || n > VERSION_CACHE_VERSION_MAX || i >= n ||
	    !isdigit((unsigned char)s[i]))
		return 0;
	for (; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(".+-_", s[i]))
			return 0;
	return 1;
}

static int name_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n > VERSION_CACHE_NAME_MAX)
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr(".+-_", s[i]))
			return 0;
	return 1;
}

/* An absolute path without control characters (tab and newline are the
 * file's separators). */
static int path_ok(const char *s, size_t n)
{
	size_t i;

	if (n == 0 || n >= PATH_MAX || s[0] != '/')
		return 0;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return 0;
	return 1;
}

static const char *base_name(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

/* Names whose binaries pick a version per project by themselves. */
static const char *const never_cached[] = {
	"go", "gofmt", "dotnet", "cargo", "rustc", "rustup", "rustfmt",
	"rustdoc", "rust-analyzer", "cargo-clippy", "clippy-driver",
};

/* Multi-call dispatchers that version managers put behind a runtime's
 * name (the file a shim symlink resolves to). */
static const char *const dispatchers[] = {
	"mise", "rtx", "volta", "volta-shim", "proto", "proto-shim", "asdf",
	"rustup", "pkgx", "aqua", "busybox", "nodenv", "pyenv", "fnm",
};

static int listed(const char *s, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s, list[i]))
			return 1;
	return 0;
}

/* The leading letters of a file name: "python3.11" -> 6 ("python"). */
static size_t stem_len(const char *s)
{
	size_t n = 0;

	while (isalpha((unsigned char)s[n]))
		n++;
	return n;
}

/* The name the binary was found under and the file it resolves to are
 * the same program: one stem is a prefix of the other ("python3" and
 * "python3.11", "nodejs" and "node"), which a dispatcher's is not. */
static int same_program(const char *link, const char *canon)
{
	const char *a = base_name(link), *b = base_name(canon);
	size_t la = stem_len(a), lb = stem_len(b);

	return la && lb && !strncmp(a, b, la < lb ? la : lb);
}

/* ---- the key ---- */

/* The context's digest into e: "-" without one. */
static void context_key(const struct version_context *ctx, struct ventry *e)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char d[32];
	size_t i;

	if (!ctx) {
		memcpy(e->context, VERSION_CACHE_NO_CONTEXT, sizeof(VERSION_CACHE_NO_CONTEXT));
		return;
	}
	digest_sha256((const unsigned char *)ctx->text, strlen(ctx->text), d);
	for (i = 0; i < sizeof(d); i++) {
		e->context[2 * i] = hex[d[i] >> 4];
		e->context[2 * i + 1] = hex[d[i] & 15];
	}
	e->context[64] = '\0';
}

/* Fill e's key from the binary at path (in ctx, or NULL): 1 when it may
 * be cached.  A context lifts the rules it answers for: a toolchain that
 * picks its version per project, rustup's proxies and, when
 * ctx->script_ok, a script; any other dispatcher stays out, and the file
 * must still be the program its name says. */
static int key_of(const char *name, const char *path,
		  const struct version_context *ctx, struct ventry *e)
{
	unsigned char magic[4];
	struct stat st;
	ssize_t n;
	char *c;
	int fd, ok = 0, proxy;

	memset(e, 0, sizeof(*e));
	if (!name || !path || path[0] != '/' || !name_ok(name, strlen(name)) ||
	    (!ctx && (listed(name, never_cached, ARRAY_SIZE(never_cached)) ||
		      listed(base_name(path), never_cached, ARRAY_SIZE(never_cached)))))
		return 0;
	c = realpath(path, NULL);
	if (!c)
		return 0;
	/* rustup's proxies and the version managers' shims: the context
	 * holds what rustup or the manager reads; any other dispatcher reads
	 * what no context names */
	proxy = ctx && (ctx->shim_ok || !strcmp(base_name(c), "rustup"));
	if (!path_ok(c, strlen(c)) || (!(ctx && ctx->shim_ok) && strstr(c, "/shims/")) ||
	    (!proxy && (listed(base_name(c), dispatchers, ARRAY_SIZE(dispatchers)) ||
			!same_program(path, c))) ||
	    (!ctx && listed(base_name(c), never_cached, ARRAY_SIZE(never_cached)))) {
		free(c);
		return 0;
	}
	fd = open(c, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		do
			n = read(fd, magic, sizeof(magic));
		while (n < 0 && errno == EINTR);
		ok = n == 4 && (!memcmp(magic, "\177ELF", 4) ||
				(ctx && (ctx->script_ok || ctx->shim_ok) &&
				 !memcmp(magic, "#!", 2)));
	}
	if (fd >= 0)
		close(fd);
	if (!ok || st.st_mtim.tv_sec < 0 || st.st_ctim.tv_sec < 0) {
		free(c);
		return 0;
	}
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->path = c;
	e->dev = (unsigned long long)st.st_dev;
	e->ino = (unsigned long long)st.st_ino;
	e->size = (unsigned long long)st.st_size;
	e->mtime_s = (unsigned long long)st.st_mtim.tv_sec;
	e->mtime_ns = (unsigned long long)st.st_mtim.tv_nsec;
	e->ctime_s = (unsigned long long)st.st_ctim.tv_sec;
	e->ctime_ns = (unsigned long long)st.st_ctim.tv_nsec;
	context_key(ctx, e);
	return 1;
}

/* The same binary in the same context: one entry each. */
static int same_binary(const struct ventry *a, const struct ventry *b)
{
	return !strcmp(a->name, b->name) && !strcmp(a->path, b->path) &&
	       !strcmp(a->context, b->context);
}

static int same_key(const struct ventry *a, const struct ventry *b)
{
	return same_binary(a, b) && a->dev == b->dev && a->ino == b->ino &&
	       a->size == b->size && a->mtime_s == b->mtime_s &&
	       a->mtime_ns == b->mtime_ns && a->ctime_s == b->ctime_s &&
	       a->ctime_ns == b->ctime_ns;
}

/* ---- the file ---- */

/* The cache directory, opened (created 0700 when create is set), or -1.
 * It must be a directory of ours that nobody else can write to. */
static int dir_open(int create)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct buf base = BUF_INIT;
	struct stat st;
	int bfd, fd;

	if (xdg && xdg[0] == '/')
		buf_puts(&base, xdg);
	else if (home && home[0] == '/')
		buf_printf(&base, "%s/.cache", home);
	else
		return -1;
	if (create)
		mkdir(buf_str(&base), 0700);
	bfd = open(buf_str(&base), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	buf_release(&base);
	if (bfd < 0)
		return -1;
	if (create)
		mkdirat(bfd, VERSION_CACHE_DIR, 0700);
	fd = openat(bfd, VERSION_CACHE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	close(bfd);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* "-" or 64 lower-case hex digits. */
static int context_ok(const char *s)
{
	size_t n = strlen(s);

	return !strcmp(s, VERSION_CACHE_NO_CONTEXT) ||
	       (n == 64 && strspn(s, "0123456789abcdef") == n);
}

/* Parse one line "f0\tf1...\tf10" (without its '\n') into e: 0 or -1. */
static int line_parse(char *s, size_t len, struct ventry *e)
{
	char *f[11], *end;
	unsigned long long *num[7] = {
		&e->dev, &e->ino, &e->size, &e->mtime_s, &e->mtime_ns,
		&e->ctime_s, &e->ctime_ns,
	};
	size_t i, nf = 0;

	f[nf++] = s;
	for (i = 0; i < len; i++) {
		if (s[i] != '\t')
			continue;
		if (nf == 11)
			return -1;
		s[i] = '\0';
		f[nf++] = s + i + 1;
	}
	s[len] = '\0';
	if (nf != 11 || !name_ok(f[0], strlen(f[0])) ||
	    !path_ok(f[1], strlen(f[1])) || !context_ok(f[9]) ||
	    !version_ok(f[10], strlen(f[10])))
		return -1;
	for (i = 0; i < 7; i++) {
		if (!isdigit((unsigned char)f[2 + i][0]))
			return -1;
		errno = 0;
		*num[i] = strtoull(f[2 + i], &end, 10);
		if (errno || *end)
			return -1;
	}
	if (e->mtime_ns > 999999999 || e->ctime_ns > 999999999)
		return -1;
	memcpy(e->name, f[0], strlen(f[0]) + 1);
	memcpy(e->context, f[9], strlen(f[9]) + 1);
	memcpy(e->version, f[10], strlen(f[10]) + 1);
	e->path = xstrdup(f[1]);
	return 0;
}

/* Parse the whole file: 0 with t filled, or -1 (t left empty) when any of
 * it is not what we write: a wrong header, a line cut short, a bad field,
 * a NUL byte, too many entries. */
static int table_parse(char *data, size_t len, struct vtable *t)
{
	size_t ml = strlen(VERSION_CACHE_MAGIC), pos;

	if (len < ml || memcmp(data, VERSION_CACHE_MAGIC, ml) || memchr(data, '\0', len))
		return -1;
	for (pos = ml; pos < len;) {
		char *nl = memchr(data + pos, '\n', len - pos);
		struct ventry e;

		if (!nl || t->n == VERSION_CACHE_ENTRIES)
			goto bad;
		memset(&e, 0, sizeof(e));
		if (line_parse(data + pos, (size_t)(nl - (data + pos)), &e) < 0)
			goto bad;
		grow(&t->v, sizeof(*t->v), &t->cap, t->n + 1);
		t->v[t->n++] = e;
		pos = (size_t)(nl - data) + 1;
	}
	return 0;
bad:
	vtable_release(t);
	return -1;
}

/* Read and parse the cache file in dfd: 0, or -1 when there is none that
 * we can trust. */
static int table_load(int dfd, struct vtable *t)
{
	struct stat st;
	char *data;
	size_t len = 0;
	int fd, r;

	fd = openat(dfd, VERSION_CACHE_FILE, O_RDONLY | O_NOFOLLOW | O_CLOEXEC |
		    O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size > VERSION_CACHE_CAP) {
		close(fd);
		return -1;
	}
	data = xmalloc(VERSION_CACHE_CAP + 2);
	for (;;) {
		ssize_t n = read(fd, data + len, VERSION_CACHE_CAP + 1 - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
		if (len > VERSION_CACHE_CAP)
			break;
	}
	close(fd);
	r = len > VERSION_CACHE_CAP ? -1 : table_parse(data, len, t);
	free(data);
	return r;
}

static void table_format(const struct vtable *t, struct buf *b)
{
	size_t i;

	buf_puts(b, VERSION_CACHE_MAGIC);
	for (i = 0; i < t->n; i++) {
		const struct ventry *e = &t->v[i];

		buf_printf(b, "%s\t%s\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%llu\t%s\t%s\n",
			   e->name, e->path, e->dev, e->ino, e->size,
			   e->mtime_s, e->mtime_ns, e->ctime_s, e->ctime_ns,
			   e->context, e->version);
	}
}

/* Write t to a new file and rename it over the cache: 0 or -1. */
static int table_store(int dfd, const struct vtable *t)
{
	struct buf b = BUF_INIT;
	char tmp[64];
	int fd, r;

	snprintf(tmp, sizeof(tmp), VERSION_CACHE_FILE ".tmp.%ld.%lu", (long)getpid(),
		 ++version_cache_seq);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		    0600);
	if (fd < 0)
		return -1;
	table_format(t, &b);
	r = write_all(fd, b.s, b.len);
	buf_release(&b);
	if (close(fd) < 0)
		r = -1;
	if (r == 0)
		r = renameat(dfd, tmp, dfd, VERSION_CACHE_FILE);
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	return r;
}

/* flock the side file, polling so that a writer that hangs (stopped, on a
 * dead NFS server) cannot hang us: the fd, or -1 after VERSION_CACHE_LOCK_MS. */
static int lock_take(int dfd)
{
	double until = clock_ms() + VERSION_CACHE_LOCK_MS;
	int fd = openat(dfd, VERSION_CACHE_LOCK, O_RDWR | O_CREAT | O_NOFOLLOW |
			O_CLOEXEC | O_NONBLOCK, 0600);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		struct timespec ts = { 0, 1000000L };

		if ((errno != EWOULDBLOCK && errno != EINTR) || clock_ms() > until) {
			close(fd);
			return -1;
		}
		nanosleep(&ts, NULL);
	}
	return fd;
}

/* ---- the interface ---- */

int version_cache_get(const char *name, const char *path, char *out, size_t outlen)
{
	return version_cache_get_in(name, path, NULL, out, outlen);
}

void version_cache_put(const char *name, const char *path, const char *version)
{
	version_cache_put_in(name, path, NULL, version);
}

int version_cache_get_in(const char *name, const char *path,
			 const struct version_context *ctx, char *out, size_t outlen)
{
	struct vtable t = { NULL, 0, 0 };
	struct ventry key;
	size_t i;
	int dfd, hit = 0;

	if (!out || !outlen || !key_of(name, path, ctx, &key))
		return 0;
	dfd = dir_open(0);
	if (dfd >= 0 && table_load(dfd, &t) == 0) {
		for (i = t.n; i-- > 0 && !hit;) {
			size_t n = strlen(t.v[i].version);

			if (!same_key(&t.v[i], &key) || n + 1 > outlen)
				continue;
			memcpy(out, t.v[i].version, n + 1);
			hit = 1;
		}
	}
	if (dfd >= 0)
		close(dfd);
	vtable_release(&t);
	free(key.path);
	pthread_mutex_lock(&version_cache_lock);
	if (hit)
		version_cache_hits++;
	else
		version_cache_misses++;
	pthread_mutex_unlock(&version_cache_lock);
	return hit;
}

void version_cache_put_in(const char *name, const char *path,
			  const struct version_context *ctx, const char *version)
{
	struct vtable t = { NULL, 0, 0 };
	struct ventry e;
	size_t i, keep;
	int dfd, lfd;

	if (!version || !version_ok(version, strlen(version)) ||
	    !key_of(name, path, ctx, &e))
		return;
	memcpy(e.version, version, strlen(version) + 1);
	pthread_mutex_lock(&version_cache_lock);
	dfd = dir_open(1);
	lfd = dfd >= 0 ? lock_take(dfd) : -1;
	if (lfd >= 0) {
		if (table_load(dfd, &t) < 0)
			vtable_release(&t);	/* corrupt or absent: start over */
		/* drop what this binary had before in this context, its
		 * oldest contexts past their cap, and the oldest past the cap */
		size_t others = 0;

		for (i = 0; i < t.n; i++)
			others += !strcmp(t.v[i].name, e.name) && !strcmp(t.v[i].path, e.path) &&
				  !same_binary(&t.v[i], &e);
		for (i = keep = 0; i < t.n; i++) {
			int sibling = !strcmp(t.v[i].name, e.name) &&
				      !strcmp(t.v[i].path, e.path) &&
				      !same_binary(&t.v[i], &e);

			if (same_binary(&t.v[i], &e) ||
			    (sibling && others >= VERSION_CACHE_CONTEXTS && others--) ||
			    t.n - i >= VERSION_CACHE_ENTRIES) {
				free(t.v[i].path);
				continue;
			}
			t.v[keep++] = t.v[i];
		}
		t.n = keep;
		grow(&t.v, sizeof(*t.v), &t.cap, t.n + 1);
		t.v[t.n++] = e;
		e.path = NULL;
		if (table_store(dfd, &t) == 0)
			version_cache_stores++;
		close(lfd);
	}
	if (dfd >= 0)
		close(dfd);
	pthread_mutex_unlock(&version_cache_lock);
	vtable_release(&t);
	free(e.path);
}

void version_cache_describe(struct version_cache_info *info)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	struct buf dir = BUF_INIT;
	int dfd;

	memset(info, 0, sizeof(*info));
	if (xdg && xdg[0] == '/')
		buf_printf(&dir, "%s/%s", xdg, VERSION_CACHE_DIR);
	else if (home && home[0] == '/')
		buf_printf(&dir, "%s/.cache/%s", home, VERSION_CACHE_DIR);
	info->dir = dir.s ? buf_detach(&dir) : NULL;
	dfd = info->dir ? dir_open(0) : -1;
	if (dfd >= 0) {
		struct vtable t = { NULL, 0, 0 };

		info->state = table_load(dfd, &t) == 0 ? VERSION_CACHE_READY : VERSION_CACHE_EMPTY;
		info->entries = t.n;
		vtable_release(&t);
		close(dfd);
	} else if (info->dir && errno == ENOENT) {
		info->state = VERSION_CACHE_EMPTY;
	} else {
		info->state = VERSION_CACHE_UNAVAILABLE;
	}
	pthread_mutex_lock(&version_cache_lock);
	info->hits = version_cache_hits;
	info->misses = version_cache_misses;
	info->stores = version_cache_stores;
	pthread_mutex_unlock(&version_cache_lock);
}

void version_cache_counters(unsigned *hits, unsigned *misses, unsigned *stores)
{
	pthread_mutex_lock(&version_cache_lock);
	*hits = version_cache_hits;
	*misses = version_cache_misses;
	*stores = version_cache_stores;
	pthread_mutex_unlock(&version_cache_lock);
}
