/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mem probe (memprobe.c) as its hooks see it: the kmem tracepoints' in
 * memprobe.c, the vmalloc, DMA API and page allocator's in memhook.c.
 */
#ifndef KPROF_MEM_INT_H
#define KPROF_MEM_INT_H

#include <linux/module.h>

#include "probe.h"
#include "memtab.h"
#include "memhook.h"

enum {
	KPROF_MEM_TP_KMALLOC, KPROF_MEM_TP_CACHE_ALLOC, KPROF_MEM_TP_KFREE,
	KPROF_MEM_TP_CACHE_FREE, KPROF_MEM_TP_PAGE_FREE, KPROF_MEM_NR_TPS
};

struct kprof_memp {
	struct kprof_probe p;
	/* read in probe context: MOD's text, then its init text's */
	struct kprof_text text[2];
	/* set at add: sites are stacks (p.stacks) with a frame in MOD */
	bool by_stack;
	struct kprof_memtab tab;
	struct kprof_memhook hk;
	/*
	 * Live bytes by site id (0: none, 1 to nr; [nr + 1] all of MOD's),
	 * and their highest yet: a filter, the PEAK rows hold the peak
	 */
	atomic64_t *live;
	u64 *peak;
	/* process context, under the core's lock */
	struct tracepoint *tps[KPROF_MEM_NR_TPS];
	bool on;			/* the callbacks are registered */
	bool attached;			/* MOD's ranges are set */
	u32 objects;
	char (*names)[KPROF_SYM_LEN];	/* by site id - 1, once named */
	char mod[MODULE_NAME_LEN];
};

/* Context: any.  Is @site (a return address) in MOD's text? */
static __always_inline bool kprof_mem_ours(struct kprof_memp *m,
					   unsigned long site)
{
	return kprof_text_has(m->text, ARRAY_SIZE(m->text), site);
}

/* the table of site ids: call sites, or stacks */
static __always_inline struct kprof_frames *kprof_mem_sites(struct kprof_memp *m)
{
	return m->by_stack ? &m->p.stacks : &m->p.callers;
}

/*
 * Context: any probe context.  The site id of a call from @site (@fn's
 * caller: a return address) for an allocation MOD's by its call site: by
 * caller, @site's; by stack, the stack's from @fn.  0: the table is full.
 */
u32 kprof_mem_site_id(struct kprof_memp *m, unsigned long fn,
		      unsigned long from, unsigned long site);

/*
 * Context: any, preemption disabled.  An allocation of @req bytes (@got
 * from the allocator) at @ptr from site id @id, in row @row
 * (KPROF_MEM_*); the free of @ptr, if the table has it.
 */
void kprof_mem_alloc(struct kprof_memp *m, u32 id, const void *ptr,
		     size_t req, size_t got, u32 row);
void kprof_mem_free(struct kprof_memp *m, const void *ptr);

#endif /* KPROF_MEM_INT_H */
