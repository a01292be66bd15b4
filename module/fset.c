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
 * listed with the reason and skipped.
 */
#include <linux/kernel.h>
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/minmax.h>
#include <linux/atomic.h>

#include "probe.h"
#include "filter.h"
#include "funcs.h"
#include "events.h"
#include "core.h"
#include "fast.h"
#include "backends.h"

#if defined(CONFIG_DYNAMIC_FTRACE) && defined(CONFIG_FUNCTION_TRACER)
#define KPROF_SET_FTRACE	1
#else
#define KPROF_SET_FTRACE	0
#endif

static bool set_ftrace = true;
module_param(set_ftrace, bool, 0444);
MODULE_PARM_DESC(set_ftrace,
		 "Count a set's hits through one ftrace_ops where the kernel can (N: a kprobe per function)");

/* a kprobe or kretprobe of one function, and the way back to its set */
struct kprof_fkp {
	union {
		struct kprobe kp;
		struct kretprobe rp;
	};
	struct kprof_fset *set;
	u32 idx;
	bool reg;
};

struct kprof_fset {
	struct kprof_probe p;
	char mod[MODULE_NAME_LEN];	/* "": the core kernel */
	char glob[KPROF_SPEC_LEN];
	bool latency;
	u32 mech;			/* KPROF_MECH_* */
	/* the functions, sorted by name, and how many are hooked */
	struct kprof_fn *fns;
	u32 nr, nr_probed;
	/* the set slot: nr x struct kprof_func, then a row per CPU */
	int slot;
	struct kprof_func *map;
	u8 *rows;
	size_t cpu_stride;
	u32 func_stride;
	/* KPROF_MECH_FTRACE */
#if KPROF_SET_FTRACE
	struct ftrace_ops ops;
#endif
	struct kprof_fnhash hash;
	bool ops_filtered, ops_reg;
	/* a latency set through ftrace: fast.c's calls, ADD's maxactive */
	bool fast;
	/*
	 * fast by default, not asked for: a function it cannot follow gets
	 * a kretprobe (kps[], KPROF_FUNC_KRETPROBE), not skipped
	 */
	bool fallback;
	u32 limit;
#if KPROF_FAST
	struct kprof_fhook fh;
#endif
	/* KPROF_MECH_KPROBES, or a fallback's KPROF_FUNC_KRETPROBE ones */
	struct kprof_fkp *kps;
};

static struct kprof_fset *kprof_fset(struct kprof_probe *p)
{
	return container_of(p, struct kprof_fset, p);
}

/* ---- probe context -------------------------------------------------- */

static __always_inline void *kprof_fset_cell(struct kprof_fset *s,
					     unsigned int cpu, u32 f)
{
	return s->rows + cpu * s->cpu_stride + (size_t)f * s->func_stride;
}

static __always_inline void kprof_fset_hit(struct kprof_fset *s,
					   unsigned int cpu, u32 f)
{
	local64_inc(kprof_l64(kprof_fset_cell(s, cpu, f)));
	kprof_stat_count(kprof_this_stats(&s->p, cpu));
}

/*
 * Compact histogram (struct kprof_func_hist): 32-bit buckets, atomic so
 * that an IRQ or NMI nesting on this CPU loses nothing.
 */
static __always_inline void kprof_fset_latency(struct kprof_fset *s,
					       unsigned int cpu, u32 f, u64 ns)
{
	struct kprof_func_hist *h = kprof_fset_cell(s, cpu, f);

	atomic_inc((atomic_t *)&h->hist[kprof_fhist_index(ns)]);
	local64_add(ns, kprof_l64(&h->sum));
	kprof_stat_min(&h->min, ns);
	kprof_stat_max(&h->max, ns);
	/* readers that load count first never see it ahead of the buckets */
	smp_wmb();
	local64_inc(kprof_l64(&h->count));
	kprof_stat_count(kprof_this_stats(&s->p, cpu));
}

