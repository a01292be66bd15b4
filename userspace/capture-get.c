// SPDX-License-Identifier: GPL-2.0
/*
 * A capture's fields read with their checks (type, range), failures
 * written as "where: what" for the user; and the per-CPU blocks.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "capture-get.h"
#include "kprofctl/hist.h"

int __attribute__((format(printf, 2, 3)))
kp_rd_bad(struct rd *x, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (x->where && x->where[0])
		snprintf(x->err, x->errlen, "%s: %s", x->where, why);
	else
		snprintf(x->err, x->errlen, "%s", why);
	return -1;
}

struct json_object *kp_rd_member(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

void kp_rd_store64(void *out, uint64_t v)
{
	memcpy(out, &v, sizeof(v));
}

int kp_rd_u64_(struct rd *x, struct json_object *o, const char *k,
	       uint64_t max, int64_t def, void *outp)
{
	uint64_t v = 0, *out = &v;
	int ret = kp_rd_u64_val(x, o, k, max, def, out);

	if (!ret)
		kp_rd_store64(outp, v);
	return ret;
}

int kp_rd_u64_val(struct rd *x, struct json_object *o, const char *k,
		  uint64_t max, int64_t def, uint64_t *out)
{
	struct json_object *v = kp_rd_member(o, k);
	const char *s;
	char *end;

	if (!v) {
		if (def < 0)
			return kp_rd_bad(x, "\"%s\" is missing", k);
		*out = (uint64_t)def;
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return kp_rd_bad(x, "\"%s\" is not an integer", k);
	/* json-c keeps the text: read it unsigned, full 64 bits */
	s = json_object_get_string(v);
	if (!s || *s == '-')
		return kp_rd_bad(x, "\"%s\" is negative", k);
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *end)
		return kp_rd_bad(x, "\"%s\" is out of range", k);
	if (*out > max)
		return kp_rd_bad(x, "\"%s\" is %" PRIu64 ", more than %" PRIu64, k,
			   *out, max);
	return 0;
}

