/* fuzz_confinetext.c - the sandbox probe's readers of ptrace_scope, the
 * securityfs LSM list and an LSM label (src/parse/sandbox_confinetext.c).
 * A sandbox decides these texts (a fixture /proc, a hostile LSM label).
 *
 * Input: one selector byte (the attr file's kind: AppArmor's own, the
 * shared one, SELinux), then the text.  Invariants: a scope is -1 or
 * 0..3; the list's bits are the six known ones; a label that parses has a
 * kind, a NUL-terminated name that fits, and confined only with a mode of
 * enforce or kill (AppArmor) or a type of its own (SELinux); one that
 * does not is all zero.
 */
#include "fuzz.h"
#include "sandbox_confinetext.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum lsm_kind kinds[] = {
		LSM_LABEL_APPARMOR, LSM_LABEL_UNKNOWN, LSM_LABEL_SELINUX
	};
	const char *t = (const char *)data + 1;
	struct lsm_label l, zero;
	size_t n;
	int scope, rc;

	if (size < 1)
		return 0;
	n = size - 1;
	scope = sandbox_ptrace_scope(t, n);
	FUZZ_CHECK(scope >= -1 && scope <= 3);
	FUZZ_CHECK((sandbox_lsm_list(t, n) & ~0x3fU) == 0);
	rc = sandbox_lsm_label(t, n, kinds[data[0] % 3], &l);
	memset(&zero, 0, sizeof(zero));
	if (rc < 0) {
		FUZZ_CHECK(!memcmp(&l, &zero, sizeof(l)));
		return 0;
	}
	FUZZ_CHECK(rc == 0 && l.kind != LSM_LABEL_UNKNOWN);
	FUZZ_CHECK(memchr(l.name, '\0', sizeof(l.name)) && memchr(l.mode, '\0', sizeof(l.mode)));
	FUZZ_CHECK(l.name[0] != '\0');
	if (l.kind == LSM_LABEL_APPARMOR && l.confined)
		FUZZ_CHECK(!strcmp(l.mode, "enforce") || !strcmp(l.mode, "kill"));
	if (l.kind == LSM_LABEL_SELINUX)
		FUZZ_CHECK(l.mode[0] == '\0');
	return 0;
}
