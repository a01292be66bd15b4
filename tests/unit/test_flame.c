// SPDX-License-Identifier: GPL-2.0
/* flame.c, flame-svg.c: folded parsing, the tree, layout, colours, the SVG. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "unit.h"
#include "flame.h"
#include "flame-svg.h"

/* a graph from a string; 0 or -1 with err */
static int load(struct kp_flame *g, const char *label, const char *text,
		char *err, size_t len)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	kp_flame_init(g, label);
	ret = kp_flame_parse(g, f, "t.folded", err, len);
	fclose(f);
	return ret;
}

/* the SVG of n graphs in a malloc'ed string */
static char *svg(struct kp_flame **g, unsigned int n,
		 const struct kp_flame_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret = kp_flame_svg(f, g, n, o);

	fclose(f);
	CHECK(!ret, "kp_flame_svg failed");
	return buf;
}

/* the nth (0-based) frame line whose data-name is exactly name, or NULL */
static const char *frame_of(const char *s, const char *name, int nth)
{
	char key[256];
	const char *p = s;

	snprintf(key, sizeof(key), "<g class=\"f\" data-name=\"%s\"", name);
	while ((p = strstr(p, key))) {
		if (!nth--)
			return p;
		p++;
	}
	return NULL;
}

/* attribute attr of the frame's line (its rect's x, width, fill) */
static double num_attr(const char *frame, const char *attr)
{
	char key[64];
	const char *eol, *p;

	if (!frame)
		return -1;
	eol = strchr(frame, '\n');
	snprintf(key, sizeof(key), " %s=\"", attr);
	p = strstr(frame, key);
	return p && p < eol ? strtod(p + strlen(key), NULL) : -1;
}

static void str_attr(const char *frame, const char *attr, char *buf, size_t len)
{
	char key[64];
	const char *eol, *p, *q;

	buf[0] = '\0';
	if (!frame)
		return;
	eol = strchr(frame, '\n');
	snprintf(key, sizeof(key), " %s=\"", attr);
	p = strstr(frame, key);
	if (!p || p > eol)
		return;
	p += strlen(key);
	q = strchr(p, '"');
	snprintf(buf, len, "%.*s", (int)(q - p), p);
}

/*
 * A malformed line is skipped and counted, the first one's why kept (as
 * flamegraph.pl ignores them and says how many); the rest still draws.
 */
static void test_errors(void)
{
	static const struct { const char *in, *want; unsigned long skipped; } t[] = {
		{ "a;b 1\n\nc;d x\n", "t.folded:3: 'x' is not a count", 1 },
		{ "a;b 1\nfoo\n", "t.folded:2: no count", 1 },
		{ "# a comment\na;b 1\n", "t.folded:1: a comment", 1 },
		{ "a;;b 2\na;b 1\n", "t.folded:1: an empty frame", 1 },
		{ "a;b 2\na;b; 2\n", "t.folded:2: an empty frame", 1 },
		{ ";a 2\na;b 1\n", "t.folded:1: an empty frame", 1 },
		{ "  \n\t\n 7\na;b 1\n", "t.folded:3: no count", 1 },
		{ "a 18446744073709551616\na;b 1\n",
		  "t.folded:1: count 18446744073709551616 is above 2^64", 1 },
		{ "a 1.5\na;b 1\nc 2.25\n", "t.folded:1: '1.5' is not a count", 2 },
		{ "a -3\na;b 1\n", "t.folded:1: '-3' is not a count", 1 },
		{ "a 0x10\na;b 1\n", "t.folded:1: '0x10' is not a count", 1 },
	};
	struct kp_flame g;
	char err[256];
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int ret = load(&g, NULL, t[i].in, err, sizeof(err));

		CHECK(ret == 0, "input %u refused: %s", i, err);
		CHECK(g.nr_skipped == t[i].skipped &&
		      !strncmp(g.skip_why, t[i].want, strlen(t[i].want)),
		      "input %u: %lu skipped, '%s', want %lu, '%s...'", i,
		      g.nr_skipped, g.skip_why, t[i].skipped, t[i].want);
		CHECK(g.root->total == (i == 4 ? 2 : 1),
		      "input %u: the good lines drawn (total %" PRIu64 ")", i,
		      g.root->total);
		kp_flame_free(&g);
	}
	/* what cannot be drawn at all still stops the parse */
	CHECK(load(&g, NULL, "a 18446744073709551615\nb 1\n", err, sizeof(err)) == -1 &&
	      !strncmp(err, "t.folded:2: the counts add up", 29), "overflow: '%s'", err);
	kp_flame_free(&g);
	/* a NUL byte: not a text file */
	{
		static const char in[] = "a 1\nb\0c 2\n";
		FILE *f = fmemopen((void *)in, sizeof(in) - 1, "r");

		kp_flame_init(&g, NULL);
		CHECK(kp_flame_parse(&g, f, "n", err, sizeof(err)) == -1 &&
		      !strncmp(err, "n:2: a NUL byte", 15), "NUL: '%s'", err);
		fclose(f);
		kp_flame_free(&g);
	}
	/* deeper than KP_FLAME_MAX_DEPTH: that stack skipped, the next drawn */
	{
		size_t n = (KP_FLAME_MAX_DEPTH + 1) * 2;
		char *in = malloc(n + 16);

		for (i = 0; i <= KP_FLAME_MAX_DEPTH; i++)
			memcpy(in + 2 * i, "x;", 2);
		strcpy(in + n - 1, " 1\ny 3\n");
		CHECK(load(&g, NULL, in, err, sizeof(err)) == 0 && g.nr_skipped == 1 &&
		      strstr(g.skip_why, "t.folded:1: more than 2048 frames") &&
		      g.root->total == 3, "depth: %lu skipped, '%s'", g.nr_skipped,
		      g.skip_why);
		kp_flame_free(&g);
		free(in);
	}
}

