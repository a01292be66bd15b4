// SPDX-License-Identifier: GPL-2.0
/*
 * timeline: a recording (tests/capture/series.json, 8 intervals of
 * kretprobe:kprof_test_spin recorded in a guest) as Trace Event Format
 * JSON, checked against the format's rules as Chrome's trace viewer reads
 * them, with every event inside the recording and the counts exact.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "unit.h"
#include "capture.h"
#include "timeline.h"

#define FIX KP_DOCS_DIR "/../tests/capture/"

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

static int is_num(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_int) ||
		     json_object_is_type(v, json_type_double));
}

/* us as written (three decimals) to ns, exactly */
static long long ns_of(struct json_object *v)
{
	const char *s = json_object_get_string(v);
	long long whole = 0, frac = 0;
	int nf = 0;

	for (; *s && *s != '.'; s++)
		whole = whole * 10 + (*s - '0');
	if (*s == '.')
		for (s++; *s; s++, nf++)
			frac = frac * 10 + (*s - '0');
	for (; nf < 3; nf++)
		frac *= 10;
	return whole * 1000 + frac;
}

/* One event by the format's rules; returns its phase, or 0 */
static int check_event(struct json_object *e, long long end_ns,
		       long long *sum_count, long long *x_events)
{
	struct json_object *ph = get(e, "ph"), *args = get(e, "args");
	const char *p = ph ? json_object_get_string(ph) : "";
	long long ts, dur;

	CHECK(json_object_is_type(e, json_type_object), "event is an object");
	CHECK(get(e, "name") && json_object_is_type(get(e, "name"),
						    json_type_string),
	      "event has a string name");
	CHECK(get(e, "pid") && json_object_is_type(get(e, "pid"), json_type_int) &&
	      get(e, "tid") && json_object_is_type(get(e, "tid"), json_type_int),
	      "event has integer pid and tid");
	CHECK(args && json_object_is_type(args, json_type_object),
	      "event has args");
	if (!strcmp(p, "M")) {
		CHECK(get(args, "name") != NULL, "metadata names something");
		return 'M';
	}
	CHECK(is_num(get(e, "ts")), "%s event has a numeric ts", p);
	ts = ns_of(get(e, "ts"));
	CHECK(ts >= 0 && ts <= end_ns, "ts %lld inside [0, %lld]", ts, end_ns);
	if (!strcmp(p, "X")) {
		CHECK(is_num(get(e, "dur")), "X has a numeric dur");
		dur = ns_of(get(e, "dur"));
		CHECK(dur > 0 && ts + dur <= end_ns,
		      "X [%lld, +%lld] ends inside the recording", ts, dur);
		if (json_object_get_int(get(e, "pid")) == 3) {
			/* a slow call: its span, at most its latency */
			CHECK(json_object_is_type(get(args, "latency_ns"),
						  json_type_int) &&
			      dur <= json_object_get_int64(get(args, "latency_ns")),
			      "a slow call's span is at most its latency");
			return 'S';
		}
		CHECK(json_object_is_type(get(args, "count"), json_type_int),
		      "X has a count");
		if (get(e, "pid") && json_object_get_int(get(e, "pid")) == 1) {
			*sum_count += json_object_get_int64(get(args, "count"));
			(*x_events)++;
		}
		return 'X';
	}
	if (!strcmp(p, "C")) {
		struct json_object_iterator it = json_object_iter_begin(args);
		struct json_object_iterator e2 = json_object_iter_end(args);
		int n = 0;

		for (; !json_object_iter_equal(&it, &e2);
		     json_object_iter_next(&it), n++)
			CHECK(is_num(json_object_iter_peek_value(&it)),
			      "counter value is a number");
		CHECK(n == 1, "one series per counter event");
		return 'C';
	}
	CHECK(0, "unexpected phase '%s'", p);
	return 0;
}

