/* credkind.c - what kind of credential some bytes are (credkind.h).
 *
 * Where each rule comes from:
 *  - private keys: OpenSSH's sshkey.c reads its own format only when the
 *    file starts with MARK_BEGIN "-----BEGIN OPENSSH PRIVATE KEY-----\n",
 *    and hands every other file to OpenSSL's PEM reader (pem_lib.c,
 *    PEM_read_bio_ex), which skips lines until one starting "-----BEGIN "
 *    and ending "-----"; PuTTY's key files start "PuTTY-User-Key-File-"
 *    (putty sshpubk.c); ssh-keygen -i reads the SSH2 "---- BEGIN SSH2
 *    ENCRYPTED PRIVATE KEY ----" form.  linPEAS finds keys the same way,
 *    by content: grep -rl '-----BEGIN .* PRIVATE KEY-----' $HOME/.ssh
 *    (peass-ng/PEASS-ng linPEAS/builder/linpeas_parts/
 *    7_software_information/Ssh.sh), not by name.
 *  - git's credential store: builtin/credential-store.c,
 *    parse_credential_file, takes a line when credential_from_url gives
 *    it a username and a password: a ':' in the part before the '@' of
 *    the authority (between "://" and the first '/').
 *  - gh: hosts.yml's "oauth_token" key (cli/cli internal/config).
 *  - kubeconfig: client-go's AuthInfo (tools/clientcmd/api/v1/types.go):
 *    token, client-key-data, password, and an auth-provider's config
 *    (id-token, refresh-token, access-token).
 *  - .pypirc: the "password" option twine and distutils read from a
 *    server section (configparser: '=' or ':', option names lowercased).
 *  - the environment: linPEAS (1_system_information/10_Environment.sh)
 *    marks every variable whose name holds passw, apikey or api_key;
 *    these names are those and the token and secret names of GitHub, npm
 *    and AWS (GITHUB_TOKEN, GH_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY,
 *    AWS_SESSION_TOKEN) and their families.
 */
#include "credkind.h"
#include "span.h"
#include "util.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

/* ---- private keys ---------------------------------------------------- */

static const struct {
	const char *label;	/* between "-----BEGIN " and "-----" */
	int kind;
} pem_labels[] = {
	{ "OPENSSH PRIVATE KEY", CREDKIND_KEY_OPENSSH },
	{ "RSA PRIVATE KEY", CREDKIND_KEY_RSA },
	{ "EC PRIVATE KEY", CREDKIND_KEY_EC },
	{ "DSA PRIVATE KEY", CREDKIND_KEY_DSA },
	{ "PRIVATE KEY", CREDKIND_KEY_PKCS8 },
	{ "ENCRYPTED PRIVATE KEY", CREDKIND_KEY_ENCRYPTED },
};

static int starts(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n >= k && !memcmp(p, word, k);
}

/* Whether p[0..n) could still become word's start: a prefix of it. */
static int could_start(const char *p, size_t n, const char *word)
{
	size_t k = strlen(word);

	return n < k && !memcmp(p, word, n);
}

/* The kind of one whole line (CR and trailing blanks dropped), or NONE. */
static int key_line(struct span l)
{
	static const char begin[] = "-----BEGIN ", end[] = "-----";
	static const char tail[] = "PRIVATE KEY";
	size_t i, k;

	while (l.n && span_blank(l.p[l.n - 1]))
		l.n--;
	if (starts(l.p, l.n, "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----"))
		return CREDKIND_KEY_SSH2;
	if (!starts(l.p, l.n, begin) || l.n < sizeof(begin) - 1 + sizeof(end) - 1 ||
	    memcmp(l.p + l.n - (sizeof(end) - 1), end, sizeof(end) - 1))
		return CREDKIND_KEY_NONE;
	l.p += sizeof(begin) - 1;
	l.n -= sizeof(begin) - 1 + sizeof(end) - 1;
	for (i = 0; i < ARRAY_SIZE(pem_labels); i++)
		if (span_is(l, pem_labels[i].label))
			return pem_labels[i].kind;
	k = sizeof(tail) - 1;
	if (l.n >= k && !memcmp(l.p + l.n - k, tail, k))
		return CREDKIND_KEY_OTHER;
	return CREDKIND_KEY_NONE;
}

