// SPDX-License-Identifier: GPL-2.0
/*
 * The mem kind, "mem:MOD": MOD's allocations per call site, their frees
 * wherever they happen, and at MOD's unload what it leaked (uapi:
 * KPROF_TYPE_MEM).  Slab through the kmem tracepoints, vmalloc, DMA and
 * pages through ftrace hooks (memhook.c; pages' frees through kmem's
 * mm_page_free), so a kernel without kprobes does it.  An allocation is
 * MOD's when its call site is in MOD's text, kept as two ranges read in
 * probe context: resolved when MOD comes (before its init), its init
 * text's dropped when the init is over.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>
#include <linux/err.h>
#include <linux/rcupdate.h>

#include "probe.h"
#include "core.h"
#include "tracepoints.h"
#include "funcs.h"
#include "mem-int.h"
#include "backends.h"

static const char *const kprof_mem_tp_names[KPROF_MEM_NR_TPS] = {
	"kmalloc", "kmem_cache_alloc", "kfree", "kmem_cache_free",
	"mm_page_free",
};

static struct kprof_memp *kprof_memp(struct kprof_probe *p)
{
	return container_of(p, struct kprof_memp, p);
}

/* ---- probe context ------------------------------------------------------ */

/* the key row of (site, row): its first slot, else the search */
static __always_inline struct kprof_cpu_stats *
kprof_mem_row(struct kprof_probe *p, u32 site, u32 row, unsigned int cpu)
{
	u64 tag = kprof_key2_tag(site, row);
	u32 k = kprof_key2_first(&p->keys, tag, site, row, true);

	if (k == U32_MAX)
		k = kprof_key2_find(&p->keys, tag, site, row, NULL);
	return kprof_key_stats(&p->keys, k, cpu);
}

/*
 * The bytes asked for to the sum, the allocator's to unmatched (uapi: a
 * mem row's), @x (a size, a lifetime) to min, max and histogram.
 */
static __always_inline void kprof_mem_stat(struct kprof_cpu_stats *st,
					   const struct kprof_mem_obj *o, u64 x)
{
	local64_inc(kprof_l64(&st->hist[kprof_hist_index(x)]));
	local64_add(o->req, kprof_l64(&st->sum));
	local64_add(o->slab, kprof_l64(&st->unmatched));
	kprof_stat_min(&st->min, x);
	kprof_stat_max(&st->max, x);
	/* readers that load count first never see it ahead of the buckets */
	smp_wmb();
	local64_inc(kprof_l64(&st->count));
}

/* @row's max to @v, counted, if @v is above the peak yet seen in *@peak */
static __always_inline void kprof_mem_rise(struct kprof_probe *p, u32 site,
					   u32 row, u64 *peak, u64 v,
					   unsigned int cpu)
{
	struct kprof_cpu_stats *st;

	/*
	 * A race here costs an extra row update, never a lost peak: each
	 * value is its CPU's row's, and readers take the max over CPUs.
	 */
	if (likely(v <= READ_ONCE(*peak)))
		return;
	WRITE_ONCE(*peak, v);
	st = kprof_mem_row(p, site, row, cpu);
	kprof_stat_max(&st->max, v);
	/* as kprof_mem_stat(): count is never ahead of max */
	smp_wmb();
	local64_inc(kprof_l64(&st->count));
}

/* @o's bytes live, or (@n negative) no longer */
static __always_inline void kprof_mem_live(struct kprof_memp *m,
					   const struct kprof_mem_obj *o,
					   s64 n, unsigned int cpu)
{
	u32 all = kprof_mem_sites(m)->nr + 1;
	u64 v = atomic64_add_return(n, &m->live[o->site]);

	if (n > 0)
		kprof_mem_rise(&m->p, o->site, KPROF_MEM_PEAK,
			       &m->peak[o->site], v, cpu);
	v = atomic64_add_return(n, &m->live[all]);
	if (n > 0)
		kprof_mem_rise(&m->p, 0, KPROF_MEM_PEAK_ALL, &m->peak[all], v,
			       cpu);
}

