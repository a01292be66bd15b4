/* SPDX-License-Identifier: GPL-2.0 */
/* PMU event names: the table the CLI and module share, parsed and listed. */
#ifndef KPROFCTL_PMU_EVENTS_H
#define KPROFCTL_PMU_EVENTS_H

#include <stddef.h>

struct kprof_pmu_def;

/* the definition named (or aliased) name, NULL if there is none */
const struct kprof_pmu_def *kp_pmu_def(const char *name);

/*
 * "cycles,l1d_cache,0x11" into canonical names ("cpu_cycles", ...) joined
 * by commas in out.  0, or -1 with the reason in err.
 */
int kp_pmu_parse_events(const char *list, char *out, size_t outlen,
			char *err, size_t errlen);

/* "cpu_cycles (cycles), ..." for messages and --help */
void kp_pmu_known(char *buf, size_t len);

#endif
