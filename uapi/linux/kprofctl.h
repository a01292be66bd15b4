/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kprofctl: kernel latency/count profiler, userspace ABI.
 *
 * Control is through ioctl() on /dev/kprofctl; statistics are read through a
 * read-only mmap() of the same file, with no syscall per snapshot.
 *
 * Every ioctl argument is a struct whose first member is "__u32 size", set
 * by the caller to sizeof() the struct as it knows it.  The kernel accepts
 * smaller (older) and larger (newer) structs as long as any bytes it does not
 * know are zero (copy_struct_from_user semantics), and writes back at most
 * "size" bytes.  Command numbers encode only that leading __u32, so they
 * never change when a struct grows.  Reserved fields must be zero and unknown
 * flags are rejected with -EINVAL; unknown commands get -ENOTTY.
 *
 * KPROF_<STRUCT>_SIZE_VER<n>, next to each struct, is its size as ABI
 * minors published it (as PERF_ATTR_SIZE_VER<n>): VER0 first, one more
 * each time it grew; the newest equals sizeof().  The kernel accepts each
 * of them.  Records whose size travels in another field have them too:
 * kprof_probe_info (->rec_size, the mmap header's probe_rec_size),
 * kprof_boot_rec (->rec_size), kprof_mmap_header (header_size).
 *
 * GET_VERSION, INFO, LIST, PMU_READ, BOOT_REPORT and mmap need no
 * capability beyond access to the device node.  Every other command needs
 * CAP_PERFMON or CAP_SYS_ADMIN and fails with -EPERM otherwise.  ADD,
 * DEL, START, STOP and RESET also need a descriptor opened for writing
 * (O_RDWR or O_WRONLY) and fail with -EBADF on a read-only one (after the
 * capability check).
 *
 * Each command is documented at its KPROF_IOC_* definition, the mapping
 * and its reader protocol at struct kprof_mmap_header.
 */
#ifndef _UAPI_LINUX_KPROFCTL_H
#define _UAPI_LINUX_KPROFCTL_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define KPROF_ABI_MAJOR		1
/*
 * minor 1: tracepoint counts, 2: pairs, 3: PMU, 4: slow calls, netlink,
 * 5: boot report, 6: owned probes, KPROF_CAP_EVENTS_RESTRICTED,
 * 7: KPROF_ADD_SESSION, 8: function sets, 9: keys and filters on
 * kprobes, kretprobes and tracepoints (kprof_probe_add.key, .filter; see
 * KPROF_KEYSPEC), 10: sampling probes (KPROF_TYPE_SAMPLE), 11: fast latency
 * probes (KPROF_ADD_FAST, KPROF_ADD_KRETPROBE), 12: a fast latency set's
 * kretprobes for what ftrace cannot follow (KPROF_FUNC_KRETPROBE),
 * 13: the function kinds without the kprobe core (KPROF_CAP_KPROBE_CORE,
 * KPROF_CAP_FTRACE), 14: slow calls act on ftrace (KPROF_ADD_FTRACE),
 * 15: a module's memory (KPROF_TYPE_MEM, kprof_probe_add.objects),
 * 16: its vmalloc and DMA rows (KPROF_MEM_VMALLOC, KPROF_MEM_DMA_*),
 * its leaks as netlink events (KPROF_GENL_CMD_LEAK), 17: its pages
 * (KPROF_MEM_PAGES) and peaks (KPROF_MEM_PEAK, _PEAK_ALL), 18: its sites
 * by stack (key[0] KPROF_KEY_STACK in ADD)
 */
#define KPROF_ABI_MINOR		18

#define KPROF_DEVICE		"/dev/kprofctl"
#define KPROF_MMAP_MAGIC	0x6b70726f66637431ULL	/* "kprofct1" */

#define KPROF_SPEC_LEN		256	/* including the NUL */
#define KPROF_CPUMASK_WORDS	4	/* CPUs 0..255 can be selected */
#define KPROF_MAX_MAXACTIVE	4096

/*
 * Histogram: log-linear, shifts only.  Values below 2^SUB_BITS have one
 * bucket each; above, each power of two [2^e, 2^(e+1)) is split into
 * 2^SUB_BITS equal buckets, so a bucket is at most 1/16 of its lower bound
 * wide and the bucket midpoint is within 1/32 (3.125%) of any value in it.
 * Values >= 2^MAX_EXP ns (~73 min) land in the last, overflow bucket.
 */
#define KPROF_HIST_SUB_BITS	4
#define KPROF_HIST_MAX_EXP	42
#define KPROF_HIST_NR_LINEAR	((KPROF_HIST_MAX_EXP - KPROF_HIST_SUB_BITS + 1) \
				 << KPROF_HIST_SUB_BITS)
#define KPROF_HIST_OVERFLOW	KPROF_HIST_NR_LINEAR	/* bucket index */
#define KPROF_HIST_NR_BUCKETS	(KPROF_HIST_NR_LINEAR + 1)

/* kprof_version.caps */
#define KPROF_CAP_KPROBE	(1ULL << 0)
#define KPROF_CAP_KRETPROBE	(1ULL << 1)
#define KPROF_CAP_TRACEPOINT	(1ULL << 2)
#define KPROF_CAP_PMU		(1ULL << 3)
#define KPROF_CAP_PAIR		(1ULL << 4)
/*
 * Since ABI 1.6: joining the netlink events group needs CAP_SYS_ADMIN.
 * Without it any user may join, so KPROF_ADD_STACK (kernel addresses) is
 * refused.
 */
#define KPROF_CAP_EVENTS_RESTRICTED	(1ULL << 5)
/*
 * Since ABI 1.13, how the function kinds (kprobe:, kretprobe: and their
 * sets; KPROF_CAP_KPROBE and KPROF_CAP_KRETPROBE say they exist) can
 * reach a function.  KPROBE_CORE: the kernel's kprobes (an offset, a
 * function ftrace cannot hook, KPROF_ADD_KRETPROBE).  FTRACE: ftrace's
 * call sites, and the fast return path (KPROF_ADD_FAST).  Without the
 * core (a vendor kernel built without CONFIG_KPROBES) every function kind
 * goes through ftrace: an offset is -EOPNOTSUPP, a function without a
 * call site -EADDRNOTAVAIL.
 */
#define KPROF_CAP_KPROBE_CORE		(1ULL << 6)
#define KPROF_CAP_FTRACE		(1ULL << 7)

/* kprof_probe_info.type */
#define KPROF_TYPE_KPROBE	1	/* counts hits */
#define KPROF_TYPE_KRETPROBE	2	/* entry-to-return latency, ns */
#define KPROF_TYPE_TRACEPOINT	3	/* counts hits */
#define KPROF_TYPE_PAIR		4	/* keyed event-to-event latency, ns */
#define KPROF_TYPE_PMU		5	/* PMU counters per CPU, window totals */
/* since ABI 1.8: one probe over every function a glob matches */
#define KPROF_TYPE_KPROBE_SET	6	/* hits per function */
#define KPROF_TYPE_KRETPROBE_SET 7	/* latency per function, ns */
/* since ABI 1.10 */
#define KPROF_TYPE_SAMPLE	8	/* samples of a PMU event or CPU clock */
#define KPROF_TYPE_OFFCPU	9	/* blocked time per kernel stack, ns */
/* since ABI 1.15 */
#define KPROF_TYPE_MEM		10	/* a module's allocations per site */

