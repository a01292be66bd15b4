/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --snapshot, --trace-off and --mark: what a slow call does to ftrace
 * (KPROF_ADD_FTRACE), from the options to ADD's fields, the module's
 * refusals to sentences, and a slow-call event's KPROF_GENL_FT_* to words.
 */
#ifndef KPROFCTL_FTRACE_ACT_H
#define KPROFCTL_FTRACE_ACT_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"

struct kp_ftrace_opts {
	uint32_t flags;			/* KPROF_FT_* */
	uint32_t max;			/* --snapshot=N, 0: once */
	char instance[KPROF_INSTANCE_LEN];	/* --mark=INSTANCE */
};

/* which option */
enum { KP_FT_OPT_SNAPSHOT, KP_FT_OPT_TRACE_OFF, KP_FT_OPT_MARK };

/* One option with its argument (NULL: none) into f; 0 or -1 with err. */
int kp_ftrace_opt(int which, const char *arg, struct kp_ftrace_opts *f,
		  char *err, size_t len);
/*
 * f into ADD's fields for a probe with slow_ns, on a module of ABI minor
 * abi_minor; 0, or -1 with err (a usage error when 2 is returned, else 1:
 * the module cannot).
 */
int kp_ftrace_fill(const struct kp_ftrace_opts *f, uint64_t slow_ns,
		   unsigned int abi_minor, struct kprof_probe_add *a,
		   char *err, size_t len);
/* why ADD with these fields failed with -errno err, or NULL: not ours */
const char *kp_ftrace_refusal(const struct kprof_probe_add *a, int err);
/* a slow-call event's KPROF_GENL_FT_* as words, "" for 0 */
const char *kp_ftrace_did(uint32_t ft, char *buf, size_t len);

#endif
