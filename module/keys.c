// SPDX-License-Identifier: GPL-2.0
/*
 * Keys claimed in probe context.  A key slot is taken by a cmpxchg of its
 * tag from 0, so two CPUs (or an interrupt nesting on one) that see the
 * same new key agree on one slot: the loser's cmpxchg returns the
 * winner's tag.  Tags are private; the mapping gets each key's value and
 * name once, published by its flag.
 *
 * Pairs make their tags unique (key + 1).  ADD's keys are two arbitrary
 * 64-bit values, which no 64-bit tag can tell apart: there the tag is a
 * hash of both, and a slot whose tag matches is the key only if its
 * published values are the same (kprof_key2_first()).
 */
#include <linux/kernel.h>
#include <linux/hash.h>
#include <linux/kprobes.h>

#include "keys.h"

/*
 * Context: any probe context.  The index of tag's key, claimed if new
 * (*fresh: the caller publishes it), or keys->nr ("other keys") when
 * every key is taken.
 */
notrace u32 kprof_key_find(struct kprof_keys *keys, u64 tag, bool *fresh)
{
	u32 h = hash_64(tag, 32), i, k;
	u64 v;

	*fresh = false;
	for (i = 0; i < keys->nr; i++) {
		k = (h + i) & (keys->nr - 1);
		v = READ_ONCE(keys->tags[k]);
		if (!v) {
			v = cmpxchg(&keys->tags[k], 0, tag);
			if (!v) {
				*fresh = true;
				return k;
			}
		}
		if (v == tag)
			return k;
	}
	return keys->nr;
}
NOKPROBE_SYMBOL(kprof_key_find);

/* Context: any probe context; k was just claimed by this caller. */
notrace void kprof_key_publish(struct kprof_keys *keys, u32 k, u64 value,
			       const char *name)
{
	struct kprof_key *key = &keys->map[k];

	WRITE_ONCE(key->value, value);
	strscpy(key->name, name ? name : "", sizeof(key->name));
	/* value and name before the flag; readers load it with acquire */
	smp_store_release(&key->flags, KPROF_KEY_USED);
}
NOKPROBE_SYMBOL(kprof_key_publish);

/*
 * Context: any probe context.  The index of the key (v1, v2) of hash @tag
 * (kprof_key2_first()), claimed and published (with @name, may be NULL) if
 * new; keys->nr ("other keys")
 * when every slot on its path is taken, and in the one case where its
 * slot is claimed but not yet published by the CPU (or the interrupted
 * context) that claimed it, as waiting could deadlock.
 */
notrace u32 kprof_key2_find(struct kprof_keys *keys, u64 tag, u64 v1,
			    u64 v2, const char *name)
{
	u32 h = tag >> 32, i, k;
	struct kprof_key2 *key;
	u64 t;

	for (i = 0; i < keys->nr; i++) {
		k = (h + i) & (keys->nr - 1);
		t = READ_ONCE(keys->tags[k]);
		if (!t) {
			t = cmpxchg(&keys->tags[k], 0, tag);
			if (!t) {
				key = kprof_key2(keys, k);
				WRITE_ONCE(key->value, v1);
				WRITE_ONCE(key->value2, v2);
				strscpy(key->name, name ? name : "",
					sizeof(key->name));
				/* values first: pairs with the acquire below */
				smp_store_release(&key->flags, KPROF_KEY_USED);
				return k;
			}
		}
		if (t != tag)
			continue;
		key = kprof_key2(keys, k);
		/* the values after the flag: pairs with the claimer's release */
		if (!smp_load_acquire(&key->flags))
			return keys->nr;
		if (READ_ONCE(key->value) == v1 && READ_ONCE(key->value2) == v2)
			return k;
	}
	return keys->nr;
}
NOKPROBE_SYMBOL(kprof_key2_find);

/*
 * The keys, their statistics and their tags go together, so a slot is
 * reused only once it is blank.
 */
void kprof_keys_zero(struct kprof_keys *keys)
{
	unsigned int cpu, k;

	if (!keys->nr)
		return;
	memset(keys->map, 0, (size_t)keys->nr * keys->rec_size);
	for (k = 0; k <= keys->nr; k++)
		for_each_possible_cpu(cpu)
			kprof_zero_stats(kprof_key_stats(keys, k, cpu));
	memset(keys->tags, 0, keys->nr * sizeof(*keys->tags));
}
