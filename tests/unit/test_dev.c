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

int main(void)
{
	const char *s;

	s = explain(EOPNOTSUPP, "add", "kprobe:mydrv_probe");
	CHECK(strstr(s, "this kernel has no kprobes (CONFIG_KPROBES=n): "
		     "tracepoints and PMU still work;") != NULL, "%s", s);
	CHECK(strstr(s, "to enable kprobes rebuild the kernel with "
		     "CONFIG_KPROBES=y and CONFIG_KRETPROBES=y") != NULL, "%s", s);
	s = explain(EOPNOTSUPP, "add", "kretprobe:mydrv_probe");
	CHECK(strstr(s, "CONFIG_KPROBES=n") != NULL, "kretprobe: %s", s);

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
