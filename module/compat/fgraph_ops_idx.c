// SPDX-License-Identifier: GPL-2.0
/* v6.9: several graph tracers; a task's return stack is empty at 0, not -1. */
#include <linux/ftrace.h>

int kprof_compat_probe(struct fgraph_ops *ops);
int kprof_compat_probe(struct fgraph_ops *ops)
{
	return ops->idx;
}