static void test_aggregate(void)
{
	struct kp_flame g;
	struct kp_flame_node *n;
	char err[256];

	CHECK(!load(&g, NULL, "a;b 2\r\n\n  a;b 3  \na;c 1\nx y;[z] w 4\n"
		    "a;b;c 0\na<1>;b 5\n", err, sizeof(err)), "parse: %s", err);
	CHECK(g.root->total == 15, "total %lu", (unsigned long)g.root->total);
	CHECK(g.nr_stacks == 6, "stacks %lu", g.nr_stacks);
	CHECK(g.nr_nodes == 8 && g.max_depth == 3, "nodes %zu depth %u",
	      g.nr_nodes, g.max_depth);
	n = kp_flame_find(&g, "a;b");
	CHECK(n && n->total == 5 && n->self == 5, "a;b repeated lines add up");
	n = kp_flame_find(&g, "a");
	CHECK(n && n->total == 6 && n->self == 0 && n->nkids == 2, "a: 6");
	n = kp_flame_find(&g, "x y;[z] w");
	CHECK(n && n->total == 4 && n->depth == 2, "frames with spaces");
	n = kp_flame_find(&g, "a<1>;b");
	CHECK(n && n->total == 5, "a<1>;b");
	CHECK(kp_flame_find(&g, "a;b;c") && !kp_flame_find(&g, "a;b;c")->total,
	      "a 0 count is a frame of 0");
	CHECK(!kp_flame_find(&g, "b"), "no b at the top");
	{
		const char *fr[] = { "a", "b" }, *bad[] = { "a", "" };

		CHECK(!kp_flame_add_frames(&g, fr, 2, 7, err, sizeof(err)),
		      "add_frames: %s", err);
		CHECK(kp_flame_find(&g, "a;b")->total == 12 && g.root->total == 22,
		      "add_frames joins the same path");
		CHECK(kp_flame_add_frames(&g, bad, 2, 1, err, sizeof(err)) == -1 &&
		      !strcmp(err, "frame 1 has no name") && g.root->total == 22,
		      "add_frames: an empty name refused, nothing added");
	}
	kp_flame_free(&g);
}

static const char sample[] =
	"root;caller;hot 3000\n"
	"root;caller;cold 1000\n"
	"root;other;a<b>&\"c' 400\n"
	"root;other;[user] 100\n"
	"swapper;idle 500\n";
/* the same stacks, other lines and order */
static const char shuffled[] =
	"swapper;idle 500\n"
	"root;other;[user] 60\n"
	"root;caller;cold 1000\n"
	"root;other;a<b>&\"c' 400\n"
	"root;caller;hot 1000\n"
	"root;other;[user] 40\n"
	"root;caller;hot 2000\n";

