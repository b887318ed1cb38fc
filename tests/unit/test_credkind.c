/* test_credkind.c - the secrets checks' pure recognisers (credkind.c):
 * one table a recogniser, hostile rows included (a header cut anywhere,
 * NUL bytes, lines without a newline), and random bytes through each. */
#include "test.h"
#include "credkind.h"
#include "util.h"

#include <stdint.h>

static void test_keys(void)
{
	static const struct {
		const char *text;
		int eof;
		int want;
	} rows[] = {
		{ "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEA\n", 0,
		  CREDKIND_KEY_OPENSSH },
		{ "-----BEGIN RSA PRIVATE KEY-----\r\nMIIE\r\n", 0, CREDKIND_KEY_RSA },
		{ "-----BEGIN EC PRIVATE KEY-----\n", 0, CREDKIND_KEY_EC },
		{ "-----BEGIN DSA PRIVATE KEY-----\n", 0, CREDKIND_KEY_DSA },
		{ "-----BEGIN PRIVATE KEY-----\n", 0, CREDKIND_KEY_PKCS8 },
		{ "-----BEGIN ENCRYPTED PRIVATE KEY-----\n", 0, CREDKIND_KEY_ENCRYPTED },
		{ "-----BEGIN ANY PRIVATE KEY-----\n", 0, CREDKIND_KEY_OTHER },
		{ "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----\n", 0, CREDKIND_KEY_SSH2 },
		{ "PuTTY-User-Key-File-3: ssh-ed25519\n", 0, CREDKIND_KEY_PUTTY },
		{ "PuTTY-User-Key-File-2", 0, CREDKIND_KEY_PUTTY },
		/* openssl pkcs12 -nodes writes Bag Attributes first */
		{ "Bag Attributes\n    localKeyID: 01\n-----BEGIN PRIVATE KEY-----\n", 0,
		  CREDKIND_KEY_PKCS8 },
		/* the header at the very end, no newline, the file ends */
		{ "-----BEGIN OPENSSH PRIVATE KEY-----", 1, CREDKIND_KEY_OPENSSH },
		/* cut inside the header: more bytes decide */
		{ "-----BEGIN OPENSSH PRIV", 0, CREDKIND_MORE },
		{ "-----BEGIN OPENSSH PRIV", 1, CREDKIND_KEY_NONE },
		{ "PuTTY-Us", 0, CREDKIND_MORE },
		{ "", 0, CREDKIND_MORE },
		{ "", 1, CREDKIND_KEY_NONE },
		/* not private keys */
		{ "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 me@host\n", 1, CREDKIND_KEY_NONE },
		{ "-----BEGIN PUBLIC KEY-----\n", 1, CREDKIND_KEY_NONE },
		{ "-----BEGIN CERTIFICATE-----\n", 1, CREDKIND_KEY_NONE },
		{ "-----BEGIN PGP PRIVATE KEY BLOCK-----\n", 1, CREDKIND_KEY_NONE },
		{ "Host github.com\n  IdentityFile ~/.ssh/deploy_key\n", 1, CREDKIND_KEY_NONE },
		{ " -----BEGIN RSA PRIVATE KEY-----\n", 1, CREDKIND_KEY_NONE },
		{ "-----BEGIN RSA PRIVATE KEY----\n", 1, CREDKIND_KEY_NONE },
		{ "-----BEGIN -----\n", 1, CREDKIND_KEY_NONE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++)
		CHECK_INT(credkind_key(rows[i].text, strlen(rows[i].text), rows[i].eof),
			  rows[i].want, "key row %zu", i);
	/* a NUL byte: a binary file, not looked into further */
	{
		static const char t[] = "\0\n-----BEGIN RSA PRIVATE KEY-----\n";

		CHECK_INT(credkind_key(t, sizeof(t) - 1, 0), CREDKIND_KEY_NONE, "NUL");
	}
	/* past the head nothing is looked at: a header after 4 KiB is not seen */
	{
		static char t[CREDKIND_HEAD_MAX + 64];

		memset(t, 'a', sizeof(t));
		t[100] = '\n';
		memcpy(t + CREDKIND_HEAD_MAX + 2, "-----BEGIN", 10);
		CHECK_INT(credkind_key(t, sizeof(t), 0), CREDKIND_KEY_NONE, "past the head");
		CHECK_INT(credkind_key(t, 200, 0), CREDKIND_MORE, "a long line goes on");
	}
	CHECK_STR(credkind_key_name(CREDKIND_KEY_OPENSSH), "openssh-private-key", "name");
	CHECK_STR(credkind_key_name(CREDKIND_KEY_PUTTY), "putty-private-key", "name");
	CHECK(credkind_key_name(CREDKIND_KEY_NONE) == NULL, "no name for none");
}

static void test_files(void)
{
	static const struct {
		int kind;	/* 'g' git, 'h' gh, 'k' kube, 'p' pypirc */
		const char *text;
		int want;
	} rows[] = {
		{ 'g', "https://me:ghp_x@github.com\n", 1 },
		{ 'g', "https://me:@github.com", 1 },		/* an empty password is one */
		{ 'g', "https://:tok@host.example/path\n", 1 },
		{ 'g', "\n\nhttp://a:b@h:8080/x\n", 1 },
		{ 'g', "https://me@github.com\n", 0 },		/* no password */
		{ 'g', "https://github.com/a:b@c\n", 0 },	/* '@' past the first '/' */
		{ 'g', "github.com me pass\n", 0 },
		{ 'g', "://a:b@c\n", 0 },
		{ 'g', "", 0 },
		{ 'h', "github.com:\n    user: me\n    oauth_token: gho_abc\n    git_protocol: ssh\n", 1 },
		{ 'h', "github.com:\n  users:\n    me:\n      oauth_token: gho_x\n", 1 },
		{ 'h', "github.com:\n    user: me\n    git_protocol: https\n", 0 },
		{ 'h', "github.com:\n    oauth_token:\n", 0 },
		{ 'h', "github.com:\n    oauth_token: \"\"\n", 0 },
		{ 'h', "github.com:\n    oauth_tokens: x\n", 0 },
		{ 'k', "users:\n- name: u\n  user:\n    token: eyJhbGci\n", CREDKIND_KUBE_TOKEN },
		{ 'k', "users:\n- name: u\n  user:\n    client-certificate-data: AAA\n"
		  "    client-key-data: LS0tLS1\n", CREDKIND_KUBE_CLIENT_KEY },
		{ 'k', "users:\n- user:\n    username: a\n    password: b\n", CREDKIND_KUBE_PASSWORD },
		{ 'k', "users:\n- user:\n    auth-provider:\n      config:\n        id-token: x\n",
		  CREDKIND_KUBE_PROVIDER_TOKEN },
		{ 'k', "users:\n- user:\n    exec:\n      command: aws\n", CREDKIND_KUBE_NONE },
		{ 'k', "users:\n- user:\n    tokenFile: /var/run/t\n", CREDKIND_KUBE_NONE },
		{ 'k', "users:\n- user:\n    token: null\n", CREDKIND_KUBE_NONE },
		{ 'k', "clusters:\n- cluster:\n    certificate-authority-data: LS0t\n", CREDKIND_KUBE_NONE },
		{ 'p', "[distutils]\nindex-servers = pypi\n[pypi]\nusername = __token__\n"
		  "password = pypi-AgEI\n", 1 },
		{ 'p', "[pypi]\nPassword: x\n", 1 },
		{ 'p', "[pypi]\nusername = __token__\n", 0 },
		{ 'p', "[pypi]\npassword =\n", 0 },
		{ 'p', "[pypi]\n  password = continued\n", 0 },
		{ 'p', "[pypi]\npasswords = x\n", 0 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		const char *t = rows[i].text;
		size_t n = strlen(t);
		int got = rows[i].kind == 'g' ? credkind_git_credentials(t, n) :
			  rows[i].kind == 'h' ? credkind_gh_hosts(t, n) :
			  rows[i].kind == 'k' ? credkind_kube(t, n) : credkind_pypirc(t, n);

		CHECK_INT(got, rows[i].want, "file row %zu (%c)", i, rows[i].kind);
	}
	CHECK_STR(credkind_kube_name(CREDKIND_KUBE_CLIENT_KEY), "kube-client-key", "name");
}

static void test_env(void)
{
	static const char *const secret[] = {
		"GITHUB_TOKEN", "GH_TOKEN", "NPM_TOKEN", "AWS_SECRET_ACCESS_KEY",
		"AWS_SESSION_TOKEN", "CI_JOB_TOKEN", "OPENAI_API_KEY", "ANTHROPIC_API_KEY",
		"STRIPE_APIKEY", "DB_PASSWORD", "PGPASSWORD", "MYSQL_ROOT_PASSWORD",
		"AZURE_CLIENT_SECRET", "SECRET_KEY", "JWT_SECRET", "CLIENT_SECRET_VALUE",
		"SSH_PRIVATE_KEY", "npm_config__authToken", "npm_config__auth", "TOKEN",
		"SECRET", "PASSWORD", "DOCKER_AUTH_CONFIG", "github_token", "TWINE_PASSWORD",
		"VAULT_TOKEN", "HF_TOKEN",
	};
	static const char *const not_secret[] = {
		"PATH", "HOME", "SSH_AUTH_SOCK", "TOKENIZERS_PARALLELISM", "GIT_ASKPASS",
		"SUDO_ASKPASS", "TOX_TESTENV_PASSENV", "AWS_ACCESS_KEY_ID", "AWS_PROFILE",
		"GOOGLE_APPLICATION_CREDENTIALS", "PASSWORD_STORE_DIR", "GITHUB_TOKEN_FILE",
		"DB_PASSWORD_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "OAUTH_TOKEN_URL",
		"SECRETS_DIR", "KUBECONFIG", "TOKEN_TYPE", "NO_AUTH", "SKIP_AUTH", "",
		"SECRETARY", "MY_TOKENS",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(secret); i++)
		CHECK_INT(credkind_env_name(secret[i]), 1, "a secret's name: %s", secret[i]);
	for (i = 0; i < ARRAY_SIZE(not_secret); i++)
		CHECK_INT(credkind_env_name(not_secret[i]), 0, "not a secret's: %s", not_secret[i]);
}

/* random bytes: every recogniser answers, none reads past len */
static void test_random(void)
{
	uint32_t seed = 19;
	size_t round;

	for (round = 0; round < 2000; round++) {
		char *t;
		size_t len, i;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 8) % 300;
		t = xmalloc(len ? len : 1);
		for (i = 0; i < len; i++) {
			static const char alphabet[] = "-BEGIN PRIVATEKY:@/=\n\r\t #tokenpasswd\0";

			seed = seed * 1103515245u + 12345u;
			t[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
		}
		(void)credkind_key(t, len, (int)(round & 1));
		(void)credkind_git_credentials(t, len);
		(void)credkind_gh_hosts(t, len);
		(void)credkind_kube(t, len);
		(void)credkind_pypirc(t, len);
		free(t);
	}
	CHECK(1, "random bytes");
}

void test_main(void)
{
	test_keys();
	test_files();
	test_env();
	test_random();
}
