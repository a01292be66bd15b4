// SPDX-License-Identifier: GPL-2.0
/*
 * Slow calls that act on ftrace, for a developer who traces the same
 * driver (function_graph, its events, trace_printk) and wants the trace of
 * the one call that was slow:
 *
 * - SNAPSHOT swaps the top instance's live buffer with its snapshot
 *   buffer at the return that crossed the threshold, so the live trace of
 *   that call is what /sys/kernel/tracing/snapshot holds, and the live
 *   buffer goes on.  The buffer is allocated, and claimed as a conditional
 *   snapshot, when the probe is added: the kernel then refuses a latency
 *   tracer and a hist trigger's snapshot() meanwhile, and refuses us
 *   (-EBUSY) if one of them holds it already.  The claim's update
 *   callback, under ftrace's max_lock, counts the freezes, so exactly
 *   ->max happen; any other snapshot request (a "snapshot" trigger, which
 *   passes no data) is refused rather than let overwrite ours.
 * - TRACE_OFF stops the top instance's recording instead: no second
 *   buffer, for a ring too big to double.
 * - MARK writes one print line per slow call into an instance's ring,
 *   where trace-cmd, KernelShark and Perfetto show it beside the driver's
 *   own events.  Written before a freeze, so the snapshot holds it too.
 *
 * Probe context neither sleeps nor allocates; the line is formatted on the
 * stack.  ftrace ignores a snapshot in NMI context (arm64's pseudo-NMI
 * sampler), writing a complaint into the trace: kprofctl refuses it there
 * first and says so in the event (KPROF_GENL_FT_NMI); marks and
 * tracing_off() are NMI-safe and happen.
 */
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/hardirq.h>

#include "snap.h"
#include "snap-api.h"

struct kprof_snap {
	u32 acts;			/* KPROF_FT_* */
	atomic_t left;			/* freezes (or stops) still to do */
	struct trace_event_file *snap_file;	/* SNAPSHOT: the top one */
	struct trace_event_file *mark_file;	/* MARK: its instance */
	struct trace_array *snap_tr, *mark_tr;
};

/* live kprof_snap structs: ftrace references and claims held */
static atomic_t kprof_snaps;

/* One freeze attempt, as the update callback sees it. */
struct kprof_snap_call {
	struct kprof_snap *s;
	bool froze, spent;
};

#ifdef KPROF_HAVE_FTRACE_ACTS

/*
 * Context: under the trace array's max_lock, IRQs off, from
 * kprof_ft_snapshot() (data: ours) or another snapshot request (NULL).
 * True: swap now.
 */
static notrace bool kprof_snap_update(struct trace_array *tr, void *data)
{
	struct kprof_snap_call *c = data;

	if (!c)
		return false;
	if (atomic_dec_if_positive(&c->s->left) < 0) {
		c->spent = true;
		return false;
	}
	c->froze = true;
	return true;
}
NOKPROBE_SYMBOL(kprof_snap_update);

static notrace u32 kprof_snap_freeze(struct kprof_snap *s)
{
	struct kprof_snap_call c = { .s = s };

	if (in_nmi())
		return KPROF_GENL_FT_NMI;
	if (atomic_read(&s->left) <= 0)
		return KPROF_GENL_FT_SPENT;
	kprof_ft_snapshot(s->snap_tr, &c);
	if (c.froze)
		return KPROF_GENL_FT_FROZE;
	/* not called: ftrace is stopped (a reader of "trace" paused it) */
	return c.spent ? KPROF_GENL_FT_SPENT : KPROF_GENL_FT_NOT_TAKEN;
}
NOKPROBE_SYMBOL(kprof_snap_freeze);

static notrace u32 kprof_snap_mark(struct kprof_snap *s,
				   struct kprof_probe *p, u64 latency,
				   struct task_struct *t)
{
	/* the spec, the numbers and the comm: room for the longest */
	char line[KPROF_SPEC_LEN + 96];
	int n;

	/* the comm last: it may hold spaces */
	n = snprintf(line, sizeof(line),
		     "kprofctl: slow probe=%u %s latency_ns=%llu pid=%d comm=%.*s\n",
		     READ_ONCE(p->id), p->spec, latency, t->pid,
		     TASK_COMM_LEN, t->comm);
	n = min_t(int, n, sizeof(line) - 1);
	return kprof_ft_puts(s->mark_tr, line, n) > 0 ? KPROF_GENL_FT_MARKED : 0;
}
NOKPROBE_SYMBOL(kprof_snap_mark);

notrace u32 kprof_snap_slow(struct kprof_probe *p, u64 latency,
			    struct task_struct *t)
{
	struct kprof_snap *s = p->snap;
	u32 did = 0;

