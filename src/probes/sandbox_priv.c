/* sandbox_priv.c - what this process's privileges reach beyond what they
 * seem to: every capability set, not CapEff alone (identity.capabilities);
 * whether its uid is the host's uid 0 (identity.host_root); a read-only /
 * that CAP_SYS_ADMIN remounts (fs.root); another network namespace that
 * setns(2) enters (the network checks' sbx_netns_reach).
 *
 * What it touches: <proc>/self/status, self/uid_map, self/mountinfo, the
 * namespace links (readlink, stat, and NS_GET_USERNS on an open one: an
 * ioctl that answers which user namespace owns it, ioctl_ns(2)), the owner
 * of <proc>/sys/kernel, /proc/sys/kernel/overflowuid, prctl
 * PR_GET_SECUREBITS; with CAP_SYS_ADMIN only, the net links of
 * <proc>/PID/ns/net (a bounded walk) and /run/netns; and, only when / is
 * read-only and this process has CAP_SYS_ADMIN in the user namespace that
 * owns its mount namespace, the remount tried on a detached clone of the
 * / mount (open_tree, mount_setattr: the real / untouched, nothing
 * written).  Nothing is entered, forked or run.
 */
#include "probe_sandbox.h"
#include "saferead.h"
#include "sandbox_privtext.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/mount.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define CAP_SETUID_BIT 7	/* include/uapi/linux/capability.h */
#define CAP_SYS_ADMIN_BIT 21
#define SECBIT_NOROOT_BIT 0	/* include/uapi/linux/securebits.h */
#define NETNS_WALK_MAX 4096	/* process directories looked at */
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000	/* include/uapi/linux/fcntl.h, since 5.2 */
#endif

/* What the privilege checks share, read once per check. */
struct privs {
	struct proc_identity id;
	struct sandbox_capsets cs;
	int userns;		/* 1 a child user namespace, 0 the initial, -1 unknown */
	unsigned long userns_ino;
	int host_root;		/* 1 the host's uid 0 is mapped here (as hr_uid),
				 * 0 it is not, -1 cannot tell */
	unsigned long hr_uid;
	const char *evidence;	/* how host_root was told */
	int hr_candidate;	/* host_root -1: hr_uid is the only uid that
				 * may be the host's 0 */
	int have_noroot;	/* securebits were read */
};

/* The real /proc: a fixture (ENVPREFLIGHT_PROC_ROOT) stands for another
 * machine, whose kernel cannot be asked. */
static int live(const struct sbx *x)
{
	return !strcmp(x->proc, "/proc");
}

/* uid_map names the parent namespace's ids: its uid 0 is the host's when
 * the parent is the initial namespace, which cannot be seen from here
 * (ioctl_ns(2): NS_GET_PARENT is EPERM outside our scope). */
static void host_root_by_map(const struct sbx *x, struct privs *p)
{
	char *path = path_join(x->proc, "self/uid_map");
	struct blob b;
	unsigned long in;
	int rc = -1;

	if (saferead_path(path, SBX_PROC_CAP, &b) == 0) {
		rc = sandbox_id_map_inside(b.data, b.len, 0, &in);
		blob_release(&b);
	}
	free(path);
	p->evidence = rc < 0 ? NULL : "uid_map";
	p->host_root = rc < 0 ? -1 : rc == 0;
	p->hr_uid = rc == 0 ? in : 0;
}

/* 1 when uid_map maps id (inside), 0 when not, -1 when it cannot be read */
static int maps_inside(const struct sbx *x, unsigned long id)
{
	char *path = path_join(x->proc, "self/uid_map");
	struct blob b;
	unsigned long out;
	int whole, yes = -1;

	if (saferead_path(path, SBX_PROC_CAP, &b) == 0) {
		/* sandbox_id_map's -1 is also a text that does not parse */
		if (sandbox_id_map_inside(b.data, b.len, 0, &out) >= 0)
			yes = sandbox_id_map(b.data, b.len, id, &out, &whole) == 0;
		blob_release(&b);
	}
	free(path);
	return yes;
}

/* faccessat(2) of a file under <proc>/sys/kernel, as the effective ids
 * (AT_EACCESS): 0, or the errno */
static int sysctl_access(const struct sbx *x, const char *name, int mode)
{
	char *path = path_join(x->proc, name);
	int rc = faccessat(AT_FDCWD, path, mode, AT_EACCESS) == 0 ? 0 : errno;

	free(path);
	return rc;
}

