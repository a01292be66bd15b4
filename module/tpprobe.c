// SPDX-License-Identifier: GPL-2.0
/*
 * The tracepoint kind, "tracepoint:SUBSYS:NAME": counts hits of any
 * tracepoint, found by name in the core kernel or a module
 * (tracepoints.c), and follows the module that defines it.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/trace_events.h>
#include <linux/kprobes.h>

#include "probe.h"
#include "filter.h"
#include "tracepoints.h"
#include "backends.h"

struct kprof_tpp {
	struct kprof_probe p;
	struct tracepoint *tp;		/* NULL: PENDING or GONE */
	struct module *tp_mod;		/* NULL: core kernel */
	bool on;			/* our callback is registered */
	char name[KSYM_NAME_LEN];	/* "SUBSYS:NAME" */
};

static struct kprof_tpp *kprof_tpp(struct kprof_probe *p)
{
	return container_of(p, struct kprof_tpp, p);
}

/* NAME of "SUBSYS:NAME" (see kprof_tp_parse()) */
static const char *kprof_tp_event_name(struct kprof_tpp *t)
{
	return strchr(t->name, ':') + 1;
}

#ifndef CONFIG_CFI_CLANG
/*
 * Context: the tracepoint's call site, preemption disabled (__DO_TRACE),
 * any context.  Registered as "void (*)(void *data)": the call site
 * passes the event's arguments after data and this ignores them, which
 * the calling conventions allow; kCFI (CONFIG_CFI_CLANG) would trap on
 * the type mismatch, so such kernels do not build it (kprof_tp_attach()).
 */
/* keys and filters: task and CPU only, the event's fields unread */
static __always_inline void kprof_tp_count_kf(struct kprof_probe *p,
					      unsigned int cpu)
{
	struct kprof_fvals v = { .task = current };
	u64 v1;

	if (!kprof_filter_match(&p->f_entry, &v))
		return;
	/* a keyed call counts in its key's row only (the pair layout) */
	if (p->key[0])
		kprof_stat_count(kprof_key_stats(&p->keys,
						 kprof_kf_key(p, &v, &v1), cpu));
	else
		kprof_stat_count(kprof_this_stats(p, cpu));
}

/* the locals of the kf half live in its own function: none here */
static __always_inline void kprof_tp_count(struct kprof_probe *p, bool kf)
{
	unsigned int cpu = smp_processor_id();

	if (!kprof_want(p, cpu))
		return;
	if (kf)
		kprof_tp_count_kf(p, cpu);
	else
		kprof_stat_count(kprof_this_stats(p, cpu));
}

#ifndef KPROF_HAVE_TRACEPOINT_SRCU_FAST
static notrace void kprof_tp_hit(void *data)
{
	kprof_tp_count(data, false);
}
NOKPROBE_SYMBOL(kprof_tp_hit);

static notrace void kprof_tp_hit_kf(void *data)
{
	kprof_tp_count(data, true);
}
NOKPROBE_SYMBOL(kprof_tp_hit_kf);
#endif

#if defined(KPROF_HAVE_TRACEPOINT_IS_FAULTABLE) || \
	defined(KPROF_HAVE_TRACEPOINT_SRCU_FAST)
/*
 * Context: a tracepoint that calls probes preemptible: faultable ones
 * (syscalls, 6.13+) under RCU tasks trace, and on kernels with SRCU-fast
 * tracepoints every one.  The per-CPU statistics need preemption off.
 */
static notrace void kprof_tp_hit_preempt(void *data)
{
	preempt_disable_notrace();
	kprof_tp_count(data, false);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprof_tp_hit_preempt);

static notrace void kprof_tp_hit_preempt_kf(void *data)
{
	preempt_disable_notrace();
	kprof_tp_count(data, true);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprof_tp_hit_preempt_kf);
#endif

/*
 * The callback for p on tp, chosen when it attaches (the same one at
 * register and unregister): the common case pays nothing for the wrapper,
 * a probe without keys or a filter nothing for them.
 */