/*
 * A module's memory, "mem:MOD": the slab allocations made from MOD's text
 * (the kmem tracepoints' call site in its core or init text; kmalloc,
 * kzalloc, krealloc and kmem_cache_alloc from MOD's own code), since
 * ABI 1.16 its vmalloc()s and DMA buffers and mappings (ftrace hooks on
 * the vmalloc family and the DMA API, the caller in MOD's text), and their
 * frees, wherever they happen.  Pending until MOD loads, so its init is
 * seen; it follows MOD out and back.  Each allocation lives in a
 * preallocated table of kprof_probe_add.objects entries (a power of two,
 * 0: 65536) until it is freed, or until MOD goes: what is still there is
 * then MOD's leak.
 *
 * A keyed probe whose key[0] is CALLER (the site: an opaque id whose
 * address KPROF_IOC_KEY_FRAMES gives to CAP_SYSLOG) and key[1] KPROF_KEY_MEM
 * (the row, below), so each site has up to three rows.  Since ABI 1.18
 * ADD's key[0] may be KPROF_KEY_STACK (no key[1]): the sites are stacks
 * (up to KPROF_STACK_DEPTH frames, from the allocator's) and a slab
 * allocation is MOD's when any of its frames is in MOD's text (kvmalloc()
 * and kasprintf() from MOD, and the bookkeeping of vmalloc() from MOD; a
 * walk per allocation of the kernel's); vmalloc, DMA and pages still by
 * their direct caller.
 *
 *   KPROF_MEM_KMALLOC, _CACHE  allocations: histogram, min and max of
 *   _VMALLOC, _DMA_*, _PAGES   the sizes asked for, bytes
 *   KPROF_MEM_FREE             frees of them: of their lifetimes, ns
 *   KPROF_MEM_LEAK             live when MOD went: of their ages, ns
 *   KPROF_MEM_PEAK             the site's live bytes at their highest:
 *                              max (over CPUs, the peak), count (the
 *                              times it rose)
 *
 * and key (0, KPROF_MEM_PEAK_ALL) is the same of all MOD's live bytes.
 *
 * In each row sum is the bytes asked for (kmalloc's size; a cache's
 * object size) and unmatched the bytes the allocator gave (its size
 * class, with a debug kernel's red zones; whole pages for vmalloc and a
 * coherent DMA buffer; a streaming mapping's own size): the difference is
 * the slack.  A streaming mapping is live from dma_map_*() to its unmap,
 * keyed by its DMA address (a scatterlist's by its list, its size the
 * entries' sum); its row is KPROF_MEM_DMA_BIDI + its
 * direction (enum dma_data_direction).  Pages are keyed by their struct
 * page, from the page allocator's return to their free (kmem's
 * mm_page_free: wherever the last reference goes); their size is
 * PAGE_SIZE << order, asked and given.
 * Live objects (bytes) of a site: allocations - frees - leaks.  The
 * probe's own stats: drops counts allocations that found the table full
 * (counted in their rows, never freed nor leaked), unmatched the frees of
 * objects that were live in the table under another site's address
 * reuse (a free the kmem tracepoints did not report).
 */
#define KPROF_MEM_KMALLOC	1
#define KPROF_MEM_CACHE		2
#define KPROF_MEM_FREE		3
#define KPROF_MEM_LEAK		4
/* since ABI 1.16 */
#define KPROF_MEM_VMALLOC	5	/* vmalloc(), vzalloc() and kin */
#define KPROF_MEM_DMA_COHERENT	6	/* dma_alloc_coherent(), _attrs() */
#define KPROF_MEM_DMA_BIDI	7	/* dma_map_single(), _page(), _resource(): */
#define KPROF_MEM_DMA_TO_DEVICE	8	/* by direction */
#define KPROF_MEM_DMA_FROM_DEVICE 9
/* since ABI 1.17 */
#define KPROF_MEM_PAGES		10	/* alloc_pages(), __get_free_pages() and kin */
#define KPROF_MEM_PEAK		11
#define KPROF_MEM_PEAK_ALL	12
#define KPROF_MEM_DEFAULT_OBJECTS	65536
#define KPROF_MEM_MAX_OBJECTS	(1U << 20)

/*
 * Sampling, "sample:EVENT[:hz=N|:period=N]": a perf counter per CPU (the
 * probe's --cpus) on EVENT, a PMU event name as pmu: probes take, or
 * "cpu-clock" (a timer, for kernels and guests without a PMU); each
 * overflow is one call of the probe, counted in its key's row.  Default
 * :hz=999.  With --key stack the key is the interrupted kernel stack
 * (outermost last, from the interrupted PC, up to 32 frames; for a sample
 * in user mode KPROF_FRAME_USER, then the process's tgid, then its comm in
 * two frames' bytes, NUL-padded), so show
 * --folded is a profile; --pid, --tgid, --if on task and CPU terms, and
 * pid, tgid, comm and cpu keys apply to the interrupted task.
 *
 * A profile, a stack key alone: no key rows but a count per stack id and
 * CPU, ->nr_keys ids (a power of two, default 4096; rounded up), at most
 * what a function set's slot holds.  kprof_probe_info gives it as a
 * set's rows: stack id i's count on CPU c is the __u64 at func_stats_off
 * + c * func_cpu_stride + (i - 1) * func_stride, nr_funcs ids; funcs_off
 * has no function table.  The probe's own stats count the samples in the
 * table, and as drops those whose stack found no room.
 *
 * Any sample probe's own stats also have per CPU in ->events the counter's
 * overflows while it ran (before any filter) and in ->sum the events it
 * counted up to the last of them: far fewer overflows than sum / period
 * mean a PMU that raises its interrupt late (QEMU does for inst_retired).
 *
 * Off-CPU, "offcpu:all" or "offcpu:uninterruptible" (TASK_UNINTERRUPTIBLE
 * waits only: I/O, most mutexes), added with a stack key alone: at each
 * context switch where a task blocks (not preempted, not exiting) its
 * kernel stack (from sched_switch, 16 frames) and the time are kept under
 * the task; when it runs again the time off the CPU is added to that
 * stack's record on the CPU it runs on, in a stack table as a profile's
 * but of two __u64 per stack id (func_stride 16): waits, nanoseconds.
 * --pid, --tgid, the session and --if's task terms apply to the task that
 * blocks, --cpus to where it blocked.  Its own stats count the waits in
 * the table, and as drops the waits no stack or in-flight slot took.
 */
#define KPROF_FRAME_USER	1ULL	/* a stack's frame: user mode */
/* since 1.18: a mem probe's frame in MOD's text that is gone (its init's) */
#define KPROF_FRAME_GONE	2ULL

/*
 * Function sets, "kprobe:[MOD:]GLOB" and "kretprobe:[MOD:]GLOB" where GLOB
 * has one of '*', '?' or '[' (glob_match() syntax): one probe over every
 * function of module MOD (or of the core kernel, without MOD:) whose name
 * matches, resolved in the kernel's symbol table.  A MOD: set follows MOD
 * like a deferred probe: PENDING while MOD is not loaded, resolved when it
 * comes (before its init runs, so its __init functions count until init
 * ends), GONE when it goes.  Functions that cannot be probed are listed
 * with the reason and skipped; they never fail the set.
 *
 * kprof_probe_info.mech says how the functions are hooked: hit counts go
 * through one ftrace_ops for the whole set where the kernel has dynamic
 * ftrace, else (and for latency) a kprobe or kretprobe per function.
 */
#define KPROF_MECH_KPROBES	1	/* a kprobe (kretprobe) per function */
#define KPROF_MECH_FTRACE	2	/* one ftrace_ops */
#define KPROF_MECH_TRACEPOINT	3
#define KPROF_MECH_PERF		4	/* perf counters */

/*
 * PMU events by name (the ARMv8 PMUv3 names, as in sysfs, with perf-style
 * aliases).  arm64 counts the PMUv3 common event as a raw event, which perf
 * routes to the PMU serving each CPU; x86 uses the generic perf hardware
 * events that come closest.  "0xNN" is a raw event (0 - 0xffff).
 *
 *   cpu_cycles (cycles)  inst_retired (instructions)  l1d_cache
 *   l1d_cache_refill  l2d_cache_refill  br_mis_pred (branch-misses)
 *   stall_frontend  stall_backend  mem_access  ll_cache_miss_rd
 */
#define KPROF_PMU_MAX_EVENTS	8
#define KPROF_PMU_SPEC_LEN	192	/* "EVENT,EVENT,..." with the NUL */
#define KPROF_PMU_RAW_MAX	0xffff

/*
 * Pair kinds, by spec "pair:NAME" (the numbers are not part of the ABI):
 *   irq         irq_handler_entry -> irq_handler_exit, key: IRQ number,
 *               name: the handler's action name
 *   softirq     softirq_entry -> softirq_exit, key: vector, name: TIMER...
 *   workqueue   workqueue_execute_start -> _end, key: an id per work
 *               function (addresses are not exposed), name: its symbol
 *   wakeup      sched_wakeup(_new) -> the sched_switch that runs the task,
 *               one key (0, "all"); pid filters apply to the woken task
 *   wakeup-pid  the same, key: pid of the woken task, name: its comm
 *   block       block_rq_issue -> block_rq_complete, key: device as
 *               major << 20 | minor, name: the disk's name
 */

