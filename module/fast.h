/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fast returns: a function's entry through its ftrace call site (no
 * trap), its return through a trampoline in this module's text.  At entry
 * a probe's ftrace callback pushes a call on the task's return stack and
 * points the saved return address at stub k, k the call's depth; the
 * function returns into stub k, which hands k to kprof_fast_return(): it
 * pops call k (and any above it, calls that never returned), lets the
 * call's hook record it and gives the trampoline the real return address.
 *
 * Return stacks are preallocated, one per task inside a probed function
 * (fast_tasks of them), found by hashing the task.  A stack belongs to its
 * task: only the task, and interrupts on its CPU while it runs, push and
 * pop it, always in nested (LIFO) order.  A slot is claimed at the task's
 * outermost call and let go when that call returns, or when the task is
 * freed (sched_process_free) if it exited inside.
 *
 * Stub k names call k of the task's stack, so that kprof_stack_save()
 * puts the real return address back into any stack trace, and a call
 * whose function never returned is found and dropped.
 */
#ifndef KPROF_FAST_H
#define KPROF_FAST_H


/*
 * The mechanism needs a saved return address the ftrace callback can
 * change (arm64: with regs or args; x86-64: the stack) and the trampoline
 * in module/fast-tramp.S.
 */
#if defined(CONFIG_DYNAMIC_FTRACE) && defined(CONFIG_TRACEPOINTS) && \
	((defined(CONFIG_ARM64) && \
	  (defined(CONFIG_DYNAMIC_FTRACE_WITH_REGS) || \
	   defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS))) || \
	 (defined(CONFIG_X86_64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)))
#define KPROF_FAST		1
#else
#define KPROF_FAST		0
#endif

/* calls one task may have pending at once; the stubs in fast-tramp.S */
#define KPROF_FAST_DEPTH	32
/* arguments a call keeps for its return (arm64 passes eight) */
#define KPROF_FAST_ARGS		8
/* a stub's size in fast-tramp.S */
#ifdef CONFIG_X86_64
#define KPROF_FAST_STUB_SIZE	16
#else
#define KPROF_FAST_STUB_SIZE	8
#endif

#ifndef __ASSEMBLY__
#include <linux/types.h>
#include <linux/atomic.h>

#include "pmu.h"
#include "unwind.h"

struct kprof_fcall;
struct kprof_probe;

/*
 * Who records a call's return: a probe embeds one.  Its exit runs with
 * preemption disabled (the hook stays valid until it returns: see
 * kprof_fast_forget()); @retval is the returned x0, @caller the return
 * address in the caller (c->ret is another stub when a second fast probe
 * hooks the same function).  With @plain (a probe with no keys, filters,
 * PMU or limit) the return records the call in that probe's histogram
 * itself: no indirect call, no second frame.
 */
struct kprof_fhook {
	/* @fp: the caller's frame record (arm64), 0 where there is none */
	void (*exit)(struct kprof_fhook *h, struct kprof_fcall *c,
		     u64 retval, unsigned long caller, unsigned long fp);
	struct kprof_probe *plain;
	u32 limit;			/* calls in flight at most; 0: any */
	bool live;			/* counted in fast.c's watch */
	atomic_t active;		/* with a limit: calls in flight */
	atomic_long_t missed;		/* calls not tracked (rare) */
};

#define KPROF_FCALL_NESTED	0	/* the task had its stack */
#define KPROF_FCALL_HOME	1	/* took it: its home slot */
#define KPROF_FCALL_DISPLACED	2	/* took it: another slot */

/*
 * A pending call: what its entry saved for its return.  A power of two
 * wide, so that finding call k is a shift.
 */
struct kprof_fcall {
	unsigned long ret;		/* the caller's return address */
	struct kprof_fhook *hook;	/* NULL: its probe is gone */
	unsigned long fn;		/* the function */
	u64 t0;				/* entry time, kprof_fast_clock() */
	u32 idx;			/* the hook's: a set's function */
	u8 claimed;			/* KPROF_FCALL_*: stack taken here? */
	u64 args[KPROF_FAST_ARGS];	/* as the probe's keys keep them */
	union {
		struct kprof_pmu_snap snap;
		u8 snap_space[sizeof(struct kprof_pmu_snap) +
			      KPROF_PMU_MAX_EVENTS * sizeof(u64)];
	};
} __aligned(256);

