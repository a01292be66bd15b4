/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracepoints kprofctl can attach to, in the core kernel and in
 * modules as the tracepoint core announces them.
 */
#ifndef KPROF_TRACEPOINTS_H
#define KPROF_TRACEPOINTS_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/kprobes.h>
#include <linux/preempt.h>

struct tracepoint;
struct module;

#ifdef CONFIG_TRACEPOINTS
/*
 * @module_event: a module with tracepoints is coming (they exist, its
 * init has not run) or going (still there until it returns).
 */
int kprof_tp_init(void (*module_event)(struct module *mod, bool coming));
void kprof_tp_exit(void);
struct tracepoint *kprof_tp_find(const char *name, struct module **mod);
struct tracepoint *kprof_tp_in_mod(struct module *mod, const char *name);
/* Is @mod the module the tracepoint core is announcing right now? */
bool kprof_tp_announcing(struct module *mod);
/* Has the tracepoint core announced @mod (and not its going)? */
bool kprof_tp_mod_listed(struct module *mod);
int kprof_tp_names(char *buf, size_t len, u32 *count, size_t *needed);
/*
 * Context: process.  @data's funcs[i] on tps[i], i < n, all or none: on
 * a failure those registered are taken off and waited for.
 */
int kprof_tp_register_all(struct tracepoint *const *tps, void *const *funcs,
			  unsigned int n, void *data);
/* Context: process.  Takes them off; the caller waits for callbacks. */
void kprof_tp_unregister_all(struct tracepoint *const *tps,
			     void *const *funcs, unsigned int n, void *data);
#else
static inline int
kprof_tp_init(void (*module_event)(struct module *mod, bool coming))
{
	return 0;
}

static inline void kprof_tp_exit(void)
{
}

static inline int kprof_tp_names(char *buf, size_t len, u32 *count,
				 size_t *needed)
{
	return -EOPNOTSUPP;
}
#endif

/*
 * A tracepoint callback NAME(proto) around NAME_body(args).  Context: the
 * tracepoint's call site, with preemption disabled; IRQ, softirq or
 * process context as the event is.  notrace: the function tracer must not recurse into probe context, and
 * its entry nops are a tenth of a tracepoint count's cost.  Each is
 * NAME_body() inlined into NAME(); on kernels whose tracepoints call
 * probes preemptible (under SRCU-fast) NAME() disables preemption around
 * it, elsewhere it costs nothing.
 */
#ifdef KPROF_HAVE_TRACEPOINT_SRCU_FAST
#define KPROF_TP_CALLBACK(name, proto, args)			\
	static notrace void name proto				\
	{							\
		preempt_disable_notrace();			\
		name##_body args;				\
		preempt_enable_notrace();			\
	}							\
	NOKPROBE_SYMBOL(name)
#else
#define KPROF_TP_CALLBACK(name, proto, args)			\
	static notrace void name proto				\
	{							\
		name##_body args;				\
	}							\
	NOKPROBE_SYMBOL(name)
#endif

#endif /* KPROF_TRACEPOINTS_H */
