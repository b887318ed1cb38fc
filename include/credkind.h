/* credkind.h - what kind of credential some bytes are: the pure
 * recognisers of the sandbox probe's secrets checks (src/probes/
 * sandbox_cred.c reads the files; these only look at what it read).
 *
 * Each takes a buffer and a length (no NUL needed), makes no system call,
 * copies nothing out and says only yes, no or which kind: no value ever
 * leaves them.  Safe to fuzz.  Thread-safe.
 */
#ifndef EP_CREDKIND_H
#define EP_CREDKIND_H

#include <stddef.h>

/* The most of a file's head credkind_key looks at. */
#define CREDKIND_HEAD_MAX 4096

/* The kinds of private key a file's first bytes can show. */
enum credkind_key {
	CREDKIND_KEY_NONE,
	CREDKIND_KEY_OPENSSH,	/* -----BEGIN OPENSSH PRIVATE KEY----- */
	CREDKIND_KEY_RSA,	/* -----BEGIN RSA PRIVATE KEY----- (PKCS#1) */
	CREDKIND_KEY_EC,	/* -----BEGIN EC PRIVATE KEY----- */
	CREDKIND_KEY_DSA,	/* -----BEGIN DSA PRIVATE KEY----- */
	CREDKIND_KEY_PKCS8,	/* -----BEGIN PRIVATE KEY----- */
	CREDKIND_KEY_ENCRYPTED,	/* -----BEGIN ENCRYPTED PRIVATE KEY----- */
	CREDKIND_KEY_OTHER,	/* -----BEGIN <other> PRIVATE KEY----- */
	CREDKIND_KEY_SSH2,	/* ---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ---- */
	CREDKIND_KEY_PUTTY,	/* PuTTY-User-Key-File-N: */
};
/* More bytes would decide (credkind_key's answer, not a kind). */
#define CREDKIND_MORE (-1)

/*
 * The kind of private key whose file begins with buf[0..len): a kind,
 * CREDKIND_KEY_NONE, or CREDKIND_MORE when the bytes seen so far cannot
 * tell and more of the file would (never when eof is set, the file ending
 * there, nor past CREDKIND_HEAD_MAX bytes).  A header line anywhere in
 * the head counts, as OpenSSL's PEM reader skips text before it; a NUL
 * byte ends the search (not a text file).
 */
int credkind_key(const char *buf, size_t len, int eof);
/* "openssh-private-key", ..., "putty-private-key" (static); NULL for
 * NONE. */
const char *credkind_key_name(int kind);

/* Line-oriented credential files: 1 when one holds a credential, else 0. */

/* git's credential store (~/.git-credentials): a line that is a URL with a
 * user and a password, "https://user:pass@host". */
int credkind_git_credentials(const char *buf, size_t len);
/* gh's hosts.yml: an oauth_token key with a value (gh keeps the token in
 * the system keyring instead since 2.40, and then writes none). */
int credkind_gh_hosts(const char *buf, size_t len);

/* A kubeconfig's user credentials, the first found. */
enum credkind_kube {
	CREDKIND_KUBE_NONE,
	CREDKIND_KUBE_TOKEN,		/* token: */
	CREDKIND_KUBE_CLIENT_KEY,	/* client-key-data: */
	CREDKIND_KUBE_PASSWORD,		/* password: (basic auth) */
	CREDKIND_KUBE_PROVIDER_TOKEN,	/* auth-provider's id-token:,
					 * refresh-token:, access-token: */
};
int credkind_kube(const char *buf, size_t len);
/* "kube-token", "kube-client-key", ... (static); NULL for NONE. */
const char *credkind_kube_name(int kind);

/* ~/.pypirc: a password key with a value in any section (configparser:
 * '=' or ':', keys in any case). */
int credkind_pypirc(const char *buf, size_t len);

/*
 * 1 when an environment variable's name is a secret's (GITHUB_TOKEN,
 * NPM_TOKEN, AWS_SECRET_ACCESS_KEY, *_TOKEN, *SECRET*, *_API_KEY,
 * *PASSWORD*, *_PRIVATE_KEY, in any case), and not one of the names that
 * only point at one or describe one (*_FILE, *_PATH, *_DIR, *_URL, ...).
 * The value is never looked at here.
 */
int credkind_env_name(const char *name);

#endif
