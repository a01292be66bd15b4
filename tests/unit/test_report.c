// SPDX-License-Identifier: GPL-2.0
/*
 * report.c: a page from known samples, checked as text: exact bar and
 * cell counts, escaping, no address, no remote URL, the percentiles of
 * kp_quantile, blank columns for intervals without calls.
 *
 *   test_report              the checks
 *   test_report --html OUT   also writes the page to OUT and prints what
 *                            its DOM must hold, for tests/report/check
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "report.h"
#include "flame.h"
#include "flame-svg.h"
#include "include/kprofctl/hist.h"

#define NB	KPROF_HIST_NR_BUCKETS
#define MAXIV	40

/* a distribution and which buckets its samples hit, by kprof_hist_index */
struct dist {
	struct kp_agg a;
	unsigned char seen[NB];
};

static void add(struct dist *d, uint64_t v)
{
	unsigned int i = kprof_hist_index(v);

	if (!d->a.count || v < d->a.min)
		d->a.min = v;
	if (v > d->a.max)
		d->a.max = v;
	d->a.count++;
	d->a.sum += v;
	d->a.hist[i]++;
	d->seen[i] = 1;
}

static unsigned int nseen(const struct dist *d)
{
	unsigned int i, n = 0;

	for (i = 0; i < NB; i++)
		n += d->seen[i];
	return n;
}

/* a series and the cells it must draw, worked out from the samples */
struct series {
	struct kp_rep_series s;
	struct dist iv[MAXIV];
	struct kp_agg agg[MAXIV];
};

static void seal(struct series *s, unsigned int n, uint64_t t0, uint64_t dt)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		s->agg[i] = s->iv[i].a;
	s->s.t0_ns = t0;
	s->s.dt_ns = dt;
	s->s.n = n;
	s->s.iv = s->agg;
}

/* the heatmap's merge, by its documented rule, and its cells */
static unsigned int cells(const struct series *s, unsigned int *merge,
			  unsigned int *rows)
{
	unsigned int i, b, k, lo = NB, hi = 0, n = 0;

	for (i = 0; i < s->s.n; i++)
		for (b = 0; b < NB; b++)
			if (s->iv[i].seen[b]) {
				lo = b < lo ? b : lo;
				hi = b > hi ? b : hi;
			}
	for (k = 1; k < 16 && hi / k - lo / k + 1 > 64; k *= 2)
		;
	*merge = k;
	*rows = hi / k - lo / k + 1;
	for (i = 0; i < s->s.n; i++) {
		unsigned char row[NB] = { 0 };

		for (b = 0; b < NB; b++)
			if (s->iv[i].seen[b] && !row[b / k]) {
				row[b / k] = 1;
				n++;
			}
	}
	return n;
}

/* ---- the data ---------------------------------------------------------- */

#define TITLE0 "probe 1  kretprobe:mydrv_xfer <script>alert(1)</script> & \"q\" 'a'"

static struct dist all0, a55, a76, idle, hits_all, hits_a55, all2, all3, one;
static struct series s0, s1, s2, s3;
static char *flame_svg[2];
static unsigned int flame_frames[2];

/* log-uniform in [lo, hi) */
static uint64_t spread(uint64_t lo, uint64_t hi)
{
	double u = (double)(unit_rand() % 1000000) / 1e6;

	return (uint64_t)((double)lo * pow((double)hi / (double)lo, u));
}

static void make_flame(unsigned int j, const char *folded, const char *label)
{
	struct kp_flame g, *gp = &g;
	struct kp_flame_opts o = { .title = label };
	size_t len = 0;
	FILE *f = fmemopen((void *)folded, strlen(folded), "r"), *out;
	char err[128];

	kp_flame_init(&g, NULL);
	CHECK(!kp_flame_parse(&g, f, "t", err, sizeof(err)), "flame %s", err);
	fclose(f);
	flame_frames[j] = (unsigned int)g.nr_nodes + 1;	/* and "all" */
	out = open_memstream(&flame_svg[j], &len);
	CHECK(!kp_flame_svg(out, &gp, 1, &o), "kp_flame_svg");
	fclose(out);
	kp_flame_free(&g);
}

