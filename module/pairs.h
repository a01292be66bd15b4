/* SPDX-License-Identifier: GPL-2.0 */
/* The pair kind's own sizing (pairs.c). */
#ifndef KPROF_PAIRS_H
#define KPROF_PAIRS_H

#ifdef CONFIG_TRACEPOINTS
int kprof_pairs_init(void);
#else
static inline int kprof_pairs_init(void)
{
	return 0;
}
#endif

#endif /* KPROF_PAIRS_H */
