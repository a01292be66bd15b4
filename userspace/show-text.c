// SPDX-License-Identifier: GPL-2.0
/* show's text: one probe's lines, and the pieces function sets print too. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "show-keys.h"
#include "show-mem.h"
#include "show-text.h"
#include "spec.h"
#include "util.h"
#include "kprofctl/hist.h"

#define NR_ROWS		(KPROF_HIST_MAX_EXP + 2)	/* 0, 2^0..2^41, overflow */
#define BAR		40

/* power-of-two row of a fine bucket; fine buckets nest inside rows */
static unsigned int row_of(const struct kprof_hist_iter *it)
{
	if (it->idx == KPROF_HIST_OVERFLOW)
		return NR_ROWS - 1;
	return it->lower ? (unsigned int)kprof_fls64(it->lower) : 0;
}

/* a latency row's bound in the summary's units; values stay plain */
static void row_bound(uint64_t v, int latency, char *buf, size_t len)
{
	if (latency)
		kp_fmt_ns(v, buf, len);
	else
		snprintf(buf, len, "%" PRIu64, v);
}

/*
 * unit NULL: latencies, rows [lo, hi) in the units of the summary lines
 * ("512ns -> 1.024us"); else plain values, rows "lo -> hi" inclusive.
 */
static void print_hist(FILE *f, const struct kp_agg *a, const char *unit)
{
	int latency = !unit;
	uint64_t rows[NR_ROWS] = { 0 }, peak = 0;
	struct kprof_hist_iter it;
	int first = -1, last = -1, r;

	kprof_hist_for_each(&it, a->hist)
		rows[row_of(&it)] += it.count;
	for (r = 0; r < NR_ROWS; r++) {
		if (!rows[r])
			continue;
		if (first < 0)
			first = r;
		last = r;
		if (rows[r] > peak)
			peak = rows[r];
	}
	if (first < 0)
		return;
	fprintf(f, "  %24s : %-10s distribution\n", latency ? "latency" : unit,
		"count");
	for (r = first; r <= last; r++) {
		char range[48], lo[20], hi[20], bar[BAR + 1];
		unsigned int stars;
		int end = r;

		/* a run of more than two empty rows becomes one "..." line */
		while (!rows[end] && end < last)
			end++;
		if (end - r > 2) {
			fprintf(f, "  %24s\n", "...");
			r = end - 1;
			continue;
		}
		if (r == NR_ROWS - 1) {
			row_bound((uint64_t)1 << KPROF_HIST_MAX_EXP, latency, lo,
				  sizeof(lo));
			snprintf(range, sizeof(range), ">= %s", lo);
		} else if (r == 0) {
			snprintf(range, sizeof(range), latency ? "0ns" : "0 -> 0");
		} else {
			row_bound((uint64_t)1 << (r - 1), latency, lo, sizeof(lo));
			row_bound(((uint64_t)1 << r) - !latency, latency, hi,
				  sizeof(hi));
			snprintf(range, sizeof(range), "%s -> %s", lo, hi);
		}
		stars = (unsigned int)(rows[r] * BAR / peak);
		if (rows[r] && !stars)
			stars = 1;
		memset(bar, '*', stars);
		memset(bar + stars, ' ', BAR - stars);
		bar[BAR] = '\0';
		fprintf(f, "  %24s : %-10" PRIu64 " |%s|\n", range, rows[r], bar);
	}
}

static void print_summary(FILE *f, const char *indent, const struct kp_agg *a,
			  uint64_t missed, int latency)
{
	char v[32];
	unsigned int i;

	fprintf(f, "%scount %" PRIu64 "  missed %" PRIu64 "\n", indent,
		a->count, missed);
	if (!latency || !a->count)
		return;
	fprintf(f, "%s", indent);
	kp_fmt_ns(a->min, v, sizeof(v));
	fprintf(f, "min %s", v);
	kp_fmt_ns(a->sum / a->count, v, sizeof(v));
	fprintf(f, "  mean %s", v);
	kp_fmt_ns(a->max, v, sizeof(v));
	fprintf(f, "  max %s\n%s", v, indent);
	for (i = 0; i < KP_NR_PCTS; i++) {
		kp_fmt_ns(kp_pct_value(a, i), v, sizeof(v));
		fprintf(f, "%s%s %s", i ? "  " : "", kp_pcts[i].name, v);
	}
	fprintf(f, "\n");
}

/*
 * Misses beyond 1 % of the calls, in plain words with the fix: a
 * kretprobe's misses are mostly its pending-call limit (maxactive); a
 * kprobe's are hits while a kprobe handler runs on that CPU.
 */