#if KPROF_SET_FTRACE
/*
 * Context: an ftrace callback, any context, maybe preemptible.  ftrace
 * passes the call site, which the hash maps back to the function.
 * Nothing here is traceable, so it cannot recurse.  With @kf, --if's task
 * and CPU terms (ftrace passes no arguments here).
 */
static __always_inline void kprof_fset_ftrace_hit(unsigned long ip,
						  struct ftrace_ops *op,
						  bool kf)
{
	struct kprof_fset *s = container_of(op, struct kprof_fset, ops);
	unsigned int cpu;
	u32 f;

	preempt_disable_notrace();
	cpu = raw_smp_processor_id();
	if (kprof_want(&s->p, cpu)) {
		struct kprof_fvals v = { .task = current };

		if (kf && !kprof_filter_match(&s->p.f_entry, &v))
			goto out;
		f = kprof_fnhash_find(&s->hash, ip);
		if (likely(f != U32_MAX))
			kprof_fset_hit(s, cpu, f);
	}
out:
	preempt_enable_notrace();
}

static void notrace kprof_fset_ftrace(unsigned long ip,
				      unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	kprof_fset_ftrace_hit(ip, op, false);
}
NOKPROBE_SYMBOL(kprof_fset_ftrace);

/* a set with --if: its own callback, so that the others pay nothing */
static void notrace kprof_fset_ftrace_kf(unsigned long ip,
					 unsigned long parent_ip,
					 struct ftrace_ops *op,
					 struct ftrace_regs *fregs)
{
	kprof_fset_ftrace_hit(ip, op, true);
}
NOKPROBE_SYMBOL(kprof_fset_ftrace_kf);
#endif

#if KPROF_FAST
/*
 * Context: ftrace callback at a function's entry, maybe preemptible.  A
 * latency set's call, pushed with its function's index (the hash maps
 * the call site back).  With @kf, --if's entry terms (the arguments are
 * in ftrace's registers).  Calls nothing out of line: cannot recurse.
 */
static __always_inline void kprof_fset_fast_begin(unsigned long ip,
						  struct ftrace_ops *op,
						  struct ftrace_regs *fregs,
						  bool kf)
{
	struct kprof_fset *s = container_of(op, struct kprof_fset, ops);
	u64 args[KPROF_FAST_ARGS] __uninitialized;
	struct kprof_fcall *c;
	unsigned int n;
	u32 f;

	if (!kprof_want_here(&s->p))
		return;
	if (kf) {
		struct kprof_fvals v = { .task = current, .args = args };

		for (n = 0; n < KPROF_FAST_ARGS; n++)
			args[n] = kprof_fast_arg(fregs, n);
		if (!kprof_filter_match(&s->p.f_entry, &v))
			return;
	}
	f = kprof_fnhash_find(&s->hash, ip);
	if (unlikely(f == U32_MAX))
		return;
	if (unlikely(!kprof_fast_enter(&s->fh, kprof_fast_retp(fregs), &c)))
		return;
	c->fn = ip;
	c->idx = f;
	c->t0 = kprof_fast_clock();
}

static void notrace kprof_fset_fast_entry(unsigned long ip,
					  unsigned long parent_ip,
					  struct ftrace_ops *op,
					  struct ftrace_regs *fregs)
{
	kprof_fset_fast_begin(ip, op, fregs, false);
}
NOKPROBE_SYMBOL(kprof_fset_fast_entry);

static void notrace kprof_fset_fast_entry_kf(unsigned long ip,
					     unsigned long parent_ip,
					     struct ftrace_ops *op,
					     struct ftrace_regs *fregs)
{
	kprof_fset_fast_begin(ip, op, fregs, true);
}
NOKPROBE_SYMBOL(kprof_fset_fast_entry_kf);