static void make_data(void)
{
	unsigned int i, j;

	/*
	 * probe 0: 12 intervals of 250 ms, 3 and 7 without calls; fast
	 * calls of 1-40 us throughout, slow ones of 1-5 ms from interval 8:
	 * over 64 rows of buckets, so the heatmap merges them.
	 */
	for (i = 0; i < 12; i++) {
		if (i == 3 || i == 7)
			continue;
		for (j = 0; j < 300; j++) {
			uint64_t v = i >= 8 && j % 4 == 0 ? spread(1000000, 5000000) :
				     spread(1000, 40000);
			struct dist *cl = unit_rand() % 3 ? &a55 : &a76;

			add(&s0.iv[i], v);
			add(&all0, v);
			add(cl, v);
		}
	}
	seal(&s0, 12, 5000000000ULL, 250000000ULL);

	/* probe 1: a kprobe; its series must not draw a heatmap */
	for (i = 0; i < 4; i++)
		for (j = 0; j < 10 * i; j++) {
			add(&s1.iv[i], 0);
			add(&hits_all, 0);
			if (j % 2)
				add(&hits_a55, 0);
		}
	seal(&s1, 4, 0, 1000000000ULL);

	/*
	 * probe 2: 40 intervals of 1 ms, every 5th empty; calls of 1.0-1.1
	 * us, one of 0 ns first and one in the overflow bucket last: all
	 * 625 buckets' span, one row per power of two.
	 */
	for (i = 0; i < 40; i++) {
		if (i % 5 == 2)
			continue;
		for (j = 0; j < 20 + i; j++) {
			uint64_t v = 1000 + unit_rand() % 100;

			add(&s2.iv[i], v);
			add(&all2, v);
		}
	}
	add(&s2.iv[0], 0);
	add(&all2, 0);
	add(&s2.iv[39], 1ULL << 43);
	add(&all2, 1ULL << 43);
	seal(&s2, 40, 0, 1000000);

	/* probe 3: five intervals within one power of two: a row per bucket */
	for (i = 0; i < 5; i++)
		for (j = 0; j < 50; j++) {
			uint64_t v = 2048 + unit_rand() % (2048 * (i + 1) / 5);

			add(&s3.iv[i], v);
			add(&all3, v);
		}
	seal(&s3, 5, 0, 2000000000ULL);

	/* probe 7: ten calls of one latency, a single bucket */
	for (i = 0; i < 10; i++)
		add(&one, 5000);

	make_flame(0, "root;caller;hot 3000\nroot;caller;cold 1000\n"
		   "root;other;a<b>&\"c' 400\nswapper;idle 500\n",
		   "A55 <b>\"on-CPU\"</b> & 'more'");
	make_flame(1, "x;y 10\nx;z 5\n", NULL);
}

static const struct kp_rep_diffrow diff[] = {
	{ "count", "12000", "12100", "+0.8%", 0, 0 },
	{ "p50", "4.1us", "4.2us", "+2.4%", 0, 1 },
	{ "p90", "2.0ms", "1.0ms", "-50%", 1, -1 },
	{ "p99", "1.2ms", "3.1ms", "+158%", 1, 1 },
	{ "A76 <p99>", "900us", "2.9ms", "+222%", 1, 1 },
	{ "max", "4.9ms", "5.0ms", "+2%", 0, 1 },
};

/* probe 5, a kretprobe set: its functions; probe 6, a tracepoint's keys */
static const struct kp_rep_row set_rows[] = {
	{ "mydrv_xfer", 40, 400000, 9000, 20000, 21000, "+50.0 %", 1, 1 },
	{ "mydrv_irq <b>", 12, 12000, 1000, 1100, 1200, "-10.0 %", -1, 0 },
	{ "mydrv_idle", 0, 0, 0, 0, 0, "new", 0, 0 },
};
static const struct kp_rep_row key_rows[] = {
	{ "-ETIMEDOUT (-110)", 7, 0, 0, 0, 0, NULL, 0, 0 },
	{ "0", 30, 0, 0, 0, 0, NULL, 0, 0 },
};

#define NP	7

static const char *const ctx_key[] = { "kernel", "machine", "note <&>" };
static const char *const ctx_val[] = {
	"6.1.0-27-arm64", "Radxa ROCK 5B \"rk3588\"",
	"pc 0xffff800080123456, lr ffffffffc0a01234, len 0xffff8000, "
	"id deadbeefffff800080123456",
};

