// SPDX-License-Identifier: GPL-2.0
/*
 * Captures on the host: a capture saved by an arm64 guest (tests/capture/,
 * written by tests/vm/guest/capture.sh) shown from the file here prints
 * exactly what the guest's show printed live; what the reader refuses,
 * and with which message; every prefix and many corruptions of a real
 * file refused or read without a fault (ASan, UBSan).
 */
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "capture.h"
#include "dev.h"
#include "diff-print.h"
#include "show.h"

#ifndef KP_DOCS_DIR
#define KP_DOCS_DIR "."
#endif
#define FIX KP_DOCS_DIR "/../tests/capture/"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (buf) {
		buf[n] = '\0';
		*len = (size_t)n;
	}
	return buf;
}

/* into a string what fn writes into its stream */
struct out {
	char *text;
	size_t len;
	FILE *f;
};

static FILE *out_open(struct out *o)
{
	o->text = NULL;
	o->len = 0;
	o->f = open_memstream(&o->text, &o->len);
	return o->f;
}

static char *out_close(struct out *o)
{
	fclose(o->f);
	return o->text;
}

/* show --by-cluster --from capture.json, through the library */
static void test_same_as_live(void)
{
	struct kp_show_opts so = { .by_cluster = 1 };
	struct kp_capture c;
	struct kp_dev d;
	char err[256] = "", *out = NULL, *want;
	struct out o;
	size_t len;
	int ret = -1;

	if (!kp_capture_load(&c, FIX "capture.json", err, sizeof(err))) {
		kp_dev_from_capture(&d, &c);
		so.out = out_open(&o);
		ret = so.out ? kp_show_ids(&d, NULL, 0, &so) : -1;
		out = so.out ? out_close(&o) : NULL;
		kp_capture_free(&c);
	}
	want = slurp(FIX "capture.show", &len);
	CHECK(!ret && out && want && !strcmp(out, want),
	      "show --by-cluster --from capture.json differs from the guest's "
	      "live show (%s):\n%s\n--- want ---\n%s", err, out, want);
	free(out);
	free(want);
}

/* diff BEFORE AFTER --fail-if GATE [--json]: gates crossed, the output */
static char *diff(const char *before, const char *after, const char *gate,
		  int json, int *crossed)
{
	const char *paths[2] = { before, after };
	struct kp_diff_opts d = { .json = json, .top = 10, .ngates = 1 };
	struct kp_gate_cfg gc = { 0 };
	struct kp_gate_res res = { 0 };
	struct kp_capture cb, ca;
	struct kp_drows rs = { 0 };
	struct kp_failif g;
	char err[256];
	struct out o = { 0 };

	*crossed = -1;
	if (kp_failif_parse(gate, &g, err, sizeof(err)) ||
	    kp_capture_load(&cb, before, err, sizeof(err)))
		return NULL;
	if (kp_capture_load(&ca, after, err, sizeof(err))) {
		kp_capture_free(&cb);
		return NULL;
	}
	if (!kp_drows_build(&rs, &cb, &ca, 1) &&
	    !kp_gate_eval(&g, gate, &rs, &gc, &res) && out_open(&o)) {
		d.gates = &res;
		if (!kp_diff_print(o.f, paths, &cb, &ca, &rs, &d))
			*crossed = res.fail;
		out_close(&o);
	}
	kp_gate_res_free(&res);
	kp_drows_free(&rs);
	kp_capture_free(&cb);
	kp_capture_free(&ca);
	return o.text;
}

static void test_diff(void)
{
	char *out;
	int ret;

	out = diff(FIX "base.json", FIX "slow.json", "p50>+10%", 0, &ret);
	CHECK(ret == 1 && out && strstr(out, "FAIL kretprobe:kprof_test_spin: p50 "),
	      "a 20 %% slower spin fails 'p50>+10%%': %d\n%s", ret, out);
	free(out);
	out = diff(FIX "slow.json", FIX "base.json", "p50>+10%", 0, &ret);
	CHECK(ret == 0 && out && strstr(out, "ok: 0 of 1 gate crossed"),
	      "faster passes: %d\n%s", ret, out);
	free(out);
	out = diff(FIX "base.json", FIX "base.json", "p99>+1%", 1, &ret);
	CHECK(ret == 0 && out && strstr(out, "\"crossed\":0}") &&
	      !strstr(out, "\"significant\":true"),
	      "a capture against itself: nothing significant: %d\n%s", ret, out);
	free(out);
}

static int parse(const char *text, char *err)
{
	struct kp_capture c;
	int r = kp_capture_parse(&c, text, strlen(text), err, 256);

	if (!r)
		kp_capture_free(&c);
	return r;
}

/* the capture with one substitution of from by to */
static char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t n = strlen(text) - strlen(from) + strlen(to) + 1;
	char *s = malloc(n);

	if (!at || !s) {
		free(s);
		return NULL;
	}
	snprintf(s, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return s;
}

static void refused(const char *text, const char *from, const char *to,
		    const char *want)
{
	char err[256] = "", *s = edit(text, from, to);

	CHECK(s && parse(s, err) == -1 && !strcmp(err, want),
	      "'%s' -> '%s': got \"%s\", want \"%s\"", from, to, err, want);
	free(s);
}

