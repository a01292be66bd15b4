// SPDX-License-Identifier: GPL-2.0
/* The JSON writer: separators and nesting for every JSON printer. */
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "json.h"
#include "util.h"

void kp_jw_init(struct kp_jw *w, FILE *f)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
}

/* before a value or a name: the comma, unless it is a name's value */
static void sep(struct kp_jw *w)
{
	if (w->named) {
		w->named = 0;
		return;
	}
	if (w->used[w->depth])
		fputc(',', w->f);
	w->used[w->depth] = 1;
}

static void start(struct kp_jw *w, int c)
{
	sep(w);
	fputc(c, w->f);
	/* deeper than any printer nests: the commas go wrong, not memory */
	if (w->depth + 1 < KP_JW_DEPTH)
		w->depth++;
	w->used[w->depth] = 0;
}

static void end(struct kp_jw *w, int c)
{
	fputc(c, w->f);
	if (w->depth)
		w->depth--;
}

void kp_jw_start_object(struct kp_jw *w)
{
	start(w, '{');
}

void kp_jw_end_object(struct kp_jw *w)
{
	end(w, '}');
}

void kp_jw_start_array(struct kp_jw *w)
{
	start(w, '[');
}

void kp_jw_end_array(struct kp_jw *w)
{
	end(w, ']');
}

void kp_jw_name(struct kp_jw *w, const char *name)
{
	sep(w);
	kp_json_str(w->f, name);
	fputc(':', w->f);
	w->named = 1;
}

void kp_jw_u64(struct kp_jw *w, uint64_t v)
{
	sep(w);
	fprintf(w->f, "%" PRIu64, v);
}

void kp_jw_string(struct kp_jw *w, const char *s)
{
	sep(w);
	kp_json_str(w->f, s);
}

void kp_jw_null(struct kp_jw *w)
{
	sep(w);
	fputs("null", w->f);
}

void kp_jw_bool(struct kp_jw *w, int v)
{
	sep(w);
	fputs(v ? "true" : "false", w->f);
}

void kp_jw_printf(struct kp_jw *w, const char *fmt, ...)
{
	va_list ap;

	sep(w);
	va_start(ap, fmt);
	vfprintf(w->f, fmt, ap);
	va_end(ap);
}
