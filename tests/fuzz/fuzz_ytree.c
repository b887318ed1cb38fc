/* fuzz_ytree.c - YAML into a position-keeping tree (src/parse/ytree.c over
 * libyaml), which preflight.yaml and the compose files go through.
 *
 * Invariants: the tree stays within the node and text budgets, aliases
 * included (a "billion laughs" file fails instead); every node has a
 * position inside the text (lines as libyaml counts them) and a known
 * kind, a mapping an even number of items, a scalar its NUL-terminated
 * text; a failure says where, inside the text, and why.
 */
#include "fuzz.h"
#include "util.h"
#include "ytree.h"

#include <stdlib.h>
#include <string.h>

/* the tree walked with a stack of our own: depth is the parser's to bound */
static void check_tree(const struct ynode *root, unsigned lines)
{
	const struct ynode **stack;
	size_t n = 0, cap = 64, nodes = 0, text = 0, i;

	stack = malloc(cap * sizeof(*stack));
	FUZZ_CHECK(stack != NULL);
	stack[n++] = root;
	while (n) {
		const struct ynode *y = stack[--n];

		FUZZ_CHECK(y != NULL);
		nodes++;
		FUZZ_CHECK(y->line >= 1 && y->line <= lines && y->col >= 1);
		switch (y->kind) {
		case YNODE_SCALAR:
			FUZZ_CHECK(y->text && y->text[y->len] == '\0' && y->n == 0);
			text += y->len;
			break;
		case YNODE_MAP:
			FUZZ_CHECK(y->n % 2 == 0);
			/* fall through */
		case YNODE_SEQ:
			FUZZ_CHECK(!y->text);
			FUZZ_CHECK(ynode_count(y) == (y->kind == YNODE_MAP ? y->n / 2 : y->n));
			for (i = 0; i < y->n; i++) {
				if (n == cap) {
					cap *= 2;
					stack = realloc(stack, cap * sizeof(*stack));
					FUZZ_CHECK(stack != NULL);
				}
				stack[n++] = y->items[i];
			}
			break;
		default:
			FUZZ_CHECK(!"a known node kind");
		}
	}
	FUZZ_CHECK(nodes <= YTREE_MAX_NODES);
	FUZZ_CHECK(text <= YTREE_MAX_TEXT);
	free(stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ynode *root = NULL;
	struct parse_error err;
	uint8_t *owned;
	unsigned lines, end_col;

	data = fuzz_scale(data, &size, &owned);
	text_yaml_end((const char *)data, size, &lines, &end_col);
	if (ytree_parse((const char *)data, size, YTREE_MAX_NODES, &root, &err) < 0) {
		FUZZ_CHECK(root == NULL);
		FUZZ_CHECK(err.msg[0] && memchr(err.msg, '\0', sizeof(err.msg)));
		FUZZ_CHECK(err.line <= lines);
		free(owned);
		return 0;
	}
	if (root) {
		check_tree(root, lines);
		/* what the loaders ask of a root */
		ynode_get(root, "version");
		ynode_get(root, "services");
		ynode_is_null(ynode_get(root, "ports"));
		ynode_free(root);
	}
	free(owned);
	return 0;
}