/* kprof_probe_info.state */
#define KPROF_STATE_STOPPED	1	/* registered, disarmed */
#define KPROF_STATE_RUNNING	2	/* armed */
#define KPROF_STATE_GONE	3	/* target module unloaded */
#define KPROF_STATE_PENDING	4	/* waiting for a module to define it */

/* kprof_probe_add.flags (also reported in kprof_probe_info.flags) */
#define KPROF_ADD_PID		(1U << 0)	/* only task->pid == pid */
#define KPROF_ADD_TGID		(1U << 1)	/* only task->tgid == pid */
#define KPROF_ADD_CPUS		(1U << 2)	/* only CPUs set in cpus[] */
#define KPROF_ADD_START		(1U << 3)	/* arm at once */
#define KPROF_ADD_DEFER		(1U << 4)	/* tracepoint may come later */
#define KPROF_ADD_STACK		(1U << 5)	/* slow events carry a stack */
#define KPROF_ADD_OWNED		(1U << 6)	/* deleted when its fd goes */
/*
 * Since ABI 1.7: only tasks of the session whose leader is process pid (a
 * pid as the adding process sees it; -ESRCH if no session has that id).
 * A process tree followed across fork and exec: a descendant that calls
 * setsid() leaves it.  Excludes KPROF_ADD_PID and KPROF_ADD_TGID.
 */
#define KPROF_ADD_SESSION	(1U << 7)
/*
 * Since ABI 1.11, kretprobes: how calls are followed, as
 * kprof_probe_info.mech then says.  FAST: through the function's ftrace
 * call site and a return trampoline in the module (KPROF_MECH_FTRACE),
 * about a third of a kretprobe's cost; -EADDRNOTAVAIL where ftrace cannot
 * hook the function or its return cannot be followed (the kernel log
 * says which; a set skips such functions).  KRETPROBE: a kretprobe
 * (KPROF_MECH_KPROBES).  Neither: FAST where it can when the module's
 * parameter "fast" is set, else a kretprobe (a set: since ABI 1.12, a
 * kretprobe for each function FAST cannot follow, KPROF_FUNC_KRETPROBE).
 * Not both.
 */
#define KPROF_ADD_FAST		(1U << 8)
#define KPROF_ADD_KRETPROBE	(1U << 9)
/*
 * Since ABI 1.14, with slow_ns: a slow call also acts on ftrace as
 * kprof_probe_add.ftrace says (KPROF_FT_*).  See struct kprof_ftrace_act.
 */
#define KPROF_ADD_FTRACE	(1U << 10)
#define KPROF_ADD_FLAGS		(KPROF_ADD_PID | KPROF_ADD_TGID | \
				 KPROF_ADD_CPUS | KPROF_ADD_START | \
				 KPROF_ADD_DEFER | KPROF_ADD_STACK | \
				 KPROF_ADD_OWNED | KPROF_ADD_SESSION | \
				 KPROF_ADD_FAST | KPROF_ADD_KRETPROBE | \
				 KPROF_ADD_FTRACE)

#define KPROF_VERSION_SIZE_VER0		88	/* ABI 1.0 */

struct kprof_version {
	__u32 size;
	__u32 abi_major;
	__u32 abi_minor;
	__u32 nr_cpus;		/* nr_cpu_ids: CPU numbers are below this */
	__u64 caps;		/* KPROF_CAP_* */
	__u32 max_probes;
	__u32 spec_len;		/* KPROF_SPEC_LEN */
	__u32 max_maxactive;	/* KPROF_MAX_MAXACTIVE */
	__u32 hist_sub_bits;	/* KPROF_HIST_SUB_BITS */
	__u32 hist_max_exp;	/* KPROF_HIST_MAX_EXP */
	__u32 hist_nr_buckets;	/* KPROF_HIST_NR_BUCKETS */
	__u64 mmap_size;	/* bytes to map at offset 0 */
	__u32 max_pairs;	/* pair probes that can exist at once */
	__u32 pair_keys;	/* keys per pair probe, besides "other" */
	__u32 max_pmus;		/* probes with PMU counters at once */
	__u32 pmu_max_events;	/* KPROF_PMU_MAX_EVENTS */
	__u32 event_ring;	/* slow-call records per CPU ring */
	__u32 max_sets;		/* since ABI 1.8: function sets at once */
	__u32 max_set_funcs;	/* since ABI 1.8: functions per set */
	__u32 reserved1;
};

/*
 * Keys and filters on any probe (since ABI 1.9).
 *
 * A key spec (kprof_probe_add.key[]) is KPROF_KEYSPEC(kind, arg, flags):
 * kind in bits 0-7, arg in bits 8-15 (KPROF_KEY_ARG: the argument, 1-6;
 * else 0), flags in bits 16-23, bits 24-31 zero.  A keyed probe records
 * every call under the key its values make, in a per-probe key table of
 * kprof_probe_info.nr_keys records (struct kprof_key2) plus an "other
 * keys" row (the pair layout, with key_rec_size bytes per record).  What
 * each kind keys and where (include/kprofctl/filter.h decides, for the
 * module and the CLI alike):
 *
 *   RETVAL  the return value                     kretprobes
 *   ARG     argument arg as passed (at entry)    kprobes, kretprobes
 *   CALLER  an opaque id (1, 2...) of the        kprobes (at offset 0),
 *           return address, 0: the id table      kretprobes
 *           (nr_keys ids) is full
 *   STACK   an opaque id (1, 2...) of the        kprobes (at offset 0),
 *           kernel stack (KPROF_STACK_DEPTH      kretprobes, tracepoints
 *           frames from the function)
 *   PID     task pid       (name: its comm)      kprobes, kretprobes,
 *   TGID    task tgid      (name: its comm)      tracepoints
 *   COMM    a hash of comm (name: the comm)
 *   CPU     the CPU
 *
 * Function sets, pairs and pmu: probes take no keys and no filter.
 *
 * The mapping is readable with device access alone, so no key value is a
 * kernel address: a RETVAL or ARG register (before KPROF_KEYF_S32 takes
 * its low half) from KPROF_KEY_KPTR up, bar the errno values -4095..-1,
 * is recorded as KPROF_KEY_KPTR, one key for every kernel pointer; on
 * arm64 after untagging (bits 56-63 read as bit 55: a KASAN or MTE tag) (LOG2
 * and BOOL keys say nothing of an address and keep theirs).  CALLER and
 * STACK keys are ids whose addresses KPROF_IOC_KEY_FRAMES gives to
 * CAP_SYSLOG.
 *
 * Register width: a function returning int leaves the upper half of the
 * 64-bit return register undefined on x86-64 and arm64 (in practice
 * zero, so -EAGAIN reads as 4294967285).  KPROF_KEYF_S32 (and
 * KPROF_TERM_S32 for filter terms) takes the low 32 bits sign-extended,
 * which is right for int and keeps ERR_PTR() values (-4095..-1) intact.
 * The CLI sets it for "retval" unless "retval:64" is written; arguments
 * are 64-bit unless "argN:s32".
 */
#define KPROF_KEY_NONE		0
#define KPROF_KEY_RETVAL	1
#define KPROF_KEY_ARG		2
#define KPROF_KEY_CALLER	3
#define KPROF_KEY_PID		4
#define KPROF_KEY_TGID		5
#define KPROF_KEY_COMM		6
#define KPROF_KEY_CPU		7
#define KPROF_KEY_STACK		8
#define KPROF_KEY_MAX		8
/* a mem probe's key[1], its own (never in ADD): the row, KPROF_MEM_* */
#define KPROF_KEY_MEM		9

/* key flags (KPROF_KEYSPEC_FLAGS) */
#define KPROF_KEYF_LOG2		(1U << 0)	/* RETVAL, ARG: the value, as
						 * unsigned, rounded down to a
						 * power of two (0 stays 0)
						 */
#define KPROF_KEYF_BOOL		(1U << 1)	/* RETVAL: 0 ok, 1 error (the
						 * value is -4095..-1: an
						 * errno or ERR_PTR)
						 */
#define KPROF_KEYF_S32		(1U << 2)	/* RETVAL, ARG: a C int (see
						 * above)
						 */
#define KPROF_KEYF_ALL		(KPROF_KEYF_LOG2 | KPROF_KEYF_BOOL | \
				 KPROF_KEYF_S32)

