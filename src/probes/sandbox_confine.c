/* sandbox_confine.c - what confines this process besides its ids: ptrace
 * (Yama's ptrace_scope and who is in reach), the AppArmor or SELinux
 * label, a Landlock domain, and the block devices of /dev.
 *
 * What it touches: <proc>/sys/kernel/yama/ptrace_scope, <proc>/self/status,
 * <proc>/self/ns/user, the owners of <proc>'s process directories (and the
 * stat of those this process's uid owns, for their parent);
 * <proc>/self/attr/apparmor/current, <proc>/self/attr/current,
 * /sys/kernel/security/lsm, /sys/fs/selinux/enforce; the landlock system
 * calls, in this process for the ABI version and in a child that stacks
 * layers of its own (os/lldomain.c: reaped, killed at the deadline, no
 * exec); readdir of /dev and /dev/mapper, fstatat and faccessat on
 * their block nodes (never opened), statvfs of the two.
 *
 * How the escape-hunting tools read the same (their rules, for contrast):
 * linPEAS prints ptrace_scope and colours 0 red
 * (linPEAS/builder/linpeas_parts/2_container/5_Container_breakout.sh,
 * "ptrace_scope (host)"; 6_users_information/8_Sudo_tokens.sh: 0 means a
 * sudo token can be stolen from a same-user process) and prints
 * /proc/self/attr/current, "unconfined" or "disabled" when unreadable
 * (5_Container_breakout.sh, 1_system_information/16_Protections.sh; SELinux
 * from getenforce or /sys/fs/selinux/enforce); amicontained takes
 * /proc/self/attr/current as the AppArmor profile and calls anything it
 * cannot read "unconfined" (vendor/github.com/jessfraz/bpfd/proc/proc.go,
 * GetAppArmorProfile), so an SELinux label passes for a profile; deepce
 * calls a container privileged when `fdisk -l` lists disks (deepce.sh,
 * containerPrivileged) and CDK opens the device cgroup to reach the
 * host's block device (pkg/util/cgroup.go).  None reads Landlock.
 */
#include "probe_sandbox.h"
#include "lldomain.h"
#include "saferead.h"
#include "sandbox_confinetext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#define CAP_SYS_PTRACE_BIT 19	/* include/uapi/linux/capability.h */
#define SMALL_CAP 4096		/* a sysctl, an attr file, the LSM list */
#define SHOWN 6			/* names in a message */
#define TRACEABLE_MAX 64	/* enough to judge: the scan stops there */

/* ---- ptrace ---------------------------------------------------------- */

static int read_small(const char *base, const char *rel, struct blob *b)
{
	char *path = path_join(base, rel);
	int rc = saferead_path(path, SMALL_CAP, b);

	free(path);
	return rc;
}

/* From <proc>/PID/stat (the fields after the last ')': state, ppid, pgrp,
 * session, tty_nr, tpgid, flags): the parent pid and the flags, 0; or -1. */
static int stat_of(int dfd, long pid, long *ppid, unsigned long *flags)
{
	char rel[64], buf[512], *p, *end;
	ssize_t n;
	int fd, i;

	snprintf(rel, sizeof(rel), "%ld/stat", pid);
	fd = openat(dfd, rel, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || strlen(p) < 5)
		return -1;
	*ppid = strtol(p + 4, &end, 10);	/* ") S PPID" */
	if (end == p + 4)
		return -1;
	for (i = 0; i < 4 && end; i++)	/* pgrp, session, tty_nr, tpgid */
		end = strchr(end + 1, ' ');
	if (!end)
		return -1;
	*flags = strtoul(end + 1, &p, 10);
	return p == end + 1 ? -1 : 0;
}

#define PF_KTHREAD_FLAG 0x00200000UL	/* include/linux/sched.h */

struct reach {
	size_t seen, traceable;
	struct names who;	/* "PID (uid N)", the first few */
	int truncated;
};

