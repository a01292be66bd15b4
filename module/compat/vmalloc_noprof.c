// SPDX-License-Identifier: GPL-2.0
/* v6.10: vmalloc() and kin are macros over their _noprof functions. */
#include <linux/vmalloc.h>

void *kprof_compat_probe(void);
void *kprof_compat_probe(void)
{
	return vmalloc_noprof;
}
