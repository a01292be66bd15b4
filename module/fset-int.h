/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A function set (fset.c) as its files share it: fset-hit.c runs on a
 * hit, fset-hook.c hooks the functions (ftrace, kprobes), fset.c is the
 * backend and the set's slot of the mapping.
 */
#ifndef KPROF_FSET_INT_H
#define KPROF_FSET_INT_H

#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

#include "probe.h"
#include "kprobes.h"
#include "funcs.h"
#include "fast.h"

#if defined(CONFIG_DYNAMIC_FTRACE) && defined(CONFIG_FUNCTION_TRACER)
#define KPROF_SET_FTRACE	1
#else
#define KPROF_SET_FTRACE	0
#endif

/* a kprobe or kretprobe of one function, and the way back to its set */
struct kprof_fkp {
	union {
		struct kprobe kp;
		struct kretprobe rp;
	};
	struct kprof_fset *set;
	u32 idx;
	bool reg;
};

struct kprof_fset {
	struct kprof_probe p;
	char mod[MODULE_NAME_LEN];	/* "": the core kernel */
	char glob[KPROF_SPEC_LEN];
	bool latency;
	u32 mech;			/* KPROF_MECH_* */
	/* the functions, sorted by name, and how many are hooked */
	struct kprof_fn *fns;
	u32 nr, nr_probed;
	/* the set slot: nr x struct kprof_func, then a row per CPU */
	int slot;
	struct kprof_func *map;
	u8 *rows;
	size_t cpu_stride;
	u32 func_stride;
	/* KPROF_MECH_FTRACE */
#if KPROF_SET_FTRACE
	struct ftrace_ops ops;
#endif
	struct kprof_fnhash hash;
	bool ops_filtered, ops_reg;
	/* a latency set through ftrace: fast.c's calls, ADD's maxactive */
	bool fast;
	/*
	 * fast by default, not asked for: a function it cannot follow gets
	 * a kretprobe (kps[], KPROF_FUNC_KRETPROBE), not skipped
	 */
	bool fallback;
	u32 limit;
#if KPROF_FAST
	struct kprof_fhook fh;
#endif
	/* KPROF_MECH_KPROBES, or a fallback's KPROF_FUNC_KRETPROBE ones */
	struct kprof_fkp *kps;
};

static inline struct kprof_fset *kprof_fset(struct kprof_probe *p)
{
	return container_of(p, struct kprof_fset, p);
}

static __always_inline void *kprof_fset_cell(struct kprof_fset *s,
					     unsigned int cpu, u32 f)
{
	return s->rows + cpu * s->cpu_stride + (size_t)f * s->func_stride;
}

/* fset-hit.c: the handlers the hooks install */
#if KPROF_SET_FTRACE
void kprof_fset_ftrace(unsigned long ip, unsigned long parent_ip,
		       struct ftrace_ops *op, struct ftrace_regs *fregs);
void kprof_fset_ftrace_kf(unsigned long ip, unsigned long parent_ip,
			  struct ftrace_ops *op, struct ftrace_regs *fregs);
#endif
#if KPROF_FAST
void kprof_fset_fast_entry(unsigned long ip, unsigned long parent_ip,
			   struct ftrace_ops *op, struct ftrace_regs *fregs);
void kprof_fset_fast_entry_kf(unsigned long ip, unsigned long parent_ip,
			      struct ftrace_ops *op,
			      struct ftrace_regs *fregs);
void kprof_fset_fast_exit(struct kprof_fhook *h, struct kprof_fcall *c,
			  u64 retval, unsigned long caller, unsigned long fp);
#endif
int kprof_fset_kprobe(struct kprobe *kp, struct pt_regs *regs);
int kprof_fset_entry(struct kretprobe_instance *ri, struct pt_regs *regs);
int kprof_fset_return(struct kretprobe_instance *ri, struct pt_regs *regs);

/* fset-hook.c: hooking the functions, under the core's lock */
void kprof_fn_skip(struct kprof_fn *fn, u16 reason, int err);
int kprof_fset_ftrace_attach(struct kprof_fset *s);
void kprof_fset_ftrace_detach(struct kprof_fset *s);
int kprof_fset_ftrace_arm(struct kprof_fset *s);
void kprof_fset_ftrace_disarm(struct kprof_fset *s);
void kprof_fset_ftrace_unhook(struct kprof_fset *s);
int kprof_fset_ftrace_remove(struct kprof_fset *s, unsigned long *ips,
			     u32 n);
u32 kprof_fset_count(const struct kprof_fset *s, u32 mask, u32 want);
u32 kprof_fset_hooked(const struct kprof_fset *s);
int kprof_fset_kprobes_attach(struct kprof_fset *s, bool armed,
			      bool fallback);
void kprof_fset_kprobes_unreg(struct kprof_fset *s, bool init_only);
void kprof_fset_kprobes_detach(struct kprof_fset *s);
struct kprobe *kprof_fkp_kprobe(struct kprof_fset *s, u32 i);
int kprof_fset_kprobes_arm(struct kprof_fset *s);
void kprof_fset_kprobes_disarm(struct kprof_fset *s);

#endif /* KPROF_FSET_INT_H */
