/* sandbox_confinetext.c - ptrace_scope, the LSM list and a process's LSM label
 * (see sandbox_confinetext.h).  No system call; every scan is bounded by the
 * length given.
 */
#include "sandbox_confinetext.h"
#include "util.h"

#include <string.h>

/* The text without its trailing newlines and NULs (the attr files end in
 * "\n", or in a NUL for SELinux). */
static size_t trimmed(const char *buf, size_t len)
{
	while (len && (buf[len - 1] == '\n' || buf[len - 1] == '\0' || buf[len - 1] == ' '))
		len--;
	return len;
}

/* Yama.rst: "0 - classic ptrace permissions", "1 - restricted ptrace",
 * "2 - admin-only attach", "3 - no attach"; the sysctl prints the number
 * and a newline (security/yama/yama_lsm.c, proc_dointvec_minmax, 0..3). */
int sandbox_ptrace_scope(const char *buf, size_t len)
{
	len = trimmed(buf, len);
	if (len != 1 || buf[0] < '0' || buf[0] > '3')
		return -1;
	return buf[0] - '0';
}

/* security/inode.c, lsm_read: the names of lsm_names, comma-separated */
unsigned sandbox_lsm_list(const char *buf, size_t len)
{
	static const struct {
		const char *name;
		unsigned bit;
	} known[] = {
		{ "yama", LSM_YAMA }, { "apparmor", LSM_APPARMOR },
		{ "selinux", LSM_SELINUX }, { "smack", LSM_SMACK },
		{ "tomoyo", LSM_TOMOYO }, { "landlock", LSM_LANDLOCK },
	};
	unsigned out = 0;
	size_t i = 0, j, k;

	len = trimmed(buf, len);
	while (i < len) {
		for (j = i; j < len && buf[j] != ','; j++)
			;
		for (k = 0; k < ARRAY_SIZE(known); k++)
			if (strlen(known[k].name) == j - i &&
			    !memcmp(buf + i, known[k].name, j - i))
				out |= known[k].bit;
		i = j + 1;
	}
	return out;
}

static void copy_cut(char *dst, size_t size, const char *src, size_t n)
{
	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

/* security/apparmor/label.c, aa_label_snxprint: "unconfined" alone, else
 * "NAME (MODE)" with a mode of aa_profile_mode_names (policy.c: enforce,
 * complain, kill, unconfined, user). */
static int apparmor_label(const char *buf, size_t len, struct lsm_label *out)
{
	const char *open;
	size_t n;

	out->kind = LSM_LABEL_APPARMOR;
	if (len == 10 && !memcmp(buf, "unconfined", 10)) {
		copy_cut(out->name, sizeof(out->name), buf, len);
		return 0;
	}
	if (len < 4 || buf[len - 1] != ')')
		return -1;
	for (open = NULL, n = len - 1; n > 0; n--)
		if (buf[n - 1] == '(') {
			open = buf + n - 1;
			break;
		}
	if (!open || open == buf || open[-1] != ' ' || open - buf < 2)
		return -1;
	copy_cut(out->name, sizeof(out->name), buf, (size_t)(open - 1 - buf));
	copy_cut(out->mode, sizeof(out->mode), open + 1, (size_t)(buf + len - 1 - open - 1));
	out->confined = !strcmp(out->mode, "enforce") || !strcmp(out->mode, "kill");
	return 0;
}

/* The SELinux types whose domains are unconfined: refpolicy's
 * unconfined_t, unconfined_service_t, sysadm_t and the init and kernel
 * domains; container-selinux's spc_t (a --privileged container, "super
 * privileged container") and container_runtime_t. */
static const char *const selinux_unconfined[] = {
	"unconfined_t", "unconfined_service_t", "sysadm_t", "kernel_t", "init_t",
	"initrc_t", "spc_t", "container_runtime_t",
};

/* "user:role:type:level" (level optional, itself holding colons) */
static int selinux_label(const char *buf, size_t len, struct lsm_label *out)
{
	size_t i, field = 0, start = 0;
	size_t k;

	for (i = 0; i <= len && field < 3; i++) {
		if (i < len && buf[i] != ':')
			continue;
		if (i == start)
			return -1;
		if (field == 2)
			copy_cut(out->name, sizeof(out->name), buf + start, i - start);
		field++;
		start = i + 1;
	}
	if (field < 3)
		return -1;
	out->kind = LSM_LABEL_SELINUX;
	out->confined = 1;
	for (k = 0; k < ARRAY_SIZE(selinux_unconfined); k++)
		if (!strcmp(out->name, selinux_unconfined[k]))
			out->confined = 0;
	return 0;
}

int sandbox_lsm_label(const char *buf, size_t len, enum lsm_kind kind,
		      struct lsm_label *out)
{
	size_t i;

	memset(out, 0, sizeof(*out));
	len = trimmed(buf, len);
	if (!len)
		return -1;
	for (i = 0; i < len; i++)
		if ((unsigned char)buf[i] < 0x20 || buf[i] == 0x7f)
			return -1;
	if (kind == LSM_LABEL_APPARMOR)
		return apparmor_label(buf, len, out) < 0 ? (memset(out, 0, sizeof(*out)), -1) : 0;
	if (kind == LSM_LABEL_SELINUX)
		return selinux_label(buf, len, out) < 0 ? (memset(out, 0, sizeof(*out)), -1) : 0;
	/* attr/current: AppArmor's ends in ")" or is "unconfined"; SELinux's
	 * has no blank and at least three colons */
	if (apparmor_label(buf, len, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	if (!memchr(buf, ' ', len) && selinux_label(buf, len, out) == 0)
		return 0;
	memset(out, 0, sizeof(*out));
	return -1;
}
