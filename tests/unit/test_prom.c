// SPDX-License-Identifier: GPL-2.0
/*
 * export's metrics (prom.c) from the committed capture: exact samples,
 * le edges that round-trip to kprofctl's bucket bounds, cumulative
 * buckets, escaping, the two formats, and --max-series cutting whole
 * series (never part of a histogram) and saying so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "capture.h"
#include "dev.h"
#include "prom.h"
#include "prom-render.h"
#include "util.h"
#include "kprofctl/hist.h"

#ifndef KP_DOCS_DIR
#define KP_DOCS_DIR "."
#endif
#define CAPTURE KP_DOCS_DIR "/../tests/capture/capture.json"
/* a PMU probe counting cpu_cycles twice, on two CPUs */
#define PMU_CAPTURE KP_DOCS_DIR "/../tests/unit/fixtures/prom-pmu.json"

/* the metrics of the capture, as export --from writes them (malloc'ed) */
static char *render(struct kp_capture *c, struct kp_prom_opts *p)
{
	struct kp_dev d;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	kp_dev_from_capture(&d, c);
	ret = kp_prom_render(&d, NULL, 0, p, f);
	fclose(f);
	CHECK(!ret, "kp_prom_render returned %d", ret);
	return buf;
}

static int has_line(const char *text, const char *line)
{
	size_t n = strlen(line);
	const char *s = text;

	while ((s = strstr(s, line))) {
		if ((s == text || s[-1] == '\n') && s[n] == '\n')
			return 1;
		s++;
	}
	return 0;
}

static unsigned int count_str(const char *text, const char *needle)
{
	unsigned int n = 0;
	const char *s = text;

	while ((s = strstr(s, needle))) {
		n++;
		s++;
	}
	return n;
}