#if KPROF_FAST
#include <linux/ftrace.h>
#include <linux/ptrace.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/math64.h>
#include <linux/timekeeping.h>
#ifdef CONFIG_ARM64
#include <asm/arch_timer.h>
#else
#include <linux/jump_label.h>
#include <asm/tsc.h>
#endif

int kprof_fast_init(void);
void kprof_fast_exit(void);

/*
 * Context: process.  Does an ADD with @add_flags (KPROF_ADD_*) want the
 * fast mechanism: FAST, or neither FAST nor KRETPROBE with the module's
 * parameter fast=Y?
 */
bool kprof_fast_wanted(u32 add_flags);

/*
 * Context: process.  Before a hook's first call: the return stacks exist
 * (allocated with the first hook) and @h's counters.
 */
int kprof_fast_hook_init(struct kprof_fhook *h, u32 limit);
/*
 * Context: process; no entry pushes calls for @h any more (its ftrace_ops
 * is unregistered).  Calls still in flight return without @h; on return
 * no exit of @h runs.  A call still inside keeps this module loaded
 * (rmmod answers "in use") until it returns.
 */
void kprof_fast_forget(struct kprof_fhook *h);
unsigned long kprof_fast_missed(struct kprof_fhook *h);
/* the tasks that may be inside probed functions at once */
u32 kprof_fast_tasks(void);

/* slots a task's stack may take, from its hash on */
#define KPROF_FAST_WINDOW	16

/*
 * A task's return stack.  @owner is claimed with a cmpxchg; @displaced
 * counts the tasks whose hash is this slot but whose stack is in another
 * slot of the window, so that a task with no stack anywhere (the usual
 * outermost call) is told in one load.  It is raised before such a claim
 * and lowered after the release: an interrupt that nests in between scans
 * and finds its task's slot.
 */
struct kprof_fslot {
	struct task_struct *owner;	/* NULL: free */
	atomic_t displaced;
	u32 depth;			/* calls pushed, owner's only */
	pid_t pid;			/* the owner's, for messages */
	struct kprof_fcall call[KPROF_FAST_DEPTH];
};

/* all stacks, allocated with the first hook (mask + 1 of them) */
struct kprof_fpool {
	struct kprof_fslot *slot;
	u32 mask;
	u32 shift;			/* 32 - log2(mask + 1) */
};

extern struct kprof_fpool kprof_fpool;		/* fast-stack.c */
/*
 * The stack the last call entered on this CPU was pushed on: usually the
 * returning task's, which then needs no hash (a hint, checked by owner).
 */
DECLARE_PER_CPU(struct kprof_fslot *, kprof_fast_hot);
extern const u8 kprof_fast_stubs[];		/* fast-tramp.S */

/*
 * Context: any.  The return address @ret stands for in @s: a stub's
 * call's, down to a real one.
 */
static __always_inline unsigned long kprof_fast_real(struct kprof_fslot *s,
						    unsigned long ret)
{
	unsigned long lo = (unsigned long)kprof_fast_stubs;
	unsigned int i;
	u32 k;

	for (i = 0; i < KPROF_FAST_DEPTH; i++) {
		/* below lo wraps around: one compare */
		if (ret - lo >= KPROF_FAST_DEPTH * KPROF_FAST_STUB_SIZE)
			break;
		k = (ret - lo) / KPROF_FAST_STUB_SIZE;
		if (k >= READ_ONCE(s->depth))
			break;
		ret = READ_ONCE(s->call[k].ret);
	}
	return ret;
}

static __always_inline struct kprof_fslot *kprof_fslot_at(u32 i)
{
	return &kprof_fpool.slot[i & kprof_fpool.mask];
}

/*
 * A task's home slot.  Task structs are cache-line aligned: the bits
 * above, through a 32-bit multiplicative hash (hash_32()'s constant).
 */
static __always_inline u32 kprof_fslot_hash(struct task_struct *t)
{
	return ((u32)((unsigned long)t >> L1_CACHE_SHIFT) * GOLDEN_RATIO_32) >>
	       kprof_fpool.shift;
}

