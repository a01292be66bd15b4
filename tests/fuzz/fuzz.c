// SPDX-License-Identifier: GPL-2.0
/*
 * ioctl/mmap fuzzer for /dev/kprofctl, run in the VM guest as root.
 *
 * Threads (pinned to different CPUs) make random calls: command numbers
 * around and outside the magic, every size, flag and reserved bit, hostile
 * pointers (NULL, kernel, unmapped, read-only, page-straddling), mutated
 * valid structs, and mmap/mprotect/mremap/fork+munmap sequences, while one
 * long-lived mapping is read throughout, across deletes and resets.  The
 * kernel side is judged by the console (KASAN, lockdep, WARN...); the
 * fuzzer itself checks the invariants it can see and prints TAP.
 *
 * usage: fuzz [--seed N] [--calls N] [--threads N]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../../uapi/linux/kprofctl.h"

#define MAX_IDS		256

static int dev;
static long pg;
static struct kprof_version ver;
static unsigned long long seed;
static unsigned long calls_per_thread;

/* ids seen by any thread; races between threads are part of the test */
static uint32_t ids[MAX_IDS];

/* hostile buffers */
static uint8_t *ro_page;	/* PROT_READ */
static uint8_t *straddle;	/* last bytes of a RW page before PROT_NONE */
static uint8_t *unmapped;	/* munmap()ed */

struct fstate {
	unsigned long long rng;
	unsigned int cpu;
	unsigned long calls, ok, einval, enotty, efault, other, maps;
	unsigned long bad;	/* invariant violations */
	char why[160];
};

static uint64_t rnd(struct fstate *s)
{
	/* xorshift64* */
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 2685821657736338717ULL;
}

static uint64_t below(struct fstate *s, uint64_t n)
{
	return n ? rnd(s) % n : 0;
}

static void violation(struct fstate *s, const char *why)
{
	if (!s->bad++)
		snprintf(s->why, sizeof(s->why), "%s", why);
}

static void tally(struct fstate *s, int ret)
{
	s->calls++;
	if (!ret)
		s->ok++;
	else if (errno == EINVAL || errno == E2BIG)
		s->einval++;
	else if (errno == ENOTTY)
		s->enotty++;
	else if (errno == EFAULT)
		s->efault++;
	else
		s->other++;
}

static const char *const specs[] = {
	"kprobe:kprof_test_nop", "kretprobe:kprof_test_nop",
	"kretprobe:kprof_test_spin", "kprobe:kprof_test_spin+4",
	"kprobe:kprof_test_spin+1", "kprobe:kprof_test_spin+0x100000",
	"kprobe:kprof_test:kprof_test_nop", "kretprobe:kprof_test_nop+4",
	"kprobe:", "kprobe", ":", "kprobe:no_such_symbol_fuzz",
	"uprobe:x", "kprobe:a b", "kprobe:kprof_test_nop+-1",
	"kprobe:kprobes_inc_nmissed_count", "kretprobe::", "kprobe:+",
	"tracepoint:sched:sched_process_fork", "tracepoint:sched:nope",
	"tracepoint:irq:irq_handler_entry", "tracepoint::", "tracepoint:a",
	/* function sets: module and core globs, pending, malformed */
	"kprobe:kprof_test:kprof_test_no*", "kretprobe:kprof_test:kprof_test_s*",
	"kprobe:kprof_test:kprof_test_wfn1*", "kprobe:kprof_funcs:kpf_f0*",
	"kretprobe:kprof_funcs:kpf_lat_*", "kprobe:kprof_funcs:kpf_[ni]*",
	"kprobe:vfs_rea*", "kretprobe:vfs_rea?", "kprobe:fuzz_nosuchmod:*",
	"kretprobe:fuzz_nosuchmod:x?", "kprobe:[", "kprobe:mod:", "kprobe:mod:[",
	"kprobe::*", "kprobe:*:", "kprobe:a:b:*", "kprobe:kprof_test:*+4",
	"kprobe:kprof_test_no*+4", "kprobe:[]", "kprobe:[!a-z]*zz_fuzz",
	"kprobe:kprof_test:[", "kretprobe:kprof_test:**", "kprobe:?",
	"kprobe:kprof_test:kprof_test_nop*", "kprobe:*zz_no_match_fuzz",
	/* samples: events, rates, junk */
	"sample:cpu_cycles", "sample:cpu-clock:hz=4999",
	"sample:cpu_cycles:period=1", "sample:cpu-clock:period=0x10000",
	"sample:inst_retired:hz=100000", "sample:cpu_cycles:hz=100001",
	"sample:cpu-clock:hz=0", "sample:", "sample:nope", "sample:cpu_cycles:",
	"sample:cpu_cycles:hz=", "sample:cpu_cycles,inst_retired",
	"sample:cpu-clock:rate=9", "sample:0x11:period=18446744073709551615",
	/* off-CPU: the two kinds of waits, junk */
	"offcpu:all", "offcpu:uninterruptible", "offcpu:", "offcpu:io",
	"offcpu", "offcpu:all:x",
};

