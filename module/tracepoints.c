// SPDX-License-Identifier: GPL-2.0
/*
 * Hit counts on any tracepoint, found by name: most are not exported, so
 * they cannot be named at link time.  Core-kernel tracepoints come from
 * for_each_kernel_tracepoint(); those of modules from the tracepoint module
 * notifier, which also attaches deferred probes when their module loads and
 * detaches them (state GONE) before it goes.  Only modules that notifier
 * announces are used: the tracepoint core ignores modules with a bad taint
 * (forced load, proprietary) and would not say when they go.
 */
#include <linux/kernel.h>
#include <linux/ctype.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/trace_events.h>
#include <linux/kprobes.h>

#include "kprof.h"

/*
 * Modules that define tracepoints, between their COMING and GOING
 * notifications.  Written by the notifier (which holds the tracepoint
 * module list mutex, then takes kprof_tp.lock), read under kprof_tp.lock.
 */
struct kprof_tp_mod {
	struct list_head list;
	struct module *mod;
};

static struct {
	struct mutex lock;
	struct list_head mods;
	struct notifier_block nb;
	/* the module being announced by the tracepoint core, if any */
	struct module *coming;
} kprof_tp = {
	.lock = __MUTEX_INITIALIZER(kprof_tp.lock),
	.mods = LIST_HEAD_INIT(kprof_tp.mods),
};

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

static struct tracepoint *kprof_tp_in_mod(struct module *mod, const char *name)
{
	unsigned int i;

	for (i = 0; i < mod->num_tracepoints; i++) {
		struct tracepoint *tp =
			tracepoint_ptr_deref(&mod->tracepoints_ptrs[i]);

		if (!strcmp(tp->name, name))
			return tp;
	}
	return NULL;
}

/* Has the tracepoint core announced mod (COMING, not yet GOING)? */
static bool kprof_tp_mod_listed(struct module *mod)
{
	struct kprof_tp_mod *m;
	bool found = false;

	mutex_lock(&kprof_tp.lock);
	list_for_each_entry(m, &kprof_tp.mods, list) {
		if (m->mod == mod) {
			found = true;
			break;
		}
	}
	mutex_unlock(&kprof_tp.lock);
	return found;
}

/*
 * Context: process, under kprof.lock.  *mod is set to the defining module,
 * or NULL for the core kernel; the tracepoint stays valid until that
 * module's GOING notification, which takes kprof.lock.
 */
struct tracepoint *kprof_tp_find(const char *name, struct module **mod)
{
	struct kprof_tp_find f = { .name = name };
	struct kprof_tp_mod *m;

	*mod = NULL;
	for_each_kernel_tracepoint(kprof_tp_match, &f);
	if (f.tp)
		return f.tp;
	mutex_lock(&kprof_tp.lock);
	list_for_each_entry(m, &kprof_tp.mods, list) {
		f.tp = kprof_tp_in_mod(m->mod, name);
		if (f.tp) {
			*mod = m->mod;
			break;
		}
	}
	mutex_unlock(&kprof_tp.lock);
	return f.tp;
}

struct kprof_tp_names {
	char *buf;
	size_t len, used;
	u32 count;
};

static void kprof_tp_name(struct tracepoint *tp, void *priv)
{
	struct kprof_tp_names *n = priv;
	size_t l = strlen(tp->name) + 1;

	if (n->used + l <= n->len)
		memcpy(n->buf + n->used, tp->name, l);
	n->used += l;
	n->count++;
}

/* Every attachable name, NUL-separated; *needed may exceed len. */
int kprof_tp_names(char *buf, size_t len, u32 *count, size_t *needed)
{
	struct kprof_tp_names n = { .buf = buf, .len = len };
	struct kprof_tp_mod *m;
	unsigned int i;

	for_each_kernel_tracepoint(kprof_tp_name, &n);
	mutex_lock(&kprof_tp.lock);
	list_for_each_entry(m, &kprof_tp.mods, list)
		for (i = 0; i < m->mod->num_tracepoints; i++)
			kprof_tp_name(tracepoint_ptr_deref(
					&m->mod->tracepoints_ptrs[i]), &n);
	mutex_unlock(&kprof_tp.lock);
	*count = n.count;
	*needed = n.used;
	return 0;
}