static void print_missed(FILE *f, const struct kprof_probe_info *r,
			 uint64_t count, uint64_t missed)
{
	uint64_t calls = count + missed;
	unsigned int pct;
	int lat;

	if (!missed || missed * 100 <= calls)
		return;
	pct = (unsigned int)(missed * 100 / calls);
	if ((r->type == KPROF_TYPE_SAMPLE || r->type == KPROF_TYPE_OFFCPU) &&
	    r->nr_funcs) {
		fprintf(f, "  %" PRIu64 " %s (%u %%) dropped: their stacks "
			"found no room among the %u the table holds%s; add it "
			"again with --keys %u\n", missed,
			r->type == KPROF_TYPE_OFFCPU ? "waits" : "samples", pct,
			r->nr_funcs, r->type == KPROF_TYPE_OFFCPU ?
			", or too many tasks waited at once" : "",
			r->nr_funcs * 4 > 65536 ? 65536 : r->nr_funcs * 4);
		return;
	}
	/* a kretprobe set's misses are its functions' maxactive too */
	lat = r->type == KPROF_TYPE_KRETPROBE || r->type == KPROF_TYPE_KRETPROBE_SET;
	fprintf(f, "  %" PRIu64 " calls (%u %%) missed: ", missed, pct);
	if (lat && r->maxactive && r->maxactive >= KPROF_MAX_MAXACTIVE)
		fprintf(f, "maxactive %u (the most) exhausted; fewer callers "
			"at once, or split them with --cpus\n", r->maxactive);
	else if (lat && r->maxactive)
		fprintf(f, "maxactive %u exhausted; add it again with "
			"--maxactive %u\n", r->maxactive,
			r->maxactive * 4 < 64 ? 64 :
			r->maxactive * 4 > KPROF_MAX_MAXACTIVE ?
			KPROF_MAX_MAXACTIVE : r->maxactive * 4);
	else if (lat)
		fprintf(f, "more calls pending at once than maxactive; add it "
			"again with --maxactive 64\n");
	else
		fprintf(f, "the probe was hit while a kprobe handler ran on "
			"that CPU (recursion, or a hit from NMI); the kprobe "
			"core skips those\n");
}

/* other kprobes and kretprobes on this probe's function */
static void print_sharing(FILE *f, const struct kprof_probe_info *r,
			  const struct kp_show_opts *o)
{
	char fn[KPROF_SPEC_LEN], other[KPROF_SPEC_LEN];
	unsigned int i;

	if (!o->all || kp_probe_func(r->spec, fn, sizeof(fn)))
		return;
	for (i = 0; i < o->nall; i++)
		if (o->all[i].id != r->id &&
		    !kp_probe_func(o->all[i].spec, other, sizeof(other)) &&
		    kp_same_func(fn, other))
			fprintf(f, "  %s also carries probe %u (%s, %s): each "
				"probe's handlers add to the other's times\n",
				fn, o->all[i].id, o->all[i].spec,
				kp_state_name(o->all[i].state));
}

/* lines under the header: what a user would otherwise get wrong */
static void print_notes(FILE *f, const struct kprof_probe_info *r,
			const struct kp_show_opts *o, uint64_t count,
			uint64_t missed)
{
	print_missed(f, r, count, missed);
	print_sharing(f, r, o);
	if ((r->flags & (KPROF_ADD_PID | KPROF_ADD_TGID)) && o->pid_gone &&
	    o->pid_gone(r->pid))
		fprintf(f, "  %s %u has exited: this probe records nothing "
			"more\n", r->flags & KPROF_ADD_PID ? "pid" : "tgid",
			r->pid);
	if (r->state == KPROF_STATE_STOPPED && !count && !missed)
		fprintf(f, "  stopped: kprofctl start %u\n", r->id);
}

/* slow-call events: threshold, sent, lost to a full ring */
static void print_slow(FILE *f, const char *indent,
		       const struct kprof_probe_info *r, const struct kp_agg *a)
{
	char v[32];

	kp_fmt_ns(r->slow_ns, v, sizeof(v));
	fprintf(f, "%sslow calls (>= %s): %" PRIu64 " sent to watch, %" PRIu64
		" dropped (ring full)\n", indent, v, a->events,
		a->events_dropped);
}

