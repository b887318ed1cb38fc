/* nvmrc.h - .nvmrc / .node-version read the way nvm reads them, and the
 * version spec in it turned into a test over a concrete node version.
 *
 * The rules (see shared/conformance/nvmrc.md): '#' starts a comment, lines
 * are trimmed, blank lines dropped, "key=value" lines ignored; exactly one
 * bare line remains and is the spec.  No quote stripping, no ranges.
 */
#ifndef EP_NVMRC_H
#define EP_NVMRC_H

#include <stddef.h>

#include "parse_error.h"

enum nvmrc_kind {
	NVMRC_VERSION,		/* "20", "v20.11", "20.11.1": a prefix or exact */
	NVMRC_NODE,		/* "node", "stable": the newest release */
	NVMRC_SYSTEM,		/* "system": the node on PATH outside nvm */
	NVMRC_LTS_ANY,		/* "lts/" "*": the newest LTS line today */
	NVMRC_LTS,		/* "lts/iron", "lts/-1": one LTS line */
	NVMRC_IOJS,		/* "iojs", "iojs-v3": io.js, v1 to v3 */
	NVMRC_UNSTABLE,		/* "unstable": the old v0.11 line */
	NVMRC_ALIAS,		/* a user alias ("default"): only nvm knows it */
};

struct nvmrc {
	char *spec;		/* the version line after cleanup (owned) */
	unsigned line;		/* where it is, 1-based */
	enum nvmrc_kind kind;
	unsigned nparts;	/* VERSION, IOJS: how many of these are given */
	unsigned long major, minor, patch;	/* VERSION, IOJS; LTS, LTS_ANY
						 * (once resolved): the major */
	unsigned long back;	/* LTS: N of "lts/-N", else 0 */
	char codename[40];	/* LTS: as written ("" for lts/-N); once
				 * resolved, the line's codename */
	/* LTS, LTS_ANY: what nvmrc_resolve_lts found */
	int resolved;
	int from_nvm;		/* nvm's alias files answered, not the table */
	char nvm_version[40];	/* from nvm: the exact release ("v26.1.0") */
	char *nvm_file;		/* from nvm: the alias file read (owned) */
	long lts_start, lts_end;	/* from the table: yyyymmdd, else 0 */
};

/* Parse buf[0..len) into *out (released with nvmrc_release).  Returns 0, or
 * -1 with e filled (e may be NULL): a line, 0 when the error is about the
 * file as a whole, and no column (nvm reads whole lines); *out is then
 * empty.  A spec that nvm would answer N/A for (a range, quotes, an unknown
 * or capitalised LTS name) is an error here, so that the user hears why. */
int nvmrc_parse(const char *buf, size_t len, struct nvmrc *out,
		struct parse_error *e);

/* Settle what an LTS spec (NVMRC_LTS, NVMRC_LTS_ANY) means today (a
 * yyyymmdd date): nvm's own alias files under nvm_dir win when they
 * answer (nvm_dir NULL: nvm is not installed), else the dated table of
 * nodelts.h.  Other kinds need nothing.  0, or -1 with err when nvm would
 * answer N/A (an unknown codename, a line not yet LTS, lts/-N past the
 * oldest line). */
int nvmrc_resolve_lts(struct nvmrc *n, long today, const char *nvm_dir,
		      char *err, size_t errlen);

/* The two halves of nvmrc_resolve_lts (src/nvm_aliases.c), so that what
 * reads nvm's files stays apart from this pure parser.  nvmrc_lts_alias:
 * the alias nvm resolves for n ("*", "-1", "iron") into buf; 0 when n is
 * not an LTS spec.  nvmrc_lts_settle: n resolved from nvm's answer
 * (nodelts_nvm_resolve's return value nvm_rc, with *nv when 1 (its file is
 * taken) or the reason why when -1; 0: no answer) or else from the table;
 * returns as nvmrc_resolve_lts does. */
struct nodelts_nvm;
int nvmrc_lts_alias(const struct nvmrc *n, char *buf, size_t len);
int nvmrc_lts_settle(struct nvmrc *n, long today, int nvm_rc,
		     struct nodelts_nvm *nv, const char *why, char *err,
		     size_t errlen);

/* Does node_version ("v22.11.0", as `node --version` prints it) satisfy n?
 * 1 or 0; -1 when the version cannot be parsed, or when n is a user alias
 * (NVMRC_ALIAS), which cannot be resolved without nvm's own files.
 * "node", "stable" and "system" accept any version (nvm's "node" is the
 * newest release, which cannot be known offline); an LTS spec once
 * resolved: the release nvm's aliases name, else any release of the line
 * (unresolved: -1). */
int nvmrc_matches(const struct nvmrc *n, const char *node_version);

/* A short human description into buf: "v20.x", "lts/iron (v20.x)",
 * "lts/" "* = lts/lithium (v26.x)", "lts/" "* = lts/lithium (v26.1.0 per
 * nvm)". */
void nvmrc_describe(const struct nvmrc *n, char *buf, size_t len);

void nvmrc_release(struct nvmrc *n);

#endif
