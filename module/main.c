// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl: the subsystems in the order they start, each with its undo;
 * a failure undoes those already started, in reverse, and unloading
 * undoes them all.  The hooks that let one subsystem reach another
 * without including it are wired here.
 *
 * A probe hit, end to end: a backend's handler (kprobe.c, kretprobe.c,
 * tpprobe.c, pairs.c) checks kprof_want() (probe.h) and updates its
 * per-CPU block with stats.h (keys.h for keyed kinds, pmu.h for counter
 * deltas, events.h for slow calls); core.c published where that block is
 * in the mapping's probe table (area.c); dev.c maps it read-only; the CLI
 * reads it (userspace/dev.c, stats.c) without a syscall.
 */
#include <linux/module.h>

#include "size.h"
#include "of.h"
#include "pairs.h"
#include "events.h"
#include "genl.h"
#include "core.h"
#include "tracepoints.h"
#include "dev.h"
#include "boot.h"
#include "area.h"
#include "funcs.h"
#include "fast.h"
#include "snap.h"

static int kprof_sizes_init(void)
{
	/* a device-tree node's sizing properties stand for the parameters */
	kprof_size_source(kprof_of_size);
	return 0;
}

static void kprof_drained(void)
{
	kprof_report_losses(false);
}

static const struct kprof_events_sink kprof_events_to_genl = {
	.send		= kprof_genl_slow,
	.drained	= kprof_drained,
};

static int kprof_events_start(void)
{
	return kprof_events_init(&kprof_events_to_genl);
}

static const struct kprof_listener kprof_genl_listener = {
	.probe		= kprof_genl_probe,
	.leak		= kprof_genl_leak,
	.restricted	= kprof_genl_restricted,
};

static int kprof_genl_start(void)
{
	int ret = kprof_genl_init();

	if (!ret)
		kprof_core_listen(&kprof_genl_listener);
	return ret;
}

/* Last of the core: it replays COMING for modules already loaded. */
static int kprof_tp_start(void)
{
	return kprof_tp_init(kprof_module_event);
}

/* Before the tracepoint list goes: module tracepoints are still valid. */
static void kprof_probes_exit(void)
{
	kprof_probe_del(0);
}

static int kprof_report(void)
{
	pr_info("ABI %u.%u, %u probe slots, %zu KiB mapped, %zu KiB allocated\n",
		KPROF_ABI_MAJOR, KPROF_ABI_MINOR, kprof_max_probes(),
		kprof_area_size() >> 10, kprof_area_used() >> 10);
	return 0;
}

static int kprof_boot_start(void)
{
	kprof_boot_params();
	/* binding arms the node's probes at once */
	kprof_of_init();
	return 0;
}

static const struct {
	int (*init)(void);
	void (*exit)(void);
} kprof_subsys[] = {
	{ kprof_sizes_init,	NULL },
	{ kprof_pairs_init,	NULL },
	{ kprof_events_start,	kprof_events_exit },
	/* its exit checks that no probe left ftrace's buffers claimed */
	{ kprof_snap_init,	kprof_snap_exit },
	{ kprof_genl_start,	kprof_genl_exit },
	/* sets find modules through it: its notifier runs first */
	{ kprof_funcs_init,	kprof_funcs_exit },
	{ kprof_core_init,	kprof_core_exit },
	{ kprof_modnotify_init,	kprof_modnotify_exit },
	{ kprof_tp_start,	kprof_tp_exit },
	/* its exit waits for calls still inside probed functions */
	{ kprof_fast_init,	kprof_fast_exit },
	{ NULL,			kprof_probes_exit },
	{ kprof_dev_init,	kprof_dev_exit },
	{ kprof_report,		NULL },
	/* unbinding deletes the node's probes while the core still runs */
	{ kprof_boot_start,	kprof_of_exit },
};

static void kprof_unwind(size_t n)
{
	while (n--)
		if (kprof_subsys[n].exit)
			kprof_subsys[n].exit();
}

static int __init kprof_init(void)
{
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(kprof_subsys); i++) {
		ret = kprof_subsys[i].init ? kprof_subsys[i].init() : 0;
		if (ret) {
			kprof_unwind(i);
			return ret;
		}
	}
	return 0;
}

static void __exit kprof_exit(void)
{
	kprof_unwind(ARRAY_SIZE(kprof_subsys));
}

module_init(kprof_init);
module_exit(kprof_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Kernel latency and event-count profiler");
MODULE_AUTHOR("kprofctl developers");
MODULE_VERSION("0.1.0");
