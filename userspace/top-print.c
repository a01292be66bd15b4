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

/* the NAME column's width: the longest name shown, within limits */
static int name_width(const struct kp_top *t, const struct kp_top_row *rows,
		      unsigned int n)
{
	unsigned int i, j;
	int w = 4;

	for (i = 0; i < n; i++) {
		if ((int)strlen(rows[i].name) > w)
			w = (int)strlen(rows[i].name);
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

static void line_row(const struct kp_top *t, FILE *f, int nw,
		     const struct kp_top_row *r)
{
	char name[sizeof(r->name) + 2], rate[32], p99[32], mean[32], cl[32];
	unsigned int i;

	snprintf(name, sizeof(name), "%s%s", r->depth ? "  " : "", r->name);
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
static void put_line(const struct kp_top *t, int nw, const struct kp_top_row *r,
		     void (*emit)(void *ctx, const char *line), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	if (r)
		line_row(t, f, nw, r);
	else
		line_header(t, f, nw);
	fclose(f);
	emit(ctx, buf);
	free(buf);
}

/* the table's lines, each without its newline, through emit */
void kp_top_table(struct kp_top *t, void (*emit)(void *ctx, const char *line),
		  void *ctx)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;
	int nw = name_width(t, rows, n);

	put_line(t, nw, NULL, emit, ctx);
	for (i = 0; i < n; i++) {
		put_line(t, nw, &rows[i], emit, ctx);
		for (j = 0; t->o.keys && j < rows[i].nsub && j < t->o.nkeys; j++)
			put_line(t, nw, &rows[i].sub[j], emit, ctx);
	}
	if (!n)
		emit(ctx, "(no probes: add one, e.g. 'kprofctl add kretprobe:FUNC --start')");
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
