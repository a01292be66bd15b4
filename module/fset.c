// SPDX-License-Identifier: GPL-2.0
/*
 * Function sets, "kprobe:[MOD:]GLOB" (hits per function) and
 * "kretprobe:[MOD:]GLOB" (latency per function): one probe over every
 * function the glob matches (funcs.c), with statistics per function in a
 * set slot of the mapping.  Hits go through one ftrace_ops for the whole
 * set where the kernel has dynamic ftrace; latency through the same ops
 * and fast.c's return trampoline where it can (--fast, or the module's
 * parameter fast=Y), else (and hits elsewhere) through a kretprobe
 * (kprobe) per function.  A latency set through ftrace by default (fast=Y,
 * no --fast) gives each function it cannot follow a kretprobe of its own,
 * as a single probe falls back.  Functions that cannot be hooked are
 * listed with the reason and skipped.  Here the backend and the set's
 * slot; fset-hook.c hooks the functions, fset-hit.c runs on a hit.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/minmax.h>

#include "fset-int.h"
#include "core.h"
#include "backends.h"

static bool set_ftrace = true;
module_param(set_ftrace, bool, 0444);
MODULE_PARM_DESC(set_ftrace,
		 "Count a set's hits through one ftrace_ops where the kernel can (N: a kprobe per function)");

/* ---- the statistics slot -------------------------------------------- */

static void kprof_fset_publish_funcs(struct kprof_fset *s)
{
	u32 i;

	for (i = 0; i < s->nr; i++) {
		struct kprof_fn *fn = &s->fns[i];
		struct kprof_func *m = &s->map[i];

		WRITE_ONCE(m->reason, fn->reason);
		WRITE_ONCE(m->error, fn->error);
		WRITE_ONCE(m->flags, fn->flags);
	}
}

/* No handler writes the rows. */
static void kprof_fset_clear(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);
	unsigned int cpu;
	u32 f;

	if (!s->rows)
		return;
	for_each_possible_cpu(cpu) {
		memset(s->rows + cpu * s->cpu_stride, 0, s->cpu_stride);
		if (!s->latency)
			continue;
		for (f = 0; f < s->nr; f++) {
			struct kprof_func_hist *h = kprof_fset_cell(s, cpu, f);

			h->min = U64_MAX;
		}
	}
}

static void kprof_fset_slot_put(struct kprof_fset *s)
{
	if (s->slot >= 0)
		kprof_set_slot_put(s->slot);
	s->slot = -1;
	s->map = NULL;
	s->rows = NULL;
}

