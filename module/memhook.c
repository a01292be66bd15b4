// SPDX-License-Identifier: GPL-2.0
/*
 * The mem kind's ftrace hooks (memhook.h).  One ftrace_ops per probe over
 * the DMA API's exported functions and vmalloc's core: the entry of an
 * allocation whose caller is MOD's pushes a fast return (fast.h) whose
 * exit records the address it gives; a free's entry hands its address to
 * the live table (dma_map_resource() is a mapping like dma_map_page()'s).
 * Calls made inside the allocators (dma_map_page_attrs() into
 * dma_map_phys()) have a caller outside MOD: only the outermost counts,
 * by stack too (whose frames would show the calls inside).
 *
 * vmalloc(), vzalloc() and kin pass their own return address down to
 * __vmalloc_node_range() as the area's caller (/proc/vmallocinfo's), so a
 * return hook on them would make that a trampoline's: the hook is on
 * __vmalloc_node_range(), whose caller argument (its ninth, on the stack)
 * says whose area it is, as vmallocinfo does.  It is not exported: found
 * by name, once.
 *
 * A scatterlist's mapping (dma_map_sg_attrs(), dma_map_sgtable()) is keyed
 * by its first entry, which its unmap names, with the low bit set (the
 * list may be a followed kmalloc object's first bytes); its size is the
 * entries' sum.
 *
 * Pages are followed from the page allocator's exported entries a driver
 * calls (alloc_pages(), alloc_pages_node()'s core, __get_free_pages(),
 * get_zeroed_page()), keyed by struct page; their free is kmem's
 * mm_page_free tracepoint (memprobe.c), wherever the last reference goes.
 */
#include <linux/kernel.h>
#include <linux/dma-mapping.h>
#include <linux/kprobes.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "mem-int.h"

#if KPROF_FAST

#ifdef KPROF_HAVE_VMALLOC_NOPROF
#define KPROF_VMALLOC_NODE	"__vmalloc_node_range_noprof"
#else
#define KPROF_VMALLOC_NODE	"__vmalloc_node_range"
#endif

/* What a hooked function is to a mem probe */
struct kprof_memfn {
	void *fn;	/* NULL: kprof_memhook_vnode */
	u8 row;		/* an allocation's KPROF_MEM_*; 0: a free */
	s8 arg;		/* a free's address; an allocation's size (pages: */
			/* the order, -1: order 0) */
	s8 dir;		/* a mapping's direction, -1: none */
	s8 caller;	/* the argument naming the caller, -1: the return */
	bool addr;	/* pages: it returns their address */
	u8 sg;		/* a scatterlist's mapping: KPROF_SG_* */
};

/* dma_map_sg_attrs(dev, sg, nents, ...), dma_map_sgtable(dev, sgt, ...) */
enum { KPROF_SG_NONE, KPROF_SG_LIST, KPROF_SG_TABLE };

#define KPROF_FREE(f, addr)	{ f, 0, addr, -1, -1 }
#define KPROF_PAGES(f, order, addr) { f, KPROF_MEM_PAGES, order, -1, -1, addr }
/* @arg the list (or table), @dir the direction */
#define KPROF_SG(f, arg, dir, how) \
	{ f, KPROF_MEM_DMA_BIDI, arg, dir, -1, false, how }

static const struct kprof_memfn kprof_memfns[] = {
	/* (size, align, start, end, gfp, prot, vm_flags, node, caller) */
	{ NULL, KPROF_MEM_VMALLOC, 0, -1, 8 },
	KPROF_FREE(vfree, 0),
	{ dma_alloc_attrs, KPROF_MEM_DMA_COHERENT, 1, -1, -1 },
	KPROF_FREE(dma_free_attrs, 2),
	{ dma_map_page_attrs, KPROF_MEM_DMA_BIDI, 3, 4, -1 },
	KPROF_FREE(dma_unmap_page_attrs, 1),
	KPROF_SG(dma_map_sg_attrs, 1, 3, KPROF_SG_LIST),
	KPROF_SG(dma_map_sgtable, 1, 2, KPROF_SG_TABLE),
	/* dma_unmap_sgtable() is an inline calling it with the table's list */
	{ dma_unmap_sg_attrs, 0, 1, -1, -1, false, KPROF_SG_LIST },
	/* (dev, phys, size, dir, attrs): a device's MMIO for another's DMA */
	{ dma_map_resource, KPROF_MEM_DMA_BIDI, 2, 3, -1 },
	KPROF_FREE(dma_unmap_resource, 1),
#ifdef KPROF_HAVE_DMA_MAP_PHYS
	{ dma_map_phys, KPROF_MEM_DMA_BIDI, 2, 3, -1 },
	KPROF_FREE(dma_unmap_phys, 1),
#endif
#ifdef KPROF_HAVE_VMALLOC_NOPROF
#ifdef KPROF_HAVE_ALLOC_PAGES_CORE_NOPROF
	KPROF_PAGES(__alloc_pages_noprof, 1, false),
#else
	KPROF_PAGES(alloc_pages_node_noprof, 2, false),
#endif
#ifdef CONFIG_NUMA
	KPROF_PAGES(alloc_pages_noprof, 1, false),
#endif
	KPROF_PAGES(get_free_pages_noprof, 1, true),
	KPROF_PAGES(get_zeroed_page_noprof, -1, true),
#else
	KPROF_PAGES(__alloc_pages, 1, false),
#ifdef CONFIG_NUMA
	KPROF_PAGES(alloc_pages, 1, false),
#endif
	KPROF_PAGES(__get_free_pages, 1, true),
	KPROF_PAGES(get_zeroed_page, -1, true),
#endif
};

