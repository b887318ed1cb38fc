/* nodelts.h - Node.js LTS lines by date, and nvm's own offline answer.
 *
 * Which line "lts/" "*" names is a function of the date: the newest line
 * whose LTS start is on or before today.  The table is the nodejs/Release
 * schedule (schedule.json, codenames from CODENAMES.md); NODELTS_TABLE_DATE
 * says how old it is.  When nvm is installed, the alias files it writes on
 * `nvm ls-remote` and `nvm install` ($NVM_DIR/alias/lts/<star> holding
 * "lts/<codename>", $NVM_DIR/alias/lts/<codename> holding "v26.1.0") are
 * what `nvm use` resolves offline, so they win over the table.
 *
 * Dates are yyyymmdd numbers (20261028): they compare as dates.
 */
#ifndef EP_NODELTS_H
#define EP_NODELTS_H

#include <stddef.h>

/* The schedule snapshot the table was taken from. */
#define NODELTS_TABLE_DATE "2026-07-02"

struct nodelts_line {
	unsigned long major;
	const char *codename;	/* lowercase, as nvm names its aliases */
	long lts;		/* Active LTS start */
	long maintenance;	/* Maintenance LTS start */
	long end;		/* end of life */
};

/* Today as yyyymmdd: ENVPREFLIGHT_TODAY=YYYY-MM-DD when it is set and
 * valid (for tests only), else the clock (UTC). */
long nodelts_today(void);
/* "2026-11-30" into 20261130: 0, or -1 when s is not such a date. */
int nodelts_date_parse(const char *s, long *out);
/* 20261130 as "2026-11-30" into buf (size >= 11).  Returns buf. */
const char *nodelts_date_format(long d, char *buf, size_t len);

/* The newest line whose LTS start is on or before today, or NULL. */
const struct nodelts_line *nodelts_newest(long today);
/* lts/-N: the Nth line before nodelts_newest(today), or NULL (*avail, when
 * not NULL, gets how many lines there are before it). */
const struct nodelts_line *nodelts_back(long today, unsigned long n,
					unsigned long *avail);
/* The line of a lowercase codename s[0..len), or of a major; NULL. */
const struct nodelts_line *nodelts_by_codename(const char *s, size_t len);
const struct nodelts_line *nodelts_by_major(unsigned long major);
/* The first and the last line of the table (argon, lithium). */
const struct nodelts_line *nodelts_first(void);
const struct nodelts_line *nodelts_last(void);

/* ---- nvm's alias files ---- */

/* nvm's directory: $NVM_DIR when absolute, else ~/.nvm when it holds
 * nvm.sh; a new string, or NULL when nvm is not installed. */
char *nodelts_nvm_dir(void);

/* What nvm resolves an lts/ alias to, offline. */
struct nodelts_nvm {
	char codename[40];	/* "lithium" */
	char version[40];	/* "v26.1.0" as the alias file holds it, or "" */
	char *file;		/* the alias file that named the version (or,
				 * when none did, the codename): new string */
};

/* Resolve alias ("*", "lithium" or "-1", the part after "lts/") as nvm
 * does from dir/alias/lts/ (nvm_normalize_lts, nvm_resolve_alias).
 * Returns 1 with *out filled (release it with nodelts_nvm_release); 0
 * when nvm has no answer (no lts alias directory, no such alias); -1 with
 * err when nvm would refuse it ("That many LTS releases do not exist
 * yet").  Reads only small regular files; never follows more than a few
 * aliases. */
int nodelts_nvm_resolve(const char *dir, const char *alias, struct nodelts_nvm *out,
			char *err, size_t errlen);
void nodelts_nvm_release(struct nodelts_nvm *n);

#endif