/*
 * The processes in view a ptrace could reach under the classic rules
 * (kernel/ptrace.c, __ptrace_may_access: the caller's uid matches the
 * target's, whose mm is dumpable, or it has CAP_SYS_PTRACE in the target's
 * user namespace).  The owner of /proc/PID is the target's euid, root when
 * it is not dumpable (fs/proc/base.c, task_dump_owner), so an owner equal
 * to our euid stands for "same uid, dumpable".  all: CAP_SYS_PTRACE in the
 * initial user namespace reaches every one.  Not counted: this process,
 * its children (tracing its own children is what every rule allows) and
 * kernel threads.  It stops at TRACEABLE_MAX of them (truncated): root on
 * a host would otherwise read the stat of every process.
 */
static int ptrace_reach(const struct sbx *x, int all, struct reach *out)
{
	DIR *d = opendir(x->proc);
	struct dirent *de;
	uid_t me = geteuid();
	long self = (long)getpid();

	if (!d)
		return -1;
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10), ppid;
		unsigned long flags;

		if (end == de->d_name || *end)
			continue;
		if (out->seen >= SBX_LIST_MAX || out->traceable >= TRACEABLE_MAX ||
		    clock_ms() >= x->deadline_ms) {
			out->truncated = 1;
			break;
		}
		if (pid == self || fstatat(dirfd(d), de->d_name, &st, 0) < 0)
			continue;
		out->seen++;
		if (!all && st.st_uid != me)
			continue;
		/* ptrace_attach refuses kernel threads (PF_KTHREAD) */
		if (stat_of(dirfd(d), pid, &ppid, &flags) == 0 &&
		    (ppid == self || (flags & PF_KTHREAD_FLAG)))
			continue;
		if (out->traceable++ < SHOWN) {
			char who[64];

			snprintf(who, sizeof(who), "%ld (uid %lu)", pid, (unsigned long)st.st_uid);
			sbx_names_add(&out->who, who);
		}
	}
	closedir(d);
	return 0;
}

static const char *const scope_words[] = {
	"classic", "restricted", "admin-only", "no attach"
};

void sbx_proc_ptrace(const struct sbx *x, struct result *r)
{
	struct proc_identity id;
	struct reach reach = { 0 };
	struct buf rule = BUF_INIT, msg = BUF_INIT;
	struct blob b;
	int scope = -1, yama, cap, userns, any;

	if (sbx_read_identity(x, &id, r) < 0)
		return;
	yama = read_small(x->proc, "sys/kernel/yama/ptrace_scope", &b) == 0;
	if (yama) {
		scope = sandbox_ptrace_scope(b.data, b.len);
		blob_release(&b);
	}
	cap = id.have_cap_eff && (id.cap_eff >> CAP_SYS_PTRACE_BIT & 1);
	userns = sbx_in_user_namespace(x);
	proc_identity_release(&id);
	if (yama && scope < 0) {
		char *path = path_join(x->proc, "sys/kernel/yama/ptrace_scope");

		sbx_could_not(r, path, 0);
		free(path);
		return;
	}
	/* Yama.rst: 3 no process may attach; 2 only with CAP_SYS_PTRACE; 1
	 * only descendants (and a process that named this one with
	 * PR_SET_PTRACER) unless CAP_SYS_PTRACE; 0 or no Yama, the classic
	 * rules.  CAP_SYS_PTRACE in a user namespace reaches its processes
	 * only: counted as the same uid's. */
	any = scope == 3 ? 0 : scope >= 1 ? cap : 1;
	if (any && ptrace_reach(x, cap && userns == 0, &reach) < 0) {
		sbx_could_not(r, x->proc, errno);
		return;
	}
	cJSON_AddBoolToObject(r->data, "yama", yama);
	if (yama)
		cJSON_AddNumberToObject(r->data, "ptrace_scope", scope);
	else
		cJSON_AddNullToObject(r->data, "ptrace_scope");
	cJSON_AddBoolToObject(r->data, "cap_sys_ptrace", cap);
	cJSON_AddNumberToObject(r->data, "seen", (double)reach.seen);
	cJSON_AddNumberToObject(r->data, "traceable", (double)reach.traceable);
	cJSON_AddItemToObject(r->data, "examples", sbx_names_json(&reach.who));
	cJSON_AddBoolToObject(r->data, "truncated", reach.truncated);
	if (!yama)
		buf_puts(&rule, "no Yama: the classic rules");
	else
		buf_printf(&rule, "ptrace_scope=%d (%s)%s", scope, scope_words[scope],
			   any && scope ? " and CAP_SYS_PTRACE" : "");
	if (!any)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s: %s", buf_str(&rule),
			    scope == 3 ? "no process can attach" :
			    "attaching takes CAP_SYS_PTRACE, which this process lacks");
	else if (reach.traceable) {
		sbx_list_text(&msg, reach.who.v, reach.who.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%zu%s process%s in view can be "
			    "traced (%s): %s%s", reach.traceable, reach.truncated ? " or more" : "",
			    reach.traceable == 1 ? "" : "es", buf_str(&rule), buf_str(&msg),
			    reach.traceable > reach.who.n ? " and more" : "");
	} else if (reach.truncated)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell: stopped after "
			    "%zu processes, none traceable so far (%s)", reach.seen,
			    buf_str(&rule));
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s, but none of the %zu other "
			    "process%s in view is one it may trace", buf_str(&rule), reach.seen,
			    reach.seen == 1 ? "" : "es");
	buf_release(&rule);
	buf_release(&msg);
	sbx_names_release(&reach.who);
}

