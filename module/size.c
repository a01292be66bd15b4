// SPDX-License-Identifier: GPL-2.0
#include <linux/kernel.h>
#include <linux/log2.h>

#include "size.h"

static void (*kprof_size_from)(const struct kprof_size *s);

void kprof_size_source(void (*fn)(const struct kprof_size *s))
{
	kprof_size_from = fn;
}

bool kprof_size_ok(const struct kprof_size *s, unsigned int v)
{
	return v >= s->min && v <= s->max && (!s->pow2 || is_power_of_2(v));
}

int kprof_size_apply(const struct kprof_size *s)
{
	if (kprof_size_from)
		kprof_size_from(s);
	if (kprof_size_ok(s, *s->val))
		return 0;
	pr_err("%s=%u: want %s%u-%u\n", s->param, *s->val,
	       s->pow2 ? "a power of two, " : "", s->min, s->max);
	return -EINVAL;
}