/*
 * A glob spec from pieces: PREFIX:[MOD:]LITERAL then wildcards and junk.
 * Core globs keep a literal start (a bare "*" walks and hooks the whole
 * kernel: rare, see below); MOD may be long past MODULE_NAME_LEN.
 */
static void fuzz_glob(struct fstate *s, char *spec, size_t len)
{
	static const char *const mods[] = {
		"", "", "kprof_test:", "kprof_funcs:", "fuzz_nosuchmod:", ":",
		"kprof_test::", "*:",
		"mmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmmm:",
	};
	static const char *const lits[] = {
		"kprof_test_", "kprof_test_wfn", "kpf_f0", "kpf_lat_", "vfs_rea",
		"kprof_test_no", "kpf_f29", "zz_fuzz",
	};
	static const char *const wild[] = {
		"*", "?", "[", "]", "[!a-m]", "[0-4]", "\\", "+4", ":", "x",
		"[]]", "[a-", "**", "-",
	};
	size_t n;
	unsigned int k, parts;

	if (!below(s, 1024)) {		/* every core function: over the limit */
		snprintf(spec, len, "%s", below(s, 2) ? "kprobe:*" : "kretprobe:*");
		return;
	}
	n = snprintf(spec, len, "%s%s%s", below(s, 2) ? "kprobe:" : "kretprobe:",
		     mods[below(s, sizeof(mods) / sizeof(mods[0]))],
		     lits[below(s, sizeof(lits) / sizeof(lits[0]))]);
	parts = 1 + (unsigned int)below(s, 4);
	for (k = 0; k < parts && n < len; k++)
		n += snprintf(spec + n, len - n, "%s",
			      wild[below(s, sizeof(wild) / sizeof(wild[0]))]);
	if (!below(s, 32) && n < len)	/* as long as the field allows */
		memset(spec + n, '*', len - n - 1);
}

static uint32_t pick_id(struct fstate *s)
{
	switch (below(s, 4)) {
	case 0:
		return (uint32_t)rnd(s);
	case 1:
		return 0;
	default:
		return __atomic_load_n(&ids[below(s, MAX_IDS)], __ATOMIC_RELAXED);
	}
}

static void remember(struct fstate *s, uint32_t id)
{
	__atomic_store_n(&ids[below(s, MAX_IDS)], id, __ATOMIC_RELAXED);
}

/* an argument pointer: mostly a good buffer, sometimes hostile */
static void *pick_ptr(struct fstate *s, void *good, size_t len)
{
	switch (below(s, 16)) {
	case 0:
		return NULL;
	case 1:
		return (void *)(uintptr_t)(0xffff800000000000ULL + below(s, 1ULL << 40));
	case 2:
		return unmapped + below(s, pg);
	case 3:
		return ro_page + below(s, pg / 2);
	case 4:
		/* the struct runs into a PROT_NONE page */
		return straddle + pg - (len ? below(s, len) + 1 : 1);
	default:
		return good;
	}
}

static uint32_t pick_size(struct fstate *s, uint32_t real)
{
	switch (below(s, 8)) {
	case 0:
		return 0;
	case 1:
		return (uint32_t)below(s, real);
	case 2:
		return real + 8 * (uint32_t)below(s, 64);
	case 3:
		return (uint32_t)rnd(s);
	case 4:
		return real + 1 + (uint32_t)below(s, 7);	/* unaligned */
	default:
		return real;
	}
}