static void make_report(struct kp_rep *r, struct kp_rep_probe *p,
			struct kp_rep_hist *h0, struct kp_rep_hist *h1,
			struct kp_rep_hist *h2, struct kp_rep_hist *h3,
			struct kp_rep_hist *h6)
{
	static const char *const flabels[] = {
		"A55 <b>\"on-CPU\"</b> & 'more'", "A76",
	};
	h0[0] = (struct kp_rep_hist){ "all", &all0.a };
	h0[1] = (struct kp_rep_hist){ "A55 (cpu 0-3)", &a55.a };
	h0[2] = (struct kp_rep_hist){ "A76 <big> & 'fast' \"cores\"", &a76.a };
	h0[3] = (struct kp_rep_hist){ "idle (cpu 8)", &idle.a };
	h1[0] = (struct kp_rep_hist){ "all", &hits_all.a };
	h1[1] = (struct kp_rep_hist){ "A55", &hits_a55.a };
	h2[0] = (struct kp_rep_hist){ "all", &all2.a };
	h3[0] = (struct kp_rep_hist){ "all", &all3.a };
	h6[0] = (struct kp_rep_hist){ "all", &one.a };
	h6[1] = (struct kp_rep_hist){ "A55", &one.a };
	memset(p, 0, NP * sizeof(*p));
	p[0] = (struct kp_rep_probe){
		.title = TITLE0, .id = 1, .latency = 1, .nh = 4, .h = h0,
		.series = &s0.s, .diff = diff,
		.diff_against = "before.json <old>", .ndiff = 6, .nflame = 2,
		.flame_svg = (const char *const *)flame_svg,
		.flame_label = flabels,
	};
	p[1] = (struct kp_rep_probe){
		.title = "probe 2  kprobe:mydrv_irq", .id = 2, .latency = 0,
		.counts = "Hits (a kprobe counts calls, it times nothing)",
		.nh = 2, .h = h1, .series = &s1.s,
	};
	p[2] = (struct kp_rep_probe){
		.title = "probe 3  kretprobe:wide", .id = 3, .latency = 1, .nh = 1,
		.h = h2, .series = &s2.s,
	};
	p[3] = (struct kp_rep_probe){
		.title = "probe 4  kretprobe:narrow", .id = 4, .latency = 1,
		.nh = 1, .h = h3, .series = &s3.s,
	};
	p[4] = (struct kp_rep_probe){
		.title = "probe 5  kretprobe:mydrv:*", .id = 5, .latency = 1,
		.rows_title = "Functions", .nrows = 3, .rows = set_rows,
		.rows_count = 52,
	};
	p[5] = (struct kp_rep_probe){
		.title = "probe 6  tracepoint:mydrv:done", .id = 6, .latency = 0,
		.counts = "Hits (a tracepoint counts events, it times nothing)",
		.nh = 1, .h = h1, .rows_title = "Keys by retval", .nrows = 2,
		.rows = key_rows,
	};
	p[6] = (struct kp_rep_probe){
		.title = "probe 7  kretprobe:one", .id = 7, .latency = 1,
		.nh = 2, .h = h6,
	};
	*r = (struct kp_rep){
		.title = "kprofctl report: mydrv <v2> & co", .nctx = 3,
		.ctx_key = ctx_key, .ctx_val = ctx_val, .n = NP, .p = p,
	};
}

static char *render(const struct kp_rep *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(!kp_report_html(f, r), "kp_report_html failed");
	fclose(f);
	return buf;
}

/* ---- reading the page ---------------------------------------------------- */

static unsigned int count(const char *s, const char *end, const char *what)
{
	unsigned int n = 0;

	while ((s = strstr(s, what)) && (!end || s < end)) {
		n++;
		s += strlen(what);
	}
	return n;
}

/* the element starting with head, up to its closing tag (or NULL) */
static const char *elem(const char *page, const char *head, const char *close,
			const char **end)
{
	const char *p = strstr(page, head);

	*end = p ? strstr(p, close) : NULL;
	return *end ? p : NULL;
}

/* attribute name's value in the tag at p, as a number; -1: none */
static long long attr(const char *p, const char *name)
{
	char key[64];
	const char *gt = p ? strchr(p, '>') : NULL, *q;

	if (!gt)
		return -1;
	snprintf(key, sizeof(key), " %s=\"", name);
	q = strstr(p, key);
	return q && q < gt ? strtoll(q + strlen(key), NULL, 10) : -1;
}

static double attrf(const char *p, const char *name)
{
	char key[64];
	const char *gt = p ? strchr(p, '>') : NULL, *q;

	if (!gt)
		return -1;
	snprintf(key, sizeof(key), " %s=\"", name);
	q = strstr(p, key);
	return q && q < gt ? strtod(q + strlen(key), NULL) : -1;
}