static void *kprof_tp_func(struct tracepoint *tp, struct kprof_probe *p)
{
#ifdef KPROF_HAVE_TRACEPOINT_SRCU_FAST
	return p->kf ? kprof_tp_hit_preempt_kf : kprof_tp_hit_preempt;
#else
#ifdef KPROF_HAVE_TRACEPOINT_IS_FAULTABLE
	if (tracepoint_is_faultable(tp))
		return p->kf ? kprof_tp_hit_preempt_kf : kprof_tp_hit_preempt;
#endif
	return p->kf ? kprof_tp_hit_kf : kprof_tp_hit;
#endif
}
#endif /* !CONFIG_CFI_CLANG */

/*
 * Context: process, may sleep.  Is tp (of mod, NULL: core kernel) the
 * tracepoint of trace event SYS:NAME?  The tracepoint table has no
 * subsystem: it is the trace event's.  A module's events are in the
 * module; the core kernel's are looked up in the top trace instance.
 */
static bool kprof_tp_in_subsys(struct tracepoint *tp, struct module *mod,
			       const char *sys)
{
#ifdef CONFIG_EVENT_TRACING
	struct trace_event_file *file;
	struct trace_event_call *call;
	unsigned int i;
	bool ok;

	if (mod) {
		for (i = 0; i < mod->num_trace_events; i++) {
			call = mod->trace_events[i];
			if ((call->flags & TRACE_EVENT_FL_TRACEPOINT) &&
			    call->tp == tp && call->class &&
			    !strcmp(call->class->system, sys))
				return true;
		}
		return false;
	}
	file = trace_get_event_file(NULL, sys, tp->name);
	if (IS_ERR(file))
		return false;
	call = file->event_call;
	ok = (call->flags & TRACE_EVENT_FL_TRACEPOINT) && call->tp == tp;
	trace_put_event_file(file);
	return ok;
#else
	/* no trace events to tell the subsystem by */
	return true;
#endif
}

