// SPDX-License-Identifier: GPL-2.0
/*
 * arm64: the kernel stack as a chain of frame records (x29 -> {previous
 * x29, x30}), walked the way the kernel's own unwinder walks it, minus
 * its generic callbacks.  A record is read only once proved inside the
 * task's stack or this CPU's IRQ stack, above the last one read there;
 * the IRQ stack is left for the task's at most once and never re-entered.
 * What the kernel's walk would do differently (another stack: overflow,
 * SDEI, EFI; a trampoline not resolvable here) makes the caller fall back
 * to stack_trace_save(); what it would cut at (a misaligned, zero or
 * descending x29) is cut here too.  Both are counted (unwind_stats).
 * Since 6.13 an exception's pt_regs ends in a metadata record; it is
 * crossed as the kernel crosses it, to the interrupted pc and x29.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/stacktrace.h>
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <linux/hardirq.h>
#include <linux/mutex.h>
#include <linux/smp.h>
#include <linux/cpu.h>
#include <asm/stack_pointer.h>
#include <asm/compiler.h>
#include <asm/pointer_auth.h>

#include "unwind.h"

#ifdef KPROF_HAVE_PTRAUTH_STRIP_KERNEL_INSN_PAC
#define kprof_strip_pac(pc)	ptrauth_strip_kernel_insn_pac(pc)
#else
#define kprof_strip_pac(pc)	ptrauth_strip_insn_pac(pc)
#endif

static bool kprof_unwind_on = true;
module_param_named(unwind, kprof_unwind_on, bool, 0644);
MODULE_PARM_DESC(unwind, "arm64: walk kernel stacks here (0: stack_trace_save() always)");

bool kprof_unwind_check;
module_param_named(unwind_check, kprof_unwind_check, bool, 0644);
MODULE_PARM_DESC(unwind_check, "compare every walk with stack_trace_save()'s (slow)");

struct kprof_unwind_stats {
	unsigned long walks;		/* walks that gave the stack */
	unsigned long fallbacks;	/* left to stack_trace_save() */
	unsigned long cuts;		/* stopped at a bad record, as the kernel */
	unsigned long checks;		/* compared in check mode */
	unsigned long mismatches;	/* compared and different */
	unsigned long explained;	/* different where the kernel's cut is known */
};

static DEFINE_PER_CPU(struct kprof_unwind_stats, kprof_unwind_stats);

/* the first mismatch: where, and both walks' frames (symbolised, 0600) */
#define KPROF_MIS_FRAMES	24
static unsigned long kprof_mis_once;
static unsigned int kprof_mis_at, kprof_mis_n[2];
static unsigned long kprof_mis_st[2][KPROF_MIS_FRAMES];

/* each CPU's IRQ stack, learned in an interrupt there; 0: not known */
static DEFINE_PER_CPU(unsigned long, kprof_irq_stack);

#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
/* __kretprobe_trampoline (not exported), learned; 0: not known */
static unsigned long kprof_kr_tramp;
#endif

#ifdef KPROF_HAVE_FGRAPH_OPS_IDX
#define KPROF_GRAPH_PENDING	1	/* an offset, 0 when empty */
#else
#define KPROF_GRAPH_PENDING	0	/* an index, -1 when empty */
#endif

/*
 * Kept in registers (nothing takes its address): the task's stack has been
 * entered, so the IRQ stack left, once tlow is past tbase.
 */
struct kprof_uw {
	unsigned long tbase, tlow, thigh;	/* the task's stack; tlow: next */
	unsigned long ibase, ilow, ihigh;	/* the IRQ stack's, or 0s */
	unsigned long final;			/* the task's last record */
	struct llist_node *kr;			/* kretprobe_find_ret_addr()'s */
};

/* kprof_uw_init()'s answers (a field more would keep struct kprof_uw in memory) */
#define KPROF_UW_FALL	0	/* fall back */
#define KPROF_UW_WALK	1	/* walk */
#define KPROF_UW_KR	2	/* walk, resolving the kretprobe trampoline */

/*
 * KPROF_UW_FALL: a trampoline may be in the chain that this walk cannot
 * resolve (@own, the kretprobe instance being handled, is not in it when
 * alone); KPROF_UW_KR: one it resolves may be.
 */
