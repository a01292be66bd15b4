// SPDX-License-Identifier: GPL-2.0
/*
 * How a kernel stack's frame is named (frames.h): from kallsyms, or the
 * process of a sample taken in user mode.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frames.h"

/* /proc/PID/comm, or "pid N" once the process is gone */
static void proc_name(uint64_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%" PRIu64 "/comm", pid);
	f = fopen(path, "r");
	if (f && fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = '\0';
		fclose(f);
		if (buf[0])
			return;
	} else if (f) {
		fclose(f);
	}
	snprintf(buf, len, "pid %" PRIu64, pid);
}

const char *kp_user_frame(const uint64_t *fr, unsigned int depth,
			  unsigned int i, char *buf, size_t len)
{
	char comm[2 * sizeof(uint64_t) + 1] = "";
	size_t k;

	if (i > 1 || (i == 1 && (depth < 4 || !fr[1])))
		return NULL;
	if (i == 0)
		return "[user]";
	memcpy(comm, &fr[2], 2 * sizeof(uint64_t));
	for (k = 0; comm[k]; k++)
		if ((unsigned char)comm[k] < 0x20 || comm[k] == ';')
			comm[k] = '?';
	if (comm[0])
		snprintf(buf, len, "%s", comm);
	else
		proc_name(fr[1], buf, len);
	return buf;
}

const char *kp_frame_name(const struct kp_syms *s,
			  const struct kprof_probe_info *r, const uint64_t *fr,
			  unsigned int depth, unsigned int i, unsigned int flags,
			  char *buf, size_t len)
{
	const struct kp_sym *k;
	uint64_t pc;

	if (i >= depth || !fr[i])
		return NULL;
	/* a sample taken in user mode: no kernel stack */
	if (fr[0] == KPROF_FRAME_USER)
		return kp_user_frame(fr, depth, i, buf, len);
	pc = fr[i];
	/* a mem probe's frame in its module's text, gone: "[MOD]" */
	if (pc == KPROF_FRAME_GONE) {
		snprintf(buf, len, "[%s]", r && r->type == KPROF_TYPE_MEM &&
			 !strncmp(r->spec, "mem:", 4) ? r->spec + 4 : "gone");
		return buf;
	}
	/*
	 * A return address is the instruction after the call, which is the
	 * next function's first when the call ends its function (a noreturn
	 * callee): the call is looked up.
	 */
	k = kp_sym_find(s, kp_frame_is_pc(r, i) ? pc : pc - 1);
	if (!k) {
		if (!(flags & KP_FRAME_FUNC))
			return NULL;
		snprintf(buf, len, "[unknown]");
	} else if (flags & KP_FRAME_FUNC) {
		snprintf(buf, len, "%s", k->name);
	} else {
		snprintf(buf, len, "%s+0x%" PRIx64, k->name, pc - k->addr);
	}
	return buf;
}
