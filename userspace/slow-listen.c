// SPDX-License-Identifier: GPL-2.0
/*
 * record's ear on the events group.  The module counts every slow call it
 * queues (a probe's ->events): what the recording should hear is that
 * count's growth, so the end waits for it and names the rest lost.
 */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slow-listen.h"
#include "nl.h"
#include "agg.h"
#include "capture.h"
#include "map.h"
#include "util.h"

#define KP_SLOW_WAIT_NS	2000000000ull

static int wanted(const struct kp_slow_listen *l, uint32_t id)
{
	unsigned int i;

	if (!l->nids)
		return 1;
	for (i = 0; i < l->nids && l->ids[i] != id; i++)
		;
	return i < l->nids;
}

/* the recorded probes' queued slow calls; *any: one of them has --slow */
static uint64_t queued(const struct kp_slow_listen *l, const struct kp_map *m,
		       int *any)
{
	unsigned int max = m->hdr->max_probes, n = 0, i;
	struct kprof_probe_info *r = calloc(max ? max : 1, sizeof(*r));
	struct kp_agg *a = malloc(sizeof(*a));
	uint64_t sum = 0;

	if (any)
		*any = 0;
	if (r && a && !kp_map_probes(m, r, max, &n))
		for (i = 0; i < n; i++) {
			if (!wanted(l, r[i].id) || !r[i].slow_ns)
				continue;
			kp_aggregate(m, &r[i], -1, a);
			sum += a->events;
			if (any)
				*any = 1;
		}
	free(a);
	free(r);
	return sum;
}

static int on_slow(struct nl_msg *msg, void *arg)
{
	struct kp_slow_listen *l = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *a[KPROF_GENL_A_MAX + 1];
	struct kp_cap_slow *e;
	uint64_t t;
	char *c;

	if (g->cmd != KPROF_GENL_CMD_SLOW ||
	    genlmsg_parse(nlmsg_hdr(msg), 0, a, KPROF_GENL_A_MAX,
			  kp_nl_policy) ||
	    !a[KPROF_GENL_A_PROBE_ID] || !a[KPROF_GENL_A_CPU] ||
	    !a[KPROF_GENL_A_LATENCY_NS] || !a[KPROF_GENL_A_TIME_NS] ||
	    !a[KPROF_GENL_A_COMM] || !a[KPROF_GENL_A_PID] ||
	    !a[KPROF_GENL_A_TGID])
		return NL_SKIP;
	t = nla_get_u64(a[KPROF_GENL_A_TIME_NS]);
	if (t < l->t0_ns || !wanted(l, nla_get_u32(a[KPROF_GENL_A_PROBE_ID])))
		return NL_SKIP;
	l->heard++;
	if (l->nr == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 256;

		e = realloc(l->ev, cap * sizeof(*e));
		if (!e) {
			l->nomem = 1;
			return NL_SKIP;
		}
		l->ev = e;
		l->cap = cap;
	}
	e = &l->ev[l->nr++];
	memset(e, 0, sizeof(*e));
	e->t_ns = t - l->t0_ns;
	e->latency_ns = nla_get_u64(a[KPROF_GENL_A_LATENCY_NS]);
	e->probe = nla_get_u32(a[KPROF_GENL_A_PROBE_ID]);
	e->cpu = nla_get_u32(a[KPROF_GENL_A_CPU]);
	e->pid = nla_get_u32(a[KPROF_GENL_A_PID]);
	e->tgid = nla_get_u32(a[KPROF_GENL_A_TGID]);
	if (a[KPROF_GENL_A_FTRACE])
		e->ftrace = nla_get_u32(a[KPROF_GENL_A_FTRACE]);
	snprintf(e->comm, sizeof(e->comm), "%s",
		 nla_get_string(a[KPROF_GENL_A_COMM]));
	/* a task names itself: only printable ASCII goes into the file */
	for (c = e->comm; *c; c++)
		if (*c < 0x20 || *c > 0x7e)
			*c = '?';
	return NL_OK;
}