/* "SUBSYS:NAME" in p->sym (see kprof_tp_parse()) */
static const char *kprof_tp_event_name(const struct kprof_probe *p)
{
	return strchr(p->sym, ':') + 1;
}

#ifndef CONFIG_CFI_CLANG
/*
 * Context: the tracepoint's call site, preemption disabled (__DO_TRACE),
 * any context.  Registered as "void (*)(void *data)": the call site
 * passes the event's arguments after data and this ignores them, which
 * the calling conventions allow; kCFI (CONFIG_CFI_CLANG) would trap on
 * the type mismatch, so such kernels do not build it (kprof_tp_attach()).
 */
static __always_inline void kprof_tp_count(struct kprof_probe *p)
{
	unsigned int cpu = smp_processor_id();

	if (kprof_want(p, cpu))
		kprof_stat_count(kprof_this_stats(p, cpu));
}

#ifndef KPROF_HAVE_TRACEPOINT_SRCU_FAST
static notrace void kprof_tp_hit(void *data)
{
	kprof_tp_count(data);
}
NOKPROBE_SYMBOL(kprof_tp_hit);
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
	kprof_tp_count(data);
	preempt_enable_notrace();
}
NOKPROBE_SYMBOL(kprof_tp_hit_preempt);
#endif

/*
 * The callback for tp, chosen when it attaches (the same one at register
 * and unregister): the common case pays nothing for the wrapper.
 */