/* the value of every RETVAL or ARG key that was a kernel address */
#define KPROF_KEY_KPTR		0xff00000000000000ULL

#define KPROF_KEYSPEC(kind, arg, flags) \
	((__u32)(kind) | (__u32)(arg) << 8 | (__u32)(flags) << 16)
#define KPROF_KEYSPEC_KIND(s)	((s) & 0xff)
#define KPROF_KEYSPEC_ARG(s)	(((s) >> 8) & 0xff)
#define KPROF_KEYSPEC_FLAGS(s)	(((s) >> 16) & 0xff)

#define KPROF_MAX_KEYS		2	/* key specs per probe */

/*
 * A filter: up to KPROF_FILTER_TERMS terms, all of which must hold
 * (joined by &&), evaluated in probe context before anything is recorded.
 * retval and latency are known at return only (kretprobes); a kretprobe
 * whose entry terms fail drops the call at entry.
 */
#define KPROF_F_RETVAL		1	/* signed 64-bit (or KPROF_TERM_S32) */
#define KPROF_F_ARG1		2	/* ... KPROF_F_ARG6: signed, as RETVAL */
#define KPROF_F_ARG6		7
#define KPROF_F_PID		8	/* unsigned: task pid */
#define KPROF_F_TGID		9	/* unsigned: task tgid */
#define KPROF_F_CPU		10	/* unsigned */
#define KPROF_F_LATENCY		11	/* unsigned, ns, entry to return */
#define KPROF_F_COMM		12	/* ->comm, with EQ or NE only */
#define KPROF_F_MAX		12

#define KPROF_OP_EQ		1
#define KPROF_OP_NE		2
#define KPROF_OP_LT		3
#define KPROF_OP_LE		4
#define KPROF_OP_GT		5
#define KPROF_OP_GE		6
#define KPROF_OP_AND		7	/* (field & value) != 0 */
#define KPROF_OP_MAX		7

/* kprof_term.flags */
#define KPROF_TERM_S32		(1U << 0)	/* RETVAL, ARGn: a C int */
#define KPROF_TERM_FLAGS	KPROF_TERM_S32

#define KPROF_FILTER_TERMS	4
#define KPROF_COMM_LEN		16	/* TASK_COMM_LEN, with the NUL */

struct kprof_term {
	__u16 field;		/* KPROF_F_* */
	__u16 op;		/* KPROF_OP_* */
	__u32 flags;		/* KPROF_TERM_* */
	__u64 value;		/* as __s64 for signed fields; 0 for COMM */
	char comm[KPROF_COMM_LEN];	/* COMM: 1-15 chars, NUL-padded;
					 * else all zero
					 */
};

struct kprof_filter {
	__u32 nr;		/* terms used, 0-KPROF_FILTER_TERMS */
	__u32 reserved0;
	struct kprof_term term[KPROF_FILTER_TERMS];	/* unused ones zero */
};

#define KPROF_PROBE_ADD_SIZE_VER0	344	/* ABI 1.0 */
#define KPROF_PROBE_ADD_SIZE_VER1	560	/* ABI 1.3: ->pmu, ->err_* */
#define KPROF_PROBE_ADD_SIZE_VER2	712	/* ABI 1.9: ->key, ->filter */
#define KPROF_PROBE_ADD_SIZE_VER3	784	/* ABI 1.14: ->ftrace */

/*
 * What a slow call does to ftrace (since ABI 1.14, KPROF_ADD_FTRACE), in
 * probe context at the return that crossed slow_ns:
 *
 *   SNAPSHOT  swap the top instance's buffer with its snapshot buffer
 *             (/sys/kernel/tracing/snapshot), for the first ->max slow
 *             calls; later ones are only counted.  The snapshot buffer is
 *             allocated and claimed when the probe is added (a
 *             conditional snapshot, released when it is deleted): -EBUSY
 *             if a latency tracer, a hist trigger's snapshot() or another
 *             probe holds it, -ENODEV without CONFIG_TRACER_SNAPSHOT,
 *             -ENOMEM if it cannot be allocated.  While held, writes to
 *             the snapshot file fail with EBUSY.  Not taken in NMI context
 *             (ftrace ignores it there): such a call is counted, not
 *             frozen.
 *   TRACE_OFF stop the top instance's recording (tracing_off()), for the
 *             first ->max slow calls, as SNAPSHOT; no buffer is needed.
 *   MARK      every slow call is also written into the ring buffer of
 *             instance ->instance ("": the top one) as one print line:
 *             "kprofctl: slow probe=ID SPEC latency_ns=N pid=P comm=C"
 *             (-ENOENT if there is no such instance).
 *
 * Not SNAPSHOT and TRACE_OFF both.  The slow-call event says what the
 * call did (KPROF_GENL_A_FTRACE).
 */
#define KPROF_FT_SNAPSHOT	(1U << 0)
#define KPROF_FT_TRACE_OFF	(1U << 1)
#define KPROF_FT_MARK		(1U << 2)
#define KPROF_FT_FLAGS		(KPROF_FT_SNAPSHOT | KPROF_FT_TRACE_OFF | \
				 KPROF_FT_MARK)
#define KPROF_INSTANCE_LEN	64	/* an ftrace instance's name, NUL */

struct kprof_ftrace_act {
	__u32 flags;		/* KPROF_FT_* */
	__u32 max;		/* SNAPSHOT, TRACE_OFF: calls that act, 0: 1,
				 * above 2^31 - 1: 2^31 - 1
				 */
	char instance[KPROF_INSTANCE_LEN];	/* MARK: NUL-terminated */
};

struct kprof_probe_add {
	__u32 size;
	__u32 flags;		/* KPROF_ADD_* */
	__u32 id;		/* out */
	__u32 maxactive;	/* kretprobe instances; 0: see ADD_PROBE */
	__u32 pid;		/* with KPROF_ADD_PID, _TGID or _SESSION */
	__u32 reserved0;
	__u64 cpus[KPROF_CPUMASK_WORDS];	/* with KPROF_ADD_CPUS */
	char spec[KPROF_SPEC_LEN];		/* NUL-terminated */
	__u64 reserved[4];
	/* since ABI 1.3 */
	char pmu[KPROF_PMU_SPEC_LEN];	/* kretprobe: events per call, or "" */
	__u32 err_event;	/* out, PMU errors: 1 + index of the event */
	__u32 err_cpu;		/* out, PMU errors: the CPU */
	/* since ABI 1.4 */
	__u64 slow_ns;		/* slow-call event threshold, 0: none */
	__u64 reserved2;
	/* since ABI 1.9 */
	__u32 key[KPROF_MAX_KEYS];	/* KPROF_KEYSPEC()s, 0: none; key[1]
					 * only with key[0], not the same
					 */
	__u32 nr_keys;		/* with a key: records in the key table, a
				 * power of two, 0: kprof_version.pair_keys;
				 * without: 0
				 */
	__u32 objects;		/* since ABI 1.15, mem: the live table's
				 * entries, a power of two, 0: default;
				 * other kinds: 0
				 */
	struct kprof_filter filter;	/* nr 0: none */
	/* since ABI 1.14 */
	struct kprof_ftrace_act ftrace;	/* with KPROF_ADD_FTRACE, else 0 */
};

#define KPROF_PROBE_ID_SIZE_VER0	16	/* ABI 1.0 */

struct kprof_probe_id {
	__u32 size;
	__u32 flags;		/* none defined: must be 0 */
	__u32 id;		/* 0: all probes */
	__u32 reserved0;
};

#define KPROF_PROBE_INFO_SIZE_VER0	376	/* ABI 1.0 */
#define KPROF_PROBE_INFO_SIZE_VER1	384	/* ABI 1.4: slow_ns */
#define KPROF_PROBE_INFO_SIZE_VER2	424	/* ABI 1.8: mech, sets */
#define KPROF_PROBE_INFO_SIZE_VER3	576	/* ABI 1.9: key, filter */

