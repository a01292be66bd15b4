// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's explanations of module errors, as a user reads them; above
 * all the one a kernel without kprobes (Radxa's BSP defconfig) gives.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "dev.h"

static FILE *cap_tmp;
static int cap_saved;

/* stderr into a temporary file until cap_end() */
static void cap_begin(void)
{
	cap_tmp = tmpfile();
	cap_saved = dup(2);
	fflush(stderr);
	dup2(fileno(cap_tmp), 2);
}

static char *cap_end(void)
{
	static char out[4096];
	size_t n;

	fflush(stderr);
	dup2(cap_saved, 2);
	close(cap_saved);
	rewind(cap_tmp);
	n = fread(out, 1, sizeof(out) - 1, cap_tmp);
	out[n] = '\0';
	fclose(cap_tmp);
	return out;
}

/* what kp_explain() writes to stderr */
static char *explain(int err, const char *what, const char *subject)
{
	struct kp_dev d;

	memset(&d, 0, sizeof(d));
	d.ver.max_probes = 64;
	d.ver.max_pairs = 4;
	cap_begin();
	kp_explain(&d, what, subject, err);
	return cap_end();
}

/* as explain(), from a module of this ABI with capabilities @caps */
static char *explain_caps(int err, const char *what, const char *subject,
			  uint64_t caps)
{
	struct kp_dev d;

	memset(&d, 0, sizeof(d));
	d.ver.abi_major = KPROF_ABI_MAJOR;
	d.ver.abi_minor = KPROF_ABI_MINOR;
	d.ver.caps = caps;
	d.ver.max_probes = 64;
	cap_begin();
	kp_explain(&d, what, subject, err);
	return cap_end();
}

int main(void)
{
	const char *s;

	/* neither kprobes nor ftrace: no function kind at all */
	s = explain(EOPNOTSUPP, "add", "kprobe:mydrv_probe");
	CHECK(strstr(s, "this kernel has no kprobes (CONFIG_KPROBES=n) and no\n"
		     "  function tracer (CONFIG_FUNCTION_TRACER=n): tracepoints "
		     "and PMU\n  still work;") != NULL, "%s", s);
	s = explain(EOPNOTSUPP, "add", "kretprobe:mydrv_probe");
	CHECK(strstr(s, "CONFIG_KPROBES=n") != NULL, "kretprobe: %s", s);
	/* ftrace alone (the board's stock kernel): what needs kprobes */
	s = explain_caps(EOPNOTSUPP, "add", "kprobe:mydrv:mydrv_xfer+0x10",
			 KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE | KPROF_CAP_FTRACE);
	CHECK(strstr(s, "'kprobe:mydrv:mydrv_xfer+0x10': an instruction offset "
		     "needs kprobes") != NULL && strstr(s, "kprobe:FUNC counts "
		     "the function's calls through\n  ftrace") != NULL, "%s", s);
	s = explain_caps(EOPNOTSUPP, "add", "kretprobe:mydrv_xfer",
			 KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE | KPROF_CAP_FTRACE);
	CHECK(strstr(s, "without --kretprobe, function\n  probes go through "
		     "ftrace") != NULL, "%s", s);
	s = explain_caps(EADDRNOTAVAIL, "add", "kprobe:notrace_fn",
			 KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE | KPROF_CAP_FTRACE);
	CHECK(strstr(s, "'kprobe:notrace_fn' cannot be probed: this kernel has "
		     "no kprobes\n  (CONFIG_KPROBES=n)") != NULL &&
	      strstr(s, "available_filter_functions") != NULL, "%s", s);
	/* with kprobes, the kprobe core's refusal */
	s = explain_caps(EADDRNOTAVAIL, "add", "kprobe:notrace_fn",
			 KPROF_CAP_KPROBE | KPROF_CAP_KRETPROBE |
			 KPROF_CAP_KPROBE_CORE | KPROF_CAP_FTRACE);
	CHECK(strstr(s, "kprobe blacklist") != NULL, "%s", s);

	s = explain(EPERM, "add", "kprobe:x");
	CHECK(strstr(s, "needs root, CAP_PERFMON or CAP_SYS_ADMIN") != NULL,
	      "%s", s);
	s = explain(ENOSPC, "add", "kprobe:x");
	CHECK(strstr(s, "too many probes (max 64)") != NULL, "%s", s);
	s = explain(ENOSPC, "add", "pair:irq");
	CHECK(strstr(s, "too many pair probes (max 4") != NULL, "%s", s);
	s = explain(ENOENT, "add", "tracepoint:foo:bar");
	CHECK(strstr(s, "no tracepoint named in 'tracepoint:foo:bar'") != NULL,
	      "%s", s);
	/* an event no PMU counts (x86 under TCG has none): not a symbol */
	s = explain(ENOENT, "add", "sample:cpu_cycles:hz=99");
	CHECK(strstr(s, "no PMU here counts the event in 'sample:cpu_cycles:hz=99'") != NULL &&
	      !strstr(s, "kallsyms"), "%s", s);
	s = explain(ENOENT, "del", "7");
	CHECK(strstr(s, "no probe with id 7") != NULL, "%s", s);

	/* boot-time specs that did not arm, as status explains them */
	s = kp_boot_reason(ENOENT, "kretprobe:mydrv_probe");
	CHECK(!strncmp(s, "-ENOENT: symbol not found", 25), "%s", s);
	s = kp_boot_reason(ENOENT, "tracepoint:x:y");
	CHECK(strstr(s, "no such tracepoint") != NULL, "%s", s);
	s = kp_boot_reason(EOPNOTSUPP, "kprobe:x");
	CHECK(strstr(s, "CONFIG_KPROBES=n") != NULL, "%s", s);
	s = kp_boot_reason(ENOSPC, "pair:irq");
	CHECK(strstr(s, "max-pairs") != NULL, "%s", s);
	s = kp_boot_reason(ENOSPC, "kprobe:x");
	CHECK(strstr(s, "max-probes") != NULL, "%s", s);
	s = kp_boot_reason(EXDEV, "kprobe:x");
	CHECK(!strncmp(s, "errno 18: ", 10), "%s", s);

	/* which event (the second), on which CPU, why */
	cap_begin();
	kp_explain_pmu("stat", "cpu_cycles,l1d_cache", 2, 5, EBUSY);
	s = cap_end();
	CHECK(strstr(s, "kprofctl stat: PMU event l1d_cache on CPU 5: cannot be "
		     "scheduled") != NULL, "%s", s);
	cap_begin();
	kp_explain_pmu("add", "cycles", 1, 0, ENOENT);
	s = cap_end();
	CHECK(strstr(s, "PMU event cycles on CPU 0: no PMU serves this CPU") !=
	      NULL, "%s", s);
	return unit_done("dev");
}
