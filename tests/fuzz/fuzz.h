/* fuzz.h - what the fuzz targets in tests/fuzz/ share.
 *
 * Each fuzz_NAME.c defines LLVMFuzzerTestOneInput for one parser of
 * untrusted text.  The same file is built twice: with clang's libFuzzer
 * (`make fuzz`), and in the ordinary build under another name
 * (-DLLVMFuzzerTestOneInput=fuzz_NAME_one) for tests/fuzz/replay.c, which
 * feeds it the committed corpus and every kept crash input in `make check`.
 * So a target uses nothing of libFuzzer beyond that one entry point.
 *
 * Inputs with two parts (rules and paths, a specifier and a version) are
 * split at the first NUL byte: text parsers rarely give NUL a meaning.
 */
#ifndef EP_FUZZ_H
#define EP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An invariant of the parser under test: abort (so libFuzzer keeps the
 * input as a crash) with the condition that failed. */
#define FUZZ_CHECK(cond) \
	((cond) ? (void)0 : fuzz_fail(__FILE__, __LINE__, #cond))
void fuzz_fail(const char *file, int line, const char *what)
	__attribute__((noreturn));

/* A NUL-terminated copy of data[0..size) (a NUL inside ends the string
 * early, as it would for any C caller); the caller frees it. */
char *fuzz_str(const uint8_t *data, size_t size);

/* Split data at its first NUL byte: a, alen before it; b, blen after
 * (empty when there is no NUL). */
void fuzz_split(const uint8_t *data, size_t size, const uint8_t **a,
		size_t *alen, const uint8_t **b, size_t *blen);

/* Cost.  When the environment variable FUZZ_SCALE_MAX holds a size, an
 * input whose first byte is FUZZ_SCALE_MARK is a unit to repeat rather than
 * a file: "MARK unit", "MARK head MARK unit" or "MARK head MARK unit MARK
 * tail" stands for head, the unit again and again with each FUZZ_SCALE_SLOT
 * byte in it replaced by the number of the copy, and tail, FUZZ_SCALE_MAX
 * bytes in all.  So "\xfex\xff 1\n" is a .tool-versions of 60,000
 * distinct tools at 512 KiB.  A parser with a quadratic path then runs past
 * libFuzzer's -timeout: random mutation grows inputs a little at a time and
 * gets no reward for size, so it would never show one.  Both bytes are
 * invalid UTF-8, which no text parser here accepts anyway.  run.sh spends a
 * fifth of each target's time so (the cost pass), the rest with scaling
 * off, where such an input is just bytes.  Returns what to parse (data
 * itself, *size unchanged, when it is not a unit); the caller frees
 * *owned. */
#define FUZZ_SCALE_MARK 0xfe
#define FUZZ_SCALE_SLOT 0xff
const uint8_t *fuzz_scale(const uint8_t *data, size_t *size, uint8_t **owned);

/* 1 when s holds no control character or DEL: what a message that quotes
 * repository text must look like once "cleaned". */
int fuzz_printable(const char *s);

/* For loaders that only read files: a scratch directory (created on first
 * use under $TMPDIR, removed at exit) holding "repo", an empty repository
 * the target writes the input into before it calls spec_load, and
 * "config", which XDG_CONFIG_HOME names.  HOME is the scratch directory,
 * so that no file of the user running the fuzzer (git config, config.ini)
 * is read.  Keep $TMPDIR outside any git work tree: the env loader looks
 * upwards for one. */
const char *fuzz_repo(void);

/* Write data[0..size) to the scratch directory's rel ("repo/go.mod",
 * "config/envpreflight/config.ini"), or remove it when data is NULL. */
void fuzz_put(const char *rel, const uint8_t *data, size_t size);

/* spec_load the scratch repository and check the model it gives: every
 * port in 1-65535, every name one that a check id can hold, every origin
 * a file; "file" (the one the target wrote, unless NULL) among the files
 * read; a failure says why.  The model is released again. */
void fuzz_spec_load(const char *file);

#endif