struct kprof_probe_info {
	__u32 id;		/* 0: free slot (in the mmap table) */
	__u32 slot;		/* index in the mmap probe table */
	__u32 type;		/* KPROF_TYPE_* */
	__u32 state;		/* KPROF_STATE_* */
	__u32 flags;		/* KPROF_ADD_* as added */
	__u32 pid;
	__u32 maxactive;	/* effective value for kretprobes */
	__u32 reg_errno;	/* positive errno of a failed re-arm, else 0 */
	__u64 nmissed;		/* calls the kprobe core skipped (maxactive
				 * exhausted, recursion); refreshed at least
				 * every 100 ms while running and on STOP
				 */
	__u64 hits;		/* sum of per-CPU counts (INFO/LIST only) */
	__u64 cpus[KPROF_CPUMASK_WORDS];
	__u64 stats_off;	/* mmap offset of this probe's CPU 0 stats */
	char spec[KPROF_SPEC_LEN];
	/* pairs and (since ABI 1.9) probes with keys (else 0) */
	__u64 keys_off;		/* mmap offset: nr_keys records of
				 * key_rec_size bytes (struct kprof_key for
				 * pairs, kprof_key2 for ->key)
				 */
	__u64 key_stats_off;	/* mmap offset: key 0, CPU 0 statistics */
	__u64 key_stride;	/* bytes between keys' statistics */
	__u32 nr_keys;		/* the "other keys" block is key nr_keys */
	__u32 pmu_block;	/* 1 + index of its PMU block, 0: none */
	/* since ABI 1.4 (mmap: probe_rec_size tells) */
	__u64 slow_ns;		/* slow-call threshold, 0: none */
	/* since ABI 1.8 */
	__u32 mech;		/* KPROF_MECH_*, 0: not attached */
	/* function sets only (else 0): see struct kprof_func */
	__u32 nr_funcs;		/* functions the glob matched */
	__u32 nr_probed;	/* of them, hooked now */
	__u32 func_stride;	/* bytes between a row's functions */
	__u64 funcs_off;	/* mmap offset: nr_funcs x struct kprof_func */
	__u64 func_stats_off;	/* mmap offset: CPU 0's row */
	__u64 func_cpu_stride;	/* bytes between CPUs' rows */
	/* since ABI 1.9: as added */
	__u32 key[KPROF_MAX_KEYS];	/* KPROF_KEYSPEC()s */
	__u32 key_rec_size;	/* bytes per record at keys_off, 0: none */
	__u32 reserved1;
	struct kprof_filter filter;
};

#define KPROF_PROBE_QUERY_SIZE_VER0	392	/* ABI 1.0 */
#define KPROF_PROBE_QUERY_SIZE_VER1	400	/* ABI 1.4: info.slow_ns */
#define KPROF_PROBE_QUERY_SIZE_VER2	440	/* ABI 1.8: info.mech, sets */
#define KPROF_PROBE_QUERY_SIZE_VER3	592	/* ABI 1.9: info.key, filter */

struct kprof_probe_query {
	__u32 size;
	__u32 flags;		/* must be 0 */
	__u32 id;
	__u32 reserved0;
	struct kprof_probe_info info;	/* out */
};

#define KPROF_PROBE_LIST_SIZE_VER0	24	/* ABI 1.0 */

struct kprof_probe_list {
	__u32 size;
	__u32 flags;		/* must be 0 */
	__u32 count;		/* in: records room at ptr; out: probes */
	__u32 rec_size;		/* sizeof(struct kprof_probe_info) known */
	__u64 ptr;		/* user pointer to the records */
};

#define KPROF_TP_LIST_SIZE_VER0		40	/* ABI 1.2 */

struct kprof_tp_list {
	__u32 size;
	__u32 flags;		/* must be 0 */
	__u32 count;		/* out: names */
	__u32 reserved0;
	__u64 len;		/* in: bytes at ptr */
	__u64 needed;		/* out: bytes all names take */
	__u64 ptr;		/* user pointer */
};

/* kprof_boot_rec.source */
#define KPROF_BOOT_PARAM	1	/* the probes= module parameter */
#define KPROF_BOOT_DT		2	/* a "linux,kprofctl" device-tree node */

/* kprof_boot_rec.flags */
#define KPROF_BOOT_ARMED	(1U << 0)	/* probe ->id exists (now) */
#define KPROF_BOOT_LIST		(1U << 1)	/* about the whole list */

#define KPROF_BOOT_ORIGIN_LEN	64

#define KPROF_BOOT_REC_SIZE_VER0	336	/* ABI 1.5 */

struct kprof_boot_rec {
	__u32 source;		/* KPROF_BOOT_PARAM or KPROF_BOOT_DT */
	__u32 flags;		/* KPROF_BOOT_* */
	__u32 id;		/* the probe it became, 0: none */
	__s32 error;		/* 0 or -errno */
	char origin[KPROF_BOOT_ORIGIN_LEN];	/* "probes=" or the node */
	char text[KPROF_SPEC_LEN];	/* the spec, or what is wrong */
};

#define KPROF_BOOT_REPORT_SIZE_VER0	48	/* ABI 1.5 */

struct kprof_boot_report {
	__u32 size;
	__u32 flags;		/* must be 0 */
	__u32 rec_size;		/* in: sizeof(struct kprof_boot_rec) */
	__u32 count;		/* in: records room at ptr; out: records */
	__u32 lost;		/* out: records that found no room */
	__u32 reserved0;
	__u64 ptr;		/* user pointer */
	__u64 reserved[2];
};

/* kprof_key.flags */
#define KPROF_KEY_USED		(1U << 0)

/*
 * A pair probe's keys are claimed lock-free as events arrive: a struct
 * kprof_key is valid once its flags have KPROF_KEY_USED (load flags with
 * acquire ordering, then value and name).  Its statistics may run a
 * little ahead of that.  Keys beyond nr_keys go to the "other keys" block.
 */
struct kprof_key {
	__u64 value;		/* see the pair kinds */
	__u32 flags;		/* KPROF_KEY_* */
	__u32 reserved0;
	char name[48];		/* NUL-terminated, may be empty */
};

/*
 * A key of a probe with kprof_probe_add.key (since ABI 1.9): struct
 * kprof_key, whose meaning it keeps (value: key[0]'s value, flags, name),
 * and key[1]'s value after it.  A reader that knows only struct kprof_key
 * and steps by kprof_probe_info.key_rec_size reads the first value and
 * the name right.  Pairs keep their 64-byte records: the pair layout does
 * not change, and the name stays 48 bytes (workqueue symbols, disk names).
 * The two values are claimed together (one slot per combination, tagged
 * by a hash of both), so value and value2 never come apart.  name is the
 * comm for PID, TGID and COMM keys (the first such key's), else empty.
 */
struct kprof_key2 {
	__u64 value;		/* key[0]'s value */
	__u32 flags;		/* KPROF_KEY_USED */
	__u32 reserved0;
	char name[48];
	__u64 value2;		/* key[1]'s value, 0 without key[1] */
};

/* kprof_func.flags */
#define KPROF_FUNC_PROBED	(1U << 0)	/* hooked now */
#define KPROF_FUNC_INIT		(1U << 1)	/* in MOD's __init text */
#define KPROF_FUNC_TRUNCATED	(1U << 2)	/* ->name is cut short */
/*
 * Since ABI 1.12: hooked through a kretprobe of its own, in a latency set
 * that goes through ftrace (KPROF_MECH_FTRACE) because the fast path was
 * the default, not asked for: ftrace cannot hook the function, or the
 * fast path cannot follow its return (what --fast would skip, with
 * KPROF_SKIP_NOTRACE or KPROF_SKIP_NORETURN).
 */
#define KPROF_FUNC_KRETPROBE	(1U << 3)

/* kprof_func.reason: why a function is not hooked (0: it is, or stopped) */
#define KPROF_SKIP_NOTRACE	1	/* ftrace cannot hook it (notrace,
					 * noinstr, not a function)
					 */
#define KPROF_SKIP_REFUSED	2	/* the kprobe core refused: ->error */
#define KPROF_SKIP_INIT_DONE	3	/* __init text, freed after init */
#define KPROF_SKIP_NOMEM	4	/* no memory for its instance */
/* since ABI 1.11: a fast latency set cannot follow its return */
#define KPROF_SKIP_NORETURN	5

#define KPROF_FUNC_NAME_LEN	56

/*
 * One function of a set, in the order of the statistics rows (sorted by
 * name).  Names only: no address reaches the mapping.  Written while the
 * set attaches, under the mapping's seqcount.
 */
struct kprof_func {
	__u32 flags;		/* KPROF_FUNC_* */
	__u16 reason;		/* KPROF_SKIP_* */
	__s16 error;		/* -errno with KPROF_SKIP_REFUSED */
	char name[KPROF_FUNC_NAME_LEN];	/* NUL-terminated */
};

