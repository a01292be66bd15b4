// SPDX-License-Identifier: GPL-2.0
/*
 * Concurrency stress for kprofctl, run in the VM guest as root with
 * kprof_test.ko loaded.  Every loop is bounded by a count, not a time, so
 * a run is deterministic under icount.
 *
 *  - W worker processes, pinned round-robin to the CPUs, each make OPS
 *    random control operations (add, del, start, stop, reset, list, show)
 *    on probes over hot paths;
 *  - meanwhile those paths fire: a getppid() loop, vfs_read() under a
 *    read loop, and kprof_test_irq() from a hard-IRQ hrtimer;
 *  - a reader takes snapshots through the mmap the whole time and checks
 *    that no block is torn (a kretprobe's buckets, and each function's
 *    compact buckets in a latency set, hold at least the count read before
 *    them) and that no count goes backwards while the header seqcount says
 *    nothing was added, deleted or reset.
 *
 * The probes are single ones and function sets (module and core globs)
 * over those paths.  Half the single kretprobes are fast ones
 * (KPROF_ADD_FAST: ftrace and a return trampoline) where the module takes
 * them, the other half kretprobes (KPROF_ADD_KRETPROBE).
 *
 * usage: stress [--ops N] [--workers N] [--seed N]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "../../uapi/linux/kprofctl.h"

#define TRIGGER		"/sys/kernel/debug/kprof_test/trigger"
#define MY_IDS		8

static int dev, ncpu;
static struct kprof_version ver;
static const uint8_t *map;
static const struct kprof_mmap_header *hdr;
static char getppid_sym[200];
static unsigned long long seed = 1;
static int *workers_done;	/* shared page: set when the workers finish */
/* shared: latency probes added, [0] fast, [1] kretprobes */
static unsigned long *mech_added;
/* the kretprobe targets on which the module takes KPROF_ADD_FAST */
static char fast_ok[3][200];
static int fast_errno;
/* no kprobes in the kernel (ABI 1.13): no KPROF_ADD_KRETPROBE */
static int no_core;

static uint64_t rnd(unsigned long long *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ULL;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu % ncpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int id_cmd(unsigned long cmd, uint32_t id)
{
	struct kprof_probe_id a = { .size = sizeof(a), .id = id };

	return ioctl(dev, cmd, &a) ? -errno : 0;
}

/* the syscall entry symbol differs per architecture: ask kallsyms */
static int find_getppid(void)
{
	char line[512], sym[200], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		size_t n;

		if (sscanf(line, "%*s %c %199s", &type, sym) != 2 ||
		    (type != 'T' && type != 't'))
			continue;
		n = strlen(sym);
		if (n > 12 && !strcmp(sym + n - 12, "_sys_getppid")) {
			snprintf(getppid_sym, sizeof(getppid_sym), "%s", sym);
			break;
		}
	}
	fclose(f);
	return getppid_sym[0] ? 0 : -1;
}

/* Does the module take a fast probe on SYM?  0 or its errno. */
static int try_fast(const char *sym)
{
	struct kprof_probe_add a = { .size = sizeof(a), .flags = KPROF_ADD_FAST };

	snprintf(a.spec, sizeof(a.spec), "kretprobe:%s", sym);
	if (ioctl(dev, KPROF_IOC_ADD_PROBE, &a))
		return errno;
	return -id_cmd(KPROF_IOC_DEL_PROBE, a.id);
}

static int fast_takes(const char *spec)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		if (fast_ok[i][0] && !strcmp(spec + 10, fast_ok[i]))
			return 1;
	return 0;
}

