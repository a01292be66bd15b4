// SPDX-License-Identifier: GPL-2.0
/*
 * Reading captures: every field a file gives is checked (type, range,
 * against the others) before it is laid out as a mapping, so a truncated,
 * corrupt or hostile file is refused with the place and the reason, and
 * what is built always passes kp_map_init() and the readers' own checks.
 * The layout is the module's (uapi/linux/kprofctl.h), packed: one slot per
 * saved probe slot, key tables, PMU blocks and stack tables after them.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "capture.h"
#include "dev.h"
#include "show-set.h"
#include "spec.h"
#include "kprofctl/hist.h"

#define CPU_STRIDE	sizeof(struct kprof_cpu_stats)
#define MAX_SLOTS	65536
#define MAX_IDS		(1U << 20)
#define MAX_DEPTH	64

/* what a capture may make this CLI allocate; the fuzzer lowers it */
size_t kp_capture_max_bytes = 512u << 20;

struct rd {
	char *err;
	size_t errlen;
	const char *where;	/* "probe 3", "interval 2, probe 1" */
	unsigned int nr_cpus;
};

static int __attribute__((format(printf, 2, 3)))
bad(struct rd *x, const char *fmt, ...)
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

static struct json_object *member(struct json_object *o, const char *k)
{
	struct json_object *v = NULL;

	return json_object_object_get_ex(o, k, &v) ? v : NULL;
}

/* an unsigned integer member <= max; absent: def, or an error if def < 0 */
static int get_u64_val(struct rd *x, struct json_object *o, const char *k,
		       uint64_t max, int64_t def, uint64_t *out);

/*
 * The integer helpers store through void *: uapi fields are __u64
 * (unsigned long long), the CLI's uint64_t may be unsigned long.
 */
#define get_u64(x, o, k, max, def, out) \
	get_u64_(x, o, k, max, def, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))
#define arr_u64(x, a, i, max, what, out) \
	arr_u64_(x, a, i, max, what, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))
#define reserve(x, b, len, off) \
	reserve_(x, b, len, off + 0 * sizeof(char[sizeof(*(off)) == 8 ? 1 : -1]))
#define mul_ok(x, a, b, out) \
	mul_ok_(x, a, b, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))

static void store64(void *out, uint64_t v)
{
	memcpy(out, &v, sizeof(v));
}

static int get_u64_(struct rd *x, struct json_object *o, const char *k,
		    uint64_t max, int64_t def, void *outp)
{
	uint64_t v = 0, *out = &v;
	int ret = get_u64_val(x, o, k, max, def, out);

	if (!ret)
		store64(outp, v);
	return ret;
}

static int get_u64_val(struct rd *x, struct json_object *o, const char *k,
		       uint64_t max, int64_t def, uint64_t *out)
{
	struct json_object *v = member(o, k);
	const char *s;
	char *end;

	if (!v) {
		if (def < 0)
			return bad(x, "\"%s\" is missing", k);
		*out = (uint64_t)def;
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return bad(x, "\"%s\" is not an integer", k);
	/* json-c keeps the text: read it unsigned, full 64 bits */
	s = json_object_get_string(v);
	if (!s || *s == '-')
		return bad(x, "\"%s\" is negative", k);
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *end)
		return bad(x, "\"%s\" is out of range", k);
	if (*out > max)
		return bad(x, "\"%s\" is %" PRIu64 ", more than %" PRIu64, k,
			   *out, max);
	return 0;
}

static int get_u32(struct rd *x, struct json_object *o, const char *k,
		   uint64_t max, int64_t def, uint32_t *out)
{
	uint64_t v;

	if (get_u64(x, o, k, max < UINT32_MAX ? max : UINT32_MAX, def, &v))
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* a string member into buf (len with its NUL); absent: "" if opt */
static int get_str(struct rd *x, struct json_object *o, const char *k,
		   char *buf, size_t len, int opt)
{
	struct json_object *v = member(o, k);
	const char *s;
	size_t n;

	buf[0] = '\0';
	if (!v) {
		if (opt)
			return 0;
		return bad(x, "\"%s\" is missing", k);
	}
	if (!json_object_is_type(v, json_type_string))
		return bad(x, "\"%s\" is not a string", k);
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (n >= len || strlen(s) != n)
		return bad(x, "\"%s\" is longer than %zu bytes or holds a NUL", k,
			   len - 1);
	memcpy(buf, s, n + 1);
	return 0;
}

static struct json_object *get_arr(struct rd *x, struct json_object *o,
				   const char *k, int opt)
{
	struct json_object *v = member(o, k);

	if (!v) {
		if (!opt)
			bad(x, "\"%s\" is missing", k);
		return NULL;
	}
	if (!json_object_is_type(v, json_type_array)) {
		bad(x, "\"%s\" is not an array", k);
		return NULL;
	}
	return v;
}

/* element i of array a as an unsigned integer <= max */
static int arr_u64_(struct rd *x, struct json_object *a, size_t i,
		    uint64_t max, const char *what, void *outp)
{
	struct json_object *v = json_object_array_get_idx(a, i);
	uint64_t val, *out = &val;
	const char *s;
	char *end;

	if (!v || !json_object_is_type(v, json_type_int))
		return bad(x, "%s: not an integer", what);
	s = json_object_get_string(v);
	if (!s || *s == '-')
		return bad(x, "%s: negative", what);
	errno = 0;
	*out = strtoull(s, &end, 10);
	if (errno || *end || *out > max)
		return bad(x, "%s: out of range", what);
	store64(outp, val);
	return 0;
}

/* ---- per-CPU blocks ------------------------------------------------------ */

/* [[index, count], ...] into hist (adding; indexes ascending, unique) */
static int read_buckets(struct rd *x, struct json_object *a, __u64 *hist,
			__u32 *fhist, unsigned int nr, uint64_t count)
{
	size_t i, n;
	uint64_t idx, c, total = 0;
	int64_t last = -1;

	if (!a || !json_object_is_type(a, json_type_array))
		return bad(x, "\"buckets\" is not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *p = json_object_array_get_idx(a, i);

		if (!p || !json_object_is_type(p, json_type_array) ||
		    json_object_array_length(p) != 2)
			return bad(x, "bucket %zu is not [index, count]", i);
		if (arr_u64(x, p, 0, nr - 1, "bucket index", &idx) ||
		    arr_u64(x, p, 1, fhist ? UINT32_MAX : UINT64_MAX,
			    "bucket count", &c))
			return -1;
		if ((int64_t)idx <= last)
			return bad(x, "bucket indexes are not ascending");
		last = (int64_t)idx;
		if (hist)
			hist[idx] = c;
		else
			fhist[idx] = (__u32)c;
		if (total + c < total)
			return bad(x, "bucket counts overflow");
		total += c;
	}
	/*
	 * A live block's count is loaded before its buckets, so it may be
	 * below their sum, never above (a compact histogram's 32-bit buckets
	 * may wrap, though)
	 */
	if (n && count > total && !fhist)
		return bad(x, "buckets hold %" PRIu64 " calls, count says %" PRIu64,
			   total, count);
	return 0;
}

/* [{"cpu", "count", ...}] into nr_cpus blocks at dst (or only checked) */
static int read_blocks(struct rd *x, struct json_object *a, uint8_t *dst)
{
	uint64_t seen[KPROF_CPUMASK_WORDS] = { 0 };
	size_t i, n;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return bad(x, "per-CPU statistics are not an array");
	n = json_object_array_length(a);
	if (n > x->nr_cpus)
		return bad(x, "statistics for %zu CPUs, the capture has %u", n,
			   x->nr_cpus);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct kprof_cpu_stats tmp, *st = &tmp;
		uint64_t cpu;

		if (!o || !json_object_is_type(o, json_type_object))
			return bad(x, "per-CPU statistics %zu are not an object", i);
		if (get_u64(x, o, "cpu", x->nr_cpus - 1, -1, &cpu))
			return -1;
		if (seen[cpu / 64] & (1ULL << (cpu % 64)))
			return bad(x, "CPU %" PRIu64 " twice", cpu);
		seen[cpu / 64] |= 1ULL << (cpu % 64);
		if (dst)
			st = (void *)(dst + cpu * CPU_STRIDE);
		memset(st, 0, sizeof(*st));
		if (get_u64(x, o, "count", UINT64_MAX, -1, &st->count) ||
		    get_u64(x, o, "sum", UINT64_MAX, 0, &st->sum) ||
		    get_u64(x, o, "min", UINT64_MAX, ~0ULL >> 1, &st->min) ||
		    get_u64(x, o, "max", UINT64_MAX, 0, &st->max) ||
		    get_u64(x, o, "drops", UINT64_MAX, 0, &st->drops) ||
		    get_u64(x, o, "unmatched", UINT64_MAX, 0, &st->unmatched) ||
		    get_u64(x, o, "events", UINT64_MAX, 0, &st->events) ||
		    get_u64(x, o, "events_dropped", UINT64_MAX, 0,
			    &st->events_dropped))
			return -1;
		if (!member(o, "min"))
			st->min = ~0ULL;
		if (member(o, "buckets") &&
		    read_buckets(x, member(o, "buckets"), st->hist, NULL,
				 KPROF_HIST_NR_BUCKETS, st->count))
			return -1;
	}
	return 0;
}

