/* sandbox_kernel.c - the sandbox probe's kernel escape surfaces and host
 * mounts (see probe_sandbox.c for the probe and what it touches; the pure
 * mountinfo side is src/parse/sandbox_mounts.c).
 *
 * What the escape-hunting tools look for beside sockets and secrets: a
 * writable /proc/sys, core_pattern, a cgroup v1 release_agent, binfmt_misc's
 * register, /sys/kernel/uevent_helper (linPEAS checkProcSysBreakouts,
 * peass-ng/PEASS-ng linPEAS/builder/linpeas_parts/functions/
 * checkProcSysBreakouts.sh at c7ff1e9f; deepce's exploitDockerPrivileged
 * writes a release_agent, stealthcopter/deepce deepce.sh at a08648d; CDK's
 * mount-cgroup and lxcfs-rw exploits, cdk-team/CDK pkg/exploit/escaping/
 * at 656f5c0), and the host's paths in the mount table (CDK
 * pkg/evaluate/check_mount_escape.go, deepce findMountedFolders;
 * amicontained reads none of these).
 *
 * The question each asks is "can this process write it", answered by the
 * kernel without writing: faccessat(W_OK, AT_EACCESS), the effective ids
 * and the mount's read-only flag (fs/open.c do_faccessat checks the mount
 * flag only once permission is granted, so EROFS means "the read-only
 * mount is the barrier").  linPEAS opens each file for writing with dd
 * count=0; we never open one for writing, never write.
 */
#include "probe_sandbox.h"
#include "saferead.h"
#include "sandbox_mounts.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#define CAP_SYS_ADMIN_BIT 21	/* include/uapi/linux/capability.h */
#define HIERARCHIES_MAX 64	/* cgroup v1 mounts looked at */
#define HOST_MOUNTS_MAX 256	/* host mounts listed */

/* ---- what this process may do ----------------------------------------- */

struct power {
	int sys_admin;		/* CAP_SYS_ADMIN effective */
	int init_userns;	/* 1 the initial user namespace, 0 a child, -1 unknown */
};

static void power_of(const struct sbx *x, struct power *p)
{
	char *path = path_join(x->proc, "self/status");
	struct proc_identity id;
	const char *bad;
	struct blob b;
	int child;

	p->sys_admin = 0;
	if (saferead_path(path, SBX_PROC_CAP, &b) == 0) {
		p->sys_admin = sandbox_status_parse(b.data, b.len, &id, &bad) == 0 &&
			       id.have_cap_eff && (id.cap_eff & (1ULL << CAP_SYS_ADMIN_BIT));
		proc_identity_release(&id);
		blob_release(&b);
	}
	free(path);
	child = sbx_in_user_namespace(x);
	p->init_userns = child < 0 ? -1 : !child;
}

/* CAP_SYS_ADMIN in the initial user namespace: what mounting a cgroup v1
 * or binfmt_misc instance of the host, and setting a release_agent, take */
static int host_admin(const struct power *p)
{
	return p->sys_admin && p->init_userns == 1;
}

/* ---- one kernel file ---------------------------------------------------- */

enum kaccess {
	K_ABSENT = -1,		/* not there (not in this kernel, not mounted) */
	K_NO = 0,		/* permission denied */
	K_YES = 1,		/* writable now */
	K_RO_MOUNT = 2,		/* writable but for a read-only mount */
};

static enum kaccess kaccess(const char *path)
{
	if (faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0)
		return K_YES;
	if (errno == EROFS)
		return K_RO_MOUNT;
	if (errno == ENOENT || errno == ENOTDIR)
		return K_ABSENT;
	return K_NO;
}

/* writable now, or one remount away: a read-only mount is no barrier to
 * CAP_SYS_ADMIN (mount -o remount,rw; as fs.root says, a flag locked by a
 * less privileged mount namespace stays, and only trying tells) */
static int kwritable(enum kaccess a, const struct power *p)
{
	return a == K_YES || (a == K_RO_MOUNT && p->sys_admin);
}

static const char *kaccess_text(enum kaccess a, const struct power *p)
{
	switch (a) {
	case K_YES:
		return "writable by this process";
	case K_RO_MOUNT:
		return p->sys_admin ? "on a read-only mount, but this process has "
		       "CAP_SYS_ADMIN: one remount would make it writable" :
		       "on a read-only mount";
	case K_NO:
		return "not writable by this process";
	case K_ABSENT:
		break;
	}
	return "absent";
}

