// SPDX-License-Identifier: GPL-2.0
/*
 * --snapshot[=N], --trace-off and --mark[=INSTANCE] (ABI 1.14): checked
 * here so that a mistake is a usage error before the module sees it, and
 * the module's refusals (it claims ftrace's snapshot buffer when the probe
 * is added) are told as what to do.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ftrace-act.h"
#include "units.h"

/* an instance name as tracefs takes it: one path component */
static int instance_ok(const char *s)
{
	return *s && strlen(s) < KPROF_INSTANCE_LEN && !strchr(s, '/') &&
	       strcmp(s, ".") && strcmp(s, "..");
}

int kp_ftrace_opt(int which, const char *arg, struct kp_ftrace_opts *f,
		  char *err, size_t len)
{
	uint64_t v;

	switch (which) {
	case KP_FT_OPT_SNAPSHOT:
		if (arg && (kp_parse_u64(arg, 1, UINT32_MAX, &v))) {
			snprintf(err, len, "--snapshot=N takes a count of "
				 "freezes (1-%u), not '%s'", UINT32_MAX, arg);
			return -1;
		}
		f->flags |= KPROF_FT_SNAPSHOT;
		f->max = arg ? (uint32_t)v : 1;
		return 0;
	case KP_FT_OPT_TRACE_OFF:
		f->flags |= KPROF_FT_TRACE_OFF;
		return 0;
	case KP_FT_OPT_MARK:
		if (arg && !instance_ok(arg)) {
			snprintf(err, len, "--mark=INSTANCE takes the name of "
				 "an ftrace instance (a directory under "
				 "/sys/kernel/tracing/instances, 1-%d "
				 "characters, no '/'), not '%s'",
				 KPROF_INSTANCE_LEN - 1, arg);
			return -1;
		}
		f->flags |= KPROF_FT_MARK;
		snprintf(f->instance, sizeof(f->instance), "%s", arg ? arg : "");
		return 0;
	}
	snprintf(err, len, "unknown ftrace option");
	return -1;
}

int kp_ftrace_fill(const struct kp_ftrace_opts *f, uint64_t slow_ns,
		   unsigned int abi_minor, struct kprof_probe_add *a,
		   char *err, size_t len)
{
	if (!f->flags)
		return 0;
	if ((f->flags & KPROF_FT_SNAPSHOT) && (f->flags & KPROF_FT_TRACE_OFF)) {
		snprintf(err, len, "give one of --snapshot and --trace-off: "
			 "a stopped buffer is not swapped");
		return 2;
	}
	if (!slow_ns) {
		snprintf(err, len, "--snapshot, --trace-off and --mark act on "
			 "slow calls: give --slow LAT too");
		return 2;
	}
	if (abi_minor < 14) {
		snprintf(err, len, "this module cannot act on ftrace (its ABI "
			 "is 1.%u, --snapshot, --trace-off and --mark need "
			 "1.14): load a newer kprofctl.ko", abi_minor);
		return 1;
	}
	a->flags |= KPROF_ADD_FTRACE;
	a->ftrace.flags = f->flags;
	a->ftrace.max = f->flags & KPROF_FT_SNAPSHOT ? f->max : 0;
	memcpy(a->ftrace.instance, f->instance, sizeof(a->ftrace.instance));
	return 0;
}

const char *kp_ftrace_refusal(const struct kprof_probe_add *a, int err)
{
	uint32_t ft = a->ftrace.flags;

	if (!(a->flags & KPROF_ADD_FTRACE))
		return NULL;
	if (err == EBUSY && (ft & KPROF_FT_SNAPSHOT))
		return "--snapshot refused: ftrace's snapshot buffer is in "
		       "use by a latency tracer (current_tracer irqsoff, "
		       "wakeup...), a hist trigger's snapshot() action, or "
		       "another probe's --snapshot ('kprofctl list'); free it "
		       "first, or use --trace-off";
	if (err == ENODEV && (ft & KPROF_FT_SNAPSHOT))
		return "--snapshot refused: this kernel is built without "
		       "CONFIG_TRACER_SNAPSHOT, so ftrace has no snapshot "
		       "buffer; --trace-off and --mark work without it";
	if (err == ENOMEM && (ft & KPROF_FT_SNAPSHOT))
		return "--snapshot refused: no memory for the snapshot buffer, "
		       "which is as large as the trace buffer; lower "
		       "/sys/kernel/tracing/buffer_size_kb or use --trace-off";
	if (err == ENOENT && (ft & KPROF_FT_MARK) && a->ftrace.instance[0])
		return "--mark refused: no such ftrace instance; create it "
		       "first (mkdir /sys/kernel/tracing/instances/NAME)";
	return NULL;
}

const char *kp_ftrace_did(uint32_t ft, char *buf, size_t len)
{
	static const struct {
		uint32_t bit;
		const char *words;
	} said[] = {
		{ KPROF_GENL_FT_FROZE, "froze ftrace's snapshot" },
		{ KPROF_GENL_FT_STOPPED, "stopped tracing" },
		{ KPROF_GENL_FT_MARKED, "marked" },
		{ KPROF_GENL_FT_SPENT, "not frozen: --snapshot's count spent" },
		{ KPROF_GENL_FT_NMI, "not frozen: NMI context" },
		{ KPROF_GENL_FT_NOT_TAKEN, "not frozen: ftrace was stopped" },
	};
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(said) / sizeof(said[0]) && n < len; i++)
		if (ft & said[i].bit)
			n += (size_t)snprintf(buf + n, len - n, "%s%s",
					      n ? ", " : "", said[i].words);
	return buf;
}