int kp_rd_u32(struct rd *x, struct json_object *o, const char *k,
	      uint64_t max, int64_t def, uint32_t *out)
{
	uint64_t v;

	if (kp_rd_u64(x, o, k, max < UINT32_MAX ? max : UINT32_MAX, def, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* a string member into buf (len with its NUL); absent: "" if opt */
int kp_rd_str(struct rd *x, struct json_object *o, const char *k,
	      char *buf, size_t len, int opt)
{
	struct json_object *v = kp_rd_member(o, k);
	const char *s;
	size_t n;

	buf[0] = '\0';
	if (!v) {
		if (opt)
			return 0;
		return kp_rd_bad(x, "\"%s\" is missing", k);
	}
	if (!json_object_is_type(v, json_type_string))
		return kp_rd_bad(x, "\"%s\" is not a string", k);
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (n >= len || strlen(s) != n)
		return kp_rd_bad(x, "\"%s\" is longer than %zu bytes or holds a NUL", k,
			   len - 1);
	memcpy(buf, s, n + 1);
	return 0;
}

struct json_object *kp_rd_arr(struct rd *x, struct json_object *o,
			      const char *k, int opt)
{
	struct json_object *v = kp_rd_member(o, k);

	if (!v) {
		if (!opt)
			kp_rd_bad(x, "\"%s\" is missing", k);
		return NULL;
	}
	if (!json_object_is_type(v, json_type_array)) {
		kp_rd_bad(x, "\"%s\" is not an array", k);
		return NULL;
	}
	return v;
}

/* element i of array a as an unsigned integer <= max */
int kp_rd_arr_u64_(struct rd *x, struct json_object *a, size_t i,
		   uint64_t max, const char *what, void *outp)
{
	struct json_object *v = json_object_array_get_idx(a, i);
	uint64_t val, *out = &val;
	const char *s;
	char *end;

	if (!v || !json_object_is_type(v, json_type_int))
		return kp_rd_bad(x, "%s: not an integer", what);
	s = json_object_get_string(v);
	if (!s || *s == '-')
		return kp_rd_bad(x, "%s: negative", what);
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *end || *out > max)
		return kp_rd_bad(x, "%s: out of range", what);
	kp_rd_store64(outp, val);
	return 0;
}

/* ---- per-CPU blocks ------------------------------------------------------ */

/* [[index, count], ...] into hist (adding; indexes ascending, unique) */
int kp_rd_buckets(struct rd *x, struct json_object *a, __u64 *hist,
		  __u32 *fhist, unsigned int nr, uint64_t count)
{
	size_t i, n;
	uint64_t idx, c, total = 0;
	int64_t last = -1;

	if (!a || !json_object_is_type(a, json_type_array))
		return kp_rd_bad(x, "\"buckets\" is not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(a, i);

		if (!p || !json_object_is_type(p, json_type_array) ||
		    json_object_array_length(p) != 2)
			return kp_rd_bad(x, "bucket %zu is not [index, count]", i);
		if (kp_rd_arr_u64(x, p, 0, nr - 1, "bucket index", &idx) ||
		    kp_rd_arr_u64(x, p, 1, fhist ? UINT32_MAX : UINT64_MAX,
				  "bucket count", &c))
			return -1;
		if ((int64_t)idx <= last)
			return kp_rd_bad(x, "bucket indexes are not ascending");
		/* no run counts that many calls: a corrupted file */
		if (c >> 63)
			return kp_rd_bad(x, "bucket %" PRIu64 " holds %" PRIu64
					 " calls, 2^63 or more", idx, c);
		last = (int64_t)idx;
		if (hist)
			hist[idx] = c;
		else
			fhist[idx] = (__u32)c;
		if (total + c < total)
			return kp_rd_bad(x, "bucket counts overflow");
		total += c;
	}
	/*
	 * Every call lands in a bucket and is counted: save writes a torn
	 * live block whole (capture-json.c), so the two agree (a compact
	 * histogram's 32-bit buckets may wrap, though)
	 */
	if (n && count != total && !fhist)
		return kp_rd_bad(x, "its buckets hold %" PRIu64 " calls, "
				 "\"count\" says %" PRIu64, total, count);
	return 0;
}

int kp_rd_minmax(struct rd *x, struct json_object *o, uint64_t min,
		 uint64_t max)
{
	/* a count-only block keeps min at ~0 (nothing timed) */
	if (kp_rd_member(o, "min") && kp_rd_member(o, "max") &&
	    min != UINT64_MAX && max < min)
		return kp_rd_bad(x, "\"max\" %" PRIu64 " is below \"min\" %"
				 PRIu64, max, min);
	return 0;
}

/* [{"cpu", "count", ...}] into nr_cpus blocks at dst (or only checked) */
int kp_rd_blocks(struct rd *x, struct json_object *a, uint8_t *dst)
{
	uint64_t seen[KPROF_CPUMASK_WORDS] = { 0 };
	const char *outer = x->where;
	char where[96];
	int bad;
	size_t i, n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return kp_rd_bad(x, "per-CPU statistics are not an array");
	n = json_object_array_length(a);
	if (n > x->nr_cpus)
		return kp_rd_bad(x, "statistics for %zu CPUs, the capture has %u", n,
			   x->nr_cpus);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct kprof_cpu_stats tmp, *st = &tmp;
		uint64_t cpu;

		if (!o || !json_object_is_type(o, json_type_object))
			return kp_rd_bad(x, "per-CPU statistics %zu are not an object", i);
		if (kp_rd_u64(x, o, "cpu", x->nr_cpus - 1, -1, &cpu))
			return -1;
		if (seen[cpu / 64] & (1ULL << (cpu % 64)))
			return kp_rd_bad(x, "CPU %" PRIu64 " twice", cpu);
		seen[cpu / 64] |= 1ULL << (cpu % 64);
		if (dst)
			st = (void *)(dst + cpu * CPU_STRIDE);
		memset(st, 0, sizeof(*st));
		if (kp_rd_u64(x, o, "count", UINT64_MAX, -1, &st->count) ||
		    kp_rd_u64(x, o, "sum", UINT64_MAX, 0, &st->sum) ||
		    kp_rd_u64(x, o, "min", UINT64_MAX, ~0ULL >> 1, &st->min) ||
		    kp_rd_u64(x, o, "max", UINT64_MAX, 0, &st->max) ||
		    kp_rd_u64(x, o, "drops", UINT64_MAX, 0, &st->drops) ||
		    kp_rd_u64(x, o, "unmatched", UINT64_MAX, 0, &st->unmatched) ||
		    kp_rd_u64(x, o, "events", UINT64_MAX, 0, &st->events) ||
		    kp_rd_u64(x, o, "events_dropped", UINT64_MAX, 0,
			      &st->events_dropped))
			return -1;
		if (!kp_rd_member(o, "min"))
			st->min = ~0ULL;
		snprintf(where, sizeof(where), "%s%sCPU %" PRIu64,
			 outer ? outer : "", outer ? ": " : "", cpu);
		x->where = where;
		bad = kp_rd_minmax(x, o, st->min, st->max) ||
		      (kp_rd_member(o, "buckets") &&
		       kp_rd_buckets(x, kp_rd_member(o, "buckets"), st->hist,
				     NULL, KPROF_HIST_NR_BUCKETS, st->count));
		x->where = outer;
		if (bad)
			return -1;
	}
	return 0;
}
