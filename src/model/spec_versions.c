/* spec_versions.c - the version files: .nvmrc, .node-version,
 * .python-version, pyproject.toml requires-python, setup.cfg
 * python_requires, .tool-versions, go.mod, .ruby-version,
 * rust-toolchain(.toml), .bun-version, .dvmrc, .deno-version and mise's
 * config files.
 *
 * Each file is read with spec_read (size cap, symlinks kept inside the
 * repository, UTF-8 without NUL) and handed to its own parser.  The rule
 * (issue 7): exit 2 is for our own preflight.yaml and for files no tool
 * could parse (not text; TOML or INI that pip or setuptools would refuse
 * too); a requirement that the file's own tool would reject (an .nvmrc
 * with no version line or two, a .tool-versions plugin without a version,
 * a go line go refuses, a requires-python that is not a string) is kept
 * with its problem, and the runtimes probe fails that check naming the
 * file and line: one bad value must not hide every other check.  What
 * only envpreflight cannot read (a multi-line requires-python) is a
 * warning that says so.
 */
#include "specfile.h"
#include "gomod.h"
#include "nvmrc.h"
#include "pep440.h"
#include "toml.h"
#include "toolversions.h"
#include "versions.h"

#include <ctype.h>
#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* mise's config files in one directory, lowest precedence first (mise's
 * LOCAL_CONFIG_FILENAMES, src/config/mod.rs; its .tool-versions, last,
 * is read as such).  MISE_ENV's mise.ENV.toml are not read. */
const char *const spec_mise_files[] = {
	".config/mise/config.toml", ".config/mise/mise.toml", ".config/mise.toml",
	".mise/config.toml", "mise/config.toml", ".rtx.toml", "mise.toml",
	".mise.toml", ".config/mise/config.local.toml", ".config/mise/mise.local.toml",
	".config/mise.local.toml", ".mise/config.local.toml", "mise/config.local.toml",
	".rtx.local.toml", "mise.local.toml", ".mise.local.toml", ".tool-versions",
	NULL
};
#define MISE_TOML_FILES 16	/* spec_mise_files before .tool-versions */

/* The names "nothing to audit" lists: mise's sixteen config names as
 * one, the one it writes (mise use). */
static const char *const files[] = {
	".nvmrc", ".node-version", ".python-version", "pyproject.toml",
	"setup.cfg", ".tool-versions", "go.mod", ".ruby-version",
	"rust-toolchain", "rust-toolchain.toml", ".bun-version", ".java-version",
	".sdkmanrc", "mix.exs", "Gemfile", ".dvmrc", ".deno-version", "mise.toml",
	NULL
};

/* The 1-based byte column of the first non-blank byte of line `no`. */
static unsigned first_col(const char *buf, size_t len, unsigned no)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0, i;

	while (versions_next_line(buf, len, &pos, &ln)) {
		if (ln.no != no)
			continue;
		for (i = 0; i < ln.len && versions_isspace((unsigned char)ln.s[i]); i++)
			;
		return (unsigned)i + 1;
	}
	return 0;
}

static struct origin at(const char *file, unsigned line, unsigned col)
{
	struct origin o = { file, line, col };

	return o;
}

/* A requirement the file's own tool would reject (sev SEV_FAIL), or one
 * envpreflight cannot read (SEV_WARN): the check reports msg. */
static void add_problem(struct spec *spec, enum req_source src, const char *name,
			const char *text, struct origin o, const char *msg,
			enum req_severity sev)
{
	struct runtime_req *r = spec_add_runtime(spec, src, name, text, REQ_ANY, o);

	r->problem = xstrdup(msg);
	r->unmet = sev;
	r->missing = sev;
}

/* Line `no` of buf (trimmed, comment cut at '#' when cut), for "required". */
static char *line_text(const char *buf, size_t len, unsigned no, int cut)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;

	while (no && versions_next_line(buf, len, &pos, &ln)) {
		const char *hash;

		if (ln.no != no)
			continue;
		if (cut && (hash = memchr(ln.s, '#', ln.len)))
			ln.len = (size_t)(hash - ln.s);
		versions_trim(&ln.s, &ln.len);
		return xstrndup(ln.s, ln.len);
	}
	return xstrdup("");
}

/* One version file's reader: add what buf[0..len) requires to spec (origins
 * name file), or return -1 with pe filled, which load_one turns into
 * "file:line:col: msg" (0 for what is unknown). */
typedef int vfile_fn(struct spec *spec, const char *file, const char *buf,
		     size_t len, struct parse_error *pe);

/* ---- .nvmrc, .node-version ---- */

/* nvmrc_parse failed on line `no`: when that line alone (comment cut,
 * trimmed) fails with the same message, the structure of the file is
 * fine and only the version is bad - return that version as a new string
 * for the probe to report.  NULL: the file itself is malformed. */
static char *nvmrc_bad_value(const char *buf, size_t len, unsigned no,
			     const char *msg)
{
	struct versions_line ln = { NULL, 0, 0 };
	struct nvmrc n;
	struct parse_error again;
	size_t pos = 0;

	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *hash;

		if (ln.no != no)
			continue;
		if ((hash = memchr(ln.s, '#', ln.len)))
			ln.len = (size_t)(hash - ln.s);
		versions_trim(&ln.s, &ln.len);
		/* a key=value line is never the version line */
		if (!ln.len || (ln.s[0] != '=' && memchr(ln.s, '=', ln.len)))
			return NULL;
		if (nvmrc_parse(ln.s, ln.len, &n, &again) == 0) {
			nvmrc_release(&n);
			return NULL;
		}
		return strcmp(again.msg, msg) ? NULL : xstrndup(ln.s, ln.len);
	}
	return NULL;
}

static int take_node(struct spec *spec, enum req_source src, const char *file,
		     const char *buf, size_t len, struct parse_error *pe)
{
	struct nvmrc n;
	char *bad;

	if (nvmrc_parse(buf, len, &n, pe) == 0) {
		spec_add_runtime(spec, src, "node", n.spec, REQ_NVMRC,
				 at(file, n.line, first_col(buf, len, n.line)));
		nvmrc_release(&n);
		return 0;
	}
	if (pe->line && (bad = nvmrc_bad_value(buf, len, pe->line, pe->msg))) {
		/* kept as written: the probe re-parses it and fails the check */
		spec_add_runtime(spec, src, "node", bad, REQ_NVMRC,
				 at(file, pe->line, first_col(buf, len, pe->line)));
		free(bad);
		return 0;
	}
	/* no version line, two, a "node=" key: nvm says "invalid .nvmrc" */
	bad = line_text(buf, len, pe->line, 1);
	add_problem(spec, src, "node", bad, at(file, pe->line, pe->line ?
			first_col(buf, len, pe->line) : 0), pe->msg, SEV_FAIL);
	free(bad);
	return 0;
}

