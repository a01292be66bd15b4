/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys and filters in the module (ABI 1.9 draft): ADD's validation
 * (filter.c) and the evaluator a handler calls.  The text forms, struct
 * validation and what each kind can evaluate are in the shared
 * include/kprofctl/filter.h.  No handler calls the evaluator yet.
 */
#ifndef KPROF_MODULE_FILTER_H
#define KPROF_MODULE_FILTER_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/smp.h>

#include "kprofctl/filter.h"

/*
 * What a handler knows of a call.  Task fields and the CPU are read from
 * ->task and the running CPU only when a term or key needs them, so the
 * handler fills just what it has at hand.
 */
struct kprof_fvals {
	struct task_struct *task;	/* the call's task, usually current */
	const u64 *args;		/* arg1 at [0]: needed by argument
					 * terms and keys (kprobe kinds)
					 */
	u64 retval;			/* the raw return register */
	u64 latency;			/* ns, entry to return */
};

/* KPROF_F_RETVAL .. _ARG6 with KPROF_TERM_S32 / KPROF_KEYF_S32 */
static __always_inline u64 kprof_reg_value(u64 x, bool is_int)
{
	return is_int ? (u64)(s64)(s32)x : x;
}

/* comm against a term's, up to the first NUL (what follows it may differ) */
static __always_inline bool kprof_comm_eq(const char *a, const char *b)
{
	unsigned int i;

	for (i = 0; i < KPROF_COMM_LEN; i++) {
		if (a[i] != b[i])
			return false;
		if (!a[i])
			break;
	}
	return true;
}

/* Context: any probe context.  One term of a valid filter. */
static __always_inline bool kprof_term_match(const struct kprof_term *t,
					     const struct kprof_fvals *v)
{
	unsigned int field = t->field;
	u64 x, c = t->value;

	switch (field) {
	case KPROF_F_COMM:
		return kprof_comm_eq(v->task->comm, t->comm) ==
		       (t->op == KPROF_OP_EQ);
	case KPROF_F_RETVAL:
		x = v->retval;
		break;
	case KPROF_F_PID:
		x = (u32)v->task->pid;
		break;
	case KPROF_F_TGID:
		x = (u32)v->task->tgid;
		break;
	case KPROF_F_CPU:
		x = raw_smp_processor_id();
		break;
	case KPROF_F_LATENCY:
		x = v->latency;
		break;
	default:	/* KPROF_F_ARG1 .. KPROF_F_ARG6 */
		x = v->args[field - KPROF_F_ARG1];
		break;
	}
	if (field <= KPROF_F_ARG6) {
		s64 sx = kprof_reg_value(x, t->flags & KPROF_TERM_S32);
		s64 sc = c;

		switch (t->op) {
		case KPROF_OP_EQ: return sx == sc;
		case KPROF_OP_NE: return sx != sc;
		case KPROF_OP_LT: return sx < sc;
		case KPROF_OP_LE: return sx <= sc;
		case KPROF_OP_GT: return sx > sc;
		case KPROF_OP_GE: return sx >= sc;
		default: return sx & sc;
		}
	}
	switch (t->op) {
	case KPROF_OP_EQ: return x == c;
	case KPROF_OP_NE: return x != c;
	case KPROF_OP_LT: return x < c;
	case KPROF_OP_LE: return x <= c;
	case KPROF_OP_GT: return x > c;
	case KPROF_OP_GE: return x >= c;
	default: return x & c;
	}
}

/*
 * Context: any probe context (no lock, no allocation; safe under NMI).
 * Do all terms of @f (validated at ADD, kprof_filter_split()'s half for
 * this point of the call) hold?  No filter is one test.
 */
static __always_inline bool kprof_filter_match(const struct kprof_filter *f,
					       const struct kprof_fvals *v)
{
	unsigned int i, nr = f->nr;

	if (likely(!nr))
		return true;
	for (i = 0; i < nr && i < KPROF_FILTER_TERMS; i++)
		if (!kprof_term_match(&f->term[i], v))
			return false;
	return true;
}

/*
 * Context: any probe context.  The value a key spec (valid) gives a call,
 * for the kinds that are a value; CALLER, STACK and COMM need id tables
 * (the handlers' work) and give 0 here.
 */
static __always_inline u64 kprof_key_value(u32 spec,
					   const struct kprof_fvals *v)
{
	u32 flags = KPROF_KEYSPEC_FLAGS(spec);
	u64 x;

	switch (KPROF_KEYSPEC_KIND(spec)) {
	case KPROF_KEY_RETVAL:
		x = v->retval;
		break;
	case KPROF_KEY_ARG:
		x = v->args[KPROF_KEYSPEC_ARG(spec) - 1];
		break;
	case KPROF_KEY_PID:
		return (u32)v->task->pid;
	case KPROF_KEY_TGID:
		return (u32)v->task->tgid;
	case KPROF_KEY_CPU:
		return raw_smp_processor_id();
	default:
		return 0;
	}
	x = kprof_reg_value(x, flags & KPROF_KEYF_S32);
	if (flags & KPROF_KEYF_BOOL)
		return x >= (u64)-KPROF_MAX_ERRNO;
	if (flags & KPROF_KEYF_LOG2)
		return x ? 1ULL << (fls64(x) - 1) : 0;
	return x;
}

int kprof_add_check_keys(const struct kprof_probe_add *arg);
int kprof_add_check_kind_keys(const struct kprof_probe_add *arg,
			      unsigned int type);
void kprof_filter_split(const struct kprof_filter *f,
			struct kprof_filter *entry, struct kprof_filter *exit);

#endif /* KPROF_MODULE_FILTER_H */