/*
 * A latency set's statistics per function and CPU: the histogram of
 * struct kprof_cpu_stats cut at KPROF_FHIST_NR_BUCKETS - 1 (about 1.07 s),
 * whose last bucket holds everything from there up, with 32-bit buckets
 * (count, sum, min and max stay 64-bit).  Same bucket math
 * (kprof_hist_index), so the same 1/32 bound on quantiles below the cut.
 * A bucket wraps after 2^32 calls of one function on one CPU; readers
 * should call quantiles unreliable once count passes 2^32.  A hit-count
 * set's statistics are one __u64 count per function and CPU.
 */
#define KPROF_FHIST_MAX_EXP	30
#define KPROF_FHIST_NR_BUCKETS	(((KPROF_FHIST_MAX_EXP - KPROF_HIST_SUB_BITS + 1) \
				  << KPROF_HIST_SUB_BITS) + 1)

struct kprof_func_hist {
	__u64 count;
	__u64 sum;
	__u64 min;		/* ~0ULL while count is 0 */
	__u64 max;
	__u32 hist[KPROF_FHIST_NR_BUCKETS];
	__u32 reserved0;
};

/*
 * mmap layout (offset 0, length kprof_version.mmap_size, PROT_READ only):
 *
 *   [0, hdr page)           struct kprof_mmap_header
 *   [probes_off, ...)       max_probes x struct kprof_probe_info, indexed by
 *                           slot; id == 0 marks a free slot
 *   [stats_off, ...)        per slot, per CPU: struct kprof_cpu_stats at
 *                           stats_off + slot * probe_stride + cpu * cpu_stride
 *   [pairs_off, ...)        per pair slot (a pair's keys, or since ABI 1.9
 *                           a probe added with keys): nr_keys records of
 *                           key_rec_size bytes (struct kprof_key for pairs,
 *                           kprof_key2), then per key (nr_keys of them,
 *                           then "other keys") and CPU a struct
 *                           kprof_cpu_stats; the probe's kprof_probe_info
 *                           gives its keys_off and key_stats_off: key k,
 *                           CPU c is at key_stats_off + k * key_stride + c
 *                           * cpu_stride.  Such a probe records each call
 *                           in its key's row only: its total is the sum of
 *                           every row, "other keys" included, and its own
 *                           stats (stats_off) keep the slow-call counts
 *                           and drops.
 *   [pmus_off, ...)         per PMU block (a probe's kprof_probe_info
 *                           pmu_block is 1 + its index), pmu_stride bytes
 *                           each: pmu_max_events x struct kprof_pmu_event,
 *                           then at pmu_counts_off event e, CPU c's window
 *                           totals, struct kprof_pmu_count [e * nr_cpus +
 *                           c], then at pmu_stats_off the per-call deltas,
 *                           struct kprof_cpu_stats at (e * nr_cpus + c) *
 *                           cpu_stride (kretprobes only)
 *   [sets_off, ...)         per function-set slot, set_stride bytes each: a
 *                           set's kprof_probe_info gives funcs_off (its
 *                           struct kprof_func table) and func_stats_off:
 *                           function f on CPU c is at func_stats_off + c *
 *                           func_cpu_stride + f * func_stride (a __u64 hit
 *                           count, or a struct kprof_func_hist)
 *
 * A slot (probe, pair or PMU block) has memory only while a probe uses it;
 * elsewhere the mapping reads as zeros.  probe_stride is page-aligned.
 *
 * The probe table is written under a seqcount: read ->seq (retry while odd),
 * copy, then re-read ->seq and retry if it changed:
 *
 *	do {
 *		while ((seq = load_acquire(&hdr->seq)) & 1)
 *			yield or sleep briefly;
 *		copy the rows (and statistics) needed;
 *		read barrier (smp_rmb(), or an acquire fence);
 *	} while (READ_ONCE(hdr->seq) != seq);
 *
 * RESET zeroes statistics inside the same write section, so a reader that
 * brackets its statistics reads with ->seq never sees half a reset.  Write
 * sections are short and never wait for a grace period or an
 * unregistration (DEL takes a probe's row out first, then unregisters),
 * but the writer can still be preempted: a reader should yield or sleep
 * briefly while ->seq stays odd rather than spin a fixed number of times.
 * Statistics are updated live and lock-free; a reader sees each __u64
 * atomically, and a kretprobe block's count, loaded before its buckets
 * (with acquire ordering), is never more than their sum.  ->generation
 * changes on every add, delete and reset, so a reader can tell that a diff
 * across snapshots is invalid.
 */
#define KPROF_MMAP_HEADER_SIZE_VER0	160	/* ABI 1.0 */
#define KPROF_MMAP_HEADER_SIZE_VER1	176	/* ABI 1.8: sets */

struct kprof_mmap_header {
	__u64 magic;		/* KPROF_MMAP_MAGIC */
	__u32 abi_major;
	__u32 abi_minor;
	__u32 header_size;	/* sizeof(struct kprof_mmap_header) */
	__u32 nr_cpus;
	__u32 seq;		/* seqcount over the probe table: odd while
				 * it is written; readers loop as above
				 */
	__u32 generation;	/* bumped by add, delete and reset */
	__u32 max_probes;
	__u32 probe_rec_size;	/* sizeof(struct kprof_probe_info) */
	__u64 probes_off;
	__u64 stats_off;
	__u64 probe_stride;	/* bytes between slots' stats */
	__u64 cpu_stride;	/* bytes between CPUs' stats of one slot */
	__u32 hist_sub_bits;
	__u32 hist_max_exp;
	__u32 hist_nr_buckets;
	__u32 reserved0;
	__u64 mmap_size;
	__u64 pairs_off;	/* first pair slot */
	__u64 pair_stride;	/* bytes between pair slots */
	__u32 max_pairs;
	__u32 pair_keys;
	__u64 pmus_off;		/* first PMU block */
	__u64 pmu_stride;	/* bytes between PMU blocks */
	__u32 max_pmus;
	__u32 pmu_max_events;
	__u32 pmu_counts_off;	/* in a block */
	__u32 pmu_stats_off;	/* in a block */
	/* since ABI 1.8 (was reserved, 0) */
	__u64 sets_off;		/* first function-set slot */
	__u64 set_stride;	/* bytes between set slots */
	__u32 max_sets;
	__u32 max_set_funcs;
};

/* kprof_pmu_event.flags */
#define KPROF_PMU_EV_RAW	(1U << 0)	/* given as 0xNN */

/* One event of a PMU block; name[0] == 0 marks the end of the list. */
struct kprof_pmu_event {
	__u32 type;		/* perf_event_attr.type asked for */
	__u32 flags;		/* KPROF_PMU_EV_* */
	__u64 config;		/* perf_event_attr.config */
	char name[32];		/* canonical name, or "0xNN" */
};

/* kprof_pmu_count.flags */
#define KPROF_PMU_CNT_OPEN	(1U << 0)	/* a counter exists here */
#define KPROF_PMU_CNT_ERROR	(1U << 1)	/* pinned, not schedulable */

/*
 * Window totals of one event on one CPU, over the time its probe ran
 * (since it was added or reset).  When running < enabled the counter was
 * multiplexed: value * enabled / running estimates the full count.
 */
struct kprof_pmu_count {
	__u64 value;
	__u64 enabled;		/* ns */
	__u64 running;		/* ns */
	__u32 pmu_type;		/* perf type of the PMU serving this CPU */
	__u32 flags;		/* KPROF_PMU_CNT_* */
	char pmu[32];		/* that PMU's name, "armv8_cortex_a76" */
};

/*
 * Per probe, per CPU.  For kretprobes "count" is the number of completed
 * calls and sum/min/max/hist are in ns; for kprobes only "count" is used.
 * min is ~0ULL while count is 0.  "drops" counts calls seen by kprofctl but
 * not recorded (see kprof_probe_info.nmissed for calls the kprobe core did
 * not pass on at all).  For pairs, the probe's own blocks count in "drops"
 * starts lost because the in-flight table was full, and in "unmatched" ends
 * whose start was not seen (it came before the probe was armed, or the
 * event completed in parts); the key blocks hold the latencies.  In a PMU
 * block's per-call statistics the values are counter deltas and "drops"
 * counts calls whose counter could not be read on both ends (the task
 * migrated, the counter was not running): losses, never zeros.
 */