static void test_series(void)
{
	struct kp_capture c;
	struct kp_timeline tl;
	char err[256], *buf = NULL;
	size_t len = 0;
	struct json_object *top, *evs;
	long long sum = 0, nx = 0, want = 0;
	int nm = 0, nc = 0, i;
	FILE *f;

	CHECK(!kp_capture_load(&c, FIX "series.json", err, sizeof(err)),
	      "series.json loads: %s", err);
	CHECK(!kp_timeline_build(&tl, &c, err, sizeof(err)), "build: %s", err);
	for (i = 0; i < (int)c.nr_iv; i++)
		want += (long long)tl.p[0].cell[i].count;
	CHECK(tl.nr_iv == 8 && tl.nr_probes == 1 && tl.nr_cpus == 2,
	      "8 intervals, 1 probe, 2 CPUs: %u %u %u", tl.nr_iv,
	      tl.nr_probes, tl.nr_cpus);
	CHECK(tl.p[0].cell[0].count == 50 && tl.p[0].cell[0].p50_ns == 20752,
	      "interval 0: 50 calls, p50 20752 ns: %llu %llu",
	      (unsigned long long)tl.p[0].cell[0].count,
	      (unsigned long long)tl.p[0].cell[0].p50_ns);
	f = open_memstream(&buf, &len);
	CHECK(f && !kp_timeline_write(&tl, f), "written");
	fclose(f);
	top = json_tokener_parse(buf);
	CHECK(top && json_object_is_type(top, json_type_object),
	      "the trace is one JSON object");
	evs = top ? get(top, "traceEvents") : NULL;
	CHECK(evs && json_object_is_type(evs, json_type_array),
	      "with a traceEvents array");
	for (i = 0; evs && i < (int)json_object_array_length(evs); i++) {
		int ph = check_event(json_object_array_get_idx(evs, i),
				     (long long)tl.end_ns, &sum, &nx);

		nm += ph == 'M';
		nc += ph == 'C';
	}
	CHECK(sum == want && want == 100,
	      "the probe track's spans hold every call: %lld of %lld", sum,
	      want);
	/* 2 processes, 1 probe thread, 2 CPU threads */
	CHECK(nm == 5, "five metadata events: %d", nm);
	/* a rate and a p99 counter per interval */
	CHECK(nc == 16, "sixteen counter events: %d", nc);
	CHECK(top && get(top, "displayTimeUnit") &&
	      !strcmp(json_object_get_string(get(top, "displayTimeUnit")), "ns"),
	      "displayTimeUnit ns");
	json_object_put(top);
	free(buf);
	kp_timeline_free(&tl);
	kp_capture_free(&c);
}

/* series.json with a series.slow of calls[n] (JSON objects) */
static int parse_slow(struct kp_capture *c, const char *calls, char *err,
		      size_t len)
{
	struct json_object *top = json_object_from_file(FIX "series.json");
	struct json_object *series = top ? get(top, "series") : NULL;
	struct json_object *slow = json_object_new_object();
	const char *text;
	int ret;

	CHECK(series != NULL, "series.json has a series");
	json_object_object_add(slow, "lost", json_object_new_int(3));
	json_object_object_add(slow, "calls", json_tokener_parse(calls));
	json_object_object_add(series, "slow", slow);
	text = json_object_to_json_string(top);
	ret = kp_capture_parse(c, text, strlen(text), err, len);
	json_object_put(top);
	return ret;
}

#define SLOWX(id, t, lat, pid, extra) \
	"{" extra "\"probe\":" id ",\"t_ns\":" #t ",\"latency_ns\":" #lat \
	",\"cpu\":1,\"pid\":" #pid ",\"tgid\":" #pid ",\"comm\":\"t\\u0001\"}"
#define SLOW(id, t, lat, pid) SLOWX(id, t, lat, pid, "")

/*
 * Slow calls on their tasks' lanes: A holds B (nested: one lane), C
 * starts inside A and ends after it (a second lane), D began before the
 * recording (cut at its start).
 */
