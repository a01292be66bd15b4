// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints that call their probes under SRCU-fast, preemptible (the
 * notrace SRCU-fast guard came with them; Debian's 7.x kernels): probes
 * that use per-CPU data must disable preemption themselves.
 */
#include <linux/tracepoint.h>
#include <linux/srcu.h>

void kprof_compat_probe(void);
void kprof_compat_probe(void)
{
	guard(srcu_fast_notrace)(&tracepoint_srcu);
}