static void check_hist(const char *page, unsigned int pi, unsigned int ci,
		       const struct dist *d, FILE *exp)
{
	char head[96];
	const char *end, *fig;
	unsigned int want = nseen(d);

	snprintf(head, sizeof(head), "<figure class=\"hist\" data-probe=\"%u\" "
		 "data-cluster=\"%u\" ", pi, ci);
	fig = elem(page, head, "</figure>", &end);
	CHECK(fig, "probe %u cluster %u: no histogram", pi, ci);
	if (!fig)
		return;
	CHECK(count(fig, end, "<rect class=\"bar\"") == want,
	      "probe %u cluster %u: %u bars, want %u", pi, ci,
	      count(fig, end, "<rect class=\"bar\""), want);
	CHECK(attr(fig, "data-bars") == want, "data-bars %lld, want %u",
	      attr(fig, "data-bars"), want);
	CHECK(count(fig, end, "<title>[") == want, "a tooltip per bar");
	if (exp)
		fprintf(exp, " hist:%u:%u=%u", pi, ci, want);
}

/* the percentile row of cluster ci agrees with kp_quantile and the samples */
static void check_pct(const char *page, unsigned int pi, unsigned int ci,
		      const struct kp_agg *a)
{
	static const struct { const char *q; uint64_t num, den; } q[] = {
		{ "p50", 50, 100 }, { "p90", 90, 100 }, { "p99", 99, 100 },
		{ "p99.9", 999, 1000 },
	};
	char head[64], key[64];
	const char *tab, *end, *row, *rend;
	unsigned int i;

	snprintf(head, sizeof(head), "<table class=\"pct\" data-probe=\"%u\">", pi);
	tab = elem(page, head, "</table>", &end);
	snprintf(key, sizeof(key), "<tr data-cluster=\"%u\">", ci);
	row = tab ? strstr(tab, key) : NULL;
	CHECK(row && row < end, "probe %u: no percentile row %u", pi, ci);
	if (!row || row > end)
		return;
	rend = strstr(row, "</tr>");
	CHECK(attr(strstr(row, "data-q=\"count\"") - 4, "data-v") ==
	      (long long)a->count, "count");
	for (i = 0; i < 4; i++) {
		const char *c;

		snprintf(key, sizeof(key), "<td data-q=\"%s\"", q[i].q);
		c = strstr(row, key);
		CHECK(c && c < rend && attr(c, "data-ns") ==
		      (long long)kp_quantile(a, q[i].num, q[i].den),
		      "probe %u cluster %u %s: %lld, kp_quantile %" PRIu64, pi, ci,
		      q[i].q, attr(c, "data-ns"), kp_quantile(a, q[i].num, q[i].den));
	}
	CHECK(attr(strstr(row, "<td data-q=\"min\""), "data-ns") == (long long)a->min &&
	      attr(strstr(row, "<td data-q=\"max\""), "data-ns") == (long long)a->max &&
	      attr(strstr(row, "<td data-q=\"mean\""), "data-ns") ==
	      (long long)(a->sum / a->count), "probe %u cluster %u: min, max, mean",
	      pi, ci);
}

static void check_heatmap(const char *page, unsigned int pi,
			  const struct series *s, FILE *exp)
{
	char head[64], key[64];
	const char *fig, *end, *c0, *c;
	unsigned int merge, rows, want = cells(s, &merge, &rows), i, blank = 0;
	double w;

	snprintf(head, sizeof(head), "<figure class=\"heatmap\" data-probe=\"%u\"",
		 pi);
	fig = elem(page, head, "</figure>", &end);
	CHECK(fig, "probe %u: no heatmap", pi);
	if (!fig)
		return;
	CHECK(count(fig, end, "<rect class=\"cell\"") == want,
	      "probe %u: %u cells, want %u", pi,
	      count(fig, end, "<rect class=\"cell\""), want);
	CHECK(attr(fig, "data-cells") == want && attr(fig, "data-merge") == merge &&
	      attr(fig, "data-rows") == rows && rows <= KP_REP_MAX_ROWS &&
	      attr(fig, "data-intervals") == s->s.n,
	      "probe %u: data-cells %lld (%u), merge %lld (%u), rows %lld (%u)",
	      pi, attr(fig, "data-cells"), want, attr(fig, "data-merge"), merge,
	      attr(fig, "data-rows"), rows);
	CHECK(count(fig, end, "<title>time [") == want, "a tooltip per cell");
	/* a column per interval: those without calls blank, none dropped */
	c0 = strstr(fig, "<rect class=\"cell\" data-i=\"0\"");
	w = attrf(c0, "width");
	for (i = 0; i < s->s.n; i++) {
		snprintf(key, sizeof(key), "<rect class=\"cell\" data-i=\"%u\"", i);
		c = strstr(fig, key);
		if (c > end)
			c = NULL;
		CHECK(!c == !s->iv[i].a.count, "probe %u interval %u: cells %s",
		      pi, i, c ? "drawn for no call" : "missing");
		if (c)
			CHECK(c0 && fabs(attrf(c, "x") - (attrf(c0, "x") + i * w)) < 0.02,
			      "probe %u interval %u at x %.2f, want %.2f", pi, i,
			      attrf(c, "x"), attrf(c0, "x") + i * w);
		if (!s->iv[i].a.count && exp && blank++)
			fprintf(exp, ",%u", i);
		else if (!s->iv[i].a.count && exp)
			fprintf(exp, " blank:%u=%u", pi, i);
	}
	if (exp)
		fprintf(exp, " heatmap:%u=%u", pi, want);
}