/* The index of function @name in @fns (sorted by name), or U32_MAX */
static u32 kprof_fn_find(const struct kprof_fn *fns, u32 nr, const char *name)
{
	u32 lo = 0, hi = nr;

	while (lo < hi) {
		u32 mid = lo + (hi - lo) / 2;
		int r = strcmp(fns[mid].name, name);

		if (!r)
			return mid;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return U32_MAX;
}

static bool kprof_fset_same(const struct kprof_fset *s,
			    const struct kprof_fn *old, u32 old_nr)
{
	u32 i;

	if (!old || s->nr != old_nr)
		return false;
	for (i = 0; i < old_nr; i++)
		if (strcmp(s->fns[i].name, old[i].name))
			return false;
	return true;
}

/*
 * The slot for s->nr functions (s->fns).  A set coming back with its
 * module keeps its counts: in its slot if the functions are the same
 * ones (@old, @old_nr: the previous ones), else carried over by name
 * (its __init functions appear when a module loads after the set was
 * resolved, for one).  No handler writes the old slot.
 */
static int kprof_fset_slot(struct kprof_fset *s, const struct kprof_fn *old,
			   u32 old_nr)
{
	size_t table = PAGE_ALIGN((size_t)s->nr * sizeof(struct kprof_func));
	size_t old_stride = s->cpu_stride;
	unsigned int cpu;
	u8 *mem, *keep = NULL;
	u32 i, j;
	int slot;

	if (s->slot >= 0 && kprof_fset_same(s, old, old_nr))
		return 0;
	if (s->slot >= 0 && old) {
		keep = kvmalloc_array(nr_cpu_ids, old_stride, GFP_KERNEL);
		/* without memory the counts start again, as after a reset */
		if (keep)
			memcpy(keep, s->rows, nr_cpu_ids * old_stride);
	}
	kprof_fset_slot_put(s);
	s->func_stride = s->latency ? sizeof(struct kprof_func_hist) :
				      sizeof(u64);
	s->cpu_stride = ALIGN((size_t)s->nr * s->func_stride,
			      SMP_CACHE_BYTES);
	slot = kprof_set_slot_get(table + nr_cpu_ids * s->cpu_stride,
				  (void **)&mem);
	if (slot < 0) {
		kvfree(keep);
		return slot;
	}
	s->slot = slot;
	s->map = (struct kprof_func *)mem;
	s->rows = mem + table;
	for (i = 0; i < s->nr; i++)
		memcpy(s->map[i].name, s->fns[i].name, sizeof(s->map[i].name));
	kprof_fset_clear(&s->p);
	for (i = 0; keep && i < s->nr; i++) {
		j = kprof_fn_find(old, old_nr, s->fns[i].name);
		/* two static functions of one name: whose counts are whose? */
		if (j == U32_MAX ||
		    (j && !strcmp(old[j - 1].name, old[j].name)) ||
		    (j + 1 < old_nr && !strcmp(old[j + 1].name, old[j].name)))
			continue;
		for_each_possible_cpu(cpu)
			memcpy(kprof_fset_cell(s, cpu, i),
			       keep + cpu * old_stride +
			       (size_t)j * s->func_stride, s->func_stride);
	}
	kvfree(keep);
	return 0;
}

/* ---- hooking the functions ------------------------------------------ */

/* ---- backend callbacks ------------------------------------------------ */

static int kprof_fset_parse(struct kprof_probe *p, const char *arg,
			    struct kprof_probe_add *a)
{
	struct kprof_fset *s = kprof_fset(p);
	int ret;

	s->slot = -1;
	ret = kprof_funcs_parse(arg, s->mod, sizeof(s->mod), s->glob,
				sizeof(s->glob));
	if (ret)
		return ret;
	/* a core-kernel set has nothing to wait for */
	if ((p->flags & KPROF_ADD_DEFER) && !*s->mod)
		return -EINVAL;
	s->latency = p->kind->flags & KPROF_KIND_LATENCY;
	/* without the kprobe core, ftrace whatever set_ftrace says */
	s->mech = !s->latency && KPROF_SET_FTRACE &&
		  (set_ftrace || !IS_ENABLED(CONFIG_KPROBES)) ?
		  KPROF_MECH_FTRACE : KPROF_MECH_KPROBES;
	/* latency through ftrace: fast.c's calls */
	if (s->latency && kprof_fast_wanted(p->flags)) {
		/* here only FAST asks for it */
		if (!KPROF_FAST)
			return -EOPNOTSUPP;
		s->fast = true;
		/* what it cannot follow: skipped without kretprobes */
		s->fallback = !(p->flags & KPROF_ADD_FAST) &&
			      IS_ENABLED(CONFIG_KRETPROBES);
		s->mech = KPROF_MECH_FTRACE;
		s->limit = a->maxactive;
	}
	/* an instance pool per function: smaller than a single probe's */
	if (s->latency)
		p->maxactive = a->maxactive ?:
			clamp_t(u32, 2 * num_possible_cpus(), 16,
				KPROF_MAX_MAXACTIVE);
	return 0;
}

static void kprof_fset_detach(struct kprof_probe *p);

/* Resolves, takes the slot and hooks every function it can, disarmed. */
static int kprof_fset_hook(struct kprof_fset *s, struct module *mod,
			   bool armed)
{
	struct kprof_fn *fns, *old = s->fns;
	u32 nr, old_nr = s->nr;
	int ret;

	ret = kprof_funcs_resolve(mod, s->glob, kprof_max_set_funcs(), &fns,
				  &nr);
	if (ret)
		return ret;
	s->fns = fns;
	s->nr = nr;
	ret = kprof_fset_slot(s, old, old_nr);
	kvfree(old);
	if (ret)
		return ret;
	if (s->mech == KPROF_MECH_FTRACE) {
		ret = kprof_fset_ftrace_attach(s);
		if (!ret && armed)
			ret = kprof_fset_ftrace_arm(s);
		/* what the fast path cannot follow: a kretprobe each */
		if (!ret && s->fallback &&
		    kprof_fset_count(s, KPROF_FUNC_KRETPROBE, KPROF_FUNC_KRETPROBE))
			ret = kprof_fset_kprobes_attach(s, armed, true);
		if (ret)
			kprof_fset_detach(&s->p);
	} else {
		ret = kprof_fset_kprobes_attach(s, armed, false);
	}
	if (ret)
		return ret;
	kprof_fset_publish_funcs(s);
	return 0;
}

static int kprof_fset_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_fset *s = kprof_fset(p);
	struct kobject *ref = NULL;
	struct module *mod = NULL;
	int ret;

	if (*s->mod) {
		mod = kprof_funcs_module_get(s->mod, &ref);
		if (!mod) {
			p->state = KPROF_STATE_PENDING;
			return 0;
		}
	}
	ret = kprof_fset_hook(s, mod, armed);
	kprof_funcs_module_put(ref);
	/* a refused add frees the probe after dropping the core's lock */
	if (ret)
		kprof_fset_slot_put(s);
	return ret;
}

