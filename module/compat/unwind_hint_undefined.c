// SPDX-License-Identifier: GPL-2.0
/* v6.4: objtool's UNWIND_HINT_EMPTY became UNWIND_HINT_UNDEFINED. */
#include <linux/objtool.h>

int kprof_compat_probe(void);
int kprof_compat_probe(void)
{
	return UNWIND_HINT_TYPE_UNDEFINED;
}
