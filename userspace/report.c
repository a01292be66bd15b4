// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl report's page: plain HTML with inline SVG charts, a small
 * stylesheet and a script that only adds niceties (a readout of the
 * hovered bar or cell); every figure reads the same with JavaScript off.
 * A Content-Security-Policy forbids the page any request, so a mistake
 * here shows as a console error, never as a fetch.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"
#include "flame-svg.h"
#include "report.h"
#include "units.h"
#include "include/kprofctl/hist.h"

/* chart geometry (px) */
#define HIST_W		720.0
#define HIST_H		160.0
#define HEAT_W		800.0	/* plot width for many intervals */
#define HEAT_CW_MAX	64.0	/* a column at most */
#define HEAT_H		320.0	/* plot height for many rows */
#define PAD_L		72.0	/* y labels */
#define PAD_T		12.0
#define PAD_B		36.0	/* x labels and axis name */
#define PAD_R		24.0
#define LEGEND_N	6

/* ---- text ----------------------------------------------------------------- */

static void ns(FILE *f, uint64_t v)
{
	char b[32];

	kp_fmt_ns(v, b, sizeof(b));
	fputs(b, f);
}

/* "[1.024us, 1.088us)"; the overflow bucket has no upper bound */
static void range(FILE *f, uint64_t lo, uint64_t hi)
{
	fputc('[', f);
	ns(f, lo);
	fputs(", ", f);
	if (hi == UINT64_MAX)
		fputs("&#8734;", f);
	else
		ns(f, hi);
	fputc(')', f);
}

/* ---- page ----------------------------------------------------------------- */

static const char style[] =
"body { font: 14px/1.4 system-ui, -apple-system, 'Segoe UI', sans-serif;\n"
"  margin: 1em 2em; color: #222; background: #fff; }\n"
"h1 { font-size: 1.5em; margin: .3em 0; }\n"
"h2 { font-size: 1.2em; border-bottom: 1px solid #bbb; margin-top: 2em; }\n"
"h3 { font-size: 1em; margin: 1.2em 0 .3em; }\n"
"table { border-collapse: collapse; margin: .4em 0; }\n"
"th, td { border: 1px solid #ccc; padding: 2px 8px; text-align: right;\n"
"  font-variant-numeric: tabular-nums; }\n"
"th { background: #f2f2f2; }\n"
"tbody th, thead th:first-child, table.ctx td, table.diff td:first-child {\n"
"  text-align: left; }\n"
"tr.sig td { font-weight: bold; }\n"
"tr.worse td, td.worse { background: #fde0dd; color: #8b1a10; }\n"
"tr.better td, td.better { background: #dff3e0; color: #1b5e20; }\n"
"th[data-sort] { cursor: pointer; }\n"
"figure { margin: .6em 0 1.2em; break-inside: avoid; }\n"
"figcaption { font-size: .9em; color: #444; }\n"
"svg.chart { display: block; max-width: 100%; height: auto; }\n"
"svg.chart text { font: 11px sans-serif; fill: #333; }\n"
"svg.chart .axis { stroke: #888; stroke-width: 1; fill: none; }\n"
"svg.chart .plot { fill: #fafafa; stroke: #ddd; }\n"
"svg.chart .bar { fill: #3f6fa8; }\n"
"svg.chart .bar:hover, svg.chart .cell:hover { stroke: #000; stroke-width: 1; }\n"
"iframe { border: 1px solid #ccc; max-width: 100%; display: block; }\n"
".readout { min-height: 1.4em; margin: 0; font: 12px monospace; color: #333; }\n"
".none { color: #666; font-style: italic; }\n"
"nav ul { margin: .3em 0; }\n"
"@media print {\n"
"  body { margin: 0; font-size: 11px; }\n"
"  nav, .readout { display: none; }\n"
"  section.probe { break-before: page; }\n"
"  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }\n"
"}\n";

