/* result.c - filling and releasing a check's result */
#include "result.h"
#include "util.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

const char *reason_name(enum reason why)
{
	static const char *const names[] = {
#define REASON_NAME(name, text, nofix) [REASON_##name] = (text),
		REASONS(REASON_NAME)
#undef REASON_NAME
	};

	return (unsigned)why < ARRAY_SIZE(names) ? names[why] : NULL;
}

const char *result_no_fix(const struct result *r)
{
	static const char *const names[] = {
#define NO_FIX_NAME(name, text) [NO_FIX_##name] = (text),
		NO_FIXES(NO_FIX_NAME)
#undef NO_FIX_NAME
	};
	static const enum no_fix by_reason[] = {
#define REASON_NO_FIX(name, text, nofix) [REASON_##name] = NO_FIX_##nofix,
		REASONS(REASON_NO_FIX)
#undef REASON_NO_FIX
	};
	enum no_fix why = r->no_fix;

	if (r->fix || r->status == STATUS_PASS || r->status == STATUS_SKIP)
		return NULL;
	if (why == NO_FIX_NONE)
		why = (unsigned)r->reason < ARRAY_SIZE(by_reason) ?
		      by_reason[r->reason] : NO_FIX_UNDECIDED;
	return (unsigned)why < ARRAY_SIZE(names) && names[why] ? names[why] :
	       names[NO_FIX_UNDECIDED];
}

int fix_word_safe(const char *s)
{
	size_t n = strlen(s);

	return n && n <= 200 &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		      "0123456789._/@:=+,-") == n;
}

static void fix_free(struct fix *f)
{
	char **a;
	size_t i;

	if (!f)
		return;
	for (a = f->argv; a && *a; a++)
		free(*a);
	free(f->argv);
	for (i = 0; i < f->nwrites; i++)
		free(f->writes[i].path);
	free(f->writes);
	free(f);
}

int result_fix_argv(struct result *r, enum fix_who who, unsigned needs,
		    const char *argv0, ...)
{
	struct fix *f;
	const char *w;
	va_list ap;
	size_t n = 0;

	va_start(ap, argv0);
	for (w = argv0; w; w = va_arg(ap, const char *), n++) {
		if (!fix_word_safe(w)) {
			va_end(ap);
			return -1;
		}
	}
	va_end(ap);
	f = xcalloc(1, sizeof(*f));
	f->who = who;
	f->needs = needs;
	f->argv = xcalloc(n + 1, sizeof(*f->argv));
	va_start(ap, argv0);
	for (n = 0, w = argv0; w; w = va_arg(ap, const char *))
		f->argv[n++] = xstrdup(w);
	va_end(ap);
	fix_free(r->fix);
	r->fix = f;
	return 0;
}

void result_fix_clear(struct result *r)
{
	fix_free(r->fix);
	r->fix = NULL;
}

void result_fix_edit(struct result *r, const char *file, unsigned line)
{
	struct fix *f = xcalloc(1, sizeof(*f));

	f->who = FIX_HUMAN;
	f->edit.file = file;
	f->edit.line = line;
	fix_free(r->fix);
	r->fix = f;
}

/* Append name to r's fix.writes: its place, or -1 (no argv, or full). */
static void fix_writes_add(struct result *r, const char *name, int dir)
{
	struct fix *f = r->fix;

	if (!f || !f->argv)
		return;
	grow(&f->writes, sizeof(*f->writes), &f->writes_cap, f->nwrites + 1);
	f->writes[f->nwrites].path = xstrdup(name);
	f->writes[f->nwrites].dir = (unsigned char)dir;
	f->writes[f->nwrites++].git = FIX_GIT_UNKNOWN;
}

void result_fix_writes(struct result *r, const char *name)
{
	fix_writes_add(r, name, 0);
}

void result_fix_writes_dir(struct result *r, const char *name)
{
	fix_writes_add(r, name, 1);
}

void result_fix_cwd(struct result *r, const char *dir)
{
	if (r->fix && r->fix->argv)
		r->fix->cwd = dir;
}