/* every src and href of the page (and of its srcdoc documents) is local */
static void check_local(const char *page)
{
	static const char *const attrs[] = {
		" src=\"", " href=\"", " src=&quot;", " href=&quot;",
		" xlink:href=", "url(", "@import",
	};
	const char *p;
	unsigned int i, bad = 0, n = 0;

	for (i = 0; i < (unsigned int)(sizeof(attrs) / sizeof(*attrs)); i++)
		for (p = page; (p = strstr(p, attrs[i])); p++) {
			const char *v = p + strlen(attrs[i]);

			n++;
			if (strncmp(v, "#", 1) && strncmp(v, "data:", 5) &&
			    strncmp(v, "about:", 6) && strncmp(v, "#bg)", 4)) {
				printf("  remote? %.40s\n", p);
				bad++;
			}
		}
	CHECK(!bad && n >= 4, "%u of %u src/href/url() not local", bad, n);
	/* "http" only as the meta's http-equiv and the SVGs' namespace */
	for (p = page, bad = 0; (p = strstr(p, "http")); p++)
		if (strncmp(p, "http-equiv=", 11) &&
		    strncmp(p, "http://www.w3.org/2000/svg&quot;", 32))
			bad++;
	CHECK(!bad, "%u other 'http' in the page", bad);
}

/* the summary first: a row per probe, its anchor the probe's id */
static void test_summary(const char *page, const struct kp_rep_probe *p)
{
	const char *tab, *end, *row;
	char key[96];
	unsigned int i;

	tab = elem(page, "<table class=\"summary\"", "</table>", &end);
	CHECK(tab && attr(tab, "data-rows") == NP &&
	      count(tab, end, "<tr data-id=") == NP, "a summary row per probe");
	CHECK(tab && tab < strstr(page, "<section class=\"probe\""),
	      "the summary before the first probe");
	for (i = 0; i < NP; i++) {
		snprintf(key, sizeof(key), "<section class=\"probe\" id=\"probe-%u\"",
			 p[i].id);
		CHECK(strstr(page, key), "probe %u's section is #probe-%u", p[i].id,
		      p[i].id);
		snprintf(key, sizeof(key), "<tr data-id=\"%u\"><td><a href=\"#probe-%u\">",
			 p[i].id, p[i].id);
		CHECK(tab && strstr(tab, key) && strstr(tab, key) < end,
		      "summary: probe %u links #probe-%u", p[i].id, p[i].id);
	}
	CHECK(!strstr(page, "id=\"probe-0\""), "no probe-0 anchor");
	/* probe 1: calls, p50, p99 and the change of p99, marked worse */
	snprintf(key, sizeof(key), "<tr data-id=\"1\">");
	row = tab ? strstr(tab, key) : NULL;
	CHECK(row && attr(strstr(row, "data-q=\"count\"") - 4, "data-v") ==
	      (long long)all0.a.count &&
	      attr(strstr(row, "<td data-q=\"p99\""), "data-ns") ==
	      (long long)kp_quantile(&all0.a, 99, 100) &&
	      strstr(row, "<td class=\"worse\">+158%</td>") &&
	      strstr(row, "<td class=\"worse\">+158%</td>") < strstr(row, "</tr>"),
	      "summary: probe 1's calls, p99 and change");
	/* the set: its functions' calls; no p99 of its own */
	row = tab ? strstr(tab, "<tr data-id=\"5\">") : NULL;
	CHECK(row && attr(strstr(row, "data-q=\"count\"") - 4, "data-v") == 52,
	      "summary: the set's calls are its functions'");
}