static unsigned long pick_cmd(struct fstate *s)
{
	static const unsigned long valid[] = {
		KPROF_IOC_GET_VERSION, KPROF_IOC_ADD_PROBE, KPROF_IOC_DEL_PROBE,
		KPROF_IOC_START, KPROF_IOC_STOP, KPROF_IOC_RESET,
		KPROF_IOC_INFO, KPROF_IOC_LIST, KPROF_IOC_BOOT_REPORT,
		KPROF_IOC_KEY_FRAMES,
	};

	switch (below(s, 10)) {
	case 0:	/* around the magic */
		return _IOC(below(s, 4), KPROF_IOC_MAGIC + (int)below(s, 3) - 1,
			    below(s, 16), below(s, 64));
	case 1:	/* right nr, wrong direction or size bits */
		return _IOC(below(s, 4), KPROF_IOC_MAGIC, below(s, 8),
			    below(s, 1 << 13));
	case 2:
		return (unsigned long)(uint32_t)rnd(s);
	default:
		return valid[below(s, sizeof(valid) / sizeof(valid[0]))];
	}
}

/* a buffer with room for any struct, plus slack for "newer" sizes */
union argbuf {
	struct kprof_version v;
	struct kprof_probe_add a;
	struct kprof_probe_id i;
	struct kprof_probe_query q;
	struct kprof_probe_list l;
	struct kprof_boot_report br;
	struct kprof_key_frames kf;
	uint8_t raw[4096];
};

/*
 * Keys and a filter (ABI 1.9): mostly near-valid (kinds, fields and ops a
 * step past their ranges, comms of any length), sometimes raw bits.
 */
static void fuzz_keys(struct fstate *s, struct kprof_probe_add *a)
{
	unsigned int i, j, n;

	for (i = 0; i < KPROF_MAX_KEYS; i++)
		if (!i || below(s, 2))
			a->key[i] = below(s, 4) ?
				KPROF_KEYSPEC(below(s, KPROF_KEY_MAX + 2),
					      below(s, 8), below(s, 9)) :
				(uint32_t)rnd(s);
	a->nr_keys = below(s, 2) ? 0 : below(s, 4) ?
		1U << below(s, 14) : (uint32_t)rnd(s);
	if (!below(s, 16))
		a->reserved3 = (uint32_t)rnd(s);
	a->filter.nr = below(s, 8) ? below(s, KPROF_FILTER_TERMS + 1) :
				     (uint32_t)rnd(s);
	for (i = 0; i < KPROF_FILTER_TERMS; i++) {
		struct kprof_term *t = &a->filter.term[i];

		if (i >= a->filter.nr && below(s, 8))
			break;
		t->field = (uint16_t)below(s, KPROF_F_MAX + 2);
		t->op = (uint16_t)below(s, KPROF_OP_MAX + 2);
		t->flags = below(s, 4) ? 0 : (uint32_t)below(s, 3);
		t->value = rnd(s);
		if (t->field == KPROF_F_COMM || !below(s, 16)) {
			n = (unsigned int)below(s, KPROF_COMM_LEN + 1);
			for (j = 0; j < n; j++)
				t->comm[j] = (char)('a' + below(s, 26));
		}
	}
	if (!below(s, 32))
		a->filter.reserved0 = (uint32_t)rnd(s);
}

static void fill_struct(struct fstate *s, unsigned long cmd, union argbuf *b,
			struct kprof_probe_info *recs, size_t nrecs)
{
	unsigned int i;

