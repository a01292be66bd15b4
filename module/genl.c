// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink family "kprofctl": a probe dump, and the "events"
 * multicast group for slow calls and probe lifecycle.  Everything here
 * runs in process context: probe context only ever fills a ring
 * (events.c).
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "genl.h"
#include "core.h"

static const struct nla_policy kprof_genl_policy[KPROF_GENL_A_MAX + 1] = {
	[KPROF_GENL_A_PAD]		= { .type = NLA_REJECT },
	[KPROF_GENL_A_PROBE_ID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SPEC]		= { .type = NLA_NUL_STRING,
					    .len = KPROF_SPEC_LEN - 1 },
	[KPROF_GENL_A_TYPE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_STATE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_HITS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_NMISSED]		= { .type = NLA_U64 },
	[KPROF_GENL_A_SLOW_NS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_DROPPED]		= { .type = NLA_U64 },
	[KPROF_GENL_A_CPU]		= { .type = NLA_U32 },
	[KPROF_GENL_A_PID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_TGID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_COMM]		= { .type = NLA_NUL_STRING,
					    .len = TASK_COMM_LEN - 1 },
	[KPROF_GENL_A_LATENCY_NS]	= { .type = NLA_U64 },
	[KPROF_GENL_A_TIME_NS]		= { .type = NLA_U64 },
	[KPROF_GENL_A_KEY]		= { .type = NLA_U64 },
	[KPROF_GENL_A_STACK]		= { .type = NLA_BINARY,
					    .len = KPROF_STACK_DEPTH *
						   sizeof(__u64) },
	[KPROF_GENL_A_EVENT]		= { .type = NLA_U32 },
	[KPROF_GENL_A_FTRACE]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SITE_ID]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SITE]		= { .type = NLA_NUL_STRING,
					    .len = KPROF_SYM_LEN - 1 },
	[KPROF_GENL_A_KIND]		= { .type = NLA_U32 },
	[KPROF_GENL_A_SIZE]		= { .type = NLA_U64 },
	[KPROF_GENL_A_AGE_NS]		= { .type = NLA_U64 },
};

static int kprof_genl_dump(struct sk_buff *skb, struct netlink_callback *cb);

static const struct genl_small_ops kprof_genl_ops[] = {
	{
		.cmd	= KPROF_GENL_CMD_GET_PROBES,
		.flags	= GENL_ADMIN_PERM,
		.dumpit	= kprof_genl_dump,
	},
};

static const struct genl_multicast_group kprof_genl_mcgrps[] = {
	{ .name = KPROF_GENL_MCGRP, .flags = GENL_MCAST_CAP_SYS_ADMIN },
};

/* Joining "events" needs CAP_SYS_ADMIN: only then may stacks go out. */
bool kprof_genl_restricted(void)
{
	return kprof_genl_mcgrps[0].flags & GENL_MCAST_CAP_SYS_ADMIN;
}

static struct genl_family kprof_genl_family __ro_after_init = {
	.name		= KPROF_GENL_NAME,
	.version	= KPROF_GENL_VERSION,
	.maxattr	= KPROF_GENL_A_MAX,
	.policy		= kprof_genl_policy,
	.module		= THIS_MODULE,
	.small_ops	= kprof_genl_ops,
	.n_small_ops	= ARRAY_SIZE(kprof_genl_ops),
	.mcgrps		= kprof_genl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(kprof_genl_mcgrps),
	KPROF_GENL_RESV_START_OP(KPROF_GENL_CMD_GET_PROBES)
};

static int kprof_put_u64(struct sk_buff *skb, int attr, u64 v)
{
	return nla_put_u64_64bit(skb, attr, v, KPROF_GENL_A_PAD);
}

struct kprof_dump_ctx {
	struct kprof_info_walk walk;
	struct sk_buff *skb;
	struct netlink_callback *cb;
};

