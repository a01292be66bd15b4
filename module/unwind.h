/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64: kprofctl's own walk of the frame-record chain (unwind.c), used
 * where each step is proved safe; stack_trace_save() otherwise, and on
 * every other architecture.
 */
#ifndef KPROF_UNWIND_H
#define KPROF_UNWIND_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/preempt.h>

struct pt_regs;
struct llist_node;

/*
 * The context level a per-CPU walking buffer is taken for (frames.c's,
 * and check mode's here): a handler interrupts another's walk only from
 * a higher level.
 */
static __always_inline unsigned int kprof_ctx_level(void)
{
	unsigned int pc = preempt_count();

	/* in_nmi() and in_hardirq(), one read of the count */
	if (unlikely(pc & (NMI_MASK | HARDIRQ_MASK)))
		return pc & NMI_MASK ? 3 : 2;
	return in_serving_softirq() ? 1 : 0;
}

#ifdef CONFIG_ARM64
/*
 * Context: any probe context.  What stack_trace_save(@st, @size, @skip)
 * called where this is called would store (its count), or -1 where the
 * walk cannot prove a step and the caller must call stack_trace_save().
 */
int kprof_unwind_save(unsigned long *st, unsigned int size, unsigned int skip);

/*
 * Context: any probe context.  From the frame record at @fp, a record of
 * current's chain above this call, up to @size frames (@own: a kretprobe
 * instance being handled, whose trampoline is below @fp); -1 as above.
 */
int kprof_unwind_from(unsigned long *st, unsigned int size, unsigned long fp,
		      struct llist_node *own);

/*
 * Context: any probe context, NMI included.  The stack @regs (kernel mode)
 * interrupted: its PC, then its frame chain, up to @size frames; -1 as
 * above.
 */
int kprof_unwind_regs(unsigned long *st, unsigned int size,
		      struct pt_regs *regs);

/* check mode (parameter unwind_check): compare with the kernel's walk */
extern bool kprof_unwind_check;

static __always_inline bool kprof_unwind_checking(void)
{
	return READ_ONCE(kprof_unwind_check);
}

/*
 * Context: any probe context.  A check of kprof_unwind_regs()'s @mine
 * against the kernel's walk, @theirs, @n frames each; @explained: the
 * kernel's walk had no frame for the PC (its cut, README).
 */
void kprof_unwind_compare(const unsigned long *mine,
			  const unsigned long *theirs, unsigned int n,
			  bool explained);

/*
 * Context: process, may sleep.  Learns the kretprobe trampoline once and
 * the IRQ stacks of online CPUs not yet known; walks before it fall back
 * where they meet either.
 */
void kprof_unwind_prepare(void);
#else
static __always_inline int kprof_unwind_save(unsigned long *st,
					     unsigned int size,
					     unsigned int skip)
{
	return -1;
}

static __always_inline int kprof_unwind_from(unsigned long *st,
					     unsigned int size,
					     unsigned long fp,
					     struct llist_node *own)
{
	return -1;
}

static __always_inline int kprof_unwind_regs(unsigned long *st,
					     unsigned int size,
					     struct pt_regs *regs)
{
	return -1;
}

static __always_inline bool kprof_unwind_checking(void)
{
	return false;
}

static inline void kprof_unwind_compare(const unsigned long *mine,
					const unsigned long *theirs,
					unsigned int n, bool explained)
{
}

static inline void kprof_unwind_prepare(void)
{
}
#endif

#endif /* KPROF_UNWIND_H */
