/* test_toml.c - src/parse/toml.c against toml-lang/toml-test (every TOML 1.0
 * case: valid ones decode to the expected tagged JSON, invalid ones are
 * refused), then our own rows: error positions, limits, scale. */
#include "test.h"
#include "toml.h"
#include "saferead.h"
#include "util.h"

#include <cJSON.h>
#include <math.h>

#define SUITE "tests/conformance/toml-test"

/* toml-test's tagged JSON of a value: {"type": T, "value": "..."}. */
static cJSON *tagged(const struct toml_value *v)
{
	cJSON *o;
	size_t i;
	char num[64];

	if (v->type == TOML_TABLE) {
		o = cJSON_CreateObject();
		for (i = 0; i < v->n; i++)
			cJSON_AddItemToObject(o, v->kv[i].key, tagged(v->kv[i].val));
		return o;
	}
	if (v->type == TOML_ARRAY) {
		o = cJSON_CreateArray();
		for (i = 0; i < v->n; i++)
			cJSON_AddItemToArray(o, tagged(v->items[i]));
		return o;
	}
	o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "type", toml_type_name(v->type));
	switch (v->type) {
	case TOML_INTEGER:
		snprintf(num, sizeof(num), "%lld", v->i);
		cJSON_AddStringToObject(o, "value", num);
		break;
	case TOML_FLOAT:
		if (isnan(v->f))
			snprintf(num, sizeof(num), "nan");
		else
			snprintf(num, sizeof(num), "%.17g", v->f);
		cJSON_AddStringToObject(o, "value", num);
		break;
	case TOML_BOOL:
		cJSON_AddStringToObject(o, "value", v->b ? "true" : "false");
		break;
	default:
		cJSON_AddStringToObject(o, "value", v->str);
	}
	return o;
}

/* A date or time as RFC 3339 writes it: 'T' and 'Z' upper case, no
 * trailing zeros in the fraction of a second (56.6 is 56.600). */
static void norm_time(const char *in, char *out, size_t size)
{
	size_t i, j = 0;
	int frac = 0;

	for (i = 0; in[i] && j + 1 < size; i++) {
		char c = in[i];

		if (c == 't' || (c == ' ' && i == 10))
			c = 'T';
		else if (c == 'z')
			c = 'Z';
		if (frac && !(c >= '0' && c <= '9')) {
			while (out[j - 1] == '0')
				j--;
			frac = 0;
		}
		if (c == '.')
			frac = 1;
		out[j++] = c;
	}
	while (frac && out[j - 1] == '0')
		j--;
	out[j] = 0;
}

/* Same value, the toml-test way: numbers by value, nan equals nan. */
static int same_scalar(const char *type, const char *got, const char *want)
{
	if (!strcmp(type, "float")) {
		double g = strtod(got, NULL), w = strtod(want, NULL);

		return (isnan(g) && isnan(w)) || g == w;
	}
	if (!strcmp(type, "integer"))
		return strtoll(got, NULL, 10) == strtoll(want, NULL, 10);
	if (!strcmp(type, "string") || !strcmp(type, "bool"))
		return !strcmp(got, want);
	{
		char g[128], w[128];

		norm_time(got, g, sizeof(g));
		norm_time(want, w, sizeof(w));
		return !strcmp(g, w);
	}
}

static int is_tag(const cJSON *o)
{
	const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "type");
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "value");

	return cJSON_IsObject(o) && cJSON_GetArraySize(o) == 2 && cJSON_IsString(t) &&
	       cJSON_IsString(v);
}

static int same(const cJSON *got, const cJSON *want, struct buf *why)
{
	const cJSON *g, *w;

	if (cJSON_IsArray(want)) {
		if (!cJSON_IsArray(got) || cJSON_GetArraySize(got) != cJSON_GetArraySize(want)) {
			buf_puts(why, "array differs; ");
			return 0;
		}
		for (g = got->child, w = want->child; g && w; g = g->next, w = w->next)
			if (!same(g, w, why))
				return 0;
		return 1;
	}
	if (is_tag(want)) {
		const char *wt = cJSON_GetObjectItemCaseSensitive(want, "type")->valuestring;
		const char *wv = cJSON_GetObjectItemCaseSensitive(want, "value")->valuestring;

		if (!is_tag(got) ||
		    strcmp(cJSON_GetObjectItemCaseSensitive(got, "type")->valuestring, wt) ||
		    !same_scalar(wt, cJSON_GetObjectItemCaseSensitive(got, "value")->valuestring,
				 wv)) {
			buf_printf(why, "value %s %s differs; ", wt, wv);
			return 0;
		}
		return 1;
	}
	if (!cJSON_IsObject(got) || cJSON_GetArraySize(got) != cJSON_GetArraySize(want)) {
		buf_puts(why, "table differs; ");
		return 0;
	}
	for (w = want->child; w; w = w->next) {
		g = cJSON_GetObjectItemCaseSensitive(got, w->string);
		if (!g) {
			buf_printf(why, "key '%s' missing; ", w->string);
			return 0;
		}
		if (!same(g, w, why)) {
			buf_printf(why, "under '%s'; ", w->string);
			return 0;
		}
	}
	return 1;
}

