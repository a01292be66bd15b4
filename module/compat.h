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

#include <net/genetlink.h>

#ifdef KPROF_HAVE_GENL_DUMPIT_INFO_INFO
#define kprof_genl_dump_attrs(cb)	(genl_dumpit_info(cb)->info.attrs)
#else
#define kprof_genl_dump_attrs(cb)	(genl_dumpit_info(cb)->attrs)
#endif

/* strict attribute and header validation from this command on */
#ifdef KPROF_HAVE_GENL_RESV_START_OP
#define KPROF_GENL_RESV_START_OP(op)	.resv_start_op = (op),
#else
#define KPROF_GENL_RESV_START_OP(op)
#endif

/*
 * Without it any user may join the events group on this kernel, so
 * KPROF_ADD_STACK is refused; see the README (Radxa's BSP may lack the
 * 6.1.y backport).  KPROF_TEST_OPEN_EVENTS (KCFLAGS) builds that variant
 * on any kernel, for the test of the refusal.
 */
#if !defined(KPROF_HAVE_GENL_MCAST_CAP) || defined(KPROF_TEST_OPEN_EVENTS)
#undef GENL_MCAST_CAP_SYS_ADMIN
#define GENL_MCAST_CAP_SYS_ADMIN	0
#endif

#endif /* KPROF_COMPAT_H */
