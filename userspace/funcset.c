// SPDX-License-Identifier: GPL-2.0
/*
 * Function sets (kprobe:[MOD:]GLOB, kretprobe:[MOD:]GLOB): their function
 * table and per-function statistics in the mapping, found, summed and
 * sorted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "funcset.h"
#include "syms.h"
#include "kprofctl/hist.h"

static const struct kprof_func *func_at(const struct kp_map *m,
					const struct kprof_probe_info *r,
					unsigned int i)
{
	return (const void *)(m->base + r->funcs_off +
			      (uint64_t)i * sizeof(struct kprof_func));
}

static const void *stats_at(const struct kp_map *m,
			    const struct kprof_probe_info *r, unsigned int i,
			    unsigned int cpu)
{
	return m->base + r->func_stats_off + (uint64_t)cpu * r->func_cpu_stride +
	       (uint64_t)i * r->func_stride;
}

static void copy_name(char *buf, size_t len, const struct kprof_func *kf)
{
	size_t n = strnlen(kf->name, sizeof(kf->name));

	if (n >= len)
		n = len - 1;
	memcpy(buf, kf->name, n);
	buf[n] = '\0';
}

/*
 * A set's merged buckets are the compact histogram (KPROF_FHIST_NR_BUCKETS,
 * the last one holding everything above) in 64-bit counters, as CPUs'
 * 32-bit buckets add up past 2^32: the one iterator, over the full
 * histogram's representation, stopped at the compact length so that its
 * last bucket is the open-ended one.
 */
void kp_fhist_iter_init(struct kprof_hist_iter *it, const __u64 *hist)
{
	kprof_hist_iter_init(it, hist);
	it->nr = KPROF_FHIST_NR_BUCKETS;
}

void kp_set_func(const struct kp_map *m, const struct kprof_probe_info *r,
		 unsigned int index, const __u64 *mask, struct kp_fn *fn,
		 __u64 *hist)
{
	const struct kprof_func *kf = func_at(m, r, index);
	__u64 local[KPROF_FHIST_NR_BUCKETS];
	__u64 *h = hist ? hist : local;
	struct kprof_hist_iter it;
	unsigned int c, i;

	memset(fn, 0, sizeof(*fn));
	fn->index = index;
	fn->flags = kf->flags;
	fn->reason = kf->reason;
	fn->error = kf->error;
	copy_name(fn->name, sizeof(fn->name), kf);
	fn->min = UINT64_MAX;
	if (r->type == KPROF_TYPE_KRETPROBE_SET)
		memset(h, 0, sizeof(local));
	for (c = 0; c < m->hdr->nr_cpus && c < KPROF_CPUMASK_WORDS * 64; c++) {
		const struct kprof_func_hist *fh;
		uint64_t count, v;

		if (mask && !((mask[c / 64] >> (c % 64)) & 1))
			continue;
		if (r->type == KPROF_TYPE_KPROBE_SET) {
			fn->count += __atomic_load_n((const __u64 *)
						     stats_at(m, r, index, c),
						     __ATOMIC_RELAXED);
			continue;
		}
		fh = stats_at(m, r, index, c);
		/* count first: the buckets it counts are then all visible */
		count = __atomic_load_n(&fh->count, __ATOMIC_ACQUIRE);
		if (count > UINT32_MAX)
			fn->wrapped = 1;
		fn->count += count;
		fn->sum += __atomic_load_n(&fh->sum, __ATOMIC_RELAXED);
		v = __atomic_load_n(&fh->min, __ATOMIC_RELAXED);
		if (count && v < fn->min)
			fn->min = v;
		v = __atomic_load_n(&fh->max, __ATOMIC_RELAXED);
		if (count && v > fn->max)
			fn->max = v;
		kprof_fhist_iter_init(&it, fh->hist);
		while (kprof_hist_iter_next(&it))
			h[it.idx] += it.count;
	}
	if (!fn->count)
		fn->min = 0;
	if (r->type != KPROF_TYPE_KRETPROBE_SET || !fn->count)
		return;
	for (i = 0; i < KP_NR_PCTS; i++)
		fn->q[i] = kp_quantile_buckets(h, KPROF_FHIST_NR_BUCKETS,
					       kp_pcts[i].num, kp_pcts[i].den,
					       fn->min, fn->max);
}

