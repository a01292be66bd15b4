// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kprofctl: every ioctl's decoding (size-first structs, flags,
 * privileges) and the read-only statistics mapping (area.c).  The
 * commands themselves are the core's.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sizes.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/capability.h>
#include <linux/uaccess.h>
#include <linux/overflow.h>
#include <linux/vmalloc.h>
#include <linux/atomic.h>
#include <linux/timekeeping.h>

#include "dev.h"
#include "core.h"
#include "area.h"
#include "boot.h"
#include "events.h"
#include "tracepoints.h"

/*
 * Reads the leading __u32 size and the struct behind it.  Bytes beyond
 * what this module knows must be zero (-E2BIG otherwise); the page bound
 * keeps that zero check short.
 */
static int kprof_copy_in(void *karg, size_t ksize, size_t minsize,
			 void __user *uarg, u32 *usize)
{
	int ret;

	if (get_user(*usize, (u32 __user *)uarg))
		return -EFAULT;
	if (*usize < minsize)
		return -EINVAL;
	if (*usize > PAGE_SIZE)
		return -E2BIG;
	ret = copy_struct_from_user(karg, ksize, uarg, *usize);
	if (ret)
		return ret;
	*(u32 *)karg = min_t(size_t, ksize, *usize);
	return 0;
}

static int kprof_copy_out(void __user *uarg, const void *karg, u32 usize,
			  size_t ksize)
{
	return copy_to_user(uarg, karg, min_t(size_t, ksize, usize)) ?
	       -EFAULT : 0;
}

static int kprof_ioc_version(void __user *uarg)
{
	struct kprof_version v;
	u32 usize;
	int ret;

	/* size, major and minor are enough for any tool to check the ABI */
	ret = kprof_copy_in(&v, sizeof(v),
			    offsetofend(struct kprof_version, abi_minor),
			    uarg, &usize);
	if (ret)
		return ret;
	/* an output-only struct: what the caller left in it is ignored */
	v.abi_major = KPROF_ABI_MAJOR;
	v.abi_minor = KPROF_ABI_MINOR;
	v.nr_cpus = nr_cpu_ids;
	v.caps = kprof_caps();
	v.max_probes = kprof_max_probes();
	v.spec_len = KPROF_SPEC_LEN;
	v.max_maxactive = KPROF_MAX_MAXACTIVE;
	v.hist_sub_bits = KPROF_HIST_SUB_BITS;
	v.hist_max_exp = KPROF_HIST_MAX_EXP;
	v.hist_nr_buckets = KPROF_HIST_NR_BUCKETS;
	v.mmap_size = kprof_area_size();
	v.max_pairs = kprof_max_pairs();
	v.pair_keys = kprof_pair_keys();
	v.max_pmus = kprof_max_pmus();
	v.max_sets = kprof_max_sets();
	v.max_set_funcs = kprof_max_set_funcs();
	v.pmu_max_events = KPROF_PMU_MAX_EVENTS;
	v.event_ring = kprof_event_ring();
	return kprof_copy_out(uarg, &v, usize, sizeof(v));
}

static int kprof_ioc_add(struct file *file, void __user *uarg)
{
	struct kprof_probe_add a;
	u32 usize;
	int ret;

	/* ABI 1.2 callers know no PMU fields */
	ret = kprof_copy_in(&a, sizeof(a), KPROF_PROBE_ADD_SIZE_VER0, uarg,
			    &usize);
	if (ret)
		return ret;
	if (a.id)
		return -EINVAL;
	/* the open file description: what a forked child shares */
	ret = kprof_probe_add_owned(&a, (a.flags & KPROF_ADD_OWNED) ? file :
				    NULL);
	if (ret) {
		/* say which PMU event failed where, if the caller can see it */
		if (a.err_event && usize >= offsetofend(struct kprof_probe_add,
							err_cpu))
			kprof_copy_out(uarg, &a, usize, sizeof(a));
		return ret;
	}
	ret = kprof_copy_out(uarg, &a, usize, sizeof(a));
	if (ret)	/* the caller cannot learn the id: undo */
		kprof_probe_del(a.id);
	return ret;
}

/*
 * A refresh of the PMU window totals reads every counter on its CPU (an
 * IPI each) under kprof.lock: without CAP_PERFMON a caller gets one per
 * KPROF_PMU_READ_NS across all such callers, and success without a
 * refresh in between.
 */
#define KPROF_PMU_READ_NS	(100 * NSEC_PER_MSEC)

static bool kprof_pmu_read_due(void)
{
	static atomic64_t last = ATOMIC64_INIT(0);
	s64 now = ktime_get_ns(), then = atomic64_read(&last);

	if (then && now - then < KPROF_PMU_READ_NS)
		return false;
	return atomic64_cmpxchg(&last, then, now) == then;
}

