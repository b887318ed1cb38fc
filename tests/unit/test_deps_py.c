/* test_deps_py.c - requirements*.txt as pip reads it (deps_pip_parse),
 * one row a rule, each citing the pip or packaging source that decides
 * it; the legacy PEP 508 marker names; pep440_normalize.  The same states
 * against the real pip: tests/integration/deps_py.sh. */
#include "test.h"
#include "deps.h"
#include "pep440.h"
#include "util.h"

static const struct pymarker_env py312 = {
	"3.12", "3.12.3", "cpython", "CPython", "linux", "Linux", "posix", "x86_64", NULL
};

static const char *const envp[] = {
	"REQ_VER=2.31.0", "EMPTY=", "NAME=requests", "OP===", "TWICE=1", "TWICE=2", NULL
};

static const struct {
	const char *why;	/* the rule, and where pip says it */
	const char *text;
	const char *key;	/* the pin looked for */
	const char *version;	/* its version; NULL: none (with shown:
				 * a requirement of no specifier, else no
				 * requirement of key) */
	const char *shown;	/* its extra: the clause as written */
	unsigned line;
	unsigned flags;
	size_t unpinned, includes;
	const char *unset;	/* the first ${NAME} left as written */
} rows[] = {
	/* req_file.py preprocess(): content.splitlines() */
	{ "LF", "a==1\nb==2\n", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "CR alone ends a line", "a==1\rb==2\r", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "CR LF is one break", "a==1\r\n\r\nb==2", "b", "2", "==2", 3, 0, 0, 0, "" },
	{ "\\v ends a line", "a==1\vb==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "\\f ends a line", "a==1\fb==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "\\x1c ends a line", "a==1\x1c" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "\\x1d ends a line", "a==1\x1d" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "\\x1e ends a line", "a==1\x1e" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "\\x1f does not (and no version is called that)", "a==1\x1f" "b==2", "a", "1\x1f" "b==2",
	  "==1\x1f" "b==2", 1, 0, 0, 0, "" },
	{ "U+0085 ends a line", "a==1\xc2\x85" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "U+2028 ends a line", "a==1\xe2\x80\xa8" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "U+2029 ends a line", "a==1\xe2\x80\xa9" "b==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	/* ignore_comments(): COMMENT_RE = (^|\s+)#.*$ */
	{ "# after \\f: a comment line", "a==1\f# b==2", "b", NULL, NULL, 0, 0, 0, 0, "" },
	{ "# after a tab", "a==1\t# b==2", "a", "1", "==1", 1, 0, 0, 0, "" },
	{ "# after U+00A0 (\\s)", "a==1\xc2\xa0# x", "a", "1", "==1", 1, 0, 0, 0, "" },
	{ "# after no blank: part of the line", "a==1#x", "a", "1#x", "==1#x", 1, 0, 0, 0, "" },
	{ "a URL fragment stays", "x @ https://h/x.whl#sha256=0", "x", NULL, NULL, 0, 0, 1, 0, "" },
	/* join_lines() */
	{ "continued: the first line's number", "a==1 \\\n --hash=sha256:0\nb==2", "b", "2",
	  "==2", 3, 0, 0, 0, "" },
	{ "a marker, then --hash continued (break_args_options)",
	  "c==3 ; python_version >= \"3.8\" \\\n    --hash=sha256:00 \\\n    --hash=sha256:11\n",
	  "c", "3", "==3", 1, 0, 0, 0, "" },
	{ "a false marker, then --hash continued",
	  "c==3 ; sys_platform == \"win32\" \\\n    --hash=sha256:00\n", "c", NULL, NULL, 0, 0, 0, 0,
	  "" },
	{ "a comment ends a continued line", "a==1 \\\n# b==2\nc==3", "c", "3", "==3", 3, 0, 0, 0,
	  "" },
	{ "a comment line is never continued", "# x \\\nb==2", "b", "2", "==2", 2, 0, 0, 0, "" },
	{ "a comment eats the continued line", "a==1 # x \\\nb==2", "b", NULL, NULL, 0, 0, 0, 0,
	  "" },
	{ "a '\\' then a blank is no continuation", "a==1 \\ \nb==2", "a", "==1 \\", "==1 \\", 1,
	  0, 0, 0, "" },
	{ "line.strip(\"\\\\\"): leading backslashes go too", "\\a==1\\", "a", "1", "==1", 1, 0,
	  0, 0, "" },
	{ "only a continued line is stripped", "a==\\\n\\1", "a", "\\1", "==\\1", 1, 0, 0, 0,
	  "" },
	{ "a '\\' at the end of the file", "a==1 \\", "a", "1", "==1", 1, 0, 0, 0, "" },
	/* expand_env_variables(): ENV_VAR_RE, os.getenv, "if not value" */
	{ "${VAR} expanded", "requests==${REQ_VER}", "requests", "2.31.0", "==${REQ_VER}", 1, 0, 0,
	  0, "" },
	{ "${VAR} unset: as written", "requests==${NOPE}", "requests", "${NOPE}", "==${NOPE}", 1,
	  0, 0, 0, "NOPE" },
	{ "${VAR} empty: as written", "requests==${EMPTY}", "requests", "${EMPTY}", "==${EMPTY}", 1,
	  0, 0, 0, "EMPTY" },
	{ "$VAR is no reference", "requests==$REQ_VER", "requests", "$REQ_VER", "==$REQ_VER", 1, 0,
	  0, 0, "" },
	{ "${lower} is no reference", "requests==${req_ver}", "requests", "${req_ver}",
	  "==${req_ver}", 1, 0, 0, 0, "" },
	{ "the first of a name in the environment", "t==${TWICE}", "t", "1", "==${TWICE}", 1, 0, 0,
	  0, "" },
	{ "a variable in the name: not compared", "${NAME}==2.31.0", "requests", NULL, NULL, 0, 0, 1,
	  0, "" },
	{ "a variable in the operator: not compared", "requests${OP}2.31.0", "requests", NULL, NULL,
	  0, 0, 1, 0, "" },
	{ "expanded after comments are cut", "a==1 # ${NOPE}", "a", "1", "==1", 1, 0, 0, 0, "" },
	/* packaging _parser.py: specifier in parentheses, WS, extras */
	{ "name (==V)", "requests (==2.31.0)", "requests", "2.31.0", "==2.31.0", 1, 0, 0, 0, "" },
	{ "name[x](== V )", "requests[socks]( == 2.31.0 )", "requests", "2.31.0", "== 2.31.0", 1, 0,
	  0, 0, "" },
	{ "an unclosed parenthesis", "requests (==2.31.0", "requests", NULL, NULL, 0, 0, 1, 0, "" },
	{ "a version without an operator", "requests 2.31.0", "requests", NULL, NULL, 0, 0, 1, 0,
	  "" },
	{ "=== kept as written", "torch===2.1.0+CPU", "torch", "2.1.0+CPU", "===2.1.0+CPU", 1, 0, 0,
	  0, "" },
	/* any other specifier is checked as a whole (pip installs what
	 * does not satisfy it): kept as the version */
	{ "==V.* is a range", "flask==3.*", "flask", "==3.*", "==3.*", 1, 0, 0, 0, "" },
	{ "two clauses: a range", "numpy==1.26.4,<2", "numpy", "==1.26.4,<2", "==1.26.4,<2", 1, 0,
	  0, 0, "" },
	{ "a range in parentheses", "six ( >=1.0 , <2 )", "six", ">=1.0 , <2", ">=1.0 , <2", 1, 0, 0,
	  0, "" },
	{ "no specifier: any version", "six", "six", NULL, "", 1, 0, 0, 0, "" },
	{ "no specifier, extras", "six [x] ; os_name == 'posix'", "six", NULL, "", 1, 0, 0, 0, "" },
	{ "a range from a variable", "requests>=${REQ_VER}", "requests", ">=2.31.0", ">=${REQ_VER}", 1,
	  0, 0, 0, "" },
	{ "a path", "./pkgs/a==1", "a", NULL, NULL, 0, 0, 1, 0, "" },
	{ "a wheel file", "a-1.0-py3-none-any.whl", "a", NULL, NULL, 0, 0, 1, 0, "" },
	{ "a name ending in '-'", "a-==1", "a", NULL, NULL, 0, 0, 1, 0, "" },
	/* parse_req_from_line(): markers after the first ';' */
	{ "legacy marker os.name", "w==1; os.name == 'nt'", "w", NULL, NULL, 0, 0, 0, 0, "" },
	{ "legacy marker sys.platform", "w==1; sys.platform == 'linux'", "w", "1", "==1", 1, 0, 0,
	  0, "" },
	{ "an empty marker", "w==1;", "w", "1", "==1", 1, 0, 0, 0, "" },
	/* req_install.py match_markers(): extra is "" */
	{ "an extra: false for pip", "w==1; extra == 'x'", "w", NULL, NULL, 0, 0, 0, 0, "" },
	{ "not an extra: true", "w==1; extra != 'x'", "w", "1", "==1", 1, 0, 0, 0, "" },
	{ "an unknown variable: undecided", "w==1; platform_release >= '5'", "w", "1", "==1", 1,
	  DEP_UNDECIDED, 0, 0, "" },
	/* options: -r and -c counted, -e and index options not pins */
	{ "-r, -c, --requirement=, -e", "-r a.txt\n-c b.txt\n--requirement=c.txt\n-e .\n--index-url x",
	  "a", NULL, NULL, 0, 0, 0, 3, "" },
	{ "a lone --hash", "--hash=sha256:00", "a", NULL, NULL, 0, 0, 0, 0, "" },
	{ "the first pin of a name", "a==1\nA==2", "a", "1", "==1", 1, 0, 0, 0, "" },
	{ "nothing", "", "a", NULL, NULL, 0, 0, 0, 0, "" },
};

static void requirements(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct dep_set s = DEP_SET_INIT;
		struct parse_error e;
		struct pip_parse pp;
		const struct dep *d;

		memset(&pp, 0, sizeof(pp));
		pp.env = &py312;
		pp.environ = envp;
		CHECK(deps_pip_parse(rows[i].text, strlen(rows[i].text), &pp, &s, &e) == 0, "%s",
		      rows[i].why);
		d = dep_set_get(&s, rows[i].key);
		if (!rows[i].version && rows[i].shown) {	/* no specifier */
			CHECK(d && !d->version && d->extra && !strcmp(d->extra, rows[i].shown) &&
			      d->line == rows[i].line, "%s", rows[i].why);
		} else if (!rows[i].version) {
			CHECK(!d, "%s: no pin of %s, got %s", rows[i].why, rows[i].key,
			      d ? d->version : "");
		} else if (!d) {
			CHECK(d, "%s: no pin of %s", rows[i].why, rows[i].key);
		} else {
			CHECK_STR(d->version, rows[i].version, "%s", rows[i].why);
			CHECK_STR(d->extra, rows[i].shown, "%s", rows[i].why);
			CHECK_INT(d->line, rows[i].line, "%s", rows[i].why);
			CHECK_INT(d->flags, rows[i].flags, "%s", rows[i].why);
		}
		CHECK_INT(pp.unpinned, rows[i].unpinned, "%s: unpinned", rows[i].why);
		CHECK_INT(pp.includes, rows[i].includes, "%s: includes", rows[i].why);
		CHECK_STR(pp.unset, rows[i].unset, "%s: unset", rows[i].why);
		dep_set_release(&s);
	}
}