/* ---- AppArmor, SELinux ----------------------------------------------- */

static const char *const kind_words[] = { NULL, "apparmor", "selinux" };

/* "capability,landlock,yama" as JSON, or null when securityfs is not
 * there to say */
static unsigned lsm_active(cJSON *data, int *known)
{
	static const char *const names[] = {
		"yama", "apparmor", "selinux", "smack", "tomoyo", "landlock"
	};
	struct blob b;
	unsigned m;
	size_t i;
	cJSON *a;

	*known = saferead_path("/sys/kernel/security/lsm", SMALL_CAP, &b) == 0;
	if (!*known) {
		cJSON_AddNullToObject(data, "lsms");
		return 0;
	}
	m = sandbox_lsm_list(b.data, b.len);
	blob_release(&b);
	a = cJSON_AddArrayToObject(data, "lsms");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (m & (1U << i))
			cJSON_AddItemToArray(a, cJSON_CreateString(names[i]));
	return m;
}

/* SELinux's enforcing flag (/sys/fs/selinux/enforce, "0" or "1"): 1, 0,
 * or -1 when selinuxfs is not there to say. */
static int selinux_enforcing(void)
{
	struct blob b;
	int v = -1;

	if (saferead_path("/sys/fs/selinux/enforce", SMALL_CAP, &b) < 0)
		return -1;
	if (b.len >= 1 && (b.data[0] == '0' || b.data[0] == '1'))
		v = b.data[0] == '1';
	blob_release(&b);
	return v;
}

/*
 * The label: AppArmor's own file first (Linux 5.8+, when AppArmor is
 * built in: /proc/PID/attr/apparmor/current, Documentation/admin-guide/
 * LSM/apparmor.rst), then the shared /proc/PID/attr/current, which the
 * first LSM that provides one answers (SELinux, or AppArmor on older
 * kernels) and which fails EINVAL when none does
 * (fs/proc/base.c, proc_pid_attr_read; security/security.c,
 * security_getprocattr).  0 with *l filled, 1 no LSM gives a label, -1
 * with *code when the file cannot be read.
 */
static int lsm_read_label(const struct sbx *x, struct lsm_label *l, int *code)
{
	struct blob b;
	int rc;

	memset(l, 0, sizeof(*l));
	if (read_small(x->proc, "self/attr/apparmor/current", &b) == 0) {
		rc = sandbox_lsm_label(b.data, b.len, LSM_LABEL_APPARMOR, l);
		blob_release(&b);
		if (rc == 0)
			return 0;
	}
	if (read_small(x->proc, "self/attr/current", &b) < 0) {
		*code = errno;
		return *code == EINVAL || *code == ENOENT ? 1 : -1;
	}
	rc = sandbox_lsm_label(b.data, b.len, LSM_LABEL_UNKNOWN, l);
	blob_release(&b);
	return rc == 0 ? 0 : 1;
}

