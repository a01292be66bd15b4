// SPDX-License-Identifier: GPL-2.0
/*
 * The probe table, the mapping it is published in, and the lifecycle of
 * probe.h, for every kind alike: a kind's differences are its row in
 * kprof_kinds() and its backend's callbacks.  All of it runs in process
 * context under kprof.lock; probe context only ever touches a probe's
 * "armed", filters and its preallocated statistics.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/overflow.h>
#include <linux/workqueue.h>
#include <linux/uaccess.h>
#include <linux/log2.h>
#include <linux/tracepoint.h>
#include <linux/security.h>
#include <linux/pid.h>
#include <linux/bitops.h>
#include <linux/rcupdate.h>

#include "core.h"
#include "probe.h"
#include "backends.h"
#include "keys.h"
#include "pmu.h"
#include "area.h"
#include "size.h"
#include "filter.h"

#define KPROF_DEF_MAX_PROBES	64
#define KPROF_DEF_MAX_PAIRS	4
#define KPROF_DEF_PAIR_KEYS	64
#define KPROF_DEF_MAX_PMUS	4
#define KPROF_DEF_MAX_SETS	4
#define KPROF_DEF_MAX_SET_FUNCS	4096

static unsigned int max_probes = KPROF_DEF_MAX_PROBES;
module_param(max_probes, uint, 0444);
MODULE_PARM_DESC(max_probes,
		 "Probe slots, preallocated with their statistics (1-1024)");

static unsigned int max_pairs = KPROF_DEF_MAX_PAIRS;
module_param(max_pairs, uint, 0444);
MODULE_PARM_DESC(max_pairs,
		 "Pair probe slots (irq, softirq...), preallocated (0-64)");

static unsigned int pair_keys = KPROF_DEF_PAIR_KEYS;
module_param(pair_keys, uint, 0444);
MODULE_PARM_DESC(pair_keys,
		 "Keys per pair probe, a power of two (64-1024)");

static unsigned int max_pmus = KPROF_DEF_MAX_PMUS;
module_param(max_pmus, uint, 0444);
MODULE_PARM_DESC(max_pmus,
		 "Probes with PMU counters, preallocated (0-64)");

static unsigned int max_sets = KPROF_DEF_MAX_SETS;
module_param(max_sets, uint, 0444);
MODULE_PARM_DESC(max_sets,
		 "Function sets (kprobe:MOD:*) at once: statistics slots (0-64)");

static unsigned int max_set_funcs = KPROF_DEF_MAX_SET_FUNCS;
module_param(max_set_funcs, uint, 0444);
MODULE_PARM_DESC(max_set_funcs,
		 "Functions per set (16-65536); memory is taken per set as added");

#define KPROF_MAX_PROBES_LIMIT	1024
/* pair and PMU slots are taken from one unsigned long bitmap each */
#define KPROF_MAX_PAIRS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)
#define KPROF_MAX_PMUS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)
#define KPROF_MAX_SETS_LIMIT	(BITS_PER_LONG < 64 ? BITS_PER_LONG : 64)
#define KPROF_NMISSED_PERIOD	(HZ / 10)

static struct {
	struct mutex lock;	/* serialises every command and the table */
	struct kprof_probe **slots;
	u32 next_id;
	struct kprof_mmap_header *hdr;	/* the mapping's fixed part */
	/* slots of the mapping with memory only while a probe uses them */
	struct kprof_region stats_region, pair_region, pmu_region, set_region;
	struct kprof_probe_info *table;
	struct delayed_work nmissed_work;
	u64 *nmissed_base;	/* per slot: core's nmissed at add/RESET */
	struct notifier_block module_nb;
	unsigned long pair_used;	/* bitmap of key blocks */
	unsigned long pmu_used;		/* bitmap of PMU blocks */
	unsigned long set_used;		/* bitmap of set slots */
	const struct kprof_listener *listener;
} kprof;

/* One row per kind this kernel can do; see backends.h. */

static const struct kprof_backend *const kprof_backends[] = {
#ifdef CONFIG_KPROBES
	&kprof_kprobe_backend,
#endif
#ifdef CONFIG_KRETPROBES
	&kprof_kretprobe_backend,
#endif
#ifdef CONFIG_TRACEPOINTS
	&kprof_tracepoint_backend,
	&kprof_pair_backend,
#endif
	&kprof_pmu_backend,
#ifdef CONFIG_KRETPROBES
	&kprof_kprobe_set_backend,
	&kprof_kretprobe_set_backend,
#endif
	&kprof_sample_backend,
#ifdef CONFIG_TRACEPOINTS
	&kprof_offcpu_backend,
#endif
};

void kprof_core_listen(const struct kprof_listener *l)
{
	kprof.listener = l;
}

/* Can nobody without CAP_SYS_ADMIN see what probes send? */
static bool kprof_restricted(void)
{
	return kprof.listener && kprof.listener->restricted();
}

/* Context: process; the listener takes no lock the core holds. */
static void kprof_tell(u32 event, const struct kprof_probe *p, u64 dropped,
		       u64 nmissed)
{
	if (kprof.listener)
		kprof.listener->probe(event, p, dropped, nmissed);
}

