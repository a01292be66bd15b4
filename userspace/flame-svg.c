// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph's tree (flame.c) into one SVG with its own style and
 * script (no external resource): colours, frames, text fitted to them.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "flame-svg.h"
#include "markup.h"

#define XPAD		10	/* left and right margins */
#define GAP		10	/* between columns */
#define CHAR_W		7.0	/* mean glyph width of 12px Verdana, for truncation */
#define MIN_COL_W	50

void kp_flame_color(const char *name, char *buf, size_t len)
{
	size_t l = strlen(name);
	uint64_t h = kp_flame_hash(name, l);
	unsigned int r, gr, b;

	if (l >= 2 && name[0] == '[' && name[l - 1] == ']') {
		/* [user], [unknown]...: greys, not a function */
		r = 175 + (unsigned int)(h % 40);
		snprintf(buf, len, "rgb(%u,%u,%u)", r, r, r - 10);
		return;
	}
	r = 205 + (unsigned int)((h & 0xff) * 50 / 255);
	gr = 20 + (unsigned int)(((h >> 8) & 0xff) * 170 / 255);	/* < r */
	b = (unsigned int)(((h >> 16) & 0xff) * 60 / 255);
	snprintf(buf, len, "rgb(%u,%u,%u)", r, gr, b);
}

/* self share after minus before; the sign exact, from the counts */
static double self_delta(const struct kp_flame *g, const struct kp_flame_node *n,
			 int *sign)
{
	unsigned __int128 a = (unsigned __int128)n->self * g->b_all;
	unsigned __int128 b = (unsigned __int128)n->b_self * g->root->total;
	double da = g->root->total ? (double)n->self / (double)g->root->total : 0;
	double db = g->b_all ? (double)n->b_self / (double)g->b_all : 0;

	if (!g->b_all)		/* nothing before: all grew */
		*sign = n->self > 0;
	else if (!g->root->total)
		*sign = n->b_self ? -1 : 0;
	else
		*sign = a > b ? 1 : a < b ? -1 : 0;
	return da - db;
}

void kp_flame_diff_color(const struct kp_flame *g,
			 const struct kp_flame_node *n, double maxd, char *buf,
			 size_t len)
{
	int sign;
	double d = fabs(self_delta(g, n, &sign));
	double i = maxd > 0 ? d / maxd : 1;
	unsigned int v;

	if (i > 1)
		i = 1;
	v = (unsigned int)lround(220 - 150 * i);	/* black text stays readable */
	if (sign > 0)
		snprintf(buf, len, "rgb(255,%u,%u)", v, v);
	else if (sign < 0)
		snprintf(buf, len, "rgb(%u,%u,255)", v, v);
	else
		snprintf(buf, len, "rgb(225,225,225)");
}

static size_t nchars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* the name as it fits w px: whole, its first chars and "..", or nothing */
static void fit_text(FILE *f, const char *name, double w)
{
	double room = floor((w - 6) / CHAR_W);
	size_t fit = room > 0 ? (size_t)room : 0, n = 0;
	const char *p;

	if (fit < 3)
		return;
	if (nchars(name) <= fit) {
		kp_xml(f, name);
		return;
	}
	for (p = name; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && n++ == fit - 2)
			break;
	}
	kp_xml_n(f, name, (size_t)(p - name));
	fputs("..", f);
}

static int by_name(const void *a, const void *b)
{
	const struct kp_flame_node *x = *(struct kp_flame_node *const *)a;
	const struct kp_flame_node *y = *(struct kp_flame_node *const *)b;

	return strcmp(x->name, y->name);
}

struct render {
	FILE *f;
	const struct kp_flame *g;
	const struct kp_flame_opts *o;
	unsigned int col, height;
	double x0, colw, scale, maxd;
};

static void max_delta(const struct kp_flame *g, const struct kp_flame_node *n,
		      double *maxd)
{
	unsigned int i;
	int sign;
	double d = fabs(self_delta(g, n, &sign));

	if (d > *maxd)
		*maxd = d;
	for (i = 0; i < n->nkids; i++)
		max_delta(g, n->kids[i], maxd);
}

