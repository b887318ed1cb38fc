/* poetrycon.c - see poetrycon.h.  The rules are poetry-core's
 * (src/poetry/core/constraints/version/parser.py, parse_constraint and
 * parse_single_constraint; patterns.py): each single constraint becomes
 * the PEP 440 clauses of the same range, which pep440.c judges.
 *
 *   "*", "x", "*.*"       any
 *   "~V"                  >=V, <V's next minor (next major when V has one
 *                         part): "~3.10" is >=3.10,<3.11, "~3" >=3,<4
 *   "~=V"                 >=V, below the next major for two release
 *                         numbers, else the next minor ("~=3" too)
 *   "^V"                  >=V, <V.next_breaking(): the next major, or for
 *                         0.x the next minor, for 0.0.x the next patch
 *   "[==|!=]V.*"          V's release line (X_CONSTRAINT; ".x" is refused
 *                         since poetry-core 1.5)
 *   "[op]V[.*]"           op one of < <= > >= == = != <> (BASIC_CONSTRAINT;
 *                         none is ==, "=" and "==" the same; "<>" matches
 *                         no branch and so is ==, as in poetry-core)
 *
 * The rules are the current poetry-core's (2.x); Debian's 1.4, the
 * tests' oracle, differs in three: it refuses "^ 3.10" (a space after
 * the caret), takes "3.10.x", and reads "3.8.9.*" as 3.8's line.
 *
 * A constraint is OR groups split at "||" or "|"; a group is single
 * constraints split at commas or spaces, an operator standing alone
 * joined to the version after it (">= 3.10"), a trailing comma dropped.
 * A version is the numbers and suffix pep440.c reads; the next
 * major/minor/patch is made from its release numbers (its pre-release
 * dropped, as Version.stable does).  What poetry-core cannot parse
 * (ParseConstraintError) is -1 here.
 */
#include "poetrycon.h"
#include "pep440.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POETRY_MAX 512		/* bytes of a constraint */

/* The first up to three release numbers of v ("3.10.2rc1" gives 3, 10,
 * 2); how many there were (the precision), 0 when v starts with none. */
static int release_of(const char *v, unsigned long r[3])
{
	int n = 0;

	if (*v == 'v' || *v == 'V')
		v++;
	while (n < 3 && *v >= '0' && *v <= '9') {
		char *end;

		r[n++] = strtoul(v, &end, 10);
		v = end;
		if (*v != '.' || v[1] < '0' || v[1] > '9')
			break;
		v++;
	}
	while (*v >= '0' && *v <= '9')
		v++;
	return n;
}

/* One single constraint s[0..n) as PEP 440 clauses into out (comma
 * before each); -1 when poetry-core would not parse it. */
static int single(const char *s, size_t n, char *out, size_t size)
{
	char t[POETRY_MAX], v[POETRY_MAX];
	unsigned long r[3] = { 0, 0, 0 };
	size_t len;
	const char *op = "==";
	int prec, any = 1;
	size_t i;

	if (!n || n >= sizeof(t))
		return -1;
	memcpy(t, s, n);
	t[n] = '\0';
	/* "*", "x", "X", "*.*": any version */
	for (i = 0; i < n && any; i++)
		any = strchr("xX*", t[i]) || (t[i] == '.' && i && i + 1 < n);
	if (any)
		return 0;
	if (t[0] == '~' && t[1] != '=') {
		snprintf(v, sizeof(v), "%s", t + 1 + strspn(t + 1, " "));
		if (!(prec = release_of(v, r)))
			return -1;
		if (prec == 1)
			snprintf(t, sizeof(t), ">=%s,<%lu", v, r[0] + 1);
		else
			snprintf(t, sizeof(t), ">=%s,<%lu.%lu", v, r[0], r[1] + 1);
	} else if (t[0] == '^') {
		snprintf(v, sizeof(v), "%s", t + 1 + strspn(t + 1, " "));
		if (!(prec = release_of(v, r)))
			return -1;
		/* Version.next_breaking */
		if (r[0] > 0 || prec < 2)
			snprintf(t, sizeof(t), ">=%s,<%lu", v, r[0] + 1);
		else if (r[1] > 0 || prec < 3)
			snprintf(t, sizeof(t), ">=%s,<0.%lu", v, r[1] + 1);
		else
			snprintf(t, sizeof(t), ">=%s,<0.0.%lu", v, r[2] + 1);
	} else if (t[0] != '~') {
		size_t k = 0;

		/* the operator, then the version (spaces between allowed) */
		/* "<>" is in BASIC_CONSTRAINT's operators but in none of its
		 * branches: the version itself is returned, an exact match */
		if (!strncmp(t, "<>", 2))
			k = 2;
		else if (!strncmp(t, "!=", 2))
			op = "!=", k = 2;
		else if (!strncmp(t, ">=", 2) || !strncmp(t, "<=", 2) ||
			 !strncmp(t, "==", 2))
			op = t[0] == '>' ? ">=" : t[0] == '<' ? "<=" : "==", k = 2;
		else if (t[0] == '>' || t[0] == '<')
			op = t[0] == '>' ? ">" : "<", k = 1;
		else if (t[0] == '=')
			k = 1;
		k += strspn(t + k, " ");
		snprintf(v, sizeof(v), "%s", t + k);
		/* "3.10.x": X_CONSTRAINT takes ".*" only since poetry-core
		 * 1.5 (1.4 took .x too), and no version pattern has an x */
		len = strlen(v);
		if (len > 1 && (v[len - 1] == 'x' || v[len - 1] == 'X'))
			return -1;
		if (!release_of(v, r))
			return -1;
		snprintf(t, sizeof(t), "%s%s", op, v);
	} else {
		/* "~=V": poetry's own reading (TILDE_PEP440_CONSTRAINT): below
		 * the next major for two release numbers, else the next minor
		 * ("~=3" too, which PEP 440 itself refuses) */
		snprintf(v, sizeof(v), "%s", t + 2 + strspn(t + 2, " "));
		if (!(prec = release_of(v, r)))
			return -1;
		if (prec == 2)
			snprintf(t, sizeof(t), ">=%s,<%lu", v, r[0] + 1);
		else
			snprintf(t, sizeof(t), ">=%s,<%lu.%lu", v, r[0], r[1] + 1);
	}
	len = strlen(out);
	if (len + strlen(t) + 2 > size)
		return -1;
	snprintf(out + len, size - len, "%s%s", len ? "," : "", t);
	return 0;
}

