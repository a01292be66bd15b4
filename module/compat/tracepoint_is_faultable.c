// SPDX-License-Identifier: GPL-2.0
/* v6.13: faultable (syscall) tracepoints call their probes preemptible. */
#include <linux/tracepoint.h>

bool kprof_compat_probe(struct tracepoint *tp);
bool kprof_compat_probe(struct tracepoint *tp)
{
	return tracepoint_is_faultable(tp);
}