static __always_inline int kprof_uw_init(struct kprof_uw *w,
					 struct llist_node *own)
{
	int how = KPROF_UW_WALK;
	struct task_struct *t = current;
	struct llist_node *first __maybe_unused;

#ifdef CONFIG_FUNCTION_GRAPH_TRACER
	/*
	 * return_to_handler is not exported: the kernel's walk resolves it,
	 * in a task with graph returns pending (pushed before the return
	 * address is changed, popped after it is used)
	 */
	if (READ_ONCE(t->ret_stack) &&
	    READ_ONCE(t->curr_ret_stack) >= KPROF_GRAPH_PENDING)
		return KPROF_UW_FALL;
#endif
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
	first = READ_ONCE(t->rethooks.first);
	if (first && !(first == own && !READ_ONCE(first->next)))
		return KPROF_UW_FALL;
#elif defined(CONFIG_KRETPROBES)
	first = READ_ONCE(t->kretprobe_instances.first);
	if (first && !(first == own && !READ_ONCE(first->next))) {
		if (!READ_ONCE(kprof_kr_tramp))
			return KPROF_UW_FALL;
		how = KPROF_UW_KR;
	}
#endif
	w->tbase = w->tlow = (unsigned long)task_stack_page(t);
	w->thigh = w->tbase + THREAD_SIZE;
	w->ibase = w->ilow = w->ihigh = 0;
	/* the kernel's walk knows the IRQ stack only where it cannot move */
	if (!preemptible()) {
		w->ibase = w->ilow = this_cpu_read(kprof_irq_stack);
		if (w->ibase)
			w->ihigh = w->ibase + THREAD_SIZE;
	}
	w->final = (unsigned long)&task_pt_regs(t)->stackframe;
	w->kr = NULL;
	return how;
}

#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
/*
 * kretprobe_find_ret_addr()'s rule (not exported): current's instances in
 * order, past those that are the trampoline's own, to the one of this
 * frame (@fp, the caller's x29 at the call); 0 if none.  Only current
 * changes its list, and only in nested order.
 */
static __always_inline unsigned long kprof_kr_find(struct kprof_uw *w,
						   unsigned long fp)
{
	struct llist_node *node;
	struct kretprobe_instance *ri;
	unsigned int i;

	node = w->kr ? READ_ONCE(w->kr->next) :
		       READ_ONCE(current->kretprobe_instances.first);
	for (i = 0; node && i < 256; i++, node = READ_ONCE(node->next)) {
		ri = container_of(node, struct kretprobe_instance, llist);
		if ((unsigned long)ri->ret_addr == kprof_kr_tramp)
			continue;
		w->kr = node;
		if (ri->fp == (void *)fp)
			return (unsigned long)ri->ret_addr;
	}
	return 0;
}
#endif

#ifdef KPROF_HAVE_FRAME_RECORD_META
/*
 * A metadata record (fp and lr zero) at @fp, found between @lo and @hi:
 * if it ends an exception's pt_regs, wholly in that range, the kernel's
 * walk goes on with the interrupted pc and x29 (*@next).  0: fall back.
 */
static __always_inline unsigned long kprof_uw_regs(unsigned long fp,
						   unsigned long lo,
						   unsigned long hi,
						   unsigned long *next)
{
	struct frame_record_meta *meta = (struct frame_record_meta *)fp;
	unsigned long r = fp - offsetof(struct pt_regs, stackframe);
	struct pt_regs *regs = (struct pt_regs *)r;

	if (fp + sizeof(*meta) > hi ||
	    READ_ONCE_NOCHECK(meta->type) != FRAME_META_TYPE_PT_REGS)
		return 0;
	if (r < lo || r + sizeof(*regs) > hi)
		return 0;
	*next = READ_ONCE_NOCHECK(regs->regs[29]);
	return READ_ONCE_NOCHECK(regs->pc);
}
#endif

/*
 * The record at @fp: its x29 and x30 in one load pair, which KASAN does
 * not check (a record may neighbour a frame's redzone).
 */
static __always_inline void kprof_uw_rec(unsigned long fp, unsigned long *next,
					 unsigned long *lr)
{
	unsigned long a, b;

	asm volatile("ldp %0, %1, [%2]" : "=r" (a), "=r" (b) : "r" (fp));
	*next = a;
	*lr = b;
}

