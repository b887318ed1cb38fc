/* platform.c - this machine as npm's devEngines sees it; see platform.h */
#include "platform.h"
#include "saferead.h"
#include "util.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

const char *platform_cpu_name(const char *m)
{
	static const struct {
		const char *machine, *arch;
	} map[] = {
		{ "x86_64", "x64" }, { "amd64", "x64" }, { "i386", "ia32" },
		{ "i486", "ia32" }, { "i586", "ia32" }, { "i686", "ia32" },
		{ "aarch64", "arm64" }, { "arm64", "arm64" }, { "armv6l", "arm" },
		{ "armv7l", "arm" }, { "armv8l", "arm" }, { "ppc64le", "ppc64" },
		{ "ppc64", "ppc64" }, { "s390x", "s390x" }, { "riscv64", "riscv64" },
		{ "loongarch64", "loong64" }, { "mips", "mips" }, { "mipsel", "mipsel" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (!strcmp(map[i].machine, m))
			return map[i].arch;
	return m;
}

/* npm reads the text of /usr/bin/ldd: "musl" in it is musl, "GNU C
 * Library" glibc, anything else unknown (then npm asks node's process
 * report, which needs node: envpreflight does not run it). */
const char *platform_libc_from_ldd(const char *text, size_t len)
{
	if (!text)
		return NULL;
	if (memmem(text, len, "musl", 4))
		return "musl";
	if (memmem(text, len, "GNU C Library", 13))
		return "glibc";
	return NULL;
}

void platform_current(struct platform *p)
{
	struct utsname u;
	struct blob b;
	size_t i;

	memset(p, 0, sizeof(*p));
	if (uname(&u) == 0) {
		for (i = 0; u.sysname[i] && i + 1 < sizeof(p->os); i++)
			p->os[i] = (char)(u.sysname[i] >= 'A' && u.sysname[i] <= 'Z' ?
					  u.sysname[i] + 32 : u.sysname[i]);
		snprintf(p->os_version, sizeof(p->os_version), "%s", u.release);
		snprintf(p->cpu, sizeof(p->cpu), "%s", platform_cpu_name(u.machine));
	}
	if (saferead_path("/usr/bin/ldd", SPEC_FILE_CAP, &b) == 0) {
		p->libc = platform_libc_from_ldd(b.data, b.len);
		blob_release(&b);
	}
}
