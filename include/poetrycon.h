/* poetrycon.h - poetry's version constraints ("^3.10", "~3.11",
 * ">=3.9 <3.13", "3.10.* || 3.12.*"), as poetry-core parses them, for
 * [tool.poetry.dependencies] python: poetry refuses an interpreter the
 * constraint does not allow.  Pure: no I/O, safe to fuzz.
 */
#ifndef EP_POETRYCON_H
#define EP_POETRYCON_H

#include <stddef.h>

/* 1 when version (PEP 440, as pep440_check takes it) satisfies the
 * constraint, 0 when not, -1 with a message in err when the constraint is
 * one poetry-core cannot parse (or version is not a version). */
int poetry_check(const char *constraint, const char *version, char *err,
		 size_t errlen);

#endif
