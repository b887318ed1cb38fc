/* nvmrc.c - .nvmrc as nvm reads it; see nvmrc.h */
#include "nvmrc.h"
#include "nodelts.h"
#include "util.h"
#include "versions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Parse 1 to max dot-separated decimal parts at s[0..len) into v; each
 * part "0" or without a leading zero, at most 9 digits.  Returns the number
 * of parts, or 0 when s is not of that form. */
static unsigned parse_parts(const char *s, size_t len, unsigned max,
			    unsigned long v[3])
{
	unsigned n = 0;
	size_t i = 0;

	for (;;) {
		size_t j = i;

		while (j < len && is_digit(s[j]))
			j++;
		if (j == i || j - i > 9 || (j - i > 1 && s[i] == '0'))
			return 0;
		if (n == max)
			return 0;
		v[n] = strtoul(s + i, NULL, 10);
		n++;
		if (j == len)
			return n;
		if (s[j] != '.')
			return 0;
		i = j + 1;
	}
}

/* "20", "v20.11", "20.11.1": nvm adds the 'v' itself. */
static unsigned parse_spec_version(const char *s, size_t len,
				   unsigned long v[3])
{
	if (len && s[0] == 'v')
		s++, len--;
	return parse_parts(s, len, 3, v);
}

/* Characters of node-semver ranges and of wildcards that nvm knows nothing
 * about: their presence earns a precise message. */
static int looks_like_range(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (strchr("^~<>=*| ", s[i]) ||
		    ((s[i] == 'x' || s[i] == 'X') &&
		     (i == 0 || s[i - 1] == '.') &&
		     (i + 1 == len || s[i + 1] == '.')))
			return 1;
	return 0;
}

static int alias_name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	for (i = 1; i < len; i++) {
		char c = s[i];

		if (!(is_digit(c) || (c >= 'a' && c <= 'z') ||
		      (c >= 'A' && c <= 'Z') || c == '.' || c == '_' || c == '-'))
			return 0;
	}
	return 1;
}

static int str_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* "lts/..." at parse time: only its form.  Which line it names depends on
 * the date and on nvm's own files (nvmrc_resolve_lts). */
static int resolve_lts(struct nvmrc *n, const char *name, size_t len,
		       char *err, size_t errlen)
{
	char q[VERSIONS_QUOTE_MAX];
	size_t i;

	versions_quote(q, sizeof(q), n->spec, strlen(n->spec));
	if (str_is(name, len, "*")) {
		n->kind = NVMRC_LTS_ANY;
		return 0;
	}
	/* nvm_normalize_lts: lts/-[1-9] and lts/-[1-9][0-9]... count back */
	if (len >= 2 && name[0] == '-' && name[1] >= '1' && name[1] <= '9') {
		unsigned long v[3];

		if (parse_parts(name + 1, len - 1, 1, v) != 1)
			goto bad;
		n->kind = NVMRC_LTS;
		n->back = v[0];
		return 0;
	}
	for (i = 0; i < len; i++) {
		if (name[i] >= 'A' && name[i] <= 'Z') {
			versions_err(err, errlen, "'%s': LTS names must be "
				     "lowercase (nvm rejects this)", q);
			return -1;
		}
	}
	/* nvm's alias names: what its ls-remote keeps of index.tab's lts
	 * column, [a-z0-9][a-z0-9._-]* */
	if (!len || len >= sizeof(n->codename) || !alias_name_ok(name, len) ||
	    name[0] == '-')
		goto bad;
	for (i = 0; i < len; i++)
		if (!(is_digit(name[i]) || (name[i] >= 'a' && name[i] <= 'z') ||
		      strchr("._-", name[i])))
			goto bad;
	n->kind = NVMRC_LTS;
	memcpy(n->codename, name, len);
	n->codename[len] = '\0';
	return 0;
bad:
	versions_err(err, errlen, "'%s': not an LTS name nvm understands "
		     "(lts/" "*, lts/<codename> or lts/-N)", q);
	return -1;
}