notrace u32 kprof_mem_site_id(struct kprof_memp *m, unsigned long fn,
			      unsigned long from, unsigned long site)
{
	if (m->by_stack)
		return kprof_stack_id(&m->p.stacks, fn, from, 0, NULL);
	return kprof_frames_id1(&m->p.callers, site);
}
NOKPROBE_SYMBOL(kprof_mem_site_id);

notrace void kprof_mem_alloc(struct kprof_memp *m, u32 id, const void *ptr,
			     size_t req, size_t got, u32 row)
{
	struct kprof_probe *p = &m->p;
	unsigned int cpu = smp_processor_id();
	struct kprof_mem_obj o, old;
	int ret;

	if (!READ_ONCE(p->armed))
		return;
	o.site = id;
	o.row = row;
	o.req = min_t(size_t, req, U32_MAX);
	o.slab = min_t(size_t, got, U32_MAX);
	o.t = ktime_get_mono_fast_ns();
	kprof_mem_stat(kprof_mem_row(p, o.site, row, cpu), &o, o.req);
	ret = kprof_memtab_add(&m->tab, (unsigned long)ptr, &o, &old);
	if (ret < 0) {
		kprof_stat_drop(kprof_this_stats(p, cpu));
		return;
	}
	if (ret) {
		kprof_stat_unmatched(kprof_this_stats(p, cpu));
		kprof_mem_live(m, &old, -(s64)old.req, cpu);
	}
	kprof_mem_live(m, &o, o.req, cpu);
}
NOKPROBE_SYMBOL(kprof_mem_alloc);

notrace void kprof_mem_free(struct kprof_memp *m, const void *ptr)
{
	struct kprof_probe *p = &m->p;
	struct kprof_mem_obj o;
	u64 now;

	/*
	 * Not armed: MOD is going (its frees, RCU's among them, still
	 * count until the hooks go), or the probe stopped (its table is
	 * drained, its hooks gone): the table says which objects count.
	 */
	if (!kprof_memtab_take(&m->tab, (unsigned long)ptr, &o))
		return;
	now = ktime_get_mono_fast_ns();
	kprof_mem_stat(kprof_mem_row(p, o.site, KPROF_MEM_FREE,
				     smp_processor_id()),
		       &o, now > o.t ? now - o.t : 0);
	kprof_mem_live(m, &o, -(s64)o.req, smp_processor_id());
}
NOKPROBE_SYMBOL(kprof_mem_free);

/* Context of every callback below: see KPROF_TP_CALLBACK. */

/*
 * A slab allocation at @ptr from @call_site: MOD's, with its site id in
 * *@id?  By stack, any frame of it in MOD's text makes it MOD's: the
 * walk, for every allocation of the kernel's, is what --stacks costs.
 */
static __always_inline bool kprof_mem_slab_ours(struct kprof_memp *m,
						unsigned long call_site,
						const void *ptr, u32 *id)
{
	if (ZERO_OR_NULL_PTR(ptr))
		return false;
	if (likely(!m->by_stack)) {
		if (likely(!kprof_mem_ours(m, call_site)) ||
		    !READ_ONCE(m->p.armed))
			return false;
		*id = kprof_frames_id1(&m->p.callers, call_site);
		return true;
	}
	if (!READ_ONCE(m->p.armed))
		return false;
	*id = kprof_stack_id_in(&m->p.stacks, m->text, ARRAY_SIZE(m->text));
	if (!*id)
		return false;
	if (*id == U32_MAX)
		*id = 0;	/* the table is full: site 0, "?" */
	return true;
}

static __always_inline void
kprof_mem_kmalloc_body(void *data, unsigned long call_site, const void *ptr,
		       size_t bytes_req, size_t bytes_alloc, gfp_t gfp_flags,
		       int node)
{
	struct kprof_memp *m = data;
	u32 id;

	if (unlikely(kprof_mem_slab_ours(m, call_site, ptr, &id)))
		kprof_mem_alloc(m, id, ptr, bytes_req, bytes_alloc,
				KPROF_MEM_KMALLOC);
}

