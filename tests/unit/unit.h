/* SPDX-License-Identifier: GPL-2.0 */
/* Tiny test harness: CHECK() counts, the last line is "N passed, N failed". */
#ifndef KPROF_UNIT_H
#define KPROF_UNIT_H

#include <stdio.h>

static int unit_pass, unit_fail;

#define CHECK(cond, ...) do {						\
		if (cond) {						\
			unit_pass++;					\
		} else {						\
			unit_fail++;					\
			printf("FAIL %s:%d: ", __FILE__, __LINE__);	\
			printf(__VA_ARGS__);				\
			printf("\n");					\
		}							\
	} while (0)

static inline int unit_done(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, unit_pass, unit_fail);
	return unit_fail ? 1 : 0;
}

/* xorshift64*: reproducible random data */
static unsigned long long unit_rng = 0x9e3779b97f4a7c15ULL;

static inline unsigned long long unit_rand(void)
{
	unit_rng ^= unit_rng >> 12;
	unit_rng ^= unit_rng << 25;
	unit_rng ^= unit_rng >> 27;
	return unit_rng * 2685821657736338717ULL;
}

#endif
