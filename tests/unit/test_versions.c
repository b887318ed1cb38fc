/* test_versions.c - packageManager, the shared helpers, and garbage fed to
 * every version parser */
#include "test.h"
#include "gomod.h"
#include "nvmrc.h"
#include "pep440.h"
#include "toolversions.h"
#include "util.h"
#include "versions.h"

static const struct {
	const char *in;
	size_t len;		/* 0: strlen */
	const char *name, *version, *hash;	/* name NULL: an error */
	const char *err;
} pm_rows[] = {
	{ "pnpm@9.1.0", 0, "pnpm", "9.1.0", NULL, NULL },
	{ "npm@10.2.0", 0, "npm", "10.2.0", NULL, NULL },
	{ "yarn@4.1.1+sha512.a1b2c3d4", 0, "yarn", "4.1.1", "sha512.a1b2c3d4", NULL },
	{ "yarn@1.22.22+sha1.ac34549e6aa8e7ead463a7407e1c7390f61a6610", 0,
	  "yarn", "1.22.22", "sha1.ac34549e6aa8e7ead463a7407e1c7390f61a6610", NULL },
	{ "pnpm@9.0.0-rc.1", 0, "pnpm", "9.0.0-rc.1", NULL, NULL },
	{ "pnpm@9.0.0-alpha.0+sha256.ff", 0, "pnpm", "9.0.0-alpha.0", "sha256.ff", NULL },
	{ "bun@1.1.0", 0, "bun", "1.1.0", NULL, NULL },
	{ "0pm@1.0.0", 0, "0pm", "1.0.0", NULL, NULL },
	{ "pnpm", 0, NULL, NULL, NULL, "'pnpm': expected name@version, e.g. pnpm@9.1.0" },
	{ "", 0, NULL, NULL, NULL, "'packageManager' is empty" },
	{ "@9.1.0", 0, NULL, NULL, NULL, "expected name@version" },
	{ "@scope/pm@1.0.0", 0, NULL, NULL, NULL, "expected name@version" },
	{ "pnpm@", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@^9", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.x", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@latest", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@v9.1.0", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@09.1.0", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.0.1", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.0-01", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.0-", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@99999999999999999.0.0", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.0 ", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pnpm@9.1.0@9.2.0", 0, NULL, NULL, NULL, "the version must be exact semver" },
	{ "yarn@https://example.com/yarn.tgz", 0, NULL, NULL, NULL,
	  "'yarn@https://example.com/yarn.tgz': the version must be exact semver (X.Y.Z), not a range, tag or URL" },
	{ "pnpm@9.1.0+", 0, NULL, NULL, NULL, "malformed hash after '+'" },
	{ "pnpm@9.1.0+sha512..ab", 0, NULL, NULL, NULL, "malformed hash after '+'" },
	{ "pnpm@9.1.0+sha512/ab", 0, NULL, NULL, NULL, "malformed hash after '+'" },
	{ " pnpm@9.1.0", 0, NULL, NULL, NULL, "not a package manager name" },
	{ "PNPM@9.1.0", 0, NULL, NULL, NULL, "not a package manager name" },
	{ "-pm@1.0.0", 0, NULL, NULL, NULL, "not a package manager name" },
	{ "pnpm@9.1.0\0x", 12, NULL, NULL, NULL, "the version must be exact semver" },
	{ "pn\0pm@9.1.0", 11, NULL, NULL, NULL, "'pn?pm@9.1.0': not a package manager name" },
	{ "\x1b[31mpnpm@9.1.0", 0, NULL, NULL, NULL, "'?[31mpnpm@9.1.0'" },
};

static void test_pkgmanager(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pm_rows); i++) {
		struct pkgmanager pm;
		char err[256] = "";
		size_t len = pm_rows[i].len ? pm_rows[i].len : strlen(pm_rows[i].in);
		int rc = pkgmanager_parse(pm_rows[i].in, len, &pm, err, sizeof(err));

		if (pm_rows[i].name) {
			CHECK_INT(rc, 0, "row %zu: %s (%s)", i, pm_rows[i].in, err);
			CHECK_STR(pm.name, pm_rows[i].name, "row %zu: name", i);
			CHECK_STR(pm.version, pm_rows[i].version, "row %zu: version", i);
			CHECK_STR(pm.hash, pm_rows[i].hash, "row %zu: hash", i);
		} else {
			CHECK(rc == -1 && strstr(err, pm_rows[i].err) && !pm.name &&
			      !pm.version && !pm.hash,
			      "row %zu: rc %d err '%s'", i, rc, err);
		}
		pkgmanager_release(&pm);
	}
}

