// SPDX-License-Identifier: GPL-2.0
/* v6.1: families say from which command on validation is strict. */
#include <net/genetlink.h>

int kprof_compat_probe(struct genl_family *f);
int kprof_compat_probe(struct genl_family *f)
{
	return f->resv_start_op;
}
