/* fuzz_yamlfast.c - the fast path of the lockfile walk
 * (src/parse/deps_yaml.c): for the subset of block YAML that yarn writes,
 * deps_yaml_walk reads the text itself instead of through libyaml.
 *
 * Invariant: the fast walk and libyaml's make the same calls, in the same
 * order, with the same scalar, keys, depth, kind and line, and end the
 * same way (a callback stopping the walk at a scalar "STOP" included,
 * with the same line and column), and count the same documents: the first
 * document or the second, counting or not.  What the subset does not hold goes to
 * libyaml whole, so this compares two libyaml walks there.
 */
#include "fuzz.h"
#include "deps_yaml.h"
#include "util.h"

#include <string.h>

static int record(void *ctx, const struct ypath *p)
{
	struct buf *b = ctx;
	unsigned i;

	buf_printf(b, "%u %d %d %u", p->depth, p->is_key, p->in_seq, p->line);
	for (i = 0; i < p->depth; i++)
		buf_printf(b, " [%s]", p->key[i]);
	buf_printf(b, " %zu:", p->vlen);
	buf_add(b, p->value, p->vlen);
	buf_putc(b, '\n');
	FUZZ_CHECK(p->value[p->vlen] == 0);
	return p->vlen == 4 && !memcmp(p->value, "STOP", 4) ? -1 : 0;
}

/* One walk both ways: document doc, counted or not. */
static void compare(const uint8_t *data, size_t size, unsigned doc, int count)
{
	struct buf fast = BUF_INIT, lib = BUF_INIT;
	struct parse_error ef, el;
	struct yw_docs df, dl;
	int rf = deps_yaml_walk_doc((const char *)data, size, doc, record, &fast,
				    count ? &df : NULL, &ef);
	int rl = deps_yaml_walk_libyaml((const char *)data, size, doc, record, &lib,
					count ? &dl : NULL, &el);

	FUZZ_CHECK(rf == rl);
	FUZZ_CHECK(!strcmp(buf_str(&fast), buf_str(&lib)));
	if (rf < 0)
		FUZZ_CHECK(ef.line == el.line && ef.col == el.col);
	if (count)
		FUZZ_CHECK(!memcmp(&df, &dl, sizeof(df)));
	buf_release(&fast);
	buf_release(&lib);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	compare(data, size, 0, 0);
	compare(data, size, 0, 1);
	compare(data, size, 1, 1);
	compare(data, size, 1, 0);
	return 0;
}
