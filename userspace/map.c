// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics mapping: its header checked once, every record's
 * regions checked against it, and the probe table copied under the
 * seqcount (the uapi reader protocol).
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "map.h"
#include "util.h"

static int fail(char *err, size_t len, const char *why)
{
	snprintf(err, len, "%s", why);
	return -1;
}

/* [off, off + len) inside [0, size), overflow-safe */
int kp_in_map(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

int kp_map_init(struct kp_map *m, const void *base, size_t size, char *err,
		size_t errlen)
{
	const struct kprof_mmap_header *h = base;
	uint64_t need;

	memset(m, 0, sizeof(*m));
	if (size < sizeof(*h))
		return fail(err, errlen, "mapping smaller than its header");
	if (h->magic != KPROF_MMAP_MAGIC)
		return fail(err, errlen, "bad magic in the statistics mapping");
	if (h->abi_major != KPROF_ABI_MAJOR)
		return fail(err, errlen, "statistics mapping has another ABI major");
	if (h->header_size < sizeof(*h) || h->header_size > size)
		return fail(err, errlen, "bad header size");
	if (h->mmap_size != size)
		return fail(err, errlen, "mapping size differs from the header's");
	if (h->hist_nr_buckets != KPROF_HIST_NR_BUCKETS ||
	    h->hist_sub_bits != KPROF_HIST_SUB_BITS ||
	    h->hist_max_exp != KPROF_HIST_MAX_EXP)
		return fail(err, errlen, "histogram parameters differ from the CLI's");
	if (!h->nr_cpus || !h->max_probes ||
	    h->probe_rec_size < sizeof(struct kprof_probe_info) ||
	    h->cpu_stride < sizeof(struct kprof_cpu_stats))
		return fail(err, errlen, "bad layout in the mapping header");
	if (h->max_probes > size / h->probe_rec_size ||
	    !kp_in_map(h->probes_off, (uint64_t)h->max_probes * h->probe_rec_size,
		    size))
		return fail(err, errlen, "probe table outside the mapping");
	if (h->probe_stride / h->nr_cpus < h->cpu_stride)
		return fail(err, errlen, "probe stride smaller than its CPUs");
	if (h->probe_stride > size || h->max_probes > size / h->probe_stride)
		return fail(err, errlen, "statistics outside the mapping");
	need = (uint64_t)h->max_probes * h->probe_stride;
	if (!kp_in_map(h->stats_off, need, size))
		return fail(err, errlen, "statistics outside the mapping");
	m->base = base;
	m->size = size;
	m->hdr = h;
	return 0;
}

/*
 * One step of backoff: spin a little (a writer on another CPU finishes a
 * short section), then yield (it may be preempted on this CPU), then
 * sleep growing to 1 ms.  -1 once the time bound has passed.
 */
static int seq_backoff(struct kp_seq *s)
{
	unsigned int w = s->waits++;

	if (!s->start_ns)
		s->start_ns = kp_now_ns();
	if (w < 64) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	} else if (w < 128) {
		sched_yield();
	} else {
		unsigned int k = w - 128 < 10 ? w - 128 : 10;
		struct timespec ts = { 0, 1000L << k };	/* 1 us .. ~1 ms */

		nanosleep(&ts, NULL);
	}
	if (w % 64 == 63 &&
	    kp_now_ns() - s->start_ns > KP_SEQ_TIMEOUT_MS * 1000000ull)
		return -1;
	return 0;
}

int kp_seq_begin(const struct kp_map *m, struct kp_seq *s)
{
	const struct kprof_mmap_header *h = m->hdr;

	for (;;) {
		s->seq = __atomic_load_n(&h->seq, __ATOMIC_ACQUIRE);
		if (!(s->seq & 1))
			break;
		if (seq_backoff(s))
			return -1;
	}
	s->gen = __atomic_load_n(&h->generation, __ATOMIC_ACQUIRE);
	return 0;
}

int kp_seq_retry(const struct kp_map *m, struct kp_seq *s)
{
	const struct kprof_mmap_header *h = m->hdr;

	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (__atomic_load_n(&h->seq, __ATOMIC_RELAXED) == s->seq &&
	    __atomic_load_n(&h->generation, __ATOMIC_RELAXED) == s->gen)
		return 0;
	/* the time bound is checked by the next kp_seq_begin */
	seq_backoff(s);
	return 1;
}

