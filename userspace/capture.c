// SPDX-License-Identifier: GPL-2.0
/*
 * Writing captures.  Saving walks a consistent copy of the mapping
 * (map-copy.c) and writes the machine's context, then each probe's
 * records as JSON (capture-json.c) with its frames named as show names
 * them; capture-read.c lays those records out again as a mapping that
 * kp_map_init() accepts, so every reader of the live mapping reads a file
 * the same way.  A recorded series is a list of such mappings, each
 * holding what one interval added.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <json-c/json.h>

#include "capture.h"
#include "capture-json.h"
#include "dev.h"
#include "key-frames.h"
#include "util.h"
#include "profile.h"
#include "funcset.h"
#include "spec.h"
#include "kprofctl/hist.h"

/* frames kept per stack id: a profile's unwind depth and then some */
#define KP_CAP_MAX_DEPTH	64

/* ---- frames, as show names them ---------------------------------------- */

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int has_key(const struct kprof_probe_info *r, unsigned int kind)
{
	return r->key_rec_size && (KPROF_KEYSPEC_KIND(r->key[0]) == kind ||
				   KPROF_KEYSPEC_KIND(r->key[1]) == kind);
}

static uint64_t key_val(const struct kp_map *m, const struct kprof_probe_info *r,
			unsigned int k, unsigned int kind)
{
	const struct kprof_key2 *key =
		(const void *)(m->base + r->keys_off + k * r->key_rec_size);

	if (!(key->flags & KPROF_KEY_USED))
		return 0;
	return KPROF_KEYSPEC_KIND(r->key[0]) == kind ? key->value : key->value2;
}

/* the names of the caller and stack ids probe r's keys use */
static void frames_keys(struct kp_dev *d, const struct kp_map *m,
			const struct kprof_probe_info *r, struct kp_cap_probe *x)
{
	void *fr = kp_frames_new(d);
	unsigned int k, i;

	if (!fr)
		return;
	x->nr_callers = has_key(r, KPROF_KEY_CALLER) ? r->nr_keys : 0;
	x->nr_stacks = has_key(r, KPROF_KEY_STACK) ? r->nr_keys : 0;
	x->depth = KP_CAP_MAX_DEPTH;
	x->callers = calloc(x->nr_callers + 1, sizeof(char *));
	x->stacks = calloc((size_t)x->nr_stacks * x->depth + 1, sizeof(char *));
	for (k = 0; x->callers && x->stacks && k < r->nr_keys; k++) {
		uint64_t id = x->nr_callers ?
			      key_val(m, r, k, KPROF_KEY_CALLER) : 0;

		if (id && id <= x->nr_callers && !x->callers[id - 1])
			x->callers[id - 1] =
				dup_or_null(kp_frames_caller(fr, r, id, 0));
		id = x->nr_stacks ? key_val(m, r, k, KPROF_KEY_STACK) : 0;
		if (!id || id > x->nr_stacks ||
		    x->stacks[(id - 1) * x->depth])
			continue;
		for (i = 0; i < x->depth; i++) {
			const char *s = kp_frames_stack(fr, r, id, i);

			if (!s)
				break;
			x->stacks[(id - 1) * x->depth + i] = strdup(s);
		}
	}
	x->frames_err = kp_frames_err(fr);
	kp_frames_free(fr);
}

static void frames_profile(struct kp_dev *d, const struct kp_map *m,
			   const struct kprof_probe_info *r,
			   struct kp_cap_probe *x)
{
	struct kp_profile p;
	uint32_t id;
	unsigned int i;

	if (kp_prof_load_map(d, m, r, &p))
		return;
	x->frames_err = p.frames_err;
	x->depth = KP_CAP_MAX_DEPTH;
	x->nr_stacks = p.nr_ids;
	x->stacks = calloc((size_t)x->nr_stacks * x->depth + 1, sizeof(char *));
	for (id = 1; x->stacks && !p.frames_err && id <= p.nr_ids; id++) {
		if (!kp_prof_count(&p, id, NULL) && !kp_prof_weight(&p, id, NULL))
			continue;
		for (i = 0; i < x->depth; i++) {
			const char *s = kp_prof_frame(&p, id, i);

			if (!s)
				break;
			x->stacks[(id - 1) * x->depth + i] = strdup(s);
		}
	}
	kp_prof_free(&p);
}

