// SPDX-License-Identifier: GPL-2.0
/*
 * Caller and stack key ids into "func+0x1c": from the device (its
 * addresses, /proc/kallsyms, named as frames.h says) or from a capture
 * (the names it saved).  show prints them, save writes them into a
 * capture.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "capture.h"
#include "dev.h"
#include "key-frames.h"
#include "syms.h"

/*
 * Caller ids to names: the addresses from KPROF_IOC_KEY_FRAMES (CAP_SYSLOG
 * only) and the symbols of /proc/kallsyms, once per show.
 */
struct frames {
	uint32_t probe;		/* whose addresses pcs holds, 0: none */
	uint64_t *pcs;
	char *names;		/* a mem probe's: the kernel's names */
	uint32_t nr, depth;
	int err;		/* the ioctl's errno, 0: fetched */
};

struct kp_frames {
	struct kp_dev *d;
	struct kp_syms syms;
	int syms_loaded;
	struct frames t[2];	/* caller ids, stack ids */
	char buf[128];
};

static void frames_fetch(struct kp_dev *d, struct frames *t, uint32_t probe,
			 uint32_t flags)
{
	free(t->pcs);
	free(t->names);
	memset(t, 0, sizeof(*t));
	t->probe = probe;
	if (d->cap) {	/* the names are in the file, if the saver saw them */
		const struct kp_cap_probe *p = kp_cap_probe(d->cap, probe);

		t->err = p ? p->frames_err : ENODATA;
		return;
	}
	t->err = kp_key_frames(d, probe, flags, &t->pcs, &t->nr, &t->depth);
}

/* "func+0x1c" of frame i of id in table which (0 callers, 1 stacks) */
static const char *frame_name(struct kp_frames *c, unsigned int which,
			      const struct kprof_probe_info *r, uint64_t id,
			      unsigned int i)
{
	struct frames *t = &c->t[which];

	if (c->d->cap)
		return which ? kp_cap_frame(c->d->cap, r->id, id, i) :
			       kp_cap_caller(c->d->cap, r->id, id);
	/*
	 * A mem probe's sites may be in a module gone since: the kernel
	 * named them while it was there.
	 */
	if (!which && r->type == KPROF_TYPE_MEM) {
		if (t->probe != r->id) {
			frames_fetch(c->d, t, r->id, 0);
			free(t->pcs);
			t->pcs = NULL;
			t->err = kp_key_syms(c->d, r->id, &t->names, &t->nr);
		}
		if (!t->names || !id || id > t->nr ||
		    !t->names[(id - 1) * KPROF_SYM_LEN])
			return NULL;
		snprintf(c->buf, sizeof(c->buf), "%.*s",
			 (int)sizeof(c->buf) - 1,
			 &t->names[(id - 1) * KPROF_SYM_LEN]);
		return c->buf;
	}
	if (t->probe != r->id)
		frames_fetch(c->d, t, r->id, which ? KPROF_KEY_FRAMES_STACK : 0);
	if (!t->pcs || !id || id > t->nr || i >= t->depth)
		return NULL;
	if (!c->syms_loaded) {
		kp_syms_load(&c->syms, "/proc/kallsyms");
		c->syms_loaded = 1;
	}
	/* a caller: a stack of one frame */
	return kp_frame_name(&c->syms, which ? r : NULL,
			     &t->pcs[(id - 1) * t->depth],
			     which ? t->depth : 1, which ? i : 0, 0, c->buf,
			     sizeof(c->buf));
}

const char *kp_frames_caller(void *ctx, const struct kprof_probe_info *r,
			     uint64_t id, unsigned int i)
{
	return i ? NULL : frame_name(ctx, 0, r, id, 0);
}

const char *kp_frames_stack(void *ctx, const struct kprof_probe_info *r,
			    uint64_t id, unsigned int i)
{
	return frame_name(ctx, 1, r, id, i);
}

void *kp_frames_new(struct kp_dev *d)
{
	struct kp_frames *c = calloc(1, sizeof(*c));

	if (c)
		c->d = d;
	return c;
}

int kp_frames_err(void *ctx)
{
	struct kp_frames *c = ctx;

	return c->t[0].probe ? c->t[0].err : c->t[1].probe ? c->t[1].err : 0;
}

static void callers_free(struct kp_frames *c)
{
	free(c->t[0].pcs);
	free(c->t[1].pcs);
	free(c->t[0].names);
	free(c->t[1].names);
	if (c->syms_loaded)
		kp_syms_free(&c->syms);
}

void kp_frames_free(void *ctx)
{
	if (!ctx)
		return;
	callers_free(ctx);
	free(ctx);
}

/* --folded's check: the errno that hides probe's stack frames, 0 if none */
int kp_frames_stack_err(struct kp_dev *d, uint32_t probe)
{
	struct frames t = { 0 };

	frames_fetch(d, &t, probe, KPROF_KEY_FRAMES_STACK);
	free(t.pcs);
	return t.err;
}
