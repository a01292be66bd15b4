// SPDX-License-Identifier: GPL-2.0
/* kprofctl top's table (text, no control codes) and its JSON line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "json.h"
#include "top.h"
#include "units.h"
#include "util.h"

#define W_RATE	11
#define W_TOTAL	13
#define W_LAT	9
#define W_CL	10
#define NAME_MAX_W	48

static void fmt_rate(char *buf, size_t len, int has, double v)
{
	if (has)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "-");
}

static void fmt_lat(char *buf, size_t len, int has, uint64_t v)
{
	if (has)
		kp_fmt_ns(v, buf, len);
	else
		snprintf(buf, len, "-");
}

/* the widest probe id's digits: ids of one and two digits align */
static int id_width(const struct kp_top_row *rows, unsigned int n)
{
	unsigned int i;
	int w = 1;

	for (i = 0; i < n; i++)
		if (rows[i].id >= 10 && snprintf(NULL, 0, "%u", rows[i].id) > w)
			w = snprintf(NULL, 0, "%u", rows[i].id);
	return w;
}

/* "3  kretprobe:f" with the id padded to iw; keys as they are */
static void row_name(const struct kp_top_row *r, int iw, char *buf, size_t len)
{
	const char *sp = strchr(r->name, ' ');

	if (r->depth || !sp)
		snprintf(buf, len, "%s%s", r->depth ? "  " : "", r->name);
	else
		snprintf(buf, len, "%-*.*s%s", iw, (int)(sp - r->name), r->name,
			 sp);
}

/* the NAME column's width: the longest name shown, within limits */
static int name_width(const struct kp_top *t, const struct kp_top_row *rows,
		      unsigned int n, int iw)
{
	unsigned int i, j;
	int w = 4;

	for (i = 0; i < n; i++) {
		char name[sizeof(rows[i].name) + 16];

		row_name(&rows[i], iw, name, sizeof(name));
		if ((int)strlen(name) > w)
			w = (int)strlen(name);
		for (j = 0; t->o.keys && j < rows[i].nsub && j < t->o.nkeys; j++)
			if ((int)strlen(rows[i].sub[j].name) + 2 > w)
				w = (int)strlen(rows[i].sub[j].name) + 2;
	}
	return w > NAME_MAX_W ? NAME_MAX_W : w;
}

static int show_cl(const struct kp_top *t)
{
	return t->o.clusters && kp_top_nr_clusters(t);
}

static void line_header(const struct kp_top *t, FILE *f, int nw)
{
	unsigned int i;
	char h[64];

	fprintf(f, "%-*s %*s %*s %*s %*s", nw, "PROBE", W_RATE, "RATE/s",
		W_TOTAL, "TOTAL", W_LAT, "P99", W_LAT, "MEAN");
	for (i = 0; show_cl(t) && i < kp_top_nr_clusters(t); i++) {
		snprintf(h, sizeof(h), "%s/s", t->o.topo->cl[i].name);
		fprintf(f, " %*s", W_CL, h);
	}
}

static void line_row(const struct kp_top *t, FILE *f, int nw, int iw,
		     const struct kp_top_row *r)
{
	char name[sizeof(r->name) + 16], rate[32], p99[32], mean[32], cl[32];
	unsigned int i;

	row_name(r, iw, name, sizeof(name));
	if ((int)strlen(name) > nw)	/* cut: a '+' says so */
		name[nw - 1] = '+', name[nw] = '\0';
	fmt_rate(rate, sizeof(rate), r->has_rate, r->rate);
	fmt_lat(p99, sizeof(p99), r->has_lat, r->p99);
	fmt_lat(mean, sizeof(mean), r->has_lat, r->mean);
	fprintf(f, "%-*s %*s %*" PRIu64 " %*s %*s", nw, name, W_RATE, rate,
		W_TOTAL, r->total, W_LAT, p99, W_LAT, mean);
	for (i = 0; show_cl(t) && i < kp_top_nr_clusters(t); i++) {
		fmt_rate(cl, sizeof(cl), r->has_rate, r->cl_rate[i]);
		fprintf(f, " %*s", W_CL, cl);
	}
}