/* The same reader for both files; the source says which one it is (the
 * file name would say it too, but a workspace's is "apps/web/.nvmrc"). */
static int take_nvmrc(struct spec *spec, const char *file, const char *buf,
		      size_t len, struct parse_error *pe)
{
	return take_node(spec, SRC_NVMRC, file, buf, len, pe);
}

static int take_node_version(struct spec *spec, const char *file,
			     const char *buf, size_t len, struct parse_error *pe)
{
	return take_node(spec, SRC_NODE_VERSION, file, buf, len, pe);
}

/* ---- .python-version ---- */

/* The first name pyenv would use is the requirement: `python` runs it.
 * Further names only add pythonX.Y commands and are not checked. */
static int take_python_version(struct spec *spec, const char *file,
			       const char *buf, size_t len, struct parse_error *pe)
{
	struct pyenv_file f;
	size_t i;

	if (pyenv_parse(buf, len, &f, pe) < 0)
		return -1;
	for (i = 0; i < f.n; i++) {
		const struct pyenv_entry *e = &f.v[i];

		if (e->kind == PYENV_IGNORED)
			continue;
		spec_add_runtime(spec, SRC_PYTHON_VERSION, "python", e->name, REQ_PYENV,
				 at(file, e->line, e->col));
		break;
	}
	pyenv_release(&f);
	return 0;
}

/* ---- pyproject.toml: [tool.poetry.dependencies] python ---- */

/* poetry's own python constraint, a string or a table's "version"
 * (poetry-core's factory: dependencies.python): poetry refuses an
 * interpreter it does not allow, whether or not [project] requires-python
 * says more (poetry 2 reads both, and the narrower wins).  A value
 * poetry cannot read is a failed check. */
static void take_poetry_python(struct spec *spec, const char *file, const char *buf,
			       size_t len, const struct toml_value *root)
{
	const struct toml_value *tool = toml_get(root, "tool");
	const struct toml_value *poetry = tool && tool->type == TOML_TABLE ?
					  toml_get(tool, "poetry") : NULL;
	const struct toml_value *deps = poetry && poetry->type == TOML_TABLE ?
					toml_get(poetry, "dependencies") : NULL;
	const struct toml_value *py = deps && deps->type == TOML_TABLE ?
				      toml_get(deps, "python") : NULL;
	char *text;

	if (!py)
		return;
	if (py->type == TOML_TABLE)
		py = toml_get(py, "version");
	if (py && py->type == TOML_STRING) {
		spec_add_runtime(spec, SRC_POETRY, "python", py->str, REQ_POETRY,
				 at(file, py->line, py->col));
		return;
	}
	text = line_text(buf, len, py ? py->line : 1, 0);
	add_problem(spec, SRC_POETRY, "python", text, at(file, py ? py->line : 1,
		    py ? py->col : 1), "poetry expects python = \"^3.10\" (a string, "
		    "or a table's version)", SEV_FAIL);
	free(text);
}

/* ---- pyproject.toml: [project] requires-python ---- */

/* The whole file is parsed as TOML 1.0 (toml.c): one that is not TOML is
 * one pip and every build tool refuse too (exit 2, naming line:column);
 * a requires-python that is TOML but not a string, pip refuses (a
 * failed check).  The key may be written any way TOML allows: quoted,
 * dotted (project.requires-python), in an inline table, a multi-line or
 * escaped string. */
static int take_pyproject(struct spec *spec, const char *file, const char *buf,
			  size_t len, struct parse_error *pe)
{
	struct toml_value *root;
	const struct toml_value *project;
	size_t i;

	if (toml_parse(buf, len, NULL, &root, pe) < 0)
		return -1;
	project = toml_get(root, "project");
	for (i = 0; project && project->type == TOML_TABLE && i < project->n; i++) {
		const struct toml_kv *kv = &project->kv[i];
		char *text;

		if (kv->klen != 15 || memcmp(kv->key, "requires-python", 15))
			continue;
		if (kv->val->type == TOML_STRING) {
			spec_add_runtime(spec, SRC_PYPROJECT, "python", kv->val->str,
					 REQ_PEP440, at(file, kv->line, kv->col));
			break;
		}
		text = line_text(buf, len, kv->val->line, 0);
		add_problem(spec, SRC_PYPROJECT, "python", text,
			    at(file, kv->val->line, kv->val->col),
			    "'requires-python' expects a string such as \">=3.10\"", SEV_FAIL);
		free(text);
		break;
	}
	take_poetry_python(spec, file, buf, len, root);
	toml_free(root);
	return 0;
}

/* ---- setup.cfg: [options] python_requires ---- */

struct cfg_lines {
	char *text;		/* the [options] lines, every other line blank */
	unsigned key_line;	/* of the first python_requires (column 1) */
	unsigned dup_line;	/* of a second one, or 0 */
	unsigned long_line;	/* an [options] line libinih cannot take */
};

struct cfg_value {
	struct buf value;
	int seen;
};

static int is_key(const char *s, size_t len)
{
	static const char key[] = "python_requires";
	size_t klen = sizeof(key) - 1, i = klen;

	if (len < klen || strncasecmp(s, key, klen))
		return 0;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	return i < len && (s[i] == '=' || s[i] == ':');
}

/* libinih sees only the [options] section (other lines blanked, so line
 * numbers hold): the rest of setup.cfg belongs to other tools, and
 * libinih's 200-byte line limit must not turn a long description into an
 * error of ours. */
