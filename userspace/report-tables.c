// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl report's tables and text: the summary of every probe, the
 * percentiles per cluster, a set's functions or a probe's keys, the diff;
 * and the escaper every string of the page goes through.
 */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "agg.h"
#include "markup.h"
#include "report.h"
#include "units.h"

/*
 * Length of a kernel address at s ("ffff" and 12 more hex digits, with or
 * without "0x", not part of a longer word), or 0.  Captures hold names,
 * but labels are user text: a pasted address must not reach the page.
 */
static size_t kaddr_len(const char *s)
{
	size_t p = 0, i;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		p = 2;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)s[p + i]) ||
		    (i < 4 && tolower((unsigned char)s[p + i]) != 'f'))
			return 0;
	if (isalnum((unsigned char)s[p + 16]) || s[p + 16] == '_')
		return 0;
	return p + 16;
}

/*
 * Addresses hidden first, every other byte escaped by markup.c as HTML
 * text that keeps newlines and tabs (an embedded SVG keeps its lines).
 * An address is looked for only where a word starts.
 */
void kp_rep_esc(FILE *f, const char *str)
{
	const char *s = str ? str : "";
	size_t i, from = 0, l;

	for (i = 0; s[i]; i++) {
		if (i && (isalnum((unsigned char)s[i - 1]) || s[i - 1] == '_'))
			continue;
		l = kaddr_len(s + i);
		if (!l)
			continue;
		kp_esc(f, s + from, i - from, KP_ESC_HTML | KP_ESC_KEEP_WS);
		fputs("[address hidden]", f);
		from = i + l;
		i = from - 1;
	}
	kp_esc(f, s + from, i - from, KP_ESC_HTML | KP_ESC_KEEP_WS);
}

static void ns(FILE *f, uint64_t v)
{
	char b[32];

	kp_fmt_ns(v, b, sizeof(b));
	fputs(b, f);
}

/* a change's class: "worse" (slower), "better", or none */
static const char *dir_class(int direction, int close)
{
	if (direction > 0)
		return close ? "worse\"" : "worse";
	if (direction < 0)
		return close ? "better\"" : "better";
	return close ? "\"" : "";
}

/*
 * <tag> of a change: a significant one has class "sig" and its colour,
 * "worse" or "better"; noise has none
 */
static void change_tag(FILE *f, const char *tag, int significant, int direction)
{
	fprintf(f, "<%s", tag);
	if (significant)
		fprintf(f, " class=\"sig%s%s", direction ? " " : "",
			dir_class(direction, 1));
	fputc('>', f);
}

void kp_rep_td_ns(FILE *f, const char *q, uint64_t v)
{
	fprintf(f, "<td data-q=\"%s\" data-ns=\"%" PRIu64 "\">", q, v);
	ns(f, v);
	fputs("</td>", f);
}

