// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot reading and rendering against a fake mapping built in memory,
 * laid out as the module lays it out; malformed headers must be refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "fakemap.h"
#include "agg.h"
#include "show.h"
#include "kprofctl/hist.h"

#define NCPU	3
#define NPROBE	4
#define PAGE	4096
#define STRIDE	5120

static uint8_t *fake;
static size_t fake_size;

static struct kprof_mmap_header *hdr(void)
{
	return kp_fake_hdr(fake);
}

static struct kprof_probe_info *rec(unsigned int slot)
{
	return kp_fake_rec(fake, slot);
}

static struct kprof_cpu_stats *st(unsigned int slot, unsigned int cpu)
{
	return kp_fake_st(fake, slot, cpu);
}

/* 4 x 376 bytes of probe table fit its page */
static void build(void)
{
	fake = kp_fake_build(fake, &fake_size, NPROBE, NCPU, STRIDE, 0);
}

static void add(unsigned int slot, uint32_t id, uint32_t type, const char *spec)
{
	struct kprof_probe_info *r = rec(slot);

	r->id = id;
	r->slot = slot;
	r->type = type;
	r->state = KPROF_STATE_RUNNING;
	r->stats_off = hdr()->stats_off + slot * hdr()->probe_stride;
	strcpy(r->spec, spec);
}

static void sample(unsigned int slot, unsigned int cpu, uint64_t ns)
{
	struct kprof_cpu_stats *s = st(slot, cpu);

	s->count++;
	s->sum += ns;
	if (ns < s->min)
		s->min = ns;
	if (ns > s->max)
		s->max = ns;
	s->hist[kprof_hist_index(ns)]++;
}

static char *render(int json, int per_cpu)
{
	struct kprof_probe_info recs[NPROBE];
	struct kp_show_opts o = { .json = json, .per_cpu = per_cpu };
	struct kp_map m;
	char err[128], *buf = NULL;
	unsigned int n;
	size_t len;
	FILE *f;

	if (kp_map_init(&m, fake, fake_size, err, sizeof(err)) ||
	    kp_map_probes(&m, recs, NPROBE, &n))
		return NULL;
	f = open_memstream(&buf, &len);
	kp_show(f, &m, recs, n, &o);
	fclose(f);
	return buf;
}

static int gone_1234(uint32_t pid)
{
	return pid == 1234;
}

/* issue 18: marks that need the whole table and the pid check */
static void test_notes(void)
{
	struct kprof_probe_info recs[NPROBE];
	struct kp_show_opts o = { 0 };
	struct kp_map m;
	char err[128], *out = NULL;
	unsigned int n;
	size_t len;
	FILE *f;

	build();
	add(0, 1, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	add(1, 2, KPROF_TYPE_KPROBE, "kprobe:f+4");
	add(2, 3, KPROF_TYPE_KRETPROBE, "kretprobe:g");
	rec(2)->flags = KPROF_ADD_TGID;
	rec(2)->pid = 1234;
	sample(0, 0, (uint64_t)1 << 42);
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      !kp_map_probes(&m, recs, NPROBE, &n) && n == 3, "table");
	o.all = recs;
	o.nall = n;
	o.pid_gone = gone_1234;
	f = open_memstream(&out, &len);
	kp_show(f, &m, recs, n, &o);
	fclose(f);
	CHECK(out && strstr(out, "probe 1: kretprobe:f [running]\n"
			    "  count 1  missed 0\n") &&
	      strstr(out, "  f also carries probe 2 (kprobe:f+4, running): "),
	      "probe 1 marked: %s", out);
	CHECK(out && strstr(out, "  f also carries probe 1 (kretprobe:f, running): "),
	      "probe 2 marked");
	CHECK(out && !strstr(out, "g also carries"), "g unmarked");
	CHECK(out && strstr(out, "  tgid 1234 has exited: this probe records "
			    "nothing more\n"), "exited filter");
	CHECK(out && strstr(out, "  >= 4398s : 1 "), "overflow row in seconds: %s",
	      out);
	free(out);
	o.json = 1;
	f = open_memstream(&out, &len);
	kp_show(f, &m, recs, n, &o);
	fclose(f);
	CHECK(out && strstr(out, "\"same_function\":[2]") &&
	      strstr(out, "\"same_function\":[1]") &&
	      strstr(out, "\"same_function\":[]"), "JSON same_function: %s", out);
	free(out);
}

static unsigned int pid_calls;

/* a writer that finishes a reset while the probes are printed */
static int gone_bumps_seq(uint32_t pid)
{
	if (!pid_calls++)
		__atomic_fetch_add(&hdr()->seq, 2, __ATOMIC_RELEASE);
	return pid == 1234;
}

/*
 * The printers run once, from one copy: a seqcount that moves while they
 * run neither prints the probes twice nor calls their callbacks (frame
 * names, kallsyms, pid checks) again.  A probe deleted since its record
 * was read is left out; a mapping that never settles is an error.
 */