/* The table's answer for n today. */
static int resolve_by_table(struct nvmrc *n, long today, char *err, size_t errlen)
{
	const struct nodelts_line *l, *newest = nodelts_newest(today);
	char q[VERSIONS_QUOTE_MAX], d[16];
	unsigned long avail;

	versions_quote(q, sizeof(q), n->spec, strlen(n->spec));
	if (n->kind == NVMRC_LTS_ANY) {
		l = newest;
	} else if (n->back) {
		l = nodelts_back(today, n->back, &avail);
		if (!l && newest) {
			versions_err(err, errlen, "'%s': there are only %lu LTS "
				     "lines before lts/%s (nvm: 'That many LTS "
				     "releases do not exist yet')", q, avail,
				     newest->codename);
			return -1;
		}
	} else {
		l = nodelts_by_codename(n->codename, strlen(n->codename));
		if (!l) {
			versions_err(err, errlen, "'%s': not an LTS codename "
				     "envpreflight knows (lts/%s to lts/%s, from the "
				     "Node.js release schedule of %s; nvm knows a "
				     "newer line once 'nvm ls-remote' has run)", q,
				     nodelts_first()->codename,
				     nodelts_last()->codename, NODELTS_TABLE_DATE);
			return -1;
		}
		if (l->lts > today) {
			versions_err(err, errlen, "'%s': Node.js %lu (%s) enters "
				     "LTS on %s; until then nvm has no such alias",
				     q, l->major, l->codename,
				     nodelts_date_format(l->lts, d, sizeof(d)));
			return -1;
		}
	}
	if (!l) {
		versions_err(err, errlen, "'%s': no LTS line had started by %s",
			     q, nodelts_date_format(today, d, sizeof(d)));
		return -1;
	}
	n->major = l->major;
	snprintf(n->codename, sizeof(n->codename), "%s", l->codename);
	n->lts_start = l->lts;
	n->lts_end = l->end;
	return 0;
}

int nvmrc_lts_alias(const struct nvmrc *n, char *buf, size_t len)
{
	if (n->kind == NVMRC_LTS_ANY)
		snprintf(buf, len, "*");
	else if (n->kind != NVMRC_LTS)
		return 0;
	else if (n->back)
		snprintf(buf, len, "-%lu", n->back);
	else
		snprintf(buf, len, "%s", n->codename);
	return 1;
}

/* nvm's answer nv (rc 1), taken into n: 1 used, -1 refused.  Takes
 * nv->file. */
static int resolve_by_nvm(struct nvmrc *n, struct nodelts_nvm *nv, char *err,
			  size_t errlen)
{
	char q[VERSIONS_QUOTE_MAX];
	const struct nodelts_line *l;
	unsigned long v[3];

	if (parse_spec_version(nv->version, strlen(nv->version), v) != 3) {
		versions_err(err, errlen, "'%s': nvm's alias %s names '%s', not "
			     "a release", versions_quote(q, sizeof(q), n->spec,
							 strlen(n->spec)),
			     nv->file, nv->version);
		return -1;
	}
	n->from_nvm = 1;
	n->major = v[0];
	snprintf(n->codename, sizeof(n->codename), "%s", nv->codename);
	snprintf(n->nvm_version, sizeof(n->nvm_version), "%s", nv->version);
	n->nvm_file = nv->file;
	nv->file = NULL;
	l = nodelts_by_major(v[0]);
	if (l) {
		n->lts_start = l->lts;
		n->lts_end = l->end;
	}
	return 1;
}

int nvmrc_lts_settle(struct nvmrc *n, long today, int nvm_rc,
		     struct nodelts_nvm *nv, const char *why, char *err,
		     size_t errlen)
{
	char q[VERSIONS_QUOTE_MAX];
	int rc = 0;

	if (n->kind != NVMRC_LTS && n->kind != NVMRC_LTS_ANY)
		return 0;
	if (nvm_rc < 0) {
		versions_err(err, errlen, "'%s': %s",
			     versions_quote(q, sizeof(q), n->spec, strlen(n->spec)),
			     why);
		return -1;
	}
	if (nvm_rc > 0)
		rc = resolve_by_nvm(n, nv, err, errlen);
	if (rc == 0)
		rc = resolve_by_table(n, today, err, errlen);
	if (rc < 0)
		return -1;
	n->resolved = 1;
	return 0;
}

static int resolve_iojs(struct nvmrc *n, const char *s, size_t len,
			char *err, size_t errlen)
{
	char q[VERSIONS_QUOTE_MAX];
	unsigned long v[3] = { 0, 0, 0 };

	n->kind = NVMRC_IOJS;
	if (!len)
		return 0;
	versions_quote(q, sizeof(q), n->spec, strlen(n->spec));
	n->nparts = parse_spec_version(s, len, v);
	if (!n->nparts) {
		versions_err(err, errlen, "'%s': not an io.js version", q);
		return -1;
	}
	if (v[0] < 1 || v[0] > 3) {
		versions_err(err, errlen, "'%s': io.js releases are v1 to v3", q);
		return -1;
	}
	n->major = v[0];
	n->minor = v[1];
	n->patch = v[2];
	return 0;
}

