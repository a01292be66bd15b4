/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return half of a fast probe (fast.h): a probed function returns
 * into stub k of kprof_fast_stubs, which hands k to kprof_fast_return()
 * and goes on to the address it answers, with the function's return
 * registers intact.  The stubs are reached by a return, never by an
 * indirect branch: no BTI landing pad (or ENDBR) is needed.
 *
 * While kprof_fast_return() runs, the place unwinders read the caller's
 * return address from (arm64: a frame record; x86-64: a return address
 * slot the ORC hints name) holds the real one, which it writes there
 * first, so that stack traces taken inside it unwind to the real caller.
 */
#include <linux/linkage.h>

#include "compat-gen.h"
#include "fast.h"

#if KPROF_FAST && defined(CONFIG_ARM64)
#include <asm/assembler.h>

	.text

/* stub k: x9 (free at a return, AAPCS64) = k */
	.align	3
SYM_CODE_START(kprof_fast_stubs)
	.set	.Lk, 0
	.rept	KPROF_FAST_DEPTH
	mov	x9, #.Lk
	b	kprof_fast_tramp
	.set	.Lk, .Lk + 1
	.endr
SYM_CODE_END(kprof_fast_stubs)

/*
 * Frame (struct kprof_fast_frame): fp, lr (the frame record), then x0-x1:
 * AAPCS64 returns a value in x0-x1 (larger ones through memory at x8,
 * the caller's), and the kernel has no floating-point results.  32 bytes
 * keep sp 16-aligned.
 */
SYM_CODE_START_LOCAL(kprof_fast_tramp)
	stp	x29, x30, [sp, #-32]!
	stp	x0, x1, [sp, #16]
	mov	x29, sp
	mov	x0, sp
	mov	w1, w9
	bl	kprof_fast_return
	mov	x30, x0
	ldp	x0, x1, [sp, #16]
	ldp	x29, xzr, [sp], #32
	ret
SYM_CODE_END(kprof_fast_tramp)
#endif

#if KPROF_FAST && defined(CONFIG_X86_64)
#include <asm/unwind_hints.h>
#include <linux/objtool.h>

/* no unwinding in the stubs: their stack is between two functions */
#ifdef KPROF_HAVE_UNWIND_HINT_UNDEFINED
#define KPROF_UNWIND_NONE	UNWIND_HINT_UNDEFINED
#else
#define KPROF_UNWIND_NONE	UNWIND_HINT_EMPTY
#endif

	.text

/*
 * stub k: esi (free at a return, SysV: results are in rax and rdx) = k,
 * kprof_fast_return()'s second argument; 16 bytes each
 */
	.balign	16
SYM_CODE_START(kprof_fast_stubs)
	.set	.Lk, 0
	.rept	KPROF_FAST_DEPTH
	KPROF_UNWIND_NONE
	ANNOTATE_NOENDBR
	movl	$.Lk, %esi
	jmp	kprof_fast_tramp
	.balign	16, 0xcc
	.set	.Lk, .Lk + 1
	.endr
SYM_CODE_END(kprof_fast_stubs)

/*
 * A slot for the return address first, so that from there on the stack
 * is a called function's: kprof_fast_return() puts the real return
 * address there for unwinders, and answers the next one (another fast
 * probe's stub, or the same), which ret pops.
 * Frame (struct kprof_fast_frame): rdx, rax (the return value), the slot.
 */
SYM_CODE_START_LOCAL(kprof_fast_tramp)
	KPROF_UNWIND_NONE
	ANNOTATE_NOENDBR
	pushq	$0
	UNWIND_HINT_FUNC
	pushq	%rax
	pushq	%rdx
	movq	%rsp, %rdi
	call	kprof_fast_return
	movq	%rax, %r11
	popq	%rdx
	popq	%rax
	movq	%r11, (%rsp)
	RET
SYM_CODE_END(kprof_fast_tramp)
#endif
