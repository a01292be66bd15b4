/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions of a set: "[MOD:]GLOB" resolved in a symbol table (the
 * module's own, or the core kernel's), sorted by name, and the lock-free
 * lookup from a hooked address back to a function.
 */
#ifndef KPROF_FUNCS_H
#define KPROF_FUNCS_H

#include <linux/types.h>
#include <linux/hash.h>
#include <linux/module.h>

#include "../uapi/linux/kprofctl.h"

struct kobject;

/* A function of a set, private to the module (no address is published). */
struct kprof_fn {
	unsigned long addr;
	unsigned long size;
	u32 flags;			/* KPROF_FUNC_* */
	u16 reason;			/* KPROF_SKIP_* */
	s16 error;
	char name[KPROF_FUNC_NAME_LEN];
};

/* "[MOD:]GLOB" into its parts; -EINVAL if malformed. */
int kprof_funcs_parse(const char *arg, char *mod, size_t mod_len,
		      char *glob, size_t glob_len);

/*
 * Context: process.  Module @name if it is loaded (from its COMING
 * notification on), held so that it cannot be freed until
 * kprof_funcs_module_put(); NULL if it is not.
 */
struct module *kprof_funcs_module_get(const char *name, struct kobject **ref);
void kprof_funcs_module_put(struct kobject *ref);

/*
 * Context: process.  The functions of @mod (NULL: the core kernel) that
 * @glob matches, sorted by name, in a kvmalloc'd array; at most @max
 * (-E2BIG past it), -ENOENT for none.
 */
int kprof_funcs_resolve(struct module *mod, const char *glob, u32 max,
			struct kprof_fn **fns, u32 *nr);

/*
 * Context: process.  The address of function "[MOD:]NAME": -ENOENT if
 * there is none (or MOD is not loaded).
 */
int kprof_funcs_lookup(const char *sym, unsigned long *addr);

/* From a hooked address (an ftrace call site) to its function's index */
struct kprof_fnhash {
	unsigned long *ips;
	u32 *idx;
	u32 bits;
};

int kprof_fnhash_build(struct kprof_fnhash *h, const struct kprof_fn *fns,
		       u32 nr);
void kprof_fnhash_free(struct kprof_fnhash *h);

/*
 * Context: any probe context.  Open addressing, at most half full: O(1)
 * expected, and a miss ends at an empty entry.  U32_MAX: not in the set.
 */
static __always_inline u32 kprof_fnhash_find(const struct kprof_fnhash *h,
					     unsigned long ip)
{
	u32 mask = (1U << h->bits) - 1;
	u32 i = hash_long(ip, h->bits);

	for (;; i = (i + 1) & mask) {
		unsigned long k = h->ips[i];

		if (k == ip)
			return h->idx[i];
		if (!k)
			return U32_MAX;
	}
}

/* built for the kprobe core or ftrace (Kbuild) */
#if defined(CONFIG_KPROBES) || defined(CONFIG_DYNAMIC_FTRACE)
int kprof_funcs_init(void);
void kprof_funcs_exit(void);
#else
static inline int kprof_funcs_init(void)
{
	return 0;
}

static inline void kprof_funcs_exit(void)
{
}
#endif

#endif /* KPROF_FUNCS_H */
