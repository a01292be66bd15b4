// SPDX-License-Identifier: GPL-2.0
/* v6.4: a module's text is mod->mem[MOD_TEXT], no longer its core_layout. */
#include <linux/module.h>

void *kprof_compat_probe(struct module *mod);
void *kprof_compat_probe(struct module *mod)
{
	return mod->mem[MOD_INIT_TEXT].base;
}