u64 kprof_caps(void)
{
	u64 caps = 0;

	if (IS_ENABLED(CONFIG_KPROBES))
		caps |= KPROF_CAP_KPROBE;
	if (IS_ENABLED(CONFIG_KRETPROBES))
		caps |= KPROF_CAP_KRETPROBE;
	if (IS_ENABLED(CONFIG_TRACEPOINTS))
		caps |= KPROF_CAP_TRACEPOINT;
	if (IS_ENABLED(CONFIG_TRACEPOINTS) && max_pairs)
		caps |= KPROF_CAP_PAIR;
	if (max_pmus)
		caps |= KPROF_CAP_PMU;
	if (kprof_restricted())
		caps |= KPROF_CAP_EVENTS_RESTRICTED;
	return caps;
}

u32 kprof_max_pmus(void)
{
	return max_pmus;
}

u32 kprof_max_sets(void)
{
	return max_sets;
}

u32 kprof_max_set_funcs(void)
{
	return max_set_funcs;
}

u32 kprof_max_probes(void)
{
	return max_probes;
}

u32 kprof_max_pairs(void)
{
	return max_pairs;
}

u32 kprof_pair_keys(void)
{
	return pair_keys;
}

/* ---- lookup ----------------------------------------------------------- */

/* First probe at or after *slot that is id (any probe if id is 0). */
static struct kprof_probe *kprof_next(u32 *slot, u32 id)
{
	for (; *slot < max_probes; (*slot)++) {
		struct kprof_probe *p = kprof.slots[*slot];

		if (p && (!id || p->id == id))
			return p;
	}
	return NULL;
}

/* Each probe, or only the one with this id when id != 0; under kprof.lock. */
#define kprof_for_each_probe(p, i, id)					\
	for ((i) = 0; ((p) = kprof_next(&(i), (id))); (i)++)

static struct kprof_probe *kprof_find(u32 id)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, id)
		return p;
	return NULL;
}

/* Takes kprof.lock unless id names no probe (-ENOENT); 0 means all. */
static int kprof_lock_id(u32 id)
{
	mutex_lock(&kprof.lock);
	if (id && !kprof_find(id)) {
		mutex_unlock(&kprof.lock);
		return -ENOENT;
	}
	return 0;
}

/* 0 if probe id exists (or id is 0: all), else -ENOENT */
int kprof_probe_exists(u32 id)
{
	int ret = kprof_lock_id(id);

	if (!ret)
		mutex_unlock(&kprof.lock);
	return ret;
}

/* ---- mmap probe table, written under the header seqcount ------------- */

static void kprof_seq_begin(void)
{
	WRITE_ONCE(kprof.hdr->seq, kprof.hdr->seq + 1);
	smp_wmb();	/* odd seq visible before table writes; pairs with reader */
}

static void kprof_seq_end(bool bump_generation)
{
	smp_wmb();	/* table writes visible before even seq */
	if (bump_generation)
		WRITE_ONCE(kprof.hdr->generation, kprof.hdr->generation + 1);
	WRITE_ONCE(kprof.hdr->seq, kprof.hdr->seq + 1);
}

/* a probe with keys counts its calls in its keys' rows ("other" too) */
static u64 kprof_hits(struct kprof_probe *p)
{
	unsigned int cpu, k;
	u64 sum = 0;

	for_each_possible_cpu(cpu) {
		sum += READ_ONCE(kprof_this_stats(p, cpu)->count);
		for (k = 0; p->keys.nr && k <= p->keys.nr; k++)
			sum += READ_ONCE(kprof_key_stats(&p->keys, k,
							 cpu)->count);
	}
	return sum;
}

/*
 * The kprobe core's miss count is cumulative; report it from the last
 * add or RESET.  A re-registration restarts the core's count: then so
 * does the baseline.
 */
static u64 kprof_be_nmissed(struct kprof_probe *p)
{
	return p->be->nmissed ? p->be->nmissed(p) : 0;
}

static u64 kprof_nmissed(struct kprof_probe *p)
{
	u64 n = kprof_be_nmissed(p), *base = &kprof.nmissed_base[p->slot];

	if (n < *base)
		*base = 0;
	return n - *base;
}

static void kprof_nmissed_rebase(struct kprof_probe *p)
{
	kprof.nmissed_base[p->slot] = kprof_be_nmissed(p);
}

