/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included into every module source.  Version differences are
 * decided by compile tests (module/compat/, see compat-gen.sh), never by
 * LINUX_VERSION_CODE, so vendor kernels with backports get the right path.
 */
#ifndef KPROF_COMPAT_H
#define KPROF_COMPAT_H

/* before any kernel header, so every file's messages carry it */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include "compat-gen.h"

#include <linux/mm.h>

#ifndef KPROF_HAVE_VM_FLAGS_SET
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

#endif /* KPROF_COMPAT_H */
