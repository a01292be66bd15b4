// SPDX-License-Identifier: GPL-2.0
/*
 * Reading captures: every field a file gives is checked (type, range,
 * against the others) before it is laid out as a mapping, so a truncated,
 * corrupt or hostile file is refused with the place and the reason, and
 * what is built always passes kp_map_init() and the readers' own checks.
 * The layout is built by map-build.c, the fields read through
 * capture-get.c's checked getters.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "capture.h"
#include "dev.h"
#include "map-build.h"
#include "funcset.h"
#include "spec.h"
#include "kprofctl/hist.h"

static int context(struct rd *x, struct kp_capture *c, struct json_object *o)
{
	struct json_object *a, *h;
	char abi[16], err[128];
	uint64_t v;
	size_t i;

	if (!o || !json_object_is_type(o, json_type_object))
		return kp_rd_bad(x, "\"context\" is missing or not an object");
	x->where = "context";
	if (kp_rd_str(x, o, "kernel", c->kernel, sizeof(c->kernel), 1) ||
	    kp_rd_str(x, o, "machine", c->machine, sizeof(c->machine), 1) ||
	    kp_rd_str(x, o, "arch", c->arch, sizeof(c->arch), 1) ||
	    kp_rd_str(x, o, "created", c->created, sizeof(c->created), 1) ||
	    kp_rd_str(x, o, "kprofctl", c->cli, sizeof(c->cli), 1) ||
	    kp_rd_str(x, o, "module_abi", abi, sizeof(abi), 0) ||
	    kp_rd_u32(x, o, "nr_cpus", KP_MAX_CPUS, -1, &c->nr_cpus) ||
	    kp_rd_u64(x, o, "window_ns", UINT64_MAX, 0, &c->window_ns))
		return -1;
	if (sscanf(abi, "%u.%u", &c->abi_major, &c->abi_minor) != 2)
		return kp_rd_bad(x, "\"module_abi\" is not MAJOR.MINOR");
	if (c->abi_major != KPROF_ABI_MAJOR)
		return kp_rd_bad(x, "made with a module of ABI %u, this kprofctl reads %u",
			   c->abi_major, KPROF_ABI_MAJOR);
	if (!c->nr_cpus)
		return kp_rd_bad(x, "\"nr_cpus\" is 0");
	x->nr_cpus = c->nr_cpus;
	h = kp_rd_member(o, "histogram");
	if (!h || !json_object_is_type(h, json_type_object))
		return kp_rd_bad(x, "\"histogram\" is missing");
	if (kp_rd_u64(x, h, "sub_bits", 64, -1, &v))
		return -1;
	if (v != KPROF_HIST_SUB_BITS)
		goto geometry;
	if (kp_rd_u64(x, h, "max_exp", 64, -1, &v))
		return -1;
	if (v != KPROF_HIST_MAX_EXP)
		goto geometry;
	if (kp_rd_u64(x, h, "nr_buckets", UINT32_MAX, -1, &v))
		return -1;
	if (v != KPROF_HIST_NR_BUCKETS)
		goto geometry;
	/* the clusters as saved: names and CPUs of the machine it ran on */
	memset(&c->topo, 0, sizeof(c->topo));
	c->topo.nr_cpus = c->nr_cpus;
	for (i = 0; i < KP_MAX_CPUS; i++)
		c->topo.cluster_of[i] = -1;
	a = kp_rd_arr(x, o, "clusters", 0);
	if (!a)
		return -1;
	if (!json_object_array_length(a) ||
	    json_object_array_length(a) > KP_MAX_CLUSTERS)
		return kp_rd_bad(x, "\"clusters\" has %zu entries (1 to %u)",
			   json_object_array_length(a), KP_MAX_CLUSTERS);
	for (i = 0; i < json_object_array_length(a); i++) {
		struct kp_cluster *k = &c->topo.cl[i];
		struct json_object *e = json_object_array_get_idx(a, i);
		unsigned int cpu;

		if (!e || !json_object_is_type(e, json_type_object) ||
		    kp_rd_str(x, e, "name", k->name, sizeof(k->name), 0) ||
		    kp_rd_str(x, e, "cpus", k->cpus, sizeof(k->cpus), 0) ||
		    kp_rd_str(x, e, "pmu", k->pmu, sizeof(k->pmu), 1))
			return x->err[0] ? -1 : kp_rd_bad(x, "cluster %zu is not an "
						   "object", i);
		if (kp_parse_cpulist(k->cpus, c->nr_cpus, k->mask, err,
				     sizeof(err)))
			return kp_rd_bad(x, "cluster %s: %s", k->name, err);
		for (cpu = 0; cpu < c->nr_cpus; cpu++) {
			if (!(k->mask[cpu / 64] >> (cpu % 64) & 1))
				continue;
			if (c->topo.cluster_of[cpu] >= 0)
				return kp_rd_bad(x, "CPU %u in two clusters", cpu);
			c->topo.cluster_of[cpu] = (int)i;
		}
	}
	c->topo.nr_clusters = (unsigned int)i;
	x->where = NULL;
	return 0;