/* a truncated name matches the longer one it was cut from */
static int name_match(const struct kp_fn *fn, const char *name)
{
	if (!strcmp(fn->name, name))
		return 1;
	return (fn->flags & KPROF_FUNC_TRUNCATED) &&
	       !strncmp(fn->name, name, strlen(fn->name));
}

int kp_set_find(const struct kp_map *m, const struct kprof_probe_info *r,
		const char *name)
{
	struct kp_fn fn;
	unsigned int i;

	for (i = 0; i < r->nr_funcs; i++) {
		const struct kprof_func *kf = func_at(m, r, i);

		memset(&fn, 0, sizeof(fn));
		fn.flags = kf->flags;
		copy_name(fn.name, sizeof(fn.name), kf);
		if (name_match(&fn, name))
			return (int)i;
	}
	return -1;
}

/* edit distance (insert, delete, substitute), capped names */
void kp_set_suggest(const struct kp_map *m, const struct kprof_probe_info *r,
		    const char *name, char *buf, size_t len)
{
	struct { unsigned int d, i; } best[5];
	unsigned int nb = 0, i, k, lim = strlen(name) / 3 + 1;
	size_t used = 0;

	buf[0] = '\0';
	for (i = 0; i < r->nr_funcs; i++) {
		char fname[KPROF_FUNC_NAME_LEN + 1];
		unsigned int d;

		copy_name(fname, sizeof(fname), func_at(m, r, i));
		/* a part of the name counts as close: "xfer" for "mydrv_xfer" */
		d = strstr(fname, name) ? 1 :
			kp_name_dist(name, strlen(name), fname, strlen(fname),
				     lim);
		if (d > lim)
			continue;
		for (k = nb; k > 0 && best[k - 1].d > d; k--)
			if (k < 5)
				best[k] = best[k - 1];
		if (k < 5) {
			best[k].d = d;
			best[k].i = i;
			if (nb < 5)
				nb++;
		}
	}
	for (k = 0; k < nb && used < len; k++) {
		char fname[KPROF_FUNC_NAME_LEN + 1];

		copy_name(fname, sizeof(fname), func_at(m, r, best[k].i));
		used += snprintf(buf + used, len - used, "%s%s", k ? ", " : "",
				 fname);
	}
}

int kp_set_func_name(const struct kp_map *m, const struct kprof_probe_info *r,
		     uint64_t index, char *buf, size_t len)
{
	struct kp_seq s = { 0 };

	if (!kp_is_set(r->type) || index >= r->nr_funcs || !kp_set_ok(m, r))
		return -1;
	do {
		if (kp_seq_begin(m, &s))
			return -1;
		copy_name(buf, len, func_at(m, r, (unsigned int)index));
	} while (kp_seq_retry(m, &s));
	return 0;
}

int kp_set_skips(const struct kp_map *m, uint32_t id, struct kp_fn *skip,
		 unsigned int max, unsigned int *nskip, unsigned int *nfuncs)
{
	struct kprof_probe_info *recs;
	const struct kprof_probe_info *r = NULL;
	struct kp_seq s = { 0 };
	unsigned int n, i, k;

	recs = calloc(m->hdr->max_probes, sizeof(*recs));
	if (!recs || kp_map_probes(m, recs, m->hdr->max_probes, &n)) {
		free(recs);
		return -1;
	}
	for (i = 0; i < n; i++)
		if (recs[i].id == id && kp_is_set(recs[i].type))
			r = &recs[i];
	if (!r) {
		free(recs);
		return -1;
	}
	do {
		if (kp_seq_begin(m, &s)) {
			free(recs);
			return -1;
		}
		for (i = k = 0; i < r->nr_funcs; i++) {
			const struct kprof_func *kf = func_at(m, r, i);

			if (!kf->reason)
				continue;
			if (skip && k < max) {
				memset(&skip[k], 0, sizeof(skip[k]));
				skip[k].index = i;
				skip[k].flags = kf->flags;
				skip[k].reason = kf->reason;
				skip[k].error = kf->error;
				copy_name(skip[k].name, sizeof(skip[k].name), kf);
			}
			k++;
		}
	} while (kp_seq_retry(m, &s));
	*nskip = k;
	*nfuncs = r->nr_funcs;
	free(recs);
	return 0;
}

