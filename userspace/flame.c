// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs: folded stacks into a tree, the tree into one SVG with its
 * own style and script (no external resource).  See flame.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "flame.h"

#define XPAD		10	/* left and right margins */
#define GAP		10	/* between columns */
#define CHAR_W		7.0	/* mean glyph width of 12px Verdana, for truncation */
#define MIN_COL_W	50

static uint64_t name_hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)s[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

static size_t slot(const struct kp_flame *g, const struct kp_flame_node *parent,
		   uint64_t h)
{
	uint64_t k = h ^ ((uint64_t)(uintptr_t)parent * 0x9e3779b97f4a7c15ull);

	return (size_t)(k ^ (k >> 29)) & (g->tab_size - 1);
}

static struct kp_flame_node *node_new(const char *name, size_t len)
{
	struct kp_flame_node *n = calloc(1, sizeof(*n) + len + 1);

	if (!n)
		return NULL;
	memcpy(n->name, name, len);
	n->hash = name_hash(name, len);
	return n;
}

int kp_flame_init(struct kp_flame *g, const char *label)
{
	memset(g, 0, sizeof(*g));
	g->label = label;
	g->tab_size = 1024;
	g->tab = calloc(g->tab_size, sizeof(*g->tab));
	g->root = node_new("all", 3);
	if (!g->tab || !g->root) {
		free(g->tab);
		free(g->root);
		g->tab = NULL;
		g->root = NULL;
		return -1;
	}
	return 0;
}

void kp_flame_free(struct kp_flame *g)
{
	struct kp_flame_node *n, *next;
	size_t i;

	for (i = 0; g->tab && i < g->tab_size; i++)
		for (n = g->tab[i]; n; n = next) {
			next = n->hnext;
			free(n->kids);
			free(n);
		}
	if (g->root)
		free(g->root->kids);
	free(g->root);
	free(g->tab);
	memset(g, 0, sizeof(*g));
}

/* the table doubles when it holds as many nodes as slots */
static int grow(struct kp_flame *g)
{
	size_t old = g->tab_size, i;
	struct kp_flame_node **t = g->tab, *n, *next;

	g->tab = calloc(old * 2, sizeof(*g->tab));
	if (!g->tab) {
		g->tab = t;
		return -1;
	}
	g->tab_size = old * 2;
	for (i = 0; i < old; i++)
		for (n = t[i]; n; n = next) {
			size_t s = slot(g, n->parent, n->hash);

			next = n->hnext;
			n->hnext = g->tab[s];
			g->tab[s] = n;
		}
	free(t);
	return 0;
}

static struct kp_flame_node *lookup(const struct kp_flame *g,
				    const struct kp_flame_node *parent,
				    const char *name, size_t len, uint64_t h)
{
	struct kp_flame_node *n;

	for (n = g->tab[slot(g, parent, h)]; n; n = n->hnext)
		if (n->parent == parent && n->hash == h &&
		    !strncmp(n->name, name, len) && !n->name[len])
			return n;
	return NULL;
}

static struct kp_flame_node *child(struct kp_flame *g,
				   struct kp_flame_node *parent,
				   const char *name, size_t len)
{
	uint64_t h = name_hash(name, len);
	struct kp_flame_node *n = lookup(g, parent, name, len, h);
	size_t s;

	if (n)
		return n;
	if (g->nr_nodes >= g->tab_size && grow(g))
		return NULL;
	if (parent->nkids == parent->cap) {
		unsigned int cap = parent->cap ? parent->cap * 2 : 4;
		void *k = realloc(parent->kids, cap * sizeof(*parent->kids));

		if (!k)
			return NULL;
		parent->kids = k;
		parent->cap = cap;
	}
	n = node_new(name, len);
	if (!n)
		return NULL;
	n->parent = parent;
	n->depth = parent->depth + 1;
	parent->kids[parent->nkids++] = n;
	s = slot(g, parent, h);
	n->hnext = g->tab[s];
	g->tab[s] = n;
	g->nr_nodes++;
	if (n->depth > g->max_depth)
		g->max_depth = n->depth;
	return n;
}

static void __attribute__((format(printf, 3, 4)))
seterr(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!len)
		return;
	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
}