static void cfg_options_only(const char *buf, size_t len, struct cfg_lines *c)
{
	struct buf out = BUF_INIT;
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;
	int in_options = 0;

	memset(c, 0, sizeof(*c));
	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *s = ln.s;
		size_t l = ln.len, skip = 0;
		int keep;

		while (skip < l && (s[skip] == ' ' || s[skip] == '\t'))
			skip++;
		if (skip < l && s[skip] == '[') {
			const char *close = memchr(s + skip, ']', l - skip);
			const char *nm = s + skip + 1;
			size_t nl = close ? (size_t)(close - nm) : 0;

			versions_trim(&nm, &nl);
			in_options = close && nl == 7 && !memcmp(nm, "options", 7);
		} else if (in_options && !skip && is_key(s, l)) {
			if (!c->key_line)
				c->key_line = ln.no;
			else if (!c->dup_line)
				c->dup_line = ln.no;
		}
		keep = in_options || (skip < l && s[skip] == '[');
		if (keep && l >= 190) {
			if (in_options && !c->long_line)
				c->long_line = ln.no;
			keep = 0;
		}
		if (keep)
			buf_add(&out, s, l);
		buf_putc(&out, '\n');
	}
	c->text = buf_detach(&out);
}

/* libinih calls this for every name = value, and again for every
 * continuation line of a multi-line value: pieces are joined by a space,
 * as setuptools joins them (">=3.8,\n<4" is ">=3.8, <4"). */
static int cfg_handler(void *user, const char *section, const char *name,
		       const char *value)
{
	struct cfg_value *v = user;

	if (strcmp(section, "options") || strcasecmp(name, "python_requires"))
		return 1;
	v->seen = 1;
	if (*value) {
		if (v->value.len)
			buf_putc(&v->value, ' ');
		buf_puts(&v->value, value);
	}
	return 1;
}

static int take_setup_cfg(struct spec *spec, const char *file, const char *buf,
			  size_t len, struct parse_error *pe)
{
	struct cfg_value v = { BUF_INIT, 0 };
	struct cfg_lines c;
	int rc;

	cfg_options_only(buf, len, &c);
	if (c.dup_line) {
		parse_error_set(pe, c.dup_line, 1, "duplicate key 'python_requires' "
				"in [options] (first at line %u)", c.key_line);
		rc = -1;
	} else if (c.long_line && c.long_line == c.key_line) {
		/* setuptools reads it; libinih's line limit is ours */
		add_problem(spec, SRC_SETUP_CFG, "python", "", at(file, c.long_line, 1),
			    "not checked: the 'python_requires' line is longer than "
			    "190 bytes, which envpreflight's INI reader cannot take",
			    SEV_WARN);
		rc = 0;
	} else if ((rc = ini_parse_string(c.text, cfg_handler, &v)) != 0) {
		if (rc > 0) {
			parse_error_set(pe, (unsigned)rc, 1, "malformed INI in "
					"[options] (expected 'name = value' or "
					"'[section]')");
		} else {
			parse_error_set(pe, 0, 0, "cannot be parsed as INI");
		}
		rc = -1;
	} else if (v.seen && v.value.len) {
		spec_add_runtime(spec, SRC_SETUP_CFG, "python", buf_str(&v.value), REQ_PEP440,
				 at(file, c.key_line, 1));
	}
	free(c.text);
	buf_release(&v.value);
	return rc;
}

/* ---- .tool-versions ---- */

/* Line `no` of b is one asdf refuses: add it as a problem of the tool it
 * names (when that name could be a runtime's), then blank it in b. */
static void tool_versions_problem(struct spec *spec, const char *file,
				  struct buf *b, unsigned no, unsigned col,
				  const char *msg)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;

	while (versions_next_line(b->s, b->len, &pos, &ln)) {
		const char *w = ln.s;
		size_t n;
		char *tool;
		const char *rt;

		if (ln.no != no)
			continue;
		n = versions_next_word(&w, ln.s + ln.len);
		tool = xstrndup(w, n);
		rt = toolversions_runtime(w, n);
		if (!rt && spec_name_valid(tool))
			rt = tool;
		if (rt)
			add_problem(spec, SRC_TOOL_VERSIONS, rt, "",
				    at(file, no, col), msg, SEV_FAIL);
		free(tool);
		memset((char *)ln.s, ' ', ln.len);
		return;
	}
}

static int take_tool_versions(struct spec *spec, const char *file,
			      const char *buf, size_t len, struct parse_error *pe)
{
	struct toolversions t;
	struct buf copy = BUF_INIT;
	size_t i, nbad = 0;

	/* a line asdf would refuse ("nodejs" with no version) is a failed
	 * check of its own: blank it and read the rest again */
	buf_add(&copy, buf, len);
	while (toolversions_parse(copy.s, copy.len, &t, pe) < 0) {
		if (!pe->line || nbad++ >= 64) {
			buf_release(&copy);
			return -1;
		}
		tool_versions_problem(spec, file, &copy, pe->line, pe->col, pe->msg);
	}
	buf_release(&copy);
	for (i = 0; i < t.n; i++) {
		const struct toolversions_entry *e = &t.v[i];
		const char *rt = e->runtime ? e->runtime : e->tool;

		/* "ubi:owner/repo" and friends name no command we could ask */
		if (!spec_name_valid(rt))
			continue;
		if (!spec_runtime_room(spec, at(file, e->line, e->version_col)))
			continue;	/* counted: one skipped check says so */
		/* "system", "latest", "ref:..", "path:..": presence only; the
		 * probe says the version could not be compared */
		spec_add_runtime(spec, SRC_TOOL_VERSIONS, rt, e->version,
				 e->kind == TOOLVERSIONS_VERSION ? REQ_ASDF : REQ_ANY,
				 at(file, e->line, e->version_col));
	}
	toolversions_release(&t);
	return 0;
}

/* ---- go.mod ---- */

static int take_go_mod(struct spec *spec, const char *file, const char *buf,
		       size_t len, struct parse_error *pe)
{
	struct gomod m;

	/* buf is text (spec_read), so what gomod_parse refuses is a go or
	 * toolchain line, which go refuses too: every go command would fail */
	if (gomod_parse(buf, len, &m, pe) < 0) {
		char *bad = line_text(buf, len, pe->line, 0);
		int tc = !strncmp(bad, "toolchain", 9);

		add_problem(spec, tc ? SRC_GO_TOOLCHAIN : SRC_GO_MOD, "go", bad,
			    at(file, pe->line, pe->col), pe->msg, SEV_FAIL);
		free(bad);
		return 0;
	}
	if (m.go)
		spec_add_runtime(spec, SRC_GO_MOD, "go", m.go, REQ_GO_MIN,
				 at(file, m.go_line, m.go_col));
	/* "toolchain go1.22.3" is kept as written, "go" prefix and all */
	if (m.toolchain && strcmp(m.toolchain, "default"))
		spec_add_runtime(spec, SRC_GO_TOOLCHAIN, "go", m.toolchain, REQ_GO_MIN,
				 at(file, m.toolchain_line, m.toolchain_col));
	gomod_release(&m);
	return 0;
}