static void kprof_fill_info(struct kprof_probe *p, struct kprof_probe_info *i)
{
	memset(i, 0, sizeof(*i));
	i->id = p->id;
	i->slot = p->slot;
	i->type = p->kind->type;
	i->state = p->state;
	i->mech = p->be->mech;
	i->flags = p->flags & ~KPROF_ADD_START;
	i->pid = p->pid;
	i->maxactive = p->maxactive;
	i->reg_errno = p->reg_errno;
	i->nmissed = kprof_nmissed(p);
	bitmap_to_arr64(i->cpus, p->cpus, KPROF_CPUMASK_WORDS * 64);
	i->stats_off = kprof.stats_region.off +
		       (u64)p->slot * kprof.stats_region.stride;
	strscpy(i->spec, p->spec, sizeof(i->spec));
	if (p->keys.slot >= 0) {
		i->keys_off = kprof.pair_region.off +
			      (u64)p->keys.slot * kprof.pair_region.stride;
		i->key_stats_off = i->keys_off +
				   (p->keys.stats - (u8 *)p->keys.map);
		i->key_stride = (u64)nr_cpu_ids * KPROF_CPU_STRIDE;
		i->nr_keys = p->keys.nr;
		if (p->key[0])
			i->key_rec_size = p->keys.rec_size;
	}
	memcpy(i->key, p->key, sizeof(i->key));
	i->filter = p->filter;
	if (p->pmu)
		i->pmu_block = p->pmu->slot + 1;
	i->slow_ns = p->slow_ns;
	if (p->be->fill_info)
		p->be->fill_info(p, i);
}

/* Caller holds kprof.lock and is inside kprof_seq_begin/end. */
static void kprof_publish(struct kprof_probe *p)
{
	kprof_fill_info(p, &kprof.table[p->slot]);
}

static void kprof_refresh_nmissed(void)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, 0)
		WRITE_ONCE(kprof.table[i].nmissed, kprof_nmissed(p));
}

static bool kprof_any_running(void)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, 0)
		if (p->state == KPROF_STATE_RUNNING)
			return true;
	return false;
}

/* nmissed lives in kprobe core structs; mirror it for syscall-free reads */
static void kprof_nmissed_kick(void)
{
	mod_delayed_work(system_wq, &kprof.nmissed_work, KPROF_NMISSED_PERIOD);
}

static void kprof_nmissed_fn(struct work_struct *work)
{
	mutex_lock(&kprof.lock);
	kprof_refresh_nmissed();
	if (kprof_any_running())
		schedule_delayed_work(&kprof.nmissed_work,
				      KPROF_NMISSED_PERIOD);
	mutex_unlock(&kprof.lock);
	kprof_report_losses(false);
}

/* ---- statistics reset ------------------------------------------------- */

/* No handler of p is running. */
static void kprof_zero_probe(struct kprof_probe *p)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		kprof_zero_stats(kprof_this_stats(p, cpu));
	kprof_keys_zero(&p->keys);
	kprof_frames_zero(&p->callers);
	kprof_frames_zero(&p->stacks);
	if (p->be->clear)
		p->be->clear(p);
}

/* Zero per-call deltas; window totals start again from here. */
static void kprof_zero_pmu(struct kprof_probe *p)
{
	struct kprof_pmu *pm = p->pmu;
	unsigned int cpu, e;

	if (!pm)
		return;
	for (e = 0; e < KPROF_PMU_MAX_EVENTS; e++)
		for_each_possible_cpu(cpu)
			kprof_zero_stats(kprof_pmu_stats(pm, e, cpu));
	kprof_pmu_window_reset(pm);
	kprof_pmu_refresh(pm);
}

/*
 * Waits until no handler that saw a probe armed is still running: kprobe
 * handlers and tracepoint callbacks run with preemption disabled, and some
 * tracepoints (the _rcuidle ones) under SRCU, which the tracepoint helper
 * also waits for.
 */
static void kprof_sync(void)
{
#ifdef CONFIG_TRACEPOINTS
	tracepoint_synchronize_unregister();
#endif
	/*
	 * kprobe handlers: where tracepoints use SRCU-fast (7.x) the wait
	 * above no longer includes an RCU grace period.
	 */
#if !defined(CONFIG_TRACEPOINTS) || defined(KPROF_HAVE_TRACEPOINT_SRCU_FAST)
	synchronize_rcu();
#endif
}

/*
 * Handlers update a probe's statistics only after seeing "armed", with
 * preemption disabled.  Clearing it and waiting for a grace period (which
 * covers such sections, NMIs included) leaves no update half-done, so the
 * blocks can be zeroed from here; calls that complete meanwhile belong to
 * neither side of the reset and are not recorded.  The wait comes before
 * the mapping's write section: a reader spins while seq is odd, so only
 * the zeroing itself is inside it.  Caller holds kprof.lock.
 */
static void kprof_reset_stats(u32 id)
{
	struct kprof_probe *p;
	u32 i;

	kprof_for_each_probe(p, i, id) {
		p->armed_saved = p->armed;
		WRITE_ONCE(p->armed, false);
	}
	kprof_sync();
	/* counters are read before the section: that may sleep */
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_sample(p->pmu);
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id) {
		kprof_zero_probe(p);
		kprof_zero_pmu(p);
		kprof_nmissed_rebase(p);
		WRITE_ONCE(kprof.table[i].nmissed, 0);
	}
	kprof_seq_end(true);
	smp_wmb();	/* zeroes before re-arming */
	kprof_for_each_probe(p, i, id)
		WRITE_ONCE(p->armed, p->armed_saved);
}

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

	slot = find_first_zero_bit(&kprof.pmu_used, max_pmus);
	if (slot >= max_pmus)
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
	size_t map_size = PAGE_ALIGN(pair_keys * sizeof(struct kprof_key2));
	struct kprof_keys *keys = &p->keys;
	u8 *base;
	int slot;

	slot = find_first_zero_bit(&kprof.pair_used, max_pairs);
	if (slot >= max_pairs)
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
static void kprof_keys_put(struct kprof_probe *p)
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