static void test_slow(void)
{
	struct kp_capture c;
	struct kp_timeline tl;
	char err[256] = "", *buf = NULL, id[16];
	char calls[1024];
	size_t len = 0;
	struct json_object *top, *evs;
	long long sum = 0, nx = 0;
	int i, nm = 0, ns = 0;
	unsigned int lane[4];
	FILE *f;

	CHECK(!kp_capture_load(&c, FIX "series.json", err, sizeof(err)),
	      "series.json loads: %s", err);
	snprintf(id, sizeof(id), "%u", c.recs[0].id);
	kp_capture_free(&c);
#define ID "%1$s"
	snprintf(calls, sizeof(calls), "[" SLOW(ID, 200000, 300000, 7) ","
		 SLOW(ID, 900000, 100000, 100) ","
		 SLOWX(ID, 1000000, 500000, 100, "\"ftrace\":5,") ","
		 SLOW(ID, 1200000, 400000, 100) "]", id);
	CHECK(!parse_slow(&c, calls, err, sizeof(err)), "parsed: %s", err);
	CHECK(c.has_slow && c.nr_slow == 4 && c.slow_lost == 3,
	      "4 slow calls, 3 lost: %u %llu", c.nr_slow,
	      (unsigned long long)c.slow_lost);
	CHECK(!kp_timeline_build(&tl, &c, err, sizeof(err)), "build: %s", err);
	/* by task, then start: D (pid 7), A, C (outer of two at 800 us), B */
	for (i = 0; i < 4; i++)
		lane[i] = tl.slow[i].lane;
	CHECK(tl.nr_slow == 4 && tl.slow[0].pid == 7 &&
	      tl.slow[0].t0_ns == 0 && tl.slow[0].dur_ns == 200000,
	      "D is cut at the recording's start: %llu +%llu",
	      (unsigned long long)tl.slow[0].t0_ns,
	      (unsigned long long)tl.slow[0].dur_ns);
	CHECK(tl.slow[1].t0_ns == 500000 && tl.slow[2].t0_ns == 800000 &&
	      tl.slow[2].dur_ns == 400000 && tl.slow[3].dur_ns == 100000,
	      "A, then C before B (they start together)");
	CHECK(lane[0] == 0 && lane[1] == 0 && lane[2] == 1 && lane[3] == 0,
	      "C crosses A: lane 2; B nests in A: lane 1 (%u %u %u %u)",
	      lane[0], lane[1], lane[2], lane[3]);
	CHECK(!strcmp(tl.slow[1].comm, "t\001"), "comm as the file has it");
	f = open_memstream(&buf, &len);
	CHECK(f && !kp_timeline_write(&tl, f), "written");
	fclose(f);
	top = json_tokener_parse(buf);
	evs = top ? get(top, "traceEvents") : NULL;
	CHECK(evs != NULL, "a trace");
	for (i = 0; evs && i < (int)json_object_array_length(evs); i++) {
		int ph = check_event(json_object_array_get_idx(evs, i),
				     (long long)tl.end_ns, &sum, &nx);

		nm += ph == 'M';
		ns += ph == 'S';
	}
	CHECK(ns == 4, "four slow-call spans: %d", ns);
	CHECK(strstr(buf, "\"comm\":\"t\\u0001\"") != NULL,
	      "a control byte in comm is escaped");
	/* A froze the snapshot and marked the ring: watch's words, A only */
	{
		const char *ft = strstr(buf, "\"ftrace\":");

		CHECK(ft && !strncmp(ft, "\"ftrace\":\"froze ftrace's snapshot, "
				     "marked\"", 42) &&
		      !strstr(ft + 1, "\"ftrace\":"),
		      "A alone says it froze the snapshot and marked the ring");
	}
	/* 3 processes, 1 probe, 2 CPUs, 3 task lanes (pid 7, 100, 100 #2) */
	CHECK(nm == 9, "nine metadata events: %d", nm);
	CHECK(strstr(buf, "\"tid\":4194404") != NULL,
	      "the second lane of pid 100 is tid 100 + 2^22");
	CHECK(strstr(buf, "\"slow_calls\":4,\"slow_lost\":3") != NULL,
	      "otherData counts them and the lost ones");
	json_object_put(top);
	free(buf);
	kp_timeline_free(&tl);
	kp_capture_free(&c);

	/* refused: another probe, after the end, out of order */
	CHECK(parse_slow(&c, "[" SLOW("99999", 1, 1, 1) "]", err,
			 sizeof(err)) && strstr(err, "probe 99999 is not in"),
	      "a slow call of a probe the capture lacks: %s", err);
	CHECK(parse_slow(&c, "[" SLOW("1", 1000000000000, 1, 1) "]", err,
			 sizeof(err)) && strstr(err, "t_ns"),
	      "a slow call after the recording: %s", err);
	snprintf(calls, sizeof(calls), "[" SLOW(ID, 2000, 1, 1) ","
		 SLOW(ID, 1000, 1, 1) "]", id);
	CHECK(parse_slow(&c, calls, err, sizeof(err)) &&
	      strstr(err, "backwards"), "slow calls out of order: %s", err);
#undef ID
}

static void test_no_series(void)
{
	struct kp_capture c;
	struct kp_timeline tl;
	char err[256] = "";

	CHECK(!kp_capture_load(&c, FIX "capture.json", err, sizeof(err)),
	      "capture.json loads: %s", err);
	CHECK(kp_timeline_build(&tl, &c, err, sizeof(err)) == -1 &&
	      strstr(err, "kprofctl record"),
	      "a capture without a series is refused, saying how: %s", err);
	kp_capture_free(&c);
}

int main(void)
{
	test_series();
	test_no_series();
	test_slow();
	return unit_done("test_timeline");
}
