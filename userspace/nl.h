/* SPDX-License-Identifier: GPL-2.0 */
/* The module's generic netlink family (libnl-genl-3): open it, join its events. */
#ifndef KPROFCTL_NL_H
#define KPROFCTL_NL_H

#include <netlink/genl/genl.h>

#include "uapi/linux/kprofctl.h"

extern struct nla_policy kp_nl_policy[KPROF_GENL_A_MAX + 1];

/* A socket of the family (*family its id), or NULL after why as cmd */
struct nl_sock *kp_nl_open(const char *cmd, int *family);
/*
 * The same, joined to the events group with a large receive buffer;
 * NULL after why (no module, no group, no CAP_SYS_ADMIN)
 */
struct nl_sock *kp_nl_events(const char *cmd, int *family);

#endif
