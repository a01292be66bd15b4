/* SPDX-License-Identifier: GPL-2.0 OR MIT */
/*
 * The probe kinds and what each accepts: one table that the module (core
 * and boot-time lists) and the CLI (spec checks, "add" options, names)
 * read, so a rule is written once.  A spec is "PREFIX:ARG"; ARG's grammar
 * is the kind's own (kprof_kind.syntax) and its backend parses it.
 */
#ifndef KPROFCTL_KINDS_H
#define KPROFCTL_KINDS_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/string.h>
#else
#include <stddef.h>
#include <string.h>
#endif

#include "../../uapi/linux/kprofctl.h"

/* kprof_kind.accepts: the options of struct kprof_probe_add a kind takes */
#define KPROF_ACCEPT_SLOW	(1U << 0)	/* ->slow_ns, stacks */
#define KPROF_ACCEPT_MAXACTIVE	(1U << 1)	/* ->maxactive */
#define KPROF_ACCEPT_PMU	(1U << 2)	/* ->pmu: per-call deltas */
#define KPROF_ACCEPT_DEFER	(1U << 3)	/* KPROF_ADD_DEFER */
/* KPROF_ADD_FAST, KPROF_ADD_KRETPROBE */
#define KPROF_ACCEPT_MECH	(1U << 4)

/* kprof_kind.flags */
/* DEFER only on "MOD:SYM": a core-kernel symbol has nothing to wait for */
#define KPROF_KIND_DEFER_MOD	(1U << 0)
/* follows its target's module: GONE when it goes, back when it loads */
#define KPROF_KIND_FOLLOWS_MOD	(1U << 1)
/* statistics per key (pair slots: nr_keys + "other") */
#define KPROF_KIND_KEYED	(1U << 2)
/* a latency histogram per call, not a hit count */
#define KPROF_KIND_LATENCY	(1U << 3)
/* kprobes: refused under lockdown (LOCKDOWN_KPROBES) */
#define KPROF_KIND_KPROBES	(1U << 4)
/* a function set: ARG is "[MOD:]GLOB", statistics per function */
#define KPROF_KIND_SET		(1U << 5)

struct kprof_kind {
	const char *prefix;	/* before the first ':' */
	unsigned int type;	/* KPROF_TYPE_* */
	unsigned int accepts;	/* KPROF_ACCEPT_* */
	unsigned int flags;	/* KPROF_KIND_* */
	const char *syntax;	/* the whole spec, for messages */
};

/* The kinds, in KPROF_TYPE_* order; *nr is set to their number. */
static inline const struct kprof_kind *kprof_kinds(unsigned int *nr)
{
	static const struct kprof_kind kinds[] = {
		{ "kprobe", KPROF_TYPE_KPROBE, KPROF_ACCEPT_DEFER,
		  KPROF_KIND_DEFER_MOD | KPROF_KIND_KPROBES,
		  "kprobe:[MOD:]SYM[+OFF]" },
		{ "kretprobe", KPROF_TYPE_KRETPROBE,
		  KPROF_ACCEPT_SLOW | KPROF_ACCEPT_MAXACTIVE |
		  KPROF_ACCEPT_PMU | KPROF_ACCEPT_DEFER | KPROF_ACCEPT_MECH,
		  KPROF_KIND_DEFER_MOD | KPROF_KIND_KPROBES |
		  KPROF_KIND_LATENCY, "kretprobe:[MOD:]SYM" },
		{ "tracepoint", KPROF_TYPE_TRACEPOINT, KPROF_ACCEPT_DEFER,
		  KPROF_KIND_FOLLOWS_MOD, "tracepoint:SUBSYS:NAME" },
		{ "pair", KPROF_TYPE_PAIR, KPROF_ACCEPT_SLOW,
		  KPROF_KIND_KEYED | KPROF_KIND_LATENCY, "pair:KIND" },
		{ "pmu", KPROF_TYPE_PMU, 0, 0, "pmu:EVENT[,EVENT...]" },
		/* kprobe and kretprobe with a glob (kprof_kind_of_spec) */
		{ "kprobe", KPROF_TYPE_KPROBE_SET, KPROF_ACCEPT_DEFER,
		  KPROF_KIND_DEFER_MOD | KPROF_KIND_FOLLOWS_MOD |
		  KPROF_KIND_KPROBES | KPROF_KIND_SET,
		  "kprobe:[MOD:]GLOB" },
		{ "kretprobe", KPROF_TYPE_KRETPROBE_SET,
		  KPROF_ACCEPT_SLOW | KPROF_ACCEPT_MAXACTIVE |
		  KPROF_ACCEPT_DEFER | KPROF_ACCEPT_MECH,
		  KPROF_KIND_DEFER_MOD | KPROF_KIND_FOLLOWS_MOD |
		  KPROF_KIND_KPROBES | KPROF_KIND_LATENCY | KPROF_KIND_SET,
		  "kretprobe:[MOD:]GLOB" },
		{ "sample", KPROF_TYPE_SAMPLE, 0, 0,
		  "sample:EVENT[:hz=N|:period=N]" },
		{ "offcpu", KPROF_TYPE_OFFCPU, 0, 0,
		  "offcpu:all|uninterruptible" },
		{ "mem", KPROF_TYPE_MEM, 0, KPROF_KIND_FOLLOWS_MOD, "mem:MOD" },
		{ NULL },
	};

	for (*nr = 0; kinds[*nr].prefix; (*nr)++)
		;
	return kinds;
}

