// SPDX-License-Identifier: GPL-2.0
/*
 * The "pmu:EVENTS" kind: PMU counters per CPU over the capture windows,
 * with no handler of its own.  The core creates, runs and reads the
 * counters of any probe that has them; this kind is only that.
 */
#include <linux/err.h>

#include "probe.h"
#include "pmu.h"
#include "backends.h"

static int kprof_pmuprobe_parse(struct kprof_probe *p, const char *arg,
				struct kprof_probe_add *a)
{
	struct kprof_pmu *pm;

	if (!*arg)
		return -EINVAL;
	pm = kprof_pmu_new(arg, &a->err_event);
	if (IS_ERR(pm))
		return PTR_ERR(pm);
	p->pmu = pm;
	return 0;
}

static int kprof_pmuprobe_attach(struct kprof_probe *p, bool armed)
{
	return 0;
}

static void kprof_pmuprobe_detach(struct kprof_probe *p)
{
}

static int kprof_pmuprobe_arm(struct kprof_probe *p)
{
	return 0;
}

static void kprof_pmuprobe_disarm(struct kprof_probe *p)
{
}

const struct kprof_backend kprof_pmu_backend = {
	.prefix		= "pmu",
	.mech		= KPROF_MECH_PERF,
	.size		= sizeof(struct kprof_probe),
	.parse		= kprof_pmuprobe_parse,
	.attach		= kprof_pmuprobe_attach,
	.detach		= kprof_pmuprobe_detach,
	.arm		= kprof_pmuprobe_arm,
	.disarm		= kprof_pmuprobe_disarm,
};
