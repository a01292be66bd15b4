/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A fake statistics mapping in the module's layout for the unit tests
 * (test_stats, test_sets, test_top): the header at 0, the probe table at
 * one page, nprobe blocks of ncpu x stride statistics bytes at two pages,
 * then extra bytes that the test lays out (key tables, sets).  Every
 * statistics block starts empty (min UINT64_MAX).
 */
#ifndef KP_UNIT_FAKEMAP_H
#define KP_UNIT_FAKEMAP_H

#include <stdint.h>
#include <stdlib.h>

#include "uapi/linux/kprofctl.h"
#include "kprofctl/hist.h"

#define KP_FAKE_PAGE	4096

static inline struct kprof_mmap_header *kp_fake_hdr(uint8_t *fake)
{
	return (struct kprof_mmap_header *)fake;
}

static inline struct kprof_probe_info *kp_fake_rec(uint8_t *fake,
						   unsigned int slot)
{
	return (void *)(fake + kp_fake_hdr(fake)->probes_off +
			slot * sizeof(struct kprof_probe_info));
}

static inline struct kprof_cpu_stats *kp_fake_st(uint8_t *fake,
						 unsigned int slot,
						 unsigned int cpu)
{
	const struct kprof_mmap_header *h = kp_fake_hdr(fake);

	return (void *)(fake + h->stats_off + slot * h->probe_stride +
			cpu * h->cpu_stride);
}

/* frees old, returns the new mapping of *size bytes */
static inline uint8_t *kp_fake_build(uint8_t *old, size_t *size,
				     unsigned int nprobe, unsigned int ncpu,
				     size_t stride, size_t extra)
{
	struct kprof_mmap_header *h;
	uint8_t *fake;
	unsigned int s, c;

	*size = 2 * KP_FAKE_PAGE + (size_t)nprobe * ncpu * stride + extra;
	free(old);
	fake = calloc(1, *size);
	if (!fake)
		abort();
	h = kp_fake_hdr(fake);
	h->magic = KPROF_MMAP_MAGIC;
	h->abi_major = KPROF_ABI_MAJOR;
	h->header_size = sizeof(*h);
	h->nr_cpus = ncpu;
	h->max_probes = nprobe;
	h->probe_rec_size = sizeof(struct kprof_probe_info);
	h->probes_off = KP_FAKE_PAGE;
	h->stats_off = 2 * KP_FAKE_PAGE;
	h->probe_stride = ncpu * stride;
	h->cpu_stride = stride;
	h->hist_sub_bits = KPROF_HIST_SUB_BITS;
	h->hist_max_exp = KPROF_HIST_MAX_EXP;
	h->hist_nr_buckets = KPROF_HIST_NR_BUCKETS;
	h->mmap_size = *size;
	for (s = 0; s < nprobe; s++)
		for (c = 0; c < ncpu; c++)
			kp_fake_st(fake, s, c)->min = UINT64_MAX;
	return fake;
}

#endif