static void kfile_data(struct result *r, const char *path, enum kaccess a,
		       const struct power *p)
{
	cJSON_AddStringToObject(r->data, "path", path);
	cJSON_AddBoolToObject(r->data, "present", a != K_ABSENT);
	cJSON_AddBoolToObject(r->data, "writable", kwritable(a, p));
	cJSON_AddBoolToObject(r->data, "read_only", a == K_RO_MOUNT);
	cJSON_AddBoolToObject(r->data, "cap_sys_admin", p->sys_admin);
}

/* ---- mountinfo ----------------------------------------------------------- */

/* each mount of <proc>/self/mountinfo (read as processes.hidepid and the
 * socket search read it: saferead, SBX_MOUNTINFO_CAP): 0, or -1 */
static int mounts_each(const struct sbx *x,
		       void (*cb)(const struct mount_entry *m, void *arg), void *arg)
{
	char *path = path_join(x->proc, "self/mountinfo");
	struct blob b;
	int rc = saferead_path(path, SBX_MOUNTINFO_CAP, &b);

	free(path);
	if (rc < 0)
		return -1;
	sandbox_mountinfo_each(b.data, b.len, cb, arg);
	blob_release(&b);
	return 0;
}

/* the mount a path lookup of /proc/sys finds: the last on /proc/sys, else
 * the last on /proc */
struct procsys_mount {
	int found_sys, found_proc, ro_sys, ro_proc;
};

static void procsys_seen(const struct mount_entry *m, void *arg)
{
	struct procsys_mount *s = arg;

	if (!strcmp(m->mount_point, "/proc/sys")) {
		s->found_sys = 1;
		s->ro_sys = m->read_only;
	} else if (!strcmp(m->mount_point, "/proc")) {
		s->found_proc = 1;
		s->ro_proc = m->read_only;
		s->found_sys = 0;	/* a later /proc hides an earlier /proc/sys */
	}
}

/* ---- escape.proc_sys ----------------------------------------------------- */

/*
 * A few global sysctls whose change reaches the host, as linPEAS picks them
 * (checkProcSysBreakouts: modprobe, panic_on_oom, suid_dumpable,
 * sysrq-trigger): kernel/modprobe is run as root on the host when a module
 * is requested; the others crash or weaken it
 * (Documentation/admin-guide/sysctl/kernel.rst, vm.rst, fs.rst).  They are
 * root's (mode 0644) and not namespaced: fs/proc/proc_sysctl.c test_perm
 * grants the owner bits to the host's uid 0 only (GLOBAL_ROOT_UID), so a
 * user namespace's root is refused; the runtimes mount /proc/sys read-only
 * (docker's default unless --privileged or systempaths=unconfined;
 * bwrap --proc).  core_pattern is its own check.
 */
static const char *const sysctl_files[] = {
	"sys/kernel/modprobe", "sys/vm/panic_on_oom", "sys/fs/suid_dumpable",
	"sys/kernel/sysrq",
};

void sbx_escape_proc_sys(const struct sbx *x, struct result *r)
{
	struct procsys_mount s = { 0, 0, 0, 0 };
	struct power p;
	struct names w = { 0 };
	struct buf msg = BUF_INIT;
	cJSON *a = cJSON_CreateArray();
	char *dir = path_join(x->proc, "sys");
	int mounted, ro_mount = 0;
	size_t i;

	power_of(x, &p);
	mounted = mounts_each(x, procsys_seen, &s) == 0 && (s.found_sys || s.found_proc);
	if (mounted)
		ro_mount = s.found_sys ? s.ro_sys : s.ro_proc;
	for (i = 0; i < ARRAY_SIZE(sysctl_files); i++) {
		char *f = path_join(x->proc, sysctl_files[i]);

		if (kwritable(kaccess(f), &p)) {
			sbx_names_add(&w, f);
			cJSON_AddItemToArray(a, cJSON_CreateString(f));
		}
		free(f);
	}
	cJSON_AddStringToObject(r->data, "path", dir);
	if (mounted)	/* no proc mount in the table: left out */
		cJSON_AddBoolToObject(r->data, "read_only", ro_mount);
	cJSON_AddItemToObject(r->data, "writable_files", a);
	cJSON_AddBoolToObject(r->data, "cap_sys_admin", p.sys_admin);
	if (w.n) {
		sbx_list_text(&msg, w.v, w.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "this process can change the "
			    "host's kernel settings: %s %s writable%s", buf_str(&msg),
			    w.n == 1 ? "is" : "are", ro_mount ? " (one remount away: "
			    "CAP_SYS_ADMIN)" : "");
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s is %s", dir,
			    ro_mount ? "mounted read-only" : "not writable by this process");
	}
	free(dir);
	buf_release(&msg);
	sbx_names_release(&w);
}