static void *kprof_tp_func(struct tracepoint *tp)
{
#ifdef KPROF_HAVE_TRACEPOINT_SRCU_FAST
	return kprof_tp_hit_preempt;
#else
#ifdef KPROF_HAVE_TRACEPOINT_IS_FAULTABLE
	if (tracepoint_is_faultable(tp))
		return kprof_tp_hit_preempt;
#endif
	return kprof_tp_hit;
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
static void kprof_tp_subsys(const struct kprof_probe *p, char *buf,
			    size_t len)
{
	size_t n = kprof_tp_event_name(p) - 1 - p->sym;

	strscpy(buf, p->sym, min(n + 1, len));
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
 * "SUBSYS:NAME", kept whole in p->sym; kernel tracepoints are unique by
 * NAME, and SUBSYS is checked against NAME's trace event when it attaches.
 * "*:NAME" asks for NAME whatever its subsystem: the only way to name a
 * tracepoint that has no trace event (list-tracepoints shows it so).
 */
static int kprof_tp_parse(struct kprof_probe *p, const char *arg)
{
	const char *colon = strchr(arg, ':');

	if (!colon ||
	    (!kprof_tp_ident(arg, colon - arg) &&
	     !(colon - arg == 1 && *arg == '*')) ||
	    !kprof_tp_ident(colon + 1, strlen(colon + 1)) ||
	    strlen(arg) >= sizeof(p->sym))
		return -EINVAL;
	strscpy(p->sym, arg, sizeof(p->sym));
	return 0;
}

static int kprof_tp_arm(struct kprof_probe *p)
{
#ifdef CONFIG_CFI_CLANG
	return -EOPNOTSUPP;	/* never attached: see kprof_tp_attach() */
#else
	int ret;

	if (!p->tp)		/* PENDING or GONE: arms when it attaches */
		return 0;
	ret = tracepoint_probe_register(p->tp, kprof_tp_func(p->tp), p);
	if (!ret)
		p->tp_on = true;
	return ret;
#endif
}

static void kprof_tp_disarm(struct kprof_probe *p)
{
#ifndef CONFIG_CFI_CLANG
	if (p->tp_on)
		tracepoint_probe_unregister(p->tp, kprof_tp_func(p->tp), p);
#endif
	p->tp_on = false;
}

/* Context: process, under kprof.lock.  False (and says why) if not. */
static bool kprof_tp_subsys_ok(struct kprof_probe *p, struct tracepoint *tp,
			       struct module *mod)
{
	char sys[64];

	kprof_tp_subsys(p, sys, sizeof(sys));
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
	p->tp_on = false;
	p->tp = kprof_tp_find(kprof_tp_event_name(p), &p->tp_mod);
	if (p->tp && !kprof_tp_subsys_ok(p, p->tp, p->tp_mod)) {
		p->tp = NULL;
		p->tp_mod = NULL;
		return -ENOENT;
	}
	if (!p->tp) {
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

static u64 kprof_tp_nmissed(struct kprof_probe *p)
{
	return 0;
}

static bool kprof_tp_in_module(struct kprof_probe *p, struct module *mod)
{
	return false;	/* module tracepoints go through kprof_tp_event() */
}

/* Context: process, under kprof.lock; called by kprof_module_event(). */
static bool kprof_tp_module_event(struct kprof_probe *p, struct module *mod,
				  bool coming)
{
	struct tracepoint *tp;

	if (!coming) {
		if (!p->tp || p->tp_mod != mod)
			return false;
		p->want_run = p->state == KPROF_STATE_RUNNING;
		WRITE_ONCE(p->armed, false);
		/* kprof_module_event() waits for callbacks before returning */
		kprof_tp_disarm(p);
		p->tp = NULL;
		p->tp_mod = NULL;
		p->state = KPROF_STATE_GONE;
		pr_info("probe %u (%s): module %s unloaded, detached\n",
			p->id, p->spec, mod->name);
		return true;
	}
	if (p->tp)
		return false;
	tp = kprof_tp_in_mod(mod, kprof_tp_event_name(p));
	if (!tp)
		return false;
	/*
	 * kprofctl's own module notifier calls this too, after the
	 * tracepoint core's (registered at boot, same priority).  A module
	 * the tracepoint core did not announce is one it ignores (bad
	 * taint): its GOING is not announced either, so it is never
	 * attached.  One announced has been handled already.
	 */
	if (READ_ONCE(kprof_tp.coming) != mod) {
		if (kprof_tp_mod_listed(mod))
			return false;
		p->reg_errno = EPERM;
		pr_info("probe %u (%s): module %s loaded, but the kernel ignores its tracepoints (forced load or bad taint): not attached\n",
			p->id, p->spec, mod->name);
		return true;
	}
	if (!kprof_tp_subsys_ok(p, tp, mod)) {
		p->reg_errno = ENOENT;
		return true;
	}
	p->reg_errno = 0;
	p->tp = tp;
	p->tp_mod = mod;
	p->state = KPROF_STATE_STOPPED;	/* the core starts it if wanted */
	pr_info("probe %u (%s): module %s loaded, attached\n", p->id, p->spec,
		mod->name);
	return true;
}

/*
 * Context: process, holding the tracepoint module list mutex; so this
 * never runs while kprof.lock is held by a path that wants that mutex.
 */
static int kprof_tp_notify(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	struct tp_module *tpm = data;
	struct kprof_tp_mod *m, *tmp;

	if (action == MODULE_STATE_COMING) {
		m = kmalloc(sizeof(*m), GFP_KERNEL);
		if (!m)
			return notifier_from_errno(-ENOMEM);
		m->mod = tpm->mod;
		mutex_lock(&kprof_tp.lock);
		list_add_tail(&m->list, &kprof_tp.mods);
		mutex_unlock(&kprof_tp.lock);
		/* notifications are serialised by the tracepoint core's mutex */
		WRITE_ONCE(kprof_tp.coming, tpm->mod);
		kprof_module_event(tpm->mod, true);
		WRITE_ONCE(kprof_tp.coming, NULL);
	} else if (action == MODULE_STATE_GOING) {
		/* unlisted first: an ADD from now on cannot find it */
		mutex_lock(&kprof_tp.lock);
		list_for_each_entry_safe(m, tmp, &kprof_tp.mods, list) {
			if (m->mod == tpm->mod) {
				list_del(&m->list);
				kfree(m);
			}
		}
		mutex_unlock(&kprof_tp.lock);
		kprof_module_event(tpm->mod, false);
	}
	return NOTIFY_OK;
}

int kprof_tp_init(void)
{
	kprof_tp.nb.notifier_call = kprof_tp_notify;
	return register_tracepoint_module_notifier(&kprof_tp.nb);
}

/* After every probe is gone. */
void kprof_tp_exit(void)
{
	struct kprof_tp_mod *m, *tmp;

	unregister_tracepoint_module_notifier(&kprof_tp.nb);
	list_for_each_entry_safe(m, tmp, &kprof_tp.mods, list) {
		list_del(&m->list);
		kfree(m);
	}
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
	.module_event	= kprof_tp_module_event,
};
