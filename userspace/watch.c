// SPDX-License-Identifier: GPL-2.0
/*
 * The netlink side of the CLI (libnl-genl-3): "watch" prints the events
 * group, "list --netlink" dumps the probes.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/genl/genl.h>
#include <netlink/genl/ctrl.h>

#include "watch.h"
#include "nl.h"
#include "pmu.h"
#include "show-set.h"
#include "spec.h"
#include "agg.h"
#include "util.h"
#include "frames.h"
#include "json.h"
#include "ftrace-act.h"
#include "syms.h"

static volatile sig_atomic_t kp_stop;

static void kp_on_signal(int sig)
{
	(void)sig;
	kp_stop = 1;
}

/* ---- watch ------------------------------------------------------------ */

/* a probe's spec, learnt from its registered event or the mapping */
struct kp_spec {
	uint32_t id;
	char spec[KPROF_SPEC_LEN];
};

struct kp_watch_ctx {
	const struct kp_watch_opts *o;
	struct kp_topo topo;
	struct kp_syms syms;
	struct kp_spec *specs;
	size_t nspecs, capspecs;
	struct kprof_probe_info *recs;	/* the mapping's table, on a miss */
	int nrecs;			/* as last read; -1 if it failed */
	uint64_t seen;		/* slow events printed + drops reported */
	int family;
};

static const char *ev_name(uint32_t ev)
{
	switch (ev) {
	case KPROF_GENL_EV_REGISTERED: return "registered";
	case KPROF_GENL_EV_UNREGISTERED: return "unregistered";
	case KPROF_GENL_EV_GONE: return "gone";
	case KPROF_GENL_EV_LOSSES: return "losses";
	default: return "unknown";
	}
}

static struct kp_spec *spec_find(struct kp_watch_ctx *c, uint32_t id)
{
	size_t i;

	for (i = 0; i < c->nspecs; i++)
		if (c->specs[i].id == id)
			return &c->specs[i];
	return NULL;
}

static void spec_set(struct kp_watch_ctx *c, uint32_t id, const char *spec)
{
	struct kp_spec *e = spec_find(c, id);

	if (!e) {
		if (c->nspecs == c->capspecs) {
			size_t cap = c->capspecs ? c->capspecs * 2 : 16;

			e = realloc(c->specs, cap * sizeof(*e));
			if (!e)
				return;
			c->specs = e;
			c->capspecs = cap;
		}
		e = &c->specs[c->nspecs++];
		e->id = id;
	}
	snprintf(e->spec, sizeof(e->spec), "%s", spec);
}

/*
 * The spec of probe id: slow calls carry only the id.  A probe added
 * before watch started is looked up in the statistics mapping; "?" if it
 * is gone from there too (deleted before its events were read).
 */
/* The mapping's probe table read afresh into c->recs: how many, or -1. */
static int read_recs(struct kp_watch_ctx *c)
{
	const struct kp_map *m = c->o->map;
	unsigned int n;

	if (!m || !m->hdr)
		return -1;
	if (!c->recs)
		c->recs = calloc(m->hdr->max_probes, sizeof(*c->recs));
	if (!c->recs || kp_map_probes(m, c->recs, m->hdr->max_probes, &n))
		return c->nrecs = -1;
	return c->nrecs = (int)n;
}

/*
 * Probe id's record (its spec that of the event's probe), as last read or
 * else read afresh, so that events do not each copy the table; NULL if
 * the mapping has none.
 */
static const struct kprof_probe_info *probe_rec(struct kp_watch_ctx *c,
						uint32_t id, const char *spec)
{
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass)
			read_recs(c);
		for (i = 0; i < c->nrecs; i++)
			if (c->recs[i].id == id &&
			    !strncmp(c->recs[i].spec, spec,
				     sizeof(c->recs[i].spec)))
				return &c->recs[i];
	}
	return NULL;
}

static const char *spec_of(struct kp_watch_ctx *c, uint32_t id)
{
	struct kp_spec *e = spec_find(c, id);
	int i, n;

	if (e)
		return e->spec;
	n = read_recs(c);
	for (i = 0; i < n; i++)
		spec_set(c, c->recs[i].id, c->recs[i].spec);
	e = spec_find(c, id);
	return e ? e->spec : "?";
}

/*
 * Frame 0 of a stack: the module's stack starts at the kretprobe's return
 * address (the caller), so the probed function, named by the spec, goes
 * first.  Pairs have no function: nothing is added (their stack is the
 * ending tracepoint callback's, kprofctl's frames included).
 */
