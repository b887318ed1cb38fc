/* sandbox.h - the sandbox probe's vocabulary and its pure parsers.
 *
 * The words preflight.yaml's `sandbox:` may use (keys, capability and
 * secret names: spec_preflight.c reads them), and readers of the text the
 * sandbox probe (probe_sandbox.c) looks at: /proc/self/status,
 * /proc/net/dev, /proc/net/route and ipv6_route, mountinfo, a uid_map,
 * /etc/resolv.conf, /etc/passwd, /etc/group, sudoers, and the few
 * credential files whose "token line" decides whether they hold a secret.
 *
 * Every parser takes a buffer and a length (the text need not end in a
 * NUL), makes no system call, and copies nothing of the text out but the
 * names it returns: none of them ever hands back a secret's value.  Safe
 * to fuzz.  Thread-safe.
 */
#ifndef EP_SANDBOX_H
#define EP_SANDBOX_H

#include <stddef.h>

#include "sudoers.h"

/* ---- the words of preflight.yaml sandbox: ------------------------- */

/* The keys of `sandbox:` (spec.h's struct sandbox_spec holds what each
 * expects). */
enum sandbox_key {
	SANDBOX_NETWORK,	/* none | any */
	SANDBOX_ROOT,		/* read-only | any */
	SANDBOX_REPOSITORY,	/* writable | read-only | any */
	SANDBOX_HOME,		/* writable | any */
	SANDBOX_USER,		/* non-root | any */
	SANDBOX_GROUPS,		/* unprivileged | any */
	SANDBOX_NO_NEW_PRIVS,	/* required | any */
	SANDBOX_CAPABILITIES,	/* none | any | [CAP_NAME, ...] */
	SANDBOX_SECCOMP,	/* filter | any */
	SANDBOX_PID_NAMESPACE,	/* private | any */
	SANDBOX_PROCESSES,	/* N | any */
	SANDBOX_HIDEPID,	/* required | any */
	SANDBOX_DOCKER,		/* none | any */
	SANDBOX_SUDO,		/* none | any */
	SANDBOX_VAR_RUN,	/* read-only | any */
	SANDBOX_SECRETS,	/* none | any | [ssh, aws, ...] */
	SANDBOX_METADATA,	/* none | any: the cloud metadata address */
	SANDBOX_KERNEL,		/* protected | any: /proc/sys, core_pattern,
				 * release_agent, binfmt_misc, uevent_helper */
	SANDBOX_HOST_MOUNTS,	/* none | any: the host's paths mounted in */
	SANDBOX_PTRACE,		/* restricted | any */
	SANDBOX_LSM,		/* confined | any: AppArmor, SELinux */
	SANDBOX_LANDLOCK,	/* required | any (default any) */
	SANDBOX_DEVICES,	/* none | any: block devices */
	SANDBOX_HOST_ROOT,	/* none | any: the host's uid 0 within reach */
	SANDBOX_USERNS,		/* denied | any: new user namespaces */
};
#define SANDBOX_KEYS (SANDBOX_USERNS + 1)


/* Whether a field of a /proc/self/mountinfo line, p[0..len), is want
 * once its \ooo escapes are undone. */
int sandbox_mountinfo_field_is(const char *p, size_t len, const char *want);

/* "network", "no_new_privs", ... (static) */
const char *sandbox_key_name(enum sandbox_key k);
/* The key's default word ("none", "read-only", ...), or NULL for
 * `processes`, whose default is a number (static). */
const char *sandbox_key_default(enum sandbox_key k);
/* The key's third word besides the default and "any" ("read-only" for
 * repository), or NULL (static). */
const char *sandbox_key_alt(enum sandbox_key k);
/* 1 when the key judges only when preflight.yaml names its word: left
 * out, it means `any` (landlock, which few sandboxes use yet). */
int sandbox_key_lax(enum sandbox_key k);

/* Capabilities by number, as include/uapi/linux/capability.h numbers
 * them (CAP_CHOWN 0 ... CAP_CHECKPOINT_RESTORE 40). */
