/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A mem probe's rows (uapi: KPROF_TYPE_MEM) gathered per allocation site:
 * what was allocated, freed and leaked there, and what is live.  The
 * model; show-mem.c prints it.
 */
#ifndef KPROFCTL_MEM_H
#define KPROFCTL_MEM_H

#include <stddef.h>
#include <stdint.h>

#include "agg.h"
#include "show-opts.h"

struct kp_mem_site {
	uint64_t id;			/* the caller id, 0: beyond the table */
	char name[128];			/* "func+0x1c", "" if not known */
	/*
	 * 1 << each KPROF_MEM_* its allocations had (0: none seen): one but
	 * for a shared helper's site (an out-of-line dma_map_single()
	 * mapping both ways)
	 */
	unsigned int kinds;
	/* bytes: asked for; slab: what the allocator gave for them */
	uint64_t allocs, bytes, slab;
	uint64_t frees, freed, freed_slab;	/* objects and their bytes */
	uint64_t leaks, leaked, leaked_slab;
	uint64_t live, live_bytes, live_slab;	/* allocs - frees - leaks */
	uint64_t peak_bytes;		/* live_bytes at their highest */
	uint64_t size_min, size_max;	/* bytes, 0 without allocations */
	uint64_t life_p50;		/* ns, of the frees; 0 without */
	/* histograms: the sizes asked for, the lifetimes of the freed (ns) */
	__u64 sizes[KPROF_HIST_NR_BUCKETS], lives[KPROF_HIST_NR_BUCKETS];
};

struct kp_mem {
	struct kp_mem_site *site;	/* most live bytes, then leaked first */
	unsigned int nr;
	struct kp_mem_site total;	/* id 0, no name */
	uint64_t dropped;		/* allocations the table had no room for */
	uint64_t forgotten;		/* live objects no longer followed */
	uint64_t other;			/* rows beyond the key table */
};

/* 0, or -1 out of memory.  kp_mem_free() either way. */
int kp_mem_build(const struct kp_map *m, const struct kprof_probe_info *r,
		 const struct kp_show_opts *o, struct kp_mem *out);
void kp_mem_free(struct kp_mem *mem);
/* "kmalloc", or "dma_to_dev,dma_from_dev" for a site of two kinds */
const char *kp_mem_kind_name(const struct kp_mem_site *s, char *buf,
			     size_t len);

#endif