static void test_escape_seconds(void)
{
	char buf[64];
	unsigned int i;

	kp_prom_escape("a\"b\\c\nd", buf, sizeof(buf));
	CHECK(!strcmp(buf, "a\\\"b\\\\c\\nd"), "escaped '%s'", buf);
	/* too small: cut before an escape, never inside one */
	kp_prom_escape("ab\"c", buf, 4);
	CHECK(!strcmp(buf, "ab"), "cut '%s'", buf);
	kp_prom_seconds(0, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0.0"), "0 ns: '%s'", buf);
	kp_prom_seconds(1500000000, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1.5"), "1.5 s: '%s'", buf);
	kp_prom_seconds(32767, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0.000032767"), "32767 ns: '%s'", buf);
	kp_prom_seconds(4398046511103ULL, buf, sizeof(buf));
	CHECK(!strcmp(buf, "4398.046511103"), "2^42-1 ns: '%s'", buf);
	/* every bucket's le reads back as its largest value, exactly */
	for (i = 0; i < KPROF_HIST_OVERFLOW; i++) {
		uint64_t ns = kprof_hist_upper(i) - 1;

		kp_prom_seconds(ns, buf, sizeof(buf));
		CHECK((uint64_t)llround(strtod(buf, NULL) * 1e9) == ns,
		      "bucket %u: le %s is not %llu ns", i, buf,
		      (unsigned long long)ns);
	}
}

/* probe 1: 40 calls in bucket 180, 829680 ns in all */
static void test_text(const char *t)
{
	const char *p1 = "id=\"1\",spec=\"kretprobe:kprof_test_spin\","
			 "kind=\"kretprobe\"";
	char line[512], le[32];

	kp_prom_seconds(kprof_hist_upper(180) - 1, le, sizeof(le));
	CHECK(!strcmp(le, "0.000021503"), "bucket 180's le %s", le);
	snprintf(line, sizeof(line), "kprofctl_probe_calls_total{%s} 40", p1);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line),
		 "kprofctl_probe_latency_seconds_bucket{%s,le=\"%s\"} 40", p1, le);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line),
		 "kprofctl_probe_latency_seconds_bucket{%s,le=\"+Inf\"} 40", p1);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line), "kprofctl_probe_latency_seconds_sum{%s} "
		 "0.00082968", p1);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line), "kprofctl_probe_latency_seconds_count{%s} "
		 "40", p1);
	CHECK(has_line(t, line), "no '%s'", line);
	CHECK(has_line(t, "# TYPE kprofctl_probe_calls_total counter"),
	      "counter TYPE");
	CHECK(has_line(t, "# TYPE kprofctl_info gauge"), "info as a gauge");
	CHECK(has_line(t, "kprofctl_info{kernel=\"6.12.117+deb12-arm64\","
		       "machine=\"linux,dummy-virt\",module_abi=\"1.10\","
		       "version=\"" KPROFCTL_VERSION "\"} 1"), "kprofctl_info");
	/* a kprobe: hits, per cluster, per caller key with its name */
	CHECK(has_line(t, "kprofctl_probe_calls_total{id=\"2\",spec=\"kprobe:"
		       "kprof_test_nop\",kind=\"kprobe\"} 35"), "probe 2");
	CHECK(has_line(t, "kprofctl_cluster_calls_total{id=\"2\",spec=\"kprobe:"
		       "kprof_test_nop\",kind=\"kprobe\",cluster=\"A76\","
		       "cpus=\"0-1\"} 35"), "probe 2 on A76");
	CHECK(has_line(t, "kprofctl_key_calls_total{id=\"4\",spec=\"kprobe:"
		       "kprof_test_callee\",kind=\"kprobe\",key=\"kprof_test_"
		       "caller_b+0x18\"} 8"), "probe 4's caller b");
	/* a keyed kretprobe: the errno's name; a set's function */
	CHECK(has_line(t, "kprofctl_key_latency_seconds_count{id=\"3\",spec="
		       "\"kretprobe:kprof_test_ret\",kind=\"kretprobe\",key="
		       "\"-EPROBE_DEFER (-517)\"} 9"), "probe 3's -517");
	CHECK(has_line(t, "kprofctl_function_latency_seconds_count{id=\"5\","
		       "spec=\"kretprobe:kprof_test:kprof_test_caller_?\",kind="
		       "\"kretprobe-set\",function=\"kprof_test_caller_b\"} 8"),
	      "probe 5's caller_b");
	CHECK(has_line(t, "kprofctl_probe_samples_total{id=\"6\",spec=\"sample:"
		       "cpu-clock:hz=999\",kind=\"sample\"} 63"), "probe 6");
	CHECK(!strstr(t, "# EOF"), "EOF in the text format");
	CHECK(!strstr(t, "kprofctl_export_series_cut"), "nothing cut");
}

/* probe 3's buckets: cumulative, ending at its count (30) */
static void test_cumulative(const char *t)
{
	const char *pre = "kprofctl_probe_latency_seconds_bucket{id=\"3\",";
	const char *s = t;
	unsigned long long prev = 0, v;
	double prev_le = -1, le;
	unsigned int n = 0;

	while ((s = strstr(s, pre))) {
		const char *q = strstr(s, "le=\"");

		le = strncmp(q + 4, "+Inf", 4) ? strtod(q + 4, NULL) : INFINITY;
		v = strtoull(strchr(q, '}') + 2, NULL, 10);
		CHECK(le > prev_le && v >= prev, "bucket %u not cumulative", n);
		prev_le = le;
		prev = v;
		n++;
		s++;
	}
	/* each non-empty bucket's two edges, but 211's low one is 212's */
	CHECK(n == 12 && prev == 30, "probe 3: %u buckets ending at %llu", n,
	      prev);
}

/*
 * A bucket after empty ones starts at its own low edge, not at the last
 * non-empty one's: histogram_quantile interpolates inside kprofctl's
 * bucket.  Probe 3: 12 calls in bucket 140, then 9 in bucket 184.
 */
