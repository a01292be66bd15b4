// SPDX-License-Identifier: GPL-2.0
/*
 * The sample kind, "sample:EVENT[:hz=N|:period=N]": a perf counter per CPU
 * on a PMU event (or the CPU clock) whose every overflow is one call of
 * the probe: counted in its row, or with --key stack in the row of the
 * stack it interrupted, which makes the probe's key table a profile.
 */
#include <linux/kernel.h>
#include <linux/perf_event.h>
#include <linux/cpumask.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "probe.h"
#include "pmu.h"
#include "filter.h"
#include "backends.h"
#include "core.h"
#include "frames.h"
#include "stats.h"
#include "stacktab.h"

#define KPROF_SAMPLE_HZ		999	/* perf record's default, off the tick */
#define KPROF_SAMPLE_MAX_HZ	100000
/* below, an overflow every few instructions: an interrupt storm */
#define KPROF_SAMPLE_MIN_PERIOD	1000

struct kprof_sampler {
	struct kprof_probe p;
	struct perf_event_attr attr;
	struct perf_event **ev;		/* [cpu], NULL: none there */
	u64 *last;			/* [cpu]: its count at the last overflow */
	/*
	 * A profile (a stack key alone): per CPU a count per stack id, not
	 * a key row (5 KiB) per stack.
	 */
	struct kprof_stacktab tab;
};

static struct kprof_sampler *kprof_sampler(struct kprof_probe *p)
{
	return container_of(p, struct kprof_sampler, p);
}

/*
 * Context: perf overflow handler: interrupts off, in NMI on x86 and where
 * arm64 has pseudo-NMIs.  @regs is the interrupted context; current its
 * task.
 */
static void kprof_sample_hit(struct perf_event *ev,
			     struct perf_sample_data *data,
			     struct pt_regs *regs)
{
	struct kprof_probe *p = ev->overflow_handler_context;
	unsigned int cpu = smp_processor_id();
	struct kprof_sampler *s = container_of(p, struct kprof_sampler, p);
	struct kprof_fvals v = { .task = current, .irq_regs = regs };
	struct kprof_cpu_stats *st = kprof_this_stats(p, cpu);
	u64 v1, now = local64_read(&ev->count), last = s->last[cpu];
	u32 id;

	s->last[cpu] = now;
	if (!READ_ONCE(p->armed))
		return;
	/*
	 * Every overflow, and the events counted up to it: a PMU that raises
	 * its interrupt late (QEMU's inst_retired) shows as far fewer
	 * overflows than events / period.
	 */
	local64_inc(kprof_l64(&st->events));
	local64_add(now - last, kprof_l64(&st->sum));
	if (!kprof_want(p, cpu) || !kprof_filter_match(&p->f_entry, &v))
		return;
	if (s->tab.nr) {
		id = kprof_stack_id_regs(&p->stacks, regs);
		if (!id) {
			kprof_stat_drop(st);	/* no room for a new stack */
			return;
		}
		local64_inc(kprof_stacktab_word(&s->tab, cpu, id, 0));
		kprof_stat_count(st);
		return;
	}
	if (p->key[0])
		kprof_stat_count(kprof_key_stats(&p->keys,
						 kprof_kf_key(p, &v, &v1), cpu));
	else
		kprof_stat_count(kprof_this_stats(p, cpu));
}
NOKPROBE_SYMBOL(kprof_sample_hit);

/* "EVENT[:hz=N|:period=N]"; numbers in base 10 unless 0x is written */
static int kprof_sample_parse(struct kprof_probe *p, const char *arg,
			      struct kprof_probe_add *a)
{
	struct kprof_sampler *s = kprof_sampler(p);
	char name[KPROF_SPEC_LEN];
	const char *opt = strchr(arg, ':');
	u64 n = KPROF_SAMPLE_HZ;
	bool freq = true;
	int ret;

	if (strscpy(name, arg, sizeof(name)) < 0)
		return -EINVAL;
	if (opt) {
		name[opt - arg] = 0;
		opt++;
		if (!strncmp(opt, "hz=", 3)) {
			opt += 3;
		} else if (!strncmp(opt, "period=", 7)) {
			opt += 7;
			freq = false;
		} else {
			return -EINVAL;
		}
		if (kstrtou64(opt, strncasecmp(opt, "0x", 2) ? 10 : 16, &n) ||
		    !n || (freq && n > KPROF_SAMPLE_MAX_HZ) ||
		    (!freq && n < KPROF_SAMPLE_MIN_PERIOD))
			return -EINVAL;
	}
	if (!strcmp(name, "cpu-clock")) {
		memset(&s->attr, 0, sizeof(s->attr));
		s->attr.size = sizeof(s->attr);
		s->attr.type = PERF_TYPE_SOFTWARE;
		s->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	} else {
		ret = kprof_pmu_attr(name, &s->attr);
		if (ret) {
			a->err_event = 1;
			return ret;
		}
	}
	s->attr.freq = freq;
	if (freq)
		s->attr.sample_freq = n;
	else
		s->attr.sample_period = n;
	s->attr.pinned = 1;
	s->tab.slot = -1;
	if (KPROF_KEYSPEC_KIND(a->key[0]) != KPROF_KEY_STACK || a->key[1])
		return 0;
	p->own_keys = true;
	return kprof_stacktab_size(&s->tab, a->nr_keys, 1);
}