/* The subsystem part of "SUBSYS:NAME", in buf. */
static void kprof_tp_subsys(struct kprof_tpp *t, char *buf, size_t len)
{
	size_t n = kprof_tp_event_name(t) - 1 - t->name;

	strscpy(buf, t->name, min(n + 1, len));
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

/*
 * "SUBSYS:NAME", kept whole in ->name; kernel tracepoints are unique by
 * NAME, and SUBSYS is checked against NAME's trace event when it attaches.
 * "*:NAME" asks for NAME whatever its subsystem: the only way to name a
 * tracepoint that has no trace event (list-tracepoints shows it so).
 */
static int kprof_tp_parse(struct kprof_probe *p, const char *arg,
			  struct kprof_probe_add *a)
{
	struct kprof_tpp *t = kprof_tpp(p);
	const char *colon = strchr(arg, ':');

	if (!colon ||
	    (!kprof_tp_ident(arg, colon - arg) &&
	     !(colon - arg == 1 && *arg == '*')) ||
	    !kprof_tp_ident(colon + 1, strlen(colon + 1)) ||
	    strlen(arg) >= sizeof(t->name))
		return -EINVAL;
	strscpy(t->name, arg, sizeof(t->name));
	return 0;
}

/* The callback's data is the common probe: its counts are all it needs */
static int kprof_tp_arm(struct kprof_probe *p)
{
#ifdef CONFIG_CFI_CLANG
	return -EOPNOTSUPP;	/* never attached: see kprof_tp_attach() */
#else
	struct kprof_tpp *t = kprof_tpp(p);
	int ret;

	if (!t->tp)		/* PENDING or GONE: arms when it attaches */
		return 0;
	ret = tracepoint_probe_register(t->tp, kprof_tp_func(t->tp, p), p);
	if (!ret)
		t->on = true;
	return ret;
#endif
}

static void kprof_tp_disarm(struct kprof_probe *p)
{
	struct kprof_tpp *t = kprof_tpp(p);

#ifndef CONFIG_CFI_CLANG
	if (t->on)
		tracepoint_probe_unregister(t->tp, kprof_tp_func(t->tp, p), p);
#endif
	t->on = false;
}

/* Context: process, under the core's lock.  False (and says why) if not. */
static bool kprof_tp_subsys_ok(struct kprof_tpp *t, struct tracepoint *tp,
			       struct module *mod)
{
	struct kprof_probe *p = &t->p;
	char sys[64];

	kprof_tp_subsys(t, sys, sizeof(sys));
	if (!strcmp(sys, "*") || kprof_tp_in_subsys(tp, mod, sys))
		return true;
	if (mod)
		pr_info("probe %u (%s): module %s loaded, but tracepoint %s is not in subsystem %s\n",
			p->id, p->spec, mod->name, tp->name, sys);
	else
		pr_info("%s: tracepoint %s is not in subsystem %s (see 'kprofctl list-tracepoints')\n",
			p->spec, tp->name, sys);
	return false;
}

static int kprof_tp_attach(struct kprof_probe *p, bool armed)
{
	struct kprof_tpp *t = kprof_tpp(p);

#ifdef CONFIG_CFI_CLANG
	/*
	 * A hit counter for any tracepoint is one untyped callback; kCFI
	 * checks each call site's type and would trap.  Pairs have typed
	 * callbacks and work.
	 */
	pr_info("%s: tracepoint hit counts are not supported on this kernel: kCFI (CONFIG_CFI_CLANG) forbids their untyped callback\n",
		p->spec);
	return -EOPNOTSUPP;
#endif
	t->on = false;
	t->tp = kprof_tp_find(kprof_tp_event_name(t), &t->tp_mod);
	if (t->tp && !kprof_tp_subsys_ok(t, t->tp, t->tp_mod)) {
		t->tp = NULL;
		t->tp_mod = NULL;
		return -ENOENT;
	}
	if (!t->tp) {
		if (!(p->flags & KPROF_ADD_DEFER))
			return -ENOENT;
		p->state = KPROF_STATE_PENDING;
		return 0;
	}
	return armed ? kprof_tp_arm(p) : 0;
}

static void kprof_tp_detach(struct kprof_probe *p)
{
	kprof_tp_disarm(p);
	/* no callback runs, or will run, with p once this returns */
	tracepoint_synchronize_unregister();
}

/*
 * Context: process, under the core's lock: the tracepoint core announces
 * a module (tracepoints.c), and the core passes it on to each probe.
 */
static bool kprof_tp_module_event(struct kprof_probe *p, struct module *mod,
				  bool coming)
{
	struct kprof_tpp *t = kprof_tpp(p);
	struct tracepoint *tp;

	if (!coming) {
		if (!t->tp || t->tp_mod != mod)
			return false;
		p->want_run = p->state == KPROF_STATE_RUNNING;
		WRITE_ONCE(p->armed, false);
		/* kprof_module_event() waits for callbacks before returning */
		kprof_tp_disarm(p);
		t->tp = NULL;
		t->tp_mod = NULL;
		p->state = KPROF_STATE_GONE;
		pr_info("probe %u (%s): module %s unloaded, detached\n",
			p->id, p->spec, mod->name);
		return true;
	}
	if (t->tp)
		return false;
	tp = kprof_tp_in_mod(mod, kprof_tp_event_name(t));
	if (!tp)
		return false;
	/*
	 * kprofctl's own module notifier calls this too, after the
	 * tracepoint core's (registered at boot, same priority).  A module
	 * the tracepoint core did not announce is one it ignores (bad
	 * taint): its GOING is not announced either, so it is never
	 * attached.  One announced has been handled already.
	 */
	if (!kprof_tp_announcing(mod)) {
		if (kprof_tp_mod_listed(mod))
			return false;
		p->reg_errno = EPERM;
		pr_info("probe %u (%s): module %s loaded, but the kernel ignores its tracepoints (forced load or bad taint): not attached\n",
			p->id, p->spec, mod->name);
		return true;
	}
	if (!kprof_tp_subsys_ok(t, tp, mod)) {
		p->reg_errno = ENOENT;
		return true;
	}
	p->reg_errno = 0;
	t->tp = tp;
	t->tp_mod = mod;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, attached\n", p->id, p->spec,
		mod->name);
	return true;
}

const struct kprof_backend kprof_tracepoint_backend = {
	.prefix		= "tracepoint",
	.mech		= KPROF_MECH_TRACEPOINT,
	.size		= sizeof(struct kprof_tpp),
	.parse		= kprof_tp_parse,
	.attach		= kprof_tp_attach,
	.detach		= kprof_tp_detach,
	.arm		= kprof_tp_arm,
	.disarm		= kprof_tp_disarm,
	.module_event	= kprof_tp_module_event,
};