static int kprof_ioc_id(unsigned int cmd, void __user *uarg)
{
	struct kprof_probe_id a;
	u32 usize;
	int ret;

	ret = kprof_copy_in(&a, sizeof(a), sizeof(a), uarg, &usize);
	if (ret)
		return ret;
	if (a.flags || a.reserved0)
		return -EINVAL;
	switch (cmd) {
	case KPROF_IOC_DEL_PROBE:
		return kprof_probe_del(a.id);
	case KPROF_IOC_START:
		return kprof_probe_start(a.id);
	case KPROF_IOC_STOP:
		return kprof_probe_stop(a.id);
	case KPROF_IOC_PMU_READ:
		/* no refresh, but the same answer for a probe that is not */
		if (!perfmon_capable() && !kprof_pmu_read_due())
			return kprof_probe_exists(a.id);
		return kprof_probe_pmu_read(a.id);
	default:
		return kprof_probe_reset(a.id);
	}
}

static int kprof_ioc_info(void __user *uarg)
{
	struct kprof_probe_query q;
	u32 usize;
	int ret;

	ret = kprof_copy_in(&q, sizeof(q),
			    offsetof(struct kprof_probe_query, info),
			    uarg, &usize);
	if (ret)
		return ret;
	if (q.flags || q.reserved0 || !q.id ||
	    memchr_inv(&q.info, 0, sizeof(q.info)))
		return -EINVAL;
	ret = kprof_probe_info(q.id, &q.info);
	if (ret)
		return ret;
	return kprof_copy_out(uarg, &q, usize, sizeof(q));
}

/*
 * A caller's array of @count records, each @rec_size bytes: at least the
 * fields up to @min, at most a page, a whole number of @align units.
 */
static int kprof_check_recs(u32 rec_size, size_t min, size_t align,
			    u32 count, u64 ptr)
{
	if (rec_size < min || rec_size > PAGE_SIZE || rec_size % align)
		return -EINVAL;
	return count && !ptr ? -EFAULT : 0;
}

static int kprof_ioc_list(void __user *uarg)
{
	struct kprof_probe_list l;
	u32 usize;
	int ret;

	ret = kprof_copy_in(&l, sizeof(l), sizeof(l), uarg, &usize);
	if (ret)
		return ret;
	if (l.flags)
		return -EINVAL;
	ret = kprof_check_recs(l.rec_size,
			       offsetofend(struct kprof_probe_info, id),
			       sizeof(__u64), l.count, l.ptr);
	if (ret)
		return ret;
	ret = kprof_probe_list(u64_to_user_ptr(l.ptr), l.rec_size, &l.count);
	if (ret)
		return ret;
	return kprof_copy_out(uarg, &l, usize, sizeof(l));
}

