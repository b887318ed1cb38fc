/* result.c - filling and releasing a check's result */
#include "result.h"
#include "util.h"

#include <stdlib.h>

const char *status_name(enum status s)
{
	static const char *const names[STATUS_COUNT] = {
		[STATUS_PASS] = "pass", [STATUS_WARN] = "warn",
		[STATUS_FAIL] = "fail", [STATUS_SKIP] = "skip",
		[STATUS_ERROR] = "error",
	};

	return (unsigned)s < STATUS_COUNT ? names[s] : "error";
}

void result_set(struct result *r, enum status s, const char *fmt, ...)
{
	va_list ap;

	r->status = s;
	free(r->message);
	va_start(ap, fmt);
	r->message = xvformat(fmt, ap);
	va_end(ap);
}

void result_hint(struct result *r, const char *fmt, ...)
{
	va_list ap;

	free(r->hint);
	va_start(ap, fmt);
	r->hint = xvformat(fmt, ap);
	va_end(ap);
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