static void kprof_fset_detach(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);

	if (s->mech == KPROF_MECH_FTRACE)
		kprof_fset_ftrace_detach(s);
	kprof_fset_kprobes_detach(s);
	s->nr_probed = 0;
}

/* ftrace's part, then the kprobes (all of them, or a fallback's) */
static int kprof_fset_arm(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);
	int ret = 0;

	if (s->mech == KPROF_MECH_FTRACE)
		ret = kprof_fset_ftrace_arm(s);
	if (!ret && s->kps) {
		ret = kprof_fset_kprobes_arm(s);
		if (ret && s->mech == KPROF_MECH_FTRACE)
			kprof_fset_ftrace_disarm(s);
	}
	return ret;
}

static void kprof_fset_disarm(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);

	if (s->mech == KPROF_MECH_FTRACE)
		kprof_fset_ftrace_disarm(s);
	if (s->kps)
		kprof_fset_kprobes_disarm(s);
}

static void kprof_fset_free(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);

	kprof_fset_slot_put(s);
	kvfree(s->fns);
	s->fns = NULL;
}

static u64 kprof_fset_nmissed(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);
	u64 n = 0;
	u32 i;

#if KPROF_FAST
	if (s->fast)
		n = kprof_fast_missed(&s->fh);
#endif
	if (!s->kps)
		return n;
	for (i = 0; i < s->nr; i++) {
		struct kprof_fkp *w = &s->kps[i];

		if (!w->reg)
			continue;
		n += READ_ONCE(kprof_fkp_kprobe(s, i)->nmissed);
		if (s->latency)
			n += READ_ONCE(w->rp.nmissed);
	}
	return n;
}

static bool kprof_fset_in_module(struct kprof_probe *p, struct module *mod)
{
	struct kprof_fset *s = kprof_fset(p);

	return p->state != KPROF_STATE_PENDING && *s->mod &&
	       !strcmp(s->mod, mod->name);
}

/* Context: process, under the core's lock: MOD is coming. */
static bool kprof_fset_module_event(struct kprof_probe *p, struct module *mod,
				    bool coming)
{
	struct kprof_fset *s = kprof_fset(p);
	int ret;

	if (!coming || strcmp(s->mod, mod->name) ||
	    (p->state != KPROF_STATE_PENDING && p->state != KPROF_STATE_GONE))
		return false;
	p->be->detach(p);
	ret = kprof_fset_hook(s, mod, false);
	if (ret) {
		p->be->detach(p);
		p->reg_errno = -ret;
		p->state = KPROF_STATE_PENDING;
		pr_info("probe %u (%s): module %s loaded, but the set cannot be attached: %pe\n",
			p->id, p->spec, mod->name, ERR_PTR(ret));
		return true;
	}
	p->reg_errno = 0;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, %u of %u functions hooked\n",
		p->id, p->spec, mod->name, s->nr_probed, s->nr);
	return true;
}