/* ---- .ruby-version ---- */

/* A version as the version files of Ruby, Rust and Bun write it, added
 * with the .tool-versions rule: numbers are matched exactly or as a
 * prefix (asdf, mise, chruby's fuzzy match), "system", "latest" and the
 * like are presence only. */
static void add_version_word(struct spec *spec, enum req_source src, const char *name,
			     const char *v, size_t n, struct origin o)
{
	char *text = xstrndup(v, n);

	spec_add_runtime(spec, src, name, text,
			 toolversions_classify(v, n) == TOOLVERSIONS_VERSION ?
			 REQ_ASDF : REQ_ANY, o);
	free(text);
}

/* IFS with CR: what separates words for read(1) there */
static int word_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* rbenv's version-file-read, which jenv's is a copy of: the first word
 * of the file's first 1024 bytes (read -n 1024 -d "" -r version _, IFS
 * with CR); ".." or a word with '/' is refused ("invalid version");
 * nothing: no requirement.  A prefix (rbenv's "ruby-") is dropped. */
static int take_first_word(struct spec *spec, enum req_source src, const char *name,
			   const char *tool, const char *prefix, const char *file,
			   const char *buf, size_t len)
{
	size_t lim = len, i, n, pl = strlen(prefix);
	unsigned line = 1, col = 1;
	const char *w;

	if (lim > 1024)
		lim = 1024;
	for (i = 0; i < lim && word_space(buf[i]); i++) {
		col++;
		if (buf[i] == '\n') {
			line++;
			col = 1;
		}
	}
	if (i == lim)
		return 0;
	w = buf + i;
	for (n = 0; i + n < lim && !word_space(w[n]); n++)
		;
	if ((n == 2 && !memcmp(w, "..", 2)) || memchr(w, '/', n)) {
		char *bad = xstrndup(w, n);
		char msg[64];

		snprintf(msg, sizeof(msg), "%s refuses it: invalid version", tool);
		add_problem(spec, src, name, bad, at(file, line, col), msg, SEV_FAIL);
		free(bad);
		return 0;
	}
	if (pl && n > pl && !memcmp(w, prefix, pl)) {
		w += pl;
		n -= pl;
	}
	add_version_word(spec, src, name, w, n, at(file, line, col));
	return 0;
}

/* "ruby-3.3.0" is 3.3.0: rbenv's version-name retries without "ruby-",
 * rvm and chruby accept both */
static int take_ruby_version(struct spec *spec, const char *file, const char *buf,
			     size_t len, struct parse_error *pe)
{
	static const char *const engines[] = {
		"jruby-", "truffleruby", "mruby-", "rbx-", "artichoke-", NULL
	};
	size_t i, n;

	(void)pe;
	take_first_word(spec, SRC_RUBY_VERSION, "ruby", "rbenv", "ruby-", file, buf, len);
	/* another Ruby than CRuby (ruby-build's jruby-9.4.5.0): ruby
	 * --version of the CRuby found says nothing of it */
	n = spec->nruntimes;
	for (i = 0; n && spec->runtimes[n - 1].src == SRC_RUBY_VERSION &&
	     !spec->runtimes[n - 1].problem && engines[i]; i++)
		if (!strncmp(spec->runtimes[n - 1].spec, engines[i], strlen(engines[i]))) {
			struct runtime_req *r = &spec->runtimes[n - 1];
			struct buf b = BUF_INIT;

			buf_puts(&b, "not checked: '");
			buf_add_clean(&b, r->spec);
			buf_puts(&b, "' names another Ruby than CRuby, which ruby "
				 "--version does not tell apart");
			r->problem = buf_detach(&b);
			r->unmet = r->missing = SEV_WARN;
			r->kind = REQ_ANY;
		}
	return 0;
}

/* jenv's names: "17", "17.0.2", "openjdk64-17.0.2", "temurin64-21.0.1"
 * (matched by their numbers, as .tool-versions' flavours are), "system" */
static int take_java_version(struct spec *spec, const char *file, const char *buf,
			     size_t len, struct parse_error *pe)
{
	(void)pe;
	return take_first_word(spec, SRC_JAVA_VERSION, "java", "jenv", "", file,
			       buf, len);
}

/* ---- mix.exs: project's elixir: ---- */

/* The string after "elixir:" in mix.exs (project/0's keyword list), or
 * after the module attribute it names ("elixir: @elixir_requirement",
 * "@elixir_requirement \"~> 1.15\""), its line and column: Mix stops
 * ("You're trying to run :app on Elixir v1.14.5 but it has declared in
 * its mix.exs file it supports only Elixir ~> 1.15") on another Elixir.
 * Code is not evaluated: a requirement built at run time is not read. */
static const char *mix_string(const char *buf, size_t len, const char *key,
			      size_t *n, unsigned *line, unsigned *col)
{
	size_t kl = strlen(key), i;
	unsigned ln = 1, c = 1;
	int comment = 0, str = 0;

	for (i = 0; i < len; i++, c++) {
		char ch = buf[i];

		if (ch == '\n') {
			ln++;
			c = 0;
			comment = 0;
			continue;
		}
		if (comment)
			continue;
		if (str) {
			if (ch == '\\')
				i++, c++;
			else if (ch == '"')
				str = 0;
			continue;
		}
		if (ch == '#') {
			comment = 1;
			continue;
		}
		if (ch == '"') {
			str = 1;
			continue;
		}
		if (i + kl <= len && !memcmp(buf + i, key, kl) &&
		    (!i || !(isalnum((unsigned char)buf[i - 1]) || buf[i - 1] == '_'))) {
			size_t j = i + kl, e;

			while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
				j++;
			if (j >= len || buf[j] != '"')
				continue;
			for (e = j + 1; e < len && buf[e] != '"' && buf[e] != '\n' &&
			     buf[e] != '\\' && buf[e] != '#'; e++)
				;
			if (e >= len || buf[e] != '"')
				return NULL;	/* escapes, interpolation: not read */
			*n = e - j - 1;
			*line = ln;
			*col = c + (unsigned)(j - i) + 1;
			return buf + j + 1;
		}
	}
	return NULL;
}

static int take_mix(struct spec *spec, const char *file, const char *buf,
		    size_t len, struct parse_error *pe)
{
	const char *v;
	char attr[80];
	size_t n = 0, i;
	unsigned line = 0, col = 0;

	(void)pe;
	v = mix_string(buf, len, "elixir:", &n, &line, &col);
	if (!v) {
		/* elixir: @name, then @name "..." */
		const char *k = NULL;

		for (i = 0; i + 8 < len && !k; i++)
			if (!memcmp(buf + i, "elixir:", 7) &&
			    (!i || !isalnum((unsigned char)buf[i - 1]))) {
				size_t j = i + 7;

				while (j < len && (buf[j] == ' ' || buf[j] == '\t'))
					j++;
				if (j < len && buf[j] == '@')
					k = buf + j;
			}
		if (!k)
			return 0;
		for (n = 1; k + n < buf + len && (isalnum((unsigned char)k[n]) || k[n] == '_') &&
		     n < sizeof(attr) - 2; n++)
			;
		snprintf(attr, sizeof(attr), "%.*s ", (int)n, k);
		if (!(v = mix_string(buf, len, attr, &n, &line, &col)))
			return 0;
	}
	{
		char *text = xstrndup(v, n);

		spec_add_runtime(spec, SRC_MIX, "elixir", text, REQ_ELIXIR,
				 at(file, line, col));
		free(text);
	}
	return 0;
}

/* ---- Gemfile: the ruby directive ---- */

/* A Ruby string literal at *p ('...', or "..." without interpolation),
 * its text into out; 1 taken (p past it), 0 not one. */
static int gem_string(const char **p, const char *end, struct buf *out)
{
	const char *s = *p, *q;
	char c;

	if (s >= end || (*s != '"' && *s != '\''))
		return 0;
	c = *s;
	for (q = s + 1; q < end && *q != c; q++)
		if (*q == '\\' || (c == '"' && *q == '#' && q + 1 < end && q[1] == '{'))
			return 0;	/* an escape or #{}: not a plain literal */
	if (q >= end)
		return 0;
	out->len = 0;
	buf_add(out, s + 1, (size_t)(q - s - 1));
	*p = q + 1;
	return 1;
}

static void gem_blanks(const char **p, const char *end)
{
	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
}

/* What normalize_ruby_file (bundler lib/bundler/ruby_dsl.rb) takes from
 * the file the directive's file: names: the version after "ruby-" or
 * "ruby " at the start of a line (.ruby-version's "ruby-3.3.0",
 * .tool-versions' "ruby 3.3.0"), else the whole text stripped. */
static char *gem_ruby_file(const char *buf, size_t len)
{
	size_t i, n;

	for (i = 0; i + 5 < len; i++) {
		if ((i && buf[i - 1] != '\n') || memcmp(buf + i, "ruby", 4))
			continue;
		n = i + 4;
		if (buf[n] == '-')
			n++;
		else if (isspace((unsigned char)buf[n]))
			while (n < len && isspace((unsigned char)buf[n]))
				n++;
		else
			continue;
		for (i = n; i < len && !isspace((unsigned char)buf[i]) && buf[i] != '#'; i++)
			;
		if (i > n)
			return xstrndup(buf + n, i - n);
		break;
	}
	while (len && isspace((unsigned char)*buf))
		buf++, len--;
	while (len && isspace((unsigned char)buf[len - 1]))
		len--;
	return xstrndup(buf, len);
}

/* Bundler (RubyDsl#ruby) refuses to run on another Ruby than the
 * Gemfile's ruby directive names (Definition#validate_ruby!: "Your Ruby
 * version is X, but your Gemfile specified Y"): its version strings,
 * each a Gem::Requirement all of which the running Ruby must meet
 * (RubyVersion#matches?).  Read when it is one line of literals: ruby
 * "3.4.4"; ruby "~> 3.3", "< 3.5"; ruby file: ".ruby-version" (and :file
 * =>, and ruby File.read(".ruby-version").strip, its older spelling);
 * engine: another than "ruby" is not compared.  Anything else (a
 * variable, a method call) is Ruby code no file reader can evaluate: no
 * requirement. */
static int take_gemfile(struct spec *spec, const char *file, const char *buf,
			size_t len, struct parse_error *pe)
{
	struct versions_line ln = { NULL, 0, 0 }, one = { NULL, 0, 0 };
	struct buf text = BUF_INIT, reqs = BUF_INIT, engine = BUF_INIT, from = BUF_INIT;
	size_t pos = 0;

	(void)pe;
	/* the directive: Bundler keeps the last ruby call it runs; one inside
	 * a block (if/else, a platform) is the code's to choose */
	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *p = ln.s, *end = ln.s + ln.len;

		gem_blanks(&p, end);
		if (end - p < 5 || memcmp(p, "ruby", 4) || (p[4] != ' ' && p[4] != '(' &&
							    p[4] != '\t'))
			continue;
		if (p != ln.s)
			return 0;
		one = ln;
	}
	if (!one.s)
		return 0;
	ln = one;
	do {
		const char *p = ln.s, *end = ln.s + ln.len, *start = p;
		int bad = 0, nver = 0, raw = 0;

		p += 4;
		gem_blanks(&p, end);
		if (p < end && *p == '(')
			p++;
		for (;;) {
			gem_blanks(&p, end);
			if (gem_string(&p, end, &text)) {
				/* one string is one requirement: "~> 3.3, < 3.5" is
				 * refused whole (Gem::Requirement.parse); the model
				 * joins the strings with ", " */
				if (strchr(buf_str(&text), ','))
					bad = 2;
				buf_printf(&reqs, "%s%s", nver++ ? ", " : "", buf_str(&text));
			} else if (end - p > 11 && !memcmp(p, "File.read(", 10)) {
				/* ruby File.read(".ruby-version").strip */
				p += 10;
				raw = 1;	/* the text itself, not normalised */
				if (!gem_string(&p, end, &from) || p >= end || *p != ')')
					bad = 1;
				else
					p++;
				if (!bad && end - p >= 6 && !memcmp(p, ".strip", 6))
					p += 6;
			} else {
				/* key: "value", or :key => "value" */
				const char *key;
				size_t klen;

				if (p < end && *p == ':')
					p++;
				key = p;
				while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
					p++;
				klen = (size_t)(p - key);
				if (p < end && *p == ':' && key[-1] != ':')
					p++;
				else {
					gem_blanks(&p, end);
					if (end - p >= 2 && !memcmp(p, "=>", 2))
						p += 2;
					else
						bad = 1;
				}
				gem_blanks(&p, end);
				if (!klen || bad || !gem_string(&p, end, &text))
					bad = 1;
				else if (klen == 4 && !memcmp(key, "file", 4))
					buf_printf(&from, "%s", buf_str(&text));
				else if (klen == 6 && !memcmp(key, "engine", 6))
					buf_printf(&engine, "%s", buf_str(&text));
			}
			gem_blanks(&p, end);
			if (bad || p >= end || *p != ',')
				break;
			p++;
		}
		gem_blanks(&p, end);
		if (p < end && *p == ')')
			p++;
		gem_blanks(&p, end);
		if (bad == 2) {
			char msg[160];

			snprintf(msg, sizeof(msg), "bundler refuses it: Illformed requirement "
				 "[\"%.60s\"] (one string, one requirement)", buf_str(&text));
			add_problem(spec, SRC_GEMFILE, "ruby", buf_str(&reqs),
				    at(file, ln.no, (unsigned)(start - ln.s) + 1), msg, SEV_FAIL);
			break;
		}
		if (bad || (p < end && *p != '#') || (!nver && !from.len) || (nver && from.len))
			break;	/* code, not a directive of literals */
		if (from.len) {
			/* the file, beside the Gemfile */
			char *name = spec_rel(spec, buf_str(&from));
			struct errbuf ferr;
			struct blob fb;
			int rc = path_rel_inside(buf_str(&from)) ?
				 spec_read(spec, name, &fb, &ferr) : -1;

			free(name);
			if (rc <= 0) {
				char msg[160];

				snprintf(msg, sizeof(msg), "bundler refuses the Gemfile: its ruby "
					 "file: %.60s cannot be read", buf_str(&from));
				add_problem(spec, SRC_GEMFILE, "ruby", buf_str(&from),
					    at(file, ln.no, (unsigned)(start - ln.s) + 1), msg,
					    SEV_FAIL);
				break;
			}
			if (raw) {	/* File.read(...).strip: the text as it is */
				const char *t = fb.data;
				size_t tn = fb.len;

				versions_trim(&t, &tn);
				buf_add(&reqs, t, tn);
			} else {
				char *v = gem_ruby_file(fb.data, fb.len);

				buf_puts(&reqs, v);
				free(v);
			}
			blob_release(&fb);
		}
		if (engine.len && strcmp(buf_str(&engine), "ruby")) {
			char msg[160];

			snprintf(msg, sizeof(msg), "not checked: engine '%.40s' is another Ruby "
				 "than CRuby, which ruby --version does not tell apart",
				 buf_str(&engine));
			add_problem(spec, SRC_GEMFILE, "ruby", buf_str(&reqs),
				    at(file, ln.no, (unsigned)(start - ln.s) + 1), msg, SEV_WARN);
			break;
		}
		spec_add_runtime(spec, SRC_GEMFILE, "ruby", buf_str(&reqs), REQ_GEM,
				 at(file, ln.no, (unsigned)(start - ln.s) + 1));
	} while (0);
	buf_release(&text);
	buf_release(&reqs);
	buf_release(&engine);
	buf_release(&from);
	return 0;
}