/* ---- probes ---------------------------------------------------------------- */

static int type_of(const char *s)
{
	unsigned int t;

	for (t = 1; t <= KPROF_TYPE_OFFCPU; t++)
		if (!strcmp(kp_type_name(t), s))
			return (int)t;
	return 0;
}

static int state_of(const char *s)
{
	unsigned int t;

	for (t = KPROF_STATE_STOPPED; t <= KPROF_STATE_PENDING; t++)
		if (!strcmp(kp_state_name(t), s))
			return (int)t;
	return 0;
}

static int is_profile(const struct kprof_probe_info *r)
{
	return r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU;
}

/* where a probe's parts go in the mapping being built */
struct plan {
	struct json_object *o;
	struct kprof_probe_info r;
	uint64_t rec_size;		/* key records */
};

struct build {
	unsigned int n, max_slot, nr_pmus;
	struct plan *p;
	uint64_t size;			/* bytes so far */
};

/* size += len, within the cap; the offset it starts at, or -1 */
static int reserve_(struct rd *x, struct build *b, uint64_t len, void *off)
{
	b->size = (b->size + 63) & ~63ULL;
	if (len > kp_capture_max_bytes || b->size > kp_capture_max_bytes - len)
		return bad(x, "the statistics it describes need more than %zu MiB",
			   kp_capture_max_bytes >> 20);
	store64(off, b->size);
	b->size += len;
	return 0;
}

static int mul_ok_(struct rd *x, uint64_t a, uint64_t b, void *out)
{
	if (b && a > kp_capture_max_bytes / b)
		return bad(x, "the statistics it describes need more than %zu MiB",
			   kp_capture_max_bytes >> 20);
	store64(out, a * b);
	return 0;
}

static int read_filter(struct rd *x, struct json_object *a,
		       struct kprof_filter *f)
{
	size_t i, n;

	memset(f, 0, sizeof(*f));
	if (!a)
		return 0;
	n = json_object_array_length(a);
	if (n > KPROF_FILTER_TERMS)
		return bad(x, "more than %u filter terms", KPROF_FILTER_TERMS);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		struct kprof_term *t = &f->term[i];
		uint32_t v;
		char comm[KPROF_COMM_LEN];

		if (!o || !json_object_is_type(o, json_type_object))
			return bad(x, "filter term %zu is not an object", i);
		if (get_u32(x, o, "field", UINT16_MAX, -1, &v))
			return -1;
		t->field = (__u16)v;
		if (get_u32(x, o, "op", UINT16_MAX, -1, &v))
			return -1;
		t->op = (__u16)v;
		if (get_u32(x, o, "flags", UINT32_MAX, 0, &t->flags) ||
		    get_u64(x, o, "value", UINT64_MAX, 0, &t->value) ||
		    get_str(x, o, "comm", comm, sizeof(comm), 1))
			return -1;
		memcpy(t->comm, comm, sizeof(t->comm));
	}
	f->nr = (__u32)n;
	return 0;
}

