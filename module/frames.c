// SPDX-License-Identifier: GPL-2.0
/*
 * Opaque ids for code addresses (frames.h).
 */
#include <linux/kernel.h>
#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/stacktrace.h>
#include <linux/percpu.h>
#include <linux/hardirq.h>
#include <linux/sched.h>

#include "../uapi/linux/kprofctl.h"

#include "frames.h"
#include "fast.h"
#include "unwind.h"

int kprof_frames_alloc(struct kprof_frames *f, u32 nr, u32 depth)
{
	/* the walk's IRQ stacks and trampoline, once, before a stack is due */
	kprof_unwind_prepare();
	f->tags = kvcalloc(nr, sizeof(*f->tags), GFP_KERNEL);
	f->ids = kvcalloc(nr, sizeof(*f->ids), GFP_KERNEL);
	f->pc = kvcalloc(array_size(nr, depth), sizeof(*f->pc), GFP_KERNEL);
	if (!f->tags || !f->ids || !f->pc) {
		kprof_frames_free(f);
		return -ENOMEM;
	}
	atomic_set(&f->next, 0);
	f->nr = nr;
	f->depth = depth;
	return 0;
}

void kprof_frames_free(struct kprof_frames *f)
{
	kvfree(f->tags);
	kvfree(f->ids);
	kvfree(f->pc);
	memset(f, 0, sizeof(*f));
}

void kprof_frames_zero(struct kprof_frames *f)
{
	if (!f->nr)
		return;
	memset(f->ids, 0, f->nr * sizeof(*f->ids));
	memset(f->pc, 0, array_size(f->nr, f->depth) * sizeof(*f->pc));
	memset(f->tags, 0, f->nr * sizeof(*f->tags));
	atomic_set(&f->next, 0);
}

/* slots a lookup tries before the table counts as full for these frames */
#define KPROF_FRAMES_PROBES	64

/* two frames, compared in one load pair each */
struct kprof_pc2 {
	unsigned long a, b;
};

/*
 * The tag of @pc[0..@n): a rotate and an exclusive or a frame, two frames
 * a load pair, then one multiply to spread it (its top half picks the
 * slot).  Never 0, a free slot's.
 */
static __always_inline u64 kprof_frames_tag(const unsigned long *pc, u32 n)
{
	u64 tag = 0;
	u32 d;

	for (d = 0; d + 1 < n; d += 2)
		tag = ror64(ror64(tag, 17) ^ pc[d], 17) ^ pc[d + 1];
	if (d < n)
		tag = ror64(tag, 17) ^ pc[d];
	tag *= 0x9e3779b97f4a7c15ULL;
	return (tag ^ (tag >> 29)) | 1;
}

/* Is @s (an id's @depth frames) @pc[0..@n) followed by zeros? */
static __always_inline bool kprof_frames_same(const unsigned long *s,
					      const unsigned long *pc, u32 n,
					      u32 depth)
{
	const struct kprof_pc2 *x = (const void *)s, *y = (const void *)pc;
	const struct kprof_pc2 *e = y + n / 2;
	struct kprof_pc2 u, v;

	for (; y < e; x++, y++) {
		u = *x;
		v = *y;
		if (u.a != v.a || u.b != v.b)
			return false;
	}
	s = (const unsigned long *)x;
	if ((n & 1) && *s++ != *(const unsigned long *)y)
		return false;
	return n == depth || !*s;
}

/*
 * The id of @pc[0..@n) followed by zeros (@n at most depth).  Tagged and
 * compared up to its last nonzero pc: an id's slot holds zeros past its
 * pcs (the table is zeroed, and each id is written once), so equal
 * prefixes with the stored zero after them are equal stacks.
 */
