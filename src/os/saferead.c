/* saferead.c - see saferead.h */
#include "saferead.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

const struct saferead_policy saferead_spec = {
	SAFEREAD_BENEATH, SAFEREAD_UTF8, SPEC_FILE_CAP
};

/* The test switches (saferead_test_setup); set before any thread runs. */
static int use_openat2 = 1, use_proc_fd = 1;
/* Set once openat2 said ENOSYS or EPERM (an old kernel, a seccomp filter,
 * valgrind): not asked again.  Any thread may set it. */
static _Atomic int no_openat2;
static void (*test_between)(void *);
static void *test_arg;

void saferead_test_setup(int openat2_on, int proc_fd_on,
			 void (*between)(void *arg), void *arg)
{
	use_openat2 = openat2_on;
	use_proc_fd = proc_fd_on;
	test_between = between;
	test_arg = arg;
}

#define READ_FLAGS (O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)

static int fail(struct saferead_error *err, int code)
{
	err->code = code;
	return -1;
}

/* Step 1: an O_PATH descriptor of the file (of the symlink itself with
 * NOFOLLOW).  *kernel_beneath tells that openat2 has already kept it
 * below dfd.  -1 with errno. */
static int open_path(const struct saferead_policy *p, int dfd, const char *name,
		     int *kernel_beneath)
{
	int flags = O_PATH | O_CLOEXEC;

	if (p->where == SAFEREAD_BENEATH_NOFOLLOW)
		flags |= O_NOFOLLOW;
	*kernel_beneath = 0;
	if (p->where != SAFEREAD_ANYWHERE && use_openat2 && !no_openat2) {
		struct open_how how;
		int tries;
		long fd;

		memset(&how, 0, sizeof(how));
		how.flags = (unsigned long long)flags;
		how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
		/* EAGAIN: a rename raced with a ".." lookup; the kernel
		 * asks for a retry */
		for (tries = 0; tries < 3; tries++) {
			fd = syscall(SYS_openat2, dfd, name, &how, sizeof(how));
			if (fd >= 0) {
				*kernel_beneath = 1;
				return (int)fd;
			}
			if (errno != EAGAIN)
				break;
		}
		if (errno == ENOSYS || errno == EPERM)
			no_openat2 = 1;
		/* Any refusal falls through to the plain open, whose result
		 * is judged by where the file is: ENOSYS or EPERM (no
		 * openat2, or a seccomp filter), and EXDEV, which
		 * RESOLVE_BENEATH also gives for an absolute symlink or a
		 * ".." that would still land inside. */
	}
	return openat(dfd, name, flags);
}

/* fd's entry in /proc/self/fd: relative to procfd (that directory, open)
 * when there is one, else the whole path. */
static const char *proc_fd_name(int procfd, int fd, char *buf, size_t size)
{
	snprintf(buf, size, procfd >= 0 ? "%d" : "/proc/self/fd/%d", fd);
	return buf;
}

/* The path the kernel gives for an open descriptor, into buf: 0, or -1
 * when /proc/self/fd cannot tell (not mounted, or turned off). */
static int fd_path(int procfd, int fd, char *buf, size_t size)
{
	char link[64];
	ssize_t n;

	if (!use_proc_fd)
		return -1;
	n = readlinkat(procfd >= 0 ? procfd : AT_FDCWD,
		       proc_fd_name(procfd, fd, link, sizeof(link)), buf, size - 1);
	if (n <= 0 || (size_t)n >= size - 1 || buf[0] != '/')
		return -1;
	buf[n] = '\0';
	return 0;
}

/* Is the file open as pfd (stat st), reached as dir/name, inside dir?
 * 1 yes, 0 no, -1 it changed under us (EAGAIN). */
static int is_beneath(int procfd, int pfd, const struct stat *st, const char *dir,
		      const char *name)
{
	char where[PATH_MAX];
	char *path, *real;
	struct stat rs;
	int inside;

	if (fd_path(procfd, pfd, where, sizeof(where)) == 0)
		return path_is_inside(where, dir);
	/* No /proc: the canonical path of the name must be inside and be
	 * this very file.  A swap after our open changes the inode; only a
	 * hard link inside dir could pass, and that file is inside. */
	path = path_join(dir, name);
	real = realpath(path, NULL);
	free(path);
	if (!real)
		return -1;
	inside = path_is_inside(real, dir);
	if (inside && (stat(real, &rs) < 0 || rs.st_dev != st->st_dev ||
		       rs.st_ino != st->st_ino))
		inside = -1;
	free(real);
	return inside;
}