/* Context: any.  @t's stack, if it has one; t is current or dead. */
static __always_inline struct kprof_fslot *kprof_fslot_find(struct task_struct *t)
{
	u32 h = kprof_fslot_hash(t), j;
	struct kprof_fslot *s = kprof_fslot_at(h);

	if (likely(READ_ONCE(s->owner) == t))
		return s;
	if (likely(!atomic_read(&s->displaced)))
		return NULL;
	for (j = 1; j < KPROF_FAST_WINDOW; j++) {
		s = kprof_fslot_at(h + j);
		if (READ_ONCE(s->owner) == t)
			return s;
	}
	return NULL;
}

/*
 * Context: any.  A free slot for current, which has none, from its home
 * slot (the hash) on; NULL if the window is full.  *displaced: not home.
 */
static __always_inline struct kprof_fslot *kprof_fslot_claim(u32 h,
							     bool *displaced)
{
	struct kprof_fslot *home = kprof_fslot_at(h), *s;
	struct task_struct *t = current;
	u32 j;

	*displaced = false;
	if (likely(!cmpxchg(&home->owner, NULL, t))) {
		home->pid = t->pid;
		return home;
	}
	*displaced = true;
	atomic_inc(&home->displaced);
	for (j = 1; j < KPROF_FAST_WINDOW; j++) {
		s = kprof_fslot_at(h + j);
		if (!READ_ONCE(s->owner) && !cmpxchg(&s->owner, NULL, t)) {
			s->pid = t->pid;
			return s;
		}
	}
	atomic_dec(&home->displaced);
	return NULL;
}

/* Context: any.  @s (of @t, no call pending) is free again. */
static __always_inline void kprof_fslot_release(struct kprof_fslot *s,
						struct task_struct *t,
						bool displaced)
{
	/* the calls' last reads come before another task may take it */
	smp_store_release(&s->owner, NULL);
	if (displaced)
		atomic_dec(&kprof_fslot_at(kprof_fslot_hash(t))->displaced);
}

/*
 * Context: an ftrace callback.  Calls that will not return through their
 * stub are not pushed: inside cpu_suspend()'s finisher chain (which, as
 * around the graph tracer, pauses it) and on a CPU going down, whose idle
 * task never returns from its last calls (cpu_die()'s chain) and is never
 * freed, so nothing would reclaim them.
 */
static __always_inline bool kprof_fast_paused(struct task_struct *t)
{
	if (unlikely(t->flags & PF_IDLE) &&
	    !cpu_online(raw_smp_processor_id()))
		return true;
#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	return unlikely(atomic_read(&t->tracing_graph_pause));
#else
	return false;
#endif
}

/*
 * Context: an ftrace callback.  Pushes a call of @h returning to *@retp,
 * points *@retp at its stub and gives it in *@cp, for the caller to fill
 * in (t0 last); false when it cannot be tracked (counted missed).  Only
 * current's own stack is touched: preemption and migration do no harm.
 * (A bool, as the kernel's -fno-delete-null-pointer-checks would have a
 * returned &s->call[k] tested for NULL.)
 */
static __always_inline bool kprof_fast_enter(struct kprof_fhook *h,
					     unsigned long *retp,
					     struct kprof_fcall **cp)
{
	struct task_struct *t = current, *o;
	u32 hash = kprof_fslot_hash(t), k, j;
	struct kprof_fslot *s = kprof_fslot_at(hash);
	u8 claimed = KPROF_FCALL_NESTED;
	bool displaced;
	struct kprof_fcall *c;

