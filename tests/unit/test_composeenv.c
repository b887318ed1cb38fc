/* test_composeenv.c - a .env as compose reads it (composeenv.h): compose-go's
 * own answers to 3,000 generated files replayed (tests/fixtures/compose),
 * then a table of the rules that part it from npm's dotenv. */
#include "test.h"

#include "composeenv.h"
#include "util.h"

#include <cJSON.h>
#include <stdlib.h>

/* "KEY=value\n" lines of the winning assignments, in the order of the
 * keys' last assignments, as compose-go's map holds them (unordered:
 * both sides are sorted by the caller) */
static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void env_text(const struct dotenv *d, struct buf *out)
{
	char **lines = xcalloc(d->n ? d->n : 1, sizeof(*lines));
	size_t i, n = 0;

	for (i = 0; i < d->n; i++) {
		struct buf l = BUF_INIT;

		if (dotenv_is_shadowed(d, i))
			continue;
		buf_printf(&l, "%s=", d->entries[i].key);
		buf_add(&l, d->entries[i].value, d->entries[i].value_len);
		lines[n++] = l.s ? l.s : xstrdup("");
	}
	qsort(lines, n, sizeof(*lines), key_cmp);
	for (i = 0; i < n; i++) {
		buf_printf(out, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

static void want_text(const cJSON *env, struct buf *out)
{
	const cJSON *v;
	char **lines;
	size_t i, n = 0;

	lines = xcalloc((size_t)cJSON_GetArraySize(env) + 1, sizeof(*lines));
	cJSON_ArrayForEach(v, env) {
		struct buf l = BUF_INIT;

		buf_printf(&l, "%s=%s", v->string, cJSON_GetStringValue(v));
		lines[n++] = l.s;
	}
	qsort(lines, n, sizeof(*lines), key_cmp);
	for (i = 0; i < n; i++) {
		buf_printf(out, "%s\n", lines[i]);
		free(lines[i]);
	}
	free(lines);
}

/* One of compose-go's own readings (tests/fixtures/compose/README) */
static void vector_row(char *line, int n, void *ctx)
{
	cJSON *row = cJSON_Parse(line);
	const cJSON *want = cJSON_GetObjectItemCaseSensitive(row, "want");
	const char *in = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(row, "input"));
	struct dotenv d;
	struct composeenv_error e;
	struct buf got = BUF_INIT, exp = BUF_INIT;

	(void)ctx;
	if (!in || !want) {
		CHECK(0, "vector %d is not one", n);
		cJSON_Delete(row);
		return;
	}
	if (composeenv_parse(in, strlen(in), NULL, NULL, &d, &e) == 0)
		env_text(&d, &got);
	else if (e.value)	/* compose-go names no line for these */
		buf_puts(&got, "refused");
	else
		buf_printf(&got, "refused at line %u", e.line);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(want, "refused"))) {
		const cJSON *l = cJSON_GetObjectItemCaseSensitive(want, "line");

		if (cJSON_IsNumber(l))
			buf_printf(&exp, "refused at line %d", l->valueint);
		else
			buf_puts(&exp, "refused");
	} else {
		want_text(cJSON_GetObjectItemCaseSensitive(want, "env"), &exp);
	}
	CHECK_STR(buf_str(&got), buf_str(&exp), "compose-go vector %d", n);
	dotenv_release(&d);
	buf_release(&got);
	buf_release(&exp);
	cJSON_Delete(row);
}

static void test_vectors(void)
{
	int n = test_each_line("tests/fixtures/compose/dotenv-vectors.jsonl", vector_row, NULL);

	CHECK(n < 0 || n == 3000, "%d vectors, want 3000", n);
}

/* The rules that part compose's reader from npm's dotenv, one a row;
 * want is the sorted KEY=value lines, or "refused at line N". */
static const struct row {
	const char *what, *in, *want;
} rows[] = {
	{ "a backtick is text", "A=`x`\n", "A=`x`\n" },
	{ "# starts a comment only after a space", "A=x#y\nB=x #y\n", "A=x#y\nB=x\n" },
	{ "\\\" and \\\\ unescaped in double quotes", "A=\"say \\\"hi\\\" \\\\\"\n",
	  "A=say \"hi\" \\\n" },
	{ "\\' in single quotes", "A='it\\'s'\n", "A=it's\n" },
	{ "export and a colon", "export A=1\nB: 2\n", "A=1\nB=2\n" },
	{ "a bare key without the variable: left out", "A\nB=2\n", "B=2\n" },
	{ "earlier keys substituted", "A=1\nB=${A}2\nC='${A}'\n", "A=1\nB=12\nC=${A}\n" },
	{ "\\$ is a dollar", "A=1\nB=\"\\$A\"\n", "A=1\nB=$A\n" },
	{ "octal: \\0 and three octal digits, else \\ and the digits", "A=\"\\0101\\0128\"\n", "A=A\\128\n" },
	{ "a quote left open", "A=1\nB=\"x\nC=2\n", "refused at line 4" },
	{ "a space in a key", "A B=1\n", "refused at line 1" },
	{ "a key starting with a digit is read", "1A=x\n", "1A=x\n" },
	{ "a byte-order mark at the start", "\xef\xbb\xbf" "A=1\n", "A=1\n" },
	{ "CRLF: the CR is trimmed from an unquoted value", "A=1\r\nB=\"2\"\r\n", "A=1\nB=2\n" },
	{ "no separator: the line is the value of \"\"", "ABC", "=ABC\n" },
};

static void test_rows(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		struct dotenv d;
		struct composeenv_error e;
		struct buf got = BUF_INIT;

		if (composeenv_parse(rows[i].in, strlen(rows[i].in), NULL, NULL, &d, &e) == 0)
			env_text(&d, &got);
		else
			buf_printf(&got, "refused at line %u", e.line);
		CHECK_STR(buf_str(&got), rows[i].want, "%s", rows[i].what);
		dotenv_release(&d);
		buf_release(&got);
	}
}

void test_main(void)
{
	test_vectors();
	test_rows();
}