/* One probe into the dump; nonzero when the skb is full. */
static int kprof_genl_dump_one(struct kprof_info_walk *w,
			       const struct kprof_probe_info *i, u64 dropped)
{
	struct kprof_dump_ctx *c = container_of(w, struct kprof_dump_ctx, walk);
	void *hdr;

	hdr = genlmsg_put(c->skb, NETLINK_CB(c->cb->skb).portid,
			  c->cb->nlh->nlmsg_seq, &kprof_genl_family,
			  NLM_F_MULTI, KPROF_GENL_CMD_GET_PROBES);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_u32(c->skb, KPROF_GENL_A_PROBE_ID, i->id) ||
	    nla_put_string(c->skb, KPROF_GENL_A_SPEC, i->spec) ||
	    nla_put_u32(c->skb, KPROF_GENL_A_TYPE, i->type) ||
	    nla_put_u32(c->skb, KPROF_GENL_A_STATE, i->state) ||
	    kprof_put_u64(c->skb, KPROF_GENL_A_HITS, i->hits) ||
	    kprof_put_u64(c->skb, KPROF_GENL_A_NMISSED, i->nmissed) ||
	    kprof_put_u64(c->skb, KPROF_GENL_A_SLOW_NS, i->slow_ns) ||
	    kprof_put_u64(c->skb, KPROF_GENL_A_DROPPED, dropped)) {
		genlmsg_cancel(c->skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(c->skb, hdr);
	return 0;
}

/* cb->args[0]: the next probe slot */
static int kprof_genl_dump(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct nlattr **attrs = kprof_genl_dump_attrs(cb);
	struct kprof_dump_ctx c = {
		.walk.fn = kprof_genl_dump_one, .skb = skb, .cb = cb,
	};
	const char *spec = NULL;
	u32 slot = cb->args[0], id = 0;
	int ret;

	if (attrs[KPROF_GENL_A_PROBE_ID])
		id = nla_get_u32(attrs[KPROF_GENL_A_PROBE_ID]);
	if (attrs[KPROF_GENL_A_SPEC])
		spec = nla_data(attrs[KPROF_GENL_A_SPEC]);
	ret = kprof_walk_infos(&slot, id, spec, &c.walk);
	cb->args[0] = slot;
	/* a full skb ends this part of the dump; the rest comes next call */
	if (ret == -EMSGSIZE)
		return skb->len;
	return ret ? ret : skb->len;
}

/* A multicast message for cmd, or NULL: nobody listens, or no memory. */
static struct sk_buff *kprof_genl_new_size(u8 cmd, void **hdr, size_t size)
{
	struct sk_buff *skb;

	if (!genl_has_listeners(&kprof_genl_family, &init_net, 0))
		return NULL;
	skb = genlmsg_new(size, GFP_KERNEL);
	if (!skb)
		return NULL;
	*hdr = genlmsg_put(skb, 0, 0, &kprof_genl_family, 0, cmd);
	if (!*hdr) {
		nlmsg_free(skb);
		return NULL;
	}
	return skb;
}

static struct sk_buff *kprof_genl_new(u8 cmd, void **hdr)
{
	return kprof_genl_new_size(cmd, hdr, NLMSG_GOODSIZE);
}

static void kprof_genl_send(struct sk_buff *skb, void *hdr)
{
	genlmsg_end(skb, hdr);
	genlmsg_multicast(&kprof_genl_family, skb, 0, 0, GFP_KERNEL);
}

/* Context: process (the drain work). */
void kprof_genl_slow(const struct kprof_evrec *rec, unsigned int cpu)
{
	struct sk_buff *skb;
	void *hdr;
	u64 stack[KPROF_STACK_DEPTH];
	u32 i;

	skb = kprof_genl_new(KPROF_GENL_CMD_SLOW, &hdr);
	if (!skb)
		return;
	if (nla_put_u32(skb, KPROF_GENL_A_PROBE_ID, rec->probe_id) ||
	    nla_put_u32(skb, KPROF_GENL_A_CPU, cpu) ||
	    nla_put_u32(skb, KPROF_GENL_A_PID, rec->pid) ||
	    nla_put_u32(skb, KPROF_GENL_A_TGID, rec->tgid) ||
	    nla_put_string(skb, KPROF_GENL_A_COMM, rec->comm) ||
	    kprof_put_u64(skb, KPROF_GENL_A_LATENCY_NS, rec->latency_ns) ||
	    kprof_put_u64(skb, KPROF_GENL_A_TIME_NS, rec->time_ns) ||
	    (rec->has_key &&
	     kprof_put_u64(skb, KPROF_GENL_A_KEY, rec->key)) ||
	    (rec->ftrace &&
	     nla_put_u32(skb, KPROF_GENL_A_FTRACE, rec->ftrace)))
		goto free;
	if (rec->nr_stack) {
		for (i = 0; i < rec->nr_stack && i < KPROF_STACK_DEPTH; i++)
			stack[i] = rec->stack[i];
		if (nla_put(skb, KPROF_GENL_A_STACK, i * sizeof(u64), stack))
			goto free;
	}
	kprof_genl_send(skb, hdr);
	return;
free:
	nlmsg_free(skb);
}

/* Context: process, any lock but none that genetlink takes. */
void kprof_genl_probe(u32 event, const struct kprof_probe *p, u64 dropped,
		      u64 nmissed)
{
	struct sk_buff *skb;
	void *hdr;

	skb = kprof_genl_new(KPROF_GENL_CMD_PROBE, &hdr);
	if (!skb)
		return;
	if (nla_put_u32(skb, KPROF_GENL_A_EVENT, event) ||
	    nla_put_u32(skb, KPROF_GENL_A_PROBE_ID, p->id) ||
	    nla_put_string(skb, KPROF_GENL_A_SPEC, p->spec) ||
	    nla_put_u32(skb, KPROF_GENL_A_STATE, p->state) ||
	    (event == KPROF_GENL_EV_LOSSES &&
	     (kprof_put_u64(skb, KPROF_GENL_A_DROPPED, dropped) ||
	      kprof_put_u64(skb, KPROF_GENL_A_NMISSED, nmissed))))
		goto free;
	kprof_genl_send(skb, hdr);
	return;
free:
	nlmsg_free(skb);
}

/* Context: process, under the core's lock (MOD going). */
void kprof_genl_leak(const struct kprof_probe *p, const struct kprof_leak *l)
{
	struct sk_buff *skb;
	void *hdr;

	/* a small message each: an unload may leak thousands */
	skb = kprof_genl_new_size(KPROF_GENL_CMD_LEAK, &hdr,
				  nla_total_size(KPROF_SYM_LEN) + 128);
	if (!skb)
		return;
	if (nla_put_u32(skb, KPROF_GENL_A_PROBE_ID, p->id) ||
	    nla_put_u32(skb, KPROF_GENL_A_SITE_ID, l->site) ||
	    nla_put_u32(skb, KPROF_GENL_A_KIND, l->kind) ||
	    kprof_put_u64(skb, KPROF_GENL_A_SIZE, l->size) ||
	    kprof_put_u64(skb, KPROF_GENL_A_AGE_NS, l->age_ns) ||
	    (l->name && l->name[0] && kprof_genl_restricted() &&
	     nla_put_string(skb, KPROF_GENL_A_SITE, l->name)))
		goto free;
	kprof_genl_send(skb, hdr);
	return;
free:
	nlmsg_free(skb);
}

int kprof_genl_init(void)
{
	return genl_register_family(&kprof_genl_family);
}

void kprof_genl_exit(void)
{
	genl_unregister_family(&kprof_genl_family);
}
