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
 * Latency probes (ABI 1.11): adds carry KPROF_ADD_FAST and
 * KPROF_ADD_KRETPROBE, alone and together, on every kind; one more thread
 * adds fast probes on kprof_test functions and calls them while the
 * others delete, stop and reset whatever ids they pick up.
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
#include <sys/utsname.h>
#include <sys/wait.h>

#include "../../uapi/linux/kprofctl.h"
#include "../../include/kprofctl/kinds.h"

#define MAX_IDS		256
#define TRIGGER		"/sys/kernel/debug/kprof_test/trigger"
#define FAST_PARAM	"/sys/module/kprofctl/parameters/fast"
#define MECH_BITS	(KPROF_ADD_FAST | KPROF_ADD_KRETPROBE)

static int dev;
static long pg;
static struct kprof_version ver;
static unsigned long long seed;
static unsigned long calls_per_thread;
/* the module's answer to a fast probe on kprof_test_nop, before the run */
static int fast_errno;
/* no kprobes in the kernel (ABI 1.13): KRETPROBE is -EOPNOTSUPP */
static int no_core;

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
	unsigned long fast_added;	/* KPROF_ADD_FAST adds that succeeded */
	unsigned long fast_armed;	/* of the fast thread's: running, ftrace */
	unsigned long fast_fired;	/* and recorded calls of ours */
	unsigned long kret_added;	/* KPROF_ADD_KRETPROBE adds that succeeded */
	unsigned long mech_checked;	/* adds with either flag, read in full */
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
	/* latency sets with kpf_notrace: a fast set's kretprobe for it */
	"kretprobe:kprof_funcs:kpf_[ln][ao]t[_r]*",
	"kretprobe:kprof_funcs:kpf_notrac?",
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
	/* a module's memory: loaded, pending, the test module, junk */
	"mem:kprof_test", "mem:kprof_test_mem", "mem:kprof-test",
	"mem:fuzz_nosuchmod", "mem:", "mem:a:b", "mem:kprof_test*", "mem",
	"mem:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
	/* pairs and PMU counters (the kinds no latency flag applies to) */
	"pair:irq", "pair:softirq", "pair:nope", "pmu:cpu_cycles",
	"pmu:inst_retired,cpu_cycles",
	/* more latency probes: a module's, a hard-IRQ one */
	"kretprobe:kprof_test:kprof_test_retc", "kretprobe:kprof_test_irq",
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
		a->objects = below(s, 2) ? 1U << below(s, 12) : (uint32_t)rnd(s);
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
		/* how latency is followed: fast, kretprobe, both (-EINVAL) */
		if (!below(s, 3))
			b->a.flags |= (uint32_t)(1 + below(s, 3)) << 8;
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
		/*
		 * Else some other field's -EINVAL nearly always answers
		 * first: a third of the latency flags' requests are valid
		 * but for them, so that they decide (check_mech).
		 */
		if ((b->a.flags & MECH_BITS) && !below(s, 3)) {
			struct kprof_probe_add a = { .size = sizeof(a) };

			a.flags = b->a.flags & (KPROF_ADD_START | MECH_BITS);
			memcpy(a.spec, b->a.spec, sizeof(a.spec));
			memset(b, 0, sizeof(*b));
			b->a = a;
		}
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
		/*
		 * room for any table (1024 ids of 1 address, or of their
		 * names: KPROF_KEY_FRAMES_SYMS) when it is ours
		 */
		static uint64_t frames[1024 * KPROF_SYM_LEN / 8];

		b->kf.size = pick_size(s, sizeof(b->kf));
		b->kf.id = pick_id(s);
		b->kf.ptr = (uintptr_t)pick_ptr(s, frames, sizeof(frames[0]));
		b->kf.count = (uint32_t)(b->kf.ptr == (uintptr_t)frames ||
					 below(s, 2) ? below(s, 1025) : rnd(s));
		if (!b->kf.ptr && below(s, 2))
			b->kf.count = 0;
		if (!below(s, 8))
			b->kf.flags = KPROF_KEY_FRAMES_SYMS;
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

