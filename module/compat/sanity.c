// SPDX-License-Identifier: GPL-2.0
/* Must always compile: proves the probe flags themselves work. */
#include <linux/module.h>
#include <linux/kprobes.h>

const char *kprof_compat_sanity(void);
const char *kprof_compat_sanity(void)
{
	return THIS_MODULE->name;
}
