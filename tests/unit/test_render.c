/* test_render.c - the format names, and the text of the TAP and GitHub
 * job-summary renderers on hand-made results: what the repository's text
 * may carry (line breaks, '|', '#', '\', Markdown and HTML syntax, control
 * characters) never escapes its field; the GitHub human lines carry no
 * workflow command. */
#include "render.h"
#include "test.h"
#include "util.h"

/* What renderer f prints for rep, as a new string. */
static char *rendered(void (*f)(FILE *, const struct report *, int), const struct report *rep,
		      int arg)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	f(mem, rep, arg);
	fclose(mem);
	return text;
}

static void summary_as_tap(FILE *out, const struct report *rep, int unused)
{
	(void)unused;
	render_github_summary(out, rep);
}

static void test_format_names(void)
{
	static const struct { const char *name; enum format f; } rows[] = {
		{ "human", FORMAT_HUMAN }, { "json", FORMAT_JSON },
		{ "junit", FORMAT_JUNIT }, { "github", FORMAT_GITHUB },
		{ "tap", FORMAT_TAP }, { "tap13", FORMAT_TAP13 },
	};
	struct buf words = BUF_INIT;
	enum format f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		CHECK(format_parse(rows[i].name, &f) == 0 && f == rows[i].f, "%s", rows[i].name);
		CHECK_STR(format_name(rows[i].f), rows[i].name, "name of %zu", i);
		buf_printf(&words, "%s%s", i == 0 ? "" : i + 1 == ARRAY_SIZE(rows) ? " or " : ", ",
			   rows[i].name);
	}
	CHECK_STR(format_names_text(), buf_str(&words), "the words list every format");
	CHECK(format_parse("TAP", &f) < 0, "names are exact");
	CHECK(format_parse("tap14", &f) < 0, "tap is 14");
	buf_release(&words);
}

static struct result mk(const char *id, enum status st, const char *title, const char *msg,
			const char *hint, const char *file, unsigned line)
{
	struct result r;

	memset(&r, 0, sizeof(r));
	r.id = (char *)id;
	r.probe = "env";
	r.status = st;
	r.title = (char *)title;
	r.message = (char *)msg;
	r.hint = (char *)hint;
	r.source.file = file;
	r.source.line = line;
	r.reason = st == STATUS_PASS ? REASON_NONE : REASON_KEYS_MISSING;
	return r;
}

static void test_tap(void)
{
	struct result res[4];
	struct report rep;
	struct report_error err = { "spec-invalid", "pre#flight.yaml", 3, 3, "key 'a#b\\c'" };
	char *t;

	res[0] = mk("env.parity", STATUS_PASS, ".env parity", "matched to a#b\\c # SKIP", NULL,
		    NULL, 0);
	res[1] = mk("tool.x", STATUS_FAIL, "Tool x", "not\nfound \"q\" \\", "install\x1b[31m x",
		    "pre#flight.yaml", 4);
	res[2] = mk("env.gitignore", STATUS_SKIP, ".env # ignored", "not in git # TODO", NULL,
		    NULL, 0);
	res[3] = mk("ports.tcp.1", STATUS_WARN, "Port 1", "in use", NULL, NULL, 0);
	memset(&rep, 0, sizeof(rep));
	rep.results = res;
	rep.n = 4;
	rep.display_dir = ".";

	t = rendered(render_tap, &rep, 14);
	CHECK_STR(t,
		  "TAP version 14\n"
		  "1..4\n"
		  "ok 1 - .env parity: matched to a\\#b\\\\c \\# SKIP\n"
		  "not ok 2 - Tool x: not?found \"q\" \\\\\n"
		  "  ---\n"
		  "  id: \"tool.x\"\n"
		  "  probe: \"env\"\n"
		  "  status: \"fail\"\n"
		  "  reason: \"keys-missing\"\n"
		  "  message: \"not?found \\\"q\\\" \\\\\"\n"
		  "  hint: \"install?[31m x\"\n"
		  "  at:\n"
		  "    file: \"pre#flight.yaml\"\n"
		  "    line: 4\n"
		  "  ...\n"
		  "ok 3 - .env \\# ignored # SKIP not in git \\# TODO\n"
		  "ok 4 - Port 1: in use\n"
		  "  ---\n"
		  "  id: \"ports.tcp.1\"\n"
		  "  probe: \"env\"\n"
		  "  status: \"warn\"\n"
		  "  reason: \"keys-missing\"\n"
		  "  message: \"in use\"\n"
		  "  ...\n", "tap 14");
	free(t);

	rep.strict = 1;
	t = rendered(render_tap, &rep, 13);
	CHECK(!strncmp(t, "TAP version 13\n1..4\n", 20), "tap13: %s", t);
	CHECK(strstr(t, "\nnot ok 4 - Port 1: in use\n") != NULL, "strict: a warning is not ok");
	free(t);

	rep.n = 0;
	t = rendered(render_tap, &rep, 14);
	CHECK_STR(t, "TAP version 14\n1..0 # SKIP nothing to check\n", "nothing to check");
	free(t);

	rep.error = &err;
	t = rendered(render_tap, &rep, 14);
	CHECK_STR(t, "TAP version 14\nBail out! pre\\#flight.yaml:3:3: key 'a\\#b\\\\c'\n",
		  "could not run");
	free(t);
}