/*
 * One step from the record at *@fp, in the kernel's order: 1 and the
 * frame in *@pc, 0 at the end of the chain (cut or final), -1: fall back.
 * @tramp: the kretprobe trampoline to resolve, 0 if none is pending.
 */
static __always_inline int kprof_uw_step(struct kprof_uw *w, unsigned long *fp,
					 unsigned long *pc, unsigned long tramp)
{
	unsigned long at = *fp, next, lr, lo __maybe_unused, hi __maybe_unused;
	bool task;

	if (at == w->final) {
		return 0;
	} else if (at & 7) {
		goto cut;
	} else if (at >= w->tlow && at <= w->thigh - 16) {
		task = true;
	} else if (w->ibase && w->tlow == w->tbase && at >= w->ilow &&
		   at <= w->ihigh - 16) {
		task = false;
	} else if ((at >= w->tbase && at < w->thigh) ||
		   (w->ibase && at >= w->ibase && at < w->ihigh) || !at) {
		/* below a record read, or a stack left: the kernel stops */
		goto cut;
	} else {
		/* a stack this walk does not know */
		goto fall;
	}
	if (task) {
		lo = w->tlow;
		hi = w->thigh;
		w->tlow = at + 16;
	} else {
		lo = w->ilow;
		hi = w->ihigh;
		w->ilow = at + 16;
	}
	kprof_uw_rec(at, &next, &lr);
#ifdef KPROF_HAVE_FRAME_RECORD_META
	if (unlikely(!(next | lr))) {
		lr = kprof_uw_regs(at, lo, hi, &next);
		if (!lr)
			goto fall;
		hi = at - offsetof(struct pt_regs, stackframe) +
		     sizeof(struct pt_regs);
		if (task)
			w->tlow = hi;
		else
			w->ilow = hi;
	}
#endif
	lr = kprof_strip_pac(lr);
#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
	if (unlikely(tramp && lr == tramp)) {
		lr = kprof_kr_find(w, next);
		if (!lr)
			goto fall;
	}
#endif
	*fp = next;
	*pc = lr;
	return 1;
cut:
	this_cpu_inc(kprof_unwind_stats.cuts);
	return 0;
fall:
	this_cpu_inc(kprof_unwind_stats.fallbacks);
	return -1;
}

/*
 * From the record at @fp: up to @size frames into @st after the @n there,
 * the first @skip of them dropped.  The count, or -1: fall back.  The
 * usual step (a record on the task's stack above the last, below its
 * final record, returning to a kernel address that is no trampoline) is
 * inline, 14 instructions on arm64 6.1; any other is kprof_uw_step()'s.
 * @kr: a kretprobe trampoline may be in the chain (the loop without the
 * test is the usual one).
 */
static __always_inline int kprof_uw_walk(struct kprof_uw *w, unsigned long fp,
					 unsigned long *st, unsigned int n,
					 unsigned int size, unsigned int skip,
					 bool kr)
{
	unsigned long next, lr, pc, tlim = w->final - 16, tramp = 0;
	unsigned long *at = st + n, *end = st + size;
	int r;

#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
	if (kr)
		tramp = READ_ONCE(kprof_kr_tramp);
#endif
	for (; skip; skip--) {
		r = kprof_uw_step(w, &fp, &pc, tramp);
		if (r <= 0)
			return r < 0 ? r : n;
	}
	if (at >= end)
		return n;
	for (;;) {
		if (unlikely(fp < w->tlow || fp > tlim || (fp & 7)))
			goto step;
		kprof_uw_rec(fp, &next, &lr);
		/* bit 55: a kernel address (PAC stripped by setting bits) */
		if (unlikely(!(lr & BIT_ULL(55)) ||
			     (kr && kprof_strip_pac(lr) == tramp)))
			goto step;
		w->tlow = fp + 16;
		fp = next;
		*at = kprof_strip_pac(lr);
		goto stored;
step:
		r = kprof_uw_step(w, &fp, &pc, tramp);
		if (r < 0)
			return r;
		if (!r)
			break;
		*at = pc;
stored:
		if (++at == end)
			break;
	}
	return at - st;
}

/* the walk without the trampoline's test where none can be met */
static __always_inline int kprof_uw_run(struct kprof_uw *w, int how,
					unsigned long fp, unsigned long *st,
					unsigned int n, unsigned int size,
					unsigned int skip)
{
#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
	if (how == KPROF_UW_KR)
		return kprof_uw_walk(w, fp, st, n, size, skip, true);
#endif
	return kprof_uw_walk(w, fp, st, n, size, skip, false);
}