/* the return's filter, out of line (a lean exit) */
static noinline bool notrace kprof_fset_fast_match(struct kprof_fset *s,
						   u64 retval, u64 ns)
{
	struct kprof_fvals v = {
		.task = current, .retval = retval, .latency = ns,
	};

	return kprof_filter_match(&s->p.f_exit, &v);
}
NOKPROBE_SYMBOL(kprof_fset_fast_match);

/*
 * Context: fast.c's return, preemption disabled: kprof_fset_return()'s
 * twin.  Only a slow-call event calls out of line, under ftrace's
 * recursion lock.
 */
static void notrace kprof_fset_fast_exit(struct kprof_fhook *h,
					 struct kprof_fcall *c, u64 retval,
					 unsigned long caller)
{
	struct kprof_fset *s = container_of(h, struct kprof_fset, fh);
	u64 ns = kprof_fast_elapsed(c->t0), slow;
	unsigned int cpu;

	if (!READ_ONCE(s->p.armed))
		return;
	if (unlikely(s->p.f_exit.nr) &&
	    !kprof_fset_fast_match(s, retval, ns))
		return;
	cpu = smp_processor_id();
	kprof_fset_latency(s, cpu, c->idx, ns);
	slow = READ_ONCE(s->p.slow_ns);
	if (unlikely(slow) && ns >= slow)
		kprof_event_slow_fast(&s->p, cpu, ns, true, c->idx, c->fn,
				      kprof_fast_caller(caller));
}
NOKPROBE_SYMBOL(kprof_fset_fast_exit);
#endif

/* Context: kprobe pre-handler, preemption disabled. */
static int kprof_fset_kprobe(struct kprobe *kp, struct pt_regs *regs)
{
	struct kprof_fkp *w = container_of(kp, struct kprof_fkp, kp);
	struct kprof_fvals v = { .task = current, .regs = regs };
	unsigned int cpu = smp_processor_id();

	if (kprof_want(&w->set->p, cpu) &&
	    kprof_filter_match(&w->set->p.f_entry, &v))
		kprof_fset_hit(w->set, cpu, w->idx);
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_kprobe);

/*
 * Context: kretprobe entry handler.  As kretprobe.c: the timestamp lives
 * in the instance; a filtered call drops it here.
 */
static int kprof_fset_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	struct kprof_fvals v = { .task = current, .regs = regs };
	struct kprof_fkp *w;

	if (unlikely(!rp))
		return 1;
	w = container_of(rp, struct kprof_fkp, rp);
	if (!kprof_want(&w->set->p, raw_smp_processor_id()) ||
	    !kprof_filter_match(&w->set->p.f_entry, &v))
		return 1;
	*(u64 *)ri->data = ktime_get_mono_fast_ns();
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_entry);

/* Context: kretprobe return handler, preemption disabled. */
static int kprof_fset_return(struct kretprobe_instance *ri,
			     struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);
	u64 now = ktime_get_mono_fast_ns();
	u64 start = *(u64 *)ri->data;
	struct kprof_fkp *w;
	struct kprof_fset *s;

	if (unlikely(!rp))
		return 0;
	w = container_of(rp, struct kprof_fkp, rp);
	s = w->set;
	if (READ_ONCE(s->p.armed)) {
		unsigned int cpu = smp_processor_id();
		u64 ns = now > start ? now - start : 0;
		struct kprof_fvals v = {
			.task = current, .ret_regs = regs, .latency = ns,
		};

		if (!kprof_filter_match(&s->p.f_exit, &v))
			return 0;
		kprof_fset_latency(s, cpu, w->idx, ns);
		kprof_slow(&s->p, cpu, now, ns, current, true, w->idx,
			   get_kretprobe_retaddr(ri));
	}
	return 0;
}
NOKPROBE_SYMBOL(kprof_fset_return);

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

static void kprof_fn_skip(struct kprof_fn *fn, u16 reason, int err)
{
	fn->flags &= ~(KPROF_FUNC_PROBED | KPROF_FUNC_KRETPROBE);
	fn->reason = reason;
	fn->error = err;
}

