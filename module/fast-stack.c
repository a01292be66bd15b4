// SPDX-License-Identifier: GPL-2.0
/*
 * Fast returns as a stack trace sees them (kprof_stack_save(), fast.h):
 * the tasks' return stacks and the real return address behind a stub,
 * and (arm64) the caller behind another return hook's trampoline.
 * Apart from fast.c so that what takes a stack (events.c, frames.c) calls
 * nothing of the fast path, which calls events.c.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/module.h>
#include <linux/uaccess.h>
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif
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

#ifdef CONFIG_ARM64
/*
 * Another return hook that ran before kprofctl's (a kretprobe's breakpoint
 * on the first instruction; on 6.12 a graph tracer or fprobe registered
 * later) leaves its trampoline where the entry saved the caller's return
 * address.  A real return address follows a call instruction (BL, BLR, an
 * authenticated BLR); a trampoline does not.  Then the caller is the first
 * frame past this module's own that the kernel's unwinder gives: it
 * resolves those trampolines.  Out of line: its array would be zeroed at
 * every call on kernels that zero the stack's variables
 * (INIT_STACK_ALL_ZERO), 41 instructions on arm64.
 */
static noinline notrace unsigned long kprof_fast_caller_unwind(unsigned long ret)
{
	unsigned long st[12];
	unsigned int n, i;

	n = stack_trace_save(st, ARRAY_SIZE(st), 0);
	for (i = 0; i < n; i++)
		if (!within_module(st[i], THIS_MODULE))
			return st[i];
	return ret;
}
NOKPROBE_SYMBOL(kprof_fast_caller_unwind);

noinline notrace unsigned long kprof_fast_caller(unsigned long ret)
{
	__le32 *at = (__le32 *)(ret - AARCH64_INSN_SIZE), raw;
	u32 insn;

	/*
	 * The page the call returns to is mapped (the task runs there next):
	 * read within it directly, across a page boundary without a fault.
	 */
	if (likely(offset_in_page(ret) >= AARCH64_INSN_SIZE))
		raw = READ_ONCE(*at);
	else if (get_kernel_nofault(raw, at))
		goto unwind;
	insn = le32_to_cpu(raw);
	if (likely(aarch64_insn_is_bl(insn) || aarch64_insn_is_blr(insn) ||
		   aarch64_insn_is_blr_auth(insn)))
		return ret;
unwind:
	return kprof_fast_caller_unwind(ret);
}
NOKPROBE_SYMBOL(kprof_fast_caller);
#endif

#endif /* KPROF_FAST */