static void test_summary(void)
{
	struct result res[2];
	struct report rep;
	struct report_error err = { "spec-invalid", "a|b.yaml", 2, 0, "bad <key>\nline" };
	char *t;

	res[0] = mk("env.parity", STATUS_FAIL, ".env | parity",
		    "a|b\nc\r\nd *e* _f_ `g` <img src=x> [l](u) $x$ @me #1 ~s~ \\ &amp;",
		    "run `x`", "dir|x/.env.example", 2);
	res[1] = mk("tool.sh", STATUS_PASS, "Tool sh", "found", NULL, NULL, 0);
	res[0].source.col = 5;
	memset(&rep, 0, sizeof(rep));
	rep.results = res;
	rep.n = 2;
	rep.display_dir = ".";

	t = rendered(summary_as_tap, &rep, 0);
	CHECK(!strncmp(t, "### envpreflight\n\n\u2716 1 of 2 checks failed (", 44), "head: %s", t);
	CHECK(strstr(t, "\n| Status | Check | Message | Source |\n| --- | --- | --- | --- |\n") != NULL,
	      "header: %s", t);
	CHECK(strstr(t,
		     "\n| \u274c fail | .env \\| parity (env.parity) | "
		     "a\\|b<br>c<br>d \\*e\\* \\_f\\_ \\`g\\` \\<img src=x\\> \\[l\\](u) \\$x\\$ "
		     "\\@me \\#1 \\~s\\~ \\\\ \\&amp;<br>hint: run \\`x\\` | "
		     "dir\\|x/.env.example:2:5 |\n") != NULL, "fail row: %s", t);
	CHECK(strstr(t, "\n| \u2705 pass | Tool sh (tool.sh) | found |  |\n") != NULL,
	      "pass row: %s", t);
	free(t);

	rep.strict = 1;
	res[0].status = STATUS_WARN;
	t = rendered(summary_as_tap, &rep, 0);
	CHECK(strstr(t, "\n| \u274c warn (strict) | ") != NULL, "strict warning: %s", t);
	free(t);

	rep.error = &err;
	t = rendered(summary_as_tap, &rep, 0);
	CHECK_STR(t, "### envpreflight\n\n\u203c\ufe0f The audit could not run: "
		  "a\\|b.yaml:2: bad \\<key\\><br>line\n\n", "could not run");
	free(t);
}

/* render_github_text: what the runner would read as a command in either
 * syntax gets a backslash; everything else, line breaks included, is kept. */
static void test_github_text(void)
{
	static const struct { const char *in, *want; } rows[] = {
		{ "", "" },
		{ "plain: text", "plain: text" },
		{ "::error::x", "\\::error::x" },
		{ "  ::add-mask::s", "  \\::add-mask::s" },
		{ "\t::warning::t", "\t\\::warning::t" },
		{ "\xc2\xa0::error::nbsp", "\xc2\xa0\\::error::nbsp" },
		{ "\xe3\x80\x80\xe2\x80\x83::error::wide", "\xe3\x80\x80\xe2\x80\x83\\::error::wide" },
		{ "\xef\xbb\xbf::error::bom", "\xef\xbb\xbf\\::error::bom" },
		{ "\xe2\x80\x8b::error::zwsp", "\xe2\x80\x8b\\::error::zwsp" },
		{ ":: x", "\\:: x" },
		{ ": :error::x", ": :error::x" },
		{ "x ::error::y", "x ::error::y" },
		{ "##[error]x", "##[\\error]x" },
		{ "a ##[set-output name=ready]true", "a ##[\\set-output name=ready]true" },
		{ "###[stop-commands]t ##[x", "###[\\stop-commands]t ##[\\x" },
		{ "#[error] # #[ ##", "#[error] # #[ ##" },
		{ "::##[error]", "\\::##[\\error]" },
		{ "ok\n::error::a\r::error::b\r\n::error::c\n",
		  "ok\n\\::error::a\r\\::error::b\r\n\\::error::c\n" },
		{ "##\n[error]", "##\n[error]" },
		{ "\xe2\x80", "\xe2\x80" },
		{ "\xc2", "\xc2" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		char *text = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&text, &len);

		render_github_text(mem, rows[i].in);
		fclose(mem);
		CHECK_STR(text, rows[i].want, "row %zu", i);
		free(text);
	}
}

void test_main(void)
{
	test_format_names();
	test_tap();
	test_summary();
	test_github_text();
}
