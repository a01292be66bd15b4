// SPDX-License-Identifier: GPL-2.0
/* kprofctl top's table (text, no control codes) and its JSON line. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
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

static void json_row(const struct kp_top *t, FILE *f,
		     const struct kp_top_row *r)
{
	unsigned int i;

	if (r->has_rate)
		fprintf(f, "\"rate\":%.3f,\"count\":%" PRIu64 ",", r->rate,
			r->count);
	else
		fprintf(f, "\"rate\":null,\"count\":null,");
	fprintf(f, "\"total\":%" PRIu64, r->total);
	if (r->has_lat)
		fprintf(f, ",\"p99_ns\":%" PRIu64 ",\"mean_ns\":%" PRIu64,
			r->p99, r->mean);
	if (!kp_top_nr_clusters(t) || !r->has_rate)
		return;
	fprintf(f, ",\"clusters\":[");
	for (i = 0; i < kp_top_nr_clusters(t); i++) {
		fprintf(f, "%s{\"name\":", i ? "," : "");
		kp_json_str(f, t->o.topo->cl[i].name);
		fprintf(f, ",\"rate\":%.3f,\"count\":%" PRIu64 "}",
			r->cl_rate[i], r->cl_count[i]);
	}
	fprintf(f, "]");
}

void kp_top_json(struct kp_top *t, FILE *f)
{
	const struct kp_top_row *rows;
	unsigned int n = kp_top_rows(t, &rows), i, j;

	fprintf(f, "{\"t_ns\":%" PRIu64 ",\"interval_ns\":%" PRIu64
		",\"sort\":\"%s\",\"probes\":[", t->t_ns, t->dt_ns,
		kp_top_sort_name(t->o.sort));
	for (i = 0; i < n; i++) {
		const char *spec = strchr(rows[i].name, ' ');

		fprintf(f, "%s{\"id\":%u,\"spec\":", i ? "," : "", rows[i].id);
		kp_json_str(f, spec ? spec + 1 : rows[i].name);
		fprintf(f, ",\"type\":\"%s\",", kp_type_name(rows[i].type));
		json_row(t, f, &rows[i]);
		if (rows[i].nsub) {
			fprintf(f, ",\"%s\":[", kp_is_set(rows[i].type) ?
				"functions" : "keys");
			for (j = 0; j < rows[i].nsub && j < t->o.nkeys; j++) {
				fprintf(f, "%s{\"name\":", j ? "," : "");
				kp_json_str(f, rows[i].sub[j].name);
				fprintf(f, ",");
				json_row(t, f, &rows[i].sub[j]);
				fprintf(f, "}");
			}
			fprintf(f, "]");
		}
		fprintf(f, "}");
	}
	fprintf(f, "]}\n");
}