KPROF_TP_CALLBACK(kprof_mem_kmalloc,
	(void *data, unsigned long call_site, const void *ptr,
	 size_t bytes_req, size_t bytes_alloc, gfp_t gfp_flags, int node),
	(data, call_site, ptr, bytes_req, bytes_alloc, gfp_flags, node));

static __always_inline void
kprof_mem_cache_alloc_body(void *data, unsigned long call_site,
			   const void *ptr, struct kmem_cache *s,
			   gfp_t gfp_flags, int node)
{
	struct kprof_memp *m = data;
	u32 id;

	if (unlikely(kprof_mem_slab_ours(m, call_site, ptr, &id)))
		kprof_mem_alloc(m, id, ptr, kmem_cache_size(s),
				kmem_cache_size(s), KPROF_MEM_CACHE);
}

KPROF_TP_CALLBACK(kprof_mem_cache_alloc,
	(void *data, unsigned long call_site, const void *ptr,
	 struct kmem_cache *s, gfp_t gfp_flags, int node),
	(data, call_site, ptr, s, gfp_flags, node));

static __always_inline void kprof_mem_kfree_body(void *data,
						 unsigned long call_site,
						 const void *ptr)
{
	if (!ZERO_OR_NULL_PTR(ptr))
		kprof_mem_free(data, ptr);
}

KPROF_TP_CALLBACK(kprof_mem_kfree,
	(void *data, unsigned long call_site, const void *ptr),
	(data, call_site, ptr));

static __always_inline void
kprof_mem_cache_free_body(void *data, unsigned long call_site, const void *ptr,
			  const struct kmem_cache *s)
{
	if (!ZERO_OR_NULL_PTR(ptr))
		kprof_mem_free(data, ptr);
}

KPROF_TP_CALLBACK(kprof_mem_cache_free,
	(void *data, unsigned long call_site, const void *ptr,
	 const struct kmem_cache *s),
	(data, call_site, ptr, s));

/* every page freed, a batch's too: a page allocator hook's are in the table */
static __always_inline void kprof_mem_page_free_body(void *data,
						     struct page *page,
						     unsigned int order)
{
	kprof_mem_free(data, page);
}

KPROF_TP_CALLBACK(kprof_mem_page_free,
	(void *data, struct page *page, unsigned int order),
	(data, page, order));

static void *const kprof_mem_tp_funcs[KPROF_MEM_NR_TPS] = {
	kprof_mem_kmalloc, kprof_mem_cache_alloc, kprof_mem_kfree,
	kprof_mem_cache_free, kprof_mem_page_free,
};

/* ---- process context ---------------------------------------------------- */

/*
 * "MOD", as modprobe spells it ('-' and '_' the same); --key stack (the
 * core allocates p->stacks) makes stacks the sites.
 */
static int kprof_mem_parse(struct kprof_probe *p, const char *arg,
			   struct kprof_probe_add *a)
{
	struct kprof_memp *m = kprof_memp(p);
	size_t i, n = strlen(arg);

	if (!n || n >= sizeof(m->mod))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		char c = arg[i] == '-' ? '_' : arg[i];

		if (!isalnum(c) && c != '_')
			return -EINVAL;
		m->mod[i] = c;
	}
	m->mod[n] = '\0';
	if (a->key[1] ||
	    (a->key[0] && a->key[0] != KPROF_KEYSPEC(KPROF_KEY_STACK, 0, 0)))
		return -EINVAL;
	m->by_stack = a->key[0];
	/* frees happen anywhere: no task or CPU filter means anything */
	if ((a->flags & (KPROF_TASK_FILTERS | KPROF_ADD_CPUS)) ||
	    (a->objects && (!is_power_of_2(a->objects) ||
			    a->objects > KPROF_MEM_MAX_OBJECTS)))
		return -EINVAL;
	m->objects = a->objects ?: KPROF_MEM_DEFAULT_OBJECTS;
	return 0;
}