/* a probe's record, checked; its parts' sizes into the plan */
static int plan_probe(struct rd *x, struct build *b, struct plan *p)
{
	struct kprof_probe_info *r = &p->r;
	struct json_object *o = p->o, *a, *keys;
	char s[32];
	uint64_t v;
	size_t i;
	int t;

	memset(r, 0, sizeof(*r));
	if (!json_object_is_type(o, json_type_object))
		return bad(x, "not an object");
	if (get_u32(x, o, "id", UINT32_MAX, -1, &r->id) ||
	    get_u32(x, o, "slot", MAX_SLOTS - 1, -1, &r->slot) ||
	    get_str(x, o, "spec", r->spec, sizeof(r->spec), 0) ||
	    get_str(x, o, "type", s, sizeof(s), 0))
		return -1;
	if (!r->id)
		return bad(x, "\"id\" is 0");
	t = type_of(s);
	if (!t)
		return bad(x, "unknown probe type \"%s\"", s);
	r->type = (__u32)t;
	if (get_str(x, o, "state", s, sizeof(s), 0))
		return -1;
	t = state_of(s);
	if (!t)
		return bad(x, "unknown probe state \"%s\"", s);
	r->state = (__u32)t;
	if (get_u32(x, o, "flags", UINT32_MAX, 0, &r->flags) ||
	    get_u32(x, o, "pid", UINT32_MAX, 0, &r->pid) ||
	    get_u32(x, o, "maxactive", UINT32_MAX, 0, &r->maxactive) ||
	    get_u32(x, o, "reg_errno", 4095, 0, &r->reg_errno) ||
	    get_u64(x, o, "missed", UINT64_MAX, 0, &r->nmissed) ||
	    get_u64(x, o, "hits", UINT64_MAX, 0, &r->hits) ||
	    get_u64(x, o, "slow_ns", UINT64_MAX, 0, &r->slow_ns) ||
	    get_u32(x, o, "mech", KPROF_MECH_PERF, 0, &r->mech) ||
	    get_u32(x, o, "nr_keys", MAX_IDS, 0, &r->nr_keys) ||
	    get_u32(x, o, "key_rec_size", 4096, 0, &r->key_rec_size))
		return -1;
	a = get_arr(x, o, "cpus", 1);
	if (x->err[0])
		return -1;
	for (i = 0; a && i < KPROF_CPUMASK_WORDS; i++)
		if (i < json_object_array_length(a) &&
		    arr_u64(x, a, i, UINT64_MAX, "cpus", &r->cpus[i]))
			return -1;
	a = get_arr(x, o, "key", 1);
	if (x->err[0])
		return -1;
	for (i = 0; a && i < json_object_array_length(a); i++) {
		if (i >= KPROF_MAX_KEYS)
			return bad(x, "more than %u keys", KPROF_MAX_KEYS);
		if (arr_u64(x, a, i, 0xffffff, "key", &v))
			return -1;
		r->key[i] = (__u32)v;
	}
	a = get_arr(x, o, "filter", 1);
	if (x->err[0] || read_filter(x, a, &r->filter))
		return -1;
	/* the parts, as the readers will check them */
	keys = member(o, "keys");
	if (kp_has_keys(r) != !!keys)
		return bad(x, "%s", keys ? "\"keys\" on a probe without keys" :
			   "\"keys\" is missing");
	if (keys) {
		uint64_t len = 0, st = 0;

		if (r->key_rec_size && (r->key_rec_size < sizeof(struct kprof_key2) ||
					r->key_rec_size % 8 || !r->key[0] ||
					r->type == KPROF_TYPE_PAIR))
			return bad(x, "bad \"key_rec_size\"");
		if (!r->nr_keys)
			return bad(x, "\"nr_keys\" is 0 on a probe with keys");
		p->rec_size = r->key_rec_size ? r->key_rec_size :
			      sizeof(struct kprof_key);
		r->key_stride = (uint64_t)x->nr_cpus * CPU_STRIDE;
		if (mul_ok(x, r->nr_keys, p->rec_size, &len) ||
		    reserve(x, b, len, &r->keys_off) ||
		    mul_ok(x, r->nr_keys + 1ULL, r->key_stride, &st) ||
		    reserve(x, b, st, &r->key_stats_off))
			return -1;
	}
	if (member(o, "pmu")) {
		if (r->type != KPROF_TYPE_PMU && r->type != KPROF_TYPE_KRETPROBE &&
		    r->type != KPROF_TYPE_PAIR && r->type != KPROF_TYPE_KPROBE)
			return bad(x, "\"pmu\" on a %s probe", kp_type_name(r->type));
		r->pmu_block = ++b->nr_pmus;
	}
	if (kp_is_set(r->type) || is_profile(r)) {
		uint64_t len = 0;

		a = member(o, kp_is_set(r->type) ? "functions" : "stacks");
		if (kp_is_set(r->type)) {
			if (a && !json_object_is_type(a, json_type_array))
				return bad(x, "\"functions\" is not an array");
			r->nr_funcs = a ? (uint32_t)json_object_array_length(a) : 0;
			if (r->nr_funcs > MAX_IDS)
				return bad(x, "too many functions");
			if (get_u32(x, o, "nr_probed", r->nr_funcs, 0,
				    &r->nr_probed))
				return -1;
			r->func_stride = r->type == KPROF_TYPE_KRETPROBE_SET ?
					 sizeof(struct kprof_func_hist) : 8;
		} else {
			if (get_u32(x, o, "nr_stacks", MAX_IDS, 0, &r->nr_funcs))
				return -1;
			if (!!a != !!r->nr_funcs)
				return bad(x, "\"stacks\" and \"nr_stacks\" disagree");
			r->func_stride = r->type == KPROF_TYPE_OFFCPU ? 16 : 8;
		}
		if (r->nr_funcs) {
			if (kp_is_set(r->type) &&
			    (mul_ok(x, r->nr_funcs, sizeof(struct kprof_func), &len) ||
			     reserve(x, b, len, &r->funcs_off)))
				return -1;
			if (mul_ok(x, r->nr_funcs, r->func_stride,
				   &r->func_cpu_stride) ||
			    mul_ok(x, r->func_cpu_stride, x->nr_cpus, &len) ||
			    reserve(x, b, len, &r->func_stats_off))
				return -1;
		}
	}
	if (r->slot + 1 > b->max_slot)
		b->max_slot = r->slot + 1;
	return 0;
}

/* ---- filling a mapping --------------------------------------------------- */

struct layout {
	uint64_t probes_off, stats_off, probe_stride, pmus_off, pmu_stride;
	uint32_t pmu_counts_off, pmu_stats_off;
	unsigned int max_probes, nr_pmus;
	uint64_t size;
};

static uint8_t *pmu_block(uint8_t *base, const struct layout *l,
			  const struct kprof_probe_info *r)
{
	return base + l->pmus_off + (uint64_t)(r->pmu_block - 1) * l->pmu_stride;
}

static int fill_keys(struct rd *x, uint8_t *base, const struct plan *p,
		     struct kprof_probe_info *r, struct json_object *keys)
{
	struct json_object *rows;
	uint64_t v;
	size_t i, n;

	if (!json_object_is_type(keys, json_type_object))
		return bad(x, "\"keys\" is not an object");
	if (get_u64(x, keys, "nr", UINT32_MAX, r->nr_keys, &v))
		return -1;
	if (v != r->nr_keys)
		return bad(x, "\"keys\": \"nr\" differs from the probe's");
	if (get_u64(x, keys, "record_size", 4096, (int64_t)p->rec_size, &v))
		return -1;
	if (v != p->rec_size)
		return bad(x, "\"keys\": \"record_size\" differs from the probe's");
	rows = get_arr(x, keys, "rows", 0);
	if (!rows)
		return -1;
	n = json_object_array_length(rows);
	if (n > r->nr_keys)
		return bad(x, "more keys than \"nr_keys\"");
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(rows, i);
		struct kprof_key2 *k;
		uint64_t idx;
		char name[sizeof(k->name)];

