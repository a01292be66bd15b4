// SPDX-License-Identifier: GPL-2.0
/*
 * Captures on the host: a capture saved by an arm64 guest (tests/capture/,
 * written by tests/vm/guest/capture.sh) shown from the file here prints
 * exactly what the guest's show printed live; what the reader refuses,
 * and with which message; every prefix and many corruptions of a real
 * file refused or read without a fault (ASan, UBSan).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "builtin.h"
#include "capture.h"
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

/* kprofctl ARGS... run in-process, its stdout into a string */
static char *run(int argc, char **argv, int *ret)
{
	char path[] = "/tmp/test_capture.XXXXXX";
	int fd = mkstemp(path), saved = dup(1);
	size_t len;
	char *out;

	fflush(stdout);
	dup2(fd, 1);
	*ret = argv[0][0] == 's' ? cmd_show(NULL, argc, argv) :
	       cmd_diff(NULL, argc, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	close(fd);
	out = slurp(path, &len);
	unlink(path);
	return out;
}

static void test_same_as_live(void)
{
	char *argv[] = { "show", "--by-cluster", "--from", FIX "capture.json", NULL };
	char *out, *want;
	size_t len;
	int ret;

	out = run(4, argv, &ret);
	want = slurp(FIX "capture.show", &len);
	CHECK(!ret && out && want && !strcmp(out, want),
	      "show --by-cluster --from capture.json differs from the guest's "
	      "live show:\n%s\n--- want ---\n%s", out, want);
	free(out);
	free(want);
}

static void test_diff(void)
{
	char *argv[] = { "diff", FIX "base.json", FIX "slow.json", "--fail-if",
			 "p50>+10%", NULL };
	char *back[] = { "diff", FIX "slow.json", FIX "base.json", "--fail-if",
			 "p50>+10%", NULL };
	char *same[] = { "diff", FIX "base.json", FIX "base.json", "--fail-if",
			 "p99>+1%", "--json", NULL };
	char *out;
	int ret;

	out = run(5, argv, &ret);
	CHECK(ret == 1 && out && strstr(out, "FAIL kretprobe:kprof_test_spin: p50 "),
	      "a 20 %% slower spin fails 'p50>+10%%': %d\n%s", ret, out);
	free(out);
	out = run(5, back, &ret);
	CHECK(ret == 0 && out && strstr(out, "ok: 0 of 1 gate crossed"),
	      "faster passes: %d\n%s", ret, out);
	free(out);
	out = run(6, same, &ret);
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
	refused(text, "{", "[", "not JSON: array value separator ',' expected at byte 10");
	CHECK(parse("", err) == -1 && !strcmp(err, "truncated: the JSON stops "
		"after 0 bytes, inside the document"), "empty: %s", err);
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