/* a distribution of plain values (PMU deltas per call) */
static void print_values(FILE *f, const char *indent, const struct kp_agg *a)
{
	unsigned int i;

	fprintf(f, "%scount %" PRIu64 "  lost %" PRIu64 "\n", indent, a->count,
		a->drops);
	if (!a->count)
		return;
	fprintf(f, "%smin %" PRIu64 "  mean %" PRIu64 "  max %" PRIu64 "\n%s",
		indent, a->min, a->sum / a->count, a->max, indent);
	for (i = 0; i < KP_NR_PCTS; i++)
		fprintf(f, "%s%s %" PRIu64, i ? "  " : "", kp_pcts[i].name,
			kp_pct_value(a, i));
	fprintf(f, "\n");
}

/* per cluster: one summary each (latency or plain values) */
static void print_clusters(FILE *f, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o, int key, int event,
			   int latency, const char *indent)
{
	unsigned int k;

	if (!o->by_cluster || !o->topo)
		return;
	for (k = 0; k < o->topo->nr_clusters; k++) {
		const struct kp_cluster *cl = &o->topo->cl[k];
		char ind[32];
		struct kp_agg a;

		kp_aggregate_mask(m, r, key, event, cl->mask, &a);
		fprintf(f, "%scluster %s (cpu%s):\n", indent, cl->name,
			cl->cpus);
		snprintf(ind, sizeof(ind), "%s  ", indent);
		if (event >= 0)
			print_values(f, ind, &a);
		else
			print_summary(f, ind, &a, a.drops, latency);
	}
}

/* IPC over the calls: the sum of instruction deltas over cycle deltas */
static void show_pmu_text(FILE *f, const struct kp_map *m,
			  const struct kprof_probe_info *r,
			  const struct kp_show_opts *o)
{
	struct kp_pmu_snap s;
	unsigned int e, k;
	double ipc;

	if (kp_pmu_snap_read(m, r, &s)) {
		fprintf(f, "  (PMU block unreadable)\n");
		return;
	}
	for (e = 0; r->type == KPROF_TYPE_KRETPROBE && e < s.nr_events; e++) {
		struct kp_agg a;

		kp_aggregate_pmu(m, r, e, -1, &a);
		fprintf(f, "  %s per call:\n", s.ev[e].name);
		print_values(f, "    ", &a);
		if (a.count)
			print_hist(f, &a, s.ev[e].name);
		print_clusters(f, m, r, o, -1, (int)e, 0, "    ");
	}
	if (r->type == KPROF_TYPE_KRETPROBE && kp_pmu_call_ipc(m, r, &s, NULL, &ipc)) {
		fprintf(f, "  IPC per call %.2f\n", ipc);
		for (k = 0; o->by_cluster && o->topo && k < o->topo->nr_clusters;
		     k++)
			if (kp_pmu_call_ipc(m, r, &s, o->topo->cl[k].mask, &ipc))
				fprintf(f, "    cluster %s: IPC per call %.2f\n",
					o->topo->cl[k].name, ipc);
	}
	if (o->topo) {
		fprintf(f, "  PMU totals over the capture window:\n");
		kp_pmu_print(f, &s, o->topo, o->sysfs_root ? o->sysfs_root : "",
			     0);
	}
	kp_pmu_snap_free(&s);
}

static void show_pair_text(FILE *f, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o)
{
	struct kp_agg a, other;
	unsigned int n, total, i, c;
	struct kp_key *keys = kp_select_keys(m, r, o, &n, &total);

	kp_aggregate_pair(m, r, -1, &a);
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	fprintf(f, "probe %u: %s [%s%s]\n", r->id, r->spec,
		kp_state_name(r->state), kp_owned_label(r));
	fprintf(f, "  events %" PRIu64 " in %u keys (of %u)  other keys %" PRIu64
		"  dropped starts %" PRIu64 "  unmatched ends %" PRIu64 "\n",
		a.count, total, r->nr_keys, other.count, a.drops, a.unmatched);
	print_notes(f, r, o, a.count, 0);
	if (r->slow_ns)
		print_slow(f, "  ", r, &a);
	for (i = 0; i < n; i++) {
		struct kp_agg ka;
		char label[KP_KEY_LABEL];

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		kp_key_label(r, &keys[i], label, sizeof(label));
		fprintf(f, "  key %s%s%s:\n", label, keys[i].name[0] ? " " : "",
			keys[i].name);
		print_summary(f, "    ", &ka, 0, 1);
		if (ka.count)
			print_hist(f, &ka, NULL);
		print_clusters(f, m, r, o, (int)keys[i].index, -1, 1, "    ");
		for (c = 0; o->per_cpu && c < m->hdr->nr_cpus; c++) {
			struct kp_agg ca;

			kp_aggregate_key(m, r, keys[i].index, (int)c, &ca);
			if (!ca.count)
				continue;
			fprintf(f, "    cpu %u:\n", c);
			print_summary(f, "      ", &ca, 0, 1);
		}
	}
	if (!o->key && other.count) {
		fprintf(f, "  other keys (beyond %u):\n", r->nr_keys);
		print_summary(f, "    ", &other, 0, 1);
	}
	if (o->key && !n)
		fprintf(f, "  no key %s\n", o->key);
	free(keys);
}