/*
 * MOD's init is over and its __init text goes: its functions leave the
 * set (keeping what they counted), before the text can be reused.
 */
static bool kprof_fset_module_live(struct kprof_probe *p, struct module *mod)
{
	const u32 init = KPROF_FUNC_INIT | KPROF_FUNC_PROBED;
	const u32 via = KPROF_FUNC_PROBED | KPROF_FUNC_KRETPROBE;
	struct kprof_fset *s = kprof_fset(p);
	unsigned long *ips = NULL;
	u32 i, n;

	if (strcmp(s->mod, mod->name) || !s->nr_probed ||
	    (p->state != KPROF_STATE_STOPPED &&
	     p->state != KPROF_STATE_RUNNING))
		return false;
	if (!kprof_fset_count(s, init, init))
		return false;
	/* the __init functions ftrace hooks (a fallback's have kretprobes) */
	n = kprof_fset_count(s, init | KPROF_FUNC_KRETPROBE, init);
	if (s->mech == KPROF_MECH_FTRACE && n) {
		ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
		n = 0;
		for (i = 0; ips && i < s->nr; i++)
			if ((s->fns[i].flags & (init | KPROF_FUNC_KRETPROBE)) ==
			    init)
				ips[n++] = s->fns[i].addr;
		/*
		 * Without memory, if the filter refuses, or if nothing would be
		 * left in it (an empty filter hooks every function): all that
		 * ftrace hooks.
		 */
		if (!ips || n == kprof_fset_count(s, via, KPROF_FUNC_PROBED) ||
		    kprof_fset_ftrace_remove(s, ips, n))
			kprof_fset_ftrace_unhook(s);
		kvfree(ips);
	}
	kprof_fset_kprobes_unreg(s, true);
	for (i = 0; i < s->nr; i++)
		if (s->fns[i].flags & KPROF_FUNC_INIT)
			kprof_fn_skip(&s->fns[i], KPROF_SKIP_INIT_DONE, 0);
	s->nr_probed = kprof_fset_hooked(s);
	kprof_fset_publish_funcs(s);
	return true;
}

/* MOD went (the core has disarmed the set): unhook before its text goes. */
static void kprof_fset_going(struct kprof_probe *p)
{
	struct kprof_fset *s = kprof_fset(p);
	u32 i;

	kprof_fset_detach(p);
	for (i = 0; i < s->nr; i++)
		s->fns[i].flags &= ~(KPROF_FUNC_PROBED | KPROF_FUNC_KRETPROBE);
	kprof_fset_publish_funcs(s);
}

static void kprof_fset_fill_info(struct kprof_probe *p,
				 struct kprof_probe_info *i)
{
	struct kprof_fset *s = kprof_fset(p);

	i->mech = s->mech;
	if (s->slot < 0)
		return;
	i->nr_funcs = s->nr;
	i->nr_probed = s->nr_probed;
	i->func_stride = s->func_stride;
	i->funcs_off = kprof_set_slot_off(s->slot);
	i->func_stats_off = i->funcs_off + (s->rows - (u8 *)s->map);
	i->func_cpu_stride = s->cpu_stride;
}

#define KPROF_FSET_BACKEND(name, pfx)				\
const struct kprof_backend name = {				\
	.prefix		= pfx,					\
	.set		= true,					\
	.size		= sizeof(struct kprof_fset),		\
	.parse		= kprof_fset_parse,			\
	.free		= kprof_fset_free,			\
	.attach		= kprof_fset_attach,			\
	.detach		= kprof_fset_detach,			\
	.arm		= kprof_fset_arm,			\
	.disarm		= kprof_fset_disarm,			\
	.nmissed	= kprof_fset_nmissed,			\
	.in_module	= kprof_fset_in_module,			\
	.module_event	= kprof_fset_module_event,		\
	.module_live	= kprof_fset_module_live,		\
	.going		= kprof_fset_going,			\
	.clear		= kprof_fset_clear,			\
	.fill_info	= kprof_fset_fill_info,			\
}

KPROF_FSET_BACKEND(kprof_kprobe_set_backend, "kprobe");
KPROF_FSET_BACKEND(kprof_kretprobe_set_backend, "kretprobe");