static void test_layout(void)
{
	struct kp_flame g, h, *gp = &g, *hp = &h;
	struct kp_flame_opts o = { 0 };
	char err[256], *s, *t;
	double hot, cold, all, caller;

	CHECK(!load(&g, NULL, sample, err, sizeof(err)), "parse: %s", err);
	CHECK(!load(&h, NULL, shuffled, err, sizeof(err)), "parse: %s", err);
	s = svg(&gp, 1, &o);
	t = svg(&hp, 1, &o);
	CHECK(s && t && !strcmp(s, t), "same stacks, other order: identical SVG");
	free(t);
	t = svg(&gp, 1, &o);
	CHECK(s && t && !strcmp(s, t), "the same graph twice: identical SVG");
	free(t);
	hot = num_attr(frame_of(s, "hot", 0), "width");
	cold = num_attr(frame_of(s, "cold", 0), "width");
	all = num_attr(frame_of(s, "all", 0), "width");
	caller = num_attr(frame_of(s, "caller", 0), "width");
	CHECK(hot > 0 && cold > 0 && hot / cold > 2.99 && hot / cold < 3.01,
	      "hot:cold = %.3f, want 3", hot / cold);
	CHECK(all == 1180, "all: %.2f px, the image less its margins", all);
	CHECK(caller > 943.9 && caller < 944.1, "caller 4000 of 5000: %.2f", caller);
	/* children by name: cold left of hot, caller left of other */
	CHECK(num_attr(frame_of(s, "cold", 0), "x") <
	      num_attr(frame_of(s, "hot", 0), "x"), "cold before hot");
	CHECK(num_attr(frame_of(s, "caller", 0), "x") <
	      num_attr(frame_of(s, "other", 0), "x"), "caller before other");
	CHECK(strstr(s, "data-name=\"hot\" data-samples=\"3000\" data-depth=\"3\""),
	      "hot: samples and depth");
	CHECK(strstr(s, "<title>hot (3000 samples, 60.00%)</title>"), "hot's title");
	CHECK(strstr(s, ">Flame Graph</text>"), "default title");
	CHECK(strstr(s, ">5000 samples</text>"), "unlabelled: N samples");
	CHECK(!strstr(s, "http://www.w3.org/1999/xlink") &&
	      !strstr(s, "href") && !strstr(s, "<!DOCTYPE"),
	      "no external reference");
	CHECK(strstr(s, "<script type=\"text/ecmascript\"><![CDATA[") &&
	      strstr(s, "<style type=\"text/css\"><![CDATA["), "inline script and style");
	free(s);
	/* XML escaping, in data-name, the title and the text */
	o.title = "<T&'\">";
	o.count_name = "n&s";
	s = svg(&gp, 1, &o);
	CHECK(frame_of(s, "a&lt;b&gt;&amp;&quot;c&apos;", 0), "escaped data-name");
	CHECK(strstr(s, "<title>a&lt;b&gt;&amp;&quot;c&apos; (400 n&amp;s, 8.00%)"),
	      "escaped title and count name");
	CHECK(strstr(s, ">&lt;T&amp;&apos;&quot;&gt;</text>"), "escaped --title");
	CHECK(!strstr(s, "a<b") && !strstr(s, "&\"c"), "no raw name");
	free(s);
	kp_flame_free(&g);
	kp_flame_free(&h);
}

static void test_text(void)
{
	struct kp_flame g, *gp = &g;
	struct kp_flame_opts o = { .width = 200 };
	char err[256], buf[256], *s;
	const char *fr;

	/* names that are not UTF-8 or hold control bytes become '?' */
	CHECK(!load(&g, NULL, "ok;bad\xff\x01name 10\n"
		    "ok;a_very_long_function_name_that_cannot_fit 10\n"
		    "ok;caf\xc3\xa9 20\n", err, sizeof(err)), "parse: %s", err);
	s = svg(&gp, 1, &o);
	CHECK(frame_of(s, "bad??name", 0), "invalid bytes as ?");
	CHECK(frame_of(s, "caf\xc3\xa9", 0), "UTF-8 kept");
	fr = frame_of(s, "a_very_long_function_name_that_cannot_fit", 0);
	/* 10 of 40 samples in 180 px: 45 px, (45 - 6) / 7 = 5 characters */
	str_attr(fr, "width", buf, sizeof(buf));
	CHECK(!strcmp(buf, "45.00"), "the long one is 45 px: %s", buf);
	CHECK(fr && strstr(fr, ">a_v..</text>"), "long name cut with ..");
	fr = frame_of(s, "ok", 0);
	CHECK(fr && strstr(fr, ">ok</text>"), "a short one whole");
	free(s);
	kp_flame_free(&g);
}

