/* pep440.h - python versions: PEP 440 specifiers ("~=3.11", ">=3.10,<3.13")
 * as the `packaging` library evaluates them, and pyenv's .python-version.
 */
#ifndef EP_PEP440_H
#define EP_PEP440_H

#include <stddef.h>

#include "parse_error.h"

/* Does version satisfy specifier?  1 yes, 0 no, -1 when the specifier or
 * the version is not valid PEP 440 (err says which and why).  An empty
 * specifier accepts everything.  A pre-release version is judged by its
 * numbers like any other, as PEP 440 asks for an already installed
 * interpreter: "3.13.0rc1" satisfies ">=3.10" (but not "<3.13"). */
int pep440_check(const char *specifier, const char *version,
		 char *err, size_t errlen);

/* Order two versions: *cmp is <0, 0 or >0.  Returns 0, or -1 (with *cmp
 * untouched) when either is not a valid PEP 440 version. */
int pep440_compare(const char *a, const char *b, int *cmp);

/* str(packaging.version.Version(v)), the normalised form ("2.1.0+CPU" is
 * "2.1.0+cpu", "1.0-1" is "1.0.post1") into buf.  Returns 0, or -1 when
 * v is no PEP 440 version or buf is too small. */
int pep440_normalize(const char *v, char *buf, size_t size);

/* The version in `python --version` output ("Python 3.13.0rc1\n"; a dev
 * build's trailing '+' is dropped) into buf.  Returns 0, or -1 when out
 * holds no valid version or buf is too small. */
int pep440_python_output(const char *out, size_t len, char *buf, size_t buflen);

/* ---- pyenv's .python-version ---- */

enum pyenv_kind {
	PYENV_CPYTHON,		/* "3.11", "3.11.7", "3.13.0rc1", "3.14-dev", "3.13t" */
	PYENV_SYSTEM,		/* "system": whatever python is on PATH */
	PYENV_OTHER,		/* "pypy3.10-7.3.12", "miniconda3-latest", a
				 * virtualenv name: not checkable here */
	PYENV_IGNORED,		/* ".." or a name with '/': pyenv skips it */
};

struct pyenv_entry {
	char *name;		/* as written (owned) */
	unsigned line, col;	/* 1-based; col in bytes */
	enum pyenv_kind kind;
};

/* The names in file order; the first is the one `python` runs.  n == 0
 * means the file names no version, and pyenv then falls back to "system". */
struct pyenv_file {
	struct pyenv_entry *v;
	size_t n, cap;
};

/* Parse buf[0..len) as pyenv does: the first word of each line, lines whose
 * first word starts with '#' skipped.  Returns 0, or -1 with err filled
 * (for a NUL byte or bytes that are not UTF-8; err may be NULL). */
int pyenv_parse(const char *buf, size_t len, struct pyenv_file *out,
		struct parse_error *err);

/* Does the python version found ("3.11.7") satisfy entry e, by pyenv's
 * prefix rule ("3.11" is the newest installed final 3.11.x, "3" a 3.x)?
 * 1 or 0; -1 when found is not a version or e cannot be checked
 * (PYENV_OTHER, PYENV_IGNORED). */
int pyenv_matches(const struct pyenv_entry *e, const char *found);

void pyenv_release(struct pyenv_file *f);

#endif
