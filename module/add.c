// SPDX-License-Identifier: GPL-2.0
/*
 * Adding a probe: the checks of ADD, the backend of its kind, then a slot
 * of the table with its statistics, key and PMU blocks, published under
 * kprof.lock.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/security.h>
#include <linux/pid.h>
#include <linux/bitops.h>
#include <linux/rcupdate.h>

#include "core-int.h"
#include "backends.h"
#include "keys.h"
#include "pmu.h"
#include "filter.h"
#include "snap.h"

/* One row per kind this kernel can do; see backends.h. */

static const struct kprof_backend *const kprof_backends[] = {
#if KPROF_FUNC_KINDS
	&kprof_kprobe_backend,
	&kprof_kretprobe_backend,
#endif
#ifdef CONFIG_TRACEPOINTS
	&kprof_tracepoint_backend,
	&kprof_pair_backend,
#endif
	&kprof_pmu_backend,
#if KPROF_FUNC_KINDS
	&kprof_kprobe_set_backend,
	&kprof_kretprobe_set_backend,
#endif
	&kprof_sample_backend,
#ifdef CONFIG_TRACEPOINTS
	&kprof_offcpu_backend,
#endif
#if KPROF_MEM_KIND
	&kprof_mem_backend,
#endif
};

/* The backend of a spec's kind; NULL with *err if there is none. */
static const struct kprof_backend *kprof_backend(const struct kprof_kind *k,
						 int *err)
{
	size_t i;

	*err = -EINVAL;
	if (!k)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(kprof_backends); i++)
		if (!strcmp(kprof_backends[i]->prefix, k->prefix) &&
		    kprof_backends[i]->set == !!(k->flags & KPROF_KIND_SET))
			return kprof_backends[i];
	/* a known kind this kernel cannot do */
	*err = -EOPNOTSUPP;
	return NULL;
}

/* ---- PMU blocks ------------------------------------------------------- */

/*
 * Caller holds kprof.lock.  Takes a PMU block and creates the counters
 * (stopped); on failure nothing is left and *err_* may say where.
 */
static int kprof_pmu_get(struct kprof_probe *p, u32 *err_event,
			 u32 *err_cpu)
{
	struct kprof_pmu *pm = p->pmu;
	u8 *block;
	int slot, ret;

	slot = find_first_zero_bit(&kprof.pmu_used, kprof_max_pmus());
	if (slot >= kprof_max_pmus())
		return -ENOSPC;
	block = kprof_area_get(&kprof.pmu_region, slot);
	if (!block)
		return -ENOMEM;
	pm->map_desc = (struct kprof_pmu_event *)block;
	pm->counts = (struct kprof_pmu_count *)(block +
						kprof.hdr->pmu_counts_off);
	pm->stats = block + kprof.hdr->pmu_stats_off;
	ret = kprof_pmu_create(pm, (p->flags & KPROF_ADD_CPUS) ? p->cpus : NULL,
			       pm->pinned, err_event, err_cpu);
	if (ret) {
		kprof_area_put(&kprof.pmu_region, slot);
		return ret;
	}
	pm->slot = slot;
	__set_bit(slot, &kprof.pmu_used);
	kprof_pmu_publish(pm);
	return 0;
}

/* Caller holds kprof.lock; no handler can reach the counters any more. */
static void kprof_pmu_put(struct kprof_probe *p)
{
	struct kprof_pmu *pm = p->pmu;

	if (!pm)
		return;
	kprof_pmu_destroy(pm);
	if (pm->slot >= 0) {
		kprof_area_put(&kprof.pmu_region, pm->slot);
		__clear_bit(pm->slot, &kprof.pmu_used);
	}
	kfree(pm);
	p->pmu = NULL;
}

/* ---- key blocks ------------------------------------------------------ */

/*
 * Caller holds kprof.lock; p's kind is keyed (kprof_key records, as many
 * as pair_keys) or ADD gave keys (kprof_key2, @nr of them, at most).
 */