int credkind_key(const char *buf, size_t len, int eof)
{
	size_t pos = 0;

	if (len > CREDKIND_HEAD_MAX) {
		len = CREDKIND_HEAD_MAX;
		eof = 1;	/* what lies past the head is not looked at */
	}
	if (starts(buf, len, "PuTTY-User-Key-File-"))
		return CREDKIND_KEY_PUTTY;
	if (!eof && could_start(buf, len, "PuTTY-User-Key-File-"))
		return CREDKIND_MORE;
	if (memchr(buf, '\0', len))
		return CREDKIND_KEY_NONE;
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		struct span l = { buf + pos, nl ? (size_t)(nl - (buf + pos)) : len - pos };
		int kind;

		if (!nl && !eof)
			return CREDKIND_MORE;	/* the line goes on */
		kind = key_line(l);
		if (kind != CREDKIND_KEY_NONE)
			return kind;
		pos += l.n + 1;
	}
	return eof ? CREDKIND_KEY_NONE : CREDKIND_MORE;
}

const char *credkind_key_name(int kind)
{
	switch (kind) {
	case CREDKIND_KEY_OPENSSH:
		return "openssh-private-key";
	case CREDKIND_KEY_RSA:
		return "rsa-private-key";
	case CREDKIND_KEY_EC:
		return "ec-private-key";
	case CREDKIND_KEY_DSA:
		return "dsa-private-key";
	case CREDKIND_KEY_PKCS8:
		return "pkcs8-private-key";
	case CREDKIND_KEY_ENCRYPTED:
		return "encrypted-private-key";
	case CREDKIND_KEY_OTHER:
		return "private-key";
	case CREDKIND_KEY_SSH2:
		return "ssh2-private-key";
	case CREDKIND_KEY_PUTTY:
		return "putty-private-key";
	default:
		return NULL;
	}
}

/* ---- git's credential store -------------------------------------------- */

/* credential_from_url: the authority runs from after "://" to the first
 * '/' (strchrnul); a '@' in it ends the user part, and a ':' in that gives
 * a password (maybe empty: still a password). */
static int git_line(struct span l)
{
	const char *s = NULL, *auth, *slash, *at, *colon;
	size_t i, rest;

	for (i = 0; i + 3 <= l.n; i++)
		if (!memcmp(l.p + i, "://", 3)) {
			s = l.p + i;
			break;
		}
	if (!s || s == l.p)
		return 0;
	auth = s + 3;
	rest = (size_t)(l.p + l.n - auth);
	slash = memchr(auth, '/', rest);
	if (!slash)
		slash = l.p + l.n;
	at = memchr(auth, '@', (size_t)(slash - auth));
	if (!at)
		return 0;
	colon = memchr(auth, ':', (size_t)(at - auth));
	return colon != NULL;
}

int credkind_git_credentials(const char *buf, size_t len)
{
	struct span l;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &l))
		if (git_line(l))
			return 1;
	return 0;
}

/* ---- YAML-ish keys: hosts.yml, kubeconfig ------------------------------- */

/* Whether a YAML line is "key: value" for this key at any depth (a list
 * item's "- " before it too) with a value that is not empty, null or "". */
static int yaml_key(struct span l, const char *key)
{
	size_t k = strlen(key), i = 0;
	struct span v;

	while (i < l.n && (span_blank(l.p[i]) || l.p[i] == '-'))
		i++;
	if (i + k >= l.n || memcmp(l.p + i, key, k) || l.p[i + k] != ':')
		return 0;
	i += k + 1;
	if (i < l.n && !span_blank(l.p[i]))
		return 0;
	while (i < l.n && span_blank(l.p[i]))
		i++;
	v.p = l.p + i;
	v.n = l.n - i;
	while (v.n && span_blank(v.p[v.n - 1]))
		v.n--;
	if (!v.n || *v.p == '#' || span_is(v, "null") || span_is(v, "~") ||
	    span_is(v, "\"\"") || span_is(v, "''"))
		return 0;
	return 1;
}

int credkind_gh_hosts(const char *buf, size_t len)
{
	struct span l;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &l))
		if (yaml_key(l, "oauth_token"))
			return 1;
	return 0;
}