/* ---- function-set slots ------------------------------------------------ */

int kprof_set_slot_get(size_t size, void **mem)
{
	int slot;

	lockdep_assert_held(&kprof.lock);
	slot = find_first_zero_bit(&kprof.set_used, max_sets);
	if (slot >= max_sets)
		return -ENOSPC;
	if (size > kprof.set_region.stride)
		return -E2BIG;
	*mem = kprof_area_get_size(&kprof.set_region, slot, size);
	if (!*mem)
		return -ENOMEM;
	__set_bit(slot, &kprof.set_used);
	return slot;
}

void kprof_set_slot_put(int slot)
{
	lockdep_assert_held(&kprof.lock);
	kprof_area_put(&kprof.set_region, slot);
	__clear_bit(slot, &kprof.set_used);
}

size_t kprof_set_slot_size(void)
{
	return kprof.set_region.stride;
}

u64 kprof_set_slot_off(int slot)
{
	return kprof.set_region.off + (u64)slot * kprof.set_region.stride;
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
	if ((arg->flags & KPROF_ADD_STACK) && !arg->slow_ns)
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
	     !(acc & KPROF_ACCEPT_MECH)))
		return -EINVAL;
	return kprof_add_check_kind_keys(arg, p->kind->type);
}

/* A GONE probe that attaches again when its module returns. */
static bool kprof_reattaches(struct kprof_probe *p)
{
	return p->be->module_event &&
	       ((p->kind->flags & KPROF_KIND_FOLLOWS_MOD) ||
		(p->flags & KPROF_ADD_DEFER));
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
static void kprof_free(struct kprof_probe *p)
{
	if (p->be->free)
		p->be->free(p);
	kprof_pmu_put(p);
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
		ret = kprof_frames_alloc(&p->callers, arg->nr_keys ?: pair_keys,
					 1);
	/* key rows are sized like a pair slot's */
	if (!ret && !p->own_keys && arg->nr_keys > pair_keys)
		ret = -EINVAL;
	if (!ret && !p->own_keys && kprof_has_key(arg, KPROF_KEY_STACK))
		ret = kprof_frames_alloc(&p->stacks, arg->nr_keys ?: pair_keys,
					 KPROF_STACK_DEPTH);
	if (!ret)
		ret = kprof_session_get(p);
	if (!ret && be->alloc)
		ret = be->alloc(p);
	if (ret) {
		/* parse may have made p->pmu, alloc its own memory */
		kprof_free(p);
		return ret;
	}
	armed = arg->flags & KPROF_ADD_START;

	mutex_lock(&kprof.lock);
	for (slot = 0; slot < max_probes; slot++)
		if (!kprof.slots[slot])
			break;
	if (slot == max_probes) {
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
		ret = kprof_keys_get(p, pair_keys, sizeof(struct kprof_key));
	else if (p->key[0] && !p->own_keys)
		ret = kprof_keys_get(p, arg->nr_keys ?: pair_keys,
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

/*
 * Caller holds kprof.lock; p's table row is already gone, so no reader
 * looks at its blocks any more.  Unregistering waits for handlers.
 */
static void kprof_remove(struct kprof_probe *p)
{
	p->be->detach(p);
	kprof_tell(KPROF_GENL_EV_UNREGISTERED, p, 0, 0);
	kprof_keys_put(p);
	kprof_area_put(&kprof.stats_region, p->slot);
	kprof.slots[p->slot] = NULL;
	kprof_free(p);
}

int kprof_probe_del(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	/* the rows go first, in a short section; the slots stay taken */
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id) {
		WRITE_ONCE(p->armed, false);
		memset(&kprof.table[i], 0, sizeof(kprof.table[i]));
	}
	kprof_seq_end(true);
	kprof_for_each_probe(p, i, id)
		kprof_remove(p);
	mutex_unlock(&kprof.lock);
	return 0;
}

/*
 * The id of a probe @owner added with KPROF_ADD_OWNED, 0: none left.  It
 * is disowned here, so a delete that fails cannot make the caller loop.
 */
static u32 kprof_owned_next(const void *owner)
{
	struct kprof_probe *p;
	u32 i, id = 0;

	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0)
		if (p->owner == owner) {
			p->owner = NULL;
			id = p->id;
			break;
		}
	mutex_unlock(&kprof.lock);
	return id;
}

/*
 * Context: the release of @owner, so it adds no more probes.  Each goes
 * through kprof_probe_del(), the path of DEL_PROBE; one deleted by
 * someone else meanwhile is simply not found again.
 */
void kprof_probe_del_owned(const void *owner)
{
	u32 id;

	while ((id = kprof_owned_next(owner)))
		kprof_probe_del(id);
}

static int kprof_start_one(struct kprof_probe *p)
{
	int ret;

	if (p->state == KPROF_STATE_PENDING ||
	    (p->state == KPROF_STATE_GONE && kprof_reattaches(p))) {
		p->want_run = true;	/* when it attaches */
		return 0;
	}
	if (p->state == KPROF_STATE_GONE)
		return -ENODEV;
	if (p->state == KPROF_STATE_RUNNING)
		return 0;
	if (p->pmu) {
		u32 e, cpu;

		ret = kprof_pmu_enable(p->pmu, &e, &cpu);
		if (ret) {
			p->reg_errno = -ret;
			pr_info("probe %u (%s): PMU event %s on CPU %u cannot be scheduled: its hardware counters are taken\n",
				p->id, p->spec, p->pmu->desc[e - 1].name, cpu);
			return ret;
		}
	}
	WRITE_ONCE(p->armed, true);
	ret = p->be->arm(p);
	if (ret) {
		WRITE_ONCE(p->armed, false);
		if (p->pmu)
			kprof_pmu_disable(p->pmu);
		p->reg_errno = -ret;
		return ret;
	}
	/* once armed: arming may sleep (as at ADD) */
	if (p->pmu)
		kprof_pmu_window_open(p->pmu);
	p->reg_errno = 0;
	p->state = KPROF_STATE_RUNNING;
	return 0;
}

static void kprof_stop_one(struct kprof_probe *p)
{
	p->want_run = false;
	if (p->state != KPROF_STATE_RUNNING)
		return;
	p->be->disarm(p);
	WRITE_ONCE(p->armed, false);
	p->state = KPROF_STATE_STOPPED;
}

int kprof_probe_start(u32 id)
{
	struct kprof_probe *p;
	int ret, err = 0;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	/* arming registers and may sleep: outside the write section */
	kprof_for_each_probe(p, i, id) {
		/* "start all" skips probes whose target is gone for good */
		if (!id && p->state == KPROF_STATE_GONE &&
		    !kprof_reattaches(p))
			continue;
		ret = kprof_start_one(p);
		if (ret && !err)
			err = ret;
	}
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		kprof_publish(p);
	kprof_seq_end(false);
	if (kprof_any_running())
		kprof_nmissed_kick();
	mutex_unlock(&kprof.lock);
	return err;
}

int kprof_probe_stop(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_for_each_probe(p, i, id) {
		bool on = p->pmu && p->pmu->open;

		/* the window ends before disarming, which may sleep */
		if (on)
			kprof_pmu_window_close(p->pmu);
		kprof_stop_one(p);
		/*
		 * The counters stop here, not after the wait below: a call
		 * still returning reads a stopped counter and is counted as
		 * lost, like any call that ends after STOP.
		 */
		if (on)
			kprof_pmu_disable(p->pmu);
	}
	/* see kprof_reset_stats(): no update is in flight after this */
	kprof_sync();
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_refresh(p->pmu);
	kprof_for_each_probe(p, i, 0)
		kprof_publish(p);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	kprof_report_losses(true);
	return 0;
}

int kprof_probe_reset(u32 id)
{
	int ret;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_reset_stats(id);
	mutex_unlock(&kprof.lock);
	return 0;
}

int kprof_probe_pmu_read(u32 id)
{
	struct kprof_probe *p;
	int ret;
	u32 i;

	ret = kprof_lock_id(id);
	if (ret)
		return ret;
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_sample(p->pmu);
	kprof_seq_begin();
	kprof_for_each_probe(p, i, id)
		if (p->pmu)
			kprof_pmu_refresh(p->pmu);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	return 0;
}

static u64 kprof_events_dropped(struct kprof_probe *p)
{
	unsigned int cpu;
	u64 sum = 0;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(kprof_this_stats(p, cpu)->events_dropped);
	return sum;
}

/*
 * Sends what each probe lost since its last report: slow calls that found
 * their ring full, and the kprobe core's misses.  At most once a second
 * per probe unless forced (STOP: the window's losses are all told).
 */
void kprof_report_losses(bool force)
{
	struct kprof_probe *p;
	u32 i;

	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0) {
		u64 dropped = kprof_events_dropped(p);
		u64 nmissed = kprof_nmissed(p);

		if (dropped == p->rep_dropped && nmissed == p->rep_nmissed)
			continue;
		if (!force && time_before(jiffies, p->rep_at + HZ))
			continue;
		/* a RESET zeroes the counters: report from there */
		if (dropped < p->rep_dropped)
			p->rep_dropped = 0;
		if (nmissed < p->rep_nmissed)
			p->rep_nmissed = 0;
		kprof_tell(KPROF_GENL_EV_LOSSES, p,
				 dropped - p->rep_dropped,
				 nmissed - p->rep_nmissed);
		p->rep_dropped = dropped;
		p->rep_nmissed = nmissed;
		p->rep_at = jiffies;
	}
	mutex_unlock(&kprof.lock);
}

int kprof_walk_infos(u32 *slot, u32 id, const char *spec,
			struct kprof_info_walk *w)
{
	struct kprof_probe_info *info;
	int ret = 0;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	mutex_lock(&kprof.lock);
	for (; *slot < max_probes; (*slot)++) {
		struct kprof_probe *p = kprof.slots[*slot];

		if (!p || (id && p->id != id) || (spec && strcmp(p->spec, spec)))
			continue;
		kprof_fill_info(p, info);
		info->hits = kprof_hits(p);
		ret = w->fn(w, info, kprof_events_dropped(p));
		if (ret)
			break;
	}
	mutex_unlock(&kprof.lock);
	kfree(info);
	return ret;
}

int kprof_probe_info(u32 id, struct kprof_probe_info *info)
{
	struct kprof_probe *p;
	int ret = 0;

	mutex_lock(&kprof.lock);
	p = kprof_find(id);
	if (p) {
		kprof_fill_info(p, info);
		info->hits = kprof_hits(p);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&kprof.lock);
	return ret;
}

/*
 * A probe's caller (or stack) ids' addresses, in a buffer of *nr x *depth
 * the caller kvfree()s: -ENOENT without the probe, -ENODATA without such
 * a key.
 */
int kprof_probe_key_frames(u32 id, bool stack, u64 **buf, u32 *nr,
			   u32 *depth)
{
	struct kprof_frames *f;
	struct kprof_probe *p;
	int ret = 0;

	mutex_lock(&kprof.lock);
	p = kprof_find(id);
	f = p ? (stack ? &p->stacks : &p->callers) : NULL;
	if (!p) {
		ret = -ENOENT;
	} else if (!f->nr) {
		ret = -ENODATA;
	} else {
		*nr = f->nr;
		*depth = f->depth;
		*buf = kvcalloc(array_size(*nr, *depth), sizeof(**buf),
				GFP_KERNEL);
		if (*buf)
			kprof_frames_read(f, *buf);
		else
			ret = -ENOMEM;
	}
	mutex_unlock(&kprof.lock);
	return ret;
}

/*
 * Record @i of a caller's array of @rec_size-byte records: as much of
 * @rec as fits, a larger record zero-filled past it.  Not under a lock:
 * a faulting (or userfaultfd-stalled) buffer holds up no other command.
 */
int kprof_put_rec(void __user *recs, u32 i, u32 rec_size, const void *rec,
		  size_t size)
{
	u8 __user *dst = (u8 __user *)recs + (size_t)i * rec_size;
	size_t copy = min_t(size_t, rec_size, size);

	if (copy_to_user(dst, rec, copy) ||
	    (rec_size > copy && clear_user(dst + copy, rec_size - copy)))
		return -EFAULT;
	return 0;
}

/* Records are gathered under the lock and copied out after it. */
int kprof_probe_list(struct kprof_probe_info __user *recs, u32 rec_size,
		     u32 *count)
{
	u32 room = min(*count, max_probes), n = 0, total = 0, i;
	struct kprof_probe_info *buf = NULL;
	int ret = 0;

	if (room) {
		buf = kvcalloc(room, sizeof(*buf), GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	mutex_lock(&kprof.lock);
	for (i = 0; i < max_probes; i++) {
		struct kprof_probe *p = kprof.slots[i];

		if (!p)
			continue;
		if (n < room) {
			kprof_fill_info(p, &buf[n]);
			buf[n].hits = kprof_hits(p);
			n++;
		}
		total++;
	}
	mutex_unlock(&kprof.lock);

	for (i = 0; i < n && !ret; i++)
		ret = kprof_put_rec(recs, i, rec_size, &buf[i], sizeof(buf[i]));
	kvfree(buf);
	*count = total;
	return ret;
}

/*
 * A module that defines tracepoints is coming (its tracepoints exist, its
 * init has not run) or going (still there until this returns).
 */
void kprof_module_event(struct module *mod, bool coming)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct kprof_probe *p;
	u32 i;

	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	/* attaching, detaching and arming sleep: before the write section */
	kprof_for_each_probe(p, i, 0) {
		if (!p->be->module_event ||
		    !p->be->module_event(p, mod, coming))
			continue;
		__set_bit(i, changed);
		/*
		 * Backends attach stopped; a probe that was running (or added
		 * to run) starts here, PMU counters first.
		 */
		if (coming && p->want_run && p->state == KPROF_STATE_STOPPED) {
			p->want_run = false;
			kprof_start_one(p);
		}
	}
	if (bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		mutex_unlock(&kprof.lock);
		return;
	}
	/* once for all the probes detached: the module's text goes next */
	if (!coming)
		kprof_sync();
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(true);
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_tell(coming ? KPROF_GENL_EV_REGISTERED :
				 KPROF_GENL_EV_GONE, kprof.slots[i], 0, 0);
	if (kprof_any_running())
		kprof_nmissed_kick();
	mutex_unlock(&kprof.lock);
}

/* A module's init is over: its __init text is freed next. */
static void kprof_module_live(struct module *mod)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct kprof_probe *p;
	u32 i;

	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	kprof_for_each_probe(p, i, 0)
		if (p->be->module_live && p->be->module_live(p, mod))
			__set_bit(i, changed);
	if (!bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		kprof_seq_begin();
		for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
			kprof_publish(kprof.slots[i]);
		kprof_seq_end(false);
	}
	mutex_unlock(&kprof.lock);
}

/* ---- target modules going away --------------------------------------- */

static int kprof_module_cb(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	DECLARE_BITMAP(changed, KPROF_MAX_PROBES_LIMIT);
	struct module *mod = data;
	struct kprof_probe *p;
	u32 i;

	/* before the module's init runs: deferred kprobes register */
	if (action == MODULE_STATE_COMING) {
		kprof_module_event(mod, true);
		return NOTIFY_DONE;
	}
	if (action == MODULE_STATE_LIVE) {
		kprof_module_live(mod);
		return NOTIFY_DONE;
	}
	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	bitmap_zero(changed, KPROF_MAX_PROBES_LIMIT);
	mutex_lock(&kprof.lock);
	/* disarm first (stopping counters may sleep), then publish */
	kprof_for_each_probe(p, i, 0) {
		if (p->state == KPROF_STATE_GONE || !p->be->in_module ||
		    !p->be->in_module(p, mod))
			continue;
		__set_bit(i, changed);
		WRITE_ONCE(p->armed, false);
		p->want_run = p->state == KPROF_STATE_RUNNING;
		if (p->pmu && p->pmu->open) {
			kprof_pmu_window_close(p->pmu);
			kprof_pmu_disable(p->pmu);
		}
		p->state = KPROF_STATE_GONE;
	}
	if (bitmap_empty(changed, KPROF_MAX_PROBES_LIMIT)) {
		mutex_unlock(&kprof.lock);
		return NOTIFY_DONE;
	}
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(true);
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT) {
		p = kprof.slots[i];
		pr_info("probe %u (%s): target module %s unloaded\n",
			p->id, p->spec, mod->name);
		kprof_tell(KPROF_GENL_EV_GONE, p, 0, 0);
	}
	/* unhooking sleeps: after the write section, before the text goes */
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT) {
		p = kprof.slots[i];
		if (p->be->going)
			p->be->going(p);
	}
	kprof_seq_begin();
	for_each_set_bit(i, changed, KPROF_MAX_PROBES_LIMIT)
		kprof_publish(kprof.slots[i]);
	kprof_seq_end(false);
	mutex_unlock(&kprof.lock);
	return NOTIFY_DONE;
}

