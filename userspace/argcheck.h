/* SPDX-License-Identifier: GPL-2.0 */
/* A command's arguments checked against its option table, before the device. */
#ifndef KPROFCTL_ARGCHECK_H
#define KPROFCTL_ARGCHECK_H

#include "util.h"

/*
 * argv (argv[0] the command's name) against c's options: an unknown
 * option, one without its value, or no operand where c->args starts with
 * a required one ("SPEC", "ID|all") is a usage error.  0, or 2 after the
 * message (kp_bad_usage).  Commands parse again themselves; this only
 * keeps "module not loaded" from answering a typo.
 */
int kp_args_check(const struct kp_cmd *c, int argc, char **argv);

#endif
