/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a kernel stack's frame is named, one rule for show, save, profile,
 * report, flame graphs and watch.
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
 * Frame i of stack fr (depth frames, innermost first, a 0 frame ends it)
 * of probe r (NULL: an event's stack, as watch gets it).  A sample taken
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