static int kprof_keys_get(struct kprof_probe *p, u32 nr, u32 rec_size)
{
	size_t map_size = PAGE_ALIGN(kprof_pair_keys() *
				     sizeof(struct kprof_key2));
	struct kprof_keys *keys = &p->keys;
	u8 *base;
	int slot;

	slot = find_first_zero_bit(&kprof.pair_used, kprof_max_pairs());
	if (slot >= kprof_max_pairs())
		return -ENOSPC;
	keys->tags = kvcalloc(nr, sizeof(*keys->tags), GFP_KERNEL);
	base = kprof_area_get(&kprof.pair_region, slot);
	if (!keys->tags || !base) {
		if (base)
			kprof_area_put(&kprof.pair_region, slot);
		kvfree(keys->tags);
		keys->tags = NULL;
		return -ENOMEM;
	}
	__set_bit(slot, &kprof.pair_used);
	keys->slot = slot;
	keys->map = (struct kprof_key *)base;
	keys->stats = base + map_size;
	keys->nr = nr;
	keys->rec_size = rec_size;
	return 0;
}

/* Caller holds kprof.lock; no handler of p runs any more. */
void kprof_keys_put(struct kprof_probe *p)
{
	struct kprof_keys *keys = &p->keys;

	if (keys->slot < 0)
		return;
	kprof_area_put(&kprof.pair_region, keys->slot);
	__clear_bit(keys->slot, &kprof.pair_used);
	kvfree(keys->tags);
	memset(keys, 0, sizeof(*keys));
	keys->slot = -1;
}

/* ---- commands --------------------------------------------------------- */

static int kprof_check_add(struct kprof_probe_add *arg)
{
	unsigned int bit;

	if (arg->flags & ~KPROF_ADD_FLAGS || arg->reserved0 ||
	    memchr_inv(arg->reserved, 0, sizeof(arg->reserved)) ||
	    arg->reserved2 || arg->err_event || arg->err_cpu)
		return -EINVAL;
	if (kprof_add_check_keys(arg))
		return -EINVAL;
	if ((arg->flags & (KPROF_ADD_STACK | KPROF_ADD_FTRACE)) &&
	    !arg->slow_ns)
		return -EINVAL;
	if ((arg->flags & KPROF_ADD_FAST) && (arg->flags & KPROF_ADD_KRETPROBE))
		return -EINVAL;
	/* return addresses must not reach whoever may join the group */
	if ((arg->flags & KPROF_ADD_STACK) && !kprof_restricted())
		return -EACCES;
	/* one task filter at most; a pid with it only */
	if (hweight32(arg->flags & KPROF_TASK_FILTERS) > 1)
		return -EINVAL;
	if (!(arg->flags & KPROF_TASK_FILTERS) && arg->pid)
		return -EINVAL;
	if (arg->maxactive > KPROF_MAX_MAXACTIVE)
		return -EINVAL;
	if (arg->flags & KPROF_ADD_CPUS) {
		bool any = false;

		for (bit = 0; bit < KPROF_CPUMASK_WORDS * 64; bit++) {
			if (!(arg->cpus[bit / 64] & BIT_ULL(bit % 64)))
				continue;
			if (bit >= nr_cpu_ids)
				return -EINVAL;
			any = true;
		}
		if (!any)
			return -EINVAL;
	} else if (memchr_inv(arg->cpus, 0, sizeof(arg->cpus))) {
		return -EINVAL;
	}
	if (!memchr(arg->spec, '\0', sizeof(arg->spec)) ||
	    !memchr(arg->pmu, '\0', sizeof(arg->pmu)))
		return -EINVAL;
	return 0;
}

