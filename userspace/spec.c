// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec.h"
#include "pmu.h"

#define NR_MASK_CPUS	(KPROF_CPUMASK_WORDS * 64)

static int sym_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || s[0] == ':' || s[len - 1] == ':')
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && !strchr("_.:$", s[i]))
			return 0;
	return 1;
}

const char *const kp_pair_kinds[] = {
	"irq", "softirq", "workqueue", "wakeup", "wakeup-pid", "block", NULL,
};

int kp_is_pair(const char *name)
{
	unsigned int i;

	for (i = 0; kp_pair_kinds[i]; i++)
		if (!strcmp(name, kp_pair_kinds[i]))
			return 1;
	return 0;
}

int kp_parse_spec(const char *spec, char *err, size_t errlen)
{
	const char *sym, *plus;
	uint64_t off;
	int type;

	if (strlen(spec) >= KPROF_SPEC_LEN) {
		snprintf(err, errlen, "spec longer than %d characters",
			 KPROF_SPEC_LEN - 1);
		return 0;
	}
	if (!strncmp(spec, "kprobe:", 7)) {
		type = KPROF_TYPE_KPROBE;
		sym = spec + 7;
	} else if (!strncmp(spec, "kretprobe:", 10)) {
		type = KPROF_TYPE_KRETPROBE;
		sym = spec + 10;
	} else if (!strncmp(spec, "tracepoint:", 11)) {
		const char *name = strchr(spec + 11, ':');
		/* "*:NAME": NAME whatever its subsystem (or it has none) */
		const char *sys = strncmp(spec + 11, "*:", 2) ? spec + 11 :
				  spec + 12;

		if (!name || name == spec + 11 || !name[1] ||
		    strspn(sys, "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_:") !=
		    strlen(sys) || strchr(name + 1, ':')) {
			snprintf(err, errlen,
				 "bad tracepoint '%s' (expected tracepoint:SUBSYS:NAME)",
				 spec);
			return 0;
		}
		return KPROF_TYPE_TRACEPOINT;
	} else if (!strncmp(spec, "pair:", 5)) {
		if (!kp_is_pair(spec + 5)) {
			snprintf(err, errlen,
				 "unknown pair '%s' (irq, softirq, workqueue, wakeup, wakeup-pid or block)",
				 spec + 5);
			return 0;
		}
		return KPROF_TYPE_PAIR;
	} else if (!strncmp(spec, "pmu:", 4)) {
		char list[KPROF_PMU_SPEC_LEN], why[640];

		if (kp_pmu_parse_events(spec + 4, list, sizeof(list), why,
					sizeof(why))) {
			snprintf(err, errlen, "%s", why);
			return 0;
		}
		return KPROF_TYPE_PMU;
	} else {
		snprintf(err, errlen,
			 "unknown probe type in '%s' (use kprobe:SYM[+OFF], kretprobe:SYM, tracepoint:SUBSYS:NAME, pmu:EVENTS, or a pair: irq, softirq, workqueue, wakeup, block)",
			 spec);
		return 0;
	}
	plus = strrchr(sym, '+');
	if (plus && type == KPROF_TYPE_KRETPROBE) {
		snprintf(err, errlen, "a kretprobe takes no offset: '%s'", spec);
		return 0;
	}
	if (plus && kp_parse_u64(plus + 1, 0, UINT32_MAX, &off)) {
		snprintf(err, errlen, "bad offset '%s'", plus + 1);
		return 0;
	}
	if (!sym_ok(sym, plus ? (size_t)(plus - sym) : strlen(sym))) {
		snprintf(err, errlen, "bad symbol in '%s' (expected SYM or MOD:SYM)",
			 spec);
		return 0;
	}
	return type;
}

int kp_parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	const char *c;
	int base = 10;
	char *end;

	if (!s)
		return -1;
	/* base 10 unless 0x is written: "010" is ten, not octal eight */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		base = 16;
	}
	/* digits only: strtoull() would take spaces, a sign or a 2nd "0x" */
	if (!*s)
		return -1;
	for (c = s; *c; c++)
		if (base == 10 ? !isdigit((unsigned char)*c) :
				 !isxdigit((unsigned char)*c))
			return -1;
	errno = 0;
	v = strtoull(s, &end, base);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int kp_parse_duration(const char *s, uint64_t *ns)
{
	static const struct { const char *sfx; uint64_t mul; } u[] = {
		{ "ns", 1 }, { "us", 1000 }, { "ms", 1000000 },
		{ "s", 1000000000 },
	};
	unsigned long long v;
	unsigned int i;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	if (!*end) {
		*ns = v;
		return 0;
	}
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcmp(end, u[i].sfx)) {
			if (v > UINT64_MAX / u[i].mul)
				return -1;
			*ns = v * u[i].mul;
			return 0;
		}
	return -1;
}

int kp_parse_cpulist(const char *s, unsigned int nr_cpus, __u64 *mask,
		     char *err, size_t errlen)
{
	char buf[256], *tok, *save = NULL;
	int any = 0;

	memset(mask, 0, KPROF_CPUMASK_WORDS * sizeof(*mask));
	if (strlen(s) >= sizeof(buf)) {
		snprintf(err, errlen, "CPU list too long");
		return -1;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint64_t lo, hi, c;

		if (dash)
			*dash = '\0';
		if (kp_parse_u64(tok, 0, UINT32_MAX, &lo) ||
		    (dash && kp_parse_u64(dash + 1, 0, UINT32_MAX, &hi))) {
			snprintf(err, errlen, "bad CPU list '%s'", s);
			return -1;
		}
		if (!dash)
			hi = lo;
		if (hi < lo) {
			snprintf(err, errlen, "bad CPU range %llu-%llu",
				 (unsigned long long)lo, (unsigned long long)hi);
			return -1;
		}
		if (hi >= nr_cpus || hi >= NR_MASK_CPUS) {
			snprintf(err, errlen,
				 "CPU %llu does not exist (this system has CPUs 0-%u)",
				 (unsigned long long)hi, nr_cpus - 1);
			return -1;
		}
		for (c = lo; c <= hi; c++)
			mask[c / 64] |= 1ULL << (c % 64);
		any = 1;
	}
	if (!any) {
		snprintf(err, errlen, "empty CPU list");
		return -1;
	}
	return 0;
}

void kp_format_cpulist(const __u64 *mask, char *buf, size_t len)
{
	unsigned int c = 0, start;
	size_t used = 0;

	buf[0] = '\0';
	while (c < NR_MASK_CPUS) {
		if (!(mask[c / 64] & (1ULL << (c % 64)))) {
			c++;
			continue;
		}
		start = c;
		while (c + 1 < NR_MASK_CPUS &&
		       (mask[(c + 1) / 64] & (1ULL << ((c + 1) % 64))))
			c++;
		if (used < len)
			used += snprintf(buf + used, len - used, "%s%u",
					 used ? "," : "", start);
		if (c > start && used < len)
			used += snprintf(buf + used, len - used, "-%u", c);
		c++;
	}
}