/* niceties only: the page is complete without them */
static const char script[] =
"'use strict';\n"
"(function () {\n"
"function readout(fig) {\n"
"  var out = fig.querySelector('.readout');\n"
"  if (!out) return;\n"
"  fig.addEventListener('mouseover', function (e) {\n"
"    var r = e.target, t;\n"
"    if (!r || r.tagName !== 'rect') return;\n"
"    t = r.querySelector('title');\n"
"    if (t) out.textContent = t.textContent;\n"
"  });\n"
"}\n"
"/* each flame graph's own script ran: its frames carry their state */\n"
"function flames() {\n"
"  var fl = document.querySelectorAll('figure.flame'), i, d, g, k, n;\n"
"  for (i = 0; i < fl.length; i++) {\n"
"    d = null;\n"
"    try { d = fl[i].querySelector('iframe').contentDocument; } catch (e) { }\n"
"    if (!d) continue;\n"
"    g = d.querySelectorAll('g.f');\n"
"    for (n = 0, k = 0; k < g.length; k++) if (g[k].kpf) n++;\n"
"    fl[i].setAttribute('data-frames-live', n);\n"
"  }\n"
"}\n"
"/* a click on a rows table's heading sorts by it, largest first */\n"
"function sortable(t) {\n"
"  t.addEventListener('click', function (e) {\n"
"    var th = e.target.closest('th[data-sort]'), col, rows, b;\n"
"    if (!th) return;\n"
"    col = th.cellIndex;\n"
"    b = t.tBodies[0];\n"
"    rows = Array.prototype.slice.call(b.rows);\n"
"    rows.sort(function (x, y) {\n"
"      var p = x.cells[col], q = y.cells[col], u, v;\n"
"      if (th.getAttribute('data-sort') === 'name')\n"
"        return p.textContent.localeCompare(q.textContent);\n"
"      u = +(p.getAttribute('data-ns') || p.getAttribute('data-v') || -1);\n"
"      v = +(q.getAttribute('data-ns') || q.getAttribute('data-v') || -1);\n"
"      return v - u;\n"
"    });\n"
"    rows.forEach(function (r) { b.appendChild(r); });\n"
"  });\n"
"}\n"
"var figs = document.querySelectorAll('figure.hist, figure.heatmap'), i;\n"
"var tabs = document.querySelectorAll('table.rows');\n"
"for (i = 0; i < tabs.length; i++) sortable(tabs[i]);\n"
"for (i = 0; i < figs.length; i++) readout(figs[i]);\n"
"window.addEventListener('load', function () {\n"
"  flames();\n"
"  document.body.setAttribute('data-js', 'ok');\n"
"});\n"
"})();\n";

/* ---- histogram ------------------------------------------------------------- */

/*
 * The buckets every cluster's histogram of p spans, so that A55 and A76
 * are read on one axis; at least HIST_MIN_BUCKETS of them, so that a
 * bucket alone is a bar and not the plot's width.  0: no calls at all.
 */
#define HIST_MIN_BUCKETS	16

static int hist_axis(const struct kp_rep_probe *p, unsigned int *x0,
		     unsigned int *x1)
{
	struct kprof_hist_iter it;
	unsigned int c, lo = KPROF_HIST_OVERFLOW, hi = 0, pad;

	for (c = 0; c < p->nh; c++)
		kprof_hist_for_each(&it, p->h[c].agg->hist) {
			lo = it.idx < lo ? it.idx : lo;
			hi = it.idx > hi ? it.idx : hi;
		}
	if (lo > hi)
		return 0;
	if (hi - lo + 1 < HIST_MIN_BUCKETS) {
		pad = (HIST_MIN_BUCKETS - (hi - lo + 1)) / 2;
		lo = lo > pad ? lo - pad : 0;
		hi = lo + HIST_MIN_BUCKETS - 1;
		if (hi > KPROF_HIST_OVERFLOW) {
			hi = KPROF_HIST_OVERFLOW;
			lo = hi - (HIST_MIN_BUCKETS - 1);
		}
	}
	*x0 = lo;
	*x1 = hi;
	return 1;
}