/* Site ids and rows: the core sizes the key table for key[0] and key[1] */
static int kprof_mem_alloc_tables(struct kprof_probe *p)
{
	struct kprof_memp *m = kprof_memp(p);
	u32 nr;
	int ret = 0;

	p->key[0] = KPROF_KEYSPEC(m->by_stack ? KPROF_KEY_STACK :
				  KPROF_KEY_CALLER, 0, 0);
	p->key[1] = KPROF_KEYSPEC(KPROF_KEY_MEM, 0, 0);
	if (!m->by_stack)
		ret = kprof_frames_alloc(&p->callers, kprof_pair_keys(), 1);
	nr = kprof_mem_sites(m)->nr;
	if (!ret)
		ret = kprof_memtab_alloc(&m->tab, m->objects);
	if (!ret) {
		m->names = kvcalloc(nr, sizeof(*m->names), GFP_KERNEL);
		m->live = kvcalloc(nr + 2, sizeof(*m->live), GFP_KERNEL);
		m->peak = kvcalloc(nr + 2, sizeof(*m->peak), GFP_KERNEL);
		if (!m->names || !m->live || !m->peak)
			ret = -ENOMEM;
	}
	return ret;
}

static void kprof_mem_free_tables(struct kprof_probe *p)
{
	kprof_memtab_free(&kprof_memp(p)->tab);
	kvfree(kprof_memp(p)->names);
	kvfree(kprof_memp(p)->live);
	kvfree(kprof_memp(p)->peak);
}

/* Context: no handler runs.  The table drained: nothing is live. */
static void kprof_mem_unlive(struct kprof_memp *m, bool peaks)
{
	size_t n = (size_t)kprof_mem_sites(m)->nr + 2;

	memset(m->live, 0, n * sizeof(*m->live));
	if (peaks)
		memset(m->peak, 0, n * sizeof(*m->peak));
}

/*
 * Names the sites not named yet while MOD's text is there to name them:
 * its init text's before the init is freed, the rest before MOD goes.  A
 * stack is named by its first frame in MOD: the call into others' code.
 */
/* site id @id's name, if not named yet, from its frames @st */
static void kprof_mem_name_site(struct kprof_memp *m, u32 id, const u64 *st)
{
	u32 j, depth = kprof_mem_sites(m)->depth;

	if (m->names[id - 1][0])
		return;
	for (j = 0; j < depth && st[j]; j++)
		if (kprof_mem_ours(m, st[j])) {
			kprof_sym_name(st[j], m->names[id - 1]);
			return;
		}
}

static void kprof_mem_name_sites(struct kprof_memp *m)
{
	struct kprof_frames *f = kprof_mem_sites(m);
	u64 *pcs = kvcalloc(array_size(f->nr, f->depth), sizeof(*pcs),
			    GFP_KERNEL);
	u32 i;

	if (!pcs)
		return;
	kprof_frames_read(f, pcs);
	for (i = 0; i < f->nr; i++)
		kprof_mem_name_site(m, i + 1, pcs + (size_t)i * f->depth);
	kvfree(pcs);
}

/* Sites are named by MOD's frame: of a MOD gone, as they were */
static bool kprof_mem_site_name(struct kprof_probe *p, u32 id, const u64 *pcs,
				char *buf)
{
	struct kprof_memp *m = kprof_memp(p);

	if (id > kprof_mem_sites(m)->nr)
		return false;
	if (m->attached)
		kprof_mem_name_site(m, id, pcs);
	strscpy(buf, m->names[id - 1], KPROF_SYM_LEN);
	return true;
}

static void kprof_mem_set_ranges(struct kprof_memp *m, struct module *mod)
{
	unsigned long lo, init;
	size_t size, isize;

#ifdef KPROF_HAVE_MODULE_MEMORY
	lo = (unsigned long)mod->mem[MOD_TEXT].base;
	size = mod->mem[MOD_TEXT].size;
	init = (unsigned long)mod->mem[MOD_INIT_TEXT].base;
	isize = mod->mem[MOD_INIT_TEXT].size;
#else
	lo = (unsigned long)mod->core_layout.base;
	size = mod->core_layout.text_size;
	init = (unsigned long)mod->init_layout.base;
	isize = mod->init_layout.text_size;
#endif
	WRITE_ONCE(m->text[0].lo, lo);
	WRITE_ONCE(m->text[0].hi, lo + size);
	WRITE_ONCE(m->text[1].lo, init);
	WRITE_ONCE(m->text[1].hi, init + isize);
	m->attached = true;
}