static void frame(struct render *r, struct kp_flame_node *n, uint64_t start)
{
	const struct kp_flame *g = r->g;
	uint64_t all = g->root->total;
	double w = n == g->root ? r->colw : (double)n->total * r->scale;
	double x = r->x0 + (double)start * r->scale;
	unsigned int y = r->height - 30 - (n->depth + 1) * KP_FLAME_FRAME_H, i;
	char fill[32];
	FILE *f = r->f;

	if (w < KP_FLAME_MIN_PX)
		return;		/* and its kids: their samples are in n's parent */
	if (g->diff)
		kp_flame_diff_color(g, n, r->maxd, fill, sizeof(fill));
	else if (n == g->root)
		snprintf(fill, sizeof(fill), "rgb(200,200,200)");
	else
		kp_flame_color(n->name, fill, sizeof(fill));
	fputs("<g class=\"f\" data-name=\"", f);
	kp_xml(f, n->name);
	fprintf(f, "\" data-samples=\"%" PRIu64 "\" data-depth=\"%u\" "
		"data-start=\"%" PRIu64 "\" data-col=\"%u\"><title>",
		n->total, n->depth, start, r->col);
	kp_xml(f, n->name);
	fprintf(f, " (%" PRIu64 " ", n->total);
	kp_xml(f, r->o->count_name);
	fprintf(f, ", %.2f%%", all ? 100.0 * (double)n->total / (double)all : 0);
	if (g->diff)
		fprintf(f, "; self %.2f%% before, %.2f%% now",
			g->b_all ? 100.0 * (double)n->b_self / (double)g->b_all : 0,
			all ? 100.0 * (double)n->self / (double)all : 0);
	fprintf(f, ")</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" "
		"height=\"%d\" rx=\"2\" ry=\"2\" fill=\"%s\"/><text x=\"%.2f\" "
		"y=\"%.1f\">", x, y, w, KP_FLAME_FRAME_H - 1, fill, x + 3,
		y + 11.5);
	fit_text(f, n->name, w);
	fputs("</text></g>\n", f);
	if (n->nkids > 1)
		qsort(n->kids, n->nkids, sizeof(*n->kids), by_name);
	for (i = 0; i < n->nkids; i++) {
		frame(r, n->kids[i], start);
		start += n->kids[i]->total;
	}
}

/*
 * The page's behaviour: hover details, click to zoom a column, search by
 * regular expression, and both from the URL fragment
 * (#search=REGEX&zoom=NAME, each part URI-encoded).
 */
