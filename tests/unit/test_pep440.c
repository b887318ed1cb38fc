/* test_pep440.c - PEP 440 specifiers, version order, `python --version`
 * output, and pyenv's .python-version */
#include "test.h"
#include "pep440.h"
#include "util.h"

/* specifier, version, 1 / 0 / -1.  The expected values are those of
 * packaging's SpecifierSet(spec).contains(version, prereleases=True). */
static const struct {
	const char *spec, *version;
	int want;
} check_rows[] = {
	/* ranges */
	{ ">=3.10,<3.13", "3.11.7", 1 },
	{ ">=3.10,<3.13", "3.13.0", 0 },
	{ ">=3.10,<3.13", "3.9.18", 0 },
	{ ">=3.10,<3.13", "3.10", 1 },
	{ ">=3.10, <3.13", "3.12.1", 1 },
	{ " >= 3.10 , < 3.13 ", "3.10.0", 1 },
	{ ">=3.10,,<3.13", "3.11", 1 },
	{ "", "3.11", 1 },
	{ ",", "3.11", 1 },
	{ " ", "3.11", 1 },
	/* ~= */
	{ "~=3.11", "3.11.7", 1 },
	{ "~=3.11", "3.12.0", 1 },
	{ "~=3.11", "4.0", 0 },
	{ "~=3.11", "3.10.9", 0 },
	{ "~=3.11.2", "3.11.7", 1 },
	{ "~=3.11.2", "3.12.0", 0 },
	{ "~=3.11.2", "3.11.1", 0 },
	{ "~=2.2.post3", "2.2.post4", 1 },
	{ "~=2.2.post3", "3.0", 0 },
	{ "~=1.4.5a4", "1.4.5", 1 },
	{ "~=1.4.5a4", "1.5.0", 0 },
	{ "~=1.4.5a4", "1.4.5a3", 0 },
	{ "~= 3.11", "3.11.0", 1 },
	/* == with and without a wildcard */
	{ "==3.11.*", "3.11.7", 1 },
	{ "==3.11.*", "3.12.0", 0 },
	{ "==3.11.*", "3.11", 1 },
	{ "==3.11.*", "3.11.0rc1", 1 },
	{ "==3.11.*", "3.11.7+local", 1 },
	{ "==3.1.*", "3.11.0", 0 },
	{ "==3.*", "3.13.0rc1", 1 },
	{ "==3.11.0.*", "3.11", 1 },
	{ "==3.11", "3.11.0", 1 },
	{ "==1.0.0", "1", 1 },
	{ "== 3.11", "3.11.0", 1 },
	{ "==v3.11.7", "3.11.7", 1 },
	{ "==3.11.7", "3.11.7+ubuntu1", 1 },
	{ "==3.11.7+ubuntu1", "3.11.7", 0 },
	{ "==3.11.7+ubuntu1", "3.11.7+UBUNTU1", 1 },
	{ "==3.11.7+ubuntu.1", "3.11.7+ubuntu-1", 1 },
	{ "==3.11.7", "3.11.7rc1", 0 },
	{ "==1.0a1", "1.0alpha1", 1 },
	{ "==1.0b2", "1.0beta2", 1 },
	{ "==1.0rc1", "1.0c1", 1 },
	{ "==1.0rc1", "1.0pre1", 1 },
	{ "==1.0rc1", "1.0preview1", 1 },
	{ "==1.0.post0", "1.0-r", 1 },
	{ "==1.0.post2", "1.0-2", 1 },
	{ "==1.0.post2", "1.0_rev2", 1 },
	{ "==1.0.dev0", "1.0dev", 1 },
	{ "==1.0a1.dev2", "1.0-a1-dev2", 1 },
	{ "==1.0a0", "1.0a", 1 },
	{ "==1.0rc1", "1.0.RC.1", 1 },
	{ "==1.0", "1!1.0", 0 },
	/* != */
	{ "!=3.12.1", "3.12.1", 0 },
	{ "!=3.12.1", "3.12.2", 1 },
	{ "!=3.12.*", "3.12.5", 0 },
	{ "!=3.12.*", "3.13.0", 1 },
	{ ">=3.10,!=3.12.*,<3.14", "3.12.3", 0 },
	{ ">=3.10,!=3.12.*,<3.14", "3.13.1", 1 },
	/* === */
	{ "===3.11.7", "3.11.7", 1 },
	{ "===3.11", "3.11.0", 0 },
	{ "===foobar", "3.11.0", 0 },
	{ "===3.11.7", "3.11.07", 1 },
	{ "===3.11.7RC1", "3.11.7rc1", 1 },
	/* > and its exclusions */
	{ ">3.9", "3.9.1", 1 },
	{ ">3.9", "3.9.0", 0 },
	{ ">3.9", "3.9.post1", 0 },
	{ ">3.9.post1", "3.9.post2", 1 },
	{ ">3.9", "3.9+local", 0 },
	{ ">3.9", "3.10a1", 1 },
	{ ">3.9", "3.9.1.dev0", 1 },
	/* < and its exclusions */
	{ "<3.13", "3.13.0rc1", 0 },
	{ "<3.13", "3.13.0.dev0", 0 },
	{ "<3.13", "3.12.0rc1", 1 },
	{ "<3.13rc2", "3.13.0rc1", 1 },
	{ "<3.13", "3.12.99", 1 },
	{ "<3.13", "3.13+local", 0 },
	/* <= and >= */
	{ "<=3.12", "3.12.0", 1 },
	{ "<=3.12", "3.12.1", 0 },
	{ "<=3.12", "3.12+local", 1 },
	{ ">=3.10", "3.13.0rc1", 1 },
	{ ">=3.10", "3.10.0rc1", 0 },
	{ ">=3.10", "3.10.0+abc.1", 1 },
	{ ">=3.10", "v3.11", 1 },
	{ ">=3.10", "3.11.0-rc.1", 1 },
	{ ">=3.1.0.0.0.0", "3.1", 1 },
	{ ">=1!1.0", "2.0", 0 },
	{ ">=1!1.0", "1!1.0", 1 },
	{ ">=1.0.post1", "1.0-1", 1 },
	{ "<2.0", "1.99999999999999999999999999", 1 },
	{ ">=100000000000000000000", "99999999999999999999", 0 },
	{ ">=3.10", " 3.11.7\n", 1 },
	/* invalid specifiers */
	{ "~=3", "3.1", -1 },
	{ ">=3.10 <3.13", "3.11", -1 },
	{ "=>3.10", "3.11", -1 },
	{ "=3.10", "3.11", -1 },
	{ "3.10", "3.11", -1 },
	{ ">=3.10+local", "3.11", -1 },
	{ "~=3.11+local", "3.11", -1 },
	{ "==3.11.*+x", "3.11", -1 },
	{ ">=3.*", "3.11", -1 },
	{ "~=3.11.*", "3.11", -1 },
	{ "==3.11a1.*", "3.11", -1 },
	{ "==3.*.1", "3.11", -1 },
	{ ">= 3.10;python", "3.11", -1 },
	{ "===3.11 7", "3.11", -1 },
	{ "> = 3.10", "3.11", -1 },
	{ ">=", "3.11", -1 },
	{ ">=3.10,<3.13,", "3.11", 1 },
	{ ">=3.10,garbage", "3.9", -1 },
	{ "<3.0,>=x", "3.9", -1 },
	/* invalid versions */
	{ ">=3.10", "3.11.x", -1 },
	{ ">=3.10", "", -1 },
	{ ">=3.10", "Python 3.11", -1 },
	{ ">=3.10", "3.11.7+", -1 },
	{ ">=3.10", "3..11", -1 },
	{ ">=3.10", "3.11-", -1 },
	{ ">=3.10", "\x1b[2J", -1 },
};

