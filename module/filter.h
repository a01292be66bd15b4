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
#include "kprobes.h"

#include "kprofctl/filter.h"
#include "probe.h"
#include "fast.h"

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
	struct pt_regs *ret_regs;	/* at a return: its value from here */
	u64 retval;			/* else (a fast return): this */
	unsigned long caller;		/* a fast return: its return address */
	unsigned long fp;		/* a fast return: the caller's frame
					 * record (arm64), 0: none
					 */
	struct kretprobe_instance *ri;	/* at a kretprobe's return: the
					 * caller and function from here
					 */
	unsigned long fn;		/* at a kprobe: the probed address */
	struct pt_regs *irq_regs;	/* a sample: the interrupted context */
	u64 latency;			/* ns, entry to return */
};

/*
 * Argument n + 1 at a function's entry (@regs), as the ABI passes it: the
 * first in registers (six on x86-64, eight on arm64).  x86-64 reads the
 * others from the stack with copy_from_kernel_nofault(), whose buffer
 * would cost every handler that inlines it a stack canary and a frame:
 * out of line.
 */
#ifdef CONFIG_X86_64
unsigned long kprof_stack_arg(struct pt_regs *regs, unsigned int n);

static __always_inline unsigned long kprof_entry_arg(struct pt_regs *regs,
						     unsigned int n)
{
	if (likely(n < 6))
		return regs_get_kernel_argument(regs, n);
	return kprof_stack_arg(regs, n);
}
#else
static __always_inline unsigned long kprof_entry_arg(struct pt_regs *regs,
						     unsigned int n)
{
	return regs_get_kernel_argument(regs, n);
}
#endif

/* Argument n + 1 of the call: kept at entry, or from entry's registers */
static __always_inline u64 kprof_arg(const struct kprof_fvals *v,
				     unsigned int n)
{
	return v->args ? v->args[n] : kprof_entry_arg(v->regs, n);
}

/*
 * The return value, read only by the terms and keys that use it.
 * regs_return_value() on arm64 also tests for a 32-bit user task, which a
 * kernel function's return never is.
 */