/* Step 3: a descriptor for reading the very inode pfd names.  -1 with
 * errno (EAGAIN when the name now leads elsewhere). */
static int reopen(int procfd, int pfd, const struct stat *st, int dfd, const char *name,
		  int nofollow)
{
	struct stat rs;
	char link[64];
	int fd = -1;

	if (use_proc_fd) {
		fd = openat(procfd >= 0 ? procfd : AT_FDCWD,
			    proc_fd_name(procfd, pfd, link, sizeof(link)), READ_FLAGS);
		if (fd < 0 && errno != ENOENT)
			return -1;
	}
	if (fd < 0)
		fd = openat(dfd, name, READ_FLAGS | (nofollow ? O_NOFOLLOW : 0));
	if (fd < 0)
		return -1;
	if (fstat(fd, &rs) < 0 || rs.st_dev != st->st_dev || rs.st_ino != st->st_ino) {
		close(fd);
		errno = EAGAIN;
		return -1;
	}
	return fd;
}

/* Read all of fd, at most cap bytes, into out.  0, or -1 with errno.  A
 * hint of 0 (every /proc file's st_size) starts with a page: a sysctl
 * answers only a read at offset 0 (kernel/sysctl.c proc_dointvec: *ppos
 * set is end of file), so a first read of one byte would be all of it. */