/* ---- escape.core_pattern, escape.uevent_helper ---------------------------- */

static void kfile_check(const struct sbx *x, struct result *r, const char *path,
			const char *danger, const char *absent)
{
	struct power p;
	enum kaccess a = kaccess(path);

	power_of(x, &p);
	kfile_data(r, path, a, &p);
	if (a == K_ABSENT)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s is not there (%s)", path,
			    absent);
	else if (kwritable(a, &p))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%s is %s: %s", path,
			    kaccess_text(a, &p), danger);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s is %s", path,
			    kaccess_text(a, &p));
}

/* Documentation/admin-guide/sysctl/kernel.rst, core_pattern: "If the first
 * character of the pattern is a '|', the kernel will treat the rest of the
 * pattern as a command to run"; fs/coredump.c runs it from kthreadd, as
 * root in the initial namespaces, on any crash.  Global, not namespaced. */
void sbx_escape_core_pattern(const struct sbx *x, struct result *r)
{
	char *path = path_join(x->proc, "sys/kernel/core_pattern");

	kfile_check(x, r, path, "a pattern starting with | makes the kernel run a "
		    "program of the sandbox's choosing as root on the host at the next "
		    "crash", "no /proc/sys");
	free(path);
}

/* /sys/kernel/uevent_helper (kernel/ksysfs.c, CONFIG_UEVENT_HELPER): the
 * program lib/kobject_uevent.c runs as root on the host for every uevent
 * (call_usermodehelper).  Absent when the kernel is built without it. */
void sbx_escape_uevent_helper(const struct sbx *x, struct result *r)
{
	kfile_check(x, r, "/sys/kernel/uevent_helper", "a helper written there is run "
		    "as root on the host at the next device event", "a kernel without "
		    "CONFIG_UEVENT_HELPER, or no sysfs");
}

/* ---- escape.binfmt_misc -------------------------------------------------- */

/*
 * Documentation/admin-guide/binfmt-misc.rst: a line written to register
 * names an interpreter the kernel runs for matching files; with the C
 * (credentials) flag a setuid-root binary's interpreter runs as root, and
 * an interpreter registered for ELF or #! runs for the host's programs.
 * The register file is root's, mode 0200 (fs/binfmt_misc.c).  Where it is
 * not mounted, CAP_SYS_ADMIN in the initial user namespace can mount the
 * host's instance (since Linux 6.7 a user namespace mounts one of its own,
 * which reaches only its own processes); fs/binfmt_misc.c registers the
 * empty directory /proc/sys/fs/binfmt_misc when the kernel has it.
 */
void sbx_escape_binfmt_misc(const struct sbx *x, struct result *r)
{
	char *dir = path_join(x->proc, "sys/fs/binfmt_misc");
	char *path = path_join(dir, "register");
	enum kaccess a = kaccess(path);
	struct power p;
	struct stat st;
	int could_mount;

	power_of(x, &p);
	could_mount = a == K_ABSENT && host_admin(&p) && stat(dir, &st) == 0 &&
		      S_ISDIR(st.st_mode);
	kfile_data(r, path, a, &p);
	cJSON_AddBoolToObject(r->data, "could_mount", could_mount);
	if (kwritable(a, &p))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%s is %s: an interpreter "
			    "registered there runs for the host's programs (as root for "
			    "setuid ones, flag C)", path, kaccess_text(a, &p));
	else if (could_mount)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "binfmt_misc is not mounted, "
			    "but this process has CAP_SYS_ADMIN in the host's user namespace: "
			    "it can mount it (mount -t binfmt_misc) and register an "
			    "interpreter");
	else if (a == K_ABSENT)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "binfmt_misc is not mounted "
			    "(no %s)", path);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s is %s", path,
			    kaccess_text(a, &p));
	free(path);
	free(dir);
}

/* ---- escape.release_agent ------------------------------------------------- */

