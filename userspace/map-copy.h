/* SPDX-License-Identifier: GPL-2.0 */
/* Copies of the mapping under its seqcount, and what an interval added. */
#ifndef KPROFCTL_MAP_COPY_H
#define KPROFCTL_MAP_COPY_H

#include "map.h"

/* A consistent copy of the mapping m (malloc'ed); NULL if it never settles */
void *kp_map_copy(const struct kp_map *m);
/*
 * The same copy as a mapping of its own in *snap, for readers that take
 * a const struct kp_map *: 0, -ENOMEM, or -EAGAIN if m never settles.
 * kp_map_snap_free() frees it.
 */
int kp_map_snap(const struct kp_map *m, struct kp_map *snap);
void kp_map_snap_free(struct kp_map *snap);
/*
 * What the statistics added since *prev (a copy of m): a copy of m with
 * counts, sums, buckets and misses less *prev's (min and max since the
 * start; a probe reset or added since counts from zero), malloc'ed; *prev
 * becomes the copy of now.  NULL if out of memory or m never settles.
 */
void *kp_map_since(const struct kp_map *m, void **prev);
/*
 * dst += src, two buffers of m's layout (a capture's intervals): probes
 * in src but not dst are copied in first.  min and max combine.
 */
void kp_map_add(const struct kp_map *m, void *dst, const void *src);

#endif
