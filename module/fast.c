// SPDX-License-Identifier: GPL-2.0
/*
 * Fast returns (fast.h): the tasks' return stacks, the C half of the
 * trampoline (fast-tramp.S has the other), and keeping this module's text
 * while a call may still return into it.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/vmalloc.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/sched.h>
#include <linux/delay.h>
#include <linux/workqueue.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>
#include <linux/of.h>
#include <linux/timekeeping.h>

#include "fast.h"
#include "probe.h"
#include "events.h"
#include "tracepoints.h"

#if KPROF_FAST

static unsigned int fast_tasks = 256;
module_param(fast_tasks, uint, 0444);
MODULE_PARM_DESC(fast_tasks,
		 "Tasks that may be inside functions fast latency probes hook, at once (64-65536; more are counted missed)");

static u32 kprof_fast_nr(void)
{
	return roundup_pow_of_two(clamp_t(u32, fast_tasks, 64, 65536));
}

/*
 * The default on arm64, where the suite and the bench proved it; the
 * kernel's ORC unwinder (a WARN's or an oops's stack) cannot get past the
 * trampoline (README, Known limits).
 */
static bool fast = IS_ENABLED(CONFIG_ARM64);
module_param(fast, bool, 0644);
MODULE_PARM_DESC(fast,
		 "Latency probes (kretprobes and their sets) follow ftrace-able functions through ftrace and a return trampoline, a third of a kretprobe's cost (default Y on arm64; N: only with --fast)");

bool kprof_fast_wanted(u32 add_flags)
{
	/* without kprobes, the only way */
	return (add_flags & KPROF_ADD_FAST) ||
	       ((READ_ONCE(fast) || !IS_ENABLED(CONFIG_KRETPROBES)) &&
		!(add_flags & KPROF_ADD_KRETPROBE));
}

DEFINE_PER_CPU(struct kprof_fslot *, kprof_fast_hot);
struct kprof_fast_tick kprof_fast_tick;
#ifdef CONFIG_X86_64
DEFINE_STATIC_KEY_FALSE(kprof_fast_tsc);
#endif
static DEFINE_MUTEX(kprof_fast_lock);
static struct tracepoint *kprof_fast_free_tp;
static bool kprof_fast_lingering;
/* exit has begun (under the parameters' lock): no pool, no clock work */
static bool kprof_fast_gone;

/* a call that will not return through its stub: not recorded */
static __always_inline void kprof_fcall_drop(struct kprof_fcall *c)
{
	struct kprof_fhook *h;

	/* the hook stays valid while preemption is off (forget) */
	preempt_disable_notrace();
	h = READ_ONCE(c->hook);
	if (h) {
		atomic_long_inc(&h->missed);
		if (h->limit)
			atomic_dec(&h->active);
	}
	preempt_enable_notrace();
}

/* calls above k, whose functions never returned: not recorded */
static noinline notrace void kprof_fast_drop_above(struct kprof_fslot *s,
						   u32 k, u32 d)
{
	u32 i;

	for (i = k + 1; i < d; i++)
		kprof_fcall_drop(&s->call[i]);
}
NOKPROBE_SYMBOL(kprof_fast_drop_above);

/* call k, read, is popped: an interrupt from here on may push over it */
static __always_inline void kprof_fast_pop(struct kprof_fslot *s, u32 k,
					   u8 claimed)
{
	barrier();
	WRITE_ONCE(s->depth, k);
	if (claimed)
		kprof_fslot_release(s, current,
				    claimed == KPROF_FCALL_DISPLACED);
}

/*
 * Context: preemption disabled.  A plain probe's call (kprof_fhook.plain)
 * in its histogram; true if it is a slow call, for which an event is due.
 */
static __always_inline bool kprof_fast_plain(struct kprof_probe *p, u64 ns)
{
	u64 slow;

	if (!READ_ONCE(p->armed))
		return false;
	kprof_stat_latency(kprof_this_stats(p, smp_processor_id()), ns);
	/* ns >= slow, 0 meaning none, in one compare */
	slow = READ_ONCE(p->slow_ns);
	return unlikely(ns > slow - 1);
}