	if (unlikely(kprof_fast_paused(t)))
		goto miss;
	/*
	 * Usually no task of this hash is displaced: the task's own raise
	 * would show if it were, so its stack is the home slot or none, and
	 * one cmpxchg finds it or takes it.
	 */
	if (likely(!atomic_read(&s->displaced))) {
		o = cmpxchg(&s->owner, NULL, t);
		if (likely(!o)) {
			s->pid = t->pid;
			claimed = KPROF_FCALL_HOME;
			goto push;
		}
		if (o == t)
			goto push;
	}
	/* kprof_fslot_find(), with the hash kept for a claim */
	if (READ_ONCE(s->owner) != t) {
		s = NULL;
		for (j = 1; atomic_read(&kprof_fslot_at(hash)->displaced) &&
			    j < KPROF_FAST_WINDOW; j++)
			if (READ_ONCE(kprof_fslot_at(hash + j)->owner) == t) {
				s = kprof_fslot_at(hash + j);
				break;
			}
	}
	if (!s) {
		s = kprof_fslot_claim(hash, &displaced);
		if (unlikely(!s))
			goto miss;
		claimed = displaced ? KPROF_FCALL_DISPLACED : KPROF_FCALL_HOME;
	}
push:
	k = READ_ONCE(s->depth);
	if (unlikely(k >= KPROF_FAST_DEPTH))
		goto miss;
	if (h->limit && unlikely(atomic_inc_return(&h->active) > h->limit)) {
		atomic_dec(&h->active);
		if (claimed)
			kprof_fslot_release(s, current,
					    claimed == KPROF_FCALL_DISPLACED);
		goto miss;
	}
	/*
	 * Depth first: an interrupt from here on pushes above call k, which
	 * is not returned to before this callback has returned.
	 */
	WRITE_ONCE(s->depth, k + 1);
	barrier();
	/* maybe another CPU's hint, if preempted: harmless */
	raw_cpu_write(kprof_fast_hot, s);
	c = &s->call[k];
	c->ret = *retp;
	c->hook = h;
	c->claimed = claimed;
	*retp = (unsigned long)kprof_fast_stubs + k * KPROF_FAST_STUB_SIZE;
	*cp = c;
	return true;
miss:
	atomic_long_inc(&h->missed);
	return false;
}

/*
 * The clock of fast calls, read inline (a tenth of ktime_get_mono_fast_ns(),
 * which reads the same counter through two calls), system-wide so that a
 * call may end on another CPU.  kprof_fast_clock() stamps an entry;
 * kprof_fast_elapsed() reads it again at the return and gives the ns
 * since (0 if a counter read on another CPU is a little behind).
 */
#ifdef CONFIG_ARM64
/* arm64: the architected counter */
struct kprof_fast_tick {
	u64 mult;			/* ns per tick << 32 */
	bool erratum;			/* a CPU reads it through a workaround */
};
extern struct kprof_fast_tick kprof_fast_tick;

static __always_inline u64 kprof_fast_clock(void)
{
	if (unlikely(READ_ONCE(kprof_fast_tick.erratum)))
		return __arch_counter_get_cntvct_stable();
	return __arch_counter_get_cntvct();
}

/* ticks @t0 to @t1 in ns */
static __always_inline u64 kprof_fast_ns(u64 t0, u64 t1)
{
	return t1 > t0 ? mul_u64_u64_shr(t1 - t0, kprof_fast_tick.mult, 32) : 0;
}

/* the ns since @t0 in *@ns, if the clock reads inline (no call) */
static __always_inline bool kprof_fast_elapsed_quick(u64 t0, u64 *ns)
{
	if (unlikely(READ_ONCE(kprof_fast_tick.erratum)))
		return false;
	/* a return's read: nothing after it needs ordering */
	*ns = kprof_fast_ns(t0, arch_timer_read_cntvct_el0());
	return true;
}

static __always_inline u64 kprof_fast_elapsed(u64 t0)
{
	u64 ns;

	if (likely(kprof_fast_elapsed_quick(t0, &ns)))
		return ns;
	return kprof_fast_ns(t0, __arch_counter_get_cntvct_stable());
}
#else
/*
 * x86-64: the TSC while the kernel trusts it (fast.c watches), its stamps
 * tagged KPROF_FAST_TSC; else the timekeeper's fast clock, in ns.  A call
 * reads one clock twice, whichever stamped its entry.  rdtsc unordered, as
 * sched_clock() reads it: a few cycles' skew, no fence.
 */
#define KPROF_FAST_TSC		BIT_ULL(63)

struct kprof_fast_tick {
	u64 mult;			/* ns per cycle << 32 */
};
extern struct kprof_fast_tick kprof_fast_tick;
/* new calls are stamped with the TSC: a patched branch, not a load */
DECLARE_STATIC_KEY_FALSE(kprof_fast_tsc);

static __always_inline u64 kprof_fast_clock(void)
{
	if (static_branch_likely(&kprof_fast_tsc))
		return rdtsc() | KPROF_FAST_TSC;
	return ktime_get_mono_fast_ns();
}

/*
 * (a * mult) >> 32 in two instructions: mul_u64_u64_shr()'s __int128 may
 * be spilled to a 16-byte aligned slot, which makes GCC realign the stack
 * of the function it is inlined into.
 */
