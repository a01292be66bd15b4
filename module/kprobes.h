/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the kprobe and kretprobe kinds share: a symbol from kallsyms
 * ("SYM" or "MOD:SYM"), registration through the kprobe core, and
 * following MOD when the probe was added with KPROF_ADD_DEFER.  Built with
 * the kprobe core or ftrace; without the core, kprobe.c and kretprobe.c
 * hook functions through ftrace alone.
 */
#ifndef KPROF_KPROBES_H
#define KPROF_KPROBES_H

#include <linux/kallsyms.h>
#include <linux/kprobes.h>

#include "probe.h"

/*
 * Without the kprobe core its handlers are still built (kretprobe.c,
 * fset-hit.c) but never registered: registration answers -EOPNOTSUPP.
 */
#ifndef CONFIG_KRETPROBES
static inline struct kretprobe *get_kretprobe(struct kretprobe_instance *ri)
{
	return NULL;
}

static inline unsigned long get_kretprobe_retaddr(struct kretprobe_instance *ri)
{
	return 0;
}
#endif

struct kprof_kp {
	struct kprof_probe p;
	struct kprobe *kp;		/* its own, or its kretprobe's */
	bool reg;			/* registered with the kprobe core */
	unsigned int offset;
	char sym[KSYM_NAME_LEN];
};

static inline struct kprof_kp *kprof_kp(struct kprof_probe *p)
{
	return container_of(p, struct kprof_kp, p);
}

int kprof_kp_parse_sym(struct kprof_kp *k, const char *s, size_t len);
/* Context: process.  The address of function "[MOD:]SYM", or -errno */
int kprof_kp_lookup(const char *sym, unsigned long *addr);
int kprof_kp_registered(struct kprof_kp *k, int err);
int kprof_kp_arm(struct kprof_probe *p);
void kprof_kp_disarm(struct kprof_probe *p);
bool kprof_kp_in_module(struct kprof_probe *p, struct module *mod);
bool kprof_kp_module_event(struct kprof_probe *p, struct module *mod,
			   bool coming);

#endif /* KPROF_KPROBES_H */