static void kprof_mem_clear_ranges(struct kprof_memp *m)
{
	WRITE_ONCE(m->text[0].lo, 0);
	WRITE_ONCE(m->text[0].hi, 0);
	WRITE_ONCE(m->text[1].lo, 0);
	WRITE_ONCE(m->text[1].hi, 0);
	m->attached = false;
}

/* The objects no longer followed, as the probe's own unmatched count */
static void kprof_mem_forget_one(void *arg, const struct kprof_mem_obj *o)
{
	kprof_stat_unmatched(kprof_this_stats(arg, 0));
}

static int kprof_mem_arm(struct kprof_probe *p)
{
	struct kprof_memp *m = kprof_memp(p);
	int ret;

	if (!m->attached)	/* PENDING or GONE: arms when MOD comes */
		return 0;
	ret = kprof_tp_register_all(m->tps, kprof_mem_tp_funcs,
				    KPROF_MEM_NR_TPS, m);
	if (!ret) {
		ret = kprof_memhook_arm(m);
		if (ret)
			kprof_tp_unregister_all(m->tps, kprof_mem_tp_funcs,
						KPROF_MEM_NR_TPS, m);
	}
	m->on = !ret;
	return ret;
}

static void kprof_mem_unregister(struct kprof_memp *m)
{
	if (!m->on)
		return;
	kprof_memhook_disarm(m);
	kprof_tp_unregister_all(m->tps, kprof_mem_tp_funcs, KPROF_MEM_NR_TPS,
				m);
	m->on = false;
	/* no callback runs, or will run, with m once this returns */
	tracepoint_synchronize_unregister();
}

/*
 * Unfollowed, the live objects' frees go unseen: they leave the table,
 * counted in the probe's unmatched, so no stopped probe calls them leaks.
 */
static void kprof_mem_disarm(struct kprof_probe *p)
{
	struct kprof_memp *m = kprof_memp(p);

	if (!m->on)
		return;
	kprof_mem_unregister(m);
	kprof_memtab_drain(&m->tab, kprof_mem_forget_one, p);
	kprof_mem_unlive(m, false);
}

/* RESET: site ids start again, so do their names */
static void kprof_mem_clear(struct kprof_probe *p)
{
	struct kprof_memp *m = kprof_memp(p);

	kprof_memtab_drain(&m->tab, NULL, NULL);
	kprof_mem_unlive(m, true);
	memset(m->names, 0, (size_t)kprof_mem_sites(m)->nr * sizeof(*m->names));
}

static int kprof_mem_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_memp *m = kprof_memp(p);
	struct kobject *ref = NULL;
	struct module *mod, *tp_mod;
	int i, ret;

	for (i = 0; i < KPROF_MEM_NR_TPS; i++) {
		m->tps[i] = kprof_tp_find(kprof_mem_tp_names[i], &tp_mod);
		if (!m->tps[i] || tp_mod) {
			pr_info("%s: this kernel has no kmem:%s tracepoint\n",
				p->spec, kprof_mem_tp_names[i]);
			return -EOPNOTSUPP;
		}
	}
	m->on = false;
	kprof_mem_clear_ranges(m);
	ret = kprof_memhook_attach(m);
	if (ret)
		return ret;
	if (!m->hk.nr)
		pr_info("%s: this kernel cannot follow vmalloc, DMA or pages (no fast returns or no ftrace call sites): slab only\n",
			p->spec);
	mod = kprof_funcs_module_get(m->mod, &ref);
	if (!mod) {
		/* from MOD's init on: it has not loaded yet */
		p->state = KPROF_STATE_PENDING;
		return 0;
	}
	kprof_mem_set_ranges(m, mod);
	kprof_funcs_module_put(ref);
	return armed ? kprof_mem_arm(p) : 0;
}

static void kprof_mem_detach(struct kprof_probe *p)
{
	kprof_mem_unregister(kprof_memp(p));
	kprof_memhook_detach(kprof_memp(p));
	kprof_mem_clear_ranges(kprof_memp(p));
}