static void cap_probe_free(struct kp_cap_probe *x)
{
	size_t i;

	for (i = 0; x->callers && i < x->nr_callers; i++)
		free(x->callers[i]);
	for (i = 0; x->stacks && i < (size_t)x->nr_stacks * x->depth; i++)
		free(x->stacks[i]);
	free(x->callers);
	free(x->stacks);
	memset(x, 0, sizeof(*x));
}

/* ---- the context ------------------------------------------------------- */

static void first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* the board's model (device tree), else the DMI product, else "" */
void kp_machine_model(char *buf, size_t len)
{
	const char *root = kp_sysfs_root();
	char path[512];

	snprintf(path, sizeof(path), "%s/proc/device-tree/model", root);
	first_line(path, buf, len);
	if (buf[0])
		return;
	snprintf(path, sizeof(path), "%s/sys/class/dmi/id/product_name", root);
	first_line(path, buf, len);
}

static struct json_object *context_json(struct kp_dev *d,
					const struct kp_topo *t,
					uint64_t window_ns)
{
	struct json_object *o = json_object_new_object(), *a, *h;
	char model[128], when[40], abi[16], path[512], ver[64];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	unsigned int i;

	if (uname(&u))
		memset(&u, 0, sizeof(u));
	kp_machine_model(model, sizeof(model));
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	kp_json_put_str(o, "created", when);
	kp_json_put_str(o, "kprofctl", KPROFCTL_VERSION);
	snprintf(abi, sizeof(abi), "%u.%u", d->ver.abi_major, d->ver.abi_minor);
	kp_json_put_str(o, "module_abi", abi);
	snprintf(path, sizeof(path), "%s/sys/module/kprofctl/version",
		 kp_sysfs_root());
	first_line(path, ver, sizeof(ver));
	if (ver[0])
		kp_json_put_str(o, "module_version", ver);
	kp_json_put_str(o, "kernel", u.release);
	kp_json_put_str(o, "arch", u.machine);
	kp_json_put_str(o, "machine", model);
	kp_json_put_u64(o, "nr_cpus", d->m.hdr->nr_cpus);
	kp_json_put_u64(o, "window_ns", window_ns);
	h = json_object_new_object();
	kp_json_put_u64(h, "sub_bits", KPROF_HIST_SUB_BITS);
	kp_json_put_u64(h, "max_exp", KPROF_HIST_MAX_EXP);
	kp_json_put_u64(h, "nr_buckets", KPROF_HIST_NR_BUCKETS);
	kp_json_put(o, "histogram", h);
	a = json_object_new_array();
	for (i = 0; i < t->nr_clusters; i++) {
		struct json_object *c = json_object_new_object();

		kp_json_put_str(c, "name", t->cl[i].name);
		kp_json_put_str(c, "cpus", t->cl[i].cpus);
		kp_json_put_str(c, "pmu", t->cl[i].pmu);
		json_object_array_add(a, c);
	}
	kp_json_put(o, "clusters", a);
	return o;
}

/* ---- recording ---------------------------------------------------------- */

int kp_rec_init(struct kp_recorder *r, const struct kp_map *m, uint64_t now,
		uint64_t interval_ns)
{
	memset(r, 0, sizeof(*r));
	r->interval_ns = interval_ns;
	r->prev = kp_map_copy(m);
	r->intervals = json_object_new_array();
	if (!r->prev || !r->intervals) {
		kp_rec_free(r);
		return -1;
	}
	r->size = m->size;
	r->t0_ns = r->prev_ns = now;
	return 0;
}

