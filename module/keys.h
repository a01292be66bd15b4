/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Statistics per key: a probe of a keyed kind (KPROF_KIND_KEYED) records
 * each event under a key (an IRQ, a device, a pid...) claimed lock-free
 * the first time it is seen, in a key block of the mapping: nr keys
 * (struct kprof_key) and nr + 1 rows of per-CPU statistics, the last one
 * for "other keys" once every key is taken.
 */
#ifndef KPROF_KEYS_H
#define KPROF_KEYS_H

#include <linux/compiler.h>
#include <asm/barrier.h>

#include "stats.h"

struct kprof_keys {
	struct kprof_key *map;		/* in the mapping, nr of them, each
					 * rec_size bytes (kprof_key2 for
					 * probes with ADD's keys)
					 */
	u8 *stats;			/* in the mapping: key 0, CPU 0 */
	u64 *tags;			/* private: 0 free, else key + 1 */
	u32 nr;				/* a power of two; 0: not keyed */
	u32 rec_size;			/* sizeof(kprof_key) or (kprof_key2) */
	int slot;			/* key block of the mapping, -1: none */
};

/* key == keys->nr is the "other keys" row */
static __always_inline struct kprof_cpu_stats *
kprof_key_stats(struct kprof_keys *keys, unsigned int key, unsigned int cpu)
{
	return kprof_cpu_block(keys->stats, key, cpu);
}

u32 kprof_key_find(struct kprof_keys *keys, u64 tag, bool *fresh);
void kprof_key_publish(struct kprof_keys *keys, u32 k, u64 value,
		       const char *name);

/*
 * Context: any probe context.  The index of the key with this tag
 * (tag != 0), published with value and name if it is new.
 */
static __always_inline u32 kprof_key_get(struct kprof_keys *keys, u64 tag,
					 u64 value, const char *name)
{
	bool fresh;
	u32 k = kprof_key_find(keys, tag, &fresh);

	if (fresh)
		kprof_key_publish(keys, k, value, name);
	return k;
}

u32 kprof_key2_find(struct kprof_keys *keys, u64 tag, u64 v1, u64 v2,
		    const char *name);

static __always_inline struct kprof_key2 *kprof_key2(struct kprof_keys *keys,
						      u32 k)
{
	return (struct kprof_key2 *)((u8 *)keys->map + (size_t)k *
				     keys->rec_size);
}

/*
 * The tag of key (v1, v2), never 0.  It only picks the slot and tells
 * most keys apart (multiplicative hashing: the high half spreads small
 * values); the values decide.
 */
static __always_inline u64 kprof_key2_tag(u64 v1, u64 v2)
{
	return (v1 * 0x9e3779b97f4a7c15ULL ^ v2 * 0xc2b2ae3d27d4eb4fULL) | 1;
}

/*
 * Context: any probe context.  The index of the key (v1, v2) (ADD's keys)
 * if it is in its first slot, the usual case, at no call; else U32_MAX
 * and kprof_key2_find() goes on.  Without @two (a probe of one key) every
 * record's value2 is 0 and is not compared.
 */
static __always_inline u32 kprof_key2_first(struct kprof_keys *keys, u64 tag,
					    u64 v1, u64 v2, bool two)
{
	u32 k = (u32)(tag >> 32) & (keys->nr - 1);
	struct kprof_key2 *key = kprof_key2(keys, k);

	if (READ_ONCE(keys->tags[k]) == tag &&
	    /* the values after the flag: pairs with the claimer's release */
	    smp_load_acquire(&key->flags) &&
	    READ_ONCE(key->value) == v1 &&
	    (!two || READ_ONCE(key->value2) == v2))
		return k;
	return U32_MAX;
}

/* Context: process; no handler records into @keys. */
void kprof_keys_zero(struct kprof_keys *keys);

#endif /* KPROF_KEYS_H */