static void run_valid(const char *name)
{
	char path[512], jpath[512];
	struct blob toml, json;
	struct toml_value *root;
	struct parse_error err;
	cJSON *want, *got;
	struct buf why = BUF_INIT;

	snprintf(path, sizeof(path), "%s/%s", SUITE, name);
	snprintf(jpath, sizeof(jpath), "%s/%.*s.json", SUITE, (int)(strlen(name) - 5), name);
	if (saferead_path(path, 1 << 20, &toml) < 0 || saferead_path(jpath, 1 << 20, &json) < 0) {
		CHECK(0, "%s: cannot read the case", name);
		return;
	}
	if (toml_parse(toml.data, toml.len, NULL, &root, &err) < 0) {
		CHECK(0, "%s: refused: %u:%u: %s", name, err.line, err.col, err.msg);
	} else {
		want = cJSON_ParseWithLength(json.data, json.len);
		got = tagged(root);
		CHECK(want && same(got, want, &why), "%s: %s", name, buf_str(&why));
		cJSON_Delete(want);
		cJSON_Delete(got);
		toml_free(root);
	}
	buf_release(&why);
	blob_release(&toml);
	blob_release(&json);
}

static void run_invalid(const char *name)
{
	char path[512];
	struct blob toml;
	struct toml_value *root;
	struct parse_error err;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", SUITE, name);
	if (saferead_path(path, 1 << 20, &toml) < 0) {
		CHECK(0, "%s: cannot read the case", name);
		return;
	}
	rc = toml_parse(toml.data, toml.len, NULL, &root, &err);
	CHECK(rc < 0 && root == NULL && err.line > 0 && err.msg[0], "%s: accepted", name);
	if (rc == 0)
		toml_free(root);
	blob_release(&toml);
}

static void conformance(void)
{
	struct blob list;
	char *line, *next;
	size_t nvalid = 0, ninvalid = 0;

	if (saferead_path(SUITE "/files-toml-1.0.0", 1 << 20, &list) < 0) {
		CHECK(0, "no toml-test list at " SUITE);
		return;
	}
	for (line = list.data; line && *line; line = next) {
		size_t len;

		if ((next = strchr(line, '\n')))
			*next++ = 0;
		len = strlen(line);

		if (len < 5 || strcmp(line + len - 5, ".toml"))
			continue;
		if (!strncmp(line, "valid/", 6)) {
			run_valid(line);
			nvalid++;
		} else if (!strncmp(line, "invalid/", 8)) {
			run_invalid(line);
			ninvalid++;
		}
	}
	/* the list of commit d168c2a: a shrunken copy must not pass quietly */
	CHECK(nvalid >= 200 && ninvalid >= 450, "ran %zu valid and %zu invalid cases",
	      nvalid, ninvalid);
	blob_release(&list);
}

/* ---- our own rows ---- */

static const struct {
	const char *in;
	unsigned line, col;
	const char *msg;	/* a part of the message */
} bad_rows[] = {
	{ "a = 1\nb = \n", 2, 5, "expected a value" },
	{ "a = 1\na = 2\n", 2, 1, "duplicate key 'a'" },
	{ "[t]\nx = 1\n[t]\n", 3, 1, "table 't' is defined twice" },
	{ "s = \"\"\"\nabc\n", 1, 5, "unterminated string" },
	{ "x = \"a\\qb\"\n", 1, 7, "invalid escape" },
	{ "x = 01\n", 1, 5, "leading zeros" },
	{ "x = 1979-02-30\n", 1, 5, "no such day" },
	{ "x = {a = 1,}\n", 1, 12, "trailing comma" },
	{ "x = [1 2]\n", 1, 8, "expected ',' or ']'" },
	{ "[fruit]\napple.color = 1\n[fruit.apple]\n", 3, 1, "defined twice" },
	{ "a = {b = 1}\na.c = 2\n", 2, 1, "reaches into a table defined elsewhere" },
	{ "a = [1]\n[[a]]\n", 2, 1, "not an array of tables" },
	{ "k = \"\xff\"\n", 1, 6, "invalid UTF-8" },
	{ "k = 1 # \x01\n", 1, 9, "control character" },
	{ "k = \"x\ry\"\n", 1, 5, "unterminated string" },
	{ "x = 9223372036854775808\n", 1, 5, "out of range" },
	{ "requires-python = >=3.10\n", 1, 19, "invalid value" },
	{ "ok = 1\n\n\nk = \"\"\"\n\n\n\"\"\" x\n", 7, 5, "expected the end of the line" },
};