/* the header (r NULL) or row r as one line through emit */
static void put_line(const struct kp_top *t, int nw, int iw,
		     const struct kp_top_row *r,
		     void (*emit)(void *ctx, const char *line), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	if (r)
		line_row(t, f, nw, iw, r);
	else
		line_header(t, f, nw);
	fclose(f);
	emit(ctx, buf);
	free(buf);
}

/*
 * The table's lines, each without its newline, through emit; within cols
 * columns (0: any): the names are shortened first, down to MIN_NAME_W,
 * so that the figures and the cluster columns stay.
 */
#define MIN_NAME_W	12

static void table(struct kp_top *t, unsigned int cols,
		  void (*emit)(void *ctx, const char *line), void *ctx)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;
	int iw = id_width(rows, n), nw = name_width(t, rows, n, iw);
	int fixed = 1 + W_RATE + 1 + W_TOTAL + 2 * (1 + W_LAT) +
		    (show_cl(t) ? (int)kp_top_nr_clusters(t) * (1 + W_CL) : 0);

	if (cols && nw + fixed > (int)cols)
		nw = (int)cols - fixed > MIN_NAME_W ? (int)cols - fixed :
		     MIN_NAME_W;
	put_line(t, nw, iw, NULL, emit, ctx);
	for (i = 0; i < n; i++) {
		put_line(t, nw, iw, &rows[i], emit, ctx);
		for (j = 0; t->o.keys && j < rows[i].nsub && j < t->o.nkeys; j++)
			put_line(t, nw, iw, &rows[i].sub[j], emit, ctx);
	}
	if (!n)
		emit(ctx, "(no probes: add one, e.g. 'kprofctl add kretprobe:FUNC --start')");
}

void kp_top_table(struct kp_top *t, void (*emit)(void *ctx, const char *line),
		  void *ctx)
{
	table(t, 0, emit, ctx);
}

static void emit_file(void *ctx, const char *line)
{
	fprintf(ctx, "%s\n", line);
}

