// SPDX-License-Identifier: GPL-2.0
/* v6.10 to v6.x: __alloc_pages_noprof(), the core alloc_pages_node() calls. */
#include <linux/gfp.h>

void *kprof_compat_probe(void);
void *kprof_compat_probe(void)
{
	return __alloc_pages_noprof;
}