int credkind_kube(const char *buf, size_t len)
{
	static const struct {
		const char *key;
		int kind;
	} keys[] = {
		{ "token", CREDKIND_KUBE_TOKEN },
		{ "client-key-data", CREDKIND_KUBE_CLIENT_KEY },
		{ "password", CREDKIND_KUBE_PASSWORD },
		{ "id-token", CREDKIND_KUBE_PROVIDER_TOKEN },
		{ "refresh-token", CREDKIND_KUBE_PROVIDER_TOKEN },
		{ "access-token", CREDKIND_KUBE_PROVIDER_TOKEN },
	};
	struct span l;
	size_t pos = 0, i;

	while (span_next_line(buf, len, &pos, &l))
		for (i = 0; i < ARRAY_SIZE(keys); i++)
			if (yaml_key(l, keys[i].key))
				return keys[i].kind;
	return CREDKIND_KUBE_NONE;
}

const char *credkind_kube_name(int kind)
{
	switch (kind) {
	case CREDKIND_KUBE_TOKEN:
		return "kube-token";
	case CREDKIND_KUBE_CLIENT_KEY:
		return "kube-client-key";
	case CREDKIND_KUBE_PASSWORD:
		return "kube-password";
	case CREDKIND_KUBE_PROVIDER_TOKEN:
		return "kube-auth-provider-token";
	default:
		return NULL;
	}
}

/* ---- .pypirc -------------------------------------------------------- */

int credkind_pypirc(const char *buf, size_t len)
{
	struct span l;
	size_t pos = 0;

	while (span_next_line(buf, len, &pos, &l)) {
		size_t i = 0, k = strlen("password");

		/* configparser: an indented line continues the value above */
		if (l.n && span_blank(*l.p))
			continue;
		if (l.n < k || strncasecmp(l.p, "password", k))
			continue;
		i = k;
		while (i < l.n && span_blank(l.p[i]))
			i++;
		if (i == l.n || (l.p[i] != '=' && l.p[i] != ':'))
			continue;
		for (i++; i < l.n; i++)
			if (!span_blank(l.p[i]))
				return 1;
	}
	return 0;
}

/* ---- the environment -------------------------------------------------- */

static int ends(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	return n >= k && !memcmp(s + n - k, suffix, k);
}

int credkind_env_name(const char *name)
{
	/* names that point at a secret or describe one, not hold it */
	static const char *const not_secret[] = {
		"_FILE", "_PATH", "_DIR", "_URL", "_URI", "_NAME", "_TYPE", "_PROMPT",
		"_COMMAND", "_CMD", "_HEADER", "_PREFIX", "_EXPIRES", "_EXPIRY",
		"_EXPIRATION", "_TTL", "_LENGTH", "_POLICY", "_HINT", "_ENABLED",
		"_DISABLED", "_REQUIRED", "_SOCK", "_SOCKET",
	};
	static const char *const suffixes[] = {
		"_TOKEN", "_AUTHTOKEN", "_API_KEY", "_APIKEY", "_PRIVATE_KEY",
		"__AUTH",
	};
	static const char *const whole[] = {
		"TOKEN", "API_KEY", "APIKEY", "SECRET", "PASSWORD", "DOCKER_AUTH_CONFIG",
	};
	char up[256];
	size_t n = strlen(name), i;

	if (!n || n >= sizeof(up))
		return 0;
	for (i = 0; i < n; i++)
		up[i] = (char)toupper((unsigned char)name[i]);
	up[n] = '\0';
	for (i = 0; i < ARRAY_SIZE(whole); i++)
		if (!strcmp(up, whole[i]))
			return 1;
	for (i = 0; i < ARRAY_SIZE(not_secret); i++)
		if (ends(up, n, not_secret[i]))
			return 0;
	if (strstr(up, "PASSWORD") || strstr(up, "PASSWD") || strstr(up, "_SECRET") ||
	    !strncmp(up, "SECRET_", 7) || strstr(up, "API_KEY") || strstr(up, "APIKEY"))
		return 1;
	for (i = 0; i < ARRAY_SIZE(suffixes); i++)
		if (ends(up, n, suffixes[i]))
			return 1;
	return 0;
}