static void test_helpers(void)
{
	static const struct {
		const char *a, *b;
		int want;
	} num_rows[] = {
		{ "1", "2", -1 }, { "10", "9", 1 }, { "007", "7", 0 },
		{ "", "0", 0 }, { "000", "", 0 }, { "123456789012345678901234567890",
		  "123456789012345678901234567891", -1 },
		{ "99999999999999999999", "100000000000000000000", -1 },
	};
	char q[16], big[VERSIONS_QUOTE_MAX];
	struct versions_line ln = { NULL, 0, 0 };
	const char *s = " \t x y \r\n";
	size_t pos = 0, len = strlen(s), i;
	unsigned lines = 0;
	struct parse_error pe;

	for (i = 0; i < ARRAY_SIZE(num_rows); i++) {
		int c = versions_numcmp(num_rows[i].a, strlen(num_rows[i].a),
					num_rows[i].b, strlen(num_rows[i].b));

		CHECK_INT((c > 0) - (c < 0), num_rows[i].want, "%s vs %s",
			  num_rows[i].a, num_rows[i].b);
	}
	CHECK_STR(versions_quote(q, sizeof(q), "abc", 3), "abc", "short");
	CHECK_STR(versions_quote(q, sizeof(q), "a\x1b" "b\n\xc3\xa9", 6), "a?b???",
		  "controls and non-ASCII");
	CHECK_STR(versions_quote(q, sizeof(q), "0123456789abcdefghij", 20),
		  "0123456789ab...", "long text is cut");
	CHECK_STR(versions_quote(q, sizeof(q), "0123456789abcde", 15),
		  "0123456789abcde", "exactly full");
	CHECK(strlen(versions_quote(big, sizeof(big), s, len)) < sizeof(big), "fits");
	CHECK_STR(versions_quote(q, 3, "abcdef", 6), "ab", "no room for dots");
	CHECK_STR(versions_quote(q, 1, "abcdef", 6), "", "room for the NUL only");
	versions_trim(&s, &len);
	CHECK(len == 3 && memcmp(s, "x y", 3) == 0, "trim");
	while (versions_next_line("a\n\nb", 4, &pos, &ln))
		lines++;
	CHECK(lines == 3 && ln.no == 3 && ln.len == 1 && ln.s[0] == 'b', "lines");
	pos = 0;
	ln.no = 0;
	lines = 0;
	while (versions_next_line("a\n", 2, &pos, &ln))
		lines++;
	CHECK_INT(lines, 1, "a final newline ends the last line");
	CHECK_INT(versions_text("ok\n", 3, &pe), 0, "text");
	CHECK(versions_text("o\nk\0", 4, &pe) == -1 &&
	      pe.line == 2 && pe.col == 2 && strstr(pe.msg, "NUL byte"), "NUL at 2:2");
	CHECK_INT(versions_text("o\nk\0", 4, NULL), -1, "no crash without an error value");
	versions_err(NULL, 0, "%s", "no crash without a buffer");
}

/* A small deterministic generator: the same garbage on every run. */
static unsigned long rng_state = 12345;

static unsigned rng(void)
{
	rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
	return (unsigned)(rng_state >> 33);
}

/* Random bytes biased towards the characters these grammars care about. */
static size_t garbage(char *buf, size_t cap)
{
	static const char alphabet[] = "0123456789.v-+_*=<>!~^|#/ \t\r\nlts"
				       "iojsnode@go()\"`'abcrdepostx";
	size_t n = rng() % cap, i;

	for (i = 0; i < n; i++) {
		unsigned r = rng() % 10;

		if (r == 0)
			buf[i] = (char)(rng() & 0xff);
		else
			buf[i] = alphabet[rng() % (sizeof(alphabet) - 1)];
	}
	return n;
}

