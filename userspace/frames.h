/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a kernel stack's frame is named: one rule for show, save, profile,
 * report, flame graphs and watch, so that a stack reads the same in each.
 *
 * A frame is a return address, except frame 0 of a sample (the sampled,
 * interrupted pc) and frame 0 of a kprobe's or kretprobe's stack key (the
 * probed function's own address: the module starts those stacks at the
 * function).  A return address is the instruction after the call,
 * so it is looked up one byte back, at the call: a call that ends its
 * function (a noreturn callee, a tail) names the caller, not the next
 * function.  Its name is "func+0xOFF", OFF the offset of the return
 * address itself in func, as the kernel's %pS prints it.  A sampled pc is
 * looked up at itself.  With KP_FRAME_FUNC (folded stacks, flame graphs,
 * profile's report, which add up frames of one function) the name is
 * "func" alone, looked up the same way.  Where kallsyms hides addresses
 * (no CAP_SYSLOG, kptr_restrict) frames stay unnamed.
 */
#ifndef KPROFCTL_FRAMES_H
#define KPROFCTL_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"
#include "syms.h"

/*
 * The one callback type that names frames: frame i (innermost first) of
 * probe r's stack id, or its caller id (i 0); NULL past the last frame,
 * or when the reader may not see it (CAP_SYSLOG) or it is unknown.
 */
typedef const char *kp_frame_fn(void *ctx, const struct kprof_probe_info *r,
				uint64_t id, unsigned int i);

/* kp_frame_name()'s flags: the function only, for folded stacks */
#define KP_FRAME_FUNC	1

/*
 * Is frame i of probe r's stacks an address to name as it is (a sampled
 * pc, a probed function) rather than a return address?
 */
static inline int kp_frame_is_pc(const struct kprof_probe_info *r,
				 unsigned int i)
{
	return r && !i && (r->type == KPROF_TYPE_SAMPLE ||
			   r->type == KPROF_TYPE_KPROBE ||
			   r->type == KPROF_TYPE_KRETPROBE);
}

/*
 * Frame i of stack fr (depth frames, innermost first, a 0 frame ends it)
 * of probe r (NULL: return addresses only: an event's stack, as watch
 * gets it, or a caller).  A sample taken
 * in user mode names "[user]" then its process (kp_user_frame()).  NULL
 * past the last frame; where no symbol covers the address (or kallsyms
 * hides it) NULL, or "[unknown]" with KP_FRAME_FUNC.  The name may be buf.
 */
const char *kp_frame_name(const struct kp_syms *s,
			  const struct kprof_probe_info *r, const uint64_t *fr,
			  unsigned int depth, unsigned int i, unsigned int flags,
			  char *buf, size_t len);

/*
 * Frame i of a user-mode sample's frames fr (depth of them, fr[0] being
 * KPROF_FRAME_USER; then its tgid and its comm in two frames' bytes):
 * "[user]", then its comm (or "pid N" where none came), then NULL.
 * Either string may be buf.
 */
const char *kp_user_frame(const uint64_t *fr, unsigned int depth,
			  unsigned int i, char *buf, size_t len);

#endif
