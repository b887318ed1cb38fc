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

enum nvmrc_kind {
	NVMRC_VERSION,		/* "20", "v20.11", "20.11.1": a prefix or exact */
	NVMRC_NODE,		/* "node", "stable": the newest release */
	NVMRC_SYSTEM,		/* "system": the node on PATH outside nvm */
	NVMRC_LTS_ANY,		/* "lts/" "*": the newest LTS line (of the
				 * built-in table, as nvm resolves it) */
	NVMRC_LTS,		/* "lts/iron", "lts/-1": one LTS major */
	NVMRC_IOJS,		/* "iojs", "iojs-v3": io.js, v1 to v3 */
	NVMRC_UNSTABLE,		/* "unstable": the old v0.11 line */
	NVMRC_ALIAS,		/* a user alias ("default"): only nvm knows it */
};

struct nvmrc {
	char *spec;		/* the version line after cleanup (owned) */
	unsigned line;		/* where it is, 1-based */
	enum nvmrc_kind kind;
	unsigned nparts;	/* VERSION, IOJS: how many of these are given */
	unsigned long major, minor, patch;	/* VERSION, IOJS; LTS, LTS_ANY: major */
	const char *codename;	/* LTS, LTS_ANY: lowercase, static */
};

/* Parse buf[0..len) into *out (released with nvmrc_release).  Returns 0, or
 * -1 with a message in err and its line in *err_line (0 when the error is
 * about the file as a whole); *out is then empty.  A spec that nvm would
 * answer N/A for (a range, quotes, an unknown or capitalised LTS name) is
 * an error here, so that the user hears why. */
int nvmrc_parse(const char *buf, size_t len, struct nvmrc *out,
		char *err, size_t errlen, unsigned *err_line);

/* Does node_version ("v22.11.0", as `node --version` prints it) satisfy n?
 * 1 or 0; -1 when the version cannot be parsed, or when n is a user alias
 * (NVMRC_ALIAS), which cannot be resolved without nvm's own files.
 * "node", "stable" and "system" accept any version (nvm's "node" is the
 * newest release, which cannot be known offline); "lts/" "*" only the
 * newest LTS major of the built-in table, as nvm resolves it to the newest
 * release of the newest codename. */
int nvmrc_matches(const struct nvmrc *n, const char *node_version);

/* A short human description into buf: "v20.x", "lts/iron (v20.x)",
 * "lts/" "* = lts/krypton (v24.x)". */
void nvmrc_describe(const struct nvmrc *n, char *buf, size_t len);

/* The codename of an LTS major (lowercase, static), or NULL. */
const char *nvmrc_lts_codename(unsigned long major);

void nvmrc_release(struct nvmrc *n);

#endif