static void test_check(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(check_rows); i++) {
		char err[256] = "";
		int got = pep440_check(check_rows[i].spec, check_rows[i].version,
				       err, sizeof(err));

		CHECK_INT(got, check_rows[i].want, "row %zu: '%s' vs '%s' (%s)",
			  i, check_rows[i].spec, check_rows[i].version, err);
		if (check_rows[i].want < 0)
			CHECK(err[0] != '\0', "row %zu: an error message", i);
	}
}

static const struct {
	const char *spec, *version, *err;
} error_rows[] = {
	{ ">=3.10 <3.13", "3.11", "'>=3.10 <3.13': not a PEP 440 clause (separate clauses with ',')" },
	{ "~=3", "3.11", "'~=3': '~=' needs at least two release numbers, as in ~=3.11" },
	{ ">=3.*", "3.11", "'>=3.*': '.*' only follows release numbers, after == or !=" },
	{ "<3.11+x", "3.11", "'<3.11+x': a local version (+...) only goes with == and !=" },
	{ "3.11", "3.11", "'3.11': expected an operator (==, !=, <=, >=, <, >, ~=, ===)" },
	{ ">=3.10", "3.x", "'3.x': not a PEP 440 version" },
	{ ">=3.10", "3\x1b[31m", "'3?[31m': not a PEP 440 version" },
	/* more than 32 release numbers is more than we keep */
	{ "==1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0", "1",
	  "'==1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0....': not a PEP 440 version in the clause" },
};

