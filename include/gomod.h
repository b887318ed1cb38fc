/* gomod.h - the "go" and "toolchain" lines of a go.mod, and Go version
 * comparison with the rules of Go's own internal/gover.
 */
#ifndef EP_GOMOD_H
#define EP_GOMOD_H

#include <stddef.h>

#include "parse_error.h"

struct gomod {
	char *go;		/* "1.22", "1.22.3", "1.21rc1"; NULL when absent */
	unsigned go_line, go_col;	/* of the version, 1-based */
	char *toolchain;	/* "go1.22.3" or "default"; NULL when absent */
	unsigned toolchain_line, toolchain_col;
};

/* Parse buf[0..len) into *out (released with gomod_release).  Only the
 * top-level "go" and "toolchain" directives are read; blocks, comments
 * and the other directives are skipped.  Returns 0, or -1 with e filled
 * (a malformed or repeated go/toolchain line, a NUL byte, bytes that are
 * not UTF-8; e may be NULL); *out is then empty. */
int gomod_parse(const char *buf, size_t len, struct gomod *out,
		struct parse_error *e);
void gomod_release(struct gomod *m);

/* Is the Go version found at least min?  found may be the whole `go
 * version` output ("go version go1.22.3 linux/amd64"), a toolchain name
 * ("go1.22.3", "go1.21.0-custom") or a bare version; so may min ("1.22",
 * the go line of go.mod).  1 or 0; -1 when either cannot be parsed.
 * Go's order: 1.21 < 1.21rc1 < 1.21.0 < 1.21.1, and 1.20 == 1.20.0. */
int goversion_at_least(const char *found, const char *min);

#endif