int kp_flame_add(struct kp_flame *g, const char *stack, size_t len,
		 uint64_t count, char *err, size_t errlen)
{
	struct kp_flame_node *n = g->root;
	const char *p = stack, *end = stack + len, *semi;
	unsigned int depth = 1;

	/* checked first, so that a refused line leaves the tree as it was */
	if (!len) {
		seterr(err, errlen, "no frames before the count");
		return -1;
	}
	for (p = stack; p <= end; p = semi + 1, depth++) {
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			semi = end;
		if (semi == p) {
			seterr(err, errlen, "an empty frame (';' at an end, or ';;')");
			return -1;
		}
		if (depth > KP_FLAME_MAX_DEPTH) {
			seterr(err, errlen, "more than %d frames", KP_FLAME_MAX_DEPTH);
			return -1;
		}
	}
	if (g->root->total + count < count) {
		seterr(err, errlen, "the counts add up to more than 2^64");
		return -1;
	}
	g->root->total += count;
	for (p = stack; p < end; p = semi + 1) {
		semi = memchr(p, ';', (size_t)(end - p));
		if (!semi)
			semi = end;
		n = child(g, n, p, (size_t)(semi - p));
		if (!n) {
			seterr(err, errlen, "out of memory");
			return -1;
		}
		n->total += count;
	}
	n->self += count;
	g->nr_stacks++;
	return 0;
}

int kp_flame_add_frames(struct kp_flame *g, const char *const *frames,
			unsigned int n, uint64_t count, char *err, size_t errlen)
{
	struct kp_flame_node *node = g->root;
	unsigned int i;

	if (!n || n > KP_FLAME_MAX_DEPTH) {
		seterr(err, errlen, n ? "more than %d frames" : "no frames",
		       KP_FLAME_MAX_DEPTH);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (!frames[i] || !*frames[i]) {
			seterr(err, errlen, "frame %u has no name", i);
			return -1;
		}
	if (g->root->total + count < count) {
		seterr(err, errlen, "the counts add up to more than 2^64");
		return -1;
	}
	g->root->total += count;
	for (i = 0; i < n; i++) {
		node = child(g, node, frames[i], strlen(frames[i]));
		if (!node) {
			seterr(err, errlen, "out of memory");
			return -1;
		}
		node->total += count;
	}
	node->self += count;
	g->nr_stacks++;
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	       c == '\f';
}

/* one line, without its newline; 0, or -1 with why in err */
static int parse_line(struct kp_flame *g, char *s, size_t len, char *err,
		      size_t errlen)
{
	char *cnt, *p;
	uint64_t v = 0;
	size_t slen;

	while (len && blank(s[len - 1]))
		len--;
	while (len && blank(*s)) {
		s++;
		len--;
	}
	if (!len)
		return 0;		/* blank line */
	for (cnt = s + len; cnt > s && cnt[-1] != ' ' && cnt[-1] != '\t'; cnt--)
		;
	if (cnt == s) {
		seterr(err, errlen, "no count: expected 'frame;frame;...;frame COUNT'");
		return -1;
	}
	for (p = cnt; p < s + len; p++) {
		if (*p < '0' || *p > '9') {
			seterr(err, errlen, "'%.*s' is not a count (a decimal number"
			       " of samples after the last space)",
			       (int)(s + len - cnt > 40 ? 40 : s + len - cnt), cnt);
			return -1;
		}
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) {
			seterr(err, errlen, "count %.*s is above 2^64",
			       (int)(s + len - cnt > 40 ? 40 : s + len - cnt), cnt);
			return -1;
		}
		v = v * 10 + (uint64_t)(*p - '0');
	}
	slen = (size_t)(cnt - s);
	while (slen && blank(s[slen - 1]))
		slen--;
	return kp_flame_add(g, s, slen, v, err, errlen);
}

int kp_flame_parse(struct kp_flame *g, FILE *f, const char *name, char *err,
		   size_t errlen)
{
	char *line = NULL, why[160];
	unsigned long lineno = 0;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	while ((n = getline(&line, &cap, f)) >= 0) {
		lineno++;
		if (memchr(line, '\0', (size_t)n)) {
			snprintf(why, sizeof(why), "a NUL byte (not a text file?)");
			ret = -1;
		} else {
			ret = parse_line(g, line, (size_t)n, why, sizeof(why));
		}
		if (ret) {
			seterr(err, errlen, "%s:%lu: %s", name, lineno, why);
			break;
		}
	}
	if (!ret && ferror(f)) {
		seterr(err, errlen, "%s: %s", name, strerror(errno ? errno : EIO));
		ret = -1;
	}
	free(line);
	return ret;
}

struct kp_flame_node *kp_flame_find(const struct kp_flame *g, const char *path)
{
	const struct kp_flame_node *n = g->root;
	const char *p = path, *semi;

