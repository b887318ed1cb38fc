/* platform.h - this machine as npm's devEngines cpu, os and libc see it
 * (npm-install-checks lib/current-env.js: process.arch, process.platform,
 * os.release(), and the C library family read from /usr/bin/ldd).
 */
#ifndef EP_PLATFORM_H
#define EP_PLATFORM_H

#include <stddef.h>

struct platform {
	char os[32];		/* "linux" */
	char os_version[72];	/* uname -r: "6.1.0-18-amd64" */
	char cpu[72];		/* node's process.arch: "x64", "arm64", ... */
	const char *libc;	/* "glibc", "musl", or NULL: cannot tell */
};

/* Fill *p from uname(2) and /usr/bin/ldd.  Never fails: what cannot be
 * learnt is empty (or NULL for libc). */
void platform_current(struct platform *p);

/* node's process.arch for a uname machine ("x86_64" -> "x64"), or the
 * machine itself when node has no other name for it.  Static or m. */
const char *platform_cpu_name(const char *m);
/* npm's getFamilyFromFilesystem on ldd's text: "musl", "glibc", NULL. */
const char *platform_libc_from_ldd(const char *text, size_t len);

#endif