static void hist_figure(FILE *f, const struct kp_rep_probe *p, unsigned int pi,
			unsigned int ci, unsigned int x0, unsigned int x1)
{
	const struct kp_agg *a = p->h[ci].agg;
	struct kprof_hist_iter it;
	unsigned int first = 0, last = 0, nbars = 0, step, idx;
	uint64_t peak = 0;
	double bw, w = PAD_L + HIST_W + PAD_R, h = PAD_T + HIST_H + PAD_B;

	kprof_hist_for_each(&it, a->hist) {
		if (!nbars++)
			first = it.idx;
		last = it.idx;
		if (it.count > peak)
			peak = it.count;
	}
	fprintf(f, "<figure class=\"hist\" data-probe=\"%u\" data-cluster=\"%u\" "
		"data-bars=\"%u\" data-first=\"%u\" data-last=\"%u\" "
		"data-x0=\"%u\" data-x1=\"%u\" data-total=\"%" PRIu64 "\">\n"
		"<figcaption>", pi, ci, nbars, first, last, x0, x1, it.cum);
	kp_rep_esc(f, p->h[ci].label);
	fprintf(f, ": %" PRIu64 " calls", it.cum);
	if (!nbars) {
		fputs(" <span class=\"none\">(no calls)</span></figcaption>\n"
		      "</figure>\n", f);
		return;
	}
	fprintf(f, ", %u non-empty buckets (each 1/16 of a power of two), "
		"latency on a log scale</figcaption>\n", nbars);
	fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"latency "
		"histogram\">\n<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\"/>\n", w, h, w, h, PAD_L, PAD_T,
		HIST_W, HIST_H);
	/* the probe's axis, not this cluster's own range */
	first = x0;
	last = x1;
	bw = HIST_W / (last - first + 1);
	kprof_hist_for_each(&it, a->hist) {
		double bh = HIST_H * (double)it.count / (double)peak;

		if (bh < 1)
			bh = 1;
		fprintf(f, "<rect class=\"bar\" data-b=\"%u\" data-n=\"%" PRIu64
			"\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\">"
			"<title>", it.idx, it.count, PAD_L + (it.idx - first) * bw,
			PAD_T + HIST_H - bh, bw, bh);
		range(f, it.lower, it.upper);
		fprintf(f, " %" PRIu64 "</title></rect>\n", it.count);
	}
	/* y: 0 and the peak; x: bucket bounds, at most about 8 of them */
	fprintf(f, "<path class=\"axis\" d=\"M%.1f %.1fV%.1fH%.1f\"/>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">0</text>\n"
		"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%" PRIu64
		"</text>\n", PAD_L, PAD_T, PAD_T + HIST_H, PAD_L + HIST_W,
		PAD_L - 4, PAD_T + HIST_H, PAD_L - 4, PAD_T + 10, peak);
	for (step = 1; (last - first + 1) / step > 8; step *= 2)
		;
	for (idx = (first + step - 1) / step * step; idx <= last + 1;
	     idx += step) {
		double x = PAD_L + (idx - first) * bw;

		if (idx > KPROF_HIST_OVERFLOW)
			break;
		fprintf(f, "<path class=\"axis\" d=\"M%.2f %.1fv4\"/><text "
			"x=\"%.2f\" y=\"%.1f\" text-anchor=\"middle\">", x,
			PAD_T + HIST_H, x, PAD_T + HIST_H + 15);
		ns(f, kprof_hist_lower(idx));
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">"
		"latency (calls per bucket)</text>\n</svg>\n"
		"<p class=\"readout\"></p>\n</figure>\n", PAD_L + HIST_W / 2,
		h - 4);
}

/* ---- heatmap -------------------------------------------------------------- */

unsigned int kp_rep_merge(unsigned int first, unsigned int last,
			  unsigned int *rows)
{
	unsigned int k = 1;

	if (last < first) {
		*rows = 0;
		return 1;
	}
	while (k < 16 && last / k - first / k + 1 > KP_REP_MAX_ROWS)
		k *= 2;
	*rows = last / k - first / k + 1;
	return k;
}

/*
 * Colour of a count on a log scale from 1 (pale yellow) to max (dark
 * red), like Gregg's latency heatmaps: a rare slow call stays visible
 * next to thousands of fast ones.
 */