geometry:
	return kp_rd_bad(x, "its histograms have another bucket layout than this "
		   "kprofctl's (sub_bits %u, max_exp %u): read it with the "
		   "kprofctl that made it", KPROF_HIST_SUB_BITS, KPROF_HIST_MAX_EXP);
}

static int read_frames(struct rd *x, struct kp_cap_probe *cp,
		       struct json_object *o)
{
	struct json_object *a;
	size_t i, j, n;
	uint64_t id;

	if (!json_object_is_type(o, json_type_object))
		return kp_rd_bad(x, "\"frames\" is not an object");
	if (kp_rd_member(o, "hidden")) {
		cp->frames_err = EPERM;
		return 0;
	}
	cp->depth = MAX_DEPTH;
	a = kp_rd_arr(x, o, "callers", 1);
	if (x->err[0])
		return -1;
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *s;

		if (!e || !json_object_is_type(e, json_type_array) ||
		    json_object_array_length(e) != 2 ||
		    kp_rd_arr_u64(x, e, 0, MAX_IDS, "caller id", &id) || !id)
			return x->err[0] ? -1 : kp_rd_bad(x, "caller %zu is not [id, name]", i);
		s = json_object_array_get_idx(e, 1);
		if (!s || !json_object_is_type(s, json_type_string))
			return kp_rd_bad(x, "caller %zu is not [id, name]", i);
		if (id > cp->nr_callers) {
			char **v = realloc(cp->callers, id * sizeof(char *));

			if (!v)
				return kp_rd_bad(x, "out of memory");
			memset(v + cp->nr_callers, 0,
			       (id - cp->nr_callers) * sizeof(char *));
			cp->callers = v;
			cp->nr_callers = (uint32_t)id;
		}
		free(cp->callers[id - 1]);
		cp->callers[id - 1] = strdup(json_object_get_string(s));
	}
	a = kp_rd_arr(x, o, "stacks", 1);
	if (x->err[0])
		return -1;
	n = a ? json_object_array_length(a) : 0;
	for (i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(a, i), *fr;

		if (!e || !json_object_is_type(e, json_type_object) ||
		    kp_rd_u64(x, e, "id", MAX_IDS, -1, &id) || !id)
			return x->err[0] ? -1 : kp_rd_bad(x, "stack %zu has no id", i);
		fr = kp_rd_arr(x, e, "frames", 0);
		if (!fr)
			return -1;
		if (json_object_array_length(fr) > MAX_DEPTH)
			return kp_rd_bad(x, "stack %" PRIu64 " has more than %u frames",
				   id, MAX_DEPTH);
		if (id > cp->nr_stacks) {
			char **v = realloc(cp->stacks, id * MAX_DEPTH *
					   sizeof(char *));

			if (!v)
				return kp_rd_bad(x, "out of memory");
			memset(v + (size_t)cp->nr_stacks * MAX_DEPTH, 0,
			       (id - cp->nr_stacks) * MAX_DEPTH * sizeof(char *));
			cp->stacks = v;
			cp->nr_stacks = (uint32_t)id;
		}
		for (j = 0; j < json_object_array_length(fr); j++) {
			struct json_object *s = json_object_array_get_idx(fr, j);
			char **slot = &cp->stacks[(id - 1) * MAX_DEPTH + j];

			if (!s || !json_object_is_type(s, json_type_string))
				return kp_rd_bad(x, "stack %" PRIu64 ": frame %zu is not "
					   "a string", id, j);
			free(*slot);
			*slot = strdup(json_object_get_string(s));
		}
	}
	return 0;
}