/*
 * Whether the effective uid is the host's uid 0, asked of the kernel.  A
 * sysctl file's permission is its table's mode, whose owner bits apply
 * to an effective uid equal to GLOBAL_ROOT_UID alone, whatever the user
 * namespace and the capabilities (fs/proc/proc_sysctl.c
 * proc_sys_permission, sysctl_perm, test_perm); overflowuid is 0644.
 * faccessat(2) reports a write the permission grants on a read-only
 * mount as EROFS, after the permission (fs/open.c do_faccessat), but a
 * read-only proc superblock's EROFS comes first (fs/namei.c
 * sb_permission): osrelease (0444, no one may write it) tells which.
 * Nothing is opened or written.  1 yes, 0 no, -1 cannot tell (an LSM
 * refusing the read too, a mode not the kernel's).
 */
static int euid_is_host_root(const struct sbx *x)
{
	char *path = path_join(x->proc, "sys/kernel/overflowuid");
	struct stat st;
	int got = stat(path, &st) == 0, w;

	free(path);
	if (!got || !S_ISREG(st.st_mode) || (st.st_mode & 0777) != 0644 ||
	    sysctl_access(x, "sys/kernel/overflowuid", R_OK) != 0 ||
	    sysctl_access(x, "sys/kernel/osrelease", W_OK) != EACCES)
		return -1;
	w = sysctl_access(x, "sys/kernel/overflowuid", W_OK);
	if (w == 0 || w == EROFS)
		return 1;
	return w == EACCES ? 0 : -1;
}

/*
 * Which uid here is the host's uid 0 (kuid 0).  The kernel says it by
 * the owner of a file it owns: the sysctl table's inodes belong to
 * GLOBAL_ROOT_UID (fs/proc/proc_sysctl.c proc_sys_make_inode; only the
 * net/ tables take their namespace's root), and stat(2) shows an owner as
 * the id it has in the caller's user namespace, or overflowuid when it
 * has none (fs/stat.c cp_new_stat, from_kuid_munged).  That sees through
 * nested namespaces, where uid_map alone names the parent's ids (and the
 * parent cannot be looked at: NS_GET_PARENT on one's own user namespace
 * is always EPERM, ioctl_ns(2), kernel/user_namespace.c ns_get_owner
 * stops at the caller's namespace).  An owner shown as overflowuid when
 * the map gives that uid inside is either: when it is our effective uid
 * (bwrap by nobody: "65534 0 1"), the kernel is asked (euid_is_host_root);
 * else it cannot be told, and overflowuid is the only candidate.
 */
static void host_root_find(const struct sbx *x, struct privs *p)
{
	struct sandbox_id0 e;
	struct stat st;
	char *path;
	int rc;

	p->host_root = -1;
	p->evidence = NULL;
	if (p->userns == 0) {
		p->host_root = 1;
		p->hr_uid = 0;
		p->evidence = "initial_namespace";
		return;
	}
	if (p->userns < 0 || !live(x)) {
		/* a fixture: uid_map, taking the parent for the initial
		 * namespace (its owner says nothing of this machine) */
		if (p->userns == 1)
			host_root_by_map(x, p);
		return;
	}
	path = path_join(x->proc, "sys/kernel");
	rc = stat(path, &st);
	free(path);
	if (rc != 0)
		return;
	e.shown = st.st_uid;
	e.overflow = sbx_overflow_id(x, "uid");
	e.overflow_mapped = e.shown == e.overflow ? maps_inside(x, e.overflow) : 0;
	e.asked = -1;
	if (e.overflow_mapped == 1 && p->id.uid[1] >= 0 &&
	    (unsigned long)p->id.uid[1] == e.overflow)
		e.asked = euid_is_host_root(x);
	rc = sandbox_host_id0(&e, &p->hr_uid);
	p->evidence = e.asked >= 0 ? "sysctl_access" : "proc_owner";
	p->host_root = rc;
	p->hr_candidate = rc < 0;
}

/* Fill p: 0, or -1 with r (when not NULL) set to an error. */
static int privs_read(const struct sbx *x, struct privs *p, struct result *r)
{
	memset(p, 0, sizeof(*p));
	if (!r) {
		struct result scratch;
		int rc;

		memset(&scratch, 0, sizeof(scratch));
		rc = privs_read(x, p, &scratch);
		result_release(&scratch);
		return rc;
	}
	if (sbx_read_identity(x, &p->id, r) < 0)
		return -1;
	p->cs.eff = p->id.cap_eff;
	p->cs.prm = p->id.caps[CAPSET_PRM];
	p->cs.inh = p->id.caps[CAPSET_INH];
	p->cs.bnd = p->id.caps[CAPSET_BND];
	p->cs.amb = p->id.caps[CAPSET_AMB];
	p->cs.no_new_privs = p->id.no_new_privs;
	p->cs.root = p->id.uid[0] == 0 || p->id.uid[1] == 0;
	if (live(x)) {
		int bits = prctl(PR_GET_SECUREBITS, 0, 0, 0, 0);

		p->have_noroot = bits >= 0;
		p->cs.noroot = bits >= 0 && (bits & (1 << SECBIT_NOROOT_BIT));
	}
	p->userns = -1;
	if (sbx_ns_ino(x, "self/ns/user", "user", &p->userns_ino) == 0)
		p->userns = p->userns_ino != SANDBOX_USER_INIT_INO;
	host_root_find(x, p);
	return 0;
}

