// SPDX-License-Identifier: GPL-2.0
/* Numbers, durations and CPU lists: parsed from options, formatted back. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

#define NR_MASK_CPUS	(KPROF_CPUMASK_WORDS * 64)

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

/* a unit is required: "--slow 5" meant 5 ms to users, 5 ns to us */
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
	if (errno || end == s || !isalpha((unsigned char)*end))
		return -1;
	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++)
		if (!strcmp(end, u[i].sfx)) {
			if (v > UINT64_MAX / u[i].mul)
				return -1;
			*ns = v * u[i].mul;
			return 0;
		}
	return -1;
}

void kp_duration_error(const char *opt, const char *s, char *buf, size_t len)
{
	if (*s && strlen(s) < 24 && strspn(s, "0123456789") == strlen(s))
		snprintf(buf, len, "%s %s: give a unit: %sns, %sus, %sms or %ss",
			 opt, s, s, s, s, s);
	else
		snprintf(buf, len, "%s takes a number and a unit (800ns, 500us, "
			 "2ms, 1s), not '%s'", opt, s);
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

void kp_fmt_ns(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000000000ull, "s" }, { 1000000, "ms" }, { 1000, "us" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (ns >= u[i].div) {
			snprintf(buf, len, "%.4g%s", (double)ns / u[i].div,
				 u[i].unit);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64 "ns", ns);
}

/* KPROF_ADD_OWNED: deleted when the command that added it ends */