/* check mode's space: one per context level, as frames.c's */
struct kprof_uw_chk {
	unsigned long st[128];
	unsigned long busy;
};

static DEFINE_PER_CPU(struct kprof_uw_chk, kprof_uw_chks[4]);

static notrace void kprof_uw_record(unsigned int at, const unsigned long *mine,
				    unsigned int n, const unsigned long *theirs,
				    unsigned int m)
{
	if (cmpxchg(&kprof_mis_once, 0, 1))
		return;
	kprof_mis_at = at;
	kprof_mis_n[0] = min_t(unsigned int, n, KPROF_MIS_FRAMES);
	kprof_mis_n[1] = min_t(unsigned int, m, KPROF_MIS_FRAMES);
	memcpy(kprof_mis_st[0], mine, kprof_mis_n[0] * sizeof(*mine));
	memcpy(kprof_mis_st[1], theirs, kprof_mis_n[1] * sizeof(*theirs));
	/* the frames before the reader's acquire sees them complete */
	smp_store_release(&kprof_mis_once, 2);
}
NOKPROBE_SYMBOL(kprof_uw_record);

notrace void kprof_unwind_compare(const unsigned long *mine,
				  const unsigned long *theirs, unsigned int n,
				  bool explained)
{
	unsigned int i;

	this_cpu_inc(kprof_unwind_stats.checks);
	for (i = 0; i < n; i++)
		if (mine[i] != theirs[i])
			break;
	if (i == n)
		return;
	if (explained) {
		this_cpu_inc(kprof_unwind_stats.explained);
		return;
	}
	this_cpu_inc(kprof_unwind_stats.mismatches);
	kprof_uw_record(i, mine, n, theirs, n);
}
NOKPROBE_SYMBOL(kprof_unwind_compare);

/*
 * Check mode: stack_trace_save() from here has this function's frame and
 * kprof_unwind_save()'s above what @st holds; the rest must be @st.
 */
static noinline notrace void kprof_uw_check(const unsigned long *st,
					    unsigned int n,
					    unsigned int size,
					    unsigned int skip)
{
	struct kprof_uw_chk *c = this_cpu_ptr(&kprof_uw_chks[kprof_ctx_level()]);
	unsigned int i, m, above = skip + 2;

	if (size + above > ARRAY_SIZE(c->st) || cmpxchg_local(&c->busy, 0, 1))
		return;
	m = stack_trace_save(c->st, size + above, 0);
	m = m < above ? 0 : m - above;
	if (m == n) {
		kprof_unwind_compare(st, c->st + above, n, false);
	} else {
		/* a different count: the first frame one of them lacks */
		this_cpu_inc(kprof_unwind_stats.checks);
		this_cpu_inc(kprof_unwind_stats.mismatches);
		for (i = 0; i < min(m, n); i++)
			if (st[i] != c->st[above + i])
				break;
		kprof_uw_record(i, st, n, c->st + above, m);
	}
	/* the walk's use of the buffer before another task may take it */
	smp_store_release(&c->busy, 0);
}
NOKPROBE_SYMBOL(kprof_uw_check);

noinline notrace int kprof_unwind_save(unsigned long *st, unsigned int size,
				       unsigned int skip)
{
	struct kprof_uw w;
	int n, how;

	if (!READ_ONCE(kprof_unwind_on))
		return -1;
	how = kprof_uw_init(&w, NULL);
	if (!how) {
		this_cpu_inc(kprof_unwind_stats.fallbacks);
		return -1;
	}
	/* this function's own record: its caller's x29 and return address */
	n = kprof_uw_run(&w, how, (unsigned long)__builtin_frame_address(0),
			 st, 0, size, skip);
	if (n < 0)
		return n;
	this_cpu_inc(kprof_unwind_stats.walks);
	if (unlikely(READ_ONCE(kprof_unwind_check)))
		kprof_uw_check(st, n, size, skip);
	return n;
}
NOKPROBE_SYMBOL(kprof_unwind_save);

/*
 * A walk that starts past @at (this frame, or an exception's pt_regs):
 * only records from @low up, on the stack @at is on.  false: @at is on no
 * stack this walk knows.
 */