/* "retval, arg2:log2" */
static void key_names(const struct kprof_probe_info *r, char *buf, size_t len)
{
	char a[32], b[32];

	kp_key_format(r->key[0], a, sizeof(a));
	if (r->key[1])
		kp_key_format(r->key[1], b, sizeof(b));
	snprintf(buf, len, "%s%s%s", a, r->key[1] ? ", " : "",
		 r->key[1] ? b : "");
}

/* a stack key's frames, the function first, when the reader may see them */
static void print_stack(FILE *f, const struct kprof_probe_info *r,
			const struct kp_show_opts *o, const struct kp_key *k)
{
	uint64_t id = kp_key_stack_id(r, k);
	const char *name;
	unsigned int i;

	for (i = 0; id && o->stack_frame &&
	     (name = o->stack_frame(o->caller_ctx, r, id, i)); i++)
		fprintf(f, "      %s\n", name);
}

/*
 * show --folded: one line per stack key, the outermost frame first and
 * ';' between frames (offsets dropped), then its count or total ns: the
 * folded format of flamegraph.pl, inferno and speedscope.  1 when a stack
 * cannot be named (no CAP_SYSLOG), else 0.
 */
int kp_show_folded(FILE *f, const struct kp_map *m,
		   const struct kprof_probe_info *r,
		   const struct kp_show_opts *o)
{
	const char *fr;
	unsigned int n, total, i, j, nf;
	struct kp_key *keys;
	int hidden = 0;

	if (!r->key_rec_size || (KPROF_KEYSPEC_KIND(r->key[0]) != KPROF_KEY_STACK &&
				 KPROF_KEYSPEC_KIND(r->key[1]) != KPROF_KEY_STACK))
		return 0;
	keys = kp_select_keys(m, r, o, &n, &total);
	for (i = 0; keys && i < n; i++) {
		uint64_t id = kp_key_stack_id(r, &keys[i]);
		struct kp_agg ka;
		char *copy[KPROF_STACK_DEPTH];

		/* the callback's buffer is reused: copies, without offsets */
		for (nf = 0; id && o->stack_frame && nf < KPROF_STACK_DEPTH &&
		     (fr = o->stack_frame(o->caller_ctx, r, id, nf)); nf++) {
			copy[nf] = strdup(fr);
			if (copy[nf] && strchr(copy[nf], '+'))
				*strchr(copy[nf], '+') = '\0';
		}
		if (!nf) {
			hidden = 1;
			continue;
		}
		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		for (j = nf; j-- > 0;)
			fprintf(f, "%s%s", copy[j] ? copy[j] : "?", j ? ";" : "");
		fprintf(f, " %" PRIu64 "\n", o->folded == 2 ? ka.sum : ka.count);
		for (j = 0; j < nf; j++)
			free(copy[j]);
	}
	free(keys);
	return hidden;
}

