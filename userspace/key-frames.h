/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Names of caller and stack key ids ("func+0x1c"), from the device or
 * from the capture behind it (d->cap), for show and save; named as
 * frames.h says.
 */
#ifndef KPROFCTL_KEY_FRAMES_H
#define KPROFCTL_KEY_FRAMES_H

#include <stdint.h>

#include "uapi/linux/kprofctl.h"
#include "frames.h"

struct kp_dev;

/*
 * A context (NULL: out of memory) that fetches each probe's addresses on
 * first use; the callbacks are kp_show_opts' caller_name and stack_frame:
 * a caller's "func+0x1c" (i 0), frame i of a stack, NULL when unknown or
 * hidden.
 */
void *kp_frames_new(struct kp_dev *d);
const char *kp_frames_caller(void *ctx, const struct kprof_probe_info *r,
			     uint64_t id, unsigned int i);
const char *kp_frames_stack(void *ctx, const struct kprof_probe_info *r,
			    uint64_t id, unsigned int i);
/* the errno that hid the addresses (EPERM without CAP_SYSLOG), 0 */
int kp_frames_err(void *ctx);
void kp_frames_free(void *ctx);

/* the errno that hides probe's stack frames, 0 when they are readable */
int kp_frames_stack_err(struct kp_dev *d, uint32_t probe);

#endif
