/* fuzz_initquote.c - init's quoting round trip (src/cli/init.c init_quote,
 * read back by src/parse/ytree.c): `envpreflight init` writes names and
 * ranges from the repository's files into preflight.yaml as YAML
 * double-quoted scalars, which must read back as exactly the same text
 * whatever bytes they hold.
 *
 * Input: a string (valid UTF-8 without NUL; anything else is not a
 * string a model holds, and is skipped).  Invariants: "k: <quoted>  #
 * comment" parses, k is a quoted (not plain) scalar and its text is the
 * input; the quoted text is one line of printable ASCII or UTF-8; a list
 * of the same scalar twice reads back as two equal items.
 */
#include "fuzz.h"
#include "init.h"
#include "util.h"
#include "ytree.h"

#include <stdlib.h>
#include <string.h>

static void reread(const char *doc, size_t len, const char *want)
{
	struct parse_error e;
	struct ynode *root = NULL;
	const struct ynode *v;

	FUZZ_CHECK(ytree_parse(doc, len, 1000, &root, &e) == 0);
	v = ynode_get(root, "k");
	FUZZ_CHECK(v && v->kind == YNODE_SCALAR && !v->plain);
	FUZZ_CHECK(!strcmp(v->text, want));
	v = ynode_get(root, "other");
	if (v) {
		FUZZ_CHECK(v->kind == YNODE_SEQ && v->n == 2);
		FUZZ_CHECK(!strcmp(v->items[0]->text, want) &&
			   !strcmp(v->items[1]->text, want));
	}
	ynode_free(root);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf q = BUF_INIT, doc = BUF_INIT;
	const char *what;
	unsigned line, col;
	char *s;
	size_t i;

	if (size > 65536 || memchr(data, '\0', size) ||
	    text_check((const char *)data, size, &line, &col, &what) != 0)
		return 0;
	s = fuzz_str(data, size);
	init_quote(&q, s);
	for (i = 0; i < q.len; i++)
		FUZZ_CHECK((unsigned char)q.s[i] >= 0x20 && q.s[i] != 0x7f);
	FUZZ_CHECK(q.len >= 2 && q.s[0] == '"' && q.s[q.len - 1] == '"');
	buf_printf(&doc, "k: %s  # a comment: #\n", buf_str(&q));
	reread(doc.s, doc.len, s);
	buf_release(&doc);
	buf_printf(&doc, "k:\n  %s\nother: [%s, %s]\n", buf_str(&q), buf_str(&q),
		   buf_str(&q));
	reread(doc.s, doc.len, s);
	buf_release(&doc);
	buf_release(&q);
	free(s);
	return 0;
}
