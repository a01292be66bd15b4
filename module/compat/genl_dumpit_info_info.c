// SPDX-License-Identifier: GPL-2.0
/* v6.2: a dump's parsed attributes moved to genl_dumpit_info->info.attrs. */
#include <net/genetlink.h>

struct nlattr **kprof_compat_probe(struct netlink_callback *cb);
struct nlattr **kprof_compat_probe(struct netlink_callback *cb)
{
	return genl_dumpit_info(cb)->info.attrs;
}