static __always_inline u32 kprof_frames_idn(struct kprof_frames *f,
					    const unsigned long *pc, u32 n)
{
	u32 i, k, d, id;
	u64 tag, t;

	while (n && !pc[n - 1])
		n--;
	tag = kprof_frames_tag(pc, n);
	/* a bounded probe: a full table costs no more than a nearly full one */
	for (i = 0; i < min_t(u32, f->nr, KPROF_FRAMES_PROBES); i++) {
		k = ((u32)(tag >> 32) + i) & (f->nr - 1);
		t = READ_ONCE(f->tags[k]);
		if (!t) {
			t = cmpxchg(&f->tags[k], 0, tag);
			if (!t) {
				/* one id per slot claimed: never above nr */
				id = atomic_inc_return(&f->next);
				for (d = 0; d < n; d++)
					WRITE_ONCE(f->pc[(id - 1) * f->depth + d],
						   pc[d]);
				/* the frames first: pairs with the acquire below */
				smp_store_release(&f->ids[k], id);
				return id;
			}
		}
		if (t != tag)
			continue;
		/*
		 * The frames after the id: pairs with the claimer's release;
		 * they are written once, before it (and marked gone a word at
		 * a time), so read as plain memory.
		 */
		id = smp_load_acquire(&f->ids[k]);
		if (!id)
			return 0;
		if (kprof_frames_same(f->pc + (id - 1) * f->depth, pc, n,
				      f->depth))
			return id;
	}
	return 0;
}

notrace u32 kprof_frames_id(struct kprof_frames *f, const unsigned long *pc)
{
	return kprof_frames_idn(f, pc, f->depth);
}
NOKPROBE_SYMBOL(kprof_frames_id);

notrace u32 kprof_frames_id1(struct kprof_frames *f, unsigned long pc)
{
	return kprof_frames_id(f, &pc);
}
NOKPROBE_SYMBOL(kprof_frames_id1);

/* the interrupt or NMI machinery's frames above an interrupted stack */
#define KPROF_IRQ_SLACK		24

/*
 * Unwinding space, off the (NMI, IRQ) stack: one per context level, as a
 * handler may interrupt another's unwinding only from a higher level (an
 * IRQ's tracepoint over a task's kprobe, an NMI over an IRQ on x86).  At
 * the same level a walk nests only inside another's unwinder (a probe on
 * a function it calls) or, where tracepoints run preemptible, in another
 * task: @busy tells, and the inner walk is dropped.
 */
struct kprof_unwind_buf {
	unsigned long st[KPROF_IRQ_SLACK + KPROF_SAMPLE_DEPTH];
	unsigned long out[KPROF_SAMPLE_DEPTH];
	unsigned long busy;
};

static DEFINE_PER_CPU(struct kprof_unwind_buf, kprof_unwind_bufs[4]);

/* this CPU's buffer for this level, or NULL if a walk holds it */
static __always_inline struct kprof_unwind_buf *kprof_unwind_get(void)
{
	struct kprof_unwind_buf *b =
		this_cpu_ptr(&kprof_unwind_bufs[kprof_ctx_level()]);

	if (cmpxchg_local(&b->busy, 0, 1))
		return NULL;
	return b;
}

static __always_inline void kprof_unwind_put(struct kprof_unwind_buf *b)
{
	/* the walk's use of the buffer before another task may take it */
	smp_store_release(&b->busy, 0);
}

/*
 * The unwinder starts in this file's frames and the probe machinery's; the
 * stack proper starts at @from where it appears among the first frames.
 * Where it does not (arm64 at a function's entry: the caller's return
 * address is still in the link register, in no frame record), at the
 * frame after @fn, with @from put back in.
 */
static __always_inline unsigned long *kprof_stack_build(struct kprof_unwind_buf *b,
							 unsigned int depth,
							 unsigned long fn,
							 unsigned long from,
							 unsigned int *len)
{
	/* two slots in front: @fn (and @from) go before a frame, not copied */
	unsigned long *st = b->st + 2;
	unsigned int n, i, end;

	n = kprof_stack_save(st, depth + 12, 0);
	if (!fn) {
		/* a tracepoint: from the first frame not in this module */
		for (i = 0; i < n && within_module(st[i], THIS_MODULE); i++)
			;
		*len = min(n - i, depth);
		return st + i;
	}
	for (i = 0; i < n && i < 12; i++)
		if (st[i] == from)
			break;
	if (i == n || i == 12) {
		/* @from is in no record: in after the frame of @fn */
		for (i = 0; i < n && i < 12; i++)
			if (st[i] == fn)
				break;
		st[i] = from;
	}
	/* @fn, then the stack from st[i] (@from) */
	st[i - 1] = fn;
	end = i < n ? n : i + 1;
	*len = min(end - i + 1, depth);
	return st + i - 1;
}