static void privs_release(struct privs *p)
{
	proc_identity_release(&p->id);
}

/* What it has, or gets by an exec of anything (capabilities(7)). */
static unsigned long long privs_reach(const struct privs *p)
{
	return sandbox_caps_exec(&p->cs);
}

static int has_cap(const struct privs *p, unsigned bit)
{
	return (privs_reach(p) >> bit) & 1;
}

/* The names of a mask's capabilities, into s (cap_N past the known). */
static void cap_names(unsigned long long mask, struct names *s)
{
	unsigned bit;

	for (bit = 0; bit < 64; bit++) {
		char other[16];
		const char *name = sandbox_cap_name(bit);

		if (!(mask & (1ULL << bit)))
			continue;
		if (!name) {
			snprintf(other, sizeof(other), "cap_%u", bit);
			name = other;
		}
		sbx_names_add(s, name);
	}
}

static void add_caps(cJSON *o, const char *key, unsigned long long mask, int have)
{
	struct names s = { 0 };

	if (!have) {
		cJSON_AddNullToObject(o, key);
		return;
	}
	cap_names(mask, &s);
	cJSON_AddItemToObject(o, key, sbx_names_json(&s));
	sbx_names_release(&s);
}

static unsigned popcount64(unsigned long long v)
{
	unsigned n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

/* ---- identity.capabilities ------------------------------------------ */

/*
 * Whether the user namespace that owns this process's network namespace
 * is its own or a descendant: NS_GET_USERNS gives it then, and EPERM when
 * it is outside the caller's (ioctl_ns(2); kernel/user_namespace.c
 * ns_get_owner walks up from the owner to the caller's namespace).  Only
 * there do its capabilities act on the network (cap_capable, security/
 * commoncap.c): bwrap started by an unprivileged user makes the network
 * namespace in its outer user namespace and the process's in an inner one.
 * 1, 0, or -1 (cannot tell: a fixture, no such ioctl).
 */
static int netns_owned(const struct sbx *x, const struct privs *p)
{
	char *path;
	int fd, owner, rc;

	if (!live(x) || p->userns != 1)
		return p->userns == 0 && live(x) ? 1 : -1;
	path = path_join(x->proc, "self/ns/net");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return -1;
	owner = ioctl(fd, NS_GET_USERNS);
	rc = owner >= 0 ? 1 : errno == EPERM ? 0 : -1;
	if (owner >= 0)
		close(owner);
	close(fd);
	return rc;
}

/* The note on what capabilities in a user namespace act on. */
static void userns_note(const struct privs *p, struct result *r)
{
	if (p->userns != 1)
		return;
	if (p->host_root == 1)
		result_note(r, "in a user namespace that maps the host's uid 0 (as uid %lu): "
			    "they act on its namespaces and on every file whose owner is mapped "
			    "into it, the host's root-owned files among them (identity.host_root)",
			    p->hr_uid);
	else
		result_note(r, "in a user namespace that %s the host's uid 0: they act on its "
			    "own namespaces, and on files whose owner is mapped into it",
			    p->host_root == 0 ? "does not map" : "may map");
}

/*
 * What the process has or can get: effective | permitted | ambient (capset
 * raises a permitted one), and for root with no_new_privs off, the bounding
 * set that any exec gives back.  What a set-user-ID-root or file-capability
 * program could add (the bounding set) is said, not judged: which such
 * programs are in reach is another check's (identity.no_new_privs).
 */
void sbx_id_capabilities(const struct sbx *x, struct result *r)
{
	struct privs p;
	struct names bad = { 0 };
	struct buf msg = BUF_INIT;
	unsigned long long allowed = 0, now, reach, suid, inert;
	char mask[17];
	unsigned h;
	int netns;

	if (privs_read(x, &p, r) < 0)
		return;
	if (!p.id.have_cap_eff) {
		char *path = path_join(x->proc, "self/status");

		result_set(r, STATUS_ERROR, "cannot read %s: it has no CapEff line", path);
		r->reason = REASON_UNREADABLE;
		free(path);
		privs_release(&p);
		return;
	}
	if (x->e->want == SANDBOX_WANT_LIST)
		allowed = x->e->caps;
	now = sandbox_caps_now(&p.cs);
	reach = privs_reach(&p);
	suid = sandbox_caps_setuid(&p.cs) & ~reach;
	netns = netns_owned(x, &p);
	inert = sandbox_caps_inert(reach, netns);
	cap_names(reach & ~allowed & ~inert, &bad);
	h = p.id.have_caps;
	snprintf(mask, sizeof(mask), "%016llx", p.id.cap_eff);
	cJSON_AddStringToObject(r->data, "mask", mask);
	add_caps(r->data, "effective", p.cs.eff, 1);
	add_caps(r->data, "permitted", p.cs.prm, h & (1U << CAPSET_PRM));
	add_caps(r->data, "inheritable", p.cs.inh, h & (1U << CAPSET_INH));
	add_caps(r->data, "ambient", p.cs.amb, h & (1U << CAPSET_AMB));
	add_caps(r->data, "bounding", p.cs.bnd, h & (1U << CAPSET_BND));
	add_caps(r->data, "in_reach", reach, 1);
	add_caps(r->data, "by_setuid_exec", suid, 1);
	if (p.have_noroot)
		cJSON_AddBoolToObject(r->data, "secbit_noroot", p.cs.noroot);
	else
		cJSON_AddNullToObject(r->data, "secbit_noroot");
	cJSON_AddItemToObject(r->data, "not_allowed", sbx_names_json(&bad));
	if (netns < 0)
		cJSON_AddNullToObject(r->data, "network_namespace_owned");
	else
		cJSON_AddBoolToObject(r->data, "network_namespace_owned", netns);
	add_caps(r->data, "inert", inert, 1);
	buf_printf(&msg, "%u effective, %u permitted, %u ambient", popcount64(p.cs.eff),
		   popcount64(p.cs.prm), popcount64(p.cs.amb));
	if (inert) {
		struct names in = { 0 };
		struct buf list = BUF_INIT;

		cap_names(inert, &in);
		sbx_list_text(&list, in.v, in.n);
		buf_printf(&msg, "; %s act%s on no network: the user namespace that owns "
			   "this network namespace is outside this process's", buf_str(&list),
			   in.n == 1 ? "s" : "");
		buf_release(&list);
		sbx_names_release(&in);
	}
	if (reach & ~now)
		buf_printf(&msg, "; root without no_new_privs: any exec gives the bounding "
			   "set's %u", popcount64(reach & ~now));
	if (bad.n) {
		struct buf list = BUF_INIT;

		sbx_list_text(&list, bad.v, bad.n);
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "%zu capabilit%s in reach%s: %s "
			    "(%s)", bad.n, bad.n == 1 ? "y" : "ies",
			    x->e->want == SANDBOX_WANT_LIST ? " not allowed" : "",
			    buf_str(&list), buf_str(&msg));
		buf_release(&list);
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, reach & ~inert ? "%u "
			    "capabilities in reach, all allowed (%s)" : inert ? "no capabilities "
			    "in reach that act here%.0u (%s)" : "no capabilities in reach%.0u (%s)",
			    popcount64(reach & ~inert), buf_str(&msg));
	}
	/* capabilities(7), "Transformation of capabilities during execve()":
	 * a set-user-ID-root program (its owner uid 0 of this namespace) or
	 * one with file capabilities gives up to P(inheritable) |
	 * P(bounding), unless no_new_privs */
	if (suid)
		result_note(r, "a set-user-ID-root or file-capability program could give %u "
			    "more (the bounding set: no_new_privs is off, capabilities(7))",
			    popcount64(suid));
	if (reach)
		userns_note(&p, r);
	buf_release(&msg);
	sbx_names_release(&bad);
	privs_release(&p);
}

