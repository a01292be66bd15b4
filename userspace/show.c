// SPDX-License-Identifier: GPL-2.0
/*
 * show's probes, from the device or a capture: one consistent copy of the
 * probe table, what only LIST knows made fresh, the options checked
 * against the probes selected, then the statistics printed (kp_show) and
 * the profiles after them.  show prints through it, and run at its end.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev.h"
#include "key-frames.h"
#include "map-copy.h"
#include "pmu.h"
#include "profile.h"
#include "prom.h"
#include "show-keys.h"
#include "show-set.h"
#include "show.h"
#include "show-json.h"
#include "show-text.h"
#include "source.h"
#include "spec.h"
#include "termsafe.h"
#include "util.h"

static int show_all(FILE *f, const struct kp_map *m,
		    const struct kprof_probe_info *recs, unsigned int n,
		    const struct kp_show_opts *o)
{
	unsigned int i;

	if (o->prom)
		return kp_prom_write(f, m, recs, n, o);
	if (o->json) {
		struct kp_jw w;

		kp_jw_init(&w, f);
		kp_jw_start_object(&w);
		kp_jw_name(&w, "probes");
		kp_jw_start_array(&w);
		for (i = 0; i < n; i++) {
			if (kp_is_set(recs[i].type))
				kp_show_set_json(&w, m, &recs[i], o);
			else
				kp_show_json(&w, m, &recs[i], o);
		}
		kp_jw_end_array(&w);
		if (o->json_more)
			o->json_more(&w, o->json_more_ctx);
		kp_jw_end_object(&w);
		fputc('\n', f);
		return 0;
	}
	if (o->folded) {
		for (i = 0; i < n; i++)
			kp_show_folded(f, m, &recs[i], o);
		return 0;
	}
	if (!n)
		fprintf(f, "no probes\n");
	for (i = 0; i < n; i++) {
		if (i)
			fputc('\n', f);
		if (kp_is_set(recs[i].type))
			kp_show_set_text(f, m, &recs[i], o);
		else
			kp_show_text(f, m, &recs[i], o);
	}
	return 0;
}

/*
 * One consistent copy of the mapping first, then the rendering from it:
 * the printers' callbacks (frame names, kallsyms, pid checks) run once,
 * outside the seqcount loop, however often a writer makes the copy
 * retry.  A probe whose row no longer holds its id was deleted since
 * recs were copied: its blocks may already belong to another probe, so
 * it is left out.
 */
int kp_show(FILE *f, const struct kp_map *m,
	    const struct kprof_probe_info *recs, unsigned int n,
	    const struct kp_show_opts *o)
{
	struct kprof_probe_info *live = calloc(n ? n : 1, sizeof(*live));
	struct kp_map snap;
	unsigned int i, k;
	int err;

	if (!live) {
		fprintf(stderr, "kprofctl: out of memory\n");
		return -1;
	}
	err = kp_map_snap(m, &snap);
	if (err) {
		if (err == -EAGAIN)
			fprintf(stderr, "kprofctl: the statistics mapping did not "
				"settle for %u ms (its seqcount stayed odd or kept "
				"changing); is a writer stuck?\n",
				KP_SEQ_TIMEOUT_MS);
		else
			fprintf(stderr, "kprofctl: %s\n", err == -ENOMEM ?
				"out of memory" : "the statistics mapping is "
				"inconsistent");
		free(live);
		return -1;
	}
	for (i = k = 0; i < n; i++)
		if (kp_map_rec(&snap, recs[i].slot)->id == recs[i].id)
			live[k++] = recs[i];
	err = show_all(f, &snap, live, k, o);
	kp_map_snap_free(&snap);
	free(live);
	return err;
}

/* does --key name one of r's keys?  (callers by name, as show prints them) */
static int has_key(struct kp_dev *d, const struct kprof_probe_info *r,
		   const struct kp_show_opts *o)
{
	struct kp_show_opts so = *o;
	struct kp_key *keys;
	unsigned int n = 0, total;
	void *callers = kp_frames_new(d);

	so.top = 0;
	so.caller_name = kp_frames_caller;
	so.caller_ctx = callers;
	keys = callers ? kp_select_keys(&d->m, r, &so, &n, &total) : NULL;
	free(keys);
	kp_frames_free(callers);
	/* out of memory: let show print what it can */
	return !callers || !keys || n;
}

/*
 * --key, --top and --sort apply to probes with keys (pairs, --key) and
 * sets, --nonzero to sets: refused with the reason when no probe shown
 * takes them.  A set's --key must name one of its functions.  0, or the
 * exit code after a message.
 */
