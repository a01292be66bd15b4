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

#define KPROF_SAMPLE_HZ		999	/* perf record's default, off the tick */
#define KPROF_SAMPLE_MAX_HZ	100000
/* below, an overflow every few instructions: an interrupt storm */
#define KPROF_SAMPLE_MIN_PERIOD	1000

struct kprof_sampler {
	struct kprof_probe p;
	struct perf_event_attr attr;
	struct perf_event **ev;		/* [cpu], NULL: none there */
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
	struct kprof_fvals v = { .task = current, .irq_regs = regs };
	u64 v1;

	if (!kprof_want(p, cpu) || !kprof_filter_match(&p->f_entry, &v))
		return;
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
	return 0;
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

	s->ev = kvcalloc(nr_cpu_ids, sizeof(*s->ev), GFP_KERNEL);
	if (!s->ev)
		return -ENOMEM;
	s->attr.disabled = !armed;
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
			return PTR_ERR(ev);
		}
		s->ev[cpu] = ev;
	}
	return 0;
}

static void kprof_sample_detach(struct kprof_probe *p)
{
	kprof_sample_release(kprof_sampler(p));
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
	.attach		= kprof_sample_attach,
	.detach		= kprof_sample_detach,
	.arm		= kprof_sample_arm,
	.disarm		= kprof_sample_disarm,
};