static void test_errors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(error_rows); i++) {
		char err[256] = "";

		CHECK_INT(pep440_check(error_rows[i].spec, error_rows[i].version,
				       err, sizeof(err)), -1, "row %zu", i);
		CHECK_STR(err, error_rows[i].err, "row %zu", i);
	}
	/* NULL specifier: no constraint; NULL err: no crash */
	CHECK_INT(pep440_check(NULL, "3.11", NULL, 0), 1, "NULL specifier");
	CHECK_INT(pep440_check(">=4", NULL, NULL, 0), -1, "NULL version");
}

/* PEP 440's own example of the order, lowest first. */
static const char *const order[] = {
	"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12",
	"1.0b1.dev456", "1.0b2", "1.0b2.post345.dev456", "1.0b2.post345",
	"1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0+abc.7", "1.0+5",
	"1.0.post456.dev34", "1.0.post456", "1.0.15", "1.1.dev1",
	"1!0.1",
};

static void test_order(void)
{
	size_t i;
	int cmp;

	for (i = 0; i + 1 < ARRAY_SIZE(order); i++) {
		cmp = 99;
		CHECK(pep440_compare(order[i], order[i + 1], &cmp) == 0 && cmp < 0,
		      "%s < %s (%d)", order[i], order[i + 1], cmp);
		cmp = 99;
		CHECK(pep440_compare(order[i + 1], order[i], &cmp) == 0 && cmp > 0,
		      "%s > %s (%d)", order[i + 1], order[i], cmp);
	}
	for (i = 0; i < ARRAY_SIZE(order); i++)
		CHECK(pep440_compare(order[i], order[i], &cmp) == 0 && cmp == 0,
		      "%s == itself", order[i]);
	CHECK(pep440_compare("1.0", "1.0.0.0", &cmp) == 0 && cmp == 0, "1.0 == 1.0.0.0");
	CHECK(pep440_compare("1.0+abc", "1.0+ABC", &cmp) == 0 && cmp == 0, "local case");
	CHECK(pep440_compare("1.0+1", "1.0+01", &cmp) == 0 && cmp == 0, "local numbers");
	CHECK(pep440_compare("1.0+abc", "1.0+abc.1", &cmp) == 0 && cmp < 0, "local prefix");
	CHECK(pep440_compare("1.0+abc", "1.0+abd", &cmp) == 0 && cmp < 0, "local words");
	CHECK(pep440_compare("1.0", "x", &cmp) == -1, "bad version");
	CHECK(pep440_compare(NULL, "1", &cmp) == -1, "NULL");
}