#define SANDBOX_CAPS_KNOWN 41
/* "CAP_CHOWN", ...; NULL past the last known (static). */
const char *sandbox_cap_name(unsigned bit);
/* "CAP_NET_RAW", "net_raw" (any case) to its number, or -1. */
int sandbox_cap_parse(const char *name);

/* The secrets the probe looks for, one check each, in report order. */
enum sandbox_secret {
	SECRET_SSH,		/* ~/.ssh private keys, SSH_AUTH_SOCK */
	SECRET_AWS,		/* ~/.aws/credentials */
	SECRET_GCLOUD,		/* ~/.config/gcloud credentials */
	SECRET_DOCKER,		/* ~/.docker/config.json auths */
	SECRET_NPMRC,		/* ~/.npmrc token line */
	SECRET_NETRC,		/* ~/.netrc password */
	SECRET_GIT,		/* ~/.git-credentials, git's store */
	SECRET_GH,		/* ~/.config/gh/hosts.yml oauth_token */
	SECRET_KUBE,		/* ~/.kube/config (KUBECONFIG) user credentials */
	SECRET_PYPIRC,		/* ~/.pypirc password */
	SECRET_ENVIRONMENT,	/* token variables in the environment, by name */
	SECRET_MOUNTED,		/* /run/secrets, a service-account token */
};
#define SANDBOX_SECRETS_KNOWN (SECRET_MOUNTED + 1)
/* "ssh", "aws", ... (static) */
const char *sandbox_secret_name(enum sandbox_secret s);
/* the name to its enum value, or -1 */
int sandbox_secret_parse(const char *name);

/* ---- /proc/self/status ------------------------------------------- */

/* What the kernel says of a process.  -1 where the line is absent
 * (NoNewPrivs since Linux 4.10, Seccomp_filters since 5.9). */
struct proc_identity {
	long uid[4], gid[4];	/* real, effective, saved, file system */
	unsigned long *groups;	/* Groups: (supplementary), owned */
	size_t ngroups;
	int no_new_privs;	/* 0, 1, or -1 */
	int seccomp;		/* 0 disabled, 1 strict, 2 filter, or -1 */
	long seccomp_filters;	/* or -1 */
	unsigned long long cap_eff;
	int have_cap_eff;
	/* the other sets, by enum sandbox_cap_set; have_caps has bit
	 * (1 << set) for each line that was there (CapAmb: since 4.3) */
	unsigned long long caps[4];
	unsigned have_caps;
};
enum sandbox_cap_set { CAPSET_INH, CAPSET_PRM, CAPSET_BND, CAPSET_AMB };
#define SANDBOX_CAP_SETS 4

/*
 * Fill *out from the text of a status file.  Returns 0, or -1 when a line
 * the probe relies on is missing or does not parse (Uid, Gid, Groups,
 * NoNewPrivs, Seccomp, CapEff: hex digits only, at most 16), with *bad set
 * to its name (static).  Release out with proc_identity_release either
 * way.
 */
int sandbox_status_parse(const char *buf, size_t len, struct proc_identity *out,
			 const char **bad);
void proc_identity_release(struct proc_identity *id);

/* ---- the network namespace: /proc/net ------------------------------ */

/* Interface names of a /proc/net/dev table (the two header lines are
 * skipped by position): fn is called with each name that fits IFNAMSIZ,
 * in order.  Returns how many lines named one. */
size_t sandbox_netdev_names(const char *buf, size_t len,
			    void (*fn)(const char *name, void *arg), void *arg);

/* The default routes of a /proc/net/route (family 4) or
 * /proc/net/ipv6_route (family 6) table: destination and prefix length 0,
 * RTF_UP set, RTF_REJECT not (the kernel keeps an unreachable default on
 * lo in ipv6_route: that one is not a way out).  fn gets each route's
 * interface name.  Returns how many. */
size_t sandbox_default_routes(const char *buf, size_t len, int family,
			      void (*fn)(const char *iface, void *arg), void *arg);

/* The nameserver lines of a resolv.conf, as the resolver reads them (a
 * line "nameserver ADDR"; # and ; start comments): fn gets each ADDR (at
 * most 63 bytes, else skipped).  Returns how many. */
size_t sandbox_resolv_nameservers(const char *buf, size_t len,
				  void (*fn)(const char *addr, void *arg), void *arg);