/* A kprobe's, kretprobe's or tracepoint's --if and --key sections */
static void show_keys_text(FILE *f, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   const struct kp_show_opts *o, int latency)
{
	char buf[256];
	struct kp_agg other;
	unsigned int n, total, i;
	struct kp_key *keys;

	if (r->filter.nr) {
		kp_filter_format(&r->filter, buf, sizeof(buf));
		fprintf(f, "  only calls where %s\n", buf);
	}
	if (!r->key_rec_size)
		return;
	keys = kp_select_keys(m, r, o, &n, &total);
	for (i = 0; keys && i < n; i++) {
		unsigned int j;

		for (j = 0; j < KPROF_MAX_KEYS; j++)
			if ((KPROF_KEYSPEC_KIND(r->key[j]) == KPROF_KEY_CALLER &&
			     !keys[i].sym[j][0]) ||
			    (KPROF_KEYSPEC_KIND(r->key[j]) == KPROF_KEY_STACK &&
			     (!o->stack_frame ||
			      !o->stack_frame(o->caller_ctx, r, kp_key_stack_id(r, &keys[i]), 0))))
				break;
		if (j < KPROF_MAX_KEYS) {
			fprintf(f, "  callers and stacks are ids: their frames "
				"need CAP_SYSLOG (root) and readable /proc/kallsyms\n");
			break;
		}
	}
	kp_aggregate_key(m, r, r->nr_keys, -1, &other);
	key_names(r, buf, sizeof(buf));
	fprintf(f, "  by %s: %u key%s (of %u)  other keys %" PRIu64 "\n", buf,
		total, total == 1 ? "" : "s", r->nr_keys, other.count);
	for (i = 0; keys && i < n; i++) {
		struct kp_agg ka;
		char label[KP_KEY_LABEL];

		kp_aggregate_key(m, r, keys[i].index, -1, &ka);
		kp_key_label(r, &keys[i], label, sizeof(label));
		/* task keys: the comm is the name; comm keys are their name */
		if (keys[i].name[0] && strcmp(label, keys[i].name) &&
		    KPROF_KEYSPEC_KIND(r->key[0]) != KPROF_KEY_COMM &&
		    KPROF_KEYSPEC_KIND(r->key[1]) != KPROF_KEY_COMM)
			fprintf(f, "  key %s (%s):\n", label, keys[i].name);
		else
			fprintf(f, "  key %s:\n", label);
		print_stack(f, r, o, &keys[i]);
		print_summary(f, "    ", &ka, 0, latency);
		if (latency && ka.count && (o->key || o->per_cpu))
			print_hist(f, &ka, NULL);
		print_clusters(f, m, r, o, (int)keys[i].index, -1, latency,
			       "    ");
	}
	if (!o->key && other.count) {
		fprintf(f, "  other keys (beyond %u): the table is full, "
			"add the probe again with --keys %u\n", r->nr_keys,
			r->nr_keys * 2);
		print_summary(f, "    ", &other, 0, latency);
	}
	if (o->key && !n)
		fprintf(f, "  no key %s\n", o->key);
	free(keys);
}

void kp_show_text(FILE *f, const struct kp_map *m,
		  const struct kprof_probe_info *r,
		  const struct kp_show_opts *o)
{
	int latency = r->type == KPROF_TYPE_KRETPROBE;
	struct kp_agg a;
	unsigned int c;

	if (r->type == KPROF_TYPE_PAIR) {
		show_pair_text(f, m, r, o);
		return;
	}
	if (r->type == KPROF_TYPE_MEM) {
		kp_show_mem_text(f, m, r, o);
		return;
	}
	if (r->type == KPROF_TYPE_PMU) {
		fprintf(f, "probe %u: %s [%s%s]\n", r->id, r->spec,
			kp_state_name(r->state), kp_owned_label(r));
		show_pmu_text(f, m, r, o);
		return;
	}
	kp_aggregate(m, r, -1, &a);
	fprintf(f, "probe %u: %s [%s%s]\n", r->id, r->spec,
		kp_state_name(r->state), kp_owned_label(r));
	print_summary(f, "  ", &a, r->nmissed + a.drops, latency);
	print_notes(f, r, o, a.count, r->nmissed + a.drops);
	if (r->slow_ns)
		print_slow(f, "  ", r, &a);
	if (latency && a.count)
		print_hist(f, &a, NULL);
	print_clusters(f, m, r, o, -1, -1, latency, "  ");
	if (r->pmu_block)
		show_pmu_text(f, m, r, o);
	show_keys_text(f, m, r, o, latency);
	if (!o->per_cpu)
		return;
	for (c = 0; c < m->hdr->nr_cpus; c++) {
		struct kp_agg ca;
		char ind[16];

		kp_aggregate(m, r, (int)c, &ca);
		if (!ca.count && !ca.drops)
			continue;
		snprintf(ind, sizeof(ind), "    ");
		fprintf(f, "  cpu %u:\n", c);
		print_summary(f, ind, &ca, ca.drops, latency);
	}
}

void kp_print_hist(FILE *f, const struct kp_agg *a, const char *unit)
{
	print_hist(f, a, unit);
}

void kp_print_notes(FILE *f, const struct kprof_probe_info *r,
		    const struct kp_show_opts *o, uint64_t count,
		    uint64_t missed)
{
	print_notes(f, r, o, count, missed);
}

void kp_print_slow(FILE *f, const char *indent,
		   const struct kprof_probe_info *r, const struct kp_agg *a)
{
	print_slow(f, indent, r, a);
}

