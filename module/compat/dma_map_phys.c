// SPDX-License-Identifier: GPL-2.0
/* v6.18: dma_map_phys() and dma_unmap_phys(), beside dma_map_page_attrs(). */
#include <linux/dma-mapping.h>

void *kprof_compat_probe(void);
void *kprof_compat_probe(void)
{
	return dma_map_phys;
}