/* ---- .sdkmanrc ---- */

/* sdkman's env file (sdk env): candidate=version lines, '#' comments;
 * java=21.0.2-tem is Java 21.0.2 (the vendor after the dash).  Only java
 * has a version query of ours. */
static int take_sdkmanrc(struct spec *spec, const char *file, const char *buf,
			 size_t len, struct parse_error *pe)
{
	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0;

	(void)pe;
	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *t = ln.s, *eq, *v;
		size_t n = ln.len, k, vn;

		versions_trim(&t, &n);
		if (!n || t[0] == '#' || !(eq = memchr(t, '=', n)))
			continue;
		k = (size_t)(eq - t);
		v = eq + 1;
		vn = n - k - 1;
		while (k && (t[k - 1] == ' ' || t[k - 1] == '\t'))
			k--;
		versions_trim(&v, &vn);
		if (k != 4 || memcmp(t, "java", 4) || !vn)
			continue;
		/* the vendor after the last dash ("-tem", "-zulu", "-graalce")
		 * is not part of the version java -version prints */
		for (k = vn; k > 0 && v[k - 1] != '-'; k--)
			;
		if (k > 1 && v[k] >= 'a' && v[k] <= 'z')
			vn = k - 1;
		add_version_word(spec, SRC_SDKMANRC, "java", v, vn,
				 at(file, ln.no, (unsigned)(v - ln.s) + 1));
		break;
	}
	return 0;
}

