// SPDX-License-Identifier: GPL-2.0
/*
 * Hit counts on any core-kernel tracepoint, found by name (most are not
 * exported, so they cannot be named at link time).
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/tracepoint.h>

#include "kprof.h"

struct kprof_tp_find {
	const char *name;
	struct tracepoint *tp;
};

static void kprof_tp_match(struct tracepoint *tp, void *priv)
{
	struct kprof_tp_find *f = priv;

	if (!f->tp && !strcmp(tp->name, f->name))
		f->tp = tp;
}

/*
 * Context: the tracepoint's call site, preemption disabled (__DO_TRACE),
 * any context.  Registered as "void (*)(void *data)": the call site
 * passes the event's arguments after data and this ignores them, which
 * the calling conventions of the kernels built here (no CFI) allow.
 */
static void kprof_tp_hit(void *data)
{
	struct kprof_probe *p = data;
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_stat_count(kprof_this_stats(p, cpu));
}

static bool kprof_tp_ident(const char *s, size_t len)
{
	size_t i;

	if (!len)
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* "SUBSYS:NAME"; kernel tracepoints are unique by NAME */
static int kprof_tp_parse(struct kprof_probe *p, const char *arg)
{
	const char *colon = strchr(arg, ':');
	size_t len;

	if (!colon || !kprof_tp_ident(arg, colon - arg))
		return -EINVAL;
	len = strlen(colon + 1);
	if (!kprof_tp_ident(colon + 1, len) || len >= sizeof(p->sym))
		return -EINVAL;
	strscpy(p->sym, colon + 1, sizeof(p->sym));
	return 0;
}

static int kprof_tp_arm(struct kprof_probe *p)
{
	int ret = tracepoint_probe_register(p->tp, (void *)kprof_tp_hit, p);

	if (!ret)
		p->tp_on = true;
	return ret;
}

static void kprof_tp_disarm(struct kprof_probe *p)
{
	if (p->tp_on)
		tracepoint_probe_unregister(p->tp, (void *)kprof_tp_hit, p);
	p->tp_on = false;
}

static int kprof_tp_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_tp_find f = { .name = p->sym };

	for_each_kernel_tracepoint(kprof_tp_match, &f);
	if (!f.tp)
		return -ENOENT;
	p->tp = f.tp;
	p->tp_on = false;
	return armed ? kprof_tp_arm(p) : 0;
}

static void kprof_tp_detach(struct kprof_probe *p)
{
	kprof_tp_disarm(p);
	/* no callback runs, or will run, with p once this returns */
	tracepoint_synchronize_unregister();
}

static u64 kprof_tp_nmissed(struct kprof_probe *p)
{
	return 0;
}

static bool kprof_tp_in_module(struct kprof_probe *p, struct module *mod)
{
	return false;	/* core-kernel tracepoints only */
}

const struct kprof_backend kprof_tracepoint_backend = {
	.type		= KPROF_TYPE_TRACEPOINT,
	.prefix		= "tracepoint",
	.parse		= kprof_tp_parse,
	.attach		= kprof_tp_attach,
	.detach		= kprof_tp_detach,
	.arm		= kprof_tp_arm,
	.disarm		= kprof_tp_disarm,
	.nmissed	= kprof_tp_nmissed,
	.in_module	= kprof_tp_in_module,
};