/* 1 when s[0..i) holds nothing but blanks and commas: a leading comma */
static int a_first(const char *s, size_t i)
{
	while (i--)
		if (s[i] != ' ' && s[i] != ',')
			return 0;
	return 1;
}

/* The AND group s[0..n) as one PEP 440 specifier into out ("" for any). */
static int group(const char *s, size_t n, char *out, size_t size)
{
	size_t i = 0;

	out[0] = '\0';
	while (n && (s[n - 1] == ' ' || s[n - 1] == ','))
		n--;	/* "allow trailing commas for robustness" */
	if (!n || a_first(s, n))
		return -1;	/* an empty alternative ("^3.10 ||"): refused */
	while (i < n && s[i] == ' ')
		i++;
	while (i < n) {
		size_t a, b, commas = 0;

		/* the split pattern takes one comma (or a space) between two
		 * constraints: ",," or a leading comma is left in one, which
		 * then does not parse */
		while (i < n && (s[i] == ' ' || s[i] == ','))
			commas += s[i++] == ',';
		if (commas > 1 || (commas && !*out && i > 0 && a_first(s, i)))
			return -1;
		a = i;
		/* an operator alone joins the version after it */
		while (i < n && strchr("<>=!~^", s[i]))
			i++;
		while (i < n && s[i] == ' ')
			i++;
		while (i < n && s[i] != ' ' && s[i] != ',')
			i++;
		b = i;
		if (b > a && single(s + a, b - a, out, size) < 0)
			return -1;
	}
	return 0;
}

int poetry_check(const char *constraint, const char *version, char *err,
		 size_t errlen)
{
	const char *p = constraint, *bar;
	char spec[POETRY_MAX * 2];
	int any = 0, bad = 0;

	if (strlen(constraint) >= POETRY_MAX) {
		snprintf(err, errlen, "a constraint of more than %d bytes", POETRY_MAX);
		return -1;
	}
	while (*p == ' ')
		p++;
	if (!*p) {
		snprintf(err, errlen, "an empty constraint");
		return -1;
	}
	for (;;) {
		size_t n;
		int m;

		bar = strchr(p, '|');
		n = bar ? (size_t)(bar - p) : strlen(p);
		if (group(p, n, spec, sizeof(spec)) < 0) {
			/* no repository text in the message: the caller
			 * quotes the constraint, cleaned */
			snprintf(err, errlen, "poetry-core cannot parse it");
			return -1;
		}
		m = *spec ? pep440_check(spec, version, err, errlen) : 1;
		if (m < 0)
			bad = 1;
		else if (m == 1)
			any = 1;
		if (!bar)
			break;
		p = bar + 1 + (bar[1] == '|');
	}
	/* poetry-core parses every group before it judges: one it cannot
	 * parse refuses the whole constraint */
	return bad ? -1 : any;
}