static void test_low_edges(const char *t)
{
	const char *p3 = "id=\"3\",spec=\"kretprobe:kprof_test_ret\","
			 "kind=\"kretprobe\"";
	char line[512], le[32];

	kp_prom_seconds(kprof_hist_lower(184) - 1, le, sizeof(le));
	snprintf(line, sizeof(line),
		 "kprofctl_probe_latency_seconds_bucket{%s,le=\"%s\"} 12", p3, le);
	CHECK(has_line(t, line), "no '%s'", line);
	kp_prom_seconds(kprof_hist_lower(140) - 1, le, sizeof(le));
	snprintf(line, sizeof(line),
		 "kprofctl_probe_latency_seconds_bucket{%s,le=\"%s\"} 0", p3, le);
	CHECK(has_line(t, line), "no '%s'", line);
}

/* every family's lines together, its TYPE first */
static void test_grouped(const char *t)
{
	char seen[64][80], name[80];
	unsigned int nseen = 0, i;
	const char *s;

	for (s = t; *s; s = strchr(s, '\n') + 1) {
		size_t n = strcspn(s, "{ ");

		if (*s == '#')
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)n, s);
		for (i = 0; i < 3; i++) {
			static const char *const sfx[] = { "_bucket", "_sum",
							   "_count" };
			size_t l = strlen(name), sl = strlen(sfx[i]);

			if (l > sl && !strcmp(name + l - sl, sfx[i]) &&
			    strstr(name, "latency_seconds"))
				name[l - sl] = '\0';
		}
		if (nseen && !strcmp(seen[nseen - 1], name))
			continue;
		for (i = 0; i < nseen; i++)
			CHECK(strcmp(seen[i], name), "%s in two groups", name);
		if (nseen < 64)
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
	}
	CHECK(nseen == 11, "%u families", nseen);
}

static void test_openmetrics(struct kp_capture *c)
{
	struct kp_prom_opts p = { .openmetrics = 1, .cmd = "test" };
	char *t = render(c, &p);
	size_t n = strlen(t);

	CHECK(n > 6 && !strcmp(t + n - 6, "# EOF\n"), "no # EOF at the end");
	CHECK(has_line(t, "# TYPE kprofctl info"), "info TYPE");
	CHECK(has_line(t, "# TYPE kprofctl_probe_calls counter"),
	      "counter TYPE without _total");
	CHECK(has_line(t, "kprofctl_probe_calls_total{id=\"2\",spec=\"kprobe:"
		       "kprof_test_nop\",kind=\"kprobe\"} 35"), "probe 2");
	free(t);
}

/*
 * --max-series 5: probe 1's histogram (5 series) fits, probe 3's (14) goes
 * whole; of six keys' counters the least busy (caller a, 4 calls) goes.
 */
static void test_max_series(struct kp_capture *c)
{
	struct kp_prom_opts p = { .max_series = 5, .cmd = "test" };
	char *t = render(c, &p);

	CHECK(count_str(t, "kprofctl_probe_latency_seconds_count{id=\"1\"") == 1,
	      "probe 1's histogram cut");
	CHECK(!strstr(t, "kprofctl_probe_latency_seconds_bucket{id=\"3\""),
	      "part of probe 3's histogram written");
	CHECK(has_line(t, "kprofctl_export_series_cut{family=\"kprofctl_probe_"
		       "latency_seconds\"} 14"), "probe 3's cut not said");
	CHECK(has_line(t, "kprofctl_export_series_cut{family=\"kprofctl_key_"
		       "calls\"} 1"), "a key's cut not said");
	CHECK(!strstr(t, "key=\"kprof_test_caller_a+0x18\"} 4"),
	      "the least busy key kept");
	CHECK(strstr(t, "key=\"kprof_test_caller_b+0x18\"} 8") != NULL,
	      "a busier key cut");
	CHECK(p.cut > 0, "cut %u", p.cut);
	free(t);
}