		if (!o || !json_object_is_type(o, json_type_object))
			return bad(x, "key %zu is not an object", i);
		if (get_u64(x, o, "index", r->nr_keys - 1, -1, &idx))
			return -1;
		k = (void *)(base + r->keys_off + idx * p->rec_size);
		if (k->flags)
			return bad(x, "key index %" PRIu64 " twice", idx);
		if (get_u64(x, o, "value", UINT64_MAX, -1, &k->value) ||
		    get_u32(x, o, "flags", UINT32_MAX, KPROF_KEY_USED,
			    &k->flags) ||
		    get_str(x, o, "name", name, sizeof(name), 1))
			return -1;
		if (!(k->flags & KPROF_KEY_USED))
			return bad(x, "key %zu is not marked used", i);
		memcpy(k->name, name, sizeof(k->name));
		if (r->key_rec_size &&
		    get_u64(x, o, "value2", UINT64_MAX, 0, &k->value2))
			return -1;
		if (read_blocks(x, member(o, "per_cpu"), base + r->key_stats_off +
				idx * r->key_stride))
			return -1;
	}
	return read_blocks(x, member(keys, "other"), base + r->key_stats_off +
			   (uint64_t)r->nr_keys * r->key_stride);
}

static int fill_funcs(struct rd *x, uint8_t *base, struct kprof_probe_info *r,
		      struct json_object *a, int names)
{
	int lat = r->type == KPROF_TYPE_KRETPROBE_SET;
	size_t f;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array) ||
	    json_object_array_length(a) != r->nr_funcs)
		return bad(x, "\"functions\" differs from the probe's");
	for (f = 0; f < r->nr_funcs; f++) {
		struct json_object *o = json_object_array_get_idx(a, f), *pc;
		struct kprof_func *fn = (void *)(base + r->funcs_off +
						 f * sizeof(*fn));
		char name[KPROF_FUNC_NAME_LEN];
		size_t i, n;
		uint32_t v;

		if (!o || !json_object_is_type(o, json_type_object))
			return bad(x, "function %zu is not an object", f);
		if (names) {
			struct json_object *e = member(o, "error");

			if (get_str(x, o, "name", name, sizeof(name), 0) ||
			    get_u32(x, o, "flags", UINT32_MAX, 0, &fn->flags) ||
			    get_u32(x, o, "reason", UINT16_MAX, 0, &v))
				return -1;
			memcpy(fn->name, name, sizeof(fn->name));
			fn->reason = (__u16)v;
			if (e && (!json_object_is_type(e, json_type_int) ||
				  json_object_get_int64(e) < INT16_MIN ||
				  json_object_get_int64(e) > INT16_MAX))
				return bad(x, "function %zu: bad \"error\"", f);
			fn->error = e ? (__s16)json_object_get_int64(e) : 0;
		}
		pc = get_arr(x, o, "per_cpu", 1);
		if (x->err[0])
			return -1;
		n = pc ? json_object_array_length(pc) : 0;
		for (i = 0; i < n; i++) {
			struct json_object *e = json_object_array_get_idx(pc, i);
			uint64_t cpu;
			uint8_t *s;

			if (!e || !json_object_is_type(e, json_type_object) ||
			    get_u64(x, e, "cpu", x->nr_cpus - 1, -1, &cpu))
				return x->err[0] ? -1 : bad(x, "function %zu: bad "
							   "per-CPU entry", f);
			s = base + r->func_stats_off + cpu * r->func_cpu_stride +
			    f * r->func_stride;
			if (!lat) {
				if (get_u64(x, e, "count", UINT64_MAX, -1,
					    (uint64_t *)s))
					return -1;
				continue;
			}
			{
				struct kprof_func_hist *h = (void *)s;

				if (get_u64(x, e, "count", UINT64_MAX, -1, &h->count) ||
				    get_u64(x, e, "sum", UINT64_MAX, 0, &h->sum) ||
				    get_u64(x, e, "min", UINT64_MAX, 0, &h->min) ||
				    get_u64(x, e, "max", UINT64_MAX, 0, &h->max))
					return -1;
				if (!member(e, "min"))
					h->min = ~0ULL;
				if (member(e, "buckets") &&
				    read_buckets(x, member(e, "buckets"), NULL,
						 h->hist, KPROF_FHIST_NR_BUCKETS,
						 h->count))
					return -1;
			}
		}
	}
	return 0;
}

static int fill_stacks(struct rd *x, uint8_t *base, struct kprof_probe_info *r,
		       struct json_object *a)
{
	unsigned int two = r->func_stride == 16;
	size_t i, n, j, m;

	if (!a)
		return 0;
	if (!json_object_is_type(a, json_type_array))
		return bad(x, "\"stacks\" is not an array");
	n = json_object_array_length(a);
	for (i = 0; i < n; i++) {
		struct json_object *o = json_object_array_get_idx(a, i), *pc;
		uint64_t id, cpu, v;

		if (!o || !json_object_is_type(o, json_type_object) ||
		    get_u64(x, o, "id", r->nr_funcs, -1, &id))
			return x->err[0] ? -1 : bad(x, "stack %zu is not an object", i);
		if (!id)
			return bad(x, "stack id 0");
		pc = get_arr(x, o, "per_cpu", 0);
		if (!pc)
			return -1;
		m = json_object_array_length(pc);
		for (j = 0; j < m; j++) {
			struct json_object *e = json_object_array_get_idx(pc, j);
			__u64 *s;

			if (!e || !json_object_is_type(e, json_type_array) ||
			    json_object_array_length(e) != 2 + two)
				return bad(x, "stack %" PRIu64 ": an entry is not "
					   "[cpu, count%s]", id, two ? ", ns" : "");
			if (arr_u64(x, e, 0, x->nr_cpus - 1, "stack cpu", &cpu))
				return -1;
			s = (void *)(base + r->func_stats_off +
				     cpu * r->func_cpu_stride +
				     (id - 1) * r->func_stride);
			if (arr_u64(x, e, 1, UINT64_MAX, "stack count", &v))
				return -1;
			s[0] = v;
			if (two) {
				if (arr_u64(x, e, 2, UINT64_MAX, "stack ns", &v))
					return -1;
				s[1] = v;
			}
		}
	}
	return 0;
}

