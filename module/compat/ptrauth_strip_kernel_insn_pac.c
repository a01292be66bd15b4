// SPDX-License-Identifier: GPL-2.0
/* v6.4: ptrauth_strip_insn_pac() split into kernel and user variants. */
#include <linux/compiler.h>
#include <asm/compiler.h>

unsigned long kprof_compat_probe(unsigned long pc);
unsigned long kprof_compat_probe(unsigned long pc)
{
	return ptrauth_strip_kernel_insn_pac(pc);
}
