// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "dev.h"
#include "syms.h"
#include "kprofctl/kinds.h"

const char *kp_dev_path = KPROF_DEVICE;

static int kp_control_cmd(unsigned long cmd)
{
	return cmd == KPROF_IOC_ADD_PROBE || cmd == KPROF_IOC_DEL_PROBE ||
	       cmd == KPROF_IOC_START || cmd == KPROF_IOC_STOP ||
	       cmd == KPROF_IOC_RESET;
}

int kp_ioctl(struct kp_dev *d, unsigned long cmd, void *arg)
{
	int fd;

	/* a command that did not call kp_dev_ready() still works */
	if (kp_dev_ready(d))
		return -ENODEV;
	fd = d->fd;
	if (kp_control_cmd(cmd)) {
		if (d->wfd < 0 && d->path) {
			d->wfd = open(d->path, O_RDWR | O_CLOEXEC);
			if (d->wfd < 0)
				return -errno;
		}
		if (d->wfd >= 0)
			fd = d->wfd;
	}
	return ioctl(fd, cmd, arg) ? -errno : 0;
}

int kp_id_cmd(struct kp_dev *d, unsigned long cmd, uint32_t id)
{
	struct kprof_probe_id a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.id = id;
	return kp_ioctl(d, cmd, &a);
}

int kp_dev_open(struct kp_dev *d, const char *path)
{
	int err;

	memset(d, 0, sizeof(*d));
	d->path = path;
	d->wfd = -1;
	d->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (d->fd < 0) {
		err = errno;
		if (err == ENOENT || err == ENODEV || err == ENXIO)
			fprintf(stderr,
				"kprofctl: %s not found: the kprofctl module is not loaded.\n"
				"  Load it with: sudo insmod kprofctl.ko   (or: sudo modprobe kprofctl)\n",
				path);
		else if (err == EACCES || err == EPERM)
			fprintf(stderr,
				"kprofctl: cannot open %s: %s.\n"
				"  Reading statistics needs read access to the node (root, or the group\n"
				"  a udev rule gives it); controlling probes needs CAP_PERFMON or\n"
				"  CAP_SYS_ADMIN.\n", path, strerror(err));
		else
			fprintf(stderr, "kprofctl: cannot open %s: %s\n", path,
				strerror(err));
		return -1;
	}
	d->ver.size = sizeof(d->ver);
	err = kp_ioctl(d, KPROF_IOC_GET_VERSION, &d->ver);
	if (err) {
		fprintf(stderr, "kprofctl: %s does not answer GET_VERSION (%s): "
			"is it really the kprofctl device?\n", path,
			strerror(-err));
		kp_dev_close(d);
		return -1;
	}
	if (d->ver.abi_major != KPROF_ABI_MAJOR) {
		fprintf(stderr,
			"kprofctl: the module speaks ABI %u.%u, this CLI speaks %u.%u.\n"
			"  Rebuild the CLI and the module from the same tree.\n",
			d->ver.abi_major, d->ver.abi_minor, KPROF_ABI_MAJOR,
			KPROF_ABI_MINOR);
		kp_dev_close(d);
		return -1;
	}
	return 0;
}

void kp_dev_late(struct kp_dev *d, const char *path)
{
	memset(d, 0, sizeof(*d));
	d->path = path;
	d->fd = -1;
	d->wfd = -1;
}

int kp_dev_ready(struct kp_dev *d)
{
	if (!d || d->cap || d->fd >= 0)
		return 0;
	return kp_dev_open(d, d->path);
}

int kp_dev_map(struct kp_dev *d)
{
	char err[128];

	if (d->m.hdr)
		return 0;	/* mapped already */
	if (kp_dev_ready(d))
		return -1;
	if (!d->ver.mmap_size || d->ver.mmap_size > SIZE_MAX) {
		fprintf(stderr, "kprofctl: bad mapping size from the module\n");
		return -1;
	}
	d->map = mmap(NULL, d->ver.mmap_size, PROT_READ, MAP_SHARED, d->fd, 0);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		fprintf(stderr, "kprofctl: cannot map statistics: %s\n",
			strerror(errno));
		return -1;
	}
	if (kp_map_init(&d->m, d->map, d->ver.mmap_size, err, sizeof(err))) {
		fprintf(stderr, "kprofctl: %s\n", err);
		return -1;
	}
	return 0;
}

