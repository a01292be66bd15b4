/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The mem kind's ftrace hooks (memhook.c): vmalloc, the DMA API and the
 * page allocator, whose allocations have no tracepoint with a call site.
 * An allocation's entry asks whether its caller is in MOD's text and, if
 * so, follows the call's return (fast.h) for the address it gives; a
 * free's entry takes its address out of the live table, whoever calls it.
 */
#ifndef KPROF_MEMHOOK_H
#define KPROF_MEMHOOK_H

#include <linux/ftrace.h>

#include "fast.h"
#include "funcs.h"

/* functions a probe may hook (memhook.c's table) */
#define KPROF_MEMHOOK_MAX	24

struct kprof_memhook {
	struct ftrace_ops ops;
	struct kprof_fhook fh;
	struct kprof_fnhash hash;	/* a hooked address to map[] */
	u32 nr;				/* functions in the filter, 0: none */
	bool reg;			/* ops registered, fh initialised */
	u8 map[KPROF_MEMHOOK_MAX];	/* the hash's index to the table's */
};

struct kprof_memp;

/*
 * Context: process, under the core's lock.  attach fills the filter with
 * the functions this kernel has (none where it lacks fast returns, or
 * ftrace cannot hook them: nr 0, not an error); arm registers it, disarm
 * unregisters it and waits until no hook runs or will run with @m.
 */
int kprof_memhook_attach(struct kprof_memp *m);
int kprof_memhook_arm(struct kprof_memp *m);
void kprof_memhook_disarm(struct kprof_memp *m);
void kprof_memhook_detach(struct kprof_memp *m);

#endif /* KPROF_MEMHOOK_H */
