// SPDX-License-Identifier: GPL-2.0
/*
 * PMU counters through the perf kernel API: one counting event per CPU and
 * event, created with perf_event_create_kernel_counter() and pinned to its
 * CPU, so perf routes it to the PMU that owns that CPU (one per cluster on
 * big.LITTLE mainline kernels, one for all on Rockchip's BSP).  The module
 * never touches a PMU register itself.
 *
 * A "pmu:EVENTS" probe only keeps window totals; a kretprobe with PMU
 * events also reads its CPU's counters on entry and return and records the
 * deltas per call.  Those counters are pinned: a counter that perf rotated
 * out in the middle of a call would give a short delta, not an error.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/kprobes.h>

#include "pmu.h"
#include "kprofctl/pmu_events.h"

/* Resolve "cycles", "l1d_cache", "0x11" into a perf attr and a name. */
static int kprof_pmu_parse_one(const char *s, struct perf_event_attr *attr,
			       struct kprof_pmu_event *desc)
{
	const struct kprof_pmu_def *def = NULL;
	unsigned int i, raw;

	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	if (!strncmp(s, "0x", 2)) {
		if (kstrtouint(s + 2, 16, &raw) || raw > KPROF_PMU_RAW_MAX)
			return -EINVAL;
		attr->type = PERF_TYPE_RAW;
		attr->config = raw;
		desc->flags = KPROF_PMU_EV_RAW;
		snprintf(desc->name, sizeof(desc->name), "0x%x", raw);
	} else {
		for (i = 0; i < ARRAY_SIZE(kprof_pmu_defs) && !def; i++)
			if (!strcmp(s, kprof_pmu_defs[i].name) ||
			    (kprof_pmu_defs[i].alias &&
			     !strcmp(s, kprof_pmu_defs[i].alias)))
				def = &kprof_pmu_defs[i];
		if (!def)
			return -EINVAL;
#ifdef CONFIG_ARM64
		attr->type = PERF_TYPE_RAW;
		attr->config = def->arm;
#else
		attr->type = def->x86_type;
		attr->config = def->x86_config;
#endif
		strscpy(desc->name, def->name, sizeof(desc->name));
	}
	desc->type = attr->type;
	desc->config = attr->config;
	return 0;
}

/*
 * Parses "EVENT[,EVENT...]" into pm; no side effects beyond pm.  On a bad
 * name *bad is its 1-based index.
 */
int kprof_pmu_attr(const char *name, struct perf_event_attr *attr)
{
	struct kprof_pmu_event desc;

	return kprof_pmu_parse_one(name, attr, &desc);
}

int kprof_pmu_parse(struct kprof_pmu *pm, const char *list, u32 *bad)
{
	char buf[KPROF_PMU_SPEC_LEN], *s = buf, *tok;
	int ret;

	if (strscpy(buf, list, sizeof(buf)) < 0)
		return -EINVAL;
	pm->nr = 0;
	while ((tok = strsep(&s, ","))) {
		if (pm->nr == KPROF_PMU_MAX_EVENTS) {
			*bad = pm->nr + 1;
			return -E2BIG;
		}
		ret = kprof_pmu_parse_one(tok, &pm->attr[pm->nr],
					  &pm->desc[pm->nr]);
		if (ret) {
			*bad = pm->nr + 1;
			return ret;
		}
		pm->nr++;
	}
	return 0;
}

struct kprof_pmu *kprof_pmu_new(const char *list, u32 *bad)
{
	struct kprof_pmu *pm;
	int ret;

	pm = kzalloc(sizeof(*pm), GFP_KERNEL);
	if (!pm)
		return ERR_PTR(-ENOMEM);
	pm->slot = -1;
	ret = kprof_pmu_parse(pm, list, bad);
	if (ret) {
		kfree(pm);
		return ERR_PTR(ret);
	}
	return pm;
}

static struct perf_event **kprof_pmu_ev(struct kprof_pmu *pm,
					unsigned int cpu, unsigned int e)
{
	return &pm->ev[cpu * KPROF_PMU_MAX_EVENTS + e];
}

static struct kprof_pmu_count *kprof_pmu_cnt(struct kprof_pmu *pm,
					     unsigned int e, unsigned int cpu)
{
	return &pm->counts[e * nr_cpu_ids + cpu];
}

void kprof_pmu_destroy(struct kprof_pmu *pm)
{
	unsigned int cpu, e;

	for_each_possible_cpu(cpu)
		for (e = 0; pm->ev && e < pm->nr; e++) {
			struct perf_event **ev = kprof_pmu_ev(pm, cpu, e);

			if (*ev)
				perf_event_release_kernel(*ev);
			*ev = NULL;
		}
	kvfree(pm->ev);
	kvfree(pm->base);
	kvfree(pm->acc);
	kvfree(pm->tmp);
	kvfree(pm->ok);
	pm->ev = NULL;
	pm->base = NULL;
	pm->acc = NULL;
	pm->tmp = NULL;
	pm->ok = NULL;
}

/*
 * Creates the counters, disabled, on the online CPUs in mask (NULL: all).
 * On failure *err_event and *err_cpu say where, and nothing is left.
 */