static void spec_for(unsigned long long *s, char *out, size_t len)
{
	/*
	 * Function sets over the same hot paths in 1 of 12 (deleting an
	 * ftrace set waits for an RCU-tasks grace period, 0.1 s of guest
	 * time); core globs in 1 of 16 of those (resolving one walks all of
	 * kallsyms, 0.15 s)
	 */
	static const char *const sets[] = {
		"kprobe:kprof_test:kprof_test_ir?",
		"kretprobe:kprof_test:kprof_test_i*",
		"kprobe:vfs_rea*", "kretprobe:vfs_rea[d]",
	};

	/* profiles: a stack table each (the worker adds the stack key) */
	static const char *const profiles[] = {
		"sample:cpu-clock:hz=4999", "offcpu:all",
		"offcpu:uninterruptible",
	};

	if (!(rnd(s) % 12)) {
		snprintf(out, len, "%s", sets[rnd(s) % 2 + (rnd(s) % 16 ? 0 : 2)]);
		return;
	}
	if (!(rnd(s) % 10)) {
		snprintf(out, len, "%s", profiles[rnd(s) % 3]);
		return;
	}
	/*
	 * a module's memory: its kfree hook runs on every free the workers
	 * cause, on every CPU, while probes come and go; small tables too
	 */
	if (!(rnd(s) % 10)) {
		snprintf(out, len, "%s", rnd(s) % 2 ? "mem:kprof_test_mem" :
			 "mem:kprof_test");
		return;
	}
	switch (rnd(s) % 6) {
	case 0:
		snprintf(out, len, "kprobe:%s", getppid_sym);
		break;
	case 1:
		snprintf(out, len, "kretprobe:%s", getppid_sym);
		break;
	case 2:
		snprintf(out, len, "kretprobe:vfs_read");
		break;
	case 3:
		snprintf(out, len, "kprobe:vfs_read");
		break;
	case 4:
		snprintf(out, len, "kprobe:kprof_test_irq");
		break;
	default:
		snprintf(out, len, "kretprobe:kprof_test_irq");
	}
}

/* read every live probe's blocks the way a tool does */
static unsigned long show_once(void)
{
	unsigned long sum = 0;
	uint32_t slot, c;

	for (slot = 0; slot < hdr->max_probes; slot++) {
		const struct kprof_probe_info *r = (const void *)(map +
			hdr->probes_off + (uint64_t)slot * hdr->probe_rec_size);

		if (!__atomic_load_n(&r->id, __ATOMIC_RELAXED))
			continue;
		for (c = 0; c < hdr->nr_cpus; c++) {
			const struct kprof_cpu_stats *st = (const void *)(map +
				hdr->stats_off + slot * hdr->probe_stride +
				c * hdr->cpu_stride);

			sum += __atomic_load_n(&st->count, __ATOMIC_RELAXED);
		}
	}
	return sum;
}

static int worker(int idx, unsigned long ops)
{
	unsigned long long s = seed * (idx + 7) * 0x9e3779b97f4a7c15ULL | 1;
	uint32_t mine[MY_IDS] = { 0 };
	unsigned long i, done = 0;
	unsigned int k;

	pin(idx);
	for (i = 0; i < ops; i++) {
		uint32_t *slot = &mine[rnd(&s) % MY_IDS];
		/* mostly our own probes; sometimes everyone's (id 0) */
		uint32_t id = rnd(&s) % 8 ? *slot : 0;
		struct kprof_probe_add a;
		int ret = 0;

		switch (rnd(&s) % 8) {
		case 0:
		case 1:
			if (*slot)
				break;
			memset(&a, 0, sizeof(a));
			a.size = sizeof(a);
			a.flags = rnd(&s) % 2 ? KPROF_ADD_START : 0;
			spec_for(&s, a.spec, sizeof(a.spec));
			if (!strncmp(a.spec, "sample:", 7) ||
			    !strncmp(a.spec, "offcpu:", 7))
				a.key[0] = KPROF_KEYSPEC(KPROF_KEY_STACK, 0, 0);
			if (!strncmp(a.spec, "mem:", 4))
				a.objects = rnd(&s) % 2 ? 16 : 0;
			/* single kretprobes: fast or not, half and half */
			if (!strncmp(a.spec, "kretprobe:", 10) &&
			    !strpbrk(a.spec, "*?["))
				a.flags |= (rnd(&s) % 2 || no_core) &&
					   fast_takes(a.spec) ? KPROF_ADD_FAST :
					   no_core ? 0 : KPROF_ADD_KRETPROBE;
			ret = ioctl(dev, KPROF_IOC_ADD_PROBE, &a) ? -errno : 0;
			/* without kprobes, what ftrace cannot follow is refused */
			if (ret == -EADDRNOTAVAIL && no_core &&
			    !strncmp(a.spec, "kretprobe:", 10) &&
			    !strpbrk(a.spec, "*?[") && !fast_takes(a.spec))
				ret = 0;
			else if (!ret)
				*slot = a.id;
			if (!ret && (a.flags & (KPROF_ADD_FAST | KPROF_ADD_KRETPROBE))) {
				int fast = !!(a.flags & KPROF_ADD_FAST);
				struct kprof_probe_query q = {
					.size = sizeof(q), .id = a.id,
				};

				__atomic_add_fetch(&mech_added[!fast], 1,
						   __ATOMIC_RELAXED);
				/* unless another worker deleted it (id 0) */
				if (!ioctl(dev, KPROF_IOC_INFO, &q) &&
				    q.info.mech != (fast ? KPROF_MECH_FTRACE :
						    KPROF_MECH_KPROBES)) {
					fprintf(stderr, "stress: worker %d: %s "
						"flags 0x%x: mech %u\n", idx,
						a.spec, a.flags, q.info.mech);
					return 1;
				}
			}
			break;
		case 2:
			if (!*slot)
				break;
			ret = id_cmd(KPROF_IOC_DEL_PROBE, *slot);
			*slot = 0;
			break;
		case 3:
			ret = id_cmd(KPROF_IOC_START, id);
			break;
		case 4:
			ret = id_cmd(KPROF_IOC_STOP, id);
			break;
		case 5:
			ret = id_cmd(KPROF_IOC_RESET, id);
			break;
		case 6: {
			struct kprof_probe_info recs[16];
			struct kprof_probe_list l = {
				.size = sizeof(l), .count = 16,
				.rec_size = sizeof(recs[0]),
				.ptr = (uintptr_t)recs,
			};

			ret = ioctl(dev, KPROF_IOC_LIST, &l) ? -errno : 0;
			break;
		}
		default:
			show_once();
		}
		/* another worker may have deleted "everything" (id 0) */
		if (ret && ret != -ENOENT && ret != -ENOSPC && ret != -ENODEV) {
			fprintf(stderr, "stress: worker %d op %lu: %s\n", idx, i,
				strerror(-ret));
			return 1;
		}
		done++;
	}
	for (k = 0; k < MY_IDS; k++)
		if (mine[k])
			id_cmd(KPROF_IOC_DEL_PROBE, mine[k]);
	return done == ops ? 0 : 1;
}

