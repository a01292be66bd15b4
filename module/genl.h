/* SPDX-License-Identifier: GPL-2.0 */
/* The "kprofctl" generic netlink family: probe dumps and events. */
#ifndef KPROF_GENL_H
#define KPROF_GENL_H

#include "events.h"

struct kprof_leak;

int kprof_genl_init(void);
void kprof_genl_exit(void);
/* can the events group be closed to users without CAP_SYS_ADMIN? */
bool kprof_genl_restricted(void);
void kprof_genl_slow(const struct kprof_evrec *rec, unsigned int cpu);
void kprof_genl_probe(u32 event, const struct kprof_probe *p, u64 dropped,
		      u64 nmissed);
void kprof_genl_leak(const struct kprof_probe *p, const struct kprof_leak *l);

#endif /* KPROF_GENL_H */
