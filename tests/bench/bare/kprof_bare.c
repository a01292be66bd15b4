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
 *   mode=3  mode 2 plus two pinned PMU counters (raw 0x11 cycles, 0x08
 *           instructions) on every CPU, each read through the PMU's read
 *           callback on entry and on return: the floor for --pmu
 *   mode=4  an ftrace_ops with an empty callback, filtered on sym: the
 *           floor for a function set's hit counts (needs dynamic ftrace)
 *   mode=5  mode 2 plus stack_trace_save() of 16 frames on return: the
 *           floor for a stack key (what the kernel's unwinder costs)
 *   mode=6  a pinned cycles counter per CPU sampling at hz= with an empty
 *           overflow handler (sym= any non-empty name): the floor for a
 *           sample: probe
 */
#include <linux/module.h>
#include <linux/kprobes.h>
#include <linux/timekeeping.h>
#include <linux/perf_event.h>
#include <linux/slab.h>
#include <linux/ftrace.h>
#include <linux/stacktrace.h>

static char *sym;
module_param(sym, charp, 0444);
MODULE_PARM_DESC(sym, "Function to probe (empty: register nothing)");

static int mode;
module_param(mode, int, 0444);
MODULE_PARM_DESC(mode, "0 kprobe, 1 kretprobe, 2 kretprobe + 2x ktime_get_ns, 3 mode 2 + 4 PMU reads, 4 empty ftrace_ops, 5 mode 2 + a 16-frame stack, 6 cycles sampled at hz=, empty handler");

static unsigned int hz = 999;
module_param(hz, uint, 0444);
MODULE_PARM_DESC(hz, "mode 6: samples per second and CPU");

static u64 kprof_bare_sink;
static struct perf_event *(*kprof_bare_ev)[2];	/* [cpu][event] */

/* no checks: the counters are pinned and the benchmark stays on a CPU */
static u64 kprof_bare_read(int e)
{
	struct perf_event *ev = kprof_bare_ev[raw_smp_processor_id()][e];

	ev->pmu->read(ev);
	return local64_read(&ev->count);
}

static int kprof_bare_pre(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static int kprof_bare_entry(struct kretprobe_instance *ri,
			    struct pt_regs *regs)
{
	if (mode >= 2)
		*(u64 *)ri->data = ktime_get_ns();
	if (mode == 3) {
		((u64 *)ri->data)[1] = kprof_bare_read(0);
		((u64 *)ri->data)[2] = kprof_bare_read(1);
	}
	return 0;
}

static int kprof_bare_ret(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	if (mode == 3)
		WRITE_ONCE(kprof_bare_sink,
			   (kprof_bare_read(0) - ((u64 *)ri->data)[1]) +
			   (kprof_bare_read(1) - ((u64 *)ri->data)[2]));
	if (mode == 5) {
		unsigned long pcs[16];

		WRITE_ONCE(kprof_bare_sink, stack_trace_save(pcs, 16, 0));
	}
	if (mode >= 2)
		WRITE_ONCE(kprof_bare_sink, ktime_get_ns() - *(u64 *)ri->data);
	return 0;
}

#ifdef CONFIG_DYNAMIC_FTRACE
/*
 * Nothing to recurse into: without FTRACE_OPS_FL_RECURSION ftrace calls
 * it without its recursion guard (ftrace_ops_assist_func), directly from
 * the call site where the architecture can (arm64 CALL_OPS).
 */
static void notrace kprof_bare_ftrace(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
}

static struct ftrace_ops kprof_bare_fops = {
	.func = kprof_bare_ftrace,
};

static int kprof_bare_ftrace_register(void)
{
	int ret = ftrace_set_filter(&kprof_bare_fops, sym, strlen(sym), 1);

	if (!ret)
		ret = register_ftrace_function(&kprof_bare_fops);
	if (ret)
		ftrace_free_filter(&kprof_bare_fops);
	return ret;
}

static void kprof_bare_ftrace_unregister(void)
{
	unregister_ftrace_function(&kprof_bare_fops);
	ftrace_free_filter(&kprof_bare_fops);
}
#else
static int kprof_bare_ftrace_register(void)
{
	return -EOPNOTSUPP;
}

static void kprof_bare_ftrace_unregister(void)
{
}
#endif

static struct kprobe kprof_bare_kp = {
	.pre_handler = kprof_bare_pre,
};

static struct kretprobe kprof_bare_rp = {
	.entry_handler = kprof_bare_entry,
	.handler = kprof_bare_ret,
	.data_size = 3 * sizeof(u64),
};

static void kprof_bare_pmu_free(void)
{
	int cpu, e;

	if (!kprof_bare_ev)
		return;
	for_each_possible_cpu(cpu)
		for (e = 0; e < 2; e++)
			if (!IS_ERR_OR_NULL(kprof_bare_ev[cpu][e]))
				perf_event_release_kernel(kprof_bare_ev[cpu][e]);
	kfree(kprof_bare_ev);
	kprof_bare_ev = NULL;
}

static int kprof_bare_pmu(void)
{
	static const u64 config[2] = { 0x11, 0x08 };
	int cpu, e;

	kprof_bare_ev = kcalloc(nr_cpu_ids, sizeof(*kprof_bare_ev), GFP_KERNEL);
	if (!kprof_bare_ev)
		return -ENOMEM;
	for_each_online_cpu(cpu)
		for (e = 0; e < 2; e++) {
			struct perf_event_attr attr = {
				.size = sizeof(attr),
				.type = PERF_TYPE_RAW,
				.config = config[e],
				.pinned = 1,
			};
			struct perf_event *ev;

			ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
							      NULL, NULL);
			if (IS_ERR(ev)) {
				kprof_bare_pmu_free();
				return PTR_ERR(ev);
			}
			kprof_bare_ev[cpu][e] = ev;
		}
	return 0;
}

static void kprof_bare_overflow(struct perf_event *ev,
				struct perf_sample_data *data,
				struct pt_regs *regs)
{
}

static struct perf_event **kprof_bare_samplers;

static void kprof_bare_sample_free(void)
{
	int cpu;

	for_each_possible_cpu(cpu)
		if (kprof_bare_samplers && !IS_ERR_OR_NULL(kprof_bare_samplers[cpu]))
			perf_event_release_kernel(kprof_bare_samplers[cpu]);
	kfree(kprof_bare_samplers);
	kprof_bare_samplers = NULL;
}

static int kprof_bare_sample(void)
{
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.freq = 1,
		.sample_freq = hz,
		.pinned = 1,
	};
	int cpu;

	kprof_bare_samplers = kcalloc(nr_cpu_ids, sizeof(*kprof_bare_samplers),
				      GFP_KERNEL);
	if (!kprof_bare_samplers)
		return -ENOMEM;
	for_each_online_cpu(cpu) {
		struct perf_event *ev;

		ev = perf_event_create_kernel_counter(&attr, cpu, NULL,
						      kprof_bare_overflow, NULL);
		if (IS_ERR(ev)) {
			kprof_bare_sample_free();
			return PTR_ERR(ev);
		}
		kprof_bare_samplers[cpu] = ev;
	}
	return 0;
}