	if (likely(!s))
		return 0;
	if (s->acts & KPROF_FT_MARK)
		did |= kprof_snap_mark(s, p, latency, t);
	if (s->acts & KPROF_FT_SNAPSHOT) {
		did |= kprof_snap_freeze(s);
	} else if (s->acts & KPROF_FT_TRACE_OFF) {
		if (atomic_dec_if_positive(&s->left) < 0) {
			did |= KPROF_GENL_FT_SPENT;
		} else {
			kprof_ft_off();
			did |= KPROF_GENL_FT_STOPPED;
		}
	}
	return did;
}
NOKPROBE_SYMBOL(kprof_snap_slow);

static void kprof_snap_free(struct kprof_snap *s)
{
	if (s->snap_tr)
		kprof_ft_snap_release(s->snap_tr);
	if (s->snap_file)
		kprof_ft_file_put(s->snap_file);
	if (s->mark_file)
		kprof_ft_file_put(s->mark_file);
	kfree(s);
}

/* SNAPSHOT: the top instance's buffer, allocated and claimed */
static int kprof_snap_claim(struct kprof_snap *s)
{
	struct trace_event_file *f = kprof_ft_file_get(NULL);
	int ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	s->snap_file = f;
	ret = kprof_ft_snap_claim(f->tr, s, kprof_snap_update);
	if (!ret)
		s->snap_tr = f->tr;
	return ret;
}

static int kprof_snap_setup(struct kprof_snap *s,
			    const struct kprof_ftrace_act *f)
{
	struct trace_event_file *file;

	if (f->flags & KPROF_FT_MARK) {
		file = kprof_ft_file_get(f->instance[0] ? f->instance : NULL);
		if (IS_ERR(file))
			return PTR_ERR(file);
		s->mark_file = file;
		s->mark_tr = file->tr;
	}
	if (f->flags & KPROF_FT_SNAPSHOT)
		return kprof_snap_claim(s);
	return 0;
}
#else
u32 kprof_snap_slow(struct kprof_probe *p, u64 latency,
		    struct task_struct *t)
{
	return 0;
}

static void kprof_snap_free(struct kprof_snap *s)
{
	kfree(s);
}

static int kprof_snap_setup(struct kprof_snap *s,
			    const struct kprof_ftrace_act *f)
{
	return -EOPNOTSUPP;
}
#endif

/* What ADD asks of ftrace, as uapi's struct kprof_ftrace_act allows it */
static int kprof_snap_check(const struct kprof_probe_add *a)
{
	const struct kprof_ftrace_act *f = &a->ftrace;
	u32 acts = f->flags;

	if (!(a->flags & KPROF_ADD_FTRACE))
		return memchr_inv(f, 0, sizeof(*f)) ? -EINVAL : 0;
	if (!acts || (acts & ~KPROF_FT_FLAGS) || !a->slow_ns)
		return -EINVAL;
	if ((acts & KPROF_FT_SNAPSHOT) && (acts & KPROF_FT_TRACE_OFF))
		return -EINVAL;
	if (f->max && !(acts & (KPROF_FT_SNAPSHOT | KPROF_FT_TRACE_OFF)))
		return -EINVAL;
	if (!memchr(f->instance, '\0', sizeof(f->instance)) ||
	    (f->instance[0] && !(acts & KPROF_FT_MARK)))
		return -EINVAL;
	return 0;
}

int kprof_snap_get(struct kprof_probe *p, const struct kprof_probe_add *a)
{
	struct kprof_snap *s;
	int ret;

	ret = kprof_snap_check(a);
	if (ret || !(a->flags & KPROF_ADD_FTRACE))
		return ret;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return -ENOMEM;
	s->acts = a->ftrace.flags;
	/* an atomic_t: a count past INT_MAX would start out spent */
	atomic_set(&s->left, min_t(u32, a->ftrace.max ?: 1, INT_MAX));
	ret = kprof_snap_setup(s, &a->ftrace);
	if (ret) {
		kprof_snap_free(s);
		return ret;
	}
	p->snap = s;
	atomic_inc(&kprof_snaps);
	return 0;
}

void kprof_snap_put(struct kprof_probe *p)
{
	if (!p->snap)
		return;
	kprof_snap_free(p->snap);
	p->snap = NULL;
	atomic_dec(&kprof_snaps);
}

/* Every claim belongs to a probe: none may outlive the probes. */
int kprof_snap_init(void)
{
	atomic_set(&kprof_snaps, 0);
	return 0;
}

void kprof_snap_exit(void)
{
	WARN_ON_ONCE(atomic_read(&kprof_snaps));
}
