// SPDX-License-Identifier: GPL-2.0
/*
 * Hooking a set's functions (fset.c): one ftrace_ops for the set, with
 * fast.c's returns for latency, or a kprobe or kretprobe per function.
 * Process context, under the core's lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>

#include "fset-int.h"

void kprof_fn_skip(struct kprof_fn *fn, u16 reason, int err)
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
/*
 * One filter for the whole set.  A function ftrace cannot hook would fail
 * the batch, so each is tried alone first on a scratch ops.  With a
 * fallback, what the set cannot follow is marked for a kretprobe
 * (kprof_fset_kprobes_attach()), not skipped.
 */
int kprof_fset_ftrace_attach(struct kprof_fset *s)
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
		/* kprofctl's own code, as the kprobe core refuses it */
		if (within_module(fn->addr, THIS_MODULE) ||
		    ftrace_set_filter_ip(scratch, fn->addr, 0, 1))
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

void kprof_fset_ftrace_detach(struct kprof_fset *s)
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

int kprof_fset_ftrace_arm(struct kprof_fset *s)
{
	int ret;

	/* an ops without a filter would hook every function: nothing left */
	if (!s->ops_filtered)
		return 0;
	ret = register_ftrace_function(&s->ops);

	s->ops_reg = !ret;
	return ret;
}

void kprof_fset_ftrace_disarm(struct kprof_fset *s)
{
	if (s->ops_reg)
		unregister_ftrace_function(&s->ops);
	s->ops_reg = false;
}

/* the ftrace part goes; a fallback's kretprobes stay */
void kprof_fset_ftrace_unhook(struct kprof_fset *s)
{
	u32 i;

	kprof_fset_ftrace_detach(s);
	for (i = 0; i < s->nr; i++)
		if (!(s->fns[i].flags & KPROF_FUNC_KRETPROBE))
			s->fns[i].flags &= ~KPROF_FUNC_PROBED;
}

int kprof_fset_ftrace_remove(struct kprof_fset *s, unsigned long *ips,
			     u32 n)
{
	return ftrace_set_filter_ips(&s->ops, ips, n, 1, 0);
}
#else
int kprof_fset_ftrace_attach(struct kprof_fset *s)
{
	return -EOPNOTSUPP;
}

void kprof_fset_ftrace_detach(struct kprof_fset *s)
{
}

int kprof_fset_ftrace_arm(struct kprof_fset *s)
{
	return -EOPNOTSUPP;
}

void kprof_fset_ftrace_disarm(struct kprof_fset *s)
{
}

void kprof_fset_ftrace_unhook(struct kprof_fset *s)
{
}

int kprof_fset_ftrace_remove(struct kprof_fset *s, unsigned long *ips,
			     u32 n)
{
	return -EOPNOTSUPP;
}
#endif

/* functions whose flags, masked with @mask, are @want */
u32 kprof_fset_count(const struct kprof_fset *s, u32 mask, u32 want)
{
	u32 i, n = 0;

	for (i = 0; i < s->nr; i++)
		n += (s->fns[i].flags & mask) == want;
	return n;
}

/* the functions hooked now, through either mechanism */
u32 kprof_fset_hooked(const struct kprof_fset *s)
{
	return kprof_fset_count(s, KPROF_FUNC_PROBED, KPROF_FUNC_PROBED);
}

/*
 * A kprobe or kretprobe per function, registered disarmed one by one so
 * that a refusal only skips its function; with @fallback, only for the
 * functions a fast set marked KPROF_FUNC_KRETPROBE.
 */
int kprof_fset_kprobes_attach(struct kprof_fset *s, bool armed,
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
void kprof_fset_kprobes_unreg(struct kprof_fset *s, bool init_only)
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

void kprof_fset_kprobes_detach(struct kprof_fset *s)
{
	kprof_fset_kprobes_unreg(s, false);
	kvfree(s->kps);
	s->kps = NULL;
}

struct kprobe *kprof_fkp_kprobe(struct kprof_fset *s, u32 i)
{
	return s->latency ? &s->kps[i].rp.kp : &s->kps[i].kp;
}

int kprof_fset_kprobes_arm(struct kprof_fset *s)
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

void kprof_fset_kprobes_disarm(struct kprof_fset *s)
{
	u32 i;

	for (i = 0; i < s->nr; i++)
		if (s->kps[i].reg)
			disable_kprobe(kprof_fkp_kprobe(s, i));
}