	memset(b, 0, sizeof(*b));
	if (!below(s, 8)) {		/* garbage */
		for (i = 0; i < 512; i++)
			b->raw[i] = (uint8_t)rnd(s);
		return;
	}
	switch (cmd) {
	case KPROF_IOC_ADD_PROBE:
		b->a.size = pick_size(s, sizeof(b->a));
		b->a.flags = below(s, 3) ? (uint32_t)below(s, 16) :
					   1U << below(s, 32);
		if (!below(s, 6))
			b->a.flags |= KPROF_ADD_START;
		b->a.pid = below(s, 3) ? 0 : (uint32_t)below(s, 200);
		b->a.maxactive = below(s, 2) ? 0 : (uint32_t)(below(s, 3) ?
			below(s, 64) : rnd(s));
		b->a.cpus[below(s, KPROF_CPUMASK_WORDS)] = below(s, 2) ?
			1ULL << below(s, 4) : rnd(s);
		if (!below(s, 10))
			b->a.reserved0 = (uint32_t)rnd(s);
		if (!below(s, 10))
			b->a.reserved[below(s, 4)] = rnd(s);
		if (!below(s, 10)) {		/* no NUL, over-long */
			memset(b->a.spec, 'k', sizeof(b->a.spec));
		} else if (!below(s, 6)) {
			fuzz_glob(s, b->a.spec, sizeof(b->a.spec));
		} else {
			snprintf(b->a.spec, sizeof(b->a.spec), "%s",
				 specs[below(s, sizeof(specs) / sizeof(specs[0]))]);
		}
		if (!below(s, 8))
			fuzz_keys(s, &b->a);
		if (b->a.size > sizeof(b->a) && below(s, 2))
			b->raw[sizeof(b->a) + below(s, b->a.size - sizeof(b->a))
			       % (sizeof(b->raw) - sizeof(b->a))] = 1;
		return;
	case KPROF_IOC_INFO:
		b->q.size = pick_size(s, sizeof(b->q));
		b->q.id = pick_id(s);
		b->q.flags = below(s, 8) ? 0 : (uint32_t)rnd(s);
		return;
	case KPROF_IOC_BOOT_REPORT:
		b->br.size = pick_size(s, sizeof(b->br));
		b->br.count = (uint32_t)(below(s, 4) ? below(s, 8) : rnd(s));
		b->br.rec_size = (uint32_t)(below(s, 3) ? sizeof(struct kprof_boot_rec) :
			below(s, 4) ? 4 * below(s, 200) : rnd(s));
		/* the records buffer doubles as room for boot records */
		b->br.ptr = (uintptr_t)pick_ptr(s, recs, sizeof(*recs));
		if (!below(s, 16))
			b->br.reserved[below(s, 2)] = rnd(s);
		return;
	case KPROF_IOC_KEY_FRAMES: {
		/* room for any table (1024 ids of 1 address) when it is ours */
		static uint64_t frames[1024];

		b->kf.size = pick_size(s, sizeof(b->kf));
		b->kf.id = pick_id(s);
		b->kf.ptr = (uintptr_t)pick_ptr(s, frames, sizeof(frames[0]));
		b->kf.count = (uint32_t)(b->kf.ptr == (uintptr_t)frames ||
					 below(s, 2) ? below(s, 1025) : rnd(s));
		if (!b->kf.ptr && below(s, 2))
			b->kf.count = 0;
		if (!below(s, 16))
			b->kf.flags = (uint32_t)rnd(s);
		if (!below(s, 16))
			b->kf.depth = (uint32_t)rnd(s);
		return;
	}
	case KPROF_IOC_LIST:
		b->l.size = pick_size(s, sizeof(b->l));
		b->l.count = (uint32_t)(below(s, 4) ? below(s, nrecs + 2) : rnd(s));
		b->l.rec_size = (uint32_t)(below(s, 3) ? sizeof(*recs) :
			below(s, 4) ? 8 * below(s, 80) : rnd(s));
		b->l.ptr = (uintptr_t)pick_ptr(s, recs, sizeof(*recs));
		return;
	case KPROF_IOC_GET_VERSION:
		b->v.size = pick_size(s, sizeof(b->v));
		return;
	default:
		b->i.size = pick_size(s, sizeof(b->i));
		b->i.id = pick_id(s);
		b->i.flags = below(s, 8) ? 0 : (uint32_t)rnd(s);
		b->i.reserved0 = below(s, 8) ? 0 : (uint32_t)rnd(s);
	}
}

