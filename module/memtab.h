/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The live objects of a mem probe: a preallocated table keyed by address,
 * lock-free.  An allocation claims a slot with a cmpxchg of its address;
 * its free takes it back the same way, leaving a tombstone.  A lookup
 * reads one or two 64-byte buckets of addresses and stops at a slot never
 * used, so a free the table does not know (most of the kernel's) costs a
 * cache line or two.
 */
#ifndef KPROF_MEMTAB_H
#define KPROF_MEMTAB_H

#include <linux/types.h>

struct kprof_mem_obj {
	u64 t;			/* ktime_get_mono_fast_ns() at allocation */
	u32 req;		/* bytes asked for */
	u32 slab;		/* bytes the allocator gave (slack, debug) */
	u32 site;		/* the site's frames id, 0: none */
	u32 row;		/* KPROF_MEM_KMALLOC or _CACHE */
};

struct kprof_memtab {
	unsigned long *addr;	/* 0: never used, 1: freed, else the object */
	struct kprof_mem_obj *obj;
	u32 nr;			/* a power of two, at least a bucket */
	u32 bits;
};

/* Context: process. */
int kprof_memtab_alloc(struct kprof_memtab *t, u32 nr);
void kprof_memtab_free(struct kprof_memtab *t);

/*
 * Context: any (the allocator's).  Records @addr: 0, 1 if it was in the
 * table already (its free went unseen: the old entry, in *@old, is
 * replaced), or -ENOSPC when its buckets are full.
 */
int kprof_memtab_add(struct kprof_memtab *t, unsigned long addr,
		     const struct kprof_mem_obj *o, struct kprof_mem_obj *old);
/* Context: any.  Takes @addr out into *o: true if it was there. */
bool kprof_memtab_take(struct kprof_memtab *t, unsigned long addr,
		       struct kprof_mem_obj *o);
/*
 * Context: process; no handler uses @t.  Calls @fn on each live object
 * and empties the table.
 */
void kprof_memtab_drain(struct kprof_memtab *t,
			void (*fn)(void *arg, const struct kprof_mem_obj *o),
			void *arg);

#endif /* KPROF_MEMTAB_H */
