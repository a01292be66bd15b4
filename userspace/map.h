/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The statistics mapping: header validation, record lookup and a
 * consistent copy of the probe table (seqcount).  Works on any buffer, so
 * the unit tests feed it fake mappings.
 */
#ifndef KPROFCTL_MAP_H
#define KPROFCTL_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"

struct kp_map {
	const uint8_t *base;
	size_t size;
	const struct kprof_mmap_header *hdr;
};

/*
 * Reading under the header's seqcount (uapi reader protocol): kp_seq_begin
 * waits for an even seq (spinning briefly, then yielding, then sleeping
 * up to 1 ms at a time) and notes seq and generation; after the copy,
 * kp_seq_retry says whether they changed (then copy again).  begin fails
 * only once seq has stayed odd, or kept changing, for KP_SEQ_TIMEOUT_MS
 * since the first begin on s.
 */
#define KP_SEQ_TIMEOUT_MS	3000

struct kp_seq {
	uint32_t seq, gen;
	unsigned int waits;	/* backoff steps so far */
	uint64_t start_ns;	/* 0: not started */
};

int kp_seq_begin(const struct kp_map *m, struct kp_seq *s);
int kp_seq_retry(const struct kp_map *m, struct kp_seq *s);

/* Validates the header of a mapping of size bytes. 0 or -1 + reason. */
int kp_map_init(struct kp_map *m, const void *base, size_t size, char *err,
		size_t errlen);

/*
 * Copies the live probes (id != 0) into out[max] under the seqcount;
 * *n gets their number.  -1 if the table never settles (see kp_seq_begin)
 * or a record is inconsistent with the layout.
 */
int kp_map_probes(const struct kp_map *m, struct kprof_probe_info *out,
		  unsigned int max, unsigned int *n);

static inline int kp_is_set(uint32_t type)
{
	return type == KPROF_TYPE_KPROBE_SET ||
	       type == KPROF_TYPE_KRETPROBE_SET;
}

/* Is a set's function table and statistics inside the mapping? */
int kp_set_ok(const struct kp_map *m, const struct kprof_probe_info *r);

/* [off, off + len) inside [0, size), overflow-safe: every region check */
int kp_in_map(uint64_t off, uint64_t len, uint64_t size);

/* the probe record in slot (no check: slot < max_probes) */
const struct kprof_probe_info *kp_map_rec(const struct kp_map *m,
					  unsigned int slot);
/* does r have a key table (pairs, --key)? its records' size */
int kp_has_keys(const struct kprof_probe_info *r);
uint64_t kp_key_rec_size(const struct kprof_probe_info *r);

#endif