static void test_colors(void)
{
	char a[32], b[32];
	unsigned int r, gr, bl, i;

	kp_flame_color("vfs_read", a, sizeof(a));
	kp_flame_color("vfs_read", b, sizeof(b));
	CHECK(!strcmp(a, b), "one name, one colour");
	for (i = 0; i < 200; i++) {
		char name[32];

		snprintf(name, sizeof(name), "func_%u", i);
		kp_flame_color(name, a, sizeof(a));
		CHECK(sscanf(a, "rgb(%u,%u,%u)", &r, &gr, &bl) == 3 &&
		      r >= 205 && gr <= 190 && bl <= 60 && r > gr && r > bl,
		      "%s: %s is not warm", name, a);
	}
	kp_flame_color("[user]", a, sizeof(a));
	CHECK(sscanf(a, "rgb(%u,%u,%u)", &r, &gr, &bl) == 3 && r == gr &&
	      bl == r - 10, "[user] is grey: %s", a);
}

static void test_multi(void)
{
	struct kp_flame a, b, *gs[2] = { &a, &b };
	struct kp_flame_opts o = { 0 };
	char err[256], fa[32], fb[32], *s;

	CHECK(!load(&a, "A55", "x;foo 3\nx;bar 1\n", err, sizeof(err)), "%s", err);
	CHECK(!load(&b, "A76", "y;z;foo 10\n", err, sizeof(err)), "%s", err);
	s = svg(gs, 2, &o);
	str_attr(frame_of(s, "foo", 0), "fill", fa, sizeof(fa));
	str_attr(frame_of(s, "foo", 1), "fill", fb, sizeof(fb));
	CHECK(fa[0] && !strcmp(fa, fb), "foo: %s and %s", fa, fb);
	CHECK(strstr(frame_of(s, "foo", 0), "data-col=\"0\"") &&
	      strstr(frame_of(s, "foo", 1), "data-col=\"1\""), "one column each");
	CHECK(strstr(s, ">A55: 4 samples</text>") &&
	      strstr(s, ">A76: 10 samples</text>"), "column titles");
	/* equal columns: (1200 - 2 x 10 - 10) / 2 */
	CHECK(num_attr(frame_of(s, "all", 0), "width") == 585 &&
	      num_attr(frame_of(s, "all", 1), "width") == 585 &&
	      num_attr(frame_of(s, "all", 1), "x") == 605, "two columns of 585");
	free(s);
	{
		struct kp_flame *many[KP_FLAME_MAX_GRAPHS + 1];
		unsigned int i;

		for (i = 0; i <= KP_FLAME_MAX_GRAPHS; i++)
			many[i] = &a;
		CHECK(kp_flame_svg(stdout, many, KP_FLAME_MAX_GRAPHS + 1, &o) == -1,
		      "9 graphs refused");
		o.width = 300;
		CHECK(kp_flame_svg(stdout, many, 8, &o) == -1,
		      "8 columns in 300 px refused");
	}
	kp_flame_free(&a);
	kp_flame_free(&b);
}