static int read_all(int fd, size_t hint, size_t cap, struct blob *out)
{
	size_t len = 0, alloc = hint ? hint + 1 : 4096;
	char *data = xmalloc(alloc + 1);

	for (;;) {
		ssize_t n;

		if (len == alloc) {
			if (len > cap) {
				free(data);
				errno = EFBIG;
				return -1;
			}
			alloc *= 2;
			data = xrealloc(data, alloc + 1);
		}
		n = read(fd, data + len, alloc - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(data);
			errno = e;
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	/* st_size was a hint only: the file may have grown meanwhile */
	if (len > cap) {
		free(data);
		errno = EFBIG;
		return -1;
	}
	data[len] = '\0';
	out->data = data;
	out->len = len;
	return 0;
}

static int check_text(const struct saferead_policy *p, struct blob *out,
		      struct saferead_error *err)
{
	if (p->text == SAFEREAD_NO_NUL && memchr(out->data, '\0', out->len)) {
		err->what = "NUL byte";
		err->line = err->col = 0;
		return fail(err, EILSEQ);
	}
	if (p->text != SAFEREAD_UTF8)
		return 0;
	if (text_check(out->data, out->len, &err->line, &err->col, &err->what) < 0)
		return fail(err, EILSEQ);
	if (out->len >= 3 && !memcmp(out->data, "\xef\xbb\xbf", 3)) {
		memmove(out->data, out->data + 3, out->len - 3 + 1);
		out->len -= 3;
	}
	return 0;
}

/* The judgement of step 2, on the open descriptor: 0, or an error code. */
static int judge(const struct saferead_policy *p, int procfd, int pfd,
		 const struct stat *st, int kernel_beneath, const char *dir, const char *name)
{
	if (S_ISLNK(st->st_mode))
		return ELOOP;	/* NOFOLLOW: the symlink itself was opened */
	if (p->where != SAFEREAD_ANYWHERE && !kernel_beneath) {
		int in = is_beneath(procfd, pfd, st, dir, name);

		if (in <= 0)
			return in < 0 ? EAGAIN : EXDEV;
	}
	if (S_ISDIR(st->st_mode))
		return EISDIR;
	if (!S_ISREG(st->st_mode))
		return EINVAL;
	if ((unsigned long long)st->st_size > p->cap)
		return EFBIG;
	return 0;
}

/* Steps 1 to 3 for name relative to dfd (the directory dir, open, or
 * AT_FDCWD); procfd: /proc/self/fd open, or -1.  err and out start cleared. */
static int read_at(const struct saferead_policy *p, int dfd, int procfd, const char *dir,
		   const char *name, struct blob *out, struct saferead_error *err)
{
	int pfd, fd = -1, beneath, code, rc = -1;
	struct stat st;

	pfd = open_path(p, dfd, name, &beneath);
	if (pfd < 0) {
		struct stat ls;

		code = errno;
		/* for the message only: the name's own kind */
		err->symlink = fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
			       S_ISLNK(ls.st_mode);
		goto out_code;
	}
	if (test_between)
		test_between(test_arg);
	if (fstat(pfd, &st) < 0) {
		code = errno;
		goto out_code;
	}
	code = judge(p, procfd, pfd, &st, beneath, dir, name);
	if (code == EXDEV) {
		struct stat ls;

		err->symlink = fstatat(dfd, name, &ls, AT_SYMLINK_NOFOLLOW) == 0 &&
			       S_ISLNK(ls.st_mode);
	}
	if (code)
		goto out_code;
	fd = reopen(procfd, pfd, &st, dfd, name, p->where == SAFEREAD_BENEATH_NOFOLLOW);
	if (fd < 0 || read_all(fd, (size_t)st.st_size, p->cap, out) < 0) {
		code = errno;
		goto out_code;
	}
	rc = check_text(p, out, err);
	if (rc < 0)
		blob_release(out);
	goto out;
out_code:
	fail(err, code);
out:
	if (fd >= 0)
		close(fd);
	if (pfd >= 0)
		close(pfd);
	return rc;
}

static void start(struct saferead_error *err, struct blob *out)
{
	memset(err, 0, sizeof(*err));
	out->data = NULL;
	out->len = 0;
}

int saferead_file(const struct saferead_policy *p, const char *dir,
		  const char *name, struct blob *out, struct saferead_error *err)
{
	struct saferead_error dummy;
	int dfd = AT_FDCWD, rc;

	if (!err)
		err = &dummy;
	start(err, out);
	if (p->where != SAFEREAD_ANYWHERE && !dir)
		return fail(err, EINVAL);
	if (dir) {
		dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return fail(err, errno);
	}
	rc = read_at(p, dfd, -1, dir, name, out, err);
	if (dfd >= 0)
		close(dfd);
	return rc;
}

int saferead_dir_open(struct saferead_dir *d, const char *dir)
{
	d->dir = dir;
	d->dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	d->code = d->dfd < 0 ? errno : 0;
	/* without it, each read names /proc/self/fd/N whole */
	d->procfd = use_proc_fd ? open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
	return d->dfd < 0 ? -1 : 0;
}

int saferead_dir_file(const struct saferead_dir *d, const struct saferead_policy *p,
		      const char *name, struct blob *out, struct saferead_error *err)
{
	struct saferead_error dummy;

	if (!err)
		err = &dummy;
	start(err, out);
	if (d->dfd < 0)
		return fail(err, d->code);
	return read_at(p, d->dfd, d->procfd, d->dir, name, out, err);
}

void saferead_dir_close(struct saferead_dir *d)
{
	if (d->dfd >= 0)
		close(d->dfd);
	if (d->procfd >= 0)
		close(d->procfd);
	d->dfd = d->procfd = -1;
}

int saferead_path(const char *path, size_t cap, struct blob *out)
{
	struct saferead_policy p = { SAFEREAD_ANYWHERE, SAFEREAD_BYTES, cap };
	struct saferead_error err;

	if (saferead_file(&p, NULL, path, out, &err) == 0)
		return 0;
	errno = err.code;
	return -1;
}

const char *saferead_strerror(int code)
{
	/* redundant, until someone changes the cap but not the message */
	/* NOLINTNEXTLINE(misc-redundant-expression) */
	_Static_assert(SPEC_FILE_CAP == 1024 * 1024, "the message names the limit");

	switch (code) {
	case EFBIG:
		return "larger than the 1024 KiB limit";
	case EISDIR:
		return "is a directory, expected a file";
	case EINVAL:
		return "not a regular file";
	case EXDEV:
		return "outside the repository";
	case EAGAIN:
		return "replaced while it was being read";
	default:
		return strerror(code);
	}
}

int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(fd, s, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}
