/* util.h - allocation, growable strings, text hygiene, paths.
 *
 * Allocation failure is fatal (the x* functions abort with a message): a
 * pre-flight check that runs out of memory has nothing useful left to say.
 */
#ifndef EP_UTIL_H
#define EP_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t n);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Grow *v (element size elem) so that it can hold at least need elements;
 * *cap is updated.  Amortised doubling. */
void grow(void *v, size_t elem, size_t *cap, size_t need);

/* A growable NUL-terminated string, in the manner of git's strbuf.
 * buf_detach() hands the string to the caller and resets the buf. */
struct buf {
	char *s;
	size_t len, cap;
};
#define BUF_INIT { NULL, 0, 0 }
void buf_add(struct buf *b, const char *s, size_t n);
void buf_puts(struct buf *b, const char *s);
void buf_putc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A new string formatted from fmt; the caller frees it. */
char *xvformat(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
const char *buf_str(const struct buf *b);	/* "" when empty, never NULL */
char *buf_detach(struct buf *b);
void buf_release(struct buf *b);

/* What an error is about, for a caller that must say more than the
 * message (JSON's error.kind). */
enum err_kind {
	ERRK_OTHER,		/* nothing more to say */
	ERRK_INVALID,		/* a file says something malformed or wrong */
	ERRK_UNREADABLE,	/* a file could not be read */
	ERRK_NOTHING,		/* nothing to work on */
	ERRK_DIR,		/* the directory to work in cannot be used */
};

/* A fixed-size error message: internal helpers return -1 and fill one.
 * When a file is at fault, file/line/col say where (spec_error fills
 * them) and what is the message without that prefix. */
struct errbuf {
	char msg[512];		/* the whole message: "file:line:col: what" */
	enum err_kind kind;
	char file[256];		/* "" when no file is at fault */
	unsigned line, col;	/* 0 when unknown */
	size_t what;		/* offset in msg past the file prefix */
};
/* err_set resets kind (ERRK_OTHER) and the place. */
void err_set(struct errbuf *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* The same with the arguments as a va_list. */
void err_vset(struct errbuf *e, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

/* The whole content of a file, NUL-terminated for convenience (len does
 * not count the terminator; the content may itself hold NUL bytes). */
struct blob {
	char *data;
	size_t len;
};
void blob_release(struct blob *b);

/* The size cap of a spec file (and of most files read: saferead.h). */
#define SPEC_FILE_CAP (1024 * 1024)

/* Check that buf is text: no NUL byte and valid UTF-8.  Returns 0, or -1
 * with *line and *col (1-based, col counted in bytes) of the first bad byte
 * and a static description in *what. */
int text_check(const char *buf, size_t len, unsigned *line, unsigned *col,
	       const char **what);

/* The 1-based line and column of byte offset off in buf[0..len) (an
 * offset past len is taken as len).  Unlike text_check's, the column
 * counts characters: every byte but a UTF-8 continuation byte, as libyaml
 * counts the columns of its marks. */
void text_pos(const char *buf, size_t len, size_t off, unsigned *line,
	      unsigned *col);
/* Where buf[0..len) ends as libyaml counts lines (CR LF, CR, LF, NEL, LS
 * and PS each end one): the number of lines and the column after the last
 * character.  At the end of a text without a final newline libyaml moves
 * its mark to a line after the last, which a message must not name: the
 * YAML readers put such a mark here instead. */
void text_yaml_end(const char *buf, size_t len, unsigned *lines, unsigned *col);

/* Append s to b with every control character, DEL, ESC sequence opener and
 * invalid UTF-8 byte replaced by '?', so that text from a hostile repository
 * cannot rewrite the user's terminal.  Tabs become a space. */
void buf_add_clean(struct buf *b, const char *s);
/* The same, as a new string the caller frees. */
char *text_clean(const char *s);

/* A relative path with no ".." step: one that, joined below a folder,
 * stays inside it (not empty, not absolute).  1 or 0. */
int path_rel_inside(const char *p);
/* path_join returns a new string "a/b" (or b alone when b is absolute). */
char *path_join(const char *a, const char *b);

/* p with "." and ".." steps and doubled slashes resolved by text alone,
 * no symlink looked at ("a/b/../c" -> "a/c", "/x/../.." -> "/", "" ->
 * "."); a relative path that climbs above its start keeps its leading
 * ".." steps.  A new string. */
char *path_lexical(const char *p);

/* 1 when p is relative and has no ".." component: lexically it cannot
 * leave the directory it is joined to (symlinks are checked elsewhere). */
int path_is_relative_inside(const char *p);

/* 1 when the absolute, canonical path p is root itself or lies below it. */
int path_is_inside(const char *p, const char *root);

/* Monotonic clock in milliseconds. */
double clock_ms(void);

/* Parse a whole decimal string into [min, max]; 0 or -1 (no errno). */
int parse_long(const char *s, long min, long max, long *out);

/* The value of one hexadecimal digit (either case), or -1. */
int hex_digit(int c);

#endif