static void errors(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		struct toml_value *root;
		struct parse_error err;
		int rc = toml_parse(bad_rows[i].in, strlen(bad_rows[i].in), NULL, &root, &err);

		CHECK(rc < 0, "row %zu accepted", i);
		if (rc == 0) {
			toml_free(root);
			continue;
		}
		CHECK(err.line == bad_rows[i].line && err.col == bad_rows[i].col,
		      "row %zu at %u:%u, want %u:%u (%s)", i, err.line, err.col,
		      bad_rows[i].line, bad_rows[i].col, err.msg);
		CHECK(strstr(err.msg, bad_rows[i].msg) != NULL, "row %zu: '%s'", i, err.msg);
	}
}

/* Strings are scanned eight bytes at a time: a character that ends the
 * plain run (a quote, a backslash, a control character, DEL) and one that
 * does not (UTF-8, a tab) at every offset of two words, in each kind of
 * string, give what a byte-by-byte scan gives. */
static const struct {
	const char *open, *close;	/* the string's quotes */
	const char *mid;		/* written at the offset */
	const char *want;		/* decoded; NULL: an error */
	const char *msg;		/* the error */
} string_rows[] = {
	{ "\"", "\"", "\\n", "\n", NULL },
	{ "\"", "\"", "\\\"", "\"", NULL },
	{ "\"", "\"", "\\u00e9", "\xc3\xa9", NULL },
	{ "\"", "\"", "\xc3\xa9", "\xc3\xa9", NULL },
	{ "\"", "\"", "\t", "\t", NULL },
	{ "\"", "\"", "\x01", NULL, "control character 0x01 in a string" },
	{ "\"", "\"", "\x7f", NULL, "control character 0x7f in a string" },
	{ "\"", "\"", "\x1f", NULL, "control character 0x1f in a string" },
	{ "'", "'", "\\", "\\", NULL },
	{ "'", "'", "\"", "\"", NULL },
	{ "'", "'", "\xe2\x82\xac", "\xe2\x82\xac", NULL },
	{ "'", "'", "\x7f", NULL, "control character 0x7f in a string" },
	{ "\"\"\"", "\"\"\"", "\n", "\n", NULL },
	{ "\"\"\"", "\"\"\"", "\"\"", "\"\"", NULL },
	{ "\"\"\"", "\"\"\"", "\\\n   ", "", NULL },
	{ "\"\"\"", "\"\"\"", "\x0b", NULL, "control character 0x0b in a string" },
	{ "'''", "'''", "\r\n", "\n", NULL },
	{ "'''", "'''", "''", "''", NULL },
	{ "'''", "'''", "\\", "\\", NULL },
};

static void strings(void)
{
	static const char text[] = "abcdefghijklmnopqrstuvwxyz";
	size_t i, at;

	for (i = 0; i < ARRAY_SIZE(string_rows); i++) {
		for (at = 0; at < 18; at++) {
			struct buf doc = BUF_INIT, want = BUF_INIT;
			struct toml_value *root;
			struct parse_error err;
			const char *got;
			int rc;

			/* "_" first: a newline just after the opening quotes is
			 * trimmed */
			buf_printf(&doc, "k = %s_%.*s%s%s%s\n", string_rows[i].open, (int)at, text,
				   string_rows[i].mid, text + at, string_rows[i].close);
			rc = toml_parse(doc.s, doc.len, NULL, &root, &err);
			if (!string_rows[i].want) {
				CHECK(rc < 0 && strstr(err.msg, string_rows[i].msg) &&
				      err.line == 1 &&
				      err.col == 6 + strlen(string_rows[i].open) + at,
				      "string row %zu at %zu: %d %u:%u %s", i, at, rc, err.line,
				      err.col, rc < 0 ? err.msg : "");
			} else {
				buf_printf(&want, "_%.*s%s%s", (int)at, text, string_rows[i].want,
					   text + at);
				got = rc == 0 ? toml_str(toml_get(root, "k")) : NULL;
				CHECK(got && !strcmp(got, want.s), "string row %zu at %zu: %s", i,
				      at, rc < 0 ? err.msg : got ? got : "(none)");
			}
			if (rc == 0)
				toml_free(root);
			buf_release(&doc);
			buf_release(&want);
		}
	}
}

