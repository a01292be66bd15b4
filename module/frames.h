/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Code addresses behind opaque ids, for caller keys: the key a reader
 * sees is the id, since the mapping is readable with device access alone;
 * the addresses stay here and go out only to CAP_SYSLOG
 * (KPROF_IOC_KEY_FRAMES).  Ids are claimed lock-free in probe context,
 * like keys (keys.c): a cmpxchg of a slot's tag, the next id (1, 2... in
 * order of first sight), its addresses, then the slot's id (release).
 */
#ifndef KPROF_FRAMES_H
#define KPROF_FRAMES_H

#include <linux/types.h>
#include <linux/atomic.h>

struct kprof_frames {
	u64 *tags;		/* by slot: 0 free, else a hash of the frames | 1 */
	u32 *ids;		/* by slot: its id once the frames are written */
	unsigned long *pc;	/* by id - 1: depth pcs */
	atomic_t next;		/* ids given, in order of first sight */
	u32 nr;			/* slots and ids, a power of two; 0: none */
	u32 depth;
};

/* Context: process.  Preallocates nr ids (a power of two) of depth pcs. */
int kprof_frames_alloc(struct kprof_frames *f, u32 nr, u32 depth);
void kprof_frames_free(struct kprof_frames *f);
/* Context: process; no handler records into @f. */
void kprof_frames_zero(struct kprof_frames *f);

/*
 * Context: any probe context.  The id (1..nr) of these depth pcs, claimed
 * if new; 0 when the table is full, or the pcs' slot is being written.
 */
u32 kprof_frames_id(struct kprof_frames *f, const unsigned long *pc);

/*
 * Context: any probe context.  kprof_frames_id() of one address (a table
 * of depth 1), by value: nothing of the caller's is on its stack.
 */
u32 kprof_frames_id1(struct kprof_frames *f, unsigned long pc);

/* frames a stack keeps at most: a profile's and an off-CPU table's depth */
#define KPROF_SAMPLE_DEPTH	32

/*
 * Context: any probe context.  The id in @f (depth at most
 * KPROF_SAMPLE_DEPTH) of the kernel stack here: @fn first, then its
 * caller (@from, a return address) and up; without @fn (a tracepoint),
 * from the first frame out of kprofctl (the tracepoint's iterator, where
 * it has one, then the function that fired it).  At a return, @fp (the
 * caller's frame record, arm64) starts the walk above @from, past the
 * probe machinery's frames, and @own (a kretprobe instance being handled)
 * is not in its way; @fp without @own is a fast return's, whose call is
 * still on the task's return stack.  0 when the table is full, or when
 * this walk nests in another at the same context level.
 */
struct llist_node;
u32 kprof_stack_id(struct kprof_frames *f, unsigned long fn,
		   unsigned long from, unsigned long fp,
		   struct llist_node *own);

/* [lo, hi) of some code: a module's text, say; 0 0 when none */
struct kprof_text {
	unsigned long lo, hi;
};

/* Context: any.  Is @pc in one of @nr ranges @in (read as they change)? */
static __always_inline bool kprof_text_has(const struct kprof_text *in,
					   unsigned int nr, unsigned long pc)
{
	unsigned int r;

	for (r = 0; r < nr; r++)
		if (pc - READ_ONCE(in[r].lo) <
		    READ_ONCE(in[r].hi) - READ_ONCE(in[r].lo))
			return true;
	return false;
}

/*
 * Context: process; handlers may be claiming ids.  Each frame of @f's ids
 * in one of @nr ranges @in becomes @mark (code that is gone: no stack to
 * come can hold its addresses, so no lookup can match the old ones).
 */
void kprof_frames_mark(struct kprof_frames *f, const struct kprof_text *in,
		       unsigned int nr, unsigned long mark);

/*
 * Context: a tracepoint's callback.  kprof_stack_id() of the stack here
 * (no @fn), but only when one of its frames (up to @f->depth) is in one of @nr ranges
 * @in: 0 when none is (nothing claimed) or this walk nests in another,
 * U32_MAX when one is but the table is full.
 */
u32 kprof_stack_id_in(struct kprof_frames *f, const struct kprof_text *in,
		      unsigned int nr);

/*
 * Context: any probe context, NMI included (a sample's overflow handler).
 * The id in @f (depth at most KPROF_SAMPLE_DEPTH) of the stack @regs
 * interrupted: its PC first, then up; a sample in user mode has the
 * frames KPROF_FRAME_USER, its tgid and its comm.  0 when the table is
 * full, or when this walk nests in another at the same context level.
 */
u32 kprof_stack_id_regs(struct kprof_frames *f, struct pt_regs *regs);

/*
 * Context: any but probe context; handlers may be claiming ids.  Ids
 * 1..nr's pcs (0s for an id not claimed yet) into dst[nr * depth].
 */
void kprof_frames_read(struct kprof_frames *f, u64 *dst);

#endif /* KPROF_FRAMES_H */
