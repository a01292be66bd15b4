// SPDX-License-Identifier: GPL-2.0
/* v6.7, backported to 6.1.y: multicast groups that need a capability. */
#include <net/genetlink.h>

int kprof_compat_probe(void);
int kprof_compat_probe(void)
{
	return GENL_MCAST_CAP_SYS_ADMIN;
}