/* everything the socket holds now, without waiting */
static void drain(struct kp_slow_listen *l)
{
	int err;

	do
		err = nl_recvmsgs_default(l->sk);
	while (err >= 0 || err == -NLE_INTR || err == -NLE_NOMEM);
	/* -NLE_NOMEM is ENOBUFS, an overflow: the end counts what it lost */
}

int kp_slow_listen_start(struct kp_slow_listen *l, const struct kp_map *m,
			 const uint32_t *ids, unsigned int nids, uint64_t t0)
{
	int any, family;

	memset(l, 0, sizeof(*l));
	l->ids = ids;
	l->nids = nids;
	queued(l, m, &any);
	if (!any)
		return 0;
	l->sk = kp_nl_events("record", &family);
	if (!l->sk) {
		fprintf(stderr, "kprofctl record: the recording goes on without "
			"its slow calls\n");
		return -1;
	}
	nl_socket_modify_cb(l->sk, NL_CB_VALID, NL_CB_CUSTOM, on_slow, l);
	nl_socket_set_nonblocking(l->sk);
	/* joined first: a call counted from here on is also heard */
	l->queued0 = queued(l, m, NULL);
	l->t0_ns = t0;
	return 1;
}

int kp_slow_listen_sleep(void *ctx, uint64_t now, uint64_t until)
{
	struct kp_slow_listen *l = ctx;
	struct pollfd p = { .fd = nl_socket_get_fd(l->sk), .events = POLLIN };
	uint64_t ms = until == KP_TICK_NEVER || until <= now ? 0 :
		      (until - now + 999999) / 1000000;
	int r;

	r = poll(&p, 1, until == KP_TICK_NEVER ? -1 :
		 ms > INT_MAX ? INT_MAX : (int)ms);
	if (r < 0 && errno != EINTR)
		return -1;
	if (r > 0)
		drain(l);
	return 0;
}

static int by_time(const void *x, const void *y)
{
	const struct kp_cap_slow *a = x, *b = y;

	return a->t_ns < b->t_ns ? -1 : a->t_ns > b->t_ns;
}

void kp_slow_listen_end(struct kp_slow_listen *l, const struct kp_map *m,
			uint64_t end, struct kp_recorder *rec)
{
	uint64_t want = queued(l, m, NULL) - l->queued0, lost;
	uint64_t now = kp_now_ns(), stop = now + KP_SLOW_WAIT_NS;
	size_t i, n = 0;

	/* the module sends from a work item: the last ones may be on the way */
	drain(l);
	while (l->heard < want && now < stop) {
		kp_slow_listen_sleep(l, now, stop);
		now = kp_now_ns();
	}
	lost = l->heard < want ? want - l->heard : 0;
	if (lost)
		fprintf(stderr, "kprofctl record: %llu of %llu slow calls never "
			"reached the recording (its socket overflowed, or the "
			"module did not send them within 2 s)\n",
			(unsigned long long)lost, (unsigned long long)want);
	if (l->nomem) {
		fprintf(stderr, "kprofctl record: out of memory: slow calls "
			"left out of the capture\n");
		lost += l->heard - l->nr;
	}
	/* those after the last snapshot are outside the recording */
	for (i = 0; i < l->nr; i++)
		if (l->ev[i].t_ns <= end - l->t0_ns)
			l->ev[n++] = l->ev[i];
	/* the work item sends CPU by CPU: by time */
	if (n > 1)
		qsort(l->ev, n, sizeof(*l->ev), by_time);
	kp_rec_slow(rec, l->ev, n, lost);
	l->ev = NULL;
	l->nr = l->cap = 0;
}

void kp_slow_listen_free(struct kp_slow_listen *l)
{
	if (l->sk)
		nl_socket_free(l->sk);
	free(l->ev);
	memset(l, 0, sizeof(*l));
}
