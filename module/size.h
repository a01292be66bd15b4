/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A sizing module parameter, which the device-tree node's property of the
 * same meaning may set instead: one set of bounds for both.
 */
#ifndef KPROF_SIZE_H
#define KPROF_SIZE_H

#include <linux/types.h>

struct kprof_size {
	const char *param;
	const char *prop;
	unsigned int *val;
	unsigned int dflt, min, max;
	bool pow2;
};

bool kprof_size_ok(const struct kprof_size *s, unsigned int v);
/* Context: module init, before anything is sized from *s->val. */
int kprof_size_apply(const struct kprof_size *s);
/* Where a size may come from besides its parameter (of.c), at init */
void kprof_size_source(void (*fn)(const struct kprof_size *s));

#endif /* KPROF_SIZE_H */