/* ---- rust-toolchain, rust-toolchain.toml ---- */

/* The channel rustup selects: a release ("1.75.0", "1.75" for its latest
 * patch) is compared with rustc's version, a host tuple after it
 * dropped; stable, beta, nightly (dated or not) and a custom toolchain's
 * name move or name no number: presence only. */
static void add_rust_channel(struct spec *spec, const char *ch, size_t n,
			     struct origin o, enum req_source src)
{
	size_t k = 0;

	while (k < n && ((ch[k] >= '0' && ch[k] <= '9') || ch[k] == '.'))
		k++;
	if (k && ch[0] >= '0' && ch[0] <= '9' && (k == n || ch[k] == '-'))
		add_version_word(spec, src, "rust", ch, k, o);
	else {
		char *text = xstrndup(ch, n);

		spec_add_runtime(spec, src, "rust", text, REQ_ANY, o);
		free(text);
	}
}

/* rustup's parse_override_file (src/config.rs): a rust-toolchain of one
 * line is the channel, trimmed; more lines, or any rust-toolchain.toml,
 * are TOML with [toolchain] channel (or path: a custom toolchain,
 * presence only).  What rustup refuses (an empty file, TOML it cannot
 * parse, no channel or path) fails the check: every cargo and rustc in
 * the directory fails too. */