static void one_ioctl(struct fstate *s, struct kprof_probe_info *recs,
		      size_t nrecs)
{
	union argbuf b;
	unsigned long cmd = pick_cmd(s);
	void *arg;
	int ret;

	fill_struct(s, cmd, &b, recs, nrecs);
	arg = pick_ptr(s, &b, sizeof(b.a));
	ret = ioctl(dev, cmd, arg);
	tally(s, ret);
	if (!ret && cmd == KPROF_IOC_ADD_PROBE && arg == &b)
		remember(s, b.a.id);
	/* invariants visible from here */
	if (!ret && cmd == KPROF_IOC_GET_VERSION && arg == &b &&
	    b.v.size >= 12 && b.v.abi_major != KPROF_ABI_MAJOR)
		violation(s, "GET_VERSION returned another ABI");
	if (ret && errno != EINVAL && errno != ENOTTY && errno != EFAULT &&
	    errno != E2BIG && errno != ENOENT && errno != EADDRNOTAVAIL &&
	    errno != ENOSPC && errno != ENODEV && errno != ENOMEM &&
	    errno != EOPNOTSUPP && errno != EBUSY) {
		char why[96];

		snprintf(why, sizeof(why), "ioctl 0x%lx: unexpected errno %d",
			 cmd, errno);
		violation(s, why);
	}
}

static void one_mmap(struct fstate *s)
{
	static const int prots[] = { PROT_READ, PROT_READ | PROT_WRITE,
				     PROT_READ | PROT_EXEC, PROT_WRITE,
				     PROT_NONE };
	size_t len = below(s, 4) ? pg * (1 + below(s, 4)) :
				   (size_t)below(s, ver.mmap_size * 2) + 1;
	off_t off = below(s, 3) ? (off_t)(pg * below(s, ver.mmap_size / pg + 2)) :
				  (off_t)rnd(s);
	int prot = prots[below(s, 5)];
	int flags = below(s, 4) ? MAP_SHARED : MAP_PRIVATE;
	uint8_t *p;
	volatile uint8_t sink;

	s->maps++;
	p = mmap(NULL, len, prot, flags, dev, off);
	tally(s, p == MAP_FAILED ? -1 : 0);
	if (p == MAP_FAILED)
		return;
	if (prot & PROT_WRITE)
		violation(s, "a writable mapping was granted");
	if (prot & PROT_READ)
		sink = p[below(s, len)];
	(void)sink;
	if (!mprotect(p, pg, PROT_READ | PROT_WRITE))
		violation(s, "mprotect to PROT_WRITE succeeded");
	if (mremap(p, len, len + pg, 0) != MAP_FAILED)
		violation(s, "mremap grew a mapping");
	if (!below(s, 64)) {
		pid_t kid = fork();

		if (!kid) {
			munmap(p, len);
			_exit(0);
		}
		if (kid > 0)
			waitpid(kid, NULL, 0);
	}
	munmap(p, len);
}

/*
 * The mapping kept across probe deletes and module-wide resets: fuzz
 * threads sweep it (a word per page and a random one) every 64 calls.
 */
static const volatile uint64_t *keep_map;
static unsigned long sweeps;

static void sweep(struct fstate *s)
{
	size_t words = ver.mmap_size / 8, step = pg / 8, i;
	uint64_t x = 0;

	for (i = 0; i < words; i += step)
		x += keep_map[i];
	x += keep_map[below(s, words)];
	__atomic_add_fetch(&sweeps, 1 + (x & 0), __ATOMIC_RELAXED);
}