/* ---- processes --------------------------------------------------- */

/* hidepid of a proc mount, as the kernel prints it (numbers before 5.8,
 * words since). */
enum sandbox_hidepid {
	HIDEPID_OFF = 0,	/* "0", "off" */
	HIDEPID_NOACCESS = 1,	/* "1", "noaccess" */
	HIDEPID_INVISIBLE = 2,	/* "2", "invisible" */
	HIDEPID_PTRACEABLE = 4,	/* "4", "ptraceable" */
};

struct proc_mount {
	int found;		/* a proc file system is mounted there */
	enum sandbox_hidepid hidepid;
	int subset_pid;		/* subset=pid: only the process directories */
};

/* The last proc mount of a mountinfo text whose mount point is
 * mount_point (the one on top, that a path lookup finds).  Returns 0 (out
 * filled, found 0 when there is none), or -1 when the text holds no line
 * that parses as a mountinfo line. */
int sandbox_mountinfo_proc(const char *buf, size_t len, const char *mount_point,
			   struct proc_mount *out);

/* The initial namespaces' inode numbers (include/linux/proc_ns.h,
 * PROC_USER_INIT_INO and PROC_PID_INIT_INO, fixed since Linux 3.8): a
 * process whose /proc/self/ns/pid reads pid:[4026531836] shares the
 * host's PID namespace. */
#define SANDBOX_USER_INIT_INO 0xEFFFFFFDUL
#define SANDBOX_PID_INIT_INO 0xEFFFFFFCUL

/* The inode of a namespace link's text "TYPE:[N]" for type: 0, or -1
 * when it is not that shape. */
int sandbox_ns_inode(const char *link, const char *type, unsigned long *ino);

/* The id outside a user namespace that id inside maps to, from a uid_map
 * or gid_map text ("inside outside count" lines): 0, or -1 when id is not
 * mapped or the text does not parse.  *whole is 1 when one line maps all
 * 4294967295 ids to themselves: the initial user namespace. */
int sandbox_id_map(const char *buf, size_t len, unsigned long id,
		   unsigned long *outside, int *whole);

/* ---- /etc: users and groups (sudoers: sudoers.h) ------------------ */

/* The name and home directory of uid in a passwd text (name or home may
 * be NULL).  0 (copied, cut to size), or -1 when no line has uid. */
int sandbox_passwd_find(const char *buf, size_t len, unsigned long uid,
			char *name, size_t name_size, char *home, size_t home_size);
/* The name of gid in a group text: 0, or -1. */
int sandbox_group_name(const char *buf, size_t len, unsigned long gid,
		       char *name, size_t name_size);

/* Groups whose members can leave or own a sandbox (gid 0, sudo, wheel,
 * admin, docker, lxd, incus-admin, libvirt, disk, shadow): 1 or 0. */
int sandbox_group_privileged(const char *name, unsigned long gid);

/* ---- token lines: does a credential file hold a credential? --------
 * Each looks only for the line that would hold one and says yes or no;
 * no value is copied out. */

/* ~/.npmrc: a key ending in _authToken, _auth or _password, with a value
 * (npm's config keys, also scoped: //registry/:_authToken=...).  Returns
 * 0 none, 1 a literal value, 2 only values that are ${VAR} references
 * (the first VAR is copied into var, at most var_size - 1 bytes: npm
 * expands it from the environment). */
int sandbox_npmrc_token(const char *buf, size_t len, char *var, size_t var_size);
/* ~/.aws/credentials: 1 when a profile sets aws_secret_access_key or
 * aws_session_token to a value (an INI key, any case, blanks around '='),
 * else 0. */
int sandbox_aws_secret(const char *buf, size_t len);
/* ~/.netrc: 1 when a "password" token is there (netrc's tokens are
 * whitespace-separated words), else 0. */
int sandbox_netrc_password(const char *buf, size_t len);
/* ~/.docker/config.json: 1 when a key "auth", "password",
 * "identitytoken" or "registrytoken" is there with a value (a stored
 * registry login: docker's AuthConfig fields), else 0; a credsStore or
 * credHelpers alone keeps none in the file. */
int sandbox_docker_auth(const char *buf, size_t len);

#endif