/*
 * A latency set's compact histograms: per function and CPU, the buckets
 * hold at least the count read before them (count is bumped last).  One
 * function per snapshot (the snapshot number picks it): a walk of every
 * function's buckets would slow the reader's CPU down for the workers.
 */
static unsigned long set_torn(const struct kprof_probe_info *r, uint32_t ncpus,
			      unsigned long snap)
{
	uint32_t nf = __atomic_load_n(&r->nr_funcs, __ATOMIC_RELAXED);
	uint64_t off = __atomic_load_n(&r->func_stats_off, __ATOMIC_RELAXED);
	uint64_t cs = __atomic_load_n(&r->func_cpu_stride, __ATOMIC_RELAXED);
	uint32_t fs = __atomic_load_n(&r->func_stride, __ATOMIC_RELAXED);
	unsigned long torn = 0;
	uint32_t f, c, b;

	if (hdr->probe_rec_size < KPROF_PROBE_INFO_SIZE_VER2 || !off || !nf ||
	    fs < sizeof(struct kprof_func_hist))
		return 0;
	f = snap % nf;
	for (c = 0; c < ncpus; c++) {
		uint64_t at = off + c * cs + (uint64_t)f * fs, cnt, hs = 0;
		const struct kprof_func_hist *h;

		if (at + sizeof(*h) > ver.mmap_size)
			break;
		h = (const void *)(map + at);
		cnt = __atomic_load_n(&h->count, __ATOMIC_ACQUIRE);
		for (b = 0; b < KPROF_FHIST_NR_BUCKETS; b++)
			hs += __atomic_load_n(&h->hist[b], __ATOMIC_RELAXED);
		if (hs < cnt)
			torn++;
	}
	return torn;
}

struct seen {
	uint32_t id;
	uint64_t count[256];
};

/* after @i snapshots, @valid of them consistent */
static int reader_done(unsigned long i, unsigned long snaps,
		       unsigned long valid)
{
	if (i < snaps && !__atomic_load_n(workers_done, __ATOMIC_ACQUIRE))
		return 0;
	return valid || i >= snaps + 1000;
}

/*
 * Snapshots: within one even, unchanged seq (no add, delete or reset in
 * between), counts never go backwards and a kretprobe block's buckets
 * hold at least the count read before them (handlers bump the bucket
 * first and the count last).
 */