static const char *spec_func(const char *spec, char *buf, size_t len)
{
	const char *sym, *colon;

	if (strncmp(spec, "kretprobe:", 10))
		return NULL;
	sym = spec + 10;
	colon = strchr(sym, ':');	/* MOD:SYM */
	snprintf(buf, len, "%s", colon ? colon + 1 : sym);
	return buf;
}

/*
 * A kretprobe set's slow call carries the function's index in the set's
 * table as its KEY: its name, from the mapping; NULL if not known there.
 */
static const char *set_func(struct kp_watch_ctx *c, uint32_t id,
			    const char *spec, struct nlattr **a, char *buf,
			    size_t len)
{
	const struct kprof_kind *k = kprof_kind_of_spec(spec);
	const struct kprof_probe_info *r;

	if (!k || k->type != KPROF_TYPE_KRETPROBE_SET || !a[KPROF_GENL_A_KEY])
		return NULL;
	r = probe_rec(c, id, spec);
	if (!r || kp_set_func_name(c->o->map, r,
				   nla_get_u64(a[KPROF_GENL_A_KEY]), buf, len))
		return NULL;
	return buf;
}

/*
 * A probe with --key: its slow call's KEY is its first key's value, shown
 * as show shows it ("-EAGAIN (-11)", "caller #2"); NULL for other probes.
 */
static const char *key_label(struct kp_watch_ctx *c, uint32_t id,
			     const char *spec, struct nlattr **a, char *buf,
			     size_t len)
{
	const struct kprof_probe_info *r;

	if (!a[KPROF_GENL_A_KEY])
		return NULL;
	r = probe_rec(c, id, spec);
	if (!r || !r->key[0])
		return NULL;
	kp_keyval_format(r->key[0], nla_get_u64(a[KPROF_GENL_A_KEY]), "", buf,
			 len);
	return buf;
}

static void print_slow(struct kp_watch_ctx *c, struct nlattr **a)
{
	uint32_t cpu = nla_get_u32(a[KPROF_GENL_A_CPU]);
	uint64_t ns = nla_get_u64(a[KPROF_GENL_A_LATENCY_NS]);
	uint64_t t = nla_get_u64(a[KPROF_GENL_A_TIME_NS]);
	const char *comm = nla_get_string(a[KPROF_GENL_A_COMM]);
	int cl = cpu < c->topo.nr_cpus ? c->topo.cluster_of[cpu] : -1;
	const char *cluster = cl >= 0 ? c->topo.cl[cl].name : "?";
	const uint64_t *stack = NULL;
	unsigned int nstack = 0, i;
	uint32_t id = nla_get_u32(a[KPROF_GENL_A_PROBE_ID]);
	const char *spec = spec_of(c, id), *fn, *setfn, *key, *name;
	char lat[32], sym[300], fbuf[KPROF_SPEC_LEN];
	char sbuf[KPROF_FUNC_NAME_LEN + 1], kbuf[96], dbuf[160];
	/* --snapshot, --trace-off, --mark: what the call did to ftrace */
	const char *did = kp_ftrace_did(a[KPROF_GENL_A_FTRACE] ?
					nla_get_u32(a[KPROF_GENL_A_FTRACE]) : 0,
					dbuf, sizeof(dbuf));

	if (a[KPROF_GENL_A_STACK]) {
		stack = nla_data(a[KPROF_GENL_A_STACK]);
		nstack = (unsigned int)(nla_len(a[KPROF_GENL_A_STACK]) /
					sizeof(uint64_t));
	}
	/* a name, never an address: shown whatever kptr_restrict says */
	setfn = set_func(c, id, spec, a, sbuf, sizeof(sbuf));
	key = setfn ? NULL : key_label(c, id, spec, a, kbuf, sizeof(kbuf));
	fn = stack ? setfn ? setfn : spec_func(spec, fbuf, sizeof(fbuf)) : NULL;
	if (c->o->json) {
		struct kp_jw w;

		kp_jw_init(&w, stdout);
		kp_jw_start_object(&w);
		kp_jw_string_field(&w, "type", "slow");
		kp_jw_u64_field(&w, "time_ns", t);
		kp_jw_u64_field(&w, "cpu", cpu);
		kp_jw_string_field(&w, "cluster", cluster);
		kp_jw_u64_field(&w, "pid", nla_get_u32(a[KPROF_GENL_A_PID]));
		kp_jw_u64_field(&w, "tgid", nla_get_u32(a[KPROF_GENL_A_TGID]));
		kp_jw_string_field(&w, "comm", comm);
		kp_jw_u64_field(&w, "probe", id);
		kp_jw_string_field(&w, "spec", spec);
		kp_jw_u64_field(&w, "latency_ns", ns);
		if (a[KPROF_GENL_A_KEY])
			kp_jw_u64_field(&w, "key",
					nla_get_u64(a[KPROF_GENL_A_KEY]));
		if (key)
			kp_jw_string_field(&w, "key_label", key);
		if (setfn)
			kp_jw_string_field(&w, "function", setfn);
		if (*did)
			kp_jw_string_field(&w, "ftrace", did);
		if (stack) {
			kp_jw_name(&w, "stack");
			kp_jw_start_array(&w);
			if (fn)
				kp_jw_string(&w, fn);
			for (i = 0; i < nstack; i++) {
				name = kp_frame_name(&c->syms, NULL, stack, nstack,
						     i, 0, sym, sizeof(sym));
				kp_jw_string(&w, name ? name : "?");
			}
			kp_jw_end_array(&w);
		}
		kp_jw_end_object(&w);
		putchar('\n');
	} else {
		kp_fmt_ns(ns, lat, sizeof(lat));
		printf("%" PRIu64 ".%06" PRIu64 " cpu%u %-4s %s/%u probe %u %s %s",
		       t / 1000000000, (t / 1000) % 1000000, cpu, cluster, comm,
		       nla_get_u32(a[KPROF_GENL_A_PID]), id, spec, lat);
		/* a set's function by name, never by its index */
		if (setfn)
			printf(" %s", setfn);
		else if (a[KPROF_GENL_A_KEY] && kprof_kind_of_spec(spec) &&
			 kp_is_set(kprof_kind_of_spec(spec)->type))
			printf(" function #%" PRIu64,
			       nla_get_u64(a[KPROF_GENL_A_KEY]));
		else if (key)
			printf(" key %s", key);
		else if (a[KPROF_GENL_A_KEY])
			printf(" key %" PRIu64, nla_get_u64(a[KPROF_GENL_A_KEY]));
		if (*did)
			printf(" [%s]", did);
		putchar('\n');
		if (fn)
			printf("    %s\n", fn);
		for (i = 0; i < nstack; i++) {
			name = kp_frame_name(&c->syms, NULL, stack, nstack, i, 0,
					     sym, sizeof(sym));
			printf("    %s\n", name ? name :
			       "? (kernel addresses hidden: kptr_restrict)");
		}
	}
}