/* The options of @arg that p's kind does not take: -EINVAL */
static int kprof_check_kind(struct kprof_probe *p, struct kprof_probe_add *arg)
{
	u32 acc = p->kind->accepts;

	if ((arg->slow_ns && !(acc & KPROF_ACCEPT_SLOW)) ||
	    (arg->maxactive && !(acc & KPROF_ACCEPT_MAXACTIVE)) ||
	    (*arg->pmu && !(acc & KPROF_ACCEPT_PMU)) ||
	    ((arg->flags & KPROF_ADD_DEFER) && !(acc & KPROF_ACCEPT_DEFER)) ||
	    ((arg->flags & (KPROF_ADD_FAST | KPROF_ADD_KRETPROBE)) &&
	     !(acc & KPROF_ACCEPT_MECH)) ||
	    (arg->objects && p->kind->type != KPROF_TYPE_MEM))
		return -EINVAL;
	return kprof_add_check_kind_keys(arg, p->kind->type);
}

/*
 * Lockdown as the kernel's own interfaces apply it: kprobes are
 * LOCKDOWN_KPROBES (confidentiality).  Tracepoints and counting PMU events
 * are not locked down: perf checks LOCKDOWN_PERF only for register
 * samples, which kprofctl never takes.
 */
static int kprof_lockdown(struct kprof_probe *p)
{
	if (p->kind->flags & KPROF_KIND_KPROBES)
		return security_locked_down(LOCKDOWN_KPROBES);
	return 0;
}

/*
 * KPROF_ADD_SESSION: a reference to the session's struct pid, as the
 * caller's pid namespace names it, which must lead a session now.
 */
static int kprof_session_get(struct kprof_probe *p)
{
	bool leads;

	if (!(p->flags & KPROF_ADD_SESSION))
		return 0;
	p->session = find_get_pid(p->pid);
	if (!p->session)
		return -ESRCH;
	rcu_read_lock();
	leads = pid_task(p->session, PIDTYPE_SID);
	rcu_read_unlock();
	return leads ? 0 : -ESRCH;
}

static bool kprof_has_key(const struct kprof_probe_add *a, unsigned int kind)
{
	return KPROF_KEYSPEC_KIND(a->key[0]) == kind ||
	       KPROF_KEYSPEC_KIND(a->key[1]) == kind;
}

/* Frees a probe no handler can reach; its backend's memory too. */
void kprof_free(struct kprof_probe *p)
{
	if (p->be->free)
		p->be->free(p);
	kprof_pmu_put(p);
	kprof_snap_put(p);
	kprof_frames_free(&p->callers);
	kprof_frames_free(&p->stacks);
	put_pid(p->session);
	kfree(p);
}

int kprof_probe_add(struct kprof_probe_add *arg)
{
	return kprof_probe_add_owned(arg, NULL);
}