struct kprof_cpu_stats {
	__u64 count;
	__u64 sum;
	__u64 min;
	__u64 max;
	__u64 drops;
	__u64 unmatched;
	__u64 events;		/* slow-call records queued */
	__u64 events_dropped;	/* slow calls lost: the CPU's ring was full */
	__u64 hist[KPROF_HIST_NR_BUCKETS];
};

#define KPROF_IOC_MAGIC		0xB7
#define KPROF_IOC(nr)		_IOWR(KPROF_IOC_MAGIC, (nr), __u32)

/*
 * KPROF_IOC_GET_VERSION  (struct kprof_version, out)
 *	ABI major/minor, capability bits (KPROF_CAP_*), nr_cpus, limits and
 *	histogram parameters.  Needs no capability.  Its number never changes.
 *	A tool must refuse to run when abi_major differs from its own.
 */
#define KPROF_IOC_GET_VERSION	KPROF_IOC(0x00)	/* never changes */

/*
 * KPROF_IOC_ADD_PROBE    (struct kprof_probe_add, in/out)
 *	Register "kprobe:SYM[+OFF]", "kretprobe:SYM" (SYM may be "MOD:SYM"),
 *	"tracepoint:SUBSYS:NAME" (found by NAME, in the core kernel or a loaded
 *	module; SUBSYS must be its trace event's system, -ENOENT otherwise, or
 *	"*" for any, as a tracepoint without a trace event needs) or
 *	"pair:KIND", a keyed latency pair (the pair kinds above).  Returns
 *	the new id in ->id.  The probe is created stopped (disarmed, zero
 *	cost) unless KPROF_ADD_START is set.  With KPROF_ADD_DEFER a tracepoint
 *	that no loaded code defines is accepted in state PENDING and attaches
 *	when a module that defines it loads.  On any failure nothing stays
 *	registered.  Errors: -ENOENT symbol or tracepoint not found (or inlined
 *	away), -ENOSPC all probe slots (or, for pairs, all pair slots) in use,
 *	-EADDRNOTAVAIL the kernel refuses to probe there (kprobe blacklist,
 *	noinstr/notrace, not an instruction boundary), -EOPNOTSUPP probe type
 *	not compiled into this kernel, -EINVAL malformed spec or options,
 *	-EPERM kernel lockdown (confidentiality: LOCKDOWN_KPROBES) forbids
 *	kprobes and kretprobes (tracepoints, pairs and PMU counting are not
 *	locked down), -EACCES KPROF_ADD_STACK where the events group is open
 *	to every user (no KPROF_CAP_EVENTS_RESTRICTED), -ESRCH no session
 *	->pid (KPROF_ADD_SESSION).
 *
 *	A kretprobe's ->maxactive 0 is max(64, 4 * possible CPUs), at most
 *	KPROF_MAX_MAXACTIVE (since ABI 1.7; before, the kprobe core's max(10,
 *	2 * possible CPUs)); INFO reports the value used.
 *
 *	kretprobes also take PMU events in ->pmu: each call's counter deltas
 *	(entry to return, same CPU) go into one histogram per event.  "pmu:
 *	EVENTS" counts EVENTS on every CPU (or ->cpus) while running.  Event
 *	names are listed above KPROF_PMU_MAX_EVENTS; "0xNN" (up to 0xffff) is
 *	a raw event.  Counters are created stopped with the probe and run only
 *	while it runs.  When a counter cannot be created or scheduled the call
 *	fails with the perf error (-ENOENT: no PMU serves that CPU or it does
 *	not know the event, -EOPNOTSUPP, -EBUSY: a pinned counter found no
 *	free hardware counter, ...), and ->err_event (1 + index in the list)
 *	and ->err_cpu say where; the struct is copied back in that case too.
 *
 *	->slow_ns (kretprobes and pairs) makes every call or pair at least that
 *	long a slow-call event on the netlink family (below); with
 *	KPROF_ADD_STACK the event carries up to KPROF_STACK_DEPTH kernel
 *	return addresses.  A kretprobe's starts at the probed function's
 *	return address, in its caller: the function itself is not in it
 *	(kprofctl watch names it from the spec).
 *
 *	->key, ->nr_keys and ->filter (since ABI 1.9, see KPROF_KEYSPEC and
 *	struct kprof_filter): -EINVAL for an unknown kind, field, operator or
 *	flag, an operator or flag the field does not take, ->filter.nr above
 *	KPROF_FILTER_TERMS, nonzero reserved or unused parts, ->nr_keys not a
 *	power of two (or above the module's limit, or without a key), and
 *	keys or terms that the probe's kind cannot evaluate.
 *
 *	With KPROF_ADD_OWNED (since ABI 1.6) the probe belongs to the open
 *	file description that added it: it is deleted, like DEL_PROBE, when
 *	the last reference to that file goes (close, exit, kill; a forked
 *	child shares it).  Until then it is an ordinary probe that any
 *	controller may stop or delete; INFO and LIST report the flag.
 */
#define KPROF_IOC_ADD_PROBE	KPROF_IOC(0x01)

/*
 * KPROF_IOC_DEL_PROBE    (struct kprof_probe_id, in)
 *	Unregister and free probe ->id (0: every probe).
 */
#define KPROF_IOC_DEL_PROBE	KPROF_IOC(0x02)

/*
 * KPROF_IOC_START / KPROF_IOC_STOP  (struct kprof_probe_id, in)
 *	Arm or disarm probe ->id (0: every probe).  After STOP returns, no
 *	handler of the stopped probes is still updating statistics.
 */
#define KPROF_IOC_START		KPROF_IOC(0x03)
#define KPROF_IOC_STOP		KPROF_IOC(0x04)

/*
 * KPROF_IOC_RESET        (struct kprof_probe_id, in)
 *	Zero the statistics of probe ->id (0: every probe) and bump the
 *	mmap header's generation.
 */
#define KPROF_IOC_RESET		KPROF_IOC(0x05)

/*
 * KPROF_IOC_INFO         (struct kprof_probe_query, in/out)
 *	Fill ->info for probe ->id.  -ENOENT if there is no such probe.
 */
#define KPROF_IOC_INFO		KPROF_IOC(0x06)

/*
 * KPROF_IOC_LIST         (struct kprof_probe_list, in/out)
 *	Copy up to ->count records of ->rec_size bytes (struct
 *	kprof_probe_info, possibly an older/newer size) to ->ptr; ->count is
 *	set to the number of probes that exist.
 */
#define KPROF_IOC_LIST		KPROF_IOC(0x07)

/*
 * KPROF_IOC_TRACEPOINTS  (struct kprof_tp_list, in/out)
 *	Copy the names of every tracepoint that can be attached (core kernel
 *	and loaded modules), each NUL-terminated, into ->len bytes at ->ptr.
 *	->count and ->needed are set to the number of names and the bytes
 *	they take; -ENOSPC (with both set) when ->len is too small.  Needs
 *	CAP_PERFMON or CAP_SYS_ADMIN (-EPERM).
 */
#define KPROF_IOC_TRACEPOINTS	KPROF_IOC(0x08)

/*
 * KPROF_IOC_PMU_READ     (struct kprof_probe_id, in)
 *	Refresh the PMU window totals (struct kprof_pmu_count) in the mmap of
 *	probe ->id (0: every probe) from the counters now.  STOP refreshes
 *	them too.  Needs no capability, but without CAP_PERFMON it refreshes
 *	at most once per 100 ms (across all such callers) and otherwise
 *	returns 0 without refreshing (-ENOENT still for a probe that does
 *	not exist).
 */
#define KPROF_IOC_PMU_READ	KPROF_IOC(0x09)

/*
 * KPROF_IOC_BOOT_REPORT  (struct kprof_boot_report, in/out)
 *	What became of the probes listed for boot-time capture (the probes=
 *	module parameter and a "linux,kprofctl" device-tree node): up to
 *	->count records of ->rec_size bytes (struct kprof_boot_rec, possibly
 *	an older/newer size) are copied to ->ptr, and ->count is set to the
 *	number that exist.  A record is either one spec (armed as probe ->id,
 *	or ->error) or, with KPROF_BOOT_LIST, a failure of the whole list
 *	(a malformed property, a node for another board): ->text says what,
 *	and none of that list's probes stay armed.  ->lost counts records
 *	that found no room.
 */