#if KPROF_FAST
static bool kprof_fset_fast_refuses(const struct kprof_fn *fn)
{
	const char *why;

	return kprof_fast_refuses(fn->name, fn->addr, &why);
}

/* Before the ops has its filter: its callback and the set's hook */
static int kprof_fset_fast_init(struct kprof_fset *s)
{
	s->ops.func = s->p.f_entry.nr ? kprof_fset_fast_entry_kf :
		      kprof_fset_fast_entry;
	s->fh.exit = kprof_fset_fast_exit;
	return kprof_fast_hook_init(&s->fh, s->limit);
}

static void kprof_fset_fast_forget(struct kprof_fset *s)
{
	kprof_fast_forget(&s->fh);
}
#else
static bool kprof_fset_fast_refuses(const struct kprof_fn *fn)
{
	return false;
}

static int kprof_fset_fast_init(struct kprof_fset *s)
{
	return -EOPNOTSUPP;
}

static void kprof_fset_fast_forget(struct kprof_fset *s)
{
}
#endif

#if KPROF_SET_FTRACE
static void kprof_fset_ftrace_detach(struct kprof_fset *s);

/*
 * One filter for the whole set.  A function ftrace cannot hook would fail
 * the batch, so each is tried alone first on a scratch ops.  With a
 * fallback, what the set cannot follow is marked for a kretprobe
 * (kprof_fset_kprobes_attach()), not skipped.
 */
static int kprof_fset_ftrace_attach(struct kprof_fset *s)
{
	struct ftrace_ops *scratch;
	unsigned long *ips;
	u32 i, n = 0, nk = 0;
	u16 why;
	int ret;

	scratch = kzalloc(sizeof(*scratch), GFP_KERNEL);
	ips = kvmalloc_array(s->nr, sizeof(*ips), GFP_KERNEL);
	ret = scratch && ips ? 0 : -ENOMEM;
	for (i = 0; !ret && i < s->nr; i++) {
		struct kprof_fn *fn = &s->fns[i];

		if (fn->reason == KPROF_SKIP_INIT_DONE)
			continue;
		why = 0;
		if (ftrace_set_filter_ip(scratch, fn->addr, 0, 1))
			why = KPROF_SKIP_NOTRACE;
		else if (s->fast && kprof_fset_fast_refuses(fn))
			why = KPROF_SKIP_NORETURN;
		if (why) {
			kprof_fn_skip(fn, why, 0);
			if (s->fallback) {
				fn->flags |= KPROF_FUNC_KRETPROBE;
				nk++;
			}
			continue;
		}
		fn->flags |= KPROF_FUNC_PROBED;
		fn->reason = 0;
		ips[n++] = fn->addr;
	}
	if (scratch)
		ftrace_free_filter(scratch);
	kfree(scratch);
	if (!ret && !n && !nk)
		ret = -EADDRNOTAVAIL;
	/* no ops for no function: an empty filter would hook every one */
	if (!ret && n)
		ret = kprof_fnhash_build(&s->hash, s->fns, s->nr);
	if (!ret && n && s->fast)
		ret = kprof_fset_fast_init(s);
	if (!ret && n) {
		if (!s->fast)
			s->ops.func = s->p.kf ? kprof_fset_ftrace_kf :
				      kprof_fset_ftrace;
		s->ops_filtered = true;
		ret = ftrace_set_filter_ips(&s->ops, ips, n, 0, 1);
	}
	kvfree(ips);
	if (ret) {
		kprof_fset_ftrace_detach(s);
		return ret;
	}
	s->nr_probed = n;
	return 0;
}

