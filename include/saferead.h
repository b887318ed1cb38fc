/* saferead.h - the one way envpreflight reads a file it did not write.
 *
 * Spec files, the .env, git's files, the files the runtime guards and the
 * exec-free lookups read, the user's config: every one is read here, under
 * one policy, so that it lives in one place.
 *
 *   1. The name is opened once, first, with O_PATH: nothing is opened for
 *      reading before it is judged, so a FIFO cannot block and a device is
 *      never opened (opening one can have effects of its own).
 *   2. The open descriptor is judged, never the name again: there is no
 *      window between a check and the open in which the file can be
 *      swapped.  It must stay inside its directory (SAFEREAD_BENEATH), be
 *      a regular file, and hold at most cap bytes.
 *   3. The same inode is read (reopened through /proc/self/fd, else by
 *      name and compared by device and inode), and checked as text when
 *      asked.
 *
 * Containment: openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) relative to
 * the directory, where the kernel has it (Linux 5.6).  Where it does not,
 * or where it refuses what may still land inside (an absolute symlink, a
 * "..": RESOLVE_BENEATH refuses both), a plain open's result is judged by
 * where the open file is: its /proc/self/fd link, or, without /proc, its
 * device and inode against the canonical path.  Symlinks that stay inside
 * are followed, as they always were for spec files.
 *
 * Thread-safe (no state but the file system, and the test switches).
 */
#ifndef EP_SAFEREAD_H
#define EP_SAFEREAD_H

#include <stddef.h>

#include "util.h"

/* Where the file may be. */
enum saferead_where {
	SAFEREAD_ANYWHERE,	/* the path as given, symlinks followed: the
				 * user's own files, install trees */
	SAFEREAD_BENEATH,	/* below dir; symlinks followed while they
				 * stay below it (spec files) */
	SAFEREAD_BENEATH_NOFOLLOW,	/* below dir, and the file itself not a
					 * symlink (git's in-tree .gitignore) */
};

/* What the bytes must be. */
enum saferead_text {
	SAFEREAD_BYTES,		/* anything */
	SAFEREAD_NO_NUL,	/* no NUL byte */
	SAFEREAD_UTF8,		/* UTF-8 without NUL; a leading BOM is dropped */
};

struct saferead_policy {
	enum saferead_where where;
	enum saferead_text text;
	size_t cap;		/* largest size read, in bytes */
};

/* The spec file policy: below the repository, UTF-8, 1 MiB. */
extern const struct saferead_policy saferead_spec;

/*
 * Why a read failed.  code is an errno value; these are saferead's own
 * judgements (saferead_strerror words them):
 *   ENOENT, ENOTDIR  missing (symlink: the name is a dangling symlink)
 *   EXDEV            leaves dir (symlink: the name itself is a symlink)
 *   ELOOP            SAFEREAD_BENEATH_NOFOLLOW: the file is a symlink
 *                    (and, as ever, a loop of symlinks)
 *   EISDIR           a directory
 *   EINVAL           not a regular file (a FIFO, a socket, a device)
 *   EFBIG            larger than cap
 *   EILSEQ           not the text asked for (line, col, what)
 *   EAGAIN           replaced while it was being opened
 * and any other is the system's (EACCES, EIO, ...).
 */
struct saferead_error {
	int code;
	int symlink;		/* ENOENT, EXDEV: the name is a symbolic link */
	unsigned line, col;	/* EILSEQ: the first bad byte, 1-based */
	const char *what;	/* EILSEQ: "NUL byte", "invalid UTF-8" (static) */
};

/*
 * Read dir/name under p into out (NUL-terminated; the caller releases it
 * with blob_release).  SAFEREAD_ANYWHERE: dir may be NULL (name is then a
 * path of its own).  Otherwise dir is the canonical directory the file
 * must stay in and name is relative to it.  Returns 0, or -1 with *err
 * filled (err may be NULL) and out empty.
 */
int saferead_file(const struct saferead_policy *p, const char *dir,
		  const char *name, struct blob *out, struct saferead_error *err);

/* Many files of one directory read in a row (the METADATA of every
 * package of a virtual environment): the directory, and /proc/self/fd,
 * are opened once, not once a file.  saferead_dir_file(d, p, name, ...)
 * reads as saferead_file(p, dir, name, ...) does (dir must be canonical
 * for the SAFEREAD_BENEATH policies), relative to the directory as it
 * was when saferead_dir_open opened it.  saferead_dir_open returns 0, or
 * -1 with errno, and then every read fails with that code; dir is
 * borrowed until saferead_dir_close.  Threads may share one. */
struct saferead_dir {
	const char *dir;
	int dfd;		/* O_PATH, or -1 */
	int procfd;		/* /proc/self/fd (O_PATH), or -1 */
	int code;		/* why dfd is -1 */
};

int saferead_dir_open(struct saferead_dir *d, const char *dir);
int saferead_dir_file(const struct saferead_dir *d, const struct saferead_policy *p,
		      const char *name, struct blob *out, struct saferead_error *err);
void saferead_dir_close(struct saferead_dir *d);

/* saferead_file(SAFEREAD_ANYWHERE, bytes, cap) on one path: 0, or -1 with
 * errno set to the code. */
int saferead_path(const char *path, size_t cap, struct blob *out);

/* A few words for a code, for "name: WORDS": "not a regular file", "is a
 * directory, expected a file", "larger than the 1024 KiB limit" (the spec
 * cap: the only one whose refusal is shown), else strerror(code).
 * Static. */
const char *saferead_strerror(int code);

/* For tests only, before any read: openat2 and /proc/self/fd can each be
 * turned off (0) to exercise the fallbacks, and between (when not NULL)
 * is called after the name is opened and before the descriptor is
 * judged, where an attacker would swap the file. */
void saferead_test_setup(int openat2_on, int proc_fd_on,
			 void (*between)(void *arg), void *arg);

/* All n bytes of s to fd, again after EINTR and short writes: 0, or -1
 * with errno.  The writer beside the reader: the version cache, init's
 * preflight.yaml and the MCP server's replies all write through it. */
int write_all(int fd, const char *s, size_t n);

#endif