static __always_inline bool kprof_uw_above(struct kprof_uw *w,
					   unsigned long at, unsigned long low)
{
	if (at >= w->tbase && at < w->thigh)
		w->tlow = low;
	else if (w->ibase && at >= w->ibase && at < w->ihigh)
		w->ilow = low;
	else
		return false;
	return true;
}

noinline notrace int kprof_unwind_from(unsigned long *st, unsigned int size,
				       unsigned long fp, struct llist_node *own)
{
	unsigned long here = (unsigned long)__builtin_frame_address(0);
	struct kprof_uw w;
	int n, how;

	if (!READ_ONCE(kprof_unwind_on) || !fp)
		return -1;
	/* the chain from here reaches @fp: only records above this frame */
	how = kprof_uw_init(&w, own);
	if (!how || !kprof_uw_above(&w, here, here)) {
		this_cpu_inc(kprof_unwind_stats.fallbacks);
		return -1;
	}
	n = kprof_uw_run(&w, how, fp, st, 0, size, 0);
	if (n >= 0)
		this_cpu_inc(kprof_unwind_stats.walks);
	return n;
}
NOKPROBE_SYMBOL(kprof_unwind_from);

noinline notrace int kprof_unwind_regs(unsigned long *st, unsigned int size,
				       struct pt_regs *regs)
{
	unsigned long r = (unsigned long)regs;
	struct kprof_uw w;
	int n, how;

	if (!READ_ONCE(kprof_unwind_on) || !size)
		return -1;
	/*
	 * The kernel's walk reaches the interrupted frames through the
	 * record in @regs: only records above it, on the stack it is on.
	 */
	how = kprof_uw_init(&w, NULL);
	if (!how ||
	    !kprof_uw_above(&w, r, (unsigned long)&regs->stackframe + 16)) {
		this_cpu_inc(kprof_unwind_stats.fallbacks);
		return -1;
	}
	st[0] = instruction_pointer(regs);
	n = kprof_uw_run(&w, how, regs->regs[29], st, 1, size, 0);
	if (n >= 0)
		this_cpu_inc(kprof_unwind_stats.walks);
	return n;
}
NOKPROBE_SYMBOL(kprof_unwind_regs);

/*
 * Context: hard IRQ on the CPU to learn.  sp is on its IRQ stack unless
 * this runs on a task's (a queue flushed from idle): the stack must be
 * off the task's, the chain from here must rise inside the THREAD_SIZE
 * block around sp and then enter the task's stack (call_on_irq_stack()'s
 * record); a VMAP stack is THREAD_SIZE long and aligned to twice that.
 */
static notrace void kprof_irqstk_learn(struct irq_work *iw)
{
	unsigned long sp = current_stack_pointer;
	unsigned long task = (unsigned long)task_stack_page(current);
	unsigned long base = sp & ~(THREAD_SIZE - 1);
	unsigned long fp = (unsigned long)__builtin_frame_address(0), prev;
	unsigned int i;

	if (!IS_ENABLED(CONFIG_VMAP_STACK) || !in_hardirq() ||
	    sp - task < THREAD_SIZE)
		return;
	for (i = 0; i < 64; i++) {
		if ((fp & 7) || fp < sp || fp > base + THREAD_SIZE - 16)
			break;
		prev = fp;
		fp = READ_ONCE_NOCHECK(*(unsigned long *)fp);
		if (fp <= prev)
			return;
	}
	if (fp - task < THREAD_SIZE && !(fp & 7))
		this_cpu_write(kprof_irq_stack, base);
}

static DEFINE_PER_CPU(struct irq_work, kprof_irqstk_work);

/* Context: IPI (or locally, interrupts off).  Self-IPI the learning. */
static void kprof_irqstk_queue(void *unused)
{
	irq_work_queue(this_cpu_ptr(&kprof_irqstk_work));
}

#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
static bool kprof_kr_hit;

static int kprof_kr_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kprof_kr_hit = true;
	return 0;
}

/* under a kretprobe, its return address is the trampoline */
static noinline unsigned long kprof_kr_target(void)
{
	unsigned long ret = (unsigned long)__builtin_return_address(0);

	barrier();
	return kprof_strip_pac(ret);
}