/* ---- identity.host_root ---------------------------------------------- */

static void host_root_data(const struct privs *p, struct result *r)
{
	cJSON *a = cJSON_AddArrayToObject(r->data, "uids");
	int i;

	for (i = 0; i < 4; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber((double)p->id.uid[i]));
	if (p->userns < 0)
		cJSON_AddNullToObject(r->data, "user_namespace");
	else
		cJSON_AddBoolToObject(r->data, "user_namespace", p->userns);
	if (p->host_root < 0)
		cJSON_AddNullToObject(r->data, "host_root_mapped");
	else
		cJSON_AddBoolToObject(r->data, "host_root_mapped", p->host_root);
	if (p->host_root == 1)
		cJSON_AddNumberToObject(r->data, "host_root_uid", (double)p->hr_uid);
	else
		cJSON_AddNullToObject(r->data, "host_root_uid");
	if (p->host_root < 0 && p->hr_candidate)
		cJSON_AddNumberToObject(r->data, "host_root_candidate", (double)p->hr_uid);
	else
		cJSON_AddNullToObject(r->data, "host_root_candidate");
	sbx_add_nullable(r->data, "evidence", p->evidence);
	cJSON_AddBoolToObject(r->data, "cap_setuid", has_cap(p, CAP_SETUID_BIT));
}