void kp_top_print(struct kp_top *t, FILE *f)
{
	char iv[32];

	kp_fmt_ns(t->dt_ns, iv, sizeof(iv));
	fprintf(f, "probes: %u  interval: %s  sort: %s\n", t->nrows, iv,
		kp_top_sort_name(t->o.sort));
	kp_top_table(t, emit_file, f);
	fprintf(f, "\n");
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_row(const struct kp_top *t, struct kp_jw *w,
		     const struct kp_top_row *r)
{
	unsigned int i;

	kp_jw_name(w, "rate");
	if (r->has_rate)
		kp_jw_printf(w, "%.3f", r->rate);
	else
		kp_jw_null(w);
	kp_jw_name(w, "count");
	if (r->has_rate)
		kp_jw_u64(w, r->count);
	else
		kp_jw_null(w);
	kp_jw_u64_field(w, "total", r->total);
	if (r->has_lat) {
		kp_jw_u64_field(w, "p99_ns", r->p99);
		kp_jw_u64_field(w, "mean_ns", r->mean);
	}
	if (!kp_top_nr_clusters(t) || !r->has_rate)
		return;
	kp_jw_name(w, "clusters");
	kp_jw_start_array(w);
	for (i = 0; i < kp_top_nr_clusters(t); i++) {
		kp_jw_start_object(w);
		kp_jw_string_field(w, "cluster", t->o.topo->cl[i].name);
		kp_jw_name(w, "rate");
		kp_jw_printf(w, "%.3f", r->cl_rate[i]);
		kp_jw_u64_field(w, "count", r->cl_count[i]);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
}

void kp_top_json(struct kp_top *t, FILE *f)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;
	struct kp_jw w;

	kp_jw_init(&w, f);
	kp_jw_start_object(&w);
	kp_jw_u64_field(&w, "t_ns", t->t_ns);
	kp_jw_u64_field(&w, "interval_ns", t->dt_ns);
	kp_jw_string_field(&w, "sort", kp_top_sort_name(t->o.sort));
	kp_jw_name(&w, "probes");
	kp_jw_start_array(&w);
	for (i = 0; i < n; i++) {
		const char *spec = strchr(rows[i].name, ' ');

		kp_jw_start_object(&w);
		kp_jw_u64_field(&w, "id", rows[i].id);
		kp_jw_string_field(&w, "spec", spec ? spec + 1 : rows[i].name);
		kp_jw_string_field(&w, "type", kp_type_name(rows[i].type));
		json_row(t, &w, &rows[i]);
		if (rows[i].nsub) {
			kp_jw_name(&w, kp_is_set(rows[i].type) ? "functions" :
				   "keys");
			kp_jw_start_array(&w);
			for (j = 0; j < rows[i].nsub && j < t->o.nkeys; j++) {
				kp_jw_start_object(&w);
				kp_jw_string_field(&w, "name",
						   rows[i].sub[j].name);
				json_row(t, &w, &rows[i].sub[j]);
				kp_jw_end_object(&w);
			}
			kp_jw_end_array(&w);
		}
		kp_jw_end_object(&w);
	}
	kp_jw_end_array(&w);
	kp_jw_end_object(&w);
	fputc('\n', f);
}

/* ---- the screen ------------------------------------------------------------ */

static const char *const help[] = {
	"Keys:",
	"  s  sort by the next key: rate, total, p99, name",
	"  c  cluster columns on or off",
	"  k  keys and functions under their probe on or off",
	"  p  pause (space too): the screen stays, the rates wait",
	"  ?  this help, and back to the table",
	"  q  quit (Ctrl-C too)",
};

/* the screen's lines: emit the first max of them, count the others */
struct fit {
	void (*emit)(void *ctx, const char *line);
	void *ctx;
	unsigned int max, n;
};

static void emit_fit(void *ctx, const char *line)
{
	struct fit *x = ctx;

	if (x->n++ < x->max)
		x->emit(x->ctx, line);
}

static void emit_count(void *ctx, const char *line)
{
	(void)line;
	(*(unsigned int *)ctx)++;
}

void kp_top_screen(struct kp_top *t, const struct kp_top_view *v,
		   void (*emit)(void *ctx, const char *line), void *ctx)
{
	static const char *const hints[] = {
		"   q quit  p pause  s sort  c clusters  k keys  ? help",
		"   ? help",
	};
	struct fit x = { emit, ctx, 0, 0 };
	char head[320], when[64], iv[32], more[80];
	unsigned int lines = 0, i, room = v->rows > 2 ? v->rows - 2 : 1;
	int n;

	if (t->dt_ns)
		kp_fmt_ns(t->dt_ns, iv, sizeof(iv));
	else
		snprintf(iv, sizeof(iv), "-");
	/* a replay's time is within the recording: the wall clock is not it */
	if (t->o.replay_ns)
		snprintf(when, sizeof(when), "at %.3f s of %.3f s", t->t_ns / 1e9,
			 t->o.replay_ns / 1e9);
	else
		snprintf(when, sizeof(when), "%s", v->now ? v->now : "");
	n = snprintf(head, sizeof(head), "kprofctl top  %s  probes: %u  "
		     "interval: %s  sort: %s%s%s", when, t->nrows, iv,
		     kp_top_sort_name(t->o.sort), v->paused ? "  PAUSED" : "",
		     v->ended ? "  END" : "");
	/* the keys' hints as they fit; '?' lists them all */
	for (i = 0; i < 2 && n > 0 && (size_t)n < sizeof(head); i++)
		if (!v->cols || n + strlen(hints[i]) <= v->cols) {
			snprintf(head + n, sizeof(head) - (size_t)n, "%s", hints[i]);
			break;
		}
	emit(ctx, head);
	emit(ctx, "");
	if (t->help) {
		for (i = 0; i < sizeof(help) / sizeof(help[0]) && i < room; i++)
			emit(ctx, help[i]);
		return;
	}
	table(t, v->cols, emit_count, &lines);
	/* what does not fit is counted on the last line, not hidden */
	x.max = lines > room ? room - 1 : room;
	table(t, v->cols, emit_fit, &x);
	if (lines > room) {
		snprintf(more, sizeof(more), "+%u more (a taller terminal, or k "
			 "hides the keys)", lines - x.max);
		emit(ctx, more);
	}
}