static __always_inline u64 kprof_retval(const struct kprof_fvals *v)
{
	if (!v->ret_regs)
		return v->retval;
#ifdef CONFIG_ARM64
	return v->ret_regs->regs[0];
#else
	return regs_return_value(v->ret_regs);
#endif
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

/* kprof_cterm.src: where a term's x comes from */
enum {
	KPROF_SRC_TASK,		/* a u32 of the task (pid, tgid) */
	KPROF_SRC_ARG,		/* an argument, at entry */
	KPROF_SRC_CPU,
	KPROF_SRC_RETVAL,
	KPROF_SRC_LATENCY,
	KPROF_SRC_COMM,
};

/* Context: any probe context.  Does x pass compiled term t? */
static __always_inline bool kprof_term_has(const struct kprof_cterm *t, u64 x)
{
	return kprof_range_has(&t->r, x);
}

/* an argument or the return value, as a C int if the term says so */
static __always_inline u64 kprof_term_reg(const struct kprof_cterm *t, u64 x)
{
	return t->s32 ? (u64)(s64)(s32)x : x;
}

/*
 * Context: any probe context.  A task or argument term (all that
 * kprof_filter_match_fast() sees), the arguments from entry's regs.
 */
static __always_inline bool kprof_term_match_fast(const struct kprof_cterm *t,
						  struct task_struct *task,
						  struct pt_regs *regs)
{
	if (t->src == KPROF_SRC_TASK)
		return kprof_term_has(t, *(const u32 *)((const u8 *)task +
							  t->off));
	return kprof_term_has(t, kprof_term_reg(t,
				kprof_entry_arg(regs, t->off)));
}

/* Context: any probe context.  One compiled term (struct kprof_cterm). */
static __always_inline bool kprof_term_match(const struct kprof_cterm *t,
					     const struct kprof_fvals *v)
{
	switch (t->src) {
	case KPROF_SRC_ARG:
		/* kept (a fast probe's entry): from there */
		if (v->args)
			return kprof_term_has(t, kprof_term_reg(t,
						v->args[t->off]));
		fallthrough;
	case KPROF_SRC_TASK:
		return kprof_term_match_fast(t, v->task, v->regs);
	case KPROF_SRC_CPU:
		return kprof_term_has(t, raw_smp_processor_id());
	case KPROF_SRC_RETVAL:
		return kprof_term_has(t, kprof_term_reg(t, kprof_retval(v)));
	case KPROF_SRC_LATENCY:
		return kprof_term_has(t, v->latency);
	default:
		return kprof_comm_eq(v->task->comm, t->comm) != t->neg;
	}
}

/*
 * Context: any probe context (no lock, no allocation; safe under NMI).
 * Do all terms of @f (kprof_kf_setup()'s half for this point of the
 * call) hold?  No filter is one test.
 */
static __always_inline bool kprof_filter_match(const struct kprof_cfilter *f,
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

bool kprof_filter_match_stack(const struct kprof_cfilter *f,
			      struct task_struct *task, struct pt_regs *regs);

/*
 * Context: any probe context.  kprof_filter_match() at a function's entry
 * for a filter of task and argument terms only (nr_fast), at the fewest
 * instructions; true for any other.  With @ool, a filter that reads a
 * stack-passed argument (x86-64) goes to kprof_filter_match_stack(), this
 * loop without @ool, out of line (a tail call): the read's frame is not
 * the usual call's.
 */
static __always_inline bool __kprof_filter_match_fast(const struct kprof_cfilter *f,
						      struct task_struct *task,
						      struct pt_regs *regs,
						      bool ool)
{
	const struct kprof_cterm *t = f->term, *end = t + f->nr_fast;

	for (; t < end; t++) {
		if (ool && IS_ENABLED(CONFIG_X86_64) &&
		    t->src != KPROF_SRC_TASK && t->off >= 6)
			return kprof_filter_match_stack(f, task, regs);
		if (!kprof_term_match_fast(t, task, regs))
			return false;
	}
	return true;
}

static __always_inline bool kprof_filter_match_fast(const struct kprof_cfilter *f,
						    struct task_struct *task,
						    struct pt_regs *regs)
{
	return __kprof_filter_match_fast(f, task, regs, true);
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
 * The call's return address and function, read only by the keys that use
 * them: at a kprobe from the entry's registers, at a kretprobe's return
 * from its instance; none at a tracepoint.
 */
static __always_inline unsigned long kprof_fv_caller(const struct kprof_fvals *v)
{
	if (v->regs)
		return kprof_entry_caller(v->regs);
	if (v->ri)
		return (unsigned long)get_kretprobe_retaddr(v->ri);
	/* a fast return's: maybe another return hook's trampoline */
	return kprof_fast_caller(v->caller);
}

/*
 * At a return, where the stack above the function goes on: the caller's
 * frame record (arm64: x29 as the function left it), 0 where unknown.
 * @own: the kretprobe instance being handled, which that stack does not
 * pass through.
 */
static __always_inline unsigned long kprof_fv_fp(const struct kprof_fvals *v,
						 struct llist_node **own)
{
#ifdef CONFIG_ARM64
	if (v->ri && v->ret_regs) {
#ifdef CONFIG_KRETPROBE_ON_RETHOOK
		*own = &v->ri->node.llist;
#else
		*own = &v->ri->llist;
#endif
		return v->ret_regs->regs[29];
	}
#endif
	*own = NULL;
	return v->fp;
}

static __always_inline unsigned long kprof_fv_fn(const struct kprof_fvals *v)
{
	if (v->ri)
		return (unsigned long)get_kretprobe(v->ri)->kp.addr;
	return v->fn;
}

/*
 * Context: any probe context.  The value of a key that is not a register:
 * the task's, the CPU, and CALLER and STACK as an opaque id (frames.h), 0
 * when its table is full.
 */
static __always_inline u64 kprof_key_task_value(struct kprof_probe *p,
						unsigned int kind,
						const struct kprof_fvals *v)
{
	struct llist_node *own;
	unsigned long fp;

	switch (kind) {
	case KPROF_KEY_PID:
		return (u32)v->task->pid;
	case KPROF_KEY_TGID:
		return (u32)v->task->tgid;
	case KPROF_KEY_CPU:
		return raw_smp_processor_id();
	case KPROF_KEY_COMM:
		return kprof_comm_hash(v->task->comm);
	case KPROF_KEY_CALLER:
		return kprof_frames_id1(&p->callers, kprof_fv_caller(v));
	case KPROF_KEY_STACK:
		if (v->irq_regs)
			return kprof_stack_id_regs(&p->stacks, v->irq_regs);
		fp = kprof_fv_fp(v, &own);
		return kprof_stack_id(&p->stacks, kprof_fv_fn(v),
				      kprof_fv_caller(v), fp, own);
	default:
		return 0;
	}
}

/*
 * Context: any probe context.  The value a key spec (valid) gives a call
 * of p.
 */
static __always_inline u64 kprof_key_value(struct kprof_probe *p, u32 spec,
					   const struct kprof_fvals *v)
{
	unsigned int kind = KPROF_KEYSPEC_KIND(spec);
	u32 flags = KPROF_KEYSPEC_FLAGS(spec);
	u64 x;

	/* register values first, the return value at one test */
	if (likely(kind == KPROF_KEY_RETVAL))
		x = kprof_retval(v);
	else if (kind == KPROF_KEY_ARG)
		x = kprof_arg(v, KPROF_KEYSPEC_ARG(spec) - 1);
	else
		return kprof_key_task_value(p, kind, v);
	/* no kernel address, tagged or not, reaches the mapping: one key */
	if (likely(!flags))
		return kprof_key_is_kptr(x, IS_ENABLED(CONFIG_ARM64)) ?
		       KPROF_KEY_KPTR : x;
	if (!(flags & (KPROF_KEYF_LOG2 | KPROF_KEYF_BOOL)) &&
	    kprof_key_is_kptr(x, IS_ENABLED(CONFIG_ARM64)))
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
			args[n] = kprof_entry_arg(regs, n);
}

/*
 * Context: any probe context.  The key table row of a call of p (which
 * has a key), and in *v1 its first key's value: "other keys" when the
 * table is full.  Task keys are named by the comm at the key's first
 * call.
 */
static __always_inline u32 kprof_kf_key(struct kprof_probe *p,
					const struct kprof_fvals *v, u64 *v1)
{
	u64 v2 = 0, tag;
	u32 k;

	*v1 = kprof_key_value(p, p->key[0], v);
	/* one key: no second value to hash or compare */
	if (likely(!p->key[1])) {
		tag = kprof_key2_tag(*v1, 0);
		k = kprof_key2_first(&p->keys, tag, *v1, 0, false);
	} else {
		v2 = kprof_key_value(p, p->key[1], v);
		tag = kprof_key2_tag(*v1, v2);
		k = kprof_key2_first(&p->keys, tag, *v1, v2, true);
	}
	if (likely(k != U32_MAX))
		return k;
	return kprof_key2_find(&p->keys, tag, *v1, v2,
			       p->key_named ? v->task->comm : NULL);
}

int kprof_add_check_keys(const struct kprof_probe_add *arg);
int kprof_add_check_kind_keys(const struct kprof_probe_add *arg,
			      unsigned int type);
void kprof_kf_setup(struct kprof_probe *p, const struct kprof_probe_add *a);

#endif /* KPROF_MODULE_FILTER_H */