static int kprof_sample_alloc(struct kprof_probe *p)
{
	struct kprof_sampler *s = kprof_sampler(p);

	s->last = kvcalloc(nr_cpu_ids, sizeof(*s->last), GFP_KERNEL);
	if (!s->last)
		return -ENOMEM;
	if (!s->tab.nr)
		return 0;
	return kprof_frames_alloc(&p->stacks, s->tab.nr, KPROF_SAMPLE_DEPTH);
}

static void kprof_sample_free(struct kprof_probe *p)
{
	struct kprof_sampler *s = kprof_sampler(p);

	kvfree(s->last);
	s->last = NULL;
}

static void kprof_sample_release(struct kprof_sampler *s)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (s->ev && s->ev[cpu]) {
			perf_event_release_kernel(s->ev[cpu]);
			s->ev[cpu] = NULL;
		}
	kvfree(s->ev);
	s->ev = NULL;
}

/*
 * A counter on every online CPU of the probe's --cpus, enabled if armed.
 * perf_event_release_kernel() takes a counter off its CPU there, so after
 * detach no overflow handler runs (the core waits for one in flight).
 */
static int kprof_sample_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_sampler *s = kprof_sampler(p);
	unsigned int cpu;

	if (s->tab.nr) {
		int ret = kprof_stacktab_get(&s->tab);

		if (ret)
			return ret;
	}
	s->ev = kvcalloc(nr_cpu_ids, sizeof(*s->ev), GFP_KERNEL);
	if (!s->ev) {
		kprof_stacktab_put(&s->tab);
		return -ENOMEM;
	}
	s->attr.disabled = !armed;
	memset(s->last, 0, nr_cpu_ids * sizeof(*s->last));
	for_each_online_cpu(cpu) {
		struct perf_event *ev;

		if ((p->flags & KPROF_ADD_CPUS) && !test_bit(cpu, p->cpus))
			continue;
		ev = perf_event_create_kernel_counter(&s->attr, cpu, NULL,
						      kprof_sample_hit, p);
		/* went offline meanwhile: no counter there */
		if (PTR_ERR_OR_ZERO(ev) == -ENODEV)
			continue;
		if (IS_ERR(ev)) {
			kprof_sample_release(s);
			kprof_stacktab_put(&s->tab);
			return PTR_ERR(ev);
		}
		s->ev[cpu] = ev;
	}
	return 0;
}

static void kprof_sample_detach(struct kprof_probe *p)
{
	struct kprof_sampler *s = kprof_sampler(p);

	kprof_sample_release(s);
	kprof_stacktab_put(&s->tab);
}

/* No handler counts into the rows (RESET disarms first). */
static void kprof_sample_clear(struct kprof_probe *p)
{
	kprof_stacktab_clear(&kprof_sampler(p)->tab);
}

static void kprof_sample_fill_info(struct kprof_probe *p,
				   struct kprof_probe_info *i)
{
	kprof_stacktab_fill_info(&kprof_sampler(p)->tab, i);
}

static int kprof_sample_arm(struct kprof_probe *p)
{
	struct kprof_sampler *s = kprof_sampler(p);
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (s->ev && s->ev[cpu])
			perf_event_enable(s->ev[cpu]);
	return 0;
}

static void kprof_sample_disarm(struct kprof_probe *p)
{
	struct kprof_sampler *s = kprof_sampler(p);
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		if (s->ev && s->ev[cpu])
			perf_event_disable(s->ev[cpu]);
}

const struct kprof_backend kprof_sample_backend = {
	.prefix		= "sample",
	.mech		= KPROF_MECH_PERF,
	.size		= sizeof(struct kprof_sampler),
	.parse		= kprof_sample_parse,
	.alloc		= kprof_sample_alloc,
	.free		= kprof_sample_free,
	.attach		= kprof_sample_attach,
	.detach		= kprof_sample_detach,
	.arm		= kprof_sample_arm,
	.disarm		= kprof_sample_disarm,
	.clear		= kprof_sample_clear,
	.fill_info	= kprof_sample_fill_info,
};