noinline notrace bool kprof_event_slow_fast(struct kprof_probe *p,
					    unsigned int cpu, u64 latency,
					    bool has_key, u64 key,
					    unsigned long fn,
					    unsigned long from)
{
	int bit = ftrace_test_recursion_trylock(fn, from);

	if (unlikely(bit < 0))
		return false;
	kprof_event_slow(p, cpu, ktime_get_mono_fast_ns(), latency, current,
			 has_key, key, from);
	ftrace_test_recursion_unlock(bit);
	return true;
}
NOKPROBE_SYMBOL(kprof_event_slow_fast);

/* a plain probe's slow-call event; one it cannot send is counted missed */
static __always_inline void kprof_fast_plain_event(struct kprof_fhook *h,
						   u64 ns, unsigned long fn,
						   unsigned long caller)
{
	if (!kprof_event_slow_fast(h->plain, smp_processor_id(), ns, false, 0,
				   fn, kprof_fast_caller(caller)))
		atomic_long_inc(&h->missed);
}

/*
 * The out-of-line ends of kprof_fast_return(), preemption disabled, so
 * that the usual return (a plain probe, the clock read inline, no event)
 * saves few registers; tail calls where the kernel allows sibling calls.
 */
static noinline notrace unsigned long
kprof_fast_return_event(struct kprof_fhook *h, u64 ns, unsigned long fn,
			unsigned long caller, unsigned long ret)
{
	kprof_fast_plain_event(h, ns, fn, caller);
	preempt_enable_notrace();
	return ret;
}
NOKPROBE_SYMBOL(kprof_fast_return_event);

/*
 * A probe with an exit (keys, filters, the PMU), or no probe: read first.
 * (arm64 builds with -fno-optimize-sibling-calls: there it is a frame more
 * for an exit's stack to unwind, the price of a lean usual return.)
 */
static noinline notrace unsigned long
kprof_fast_return_exit(struct kprof_fast_frame *f, struct kprof_fslot *s,
		       struct kprof_fhook *h, u32 k, unsigned long ret)
{
	struct kprof_fcall *c = &s->call[k];
	u8 claimed = c->claimed;
	u64 ns;

	if (h && h->limit)
		atomic_dec(&h->active);
	if (h && h->plain) {
		ns = kprof_fast_elapsed(c->t0);
		if (kprof_fast_plain(h->plain, ns))
			kprof_fast_plain_event(h, ns, c->fn, f->lr);
	} else if (h) {
		h->exit(h, c, f->ret[0], f->lr, kprof_fast_frame_fp(f));
	}
	/*
	 * Popped before preemption can move the task off the CPU: the pool is
	 * not written after this point, and what is left of the return runs
	 * in this module's text, which kprof_fast_exit() keeps for an
	 * RCU-tasks grace period.
	 */
	kprof_fast_pop(s, k, claimed);
	preempt_enable_notrace();
	return ret;
}
NOKPROBE_SYMBOL(kprof_fast_return_exit);

/*
 * Context: a probed function has returned into stub @k of @s, the task's
 * stack, any context (interrupts may be on, preemption too).  Records
 * call k and pops it; returns where call k returns to.  A plain probe's
 * call is popped first and recorded here.
 */
static __always_inline unsigned long
kprof_fast_return_call(struct kprof_fast_frame *f, struct kprof_fslot *s,
		       u32 k)
{
	struct kprof_fcall *c = &s->call[k];
	unsigned long ret = c->ret, fn;
	struct kprof_fhook *h;
	u64 ns;

	/* a second fast probe's stub: unwinders and keys see the caller */
	f->lr = kprof_fast_real(s, ret);
	/* the hook stays valid while preemption is off (forget) */
	preempt_disable_notrace();
	h = READ_ONCE(c->hook);
	if (unlikely(!h || !h->plain || !kprof_fast_elapsed_quick(c->t0, &ns)))
		return kprof_fast_return_exit(f, s, h, k, ret);
	fn = c->fn;
	kprof_fast_pop(s, k, c->claimed);
	if (kprof_fast_plain(h->plain, ns))
		return kprof_fast_return_event(h, ns, fn, f->lr, ret);
	preempt_enable_notrace();
	return ret;
}