static void test_once(void)
{
	struct kprof_probe_info recs[NPROBE];
	struct kp_show_opts o = { .pid_gone = gone_bumps_seq };
	struct kp_map m;
	char err[128], *out = NULL;
	unsigned int n;
	size_t len;
	FILE *f;

	build();
	add(0, 1, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	rec(0)->flags = KPROF_ADD_TGID;
	rec(0)->pid = 1234;
	add(1, 2, KPROF_TYPE_KPROBE, "kprobe:g");
	sample(0, 0, 1000);
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      !kp_map_probes(&m, recs, NPROBE, &n) && n == 2, "table");
	rec(1)->id = 0;		/* deleted after the table was read */
	pid_calls = 0;
	f = open_memstream(&out, &len);
	CHECK(kp_show(f, &m, recs, n, &o) == 0, "shown");
	fclose(f);
	CHECK(pid_calls == 1, "the printers ran once, not %u times", pid_calls);
	CHECK(out && strstr(out, "probe 1: kretprobe:f [running]\n") == out &&
	      !strstr(out + 1, "probe 1: "), "probe 1 printed once: %s", out);
	CHECK(out && strstr(out, "  tgid 1234 has exited") &&
	      !strstr(out, "probe 2"), "deleted probe left out: %s", out);
	free(out);

	hdr()->seq = 1;		/* a writer that never finishes */
	f = fopen("/dev/null", "w");
	CHECK(f && kp_show(f, &m, recs, n, &o) == -1, "odd seq: an error");
	if (f)
		fclose(f);
}