/* @owner: the file whose release deletes a KPROF_ADD_OWNED probe */
int kprof_probe_add_owned(struct kprof_probe_add *arg, const void *owner)
{
	const struct kprof_kind *kind;
	const struct kprof_backend *be;
	struct kprof_probe *p;
	bool armed;
	u32 slot;
	int ret;

	ret = kprof_check_add(arg);
	if (ret)
		return ret;
	if (!(arg->flags & KPROF_ADD_OWNED) != !owner)
		return -EINVAL;
	kind = kprof_kind_of_spec(arg->spec);
	be = kprof_backend(kind, &ret);
	if (!be)
		return ret;

	p = kzalloc(be->size, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p->be = be;
	p->kind = kind;
	p->keys.slot = -1;
	p->flags = arg->flags;
	p->owner = owner;
	p->pid = arg->pid;
	p->slow_ns = arg->slow_ns;
	bitmap_from_arr64(p->cpus, arg->cpus, KPROF_CPUMASK_WORDS * 64);
	strscpy(p->spec, arg->spec, sizeof(p->spec));
	ret = be->parse(p, strchr(p->spec, ':') + 1, arg);
	if (!ret)
		ret = kprof_lockdown(p);
	if (!ret)
		ret = kprof_check_kind(p, arg);
	if (!ret)
		kprof_kf_setup(p, arg);
	/* caller and stack ids: one per key at most */
	if (!ret && kprof_has_key(arg, KPROF_KEY_CALLER))
		ret = kprof_frames_alloc(&p->callers,
					 arg->nr_keys ?: kprof_pair_keys(), 1);
	/* key rows are sized like a pair slot's */
	if (!ret && !p->own_keys && arg->nr_keys > kprof_pair_keys())
		ret = -EINVAL;
	if (!ret && !p->own_keys && kprof_has_key(arg, KPROF_KEY_STACK))
		ret = kprof_frames_alloc(&p->stacks,
					 arg->nr_keys ?: kprof_pair_keys(),
					 KPROF_STACK_DEPTH);
	if (!ret)
		ret = kprof_session_get(p);
	/* ftrace's buffers before the probe exists: a refusal leaves none */
	if (!ret)
		ret = kprof_snap_get(p, arg);
	if (!ret && be->alloc)
		ret = be->alloc(p);
	if (ret) {
		/* parse may have made p->pmu, alloc its own memory */
		kprof_free(p);
		return ret;
	}
	armed = arg->flags & KPROF_ADD_START;

	mutex_lock(&kprof.lock);
	for (slot = 0; slot < kprof_max_probes(); slot++)
		if (!kprof.slots[slot])
			break;
	if (slot == kprof_max_probes()) {
		ret = -ENOSPC;
		goto unlock;
	}
	p->slot = slot;
	p->stats = kprof_area_get(&kprof.stats_region, slot);
	if (!p->stats) {
		ret = -ENOMEM;
		goto unlock;
	}
	if (kind->flags & KPROF_KIND_KEYED)
		ret = kprof_keys_get(p, kprof_pair_keys(),
				     sizeof(struct kprof_key));
	else if (p->key[0] && !p->own_keys)
		ret = kprof_keys_get(p, arg->nr_keys ?: kprof_pair_keys(),
				     sizeof(struct kprof_key2));
	if (ret)
		goto put_stats;
	if (p->pmu) {
		ret = kprof_pmu_get(p, &arg->err_event, &arg->err_cpu);
		if (ret)
			goto put_keys;
	}
	/* the slot is unused, so no handler can be writing it */
	kprof_zero_probe(p);
	kprof_zero_pmu(p);
	/* counters run before the handlers that read them are armed */
	if (armed && p->pmu) {
		ret = kprof_pmu_enable(p->pmu, &arg->err_event, &arg->err_cpu);
		if (ret)
			goto put_pmu;
	}
	p->armed = armed;
	p->state = armed ? KPROF_STATE_RUNNING : KPROF_STATE_STOPPED;
	ret = be->attach(p, armed);
	if (ret)
		goto put_pmu;
	/*
	 * The totals' window opens once armed: attaching may sleep (ftrace's
	 * grace periods), and an idle CPU's cycles are not the capture's.
	 */
	if (armed && p->pmu)
		kprof_pmu_window_open(p->pmu);
	if (p->state == KPROF_STATE_PENDING) {
		p->want_run = armed;
		p->armed = false;
	}
	p->id = kprof.next_id++;
	if (!kprof.next_id)
		kprof.next_id = 1;
	arg->id = p->id;
	kprof.slots[slot] = p;
	kprof_nmissed_rebase(p);
	kprof_seq_begin();
	kprof_publish(p);
	kprof_seq_end(true);
	if (armed)
		kprof_nmissed_kick();
	p->rep_at = jiffies - HZ;
	kprof_tell(KPROF_GENL_EV_REGISTERED, p, 0, 0);
	mutex_unlock(&kprof.lock);
	return 0;

put_pmu:
	kprof_pmu_put(p);
put_keys:
	kprof_keys_put(p);
put_stats:
	kprof_area_put(&kprof.stats_region, slot);
unlock:
	mutex_unlock(&kprof.lock);
	kprof_free(p);
	return ret;
}

