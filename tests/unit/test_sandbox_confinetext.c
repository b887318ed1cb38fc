/* test_sandbox_confinetext.c - ptrace_scope, the LSM list and LSM labels
 * (src/parse/sandbox_confinetext.c), one table a parser, hostile rows
 * included; random bytes through each. */
#include "test.h"
#include "sandbox.h"
#include "sandbox_confinetext.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

static void test_scope(void)
{
	static const struct {
		const char *text;
		int want;
	} rows[] = {
		{ "0\n", 0 }, { "1\n", 1 }, { "2\n", 2 }, { "3\n", 3 }, { "1", 1 },
		{ "4\n", -1 }, { "-1\n", -1 }, { "", -1 }, { "\n", -1 }, { "10\n", -1 },
		{ "1 \n", 1 }, { "x\n", -1 }, { " 1\n", -1 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(sandbox_ptrace_scope(rows[i].text, strlen(rows[i].text)), rows[i].want,
			  "ptrace_scope %zu", i);
}

static void test_list(void)
{
	static const struct {
		const char *text;
		unsigned want;
	} rows[] = {
		{ "lockdown,capability,landlock,yama,apparmor\n",
		  LSM_LANDLOCK | LSM_YAMA | LSM_APPARMOR },
		{ "capability,selinux", LSM_SELINUX },
		{ "capability,smack,tomoyo,bpf", LSM_SMACK | LSM_TOMOYO },
		{ "capability", 0 }, { "", 0 }, { ",,,", 0 },
		{ "apparmorx,xselinux,yam", 0 },	/* whole names only */
		{ "yama", LSM_YAMA },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT((long)sandbox_lsm_list(rows[i].text, strlen(rows[i].text)),
			  (long)rows[i].want, "lsm list %zu", i);
}

static void test_label(void)
{
	static const struct {
		const char *text;
		enum lsm_kind hint;
		int rc;
		enum lsm_kind kind;
		const char *name, *mode;
		int confined;
	} rows[] = {
		/* AppArmor, as aa_label_snxprint writes it */
		{ "unconfined\n", LSM_LABEL_APPARMOR, 0, LSM_LABEL_APPARMOR, "unconfined", "", 0 },
		{ "docker-default (enforce)\n", LSM_LABEL_APPARMOR, 0, LSM_LABEL_APPARMOR,
		  "docker-default", "enforce", 1 },
		{ "docker-default (enforce)\n", LSM_LABEL_UNKNOWN, 0, LSM_LABEL_APPARMOR,
		  "docker-default", "enforce", 1 },
		{ "/usr/bin/man (complain)\n", LSM_LABEL_UNKNOWN, 0, LSM_LABEL_APPARMOR,
		  "/usr/bin/man", "complain", 0 },
		{ "snap.x (kill)", LSM_LABEL_APPARMOR, 0, LSM_LABEL_APPARMOR, "snap.x", "kill", 1 },
		{ "p (unconfined)", LSM_LABEL_APPARMOR, 0, LSM_LABEL_APPARMOR, "p", "unconfined", 0 },
		{ "lxc-container-default-cgns (enforce)", LSM_LABEL_APPARMOR, 0,
		  LSM_LABEL_APPARMOR, "lxc-container-default-cgns", "enforce", 1 },
		{ "(enforce)", LSM_LABEL_APPARMOR, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "noparen", LSM_LABEL_APPARMOR, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		/* SELinux, with its NUL */
		{ "system_u:system_r:container_t:s0:c123,c456", LSM_LABEL_UNKNOWN, 0,
		  LSM_LABEL_SELINUX, "container_t", "", 1 },
		{ "unconfined_u:unconfined_r:unconfined_t:s0-s0:c0.c1023\n", LSM_LABEL_UNKNOWN, 0,
		  LSM_LABEL_SELINUX, "unconfined_t", "", 0 },
		{ "system_u:system_r:spc_t:s0", LSM_LABEL_UNKNOWN, 0, LSM_LABEL_SELINUX,
		  "spc_t", "", 0 },
		{ "system_u:system_r:kernel_t:s0", LSM_LABEL_SELINUX, 0, LSM_LABEL_SELINUX,
		  "kernel_t", "", 0 },
		{ "u:r:untrusted_app:s0", LSM_LABEL_UNKNOWN, 0, LSM_LABEL_SELINUX,
		  "untrusted_app", "", 1 },
		{ "u:r:t", LSM_LABEL_UNKNOWN, 0, LSM_LABEL_SELINUX, "t", "", 1 },
		{ "u::t:s0", LSM_LABEL_UNKNOWN, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "u:r", LSM_LABEL_UNKNOWN, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "", LSM_LABEL_UNKNOWN, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "\n", LSM_LABEL_APPARMOR, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "a b:c:d", LSM_LABEL_UNKNOWN, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
		{ "x\ty (enforce)", LSM_LABEL_UNKNOWN, -1, LSM_LABEL_UNKNOWN, "", "", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct lsm_label l;
		size_t n = strlen(rows[i].text);

		/* SELinux's file ends in a NUL: give it one */
		CHECK_INT(sandbox_lsm_label(rows[i].text, n + (rows[i].text[0] == 's'),
					    rows[i].hint, &l), rows[i].rc, "label %zu rc", i);
		CHECK_INT(l.kind, rows[i].kind, "label %zu kind", i);
		CHECK_STR(l.name, rows[i].name, "label %zu name", i);
		CHECK_STR(l.mode, rows[i].mode, "label %zu mode", i);
		CHECK_INT(l.confined, rows[i].confined, "label %zu confined", i);
	}
	{
		/* a name longer than the field is cut, not overrun */
		char big[400];
		struct lsm_label l;

		memset(big, 'p', sizeof(big));
		memcpy(big + sizeof(big) - 10, " (enforce)", 10);
		CHECK_INT(sandbox_lsm_label(big, sizeof(big), LSM_LABEL_APPARMOR, &l), 0, "long");
		CHECK_INT((long)strlen(l.name), (long)sizeof(l.name) - 1, "long name cut");
	}
}

/* the four keys: their words, and landlock alone lax (any unless named) */
static void test_keys(void)
{
	static const struct {
		enum sandbox_key k;
		const char *name, *def;
		int lax;
	} rows[] = {
		{ SANDBOX_PTRACE, "ptrace", "restricted", 0 },
		{ SANDBOX_LSM, "lsm", "confined", 0 },
		{ SANDBOX_LANDLOCK, "landlock", "required", 1 },
		{ SANDBOX_DEVICES, "devices", "none", 0 },
		{ SANDBOX_NETWORK, "network", "none", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		CHECK_STR(sandbox_key_name(rows[i].k), rows[i].name, "key %zu name", i);
		CHECK_STR(sandbox_key_default(rows[i].k), rows[i].def, "key %zu default", i);
		CHECK_INT(sandbox_key_lax(rows[i].k), rows[i].lax, "key %zu lax", i);
	}
	CHECK(sandbox_key_name((enum sandbox_key)SANDBOX_KEYS) == NULL, "past the last key");
}

static void test_random(void)
{
	char buf[256];
	size_t i, j, n;
	struct lsm_label l;

	srand(19);
	for (i = 0; i < 20000; i++) {
		n = (size_t)rand() % sizeof(buf);
		for (j = 0; j < n; j++)
			buf[j] = "ab:( )\n\0enforce_t,"[rand() % 18];
		sandbox_ptrace_scope(buf, n);
		sandbox_lsm_list(buf, n);
		sandbox_lsm_label(buf, n, (enum lsm_kind)(rand() % 3), &l);
		CHECK(strlen(l.name) < sizeof(l.name), "random %zu: name bounded", i);
	}
}

void test_main(void)
{
	test_scope();
	test_list();
	test_label();
	test_keys();
	test_random();
}