static void kprof_kr_learn(void)
{
	struct kretprobe rp = {
		.kp.addr = (kprobe_opcode_t *)kprof_kr_target,
		.handler = kprof_kr_ret,
		.maxactive = 1,
	};
	unsigned long t;

	if (register_kretprobe(&rp))
		return;
	kprof_kr_hit = false;
	t = kprof_kr_target();
	unregister_kretprobe(&rp);
	if (READ_ONCE(kprof_kr_hit) && t)
		WRITE_ONCE(kprof_kr_tramp, t);
}
#else
static void kprof_kr_learn(void)
{
}
#endif

void kprof_unwind_prepare(void)
{
	static DEFINE_MUTEX(lock);
	static bool kr_done;
	unsigned int cpu, tries;

	mutex_lock(&lock);
	if (!kr_done) {
		kr_done = true;
		kprof_kr_learn();
	}
	/* each time: a CPU brought online since is learned now */
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		struct irq_work *iw = per_cpu_ptr(&kprof_irqstk_work, cpu);

		if (per_cpu(kprof_irq_stack, cpu))
			continue;
		/* idle: the last attempt here was waited for */
		*iw = IRQ_WORK_INIT_HARD(kprof_irqstk_learn);
		for (tries = 0; tries < 3 && !per_cpu(kprof_irq_stack, cpu);
		     tries++) {
			smp_call_function_single(cpu, kprof_irqstk_queue, NULL,
						 1);
			irq_work_sync(iw);
		}
	}
	cpus_read_unlock();
	mutex_unlock(&lock);
}

/* -1: none can be learned (no VMAP_STACK: an IRQ stack is not aligned) */
static int kprof_irq_stacks_known(void)
{
	unsigned int cpu;
	int n = 0;

	if (!IS_ENABLED(CONFIG_VMAP_STACK))
		return -1;
	for_each_possible_cpu(cpu)
		n += !!per_cpu(kprof_irq_stack, cpu);
	return n;
}

static int kprof_kr_known(void)
{
#if defined(CONFIG_KRETPROBES) && !defined(CONFIG_KRETPROBE_ON_RETHOOK)
	return !!READ_ONCE(kprof_kr_tramp);
#else
	return -1;
#endif
}

static int kprof_unwind_stats_get(char *buf, const struct kernel_param *kp)
{
	struct kprof_unwind_stats s = {}, *c;
	unsigned int cpu, w, i;
	int len;

	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&kprof_unwind_stats, cpu);
		s.walks += READ_ONCE(c->walks);
		s.fallbacks += READ_ONCE(c->fallbacks);
		s.cuts += READ_ONCE(c->cuts);
		s.checks += READ_ONCE(c->checks);
		s.mismatches += READ_ONCE(c->mismatches);
		s.explained += READ_ONCE(c->explained);
	}
	len = sysfs_emit(buf,
			 "walks %lu fallbacks %lu cuts %lu checks %lu mismatches %lu explained %lu irq_stacks %d trampoline %d\n",
			 s.walks, s.fallbacks, s.cuts, s.checks, s.mismatches,
			 s.explained, kprof_irq_stacks_known(),
			 kprof_kr_known());
	/* pairs with kprof_uw_record()'s release */
	if (smp_load_acquire(&kprof_mis_once) != 2)
		return len;
	len += sysfs_emit_at(buf, len, "first mismatch at %u\n", kprof_mis_at);
	for (w = 0; w < 2; w++) {
		len += sysfs_emit_at(buf, len, "%s", w ? "kernel:" : "here:");
		for (i = 0; i < kprof_mis_n[w]; i++)
			len += sysfs_emit_at(buf, len, " %pS",
					     (void *)kprof_mis_st[w][i]);
		len += sysfs_emit_at(buf, len, "\n");
	}
	return len;
}

/* any write: the counts and the first mismatch back to zero */
static int kprof_unwind_stats_set(const char *val,
				  const struct kernel_param *kp)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&kprof_unwind_stats, cpu), 0,
		       sizeof(struct kprof_unwind_stats));
	WRITE_ONCE(kprof_mis_once, 0);
	return 0;
}

static const struct kernel_param_ops kprof_unwind_stats_ops = {
	.get = kprof_unwind_stats_get,
	.set = kprof_unwind_stats_set,
};
/* 0600: the first mismatch names kernel code */
module_param_cb(unwind_stats, &kprof_unwind_stats_ops, NULL, 0600);
MODULE_PARM_DESC(unwind_stats, "the stack walk's counts; write to zero them");
