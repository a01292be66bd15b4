// SPDX-License-Identifier: GPL-2.0
/*
 * Keys claimed in probe context.  A key slot is taken by a cmpxchg of its
 * tag from 0, so two CPUs (or an interrupt nesting on one) that see the
 * same new key agree on one slot: the loser's cmpxchg returns the
 * winner's tag.  Tags are private; the mapping gets each key's value and
 * name once, published by its flag.
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
 * The keys, their statistics and their tags go together, so a slot is
 * reused only once it is blank.
 */
void kprof_keys_zero(struct kprof_keys *keys)
{
	unsigned int cpu, k;

	if (!keys->nr)
		return;
	memset(keys->map, 0, keys->nr * sizeof(*keys->map));
	for (k = 0; k <= keys->nr; k++)
		for_each_possible_cpu(cpu)
			kprof_zero_stats(kprof_key_stats(keys, k, cpu));
	memset(keys->tags, 0, keys->nr * sizeof(*keys->tags));
}