static const struct {
	const char *out;
	size_t len;		/* 0: strlen */
	const char *want;	/* NULL: -1 */
} output_rows[] = {
	{ "Python 3.11.7\n", 0, "3.11.7" },
	{ "Python 3.13.0rc1\n", 0, "3.13.0rc1" },
	{ "Python 3.13.0a0+\n", 0, "3.13.0a0" },
	{ "Python 3.12.1", 0, "3.12.1" },
	{ "  Python   2.7.18\r\n", 0, "2.7.18" },
	{ "3.12.1\n", 0, "3.12.1" },
	{ "Python 3.11.7 (main, Dec  4 2023)\n", 0, "3.11.7" },
	{ "Python 3.1\0 1", 13, "3.1" },
	{ "Python\n", 0, NULL },
	{ "", 0, NULL },
	{ "Python three\n", 0, NULL },
	{ "python 3.11.7\n", 0, NULL },
	{ "Python 3.11.7+local+\n", 0, "3.11.7+local" },
	{ "Python 3.11.7++\n", 0, NULL },
};

static void test_python_output(void)
{
	size_t i;
	char small[4];

	for (i = 0; i < ARRAY_SIZE(output_rows); i++) {
		char buf[64] = "";
		size_t len = output_rows[i].len ? output_rows[i].len
						: strlen(output_rows[i].out);
		int rc = pep440_python_output(output_rows[i].out, len, buf,
					      sizeof(buf));

		if (output_rows[i].want)
			CHECK(rc == 0 && strcmp(buf, output_rows[i].want) == 0,
			      "row %zu: rc %d '%s'", i, rc, buf);
		else
			CHECK_INT(rc, -1, "row %zu: '%s'", i, buf);
	}
	CHECK_INT(pep440_python_output("Python 3.11.7", 13, small, sizeof(small)),
		  -1, "buffer too small");
}

/* ---- pyenv ---- */

static const struct {
	const char *in;
	size_t len;		/* 0: strlen */
	int rc;
	size_t n;		/* entries */
	const char *name;	/* of the first entry */
	enum pyenv_kind kind;
	unsigned line, col;	/* of the first entry, or of the error */
} pyenv_rows[] = {
	{ "3.11\n", 0, 0, 1, "3.11", PYENV_CPYTHON, 1, 1 },
	{ "3.11.7", 0, 0, 1, "3.11.7", PYENV_CPYTHON, 1, 1 },
	{ "3.11.7 3.10.13\n", 0, 0, 1, "3.11.7", PYENV_CPYTHON, 1, 1 },
	{ "3.11.7\n3.10.13\n", 0, 0, 2, "3.11.7", PYENV_CPYTHON, 1, 1 },
	{ "# pinned\n  3.12\r\n", 0, 0, 1, "3.12", PYENV_CPYTHON, 2, 3 },
	{ "\t3.12 # comment\n", 0, 0, 1, "3.12", PYENV_CPYTHON, 1, 2 },
	{ "#3.11\n3.12\n", 0, 0, 1, "3.12", PYENV_CPYTHON, 2, 1 },
	{ "", 0, 0, 0, NULL, 0, 0, 0 },
	{ "\n\n# nothing\n", 0, 0, 0, NULL, 0, 0, 0 },
	{ "system\n", 0, 0, 1, "system", PYENV_SYSTEM, 1, 1 },
	{ "pypy3.10-7.3.12\n", 0, 0, 1, "pypy3.10-7.3.12", PYENV_OTHER, 1, 1 },
	{ "miniconda3-latest\n", 0, 0, 1, "miniconda3-latest", PYENV_OTHER, 1, 1 },
	{ "anaconda3-2023.09-0\n", 0, 0, 1, "anaconda3-2023.09-0", PYENV_OTHER, 1, 1 },
	{ "graalpy-23.1.0\n", 0, 0, 1, "graalpy-23.1.0", PYENV_OTHER, 1, 1 },
	{ "my-venv\n", 0, 0, 1, "my-venv", PYENV_OTHER, 1, 1 },
	{ "3.13t\n", 0, 0, 1, "3.13t", PYENV_CPYTHON, 1, 1 },
	{ "3.14-dev\n", 0, 0, 1, "3.14-dev", PYENV_CPYTHON, 1, 1 },
	{ "3.13.0rc1\n", 0, 0, 1, "3.13.0rc1", PYENV_CPYTHON, 1, 1 },
	{ "python-3.12\n", 0, 0, 1, "python-3.12", PYENV_CPYTHON, 1, 1 },
	{ "3.11.\n", 0, 0, 1, "3.11.", PYENV_OTHER, 1, 1 },
	{ "3.11rc\n", 0, 0, 1, "3.11rc", PYENV_OTHER, 1, 1 },
	{ "..\n", 0, 0, 1, "..", PYENV_IGNORED, 1, 1 },
	{ "../../etc\n3.12\n", 0, 0, 2, "../../etc", PYENV_IGNORED, 1, 1 },
	{ "3.11\0", 5, -1, 0, NULL, 0, 1, 5 },
	{ "3.11\n\xc3(", 0, -1, 0, NULL, 0, 2, 1 },
};