void kp_rep_pct_table(FILE *f, const struct kp_rep_probe *p, unsigned int pi)
{
	unsigned int c, i;

	fprintf(f, "<table class=\"pct\" data-probe=\"%u\">\n<thead><tr>"
		"<th>cluster</th><th>%s</th>", pi, p->latency ? "calls" : "count");
	if (p->latency) {
		fputs("<th>min</th><th>mean</th>", f);
		for (i = 0; i < KP_NR_PCTS; i++)
			fprintf(f, "<th>%s</th>", kp_pcts[i].name);
		fputs("<th>max</th>", f);
	}
	fputs("</tr></thead>\n<tbody>\n", f);
	for (c = 0; c < p->nh; c++) {
		const struct kp_agg *a = p->h[c].agg;

		fprintf(f, "<tr data-cluster=\"%u\"><th>", c);
		kp_rep_esc(f, p->h[c].label);
		fprintf(f, "</th><td data-q=\"count\" data-v=\"%" PRIu64 "\">%"
			PRIu64 "</td>", a->count, a->count);
		if (p->latency && !a->count) {
			for (i = 0; i < 3 + KP_NR_PCTS; i++)
				fputs("<td>-</td>", f);
		} else if (p->latency) {
			kp_rep_td_ns(f, "min", a->min);
			kp_rep_td_ns(f, "mean", a->sum / a->count);
			for (i = 0; i < KP_NR_PCTS; i++)
				kp_rep_td_ns(f, kp_pcts[i].name,
				      kp_pct_value(a, i));
			kp_rep_td_ns(f, "max", a->max);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* the diff's p99 row: the summary's change */
static const struct kp_rep_diffrow *p99_row(const struct kp_rep_probe *p)
{
	unsigned int i;

	for (i = 0; i < p->ndiff; i++)
		if (!strcmp(p->diff[i].metric, "p99"))
			return &p->diff[i];
	return NULL;
}

void kp_rep_summary(FILE *f, const struct kp_rep *r)
{
	unsigned int i, diffs = 0;

	for (i = 0; i < r->n; i++)
		diffs += !!r->p[i].ndiff;
	fprintf(f, "<table class=\"summary\" data-rows=\"%u\">\n<thead><tr>"
		"<th>probe</th><th>calls</th><th>p50</th><th>p99</th>%s</tr>"
		"</thead>\n<tbody>\n", r->n, diffs ? "<th>p99 change</th>" : "");
	for (i = 0; i < r->n; i++) {
		const struct kp_rep_probe *p = &r->p[i];
		const struct kp_agg *a = p->nh ? p->h[0].agg : NULL;
		const struct kp_rep_diffrow *d = p99_row(p);
		uint64_t calls = a ? a->count : p->rows_count;

		fprintf(f, "<tr data-id=\"%u\"><td><a href=\"#probe-%u\">", p->id,
			p->id);
		kp_rep_esc(f, p->title);
		fprintf(f, "</a></td><td data-q=\"count\" data-v=\"%" PRIu64 "\">%"
			PRIu64 "</td>", calls, calls);
		if (a && p->latency && a->count) {
			kp_rep_td_ns(f, "p50", kp_quantile(a, 50, 100));
			kp_rep_td_ns(f, "p99", kp_quantile(a, 99, 100));
		} else {
			/* hits only, or a set: its functions have them */
			fputs("<td>-</td><td>-</td>", f);
		}
		if (diffs && d) {
			fprintf(f, "<td class=\"%s>", dir_class(d->significant ?
								d->direction : 0, 1));
			kp_rep_esc(f, d->change);
			fputs("</td>", f);
		} else if (diffs) {
			fputs("<td>-</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void kp_rep_rows(FILE *f, const struct kp_rep_probe *p, unsigned int pi)
{
	unsigned int i;
	int change = 0;

	for (i = 0; i < p->nrows; i++)
		change |= p->rows[i].change != NULL;

	fputs("<h3>", f);
	kp_rep_esc(f, p->rows_title ? p->rows_title : "Keys");
	fprintf(f, "</h3>\n<table class=\"rows\" data-probe=\"%u\" "
		"data-rows=\"%u\">\n<thead><tr><th data-sort=\"name\">name</th>"
		"<th data-sort=\"count\">%s</th>", pi, p->nrows,
		p->latency ? "calls" : "count");
	if (p->latency)
		fputs("<th data-sort=\"total\">total</th><th data-sort=\"mean\">"
		      "mean</th><th>p50</th><th data-sort=\"p99\">p99</th>"
		      "<th>max</th>", f);
	if (change)
		fprintf(f, "<th>%s change</th>", p->latency ? "p99" : "count");
	fputs("</tr></thead>\n<tbody>\n", f);
	for (i = 0; i < p->nrows; i++) {
		const struct kp_rep_row *w = &p->rows[i];

		fputs("<tr class=\"row\"><th>", f);
		kp_rep_esc(f, w->label);
		fprintf(f, "</th><td data-q=\"count\" data-v=\"%" PRIu64 "\">%"
			PRIu64 "</td>", w->count, w->count);
		if (p->latency && w->count) {
			kp_rep_td_ns(f, "total", w->sum);
			kp_rep_td_ns(f, "mean", w->sum / w->count);
			kp_rep_td_ns(f, "p50", w->p50);
			kp_rep_td_ns(f, "p99", w->p99);
			kp_rep_td_ns(f, "max", w->max);
		} else if (p->latency) {
			fputs("<td>-</td><td>-</td><td>-</td><td data-q=\"p99\">-"
			      "</td><td>-</td>", f);
		}
		if (change) {
			change_tag(f, "td", w->significant, w->direction);
			kp_rep_esc(f, w->change ? w->change : "-");
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void kp_rep_diff_table(FILE *f, const struct kp_rep_probe *p, unsigned int pi)
{
	unsigned int i, sig = 0;

	for (i = 0; i < p->ndiff; i++)
		sig += !!p->diff[i].significant;
	fputs("<h3>Change against ", f);
	kp_rep_esc(f, p->diff_against ? p->diff_against : "the other capture");
	fprintf(f, "</h3>\n<table class=\"diff\" data-probe=\"%u\" data-rows=\"%u\" "
		"data-significant=\"%u\">\n<thead><tr><th>metric</th><th>before"
		"</th><th>after</th><th>change</th><th>significant</th></tr>"
		"</thead>\n<tbody>\n", pi, p->ndiff, sig);
	for (i = 0; i < p->ndiff; i++) {
		const struct kp_rep_diffrow *d = &p->diff[i];

		change_tag(f, "tr", d->significant, d->direction);
		fputs("<td>", f);
		kp_rep_esc(f, d->metric);
		fputs("</td><td>", f);
		kp_rep_esc(f, d->before);
		fputs("</td><td>", f);
		kp_rep_esc(f, d->after);
		fputs("</td><td>", f);
		kp_rep_esc(f, d->change);
		fprintf(f, "</td><td>%s</td></tr>\n", d->significant ? "yes" : "");
	}
	fputs("</tbody></table>\n", f);
}