	while (n && p && *p) {
		semi = strchr(p, ';');
		if (!semi)
			semi = p + strlen(p);
		n = lookup(g, n, p, (size_t)(semi - p),
			   name_hash(p, (size_t)(semi - p)));
		p = *semi ? semi + 1 : NULL;
	}
	return (struct kp_flame_node *)n;
}

static void diff_walk(struct kp_flame_node *a, const struct kp_flame *before,
		      const struct kp_flame_node *b)
{
	unsigned int i;

	a->b_total = b ? b->total : 0;
	a->b_self = b ? b->self : 0;
	for (i = 0; i < a->nkids; i++) {
		struct kp_flame_node *k = a->kids[i];

		diff_walk(k, before, b ? lookup(before, b, k->name,
						strlen(k->name), k->hash) : NULL);
	}
}

void kp_flame_diff(struct kp_flame *after, const struct kp_flame *before)
{
	after->diff = 1;
	after->b_all = before->root->total;
	diff_walk(after->root, before, before->root);
}

void kp_flame_color(const char *name, char *buf, size_t len)
{
	size_t l = strlen(name);
	uint64_t h = name_hash(name, l);
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

size_t kp_utf8_len(const unsigned char *s, size_t n)
{
	size_t l, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		l = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		l = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		l = 4;
	else
		return 0;
	if (l > n)
		return 0;
	c = s[0] & (0x7f >> l);
	for (i = 1; i < l; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, above U+10FFFF, U+FFFE/FFFF: not XML */
	if ((l == 3 && c < 0x800) || (l == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return l;
}

static void xml_n(FILE *f, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	while (i < len) {
		unsigned char c = s[i];
		const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" :
				c == '>' ? "&gt;" : c == '"' ? "&quot;" :
				c == '\'' ? "&apos;" : NULL;

		if (e) {
			fputs(e, f);
			i++;
			continue;
		}
		if (c < 0x20 || c == 0x7f) {
			fputc('?', f);
			i++;
			continue;
		}
		l = kp_utf8_len(s + i, len - i);
		if (!l) {
			fputc('?', f);
			i++;
			continue;
		}
		fwrite(s + i, 1, l, f);
		i += l;
	}
}

void kp_flame_xml(FILE *f, const char *s)
{
	xml_n(f, s, strlen(s));
}

/* characters (not continuation bytes) in s */
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
		kp_flame_xml(f, name);
		return;
	}
	for (p = name; *p; p++) {
		if (((unsigned char)*p & 0xc0) != 0x80 && n++ == fit - 2)
			break;
	}
	xml_n(f, name, (size_t)(p - name));
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
	kp_flame_xml(f, n->name);
	fprintf(f, "\" data-samples=\"%" PRIu64 "\" data-depth=\"%u\" "
		"data-start=\"%" PRIu64 "\" data-col=\"%u\"><title>",
		n->total, n->depth, start, r->col);
	kp_flame_xml(f, n->name);
	fprintf(f, " (%" PRIu64 " ", n->total);
	kp_flame_xml(f, r->o->count_name);
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
	kp_flame_xml(f, g->label ? g->label : "");
	fprintf(f, "\">\n<text class=\"coltitle\" x=\"%.2f\" y=\"%d\" "
		"text-anchor=\"middle\">", r->x0 + r->colw / 2,
		r->o->subtitle ? 66 : 48);
	if (g->label) {
		kp_flame_xml(f, g->label);
		fputs(": ", f);
	}
	fprintf(f, "%" PRIu64 " ", g->root->total);
	kp_flame_xml(f, r->o->count_name);
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
	kp_flame_xml(f, o.count_name);
	fprintf(f, "\">\n<defs><linearGradient id=\"bg\" x1=\"0\" y1=\"0\" "
		"x2=\"0\" y2=\"1\"><stop offset=\"5%%\" stop-color=\"rgb(238,238,238)\"/>"
		"<stop offset=\"95%%\" stop-color=\"rgb(238,238,176)\"/>"
		"</linearGradient></defs>\n"
		"<style type=\"text/css\"><![CDATA[\n%s]]></style>\n"
		"<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		"<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"url(#bg)\"/>\n"
		"<text id=\"title\" x=\"%.1f\" y=\"24\" text-anchor=\"middle\">",
		style, script, o.width, r.height, o.width / 2.0);
	kp_flame_xml(f, o.title);
	fputs("</text>\n", f);
	if (o.subtitle) {
		fprintf(f, "<text id=\"subtitle\" x=\"%.1f\" y=\"44\" "
			"text-anchor=\"middle\">", o.width / 2.0);
		kp_flame_xml(f, o.subtitle);
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
