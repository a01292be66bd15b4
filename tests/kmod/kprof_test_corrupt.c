// SPDX-License-Identifier: GPL-2.0
/*
 * kprof_test's corrupted frame records (tests/vm/guest/corrupt.sh), arm64:
 *   corrupt MODE N ITERS   kprof_test_corrupt() breaks the link to its
 *                          caller's frame in its own frame record, calls
 *                          kprof_test_corrupt_leaf(ITERS) N times, and
 *                          mends the record before it returns.  MODE 1: a
 *                          misaligned x29; 2: a loop (the record points
 *                          at itself); 3: a pointer off the stack
 * Any walk of the stack meanwhile ends at kprof_test_corrupt_cmd.
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/errno.h>
#include <linux/compiler.h>

#include "kprof_test_corrupt.h"

#ifdef CONFIG_ARM64
/* what mode 3's x29 points at: kernel data, on no stack */
static unsigned long kprof_test_off_stack[4];
/* the loops' sums: kept, so that no call of the leaf is optimised away */
static u64 kprof_test_corrupt_sum;

noinline u64 kprof_test_corrupt_leaf(u64 iters);
noinline u64 kprof_test_corrupt_leaf(u64 iters)
{
	u64 i, sum = 0;

	for (i = 0; i < iters; i++) {
		sum += i ^ (sum >> 3);
		/* not a const function: each call is made */
		barrier();
	}
	return sum;
}

static noinline u64 kprof_test_corrupt(unsigned int mode, unsigned long n,
				       unsigned long iters)
{
	/* this function's frame record: {the caller's x29, our x30} */
	unsigned long *rec = __builtin_frame_address(0);
	unsigned long saved = READ_ONCE(rec[0]), bad;
	unsigned long i;
	u64 sum = 0;

	if (mode == 1)
		bad = saved + 4;
	else if (mode == 2)
		bad = (unsigned long)rec;
	else
		bad = (unsigned long)kprof_test_off_stack;
	WRITE_ONCE(rec[0], bad);
	barrier();
	for (i = 0; i < n; i++)
		sum += kprof_test_corrupt_leaf(iters);
	barrier();
	/* the epilogue loads x29 from here: mended first */
	WRITE_ONCE(rec[0], saved);
	return sum;
}

noinline int kprof_test_corrupt_cmd(const char *cmd, int args,
				    unsigned long n, unsigned long a,
				    unsigned long b)
{
	if (strcmp(cmd, "corrupt"))
		return -ENOENT;
	if (args != 4 || n < 1 || n > 3 || a > 100000 || b > 100000000)
		return -EINVAL;
	WRITE_ONCE(kprof_test_corrupt_sum, kprof_test_corrupt(n, a, b));
	return 0;
}
#else
int kprof_test_corrupt_cmd(const char *cmd, int args, unsigned long n,
			   unsigned long a, unsigned long b)
{
	return -ENOENT;
}
#endif