/* __vmalloc_node_range(), found once: 0 until then or if this kernel has none */
static unsigned long kprof_memhook_vnode;
static bool kprof_memhook_vnode_tried;

static_assert(ARRAY_SIZE(kprof_memfns) <= KPROF_MEMHOOK_MAX);

/*
 * Context: an ftrace callback at the function's entry.  Its argument @n,
 * past the registers on arm64 too: the ninth and on are on the stack,
 * from the SP the call left (x86-64's helper reads its stack already).
 */
static __always_inline unsigned long kprof_memhook_arg(struct ftrace_regs *fregs,
						       unsigned int n)
{
#ifdef CONFIG_ARM64
	if (n >= 8) {
#ifdef CONFIG_DYNAMIC_FTRACE_WITH_ARGS
		unsigned long *sp = (unsigned long *)KPROF_AFREGS(fregs)->sp;
#else
		unsigned long *sp = (unsigned long *)fregs->regs.sp;
#endif
		return sp[n - 8];
	}
#endif
	return kprof_fast_arg(fregs, n);
}

/*
 * Context: an ftrace callback.  A scatterlist mapping's key (its first
 * entry) into *@key, and its bytes: what the caller asks to map, the
 * walk dma_map_sg() makes too.
 */
static __always_inline u64 kprof_memhook_sg(const struct kprof_memfn *f,
					    struct ftrace_regs *fregs,
					    u64 *key)
{
	struct scatterlist *sg;
	u64 bytes = 0;
	u32 n;

	if (f->sg == KPROF_SG_TABLE) {
		struct sg_table *t = (void *)kprof_fast_arg(fregs, f->arg);

		sg = t->sgl;
		n = t->orig_nents;
	} else {
		sg = (void *)kprof_fast_arg(fregs, f->arg);
		n = kprof_fast_arg(fregs, f->arg + 1);
	}
	*key = (unsigned long)sg | 1;
	for (; sg && n; n--, sg = sg_next(sg))
		bytes += sg->length;
	return bytes;
}

/*
 * Context: an ftrace callback (ftrace's recursion guard, preemption
 * disabled).  Calls nothing that an allocator hooked here calls.
 */
static void notrace kprof_memhook_entry(unsigned long ip,
					unsigned long parent_ip,
					struct ftrace_ops *op,
					struct ftrace_regs *fregs)
{
	struct kprof_memp *m = container_of(op, struct kprof_memp, hk.ops);
	u32 i = kprof_fnhash_find(&m->hk.hash, ip);
	const struct kprof_memfn *f;
	struct kprof_fcall *c;
	unsigned long site;

	if (unlikely(i == U32_MAX))
		return;
	f = &kprof_memfns[m->hk.map[i]];
	if (!f->row) {
		kprof_mem_free(m, (const void *)(kprof_fast_arg(fregs, f->arg) |
						 (f->sg ? 1 : 0)));
		return;
	}
	site = f->caller >= 0 ? kprof_memhook_arg(fregs, f->caller) : parent_ip;
	if (likely(!kprof_mem_ours(m, site)) || !READ_ONCE(m->p.armed))
		return;
	if (unlikely(!kprof_fast_enter(&m->hk.fh, kprof_fast_retp(fregs), &c))) {
		/* no room on the task's return stack: not followed, said */
		kprof_stat_drop(kprof_this_stats(&m->p, smp_processor_id()));
		return;
	}
	c->fn = ip;
	c->idx = m->hk.map[i];
	if (f->sg)
		c->args[0] = kprof_memhook_sg(f, fregs, &c->args[3]);
	else
		c->args[0] = f->arg >= 0 ? kprof_fast_arg(fregs, f->arg) : 0;
	c->args[1] = f->dir >= 0 ? kprof_fast_arg(fregs, f->dir) : 0;
	/* by stack: the stack from here, this call its first frame */
	c->args[2] = kprof_mem_site_id(m, ip, parent_ip, site);
	c->t0 = 0;
}
NOKPROBE_SYMBOL(kprof_memhook_entry);