int kp_rec_snap(struct kp_recorder *r, const struct kp_map *m, uint64_t now)
{
	struct json_object *o, *a;
	struct kp_map mc;
	char err[128];
	uint8_t *cur = kp_map_since(m, &r->prev);
	unsigned int s;

	if (!cur)
		return -1;
	if (kp_map_init(&mc, cur, m->size, err, sizeof(err))) {
		free(cur);
		return -1;
	}
	o = json_object_new_object();
	kp_json_put_u64(o, "t_ns", now - r->t0_ns);
	kp_json_put_u64(o, "dt_ns", now - r->prev_ns);
	a = json_object_new_array();
	for (s = 0; s < mc.hdr->max_probes; s++) {
		const struct kprof_probe_info *p =
			(const void *)(cur + mc.hdr->probes_off +
				       (uint64_t)s * mc.hdr->probe_rec_size);

		if (p->id)
			json_object_array_add(a, kp_cap_probe_json(&mc, p, NULL, NULL));
	}
	kp_json_put(o, "probes", a);
	json_object_array_add(r->intervals, o);
	r->n++;
	free(cur);
	r->prev_ns = now;
	return 0;
}

void kp_rec_slow(struct kp_recorder *r, struct kp_cap_slow *ev, size_t n,
		 uint64_t lost)
{
	free(r->slow);
	r->has_slow = 1;
	r->slow = ev;
	r->nr_slow = n;
	r->slow_lost = lost;
}

static struct json_object *slow_json(const struct kp_recorder *r)
{
	struct json_object *s = json_object_new_object();
	struct json_object *a = json_object_new_array();
	size_t i;

	for (i = 0; i < r->nr_slow; i++) {
		const struct kp_cap_slow *e = &r->slow[i];
		struct json_object *o = json_object_new_object();

		kp_json_put_u64(o, "probe", e->probe);
		kp_json_put_u64(o, "t_ns", e->t_ns);
		kp_json_put_u64(o, "latency_ns", e->latency_ns);
		kp_json_put_u64(o, "cpu", e->cpu);
		kp_json_put_u64(o, "pid", e->pid);
		kp_json_put_u64(o, "tgid", e->tgid);
		kp_json_put_str(o, "comm", e->comm);
		if (e->ftrace)
			kp_json_put_u64(o, "ftrace", e->ftrace);
		json_object_array_add(a, o);
	}
	kp_json_put_u64(s, "lost", r->slow_lost);
	kp_json_put(s, "calls", a);
	return s;
}

void kp_rec_free(struct kp_recorder *r)
{
	free(r->slow);
	free(r->prev);
	if (r->intervals)
		json_object_put(r->intervals);
	memset(r, 0, sizeof(*r));
}

/* ---- save ---------------------------------------------------------------- */

/* the probes named on the command line; 0, or the exit code after why */
int kp_cap_parse_ids(const char *cmd, int argc, char **argv, uint32_t **ids,
		     unsigned int *n)
{
	int i, ret;

	*n = 0;
	*ids = calloc((size_t)argc + 1, sizeof(**ids));
	if (!*ids)
		return 1;
	for (i = 0; i < argc; i++) {
		ret = kp_parse_id(cmd, argv[i], 0, &(*ids)[*n]);
		if (ret) {
			free(*ids);
			*ids = NULL;
			return ret;
		}
		(*n)++;
	}
	return 0;
}

/* every id in ids names a probe of the mapping; 0, or 1 after why */
int kp_cap_ids_exist(struct kp_dev *d, const char *cmd, const uint32_t *ids,
		     unsigned int n)
{
	struct kprof_probe_info *recs;
	unsigned int nr, i, j, found;

	if (kp_dev_map(d))
		return 1;
	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	if (!recs || kp_map_probes(&d->m, recs, d->m.hdr->max_probes, &nr)) {
		free(recs);
		fprintf(stderr, "kprofctl %s: cannot read the probe table\n", cmd);
		return 1;
	}
	if (!nr) {
		free(recs);
		fprintf(stderr, "kprofctl %s: there are no probes to save: add "
			"some first (kprofctl add SPEC --start)\n", cmd);
		return 1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0, found = 0; j < nr; j++)
			found |= recs[j].id == ids[i];
		if (!found) {
			free(recs);
			fprintf(stderr, "kprofctl %s: no probe with id %u\n", cmd,
				ids[i]);
			return 1;
		}
	}
	free(recs);
	return 0;
}

