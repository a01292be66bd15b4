/* SPDX-License-Identifier: GPL-2.0 */
/* kprof_test's corrupted frame records (kprof_test_corrupt.c) */
#ifndef KPROF_TEST_CORRUPT_H
#define KPROF_TEST_CORRUPT_H

/* runs trigger command @cmd (@args words); -ENOENT: not one of these */
int kprof_test_corrupt_cmd(const char *cmd, int args, unsigned long n,
			   unsigned long a, unsigned long b);

#endif
