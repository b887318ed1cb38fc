/* test.h - the smallest unit-test harness that does the job.
 *
 * Each tests/unit/test_*.c is its own program: it defines
 *     void test_main(void)
 * and uses CHECK/CHECK_STR/CHECK_INT.  Every CHECK is one counted
 * assertion.  The program prints "ok"/"not ok" lines for failures only, and
 * a last line "<name>: N passed, M failed" (", K skipped" after it when
 * SKIP said a case could not be staged) that tests/run.sh adds up.
 * Tests find data through $TEST_SHARED (the shared/ folder) and
 * $TEST_TMPDIR (a scratch directory), both set by tests/run.sh; a program
 * run by hand makes a scratch directory of its own (set in $TEST_TMPDIR
 * before test_main runs) and removes it at the end.
 */
#ifndef EP_TEST_H
#define EP_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int test_passed, test_failed, test_skipped;
extern const char *test_name;
void test_main(void);

/* SKIP(...): a case this machine cannot stage was not run.  It is
 * counted (the last line adds ", K skipped") and said why on a line
 * "skip: <name>: <reason>", which tests/run.sh lists. */
#define SKIP(...)                                                           \
	do {                                                                \
		test_skipped++;                                             \
		printf("skip: %s: ", test_name);                            \
		printf(__VA_ARGS__);                                        \
		putchar('\n');                                              \
	} while (0)

#define CHECK(cond, ...)                                                    \
	do {                                                                \
		if (cond) {                                                 \
			test_passed++;                                      \
		} else {                                                    \
			test_failed++;                                      \
			printf("not ok %s:%d: %s: ", __FILE__, __LINE__, #cond); \
			printf(__VA_ARGS__);                                \
			putchar('\n');                                      \
		}                                                           \
	} while (0)

#define CHECK_STR(got, want, ...)                                           \
	do {                                                                \
		const char *g_ = (got), *w_ = (want);                       \
		if ((g_ == NULL && w_ == NULL) ||                           \
		    (g_ && w_ && strcmp(g_, w_) == 0)) {                    \
			test_passed++;                                      \
		} else {                                                    \
			test_failed++;                                      \
			printf("not ok %s:%d: got \"%s\", want \"%s\": ",   \
			       __FILE__, __LINE__, g_ ? g_ : "(null)",      \
			       w_ ? w_ : "(null)");                         \
			printf(__VA_ARGS__);                                \
			putchar('\n');                                      \
		}                                                           \
	} while (0)

#define CHECK_INT(got, want, ...)                                           \
	do {                                                                \
		long long g_ = (long long)(got), w_ = (long long)(want);    \
		if (g_ == w_) {                                             \
			test_passed++;                                      \
		} else {                                                    \
			test_failed++;                                      \
			printf("not ok %s:%d: got %lld, want %lld: ",       \
			       __FILE__, __LINE__, g_, w_);                 \
			printf(__VA_ARGS__);                                \
			putchar('\n');                                      \
		}                                                           \
	} while (0)

/* Path of a file under $TEST_SHARED, else under tests/ (static buffer). */
const char *test_shared(const char *rel);
/* A fresh empty directory under $TEST_TMPDIR (static buffer). */
const char *test_tmpdir(const char *name);
/* Write len bytes to dir/name, creating parent directories. */
void test_write(const char *dir, const char *name, const char *data, size_t len);
#define test_write_str(dir, name, s) test_write(dir, name, s, strlen(s))
/* Call fn for each line of the file at path (its newline cut; n counts
 * from 1); returns the count, or -1 (a failed assertion) when the file
 * cannot be read. */
int test_each_line(const char *path, void (*fn)(char *line, int n, void *ctx), void *ctx);

#endif