/* 1 when one of the real, effective, saved and file system uids is the
 * host's uid 0 (a process returns to its real or saved uid without a
 * capability: setresuid(2)) */
static int is_host_root(const struct privs *p)
{
	int i;

	for (i = 0; p->host_root == 1 && i < 4; i++)
		if (p->id.uid[i] >= 0 && (unsigned long)p->id.uid[i] == p->hr_uid)
			return 1;
	return 0;
}

/* 1 when one of its uids is the one that may be the host's uid 0 */
static int is_candidate(const struct privs *p)
{
	int i;

	for (i = 0; i < 4; i++)
		if (p->id.uid[i] >= 0 && (unsigned long)p->id.uid[i] == p->hr_uid)
			return 1;
	return 0;
}

/*
 * Whether this process is, or can become, the host's uid 0.  A user
 * namespace contains capabilities, not the uid: a uid mapped to the
 * host's 0 owns what root owns on every file system it can reach, and
 * the kernel grants a capability of the namespace over any inode whose
 * owner is mapped into it (capabilities(7), "Interaction with user
 * namespaces"; fs/inode.c capable_wrt_inode_uidgid).  CAP_SETUID in the
 * namespace sets any mapped uid (setuid(2)).
 */
void sbx_id_host_root(const struct sbx *x, struct result *r)
{
	struct privs p;

	if (privs_read(x, &p, r) < 0)
		return;
	host_root_data(&p, r);
	if (p.host_root < 0 && p.hr_candidate && !has_cap(&p, CAP_SETUID_BIT) &&
	    !is_candidate(&p))
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "uid %ld: the host's uid 0 is "
			    "either not mapped here or uid %lu, which this process is not and "
			    "cannot set (no CAP_SETUID)", p.id.uid[1], p.hr_uid);
	else if (p.host_root < 0 && p.hr_candidate)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell whether uid %lu "
			    "here, %s, is the host's uid 0: /proc/sys/kernel's owner shows as "
			    "it, and the map gives it inside", p.hr_uid, is_candidate(&p) ?
			    "one of this process's uids" : "which CAP_SETUID lets this process "
			    "become");
	else if (p.host_root < 0)
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "cannot tell whether the "
			    "host's uid 0 is mapped into this user namespace");
	else if (p.host_root == 0)
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "the host's uid 0 is not mapped "
			    "into this user namespace (uid %ld here)", p.id.uid[1]);
	else if (is_host_root(&p) && p.userns == 0)
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "uid %ld in the initial user "
			    "namespace: the host's root", p.id.uid[1]);
	else if (is_host_root(&p))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "uid %lu here is the host's uid "
			    "0 (a user namespace that maps it: what it writes on a file system "
			    "of the host, it writes as the host's root)", p.hr_uid);
	else if (has_cap(&p, CAP_SETUID_BIT))
		sbx_verdict(x, r, 0, STATUS_PASS, REASON_NONE, "uid %ld, but CAP_SETUID lets it "
			    "become uid %lu, the host's uid 0", p.id.uid[1], p.hr_uid);
	else
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "uid %ld: the host's uid 0 is uid "
			    "%lu here, which this process is not and cannot set (no CAP_SETUID)",
			    p.id.uid[1], p.hr_uid);
	if (p.host_root == 1 && !is_host_root(&p) && p.id.no_new_privs != 1)
		result_note(r, "no_new_privs is off: a set-user-ID program owned by uid %lu "
			    "would run as the host's root (identity.no_new_privs)", p.hr_uid);
	privs_release(&p);
}

/* ---- fs.root: the remount ------------------------------------------- */

/* The user namespace owning this process's mount namespace, by
 * NS_GET_USERNS (ioctl_ns(2)): 1 ours, 0 another (EPERM: an ancestor,
 * outside our scope), -1 cannot tell. */
static int mntns_ours(const struct sbx *x, const struct privs *p)
{
	char *path = path_join(x->proc, "self/ns/mnt");
	int fd = open(path, O_RDONLY | O_CLOEXEC), owner, rc = -1;
	struct stat st;

	free(path);
	if (fd < 0)
		return -1;
	owner = ioctl(fd, NS_GET_USERNS);
	if (owner < 0)
		rc = errno == EPERM ? 0 : -1;
	else if (fstat(owner, &st) == 0 && p->userns >= 0)
		rc = (unsigned long)st.st_ino == p->userns_ino;
	if (owner >= 0)
		close(owner);
	close(fd);
	return rc;
}

/* Where the kernel cannot be asked: 1 when mountinfo says the file system
 * of / is itself read-only (its super options) and of a type no user
 * namespace mounts (FS_USERNS_MOUNT: tmpfs, overlay, fuse, ... may be
 * ours), so only CAP_SYS_ADMIN in the initial namespace could make it
 * writable (fs/namespace.c do_remount: ns_capable(sb->s_user_ns)). */
