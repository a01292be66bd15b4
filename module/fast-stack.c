// SPDX-License-Identifier: GPL-2.0
/*
 * Fast returns as a stack trace sees them (kprof_stack_save(), fast.h):
 * the tasks' return stacks and the real return address behind a stub.
 * Apart from fast.c so that what takes a stack (events.c, frames.c) calls
 * nothing of the fast path, which calls events.c.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#ifdef CONFIG_X86_64
#include <asm/unwind.h>
#endif

#include "fast.h"

#if KPROF_FAST

struct kprof_fpool kprof_fpool;

#ifdef CONFIG_X86_64
/*
 * Context: any; @s is current's stack, with calls pending
 * (kprof_stack_save()).  The stack from its caller on, as
 * stack_trace_save() there gives it.
 */
noinline notrace unsigned int kprof_stack_save_fast(struct kprof_fslot *s,
						    unsigned long *st,
						    unsigned int size,
						    unsigned int skip)
{
	struct unwind_state state;
	unsigned long addr;
	unsigned int n = 0;

	/* arch_stack_walk()'s loop: the first frame is the caller's */
	for (unwind_start(&state, current, NULL, NULL);
	     !unwind_done(&state) && n < size; unwind_next_frame(&state)) {
		addr = unwind_get_return_address(&state);
		if (!addr)
			break;
		/* ORC has nothing on a stub: on from the real return */
		state.ip = addr = kprof_fast_real(s, addr);
		if (skip) {
			skip--;
			continue;
		}
		st[n++] = addr;
	}
	return n;
}
NOKPROBE_SYMBOL(kprof_stack_save_fast);
#else
/* Context: any; @s is current's stack, with calls pending.  @st made real. */
noinline notrace void kprof_fast_unstub(struct kprof_fslot *s,
					unsigned long *st, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		st[i] = kprof_fast_real(s, st[i]);
}
NOKPROBE_SYMBOL(kprof_fast_unstub);
#endif

#endif /* KPROF_FAST */
