/* cliopt.c - see cliopt.h */
#include "cliopt.h"

#include <stdlib.h>
#include <string.h>

static int same_option(const struct option *a, const struct option *b)
{
	return a->has_arg == b->has_arg && a->flag == b->flag && a->val == b->val;
}

/* The long option that name[0..n) stands for, as getopt_long picks it:
 * the one so named, else the only one it abbreviates (several that mean
 * the same count as one).  NULL when none; *ambiguous when several. */
static const struct option *long_find(const struct option *lo, const char *name,
				      size_t n, int *ambiguous)
{
	const struct option *found = NULL;
	size_t i;

	*ambiguous = 0;
	for (i = 0; lo[i].name; i++)
		if (strlen(lo[i].name) == n && !strncmp(lo[i].name, name, n))
			return &lo[i];
	for (i = 0; lo[i].name; i++) {
		if (strncmp(lo[i].name, name, n))
			continue;
		if (found && !same_option(found, &lo[i]))
			*ambiguous = 1;
		if (!found)
			found = &lo[i];
	}
	return *ambiguous ? NULL : found;
}

/* 1 when short option ch takes a value (optstring "f:"). */
static int short_takes_value(const char *optstring, char ch)
{
	const char *d = ch != ':' ? strchr(optstring, ch) : NULL;

	return d && d[1] == ':';
}

/* Where the option after the first n of argv lies: the word's index in
 * *word, and in *pos the offset of the short option in it (0: a long
 * option).  -1 when argv holds no more options.  argv is getopt_long's
 * type: a char ** converts to it without a cast. */
/* cppcheck-suppress constParameter ; const char *const[] would need a cast */
static int locate(int argc, char *const argv[], const char *optstring,
		  const struct option *lo, int n, int *word, size_t *pos)
{
	int i = 1, amb;

	while (i < argc) {
		const char *a = argv[i];
		size_t k;

		if (!strcmp(a, "--"))
			return -1;
		if (a[0] != '-' || !a[1]) {	/* a non-option: permuted past */
			i++;
			continue;
		}
		if (a[1] == '-') {
			const struct option *o;

			if (n-- == 0) {
				*word = i;
				*pos = 0;
				return 0;
			}
			o = long_find(lo, a + 2, strcspn(a + 2, "="), &amb);
			/* a required value without '=' is the next word */
			i += 1 + (o && o->has_arg == required_argument && !strchr(a, '='));
			continue;
		}
		for (k = 1; a[k]; k++) {
			if (n-- == 0) {
				*word = i;
				*pos = k;
				return 0;
			}
			if (short_takes_value(optstring, a[k])) {
				i += !a[k + 1];	/* the value is the next word */
				break;
			}
		}
		i++;
	}
	return -1;
}

/* "; did you mean '--WORD'?" when the one-dash word is "-NAME" or
 * "-NAME=VALUE" with NAME a long option. */
static void suggest_long(struct buf *msg, const char *word, const struct option *lo)
{
	size_t n, i;

	if (word[0] != '-' || word[1] == '-' || !word[1])
		return;
	n = strcspn(word + 1, "=");
	for (i = 0; lo[i].name; i++) {
		if (strlen(lo[i].name) != n || strncmp(lo[i].name, word + 1, n))
			continue;
		if (lo[i].has_arg == no_argument && word[1 + n] == '=')
			return;		/* "-json=1" would fail as --json=1 too */
		buf_puts(msg, "; did you mean '-");
		buf_add_clean(msg, word);
		buf_puts(msg, "'?");
		return;
	}
}

static void short_error(struct buf *msg, const char *word, size_t pos, int c,
			const struct option *lo)
{
	char ch[2] = { word[pos], '\0' };
	int group = word[2] != '\0';

	buf_puts(msg, c == ':' ? "option '-" : "unknown option '-");
	buf_add_clean(msg, ch);
	buf_putc(msg, '\'');
	if (group) {
		buf_puts(msg, " in '");
		buf_add_clean(msg, word);
		buf_putc(msg, '\'');
	}
	if (c == ':')
		buf_puts(msg, " needs a value");
	else
		suggest_long(msg, word, lo);
}

static void long_error(struct buf *msg, const char *word, int c, const struct option *lo)
{
	size_t n = strcspn(word + 2, "="), i;
	const struct option *o;
	int amb;
	char *name = xstrndup(word, n + 2);

	o = long_find(lo, word + 2, n, &amb);
	if (amb) {
		const char *sep = "";

		buf_puts(msg, "option '");
		buf_add_clean(msg, name);
		buf_puts(msg, "' is ambiguous (");
		for (i = 0; lo[i].name; i++) {
			if (strncmp(lo[i].name, word + 2, n))
				continue;
			buf_printf(msg, "%s--%s", sep, lo[i].name);
			sep = ", ";
		}
		buf_putc(msg, ')');
	} else if (!o) {
		buf_puts(msg, "unknown option '");
		buf_add_clean(msg, name);
		buf_putc(msg, '\'');
	} else if (c == ':') {
		buf_puts(msg, "option '");
		buf_add_clean(msg, name);
		buf_puts(msg, "' needs a value");
	} else {
		buf_puts(msg, "option '");
		buf_add_clean(msg, name);
		buf_puts(msg, "' takes no value ('");
		buf_add_clean(msg, word);
		buf_puts(msg, "')");
	}
	free(name);
}

void cliopt_error(struct buf *msg, int argc, char *const argv[], const char *optstring,
		  const struct option *longopts, int nparsed, int c)
{
	int word;
	size_t pos;

	if (locate(argc, argv, optstring, longopts, nparsed, &word, &pos) < 0) {
		/* cannot be: getopt_long stopped on an option */
		buf_puts(msg, c == ':' ? "an option needs a value" : "unknown option");
		return;
	}
	if (pos)
		short_error(msg, argv[word], pos, c, longopts);
	else
		long_error(msg, argv[word], c, longopts);
}

void cliopt_value_hint(struct buf *msg, const char *word, const char *value,
		       const struct option *longopts)
{
	/* a value in a word of its own ("-f xml") is that word itself */
	if (word && value && value != word && word[0] == '-' && word[1] != '-')
		suggest_long(msg, word, longopts);
}