/* Classify n->spec; the order of the tests follows nvm's own. */
static int resolve(struct nvmrc *n, char *err, size_t errlen)
{
	const char *s = n->spec;
	size_t len = strlen(s);
	char q[VERSIONS_QUOTE_MAX];
	unsigned long v[3] = { 0, 0, 0 };

	versions_quote(q, sizeof(q), s, len);
	if (str_is(s, len, "node") || str_is(s, len, "stable")) {
		n->kind = NVMRC_NODE;
		return 0;
	}
	if (str_is(s, len, "system")) {
		n->kind = NVMRC_SYSTEM;
		return 0;
	}
	if (str_is(s, len, "unstable")) {
		n->kind = NVMRC_UNSTABLE;
		return 0;
	}
	if (str_is(s, len, "iojs"))
		return resolve_iojs(n, s, 0, err, errlen);
	if (len > 5 && memcmp(s, "iojs-", 5) == 0)
		return resolve_iojs(n, s + 5, len - 5, err, errlen);
	if (len >= 4 && memcmp(s, "lts/", 4) == 0)
		return resolve_lts(n, s + 4, len - 4, err, errlen);
	if (str_is(s, len, "lts")) {
		versions_err(err, errlen, "'lts' is not an nvm alias: "
			     "write 'lts/*' or 'lts/<codename>'");
		return -1;
	}
	if (is_digit(s[0]) || (s[0] == 'v' && len > 1 && is_digit(s[1]))) {
		n->nparts = parse_spec_version(s, len, v);
		if (n->nparts) {
			n->kind = NVMRC_VERSION;
			n->major = v[0];
			n->minor = v[1];
			n->patch = v[2];
			return 0;
		}
	}
	if (s[0] == '"' || s[0] == '\'') {
		versions_err(err, errlen, "'%s': nvm does not strip quotes, so "
			     "no version matches", q);
		return -1;
	}
	if (looks_like_range(s, len)) {
		versions_err(err, errlen, "'%s': nvm has no range syntax "
			     "(write a version such as 20 or 20.11.1)", q);
		return -1;
	}
	/* "v20.1.2.3" is a bad version to nvm, not an alias name */
	if (alias_name_ok(s, len) && !(s[0] == 'v' && is_digit(s[1]))) {
		n->kind = NVMRC_ALIAS;
		return 0;
	}
	versions_err(err, errlen, "'%s': not a node version or alias that "
		     "nvm understands", q);
	return -1;
}

/* The keys of the "key=value" lines seen so far, in a hash set: a file of
 * many keys (fuzzing found 512 KiB of them taking seconds with a linear
 * search per line) costs time linear in its size. */
struct seen_keys {
	struct versions_line *v;	/* the keys, in file order */
	struct versions_line *line;	/* their whole lines, trimmed */
	size_t n, cap, line_cap;
	size_t *slots;		/* index + 1 into v, 0 for empty */
	size_t nslots;		/* a power of two, more than twice n */
};