/* Up to 4 MiB of names per call: CAP_PERFMON only (kprof_ioctl()). */
static int kprof_tp_list(struct kprof_tp_list *arg)
{
	size_t needed, len = min_t(u64, arg->len, SZ_4M);
	char *buf = NULL;
	int ret;

	if (arg->flags || arg->reserved0)
		return -EINVAL;
	if (len) {
		buf = kvmalloc(len, GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	ret = kprof_tp_names(buf, len, &arg->count, &needed);
	arg->needed = needed;
	if (!ret && needed > len)
		ret = -ENOSPC;
	if (!ret && copy_to_user(u64_to_user_ptr(arg->ptr), buf, needed))
		ret = -EFAULT;
	kvfree(buf);
	return ret;
}

static int kprof_ioc_tracepoints(void __user *uarg)
{
	struct kprof_tp_list t;
	u32 usize;
	int ret, err;

	ret = kprof_copy_in(&t, sizeof(t), sizeof(t), uarg, &usize);
	if (ret)
		return ret;
	if (t.count || t.needed)
		return -EINVAL;
	ret = kprof_tp_list(&t);
	if (ret && ret != -ENOSPC)
		return ret;
	/* -ENOSPC still tells the caller how much room to make */
	err = kprof_copy_out(uarg, &t, usize, sizeof(t));
	return err ? err : ret;
}

static int kprof_ioc_boot_report(void __user *uarg)
{
	struct kprof_boot_report b;
	u32 usize;
	int ret;

	ret = kprof_copy_in(&b, sizeof(b), sizeof(b), uarg, &usize);
	if (ret)
		return ret;
	if (b.flags || b.lost || b.reserved0 ||
	    memchr_inv(b.reserved, 0, sizeof(b.reserved)))
		return -EINVAL;
	ret = kprof_check_recs(b.rec_size,
			       offsetofend(struct kprof_boot_rec, error),
			       sizeof(__u32), b.count, b.ptr);
	if (ret)
		return ret;
	ret = kprof_boot_report(u64_to_user_ptr(b.ptr), b.rec_size, &b.count,
				&b.lost);
	if (ret)
		return ret;
	return kprof_copy_out(uarg, &b, usize, sizeof(b));
}

/*
 * May the caller read kernel addresses?  What /proc/kallsyms' values ask:
 * CAP_SYSLOG, and kptr_restrict below 2.  kptr_restrict is not exported;
 * %pK prints zeros when it forbids the caller addresses.
 */
static bool kprof_may_read_addrs(void)
{
	char b[32];

	if (!capable(CAP_SYSLOG))
		return false;
	snprintf(b, sizeof(b), "%pK", b);
	return strspn(b, "0") != strlen(b);
}

/* KEY_FRAMES with KPROF_KEY_FRAMES_SYMS: the caller ids' names */
static int kprof_ioc_key_syms(void __user *uarg, struct kprof_key_frames *k,
			      u32 usize)
{
	char *buf;
	u32 nr;
	int ret;

	ret = kprof_probe_key_syms(k->id, &buf, &nr);
	if (ret)
		return ret;
	if (copy_to_user(u64_to_user_ptr(k->ptr), buf,
			 (size_t)min(k->count, nr) * KPROF_SYM_LEN))
		ret = -EFAULT;
	kvfree(buf);
	if (ret)
		return ret;
	k->count = nr;
	k->depth = KPROF_SYM_LEN;
	return kprof_copy_out(uarg, k, usize, sizeof(*k));
}

/* Kernel addresses: for those who may read them, whatever the descriptor. */
static int kprof_ioc_key_frames(void __user *uarg)
{
	struct kprof_key_frames k;
	u32 usize, nr, depth;
	u64 *buf;
	int ret;

	ret = kprof_copy_in(&k, sizeof(k), sizeof(k), uarg, &usize);
	if (ret)
		return ret;
	if ((k.flags & ~(KPROF_KEY_FRAMES_STACK | KPROF_KEY_FRAMES_SYMS)) ||
	    k.flags == (KPROF_KEY_FRAMES_STACK | KPROF_KEY_FRAMES_SYMS) ||
	    k.depth || k.reserved || !k.id || (k.count && !k.ptr))
		return -EINVAL;
	if (!kprof_may_read_addrs())
		return -EPERM;
	if (k.flags & KPROF_KEY_FRAMES_SYMS)
		return kprof_ioc_key_syms(uarg, &k, usize);
	ret = kprof_probe_key_frames(k.id, k.flags & KPROF_KEY_FRAMES_STACK,
				     &buf, &nr, &depth);
	if (ret)
		return ret;
	/* not under the core's lock: a slow buffer holds up nothing */
	if (copy_to_user(u64_to_user_ptr(k.ptr), buf,
			 (size_t)min(k.count, nr) * depth * sizeof(*buf)))
		ret = -EFAULT;
	kvfree(buf);
	if (ret)
		return ret;
	k.count = nr;
	k.depth = depth;
	return kprof_copy_out(uarg, &k, usize, sizeof(k));
}

static bool kprof_may_control(void)
{
	return perfmon_capable();
}

/*
 * Reading commands work on any descriptor; TRACEPOINTS (a buffer of up
 * to 4 MiB per call) needs CAP_PERFMON.  Commands that change state need
 * CAP_PERFMON (-EPERM) and a descriptor opened for writing (-EBADF), so a
 * read-only descriptor passed to a reader cannot control probes.
 */
static long kprof_ioctl(struct file *file, unsigned int cmd,
			unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case KPROF_IOC_GET_VERSION:
		return kprof_ioc_version(uarg);
	case KPROF_IOC_INFO:
		return kprof_ioc_info(uarg);
	case KPROF_IOC_LIST:
		return kprof_ioc_list(uarg);
	case KPROF_IOC_TRACEPOINTS:
		if (!kprof_may_control())
			return -EPERM;
		return kprof_ioc_tracepoints(uarg);
	case KPROF_IOC_PMU_READ:
		return kprof_ioc_id(cmd, uarg);
	case KPROF_IOC_BOOT_REPORT:
		return kprof_ioc_boot_report(uarg);
	case KPROF_IOC_KEY_FRAMES:
		return kprof_ioc_key_frames(uarg);
	case KPROF_IOC_ADD_PROBE:
	case KPROF_IOC_DEL_PROBE:
	case KPROF_IOC_START:
	case KPROF_IOC_STOP:
	case KPROF_IOC_RESET:
		break;
	default:
		return -ENOTTY;
	}
	if (!kprof_may_control())
		return -EPERM;
	if (!(file->f_mode & FMODE_WRITE))
		return -EBADF;
	if (cmd == KPROF_IOC_ADD_PROBE)
		return kprof_ioc_add(file, uarg);
	return kprof_ioc_id(cmd, uarg);
}

static int kprof_open(struct inode *inode, struct file *file)
{
	/* every file shares the mapping's pages (area.c) */
	kprof_area_open(file);
	return nonseekable_open(inode, file);
}

/* The last reference is gone (close, exit, kill): its probes go too. */
static int kprof_release(struct inode *inode, struct file *file)
{
	kprof_probe_del_owned(file);
	return 0;
}

static const struct file_operations kprof_fops = {
	.owner		= THIS_MODULE,
	.open		= kprof_open,
	.release	= kprof_release,
	.unlocked_ioctl	= kprof_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.mmap		= kprof_area_mmap,
};

static struct miscdevice kprof_misc = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= "kprofctl",
	.fops	= &kprof_fops,
	.mode	= 0600,
};

int kprof_dev_init(void)
{
	return misc_register(&kprof_misc);
}

void kprof_dev_exit(void)
{
	misc_deregister(&kprof_misc);
}
