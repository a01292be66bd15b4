/* SPDX-License-Identifier: GPL-2.0 */
/* The "linux,kprofctl" device-tree node: sizes, then probes when bound. */
#ifndef KPROF_OF_H
#define KPROF_OF_H

#include "size.h"

#ifdef CONFIG_OF
/* a size's property, for kprof_size_source() */
void kprof_of_size(const struct kprof_size *s);
void kprof_of_init(void);
void kprof_of_exit(void);
#else
static inline void kprof_of_size(const struct kprof_size *s)
{
}

static inline void kprof_of_init(void)
{
}

static inline void kprof_of_exit(void)
{
}
#endif

#endif /* KPROF_OF_H */