void sbx_id_lsm(const struct sbx *x, struct result *r)
{
	struct lsm_label l;
	int known, code = 0, rc, enforcing = -1;
	unsigned m = lsm_active(r->data, &known);

	rc = lsm_read_label(x, &l, &code);
	if (rc < 0) {
		char *path = path_join(x->proc, "self/attr/current");

		sbx_could_not(r, path, code);
		free(path);
		return;
	}
	if (rc == 0 && l.kind == LSM_LABEL_SELINUX) {
		/* permissive mode logs and allows: linPEAS reads the same flag */
		enforcing = selinux_enforcing();
		if (enforcing == 0)
			l.confined = 0;
	}
	sbx_add_nullable(r->data, "lsm", rc == 0 ? kind_words[l.kind] : NULL);
	sbx_add_nullable(r->data, "label", rc == 0 ? l.name : NULL);
	sbx_add_nullable(r->data, "apparmor_mode", rc == 0 && l.mode[0] ? l.mode : NULL);
	if (enforcing >= 0)
		cJSON_AddBoolToObject(r->data, "enforcing", enforcing);
	else
		cJSON_AddNullToObject(r->data, "enforcing");
	cJSON_AddBoolToObject(r->data, "confined", rc == 0 && l.confined);
	if (rc == 1)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no AppArmor or SELinux "
			    "confines it: %s", known ? (m & (LSM_APPARMOR | LSM_SELINUX) ?
			    "the kernel names one, but it gives this process no label" :
			    "neither is among the kernel's active LSMs") :
			    "no LSM gives this process a label");
	else if (l.kind == LSM_LABEL_APPARMOR && l.confined)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "AppArmor profile %s (%s)",
			    l.name, l.mode);
	else if (l.kind == LSM_LABEL_APPARMOR)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "AppArmor: %s%s%s%s", l.name,
			    l.mode[0] ? " (" : "", l.mode, l.mode[0] ? "): not enforced" : "");
	else if (l.confined)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "SELinux type %s%s", l.name,
			    enforcing == 1 ? " (enforcing)" : "");
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "SELinux type %s%s", l.name,
			    enforcing == 0 ? ": SELinux is permissive" : ", an unconfined domain");
}

/* ---- Landlock -------------------------------------------------------- */

/* 1 when a seccomp filter is on this process (it may be what refuses the
 * landlock calls), 0 when none, -1 when status does not say */
static int seccomp_filtered(const struct sbx *x)
{
	struct proc_identity id;
	struct result scratch;
	int f;

	memset(&scratch, 0, sizeof(scratch));
	if (sbx_read_identity(x, &id, &scratch) < 0) {
		result_release(&scratch);
		return -1;
	}
	f = id.seccomp < 0 ? -1 : id.seccomp == 2;
	proc_identity_release(&id);
	return f;
}

void sbx_id_landlock(const struct sbx *x, struct result *r)
{
	int abi = lldomain_abi(), layers = -1, code = 0, filtered = 0;

	if (abi > 0) {
		/* unknown is taken as filtered: the child is then a copy */
		layers = lldomain_layers(x, seccomp_filtered(x) != 0, x->deadline_ms);
		code = errno;
		cJSON_AddNumberToObject(r->data, "abi", abi);
	} else {
		cJSON_AddNullToObject(r->data, "abi");
		/* ENOSYS or EPERM may be a filter's answer: a sandbox that set
		 * up Landlock and then forbade the calls (the kernel's own
		 * EOPNOTSUPP is no filter's) */
		if (abi != -EOPNOTSUPP)
			filtered = seccomp_filtered(x);
	}
	if (layers >= 0) {
		cJSON_AddNumberToObject(r->data, "layers", layers);
		cJSON_AddBoolToObject(r->data, "domain", layers > 0);
	} else {
		cJSON_AddNullToObject(r->data, "layers");
		if (abi > 0 || filtered)
			cJSON_AddNullToObject(r->data, "domain");
		else
			cJSON_AddBoolToObject(r->data, "domain", 0);
	}
	/* without Landlock in the kernel no domain can exist: that is known */
	if (abi == -EOPNOTSUPP)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no Landlock domain: the kernel "
			    "has Landlock but it is not enabled (lsm= at boot)");
	else if (abi <= 0 && filtered)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell whether a "
			    "Landlock domain confines it: the landlock system calls fail (%s) "
			    "under a seccomp filter%s", strerror(-abi), filtered < 0 ?
			    " (or one: status does not say)" : "");
	else if (abi <= 0)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no Landlock domain: this "
			    "kernel has no landlock system calls (%s, and no seccomp filter)",
			    strerror(-abi));
	else if (layers < 0)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell whether a "
			    "Landlock domain confines it (ABI %d; the counting child: %s)", abi,
			    code == ETIMEDOUT ? "stopped at the deadline" : strerror(code));
	else if (layers)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "a Landlock domain of %d "
			    "layer%s confines it (ABI %d)", layers, layers == 1 ? "" : "s", abi);
	else
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "no Landlock domain "
			    "(the kernel has Landlock, ABI %d)", abi);
}