static void heat_colour(uint64_t c, uint64_t max, char *buf, size_t len)
{
	static const int stop[3][3] = {
		{ 255, 237, 160 }, { 253, 141, 60 }, { 128, 0, 38 },
	};
	double t = max > 1 ? log((double)c) / log((double)max) : 1, u;
	int s = t < 0.5 ? 0 : 1, rgb[3], i;

	u = t < 0.5 ? t * 2 : (t - 0.5) * 2;
	for (i = 0; i < 3; i++)
		rgb[i] = (int)lround(stop[s][i] + (stop[s + 1][i] - stop[s][i]) * u);
	snprintf(buf, len, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

/* a tick step for span ns: 1, 2 or 5 times a power of ten, 8 ticks or fewer */
static uint64_t time_step(uint64_t span)
{
	static const unsigned int m[] = { 1, 2, 5 };
	uint64_t p = 1;
	unsigned int i;

	for (;;) {
		for (i = 0; i < 3; i++)
			if (span / (p * m[i]) <= 8)
				return p * m[i];
		if (p > UINT64_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

static void heat_figure(FILE *f, const struct kp_rep_probe *p, unsigned int pi)
{
	const struct kp_rep_series *s = p->series;
	uint64_t maxc = 0, total = 0, cnt[KP_REP_MAX_ROWS], t, step, span;
	unsigned int first = KPROF_HIST_OVERFLOW, last = 0, i, r, rows, k, base;
	unsigned int cells = 0, empty = 0, lstep;
	struct kprof_hist_iter it;
	double cw, rh, pw, ph, w, h;
	char col[32];

	for (i = 0; i < s->n; i++) {
		kprof_hist_for_each(&it, s->iv[i].hist) {
			if (it.idx < first)
				first = it.idx;
			if (it.idx > last)
				last = it.idx;
		}
		total += it.cum;
		empty += !it.cum;
	}
	if (!total) {
		first = 1;	/* kp_rep_merge: no rows */
		last = 0;
	}
	k = kp_rep_merge(first, last, &rows);
	base = first / k;
	/* first pass: the cells and the largest count, for the scale */
	for (i = 0; i < s->n; i++) {
		memset(cnt, 0, sizeof(cnt));
		kprof_hist_for_each(&it, s->iv[i].hist)
			cnt[it.idx / k - base] += it.count;
		for (r = 0; r < rows; r++) {
			cells += !!cnt[r];
			if (cnt[r] > maxc)
				maxc = cnt[r];
		}
	}
	fprintf(f, "<figure class=\"heatmap\" data-probe=\"%u\" data-cells=\"%u\" "
		"data-intervals=\"%u\" data-empty=\"%u\" data-rows=\"%u\" "
		"data-merge=\"%u\" data-max=\"%" PRIu64 "\" data-total=\"%" PRIu64
		"\" data-dt-ns=\"%" PRIu64 "\">\n<figcaption>%u intervals of ",
		pi, cells, s->n, empty, rows, k, maxc, total, s->dt_ns, s->n);
	ns(f, s->dt_ns);
	fprintf(f, ", %" PRIu64 " calls", total);
	if (!total || !s->n || !s->dt_ns) {
		fputs(" <span class=\"none\">(no calls)</span></figcaption>\n"
		      "</figure>\n", f);
		return;
	}
	fprintf(f, "; %u latency rows of %u bucket%s each (1/16 of a power of two "
		"per bucket); colour: calls per cell on a log scale; blank: none"
		"</figcaption>\n", rows, k, k > 1 ? "s" : "");

	cw = HEAT_W / s->n;
	if (cw > HEAT_CW_MAX)
		cw = HEAT_CW_MAX;
	rh = HEAT_H / rows;
	if (rh > 16)
		rh = 16;
	if (rh < 4)
		rh = 4;
	pw = cw * s->n;
	ph = rh * rows;
	w = PAD_L + (pw < 300 ? 300 : pw) + PAD_R + 150;	/* legend */
	h = PAD_T + (ph < LEGEND_N * 14 + 20 ? LEGEND_N * 14 + 20 : ph) + PAD_B;
	fprintf(f, "<svg class=\"chart\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-label=\"latency "
		"heatmap\">\n<rect class=\"plot\" x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.2f\" height=\"%.2f\"/>\n", w, h, w, h, PAD_L, PAD_T, pw,
		ph);
	for (i = 0; i < s->n; i++) {
		memset(cnt, 0, sizeof(cnt));
		kprof_hist_for_each(&it, s->iv[i].hist)
			cnt[it.idx / k - base] += it.count;
		for (r = 0; r < rows; r++) {
			unsigned int lo = (base + r) * k, hi = lo + k - 1;

			if (!cnt[r])
				continue;
			heat_colour(cnt[r], maxc, col, sizeof(col));
			fprintf(f, "<rect class=\"cell\" data-i=\"%u\" data-r=\"%u\" "
				"data-n=\"%" PRIu64 "\" x=\"%.2f\" y=\"%.2f\" "
				"width=\"%.2f\" height=\"%.2f\" fill=\"%s\"><title>",
				i, r, cnt[r], PAD_L + i * cw,
				PAD_T + (rows - 1 - r) * rh, cw, rh, col);
			fputs("time ", f);
			range(f, i * s->dt_ns, (i + 1) * s->dt_ns);
			fputs(" latency ", f);
			range(f, kprof_hist_lower(lo), hi >= KPROF_HIST_OVERFLOW ?
			      UINT64_MAX : kprof_hist_upper(hi));
			fprintf(f, ": %" PRIu64 " calls</title></rect>\n", cnt[r]);
		}
	}
	/* x: time since the series began */
	span = s->dt_ns * s->n;
	step = time_step(span);
	fprintf(f, "<path class=\"axis\" d=\"M%.1f %.1fV%.2fH%.2f\"/>\n", PAD_L,
		PAD_T, PAD_T + ph, PAD_L + pw);
	for (t = 0; t <= span; t += step) {
		double x = PAD_L + (double)t / (double)s->dt_ns * cw;

		fprintf(f, "<path class=\"axis\" d=\"M%.2f %.2fv4\"/><text "
			"x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">", x,
			PAD_T + ph, x, PAD_T + ph + 15);
		if (t)
			ns(f, t);
		else
			fputc('0', f);
		fputs("</text>\n", f);
		if (t > UINT64_MAX - step)
			break;
	}
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">time "
		"since the series began</text>\n<text transform=\"rotate(-90)\" "
		"x=\"%.2f\" y=\"12\" text-anchor=\"middle\">latency</text>\n",
		PAD_L + pw / 2, PAD_T + ph + 30, -(PAD_T + ph / 2));
	/* y: a row's lower bound every few rows, and the top's upper bound */
	lstep = (rows + 7) / 8;
	for (r = 0; r < rows; r += lstep) {
		unsigned int idx = (base + r) * k;
		double y = PAD_T + (rows - r) * rh;

		if ((rows - r) * rh < 14)
			break;	/* the top's label is there */
		fprintf(f, "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">",
			PAD_L - 4, y + 4);
		ns(f, kprof_hist_lower(idx));
		fputs("</text>\n", f);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.2f\" text-anchor=\"end\">", PAD_L - 4,
		PAD_T + 4);
	r = (base + rows) * k - 1;
	if (r >= KPROF_HIST_OVERFLOW)
		fputs("&#8734;", f);
	else
		ns(f, kprof_hist_upper(r));
	fputs("</text>\n", f);
	/* legend: counts 1 .. max on the same log scale */
	{
		double lx = PAD_L + (pw < 300 ? 300 : pw) + PAD_R;
		uint64_t prev = 0;
		int j, y = 0;

		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">calls per cell (log)</text>\n",
			lx, PAD_T + 8);
		for (j = 0; j < LEGEND_N; j++) {
			uint64_t c = (uint64_t)llround(pow((double)maxc,
						(double)j / (LEGEND_N - 1)));

			if (c <= prev)
				continue;
			prev = c;
			y++;
			heat_colour(c, maxc, col, sizeof(col));
			fprintf(f, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"14\" height=\"12\" fill=\"%s\"/><text "
				"x=\"%.1f\" y=\"%.1f\">%" PRIu64 "</text>\n", lx,
				PAD_T + 2 + y * 14, col, lx + 20,
				PAD_T + 12 + y * 14, c);
		}
	}
	fputs("</svg>\n<p class=\"readout\"></p>\n</figure>\n", f);
}

/* ---- diff, flame graphs --------------------------------------------------- */

/* an attribute of the SVG's root element, as a number (0: none) */
static unsigned long svg_attr(const char *svg, const char *name)
{
	const char *end = strchr(svg, '>'), *p = svg;
	size_t l = strlen(name);

	while ((p = strstr(p, name)) && (!end || p < end)) {
		if (p > svg && p[-1] == ' ' && p[l] == '=' && p[l + 1] == '"')
			return strtoul(p + l + 2, NULL, 10);
		p += l;
	}
	return 0;
}

static unsigned int count_of(const char *s, const char *what)
{
	unsigned int n = 0;

	while ((s = strstr(s, what))) {
		n++;
		s += strlen(what);
	}
	return n;
}

/*
 * An SVG of kp_flame_svg() as its own document in an iframe's srcdoc: its
 * ids and script stay apart from the page's and from the other graphs',
 * zoom and search keep working, and it loads nothing.
 */
static void flame_figure(FILE *f, const struct kp_rep_probe *p,
			 unsigned int pi, unsigned int j)
{
	const char *svg = p->flame_svg[j], *root = strstr(svg, "<svg");
	const char *label = p->flame_label ? p->flame_label[j] : NULL;
	unsigned long w, h;

	if (!root)
		root = svg;
	w = svg_attr(root, "width");
	h = svg_attr(root, "height");
	fprintf(f, "<figure class=\"flame\" data-probe=\"%u\" data-flame=\"%u\" "
		"data-frames=\"%u\">\n<figcaption>", pi, j,
		count_of(root, "<g class=\"f\""));
	if (label)
		kp_rep_esc(f, label);
	else
		fprintf(f, "flame graph %u", j + 1);
	fputs(" (click a frame to zoom, Search for a regular expression)"
	      "</figcaption>\n<iframe title=\"", f);
	kp_rep_esc(f, label ? label : "flame graph");
	fprintf(f, "\" width=\"%lu\" height=\"%lu\" srcdoc=\"", w ? w + 2 : 1202,
		h ? h + 2 : 602);
	kp_rep_esc(f, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		   "<style>html, body { margin: 0; background: #fff; }</style>"
		   "</head><body>\n");
	kp_rep_esc(f, root);
	kp_rep_esc(f, "</body></html>\n");
	fputs("\"></iframe>\n</figure>\n", f);
}

/* ---- the page ------------------------------------------------------------- */

static void probe_section(FILE *f, const struct kp_rep_probe *p, unsigned int pi)
{
	unsigned int c, j, x0 = 0, x1 = 0;

	/* the anchor is the probe's id, as its title and the summary say */
	fprintf(f, "<section class=\"probe\" id=\"probe-%u\" data-probe=\"%u\" "
		"data-latency=\"%d\">\n<h2>", p->id, pi, !!p->latency);
	kp_rep_esc(f, p->title);
	fputs("</h2>\n", f);
	if (p->nh) {
		fputs("<h3>", f);
		kp_rep_esc(f, p->latency ? "Latency percentiles" :
			   p->counts ? p->counts : "Counts");
		fputs("</h3>\n", f);
		kp_rep_pct_table(f, p, pi);
	}
	if (p->nrows)
		kp_rep_rows(f, p, pi);
	if (p->latency && p->nh) {
		fputs("<h3>Latency histograms</h3>\n", f);
		hist_axis(p, &x0, &x1);
		for (c = 0; c < p->nh; c++)
			hist_figure(f, p, pi, c, x0, x1);
	}
	if (p->latency && p->series) {
		fputs("<h3>Latency over time</h3>\n", f);
		heat_figure(f, p, pi);
	}
	if (p->ndiff)
		kp_rep_diff_table(f, p, pi);
	if (p->nflame) {
		fputs("<h3>Flame graphs</h3>\n", f);
		for (j = 0; j < p->nflame; j++)
			flame_figure(f, p, pi, j);
	}
	fputs("</section>\n", f);
}

int kp_report_html(FILE *f, const struct kp_rep *r)
{
	const char *title = r->title ? r->title : "kprofctl report";
	unsigned int i;

	/* no request of any kind; inline style and script only */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
	      "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
	      "img-src data:\">\n<meta name=\"viewport\" content=\"width=device-"
	      "width, initial-scale=1\">\n<meta name=\"generator\" content=\""
	      "kprofctl\">\n<title>", f);
	kp_rep_esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<header>\n<h1>",
		style);
	kp_rep_esc(f, title);
	fputs("</h1>\n", f);
	if (r->nctx) {
		fputs("<table class=\"ctx\">\n<tbody>\n", f);
		for (i = 0; i < r->nctx; i++) {
			fputs("<tr><th>", f);
			kp_rep_esc(f, r->ctx_key[i]);
			fputs("</th><td>", f);
			kp_rep_esc(f, r->ctx_val[i]);
			fputs("</td></tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
	fputs("</header>\n", f);
	/* every probe at a glance, each linking its section */
	if (r->n)
		kp_rep_summary(f, r);
	if (!r->n)
		fputs("<p class=\"none\">No probes in this capture.</p>\n", f);
	for (i = 0; i < r->n; i++)
		probe_section(f, &r->p[i], i);
	fprintf(f, "<footer><p>Made by kprofctl report; this page loads "
		"nothing. Its tables and charts need no JavaScript; the flame "
		"graphs' zoom and search do.</p></footer>\n<script>\n%s</script>\n"
		"</body>\n</html>\n", script);
	return ferror(f) ? -1 : 0;
}
