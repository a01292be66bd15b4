// SPDX-License-Identifier: GPL-2.0
/*
 * Test targets for kprofctl's VM tests.  Writing a command to
 * /sys/kernel/debug/kprof_test/trigger runs the calls synchronously in the
 * writer's task, so a pid filter on the writer sees exactly those calls:
 *
 *   nop N              N x kprof_test_nop()
 *   spin N D           N x kprof_test_spin(D): busy-wait until ktime_get_ns()
 *                      has advanced by D ns (under icount, D instructions)
 *   spinoff N D        the same, each call with interrupts off (D <= 10 ms):
 *                      no interrupt lands at the end of a spin
 *   slowonce N K D     N x kprof_test_probe(), each with interrupts off:
 *                      call K (1..N) spins D ns (<= 10 ms), the others 0
 *                      (one slow call at a known point, for --snapshot)
 *   recurse N DEPTH D  N x kprof_test_recurse(DEPTH, D): spin D, recurse;
 *                      level k returns after about k * D ns; each call runs
 *                      with interrupts off (DEPTH * D <= 10 ms)
 *   sleep N MS         N x kprof_test_sleep(MS): msleep(MS)
 *   idle, rtlock, park, unpark, hogstop: kprof_test_sched.c
 *   loop N ITERS       N x kprof_test_loop(ITERS): a fixed instruction loop,
 *                      each call with interrupts off, so the instructions
 *                      the PMU counts per call are the same every time
 *   loopoff N ITERS    the same N calls in one interrupts-off section: no
 *                      irq_work (kprofctl's event kick) runs in between
 *   irq N              N x kprof_test_irq() from a hard-IRQ hrtimer, one
 *                      per 100 us; the write returns when all have run
 *   event N            N x tracepoint kprof_test:kprof_test_event
 *   ret N              kprof_test_ret(SEL, SIZE) (SEL + 1) x N times for SEL
 *                      0-3: returns 0, -EAGAIN, -EPROBE_DEFER, 2048; SIZE
 *                      100, 5000, 70000, 1 MiB; less work for each SEL
 *   callers N          kprof_test_callee() N times from kprof_test_caller_a
 *                      and 2N times from kprof_test_caller_b
 *   retc N             N x kprof_test_retc(i): -EAGAIN (the benchmark's
 *                      retval key)
 *   hot N ITERS        N x kprof_test_hot(ITERS), which runs
 *                      kprof_test_hot_a(3 x ITERS) then
 *                      kprof_test_hot_b(ITERS): CPU time 3:1, interrupts
 *                      on (the sampling profiler's target)
 *   ptr N              kprof_test_ptr(i), i = 0..N-1: a kernel pointer for
 *                      even i, ERR_PTR(-ENOMEM) for odd
 *   work N NS          N work items on system_wq, one after the other, each
 *                      kprof_test_work_fn() spinning NS ns, queued on the
 *                      writer's CPU (so the benchmark counts one CPU's
 *                      instructions); returns when all have run
 *   settle N           N x (rcu_barrier(), vm_unmap_aliases()): what
 *                      call_rcu() frees (dentries, inodes, RCU slabs) and
 *                      lazily freed vmap areas (a fork's stack) are gone
 *                      before a test reads the Slab total
 *   workfn F NF N      N rounds of one work item on each of the work
 *                      functions number F..F+NF-1 of 64 (kprof_test_wfn000
 *                      to kprof_test_wfn333, numbered in base 4: distinct
 *                      pair:workqueue keys); returns when all ran
 *   workcoll R K N     N work items on the first (R 1) or second (R 2) of
 *                      the first two work functions whose keys share a
 *                      home slot in a pair table of K keys; the kernel
 *                      log names them
 *   wakestorm N        N x (sched_wakeup, sched_switch) of the writer,
 *                      fired into the callbacks registered on those
 *                      tracepoints, while a hard-IRQ hrtimer fires
 *                      sched_wakeup of the writer every 20 us: wakeups that
 *                      land inside a sched_switch callback
 *   notrace N          N x kprof_test_notrace(): no ftrace call site, so a
 *                      fast latency probe is refused on it
 *   hop N              N x kprof_test_hop(): each moves the writer to the
 *                      next online CPU before it returns (entry and return
 *                      on different CPUs); the writer may run anywhere
 *                      after
 *   exitin N           N kernel threads, each exits inside
 *                      kprof_test_exit_inside() (which never returns); the
 *                      write returns when each has
 *   maysleep N K ITERS  N x kprof_test_maysleep(ITERS, SLEEP): every Kth call
 *                      (the 1st, the K+1st, ...; K 0: none) sleeps a
 *                      jiffy, then loops;
 *                      the others only loop, with interrupts off, so they
 *                      neither switch nor count anything but the loop
 */
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/workqueue.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/uaccess.h>
#include <linux/hrtimer.h>
#include <linux/completion.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/vmalloc.h>
#include <linux/tracepoint.h>
#include <linux/hash.h>
#include <linux/kthread.h>