static void cap_probe_free(struct kp_cap_probe *p)
{
	size_t i;

	for (i = 0; p->callers && i < p->nr_callers; i++)
		free(p->callers[i]);
	for (i = 0; p->stacks && i < (size_t)p->nr_stacks * p->depth; i++)
		free(p->stacks[i]);
	free(p->callers);
	free(p->stacks);
}

/* series.slow: the slow calls record heard, each of a probe c has */
static int read_slow(struct rd *x, struct kp_capture *c, struct json_object *o,
		     uint64_t end)
{
	struct json_object *a;
	char where[48];
	size_t i, k;

	x->where = "series.slow";
	if (!json_object_is_type(o, json_type_object))
		return kp_rd_bad(x, "not an object");
	if (kp_rd_u64(x, o, "lost", UINT64_MAX, -1, &c->slow_lost) ||
	    !(a = kp_rd_arr(x, o, "calls", 0)))
		return -1;
	if (json_object_array_length(a) > 1000000)
		return kp_rd_bad(x, "more than a million slow calls");
	c->nr_slow = (unsigned int)json_object_array_length(a);
	c->slow = calloc(c->nr_slow + 1, sizeof(*c->slow));
	if (!c->slow)
		return kp_rd_bad(x, "out of memory");
	c->has_slow = 1;
	for (i = 0; i < c->nr_slow; i++) {
		struct kp_cap_slow *e = &c->slow[i];
		struct json_object *v = json_object_array_get_idx(a, i);

		snprintf(where, sizeof(where), "series.slow call %zu", i + 1);
		x->where = where;
		if (!v || !json_object_is_type(v, json_type_object))
			return kp_rd_bad(x, "not an object");
		if (kp_rd_u32(x, v, "probe", UINT32_MAX, -1, &e->probe) ||
		    kp_rd_u64(x, v, "t_ns", end, -1, &e->t_ns) ||
		    kp_rd_u64(x, v, "latency_ns", UINT64_MAX, -1,
			      &e->latency_ns) ||
		    kp_rd_u32(x, v, "cpu", c->nr_cpus ? c->nr_cpus - 1 : 0, -1,
			      &e->cpu) ||
		    kp_rd_u32(x, v, "pid", UINT32_MAX, -1, &e->pid) ||
		    kp_rd_u32(x, v, "tgid", UINT32_MAX, -1, &e->tgid) ||
		    kp_rd_str(x, v, "comm", e->comm, sizeof(e->comm), 0) ||
		    kp_rd_u32(x, v, "ftrace", UINT32_MAX, 0, &e->ftrace))
			return -1;
		if (i && e->t_ns < e[-1].t_ns)
			return kp_rd_bad(x, "times go backwards");
		for (k = 0; k < c->n && c->recs[k].id != e->probe; k++)
			;
		if (k == c->n)
			return kp_rd_bad(x, "probe %u is not in the capture",
					 e->probe);
	}
	x->where = NULL;
	return 0;
}