/*
 * The kind of a spec's prefix (its first len bytes), or NULL: its set
 * kind if @set (and there is one), else its single-target kind.
 */
static inline const struct kprof_kind *
kprof_kind_by_prefix_set(const char *s, size_t len, int set)
{
	unsigned int nr, i;
	const struct kprof_kind *k = kprof_kinds(&nr);

	for (i = 0; i < nr; i++)
		if (strlen(k[i].prefix) == len &&
		    !strncmp(k[i].prefix, s, len) &&
		    !(k[i].flags & KPROF_KIND_SET) == !set)
			return &k[i];
	return NULL;
}

static inline const struct kprof_kind *kprof_kind_by_prefix(const char *s,
							   size_t len)
{
	return kprof_kind_by_prefix_set(s, len, 0);
}

/* Does ARG (after the prefix) name a set: a glob_match() pattern? */
static inline int kprof_arg_is_glob(const char *arg)
{
	return strpbrk(arg, "*?[") != NULL;
}

/*
 * The kind of a spec ("PREFIX:ARG"), or NULL; a glob in ARG makes it the
 * prefix's set kind where it has one ("tracepoint:*:NAME" is not a set).
 */
static inline const struct kprof_kind *kprof_kind_of_spec(const char *spec)
{
	const char *colon = strchr(spec, ':');
	const struct kprof_kind *k = NULL;

	if (!colon)
		return NULL;
	if (kprof_arg_is_glob(colon + 1))
		k = kprof_kind_by_prefix_set(spec, colon - spec, 1);
	return k ? k : kprof_kind_by_prefix(spec, colon - spec);
}

static inline const struct kprof_kind *kprof_kind_by_type(unsigned int type)
{
	unsigned int nr, i;
	const struct kprof_kind *k = kprof_kinds(&nr);

	for (i = 0; i < nr; i++)
		if (k[i].type == type)
			return &k[i];
	return NULL;
}

/*
 * "MOD:SYM" rather than "SYM" in a kprobe's ARG: the probe waits for MOD
 * (KPROF_ADD_DEFER) and follows it.
 */
static inline int kprof_sym_has_mod(const char *arg)
{
	return strchr(arg, ':') != NULL;
}

/* The pair kinds ("pair:NAME"), NULL-terminated, as the module offers them. */
static inline const char *const *kprof_pair_names(void)
{
	static const char *const names[] = {
		"irq", "softirq", "workqueue", "wakeup", "wakeup-pid", "block",
		NULL,
	};

	return names;
}

#endif /* KPROFCTL_KINDS_H */