#define CREATE_TRACE_POINTS
#include "kprof_test_trace.h"
#include "kprof_test_sched.h"
#include "kprof_test_corrupt.h"

#define KPROF_TEST_MAX_CALLS	10000000UL
#define KPROF_TEST_MAX_NS	(10ULL * NSEC_PER_SEC)
#define KPROF_TEST_MAX_DEPTH	64
#define KPROF_TEST_MAX_MS	10000
#define KPROF_TEST_MAX_IRQOFF_NS	(10ULL * NSEC_PER_MSEC)

/* Non-static and noinline: each is a real, probeable kallsyms symbol. */
noinline void kprof_test_nop(void);
noinline u64 kprof_test_spin(u64 ns);
noinline u64 kprof_test_recurse(u32 depth, u64 ns);
noinline int kprof_test_ret(unsigned long sel, unsigned long size);
noinline void *kprof_test_ptr(unsigned long i);
noinline int kprof_test_retc(unsigned long i);
noinline int kprof_test_callee(unsigned long i);
noinline int kprof_test_caller_a(unsigned long i);
noinline int kprof_test_caller_b(unsigned long i);
noinline void kprof_test_sleep(u32 ms);
noinline void kprof_test_irq(void);
noinline u64 kprof_test_loop(u64 iters);
noinline u64 kprof_test_hot_a(u64 iters);
noinline u64 kprof_test_hot_b(u64 iters);
noinline u64 kprof_test_hot(u64 iters);
noinline u64 kprof_test_maysleep(u64 iters, bool sleep);
noinline int kprof_test_probe(u64 ns);
noinline notrace void kprof_test_notrace(void);
noinline void kprof_test_exit_inside(struct completion *done);
noinline int kprof_test_hop(void);

/*
 * A driver's probe stand-in, run probe_calls times from module init: what
 * boot-time capture of a module's probe ("kretprobe:kprof_test:
 * kprof_test_probe", deferred until the module loads) has to catch.
 */
static unsigned int probe_calls = 3;
module_param(probe_calls, uint, 0444);
static unsigned long probe_ns = 200000;
module_param(probe_ns, ulong, 0444);

noinline void kprof_test_nop(void)
{
	/* keep the call from being elided */
	asm volatile("" ::: "memory");
}

noinline u64 kprof_test_spin(u64 ns)
{
	u64 start = ktime_get_ns(), now;

	do {
		cpu_relax();
		now = ktime_get_ns();
	} while (now - start < ns);
	return now;
}

/* notrace: compiled without an ftrace call site */
noinline notrace void kprof_test_notrace(void)
{
	asm volatile("");
}