void kp_capture_free(struct kp_capture *c)
{
	unsigned int i;

	for (i = 0; c->p && i < c->n; i++)
		cap_probe_free(&c->p[i]);
	for (i = 0; c->iv && i < c->nr_iv; i++) {
		free(c->iv[i].buf);
		free(c->iv[i].recs);
	}
	free(c->iv);
	free(c->slow);
	free(c->p);
	free(c->recs);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

int kp_capture_parse(struct kp_capture *c, const char *text, size_t len,
		     char *err, size_t errlen)
{
	struct rd x = { .err = err, .errlen = errlen };
	struct json_tokener *tok = json_tokener_new_ex(64);
	struct json_object *top = NULL, *probes, *series, *slow;
	enum json_tokener_error je;
	struct build b = { 0 };
	struct layout l = { 0 };
	char fmt[64], where[64];
	uint64_t ver, end;
	size_t i;
	int ret = -1;

	memset(c, 0, sizeof(*c));
	err[0] = '\0';
	/* save's --help pipes it through gzip: say how to read that back */
	if (len >= 2 && (unsigned char)text[0] == 0x1f &&
	    (unsigned char)text[1] == 0x8b) {
		json_tokener_free(tok);
		snprintf(err, errlen, "gzip-compressed, not JSON: unpack it "
			 "(gunzip), or give - and pipe it from zcat FILE");
		return -1;
	}
	if (!tok)
		return kp_rd_bad(&x, "out of memory");
	top = json_tokener_parse_ex(tok, text, (int)(len > INT32_MAX ? INT32_MAX : len));
	je = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	if (len > INT32_MAX) {
		kp_rd_bad(&x, "larger than 2 GiB");
		goto out;
	}
	if (je == json_tokener_continue || (!top && je == json_tokener_success)) {
		kp_rd_bad(&x, "truncated: the JSON stops after %zu bytes, inside the "
		    "document", len);
		goto out;
	}
	if (!top) {
		kp_rd_bad(&x, "not JSON: %s at byte %" PRIu64,
			  json_tokener_error_desc(je), end);
		goto out;
	}
	for (i = end; i < len; i++)
		if (!strchr(" \t\r\n", text[i])) {
			kp_rd_bad(&x, "data after the JSON document at byte %zu", i);
			goto out;
		}
	if (!json_object_is_type(top, json_type_object) ||
	    kp_rd_str(&x, top, "format", fmt, sizeof(fmt), 1) ||
	    strcmp(fmt, KP_CAPTURE_FORMAT)) {
		x.err[0] = '\0';
		kp_rd_bad(&x, "not a kprofctl capture (it has no \"format\": \"%s\"; "
		    "kprofctl save writes them)", KP_CAPTURE_FORMAT);
		goto out;
	}
	if (kp_rd_u64(&x, top, "version", UINT32_MAX, -1, &ver))
		goto out;
	if (ver > KP_CAPTURE_VERSION) {
		kp_rd_bad(&x, "capture format version %" PRIu64 " is newer than this "
		    "kprofctl reads (%u): read it with a newer kprofctl", ver,
		    KP_CAPTURE_VERSION);
		goto out;
	}
	if (ver < 1) {
		kp_rd_bad(&x, "capture format version %" PRIu64 " does not exist", ver);
		goto out;
	}
	if (context(&x, c, kp_rd_member(top, "context")))
		goto out;
	probes = kp_rd_arr(&x, top, "probes", 0);
	if (!probes)
		goto out;
	b.n = (unsigned int)json_object_array_length(probes);
	if (b.n > MAX_SLOTS) {
		kp_rd_bad(&x, "more than %u probes", MAX_SLOTS);
		goto out;
	}
	b.p = calloc(b.n + 1, sizeof(*b.p));
	if (!b.p) {
		kp_rd_bad(&x, "out of memory");
		goto out;
	}
	b.size = 4096;	/* the header's page */
	for (i = 0; i < b.n; i++) {
		snprintf(where, sizeof(where), "probe %zu", i + 1);
		x.where = where;
		b.p[i].o = json_object_array_get_idx(probes, i);
		if (!b.p[i].o || kp_plan_probe(&x, &b, &b.p[i]))
			goto out;
	}
	x.where = NULL;
	l.max_probes = b.max_slot ? b.max_slot : 1;
	l.nr_pmus = b.nr_pmus;
	l.pmu_counts_off = KPROF_PMU_MAX_EVENTS * sizeof(struct kprof_pmu_event);
	l.pmu_stats_off = l.pmu_counts_off + KPROF_PMU_MAX_EVENTS * x.nr_cpus *
			  sizeof(struct kprof_pmu_count);
	l.pmu_stride = l.pmu_stats_off + (uint64_t)KPROF_PMU_MAX_EVENTS *
		       x.nr_cpus * CPU_STRIDE;
	l.probe_stride = (uint64_t)x.nr_cpus * CPU_STRIDE;
	{
		uint64_t need = 0;

		if (kp_mul_ok(&x, l.nr_pmus, l.pmu_stride, &need) ||
		    kp_reserve(&x, &b, need, &l.pmus_off) ||
		    kp_reserve(&x, &b, (uint64_t)l.max_probes *
			    sizeof(struct kprof_probe_info), &l.probes_off) ||
		    kp_mul_ok(&x, l.max_probes, l.probe_stride, &need) ||
		    kp_reserve(&x, &b, need, &l.stats_off))
			goto out;
	}
	l.size = b.size;
	if (kp_build_map(&x, &l, &b, probes, 1, c->abi_minor, &c->buf, &c->m,
			 &c->recs, &c->n))
		goto out;
	c->p = calloc(c->n + 1, sizeof(*c->p));
	if (!c->p) {
		kp_rd_bad(&x, "out of memory");
		goto out;
	}
	for (i = 0; i < c->n; i++) {
		struct json_object *o = NULL, *fr;
		size_t k;

		c->p[i].id = c->recs[i].id;
		for (k = 0; k < b.n; k++)
			if (b.p[k].r.id == c->recs[i].id)
				o = b.p[k].o;
		snprintf(where, sizeof(where), "probe %u", c->recs[i].id);
		x.where = where;
		fr = o ? kp_rd_member(o, "frames") : NULL;
		if (fr && read_frames(&x, &c->p[i], fr))
			goto out;
		if (o && kp_rd_member(o, "pid_gone"))
			c->p[i].pid_gone = json_object_get_boolean(kp_rd_member(o, "pid_gone"));
	}
	x.where = NULL;
	for (i = 0; i < c->n; i++)
		for (size_t k = i + 1; k < c->n; k++)
			if (c->recs[i].id == c->recs[k].id) {
				kp_rd_bad(&x, "probe id %u twice", c->recs[i].id);
				goto out;
			}
	series = kp_rd_member(top, "series");
	if (series) {
		struct json_object *data;
		uint64_t t_prev = 0;

		x.where = "series";
		if (!json_object_is_type(series, json_type_object) ||
		    !(data = kp_rd_arr(&x, series, "data", 0))) {
			if (!x.err[0])
				kp_rd_bad(&x, "not an object");
			goto out;
		}
		if (kp_rd_u64(&x, series, "interval_ns", UINT64_MAX, 0,
			      &c->interval_ns))
			goto out;
		c->nr_iv = (unsigned int)json_object_array_length(data);
		if (c->nr_iv > 1000000) {
			kp_rd_bad(&x, "more than a million intervals");
			goto out;
		}
		c->iv = calloc(c->nr_iv + 1, sizeof(*c->iv));
		if (!c->iv) {
			kp_rd_bad(&x, "out of memory");
			goto out;
		}
		for (i = 0; i < c->nr_iv; i++) {
			struct kp_cap_interval *iv = &c->iv[i];
			struct json_object *o = json_object_array_get_idx(data, i), *a;

			snprintf(where, sizeof(where), "interval %zu", i + 1);
			x.where = where;
			if (!o || !json_object_is_type(o, json_type_object) ||
			    kp_rd_u64(&x, o, "t_ns", UINT64_MAX, -1, &iv->t_ns) ||
			    kp_rd_u64(&x, o, "dt_ns", UINT64_MAX, -1, &iv->dt_ns) ||
			    !(a = kp_rd_arr(&x, o, "probes", 0))) {
				if (!x.err[0])
					kp_rd_bad(&x, "not an object");
				goto out;
			}
			if (iv->t_ns < t_prev || iv->dt_ns > iv->t_ns) {
				kp_rd_bad(&x, "times go backwards");
				goto out;
			}
			t_prev = iv->t_ns;
			if (kp_build_map(&x, &l, &b, a, 0, c->abi_minor, &iv->buf,
					 &iv->m, &iv->recs, &iv->n))
				goto out;
		}
		x.where = NULL;
		slow = kp_rd_member(series, "slow");
		if (slow && read_slow(&x, c, slow, t_prev))
			goto out;
	}
	ret = 0;
out:
	if (ret && !err[0])
		kp_rd_bad(&x, "not a valid capture");
	if (ret)
		kp_capture_free(c);
	free(b.p);
	if (top)
		json_object_put(top);
	json_tokener_free(tok);
	return ret;
}

int kp_capture_load(struct kp_capture *c, const char *path, char *err,
		    size_t errlen)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char *text = NULL;
	size_t len = 0, cap = 0, got;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!f) {
		snprintf(err, errlen, "%s", strerror(errno));
		return -1;
	}
	do {
		if (len + 65536 + 1 > cap) {
			char *t;

			cap = (len + 65536 + 1) * 2;
			t = cap > ((size_t)1 << 31) ? NULL : realloc(text, cap);
			if (!t) {
				free(text);
				if (f != stdin)
					fclose(f);
				snprintf(err, errlen, "larger than 1 GiB, or out "
					 "of memory");
				return -1;
			}
			text = t;
		}
		got = fread(text + len, 1, 65536, f);
		len += got;
	} while (got);
	if (ferror(f)) {
		snprintf(err, errlen, "%s", strerror(errno));
		free(text);
		if (f != stdin)
			fclose(f);
		return -1;
	}
	if (f != stdin)
		fclose(f);
	text[len] = '\0';
	if (!len) {
		free(text);
		snprintf(err, errlen, "empty file");
		return -1;
	}
	ret = kp_capture_parse(c, text, len, err, errlen);
	free(text);
	return ret;
}