/* the PMU window totals a capture says its PMUs count (pmu.c asks) */
static int fill_pmu(struct rd *x, uint8_t *base, const struct layout *l,
		    struct kprof_probe_info *r, struct json_object *o, int full)
{
	uint8_t *blk = pmu_block(base, l, r);
	struct json_object *ev, *win, *pc;
	size_t e, ne, i;

	if (!json_object_is_type(o, json_type_object))
		return bad(x, "\"pmu\" is not an object");
	ev = get_arr(x, o, "events", !full);
	win = get_arr(x, o, "windows", 1);
	pc = get_arr(x, o, "per_call", 1);
	if (x->err[0])
		return -1;
	ne = ev ? json_object_array_length(ev) : 0;
	if (ne > KPROF_PMU_MAX_EVENTS)
		return bad(x, "more than %u PMU events", KPROF_PMU_MAX_EVENTS);
	for (e = 0; full && e < ne; e++) {
		struct kprof_pmu_event *d = (void *)(blk + e * sizeof(*d));
		struct json_object *eo = json_object_array_get_idx(ev, e);
		char name[sizeof(d->name)];

		if (!eo || !json_object_is_type(eo, json_type_object) ||
		    get_str(x, eo, "name", name, sizeof(name), 0) ||
		    get_u32(x, eo, "type", UINT32_MAX, 0, &d->type) ||
		    get_u32(x, eo, "flags", UINT32_MAX, 0, &d->flags) ||
		    get_u64(x, eo, "config", UINT64_MAX, 0, &d->config))
			return x->err[0] ? -1 : bad(x, "PMU event %zu is not an "
						   "object", e);
		if (!name[0])
			return bad(x, "PMU event %zu has no name", e);
		memcpy(d->name, name, sizeof(d->name));
	}
	if (win && json_object_array_length(win) > KPROF_PMU_MAX_EVENTS)
		return bad(x, "more than %u PMU windows", KPROF_PMU_MAX_EVENTS);
	for (e = 0; win && e < json_object_array_length(win); e++) {
		struct json_object *w = json_object_array_get_idx(win, e);

		if (!w || !json_object_is_type(w, json_type_array))
			return bad(x, "PMU windows of event %zu are not an array", e);
		for (i = 0; i < json_object_array_length(w); i++) {
			struct json_object *yo = json_object_array_get_idx(w, i);
			struct kprof_pmu_count *y;
			char pmu[sizeof(y->pmu)];
			uint64_t cpu;
			struct json_object *cnt;

			if (!yo || !json_object_is_type(yo, json_type_object) ||
			    get_u64(x, yo, "cpu", x->nr_cpus - 1, -1, &cpu))
				return x->err[0] ? -1 : bad(x, "a PMU window is not "
							   "an object");
			y = (void *)(blk + l->pmu_counts_off +
				     (e * x->nr_cpus + cpu) * sizeof(*y));
			if (get_u64(x, yo, "value", UINT64_MAX, 0, &y->value) ||
			    get_u64(x, yo, "enabled", UINT64_MAX, 0, &y->enabled) ||
			    get_u64(x, yo, "running", UINT64_MAX, 0, &y->running) ||
			    get_u32(x, yo, "pmu_type", UINT32_MAX, 0, &y->pmu_type) ||
			    get_u32(x, yo, "flags", UINT32_MAX, 0, &y->flags) ||
			    get_str(x, yo, "pmu", pmu, sizeof(pmu), 1))
				return -1;
			memcpy(y->pmu, pmu, sizeof(y->pmu));
			cnt = member(yo, "pmu_counts");
			if (full && cnt && e < ne && pmu[0])
				kp_pmu_counts_record(pmu, ((struct kprof_pmu_event *)
					(blk + e * sizeof(struct kprof_pmu_event)))->name,
					json_object_get_boolean(cnt));
		}
	}
	if (pc && json_object_array_length(pc) > KPROF_PMU_MAX_EVENTS)
		return bad(x, "more than %u PMU per-call tables", KPROF_PMU_MAX_EVENTS);
	for (e = 0; pc && e < json_object_array_length(pc); e++)
		if (read_blocks(x, json_object_array_get_idx(pc, e),
				blk + l->pmu_stats_off +
				e * x->nr_cpus * CPU_STRIDE))
			return -1;
	return 0;
}

/* a probe's statistics (all its parts) into base; full: its names too */
static int fill_probe(struct rd *x, uint8_t *base, const struct layout *l,
		      const struct plan *p, struct json_object *o, int full)
{
	struct kprof_probe_info *r = (void *)(base + l->probes_off +
					      (uint64_t)p->r.slot *
					      sizeof(*r));
	struct json_object *v;

	if (full && r->id)
		return bad(x, "slot %u twice", p->r.slot);
	*r = p->r;
	r->stats_off = l->stats_off + (uint64_t)r->slot * l->probe_stride;
	if (read_blocks(x, member(o, "stats"), base + r->stats_off))
		return -1;
	v = member(o, "keys");
	if (v && kp_has_keys(r) && fill_keys(x, base, p, r, v))
		return -1;
	if (kp_is_set(r->type) && r->nr_funcs &&
	    fill_funcs(x, base, r, member(o, "functions"), 1))
		return -1;
	if (is_profile(r) && r->nr_funcs &&
	    fill_stacks(x, base, r, member(o, "stacks")))
		return -1;
	v = member(o, "pmu");
	if (v && r->pmu_block && fill_pmu(x, base, l, r, v, full))
		return -1;
	return 0;
}

/* ---- the whole file -------------------------------------------------------- */

static void header(uint8_t *base, const struct layout *l, unsigned int nr_cpus,
		   uint32_t abi_minor)
{
	struct kprof_mmap_header *h = (void *)base;

	h->magic = KPROF_MMAP_MAGIC;
	h->abi_major = KPROF_ABI_MAJOR;
	h->abi_minor = abi_minor;
	h->header_size = sizeof(*h);
	h->nr_cpus = nr_cpus;
	h->max_probes = l->max_probes;
	h->probe_rec_size = sizeof(struct kprof_probe_info);
	h->probes_off = l->probes_off;
	h->stats_off = l->stats_off;
	h->probe_stride = l->probe_stride;
	h->cpu_stride = CPU_STRIDE;
	h->hist_sub_bits = KPROF_HIST_SUB_BITS;
	h->hist_max_exp = KPROF_HIST_MAX_EXP;
	h->hist_nr_buckets = KPROF_HIST_NR_BUCKETS;
	h->mmap_size = l->size;
	h->pmus_off = l->pmus_off;
	h->pmu_stride = l->pmu_stride;
	h->max_pmus = l->nr_pmus;
	h->pmu_max_events = KPROF_PMU_MAX_EVENTS;
	h->pmu_counts_off = l->pmu_counts_off;
	h->pmu_stats_off = l->pmu_stats_off;
}

