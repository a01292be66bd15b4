// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics mapping, backed on demand.  Probe, pair and PMU slots
 * cost per-CPU memory (a probe slot is nr_cpus x 5 KiB), so a slot has
 * memory only while a probe uses it: the mapping's span is fixed at load,
 * its pages are inserted at fault time, and taking or dropping a slot
 * zaps what readers mapped there.
 *
 * Every open file shares one address_space, of an inode on a private
 * pseudo filesystem (as DRM does), so one unmap_mapping_range() reaches
 * every process's mapping whichever device node it opened.  area.sem
 * orders a fault's lookup and insert against a slot changing hands.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mount.h>
#include <linux/pseudo_fs.h>
#include <linux/rwsem.h>
#include <linux/vmalloc.h>
#include <linux/overflow.h>
#include <linux/err.h>

#include "area.h"

#define KPROF_AREA_REGIONS	4
#define KPROF_AREA_MAGIC	0x6b70726f	/* "kpro" */

static struct {
	struct rw_semaphore sem;
	void *fixed;
	size_t fixed_size, size, used;
	struct page *zero;
	struct vfsmount *mnt;
	struct inode *inode;
	struct kprof_region *regions[KPROF_AREA_REGIONS];
	u32 nr_regions;
} area;

static int kprof_area_init_fs_context(struct fs_context *fc)
{
	return init_pseudo(fc, KPROF_AREA_MAGIC) ? 0 : -ENOMEM;
}

/*
 * No .owner: the mount lives from init to exit and must not pin the
 * module it belongs to.
 */
static struct file_system_type kprof_area_fs = {
	.name		 = "kprofctl",
	.init_fs_context = kprof_area_init_fs_context,
	.kill_sb	 = kill_anon_super,
};

size_t kprof_area_size(void)
{
	return area.size;
}

size_t kprof_area_used(void)
{
	return READ_ONCE(area.used);
}

void *kprof_area_init(size_t fixed, size_t size)
{
	init_rwsem(&area.sem);
	area.fixed = vmalloc_user(fixed);
	area.zero = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (!area.fixed || !area.zero)
		goto free;
	area.mnt = kern_mount(&kprof_area_fs);
	if (IS_ERR(area.mnt)) {
		area.mnt = NULL;
		goto free;
	}
	area.inode = alloc_anon_inode(area.mnt->mnt_sb);
	if (IS_ERR(area.inode)) {
		area.inode = NULL;
		goto free;
	}
	area.fixed_size = fixed;
	area.size = size;
	area.used = fixed;
	return area.fixed;

free:
	kprof_area_exit();
	return ERR_PTR(-ENOMEM);
}

/* Context: module exit or failed init; no file is open, no slot used. */
void kprof_area_exit(void)
{
	u32 i;

	for (i = 0; i < area.nr_regions; i++) {
		kvfree(area.regions[i]->mem);
		kvfree(area.regions[i]->size);
	}
	if (area.inode)
		iput(area.inode);
	if (area.mnt)
		kern_unmount(area.mnt);
	if (area.zero)
		__free_page(area.zero);
	vfree(area.fixed);
	memset(&area, 0, sizeof(area));
}

int kprof_area_region(struct kprof_region *r, u64 off, size_t stride, u32 nr)
{
	u64 end;

	if (area.nr_regions == KPROF_AREA_REGIONS ||
	    !PAGE_ALIGNED(off) || !PAGE_ALIGNED(stride) ||
	    off < area.fixed_size ||
	    check_add_overflow(off, (u64)stride * nr, &end) || end > area.size)
		return -EINVAL;
	r->mem = kvcalloc(nr, sizeof(*r->mem), GFP_KERNEL);
	r->size = kvcalloc(nr, sizeof(*r->size), GFP_KERNEL);
	if (nr && (!r->mem || !r->size)) {
		kvfree(r->mem);
		kvfree(r->size);
		return -ENOMEM;
	}
	r->off = off;
	r->stride = stride;
	r->nr = nr;
	area.regions[area.nr_regions++] = r;
	return 0;
}