static size_t key_hash(const char *s, size_t len)
{
	size_t h = 2166136261u, i;	/* FNV-1a */

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The slot holding key, or the empty slot where it would go. */
static size_t *key_slot(const struct seen_keys *keys, const char *s, size_t len)
{
	size_t mask = keys->nslots - 1, i = key_hash(s, len) & mask;

	for (;; i = (i + 1) & mask) {
		const struct versions_line *k;

		if (!keys->slots[i])
			return &keys->slots[i];
		k = &keys->v[keys->slots[i] - 1];
		if (k->len == len && memcmp(k->s, s, len) == 0)
			return &keys->slots[i];
	}
}

static void keys_rehash(struct seen_keys *keys)
{
	size_t i;

	free(keys->slots);
	keys->nslots = keys->nslots ? keys->nslots * 2 : 16;
	keys->slots = xcalloc(keys->nslots, sizeof(*keys->slots));
	for (i = 0; i < keys->n; i++)
		*key_slot(keys, keys->v[i].s, keys->v[i].len) = i + 1;
}

/* A "key=value" line: remember the key, refuse duplicates and "node". */
static int note_key(struct seen_keys *keys, const struct versions_line *ln,
		    struct parse_error *e)
{
	char q[VERSIONS_QUOTE_MAX];
	const char *eq = memchr(ln->s, '=', ln->len);
	struct versions_line key = { ln->s, (size_t)(eq - ln->s), ln->no };
	size_t *slot;

	versions_trim(&key.s, &key.len);
	versions_quote(q, sizeof(q), key.s, key.len);
	if (str_is(key.s, key.len, "node")) {
		parse_error_set(e, ln->no, 0, "'node' cannot be a key: write "
				"the version on a line of its own");
		return -1;
	}
	grow(&keys->v, sizeof(*keys->v), &keys->cap, keys->n + 1);
	if (2 * (keys->n + 1) > keys->nslots)
		keys_rehash(keys);
	slot = key_slot(keys, key.s, key.len);
	if (*slot) {
		parse_error_set(e, ln->no, 0, "duplicate key '%s' (first "
				"on line %u)", q, keys->v[*slot - 1].no);
		return -1;
	}
	grow(&keys->line, sizeof(*keys->line), &keys->line_cap, keys->n + 1);
	keys->line[keys->n] = *ln;
	keys->v[keys->n++] = key;
	*slot = keys->n;
	return 0;
}

/* The first key=value line whose key is a range operator (">=18",
 * "<=20", "=~1"): the whole trimmed line, its length and line number; or
 * NULL. */
static const char *range_key(const struct seen_keys *keys, size_t *len,
			     unsigned *no)
{
	size_t i;

	for (i = 0; i < keys->n; i++) {
		const struct versions_line *k = &keys->v[i];

		if (k->len && strspn(k->s, "<>!~^ \t") >= k->len) {
			*len = keys->line[i].len;
			*no = k->no;
			return keys->line[i].s;
		}
	}
	return NULL;
}

/* Find the one bare line of buf into *bare (bare->s NULL when none). */
static int find_bare_line(const char *buf, size_t len,
			  struct versions_line *bare, struct parse_error *e)
{
	struct seen_keys keys = { NULL, NULL, 0, 0, 0, NULL, 0 };
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;
	int rc = 0;

	bare->s = NULL;
	while (rc == 0 && versions_next_line(buf, len, &pos, &ln)) {
		const char *hash = memchr(ln.s, '#', ln.len);

		if (hash)
			ln.len = (size_t)(hash - ln.s);
		versions_trim(&ln.s, &ln.len);
		if (!ln.len)
			continue;
		/* nvm takes a line with nothing before its '=' as bare */
		if (ln.s[0] != '=' && memchr(ln.s, '=', ln.len)) {
			rc = note_key(&keys, &ln, e);
		} else if (bare->s) {
			char q[VERSIONS_QUOTE_MAX];

			parse_error_set(e, ln.no, 0, "second version line '%s' "
					"(the first is on line %u)",
					versions_quote(q, sizeof(q), ln.s, ln.len),
					bare->no);
			rc = -1;
		} else {
			*bare = ln;
		}
	}
	if (rc == 0 && !bare->s && (ln.s = range_key(&keys, &ln.len, &ln.no))) {
		char q[VERSIONS_QUOTE_MAX];

		/* ">=18.16.0": nvm reads key ">" = "18.16.0" */
		parse_error_set(e, ln.no, 0, "'%s' holds '=', which nvm reads "
				"as a key=value line, so there is no version line: "
				"nvm has no range syntax (write a version such as "
				"20 or 20.11.1)",
				versions_quote(q, sizeof(q), ln.s, ln.len));
		rc = -1;
	}
	free(keys.v);
	free(keys.line);
	free(keys.slots);
	if (rc == 0 && !bare->s) {
		parse_error_set(e, 0, 0, "no version line (only comments, "
				"blank or key=value lines)");
		rc = -1;
	}
	return rc;
}

int nvmrc_parse(const char *buf, size_t len, struct nvmrc *out,
		struct parse_error *e)
{
	struct versions_line bare = { NULL, 0, 0 };
	struct parse_error none;

	memset(out, 0, sizeof(*out));
	if (!e)
		e = &none;
	memset(e, 0, sizeof(*e));
	if (versions_text(buf, len, e) < 0) {
		e->col = 0;	/* a line, as for every .nvmrc error */
		return -1;
	}
	if (find_bare_line(buf, len, &bare, e) < 0)
		return -1;
	out->spec = xstrndup(bare.s, bare.len);
	out->line = bare.no;
	if (resolve(out, e->msg, sizeof(e->msg)) < 0) {
		e->line = bare.no;
		nvmrc_release(out);
		return -1;
	}
	return 0;
}

/* "v22.11.0", "22.11.0", "v23.0.0-rc.1": the three numbers, suffix ignored. */
static int node_version_parse(const char *s, unsigned long v[3])
{
	size_t len = strlen(s), i;

	versions_trim(&s, &len);
	if (len && s[0] == 'v')
		s++, len--;
	for (i = 0; i < len; i++)
		if (s[i] == '-' || s[i] == '+')
			break;
	if (i < len) {
		size_t j;

		for (j = i + 1; j < len; j++)
			if ((unsigned char)s[j] <= 0x20 || (unsigned char)s[j] >= 0x7f)
				return -1;
		if (j == i + 1)
			return -1;
	}
	return parse_parts(s, i, 3, v) == 3 ? 0 : -1;
}

/* The given parts of n equal the same parts of v. */
static int prefix_matches(const struct nvmrc *n, const unsigned long v[3])
{
	return v[0] == n->major &&
	       (n->nparts < 2 || v[1] == n->minor) &&
	       (n->nparts < 3 || v[2] == n->patch);
}

int nvmrc_matches(const struct nvmrc *n, const char *node_version)
{
	unsigned long v[3];

	if (n->kind == NVMRC_ALIAS || !node_version ||
	    node_version_parse(node_version, v) < 0)
		return -1;
	switch (n->kind) {
	case NVMRC_VERSION:
		return prefix_matches(n, v);
	case NVMRC_NODE:
	case NVMRC_SYSTEM:
		return 1;
	case NVMRC_LTS_ANY:
	case NVMRC_LTS:
		if (!n->resolved)
			return -1;
		if (n->nvm_version[0]) {
			/* nvm uses exactly the release its alias names */
			unsigned long w[3];
			const char *s = n->nvm_version;

			if (parse_spec_version(s, strlen(s), w) != 3)
				return -1;
			return v[0] == w[0] && v[1] == w[1] && v[2] == w[2];
		}
		return v[0] == n->major;
	case NVMRC_IOJS:
		return v[0] >= 1 && v[0] <= 3 &&
		       (n->nparts == 0 || prefix_matches(n, v));
	case NVMRC_UNSTABLE:
		return v[0] == 0 && v[1] == 11;
	case NVMRC_ALIAS:
		break;
	}
	return -1;
}

static void describe_parts(const struct nvmrc *n, char *buf, size_t len)
{
	if (n->nparts >= 3)
		snprintf(buf, len, "v%lu.%lu.%lu", n->major, n->minor, n->patch);
	else if (n->nparts == 2)
		snprintf(buf, len, "v%lu.%lu.x", n->major, n->minor);
	else
		snprintf(buf, len, "v%lu.x", n->major);
}

void nvmrc_describe(const struct nvmrc *n, char *buf, size_t len)
{
	char q[VERSIONS_QUOTE_MAX], parts[64];
	/* the name after "lts/" as written: spec is "lts/..." for NVMRC_LTS */
	const char *named = n->spec && strlen(n->spec) > 4 ? n->spec + 4 : "";

	if (!len)
		return;
	versions_quote(q, sizeof(q), n->spec ? n->spec : "",
		       n->spec ? strlen(n->spec) : 0);
	describe_parts(n, parts, sizeof(parts));
	switch (n->kind) {
	case NVMRC_VERSION:
		snprintf(buf, len, "%s", parts);
		break;
	case NVMRC_NODE:
	case NVMRC_SYSTEM:
		snprintf(buf, len, "%s (any version)", q);
		break;
	case NVMRC_LTS_ANY:
	case NVMRC_LTS:
		if (!n->resolved)
			snprintf(buf, len, "%s", q);
		else if (n->nvm_version[0] && strcmp(named, n->codename))
			snprintf(buf, len, "%s = lts/%s (%s per nvm)", q,
				 n->codename, n->nvm_version);
		else if (n->nvm_version[0])
			snprintf(buf, len, "lts/%s (%s per nvm)", n->codename,
				 n->nvm_version);
		else if (strcmp(named, n->codename) == 0)
			snprintf(buf, len, "lts/%s (v%lu.x)", n->codename,
				 n->major);
		else
			snprintf(buf, len, "%s = lts/%s (v%lu.x)", q,
				 n->codename, n->major);
		break;
	case NVMRC_IOJS:
		if (n->nparts)
			snprintf(buf, len, "%s (io.js %s)", q, parts);
		else
			snprintf(buf, len, "iojs (io.js v1 to v3)");
		break;
	case NVMRC_UNSTABLE:
		snprintf(buf, len, "unstable (v0.11.x)");
		break;
	case NVMRC_ALIAS:
		snprintf(buf, len, "alias '%s' (only nvm can resolve it)", q);
		break;
	}
}

void nvmrc_release(struct nvmrc *n)
{
	free(n->spec);
	free(n->nvm_file);
	memset(n, 0, sizeof(*n));
}
