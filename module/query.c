// SPDX-License-Identifier: GPL-2.0
/*
 * What the commands read of the table: probe records, one probe's or a
 * walk over them, and a keyed probe's caller or stack ids.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/overflow.h>

#include "core-int.h"
#include "keys.h"

/* a probe with keys counts its calls in its keys' rows ("other" too) */
static u64 kprof_hits(struct kprof_probe *p)
{
	unsigned int cpu, k;
	u64 sum = 0;

	for_each_possible_cpu(cpu) {
		sum += READ_ONCE(kprof_this_stats(p, cpu)->count);
		for (k = 0; p->keys.nr && k <= p->keys.nr; k++)
			sum += READ_ONCE(kprof_key_stats(&p->keys, k,
							 cpu)->count);
	}
	return sum;
}

int kprof_walk_infos(u32 *slot, u32 id, const char *spec,
			struct kprof_info_walk *w)
{
	struct kprof_probe_info *info;
	int ret = 0;

	info = kmalloc(sizeof(*info), GFP_KERNEL);
	if (!info)
		return -ENOMEM;
	mutex_lock(&kprof.lock);
	for (; *slot < kprof_max_probes(); (*slot)++) {
		struct kprof_probe *p = kprof.slots[*slot];

		if (!p || (id && p->id != id) || (spec && strcmp(p->spec, spec)))
			continue;
		kprof_fill_info(p, info);
		info->hits = kprof_hits(p);
		ret = w->fn(w, info, kprof_events_dropped(p));
		if (ret)
			break;
	}
	mutex_unlock(&kprof.lock);
	kfree(info);
	return ret;
}

int kprof_probe_info(u32 id, struct kprof_probe_info *info)
{
	struct kprof_probe *p;
	int ret = 0;

	mutex_lock(&kprof.lock);
	p = kprof_find(id);
	if (p) {
		kprof_fill_info(p, info);
		info->hits = kprof_hits(p);
	} else {
		ret = -ENOENT;
	}
	mutex_unlock(&kprof.lock);
	return ret;
}

void kprof_sym_name(unsigned long pc, char *buf)
{
	char *sym = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);
	char *cut;

	buf[0] = '\0';
	if (!sym)
		return;
	/*
	 * "func+0x1c/0x40 [mod]": the size and the module are not kept; an
	 * address without a symbol comes back as the address, never given.
	 */
	sprint_symbol(sym, pc);
	cut = strchr(sym, '/');
	if (cut)
		*cut = '\0';
	if (strncmp(sym, "0x", 2))
		strscpy(buf, sym, KPROF_SYM_LEN);
	kfree(sym);
}

int kprof_probe_key_syms(u32 id, char **buf, u32 *nr)
{
	struct kprof_frames *f;
	struct kprof_probe *p;
	u64 *pcs = NULL, pc;
	u32 i;
	int ret = 0;

	mutex_lock(&kprof.lock);
	p = kprof_find(id);
	if (!p) {
		ret = -ENOENT;
		goto out;
	}
	/* a backend that names sites may have stacks for them (mem) */
	f = p->callers.nr || !p->be->site_name ? &p->callers : &p->stacks;
	if (!f->nr) {
		ret = -ENODATA;
		goto out;
	}
	*nr = f->nr;
	*buf = kvcalloc(*nr, KPROF_SYM_LEN, GFP_KERNEL);
	pcs = kvcalloc(array_size(*nr, f->depth), sizeof(*pcs), GFP_KERNEL);
	if (!*buf || !pcs) {
		kvfree(*buf);
		ret = -ENOMEM;
		goto out;
	}
	kprof_frames_read(f, pcs);
	for (i = 0; i < *nr; i++) {
		pc = pcs[(size_t)i * f->depth];
		if (!pc)
			continue;
		/* a backend may know what its module's text was */
		if (!p->be->site_name ||
		    !p->be->site_name(p, i + 1, &pcs[(size_t)i * f->depth],
				      *buf + i * KPROF_SYM_LEN))
			kprof_sym_name(pc, *buf + i * KPROF_SYM_LEN);
	}
out:
	mutex_unlock(&kprof.lock);
	kvfree(pcs);
	return ret;
}

/*
 * A probe's caller (or stack) ids' addresses, in a buffer of *nr x *depth
 * the caller kvfree()s: -ENOENT without the probe, -ENODATA without such
 * a key.
 */
int kprof_probe_key_frames(u32 id, bool stack, u64 **buf, u32 *nr,
			   u32 *depth)
{
	struct kprof_frames *f;
	struct kprof_probe *p;
	int ret = 0;

	mutex_lock(&kprof.lock);
	p = kprof_find(id);
	f = p ? (stack ? &p->stacks : &p->callers) : NULL;
	if (!p) {
		ret = -ENOENT;
	} else if (!f->nr) {
		ret = -ENODATA;
	} else {
		*nr = f->nr;
		*depth = f->depth;
		*buf = kvcalloc(array_size(*nr, *depth), sizeof(**buf),
				GFP_KERNEL);
		if (*buf)
			kprof_frames_read(f, *buf);
		else
			ret = -ENOMEM;
	}
	mutex_unlock(&kprof.lock);
	return ret;
}

/*
 * Record @i of a caller's array of @rec_size-byte records: as much of
 * @rec as fits, a larger record zero-filled past it.  Not under a lock:
 * a faulting (or userfaultfd-stalled) buffer holds up no other command.
 */
int kprof_put_rec(void __user *recs, u32 i, u32 rec_size, const void *rec,
		  size_t size)
{
	u8 __user *dst = (u8 __user *)recs + (size_t)i * rec_size;
	size_t copy = min_t(size_t, rec_size, size);

	if (copy_to_user(dst, rec, copy) ||
	    (rec_size > copy && clear_user(dst + copy, rec_size - copy)))
		return -EFAULT;
	return 0;
}

/* Records are gathered under the lock and copied out after it. */
int kprof_probe_list(struct kprof_probe_info __user *recs, u32 rec_size,
		     u32 *count)
{
	u32 room = min(*count, kprof_max_probes()), n = 0, total = 0, i;
	struct kprof_probe_info *buf = NULL;
	int ret = 0;

	if (room) {
		buf = kvcalloc(room, sizeof(*buf), GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	mutex_lock(&kprof.lock);
	for (i = 0; i < kprof_max_probes(); i++) {
		struct kprof_probe *p = kprof.slots[i];

		if (!p)
			continue;
		if (n < room) {
			kprof_fill_info(p, &buf[n]);
			buf[n].hits = kprof_hits(p);
			n++;
		}
		total++;
	}
	mutex_unlock(&kprof.lock);

	for (i = 0; i < n && !ret; i++)
		ret = kprof_put_rec(recs, i, rec_size, &buf[i], sizeof(buf[i]));
	kvfree(buf);
	*count = total;
	return ret;
}
