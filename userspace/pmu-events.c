// SPDX-License-Identifier: GPL-2.0
/* PMU event names (include/kprofctl/pmu_events.h) into what the module takes. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "pmu-events.h"
#include "units.h"
#include "kprofctl/pmu_events.h"

#define NR_DEFS	(sizeof(kprof_pmu_defs) / sizeof(kprof_pmu_defs[0]))

const struct kprof_pmu_def *kp_pmu_def(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_DEFS; i++)
		if (!strcmp(name, kprof_pmu_defs[i].name) ||
		    (kprof_pmu_defs[i].alias &&
		     !strcmp(name, kprof_pmu_defs[i].alias)))
			return &kprof_pmu_defs[i];
	return NULL;
}

void kp_pmu_known(char *buf, size_t len)
{
	size_t used = 0;
	unsigned int i;

	buf[0] = '\0';
	for (i = 0; i < NR_DEFS && used < len; i++) {
		const struct kprof_pmu_def *d = &kprof_pmu_defs[i];
		int n = snprintf(buf + used, len - used, "%s%s%s%s%s",
				 i ? ", " : "", d->name, d->alias ? " (" : "",
				 d->alias ? d->alias : "", d->alias ? ")" : "");

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

int kp_pmu_parse_events(const char *list, char *out, size_t outlen,
			char *err, size_t errlen)
{
	char buf[KPROF_PMU_SPEC_LEN], *s = buf, *tok, known[512];
	unsigned int n = 0;
	size_t used = 0;

	if (strlen(list) >= sizeof(buf)) {
		snprintf(err, errlen, "event list too long");
		return -1;
	}
	strcpy(buf, list);
	out[0] = '\0';
	while ((tok = strsep(&s, ","))) {
		const struct kprof_pmu_def *d;
		char name[32];
		uint64_t raw;
		int w;

		if (!*tok) {
			snprintf(err, errlen, "empty event name in '%s'", list);
			return -1;
		}
		if (++n > KPROF_PMU_MAX_EVENTS) {
			snprintf(err, errlen, "more than %u events",
				 KPROF_PMU_MAX_EVENTS);
			return -1;
		}
		if (!strncmp(tok, "0x", 2)) {
			if (kp_parse_u64(tok, 0, UINT64_MAX, &raw)) {
				snprintf(err, errlen, "bad raw event '%s'", tok);
				return -1;
			}
			if (raw > KPROF_PMU_RAW_MAX) {
				snprintf(err, errlen,
					 "raw event %s is out of range (0x0-0x%x: a PMUv3 event number)",
					 tok, KPROF_PMU_RAW_MAX);
				return -1;
			}
			snprintf(name, sizeof(name), "0x%" PRIx64, raw);
		} else if ((d = kp_pmu_def(tok))) {
			snprintf(name, sizeof(name), "%s", d->name);
		} else {
			kp_pmu_known(known, sizeof(known));
			snprintf(err, errlen,
				 "unknown event '%.40s'; known events: %s; or a raw event 0xNN",
				 tok, known);
			return -1;
		}
		w = snprintf(out + used, outlen - used, "%s%s", used ? "," : "",
			     name);
		if (w < 0 || (size_t)w >= outlen - used) {
			snprintf(err, errlen, "event list too long");
			return -1;
		}
		used += (size_t)w;
	}
	return 0;
}

/* the PMUv3 number of an event as the kernel was asked for it */