/* Context: fast.c's return, preemption disabled. */
static void notrace kprof_memhook_exit(struct kprof_fhook *h,
				       struct kprof_fcall *c, u64 retval,
				       unsigned long caller, unsigned long fp)
{
	struct kprof_memp *m = container_of(h, struct kprof_memp, hk.fh);
	const struct kprof_memfn *f = &kprof_memfns[c->idx];
	u32 row = f->row;
	u64 size = c->args[0], got = PAGE_ALIGN(size);

	if (row == KPROF_MEM_PAGES) {
		/* an order the allocator refuses returns NULL: not shifted */
		if (!retval)
			return;
		size = PAGE_SIZE << (c->args[0] & 31);
		got = size;
		if (f->addr)
			retval = (unsigned long)virt_to_page((void *)retval);
	} else if (row == KPROF_MEM_DMA_BIDI) {
		/* the list's entries mapped, 0 (a table: 0, -errno) */
		if (f->sg == KPROF_SG_LIST ? !(u32)retval :
		    f->sg == KPROF_SG_TABLE ? (s32)retval :
		    retval == DMA_MAPPING_ERROR)
			return;
		if (f->sg)
			retval = c->args[3];
		/* a mapping is of the caller's buffer: no slack */
		got = size;
		if (c->args[1] == DMA_TO_DEVICE || c->args[1] == DMA_FROM_DEVICE)
			row += c->args[1];
	}
	/* 0 and 1 mark the table's free slots: neither is an object */
	if (retval > 1)
		kprof_mem_alloc(m, (u32)c->args[2],
				(const void *)(unsigned long)retval, size, got,
				row);
}
NOKPROBE_SYMBOL(kprof_memhook_exit);

int kprof_memhook_attach(struct kprof_memp *m)
{
	struct kprof_memhook *hk = &m->hk;
	struct kprof_fn *fns;
	u32 i, n = 0;
	int ret = 0;

	memset(&hk->ops, 0, sizeof(hk->ops));
	hk->ops.func = kprof_memhook_entry;
	hk->reg = false;
	hk->nr = 0;
	fns = kcalloc(ARRAY_SIZE(kprof_memfns), sizeof(*fns), GFP_KERNEL);
	if (!fns)
		return -ENOMEM;
	/* the core's lock orders this: the walk of the kernel's symbols once */
	if (!kprof_memhook_vnode_tried) {
		kprof_memhook_vnode_tried = true;
		if (kprof_funcs_lookup(KPROF_VMALLOC_NODE, &kprof_memhook_vnode)) {
			kprof_memhook_vnode = 0;
			pr_info("this kernel has no %s: mem: probes do not follow vmalloc\n",
				KPROF_VMALLOC_NODE);
		}
	}
	for (i = 0; i < ARRAY_SIZE(kprof_memfns); i++) {
		unsigned long a = (unsigned long)kprof_memfns[i].fn ?:
				  kprof_memhook_vnode;

		/* one at a time: what ftrace cannot hook fails alone */
		if (!a || ftrace_set_filter_ip(&hk->ops, a, 0, 0))
			continue;
		fns[n].addr = a;
		/* its ftrace call site is in its first three instructions */
		fns[n].size = 12;
		hk->map[n++] = i;
	}
	if (n)
		ret = kprof_fnhash_build(&hk->hash, fns, n);
	kfree(fns);
	if (!n || ret) {
		/* an ops without a filter would hook every function */
		ftrace_free_filter(&hk->ops);
		memset(&hk->ops, 0, sizeof(hk->ops));
		return ret;
	}
	hk->fh.exit = kprof_memhook_exit;
	hk->nr = n;
	return 0;
}

int kprof_memhook_arm(struct kprof_memp *m)
{
	struct kprof_memhook *hk = &m->hk;
	int ret;

	if (!hk->nr || hk->reg)
		return 0;
	ret = kprof_fast_hook_init(&hk->fh, 0);
	if (!ret)
		ret = register_ftrace_function(&hk->ops);
	if (ret) {
		kprof_fast_forget(&hk->fh);
		return ret;
	}
	hk->reg = true;
	return 0;
}

void kprof_memhook_disarm(struct kprof_memp *m)
{
	struct kprof_memhook *hk = &m->hk;

	if (!hk->reg)
		return;
	/* no new entry (ftrace waits out the callbacks), then no exit */
	unregister_ftrace_function(&hk->ops);
	kprof_fast_forget(&hk->fh);
	hk->reg = false;
}

void kprof_memhook_detach(struct kprof_memp *m)
{
	struct kprof_memhook *hk = &m->hk;

	kprof_memhook_disarm(m);
	if (!hk->nr)
		return;
	kprof_fnhash_free(&hk->hash);
	ftrace_free_filter(&hk->ops);
	memset(&hk->ops, 0, sizeof(hk->ops));
	hk->nr = 0;
}
#else
/* no fast returns: no address from an allocation's return */
int kprof_memhook_attach(struct kprof_memp *m)
{
	m->hk.nr = 0;
	return 0;
}

int kprof_memhook_arm(struct kprof_memp *m)
{
	return 0;
}

void kprof_memhook_disarm(struct kprof_memp *m)
{
}

void kprof_memhook_detach(struct kprof_memp *m)
{
}
#endif