static int take_rust(struct spec *spec, const char *file, const char *buf,
		     size_t len, int only_toml)
{
	struct versions_line ln = { NULL, 0, 0 };
	struct toml_value *root;
	struct parse_error pe;
	const struct toml_value *tc, *ch, *path;
	size_t pos = 0, lines = 0;
	unsigned first = 0;

	while (versions_next_line(buf, len, &pos, &ln))
		if (lines++ == 0)
			first = ln.no;
	if (!lines) {
		add_problem(spec, SRC_RUST_TOOLCHAIN, "rust", "", at(file, 1, 1),
			    "rustup refuses it: the toolchain file is empty", SEV_FAIL);
		return 0;
	}
	if (lines == 1 && !only_toml) {
		const char *t = buf;
		size_t n = len;

		versions_trim(&t, &n);
		if (!n)
			add_problem(spec, SRC_RUST_TOOLCHAIN, "rust", "", at(file, 1, 1),
				    "rustup refuses it: the toolchain file is empty",
				    SEV_FAIL);
		else
			add_rust_channel(spec, t, n, at(file, first, first_col(buf, len, first)),
					 SRC_RUST_TOOLCHAIN);
		return 0;
	}
	if (toml_parse(buf, len, NULL, &root, &pe) < 0) {
		char *bad = line_text(buf, len, pe.line, 0);

		add_problem(spec, SRC_RUST_TOOLCHAIN, "rust", bad, at(file, pe.line, pe.col),
			    "rustup cannot parse it as TOML", SEV_FAIL);
		free(bad);
		return 0;
	}
	tc = toml_get(root, "toolchain");
	ch = tc && tc->type == TOML_TABLE ? toml_get(tc, "channel") : NULL;
	path = tc && tc->type == TOML_TABLE ? toml_get(tc, "path") : NULL;
	if (ch && ch->type == TOML_STRING && ch->len)
		add_rust_channel(spec, ch->str, ch->len, at(file, ch->line, ch->col),
				 SRC_RUST_TOOLCHAIN);
	else if (path && path->type == TOML_STRING)
		spec_add_runtime(spec, SRC_RUST_TOOLCHAIN, "rust", "path", REQ_ANY,
				 at(file, path->line, path->col));
	else if (tc && tc->type == TOML_TABLE &&
		 (toml_get(tc, "components") || toml_get(tc, "targets")))
		/* components or targets alone: the default toolchain with
		 * them (rustup's ToolchainSection::is_empty is false) */
		spec_add_runtime(spec, SRC_RUST_TOOLCHAIN, "rust", "", REQ_ANY,
				 at(file, tc->line, tc->col));
	else
		/* is_empty: no channel, components, targets or path
		 * (profile alone does not count): OverrideFileConfigError::Invalid */
		add_problem(spec, SRC_RUST_TOOLCHAIN, "rust", "", at(file, 1, 1),
			    "rustup refuses it: no [toolchain] channel, path, components "
			    "or targets", SEV_FAIL);
	toml_free(root);
	return 0;
}

static int take_rust_toolchain(struct spec *spec, const char *file, const char *buf,
			       size_t len, struct parse_error *pe)
{
	(void)pe;
	return take_rust(spec, file, buf, len, 0);
}

static int take_rust_toolchain_toml(struct spec *spec, const char *file,
				    const char *buf, size_t len, struct parse_error *pe)
{
	size_t i;

	/* rustup reads rust-toolchain when both exist (and warns); that one
	 * was read first and always adds a requirement or a problem */
	for (i = 0; i < spec->nruntimes; i++)
		if (spec->runtimes[i].src == SRC_RUST_TOOLCHAIN)
			return 0;
	(void)pe;
	return take_rust(spec, file, buf, len, 1);
}

/* ---- .bun-version, .dvmrc, .deno-version ---- */

/* setup-deno's parseVersionRange: a channel, or a canary's 40-hex
 * commit, names no version a requirement can hold (any). */
static int deno_channel(const char *t, size_t n)
{
	static const char *const channels[] = { "canary", "rc", "latest", "lts" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(channels); i++)
		if (n == strlen(channels[i]) && !memcmp(t, channels[i], n))
			return 1;
	if (n != 40)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)t[i]))
			return 0;
	return 1;
}

/* The first non-blank line of a version file, trimmed, less prefix (a
 * "bun-", a "v" before a digit or an x): a version word, or a semver
 * range when it holds a range's characters (for deno also =, * and an
 * x part, as setup-deno hands anything but a channel to semver's
 * validRange). */
static int take_line_version(struct spec *spec, enum req_source src, const char *name,
			     const char *prefix, const char *file, const char *buf,
			     size_t len)
{
	const int deno = !strcmp(name, "deno");

	struct versions_line ln = { NULL, 0, 0 };
	size_t pos = 0, pl = strlen(prefix);

	while (versions_next_line(buf, len, &pos, &ln)) {
		const char *t = ln.s;
		size_t n = ln.len;

		versions_trim(&t, &n);
		if (!n)
			continue;
		if (n > pl && !memcmp(t, prefix, pl) &&
		    (strcmp(prefix, "v") || isdigit((unsigned char)t[1]) || t[1] == 'x')) {
			t += pl;
			n -= pl;
		}
		if (deno && deno_channel(t, n)) {
			char *any = xstrndup(t, n);

			spec_add_runtime(spec, src, name, any, REQ_ANY,
					 at(file, ln.no, (unsigned)(t - ln.s) + 1));
			free(any);
		} else if (memchr(t, '^', n) || memchr(t, '~', n) || memchr(t, '<', n) ||
			   memchr(t, '>', n) || memchr(t, '|', n) || memchr(t, ' ', n) ||
			   (deno && (memchr(t, '=', n) || memchr(t, '*', n) ||
				     memchr(t, 'x', n) || memchr(t, 'X', n)))) {
			char *range = xstrndup(t, n);

			spec_add_runtime(spec, src, name, range, REQ_SEMVER,
					 at(file, ln.no, (unsigned)(t - ln.s) + 1));
			free(range);
		} else {
			add_version_word(spec, src, name, t, n,
					 at(file, ln.no, (unsigned)(t - ln.s) + 1));
		}
		break;
	}
	return 0;
}

/* As oven-sh/setup-bun's bun-version-file and mise's idiomatic file read
 * it: the first line; setup-bun takes a semver range there too
 * ("^1.3.6": semver's satisfies), judged so. */
static int take_bun_version(struct spec *spec, const char *file, const char *buf,
			    size_t len, struct parse_error *pe)
{
	(void)pe;
	return take_line_version(spec, SRC_BUN_VERSION, "bun", "bun-", file, buf, len);
}