/* Context: under area.sem.  The page readers see at offset @off. */
static struct page *kprof_area_page(u64 off)
{
	u32 i;

	if (off < area.fixed_size)
		return vmalloc_to_page(area.fixed + off);
	for (i = 0; i < area.nr_regions; i++) {
		struct kprof_region *r = area.regions[i];
		u64 rel = off - r->off;
		u32 slot;

		if (off < r->off || rel >= (u64)r->stride * r->nr)
			continue;
		slot = div64_u64(rel, r->stride);
		rel -= (u64)slot * r->stride;
		if (!r->mem[slot] || rel >= r->size[slot])
			break;
		return vmalloc_to_page(r->mem[slot] + rel);
	}
	return area.zero;
}

static void kprof_area_zap(struct kprof_region *r, u32 i)
{
	unmap_mapping_range(area.inode->i_mapping, r->off + (u64)i * r->stride,
			    r->stride, 1);
}

void *kprof_area_get(struct kprof_region *r, u32 i)
{
	return kprof_area_get_size(r, i, r->stride);
}

void *kprof_area_get_size(struct kprof_region *r, u32 i, size_t size)
{
	void *mem;

	size = PAGE_ALIGN(size);
	if (!size || size > r->stride)
		return NULL;
	mem = vmalloc_user(size);
	if (!mem)
		return NULL;
	down_write(&area.sem);
	r->mem[i] = mem;
	r->size[i] = size;
	area.used += size;
	/* zero pages a reader faulted in before */
	kprof_area_zap(r, i);
	up_write(&area.sem);
	return mem;
}

void kprof_area_put(struct kprof_region *r, u32 i)
{
	void *mem;

	down_write(&area.sem);
	mem = r->mem[i];
	r->mem[i] = NULL;
	if (mem)
		area.used -= r->size[i];
	r->size[i] = 0;
	/* no reader's page table points at the memory after this */
	kprof_area_zap(r, i);
	up_write(&area.sem);
	vfree(mem);
}

/* Context: a page fault in a reader's mapping; mmap_lock held for read. */
static vm_fault_t kprof_area_fault(struct vm_fault *vmf)
{
	u64 off = (u64)vmf->pgoff << PAGE_SHIFT;
	int err;

	if (off >= area.size)
		return VM_FAULT_SIGBUS;
	down_read(&area.sem);
	err = vm_insert_page(vmf->vma, vmf->address & PAGE_MASK,
			     kprof_area_page(off));
	up_read(&area.sem);
	if (err == -ENOMEM)
		return VM_FAULT_OOM;
	/* -EBUSY: another thread's fault inserted it first */
	if (err && err != -EBUSY)
		return VM_FAULT_SIGBUS;
	return VM_FAULT_NOPAGE;
}

static const struct vm_operations_struct kprof_area_vm_ops = {
	.fault = kprof_area_fault,
};

void kprof_area_open(struct file *file)
{
	file->f_mapping = area.inode->i_mapping;
}

/*
 * Read-only, never executable; the area lives until module exit, which
 * cannot come while a mapping holds the file.
 */
int kprof_area_mmap(struct file *file, struct vm_area_struct *vma)
{
	unsigned long len = vma->vm_end - vma->vm_start;
	unsigned long off, end;

	if (vma->vm_flags & (VM_WRITE | VM_EXEC))
		return -EACCES;
	if (check_shl_overflow(vma->vm_pgoff, PAGE_SHIFT, &off) ||
	    check_add_overflow(off, len, &end) || end > area.size)
		return -EINVAL;
	vm_flags_clear(vma, VM_MAYWRITE | VM_MAYEXEC);
	/* pages are inserted at fault time (vm_insert_page) */
	vm_flags_set(vma, VM_MIXEDMAP | VM_DONTEXPAND | VM_DONTDUMP);
	vma->vm_ops = &kprof_area_vm_ops;
	return 0;
}
