// SPDX-License-Identifier: GPL-2.0
/*
 * ADD's keys and filter (ABI 1.9): validated with the rules the CLI
 * parses by (include/kprofctl/filter.h), then set up for the handlers.
 */
#include <linux/string.h>
#include <linux/kprobes.h>

#include "filter.h"
#include "core.h"

#ifdef CONFIG_X86_64
/* Context: any probe context.  A stack-passed argument (filter.h) */
noinline notrace unsigned long kprof_stack_arg(struct pt_regs *regs,
					       unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}
NOKPROBE_SYMBOL(kprof_stack_arg);
#endif

/* Context: any probe context.  kprof_filter_match_fast()'s slow half */
noinline notrace bool kprof_filter_match_stack(const struct kprof_cfilter *f,
					       struct task_struct *task,
					       struct pt_regs *regs)
{
	return __kprof_filter_match_fast(f, task, regs, false);
}
NOKPROBE_SYMBOL(kprof_filter_match_stack);

/* Context: process.  The struct rules of key[], nr_keys and filter. */
int kprof_add_check_keys(const struct kprof_probe_add *arg)
{
	if (kprof_keys_valid(arg->key, arg->nr_keys) ||
	    kprof_filter_valid(&arg->filter))
		return -EINVAL;
	return 0;
}

/*
 * Context: process.  Can a probe of @type (KPROF_TYPE_*) evaluate them?
 * -EINVAL otherwise.
 */
int kprof_add_check_kind_keys(const struct kprof_probe_add *arg,
			      unsigned int type)
{
	unsigned int i;

	if (kprof_filter_check(&arg->filter, type, NULL))
		return -EINVAL;
	for (i = 0; i < KPROF_MAX_KEYS; i++)
		if (arg->key[i] && kprof_key_check(arg->key[i], type, NULL))
			return -EINVAL;
	return 0;
}

/* A valid term as handlers evaluate it (see struct kprof_cterm) */
static void kprof_term_compile(struct kprof_cterm *c,
			       const struct kprof_term *t)
{
	static_assert(offsetof(struct task_struct, tgid) <= U16_MAX);
	memset(c, 0, sizeof(*c));
	c->s32 = !!(t->flags & KPROF_TERM_S32);
	switch (t->field) {
	case KPROF_F_RETVAL:
		c->src = KPROF_SRC_RETVAL;
		break;
	case KPROF_F_PID:
		c->src = KPROF_SRC_TASK;
		c->off = offsetof(struct task_struct, pid);
		break;
	case KPROF_F_TGID:
		c->src = KPROF_SRC_TASK;
		c->off = offsetof(struct task_struct, tgid);
		break;
	case KPROF_F_LATENCY:
		c->src = KPROF_SRC_LATENCY;
		break;
	case KPROF_F_COMM:
		c->src = KPROF_SRC_COMM;
		memcpy(c->comm, t->comm, sizeof(c->comm));
		c->neg = t->op == KPROF_OP_NE;
		return;
	case KPROF_F_CPU:
		c->src = KPROF_SRC_CPU;
		break;
	default:
		c->src = KPROF_SRC_ARG;
		c->off = t->field - KPROF_F_ARG1;
		break;
	}
	c->r = kprof_term_range(t);
}

/* task keys: rows keep the comm of their first call */
static bool kprof_key_named(u32 spec)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);

	return kind == KPROF_KEY_PID || kind == KPROF_KEY_TGID ||
	       kind == KPROF_KEY_COMM;
}

/*
 * Context: process.  p's keys and filter from a checked @a.  The
 * filter's terms go in two halves, each in the order written: those known
 * at entry (arguments, task, CPU) and those known at return (retval,
 * latency), so that a kretprobe drops a call at entry when it can.
 */
void kprof_kf_setup(struct kprof_probe *p, const struct kprof_probe_add *a)
{
	const struct kprof_filter *f = &a->filter;
	const struct kprof_term *t;
	bool slow = false;
	unsigned int i;

	p->filter = *f;
	memset(&p->f_entry, 0, sizeof(p->f_entry));
	memset(&p->f_exit, 0, sizeof(p->f_exit));
	p->key_argmask = 0;
	for (i = 0; i < f->nr && i < KPROF_FILTER_TERMS; i++) {
		t = &f->term[i];
		if (t->field == KPROF_F_RETVAL || t->field == KPROF_F_LATENCY)
			kprof_term_compile(&p->f_exit.term[p->f_exit.nr++], t);
		else
			kprof_term_compile(&p->f_entry.term[p->f_entry.nr++],
					   t);
		slow |= t->field == KPROF_F_CPU || t->field == KPROF_F_COMM;
	}
	for (i = 0; i < KPROF_MAX_KEYS; i++) {
		p->key[i] = a->key[i];
		if (KPROF_KEYSPEC_KIND(a->key[i]) == KPROF_KEY_ARG)
			p->key_argmask |= 1U << (KPROF_KEYSPEC_ARG(a->key[i]) - 1);
	}
	p->f_entry.nr_fast = slow ? 0 : p->f_entry.nr;
	p->key_named = kprof_key_named(p->key[0]) || kprof_key_named(p->key[1]);
	p->kf = p->key[0] || f->nr;
}
