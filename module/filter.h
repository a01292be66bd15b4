/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Keys and filters in the module (ABI 1.9 draft): ADD's validation
 * (filter.c) and the evaluator a handler calls.  The text forms, struct
 * validation and what each kind can evaluate are in the shared
 * include/kprofctl/filter.h.  Handlers of probes with keys or a filter
 * (kprof_probe.kf) call kprof_filter_match(), kprof_kf_keep_args() and
 * kprof_kf_key().
 */
#ifndef KPROF_MODULE_FILTER_H
#define KPROF_MODULE_FILTER_H

#include <linux/types.h>
#include <linux/bitops.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/ptrace.h>

#include "kprofctl/filter.h"
#include "probe.h"

/*
 * What a handler knows of a call.  Task fields and the CPU are read from
 * ->task and the running CPU only when a term or key needs them, so the
 * handler fills just what it has at hand.
 */
struct kprof_fvals {
	struct task_struct *task;	/* the call's task, usually current */
	struct pt_regs *regs;		/* at entry: arguments from here */
	const u64 *args;		/* else (a kretprobe's return): the
					 * ones kept, arg1 at [0]
					 */
	u64 retval;			/* the raw return register */
	unsigned long caller;		/* the return address */
	unsigned long fn;		/* the probed address (kprobe kinds) */
	u64 latency;			/* ns, entry to return */
};

/*
 * Argument n + 1 of the call.  At a function's entry the first arguments
 * are in registers (six on x86-64, eight on arm64), where
 * regs_get_kernel_argument() reads them as the ABI passes them.
 */
static __always_inline u64 kprof_arg(const struct kprof_fvals *v,
				     unsigned int n)
{
	return v->args ? v->args[n] : regs_get_kernel_argument(v->regs, n);
}

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

/*
 * COMM keys: comm up to its NUL, as one 64-bit value (FNV-1a), so that
 * bytes a rename left after the NUL do not make a second key.
 */
static __always_inline u64 kprof_comm_hash(const char *comm)
{
	u64 h = 0xcbf29ce484222325ULL;
	unsigned int i;

	for (i = 0; i < KPROF_COMM_LEN && comm[i]; i++)
		h = (h ^ (u8)comm[i]) * 0x100000001b3ULL;
	return h;
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
		x = kprof_arg(v, field - KPROF_F_ARG1);
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
 * Do all terms of @f (validated at ADD, kprof_kf_setup()'s half for
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
 * A function's return address at its entry (a kprobe at offset 0, or a
 * kretprobe's entry): the link register on arm64, the top of the stack on
 * x86.
 */
static __always_inline unsigned long kprof_entry_caller(struct pt_regs *regs)
{
#ifdef CONFIG_ARM64
	return procedure_link_pointer(regs);
#else
	return *(unsigned long *)kernel_stack_pointer(regs);
#endif
}

/*
 * Context: any probe context.  The value a key spec (valid) gives a call
 * of p: CALLER and STACK an opaque id (frames.h), 0 when its table is
 * full.
 */
static __always_inline u64 kprof_key_value(struct kprof_probe *p, u32 spec,
					   const struct kprof_fvals *v)
{
	u32 flags = KPROF_KEYSPEC_FLAGS(spec);
	u64 x;

	switch (KPROF_KEYSPEC_KIND(spec)) {
	case KPROF_KEY_RETVAL:
		x = v->retval;
		break;
	case KPROF_KEY_ARG:
		x = kprof_arg(v, KPROF_KEYSPEC_ARG(spec) - 1);
		break;
	case KPROF_KEY_PID:
		return (u32)v->task->pid;
	case KPROF_KEY_TGID:
		return (u32)v->task->tgid;
	case KPROF_KEY_CPU:
		return raw_smp_processor_id();
	case KPROF_KEY_COMM:
		return kprof_comm_hash(v->task->comm);
	case KPROF_KEY_CALLER:
		/* at a kprobe, from the entry's registers; a kretprobe's own */
		return kprof_frames_id1(&p->callers, v->regs ?
					kprof_entry_caller(v->regs) : v->caller);
	case KPROF_KEY_STACK:
		return kprof_stack_id(&p->stacks, v->fn, v->regs ?
				      kprof_entry_caller(v->regs) : v->caller);
	default:
		return 0;
	}
	/* no kernel address reaches the mapping: they all make one key */
	if (!(flags & (KPROF_KEYF_LOG2 | KPROF_KEYF_BOOL)) &&
	    x >= KPROF_KEY_KPTR && x < (u64)-KPROF_MAX_ERRNO)
		return KPROF_KEY_KPTR;
	x = kprof_reg_value(x, flags & KPROF_KEYF_S32);
	if (flags & KPROF_KEYF_BOOL)
		return x >= (u64)-KPROF_MAX_ERRNO;
	if (flags & KPROF_KEYF_LOG2)
		return x ? 1ULL << (fls64(x) - 1) : 0;
	return x;
}

/*
 * Context: a kretprobe entry handler.  The arguments p's keys read at
 * return, kept at args[n - 1]; the others are left alone.
 */
static __always_inline void kprof_kf_keep_args(struct kprof_probe *p,
					       struct pt_regs *regs, u64 *args)
{
	unsigned int mask = p->key_argmask, n;

	for (n = 0; mask; n++, mask >>= 1)
		if (mask & 1)
			args[n] = regs_get_kernel_argument(regs, n);
}

static __always_inline bool kprof_key_named(u32 spec)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);

	return kind == KPROF_KEY_PID || kind == KPROF_KEY_TGID ||
	       kind == KPROF_KEY_COMM;
}

/*
 * Context: any probe context.  The key table row of a call of p (which
 * has a key), and in *v1 its first key's value: "other keys" when the
 * table is full.  Task keys are named
 * by the comm at the key's first call.
 */
static __always_inline u32 kprof_kf_key(struct kprof_probe *p,
					const struct kprof_fvals *v, u64 *v1)
{
	u32 k0 = p->key[0], k1 = p->key[1];

	*v1 = kprof_key_value(p, k0, v);
	return kprof_key2_get(&p->keys, *v1, k1 ? kprof_key_value(p, k1, v) : 0,
			      kprof_key_named(k0) || kprof_key_named(k1) ?
			      v->task->comm : NULL);
}

int kprof_add_check_keys(const struct kprof_probe_add *arg);
int kprof_add_check_kind_keys(const struct kprof_probe_add *arg,
			      unsigned int type);
void kprof_kf_setup(struct kprof_probe *p, const struct kprof_probe_add *a);

#endif /* KPROF_MODULE_FILTER_H */