/* watch --json's line of an event with nothing but its type */
static void json_type(const char *type)
{
	struct kp_jw w;

	kp_jw_init(&w, stdout);
	kp_jw_start_object(&w);
	kp_jw_string_field(&w, "type", type);
	kp_jw_end_object(&w);
	putchar('\n');
}

static void print_probe(struct kp_watch_ctx *c, struct nlattr **a)
{
	uint32_t ev = nla_get_u32(a[KPROF_GENL_A_EVENT]);
	uint64_t dropped = a[KPROF_GENL_A_DROPPED] ?
			   nla_get_u64(a[KPROF_GENL_A_DROPPED]) : 0;
	uint64_t nmissed = a[KPROF_GENL_A_NMISSED] ?
			   nla_get_u64(a[KPROF_GENL_A_NMISSED]) : 0;
	const char *spec = a[KPROF_GENL_A_SPEC] ?
			   nla_get_string(a[KPROF_GENL_A_SPEC]) : "";

	if (a[KPROF_GENL_A_SPEC])
		spec_set(c, nla_get_u32(a[KPROF_GENL_A_PROBE_ID]), spec);

	if (c->o->json) {
		struct kp_jw w;

		kp_jw_init(&w, stdout);
		kp_jw_start_object(&w);
		kp_jw_string_field(&w, "type", ev_name(ev));
		kp_jw_u64_field(&w, "probe",
				nla_get_u32(a[KPROF_GENL_A_PROBE_ID]));
		kp_jw_string_field(&w, "spec", spec);
		if (ev == KPROF_GENL_EV_LOSSES) {
			kp_jw_u64_field(&w, "dropped", dropped);
			kp_jw_u64_field(&w, "nmissed", nmissed);
		}
		kp_jw_end_object(&w);
		putchar('\n');
		return;
	}
	printf("probe %u %s: %s", nla_get_u32(a[KPROF_GENL_A_PROBE_ID]), spec,
	       ev_name(ev));
	if (ev == KPROF_GENL_EV_LOSSES)
		printf(": %" PRIu64 " slow calls dropped (ring full), %" PRIu64
		       " calls missed by the kprobe core", dropped, nmissed);
	putchar('\n');
}