/* deno.json names no Deno version it needs (its "version" is the
 * package's own, for JSR): the files Deno's version managers read are
 * these.  dvm's .dvmrc, which denoland/setup-deno's deno-version-file
 * reads too (trimmed, a "v" allowed, a semver range such as "~1.7" or
 * "v2.x" taken with semver's rules; canary, rc and lts are channels, not
 * versions: any); mise's idiomatic .deno-version (asdf-deno's legacy
 * file), the same. */
static int take_dvmrc(struct spec *spec, const char *file, const char *buf,
		      size_t len, struct parse_error *pe)
{
	(void)pe;
	return take_line_version(spec, SRC_DVMRC, "deno", "v", file, buf, len);
}

static int take_deno_version(struct spec *spec, const char *file, const char *buf,
			     size_t len, struct parse_error *pe)
{
	(void)pe;
	return take_line_version(spec, SRC_DENO_VERSION, "deno", "v", file, buf, len);
}

/* ---- mise.toml and mise's other config files: [tools] ---- */

/* The version a [tools] value names: a string, an array's first (string,
 * or table with version), or a table's version (mise's ToolVersionType:
 * tool = "22", ["22", "20"], { version = "22", ... }). */
static const struct toml_value *mise_version(const struct toml_value *v)
{
	if (v && v->type == TOML_ARRAY)
		v = v->n ? v->items[0] : NULL;
	if (v && v->type == TOML_TABLE) {
		/* os = ["macos"]: mise installs it on those only */
		const struct toml_value *os = toml_get(v, "os");
		size_t i;
		int here = !os || os->type != TOML_ARRAY;

		for (i = 0; !here && i < os->n; i++)
			here = os->items[i]->type == TOML_STRING &&
			       !strcmp(os->items[i]->str, "linux");
		if (!here)
			return NULL;
		v = toml_get(v, "version");
	}
	return v && v->type == TOML_STRING ? v : NULL;
}

static int take_mise(struct spec *spec, const char *file, const char *buf,
		     size_t len, struct parse_error *pe)
{
	struct toml_value *root;
	const struct toml_value *tools;
	size_t i;

	if (toml_parse(buf, len, NULL, &root, pe) < 0)
		return -1;	/* mise refuses the file, every tool with it */
	tools = toml_get(root, "tools");
	for (i = 0; tools && tools->type == TOML_TABLE && i < tools->n; i++) {
		const struct toml_kv *kv = &tools->kv[i];
		const struct toml_value *v = mise_version(kv->val);
		const char *rt = toolversions_runtime(kv->key, kv->klen);
		char *name = xstrndup(kv->key, kv->klen);
		const char *ver;
		size_t n, j;
		int seen = 0;

		if (!rt)
			rt = name;
		/* a backend's tool ("npm:prettier", "aqua:cli/cli") names no
		 * command we could ask */
		for (j = 0; j < spec->nruntimes && !seen; j++)
			seen = spec->runtimes[j].src == SRC_MISE &&
			       !strcmp(spec->runtimes[j].name, rt);
		if (!v || seen || !spec_name_valid(rt) ||
		    !spec_runtime_room(spec, at(file, kv->line, kv->col))) {
			free(name);
			continue;
		}
		ver = v->str;
		n = v->len;
		if (n > 7 && !memcmp(ver, "prefix:", 7)) {
			ver += 7;	/* mise's prefix match: asdf's own */
			n -= 7;
		}
		if (!strcmp(rt, "rust") && n && (ver[0] < '0' || ver[0] > '9'))
			/* a rustup channel (stable, beta, nightly-DATE), as
			 * in a rust-toolchain file: presence only */
			add_rust_channel(spec, ver, n, at(file, v->line, v->col), SRC_MISE);
		else
			add_version_word(spec, SRC_MISE, rt, ver, n,
					 at(file, v->line, v->col));
		free(name);
	}
	toml_free(root);
	return 0;
}

/* Read name of the model's directory when it exists and hand it to fn. */
static int load_one(struct spec *spec, const char *base, vfile_fn *fn,
		    struct errbuf *err)
{
	struct parse_error pe = { 0, 0, "" };
	struct blob b;
	const char *file;
	char *name = spec_rel(spec, base);
	int rc = spec_read(spec, name, &b, err);

	file = rc > 0 ? spec_add_file(spec, name) : NULL;
	free(name);
	if (rc <= 0)
		return rc;
	rc = fn(spec, file, b.data, b.len, &pe);
	blob_release(&b);
	if (rc < 0) {
		spec_error(err, file, pe.line, pe.col, "%s", pe.msg);
		return -1;
	}
	return 0;
}

/* files[] with each one's reader, in that order: requirements are added
 * in it */
static const struct {
	const char *name;
	vfile_fn *fn;
} readers[] = {
	{ ".nvmrc", take_nvmrc },
	{ ".node-version", take_node_version },
	{ ".python-version", take_python_version },
	{ "pyproject.toml", take_pyproject },
	{ "setup.cfg", take_setup_cfg },
	{ ".tool-versions", take_tool_versions },
	{ "go.mod", take_go_mod },
	{ ".ruby-version", take_ruby_version },
	{ "rust-toolchain", take_rust_toolchain },
	{ "rust-toolchain.toml", take_rust_toolchain_toml },
	{ ".bun-version", take_bun_version },
	{ ".java-version", take_java_version },
	{ ".sdkmanrc", take_sdkmanrc },
	{ "mix.exs", take_mix },
	{ "Gemfile", take_gemfile },
	{ ".dvmrc", take_dvmrc },
	{ ".deno-version", take_deno_version },
};

static int versions_load(struct spec *spec, struct errbuf *err)
{
	size_t i;

	_Static_assert(ARRAY_SIZE(readers) + 1 == ARRAY_SIZE(files) - 1,
		       "a reader for every file, and mise's");
	for (i = 0; i < ARRAY_SIZE(readers); i++)
		if (load_one(spec, readers[i].name, readers[i].fn, err) < 0)
			return -1;
	/* mise's files, highest precedence first: a tool named in one is
	 * not taken again from a file below it */
	for (i = MISE_TOML_FILES; i-- > 0;)
		if (load_one(spec, spec_mise_files[i], take_mise, err) < 0)
			return -1;
	return 0;
}

const struct spec_source source_versions = {
	.name = "version files",
	.files = files,
	.load = versions_load,
};