/*
 * At a return with the caller's frame record: @fn, @from, then the walk
 * from @fp, none of the probe machinery's frames walked.  0: the walk
 * could not prove a step, or (x86-64, whose kprof_unwind_from() always
 * says so) was not tried: the caller walks from here.
 */
static __always_inline u32 kprof_stack_id_fp(struct kprof_unwind_buf *b,
					     struct kprof_frames *f,
					     unsigned long fn,
					     unsigned long from,
					     unsigned long fp,
					     struct llist_node *own)
{
	unsigned long *out = b->out, *k;
	unsigned int depth = f->depth, m;
	int n;

	out[0] = fn;
	out[1] = from;
	n = kprof_unwind_from(out + 2, depth - 2, fp, own);
	if (n < 0)
		return 0;
	/* no @own: a fast return, its call's stub not above @fp */
	kprof_stack_unstub_top(out + 2, n, own ? 0 : 1);
	n += 2;
	if (unlikely(kprof_unwind_checking())) {
		/* against the walk from here, both padded to depth */
		k = kprof_stack_build(b, depth, fn, from, &m);
		memset(k + m, 0, (depth - m) * sizeof(*k));
		memset(out + n, 0, (depth - n) * sizeof(*out));
		kprof_unwind_compare(out, k, depth, false);
	}
	return kprof_frames_idn(f, out, n) ?: U32_MAX;
}

/* the walk's buffer for a stack of @f, NULL if too deep or nested */
static __always_inline struct kprof_unwind_buf *kprof_stack_buf(struct kprof_frames *f)
{
	if (unlikely(f->depth > KPROF_SAMPLE_DEPTH))
		return NULL;
	return kprof_unwind_get();
}

noinline notrace u32 kprof_stack_id(struct kprof_frames *f, unsigned long fn,
				    unsigned long from, unsigned long fp,
				    struct llist_node *own)
{
	struct kprof_unwind_buf *b = kprof_stack_buf(f);
	unsigned long *st;
	unsigned int n;
	u32 id = 0;

	if (unlikely(!b))
		return 0;
	if (fp && fn && f->depth > 2)
		id = kprof_stack_id_fp(b, f, fn, from, fp, own);
	if (id == U32_MAX) {
		id = 0;		/* the table is full */
	} else if (!id) {
		st = kprof_stack_build(b, f->depth, fn, from, &n);
		id = kprof_frames_idn(f, st, n);
	}
	kprof_unwind_put(b);
	return id;
}
NOKPROBE_SYMBOL(kprof_stack_id);

void kprof_frames_mark(struct kprof_frames *f, const struct kprof_text *in,
		       unsigned int nr, unsigned long mark)
{
	size_t i, n = array_size(f->nr, f->depth);

	for (i = 0; i < n; i++)
		if (f->pc[i] && kprof_text_has(in, nr, f->pc[i]))
			WRITE_ONCE(f->pc[i], mark);
}

noinline notrace u32 kprof_stack_id_in(struct kprof_frames *f,
				       const struct kprof_text *in,
				       unsigned int nr)
{
	struct kprof_unwind_buf *b = kprof_stack_buf(f);
	unsigned long *st;
	unsigned int n, i;
	u32 id = 0;

	/* nested in a walk at this context level: no allocator runs there */
	if (unlikely(!b))
		return 0;
	st = kprof_stack_build(b, f->depth, 0, 0, &n);
	for (i = 0; i < n; i++)
		if (kprof_text_has(in, nr, st[i])) {
			id = kprof_frames_idn(f, st, n) ?: U32_MAX;
			break;
		}
	kprof_unwind_put(b);
	return id;
}
NOKPROBE_SYMBOL(kprof_stack_id_in);

/*
 * The kernel's walk of @regs (unwind.c's from @regs first, on arm64):
 * stack_trace_save_regs() is not exported.  stack_trace_save() from the
 * handler unwinds through the interrupt's own frames and on across the
 * exception boundary, where the unwinder reports the interrupted PC
 * (arm64: the frame record the entry code makes of ELR; x86: the
 * interrupt frame's ip): the stack proper starts there.  Where it does
 * not appear among the first frames, the PC alone stands for it.
 * Up to @f->depth (at most KPROF_SAMPLE_DEPTH) frames.
 */