const struct kp_cap_probe *kp_cap_probe(const struct kp_capture *c, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if (c->p[i].id == id)
			return &c->p[i];
	return NULL;
}

const char *kp_cap_caller(const struct kp_capture *c, uint32_t probe,
			  uint64_t id)
{
	const struct kp_cap_probe *p = kp_cap_probe(c, probe);

	if (!p || !id || id > p->nr_callers)
		return NULL;
	return p->callers[id - 1];
}

const char *kp_cap_frame(const struct kp_capture *c, uint32_t probe,
			 uint64_t id, unsigned int i)
{
	const struct kp_cap_probe *p = kp_cap_probe(c, probe);

	if (!p || !id || id > p->nr_stacks || i >= p->depth)
		return NULL;
	return p->stacks[(id - 1) * p->depth + i];
}

const char *kp_cap_frame_cb(void *ctx, const struct kprof_probe_info *r,
			    uint64_t id, unsigned int i)
{
	return kp_cap_frame(ctx, r->id, id, i);
}

void kp_dev_from_capture(struct kp_dev *d, const struct kp_capture *c)
{
	memset(d, 0, sizeof(*d));
	d->cap = c;
	d->fd = -1;
	d->wfd = -1;
	d->ver.size = sizeof(d->ver);
	d->ver.abi_major = c->abi_major;
	d->ver.abi_minor = c->abi_minor;
	d->ver.nr_cpus = c->nr_cpus;
	d->ver.mmap_size = c->m.size;
	d->m = c->m;
}