static int sb_read_only(const struct sbx *x)
{
	static const char *const userns_types[] = {
		"tmpfs", "overlay", "ramfs", "proc", "sysfs", "devpts", "mqueue", "fuse",
	};
	char *path = path_join(x->proc, "self/mountinfo");
	struct sandbox_mount m;
	struct blob b;
	int ro = 0;
	size_t i;

	if (saferead_path(path, SBX_MOUNTINFO_CAP, &b) == 0) {
		ro = sandbox_mount_at(b.data, b.len, "/", &m) == 0 && m.found && m.super_ro;
		blob_release(&b);
	}
	free(path);
	for (i = 0; ro && i < ARRAY_SIZE(userns_types); i++)
		if (!strncmp(m.fstype, userns_types[i], strlen(userns_types[i])))
			ro = 0;
	return ro;
}

/* The answers of the try */
enum { TRY_WRITABLE = 10, TRY_LOCKED, TRY_SB_READ_ONLY };

/*
 * What the remount would give, asked of the kernel on a copy: a detached
 * clone of the / mount (open_tree(2) OPEN_TREE_CLONE: no namespace, not
 * attached anywhere, gone when closed), whose flags, lock bits included,
 * are those of ours (fs/namespace.c clone_mnt copies mnt_flags); then
 * mount_setattr(2) clearing MOUNT_ATTR_RDONLY on the clone alone, which
 * the kernel refuses (EPERM) when the flag is locked
 * (can_change_locked_flags) and which touches no superblock; then
 * whether dir is writable through it.  A TRY_ answer, or -1 when it could
 * not be tried (a kernel before 5.12, a seccomp filter, a fixture).
 * Nothing is forked, mounted or written.
 */