/*
 * Documentation/admin-guide/cgroup-v1/cgroups.rst 1.4: when the last task
 * of a cgroup with notify_on_release leaves, the kernel runs the program
 * named in the hierarchy's release_agent (a file of the root cgroup only)
 * as root on the host.  CVE-2022-0492 (commit 24f600856418, Linux 5.17,
 * and the stable trees): kernel/cgroup/cgroup-v1.c
 * cgroup_release_agent_write now wants CAP_SYS_ADMIN in the initial user
 * namespace, from the initial cgroup namespace.  The peers: linPEAS's
 * release_agent surfaces 1 (ls /sys/fs/cgroup/WILDCARD/release_agent) and
 * 2 (mount -t cgroup -o memory), deepce's and CDK's exploits
 * (mount_cgroup.go: mount a v1 hierarchy, write release_agent).  We read
 * the mount table for v1 hierarchies mounted at their root, ask
 * faccessat of each release_agent, and count what mounting one would take.
 */
struct hier {
	struct names all, writable, ro;
	int seen;
};

static void hier_seen(const struct mount_entry *m, void *arg)
{
	struct hier *h = arg;
	char *f;
	enum kaccess a;

	/* a hierarchy seen below its root (a container's own cgroup) has no
	 * release_agent */
	if (strcmp(m->type, "cgroup") || strcmp(m->root, "/") || h->seen++ >= HIERARCHIES_MAX)
		return;
	f = path_join(m->mount_point, "release_agent");
	a = kaccess(f);
	if (a != K_ABSENT)
		sbx_names_add(&h->all, f);
	if (a == K_YES)
		sbx_names_add(&h->writable, f);
	else if (a == K_RO_MOUNT)
		sbx_names_add(&h->ro, f);
	free(f);
}

/* /proc/filesystems lists cgroup (a kernel with cgroup v1) */
static int has_cgroup_v1(const struct sbx *x)
{
	char *path = path_join(x->proc, "filesystems");
	struct blob b;
	int yes = 0;
	size_t i;

	if (saferead_path(path, SBX_PROC_CAP, &b) == 0) {
		for (i = 0; i + 7 <= b.len; i++)
			if (!memcmp(b.data + i, "\tcgroup", 7) &&
			    (i + 7 == b.len || b.data[i + 7] == '\n'))
				yes = 1;
		blob_release(&b);
	}
	free(path);
	return yes;
}

/* Linux before 5.17, when the CVE-2022-0492 check may be missing: 1, 0, or
 * -1 unknown */
static int kernel_before_5_17(void)
{
	struct utsname u;
	long major, minor;
	char *end;

	if (uname(&u) < 0)
		return -1;
	major = strtol(u.release, &end, 10);
	if (*end != '.')
		return -1;
	minor = strtol(end + 1, &end, 10);
	return major < 5 || (major == 5 && minor < 17);
}

static void release_agent_judge(const struct sbx *x, struct result *r,
				const struct hier *h, const struct power *p, int mountable)
{
	struct buf msg = BUF_INIT;
	int admin = host_admin(p);

	if (h->writable.n && admin) {
		sbx_list_text(&msg, h->writable.v, h->writable.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%s %s writable and this process "
			    "has CAP_SYS_ADMIN in the host's user namespace: the program "
			    "named there runs as root on the host when a cgroup empties",
			    buf_str(&msg), h->writable.n == 1 ? "is" : "are");
	} else if (admin && (h->ro.n || mountable)) {
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "this process has "
			    "CAP_SYS_ADMIN in the host's user namespace: it can %s a cgroup v1 "
			    "hierarchy and set its release_agent", h->ro.n ? "remount" : "mount");
	} else if (h->writable.n && kernel_before_5_17() != 0) {
		sbx_list_text(&msg, h->writable.v, h->writable.n);
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "%s %s writable by "
			    "permission; a kernel without the CVE-2022-0492 fix (before 5.17 "
			    "and its stable updates) lets this process set it", buf_str(&msg),
			    h->writable.n == 1 ? "is" : "are");
	} else if (h->writable.n) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "a release_agent is writable by "
			    "permission, but this kernel sets it only for CAP_SYS_ADMIN in the "
			    "host's user namespace, which this process lacks");
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "%s", h->all.n ?
			    "no cgroup v1 release_agent is writable by this process" :
			    "no cgroup v1 hierarchy is mounted at its root, and this process "
			    "cannot mount one");
	}
	buf_release(&msg);
}