static const char script[] =
"'use strict';\n"
"(function () {\n"
"var svg = document.documentElement, F = [], C = [], re = null, CH = 7;\n"
"var details, matched, resetb, searchb;\n"
"function $(id) { return document.getElementById(id); }\n"
"function fit(name, w) {\n"
"  var n = Math.floor((w - 6) / CH), a = Array.from(name);\n"
"  if (n < 3) return '';\n"
"  return a.length <= n ? name : a.slice(0, n - 2).join('') + '..';\n"
"}\n"
"function place(f, x, w) {\n"
"  f.r.setAttribute('x', x.toFixed(2));\n"
"  f.r.setAttribute('width', w.toFixed(2));\n"
"  f.t.setAttribute('x', (x + 3).toFixed(2));\n"
"  f.t.textContent = fit(f.name, w);\n"
"}\n"
"function cls(f) {\n"
"  f.g.setAttribute('class', 'f' + (f.z ? ' ' + f.z : '') + (f.m ? ' m' : ''));\n"
"  f.r.setAttribute('fill', f.m ? 'rgb(230,0,230)' : f.fill);\n"
"}\n"
"function home(f) {\n"
"  var c = C[f.c], k = c.total ? c.w / c.total : 0;\n"
"  if (f.d === 0) place(f, c.x, c.w); else place(f, c.x + f.st * k, f.s * k);\n"
"  f.z = ''; cls(f);\n"
"}\n"
"function zoom(f) {\n"
"  var c = C[f.c], k = f.s ? c.w / f.s : 0, e = f.st + f.s, i, h;\n"
"  if (f.d === 0 || !f.s) { unzoom(); return; }\n"
"  for (i = 0; i < c.fr.length; i++) {\n"
"    h = c.fr[i];\n"
"    if (h.d < f.d && h.st <= f.st && h.st + h.s >= e) {\n"
"      place(h, c.x, c.w); h.z = 'anc';\n"
"    } else if (h.d >= f.d && h.st >= f.st && h.st + h.s <= e) {\n"
"      place(h, c.x + (h.st - f.st) * k, h.s * k); h.z = '';\n"
"    } else {\n"
"      h.z = 'hide';\n"
"    }\n"
"    cls(h);\n"
"  }\n"
"  c.zoomed = true;\n"
"  resetb.setAttribute('class', 'ctl');\n"
"}\n"
"function unzoom() {\n"
"  for (var i = 0; i < F.length; i++) home(F[i]);\n"
"  for (i = 0; i < C.length; i++) C[i].zoomed = false;\n"
"  resetb.setAttribute('class', 'ctl off');\n"
"}\n"
"function search(src) {\n"
"  var r, parts = [], i, j, c, h, end, sum;\n"
"  try { r = new RegExp(src); } catch (e) {\n"
"    matched.textContent = 'Not a regular expression: ' + src; return;\n"
"  }\n"
"  re = r;\n"
"  for (i = 0; i < C.length; i++) {\n"
"    c = C[i]; end = -1; sum = 0;\n"
"    /* document order is depth first: a match inside one counted is skipped */\n"
"    for (j = 0; j < c.fr.length; j++) {\n"
"      h = c.fr[j];\n"
"      h.m = h.d > 0 && r.test(h.name);\n"
"      cls(h);\n"
"      if (h.m && h.st >= end) { sum += h.s; end = h.st + h.s; }\n"
"    }\n"
"    parts.push((C.length > 1 ? c.label + ' ' : '') +\n"
"      (c.total ? 100 * sum / c.total : 0).toFixed(2) + '%');\n"
"  }\n"
"  matched.textContent = 'Matched: ' + parts.join(', ');\n"
"  searchb.textContent = 'Reset Search';\n"
"}\n"
"function unsearch() {\n"
"  re = null;\n"
"  for (var i = 0; i < F.length; i++) { F[i].m = false; cls(F[i]); }\n"
"  matched.textContent = ' ';\n"
"  searchb.textContent = 'Search';\n"
"}\n"
"function ask() {\n"
"  var s = window.prompt('Search frames (a regular expression)', re ? re.source : '');\n"
"  if (s) search(s);\n"
"}\n"
"function frameOf(e) {\n"
"  for (var n = e.target; n && n !== svg; n = n.parentNode) if (n.kpf) return n.kpf;\n"
"  return null;\n"
"}\n"
"function fromHash() {\n"
"  var parts = location.hash.slice(1).split('&'), i, j, k, v, p;\n"
"  for (i = 0; i < parts.length; i++) {\n"
"    p = parts[i].indexOf('=');\n"
"    if (p < 0) continue;\n"
"    k = parts[i].slice(0, p); v = parts[i].slice(p + 1);\n"
"    try { v = decodeURIComponent(v); } catch (e) { }\n"
"    if (k === 'search') search(v);\n"
"    if (k === 'zoom')\n"
"      for (j = 0; j < F.length; j++) if (F[j].name === v) { zoom(F[j]); break; }\n"
"  }\n"
"}\n"
"function init() {\n"
"  var cols = document.querySelectorAll('g.col'), gs, g, f, i;\n"
"  details = $('details'); matched = $('matched'); resetb = $('reset'); searchb = $('search');\n"
"  for (i = 0; i < cols.length; i++)\n"
"    C.push({ x: +cols[i].getAttribute('data-x'), w: +cols[i].getAttribute('data-w'),\n"
"      total: +cols[i].getAttribute('data-total'),\n"
"      label: cols[i].getAttribute('data-label') || '', fr: [] });\n"
"  gs = document.querySelectorAll('g.f');\n"
"  for (i = 0; i < gs.length; i++) {\n"
"    g = gs[i];\n"
"    f = { g: g, r: g.querySelector('rect'), t: g.querySelector('text'),\n"
"      name: g.getAttribute('data-name'), s: +g.getAttribute('data-samples'),\n"
"      st: +g.getAttribute('data-start'), d: +g.getAttribute('data-depth'),\n"
"      c: +g.getAttribute('data-col'), z: '', m: false };\n"
"    f.fill = f.r.getAttribute('fill');\n"
"    f.title = g.querySelector('title').textContent;\n"
"    g.kpf = f; F.push(f); C[f.c].fr.push(f);\n"
"  }\n"
"  svg.addEventListener('click', function (e) { var f = frameOf(e); if (f) zoom(f); });\n"
"  svg.addEventListener('mouseover', function (e) {\n"
"    var f = frameOf(e); if (f) details.textContent = f.title;\n"
"  });\n"
"  svg.addEventListener('mouseout', function () { details.textContent = ' '; });\n"
"  resetb.addEventListener('click', function (e) { e.stopPropagation(); unzoom(); });\n"
"  searchb.addEventListener('click', function (e) {\n"
"    e.stopPropagation(); if (re) unsearch(); else ask();\n"
"  });\n"
"  document.addEventListener('keydown', function (e) {\n"
"    if (e.key === 'Escape') { unsearch(); unzoom(); }\n"
"    else if (e.key === 'F3' || ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F'))) {\n"
"      e.preventDefault(); ask();\n"
"    }\n"
"  });\n"
"  window.addEventListener('hashchange', function () { unsearch(); unzoom(); fromHash(); });\n"
"  fromHash();\n"
"}\n"
"if (document.readyState === 'loading') window.addEventListener('load', init); else init();\n"
"})();\n";