static void test_refused(void)
{
	size_t len;
	char *text = slurp(FIX "capture.json", &len), err[256];

	CHECK(text && !parse(text, err), "the fixture reads: %s", err);
	if (!text)
		return;
	refused(text, "\"version\": 1", "\"version\": 2",
		"capture format version 2 is newer than this kprofctl reads (1): "
		"read it with a newer kprofctl");
	refused(text, "\"version\": 1", "\"version\": 0",
		"capture format version 0 does not exist");
	refused(text, "\"kprofctl-capture\"", "\"perf-data\"",
		"not a kprofctl capture (it has no \"format\": \"kprofctl-capture\"; "
		"kprofctl save writes them)");
	refused(text, "\"sub_bits\": 4", "\"sub_bits\": 5",
		"context: its histograms have another bucket layout than this "
		"kprofctl's (sub_bits 4, max_exp 42): read it with the kprofctl "
		"that made it");
	refused(text, "\"nr_cpus\": 2", "\"nr_cpus\": 0", "context: \"nr_cpus\" is 0");
	refused(text, "\"type\": \"kretprobe\"", "\"type\": \"uprobe\"",
		"probe 1: unknown probe type \"uprobe\"");
	refused(text, "\"cpu\": 0", "\"cpu\": 2",
		"probe 1: \"cpu\" is 2, more than 1");
	refused(text, "\"module_abi\": \"1.", "\"module_abi\": \"2.",
		"context: made with a module of ABI 2, this kprofctl reads 1");
	refused(text, "\"slot\": 1,", "\"slot\": 0,", "probe 2: slot 0 twice");
	refused(text, "\"nr_keys\": 64", "\"nr_keys\": 1000000",
		"probe 3: the statistics it describes need more than 512 MiB");
	refused(text, "\"count\": 40", "\"count\": -40",
		"probe 1: \"count\" is negative");
	/* what a counter cannot hold */
	refused(text, "\"min\": 20736, \"max\": 20752", "\"min\": 20736, \"max\": 20000",
		"probe 1: CPU 0: \"max\" 20000 is below \"min\" 20736");
	refused(text, "\"count\": 40,", "\"count\": 39,",
		"probe 1: CPU 0: its buckets hold 40 calls, \"count\" says 39");
	refused(text, "[ [ 180, 40 ] ]", "[ [ 180, 9223372036854775808 ] ]",
		"probe 1: CPU 0: bucket 180 holds 9223372036854775808 calls, "
		"2^63 or more");
	refused(text, "\"sum\": 5616, \"min\": 1376, \"max\": 1488",
		"\"sum\": 5616, \"min\": 1376, \"max\": 1000",
		"probe 5: \"max\" 1000 is below \"min\" 1376");
	refused(text, "{", "[", "not JSON: array value separator ',' expected at byte 10");
	CHECK(parse("", err) == -1 && !strcmp(err, "truncated: the JSON stops "
		"after 0 bytes, inside the document"), "empty: %s", err);
	CHECK(parse("\x1f\x8b\x08", err) == -1 &&
	      !strcmp(err, "gzip-compressed, not JSON: unpack it (gunzip), or "
		      "give - and pipe it from zcat FILE"), "gzip: %s", err);
	CHECK(parse("{} x", err) == -1 &&
	      !strcmp(err, "data after the JSON document at byte 3"), "%s", err);
	free(text);
}

/* every prefix refused (or, once the document is whole, read) */
static void test_prefixes(void)
{
	size_t len, n, bad = 0, end;
	char *text = slurp(FIX "base.json", &len), err[256];
	struct kp_capture c;

	if (!text)
		return;
	end = strrchr(text, '}') - text + 1;
	for (n = 0; n < len; n++) {
		int r = kp_capture_parse(&c, text, n, err, sizeof(err));

		if (!r)
			kp_capture_free(&c);
		bad += (n < end) != (r == -1);
	}
	CHECK(!bad, "%zu of %zu prefixes read when cut, or refused when whole",
	      bad, len);
	free(text);
}

/* each byte replaced by a few others: no fault, whatever the answer */
static void test_corrupt(void)
{
	static const char subst[] = "0}]\"-9 ,:\xff";
	size_t len, i, k, ok = 0, all = 0;
	char *text = slurp(FIX "capture.json", &len), err[256];
	struct kp_capture c;
	FILE *null = fopen("/dev/null", "w");

	if (!text)
		return;
	for (i = 0; i < len; i += 3)
		for (k = 0; k < sizeof(subst) - 1; k++) {
			char keep = text[i];

			text[i] = subst[k];
			if (!kp_capture_parse(&c, text, len, err, sizeof(err))) {
				struct kp_show_opts o = { .topo = &c.topo,
							  .by_cluster = 1,
							  .all = c.recs,
							  .nall = c.n };

				kp_show(null, &c.m, c.recs, c.n, &o);
				kp_capture_free(&c);
				ok++;
			}
			all++;
			text[i] = keep;
		}
	CHECK(all > 10000, "%zu corruptions tried, %zu still read", all, ok);
	fclose(null);
	free(text);
}

int main(void)
{
	test_same_as_live();
	test_diff();
	test_refused();
	test_prefixes();
	test_corrupt();
	return unit_done("test_capture");
}