/*
 * What ABI 1.11 promises of an add whose struct the module read in full:
 * FAST with KRETPROBE, or either on a kind other than a single kretprobe
 * or a kretprobe set, is -EINVAL (kprobe, tracepoint and pair specs parse
 * by syntax alone, so nothing else can answer first; sample, offcpu and
 * pmu parsing may, but none of them may succeed).  Without fast probes
 * (amd64) FAST never succeeds.  Sets with FAST: nothing promised yet.
 */
static void check_mech(struct fstate *s, const struct kprof_probe_add *a,
		       int ret, int err)
{
	const struct kprof_kind *k = NULL;
	uint32_t m = a->flags & MECH_BITS;
	char why[160];

	if (!m)
		return;
	s->mech_checked++;
	if (memchr(a->spec, 0, sizeof(a->spec)))
		k = kprof_kind_of_spec(a->spec);
	if (m == MECH_BITS && !(ret && err == EINVAL)) {
		snprintf(why, sizeof(why), "FAST|KRETPROBE on '%.60s': %s",
			 a->spec, ret ? strerror(err) : "added");
		violation(s, why);
	} else if (!k || k->type == KPROF_TYPE_KPROBE ||
		   k->type == KPROF_TYPE_TRACEPOINT || k->type == KPROF_TYPE_PAIR ||
		   k->type == KPROF_TYPE_KPROBE_SET) {
		if (!(ret && err == EINVAL)) {
			snprintf(why, sizeof(why), "flags 0x%x on '%.60s': %s",
				 m, a->spec, ret ? strerror(err) : "added");
			violation(s, why);
		}
	} else if (k->type != KPROF_TYPE_KRETPROBE &&
		   k->type != KPROF_TYPE_KRETPROBE_SET) {
		if (!ret) {
			snprintf(why, sizeof(why), "flags 0x%x on '%.60s' added",
				 m, a->spec);
			violation(s, why);
		}
	} else if (k->type == KPROF_TYPE_KRETPROBE && m == KPROF_ADD_FAST &&
		   fast_errno && !ret) {
		snprintf(why, sizeof(why), "FAST '%.60s' added where the module "
			 "refused kprof_test_nop (%s)", a->spec,
			 strerror(fast_errno));
		violation(s, why);
	}
	if (!ret && k && k->type == KPROF_TYPE_KRETPROBE)
		m == KPROF_ADD_FAST ? s->fast_added++ : s->kret_added++;
}