unsigned int kp_set_kretprobes(const struct kp_map *m,
			       const struct kprof_probe_info *r)
{
	const uint32_t both = KPROF_FUNC_PROBED | KPROF_FUNC_KRETPROBE;
	struct kp_seq s = { 0 };
	unsigned int i, n;

	if (r->mech != KPROF_MECH_FTRACE || !kp_is_set(r->type) ||
	    !kp_set_ok(m, r))
		return 0;
	do {
		if (kp_seq_begin(m, &s))
			return 0;
		for (i = n = 0; i < r->nr_funcs; i++)
			n += (func_at(m, r, i)->flags & both) == both;
	} while (kp_seq_retry(m, &s));
	return n;
}

int kp_set_sort_ok(uint32_t type, const char *sort)
{
	int k = kp_sort_parse(sort);

	if (k < 0)
		return 0;
	return type == KPROF_TYPE_KRETPROBE_SET || !kp_sort_keys[k].latency;
}

static int sort_by;

static uint64_t sort_val(const struct kp_fn *f)
{
	/* wrapped buckets' percentiles are unknown: last */
	if (f->wrapped && kp_sort_keys[sort_by].pct >= 0)
		return 0;
	return kp_sort_measure(sort_by, f->count, f->sum, f->q);
}

/* descending by the key, then by name; names ascending */
static int fn_cmp(const void *x, const void *y)
{
	const struct kp_fn *a = x, *b = y;
	uint64_t va, vb;

	if (sort_by != KP_SORT_NAME) {
		va = sort_val(a);
		vb = sort_val(b);
		if (va != vb)
			return va > vb ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

const char *kp_skip_name(uint16_t reason)
{
	switch (reason) {
	case KPROF_SKIP_NOTRACE: return "notrace";
	case KPROF_SKIP_REFUSED: return "refused";
	case KPROF_SKIP_INIT_DONE: return "init_done";
	case KPROF_SKIP_NOMEM: return "nomem";
	case KPROF_SKIP_NORETURN: return "noreturn";
	default: return "unknown";
	}
}

void kp_skip_reason(const struct kp_fn *fn, char *buf, size_t len)
{
	switch (fn->reason) {
	case KPROF_SKIP_NOTRACE:
		snprintf(buf, len, "not traceable by ftrace (notrace, noinstr "
			 "or not a function)");
		break;
	case KPROF_SKIP_REFUSED:
		snprintf(buf, len, "the kprobe core refused it: %s",
			 strerror(fn->error < 0 ? -fn->error : fn->error));
		break;
	case KPROF_SKIP_INIT_DONE:
		snprintf(buf, len, "__init, freed after the module's init "
			 "(counted until then)");
		break;
	case KPROF_SKIP_NOMEM:
		snprintf(buf, len, "no memory for its probe when the set "
			 "attached");
		break;
	case KPROF_SKIP_NORETURN:
		snprintf(buf, len, "never returns, returns twice or switches "
			 "stacks: --fast cannot follow it (--kretprobe may)");
		break;
	default:
		snprintf(buf, len, "skipped (reason %u)", fn->reason);
	}
}

struct kp_fn *kp_set_rows(const struct kp_map *m,
			  const struct kprof_probe_info *r,
			 const struct kp_set_sel *o, unsigned int *n,
			 struct kp_fn **skip, unsigned int *nskip,
			 unsigned int *hidden, unsigned int *listed)
{
	struct kp_fn *rows = calloc(r->nr_funcs ? r->nr_funcs : 1,
				    sizeof(*rows));
	struct kp_fn *sk = calloc(r->nr_funcs ? r->nr_funcs : 1, sizeof(*sk));
	unsigned int i;

	*n = *nskip = *hidden = *listed = 0;
	if (!rows || !sk) {
		free(rows);
		free(sk);
		return NULL;
	}
	for (i = 0; i < r->nr_funcs; i++) {
		struct kp_fn fn;

		kp_set_func(m, r, i, NULL, &fn, NULL);
		if (fn.reason)
			sk[(*nskip)++] = fn;
		if (fn.reason && !fn.count)
			continue;
		if (o->key && !name_match(&fn, o->key))
			continue;
		(*listed)++;
		if (o->nonzero && !fn.count) {
			(*hidden)++;
			continue;
		}
		rows[(*n)++] = fn;
	}
	sort_by = kp_sort_parse(o->sort);
	if (sort_by < 0)
		sort_by = KP_SORT_COUNT;
	qsort(rows, *n, sizeof(*rows), fn_cmp);
	sort_by = KP_SORT_NAME;
	qsort(sk, *nskip, sizeof(*sk), fn_cmp);
	if (o->top && *n > o->top)
		*n = o->top;
	if (skip)
		*skip = sk;
	else
		free(sk);
	return rows;
}
