// SPDX-License-Identifier: GPL-2.0
/*
 * Benchmark floors: the cheapest kprobe/kretprobe a module can register,
 * so that kprofctl's own cost is measured against the kprobe machinery
 * in the same boot.  Loaded with sym= empty it registers nothing.
 *
 *   mode=0  kprobe, empty pre-handler
 *   mode=1  kretprobe, empty entry and return handlers
 *   mode=2  kretprobe, ktime_get_ns() on entry and on return (the floor
 *           for any latency measurement)
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/timekeeping.h>

static char *sym;
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "Function to probe (empty: register nothing)");

static int mode;
module_param(mode, int, 0444);
MODULE_PARM_DESC(mode, "0 kprobe, 1 kretprobe, 2 kretprobe + 2x ktime_get_ns");

static u64 kprof_bare_sink;

static int kprof_bare_pre(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static int kprof_bare_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	if (mode == 2)
		*(u64 *)ri->data = ktime_get_ns();
	return 0;
}

static int kprof_bare_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (mode == 2)
		WRITE_ONCE(kprof_bare_sink, ktime_get_ns() - *(u64 *)ri->data);
	return 0;
}

static struct kprobe kprof_bare_kp = {
	.pre_handler = kprof_bare_pre,
};

static struct kretprobe kprof_bare_rp = {
	.entry_handler = kprof_bare_entry,
	.handler = kprof_bare_ret,
	.data_size = sizeof(u64),
};

static int __init kprof_bare_init(void)
{
	if (!sym || !*sym)
		return 0;
	if (mode == 0) {
		kprof_bare_kp.symbol_name = sym;
		return register_kprobe(&kprof_bare_kp);
	}
	if (mode != 1 && mode != 2)
		return -EINVAL;
	kprof_bare_rp.kp.symbol_name = sym;
	return register_kretprobe(&kprof_bare_rp);
}

static void __exit kprof_bare_exit(void)
{
	if (!sym || !*sym)
		return;
	if (mode == 0)
		unregister_kprobe(&kprof_bare_kp);
	else
		unregister_kretprobe(&kprof_bare_rp);
}

module_init(kprof_bare_init);
module_exit(kprof_bare_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprofctl benchmark: bare kprobe/kretprobe floors");