/* A mem: probe's module left an object allocated at its unload */
static void print_leak(struct kp_watch_ctx *c, struct nlattr **a)
{
	uint32_t id = nla_get_u32(a[KPROF_GENL_A_PROBE_ID]);
	uint32_t site = nla_get_u32(a[KPROF_GENL_A_SITE_ID]);
	const char *name = a[KPROF_GENL_A_SITE] ?
			   nla_get_string(a[KPROF_GENL_A_SITE]) : NULL;
	const char *kind = kp_mem_row_name(nla_get_u32(a[KPROF_GENL_A_KIND]));
	uint64_t size = nla_get_u64(a[KPROF_GENL_A_SIZE]);
	uint64_t age = nla_get_u64(a[KPROF_GENL_A_AGE_NS]);
	char ago[32];

	if (c->o->json) {
		struct kp_jw w;

		kp_jw_init(&w, stdout);
		kp_jw_start_object(&w);
		kp_jw_string_field(&w, "type", "leak");
		kp_jw_u64_field(&w, "probe", id);
		kp_jw_string_field(&w, "spec", spec_of(c, id));
		kp_jw_u64_field(&w, "site_id", site);
		if (name)
			kp_jw_string_field(&w, "site", name);
		kp_jw_string_field(&w, "kind", kind);
		kp_jw_u64_field(&w, "size", size);
		kp_jw_u64_field(&w, "age_ns", age);
		kp_jw_end_object(&w);
		putchar('\n');
		return;
	}
	kp_fmt_ns(age, ago, sizeof(ago));
	if (name)
		printf("probe %u %s: leaked %" PRIu64 " bytes (%s) from %s, "
		       "allocated %s before\n", id, spec_of(c, id), size, kind,
		       name, ago);
	else
		printf("probe %u %s: leaked %" PRIu64 " bytes (%s) from site #%u "
		       "(names: kprofctl show %u, as root), allocated %s "
		       "before\n", id, spec_of(c, id), size, kind, site, id, ago);
}

static int on_event(struct nl_msg *msg, void *arg)
{
	struct kp_watch_ctx *c = arg;
	struct genlmsghdr *g = nlmsg_data(nlmsg_hdr(msg));
	struct nlattr *a[KPROF_GENL_A_MAX + 1];
	uint32_t probe;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, KPROF_GENL_A_MAX, kp_nl_policy) ||
	    !a[KPROF_GENL_A_PROBE_ID])
		return NL_SKIP;
	probe = nla_get_u32(a[KPROF_GENL_A_PROBE_ID]);
	if (c->o->probe && probe != c->o->probe)
		return NL_SKIP;
	if (g->cmd == KPROF_GENL_CMD_SLOW) {
		if (!a[KPROF_GENL_A_CPU] || !a[KPROF_GENL_A_LATENCY_NS] ||
		    !a[KPROF_GENL_A_TIME_NS] || !a[KPROF_GENL_A_COMM] ||
		    !a[KPROF_GENL_A_PID] || !a[KPROF_GENL_A_TGID])
			return NL_SKIP;
		if (nla_get_u64(a[KPROF_GENL_A_LATENCY_NS]) < c->o->min_ns)
			return NL_SKIP;
		print_slow(c, a);
		c->seen++;
	} else if (g->cmd == KPROF_GENL_CMD_LEAK) {
		if (!a[KPROF_GENL_A_SITE_ID] || !a[KPROF_GENL_A_KIND] ||
		    !a[KPROF_GENL_A_SIZE] || !a[KPROF_GENL_A_AGE_NS])
			return NL_SKIP;
		print_leak(c, a);
		c->seen++;
	} else if (g->cmd == KPROF_GENL_CMD_PROBE && a[KPROF_GENL_A_EVENT]) {
		print_probe(c, a);
		/* a loss report stands for the slow calls it reports */
		if (nla_get_u32(a[KPROF_GENL_A_EVENT]) != KPROF_GENL_EV_LOSSES)
			c->seen++;
		else if (a[KPROF_GENL_A_DROPPED])
			c->seen += nla_get_u64(a[KPROF_GENL_A_DROPPED]);
	}
	fflush(stdout);
	return NL_OK;
}

