// SPDX-License-Identifier: GPL-2.0
/*
 * One function's ftrace entry hook (fentry.h).  Context: process, under
 * the core's lock.
 */
#include <linux/kernel.h>
#include <linux/string.h>

#include "fentry.h"

int kprof_fentry_attach(struct kprof_fentry *e, ftrace_func_t func,
			bool armed, const char **why)
{
	int ret;

	/* the kprobe core's blacklist keeps kprofctl out of its own way */
	if (within_module(e->addr, THIS_MODULE)) {
		*why = "is kprofctl's own code";
		return -EADDRNOTAVAIL;
	}
	memset(&e->ops, 0, sizeof(e->ops));
	e->ops.func = func;
	e->filtered = true;
	ret = ftrace_set_filter_ip(&e->ops, e->addr, 0, 0);
	if (ret) {
		*why = "is not traceable (no ftrace call site)";
		ret = -EADDRNOTAVAIL;
	}
	if (!ret && armed)
		ret = kprof_fentry_arm(e);
	if (ret)
		kprof_fentry_detach(e);
	return ret;
}

int kprof_fentry_arm(struct kprof_fentry *e)
{
	int ret;

	/* not filtered (its __init function is gone): no filter hooks all */
	if (e->reg || !e->filtered)
		return 0;
	ret = register_ftrace_function(&e->ops);
	e->reg = !ret;
	return ret;
}

void kprof_fentry_disarm(struct kprof_fentry *e)
{
	if (e->reg)
		unregister_ftrace_function(&e->ops);
	e->reg = false;
}

void kprof_fentry_detach(struct kprof_fentry *e)
{
	kprof_fentry_disarm(e);
	if (e->filtered) {
		ftrace_free_filter(&e->ops);
		memset(&e->ops, 0, sizeof(e->ops));
	}
	e->filtered = false;
}

bool kprof_fentry_init_done(struct kprof_fentry *e, struct module *mod)
{
	if (!e->filtered || !within_module_init(e->addr, mod))
		return false;
	kprof_fentry_detach(e);
	return true;
}