#define KPROF_IOC_BOOT_REPORT	KPROF_IOC(0x0a)

/*
 * KPROF_IOC_KEY_FRAMES  (struct kprof_key_frames, in/out; since ABI 1.9)
 *	The code addresses behind probe ->id's CALLER key ids (or with
 *	KPROF_KEY_FRAMES_STACK its STACK key ids: the function, its caller
 *	and up, then 0s): ->count ids'
 *	->depth addresses each (at most ->count x depth __u64 are written
 *	to ->ptr, id i's at (i - 1) x depth; 0 for an id not taken yet);
 *	->count is set to the number of ids, ->depth to the addresses per
 *	id (->count 0 asks for just these).  Kernel addresses: -EPERM
 *	without CAP_SYSLOG, whatever the descriptor.  -ENOENT: no such
 *	probe; -ENODATA: it has no caller key.
 *	With KPROF_KEY_FRAMES_SYMS (since ABI 1.15, caller ids only) the
 *	kernel's names instead: ->ptr gets ->count records of ->depth
 *	(out: KPROF_SYM_LEN) chars, "func+0x1c" NUL-terminated, "" for an
 *	id not taken or an address without a symbol.  A mem probe's sites
 *	keep the names they had while MOD was loaded (its init text's from
 *	before the init was freed) after MOD is gone; by stack (1.18), a
 *	site's name is its first frame in MOD.
 */
#define KPROF_KEY_FRAMES_SIZE_VER0	32	/* ABI 1.9 */

#define KPROF_KEY_FRAMES_STACK	(1U << 0)	/* the stack ids' frames */
#define KPROF_KEY_FRAMES_SYMS	(1U << 1)	/* the caller ids' names */
#define KPROF_SYM_LEN		128

struct kprof_key_frames {
	__u32 size;
	__u32 id;		/* the probe */
	__u32 flags;		/* KPROF_KEY_FRAMES_* */
	__u32 count;		/* in: ids ->ptr has room for; out: ids */
	__u32 depth;		/* in: 0; out: addresses per id */
	__u32 reserved;		/* 0 */
	__u64 ptr;		/* __u64 array */
};

#define KPROF_IOC_KEY_FRAMES	KPROF_IOC(0x0b)

/*
 * Generic netlink family KPROF_GENL_NAME, version KPROF_GENL_VERSION.
 * Every command needs CAP_NET_ADMIN (GENL_ADMIN_PERM) and joining the
 * multicast group needs CAP_SYS_ADMIN where the kernel can enforce it
 * (GENL_MCAST_CAP_SYS_ADMIN; GET_VERSION reports it as
 * KPROF_CAP_EVENTS_RESTRICTED, and without it KPROF_ADD_STACK is
 * refused).  Attributes are validated strictly against one policy; a
 * violation is refused with an extack message.
 *
 *  KPROF_GENL_CMD_GET_PROBES  request, dump
 *	request: [PROBE_ID] or [SPEC]: only that probe
 *	reply, one message per probe: PROBE_ID, SPEC, TYPE, STATE, HITS,
 *	NMISSED, SLOW_NS, DROPPED (slow calls lost so far)
 *
 * Multicast group KPROF_GENL_MCGRP ("events"), sent from process context:
 *
 *  KPROF_GENL_CMD_SLOW        a call or pair at least SLOW_NS long
 *	PROBE_ID, CPU, PID, TGID, COMM, LATENCY_NS, TIME_NS (CLOCK_MONOTONIC
 *	at the end of the call), [KEY] (pairs), [STACK] (KPROF_ADD_STACK:
 *	__u64 return addresses, innermost first), [FTRACE] (since ABI 1.14,
 *	KPROF_ADD_FTRACE: KPROF_GENL_FT_* of what this call did)
 *
 *  KPROF_GENL_CMD_PROBE       probe lifecycle and losses
 *	EVENT (KPROF_GENL_EV_*), PROBE_ID, [SPEC], [STATE], and for LOSSES
 *	the increments since the previous report: DROPPED (slow calls whose
 *	ring was full), NMISSED (calls the kprobe core skipped).  LOSSES is
 *	sent after the records it follows, at most once a second per probe.
 *
 *  KPROF_GENL_CMD_LEAK        (since ABI 1.16) an object a mem: probe's
 *	module left allocated when it was unloaded, one message each, sent
 *	after the probe's GONE: PROBE_ID, SITE_ID (the site's id, as in the
 *	probe's key rows), KIND (the allocation's KPROF_MEM_* row), SIZE
 *	(bytes asked for), AGE_NS, and [SITE] (the site's kernel name,
 *	"func+0x1c", only where the group is closed to users without
 *	CAP_SYS_ADMIN: KPROF_CAP_EVENTS_RESTRICTED)
 */
#define KPROF_GENL_NAME		"kprofctl"
#define KPROF_GENL_VERSION	1
#define KPROF_GENL_MCGRP	"events"
#define KPROF_STACK_DEPTH	16

#define KPROF_GENL_CMD_UNSPEC		0
#define KPROF_GENL_CMD_GET_PROBES	1
#define KPROF_GENL_CMD_SLOW		2
#define KPROF_GENL_CMD_PROBE		3
#define KPROF_GENL_CMD_LEAK		4
#define KPROF_GENL_CMD_MAX		4

#define KPROF_GENL_A_UNSPEC		0
#define KPROF_GENL_A_PAD		1	/* alignment of __u64 */
#define KPROF_GENL_A_PROBE_ID		2	/* __u32 */
#define KPROF_GENL_A_SPEC		3	/* string, < KPROF_SPEC_LEN */
#define KPROF_GENL_A_TYPE		4	/* __u32 KPROF_TYPE_* */
#define KPROF_GENL_A_STATE		5	/* __u32 KPROF_STATE_* */
#define KPROF_GENL_A_HITS		6	/* __u64 */
#define KPROF_GENL_A_NMISSED		7	/* __u64 */
#define KPROF_GENL_A_SLOW_NS		8	/* __u64 */
#define KPROF_GENL_A_DROPPED		9	/* __u64 */
#define KPROF_GENL_A_CPU		10	/* __u32 */
#define KPROF_GENL_A_PID		11	/* __u32 */
#define KPROF_GENL_A_TGID		12	/* __u32 */
#define KPROF_GENL_A_COMM		13	/* string, < 16 */
#define KPROF_GENL_A_LATENCY_NS		14	/* __u64 */
#define KPROF_GENL_A_TIME_NS		15	/* __u64 */
#define KPROF_GENL_A_KEY		16	/* __u64, a pair's key value */
#define KPROF_GENL_A_STACK		17	/* __u64[] */
#define KPROF_GENL_A_EVENT		18	/* __u32 KPROF_GENL_EV_* */
#define KPROF_GENL_A_FTRACE		19	/* __u32 KPROF_GENL_FT_* */
/* since ABI 1.16: a leak */
#define KPROF_GENL_A_SITE_ID		20	/* __u32 */
#define KPROF_GENL_A_SITE		21	/* string, < KPROF_SYM_LEN */
#define KPROF_GENL_A_KIND		22	/* __u32 KPROF_MEM_* */
#define KPROF_GENL_A_SIZE		23	/* __u64 */
#define KPROF_GENL_A_AGE_NS		24	/* __u64 */
#define KPROF_GENL_A_MAX		24

/* KPROF_GENL_A_FTRACE: what a slow call did to ftrace */
#define KPROF_GENL_FT_FROZE	(1U << 0)	/* it swapped the snapshot */
#define KPROF_GENL_FT_STOPPED	(1U << 1)	/* it stopped tracing */
#define KPROF_GENL_FT_MARKED	(1U << 2)	/* its line is in the ring */
#define KPROF_GENL_FT_SPENT	(1U << 3)	/* no freeze: ->max were */
#define KPROF_GENL_FT_NMI	(1U << 4)	/* no freeze: NMI context */
#define KPROF_GENL_FT_NOT_TAKEN	(1U << 5)	/* no freeze: ftrace did not
						 * swap (tracing stopped)
						 */

/* KPROF_GENL_A_EVENT */
#define KPROF_GENL_EV_REGISTERED	1
#define KPROF_GENL_EV_UNREGISTERED	2
#define KPROF_GENL_EV_GONE		3	/* its target module unloaded */
#define KPROF_GENL_EV_LOSSES		4

#endif /* _UAPI_LINUX_KPROFCTL_H */