int kp_watch(const struct kp_watch_opts *o, unsigned int nr_cpus)
{
	struct kp_watch_ctx *c = calloc(1, sizeof(*c));
	struct sigaction sa;
	struct nl_sock *sk;
	int ret = 0, err;
	struct pollfd pfd;

	if (!c)
		return 1;
	c->o = o;
	sk = kp_nl_events("watch", &c->family);
	if (!sk) {
		free(c);
		return 1;
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_event, c);
	kp_topo_load(&c->topo, kp_sysfs_root(), nr_cpus);
	kp_syms_load(&c->syms, "/proc/kallsyms");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = kp_on_signal;	/* no SA_RESTART: poll returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (o->json)
		json_type("listening");
	else
		printf("# listening to %s/%s (Ctrl-C to stop)\n",
		       KPROF_GENL_NAME, KPROF_GENL_MCGRP);
	fflush(stdout);

	pfd.fd = nl_socket_get_fd(sk);
	pfd.events = POLLIN;
	while (!kp_stop && (!o->count || c->seen < o->count)) {
		if (poll(&pfd, 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			perror("kprofctl watch: poll");
			ret = 1;
			break;
		}
		err = nl_recvmsgs_default(sk);
		if (err == -NLE_NOMEM) {
			/* ENOBUFS: the socket overflowed; say so, go on */
			fprintf(stderr, "kprofctl watch: the socket buffer "
				"overflowed: some events were lost here\n");
			if (o->json)
				json_type("overflow");
			continue;
		}
		if (err < 0 && err != -NLE_INTR && err != -NLE_AGAIN) {
			fprintf(stderr, "kprofctl watch: %s\n", nl_geterror(err));
			ret = 1;
			break;
		}
	}
	kp_syms_free(&c->syms);
	free(c->specs);
	free(c->recs);
	nl_socket_free(sk);
	free(c);
	return ret;
}

/* ---- list --netlink ----------------------------------------------------- */

static int on_probe(struct nl_msg *msg, void *arg)
{
	struct nlattr *a[KPROF_GENL_A_MAX + 1];
	unsigned int *n = arg;

	if (genlmsg_parse(nlmsg_hdr(msg), 0, a, KPROF_GENL_A_MAX, kp_nl_policy) ||
	    !a[KPROF_GENL_A_PROBE_ID] || !a[KPROF_GENL_A_SPEC] ||
	    !a[KPROF_GENL_A_TYPE] || !a[KPROF_GENL_A_STATE] ||
	    !a[KPROF_GENL_A_HITS] || !a[KPROF_GENL_A_NMISSED])
		return NL_SKIP;
	if (!(*n)++)
		printf("%-4s %-10s %-8s %12s %10s %10s  %s\n", "ID", "TYPE",
		       "STATE", "HITS", "MISSED", "DROPPED", "SPEC");
	printf("%-4u %-10s %-8s %12" PRIu64 " %10" PRIu64 " %10" PRIu64 "  %s\n",
	       nla_get_u32(a[KPROF_GENL_A_PROBE_ID]),
	       kp_type_name(nla_get_u32(a[KPROF_GENL_A_TYPE])),
	       kp_state_name(nla_get_u32(a[KPROF_GENL_A_STATE])),
	       nla_get_u64(a[KPROF_GENL_A_HITS]),
	       nla_get_u64(a[KPROF_GENL_A_NMISSED]),
	       a[KPROF_GENL_A_DROPPED] ? nla_get_u64(a[KPROF_GENL_A_DROPPED]) : 0,
	       nla_get_string(a[KPROF_GENL_A_SPEC]));
	return NL_OK;
}

int kp_nl_list(void)
{
	struct nl_msg *msg;
	struct nl_sock *sk;
	unsigned int n = 0;
	int family, err;

	sk = kp_nl_open("list --netlink", &family);
	if (!sk)
		return 1;
	msg = nlmsg_alloc();
	if (!msg || !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, family, 0,
				 NLM_F_DUMP, KPROF_GENL_CMD_GET_PROBES,
				 KPROF_GENL_VERSION)) {
		nlmsg_free(msg);
		nl_socket_free(sk);
		return 1;
	}
	nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, on_probe, &n);
	err = nl_send_auto(sk, msg);
	nlmsg_free(msg);
	if (err >= 0)
		err = nl_recvmsgs_default(sk);
	nl_socket_free(sk);
	if (err < 0) {
		fprintf(stderr, "kprofctl list --netlink: %s%s\n", nl_geterror(err),
			err == -NLE_PERM ? " (GET_PROBES needs CAP_NET_ADMIN)" : "");
		return 1;
	}
	if (!n)
		printf("no probes\n");
	return 0;
}