static void test_diff(void)
{
	struct kp_flame a, b, *gp = &a;
	struct kp_flame_opts o = { 0 };
	char err[256], c[32], *s;

	/* before: 60 samples; after: 120, "same" keeps its share */
	CHECK(!load(&b, NULL, "r;grow 10\nr;shrink 30\nr;same 20\nr;gone 5\n"
		    "r;little 0\n", err, sizeof(err)), "%s", err);
	CHECK(!load(&a, NULL, "r;grow 60\nr;shrink 20\nr;same 40\nr;new 2\n"
		    "r;little 1\n", err, sizeof(err)), "%s", err);
	kp_flame_diff(&a, &b);
	CHECK(a.b_all == 65, "before's total %lu", (unsigned long)a.b_all);
	CHECK(kp_flame_find(&a, "r;grow")->b_self == 10, "grow's before");
	s = svg(&gp, 1, &o);
	str_attr(frame_of(s, "grow", 0), "fill", c, sizeof(c));
	CHECK(!strncmp(c, "rgb(255,", 8) && strcmp(c, "rgb(255,255,255)"),
	      "grown is red: %s", c);
	str_attr(frame_of(s, "shrink", 0), "fill", c, sizeof(c));
	CHECK(strstr(c, ",255)") && c[4] != '2', "shrunk is blue: %s", c);
	str_attr(frame_of(s, "r", 0), "fill", c, sizeof(c));
	CHECK(!strcmp(c, "rgb(225,225,225)"), "no self before or after: grey %s", c);
	str_attr(frame_of(s, "new", 0), "fill", c, sizeof(c));
	CHECK(!strncmp(c, "rgb(255,", 8), "only after: red %s", c);
	CHECK(!frame_of(s, "gone", 0), "only before: not drawn");
	/* the largest change is deepest: grow 10/65 -> 60/123 */
	str_attr(frame_of(s, "grow", 0), "fill", c, sizeof(c));
	CHECK(!strcmp(c, "rgb(255,70,70)"), "grow is the largest change: %s", c);
	str_attr(frame_of(s, "little", 0), "fill", c, sizeof(c));
	CHECK(!strncmp(c, "rgb(255,2", 8), "a small growth is pale: %s", c);
	CHECK(strstr(s, "(65 before)</text>"), "before's total in the title");
	free(s);
	kp_flame_free(&a);
	kp_flame_free(&b);
	/* equal shares at different totals are equal */
	CHECK(!load(&b, NULL, "r;x 10\nr;y 30\n", err, sizeof(err)), "%s", err);
	CHECK(!load(&a, NULL, "r;x 20\nr;y 60\n", err, sizeof(err)), "%s", err);
	kp_flame_diff(&a, &b);
	kp_flame_diff_color(&a, kp_flame_find(&a, "r;x"), 0.1, c, sizeof(c));
	CHECK(!strcmp(c, "rgb(225,225,225)"), "x unchanged: %s", c);
	kp_flame_diff_color(&a, kp_flame_find(&a, "r;y"), 0.1, c, sizeof(c));
	CHECK(!strcmp(c, "rgb(225,225,225)"), "y unchanged: %s", c);
	kp_flame_free(&a);
	kp_flame_free(&b);
}

static void test_elide(void)
{
	struct kp_flame g, *gp = &g;
	struct kp_flame_opts o = { 0 };
	char err[256], *s;

	CHECK(!load(&g, NULL, "p;big 1000000000\np;tiny 1\np;tiny;deeper 1\n",
		    err, sizeof(err)), "%s", err);
	s = svg(&gp, 1, &o);
	CHECK(!frame_of(s, "tiny", 0) && !frame_of(s, "deeper", 0),
	      "a frame of 1e-6 px is not drawn, nor its kids");
	CHECK(strstr(s, "data-name=\"p\" data-samples=\"1000000002\""),
	      "its samples stay in its parent");
	CHECK(strstr(s, "data-name=\"all\" data-samples=\"1000000002\""),
	      "and in the total");
	free(s);
	kp_flame_free(&g);
}

static void test_large(void)
{
	size_t cap = 64 << 20, len = 0;
	char *in = malloc(cap), err[256];
	struct kp_flame g;
	clock_t t0 = clock();
	double secs;
	unsigned int i;

	/* 60000 lines: 40000 stacks (each twice, one in three), wide fan-out */
	for (i = 0; i < 60000; i++) {
		unsigned int k = i % 40000;

		len += (size_t)snprintf(in + len, cap - len,
					"start;mid_%u;leaf_%u;x %u\n", k % 5000, k,
					1 + i % 7);
	}
	CHECK(!load(&g, NULL, in, err, sizeof(err)), "%s", err);
	secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
	CHECK(g.nr_stacks == 60000 && g.nr_nodes == 1 + 5000 + 40000 * 2,
	      "nodes %zu", g.nr_nodes);
	CHECK(kp_flame_find(&g, "start")->nkids == 5000, "5000 mids");
	CHECK(secs < 5, "60000 lines took %.2f s", secs);
	kp_flame_free(&g);
	free(in);
}

int main(void)
{
	test_errors();
	test_aggregate();
	test_layout();
	test_text();
	test_colors();
	test_multi();
	test_diff();
	test_elide();
	test_large();
	return unit_done("flame");
}