/* calls above k never returned (they are dropped) */
static noinline notrace unsigned long
kprof_fast_return_above(struct kprof_fast_frame *f, struct kprof_fslot *s,
			u32 k, u32 d)
{
	kprof_fast_drop_above(s, k, d);
	return kprof_fast_return_call(f, s, k);
}
NOKPROBE_SYMBOL(kprof_fast_return_above);

/*
 * Context: a probed function has returned into stub @k (fast-tramp.S
 * calls it); finds the task's stack, as the last entry on this CPU
 * usually left it.
 */
notrace unsigned long kprof_fast_return(struct kprof_fast_frame *f, u32 k)
{
	struct kprof_fslot *s = raw_cpu_read(kprof_fast_hot);
	u32 d;

	if (unlikely(!s || READ_ONCE(s->owner) != current))
		s = kprof_fslot_find(current);
	/* no stack, or stub k above it: nowhere to return to */
	d = s ? READ_ONCE(s->depth) : 0;
	BUG_ON(k >= d);
	if (unlikely(d > k + 1))
		return kprof_fast_return_above(f, s, k, d);
	return kprof_fast_return_call(f, s, k);
}
NOKPROBE_SYMBOL(kprof_fast_return);

/*
 * Context: sched_process_free, an RCU callback: @t is dead.  Calls it
 * left inside (it exited in a probed function) are not recorded; its slot
 * is free again.
 */
static notrace void kprof_fast_task_free(void *data, struct task_struct *t)
{
	struct kprof_fslot *s = kprof_fslot_find(t);
	u32 i, d;

	if (!s)
		return;
	d = READ_ONCE(s->depth);
	for (i = 0; i < d; i++)
		kprof_fcall_drop(&s->call[i]);
	WRITE_ONCE(s->depth, 0);
	kprof_fslot_release(s, t, s != kprof_fslot_at(kprof_fslot_hash(t)));
}
NOKPROBE_SYMBOL(kprof_fast_task_free);

/* ---- hooks (process context) -------------------------------------------- */

/*
 * Calls in flight: all of them, or (@orphans) only those whose probe is
 * gone.  A racy scan, but a call in flight keeps its place and its
 * stack's depth above it until it returns, so none is missed; *pid and
 * *fn name one.
 */
static u32 kprof_fast_inflight(bool orphans, pid_t *pid, unsigned long *fn)
{
	u32 i, k, d, n = 0;

	for (i = 0; kprof_fpool.slot && i <= kprof_fpool.mask; i++) {
		struct kprof_fslot *s = &kprof_fpool.slot[i];
		struct kprof_fcall *calls = s->call;

		if (!READ_ONCE(s->owner))
			continue;
		d = min_t(u32, READ_ONCE(s->depth), KPROF_FAST_DEPTH);
		for (k = 0; k < d; k++) {
			if (orphans && READ_ONCE(calls[k].hook))
				continue;
			*pid = READ_ONCE(s->pid);
			*fn = READ_ONCE(calls[k].fn);
			n++;
		}
	}
	return n;
}

/*
 * While calls of deleted probes are in flight this module stays loaded:
 * rmmod answers "in use" until they have returned.  Polled, as their
 * returns must not have to wake anyone.
 */
static void kprof_fast_linger_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(kprof_fast_linger, kprof_fast_linger_fn);

static void kprof_fast_linger_fn(struct work_struct *w)
{
	unsigned long fn;
	pid_t pid;

	mutex_lock(&kprof_fast_lock);
	if (kprof_fast_inflight(true, &pid, &fn)) {
		schedule_delayed_work(&kprof_fast_linger, HZ / 10);
		mutex_unlock(&kprof_fast_lock);
		return;
	}
	kprof_fast_lingering = false;
	mutex_unlock(&kprof_fast_lock);
	/*
	 * module_exit() cancels this work synchronously: this code stays.  A
	 * task may still be on its way out of the trampoline: exit waits
	 * for an RCU-tasks grace period before the text goes.
	 */
	module_put(THIS_MODULE);
}

