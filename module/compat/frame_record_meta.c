// SPDX-License-Identifier: GPL-2.0
/* v6.13: pt_regs ends in a metadata frame record (fp and lr zero). */
#include <linux/ptrace.h>
#include <asm/stacktrace/frame.h>

int kprof_compat_probe(struct pt_regs *regs);
int kprof_compat_probe(struct pt_regs *regs)
{
	return regs->stackframe.type == FRAME_META_TYPE_FINAL;
}
