/* fuzz_sandboxpriv.c - the privilege checks' parsers
 * (src/parse/sandbox_privtext.c, and the capability lines of
 * src/parse/sandbox.c's status parser).  A sandbox decides all of these
 * texts.
 *
 * Input: one selector byte (its value modulo 3), then the text: a
 * mountinfo, a uid_map, or a status.  Invariants: the mount at / has
 * flags of 0 or 1 and a NUL-terminated type that fits; the reverse id map
 * answers -1, 0 or 1, and an answer of 0 is an id that the forward map
 * (sandbox_id_map) sends somewhere; a status that parses has only the
 * four capability sets' bits in have_caps; the exec arithmetic only adds
 * to what the process has now, and no_new_privs adds nothing.
 */
#include "fuzz.h"
#include "sandbox.h"
#include "sandbox_privtext.h"

#include <stdlib.h>
#include <string.h>

static void mount_at(const char *t, size_t n)
{
	struct sandbox_mount m;

	if (sandbox_mount_at(t, n, "/", &m) < 0)
		return;
	FUZZ_CHECK(m.found == 0 || m.found == 1);
	FUZZ_CHECK((m.mount_ro | m.super_ro | m.slave) <= 1);
	FUZZ_CHECK(memchr(m.fstype, '\0', sizeof(m.fstype)) != NULL);
}

static void map_inside(const char *t, size_t n)
{
	unsigned long in = 0, out = 0;
	int whole, rc = sandbox_id_map_inside(t, n, 0, &in);

	FUZZ_CHECK(rc >= -1 && rc <= 1);
	if (rc == 0)
		FUZZ_CHECK(sandbox_id_map(t, n, in, &out, &whole) == 0);
}

static void status_caps(const char *t, size_t n)
{
	struct proc_identity id;
	struct sandbox_capsets c;
	const char *bad;

	if (sandbox_status_parse(t, n, &id, &bad) == 0) {
		FUZZ_CHECK((id.have_caps & ~0xfU) == 0);
		memset(&c, 0, sizeof(c));
		c.eff = id.cap_eff;
		c.prm = id.caps[CAPSET_PRM];
		c.inh = id.caps[CAPSET_INH];
		c.bnd = id.caps[CAPSET_BND];
		c.amb = id.caps[CAPSET_AMB];
		c.no_new_privs = id.no_new_privs;
		c.root = id.uid[0] == 0 || id.uid[1] == 0;
		FUZZ_CHECK((sandbox_caps_exec(&c) & sandbox_caps_now(&c)) == sandbox_caps_now(&c));
		c.no_new_privs = 1;
		FUZZ_CHECK(sandbox_caps_exec(&c) == sandbox_caps_now(&c));
		FUZZ_CHECK(sandbox_caps_setuid(&c) == 0);
	}
	proc_identity_release(&id);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *owned;
	const char *t;
	size_t n;
	unsigned sel;

	data = fuzz_scale(data, &size, &owned);
	if (size < 1) {
		free(owned);
		return 0;
	}
	sel = data[0] % 3;
	t = (const char *)data + 1;
	n = size - 1;
	if (sel == 0)
		mount_at(t, n);
	else if (sel == 1)
		map_inside(t, n);
	else
		status_caps(t, n);
	free(owned);
	return 0;
}
