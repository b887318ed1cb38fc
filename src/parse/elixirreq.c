/* elixirreq.c - see elixirreq.h.  Elixir's rules (lib/elixir/lib/
 * version.ex, Version.Parser): a requirement is ops and versions
 * separated by spaces; "and"/"&&" and "or"/"||" join conditions, "or"
 * binding looser; a version without an operator is "=="; versions are
 * X.Y.Z[-pre][+build], but "~> X.Y" takes two numbers.  "~>" is
 * approximate_upper: ">= X.Y.0 and < (X+1).0.0-0" for X.Y, ">= X.Y.Z and
 * < X.(Y+1).0-0" for X.Y.Z (the -0: no pre-release of the upper bound).
 * Version.match?/2 allows pre-releases by default, as node-semver's
 * includePrerelease does.
 */
#include "elixirreq.h"
#include "semver.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Numbers of a version: 2 or 3 (X.Y or X.Y.Z, before any - or +), else 0. */
static int numbers(const char *v, size_t n, unsigned long out[3])
{
	size_t i = 0;
	int k = 0;

	while (k < 3) {
		char *end;

		if (i >= n || v[i] < '0' || v[i] > '9' ||
		    (v[i] == '0' && i + 1 < n && v[i + 1] >= '0' && v[i + 1] <= '9'))
			return 0;	/* no leading zero, as Version.parse */
		out[k++] = strtoul(v + i, &end, 10);
		/* past node-semver's MAX_SAFE_INTEGER: not one we compare */
		if ((size_t)(end - (v + i)) > 15)
			return 0;
		i = (size_t)(end - v);
		if (i >= n || v[i] != '.')
			break;
		i++;
	}
	if (i < n && v[i] != '-' && v[i] != '+')
		return 0;
	return k >= 2 ? k : 0;
}

static int is_op(const char *w, size_t n)
{
	static const char *const ops[] = { "==", ">", ">=", "<", "<=", "~>", "!=", NULL };
	size_t i;

	for (i = 0; ops[i]; i++)
		if (strlen(ops[i]) == n && !memcmp(ops[i], w, n))
			return 1;
	return 0;
}

int elixir_req_semver(const char *req, struct buf *out)
{
	const char *p = req, *op = NULL;
	size_t opn = 0;
	int want_cond = 1, any = 0;

	while (*p) {
		const char *w;
		size_t n;
		unsigned long v[3];
		int k;

		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p)
			break;
		w = p;
		/* the lexer takes an operator glued to its version ("~>1.15") */
		if (strchr("~><=!", *p)) {
			while (*p && strchr("~><=!", *p))
				p++;
		} else {
			while (*p && *p != ' ' && *p != '\t' && !strchr("~><=!", *p))
				p++;
		}
		n = (size_t)(p - w);
		if ((n == 3 && !memcmp(w, "and", 3)) || (n == 2 && !memcmp(w, "&&", 2))) {
			if (want_cond || op)
				return -1;
			want_cond = 1;
			continue;
		}
		if ((n == 2 && (!memcmp(w, "or", 2) || !memcmp(w, "||", 2)))) {
			if (want_cond || op)
				return -1;
			buf_puts(out, " ||");
			want_cond = 1;
			continue;
		}
		if (is_op(w, n)) {
			if (!want_cond || op)
				return -1;
			op = w;
			opn = n;
			continue;
		}
		/* a version: the condition's end */
		if (!want_cond)
			return -1;
		k = numbers(w, n, v);
		if (!k)
			return -1;
		if (k == 3) {
			/* the whole of it as a version: pre-release and build
			 * as semver has them */
			struct semver sv = SEMVER_INIT;

			if (semver_parse_mem(w, n, 0, &sv) < 0)
				return -1;
			semver_release(&sv);
		} else if (n > 0 && (w[n - 1] < '0' || w[n - 1] > '9')) {
			return -1;	/* "~> 1.2-rc": X.Y takes nothing after */
		}
		if (op && opn == 2 && !memcmp(op, "!=", 2))
			return -1;	/* no node-semver comparator for it */
		if (op && opn == 2 && !memcmp(op, "~>", 2)) {
			if (k == 2)
				buf_printf(out, " >=%lu.%lu.0 <%lu.0.0-0", v[0], v[1], v[0] + 1);
			else
				buf_printf(out, " >=%.*s <%lu.%lu.0-0", (int)n, w, v[0], v[1] + 1);
		} else {
			if (k == 2)
				return -1;	/* only ~> takes X.Y */
			if (!op || (opn == 2 && !memcmp(op, "==", 2)))
				buf_printf(out, " =%.*s", (int)n, w);
			else
				buf_printf(out, " %.*s%.*s", (int)opn, op, (int)n, w);
		}
		op = NULL;
		want_cond = 0;
		any = 1;
	}
	return any && !want_cond && !op ? 0 : -1;
}

int elixir_req_check(const char *req, const char *version)
{
	struct buf b = BUF_INIT;
	int m = -1;

	struct semver sv = SEMVER_INIT;

	if (elixir_req_semver(req, &b) == 0 && semver_parse(version, 0, &sv) == 0) {
		m = semver_satisfies_str(version, buf_str(&b), SEMVER_INCLUDE_PRERELEASE);
		semver_release(&sv);
	}
	buf_release(&b);
	return m;
}
