/* test_cliopt.c - option errors name what was typed: one row a command
 * line, run through getopt_long itself as the commands run it. */
#include "cliopt.h"
#include "test.h"

static const char optstring[] = ":f:t:qVh";
static const struct option longopts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "json", no_argument, NULL, 256 },
	{ "skip", required_argument, NULL, 257 },
	{ "strict", no_argument, NULL, 258 },
	{ "schema", no_argument, NULL, 259 },
	{ "timeout", required_argument, NULL, 't' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-color", no_argument, NULL, 260 },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static const struct {
	const char *args[6];	/* after the program's name */
	const char *want;	/* the message, or NULL: getopt_long takes them */
} rows[] = {
	{ { "-json" }, "unknown option '-j' in '-json'; did you mean '--json'?" },
	{ { "-quiet" }, "unknown option '-u' in '-quiet'; did you mean '--quiet'?" },
	{ { "-no-color" }, "unknown option '-n' in '-no-color'; did you mean "
	  "'--no-color'?" },
	{ { "-j" }, "unknown option '-j'" },
	{ { "-qj" }, "unknown option '-j' in '-qj'" },
	{ { "-json=1" }, "unknown option '-j' in '-json=1'" },
	{ { "-jq" }, "unknown option '-j' in '-jq'" },
	/* the word before is no help: the program, a directory, an option */
	{ { "dir", "-json" }, "unknown option '-j' in '-json'; did you mean '--json'?" },
	{ { "-fjson", "-json" }, "unknown option '-j' in '-json'; did you mean "
	  "'--json'?" },
	{ { "-qj", "-json" }, "unknown option '-j' in '-qj'" },
	{ { "-f", "json", "-x" }, "unknown option '-x'" },
	{ { "--format", "-x", "-y" }, "unknown option '-y'" },
	{ { "--strict", "dir", "-qt" }, "option '-t' in '-qt' needs a value" },
	{ { "-f" }, "option '-f' needs a value" },
	{ { "--format" }, "option '--format' needs a value" },
	{ { "--form" }, "option '--form' needs a value" },
	{ { "--bogus" }, "unknown option '--bogus'" },
	{ { "--bogus=1" }, "unknown option '--bogus'" },
	{ { "--s" }, "option '--s' is ambiguous (--skip, --strict, --schema)" },
	{ { "--json=1" }, "option '--json' takes no value ('--json=1')" },
	{ { "--", "-json" }, NULL },
	{ { "-q", "--json", "--strict" }, NULL },
	/* what is typed reaches the terminal cleaned */
	{ { "-\033[31m" }, "unknown option '-?' in '-?[31m'" },
	{ { "--\033[31m" }, "unknown option '--?[31m'" },
};

/* Run getopt_long over row i as the commands do; the message of its
 * error, or NULL when it has none.  The caller frees it. */
static char *run(size_t i)
{
	char *argv[8];
	struct buf b = BUF_INIT;
	int argc = 1, c, n;

	argv[0] = (char *)"envpreflight";
	while (argc < 7 && rows[i].args[argc - 1])
		argv[argc] = (char *)rows[i].args[argc - 1], argc++;
	argv[argc] = NULL;
	optind = 0;	/* glibc: start afresh */
	opterr = 0;
	for (n = 0; (c = getopt_long(argc, argv, optstring, longopts, NULL)) != -1; n++) {
		if (c == '?' || c == ':') {
			cliopt_error(&b, argc, argv, optstring, longopts, n, c);
			return buf_detach(&b);
		}
	}
	return NULL;
}

static void test_value_hint(void)
{
	static char word[] = "-format=xml", other[] = "xml", dbl[] = "--format=xml";
	struct buf b = BUF_INIT;

	cliopt_value_hint(&b, word, word + 2, longopts);
	CHECK_STR(buf_str(&b), "; did you mean '--format=xml'?", "glued in a long word");
	buf_release(&b);
	cliopt_value_hint(&b, other, other, longopts);
	CHECK_STR(buf_str(&b), "", "a word of its own");
	buf_release(&b);
	cliopt_value_hint(&b, dbl, dbl + 9, longopts);
	CHECK_STR(buf_str(&b), "", "already a long option");
	buf_release(&b);
}

void test_main(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *got = run(i);

		CHECK_STR(got, rows[i].want, "row %zu (%s)", i, rows[i].args[0]);
		free(got);
	}
	test_value_hint();
}
