/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One function's entry through its ftrace call site: what a kretprobe on
 * the fast path and a kprobe without the kprobe core share.  The address
 * comes from funcs.c, which needs no kprobes.
 */
#ifndef KPROF_FENTRY_H
#define KPROF_FENTRY_H

#include <linux/ftrace.h>
#include <linux/module.h>

struct kprof_fentry {
	unsigned long addr;
	struct ftrace_ops ops;
	bool filtered;		/* ops has its filter (free it at detach) */
	bool reg;		/* ops is registered: calls reach func */
};

/*
 * Context: process.  Filters a zeroed ops on ->addr with @func, then
 * registers it if @armed.  -EADDRNOTAVAIL with *why where ftrace cannot
 * hook the function.
 */
int kprof_fentry_attach(struct kprof_fentry *e, ftrace_func_t func,
			bool armed, const char **why);
int kprof_fentry_arm(struct kprof_fentry *e);
/* no new call reaches func; calls already in it may still run */
void kprof_fentry_disarm(struct kprof_fentry *e);
/* disarms, and frees the filter: attach starts afresh */
void kprof_fentry_detach(struct kprof_fentry *e);

/*
 * MOD's init is over: a hook on its __init text would keep that address
 * for whatever is loaded there next, and ftrace would keep the name in
 * /proc/kallsyms.  True if it was one, now detached.
 */
bool kprof_fentry_init_done(struct kprof_fentry *e, struct module *mod);

#endif /* KPROF_FENTRY_H */
