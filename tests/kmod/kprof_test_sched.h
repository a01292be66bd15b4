/* SPDX-License-Identifier: GPL-2.0 */
/* kprof_test's scheduling scenarios (kprof_test_sched.c) */
#ifndef KPROF_TEST_SCHED_H
#define KPROF_TEST_SCHED_H

/* runs trigger command @cmd (@args words); -ENOENT: not one of these */
int kprof_test_sched_cmd(const char *cmd, int args, unsigned long n,
			 unsigned long a);
void kprof_test_sched_exit(void);

#endif