/* ---- init/exit -------------------------------------------------------- */

static const struct kprof_size kprof_sizes[] = {
	{ "max_probes", "max-probes", &max_probes, KPROF_DEF_MAX_PROBES,
	  1, KPROF_MAX_PROBES_LIMIT, false },
	{ "max_pairs", "max-pairs", &max_pairs, KPROF_DEF_MAX_PAIRS,
	  0, KPROF_MAX_PAIRS_LIMIT, false },
	{ "pair_keys", "pair-keys", &pair_keys, KPROF_DEF_PAIR_KEYS,
	  64, 1024, true },
	{ "max_pmus", "max-pmus", &max_pmus, KPROF_DEF_MAX_PMUS,
	  0, KPROF_MAX_PMUS_LIMIT, false },
	{ "max_sets", "max-sets", &max_sets, KPROF_DEF_MAX_SETS,
	  0, KPROF_MAX_SETS_LIMIT, false },
	{ "max_set_funcs", "max-set-funcs", &max_set_funcs,
	  KPROF_DEF_MAX_SET_FUNCS, 16, 65536, false },
};

/*
 * The mapping: header page and probe table, allocated now, then the probe,
 * pair and PMU slot regions, backed only while a probe uses a slot.
 */
static int kprof_layout(void)
{
	size_t table, stats, total, pairs, pair_stride, pmus, pmu_stride;
	size_t pmu_counts, pmu_stats, fixed, sets, set_stride;
	u64 cpus_stride, probe_stride;
	void *base;
	unsigned int i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kprof_sizes); i++) {
		ret = kprof_size_apply(&kprof_sizes[i]);
		if (ret)
			return ret;
	}
	/* one block per CPU: a key's or a PMU event's statistics */
	cpus_stride = (u64)nr_cpu_ids * KPROF_CPU_STRIDE;
	probe_stride = PAGE_ALIGN(cpus_stride);
	/* a PMU block: events, window totals, then per-call statistics */
	pmu_counts = ALIGN(KPROF_PMU_MAX_EVENTS *
			   sizeof(struct kprof_pmu_event), 64);
	pmu_stats = PAGE_ALIGN(pmu_counts + (size_t)KPROF_PMU_MAX_EVENTS *
			       nr_cpu_ids * sizeof(struct kprof_pmu_count));
	pmu_stride = pmu_stats + PAGE_ALIGN(KPROF_PMU_MAX_EVENTS *
					    (size_t)cpus_stride);
	table = PAGE_ALIGN(array_size(max_probes,
				      sizeof(struct kprof_probe_info)));
	fixed = PAGE_SIZE + table;
	/*
	 * A pair slot (or a key table of a probe with ADD's keys): its keys,
	 * then nr_keys + 1 ("other") x nr_cpus stats
	 */
	pair_stride = PAGE_ALIGN(pair_keys * sizeof(struct kprof_key2)) +
		      PAGE_ALIGN((size_t)(pair_keys + 1) * cpus_stride);
	/* a set slot: its functions, then a row per CPU (fset.c) */
	set_stride = PAGE_ALIGN(max_set_funcs * sizeof(struct kprof_func)) +
		     PAGE_ALIGN(nr_cpu_ids *
				ALIGN((size_t)max_set_funcs *
				      sizeof(struct kprof_func_hist),
				      SMP_CACHE_BYTES));
	if (check_mul_overflow((size_t)max_probes, (size_t)probe_stride,
			       &stats) ||
	    check_mul_overflow((size_t)max_sets, set_stride, &sets) ||
	    check_mul_overflow((size_t)max_pairs, pair_stride, &pairs) ||
	    check_add_overflow(fixed, stats, &total) ||
	    check_add_overflow(total, pairs, &total) ||
	    check_mul_overflow((size_t)max_pmus, pmu_stride, &pmus) ||
	    check_add_overflow(total, pmus, &total) ||
	    check_add_overflow(total, sets, &total))
		return -EOVERFLOW;

	base = kprof_area_init(fixed, total);
	if (IS_ERR(base))
		return PTR_ERR(base);
	kprof.hdr = base;
	kprof.table = base + PAGE_SIZE;

	BUILD_BUG_ON(sizeof(struct kprof_mmap_header) > PAGE_SIZE);
	*kprof.hdr = (struct kprof_mmap_header) {
		.magic = KPROF_MMAP_MAGIC,
		.abi_major = KPROF_ABI_MAJOR,
		.abi_minor = KPROF_ABI_MINOR,
		.header_size = sizeof(struct kprof_mmap_header),
		.nr_cpus = nr_cpu_ids,
		.max_probes = max_probes,
		.probe_rec_size = sizeof(struct kprof_probe_info),
		.probes_off = PAGE_SIZE,
		.stats_off = fixed,
		.probe_stride = probe_stride,
		.cpu_stride = KPROF_CPU_STRIDE,
		.hist_sub_bits = KPROF_HIST_SUB_BITS,
		.hist_max_exp = KPROF_HIST_MAX_EXP,
		.hist_nr_buckets = KPROF_HIST_NR_BUCKETS,
		.mmap_size = total,
		.pairs_off = fixed + stats,
		.pair_stride = pair_stride,
		.max_pairs = max_pairs,
		.pair_keys = pair_keys,
		.pmus_off = fixed + stats + pairs,
		.pmu_stride = pmu_stride,
		.max_pmus = max_pmus,
		.pmu_max_events = KPROF_PMU_MAX_EVENTS,
		.pmu_counts_off = pmu_counts,
		.pmu_stats_off = pmu_stats,
		.sets_off = fixed + stats + pairs + pmus,
		.set_stride = set_stride,
		.max_sets = max_sets,
		.max_set_funcs = max_set_funcs,
	};
	ret = kprof_area_region(&kprof.stats_region, fixed, probe_stride,
				max_probes);
	if (!ret)
		ret = kprof_area_region(&kprof.pair_region, fixed + stats,
					pair_stride, max_pairs);
	if (!ret)
		ret = kprof_area_region(&kprof.pmu_region,
					fixed + stats + pairs, pmu_stride,
					max_pmus);
	if (!ret)
		ret = kprof_area_region(&kprof.set_region,
					fixed + stats + pairs + pmus,
					set_stride, max_sets);
	if (ret)
		kprof_area_exit();
	return ret;
}

