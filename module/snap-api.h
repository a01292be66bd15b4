/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's tracing API as snap.c uses it: one wrapper per exported
 * function, so that what a kernel lacks (module/compat probes) is decided
 * here.  KPROF_HAVE_FTRACE_ACTS: this kernel can do --snapshot, --trace-off
 * and --mark at all.
 */
#ifndef KPROF_SNAP_API_H
#define KPROF_SNAP_API_H

#include <linux/kernel.h>
#include <linux/err.h>
#include <linux/trace.h>
#include <linux/trace_events.h>

#if defined(KPROF_HAVE_TRACE_GET_EVENT_FILE) && \
	defined(KPROF_HAVE_TRACE_ARRAY_PUTS)
#define KPROF_HAVE_FTRACE_ACTS 1

/*
 * Exported (EXPORT_SYMBOL_GPL) since v5.1 for a module that takes
 * snapshots, but declared only in kernel/trace/trace.h: the prototypes
 * as that header has them from 5.1 to 7.3.
 */
typedef bool (*kprof_cond_update_fn)(struct trace_array *tr, void *cond_data);
int tracing_snapshot_cond_enable(struct trace_array *tr, void *cond_data,
				 kprof_cond_update_fn update);
int tracing_snapshot_cond_disable(struct trace_array *tr);
void tracing_snapshot_cond(struct trace_array *tr, void *cond_data);

/*
 * An instance's (NULL: the top one's) trace_array, held through one of
 * its event files: sched_switch, which every kernel with tracepoints has.
 * -ENOENT: no such instance.
 */
static inline struct trace_event_file *kprof_ft_file_get(const char *inst)
{
	return trace_get_event_file(inst, "sched", "sched_switch");
}

static inline void kprof_ft_file_put(struct trace_event_file *f)
{
	trace_put_event_file(f);
}

/* Context: process.  Allocates tr's snapshot buffer and claims it. */
static inline int kprof_ft_snap_claim(struct trace_array *tr, void *data,
				      kprof_cond_update_fn update)
{
	if (!IS_ENABLED(CONFIG_TRACER_SNAPSHOT))
		return -ENODEV;
	return tracing_snapshot_cond_enable(tr, data, update);
}

static inline void kprof_ft_snap_release(struct trace_array *tr)
{
	tracing_snapshot_cond_disable(tr);
}

/* Context: any but NMI; update decides under tr->max_lock, IRQs off. */
static __always_inline void kprof_ft_snapshot(struct trace_array *tr,
					      void *data)
{
	tracing_snapshot_cond(tr, data);
}

/* Context: any.  Bytes written, 0 if the instance does not print. */
static __always_inline int kprof_ft_puts(struct trace_array *tr,
					 const char *s, int len)
{
	return __trace_array_puts(tr, _THIS_IP_, s, len);
}

/* Context: any.  The top instance only: the kernel exports no other. */
static __always_inline void kprof_ft_off(void)
{
	tracing_off();
}
#endif

#endif /* KPROF_SNAP_API_H */
