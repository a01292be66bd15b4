// SPDX-License-Identifier: GPL-2.0
/* v6.3: vma->vm_flags became read-only; use vm_flags_{set,clear}(). */
#include <linux/mm.h>

void kprof_compat_probe(struct vm_area_struct *vma);
void kprof_compat_probe(struct vm_area_struct *vma)
{
	vm_flags_clear(vma, VM_MAYWRITE);
}