/*
 * A call of a live probe in flight for over a second may sleep for ever:
 * a read waiting for data, a driver's kthread.  exit could only wait for
 * it, unkillably, and once it has begun nothing can stop the unload.  So
 * while such a call is in flight this module holds a reference of its
 * own: rmmod answers "in use" at once, and the kernel log names the call.
 * Polled once a second while any fast hook lives.
 */
static void kprof_fast_watch_fn(struct work_struct *w);
static DECLARE_DELAYED_WORK(kprof_fast_watch, kprof_fast_watch_fn);
static u32 kprof_fast_hooks;
static bool kprof_fast_holding;

static u32 kprof_fast_long(pid_t *pid, unsigned long *fn)
{
	u32 i, k, d, n = 0;
	u64 ns;

	for (i = 0; kprof_fpool.slot && i <= kprof_fpool.mask; i++) {
		struct kprof_fslot *s = &kprof_fpool.slot[i];

		if (!READ_ONCE(s->owner))
			continue;
		d = min_t(u32, READ_ONCE(s->depth), KPROF_FAST_DEPTH);
		for (k = 0; k < d; k++) {
			/* a racy read: a stamp from the future is no call */
			ns = kprof_fast_elapsed(READ_ONCE(s->call[k].t0));
			if (!READ_ONCE(s->call[k].hook) || ns < NSEC_PER_SEC ||
			    ns > S64_MAX)
				continue;
			*pid = READ_ONCE(s->pid);
			*fn = READ_ONCE(s->call[k].fn);
			n++;
		}
	}
	return n;
}

static void kprof_fast_watch_fn(struct work_struct *w)
{
	unsigned long fn = 0;
	bool put = false;
	pid_t pid = 0;
	u32 n;

	mutex_lock(&kprof_fast_lock);
	n = kprof_fast_long(&pid, &fn);
	if (n && !kprof_fast_holding && try_module_get(THIS_MODULE)) {
		kprof_fast_holding = true;
		pr_info("%u call%s in flight for over a second (pid %d in %ps) hold%s kprofctl: rmmod is refused until %s returned\n",
			n, n == 1 ? "" : "s", pid, (void *)fn,
			n == 1 ? "s" : "", n == 1 ? "it has" : "they have");
	} else if (!n && kprof_fast_holding) {
		kprof_fast_holding = false;
		put = true;
	}
	if (kprof_fast_hooks || kprof_fast_holding)
		schedule_delayed_work(&kprof_fast_watch, HZ);
	mutex_unlock(&kprof_fast_lock);
	/* exit cancels this work synchronously: this code stays */
	if (put)
		module_put(THIS_MODULE);
}

static int kprof_fast_pool_alloc(void)
{
	u32 n = kprof_fast_nr();
	struct kprof_fpool p = { .mask = n - 1, .shift = 32 - ilog2(n) };
	struct module *mod;
	int ret;

	kprof_fast_free_tp = kprof_tp_find("sched_process_free", &mod);
	if (!kprof_fast_free_tp || mod)
		return -ENOENT;
	p.slot = vzalloc(array_size(n, sizeof(*p.slot)));
	if (!p.slot)
		return -ENOMEM;
	kprof_fpool.mask = p.mask;
	kprof_fpool.shift = p.shift;
	/* the slots last: handlers test them */
	smp_store_release(&kprof_fpool.slot, p.slot);
	ret = tracepoint_probe_register(kprof_fast_free_tp,
					kprof_fast_task_free, NULL);
	if (ret) {
		WRITE_ONCE(kprof_fpool.slot, NULL);
		synchronize_rcu();
		vfree(p.slot);
	}
	return ret;
}

u32 kprof_fast_tasks(void)
{
	return kprof_fast_nr();
}