static int check_set_opts(struct kp_dev *d, const struct kprof_probe_info *sel,
			  unsigned int k, unsigned int nids,
			  const struct kp_show_opts *o)
{
	unsigned int keyed = 0, sets = 0, i;
	int s = kp_sort_parse(o->sort);
	char close[256], list[64];

	for (i = 0; i < k; i++) {
		keyed += kp_has_keys(&sel[i]);
		sets += kp_is_set(sel[i].type);
	}
	if (!k)
		return 0;
	if ((o->key || o->top || o->sort) && !keyed && !sets)
		return kp_bad_usage("show", "%s %s", o->key ? "--key" :
				    o->top ? "--top" : "--sort",
				    nids ? "applies to probes with keys (pairs, "
				    "add --key) and function sets, and this probe "
				    "has no keys and no functions" :
				    "applies to probes with keys (pairs, add "
				    "--key) and function sets, and there are none");
	if (o->nonzero && !sets)
		return kp_bad_usage("show", "--nonzero applies to function sets "
				    "(kprobe:MOD:*), and %s", nids ?
				    "this probe is none" : "there are none");
	/* show's option parsing refused a sort key of no name (s < 0) */
	for (i = 0; o->sort && s >= 0 && i < k; i++) {
		const struct kp_sort_key *sk = &kp_sort_keys[s];
		int lat = sel[i].type == KPROF_TYPE_KRETPROBE ||
			  sel[i].type == KPROF_TYPE_PAIR;

		if (!kp_has_keys(&sel[i]) ||
		    (sk->keys && (lat || !sk->latency)))
			continue;
		/* name sorts no keys; a hit count's keys have no latencies */
		kp_sort_list(list, sizeof(list), 1, sk->keys);
		return kp_bad_usage("show", "--sort %s: probe %u (%s) %s%s",
				    o->sort, sel[i].id, sel[i].spec, sk->keys ?
				    "counts hits only: its keys sort by " :
				    "has keys, which sort by ", list);
	}
	for (i = 0; o->sort && i < k; i++) {
		/* a key sets of latencies take, or none at all */
		int lat = kp_set_sort_ok(KPROF_TYPE_KRETPROBE_SET, o->sort);

		if (!kp_is_set(sel[i].type) ||
		    kp_set_sort_ok(sel[i].type, o->sort))
			continue;
		kp_sort_list(list, sizeof(list), 0, lat);
		return kp_bad_usage("show", "--sort %s: probe %u (%s) %s%s",
				    o->sort, sel[i].id, sel[i].spec, lat ?
				    "is a kprobe set, which counts hits only: "
				    "sort it by " : "sorts by ", list);
	}
	for (i = 0; o->key && nids == 1 && i < k; i++) {
		if (kp_has_keys(&sel[i]) && !kp_is_set(sel[i].type) &&
		    !has_key(d, &sel[i], o)) {
			fprintf(stderr, "kprofctl show: probe %u (%s) has no key "
				"%s; 'kprofctl show %u' lists its keys\n",
				sel[i].id, sel[i].spec, o->key, sel[i].id);
			return 1;
		}
		if (!kp_is_set(sel[i].type) ||
		    kp_set_find(&d->m, &sel[i], o->key) >= 0)
			continue;
		kp_set_suggest(&d->m, &sel[i], o->key, close, sizeof(close));
		fprintf(stderr, "kprofctl show: probe %u has no function %s%s%s\n",
			sel[i].id, o->key, close[0] ? "; close names: " : "",
			close);
		return 1;
	}
	return 0;
}

/*
 * --folded: the stacks must be readable, and a total must be of time
 * (a sample probe's are counts); 0, or the exit code after why
 */
static int check_folded(struct kp_dev *d, const struct kprof_probe_info *sel,
			unsigned int k, int folded)
{
	unsigned int i, stacks = 0;

	for (i = 0; i < k; i++) {
		if (kp_prof_is(&d->m, &sel[i])) {
			if (folded == 2 && sel[i].type == KPROF_TYPE_SAMPLE)
				return kp_bad_usage("show", "--folded=total: probe "
						    "%u (%s) counts samples, it "
						    "times nothing: use --folded",
						    sel[i].id, sel[i].spec);
			stacks++;
			continue;
		}
		if (!sel[i].key_rec_size ||
		    (KPROF_KEYSPEC_KIND(sel[i].key[0]) != KPROF_KEY_STACK &&
		     KPROF_KEYSPEC_KIND(sel[i].key[1]) != KPROF_KEY_STACK))
			continue;
		stacks++;
		if (kp_frames_stack_err(d, sel[i].id) == EPERM) {
			fprintf(stderr, "kprofctl show: --folded: the stacks' "
				"frames are kernel addresses: run as root (it "
				"needs CAP_SYSLOG)\n");
			return 1;
		}
	}
	if (!stacks)
		return kp_bad_usage("show", "--folded prints the stacks of a "
				    "probe added with --key stack, and %s",
				    k == 1 ? "this one has none" : "there are none");
	return 0;
}

/*
 * The profiles among sel (sample probes with a stack table): their
 * report per cluster after kp_show's lines, or with --folded their folded
 * stacks.  0, or 1 after why.
 */