static int context(struct rd *x, struct kp_capture *c, struct json_object *o)
{
	struct json_object *a, *h;
	char abi[16], err[128];
	uint64_t v;
	size_t i;

	if (!o || !json_object_is_type(o, json_type_object))
		return bad(x, "\"context\" is missing or not an object");
	x->where = "context";
	if (get_str(x, o, "kernel", c->kernel, sizeof(c->kernel), 1) ||
	    get_str(x, o, "machine", c->machine, sizeof(c->machine), 1) ||
	    get_str(x, o, "arch", c->arch, sizeof(c->arch), 1) ||
	    get_str(x, o, "created", c->created, sizeof(c->created), 1) ||
	    get_str(x, o, "kprofctl", c->cli, sizeof(c->cli), 1) ||
	    get_str(x, o, "module_abi", abi, sizeof(abi), 0) ||
	    get_u32(x, o, "nr_cpus", KP_MAX_CPUS, -1, &c->nr_cpus) ||
	    get_u64(x, o, "window_ns", UINT64_MAX, 0, &c->window_ns))
		return -1;
	if (sscanf(abi, "%u.%u", &c->abi_major, &c->abi_minor) != 2)
		return bad(x, "\"module_abi\" is not MAJOR.MINOR");
	if (c->abi_major != KPROF_ABI_MAJOR)
		return bad(x, "made with a module of ABI %u, this kprofctl reads %u",
			   c->abi_major, KPROF_ABI_MAJOR);
	if (!c->nr_cpus)
		return bad(x, "\"nr_cpus\" is 0");
	x->nr_cpus = c->nr_cpus;
	h = member(o, "histogram");
	if (!h || !json_object_is_type(h, json_type_object))
		return bad(x, "\"histogram\" is missing");
	if (get_u64(x, h, "sub_bits", 64, -1, &v))
		return -1;
	if (v != KPROF_HIST_SUB_BITS)
		goto geometry;
	if (get_u64(x, h, "max_exp", 64, -1, &v))
		return -1;
	if (v != KPROF_HIST_MAX_EXP)
		goto geometry;
	if (get_u64(x, h, "nr_buckets", UINT32_MAX, -1, &v))
		return -1;
	if (v != KPROF_HIST_NR_BUCKETS)
		goto geometry;
	/* the clusters as saved: names and CPUs of the machine it ran on */
	memset(&c->topo, 0, sizeof(c->topo));
	c->topo.nr_cpus = c->nr_cpus;
	for (i = 0; i < KP_MAX_CPUS; i++)
		c->topo.cluster_of[i] = -1;
	a = get_arr(x, o, "clusters", 0);
	if (!a)
		return -1;
	if (!json_object_array_length(a) ||
	    json_object_array_length(a) > KP_MAX_CLUSTERS)
		return bad(x, "\"clusters\" has %zu entries (1 to %u)",
			   json_object_array_length(a), KP_MAX_CLUSTERS);
	for (i = 0; i < json_object_array_length(a); i++) {
		struct kp_cluster *k = &c->topo.cl[i];
		struct json_object *e = json_object_array_get_idx(a, i);
		unsigned int cpu;

		if (!e || !json_object_is_type(e, json_type_object) ||
		    get_str(x, e, "name", k->name, sizeof(k->name), 0) ||
		    get_str(x, e, "cpus", k->cpus, sizeof(k->cpus), 0) ||
		    get_str(x, e, "pmu", k->pmu, sizeof(k->pmu), 1))
			return x->err[0] ? -1 : bad(x, "cluster %zu is not an "
						   "object", i);
		if (kp_parse_cpulist(k->cpus, c->nr_cpus, k->mask, err,
				     sizeof(err)))
			return bad(x, "cluster %s: %s", k->name, err);
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			if (!(k->mask[cpu / 64] >> (cpu % 64) & 1))
				continue;
			if (c->topo.cluster_of[cpu] >= 0)
				return bad(x, "CPU %u in two clusters", cpu);
			c->topo.cluster_of[cpu] = (int)i;
		}
	}
	c->topo.nr_clusters = (unsigned int)i;
	x->where = NULL;
	return 0;
geometry:
	return bad(x, "its histograms have another bucket layout than this "
		   "kprofctl's (sub_bits %u, max_exp %u): read it with the "
		   "kprofctl that made it", KPROF_HIST_SUB_BITS, KPROF_HIST_MAX_EXP);
}

static int read_frames(struct rd *x, struct kp_cap_probe *cp,
		       struct json_object *o)
{
	struct json_object *a;
	size_t i, j, n;
	uint64_t id;

	if (!json_object_is_type(o, json_type_object))
		return bad(x, "\"frames\" is not an object");
	if (member(o, "hidden")) {
		cp->frames_err = EPERM;
		return 0;
	}
	cp->depth = MAX_DEPTH;
	a = get_arr(x, o, "callers", 1);
	if (x->err[0])
		return -1;
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *s;

		if (!e || !json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 2 ||
		    arr_u64(x, e, 0, MAX_IDS, "caller id", &id) || !id)
			return x->err[0] ? -1 : bad(x, "caller %zu is not [id, name]", i);
		s = json_object_array_get_idx(e, 1);
		if (!s || !json_object_is_type(s, json_type_string))
			return bad(x, "caller %zu is not [id, name]", i);
		if (id > cp->nr_callers) {
			char **v = realloc(cp->callers, id * sizeof(char *));

			if (!v)
				return bad(x, "out of memory");
			memset(v + cp->nr_callers, 0,
			       (id - cp->nr_callers) * sizeof(char *));
			cp->callers = v;
			cp->nr_callers = (uint32_t)id;
		}
		free(cp->callers[id - 1]);
		cp->callers[id - 1] = strdup(json_object_get_string(s));
	}
	a = get_arr(x, o, "stacks", 1);
	if (x->err[0])
		return -1;
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *fr;

		if (!e || !json_object_is_type(e, json_type_object) ||
		    get_u64(x, e, "id", MAX_IDS, -1, &id) || !id)
			return x->err[0] ? -1 : bad(x, "stack %zu has no id", i);
		fr = get_arr(x, e, "frames", 0);
		if (!fr)
			return -1;
		if (json_object_array_length(fr) > MAX_DEPTH)
			return bad(x, "stack %" PRIu64 " has more than %u frames",
				   id, MAX_DEPTH);
		if (id > cp->nr_stacks) {
			char **v = realloc(cp->stacks, id * MAX_DEPTH *
					   sizeof(char *));

			if (!v)
				return bad(x, "out of memory");
			memset(v + (size_t)cp->nr_stacks * MAX_DEPTH, 0,
			       (id - cp->nr_stacks) * MAX_DEPTH * sizeof(char *));
			cp->stacks = v;
			cp->nr_stacks = (uint32_t)id;
		}
		for (j = 0; j < json_object_array_length(fr); j++) {
			struct json_object *s = json_object_array_get_idx(fr, j);
			char **slot = &cp->stacks[(id - 1) * MAX_DEPTH + j];

			if (!s || !json_object_is_type(s, json_type_string))
				return bad(x, "stack %" PRIu64 ": frame %zu is not "
					   "a string", id, j);
			free(*slot);
			*slot = strdup(json_object_get_string(s));
		}
	}
	return 0;
}