static const char style[] =
"text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
"#title { font-size: 17px; }\n"
".ctl { cursor: pointer; }\n"
".ctl.off { display: none; }\n"
".f { cursor: pointer; }\n"
".f text { pointer-events: none; }\n"
".f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; }\n"
".f.hide { display: none; }\n"
".f.anc { opacity: 0.6; }\n";

static void column(struct render *r)
{
	const struct kp_flame *g = r->g;
	FILE *f = r->f;

	fprintf(f, "<g class=\"col\" id=\"col%u\" data-col=\"%u\" data-x=\"%.2f\" "
		"data-w=\"%.2f\" data-total=\"%" PRIu64 "\" data-label=\"",
		r->col, r->col, r->x0, r->colw, g->root->total);
	kp_xml(f, g->label ? g->label : "");
	fprintf(f, "\">\n<text class=\"coltitle\" x=\"%.2f\" y=\"%d\" "
		"text-anchor=\"middle\">", r->x0 + r->colw / 2,
		r->o->subtitle ? 66 : 48);
	if (g->label) {
		kp_xml(f, g->label);
		fputs(": ", f);
	}
	fprintf(f, "%" PRIu64 " ", g->root->total);
	kp_xml(f, r->o->count_name);
	if (g->diff)
		fprintf(f, " (%" PRIu64 " before)", g->b_all);
	fputs("</text>\n", f);
	r->maxd = 0;
	if (g->diff)
		max_delta(g, g->root, &r->maxd);
	frame(r, g->root, 0);
	fputs("</g>\n", f);
}

int kp_flame_svg(FILE *f, struct kp_flame **g, unsigned int n,
		 const struct kp_flame_opts *opts)
{
	struct kp_flame_opts o = *opts;
	struct render r = { .f = f, .o = &o };
	unsigned int depth = 0, top, i;
	double colw;

	if (!o.title)
		o.title = "Flame Graph";
	if (!o.width)
		o.width = 1200;
	if (!o.count_name)
		o.count_name = "samples";
	if (!n || n > KP_FLAME_MAX_GRAPHS || o.width < KP_FLAME_MIN_WIDTH ||
	    o.width > KP_FLAME_MAX_WIDTH) {
		errno = EINVAL;
		return -1;
	}
	colw = ((double)o.width - 2 * XPAD - (double)(n - 1) * GAP) / n;
	if (colw < MIN_COL_W) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < n; i++)
		if (g[i]->max_depth > depth)
			depth = g[i]->max_depth;
	top = o.subtitle ? 78 : 60;
	r.height = top + (depth + 1) * KP_FLAME_FRAME_H + 30;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" "
		"width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		"data-count-name=\"", o.width, r.height, o.width, r.height);
	kp_xml(f, o.count_name);
	fprintf(f, "\">\n<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" "
		"x2=\"0\" y2=\"1\"><stop offset=\"5%%\" stop-color=\"rgb(238,238,238)\"/>"
		"<stop offset=\"95%%\" stop-color=\"rgb(238,238,176)\"/>"
		"</linearGradient></defs>\n"
		"<style type=\"text/css\"><![CDATA[\n%s]]></style>\n"
		"<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#bg)\"/>\n"
		"<text id=\"title\" x=\"%.1f\" y=\"24\" text-anchor=\"middle\">",
		style, script, o.width, r.height, o.width / 2.0);
	kp_xml(f, o.title);
	fputs("</text>\n", f);
	if (o.subtitle) {
		fprintf(f, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\" "
			"text-anchor=\"middle\">", o.width / 2.0);
		kp_xml(f, o.subtitle);
		fputs("</text>\n", f);
	}
	fprintf(f, "<text id=\"reset\" class=\"ctl off\" x=\"%d\" y=\"24\">"
		"Reset Zoom</text>\n"
		"<text id=\"search\" class=\"ctl\" x=\"%d\" y=\"24\" "
		"text-anchor=\"end\">Search</text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"> </text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n",
		XPAD, o.width - XPAD, o.width - XPAD, r.height - 10, XPAD,
		r.height - 10);
	for (i = 0; i < n; i++) {
		r.g = g[i];
		r.col = i;
		r.colw = colw;
		r.x0 = XPAD + i * (colw + GAP);
		r.scale = g[i]->root->total ? colw / (double)g[i]->root->total : 0;
		column(&r);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
