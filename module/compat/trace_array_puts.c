// SPDX-License-Identifier: GPL-2.0
/*
 * v6.3, backported to 6.1.y: a string into any instance's ring buffer,
 * the top one included (--mark).
 */
#include <linux/trace.h>

int kprof_compat_probe(struct trace_array *tr);
int kprof_compat_probe(struct trace_array *tr)
{
	return __trace_array_puts(tr, 0, "x", 1);
}