static void cap_probe_free(struct kp_cap_probe *p)
{
	size_t i;

	for (i = 0; p->callers && i < p->nr_callers; i++)
		free(p->callers[i]);
	for (i = 0; p->stacks && i < (size_t)p->nr_stacks * p->depth; i++)
		free(p->stacks[i]);
	free(p->callers);
	free(p->stacks);
}

void kp_capture_free(struct kp_capture *c)
{
	unsigned int i;

	for (i = 0; c->p && i < c->n; i++)
		cap_probe_free(&c->p[i]);
	for (i = 0; c->iv && i < c->nr_iv; i++) {
		free(c->iv[i].buf);
		free(c->iv[i].recs);
	}
	free(c->iv);
	free(c->p);
	free(c->recs);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* a mapping of b's layout from the probes array a (main, or an interval) */
static int build_map(struct rd *x, const struct layout *l, struct build *b,
		     struct json_object *a, int full, uint32_t abi_minor,
		     void **out, struct kp_map *m, struct kprof_probe_info **recs,
		     unsigned int *n)
{
	uint8_t *base = calloc(1, l->size);
	const char *outer = x->where;
	char err[128], where[96];
	size_t i, k;

	*out = base;
	if (!base)
		return bad(x, "out of memory");
	header(base, l, x->nr_cpus, abi_minor);
	for (i = 0; i < json_object_array_length(a); i++) {
		struct json_object *o = json_object_array_get_idx(a, i);
		const struct plan *p = NULL;
		uint32_t id;

		x->where = outer;
		if (full) {
			p = &b->p[i];
		} else {
			if (!o || !json_object_is_type(o, json_type_object) ||
			    get_u32(x, o, "id", UINT32_MAX, -1, &id))
				return x->err[0] ? -1 : bad(x, "an interval's probe "
							   "is not an object");
			for (k = 0; k < b->n && !p; k++)
				if (b->p[k].r.id == id)
					p = &b->p[k];
			if (!p)	/* deleted before the end: not in the capture */
				continue;
		}
		snprintf(where, sizeof(where), "%s%sprobe %u", outer ? outer : "",
			 outer ? ", " : "", p->r.id);
		x->where = where;
		if (fill_probe(x, base, l, p, o, full))
			return -1;
	}
	x->where = outer;
	if (kp_map_init(m, base, l->size, err, sizeof(err)))
		return bad(x, "rebuilt statistics: %s", err);
	*recs = calloc(l->max_probes, sizeof(**recs));
	if (!*recs)
		return bad(x, "out of memory");
	if (kp_map_probes(m, *recs, l->max_probes, n))
		return bad(x, "rebuilt probe table fails its checks");
	return 0;
}

int kp_capture_parse(struct kp_capture *c, const char *text, size_t len,
		     char *err, size_t errlen)
{
	struct rd x = { .err = err, .errlen = errlen };
	struct json_tokener *tok = json_tokener_new_ex(64);
	struct json_object *top = NULL, *probes, *series;
	enum json_tokener_error je;
	struct build b = { 0 };
	struct layout l = { 0 };
	char fmt[64], where[64];
	uint64_t ver, end;
	size_t i;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	if (!tok)
		return bad(&x, "out of memory");
	top = json_tokener_parse_ex(tok, text, (int)(len > INT32_MAX ? INT32_MAX : len));
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (len > INT32_MAX) {
		bad(&x, "larger than 2 GiB");
		goto out;
	}
	if (je == json_tokener_continue || (!top && je == json_tokener_success)) {
		bad(&x, "truncated: the JSON stops after %zu bytes, inside the "
		    "document", len);
		goto out;
	}
	if (!top) {
		bad(&x, "not JSON: %s at byte %" PRIu64,
		    json_tokener_error_desc(je), end);
		goto out;
	}
	for (i = end; i < len; i++)
		if (!strchr(" \t\r\n", text[i])) {
			bad(&x, "data after the JSON document at byte %zu", i);
			goto out;
		}
	if (!json_object_is_type(top, json_type_object) ||
	    get_str(&x, top, "format", fmt, sizeof(fmt), 1) ||
	    strcmp(fmt, KP_CAPTURE_FORMAT)) {
		x.err[0] = '\0';
		bad(&x, "not a kprofctl capture (it has no \"format\": \"%s\"; "
		    "kprofctl save writes them)", KP_CAPTURE_FORMAT);
		goto out;
	}
	if (get_u64(&x, top, "version", UINT32_MAX, -1, &ver))
		goto out;
	if (ver > KP_CAPTURE_VERSION) {
		bad(&x, "capture format version %" PRIu64 " is newer than this "
		    "kprofctl reads (%u): read it with a newer kprofctl", ver,
		    KP_CAPTURE_VERSION);
		goto out;
	}
	if (ver < 1) {
		bad(&x, "capture format version %" PRIu64 " does not exist", ver);
		goto out;
	}
	if (context(&x, c, member(top, "context")))
		goto out;
	probes = get_arr(&x, top, "probes", 0);
	if (!probes)
		goto out;
	b.n = (unsigned int)json_object_array_length(probes);
	if (b.n > MAX_SLOTS) {
		bad(&x, "more than %u probes", MAX_SLOTS);
		goto out;
	}
	b.p = calloc(b.n + 1, sizeof(*b.p));
	if (!b.p) {
		bad(&x, "out of memory");
		goto out;
	}
	b.size = 4096;	/* the header's page */
	for (i = 0; i < b.n; i++) {
		snprintf(where, sizeof(where), "probe %zu", i + 1);
		x.where = where;
		b.p[i].o = json_object_array_get_idx(probes, i);
		if (!b.p[i].o || plan_probe(&x, &b, &b.p[i]))
			goto out;
	}
	x.where = NULL;
	l.max_probes = b.max_slot ? b.max_slot : 1;
	l.nr_pmus = b.nr_pmus;
	l.pmu_counts_off = KPROF_PMU_MAX_EVENTS * sizeof(struct kprof_pmu_event);
	l.pmu_stats_off = l.pmu_counts_off + KPROF_PMU_MAX_EVENTS * x.nr_cpus *
			  sizeof(struct kprof_pmu_count);
	l.pmu_stride = l.pmu_stats_off + (uint64_t)KPROF_PMU_MAX_EVENTS *
		       x.nr_cpus * CPU_STRIDE;
	l.probe_stride = (uint64_t)x.nr_cpus * CPU_STRIDE;
	{
		uint64_t need = 0;

		if (mul_ok(&x, l.nr_pmus, l.pmu_stride, &need) ||
		    reserve(&x, &b, need, &l.pmus_off) ||
		    reserve(&x, &b, (uint64_t)l.max_probes *
			    sizeof(struct kprof_probe_info), &l.probes_off) ||
		    mul_ok(&x, l.max_probes, l.probe_stride, &need) ||
		    reserve(&x, &b, need, &l.stats_off))
			goto out;
	}
	l.size = b.size;
	if (build_map(&x, &l, &b, probes, 1, c->abi_minor, &c->buf, &c->m,
		      &c->recs, &c->n))
		goto out;
	c->p = calloc(c->n + 1, sizeof(*c->p));
	if (!c->p) {
		bad(&x, "out of memory");
		goto out;
	}
	for (i = 0; i < c->n; i++) {
		struct json_object *o = NULL, *fr;
		size_t k;

		c->p[i].id = c->recs[i].id;
		for (k = 0; k < b.n; k++)
			if (b.p[k].r.id == c->recs[i].id)
				o = b.p[k].o;
		snprintf(where, sizeof(where), "probe %u", c->recs[i].id);
		x.where = where;
		fr = o ? member(o, "frames") : NULL;
		if (fr && read_frames(&x, &c->p[i], fr))
			goto out;
		if (o && member(o, "pid_gone"))
			c->p[i].pid_gone = json_object_get_boolean(member(o, "pid_gone"));
	}
	x.where = NULL;
	for (i = 0; i < c->n; i++)
		for (size_t k = i + 1; k < c->n; k++)
			if (c->recs[i].id == c->recs[k].id) {
				bad(&x, "probe id %u twice", c->recs[i].id);
				goto out;
			}
	series = member(top, "series");
	if (series) {
		struct json_object *data;
		uint64_t t_prev = 0;

		x.where = "series";
		if (!json_object_is_type(series, json_type_object) ||
		    !(data = get_arr(&x, series, "data", 0))) {
			if (!x.err[0])
				bad(&x, "not an object");
			goto out;
		}
		if (get_u64(&x, series, "interval_ns", UINT64_MAX, 0,
			    &c->interval_ns))
			goto out;
		c->nr_iv = (unsigned int)json_object_array_length(data);
		if (c->nr_iv > 1000000) {
			bad(&x, "more than a million intervals");
			goto out;
		}
		c->iv = calloc(c->nr_iv + 1, sizeof(*c->iv));
		if (!c->iv) {
			bad(&x, "out of memory");
			goto out;
		}
		for (i = 0; i < c->nr_iv; i++) {
			struct kp_cap_interval *iv = &c->iv[i];
			struct json_object *o = json_object_array_get_idx(data, i), *a;

			snprintf(where, sizeof(where), "interval %zu", i + 1);
			x.where = where;
			if (!o || !json_object_is_type(o, json_type_object) ||
			    get_u64(&x, o, "t_ns", UINT64_MAX, -1, &iv->t_ns) ||
			    get_u64(&x, o, "dt_ns", UINT64_MAX, -1, &iv->dt_ns) ||
			    !(a = get_arr(&x, o, "probes", 0))) {
				if (!x.err[0])
					bad(&x, "not an object");
				goto out;
			}
			if (iv->t_ns < t_prev || iv->dt_ns > iv->t_ns) {
				bad(&x, "times go backwards");
				goto out;
			}
			t_prev = iv->t_ns;
			if (build_map(&x, &l, &b, a, 0, c->abi_minor, &iv->buf,
				      &iv->m, &iv->recs, &iv->n))
				goto out;
		}
		x.where = NULL;
	}
	ret = 0;
out:
	if (ret && !err[0])
		bad(&x, "not a valid capture");
	if (ret)
		kp_capture_free(c);
	free(b.p);
	if (top)
		json_object_put(top);
	json_tokener_free(tok);
	return ret;
}

int kp_capture_load(struct kp_capture *c, const char *path, char *err,
		    size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	do {
		if (len + 65536 + 1 > cap) {
			char *t;

			cap = (len + 65536 + 1) * 2;
			t = cap > ((size_t)1 << 31) ? NULL : realloc(text, cap);
			if (!t) {
				free(text);
				if (f != stdin)
					fclose(f);
				snprintf(err, errlen, "larger than 1 GiB, or out "
					 "of memory");
				return -1;
			}
			text = t;
		}
		got = fread(text + len, 1, 65536, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s", strerror(errno));
		free(text);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	text[len] = '\0';
	if (!len) {
		free(text);
		snprintf(err, errlen, "empty file");
		return -1;
	}
	ret = kp_capture_parse(c, text, len, err, errlen);
	free(text);
	return ret;
}

const struct kp_cap_probe *kp_cap_probe(const struct kp_capture *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->p[i].id == id)
			return &c->p[i];
	return NULL;
}

const char *kp_cap_caller(const struct kp_capture *c, uint32_t probe,
			  uint64_t id)
{
	const struct kp_cap_probe *p = kp_cap_probe(c, probe);

	if (!p || !id || id > p->nr_callers)
		return NULL;
	return p->callers[id - 1];
}

const char *kp_cap_frame(const struct kp_capture *c, uint32_t probe,
			 uint64_t id, unsigned int i)
{
	const struct kp_cap_probe *p = kp_cap_probe(c, probe);

	if (!p || !id || id > p->nr_stacks || i >= p->depth)
		return NULL;
	return p->stacks[(id - 1) * p->depth + i];
}

const char *kp_cap_frame_cb(void *ctx, uint32_t probe, uint64_t id,
			    unsigned int i)
{
	return kp_cap_frame(ctx, probe, id, i);
}

void kp_dev_from_capture(struct kp_dev *d, const struct kp_capture *c)
{
	memset(d, 0, sizeof(*d));
	d->cap = c;
	d->fd = -1;
	d->wfd = -1;
	d->ver.size = sizeof(d->ver);
	d->ver.abi_major = c->abi_major;
	d->ver.abi_minor = c->abi_minor;
	d->ver.nr_cpus = c->nr_cpus;
	d->ver.mmap_size = c->m.size;
	d->m = c->m;
}