/* Depth, value count and a wide table stay bounded and linear. */
static void limits(void)
{
	struct toml_limits lim = { 16, 100 };
	struct toml_value *root;
	struct parse_error err;
	struct buf b = BUF_INIT;
	size_t i;

	buf_puts(&b, "x = ");
	for (i = 0; i < 100000; i++)
		buf_putc(&b, '[');
	CHECK(toml_parse(b.s, b.len, NULL, &root, &err) < 0 &&
	      strstr(err.msg, "nested too deeply"), "deep arrays: %s", err.msg);
	buf_release(&b);

	buf_puts(&b, "[a");
	for (i = 0; i < 100000; i++)
		buf_puts(&b, ".a");
	buf_puts(&b, "]\n");
	CHECK(toml_parse(b.s, b.len, NULL, &root, &err) < 0 &&
	      strstr(err.msg, "too many parts"), "deep header: %s", err.msg);
	buf_release(&b);

	/* inline tables whose keys have many parts: the parts count with
	 * the tables (127 of each made a tree 16,000 levels deep) */
	buf_puts(&b, "x = ");
	for (i = 0; i < 127; i++) {
		size_t j;

		buf_putc(&b, '{');
		for (j = 0; j < 127; j++)
			buf_puts(&b, j ? ".a" : "a");
		buf_puts(&b, " = ");
	}
	buf_putc(&b, '1');
	for (i = 0; i < 127; i++)
		buf_putc(&b, '}');
	CHECK(toml_parse(b.s, b.len, NULL, &root, &err) < 0 &&
	      strstr(err.msg, "nested too deeply"), "deep dotted keys: %s", err.msg);
	buf_release(&b);
	/* at the limit of 16, tables and parts together, and one past */
	buf_puts(&b, "x = {a.b.c.d = {e.f.g.h = {i.j.k.l = {m.n.o = 1}}}}\n");
	CHECK(toml_parse(b.s, b.len, &lim, &root, &err) == 0, "at the limit: %s", err.msg);
	toml_free(root);
	buf_release(&b);
	buf_puts(&b, "x = {a.b.c.d = {e.f.g.h = {i.j.k.l = {m.n.o.p = 1}}}}\n");
	CHECK(toml_parse(b.s, b.len, &lim, &root, &err) < 0 &&
	      strstr(err.msg, "nested too deeply"), "one past: %s", err.msg);
	buf_release(&b);

	buf_puts(&b, "x = [");
	for (i = 0; i < 200; i++)
		buf_puts(&b, "1,");
	buf_puts(&b, "]\n");
	CHECK(toml_parse(b.s, b.len, &lim, &root, &err) < 0 &&
	      strstr(err.msg, "too many values"), "values: %s", err.msg);
	buf_release(&b);

	for (i = 0; i < 100000; i++)
		buf_printf(&b, "k%zu = %zu\n", i, i);
	CHECK(toml_parse(b.s, b.len, NULL, &root, &err) == 0, "wide table: %s", err.msg);
	if (root) {
		const struct toml_value *v = toml_get(root, "k77777");

		CHECK(v && v->type == TOML_INTEGER && v->i == 77777, "index lookup");
		CHECK(root->n == 100000, "all keys");
		toml_free(root);
	}
	buf_puts(&b, "k5 = 1\n");
	CHECK(toml_parse(b.s, b.len, NULL, &root, &err) < 0 && err.line == 100001 &&
	      strstr(err.msg, "duplicate key 'k5'"), "duplicate past the index: %u %s",
	      err.line, err.msg);
	buf_release(&b);
}

/* What the loaders use: positions of keys and values, toml_get, toml_str. */
static void api(void)
{
	static const char doc[] =
		"# c\n[project]\nname = \"x\"\n  requires-python = '>=3.10'\n"
		"[[package]]\nname = \"a\"\nversion = \"1.0\"\n"
		"[[package]]\nname = \"b\"\n";
	struct toml_value *root;
	struct parse_error err;
	const struct toml_value *proj, *rp, *pkgs;

	CHECK(toml_parse(doc, sizeof(doc) - 1, NULL, &root, &err) == 0, "%s", err.msg);
	if (!root)
		return;
	proj = toml_get(root, "project");
	rp = toml_get(proj, "requires-python");
	CHECK_STR(toml_str(rp), ">=3.10", "requires-python");
	CHECK(rp && rp->line == 4 && rp->col == 21, "value at %u:%u", rp ? rp->line : 0,
	      rp ? rp->col : 0);
	CHECK(proj && proj->kv[1].line == 4 && proj->kv[1].col == 3, "key position");
	pkgs = toml_get(root, "package");
	CHECK(pkgs && pkgs->type == TOML_ARRAY && pkgs->n == 2, "array of tables");
	CHECK_STR(toml_str(toml_get(pkgs->items[1], "name")), "b", "second package");
	CHECK(toml_get(rp, "x") == NULL && toml_str(proj) == NULL, "type checks");
	toml_free(root);
}

void test_main(void)
{
	conformance();
	errors();
	strings();
	limits();
	api();
}