const char *status_name(enum status s)
{
	static const char *const names[STATUS_COUNT] = {
		[STATUS_PASS] = "pass", [STATUS_WARN] = "warn",
		[STATUS_FAIL] = "fail", [STATUS_SKIP] = "skip",
		[STATUS_ERROR] = "error",
	};

	return (unsigned)s < STATUS_COUNT ? names[s] : "error";
}

/* (the new text is made before the old is freed: it may be an argument) */
void result_set(struct result *r, enum status s, const char *fmt, ...)
{
	va_list ap;
	char *m;

	r->status = s;
	va_start(ap, fmt);
	m = xvformat(fmt, ap);
	va_end(ap);
	free(r->message);
	r->message = m;
}

void result_hint(struct result *r, const char *fmt, ...)
{
	va_list ap;
	char *h;

	va_start(ap, fmt);
	h = xvformat(fmt, ap);
	va_end(ap);
	free(r->hint);
	r->hint = h;
}

void result_note(struct result *r, const char *fmt, ...)
{
	va_list ap;

	r->notes = xrealloc(r->notes, (r->nnotes + 1) * sizeof(*r->notes));
	va_start(ap, fmt);
	r->notes[r->nnotes++] = xvformat(fmt, ap);
	va_end(ap);
}

void result_release(struct result *r)
{
	size_t i;

	free(r->id);
	free(r->title);
	free(r->message);
	free(r->hint);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	cJSON_Delete(r->data);
	fix_free(r->fix);
	r->fix = NULL;
	r->id = r->title = r->message = r->hint = NULL;
	r->notes = NULL;
	r->nnotes = 0;
	r->data = NULL;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

void result_copy(struct result *dst, const struct result *r)
{
	size_t i;

	*dst = *r;
	dst->id = dup_or_null(r->id);
	dst->title = dup_or_null(r->title);
	dst->message = dup_or_null(r->message);
	dst->hint = dup_or_null(r->hint);
	dst->notes = r->nnotes ? xcalloc(r->nnotes, sizeof(*dst->notes)) : NULL;
	for (i = 0; i < r->nnotes; i++)
		dst->notes[i] = xstrdup(r->notes[i]);
	dst->data = r->data ? cJSON_Duplicate(r->data, 1) : NULL;
	dst->fix = NULL;
	if (r->fix) {
		size_t n = 0;

		dst->fix = xmalloc(sizeof(*dst->fix));
		*dst->fix = *r->fix;
		while (r->fix->argv && r->fix->argv[n])
			n++;
		dst->fix->argv = r->fix->argv ? xcalloc(n + 1, sizeof(char *)) : NULL;
		for (i = 0; i < n; i++)
			dst->fix->argv[i] = xstrdup(r->fix->argv[i]);
		dst->fix->writes = NULL;
		dst->fix->nwrites = dst->fix->writes_cap = 0;
		for (i = 0; i < r->fix->nwrites; i++) {
			fix_writes_add(dst, r->fix->writes[i].path, r->fix->writes[i].dir);
			dst->fix->writes[i].git = r->fix->writes[i].git;
		}
	}
}

void result_unreaped(struct result *r, int pid, const char *program,
		     double ran_ms)
{
	cJSON *list, *o;
	char *msg = r->message;

	r->message = NULL;
	result_set(r, r->status, "%s%spid %d (%s) could not be reaped: killed, "
		   "but stopped in the kernel (uninterruptible sleep or a frozen "
		   "cgroup), it ends when the kernel lets it", msg ? msg : "",
		   msg ? "; " : "", pid, program);
	free(msg);
	if (!cJSON_IsObject(r->data))
		return;
	list = cJSON_GetObjectItemCaseSensitive(r->data, "unreaped");
	if (!cJSON_IsArray(list)) {
		list = cJSON_CreateArray();
		if (cJSON_HasObjectItem(r->data, "unreaped"))
			cJSON_ReplaceItemInObjectCaseSensitive(r->data, "unreaped", list);
		else
			cJSON_AddItemToObject(r->data, "unreaped", list);
	}
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "pid", pid);
	cJSON_AddStringToObject(o, "program", program);
	cJSON_AddNumberToObject(o, "ran_ms", (double)(long)ran_ms);
	cJSON_AddItemToArray(list, o);
}
