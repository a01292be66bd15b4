/* SPDX-License-Identifier: GPL-2.0 */
/* Numbers, durations and CPU lists: parsed from options, formatted back. */
#ifndef KPROFCTL_UNITS_H
#define KPROFCTL_UNITS_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"

/* Whole-string unsigned decimal or 0x hex in [min, max]; 0 or -1. */
int kp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* "500us", "2ms", "1s", "250ns" into *ns; a bare number is -1. 0 or -1. */
int kp_parse_duration(const char *s, uint64_t *ns);
/* why s is refused as a duration of option opt, with the forms it takes */
void kp_duration_error(const char *opt, const char *s, char *buf, size_t len);

/*
 * "0-3,6" into mask (KPROF_CPUMASK_WORDS words); every CPU must be below
 * nr_cpus and the list non-empty.  0 or -1 with a reason in err.
 */
int kp_parse_cpulist(const char *s, unsigned int nr_cpus, __u64 *mask,
		     char *err, size_t errlen);

/* "0-3,6" back from a mask, for display. */
void kp_format_cpulist(const __u64 *mask, char *buf, size_t len);

/* "1.23ms" style, 3-4 significant digits. */
void kp_fmt_ns(uint64_t ns, char *buf, size_t len);

#endif