static void kprof_fset_ftrace_detach(struct kprof_fset *s)
{
	if (s->ops_reg)
		unregister_ftrace_function(&s->ops);
	s->ops_reg = false;
	/* no entry pushes a call now: the calls in flight forget the set */
	if (s->fast && s->ops_filtered)
		kprof_fset_fast_forget(s);
	/*
	 * ftrace_free_filter() leaves the freed hashes in place: a zeroed
	 * ops is initialised afresh when the set attaches again.
	 */
	if (s->ops_filtered) {
		ftrace_free_filter(&s->ops);
		memset(&s->ops, 0, sizeof(s->ops));
	}
	s->ops_filtered = false;
	kprof_fnhash_free(&s->hash);
}

static int kprof_fset_ftrace_arm(struct kprof_fset *s)
{
	int ret;

	/* an ops without a filter would hook every function: nothing left */
	if (!s->ops_filtered)
		return 0;
	ret = register_ftrace_function(&s->ops);

	s->ops_reg = !ret;
	return ret;
}

static void kprof_fset_ftrace_disarm(struct kprof_fset *s)
{
	if (s->ops_reg)
		unregister_ftrace_function(&s->ops);
	s->ops_reg = false;
}

/* the ftrace part goes; a fallback's kretprobes stay */
static void kprof_fset_ftrace_unhook(struct kprof_fset *s)
{
	u32 i;

	kprof_fset_ftrace_detach(s);
	for (i = 0; i < s->nr; i++)
		if (!(s->fns[i].flags & KPROF_FUNC_KRETPROBE))
			s->fns[i].flags &= ~KPROF_FUNC_PROBED;
}

static int kprof_fset_ftrace_remove(struct kprof_fset *s, unsigned long *ips,
				    u32 n)
{
	return ftrace_set_filter_ips(&s->ops, ips, n, 1, 0);
}
#else
static int kprof_fset_ftrace_attach(struct kprof_fset *s)
{
	return -EOPNOTSUPP;
}

static void kprof_fset_ftrace_detach(struct kprof_fset *s)
{
}

static int kprof_fset_ftrace_arm(struct kprof_fset *s)
{
	return -EOPNOTSUPP;
}

static void kprof_fset_ftrace_disarm(struct kprof_fset *s)
{
}

static void kprof_fset_ftrace_unhook(struct kprof_fset *s)
{
}

static int kprof_fset_ftrace_remove(struct kprof_fset *s, unsigned long *ips,
				    u32 n)
{
	return -EOPNOTSUPP;
}
#endif

static void kprof_fset_kprobes_detach(struct kprof_fset *s);

/* functions whose flags, masked with @mask, are @want */
static u32 kprof_fset_count(const struct kprof_fset *s, u32 mask, u32 want)
{
	u32 i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += (s->fns[i].flags & mask) == want;
	return n;
}

/* the functions hooked now, through either mechanism */
static u32 kprof_fset_hooked(const struct kprof_fset *s)
{
	return kprof_fset_count(s, KPROF_FUNC_PROBED, KPROF_FUNC_PROBED);
}

/*
 * A kprobe or kretprobe per function, registered disarmed one by one so
 * that a refusal only skips its function; with @fallback, only for the
 * functions a fast set marked KPROF_FUNC_KRETPROBE.
 */