static int show_profiles(struct kp_dev *d, FILE *f,
			 const struct kprof_probe_info *sel, unsigned int k,
			 const struct kp_show_opts *o)
{
	const struct kp_topo *t = o->topo;
	struct kp_profile p;
	unsigned int i, c;
	int ret = 0;

	for (i = 0; i < k; i++) {
		if (!kp_prof_is(&d->m, &sel[i]) || o->json || o->prom)
			continue;
		if (kp_src_profile(d, &sel[i], &p)) {
			ret = 1;
			continue;
		}
		if (p.frames_err) {
			fprintf(stderr, "kprofctl show: probe %u's stacks are "
				"kernel addresses: %s\n", sel[i].id,
				p.frames_err == EPERM ? "run as root (it needs "
				"CAP_SYSLOG)" : strerror(p.frames_err));
			ret = 1;
		} else if (o->folded) {
			for (c = 0; c < (o->by_cluster && !p.offcpu ?
					 t->nr_clusters : 1); c++)
				kp_prof_folded(f, &p, o->by_cluster && !p.offcpu ?
					       t->cl[c].mask : NULL,
					       o->by_cluster && !p.offcpu ?
					       t->cl[c].name : NULL);
		} else {
			char note[512];

			fprintf(f, "\nprobe %u (%s): profile of %" PRIu64
				" %s\n", sel[i].id, sel[i].spec, p.samples,
				p.offcpu ? "waits, in us" : "samples");
			if (kp_sample_late(&sel[i], &p.agg, note, sizeof(note)))
				fprintf(f, "note: %s\n", note);
			for (c = 0; c < (p.offcpu ? 0 : t->nr_clusters); c++) {
				uint64_t n = kp_prof_total(&p, t->cl[c].mask);

				if (t->nr_clusters > 1 && !n)
					continue;
				fprintf(f, "%s (cpu %s): %" PRIu64 " samples\n",
					t->cl[c].name, t->cl[c].cpus, n);
				kp_prof_report(f, &p, t->cl[c].mask,
					       o->top ? o->top : 10);
			}
			if (p.offcpu)
				kp_prof_report(f, &p, NULL, o->top ? o->top : 10);
		}
		kp_prof_free(&p);
	}
	return ret;
}

/* the specs of v with their control bytes as \xHH (JSON escapes its own) */
static void term_safe_specs(struct kprof_probe_info *v, unsigned int n)
{
	char safe[sizeof(v->spec)];
	unsigned int i;

	for (i = 0; i < n; i++)
		if (kp_term_unsafe(v[i].spec)) {
			kp_term_safe(v[i].spec, safe, sizeof(safe));
			memcpy(v[i].spec, safe, sizeof(safe));
		}
}

/* show --json's profiles: kp_src_profile, quietly */
static int show_prof(void *ctx, const struct kprof_probe_info *r,
		     struct kp_profile *p)
{
	return kp_src_profile(ctx, r, p);
}

int kp_show_ids(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		const struct kp_show_opts *o)
{
	struct kprof_probe_info *recs, *sel;
	void *callers;
	unsigned int n, i, j, k = 0;
	int ret;

	if (kp_dev_map(d))
		return 1;
	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	sel = calloc(d->m.hdr->max_probes, sizeof(*sel));
	callers = kp_frames_new(d);
	if (!recs || !sel || !callers) {
		free(recs);
		free(sel);
		kp_frames_free(callers);
		fprintf(stderr, "kprofctl: out of memory\n");
		return 1;
	}
	if (kp_map_probes(&d->m, recs, d->m.hdr->max_probes, &n)) {
		fprintf(stderr, "kprofctl: the probe table in the mapping is "
			"inconsistent\n");
		free(recs);
		free(sel);
		kp_frames_free(callers);
		return 1;
	}
	kp_src_refresh(d, recs, n);
	for (i = 0; i < n; i++) {
		int want = !nids;

		for (j = 0; j < nids; j++)
			want |= recs[i].id == ids[j];
		if (want)
			sel[k++] = recs[i];
	}
	/* text: a spec's control bytes shown, never sent to the terminal */
	if (!o->json && !o->prom) {
		term_safe_specs(recs, n);
		term_safe_specs(sel, k);
	}
	for (j = 0; j < nids && nids == 1 && !k; j++) {
		fprintf(stderr, "kprofctl show: no probe with id %u\n", ids[j]);
		free(recs);
		free(sel);
		kp_frames_free(callers);
		return 1;
	}
	ret = check_set_opts(d, sel, k, nids, o);
	if (!ret && o->folded)
		ret = check_folded(d, sel, k, o->folded);
	if (ret) {
		free(recs);
		free(sel);
		kp_frames_free(callers);
		return ret;
	}
	{
		static struct kp_topo topo;
		struct kp_show_opts so = *o;

		kp_src_topo(d, &topo);
		so.topo = &topo;
		so.sysfs_root = kp_sysfs_root();
		so.all = recs;
		so.nall = n;
		so.pid_gone = kp_src_pid_gone(d);
		so.caller_name = kp_frames_caller;
		so.stack_frame = kp_frames_stack;
		so.caller_ctx = callers;
		so.profile = show_prof;
		so.profile_ctx = d;
		/* the mapping never settled: kp_show() said so */
		ret = kp_show(o->out ? o->out : stdout, &d->m, sel, k, &so) ? 1 : 0;
		if (!ret)
			ret = show_profiles(d, o->out ? o->out : stdout, sel, k,
					    &so);
	}
	kp_frames_free(callers);
	free(recs);
	free(sel);
	return ret;
}
