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