static int __init kprof_bare_init(void)
{
	if (!sym || !*sym)
		return 0;
	if (mode == 0) {
		kprof_bare_kp.symbol_name = sym;
		return register_kprobe(&kprof_bare_kp);
	}
	if (mode == 4)
		return kprof_bare_ftrace_register();
	if (mode == 6)
		return kprof_bare_sample();
	if (mode < 1 || mode > 5)
		return -EINVAL;
	if (mode == 3) {
		int ret = kprof_bare_pmu();

		if (ret)
			return ret;
	}
	kprof_bare_rp.kp.symbol_name = sym;
	if (register_kretprobe(&kprof_bare_rp)) {
		kprof_bare_pmu_free();
		return -EINVAL;
	}
	return 0;
}

static void __exit kprof_bare_exit(void)
{
	if (!sym || !*sym)
		return;
	if (mode == 0)
		unregister_kprobe(&kprof_bare_kp);
	else if (mode == 4)
		kprof_bare_ftrace_unregister();
	else if (mode == 6)
		kprof_bare_sample_free();
	else
		unregister_kretprobe(&kprof_bare_rp);
	kprof_bare_pmu_free();
}

module_init(kprof_bare_init);
module_exit(kprof_bare_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprofctl benchmark: bare kprobe/kretprobe floors");