static void *fuzz_thread(void *arg)
{
	struct fstate *s = arg;
	static struct kprof_probe_info recs[8];
	cpu_set_t set;
	unsigned long i;

	CPU_ZERO(&set);
	CPU_SET(s->cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (i = 0; i < calls_per_thread; i++) {
		if (below(s, 10))
			one_ioctl(s, recs, 8);
		else
			one_mmap(s);
		if (!(i % 64))
			sweep(s);
	}
	return NULL;
}

static int setup_buffers(void)
{
	uint8_t *two;

	ro_page = mmap(NULL, pg, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	two = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unmapped = mmap(NULL, pg, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro_page == MAP_FAILED || two == MAP_FAILED || unmapped == MAP_FAILED)
		return -1;
	if (mprotect(two + pg, pg, PROT_NONE) || munmap(unmapped, pg))
		return -1;
	straddle = two;
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "seed", required_argument, NULL, 's' },
		{ "calls", required_argument, NULL, 'n' },
		{ "threads", required_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long calls = 100000, nthreads = 2, i;
	unsigned long total = 0, maps = 0, bad = 0, ok = 0, einval = 0;
	unsigned long enotty = 0, efault = 0, other = 0;
	struct timespec ts;
	struct fstate *st;
	pthread_t *th;
	uint64_t *m;
	int opt, ncpu;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	seed = (unsigned long long)ts.tv_nsec * 2654435761ULL ^ (unsigned long long)getpid();
	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		char *end;

		errno = 0;
		switch (opt) {
		case 's':
			seed = strtoull(optarg, &end, 0);
			break;
		case 'n':
			calls = strtoul(optarg, &end, 0);
			break;
		case 't':
			nthreads = strtoul(optarg, &end, 0);
			break;
		default:
			fprintf(stderr, "usage: fuzz [--seed N] [--calls N] [--threads N]\n");
			return 2;
		}
		if (errno || *end) {
			fprintf(stderr, "fuzz: bad number '%s'\n", optarg);
			return 2;
		}
	}
	if (!seed)
		seed = 1;
	if (!nthreads || nthreads > 64 || !calls) {
		fprintf(stderr, "fuzz: need 1-64 threads and calls > 0\n");
		return 2;
	}
	printf("# fuzz: seed %llu (reproduce with --seed %llu), %lu calls, %lu threads\n",
	       seed, seed, calls, nthreads);
	pg = sysconf(_SC_PAGESIZE);
	/* control ioctls need a descriptor opened for writing */
	dev = open(KPROF_DEVICE, O_RDWR);
	ver.size = sizeof(ver);
	if (dev < 0 || ioctl(dev, KPROF_IOC_GET_VERSION, &ver) || setup_buffers()) {
		printf("Bail out! setup: %s\n", strerror(errno));
		return 1;
	}
	m = mmap(NULL, ver.mmap_size, PROT_READ, MAP_SHARED, dev, 0);
	if (m == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	keep_map = m;
	signal(SIGPIPE, SIG_IGN);
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	calls_per_thread = (calls + nthreads - 1) / nthreads;
	st = calloc(nthreads, sizeof(*st));
	th = calloc(nthreads, sizeof(*th));
	for (i = 0; i < nthreads; i++) {
		st[i].rng = seed * (i + 1) * 0x9e3779b97f4a7c15ULL | 1;
		st[i].cpu = (unsigned int)(i % (unsigned long)ncpu);
		pthread_create(&th[i], NULL, fuzz_thread, &st[i]);
	}
	for (i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	printf("# fuzz: the long-lived mapping was swept %lu times\n", sweeps);
	for (i = 0; i < nthreads; i++) {
		total += st[i].calls;
		maps += st[i].maps;
		ok += st[i].ok;
		einval += st[i].einval;
		enotty += st[i].enotty;
		efault += st[i].efault;
		other += st[i].other;
		bad += st[i].bad;
		if (st[i].bad)
			printf("# thread %lu: %lu violations, first: %s\n", i,
			       st[i].bad, st[i].why);
	}
	printf("# fuzz: %lu calls (%lu mmap), ok %lu, EINVAL/E2BIG %lu, "
	       "ENOTTY %lu, EFAULT %lu, other %lu\n", total, maps, ok, einval,
	       enotty, efault, other);
	printf("%s - fuzz: %lu calls from %lu threads, no invariant broken "
	       "(seed %llu)\n", bad ? "not ok" : "ok", total, nthreads, seed);
	printf("%s - fuzz: at least 100000 calls\n",
	       total >= 100000 ? "ok" : "not ok");
	/* clean up whatever the fuzz left, then prove the module still works */
	{
		struct kprof_probe_id d = { .size = sizeof(d) };
		int r = ioctl(dev, KPROF_IOC_DEL_PROBE, &d);

		printf("%s - fuzz: DEL all afterwards\n", r ? "not ok" : "ok");
	}
	munmap(m, ver.mmap_size);
	close(dev);
	return bad ? 1 : 0;
}