/* After events and netlink (probes use them), before any probe. */
int kprof_core_init(void)
{
	int ret;

	mutex_init(&kprof.lock);
	kprof.next_id = 1;
	INIT_DELAYED_WORK(&kprof.nmissed_work, kprof_nmissed_fn);
	ret = kprof_layout();
	if (ret)
		return ret;
	kprof.slots = kcalloc(max_probes, sizeof(*kprof.slots), GFP_KERNEL);
	kprof.nmissed_base = kcalloc(max_probes, sizeof(*kprof.nmissed_base),
				     GFP_KERNEL);
	if (!kprof.slots || !kprof.nmissed_base) {
		ret = -ENOMEM;
		goto free_slots;
	}
	kprof.module_nb.notifier_call = kprof_module_cb;
	ret = register_module_notifier(&kprof.module_nb);
	if (ret)
		goto free_slots;
	return 0;

free_slots:
	kfree(kprof.nmissed_base);
	kfree(kprof.slots);
	kprof_area_exit();
	return ret;
}

/*
 * Every probe is gone (kprof_probe_del(0)) and no file is open, so no
 * mapping of the area remains.
 */
void kprof_core_exit(void)
{
	unregister_module_notifier(&kprof.module_nb);
	cancel_delayed_work_sync(&kprof.nmissed_work);
	kfree(kprof.nmissed_base);
	kfree(kprof.slots);
	kprof_area_exit();
}
