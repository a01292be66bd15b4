/* SPDX-License-Identifier: GPL-2.0 */
/* diff --junit: the gates as JUnit XML, which CI test reporters read. */
#ifndef KPROFCTL_JUNIT_H
#define KPROFCTL_JUNIT_H

#include <stdio.h>

#include "diff-gate.h"

/*
 * One test suite, a test case per gate and covered row (classname the
 * gate as given, name the row), failed with the reason; a gate covering
 * nothing is one failed case.  0, or -1 with errno.
 */
int kp_junit_write(FILE *f, const struct kp_gate_res *res, unsigned int n);

#endif