void sbx_escape_release_agent(const struct sbx *x, struct result *r)
{
	struct hier h;
	struct power p;
	int mountable;

	memset(&h, 0, sizeof(h));
	power_of(x, &p);
	mounts_each(x, hier_seen, &h);
	mountable = host_admin(&p) && has_cgroup_v1(x);
	cJSON_AddItemToObject(r->data, "release_agents", sbx_names_json(&h.all));
	cJSON_AddItemToObject(r->data, "writable_files", sbx_names_json(&h.writable));
	cJSON_AddBoolToObject(r->data, "cap_sys_admin", p.sys_admin);
	if (p.init_userns < 0)
		cJSON_AddNullToObject(r->data, "initial_user_namespace");
	else
		cJSON_AddBoolToObject(r->data, "initial_user_namespace", p.init_userns);
	cJSON_AddBoolToObject(r->data, "could_mount", mountable);
	release_agent_judge(x, r, &h, &p, mountable);
	sbx_names_release(&h.all);
	sbx_names_release(&h.writable);
	sbx_names_release(&h.ro);
}

/* ---- fs.host_mounts -------------------------------------------------------- */

struct hostm {
	const char *repo;
	const struct power *p;
	cJSON *list;
	struct names writable, other;
	size_t n;
};

static void host_seen(const struct mount_entry *m, void *arg)
{
	struct hostm *h = arg;
	enum host_mount kind = sandbox_host_mount(m, h->repo);
	cJSON *o;
	struct buf label = BUF_INIT;
	int w;

	if (kind == HOST_MOUNT_NONE || h->n++ >= HOST_MOUNTS_MAX)
		return;
	w = kwritable(kaccess(m->mount_point), h->p);
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "mount_point", m->mount_point);
	cJSON_AddStringToObject(o, "root", m->root);
	cJSON_AddStringToObject(o, "type", m->type);
	cJSON_AddStringToObject(o, "source", m->source);
	cJSON_AddBoolToObject(o, "read_only", m->read_only);
	cJSON_AddBoolToObject(o, "writable", w);
	cJSON_AddItemToArray(h->list, o);
	buf_printf(&label, "%s (%s)", m->mount_point, kind == HOST_MOUNT_PATH ? m->root :
		   m->type);
	sbx_names_add(w ? &h->writable : &h->other, buf_str(&label));
	buf_release(&label);
}

/*
 * A disk file system's directory bind-mounted in (-v /home:/home,
 * -v /:/host), a second proc (-v /proc:/host/proc) or a read-write sysfs
 * (--privileged): what CDK prints in
 * red and deepce lists as "Other mounts" (see sandbox_host_mount for the
 * rule).  The sandbox's own / is fs.root's, and the repository's mount is
 * expected.  Writable by this process (or one remount away with
 * CAP_SYS_ADMIN): a failure; readable only: a warning, since the host's
 * files are in view.
 */
void sbx_fs_host_mounts(const struct sbx *x, struct result *r)
{
	struct power p;
	struct hostm h;
	struct buf msg = BUF_INIT;
	char *path;

	power_of(x, &p);
	memset(&h, 0, sizeof(h));
	h.repo = x->spec->root;
	h.p = &p;
	h.list = cJSON_CreateArray();
	if (mounts_each(x, host_seen, &h) < 0) {
		cJSON_Delete(h.list);
		path = path_join(x->proc, "self/mountinfo");
		sbx_could_not(r, path, errno);
		free(path);
		return;
	}
	cJSON_AddItemToObject(r->data, "host_mounts", h.list);
	if (h.writable.n) {
		sbx_list_text(&msg, h.writable.v, h.writable.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "mounted from the host, writable "
			    "by this process: %s", buf_str(&msg));
	} else if (h.other.n) {
		sbx_list_text(&msg, h.other.v, h.other.n);
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_EXPOSED, "mounted from the host, read only "
			    "to this process: %s", buf_str(&msg));
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "no path of the host's disks is "
			    "mounted in but / and the repository");
	}
	if (h.n > HOST_MOUNTS_MAX)
		result_note(r, "%zu host mounts, the first %d listed", h.n, HOST_MOUNTS_MAX);
	buf_release(&msg);
	sbx_names_release(&h.writable);
	sbx_names_release(&h.other);
}