/* calls in flight, for tests and for whoever wonders why rmmod waits */
static int kprof_fast_inflight_get(char *buf, const struct kernel_param *kp)
{
	unsigned long fn;
	pid_t pid;
	u32 n;

	mutex_lock(&kprof_fast_lock);
	n = kprof_fast_inflight(false, &pid, &fn);
	mutex_unlock(&kprof_fast_lock);
	return sysfs_emit(buf, "%u\n", n);
}

static const struct kernel_param_ops kprof_fast_inflight_ops = {
	.get = kprof_fast_inflight_get,
};
module_param_cb(fast_inflight, &kprof_fast_inflight_ops, NULL, 0444);
MODULE_PARM_DESC(fast_inflight,
		 "Calls now inside functions fast probes hooked (read-only)");

int kprof_fast_hook_init(struct kprof_fhook *h, u32 limit)
{
	int ret = 0;

	mutex_lock(&kprof_fast_lock);
	if (!kprof_fpool.slot)
		ret = kprof_fast_pool_alloc();
	h->live = !ret;
	if (!ret && !kprof_fast_hooks++)
		schedule_delayed_work(&kprof_fast_watch, HZ);
	mutex_unlock(&kprof_fast_lock);
	h->limit = limit;
	h->plain = NULL;
	atomic_set(&h->active, 0);
	atomic_long_set(&h->missed, 0);
	return ret;
}

void kprof_fast_forget(struct kprof_fhook *h)
{
	u32 i, k, n = 0;
	unsigned long fn;
	pid_t pid;

	mutex_lock(&kprof_fast_lock);
	/* forgotten twice when its function was __init code */
	if (h->live) {
		h->live = false;
		kprof_fast_hooks--;
	}
	for (i = 0; kprof_fpool.slot && i <= kprof_fpool.mask; i++) {
		struct kprof_fcall *calls = kprof_fpool.slot[i].call;

		/* above the depth too: a stale call is as good as none */
		for (k = 0; k < KPROF_FAST_DEPTH; k++)
			if (cmpxchg(&calls[k].hook, h, NULL) == h)
				n++;
	}
	/*
	 * An exit that read h before it was cleared runs with preemption
	 * off, maybe where RCU is not watching (the idle loop): the rude
	 * flavour waits for those too.
	 */
	synchronize_rcu_tasks_rude();
	if (n && kprof_fast_inflight(true, &pid, &fn) && !kprof_fast_lingering &&
	    try_module_get(THIS_MODULE)) {
		kprof_fast_lingering = true;
		schedule_delayed_work(&kprof_fast_linger, HZ / 10);
	}
	mutex_unlock(&kprof_fast_lock);
}

unsigned long kprof_fast_missed(struct kprof_fhook *h)
{
	return atomic_long_read(&h->missed);
}

/*
 * Functions whose return a fast probe cannot follow: they never return,
 * return twice, or switch stacks (the graph tracer leaves the same out).
 * A kretprobe, whose trampoline is in the core kernel, may try.
 */
static const char *const kprof_fast_never[] = {
	"do_exit", "do_group_exit", "make_task_dead", "kthread_exit",
	"kthread_complete_and_exit", "do_task_dead", "__arm64_sys_exit",
	"__arm64_sys_exit_group", "__x64_sys_exit", "__x64_sys_exit_group",
	"panic", "nmi_panic", "__switch_to", "cpu_switch_to",
	"cpu_suspend", "swsusp_arch_suspend", "swsusp_arch_resume",
	"machine_kexec", "machine_restart", "machine_halt",
	"machine_power_off", "kernel_restart", "kernel_halt",
	"kernel_power_off", "emergency_restart", "cpu_startup_entry",
	"do_idle", "cpu_die", "arch_cpu_idle_dead", "cpu_psci_cpu_die",
	"psci_cpu_off", "play_dead", "native_play_dead", "mwait_play_dead",
	"hlt_play_dead", "secondary_start_kernel",
	"rest_init", "start_kernel", "ret_from_fork", "schedule_tail",
	"__do_softirq", "call_on_irq_stack", "do_softirq_own_stack",
};