static int kprof_fset_kprobes_attach(struct kprof_fset *s, bool armed,
				     bool fallback)
{
	u32 i;
	int ret;

	s->kps = kvcalloc(s->nr, sizeof(*s->kps), GFP_KERNEL);
	if (!s->kps)
		return -ENOMEM;
	for (i = 0; i < s->nr; i++) {
		struct kprof_fkp *w = &s->kps[i];
		struct kprof_fn *fn = &s->fns[i];

		w->set = s;
		w->idx = i;
		if (fn->reason == KPROF_SKIP_INIT_DONE ||
		    (fallback && !(fn->flags & KPROF_FUNC_KRETPROBE)))
			continue;
		if (s->latency) {
			w->rp.kp.addr = (kprobe_opcode_t *)fn->addr;
			w->rp.kp.flags = armed ? 0 : KPROBE_FLAG_DISABLED;
			w->rp.entry_handler = kprof_fset_entry;
			w->rp.handler = kprof_fset_return;
			w->rp.data_size = sizeof(u64);
			w->rp.maxactive = s->p.maxactive;
			ret = register_kretprobe(&w->rp);
		} else {
			w->kp.addr = (kprobe_opcode_t *)fn->addr;
			w->kp.flags = armed ? 0 : KPROBE_FLAG_DISABLED;
			w->kp.pre_handler = kprof_fset_kprobe;
			ret = register_kprobe(&w->kp);
		}
		if (ret) {
			kprof_fn_skip(fn, ret == -ENOMEM ? KPROF_SKIP_NOMEM :
				      KPROF_SKIP_REFUSED, ret);
			continue;
		}
		w->reg = true;
		fn->flags |= KPROF_FUNC_PROBED;
		fn->reason = 0;
	}
	s->nr_probed = kprof_fset_hooked(s);
	if (!s->nr_probed) {
		kprof_fset_kprobes_detach(s);
		return -EADDRNOTAVAIL;
	}
	return 0;
}

/* Unregisters the hooked functions that @init selects, in one batch. */
static void kprof_fset_kprobes_unreg(struct kprof_fset *s, bool init_only)
{
	void **batch;
	u32 i, n = 0;

	if (!s->kps)
		return;
	batch = kvmalloc_array(s->nr, sizeof(*batch), GFP_KERNEL);
	for (i = 0; i < s->nr; i++) {
		struct kprof_fkp *w = &s->kps[i];

		if (!w->reg ||
		    (init_only && !(s->fns[i].flags & KPROF_FUNC_INIT)))
			continue;
		w->reg = false;
		if (!batch) {
			/* one at a time: a grace period each, but no memory */
			if (s->latency)
				unregister_kretprobe(&w->rp);
			else
				unregister_kprobe(&w->kp);
			continue;
		}
		batch[n++] = s->latency ? (void *)&w->rp : (void *)&w->kp;
	}
	if (n && s->latency)
		unregister_kretprobes((struct kretprobe **)batch, n);
	else if (n)
		unregister_kprobes((struct kprobe **)batch, n);
	kvfree(batch);
}

static void kprof_fset_kprobes_detach(struct kprof_fset *s)
{
	kprof_fset_kprobes_unreg(s, false);
	kvfree(s->kps);
	s->kps = NULL;
}

static struct kprobe *kprof_fkp_kprobe(struct kprof_fset *s, u32 i)
{
	return s->latency ? &s->kps[i].rp.kp : &s->kps[i].kp;
}

static int kprof_fset_kprobes_arm(struct kprof_fset *s)
{
	u32 i;
	int ret;

	for (i = 0; i < s->nr; i++) {
		if (!s->kps[i].reg)
			continue;
		ret = enable_kprobe(kprof_fkp_kprobe(s, i));
		if (ret)
			goto undo;
	}
	return 0;
undo:
	while (i--)
		if (s->kps[i].reg)
			disable_kprobe(kprof_fkp_kprobe(s, i));
	return ret;
}

static void kprof_fset_kprobes_disarm(struct kprof_fset *s)
{
	u32 i;

	for (i = 0; i < s->nr; i++)
		if (s->kps[i].reg)
			disable_kprobe(kprof_fkp_kprobe(s, i));
}

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
	s->mech = !s->latency && KPROF_SET_FTRACE && set_ftrace ?
		  KPROF_MECH_FTRACE : KPROF_MECH_KPROBES;
	/* latency through ftrace: fast.c's calls */
	if (s->latency && kprof_fast_wanted(p->flags)) {
		/* here only FAST asks for it */
		if (!KPROF_FAST)
			return -EOPNOTSUPP;
		s->fast = true;
		s->fallback = !(p->flags & KPROF_ADD_FAST);
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