const struct kprof_probe_info *kp_map_rec(const struct kp_map *m,
					  unsigned int slot)
{
	return (const void *)(m->base + m->hdr->probes_off +
			      (uint64_t)slot * m->hdr->probe_rec_size);
}

int kp_has_keys(const struct kprof_probe_info *r)
{
	return r->type == KPROF_TYPE_PAIR || r->key_rec_size;
}

/* bytes per key record: pairs' struct kprof_key, ADD's keys' kprof_key2 */
uint64_t kp_key_rec_size(const struct kprof_probe_info *r)
{
	return r->key_rec_size ? r->key_rec_size : sizeof(struct kprof_key);
}

/* Is a set's function table and statistics inside the mapping? */
int kp_set_ok(const struct kp_map *m, const struct kprof_probe_info *r)
{
	const struct kprof_mmap_header *h = m->hdr;
	uint64_t need = r->type == KPROF_TYPE_KRETPROBE_SET ?
			sizeof(struct kprof_func_hist) : sizeof(__u64);
	uint64_t row;

	if (!r->nr_funcs)
		return 1;	/* pending: nothing resolved yet */
	if (r->nr_funcs > (1U << 20) || r->nr_probed > r->nr_funcs ||
	    r->func_stride < need ||
	    !kp_in_map(r->funcs_off, (uint64_t)r->nr_funcs *
		    sizeof(struct kprof_func), m->size))
		return 0;
	row = (uint64_t)(r->nr_funcs - 1) * r->func_stride + need;
	if (r->func_stride > m->size || row > m->size ||
	    (h->nr_cpus > 1 && r->func_cpu_stride < row) ||
	    (r->func_cpu_stride && h->nr_cpus - 1 > m->size / r->func_cpu_stride))
		return 0;
	return kp_in_map(r->func_stats_off,
		      (uint64_t)(h->nr_cpus - 1) * r->func_cpu_stride + row,
		      m->size);
}

static int rec_ok(const struct kp_map *m, const struct kprof_probe_info *r)
{
	const struct kprof_mmap_header *h = m->hdr;

	if (r->key_rec_size && (r->key_rec_size < sizeof(struct kprof_key2) ||
				r->key_rec_size % 8 || !r->key[0] ||
				r->type == KPROF_TYPE_PAIR))
		return 0;
	if (kp_has_keys(r) &&
	    (!r->nr_keys || r->nr_keys > 65536 ||
	     r->key_stride < (uint64_t)h->nr_cpus * h->cpu_stride ||
	     !kp_in_map(r->keys_off, (uint64_t)r->nr_keys * kp_key_rec_size(r),
		     m->size) ||
	     !kp_in_map(r->key_stats_off, (uint64_t)(r->nr_keys + 1) * r->key_stride,
		     m->size)))
		return 0;
	if (r->pmu_block &&
	    (r->pmu_block > h->max_pmus ||
	     h->pmu_max_events != KPROF_PMU_MAX_EVENTS ||
	     (uint64_t)h->pmu_stats_off + (uint64_t)KPROF_PMU_MAX_EVENTS *
	     h->nr_cpus * h->cpu_stride > h->pmu_stride ||
	     !kp_in_map(h->pmus_off, (uint64_t)h->max_pmus * h->pmu_stride,
		     m->size)))
		return 0;
	if (kp_is_set(r->type) && !kp_set_ok(m, r))
		return 0;
	return r->slot < h->max_probes &&
	       r->stats_off == h->stats_off + (uint64_t)r->slot * h->probe_stride &&
	       memchr(r->spec, '\0', sizeof(r->spec));
}

int kp_map_probes(const struct kp_map *m, struct kprof_probe_info *out,
		  unsigned int max, unsigned int *n)
{
	const struct kprof_mmap_header *h = m->hdr;
	struct kp_seq s = { 0 };
	unsigned int slot, k;

	do {
		if (kp_seq_begin(m, &s))
			return -1;
		k = 0;
		for (slot = 0; slot < h->max_probes && k < max; slot++) {
			const struct kprof_probe_info *r = kp_map_rec(m, slot);

			if (!__atomic_load_n(&r->id, __ATOMIC_RELAXED))
				continue;
			memcpy(&out[k++], r, sizeof(*out));
		}
	} while (kp_seq_retry(m, &s));
	for (slot = 0; slot < k; slot++)
		if (!rec_ok(m, &out[slot]))
			return -1;
	*n = k;
	return 0;
}

/* adds the per-CPU blocks starting at off into a (min kept as ~0 if none) */
