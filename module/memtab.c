// SPDX-License-Identifier: GPL-2.0
/* The live objects of a mem probe (memtab.h). */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "memtab.h"

#define KPROF_MEMTAB_FREED	1UL
/* a bucket is a cache line of addresses; an object may use two */
#define KPROF_MEMTAB_BUCKET	(64 / sizeof(unsigned long))
#define KPROF_MEMTAB_WINDOW	(2 * KPROF_MEMTAB_BUCKET)
/* claims lost to another CPU before an allocation is given up */
#define KPROF_MEMTAB_TRIES	4

int kprof_memtab_alloc(struct kprof_memtab *t, u32 nr)
{
	nr = max_t(u32, nr, KPROF_MEMTAB_WINDOW);
	t->addr = kvcalloc(nr, sizeof(*t->addr), GFP_KERNEL);
	t->obj = kvcalloc(nr, sizeof(*t->obj), GFP_KERNEL);
	if (!t->addr || !t->obj) {
		kprof_memtab_free(t);
		return -ENOMEM;
	}
	t->nr = nr;
	t->bits = ilog2(nr);
	return 0;
}

void kprof_memtab_free(struct kprof_memtab *t)
{
	kvfree(t->addr);
	kvfree(t->obj);
	memset(t, 0, sizeof(*t));
}

/* the first slot of @addr's window: a bucket's first */
static __always_inline u32 kprof_memtab_home(struct kprof_memtab *t,
					     unsigned long addr)
{
	return (u32)hash_64(addr, t->bits) & ~(u32)(KPROF_MEMTAB_BUCKET - 1);
}

notrace int kprof_memtab_add(struct kprof_memtab *t, unsigned long addr,
			     const struct kprof_mem_obj *o,
			     struct kprof_mem_obj *old)
{
	u32 home = kprof_memtab_home(t, addr), i, s, tries, to = U32_MAX;
	unsigned long a;
	int ret = 0;

	for (tries = 0; tries < KPROF_MEMTAB_TRIES; tries++) {
		to = U32_MAX;
		for (i = 0; i < KPROF_MEMTAB_WINDOW; i++) {
			s = (home + i) & (t->nr - 1);
			a = READ_ONCE(t->addr[s]);
			if (a == addr) {
				/* live twice: its free was never reported */
				*old = t->obj[s];
				t->obj[s] = *o;
				return 1;
			}
			if (a <= KPROF_MEMTAB_FREED && to == U32_MAX)
				to = s;
			if (!a)
				break;	/* nothing of the window beyond */
		}
		if (to == U32_MAX)
			return -ENOSPC;
		a = READ_ONCE(t->addr[to]);
		if (a > KPROF_MEMTAB_FREED)
			continue;
		if (cmpxchg(&t->addr[to], a, addr) == a) {
			/*
			 * Nobody reads the object before its free, which
			 * comes after the allocation returns to its caller.
			 */
			t->obj[to] = *o;
			return ret;
		}
	}
	return -ENOSPC;
}
NOKPROBE_SYMBOL(kprof_memtab_add);

notrace bool kprof_memtab_take(struct kprof_memtab *t, unsigned long addr,
			       struct kprof_mem_obj *o)
{
	u32 home = kprof_memtab_home(t, addr), i, s;
	unsigned long a;

	for (i = 0; i < KPROF_MEMTAB_WINDOW; i++) {
		s = (home + i) & (t->nr - 1);
		a = READ_ONCE(t->addr[s]);
		if (!a)
			return false;
		if (a != addr)
			continue;
		/* the object before the slot can be claimed again */
		*o = t->obj[s];
		return cmpxchg(&t->addr[s], addr, KPROF_MEMTAB_FREED) == addr;
	}
	return false;
}
NOKPROBE_SYMBOL(kprof_memtab_take);

void kprof_memtab_drain(struct kprof_memtab *t,
			void (*fn)(void *arg, const struct kprof_mem_obj *o),
			void *arg)
{
	u32 s;

	for (s = 0; s < t->nr; s++) {
		if (t->addr[s] > KPROF_MEMTAB_FREED && fn)
			fn(arg, &t->obj[s]);
		if (!(s % 4096))
			cond_resched();
	}
	memset(t->addr, 0, (size_t)t->nr * sizeof(*t->addr));
}
