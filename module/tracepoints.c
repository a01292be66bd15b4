// SPDX-License-Identifier: GPL-2.0
/*
 * Tracepoints found by name: most are not exported, so they cannot be
 * named at link time.  Core-kernel tracepoints come from
 * for_each_kernel_tracepoint(); those of modules from the tracepoint module
 * notifier, which also tells the core (the module_event hook) so that
 * deferred probes attach when their module loads and detach (state GONE)
 * before it goes.  Only modules that notifier announces are used: the
 * tracepoint core ignores modules with a bad taint (forced load,
 * proprietary) and would not say when they go.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>

#include "tracepoints.h"

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
	void (*module_event)(struct module *mod, bool coming);
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

struct tracepoint *kprof_tp_in_mod(struct module *mod, const char *name)
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
bool kprof_tp_mod_listed(struct module *mod)
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
 * Context: process, under the core's lock.  *mod is set to the defining module,
 * or NULL for the core kernel; the tracepoint stays valid until that
 *  module's GOING notification, which takes the core's lock.
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

/*
 * Context: process, holding the tracepoint module list mutex; so this
 * never runs while the core's lock is held by a path that wants that
 * mutex.
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
		kprof_tp.module_event(tpm->mod, true);
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
		kprof_tp.module_event(tpm->mod, false);
	}
	return NOTIFY_OK;
}

bool kprof_tp_announcing(struct module *mod)
{
	return READ_ONCE(kprof_tp.coming) == mod;
}

/* Last: it replays COMING for modules already loaded. */
int kprof_tp_init(void (*module_event)(struct module *mod, bool coming))
{
	kprof_tp.module_event = module_event;
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

int kprof_tp_register_all(struct tracepoint *const *tps, void *const *funcs,
			  unsigned int n, void *data)
{
	unsigned int i;
	int ret = 0;

	for (i = 0; i < n && !ret; i++)
		ret = tracepoint_probe_register(tps[i], funcs[i], data);
	if (!ret)
		return 0;
	/* tps[i - 1] failed: the ones before it come off */
	kprof_tp_unregister_all(tps, funcs, i - 1, data);
	tracepoint_synchronize_unregister();
	return ret;
}

void kprof_tp_unregister_all(struct tracepoint *const *tps,
			     void *const *funcs, unsigned int n, void *data)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		tracepoint_probe_unregister(tps[i], funcs[i], data);
}
