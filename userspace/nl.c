// SPDX-License-Identifier: GPL-2.0
/* The module's generic netlink family: watch, list --netlink, record. */
#include <stdio.h>
#include <sys/socket.h>

#include <netlink/genl/ctrl.h>

#include "nl.h"

struct nla_policy kp_nl_policy[KPROF_GENL_A_MAX + 1] = {
	[KPROF_GENL_A_PROBE_ID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SPEC]		= { .type = NLA_STRING },
	[KPROF_GENL_A_TYPE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_STATE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_HITS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_NMISSED]		= { .type = NLA_U64 },
	[KPROF_GENL_A_SLOW_NS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_DROPPED]		= { .type = NLA_U64 },
	[KPROF_GENL_A_CPU]		= { .type = NLA_U32 },
	[KPROF_GENL_A_PID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_TGID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_COMM]		= { .type = NLA_STRING },
	[KPROF_GENL_A_LATENCY_NS]	= { .type = NLA_U64 },
	[KPROF_GENL_A_TIME_NS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_KEY]		= { .type = NLA_U64 },
	[KPROF_GENL_A_EVENT]		= { .type = NLA_U32 },
	[KPROF_GENL_A_FTRACE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SITE_ID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SITE]		= { .type = NLA_STRING },
	[KPROF_GENL_A_KIND]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SIZE]		= { .type = NLA_U64 },
	[KPROF_GENL_A_AGE_NS]		= { .type = NLA_U64 },
};

struct nl_sock *kp_nl_open(const char *cmd, int *family)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (!sk) {
		fprintf(stderr, "kprofctl %s: out of memory\n", cmd);
		return NULL;
	}
	if (genl_connect(sk)) {
		fprintf(stderr, "kprofctl %s: cannot open a generic netlink "
			"socket\n", cmd);
		nl_socket_free(sk);
		return NULL;
	}
	*family = genl_ctrl_resolve(sk, KPROF_GENL_NAME);
	if (*family < 0) {
		fprintf(stderr, "kprofctl %s: no generic netlink family '%s': "
			"is kprofctl.ko (ABI 1.4 or later) loaded?\n", cmd,
			KPROF_GENL_NAME);
		nl_socket_free(sk);
		return NULL;
	}
	return sk;
}

struct nl_sock *kp_nl_events(const char *cmd, int *family)
{
	struct nl_sock *sk = kp_nl_open(cmd, family);
	int grp, err, rcvbuf = 8 << 20;

	if (!sk)
		return NULL;
	grp = genl_ctrl_resolve_grp(sk, KPROF_GENL_NAME, KPROF_GENL_MCGRP);
	if (grp < 0) {
		fprintf(stderr, "kprofctl %s: no '%s' group: %s\n", cmd,
			KPROF_GENL_MCGRP, nl_geterror(grp));
		goto fail;
	}
	nl_socket_disable_seq_check(sk);
	/* bursts of events: a large buffer (forced when privileged) */
	if (setsockopt(nl_socket_get_fd(sk), SOL_SOCKET, SO_RCVBUFFORCE,
		       &rcvbuf, sizeof(rcvbuf)))
		nl_socket_set_buffer_size(sk, rcvbuf, 0);
	err = nl_socket_add_membership(sk, grp);
	if (err) {
		fprintf(stderr, "kprofctl %s: cannot join the '%s' group: %s "
			"(it needs CAP_SYS_ADMIN)\n", cmd, KPROF_GENL_MCGRP,
			nl_geterror(err));
		goto fail;
	}
	return sk;
fail:
	nl_socket_free(sk);
	return NULL;
}