void kp_dev_close(struct kp_dev *d)
{
	if (d->map)
		munmap(d->map, d->ver.mmap_size);
	if (d->fd >= 0)
		close(d->fd);
	if (d->wfd >= 0)
		close(d->wfd);
	d->map = NULL;
	d->fd = -1;
	d->wfd = -1;
}

/*
 * A kprobe spec refused while the kernel is locked down, and how
 * ("confidentiality"): lockdown is what refused it (LOCKDOWN_KPROBES).
 */
static int kp_lockdown(const char *spec, char *mode, size_t len)
{
	char buf[128], *lb, *rb;
	FILE *f;

	if (strncmp(spec, "kprobe:", 7) && strncmp(spec, "kretprobe:", 10))
		return 0;
	f = fopen("/sys/kernel/security/lockdown", "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	lb = strchr(buf, '[');
	rb = lb ? strchr(lb, ']') : NULL;
	if (!rb || !strncmp(lb, "[none]", 6))
		return 0;
	snprintf(mode, len, "%.*s", (int)(rb - lb - 1), lb + 1);
	return 1;
}

void kp_explain(const struct kp_dev *d, const char *what, const char *subject,
		int err)
{
	char mode[32];

	switch (err) {
	case EPERM:
		if (!strcmp(what, "add") && kp_lockdown(subject, mode,
							sizeof(mode))) {
			fprintf(stderr, "kprofctl: add: kernel lockdown (%s) forbids "
				"kprobes and kretprobes; tracepoints, pairs and PMU "
				"counters still work\n", mode);
			return;
		}
		/* fall through */
	case EACCES:
		if (!strcmp(what, "list-tracepoints")) {
			fprintf(stderr, "kprofctl: list-tracepoints: permission denied: "
				"listing tracepoints needs root, CAP_PERFMON or "
				"CAP_SYS_ADMIN\n");
			return;
		}
		fprintf(stderr, "kprofctl: %s: permission denied: controlling probes "
			"needs root, CAP_PERFMON or CAP_SYS_ADMIN\n", what);
		return;
	case EBADF:
		fprintf(stderr, "kprofctl: %s: the device was opened read-only; "
			"controlling probes needs it opened for writing\n", what);
		return;
	case ENOENT:
		if (!strcmp(what, "add") && !strncmp(subject, "tracepoint:", 11))
			fprintf(stderr,
				"kprofctl: add: no tracepoint named in '%s' in the kernel or a\n"
				"  loaded module, or not in that subsystem (see 'kprofctl\n"
				"  list-tracepoints'; --defer waits for a module that defines it)\n",
				subject);
		else if (!strcmp(what, "add") && !strncmp(subject, "pair:", 5))
			fprintf(stderr,
				"kprofctl: add: this kernel lacks a tracepoint that '%s' needs\n",
				subject);
		else if (!strcmp(what, "add") && kprof_kind_of_spec(subject) &&
			 (kprof_kind_of_spec(subject)->flags & KPROF_KIND_SET))
			fprintf(stderr,
				"kprofctl: add: no function matches '%s' (a MOD: glob\n"
				"  matches the functions of that module only, without MOD:\n"
				"  the kernel's; see /proc/kallsyms)\n", subject);
		else if (!strcmp(what, "add") &&
			 (!strncmp(subject, "sample:", 7) ||
			  !strncmp(subject, "pmu:", 4)))
			fprintf(stderr,
				"kprofctl: add: no PMU here counts the event in '%s'\n"
				"  (is the PMU driver loaded? a VM without a virtual PMU has\n"
				"  none)\n", subject);
		else if (!strcmp(what, "add") && kp_sym_diagnose(what, subject))
			return;
		else if (!strcmp(what, "add"))
			fprintf(stderr,
				"kprofctl: add: symbol in '%s' not found in /proc/kallsyms\n"
				"  (is it inlined, or static and optimised out, or in a module that\n"
				"  is not loaded?)\n", subject);
		else
			fprintf(stderr, "kprofctl: %s: no probe with id %s\n",
				what, subject);
		return;
	case EADDRNOTAVAIL:
		if (!kp_has_kprobe_core(&d->ver) && kprof_kind_of_spec(subject) &&
		    (kprof_kind_of_spec(subject)->flags & KPROF_KIND_SET)) {
			fprintf(stderr,
				"kprofctl: add: no function '%s' matches can be hooked: this\n"
				"  kernel has no kprobes (CONFIG_KPROBES=n), and ftrace has no call\n"
				"  site in any of them (notrace, noinstr, freed __init code), or\n"
				"  cannot follow their returns (widen the glob; see\n"
				"  /sys/kernel/tracing/available_filter_functions)\n", subject);
			return;
		}
		if (!kp_has_kprobe_core(&d->ver)) {
			fprintf(stderr,
				"kprofctl: add: '%s' cannot be probed: this kernel has no kprobes\n"
				"  (CONFIG_KPROBES=n), so functions are reached through their ftrace\n"
				"  call site, and this one has none (notrace, noinstr, inlined,\n"
				"  kprofctl's own code or the tracing machinery), or its return\n"
				"  cannot be followed; the kernel log says which.  The functions\n"
				"  ftrace can hook: /sys/kernel/tracing/available_filter_functions\n",
				subject);
			return;
		}
		if (kprof_kind_of_spec(subject) &&
		    (kprof_kind_of_spec(subject)->flags & KPROF_KIND_SET)) {
			fprintf(stderr,
				"kprofctl: add: no function '%s' matches can be hooked: each is\n"
				"  notrace, on the kprobe blacklist or freed __init code (widen the\n"
				"  glob; see /sys/kernel/debug/kprobes/blacklist)\n", subject);
			return;
		}
		fprintf(stderr,
			"kprofctl: add: '%s' cannot be probed: the kernel refuses to probe\n"
			"  there (kprobe blacklist or NOKPROBE_SYMBOL, such as kprofctl's own\n"
			"  handlers, noinstr/notrace code, or not an instruction boundary);\n"
			"  see /sys/kernel/debug/kprobes/blacklist\n", subject);
		return;
	case ENOSPC:
		if (!strncmp(subject, "pair:", 5)) {
			fprintf(stderr, "kprofctl: add: too many pair probes (max %u; "
				"load the module with max_pairs=N for more)\n",
				d->ver.max_pairs);
			return;
		}
		fprintf(stderr, "kprofctl: add: too many probes (max %u): delete some "
			"with 'kprofctl del'\n", d->ver.max_probes);
		return;
	case EOPNOTSUPP:
		if (!strncmp(subject, "tracepoint:", 11)) {
			fprintf(stderr,
				"kprofctl: add: tracepoint hit counts are not supported on this\n"
				"  kernel (kCFI, CONFIG_CFI_CLANG); pairs still work\n");
			return;
		}
		if (d->ver.caps & KPROF_CAP_KPROBE) {
			const char *colon = strchr(subject, ':');

			if (colon && strchr(colon, '+'))
				fprintf(stderr,
					"kprofctl: add: '%s': an instruction offset needs kprobes,\n"
					"  which this kernel does not have (CONFIG_KPROBES=n); without\n"
					"  the offset, kprobe:FUNC counts the function's calls through\n"
					"  ftrace\n", subject);
			else
				fprintf(stderr,
					"kprofctl: add: '%s' needs kprobes, which this kernel does\n"
					"  not have (CONFIG_KPROBES=n); without --kretprobe, function\n"
					"  probes go through ftrace\n", subject);
			return;
		}
		fprintf(stderr,
			"kprofctl: add: this kernel has no kprobes (CONFIG_KPROBES=n) and no\n"
			"  function tracer (CONFIG_FUNCTION_TRACER=n): tracepoints and PMU\n"
			"  still work; to probe functions rebuild the kernel with\n"
			"  CONFIG_FUNCTION_TRACER=y (function probes through ftrace) or\n"
			"  CONFIG_KPROBES=y\n");
		return;
	case ENODEV:
		fprintf(stderr, "kprofctl: %s: probe %s: its target module was "
			"unloaded (gone); delete it and add it again\n", what,
			subject);
		return;
	case EINVAL:
		fprintf(stderr, "kprofctl: %s: invalid probe spec or options (%s)\n",
			what, subject);
		return;
	default:
		fprintf(stderr, "kprofctl: %s %s: %s\n", what, subject, strerror(err));
	}
}

void kp_explain_pmu(const char *what, const char *events, uint32_t err_event,
		    uint32_t err_cpu, int err)
{
	char name[64] = "?";
	const char *s = events, *why;
	uint32_t i;
	size_t n;

	for (i = 1; i < err_event && s; i++) {
		s = strchr(s, ',');
		if (s)
			s++;
	}
	if (s) {
		n = strcspn(s, ",");
		snprintf(name, sizeof(name), "%.*s", (int)(n < 63 ? n : 63), s);
	}
	switch (err) {
	case ENOENT:
		why = "no PMU serves this CPU, or its PMU does not know the event "
		      "(is the PMU driver loaded? a VM without a virtual PMU has none)";
		break;
	case EOPNOTSUPP:
		why = "the PMU cannot count it this way (no such hardware event here)";
		break;
	case EBUSY:
		why = "cannot be scheduled: every hardware counter of this CPU is "
		      "taken by pinned events (another perf user or probe)";
		break;
	case EINVAL:
		why = "the PMU rejects this event number";
		break;
	case ENODEV:
		why = "the CPU is offline";
		break;
	case E2BIG:
		why = "too many events";
		break;
	case EACCES:
	case EPERM:
		why = "permission denied by perf (perf_event_paranoid or LSM)";
		break;
	default:
		why = strerror(err);
	}
	fprintf(stderr, "kprofctl %s: PMU event %s on CPU %u: %s (%s)\n", what,
		name, err_cpu, why, strerror(err));
}

int kp_dev_boot_report(struct kp_dev *d, struct kprof_boot_rec **recs,
		       unsigned int *n, unsigned int *lost)
{
	struct kprof_boot_report b;
	struct kprof_boot_rec *r = NULL;
	unsigned int room = 0;
	int ret;

	/* the count can only grow while the DT node binds: ask until it fits */
	for (;;) {
		memset(&b, 0, sizeof(b));
		b.size = sizeof(b);
		b.rec_size = sizeof(*r);
		b.count = room;
		b.ptr = (uintptr_t)r;
		ret = kp_ioctl(d, KPROF_IOC_BOOT_REPORT, &b);
		if (ret || b.count <= room)
			break;
		free(r);
		room = b.count;
		r = calloc(room, sizeof(*r));
		if (!r)
			return -ENOMEM;
	}
	if (ret) {
		free(r);
		return ret;
	}
	*recs = r;
	*n = b.count;
	*lost = b.lost;
	return 0;
}

bool kp_has_kprobe_core(const struct kprof_version *v)
{
	/* before ABI 1.13 a module had function kinds only through it */
	if (v->abi_major == 1 && v->abi_minor < 13)
		return v->caps & KPROF_CAP_KPROBE;
	return v->caps & KPROF_CAP_KPROBE_CORE;
}

const char *kp_boot_reason(int err, const char *spec)
{
	static char other[64];

	switch (err) {
	case ENOENT:
		if (!strncmp(spec, "tracepoint:", 11) || !strncmp(spec, "pair:", 5))
			return "-ENOENT: no such tracepoint in the kernel or a loaded module";
		return "-ENOENT: symbol not found (inlined? its module not loaded yet?)";
	case EADDRNOTAVAIL:
		return "-EADDRNOTAVAIL: the kernel refuses to probe there (kprobe blacklist, notrace)";
	case EPERM:
		return "-EPERM: kernel lockdown forbids kprobes";
	case ENOSPC:
		if (!strncmp(spec, "pair:", 5))
			return "-ENOSPC: no free pair slot (max-pairs, max_pairs=)";
		return "-ENOSPC: no free probe or PMU slot (max-probes, max-pmus)";
	case EOPNOTSUPP:
		if (!strncmp(spec, "tracepoint:", 11))
			return "-EOPNOTSUPP: no tracepoint hit counts under kCFI (CONFIG_CFI_CLANG)";
		return "-EOPNOTSUPP: this kernel has no kprobes (CONFIG_KPROBES=n): an offset needs them, and without ftrace every function probe";
	case E2BIG:
		return "-E2BIG: too long";
	case EINVAL:
		return "-EINVAL: malformed spec or options";
	case EBUSY:
		return "-EBUSY: PMU counters could not be scheduled";
	case ENOMEM:
		return "-ENOMEM: out of memory";
	default:
		snprintf(other, sizeof(other), "errno %d: %s", err, strerror(err));
		return other;
	}
}

/*
 * KEY_FRAMES twice: the sizes, then ->count ids of ->depth records of
 * @elem bytes each (an address, a name's char) into *out (free()).
 */
static int key_frames_get(struct kp_dev *d, uint32_t id, uint32_t flags,
			  size_t elem, void **out, uint32_t *nr,
			  uint32_t *depth)
{
	struct kprof_key_frames k;
	int err;

	*out = NULL;
	*nr = *depth = 0;
	memset(&k, 0, sizeof(k));
	k.size = sizeof(k);
	k.id = id;
	k.flags = flags;
	err = -kp_ioctl(d, KPROF_IOC_KEY_FRAMES, &k);
	if (err || !k.count || !k.depth)
		return err;
	*out = calloc((size_t)k.count * k.depth, elem);
	if (!*out)
		return ENOMEM;
	k.ptr = (uintptr_t)*out;
	k.depth = 0;
	err = -kp_ioctl(d, KPROF_IOC_KEY_FRAMES, &k);
	if (err) {
		free(*out);
		*out = NULL;
		return err;
	}
	*nr = k.count;
	*depth = k.depth;
	return 0;
}

int kp_key_syms(struct kp_dev *d, uint32_t id, char **names, uint32_t *nr)
{
	uint32_t len;
	void *buf;
	int err = key_frames_get(d, id, KPROF_KEY_FRAMES_SYMS, 1, &buf, nr,
				 &len);

	if (!err && buf && len != KPROF_SYM_LEN) {
		free(buf);
		buf = NULL;
		*nr = 0;
		err = EPROTO;
	}
	*names = buf;
	return err;
}

int kp_key_frames(struct kp_dev *d, uint32_t id, uint32_t flags,
		  uint64_t **pcs, uint32_t *nr, uint32_t *depth)
{
	void *buf;
	int err = key_frames_get(d, id, flags, sizeof(**pcs), &buf, nr,
				 depth);

	*pcs = buf;
	return err;
}

int kp_list_probes(struct kp_dev *d, struct kprof_probe_info **out,
		   unsigned int *n)
{
	struct kprof_probe_list l;
	struct kprof_probe_info *recs;
	int ret;

	if (kp_dev_ready(d))	/* the table's size is the module's */
		return -ENODEV;
	recs = calloc(d->ver.max_probes ? d->ver.max_probes : 1, sizeof(*recs));
	if (!recs)
		return -ENOMEM;
	memset(&l, 0, sizeof(l));
	l.size = sizeof(l);
	l.count = d->ver.max_probes;
	l.rec_size = sizeof(*recs);
	l.ptr = (uintptr_t)recs;
	ret = kp_ioctl(d, KPROF_IOC_LIST, &l);
	if (ret) {
		free(recs);
		return ret;
	}
	*out = recs;
	*n = l.count < d->ver.max_probes ? l.count : d->ver.max_probes;
	return 0;
}
