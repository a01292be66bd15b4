/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The read-only statistics mapping: a fixed part (header, probe table)
 * allocated at load, and regions of equal, page-aligned slots whose memory
 * exists only while a probe uses the slot.  Readers see a shared zero page
 * where a slot has no memory.
 */
#ifndef KPROF_AREA_H
#define KPROF_AREA_H

#include <linux/types.h>

struct file;
struct vm_area_struct;

struct kprof_region {
	u64 off;		/* in the mapping, page-aligned */
	size_t stride;		/* a slot's bytes, page-aligned */
	u32 nr;
	void **mem;		/* [nr]: vmalloc'd slot, NULL: none */
	size_t *size;		/* [nr]: its bytes, page-aligned */
};

/*
 * Context: module init.  @fixed bytes at offset 0 are allocated now; the
 * mapping is @size bytes.  Returns the fixed part or an ERR_PTR.
 */
void *kprof_area_init(size_t fixed, size_t size);
void kprof_area_exit(void);
size_t kprof_area_size(void);
/* bytes backed by memory now, the fixed part included */
size_t kprof_area_used(void);

/* Context: module init, after kprof_area_init(); @r lives until exit. */
int kprof_area_region(struct kprof_region *r, u64 off, size_t stride, u32 nr);

/*
 * Context: process.  Gives slot @i zeroed memory, visible to every
 * mapping from here on; NULL when out of memory.  No handler may use the
 * slot until this returns.
 */
void *kprof_area_get(struct kprof_region *r, u32 i);
/* The same with only the first @size bytes backed: the rest reads zero */
void *kprof_area_get_size(struct kprof_region *r, u32 i, size_t size);
/* Context: process.  No handler uses slot @i any more; mappings see zero. */
void kprof_area_put(struct kprof_region *r, u32 i);

/* the file operations' part */
void kprof_area_open(struct file *file);
int kprof_area_mmap(struct file *file, struct vm_area_struct *vma);

#endif /* KPROF_AREA_H */