/* packaging _tokenizer.py VARIABLE and _parser.py _parse_marker_var():
 * the dotted legacy names, python_implementation; markers.py _eval_op():
 * strings compared as strings */
static const struct {
	const char *marker;
	int want;
} marker_rows[] = {
	{ "os.name == 'posix'", 1 },
	{ "os.name == 'nt'", 0 },
	{ "sys.platform == 'linux'", 1 },
	{ "platform.machine == 'x86_64'", 1 },
	{ "platform.python_implementation == 'CPython'", 1 },
	{ "python_implementation == 'PyPy'", 0 },
	{ "platform.version == '1'", -1 },	/* platform_version: not known */
	{ "platform.system == 'Linux'", -1 },	/* no VARIABLE: a syntax error */
	{ "os.nam == 'posix'", -1 },
	{ "os_name < 'q'", 1 },
	{ "os_name >= 'q'", 0 },
	{ "sys_platform > 'darwin'", 1 },
	{ "'linux' <= sys_platform", 1 },
	{ "python_version > '3.x'", 0 },	/* no version: "3.12" > "3.x" as strings */
	{ "os_name ~= 'posix'", -1 },
};

static void legacy_markers(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(marker_rows); i++) {
		const char *m = marker_rows[i].marker;

		CHECK_INT(pymarker_eval(m, strlen(m), &py312), marker_rows[i].want, "%s", m);
	}
}

static void normalize(void)
{
	static const struct {
		const char *in, *out;
	} n[] = {
		{ "2.1.0+CPU", "2.1.0+cpu" }, { "1.0-1", "1.0.post1" }, { "v1.0RC1", "1.0rc1" },
		{ "2.31", "2.31" }, { "1!2.0.dev0", "1!2.0.dev0" }, { "01.02", "1.2" },
		{ "1.0+ubuntu-1", "1.0+ubuntu.1" }, { "${X}", NULL }, { "", NULL },
	};
	char buf[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(n); i++) {
		int rc = pep440_normalize(n[i].in, buf, sizeof(buf));

		CHECK_STR(rc == 0 ? buf : NULL, n[i].out, "%s", n[i].in);
	}
	CHECK(pep440_normalize("1.0.0.0.0.0", buf, 4) < 0, "too small a buffer");
}

void test_main(void)
{
	requirements();
	legacy_markers();
	normalize();
}