static bool kprof_mem_in_module(struct kprof_probe *p, struct module *mod)
{
	return kprof_memp(p)->attached && !strcmp(kprof_memp(p)->mod, mod->name);
}

/* Context: process, under the core's lock: a module is coming. */
static bool kprof_mem_module_event(struct kprof_probe *p, struct module *mod,
				   bool coming)
{
	struct kprof_memp *m = kprof_memp(p);

	if (!coming || m->attached || strcmp(m->mod, mod->name) ||
	    (p->state != KPROF_STATE_PENDING && p->state != KPROF_STATE_GONE))
		return false;
	kprof_mem_set_ranges(m, mod);
	p->reg_errno = 0;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, following its allocations\n",
		p->id, p->spec, mod->name);
	return true;
}

/* MOD's init is over: its init text is freed, and may hold others' code */
static bool kprof_mem_module_live(struct kprof_probe *p, struct module *mod)
{
	struct kprof_memp *m = kprof_memp(p);

	if (m->attached && !strcmp(m->mod, mod->name)) {
		kprof_mem_name_sites(m);
		if (m->by_stack)
			kprof_frames_mark(&p->stacks, &m->text[1], 1,
					  KPROF_FRAME_GONE);
		WRITE_ONCE(m->text[1].lo, 0);
		WRITE_ONCE(m->text[1].hi, 0);
	}
	return false;
}

/* Context: process, under the core's lock: counted, and told each */
static void kprof_mem_leak_one(void *arg, const struct kprof_mem_obj *o)
{
	struct kprof_probe *p = arg;
	struct kprof_memp *m = kprof_memp(p);
	u64 now = ktime_get_mono_fast_ns();
	struct kprof_leak l = {
		.size = o->req, .age_ns = now > o->t ? now - o->t : 0,
		.site = o->site, .kind = o->row,
		.name = o->site ? m->names[o->site - 1] : "",
	};

	/* no handler runs: CPU 0's row is as good as any */
	kprof_mem_stat(kprof_mem_row(p, o->site, KPROF_MEM_LEAK, 0), o,
		       l.age_ns);
	kprof_tell_leak(p, &l);
}

/*
 * MOD is going and p is GONE: what MOD allocated and did not free is its
 * leak, counted before the text (and the ranges) can belong to another.
 */
static void kprof_mem_going(struct kprof_probe *p)
{
	struct kprof_memp *m = kprof_memp(p);

	/*
	 * By stack, what MOD's init registered is MOD's; its exit lets some
	 * go through RCU (dentries, inodes): their frees come first, one
	 * wait for the callbacks queued by now (no kprofctl callback takes
	 * the core's lock).
	 */
	if (m->by_stack && m->on)
		rcu_barrier();
	kprof_mem_unregister(m);
	kprof_mem_name_sites(m);
	/* their names kept, MOD's frames are addresses no longer its */
	if (m->by_stack)
		kprof_frames_mark(&p->stacks, m->text, ARRAY_SIZE(m->text),
				  KPROF_FRAME_GONE);
	kprof_mem_clear_ranges(m);
	kprof_memtab_drain(&m->tab, kprof_mem_leak_one, p);
	kprof_mem_unlive(m, false);
}

const struct kprof_backend kprof_mem_backend = {
	.prefix		= "mem",
	.mech		= KPROF_MECH_TRACEPOINT,
	.size		= sizeof(struct kprof_memp),
	.parse		= kprof_mem_parse,
	.alloc		= kprof_mem_alloc_tables,
	.free		= kprof_mem_free_tables,
	.attach		= kprof_mem_attach,
	.detach		= kprof_mem_detach,
	.arm		= kprof_mem_arm,
	.disarm		= kprof_mem_disarm,
	.in_module	= kprof_mem_in_module,
	.module_event	= kprof_mem_module_event,
	.module_live	= kprof_mem_module_live,
	.going		= kprof_mem_going,
	.clear		= kprof_mem_clear,
	.site_name	= kprof_mem_site_name,
};