static void test_page(FILE *exp)
{
	struct kp_rep r;
	struct kp_rep_probe p[NP];
	struct kp_rep_hist h0[4], h1[2], h2[1], h3[1], h6[2];
	const char *end, *fig;
	char *page, key[64];
	unsigned int i, m, rows;

	make_report(&r, p, h0, h1, h2, h3, h6);
	page = render(&r);
	if (!page)
		return;
	if (exp)
		fprintf(exp, "probes=%u summary=%u", NP, NP);
	test_summary(page, p);

	/* escaping, and no kernel address */
	CHECK(count(page, NULL, "<script") == 1, "%u <script", count(page, NULL, "<script"));
	CHECK(!strstr(page, "alert(1)</script>"), "a title's <script> unescaped");
	CHECK(strstr(page, "<h2>probe 1  kretprobe:mydrv_xfer &lt;script&gt;alert(1)"
		      "&lt;/script&gt; &amp; &quot;q&quot; &#39;a&#39;</h2>"),
	      "the title escaped");
	CHECK(strstr(page, "<title>kprofctl report: mydrv &lt;v2&gt; &amp; co</title>"),
	      "the page title escaped");
	CHECK(strstr(page, "<th>A76 &lt;big&gt; &amp; &#39;fast&#39; &quot;cores&quot;</th>"),
	      "a cluster label escaped");
	CHECK(strstr(page, "<td>A76 &lt;p99&gt;</td>"), "a diff metric escaped");
	CHECK(strstr(page, "<iframe title=\"A55 &lt;b&gt;&quot;on-CPU&quot;&lt;/b&gt; "
		      "&amp; &#39;more&#39;\""), "a flame label in an attribute");
	CHECK(!strstr(page, "0xffff800080123456") && !strstr(page, "ffffffffc0a01234"),
	      "a kernel address reached the page");
	CHECK(strstr(page, "<td>pc [address hidden], lr [address hidden], len "
		      "0xffff8000, id deadbeefffff800080123456</td>"),
	      "addresses hidden, other hex kept");
	check_local(page);

	/* probe 0: histograms and percentiles per cluster */
	check_hist(page, 0, 0, &all0, exp);
	check_hist(page, 0, 1, &a55, exp);
	check_hist(page, 0, 2, &a76, exp);
	check_pct(page, 0, 0, &all0.a);
	check_pct(page, 0, 1, &a55.a);
	check_pct(page, 0, 2, &a76.a);
	fig = elem(page, "<figure class=\"hist\" data-probe=\"0\" data-cluster=\"3\"",
		   "</figure>", &end);
	CHECK(fig && !count(fig, end, "<rect") && count(fig, end, "(no calls)"),
	      "an empty cluster: no bars, says so");
	if (exp)
		fprintf(exp, " hist:0:3=0");
	check_heatmap(page, 0, &s0, exp);
	cells(&s0, &m, &rows);
	CHECK(m == 4 && rows > 32, "probe 0 merges 4 buckets a row (%u, %u rows)",
	      m, rows);

	/* the diff: rows, the significant ones marked by direction */
	fig = elem(page, "<table class=\"diff\" data-probe=\"0\"", "</table>", &end);
	CHECK(fig && count(fig, end, "<tr class=\"sig worse\">") == 2 &&
	      count(fig, end, "<tr class=\"sig better\">") == 1 &&
	      count(fig, end, "<tr") == 7 && attr(fig, "data-significant") == 3,
	      "diff: 6 rows, 2 significantly worse, 1 better");
	CHECK(strstr(page, "tr.worse td") && strstr(page, "tr.better td"),
	      "diff: a colour for worse and one for better");
	CHECK(strstr(page, "<h3>Change against before.json &lt;old&gt;</h3>"),
	      "diff: against what");
	if (exp)
		fprintf(exp, " diff:0=6 sig:0=3");

	/* one x axis per probe: every cluster's histogram spans the same buckets */
	for (i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "<figure class=\"hist\" data-probe=\"0\" "
			 "data-cluster=\"%u\"", i);
		fig = strstr(page, key);
		CHECK(fig && attr(fig, "data-x0") >= 0 &&
		      attr(fig, "data-x0") == attr(strstr(page, "<figure class=\"hist\" "
						  "data-probe=\"0\""), "data-x0") &&
		      attr(fig, "data-x1") == attr(strstr(page, "<figure class=\"hist\" "
						  "data-probe=\"0\""), "data-x1"),
		      "probe 0 cluster %u: x axis [%lld, %lld], cluster 0's [%lld, %lld]",
		      i, attr(fig, "data-x0"), attr(fig, "data-x1"),
		      attr(strstr(page, "<figure class=\"hist\" data-probe=\"0\""), "data-x0"),
		      attr(strstr(page, "<figure class=\"hist\" data-probe=\"0\""), "data-x1"));
		CHECK(fig && attr(fig, "data-x0") <= attr(fig, "data-first") &&
		      attr(fig, "data-x1") >= attr(fig, "data-last"),
		      "probe 0 cluster %u: its bars inside the shared axis", i);
	}
	if (exp)
		fprintf(exp, " axis:0=4");

	/* one bucket: a bar of one bucket's width, not the plot's */
	fig = elem(page, "<figure class=\"hist\" data-probe=\"6\" data-cluster=\"0\"",
		   "</figure>", &end);
	fig = fig ? strstr(fig, "<rect class=\"bar\"") : NULL;
	CHECK(fig && attrf(fig, "width") > 0 && attrf(fig, "width") <= 720.0 / 16,
	      "a single bucket's bar: width %.1f of 720", attrf(fig, "width"));
	if (exp)
		fprintf(exp, " hist:6:0=1 hist:6:1=1");

	/* what a probe counts, by its kind; a set's functions, a probe's keys */
	CHECK(strstr(page, "<h3>Hits (a kprobe counts calls, it times nothing)</h3>") &&
	      strstr(page, "<h3>Hits (a tracepoint counts events, it times nothing)</h3>") &&
	      count(page, NULL, "a kprobe counts") == 1, "headings by kind");
	fig = elem(page, "<table class=\"rows\" data-probe=\"4\"", "</table>", &end);
	CHECK(fig && count(fig, end, "<tr class=\"row\"") == 3 &&
	      count(fig, end, "data-q=\"p99\"") == 3 &&
	      strstr(fig, "mydrv_irq &lt;b&gt;") && strstr(fig, "data-v=\"52\"") == NULL,
	      "probe 5: a table of its 3 functions with p99");
	CHECK(strstr(page, "<h3>Functions</h3>") && strstr(page, "<h3>Keys by retval</h3>"),
	      "rows' headings");
	/* against BEFORE: each function's p99 change, marked by direction */
	fig = elem(page, "<table class=\"rows\" data-probe=\"4\"", "</table>", &end);
	CHECK(fig && count(fig, end, "<th>p99 change</th>") == 1 &&
	      count(fig, end, "<td class=\"sig worse\">+50.0 %</td>") == 1 &&
	      count(fig, end, "<td>-10.0 %</td>") == 1 &&
	      count(fig, end, "<td>new</td>") == 1, "probe 5: its functions' p99 change");
	fig = elem(page, "<table class=\"rows\" data-probe=\"5\"", "</table>", &end);
	CHECK(fig && !count(fig, end, "change"), "probe 6: no change column");
	fig = elem(page, "<table class=\"rows\" data-probe=\"5\"", "</table>", &end);
	CHECK(fig && count(fig, end, "<tr class=\"row\"") == 2 &&
	      !count(fig, end, "p99") && count(fig, end, "-ETIMEDOUT (-110)"),
	      "probe 6: its 2 keys, counts only");
	if (exp)
		fprintf(exp, " rows:4=3 rows:5=2");

	/* the footer promises what is true: flame graphs need a script */
	CHECK(!strstr(page, "needs no JavaScript") &&
	      strstr(page, "<footer><p>Made by kprofctl report; this page loads "
		     "nothing. Its tables and charts need no JavaScript; the flame "
		     "graphs' zoom and search do.</p></footer>"), "the footer");

	/* flame graphs: one iframe each, their SVG escaped in srcdoc */
	for (i = 0; i < 2; i++) {
		snprintf(key, sizeof(key), "<figure class=\"flame\" data-probe=\"0\" "
			 "data-flame=\"%u\"", i);
		fig = elem(page, key, "</figure>", &end);
		CHECK(fig && attr(fig, "data-frames") == flame_frames[i] &&
		      count(fig, end, "<iframe ") == 1 &&
		      count(fig, end, "&lt;g class=&quot;f&quot;") == flame_frames[i] &&
		      count(fig, end, "<svg") == 0,
		      "flame %u: %lld frames, want %u, in one srcdoc", i,
		      attr(fig, "data-frames"), flame_frames[i]);
		CHECK(fig && count(fig, end, "a&amp;lt;b&amp;gt;&amp;amp;&amp;quot;c&amp;apos;") >=
		      (i ? 0 : 2), "flame %u: a<b>&\"c' escaped twice", i);
		if (exp)
			fprintf(exp, " flame:0:%u=%u", i, flame_frames[i]);
	}
	CHECK(attr(strstr(page, "<iframe title=\"A76\""), "height") > 100,
	      "the iframe is as high as its SVG");

	/* probe 1 counts hits: no histogram, no heatmap, counts only */
	CHECK(!strstr(page, "<figure class=\"hist\" data-probe=\"1\"") &&
	      !strstr(page, "<figure class=\"heatmap\" data-probe=\"1\""),
	      "a kprobe has no histogram or heatmap");
	fig = elem(page, "<table class=\"pct\" data-probe=\"1\">", "</table>", &end);
	CHECK(fig && count(fig, end, "<td") == 2 && count(fig, end, "data-v=\"60\"") &&
	      count(fig, end, "data-v=\"30\"") && !count(fig, end, "p50"),
	      "a kprobe: hits per cluster only");

	/* probe 2: 0 ns to the overflow bucket, a row per power of two */
	check_hist(page, 2, 0, &all2, exp);
	check_pct(page, 2, 0, &all2.a);
	check_heatmap(page, 2, &s2, exp);
	cells(&s2, &m, &rows);
	CHECK(m == 16 && rows == 40, "probe 2: merge %u, %u rows", m, rows);
	CHECK(strstr(page, "<title>[4398s, &#8734;) 1</title>"), "the overflow bar");
	CHECK(strstr(page, "latency [4398s, &#8734;): 1 calls</title>"),
	      "the overflow cell");

	/* probe 3: a row per bucket */
	check_heatmap(page, 3, &s3, exp);
	cells(&s3, &m, &rows);
	CHECK(m == 1 && rows > 8, "probe 3: merge %u, %u rows", m, rows);
	check_hist(page, 3, 0, &all3, exp);
	if (exp)
		fprintf(exp, "\n");

	/* deterministic: the same data, the same page */
	{
		char *again = render(&r);

		CHECK(again && !strcmp(page, again), "two renderings differ");
		free(again);
	}
	free(page);
}