int kprof_pmu_create(struct kprof_pmu *pm, const unsigned long *mask,
		     bool pinned, u32 *err_event, u32 *err_cpu)
{
	unsigned int cpu, e;

	pm->ev = kvcalloc((size_t)nr_cpu_ids * KPROF_PMU_MAX_EVENTS,
			  sizeof(*pm->ev), GFP_KERNEL);
	pm->base = kvcalloc((size_t)nr_cpu_ids * KPROF_PMU_MAX_EVENTS,
			    sizeof(*pm->base), GFP_KERNEL);
	pm->acc = kvcalloc((size_t)nr_cpu_ids * KPROF_PMU_MAX_EVENTS,
			   sizeof(*pm->acc), GFP_KERNEL);
	pm->tmp = kvcalloc((size_t)nr_cpu_ids * KPROF_PMU_MAX_EVENTS,
			   sizeof(*pm->tmp), GFP_KERNEL);
	pm->ok = kvcalloc(nr_cpu_ids, sizeof(*pm->ok), GFP_KERNEL);
	if (!pm->ev || !pm->base || !pm->acc || !pm->tmp || !pm->ok) {
		kprof_pmu_destroy(pm);
		return -ENOMEM;
	}
	pm->pinned = pinned;
	for (e = 0; e < pm->nr; e++) {
		pm->attr[e].disabled = 1;
		pm->attr[e].pinned = pinned;
		pm->attr[e].read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	for_each_online_cpu(cpu) {
		if (mask && (cpu >= KPROF_CPUMASK_WORDS * 64 ||
			     !test_bit(cpu, mask)))
			continue;
		for (e = 0; e < pm->nr; e++) {
			struct perf_event *ev;

			ev = perf_event_create_kernel_counter(&pm->attr[e], cpu,
							      NULL, NULL, NULL);
			/* went offline meanwhile: no counter there */
			if (PTR_ERR_OR_ZERO(ev) == -ENODEV)
				break;
			if (IS_ERR(ev)) {
				*err_event = e + 1;
				*err_cpu = cpu;
				kprof_pmu_destroy(pm);
				return PTR_ERR(ev);
			}
			*kprof_pmu_ev(pm, cpu, e) = ev;
		}
	}
	return 0;
}

/* Publishes the event list and which PMU serves each CPU. */
void kprof_pmu_publish(struct kprof_pmu *pm)
{
	unsigned int cpu, e;

	memset(pm->map_desc, 0,
	       KPROF_PMU_MAX_EVENTS * sizeof(struct kprof_pmu_event));
	memcpy(pm->map_desc, pm->desc, pm->nr * sizeof(*pm->desc));
	for (e = 0; e < pm->nr; e++)
		for_each_possible_cpu(cpu) {
			struct perf_event *ev = *kprof_pmu_ev(pm, cpu, e);
			struct kprof_pmu_count *c = kprof_pmu_cnt(pm, e, cpu);

			memset(c, 0, sizeof(*c));
			if (!ev)
				continue;
			c->flags = KPROF_PMU_CNT_OPEN;
			c->pmu_type = ev->pmu->type;
			strscpy(c->pmu, ev->pmu->name ?: "", sizeof(c->pmu));
		}
}

/*
 * Enables every counter.  A pinned counter that finds no free hardware
 * counter goes to the error state at once: -EBUSY, with where.
 */
int kprof_pmu_enable(struct kprof_pmu *pm, u32 *err_event, u32 *err_cpu)
{
	unsigned int cpu, e;

	for_each_possible_cpu(cpu)
		for (e = 0; e < pm->nr; e++) {
			struct perf_event *ev = *kprof_pmu_ev(pm, cpu, e);

			if (!ev)
				continue;
			perf_event_enable(ev);
			if (pm->pinned &&
			    READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR) {
				*err_event = e + 1;
				*err_cpu = cpu;
				kprof_pmu_disable(pm);
				return -EBUSY;
			}
		}
	return 0;
}

void kprof_pmu_disable(struct kprof_pmu *pm)
{
	unsigned int cpu, e;

	for_each_possible_cpu(cpu)
		for (e = 0; e < pm->nr; e++) {
			struct perf_event *ev = *kprof_pmu_ev(pm, cpu, e);

			if (ev)
				perf_event_disable(ev);
		}
}

/* Context: any probe context; see kprof_pmu_read() in pmu.h. */
noinline notrace u32 kprof_pmu_read_all(struct kprof_pmu *pm, unsigned int cpu,
					u64 *v)
{
	struct perf_event **ev = &pm->ev[cpu * KPROF_PMU_MAX_EVENTS];
	unsigned long flags;
	u32 ok = 0, e;

	local_irq_save(flags);
	for (e = 0; e < pm->nr; e++)
		if (kprof_pmu_read(ev[e], cpu, &v[e]))
			ok |= BIT(e);
	local_irq_restore(flags);
	return ok;
}
NOKPROBE_SYMBOL(kprof_pmu_read_all);

/* ---- window totals, process context --------------------------------- */

struct kprof_pmu_now {
	struct kprof_pmu *pm;
	struct kprof_pmu_base *out;	/* [cpu * MAX_EVENTS + e] */
	u32 *ok;			/* [cpu]: bit e read on the CPU */
};

/* IPI on one CPU: its counters read back to back, like a probe would. */
static void kprof_pmu_now_cpu(void *arg)
{
	struct kprof_pmu_now *n = arg;
	unsigned int cpu = smp_processor_id(), e;
	u64 v[KPROF_PMU_MAX_EVENTS];

	n->ok[cpu] = kprof_pmu_read_all(n->pm, cpu, v);
	for (e = 0; e < n->pm->nr; e++)
		n->out[cpu * KPROF_PMU_MAX_EVENTS + e].value = v[e];
}

/*
 * Every counter's value and times now.  A CPU's active counters are read
 * together on that CPU, so two events' windows differ only by the
 * instructions between their reads, the same at both ends: under QEMU's
 * icount cycles and instructions then agree exactly.  Counters not active
 * (multiplexed out, stopped) are read through perf.
 */
static void kprof_pmu_now(struct kprof_pmu *pm, struct kprof_pmu_base *out)
{
	struct kprof_pmu_now n = { .pm = pm, .out = out, .ok = pm->ok };
	unsigned int cpu, e;

	memset(pm->ok, 0, nr_cpu_ids * sizeof(*pm->ok));
	for_each_online_cpu(cpu)
		if (*kprof_pmu_ev(pm, cpu, 0))
			smp_call_function_single(cpu, kprof_pmu_now_cpu, &n, 1);
	for_each_possible_cpu(cpu)
		for (e = 0; e < pm->nr; e++) {
			struct perf_event *ev = *kprof_pmu_ev(pm, cpu, e);
			struct kprof_pmu_base *b =
				&out[cpu * KPROF_PMU_MAX_EVENTS + e];
			u64 value;

			if (!ev)
				continue;
			value = perf_event_read_value(ev, &b->enabled,
						      &b->running);
			if (!(pm->ok[cpu] & BIT(e)))
				b->value = value;
		}
}

/* A capture window opens: counters enabled, the base read after that. */
void kprof_pmu_window_open(struct kprof_pmu *pm)
{
	kprof_pmu_now(pm, pm->base);
	pm->open = true;
}

/* ... and closes, read before the counters are disabled. */
void kprof_pmu_window_close(struct kprof_pmu *pm)
{
	unsigned int i;

	if (!pm->open)
		return;
	kprof_pmu_now(pm, pm->tmp);
	for (i = 0; i < nr_cpu_ids * KPROF_PMU_MAX_EVENTS; i++) {
		pm->acc[i].value += pm->tmp[i].value - pm->base[i].value;
		pm->acc[i].enabled += pm->tmp[i].enabled - pm->base[i].enabled;
		pm->acc[i].running += pm->tmp[i].running - pm->base[i].running;
	}
	pm->open = false;
}

/*
 * Reads the open window's counters for kprof_pmu_window_reset() and
 * kprof_pmu_refresh().  Context: process, may sleep (IPIs, perf's
 * child_mutex): before the mapping's write section, never inside it.
 */
void kprof_pmu_sample(struct kprof_pmu *pm)
{
	if (pm->open)
		kprof_pmu_now(pm, pm->tmp);
}

/* RESET: totals start again from the last kprof_pmu_sample(). */
void kprof_pmu_window_reset(struct kprof_pmu *pm)
{
	memset(pm->acc, 0, nr_cpu_ids * KPROF_PMU_MAX_EVENTS *
	       sizeof(*pm->acc));
	if (pm->open)
		memcpy(pm->base, pm->tmp, nr_cpu_ids * KPROF_PMU_MAX_EVENTS *
		       sizeof(*pm->base));
}

/*
 * Publishes the totals of closed windows plus the open one up to the last
 * kprof_pmu_sample().  Never sleeps: the caller is inside the mapping's
 * seqcount write section.
 */
void kprof_pmu_refresh(struct kprof_pmu *pm)
{
	unsigned int cpu, e;

	for_each_possible_cpu(cpu)
		for (e = 0; e < pm->nr; e++) {
			unsigned int i = cpu * KPROF_PMU_MAX_EVENTS + e;
			struct perf_event *ev = *kprof_pmu_ev(pm, cpu, e);
			struct kprof_pmu_count *c = kprof_pmu_cnt(pm, e, cpu);
			struct kprof_pmu_base t = pm->acc[i];

			if (!ev)
				continue;
			if (pm->open) {
				t.value += pm->tmp[i].value - pm->base[i].value;
				t.enabled += pm->tmp[i].enabled -
					     pm->base[i].enabled;
				t.running += pm->tmp[i].running -
					     pm->base[i].running;
			}
			WRITE_ONCE(c->value, t.value);
			WRITE_ONCE(c->enabled, t.enabled);
			WRITE_ONCE(c->running, t.running);
			if (READ_ONCE(ev->state) == PERF_EVENT_STATE_ERROR)
				c->flags |= KPROF_PMU_CNT_ERROR;
			else
				c->flags &= ~KPROF_PMU_CNT_ERROR;
		}
}