int kprof_fast_refuses(const char *name, unsigned long addr,
		       const char **why)
{
	size_t i;

	if (within_module(addr, THIS_MODULE)) {
		*why = "is kprofctl's own";
		return -EADDRNOTAVAIL;
	}
	for (i = 0; i < ARRAY_SIZE(kprof_fast_never); i++)
		if (!strcmp(name, kprof_fast_never[i])) {
			*why = "does not return once on its own stack";
			return -EADDRNOTAVAIL;
		}
	return 0;
}

#ifdef CONFIG_ARM64
/*
 * The counter's rate as the kernel keeps time with it: the arch timer
 * driver takes a device tree's clock-frequency over CNTFRQ_EL0 (firmware
 * that leaves CNTFRQ wrong), and exports neither.
 */
static u32 kprof_fast_timer_rate(void)
{
	static const struct of_device_id timers[] = {
		{ .compatible = "arm,armv8-timer" },
		{ .compatible = "arm,armv7-timer" },
		{ }
	};
	struct device_node *np = of_find_matching_node(NULL, timers);
	u32 rate = 0;

	if (np) {
		if (of_property_read_u32(np, "clock-frequency", &rate))
			rate = 0;
		of_node_put(np);
	}
	return rate ?: arch_timer_get_cntfrq();
}

int kprof_fast_init(void)
{
	u32 freq = kprof_fast_timer_rate();
	unsigned int __maybe_unused cpu;

	kprof_fast_tick.mult = div_u64((u64)NSEC_PER_SEC << 32, freq ?: 1);
	/* CPUs with a counter erratum read it through their workaround */
#if IS_ENABLED(CONFIG_ARM_ARCH_TIMER_OOL_WORKAROUND)
	for_each_possible_cpu(cpu) {
		const struct arch_timer_erratum_workaround *wa =
			per_cpu(timer_unstable_counter_workaround, cpu);

		if (wa && wa->read_cntvct_el0)
			kprof_fast_tick.erratum = true;
	}
#endif
	return 0;
}

static void kprof_fast_clock_exit(void)
{
}

static int kprof_fast_clock_set(const char *val, const struct kernel_param *kp)
{
	return sysfs_streq(val, "cntvct") ? 0 : -EINVAL;
}

static const char *kprof_fast_clock_name(void)
{
	return "cntvct";
}
#else
static void kprof_fast_tsc_watch(struct work_struct *w);
static DECLARE_DELAYED_WORK(kprof_fast_tsc_work, kprof_fast_tsc_watch);

/*
 * The kernel's verdict on the TSC, once a second: found unstable (out of
 * sync, stopping in idle, changing rate), it stamps no new call.
 */
static void kprof_fast_tsc_watch(struct work_struct *w)
{
	if (check_tsc_unstable()) {
		static_branch_disable(&kprof_fast_tsc);
		pr_info("the TSC is unstable: fast probes time calls with ktime_get_mono_fast_ns() from now on\n");
		return;
	}
	schedule_delayed_work(&kprof_fast_tsc_work, HZ);
}

/* Does the timekeeper read the TSC?  Then its snapshot's cycles are one. */
static bool kprof_fast_tsc_keeps_time(void)
{
	struct system_time_snapshot snap;
	u64 now;

	ktime_get_snapshot(&snap);
	now = rdtsc_ordered();
	/* another clocksource's count is nowhere near: 10 ms of cycles */
	return snap.cycles && now >= snap.cycles &&
	       now - snap.cycles < (u64)tsc_khz * 10;
}

/*
 * The TSC if the kernel keeps time with it and has not found it unstable:
 * one rate, in sync on every CPU.  Context: process.
 */
static int kprof_fast_use_tsc(void)
{
	if (!boot_cpu_has(X86_FEATURE_TSC) || !tsc_khz ||
	    check_tsc_unstable() || !kprof_fast_tsc_keeps_time())
		return -EINVAL;
	kprof_fast_tick.mult = div_u64((u64)USEC_PER_SEC << 32, tsc_khz);
	static_branch_enable(&kprof_fast_tsc);
	schedule_delayed_work(&kprof_fast_tsc_work, HZ);
	return 0;
}