static void test_pyenv_parse(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pyenv_rows); i++) {
		struct pyenv_file f;
		struct parse_error e = { 0, 0, "" };
		size_t len = pyenv_rows[i].len ? pyenv_rows[i].len
					       : strlen(pyenv_rows[i].in);
		int rc = pyenv_parse(pyenv_rows[i].in, len, &f, &e);

		CHECK_INT(rc, pyenv_rows[i].rc, "row %zu (%s)", i, e.msg);
		if (rc < 0) {
			CHECK(e.line == pyenv_rows[i].line && e.col == pyenv_rows[i].col
			      && f.n == 0, "row %zu: error at %u:%u", i, e.line, e.col);
			continue;
		}
		CHECK_INT(f.n, pyenv_rows[i].n, "row %zu: entries", i);
		if (f.n && pyenv_rows[i].n)
			CHECK(strcmp(f.v[0].name, pyenv_rows[i].name) == 0 &&
			      f.v[0].kind == pyenv_rows[i].kind &&
			      f.v[0].line == pyenv_rows[i].line &&
			      f.v[0].col == pyenv_rows[i].col,
			      "row %zu: '%s' kind %d at %u:%u", i, f.v[0].name,
			      (int)f.v[0].kind, f.v[0].line, f.v[0].col);
		pyenv_release(&f);
	}
}

static const struct {
	const char *name, *found;
	int want;
} pyenv_match_rows[] = {
	{ "3.11", "3.11.7", 1 },
	{ "3.11", "3.11.0", 1 },
	{ "3.11", "3.12.0", 0 },
	{ "3.1", "3.10.0", 0 },
	{ "3.1", "3.1.4", 1 },
	{ "3", "3.12.1", 1 },
	{ "3", "2.7.18", 0 },
	{ "3.11.7", "3.11.7", 1 },
	{ "3.11.7", "3.11.8", 0 },
	{ "3.11.7", "3.11.7+local", 1 },
	{ "3.13", "3.13.0rc1", 0 },
	{ "3.13.0rc1", "3.13.0rc1", 1 },
	{ "3.13.0rc1", "3.13.0", 0 },
	{ "3.14-dev", "3.14.0a1", 1 },
	{ "3.14-dev", "3.14.0", 1 },
	{ "3.14-dev", "3.13.0", 0 },
	{ "3.13t", "3.13.1", 1 },
	{ "python-3.12", "3.12.4", 1 },
	{ "system", "3.9.0", 1 },
	{ "system", "junk", -1 },
	{ "pypy3.10-7.3.12", "3.10.13", -1 },
	{ "miniconda3-latest", "3.11.5", -1 },
	{ "3.11", "garbage", -1 },
	{ "3.11", "", -1 },
};

static void test_pyenv_matches(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pyenv_match_rows); i++) {
		struct pyenv_file f;
		const char *name = pyenv_match_rows[i].name;

		if (pyenv_parse(name, strlen(name), &f, NULL) < 0 ||
		    f.n != 1) {
			CHECK(0, "row %zu: %s does not parse", i, name);
			continue;
		}
		CHECK_INT(pyenv_matches(&f.v[0], pyenv_match_rows[i].found),
			  pyenv_match_rows[i].want, "row %zu: %s vs %s", i, name,
			  pyenv_match_rows[i].found);
		pyenv_release(&f);
	}
}

void test_main(void)
{
	test_check();
	test_errors();
	test_order();
	test_python_output();
	test_pyenv_parse();
	test_pyenv_matches();
}
