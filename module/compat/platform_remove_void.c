// SPDX-License-Identifier: GPL-2.0
/* v6.11: platform_driver.remove returns void. */
#include <linux/platform_device.h>

static void kprof_compat_remove(struct platform_device *pdev)
{
}

struct platform_driver kprof_compat_probe = {
	.remove = kprof_compat_remove,
};