/* Returns on another CPU than it was entered on (with 2+ online). */
noinline int kprof_test_hop(void)
{
	unsigned int cpu = cpumask_next(raw_smp_processor_id(),
					cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	return set_cpus_allowed_ptr(current, cpumask_of(cpu));
}

/* A kernel thread's last call: it exits inside and never returns. */
noinline void kprof_test_exit_inside(struct completion *done)
{
	kthread_complete_and_exit(done, 0);
}

static int kprof_test_exitin_fn(void *done)
{
	kprof_test_exit_inside(done);
	return 0;
}

noinline int kprof_test_probe(u64 ns)
{
	return kprof_test_spin(ns) ? 0 : -EIO;
}

noinline u64 kprof_test_recurse(u32 depth, u64 ns)
{
	u64 ret = kprof_test_spin(ns);

	if (depth > 1)
		ret ^= kprof_test_recurse(depth - 1, ns);
	/* work after the call: no tail call */
	asm volatile("" : "+r" (ret));
	return ret;
}

/*
 * The profiler's targets: the same loop, 3:1 iterations, one caller.  Not
 * leaves (the kprof_test_nop() call): a leaf may keep no frame record on
 * arm64, and then its caller is missing from its samples' stacks.
 */
noinline u64 kprof_test_hot_a(u64 iters)
{
	u64 acc = 0;

	while (iters--)
		asm volatile("" : "+r" (acc), "+r" (iters));
	kprof_test_nop();
	return acc;
}

noinline u64 kprof_test_hot_b(u64 iters)
{
	u64 acc = 0;

	while (iters--)
		asm volatile("" : "+r" (acc), "+r" (iters));
	kprof_test_nop();
	return acc;
}

noinline u64 kprof_test_hot(u64 iters)
{
	return kprof_test_hot_a(3 * iters) + kprof_test_hot_b(iters);
}

noinline u64 kprof_test_loop(u64 iters)
{
	u64 acc = 0;

	/* no memory, no calls: the same instructions for the same iters */
	while (iters--)
		asm volatile("" : "+r" (acc), "+r" (iters));
	return acc;
}

/*
 * Keys and filters: a known return value per @sel (0, -EAGAIN,
 * -EPROBE_DEFER, then a positive count: size / 512), and for each a
 * different amount of work, less for each sel, so that their latencies
 * differ (and sort the other way round from their counts).
 */
noinline int kprof_test_ret(unsigned long sel, unsigned long size)
{
	static const int ret[] = { 0, -EAGAIN, -EPROBE_DEFER };
	unsigned long w = 4 - min(sel, 3UL);

	/* 64000, 27000, 8000, 1000 iterations: far apart, outliers aside */
	kprof_test_loop(w * w * w * 1000);
	return sel < ARRAY_SIZE(ret) ? ret[sel] : (int)(size / 512);
}

/* the sizes "ret" passes: one power-of-two range each */
static const unsigned long kprof_test_ret_size[] = { 100, 5000, 70000,
						     1UL << 20 };

/*
 * "ret N": kprof_test_ret(sel, size) (k + 1) x N times for sel k = 0..3,
 * so each return value, argument and size range has a count of its own.
 */
static void kprof_test_rets(unsigned long n)
{
	unsigned long sel, i;
	int sum = 0;

	for (sel = 0; sel < ARRAY_SIZE(kprof_test_ret_size); sel++)
		for (i = 0; i < (sel + 1) * n; i++)
			sum += kprof_test_ret(sel, kprof_test_ret_size[sel]);
	/* used: the compiler keeps the return value (no .isra clone) */
	asm volatile("" : : "r" (sum));
}

/* caller keys: one function, two callers, work after each call */
noinline int kprof_test_callee(unsigned long i)
{
	asm volatile("" : "+r" (i));
	return i & 1;
}

noinline int kprof_test_caller_a(unsigned long i)
{
	int r = kprof_test_callee(i);

	asm volatile("" : "+r" (r));
	return r;
}

noinline int kprof_test_caller_b(unsigned long i)
{
	int r = kprof_test_callee(i);

	asm volatile("" : "+r" (r));
	return r + 1;
}

/* the benchmark's keyed call: one return value, nothing else */
noinline int kprof_test_retc(unsigned long i)
{
	asm volatile("" : "+r" (i));
	return -EAGAIN;
}

/* a kernel pointer for even i, ERR_PTR(-ENOMEM) for odd */
noinline void *kprof_test_ptr(unsigned long i)
{
	static int obj;

	asm volatile("" ::: "memory");
	return i & 1 ? ERR_PTR(-ENOMEM) : &obj;
}

noinline void kprof_test_sleep(u32 ms)
{
	msleep(ms);
}

noinline u64 kprof_test_maysleep(u64 iters, bool sleep)
{
	if (sleep)
		schedule_timeout_uninterruptible(1);
	return kprof_test_loop(iters);
}

noinline void kprof_test_irq(void)
{
	asm volatile("" ::: "memory");
}

static struct {
	struct mutex lock;	/* one "irq" command at a time */
	struct hrtimer timer;
	struct completion done;
	unsigned long left;
} kprof_test_t;

/* Context: hard IRQ (HRTIMER_MODE_REL_HARD). */
static enum hrtimer_restart kprof_test_tick(struct hrtimer *t)
{
	kprof_test_irq();
	if (--kprof_test_t.left) {
		hrtimer_forward_now(t, ns_to_ktime(100 * NSEC_PER_USEC));
		return HRTIMER_RESTART;
	}
	complete(&kprof_test_t.done);
	return HRTIMER_NORESTART;
}

static int kprof_test_irqs(unsigned long n)
{
	if (!n)
		return 0;
	mutex_lock(&kprof_test_t.lock);
	kprof_test_t.left = n;
	reinit_completion(&kprof_test_t.done);
	hrtimer_start(&kprof_test_t.timer, ns_to_ktime(100 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	wait_for_completion(&kprof_test_t.done);
	mutex_unlock(&kprof_test_t.lock);
	return 0;
}

static struct work_struct kprof_test_work;
static u64 kprof_test_work_ns;

noinline void kprof_test_work_fn(struct work_struct *w);

__used noinline void kprof_test_work_fn(struct work_struct *w)
{
	kprof_test_spin(kprof_test_work_ns);
}

static void kprof_test_works(unsigned long n, u64 ns)
{
	unsigned long i;

	mutex_lock(&kprof_test_t.lock);
	kprof_test_work_ns = ns;
	for (i = 0; i < n; i++) {
		queue_work_on(raw_smp_processor_id(), system_wq,
			      &kprof_test_work);
		flush_work(&kprof_test_work);
	}
	mutex_unlock(&kprof_test_t.lock);
}

/* ---- workfn: distinct work functions ---- */

#define KPROF_TEST_NR_WFN	64

#define KPROF_TEST_WFN(n)						\
noinline void kprof_test_wfn##n(struct work_struct *w);		\
__used noinline void kprof_test_wfn##n(struct work_struct *w)		\
{									\
	asm volatile("" ::: "memory");					\
}

/* kprof_test_wfn<i>: i in base 4, three digits, 000..333 */
KPROF_TEST_WFN(000) KPROF_TEST_WFN(001) KPROF_TEST_WFN(002) KPROF_TEST_WFN(003)
KPROF_TEST_WFN(010) KPROF_TEST_WFN(011) KPROF_TEST_WFN(012) KPROF_TEST_WFN(013)
KPROF_TEST_WFN(020) KPROF_TEST_WFN(021) KPROF_TEST_WFN(022) KPROF_TEST_WFN(023)
KPROF_TEST_WFN(030) KPROF_TEST_WFN(031) KPROF_TEST_WFN(032) KPROF_TEST_WFN(033)
KPROF_TEST_WFN(100) KPROF_TEST_WFN(101) KPROF_TEST_WFN(102) KPROF_TEST_WFN(103)
KPROF_TEST_WFN(110) KPROF_TEST_WFN(111) KPROF_TEST_WFN(112) KPROF_TEST_WFN(113)
KPROF_TEST_WFN(120) KPROF_TEST_WFN(121) KPROF_TEST_WFN(122) KPROF_TEST_WFN(123)
KPROF_TEST_WFN(130) KPROF_TEST_WFN(131) KPROF_TEST_WFN(132) KPROF_TEST_WFN(133)
KPROF_TEST_WFN(200) KPROF_TEST_WFN(201) KPROF_TEST_WFN(202) KPROF_TEST_WFN(203)
KPROF_TEST_WFN(210) KPROF_TEST_WFN(211) KPROF_TEST_WFN(212) KPROF_TEST_WFN(213)
KPROF_TEST_WFN(220) KPROF_TEST_WFN(221) KPROF_TEST_WFN(222) KPROF_TEST_WFN(223)
KPROF_TEST_WFN(230) KPROF_TEST_WFN(231) KPROF_TEST_WFN(232) KPROF_TEST_WFN(233)
KPROF_TEST_WFN(300) KPROF_TEST_WFN(301) KPROF_TEST_WFN(302) KPROF_TEST_WFN(303)
KPROF_TEST_WFN(310) KPROF_TEST_WFN(311) KPROF_TEST_WFN(312) KPROF_TEST_WFN(313)
KPROF_TEST_WFN(320) KPROF_TEST_WFN(321) KPROF_TEST_WFN(322) KPROF_TEST_WFN(323)
KPROF_TEST_WFN(330) KPROF_TEST_WFN(331) KPROF_TEST_WFN(332) KPROF_TEST_WFN(333)

static const work_func_t kprof_test_wfns[KPROF_TEST_NR_WFN] = {
	kprof_test_wfn000, kprof_test_wfn001, kprof_test_wfn002, kprof_test_wfn003,
	kprof_test_wfn010, kprof_test_wfn011, kprof_test_wfn012, kprof_test_wfn013,
	kprof_test_wfn020, kprof_test_wfn021, kprof_test_wfn022, kprof_test_wfn023,
	kprof_test_wfn030, kprof_test_wfn031, kprof_test_wfn032, kprof_test_wfn033,
	kprof_test_wfn100, kprof_test_wfn101, kprof_test_wfn102, kprof_test_wfn103,
	kprof_test_wfn110, kprof_test_wfn111, kprof_test_wfn112, kprof_test_wfn113,
	kprof_test_wfn120, kprof_test_wfn121, kprof_test_wfn122, kprof_test_wfn123,
	kprof_test_wfn130, kprof_test_wfn131, kprof_test_wfn132, kprof_test_wfn133,
	kprof_test_wfn200, kprof_test_wfn201, kprof_test_wfn202, kprof_test_wfn203,
	kprof_test_wfn210, kprof_test_wfn211, kprof_test_wfn212, kprof_test_wfn213,
	kprof_test_wfn220, kprof_test_wfn221, kprof_test_wfn222, kprof_test_wfn223,
	kprof_test_wfn230, kprof_test_wfn231, kprof_test_wfn232, kprof_test_wfn233,
	kprof_test_wfn300, kprof_test_wfn301, kprof_test_wfn302, kprof_test_wfn303,
	kprof_test_wfn310, kprof_test_wfn311, kprof_test_wfn312, kprof_test_wfn313,
	kprof_test_wfn320, kprof_test_wfn321, kprof_test_wfn322, kprof_test_wfn323,
	kprof_test_wfn330, kprof_test_wfn331, kprof_test_wfn332, kprof_test_wfn333,
};

static struct work_struct kprof_test_wfn_work[KPROF_TEST_NR_WFN];

static int kprof_test_workfn(unsigned long f, unsigned long nf,
			     unsigned long n)
{
	unsigned long i, j;

	if (f >= KPROF_TEST_NR_WFN || nf > KPROF_TEST_NR_WFN - f)
		return -EINVAL;
	mutex_lock(&kprof_test_t.lock);
	for (i = 0; i < n; i++) {
		for (j = f; j < f + nf; j++)
			queue_work(system_wq, &kprof_test_wfn_work[j]);
		for (j = f; j < f + nf; j++)
			flush_work(&kprof_test_wfn_work[j]);
	}
	mutex_unlock(&kprof_test_t.lock);
	return 0;
}

/*
 * The first two work functions whose pair:workqueue key (the function's
 * address) has the same home slot, hash_64(tag, 32) & (nkeys - 1), in a
 * table of nkeys keys: kprofctl's kprof_key_find().  With 64 functions in
 * 64 slots such a pair all but surely exists.
 */
static int kprof_test_workcoll(unsigned long round, unsigned long nkeys,
			       unsigned long n)
{
	unsigned long i, j;
	u32 hi, hj;

	if (!nkeys || (nkeys & (nkeys - 1)) || round < 1 || round > 2)
		return -EINVAL;
	for (i = 0; i < KPROF_TEST_NR_WFN; i++) {
		hi = hash_64((u64)(unsigned long)kprof_test_wfns[i], 32) &
		     (nkeys - 1);
		for (j = i + 1; j < KPROF_TEST_NR_WFN; j++) {
			hj = hash_64((u64)(unsigned long)kprof_test_wfns[j],
				     32) & (nkeys - 1);
			if (hi != hj)
				continue;
			pr_info("workcoll: %ps and %ps share home slot %u of %lu\n",
				kprof_test_wfns[i], kprof_test_wfns[j], hi,
				nkeys);
			return kprof_test_workfn(round == 1 ? i : j, 1, n);
		}
	}
	return -ENOENT;
}

/* ---- wakestorm: sched_wakeup landing inside sched_switch callbacks ---- */

static struct {
	struct tracepoint *wakeup, *sw;
	struct task_struct *task;
	struct hrtimer timer;
	bool stop;
} kprof_test_ws;

static void kprof_test_ws_find(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sched_wakeup"))
		kprof_test_ws.wakeup = tp;
	else if (!strcmp(tp->name, "sched_switch"))
		kprof_test_ws.sw = tp;
}

/* Context: preemption disabled.  What trace_sched_wakeup(t) calls. */
static void kprof_test_ws_wakeup(struct task_struct *t)
{
	struct tracepoint_func *f = rcu_dereference_sched(kprof_test_ws.wakeup->funcs);

	for (; f && f->func; f++)
		((void (*)(void *, struct task_struct *))f->func)(f->data, t);
}

static void kprof_test_ws_switch(struct task_struct *t)
{
	struct tracepoint_func *f = rcu_dereference_sched(kprof_test_ws.sw->funcs);

	for (; f && f->func; f++)
		((void (*)(void *, bool, struct task_struct *,
			   struct task_struct *, unsigned int))f->func)
			(f->data, false, t, t, 0);
}

static enum hrtimer_restart kprof_test_ws_tick(struct hrtimer *t)
{
	kprof_test_ws_wakeup(kprof_test_ws.task);
	if (READ_ONCE(kprof_test_ws.stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(t, ns_to_ktime(20 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int kprof_test_wakestorm(unsigned long n)
{
	unsigned long i;

	if (!kprof_test_ws.wakeup || !kprof_test_ws.sw)
		for_each_kernel_tracepoint(kprof_test_ws_find, NULL);
	if (!kprof_test_ws.wakeup || !kprof_test_ws.sw)
		return -ENOENT;
	mutex_lock(&kprof_test_t.lock);
	kprof_test_ws.task = current;
	WRITE_ONCE(kprof_test_ws.stop, false);
	hrtimer_start(&kprof_test_ws.timer, ns_to_ktime(20 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	for (i = 0; i < n; i++) {
		preempt_disable_notrace();
		kprof_test_ws_wakeup(current);
		kprof_test_ws_switch(current);
		preempt_enable_notrace();
	}
	WRITE_ONCE(kprof_test_ws.stop, true);
	hrtimer_cancel(&kprof_test_ws.timer);
	mutex_unlock(&kprof_test_t.lock);
	return 0;
}

static ssize_t kprof_test_write(struct file *file, const char __user *ubuf,
				size_t len, loff_t *ppos)
{
	unsigned long n, a = 0, b = 0, i, flags;
	char buf[96], cmd[16];
	int args;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	args = sscanf(buf, "%15s %lu %lu %lu", cmd, &n, &a, &b);
	if (args < 2 || n > KPROF_TEST_MAX_CALLS)
		return -EINVAL;

	if (!strcmp(cmd, "nop") && args == 2) {
		for (i = 0; i < n; i++)
			kprof_test_nop();
	} else if (!strcmp(cmd, "spin") && args == 3 &&
		   a <= KPROF_TEST_MAX_NS) {
		for (i = 0; i < n; i++)
			kprof_test_spin(a);
	} else if (!strcmp(cmd, "spinoff") && args == 3 &&
		   a <= KPROF_TEST_MAX_IRQOFF_NS) {
		for (i = 0; i < n; i++) {
			local_irq_save(flags);
			kprof_test_spin(a);
			local_irq_restore(flags);
		}
	} else if (!strcmp(cmd, "slowonce") && args == 4 && a >= 1 &&
		   a <= n && b <= KPROF_TEST_MAX_IRQOFF_NS) {
		for (i = 1; i <= n; i++) {
			local_irq_save(flags);
			kprof_test_probe(i == a ? b : 0);
			local_irq_restore(flags);
		}
	} else if (!strcmp(cmd, "recurse") && args == 4 && a >= 1 &&
		   a <= KPROF_TEST_MAX_DEPTH &&
		   b <= KPROF_TEST_MAX_IRQOFF_NS / a) {
		/*
		 * An interrupt or preemption between the spins of a nested
		 * call stretches every enclosing level; with interrupts off
		 * each level's latency is k spins plus k probe overheads.
		 */
		for (i = 0; i < n; i++) {
			local_irq_save(flags);
			kprof_test_recurse(a, b);
			local_irq_restore(flags);
		}
	} else if (!strcmp(cmd, "loopoff") && args == 3 && a <= 1000 &&
		   n <= 100000) {
		local_irq_save(flags);
		for (i = 0; i < n; i++)
			kprof_test_loop(a);
		local_irq_restore(flags);
	} else if (!strcmp(cmd, "loop") && args == 3 && a <= 1000000) {
		for (i = 0; i < n; i++) {
			local_irq_save(flags);
			kprof_test_loop(a);
			local_irq_restore(flags);
		}
	} else if (!strcmp(cmd, "ret") && args == 2 && n <= 100000) {
		kprof_test_rets(n);
	} else if (!strcmp(cmd, "callers") && args == 2) {
		int sum = 0;

		for (i = 0; i < n; i++)
			sum += kprof_test_caller_a(i);
		for (i = 0; i < 2 * n; i++)
			sum += kprof_test_caller_b(i);
		asm volatile("" : : "r" (sum));
	} else if (!strcmp(cmd, "hot") && args == 3) {
		u64 sum = 0;

		for (i = 0; i < n; i++)
			sum += kprof_test_hot(a);
		asm volatile("" : : "r" (sum));
	} else if (!strcmp(cmd, "retc") && args == 2) {
		int sum = 0;

		for (i = 0; i < n; i++)
			sum += kprof_test_retc(i);
		asm volatile("" : : "r" (sum));
	} else if (!strcmp(cmd, "ptr") && args == 2) {
		void *sink = NULL;

		for (i = 0; i < n; i++)
			sink = kprof_test_ptr(i);
		asm volatile("" : : "r" (sink));
	} else if (!strcmp(cmd, "event") && args == 2) {
		for (i = 0; i < n; i++)
			trace_kprof_test_event(i);
	} else if (!strcmp(cmd, "work") && args == 3 &&
		   a <= KPROF_TEST_MAX_NS) {
		kprof_test_works(n, a);
	} else if (!strcmp(cmd, "irq") && args == 2) {
		kprof_test_irqs(n);
	} else if (!strcmp(cmd, "settle") && args == 2) {
		for (i = 0; i < n; i++) {
			rcu_barrier();
			vm_unmap_aliases();
		}
	} else if (!strcmp(cmd, "hop") && args == 2) {
		int err = 0;

		for (i = 0; i < n && !err; i++)
			err = kprof_test_hop();
		set_cpus_allowed_ptr(current, cpu_possible_mask);
		if (err)
			return err;
	} else if (!strcmp(cmd, "notrace") && args == 2) {
		for (i = 0; i < n; i++)
			kprof_test_notrace();
	} else if (!strcmp(cmd, "exitin") && args == 2 && n <= 100) {
		for (i = 0; i < n; i++) {
			DECLARE_COMPLETION_ONSTACK(done);
			struct task_struct *t;

			t = kthread_run(kprof_test_exitin_fn, &done, "kprof_exitin");
			if (IS_ERR(t))
				return PTR_ERR(t);
			wait_for_completion(&done);
		}
	} else if (!strcmp(cmd, "sleep") && args == 3 &&
		   a <= KPROF_TEST_MAX_MS) {
		for (i = 0; i < n; i++)
			kprof_test_sleep(a);
	} else if (!strcmp(cmd, "workfn") && args == 4) {
		/* "workfn F NF N": n is F here */
		if (kprof_test_workfn(n, a, b))
			return -EINVAL;
	} else if (!strcmp(cmd, "workcoll") && args == 4) {
		/* "workcoll ROUND NKEYS N": n is ROUND here */
		if (kprof_test_workcoll(n, a, b))
			return -EINVAL;
	} else if (!strcmp(cmd, "wakestorm") && args == 2) {
		if (kprof_test_wakestorm(n))
			return -ENOENT;
	} else if (!strcmp(cmd, "maysleep") && args == 4 && b <= 1000000 &&
		   n <= 1000) {
		for (i = 0; i < n; i++) {
			if (a && i % a == 0) {
				kprof_test_maysleep(b, true);
				continue;
			}
			local_irq_save(flags);
			kprof_test_maysleep(b, false);
			local_irq_restore(flags);
		}
	} else {
		int err = kprof_test_sched_cmd(cmd, args, n, a);

		if (err == -ENOENT)
			err = kprof_test_corrupt_cmd(cmd, args, n, a, b);

		if (err)
			return err == -ENOENT ? -EINVAL : err;
	}
	return len;
}

static const struct file_operations kprof_test_fops = {
	.owner = THIS_MODULE,
	.write = kprof_test_write,
};

static struct dentry *kprof_test_dir;

/*
 * Inlined into its one caller: no kallsyms name, what "kprobe:
 * kprof_test_clamp_calls" is told ("inlined or static?").
 */
static inline unsigned int kprof_test_clamp_calls(unsigned int n)
{
	return min(n, 100U);
}

/* hrtimer_setup() (6.13) replaced hrtimer_init(), which 7.x removed */
static void __init kprof_test_timer(struct hrtimer *t,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    enum hrtimer_mode mode)
{
#ifdef KPROF_TEST_HRTIMER_SETUP
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, mode);
#else
	hrtimer_init(t, CLOCK_MONOTONIC, mode);
	t->function = fn;
#endif
}

static int __init kprof_test_init(void)
{
	unsigned int i;

	/* __init: what "kprobe:kprof_test_init" is told (freed after load) */
	for (i = 0; i < kprof_test_clamp_calls(probe_calls); i++)
		kprof_test_probe(min_t(u64, probe_ns, KPROF_TEST_MAX_NS));
	mutex_init(&kprof_test_t.lock);
	INIT_WORK(&kprof_test_work, kprof_test_work_fn);
	init_completion(&kprof_test_t.done);
	kprof_test_timer(&kprof_test_t.timer, kprof_test_tick,
			 HRTIMER_MODE_REL_HARD);
	for (i = 0; i < KPROF_TEST_NR_WFN; i++)
		INIT_WORK(&kprof_test_wfn_work[i], kprof_test_wfns[i]);
	kprof_test_timer(&kprof_test_ws.timer, kprof_test_ws_tick,
			 HRTIMER_MODE_REL_PINNED_HARD);
	kprof_test_dir = debugfs_create_dir("kprof_test", NULL);
	debugfs_create_file("trigger", 0200, kprof_test_dir, NULL,
			    &kprof_test_fops);
	return 0;
}

static void __exit kprof_test_exit(void)
{
	unsigned int i;

	debugfs_remove_recursive(kprof_test_dir);
	kprof_test_sched_exit();
	hrtimer_cancel(&kprof_test_t.timer);
	cancel_work_sync(&kprof_test_work);
	for (i = 0; i < KPROF_TEST_NR_WFN; i++)
		cancel_work_sync(&kprof_test_wfn_work[i]);
}

module_init(kprof_test_init);
module_exit(kprof_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprofctl test targets with known call counts and latencies");