static bool kprof_fast_ktime;	/* fast_clock=ktime */

int kprof_fast_init(void)
{
	if (!kprof_fast_ktime)
		kprof_fast_use_tsc();
	return 0;
}

/* "ktime" stops stamping calls with the TSC, "tsc" starts if it may */
static int kprof_fast_clock_set(const char *val, const struct kernel_param *kp)
{
	/* the parameters' lock is held: exit has not begun, or is done */
	if (kprof_fast_gone)
		return -ENODEV;
	kprof_fast_ktime = sysfs_streq(val, "ktime");
	if (kprof_fast_ktime) {
		static_branch_disable(&kprof_fast_tsc);
		cancel_delayed_work_sync(&kprof_fast_tsc_work);
		return 0;
	}
	if (sysfs_streq(val, "tsc"))
		return static_key_enabled(&kprof_fast_tsc) ? 0 :
		       kprof_fast_use_tsc();
	return -EINVAL;
}

static void kprof_fast_clock_exit(void)
{
	cancel_delayed_work_sync(&kprof_fast_tsc_work);
}

static const char *kprof_fast_clock_name(void)
{
	return static_key_enabled(&kprof_fast_tsc) ? "tsc" : "ktime";
}
#endif

/* which clock new calls are stamped with, for the curious and the tests */
static int kprof_fast_clock_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", kprof_fast_clock_name());
}

static const struct kernel_param_ops kprof_fast_clock_ops = {
	.set = kprof_fast_clock_set,
	.get = kprof_fast_clock_get,
};
module_param_cb(fast_clock, &kprof_fast_clock_ops, NULL, 0644);
MODULE_PARM_DESC(fast_clock,
		 "The clock fast probes time calls with: cntvct (arm64); x86-64: tsc while the kernel keeps time with a stable TSC, else ktime (write ktime to choose it)");

/*
 * After every probe is gone.  A call still inside a probed function
 * returns into this module's text: wait for it, naming it in the log once
 * a second at first, then every ten.  Calls that can never return are not
 * pushed (kprof_fast_paused()), those of exited tasks are dropped when the
 * task is freed, and those in flight for a second hold the module, so
 * rmmod never gets here (kprof_fast_watch).  Left: a call that began in
 * the second before rmmod and then sleeps for good (Known limits).
 */
void kprof_fast_exit(void)
{
	unsigned long fn = 0;
	unsigned int waited = 0;
	pid_t pid = 0;
	void *slots;
	u32 n;

	/* parameter files outlive exit: they find the pool gone */
	kernel_param_lock(THIS_MODULE);
	kprof_fast_gone = true;
	kernel_param_unlock(THIS_MODULE);
	kprof_fast_clock_exit();
	cancel_delayed_work_sync(&kprof_fast_linger);
	cancel_delayed_work_sync(&kprof_fast_watch);
	if (!kprof_fpool.slot)
		return;
	while ((n = kprof_fast_inflight(false, &pid, &fn))) {
		if (waited < 500 ? waited % 50 == 0 : waited % 500 == 0)
			pr_warn("unloading waits for %u call%s still inside probed functions (pid %d in %ps; %u s so far)\n",
				n, n == 1 ? "" : "s", pid, (void *)fn,
				waited / 50);
		waited++;
		msleep(20);
	}
	/*
	 * A task that popped its call may still be returning through the
	 * trampoline, preempted there: as ftrace does for its own
	 * trampolines, wait until every task has passed a voluntary switch.
	 */
	synchronize_rcu_tasks();
	tracepoint_probe_unregister(kprof_fast_free_tp, kprof_fast_task_free,
				    NULL);
	tracepoint_synchronize_unregister();
	mutex_lock(&kprof_fast_lock);
	slots = kprof_fpool.slot;
	WRITE_ONCE(kprof_fpool.slot, NULL);
	mutex_unlock(&kprof_fast_lock);
	vfree(slots);
}
#endif /* KPROF_FAST */