static void test_render(void)
{
	char *out;
	int i;

	build();
	add(2, 7, KPROF_TYPE_KRETPROBE, "kretprobe:my\"fn");
	add(0, 3, KPROF_TYPE_KPROBE, "kprobe:nop");
	for (i = 0; i < 90; i++)
		sample(2, 1, 1000);
	for (i = 0; i < 10; i++)
		sample(2, 2, 1000000);
	st(2, 2)->drops = 2;
	rec(2)->nmissed = 5;
	st(0, 0)->count = 42;

	out = render(1, 0);
	CHECK(out != NULL, "JSON rendered");
	if (!out)
		return;
	{
		static const char head[] = "{\"probes\":[{\"id\":3,\"spec\":"
			"\"kprobe:nop\",\"type\":\"kprobe\",\"state\":\"running\","
			"\"count\":42,\"missed\":0,\"per_cpu\":[{\"cpu\":0,"
			"\"count\":42,\"missed\":0},{\"cpu\":1,\"count\":0,"
			"\"missed\":0},{\"cpu\":2,\"count\":0,\"missed\":0}]";

		/* a kprobe times nothing: no latency fields, not zeros */
		CHECK(!strncmp(out, head, sizeof(head) - 1),
		      "kprobe first (by slot), every CPU, no latency: %.200s", out);
	}
	CHECK(strstr(out, "\"id\":7,\"spec\":\"kretprobe:my\\\"fn\",") != NULL,
	      "spec escaped");
	CHECK(strstr(out, "\"count\":100,\"missed\":7,\"min_ns\":1000,"
		      "\"max_ns\":1000000,\"sum_ns\":10090000,") != NULL,
	      "totals: %s", out);
	/* 1000 lies in [992, 1024); its midpoint is 1007, clamped to max etc. */
	CHECK(strstr(out, "\"p50_ns\":1007,\"p90_ns\":1007,\"p99_ns\":") != NULL,
	      "p50/p90 from the 1000 ns bucket");
	CHECK(strstr(out, "{\"lo_ns\":992,\"hi_ns\":1024,\"count\":90}") != NULL,
	      "fine bucket listed");
	/* every CPU, the idle one too: the parts sum to the whole */
	CHECK(strstr(out, "\"per_cpu\":[{\"cpu\":0,\"count\":0,\"missed\":0,") &&
	      strstr(out, "{\"cpu\":1,\"count\":90,\"missed\":0,") &&
	      strstr(out, "{\"cpu\":2,\"count\":10,\"missed\":2,"),
	      "per-CPU entries, every CPU");
	/* issue 18: mean, and per CPU the percentiles of the total */
	CHECK(strstr(out, "\"p999_ns\":999423,\"mean_ns\":100900,") != NULL,
	      "mean_ns: %s", out);
	CHECK(strstr(out, "{\"cpu\":1,\"count\":90,\"missed\":0,\"min_ns\":1000,"
		      "\"max_ns\":1000,\"sum_ns\":90000,\"p50_ns\":1000,"
		      "\"p90_ns\":1000,\"p99_ns\":1000,\"p999_ns\":1000,"
		      "\"mean_ns\":1000}") != NULL, "per-CPU p90/p999/mean: %s", out);
	CHECK(out[strlen(out) - 2] == '}' && out[strlen(out) - 1] == '\n',
	      "one object, one line");
	free(out);

	out = render(0, 1);
	CHECK(out && strstr(out, "probe 7: kretprobe:my\"fn [running]\n"
			    "  count 100  missed 7\n"), "text header");
	CHECK(out && strstr(out, "p50 1.007us  p90 1.007us"), "text percentiles");
	/* issue 18: rows in the units of the summary, [lo, hi) */
	CHECK(out && strstr(out, "latency : count"), "histogram header: %s", out);
	CHECK(out && strstr(out, "  512ns -> 1.024us : 90 "), "text histogram row");
	CHECK(out && strstr(out, "524.3us -> 1.049ms : 10 "), "second row");
	CHECK(out && strstr(out, "...\n"), "empty rows elided");
	CHECK(out && strstr(out, "  cpu 2:\n    count 10  missed 2\n"),
	      "per-CPU text");
	free(out);

	/* issue 18: misses over 1 % of the calls are explained */
	build();
	add(2, 7, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	add(1, 8, KPROF_TYPE_KPROBE, "kprobe:g");
	add(0, 9, KPROF_TYPE_KPROBE, "kprobe:h");
	rec(2)->maxactive = 10;
	for (i = 0; i < 120; i++)
		sample(2, 0, 1000);
	rec(2)->nmissed = 72;
	st(1, 0)->count = 1000;
	rec(1)->nmissed = 11;
	st(0, 0)->count = 1000;
	rec(0)->nmissed = 10;
	out = render(0, 0);
	CHECK(out && strstr(out, "probe 7: kretprobe:f [running]\n"
			    "  count 120  missed 72\n") &&
	      strstr(out, "  p50 1us  p90 1us  p99 1us  p99.9 1us\n"
			  "  72 calls (37 %) missed: maxactive 10 exhausted; "
			  "add it again with --maxactive 64\n"),
	      "kretprobe misses explained: %s", out);
	CHECK(out && strstr(out, "probe 8: kprobe:g [running]\n"
			    "  count 1000  missed 11\n"
			    "  11 calls (1 %) missed: "), "kprobe misses: %s", out);
	CHECK(out && strstr(out, "recursion") && !strstr(out, "10 calls ("),
	      "kprobe: the reason; exactly 1 %% is no warning: %s", out);
	free(out);

	/* issue 18: a stopped probe that never ran says how to start it */
	build();
	add(0, 4, KPROF_TYPE_KRETPROBE, "kretprobe:f");
	rec(0)->state = KPROF_STATE_STOPPED;
	out = render(0, 0);
	CHECK(out && strstr(out, "probe 4: kretprobe:f [stopped]\n"
			    "  count 0  missed 0\n"
			    "  stopped: kprofctl start 4\n"), "stopped hint: %s", out);
	free(out);

	/* empty: text says so, JSON is an empty list */
	build();
	out = render(0, 0);
	CHECK(out && !strcmp(out, "no probes\n"), "no probes");
	free(out);
	out = render(1, 0);
	CHECK(out && !strcmp(out, "{\"probes\":[]}\n"), "empty JSON");
	free(out);
}

static void expect_refused(const char *what)
{
	struct kp_map m;
	char err[128] = "";

	CHECK(kp_map_init(&m, fake, fake_size, err, sizeof(err)) == -1 && err[0],
	      "refused: %s", what);
}

static void test_malformed(void)
{
	struct kprof_probe_info recs[NPROBE];
	struct kp_map m;
	char err[128];
	unsigned int n;

#define BAD(stmt, what) do { build(); stmt; expect_refused(what); } while (0)
	BAD(hdr()->magic++, "magic");
	BAD(hdr()->abi_major++, "abi major");
	BAD(hdr()->mmap_size++, "size mismatch");
	BAD(hdr()->probes_off = fake_size - 8, "table past the end");
	BAD(hdr()->probes_off = UINT64_MAX - 100, "table offset overflow");
	BAD(hdr()->stats_off = fake_size, "stats past the end");
	BAD(hdr()->max_probes = 0xffffffff, "huge max_probes");
	BAD(hdr()->cpu_stride = 8, "stride smaller than the stats");
	BAD(hdr()->probe_stride = STRIDE, "probe stride smaller than its CPUs");
	BAD(hdr()->probe_stride = UINT64_MAX / 2, "huge probe stride");
	BAD(hdr()->nr_cpus = 0, "no CPUs");
	BAD(hdr()->hist_nr_buckets = 10, "other histogram");
	BAD(hdr()->probe_rec_size = 8, "short records");
	BAD(hdr()->header_size = 1, "short header");
	build();
	CHECK(kp_map_init(&m, fake, 16, err, sizeof(err)) == -1, "tiny mapping");

	/* a record whose stats_off does not match its slot */
	build();
	add(1, 9, KPROF_TYPE_KRETPROBE, "kretprobe:x");
	rec(1)->stats_off = fake_size - 8;
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      kp_map_probes(&m, recs, NPROBE, &n) == -1, "bad record refused");
	/* a writer that never finishes: bounded retries, then an error */
	build();
	hdr()->seq = 1;
	CHECK(!kp_map_init(&m, fake, fake_size, err, sizeof(err)) &&
	      kp_map_probes(&m, recs, NPROBE, &n) == -1, "odd seq gives up");
}

int main(void)
{
	test_render();
	test_notes();
	test_once();
	test_malformed();
	free(fake);
	return unit_done("stats");
}