int kp_capture_save(const char *path, struct kp_dev *d, const uint32_t *ids,
		    unsigned int nids, uint64_t window_ns,
		    const struct kp_recorder *rec)
{
	struct json_object *top = NULL, *probes, *ctx, *losses;
	uint64_t missed = 0, drops = 0, evd = 0;
	struct kprof_probe_info *recs = NULL, *live = NULL;
	struct kp_topo *t = NULL;
	unsigned int n = 0, nlive = 0, i, j;
	struct kp_map cm;
	char err[128];
	void *copy = NULL;
	int ret = 1;

	if (kp_dev_map(d))
		return 1;
	/* window totals are refreshed by PMU_READ, misses by LIST */
	if (d->ver.caps & KPROF_CAP_PMU)
		kp_id_cmd(d, KPROF_IOC_PMU_READ, 0);
	copy = kp_map_copy(&d->m);
	recs = calloc(d->m.hdr->max_probes, sizeof(*recs));
	t = calloc(1, sizeof(*t));
	if (!copy || !recs || !t) {
		fprintf(stderr, "kprofctl: %s\n", copy ? "out of memory" :
			"the statistics mapping never settled");
		goto out;
	}
	if (kp_map_init(&cm, copy, d->m.size, err, sizeof(err)) ||
	    kp_map_probes(&cm, recs, cm.hdr->max_probes, &n)) {
		fprintf(stderr, "kprofctl: the probe table in the mapping is "
			"inconsistent\n");
		goto out;
	}
	if (!kp_list_probes(d, &live, &nlive))
		for (i = 0; i < n; i++)
			for (j = 0; j < nlive; j++)
				if (live[j].id == recs[i].id)
					recs[i].nmissed = live[j].nmissed;
	kp_topo_load(t, kp_sysfs_root(), d->ver.nr_cpus);
	top = json_object_new_object();
	kp_json_put_str(top, "format", KP_CAPTURE_FORMAT);
	kp_json_put_u64(top, "version", KP_CAPTURE_VERSION);
	ctx = context_json(d, t, window_ns);
	kp_json_put(top, "context", ctx);
	probes = json_object_new_array();
	for (i = 0; i < n; i++) {
		struct kp_cap_probe x = { .id = recs[i].id };
		int want = !nids;
		struct kp_agg a;

		for (j = 0; j < nids; j++)
			want |= ids[j] == recs[i].id;
		if (!want)
			continue;
		x.pid_gone = (recs[i].flags & (KPROF_ADD_PID | KPROF_ADD_TGID)) &&
			     kp_pid_gone(recs[i].pid);
		if (kp_prof_is(&cm, &recs[i]))
			frames_profile(d, &cm, &recs[i], &x);
		else if (has_key(&recs[i], KPROF_KEY_CALLER) ||
			 has_key(&recs[i], KPROF_KEY_STACK))
			frames_keys(d, &cm, &recs[i], &x);
		json_object_array_add(probes, kp_cap_probe_json(&cm, &recs[i], &x,
							 kp_sysfs_root()));
		cap_probe_free(&x);
		kp_aggregate(&cm, &recs[i], -1, &a);
		missed += recs[i].nmissed;
		drops += a.drops;
		evd += a.events_dropped;
	}
	kp_json_put(top, "probes", probes);
	/* what was not counted, at a glance (each probe has its own) */
	losses = json_object_new_object();
	kp_json_put_u64(losses, "missed", missed);
	kp_json_put_u64(losses, "dropped", drops);
	kp_json_put_u64(losses, "events_dropped", evd);
	kp_json_put(ctx, "losses", losses);
	if (rec && rec->n) {
		struct json_object *s = json_object_new_object();

		kp_json_put_u64(s, "interval_ns", rec->interval_ns);
		kp_json_put(s, "data", json_object_get(rec->intervals));
		if (rec->has_slow)
			kp_json_put(s, "slow", slow_json(rec));
		kp_json_put(top, "series", s);
	}
	{
		FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;

		ret = !f || fputs(json_object_to_json_string_ext(top,
				JSON_C_TO_STRING_SPACED |
				JSON_C_TO_STRING_NOSLASHESCAPE), f) < 0 ||
		      fputc('\n', f) < 0;
		if (f && (f == stdout ? fflush(f) : fclose(f)))
			ret = 1;
	}
	if (ret)
		fprintf(stderr, "kprofctl: cannot write '%s': %s\n", path,
			strerror(errno));
out:
	if (top)
		json_object_put(top);
	free(live);
	free(copy);
	free(recs);
	free(t);
	return ret;
}
