/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The backend of each probe kind, one file each; add.c lists them in one
 * table.  A kind the kernel cannot do (no kprobes nor ftrace...) has no row
 * and its specs fail with -EOPNOTSUPP.
 */
#ifndef KPROF_BACKENDS_H
#define KPROF_BACKENDS_H

#include "probe.h"
#include "fast.h"

/*
 * The function kinds (kprobe, kretprobe and their sets): through the
 * kprobe core, or where the kernel has none through ftrace alone.
 */
#define KPROF_FUNC_KINDS	(IS_ENABLED(CONFIG_KPROBES) || KPROF_FAST)

/* mem: the kmem tracepoints, and modules found by name (funcs.c) */
#define KPROF_MEM_KIND		(IS_ENABLED(CONFIG_TRACEPOINTS) && \
				 (IS_ENABLED(CONFIG_KPROBES) || \
				  IS_ENABLED(CONFIG_DYNAMIC_FTRACE)))

extern const struct kprof_backend kprof_kprobe_backend;	/* kprobes.c */
extern const struct kprof_backend kprof_kretprobe_backend;	/* kprobes.c */
extern const struct kprof_backend kprof_tracepoint_backend;	/* tpprobe.c */
extern const struct kprof_backend kprof_pair_backend;		/* pairs.c */
extern const struct kprof_backend kprof_pmu_backend;		/* pmuprobe.c */
extern const struct kprof_backend kprof_kprobe_set_backend;	/* fset.c */
extern const struct kprof_backend kprof_kretprobe_set_backend;	/* fset.c */
extern const struct kprof_backend kprof_sample_backend;	/* sampler.c */
extern const struct kprof_backend kprof_offcpu_backend;	/* offcpu.c */
extern const struct kprof_backend kprof_mem_backend;		/* memprobe.c */

#endif /* KPROF_BACKENDS_H */