static __always_inline u64 kprof_fast_mul_shr32(u64 a, u64 mult)
{
	asm("mulq %1\n\tshrdq $32, %%rdx, %%rax"
	    : "+a" (a) : "rm" (mult) : "rdx", "cc");
	return a;
}

/* the ns since @t0 in *@ns, if the clock reads inline (no call) */
static __always_inline bool kprof_fast_elapsed_quick(u64 t0, u64 *ns)
{
	u64 t1;

	if (unlikely(!(t0 & KPROF_FAST_TSC)))
		return false;
	t1 = rdtsc() | KPROF_FAST_TSC;
	*ns = t1 > t0 ? kprof_fast_mul_shr32(t1 - t0, kprof_fast_tick.mult) : 0;
	return true;
}

static __always_inline u64 kprof_fast_elapsed(u64 t0)
{
	u64 ns, t1;

	if (likely(kprof_fast_elapsed_quick(t0, &ns)))
		return ns;
	t1 = ktime_get_mono_fast_ns();
	return t1 > t0 ? t1 - t0 : 0;
}
#endif

/*
 * Context: an ftrace callback.  Where the traced function's return
 * address is kept until the callback returns: the saved link register on
 * arm64 (which the ftrace trampoline restores from it, as the graph
 * tracer relies on), the top of the stack on x86-64.
 */
#ifdef arch_ftrace_regs
#define KPROF_AFREGS(fregs)	arch_ftrace_regs(fregs)
#else
#define KPROF_AFREGS(fregs)	(fregs)
#endif

static __always_inline unsigned long *kprof_fast_retp(struct ftrace_regs *fregs)
{
#if defined(CONFIG_X86_64)
	/* ftrace_caller saves the call site's sp, at its return address */
	return (unsigned long *)KPROF_AFREGS(fregs)->regs.sp;
#elif defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)
	return &KPROF_AFREGS(fregs)->lr;
#else
	/*
	 * With regs (6.1): a pt_regs, where both ftrace_caller and
	 * ftrace_regs_caller keep the lr they restore (as the graph tracer
	 * relies on), without FTRACE_OPS_FL_SAVE_REGS too.
	 */
	return (unsigned long *)&fregs->regs.regs[30];
#endif
}

/* Context: an ftrace callback.  Argument n + 1 of the traced function. */
static __always_inline u64 kprof_fast_arg(struct ftrace_regs *fregs,
					  unsigned int n)
{
#if defined(CONFIG_ARM64) && defined(CONFIG_DYNAMIC_FTRACE_WITH_ARGS)
	return ftrace_regs_get_argument(fregs, n);
#else
	/* x86-64's ftrace_caller and arm64's with regs save them all */
	return regs_get_kernel_argument(&KPROF_AFREGS(fregs)->regs, n);
#endif
}

/*
 * What fast-tramp.S saved: the return registers and where unwinders find
 * the return address (kprof_fast_return() writes the real one there).
 */
#ifdef CONFIG_ARM64
struct kprof_fast_frame {
	unsigned long fp;		/* a frame record: fp, lr */
	unsigned long lr;
	unsigned long ret[2];		/* x0-x1 */
};

/* the record kprof_fast_tramp saved holds the caller's x29 */
#define kprof_fast_frame_fp(f)	((f)->fp)
#else
struct kprof_fast_frame {
	unsigned long rdx;
	unsigned long ret[1];		/* rax */
	unsigned long lr;		/* where ret pops it from */
};

#define kprof_fast_frame_fp(f)	0UL
#endif

/*
 * Context: a probed function has returned into stub @k (fast-tramp.S
 * calls it).  Returns where the call returns to.
 */
unsigned long kprof_fast_return(struct kprof_fast_frame *f, u32 k);

/* kprof_stack_save()'s halves (fast-stack.c) for @s, current's stack */
#ifdef CONFIG_X86_64
unsigned int kprof_stack_save_fast(struct kprof_fslot *s, unsigned long *st,
				   unsigned int size, unsigned int skip);
#else
void kprof_fast_unstub(struct kprof_fslot *s, unsigned long *st,
		       unsigned int n);
#endif