static void test_garbage(void)
{
	char buf[96], str[97], err[128];
	int ok_nvmrc = 1, ok_pep = 1, ok_pyenv = 1, ok_tv = 1, ok_go = 1, ok_pm = 1;
	int round;

	for (round = 0; round < 20000; round++) {
		size_t n = garbage(buf, sizeof(buf));
		struct nvmrc nv;
		struct pyenv_file pf;
		struct toolversions tv;
		struct gomod gm;
		struct pkgmanager pm;
		struct parse_error pe;
		int r;

		memcpy(str, buf, n);
		str[n] = '\0';
		r = nvmrc_parse(buf, n, &nv, &pe);
		if (r == 0) {
			char d[64];
			int m = nvmrc_matches(&nv, str);

			nvmrc_describe(&nv, d, sizeof(d));
			ok_nvmrc &= m >= -1 && m <= 1;
			nvmrc_release(&nv);
		}
		ok_nvmrc &= r == 0 || r == -1;
		r = pep440_check(str, str + n / 2, err, sizeof(err));
		ok_pep &= r >= -1 && r <= 1;
		r = pyenv_parse(buf, n, &pf, &pe);
		if (r == 0) {
			size_t i;

			for (i = 0; i < pf.n; i++) {
				int m = pyenv_matches(&pf.v[i], str + n / 3);

				ok_pyenv &= m >= -1 && m <= 1;
			}
			pyenv_release(&pf);
		}
		ok_pyenv &= r == 0 || r == -1;
		r = toolversions_parse(buf, n, &tv, &pe);
		if (r == 0)
			toolversions_release(&tv);
		ok_tv &= r == 0 || r == -1;
		r = gomod_parse(buf, n, &gm, &pe);
		if (r == 0) {
			r = goversion_at_least(str, gm.go ? gm.go : str);
			ok_go &= r >= -1 && r <= 1;
			gomod_release(&gm);
		}
		ok_go &= r >= -1 && r <= 1;
		r = pkgmanager_parse(buf, n, &pm, err, sizeof(err));
		if (r == 0)
			pkgmanager_release(&pm);
		ok_pm &= r == 0 || r == -1;
	}
	CHECK(ok_nvmrc, "nvmrc survives garbage");
	CHECK(ok_pep, "pep440 survives garbage");
	CHECK(ok_pyenv, "pyenv survives garbage");
	CHECK(ok_tv, "toolversions survives garbage");
	CHECK(ok_go, "gomod survives garbage");
	CHECK(ok_pm, "pkgmanager survives garbage");
}

/* Parsers read only [buf, buf + len): a buffer with no terminator at all,
 * its last byte at the end of a heap block, is safe (ASan checks). */
static void test_unterminated(void)
{
	static const char *const inputs[] = {
		"20", "lts/iron", "3.11", "nodejs 20", "go 1.22", "pnpm@9.1.0",
		"# c", "a=b", "module m\ngo 1.2",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(inputs); i++) {
		size_t n = strlen(inputs[i]);
		char *b = xmalloc(n);
		struct nvmrc nv;
		struct pyenv_file pf;
		struct toolversions tv;
		struct gomod gm;
		struct pkgmanager pm;

		memcpy(b, inputs[i], n);
		if (nvmrc_parse(b, n, &nv, NULL) == 0)
			nvmrc_release(&nv);
		if (pyenv_parse(b, n, &pf, NULL) == 0)
			pyenv_release(&pf);
		if (toolversions_parse(b, n, &tv, NULL) == 0)
			toolversions_release(&tv);
		if (gomod_parse(b, n, &gm, NULL) == 0)
			gomod_release(&gm);
		if (pkgmanager_parse(b, n, &pm, NULL, 0) == 0)
			pkgmanager_release(&pm);
		free(b);
		CHECK(1, "%s", inputs[i]);
	}
}

void test_main(void)
{
	test_pkgmanager();
	test_helpers();
	test_garbage();
	test_unterminated();
}