static int reader(unsigned long snaps)
{
	static struct seen seen[1024];
	unsigned long i, torn = 0, back = 0, valid = 0;
	uint32_t last_seq = 1;
	uint32_t slot, c, b, ncpus = hdr->nr_cpus < 256 ? hdr->nr_cpus : 256;

	pin(ncpu - 1);
	/*
	 * Until the workers finish, but never more than snaps; then on to
	 * the first consistent one if none was yet (a reader the scheduler
	 * kept off its CPU throughout): the probes still fire, so it checks
	 */
	for (i = 0; !reader_done(i, snaps, valid); i++) {
		uint32_t seq = __atomic_load_n(&hdr->seq, __ATOMIC_ACQUIRE);
		unsigned long t = 0, bk = 0;

		if (seq & 1)
			continue;
		/* something was added, deleted or reset since: start over */
		if (seq != last_seq)
			memset(seen, 0, sizeof(seen));
		last_seq = seq;
		for (slot = 0; slot < hdr->max_probes && slot < 1024; slot++) {
			const struct kprof_probe_info *r = (const void *)(map +
				hdr->probes_off +
				(uint64_t)slot * hdr->probe_rec_size);
			uint32_t id = __atomic_load_n(&r->id, __ATOMIC_RELAXED);

			if (!id)
				continue;
			if (seen[slot].id != id) {
				memset(&seen[slot], 0, sizeof(seen[slot]));
				seen[slot].id = id;
			}
			for (c = 0; c < ncpus; c++) {
				const struct kprof_cpu_stats *st = (const void *)(
					map + hdr->stats_off +
					slot * hdr->probe_stride +
					c * hdr->cpu_stride);
				uint64_t cnt = __atomic_load_n(&st->count,
							       __ATOMIC_ACQUIRE);
				uint64_t hs = 0;

				if (r->type == KPROF_TYPE_KRETPROBE) {
					for (b = 0; b < KPROF_HIST_NR_BUCKETS; b++)
						hs += __atomic_load_n(&st->hist[b],
							__ATOMIC_RELAXED);
					if (hs < cnt)
						t++;
				}
				if (cnt < seen[slot].count[c])
					bk++;
				seen[slot].count[c] = cnt;
			}
			if (r->type == KPROF_TYPE_KRETPROBE_SET)
				t += set_torn(r, ncpus, i);
		}
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		if (__atomic_load_n(&hdr->seq, __ATOMIC_RELAXED) != seq) {
			last_seq = 1;	/* a reset may have zeroed counts */
			continue;
		}
		valid++;
		torn += t;
		back += bk;
	}
	printf("# stress: reader took %lu snapshots, %lu of them consistent "
	       "(the rest overlapped an add, delete or reset)\n", i, valid);
	printf("%s - stress: no torn block in %lu snapshots (%lu)\n",
	       torn ? "not ok" : "ok", valid, torn);
	printf("%s - stress: no count went backwards within a generation (%lu)\n",
	       back ? "not ok" : "ok", back);
	if (!valid)
		printf("# stress: not one snapshot consistent: the reader "
		       "fails\n");
	fflush(stdout);
	return torn || back || !valid;
}

static pid_t spawn(int (*fn)(int, unsigned long), int arg, unsigned long n)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(fn(arg, n));
	return pid;
}

static int load_getppid(int cpu, unsigned long n)
{
	pin(cpu);
	while (n--)
		syscall(SYS_getppid);
	return 0;
}

static int load_read(int cpu, unsigned long n)
{
	char buf[256];
	int fd = open("/proc/self/stat", O_RDONLY);

	pin(cpu);
	if (fd < 0)
		return 1;
	while (n--)
		if (pread(fd, buf, sizeof(buf), 0) < 0)
			return 1;
	close(fd);
	return 0;
}

static int load_irq(int cpu, unsigned long n)
{
	char cmd[32];
	int fd = open(TRIGGER, O_WRONLY), len;

	pin(cpu);
	len = snprintf(cmd, sizeof(cmd), "irq %lu", n);
	if (fd < 0 || write(fd, cmd, len) != len)
		return 1;
	close(fd);
	return 0;
}