static void one_ioctl(struct fstate *s, struct kprof_probe_info *recs,
		      size_t nrecs)
{
	union argbuf b;
	unsigned long cmd = pick_cmd(s);
	void *arg;
	int ret, err;

	fill_struct(s, cmd, &b, recs, nrecs);
	arg = pick_ptr(s, &b, sizeof(b.a));
	ret = ioctl(dev, cmd, arg);
	err = errno;
	tally(s, ret);
	if (!ret && cmd == KPROF_IOC_ADD_PROBE && arg == &b)
		remember(s, b.a.id);
	if (cmd == KPROF_IOC_ADD_PROBE && arg == &b && b.a.size == sizeof(b.a))
		check_mech(s, &b.a, ret, err);
	errno = err;
	/* invariants visible from here */
	if (!ret && cmd == KPROF_IOC_GET_VERSION && arg == &b &&
	    b.v.size >= 12 && b.v.abi_major != KPROF_ABI_MAJOR)
		violation(s, "GET_VERSION returned another ABI");
	if (ret && errno != EINVAL && errno != ENOTTY && errno != EFAULT &&
	    errno != E2BIG && errno != ENOENT && errno != EADDRNOTAVAIL &&
	    errno != ENOSPC && errno != ENODEV && errno != ENOMEM &&
	    errno != EOPNOTSUPP && errno != EBUSY &&
	    /* a probe without caller or stack keys has no frames */
	    !(errno == ENODATA && cmd == KPROF_IOC_KEY_FRAMES)) {
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

static int write_str(const char *path, const char *str)
{
	int fd = open(path, O_WRONLY), ret;
	size_t len = strlen(str);

	if (fd < 0)
		return -1;
	ret = write(fd, str, len) == (ssize_t)len ? 0 : -1;
	close(fd);
	return ret;
}

static int add_probe(struct kprof_probe_add *a, const char *spec,
		     uint32_t flags)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->flags = flags;
	snprintf(a->spec, sizeof(a->spec), "%s", spec);
	return ioctl(dev, KPROF_IOC_ADD_PROBE, a) ? errno : 0;
}

static int query(uint32_t id, struct kprof_probe_query *q)
{
	memset(q, 0, sizeof(*q));
	q->size = sizeof(*q);
	q->id = id;
	return ioctl(dev, KPROF_IOC_INFO, q) ? errno : 0;
}

/*
 * Latency probes on kprof_test functions, mostly FAST (else KRETPROBE, or
 * neither with the module's "fast" parameter set), armed at once, their
 * ids left where the fuzz threads pick ids from; then calls of them, some
 * in flight while another thread deletes, stops or resets the probe.
 * The mechanism INFO reports must be the one asked for.
 */
static unsigned long fast_rounds;

static void *fast_thread(void *arg)
{
	static const struct {
		const char *spec, *call;
	} t[] = {
		{ "kretprobe:kprof_test_spin", "spin 20 3000" },
		{ "kretprobe:kprof_test_nop", "nop 200" },
		{ "kretprobe:kprof_test:kprof_test_retc", "retc 100" },
		{ "kretprobe:kprof_test_irq", "irq 4" },
	};
	struct fstate *s = arg;
	struct kprof_probe_query q;
	struct kprof_probe_add a;
	unsigned long r;
	char why[160];
	int err;

	for (r = 0; r < fast_rounds; r++) {
		unsigned int i = (unsigned int)below(s, sizeof(t) / sizeof(t[0]));
		unsigned int how = (unsigned int)below(s, 8);
		uint32_t flags = KPROF_ADD_START | (how < 5 ? KPROF_ADD_FAST :
			how < 7 ? KPROF_ADD_KRETPROBE : 0);
		uint32_t want = flags & KPROF_ADD_FAST ? KPROF_MECH_FTRACE :
				KPROF_MECH_KPROBES;

		/* neither: the module's default, fast where it can */
		if (!(flags & MECH_BITS) && !fast_errno &&
		    (!write_str(FAST_PARAM, "Y") || no_core))
			want = KPROF_MECH_FTRACE;
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.flags = flags;
		snprintf(a.spec, sizeof(a.spec), "%s", t[i].spec);
		/* keyed: retc's return value, or the others' stacks */
		if (!below(s, 4))
			a.key[0] = i == 2 ? KPROF_KEYSPEC(KPROF_KEY_RETVAL, 0,
							  KPROF_KEYF_S32) :
				   KPROF_KEYSPEC(KPROF_KEY_STACK, 0, 0);
		if (!below(s, 4))
			a.maxactive = 1 + (uint32_t)below(s, 4);
		err = ioctl(dev, KPROF_IOC_ADD_PROBE, &a) ? errno : 0;
		if (!(flags & MECH_BITS))
			write_str(FAST_PARAM, "N");
		if (err == ENOSPC)
			continue;	/* the fuzz threads filled every slot */
		if ((flags & KPROF_ADD_FAST) && fast_errno) {
			if (err != fast_errno) {
				snprintf(why, sizeof(why), "FAST %s: %s, not %s",
					 t[i].spec, strerror(err),
					 strerror(fast_errno));
				violation(s, why);
			}
			continue;
		}
		/* without kprobes: refused, and nothing else */
		if ((flags & KPROF_ADD_KRETPROBE) && no_core) {
			if (err != EOPNOTSUPP) {
				snprintf(why, sizeof(why), "KRETPROBE %s without kprobes: %s, not %s",
					 t[i].spec, strerror(err), strerror(EOPNOTSUPP));
				violation(s, why);
			}
			continue;
		}
		if (err) {
			snprintf(why, sizeof(why), "add %s flags 0x%x: %s",
				 t[i].spec, flags, strerror(err));
			violation(s, why);
			continue;
		}
		if (flags & KPROF_ADD_FAST)
			s->fast_added++;
		else if (flags & KPROF_ADD_KRETPROBE)
			s->kret_added++;
		remember(s, a.id);
		/* the fuzz threads may have taken it already: ENOENT */
		err = query(a.id, &q);
		if (!err && q.info.mech != want) {
			snprintf(why, sizeof(why), "%s flags 0x%x: mech %u, not %u",
				 t[i].spec, flags, q.info.mech, want);
			violation(s, why);
		}
		if (!err && want == KPROF_MECH_FTRACE &&
		    q.info.state == KPROF_STATE_RUNNING)
			s->fast_armed++;
		if (write_str(TRIGGER, t[i].call)) {
			snprintf(why, sizeof(why), "%s: %s", t[i].call,
				 strerror(errno));
			violation(s, why);
		}
		err = query(a.id, &q);
		if (!err && want == KPROF_MECH_FTRACE && q.info.hits)
			s->fast_fired++;
		/* the rest stay for the fuzz threads to find */
		if (below(s, 2)) {
			struct kprof_probe_id d = { .size = sizeof(d), .id = a.id };

			ioctl(dev, KPROF_IOC_DEL_PROBE, &d);
		}
	}
	return NULL;
}

/*
 * One fast probe alone once the storm is over: armed at once, every call
 * recorded.  During the storm the fuzz threads stop, reset and delete the
 * fast thread's probes at random, on one CPU nearly always before it
 * looks, so how many it saw armed is reported, not tested.
 */
static int fast_alone(unsigned long *hits)
{
	struct kprof_probe_add a = { .size = sizeof(a) };
	struct kprof_probe_id d = { .size = sizeof(d) };
	struct kprof_probe_query q;
	int armed;

	a.flags = KPROF_ADD_FAST | KPROF_ADD_START;
	snprintf(a.spec, sizeof(a.spec), "kretprobe:kprof_test_nop");
	if (ioctl(dev, KPROF_IOC_ADD_PROBE, &a))
		return 0;
	armed = !query(a.id, &q) && q.info.mech == KPROF_MECH_FTRACE &&
		q.info.state == KPROF_STATE_RUNNING;
	write_str(TRIGGER, "nop 200");
	*hits = query(a.id, &q) ? 0 : q.info.hits;
	d.id = a.id;
	ioctl(dev, KPROF_IOC_DEL_PROBE, &d);
	return armed;
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
	unsigned long fadded = 0, farmed = 0, ffired = 0, kadded = 0, mchk = 0;
	struct kprof_probe_add fa;
	char fparam[4] = "";
	struct utsname un;
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
	no_core = ver.abi_minor >= 13 && !(ver.caps & KPROF_CAP_KPROBE_CORE);
	m = mmap(NULL, ver.mmap_size, PROT_READ, MAP_SHARED, dev, 0);
	if (m == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	keep_map = m;
	signal(SIGPIPE, SIG_IGN);
	/* does this module have fast probes (arm64) or not (-EOPNOTSUPP)? */
	fast_errno = add_probe(&fa, "kretprobe:kprof_test_nop", KPROF_ADD_FAST);
	if (!fast_errno) {
		struct kprof_probe_id d = { .size = sizeof(d), .id = fa.id };

		ioctl(dev, KPROF_IOC_DEL_PROBE, &d);
	}
	{
		FILE *f = fopen(FAST_PARAM, "r");

		if (f && !fgets(fparam, sizeof(fparam), f))
			fparam[0] = 0;
		if (f)
			fclose(f);
	}
	uname(&un);
	printf("# fuzz: a fast probe on kprof_test_nop: %s\n",
	       fast_errno ? strerror(fast_errno) : "added");
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	calls_per_thread = (calls + nthreads - 1) / nthreads;
	fast_rounds = calls / 1000 ? calls / 1000 : 1;
	/* the fuzz threads, then the fast probes' */
	st = calloc(nthreads + 1, sizeof(*st));
	th = calloc(nthreads + 1, sizeof(*th));
	for (i = 0; i <= nthreads; i++) {
		st[i].rng = seed * (i + 1) * 0x9e3779b97f4a7c15ULL | 1;
		st[i].cpu = (unsigned int)(i % (unsigned long)ncpu);
		pthread_create(&th[i], NULL, i < nthreads ? fuzz_thread :
			       fast_thread, &st[i]);
	}
	for (i = 0; i <= nthreads; i++)
		pthread_join(th[i], NULL);
	/* the fast thread set the parameter now and then: as it was */
	if (fparam[0])
		write_str(FAST_PARAM, fparam[0] == 'Y' ? "Y" : "N");
	printf("# fuzz: the long-lived mapping was swept %lu times\n", sweeps);
	for (i = 0; i <= nthreads; i++) {
		fadded += st[i].fast_added;
		farmed += st[i].fast_armed;
		ffired += st[i].fast_fired;
		kadded += st[i].kret_added;
		mchk += st[i].mech_checked;
		bad += st[i].bad;
		if (st[i].bad)
			printf("# thread %lu: %lu violations, first: %s\n", i,
			       st[i].bad, st[i].why);
		if (i == nthreads)
			break;
		total += st[i].calls;
		maps += st[i].maps;
		ok += st[i].ok;
		einval += st[i].einval;
		enotty += st[i].enotty;
		efault += st[i].efault;
		other += st[i].other;
	}
	printf("# fuzz: %lu calls (%lu mmap), ok %lu, EINVAL/E2BIG %lu, "
	       "ENOTTY %lu, EFAULT %lu, other %lu\n", total, maps, ok, einval,
	       enotty, efault, other);
	printf("%s - fuzz: %lu calls from %lu threads, no invariant broken "
	       "(seed %llu)\n", bad ? "not ok" : "ok", total, nthreads, seed);
	printf("%s - fuzz: at least the %lu calls asked for\n",
	       total >= calls ? "ok" : "not ok", calls);
	printf("# fuzz: %lu adds with FAST or KRETPROBE checked; latency probes "
	       "added: %lu fast, %lu kretprobe; fast ones armed (running, "
	       "ftrace) %lu, recording calls %lu\n", mchk, fadded, kadded,
	       farmed, ffired);
	/* clean up whatever the fuzz left, then prove the module still works */
	{
		struct kprof_probe_id d = { .size = sizeof(d) };
		int r = ioctl(dev, KPROF_IOC_DEL_PROBE, &d);

		printf("%s - fuzz: DEL all afterwards\n", r ? "not ok" : "ok");
	}
	if (fast_errno == EOPNOTSUPP) {
		printf("ok - fuzz: fast probes armed and firing # SKIP no fast "
		       "probes on %s yet\n", un.machine);
	} else {
		unsigned long hits = 0;
		int armed = fast_alone(&hits);

		printf("%s - fuzz: a fast probe after the storm arms and records "
		       "every call (%s, %lu of 200)\n",
		       armed && hits == 200 ? "ok" : "not ok",
		       armed ? "armed" : "not armed", hits);
	}
	munmap(m, ver.mmap_size);
	close(dev);
	return bad ? 1 : 0;
}