/* a spec with a quote, a backslash and a newline, escaped in the label */
static void test_label_escape(struct kp_capture *c)
{
	struct kp_prom_opts p = { .cmd = "test" };
	struct kprof_probe_info *r;
	unsigned int i;
	char *t;

	for (i = 0; i < c->n && c->recs[i].id != 7; i++)
		;
	CHECK(i < c->n, "no probe 7");
	if (i == c->n)
		return;
	r = (struct kprof_probe_info *)kp_map_rec(&c->m, c->recs[i].slot);
	snprintf(r->spec, sizeof(r->spec), "tracepoint:a\"b\\c\nd");
	t = render(c, &p);
	CHECK(has_line(t, "kprofctl_probe_calls_total{id=\"7\",spec=\"tracepoint:"
		       "a\\\"b\\\\c\\nd\",kind=\"tracepoint\"} 2"),
	      "spec not escaped");
	free(t);
}

/* two functions of one name (static ones may be): two label values */
static void test_same_name(struct kp_capture *c)
{
	struct kp_prom_opts p = { .cmd = "test" };
	const char *lb = "kprofctl_function_calls_total{id=\"5\",spec=\""
			 "kretprobe:kprof_test:kprof_test_caller_?\",kind=\""
			 "kretprobe-set\",function=";
	const struct kprof_probe_info *r = NULL;
	struct kprof_func *f;
	char line[512];
	unsigned int i;
	char *t;

	for (i = 0; i < c->n; i++)
		if (c->recs[i].id == 5)
			r = &c->recs[i];
	CHECK(r && r->nr_funcs == 2, "no set of two functions");
	if (!r || r->nr_funcs != 2)
		return;
	f = (struct kprof_func *)(c->m.base + r->funcs_off);
	memcpy(f[0].name, f[1].name, sizeof(f[0].name));
	t = render(c, &p);
	/* busiest first: caller_b's 8 calls, then caller_a's 4 */
	snprintf(line, sizeof(line), "%s\"%s\"} 8", lb, f[1].name);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line), "%s\"%s#2\"} 4", lb, f[1].name);
	CHECK(has_line(t, line), "no '%s'", line);
	free(t);
}

/*
 * PMU window totals per event and CPU, scaled by enabled/running; an
 * event named twice (pmu:cpu_cycles,cpu_cycles) must not give two series
 * of one label set, which Prometheus refuses with the whole scrape.
 */
static void test_pmu(void)
{
	struct kp_prom_opts p = { .cmd = "test" };
	const char *lb = "kprofctl_pmu_events_total{id=\"4\",spec=\"pmu:"
			 "cpu_cycles,cpu_cycles\",kind=\"pmu\",event=";
	struct kp_capture c;
	char err[256], line[512];
	char *t;

	if (kp_capture_load(&c, PMU_CAPTURE, err, sizeof(err))) {
		CHECK(0, "%s: %s", PMU_CAPTURE, err);
		return;
	}
	t = render(&c, &p);
	snprintf(line, sizeof(line), "%s\"cpu_cycles\",cpu=\"0\"} 1000", lb);
	CHECK(has_line(t, line), "no '%s'", line);
	/* 2000 counted while running half the time */
	snprintf(line, sizeof(line), "%s\"cpu_cycles\",cpu=\"1\"} 4000", lb);
	CHECK(has_line(t, line), "no '%s'", line);
	snprintf(line, sizeof(line), "%s\"cpu_cycles#2\",cpu=\"0\"} 7", lb);
	CHECK(has_line(t, line), "no '%s'", line);
	free(t);
	kp_capture_free(&c);
}

int main(void)
{
	struct kp_prom_opts p = { .cmd = "test" };
	struct kp_capture c;
	char err[256];
	char *t;

	test_escape_seconds();
	if (kp_capture_load(&c, CAPTURE, err, sizeof(err))) {
		printf("FAIL %s: %s\n", CAPTURE, err);
		return 1;
	}
	t = render(&c, &p);
	test_text(t);
	test_cumulative(t);
	test_low_edges(t);
	test_grouped(t);
	free(t);
	test_openmetrics(&c);
	test_max_series(&c);
	test_label_escape(&c);
	test_same_name(&c);
	kp_capture_free(&c);
	test_pmu();
	return unit_done("test_prom");
}