/* ---- block devices --------------------------------------------------- */

struct devs {
	size_t nodes;
	struct names open;	/* "/dev/vda (read-write)", ... */
	int nodev, truncated;
};

/* The block nodes of dir (not its subdirectories), each asked with
 * faccessat(AT_EACCESS) whether this process may open it to read or to
 * write: the permission check open(2) makes (file mode, capabilities,
 * LSM), never the open itself. */
static void dev_scan(const struct sbx *x, const char *dir, struct devs *out)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct statvfs sv;
	size_t looked = 0;
	int nodev;

	if (!d)
		return;
	/* a nodev mount refuses every open of a device node on it
	 * (fs/namei.c, may_open_dev) */
	nodev = fstatvfs(dirfd(d), &sv) == 0 && (sv.f_flag & ST_NODEV);
	while ((de = readdir(d)) != NULL) {
		struct stat st;
		int rd, wr;
		char line[320];

		if (++looked > SBX_LIST_MAX || clock_ms() >= x->deadline_ms) {
			out->truncated = 1;
			break;
		}
		if (de->d_type != DT_BLK && de->d_type != DT_UNKNOWN)
			continue;
		if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
		    !S_ISBLK(st.st_mode))
			continue;
		out->nodes++;
		if (nodev) {
			out->nodev = 1;
			continue;
		}
		rd = faccessat(dirfd(d), de->d_name, R_OK, AT_EACCESS) == 0;
		wr = faccessat(dirfd(d), de->d_name, W_OK, AT_EACCESS) == 0;
		if (!rd && !wr)
			continue;
		snprintf(line, sizeof(line), "%s/%s (%s)", dir, de->d_name,
			 rd && wr ? "read-write" : rd ? "read" : "write");
		sbx_names_add(&out->open, line);
	}
	closedir(d);
}

void sbx_escape_block_devices(const struct sbx *x, struct result *r)
{
	struct devs d = { 0 };
	struct buf msg = BUF_INIT;

	/* /dev/disk holds symlinks only (udev's by-id, by-uuid, ...):
	 * the nodes they point at are in /dev */
	dev_scan(x, "/dev", &d);
	dev_scan(x, "/dev/mapper", &d);
	if (d.open.n > 1)
		qsort(d.open.v, d.open.n, sizeof(*d.open.v), sbx_name_cmp);
	cJSON_AddNumberToObject(r->data, "nodes", (double)d.nodes);
	cJSON_AddItemToObject(r->data, "openable", sbx_names_json(&d.open));
	cJSON_AddBoolToObject(r->data, "nodev", d.nodev);
	cJSON_AddBoolToObject(r->data, "truncated", d.truncated);
	if (d.open.n) {
		sbx_list_text(&msg, d.open.v, d.open.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%zu block device%s can be "
			    "opened: %s", d.open.n, d.open.n == 1 ? "" : "s", buf_str(&msg));
		result_note(r, "a device cgroup, which faccessat does not consult, may still "
			    "refuse the open");
	} else if (d.truncated)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell: stopped after "
			    "%d entries of /dev, %zu block nodes so far, none openable",
			    SBX_LIST_MAX, d.nodes);
	else if (d.nodes)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%zu block device node%s, none "
			    "this process may open%s", d.nodes, d.nodes == 1 ? "" : "s",
			    d.nodev ? " (a nodev mount)" : "");
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no block device nodes in /dev");
	buf_release(&msg);
	sbx_names_release(&d.open);
}
