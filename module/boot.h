/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boot-time probe lists (the probes= parameter, the device-tree node) and
 * the report of what became of them (KPROF_IOC_BOOT_REPORT).
 */
#ifndef KPROF_BOOT_H
#define KPROF_BOOT_H

#include <linux/compiler.h>
#include <linux/types.h>

#include "../uapi/linux/kprofctl.h"

void kprof_boot_params(void);
int kprof_boot_arm(u32 source, const char *origin, const char *spec,
		   const char *pmu, u64 slow);
void kprof_boot_disarm(u32 source, bool forget);
__printf(4, 5)
void kprof_boot_fail(u32 source, const char *origin, int error,
		     const char *fmt, ...);
int kprof_boot_check_pmu(const char *list, u32 *bad);
int kprof_boot_report(void __user *ubuf, u32 rec_size, u32 *count,
		      u32 *lost);

#endif /* KPROF_BOOT_H */