#ifdef CONFIG_ARM64
/*
 * Context: any.  @st, a walk of current's stack, with the stubs of its
 * fast calls replaced by the return addresses they stand for: both walks
 * go on past a stub, so no frame more is to be unwound.  @top: the calls
 * on top of the task's stack whose stubs @st cannot hold (1 at a fast
 * return, whose own call is still pushed: the usual task has no other).
 */
static __always_inline void kprof_stack_unstub_top(unsigned long *st,
						   unsigned int n, u32 top)
{
	struct kprof_fslot *s;

	if (likely(!READ_ONCE(kprof_fpool.slot)))
		return;
	s = kprof_fslot_find(current);
	if (unlikely(s && READ_ONCE(s->depth) > top))
		kprof_fast_unstub(s, st, n);
}
#else
/* x86-64's walk is kprof_stack_save_fast()'s, stubs resolved in it */
static __always_inline void kprof_stack_unstub_top(unsigned long *st,
						   unsigned int n, u32 top)
{
}
#endif

static __always_inline void kprof_stack_unstub(unsigned long *st,
					       unsigned int n)
{
	kprof_stack_unstub_top(st, n, 0);
}

/*
 * Context: any.  stack_trace_save() of current, with the stubs of its fast
 * calls (only a task with calls pending has any) replaced by the return
 * addresses they stand for; x86-64's ORC unwinder, which knows only the
 * kernel's own trampolines, goes on from there.  Inline, so that the usual
 * stack costs no extra frame to unwind.
 */
static __always_inline unsigned int kprof_stack_save(unsigned long *st,
						     unsigned int size,
						     unsigned int skip)
{
	struct kprof_fslot *s __maybe_unused;
	int n __maybe_unused;

#ifdef CONFIG_X86_64
	if (likely(!READ_ONCE(kprof_fpool.slot)))
		return stack_trace_save(st, size, skip);
	s = kprof_fslot_find(current);
	if (likely(!s || !READ_ONCE(s->depth)))
		return stack_trace_save(st, size, skip);
	return kprof_stack_save_fast(s, st, size, skip);
#else
	/* unwind.c's walk, or the kernel's where it cannot prove a step */
	n = kprof_unwind_save(st, size, skip);
	if (unlikely(n < 0))
		n = stack_trace_save(st, size, skip);
	kprof_stack_unstub(st, n);
	return n;
#endif
}

#ifdef CONFIG_ARM64
/*
 * Context: a fast probe's return, in its exit (keys, slow events).  The
 * caller's return address for @ret, as the entry saved it, or the real
 * one where another return hook ran first and left its trampoline there
 * (fast.c).  Out of line: the usual returns carry none of it.
 */
unsigned long kprof_fast_caller(unsigned long ret);
#else
/* x86-64 (--fast only): README, Known limits */
static __always_inline unsigned long kprof_fast_caller(unsigned long ret)
{
	return ret;
}
#endif

/*
 * Context: a fast return, preemption disabled.  A slow call's event for
 * current, out of line under ftrace's recursion lock (the event may call
 * the unwinder): false if the lock refused.  @fn: the function.
 */
bool kprof_event_slow_fast(struct kprof_probe *p, unsigned int cpu,
			   u64 latency, bool has_key, u64 key,
			   unsigned long fn, unsigned long from);

/* Can a fast probe hook function @name at @addr?  -errno and why not. */
int kprof_fast_refuses(const char *name, unsigned long addr,
		       const char **why);
#else
static inline bool kprof_fast_wanted(u32 add_flags)
{
	return add_flags & KPROF_ADD_FAST;
}

static inline int kprof_fast_init(void)
{
	return 0;
}

static inline void kprof_fast_exit(void)
{
}

static __always_inline unsigned long kprof_fast_caller(unsigned long ret)
{
	return ret;
}

static __always_inline void kprof_stack_unstub_top(unsigned long *st,
						   unsigned int n, u32 top)
{
}

static __always_inline void kprof_stack_unstub(unsigned long *st,
					       unsigned int n)
{
}

static __always_inline unsigned int kprof_stack_save(unsigned long *st,
						     unsigned int size,
						     unsigned int skip)
{
	int n = kprof_unwind_save(st, size, skip);

	return n < 0 ? stack_trace_save(st, size, skip) : n;
}
#endif

#endif /* __ASSEMBLY__ */
#endif /* KPROF_FAST_H */