static void test_merge(void)
{
	unsigned int rows, k;

	k = kp_rep_merge(0, KPROF_HIST_OVERFLOW, &rows);
	CHECK(k == 16 && rows == 40, "whole range: %u, %u", k, rows);
	k = kp_rep_merge(100, 163, &rows);
	CHECK(k == 1 && rows == 64, "64 buckets: %u, %u", k, rows);
	k = kp_rep_merge(100, 164, &rows);
	CHECK(k == 2 && rows == 33, "65 buckets: %u, %u", k, rows);
	k = kp_rep_merge(7, 7, &rows);
	CHECK(k == 1 && rows == 1, "one bucket: %u, %u", k, rows);
	k = kp_rep_merge(1, 0, &rows);
	CHECK(k == 1 && rows == 0, "none: %u, %u", k, rows);
}

static void test_edges(void)
{
	static const struct kp_agg empty;
	struct kp_rep_hist h = { NULL, &empty };
	static const struct kp_agg none[3];
	struct kp_rep_series s = { 0, 1000, 3, none };
	struct kp_rep_probe p = { .title = NULL, .latency = 1, .nh = 1, .h = &h,
				  .series = &s };
	struct kp_rep r = { .n = 0 };
	char *page = render(&r);
	FILE *full;

	CHECK(page && strstr(page, "No probes") && strstr(page, "</html>"),
	      "no probes: a page that says so");
	free(page);
	r.n = 1;
	r.p = &p;
	page = render(&r);
	CHECK(page && strstr(page, "data-cells=\"0\"") && !strstr(page, "<rect class=\"cell\"") &&
	      !strstr(page, "<rect class=\"bar\""), "no calls: no bars, no cells");
	free(page);
	/* a write error is reported */
	full = fopen("/dev/full", "w");
	if (full) {
		r.n = 0;
		CHECK(kp_report_html(full, &r) == -1 || fflush(full) == EOF,
		      "/dev/full: no error");
		fclose(full);
	}
}

int main(int argc, char **argv)
{
	FILE *exp = NULL;

	make_data();
	test_merge();
	test_edges();
	if (argc == 3 && !strcmp(argv[1], "--html")) {
		struct kp_rep r;
		struct kp_rep_probe p[NP];
		struct kp_rep_hist h0[4], h1[2], h2[1], h3[1], h6[2];
		FILE *f = fopen(argv[2], "w");

		make_report(&r, p, h0, h1, h2, h3, h6);
		CHECK(f && !kp_report_html(f, &r) && !fclose(f), "writing %s", argv[2]);
		exp = stdout;
	}
	test_page(exp);
	free(flame_svg[0]);
	free(flame_svg[1]);
	if (exp)
		return unit_fail ? 1 : 0;
	return unit_done("test_report");
}