static int run_reader(int unused, unsigned long n)
{
	(void)unused;
	return reader(n);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "ops", required_argument, NULL, 'o' },
		{ "workers", required_argument, NULL, 'w' },
		{ "seed", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long ops = 2000, workers = 4, i, failed = 0;
	pid_t pids[64], loads[4], rd;
	struct utsname un;
	int opt, st;

	while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		unsigned long v = strtoul(optarg, NULL, 0);

		if (opt == 'o')
			ops = v;
		else if (opt == 'w')
			workers = v;
		else if (opt == 's')
			seed = v ? v : 1;
		else
			return 2;
	}
	if (!workers || workers > 64 || !ops)
		return 2;
	ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN);
	uname(&un);
	/* control ioctls need a descriptor opened for writing */
	dev = open(KPROF_DEVICE, O_RDWR);
	ver.size = sizeof(ver);
	if (dev < 0 || ioctl(dev, KPROF_IOC_GET_VERSION, &ver) || find_getppid()) {
		printf("Bail out! setup: %s\n", strerror(errno));
		return 1;
	}
	no_core = ver.abi_minor >= 13 && !(ver.caps & KPROF_CAP_KPROBE_CORE);
	map = mmap(NULL, ver.mmap_size, PROT_READ, MAP_SHARED, dev, 0);
	if (map == MAP_FAILED) {
		printf("Bail out! mmap: %s\n", strerror(errno));
		return 1;
	}
	hdr = (const void *)map;
	printf("# stress: %lu workers x %lu ops on %d CPUs, seed %llu, hot "
	       "paths %s, vfs_read, kprof_test_irq (hard IRQ), sets on them\n", workers, ops,
	       ncpu, seed, getppid_sym);
	{
		const char *syms[3] = { getppid_sym, "vfs_read", "kprof_test_irq" };

		for (i = 0; i < 3; i++) {
			int err = try_fast(syms[i]);

			if (!err)
				snprintf(fast_ok[i], sizeof(fast_ok[i]), "%s",
					 syms[i]);
			else
				fast_errno = err;
			printf("# stress: a fast probe on %s: %s\n", syms[i],
			       err ? strerror(err) : "taken");
		}
	}
	fflush(stdout);
	loads[0] = spawn(load_getppid, 0, 200000);
	loads[1] = spawn(load_read, 1, 20000);
	loads[2] = spawn(load_irq, 0, 2000);
	workers_done = mmap(NULL, sizeof(int), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (workers_done == MAP_FAILED)
		return 1;
	mech_added = mmap(NULL, 2 * sizeof(*mech_added), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mech_added == MAP_FAILED)
		return 1;
	/*
	 * Until the workers finish.  The cap only bounds a run whose workers
	 * hang: now that the writer's sections are short, nearly every
	 * snapshot is consistent and walks every block, so 5M of them took
	 * 325 s of guest time, where the workers need about 45.
	 */
	rd = spawn(run_reader, 0, 1000000);
	for (i = 0; i < workers; i++)
		pids[i] = spawn(worker, (int)i, ops);
	for (i = 0; i < workers; i++)
		if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
		    WEXITSTATUS(st))
			failed++;
	__atomic_store_n(workers_done, 1, __ATOMIC_RELEASE);
	printf("%s - stress: %lu workers completed %lu control operations "
	       "each\n", failed ? "not ok" : "ok", workers, ops);
	printf("# stress: single latency probes added: %lu fast (ftrace), %lu "
	       "kretprobe\n", mech_added[0], mech_added[1]);
	if (fast_errno == EOPNOTSUPP)
		printf("ok - stress: fast probes among them # SKIP no fast "
		       "probes on %s yet\n", un.machine);
	else
		printf("%s - stress: fast probes among them, on every target "
		       "(%lu)\n", mech_added[0] && !fast_errno ? "ok" : "not ok",
		       mech_added[0]);
	for (i = 0; i < 3; i++) {
		waitpid(loads[i], &st, 0);
		printf("%s - stress: load %lu finished\n",
		       WIFEXITED(st) && !WEXITSTATUS(st) ? "ok" : "not ok", i);
	}
	waitpid(rd, &st, 0);
	/* how it ended: a signal leaves none of the reader's own lines */
	if (WIFSIGNALED(st))
		printf("not ok - stress: reader finished (killed by signal %d, "
		       "%s)\n", WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		printf("%s - stress: reader finished (status %d)\n",
		       WIFEXITED(st) && !WEXITSTATUS(st) ? "ok" : "not ok",
		       WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	printf("%s - stress: every probe deleted afterwards\n",
	       id_cmd(KPROF_IOC_DEL_PROBE, 0) ? "not ok" : "ok");
	return 0;
}