static __always_inline unsigned long *kprof_stack_regs_kernel(unsigned long *st,
								unsigned int depth,
								struct pt_regs *regs,
								bool check)
{
	unsigned long pc = instruction_pointer(regs);
	unsigned int n, i;

	/* check mode compares with the kernel's walk (stubs resolved alike) */
	if (check) {
		n = stack_trace_save(st, KPROF_IRQ_SLACK + depth, 0);
		kprof_stack_unstub(st, n);
	} else
		n = kprof_stack_save(st, KPROF_IRQ_SLACK + depth, 0);
	for (i = 0; i < n && i < KPROF_IRQ_SLACK; i++)
		if (st[i] == pc)
			break;
	if (i == n || i == KPROF_IRQ_SLACK) {
		memset(st, 0, depth * sizeof(*st));
		st[0] = pc;
		return st;
	}
	/* the stack is st[i..]: pad it to depth */
	if (n < i + depth)
		memset(st + n, 0, (i + depth - n) * sizeof(*st));
	return st + i;
}

static __always_inline u32 kprof_stack_id_regs_in(struct kprof_unwind_buf *b,
						  struct kprof_frames *f,
						  struct pt_regs *regs)
{
	unsigned long *st = b->st, *k;
	unsigned int depth = f->depth;
	int n;

	if (user_mode(regs)) {
		/* no kernel stack: which process was running stands for it */
		memset(st, 0, depth * sizeof(*st));
		st[0] = KPROF_FRAME_USER;
		if (depth >= 4) {
			st[1] = task_tgid_nr(current);
			/* racy against a rename, as perf's comm is */
			memcpy(&st[2], current->comm,
			       min(sizeof(current->comm), 2 * sizeof(*st)));
		}
		return kprof_frames_id(f, st);
	}
	/* from the interrupted PC and x29: none of the interrupt's frames */
	n = kprof_unwind_regs(b->out, depth, regs);
	if (n < 0)
		return kprof_frames_id(f, kprof_stack_regs_kernel(st, depth,
								  regs, false));
	kprof_stack_unstub(b->out, n);
	if (unlikely(kprof_unwind_checking())) {
		memset(b->out + n, 0, (depth - n) * sizeof(*st));
		k = kprof_stack_regs_kernel(st, depth, regs, true);
		/*
		 * An interrupt that came in where the entry code had just
		 * returned from its handler (arm64's el1h_64_irq+0x74, a
		 * pseudo-NMI over an IRQ's exit): the interrupt's own entry
		 * frame returns to the same PC, and the kernel's walk is cut
		 * there, one frame early.  Compared past it.
		 */
		if (depth > 2 && k[0] == k[1] && b->out[1] != k[1])
			kprof_unwind_compare(b->out + 1, k + 2, depth - 2,
					     false);
		else	/* the kernel's walk without the PC among its first frames */
			kprof_unwind_compare(b->out, k, depth,
					     k == st && !k[1] && b->out[1]);
	}
	return kprof_frames_idn(f, b->out, n);
}

noinline notrace u32 kprof_stack_id_regs(struct kprof_frames *f,
					 struct pt_regs *regs)
{
	struct kprof_unwind_buf *b = kprof_stack_buf(f);
	u32 id;

	if (unlikely(!b))
		return 0;
	id = kprof_stack_id_regs_in(b, f, regs);
	kprof_unwind_put(b);
	return id;
}
NOKPROBE_SYMBOL(kprof_stack_id_regs);

void kprof_frames_read(struct kprof_frames *f, u64 *dst)
{
	u32 k, d, id;

	memset(dst, 0, array_size(f->nr, f->depth) * sizeof(*dst));
	for (k = 0; k < f->nr; k++) {
		/* an id's frames are written once it is in a slot */
		id = smp_load_acquire(&f->ids[k]);
		for (d = 0; id && d < f->depth; d++)
			dst[(id - 1) * f->depth + d] =
				READ_ONCE(f->pc[(id - 1) * f->depth + d]);
	}
}