static int remount_answer(const struct sbx *x, const char *dir)
{
	struct mount_attr attr;
	const char *rel = dir[1] ? dir + 1 : ".";
	int fd, rc = -1;

	if (!live(x))
		return -1;
	fd = (int)syscall(SYS_open_tree, AT_FDCWD, "/", OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC);
	/* a / with locked mounts beneath is cloned only with them
	 * (__do_loopback: has_locked_children is EINVAL) */
	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(SYS_open_tree, AT_FDCWD, "/",
				  OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
	if (fd < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.attr_clr = MOUNT_ATTR_RDONLY;
	if (syscall(SYS_mount_setattr, fd, "", AT_EMPTY_PATH, &attr, sizeof(attr)) < 0)
		rc = errno == EPERM ? TRY_LOCKED : -1;
	else if (faccessat(fd, rel, W_OK, AT_EACCESS) == 0)
		rc = TRY_WRITABLE;
	else
		rc = errno == EROFS ? TRY_SB_READ_ONLY : -1;
	close(fd);
	return rc;
}

static const char *remount_word(int a)
{
	switch (a) {
	case TRY_WRITABLE: return "possible";
	case TRY_LOCKED: return "locked";
	case TRY_SB_READ_ONLY: return "file system read-only";
	default: return "cannot tell";
	}
}

/*
 * A read-only / that this process could remount read-write, by the
 * kernel's rule (mount(2), mount_namespaces(7)): MS_REMOUNT needs
 * CAP_SYS_ADMIN in the user namespace owning the mount namespace, and a
 * read-only flag locked when the mounts were copied from a more
 * privileged namespace (MNT_LOCK_READONLY) cannot be cleared; which is
 * locked /proc/self/mountinfo does not show, so the kernel is asked on a
 * detached clone (remount_answer).  Called by fs.root with / read-only and dir writable but for
 * the flag; returns 1 when the remount would make dir writable (r's data
 * and message text in msg), 0 when it would not, -1 cannot tell.
 */
static int root_remount(const struct sbx *x, const struct privs *p, const char *dir,
			struct result *r, struct buf *why)
{
	int ours = -1, a = -1;

	if (!has_cap(p, CAP_SYS_ADMIN_BIT)) {
		sbx_add_nullable(r->data, "remount", "no CAP_SYS_ADMIN");
		return 0;
	}
	ours = mntns_ours(x, p);
	if (ours == 0) {
		sbx_add_nullable(r->data, "remount", "not its mount namespace");
		buf_puts(why, "CAP_SYS_ADMIN, but not in the user namespace that owns the "
			 "mount namespace: mount(2) refuses a remount");
		return 0;
	}
	a = ours == 1 ? remount_answer(x, dir) : -1;
	if (a < 0 && p->userns == 1 && sb_read_only(x))
		a = TRY_SB_READ_ONLY;
	sbx_add_nullable(r->data, "remount", remount_word(a));
	if (a == TRY_LOCKED) {
		buf_puts(why, "CAP_SYS_ADMIN, but the read-only flag is locked "
			 "(MNT_LOCK_READONLY: the mounts were copied from a more privileged "
			 "namespace, mount_namespaces(7))");
		return 0;
	}
	if (a == TRY_SB_READ_ONLY) {
		buf_puts(why, "CAP_SYS_ADMIN, but the file system itself is read-only");
		return 0;
	}
	return a == TRY_WRITABLE ? 1 : -1;
}

/* ---- fs.root ---------------------------------------------------------- */

/* The directories whose change changes the system. */
static const char *const system_dirs[] = {
	"/", "/etc", "/usr", "/usr/bin", "/usr/lib", "/usr/local/bin", "/var", "/opt",
};

/* Each system directory writable: 1 now, 2 but for the read-only mount
 * (faccessat says EROFS only once permission is granted, fs/open.c
 * do_faccessat), 0 not. */
static int dir_writable(const char *dir)
{
	if (faccessat(AT_FDCWD, dir, W_OK, AT_EACCESS) == 0)
		return 1;
	return errno == EROFS ? 2 : 0;
}

/* The clause on whose the write would be; the severity: a fail for a
 * user namespace's root that is the host's (it looks private and writes
 * as the host's root), else the item's (the initial namespace's root is
 * identity.host_root's fail already). */
static enum status landing(const struct privs *p, struct buf *b)
{
	if (p->userns == 1 && is_host_root(p)) {
		buf_printf(b, "; uid %lu here is the host's uid 0: the write would be the "
			   "host's root's", p->hr_uid);
		return STATUS_FAIL;
	}
	if (p->userns == 0 && is_host_root(p))
		buf_puts(b, ", as the host's root");
	return STATUS_PASS;
}

/*
 * What fs.root asks is whether this process can change the system, not
 * the mount flag alone: a user without write permission on a read-write
 * root cannot (the frequent false alarm), and a read-only root is no
 * barrier to a process with CAP_SYS_ADMIN over its mount namespace, which
 * one remount makes writable (root_remount).
 */
void sbx_fs_root(const struct sbx *x, struct result *r)
{
	struct statvfs sv;
	struct names now = { 0 }, after = { 0 };
	struct buf msg = BUF_INIT, why = BUF_INIT, land = BUF_INIT;
	cJSON *w = cJSON_CreateArray();
	struct privs p;
	enum status sev = STATUS_PASS;
	int ro, rm = 0, have_p;
	size_t i;

	if (statvfs("/", &sv) < 0) {
		cJSON_Delete(w);
		sbx_could_not(r, "/ (statvfs)", errno);
		return;
	}
	have_p = privs_read(x, &p, NULL) == 0;
	ro = (sv.f_flag & ST_RDONLY) != 0;
	for (i = 0; i < ARRAY_SIZE(system_dirs); i++) {
		int d = dir_writable(system_dirs[i]);

		if (d == 1) {
			sbx_names_add(&now, system_dirs[i]);
			cJSON_AddItemToArray(w, cJSON_CreateString(system_dirs[i]));
		} else if (d == 2) {
			sbx_names_add(&after, system_dirs[i]);
		}
	}
	cJSON_AddBoolToObject(r->data, "read_only", ro);
	cJSON_AddItemToObject(r->data, "writable_dirs", w);
	cJSON_AddBoolToObject(r->data, "cap_sys_admin", have_p && has_cap(&p, CAP_SYS_ADMIN_BIT));
	if (have_p)
		sev = landing(&p, &land);
	if (!now.n && after.n && have_p)
		rm = root_remount(x, &p, after.v[0], r, &why);
	else
		cJSON_AddNullToObject(r->data, "remount");
	if (now.n) {
		sbx_list_text(&msg, now.v, now.n);
		sbx_verdict(x, r, 0, sev, REASON_NONE, "/ is mounted read-%s, and this "
			    "process can write to %s%s", ro ? "only" : "write", buf_str(&msg),
			    buf_str(&land));
	} else if (rm == 1) {
		sbx_list_text(&msg, after.v, after.n);
		sbx_verdict(x, r, 0, sev, REASON_NONE, "/ is "
			    "mounted read-only, but this process has CAP_SYS_ADMIN over its mount "
			    "namespace: one remount (mount -o remount,bind,rw /) would let it "
			    "write to %s%s", buf_str(&msg), buf_str(&land));
	} else if (rm < 0) {
		sbx_list_text(&msg, after.v, after.n);
		sbx_verdict(x, r, 0, STATUS_WARN, REASON_UNDECIDED, "/ is mounted read-only, and "
			    "this process has CAP_SYS_ADMIN in the user namespace owning its mount "
			    "namespace: cannot tell whether a remount would let it write to %s "
			    "(a locked flag is not shown in mountinfo)%s", buf_str(&msg),
			    buf_str(&land));
	} else if (ro) {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/ is mounted read-only%s%s%s",
			    why.len ? " (" : "", buf_str(&why), why.len ? ")" : "");
	} else {
		sbx_verdict(x, r, 1, STATUS_PASS, REASON_NONE, "/ is mounted read-write, but this "
			    "process cannot write to /, /etc, /usr or /var (permissions)");
	}
	if (have_p)
		privs_release(&p);
	buf_release(&msg);
	buf_release(&why);
	buf_release(&land);
	sbx_names_release(&now);
	sbx_names_release(&after);
}

/* ---- the network: setns(2) into another namespace ----------------------
 *
 * A private network namespace holds only a process that cannot leave it:
 * setns(2) into a network namespace needs CAP_SYS_ADMIN in the caller's
 * user namespace and in the one owning the target (net/core/net_namespace.c
 * netns_install), and a descriptor of it, which /proc/PID/ns/net of any
 * process of another network namespace gives when the PID namespace shows
 * it and ptrace access is granted, or a bind-mounted /run/netns/NAME
 * (ip-netns(8)).  Nothing is entered here: the links are compared. */

/* 1 when the network namespace at path is another than ours and this
 * process could enter it (owned by its user namespace, or it is in the
 * initial one). */
static int netns_enterable(const char *path, unsigned long self, const struct privs *p)
{
	struct stat st;
	int fd, owner, ok;

	if (stat(path, &st) < 0 || (unsigned long)st.st_ino == self)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ok = ioctl(fd, NS_GET_NSTYPE) == CLONE_NEWNET;
	if (ok && p->userns != 0) {
		struct stat o;

		owner = ioctl(fd, NS_GET_USERNS);
		ok = owner >= 0 && fstat(owner, &o) == 0 &&
		     (unsigned long)o.st_ino == p->userns_ino;
		if (owner >= 0)
			close(owner);
	}
	close(fd);
	return ok;
}

/* The first enterable namespace under /run/netns, /var/run/netns, then
 * <proc>/PID/ns/net (bounded: NETNS_WALK_MAX and the deadline), into
 * found: 1, or 0. */
static int netns_find(const struct sbx *x, unsigned long self, const struct privs *p,
		      struct buf *found, size_t *walked)
{
	static const char *const named[] = { "/run/netns", "/var/run/netns" };
	struct dirent *de;
	DIR *d;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(named); i++) {
		if (!(d = opendir(named[i])))
			continue;
		while ((de = readdir(d)) != NULL) {
			char *path = path_join(named[i], de->d_name);
			int ok = de->d_name[0] != '.' && netns_enterable(path, self, p);

			if (ok)
				buf_puts(found, path);
			free(path);
			if (ok) {
				closedir(d);
				return 1;
			}
		}
		closedir(d);
	}
	if (!(d = opendir(x->proc)))
		return 0;
	while ((de = readdir(d)) != NULL && *walked < NETNS_WALK_MAX) {
		struct buf rel = BUF_INIT;
		char *path;
		int ok;

		if (!de->d_name[0] || strspn(de->d_name, "0123456789") != strlen(de->d_name))
			continue;
		if (x->deadline_ms > 0 && clock_ms() >= x->deadline_ms)
			break;
		(*walked)++;
		buf_printf(&rel, "%s/ns/net", de->d_name);
		path = path_join(x->proc, buf_str(&rel));
		ok = netns_enterable(path, self, p);
		if (ok)
			buf_puts(found, path);
		free(path);
		buf_release(&rel);
		if (ok)
			break;
	}
	closedir(d);
	return found->len > 0;
}

int sbx_netns_reach(const struct sbx *x, struct result *r, struct buf *why)
{
	struct privs p;
	struct buf found = BUF_INIT;
	unsigned long self;
	size_t walked = 0;
	int admin, hit = 0;

	if (privs_read(x, &p, NULL) < 0) {
		cJSON_AddNullToObject(r->data, "enter_netns");
		return 0;
	}
	admin = has_cap(&p, CAP_SYS_ADMIN_BIT);
	cJSON_AddBoolToObject(r->data, "cap_sys_admin", admin);
	if (admin && live(x) && sbx_ns_ino(x, "self/ns/net", "net", &self) == 0)
		hit = netns_find(x, self, &p, &found, &walked);
	sbx_add_nullable(r->data, "enter_netns", hit ? buf_str(&found) : NULL);
	if (hit)
		buf_printf(why, "this process has CAP_SYS_ADMIN %s and can enter another network "
			   "namespace, %s (setns(2))", p.userns == 0 ? "in the initial user "
			   "namespace" : "over it", buf_str(&found));
	buf_release(&found);
	privs_release(&p);
	return hit;
}
