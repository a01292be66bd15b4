// SPDX-License-Identifier: GPL-2.0
/*
 * The model of a timeline: a recording's intervals summed per probe
 * (all CPUs, with percentiles) and per CPU.  No output here:
 * timeline-json.c writes it.
 */
#include <stdlib.h>
#include <string.h>

#include "agg.h"
#include "capture.h"
#include "spec.h"
#include "timeline.h"

static void agg(const struct kp_cap_interval *v,
		const struct kprof_probe_info *r, int cpu, struct kp_agg *a)
{
	/* a pair's calls are in its keys' rows */
	if (r->type == KPROF_TYPE_PAIR)
		kp_aggregate_pair(&v->m, r, cpu, a);
	else
		kp_aggregate(&v->m, r, cpu, a);
}

/* Probe id's cell in interval v; a probe absent from it has no calls */
static int fill_cell(struct kp_tl_cell *cell, const struct kp_cap_interval *v,
		     uint32_t id, int latency, unsigned int nr_cpus)
{
	struct kp_agg *a;
	unsigned int k, cpu;

	cell->cpu_count = calloc(nr_cpus ? nr_cpus : 1,
				 sizeof(*cell->cpu_count));
	if (!cell->cpu_count)
		return -1;
	for (k = 0; k < v->n && v->recs[k].id != id; k++)
		;
	if (k == v->n)
		return 0;
	/* struct kp_agg carries a whole histogram: not on the stack */
	a = malloc(sizeof(*a));
	if (!a)
		return -1;
	agg(v, &v->recs[k], -1, a);
	cell->count = a->count;
	if (latency && a->count) {
		cell->p50_ns = kp_quantile(a, 50, 100);
		cell->p99_ns = kp_quantile(a, 99, 100);
		cell->max_ns = a->max;
	}
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		agg(v, &v->recs[k], (int)cpu, a);
		cell->cpu_count[cpu] = a->count;
	}
	free(a);
	return 0;
}

static int by_task(const void *x, const void *y)
{
	const struct kp_tl_slow *a = x, *b = y;

	if (a->pid != b->pid)
		return a->pid < b->pid ? -1 : 1;
	if (a->t0_ns != b->t0_ns)
		return a->t0_ns < b->t0_ns ? -1 : 1;
	/* the outer of two calls that start together first */
	return a->dur_ns > b->dur_ns ? -1 : a->dur_ns < b->dur_ns;
}

struct lane {
	uint64_t *end;			/* its open calls' ends, a stack */
	unsigned int depth, cap;
};

static int push(struct lane *l, uint64_t e)
{
	if (l->depth == l->cap) {
		unsigned int cap = l->cap ? l->cap * 2 : 8;
		uint64_t *p = realloc(l->end, cap * sizeof(*p));

		if (!p)
			return -1;
		l->end = p;
		l->cap = cap;
	}
	l->end[l->depth++] = e;
	return 0;
}

/*
 * A task's calls nest or follow each other; a pair's ends, timed on the
 * ending task, may cross.  Each goes on the first lane where it nests in
 * or follows what is open there, so no lane holds two that cross (the
 * trace format's rule for one thread).
 */
static int lanes(struct kp_tl_slow *v, unsigned int n)
{
	struct lane *ln = calloc(n, sizeof(*ln));
	unsigned int i, k, used = 0;
	int ret = 0;

	if (!ln)
		return -1;
	for (i = 0; i < n && !ret; i++) {
		uint64_t e = v[i].t0_ns + v[i].dur_ns;

		for (k = 0; k < used; k++) {
			struct lane *l = &ln[k];

			while (l->depth && l->end[l->depth - 1] <= v[i].t0_ns)
				l->depth--;
			if (!l->depth || e <= l->end[l->depth - 1])
				break;
		}
		if (k == used)
			used++;
		v[i].lane = k;
		ret = push(&ln[k], e);
	}
	for (k = 0; k < used; k++)
		free(ln[k].end);
	free(ln);
	return ret;
}

/* c's slow calls on their tasks' lanes */
static int slow_calls(struct kp_timeline *tl, const struct kp_capture *c)
{
	unsigned int i, j, k;

	tl->has_slow = c->has_slow;
	tl->slow_lost = c->slow_lost;
	if (!c->nr_slow)
		return 0;
	tl->slow = calloc(c->nr_slow, sizeof(*tl->slow));
	if (!tl->slow)
		return -1;
	for (i = 0; i < c->nr_slow; i++) {
		const struct kp_cap_slow *e = &c->slow[i];
		struct kp_tl_slow *s = &tl->slow[i];

		/* one that began before the recording is cut at its start */
		s->t0_ns = e->latency_ns < e->t_ns ? e->t_ns - e->latency_ns : 0;
		s->dur_ns = e->t_ns - s->t0_ns;
		s->latency_ns = e->latency_ns;
		s->probe = e->probe;
		s->cpu = e->cpu;
		s->pid = e->pid;
		s->tgid = e->tgid;
		s->ftrace = e->ftrace;
		memcpy(s->comm, e->comm, sizeof(s->comm));
		for (j = 0; j < tl->nr_probes && tl->p[j].id != e->probe; j++)
			;
		s->spec = j < tl->nr_probes ? tl->p[j].spec : "?";
	}
	tl->nr_slow = c->nr_slow;
	qsort(tl->slow, tl->nr_slow, sizeof(*tl->slow), by_task);
	for (i = 0; i < tl->nr_slow; i = k) {
		for (k = i; k < tl->nr_slow && tl->slow[k].pid == tl->slow[i].pid;
		     k++)
			;
		if (lanes(tl->slow + i, k - i))
			return -1;
	}
	return 0;
}

int kp_timeline_build(struct kp_timeline *tl, const struct kp_capture *c,
		      char *err, size_t len)
{
	unsigned int i, j;

	memset(tl, 0, sizeof(*tl));
	if (!c->nr_iv) {
		snprintf(err, len, "the capture has no series: make one with "
			 "'kprofctl record -i TIME -o FILE'");
		return -1;
	}
	tl->nr_iv = c->nr_iv;
	tl->nr_probes = c->n;
	tl->nr_cpus = c->nr_cpus;
	snprintf(tl->kernel, sizeof(tl->kernel), "%s", c->kernel);
	snprintf(tl->machine, sizeof(tl->machine), "%s", c->machine);
	snprintf(tl->created, sizeof(tl->created), "%s", c->created);
	tl->t0_ns = calloc(c->nr_iv, sizeof(*tl->t0_ns));
	tl->dt_ns = calloc(c->nr_iv, sizeof(*tl->dt_ns));
	tl->p = calloc(c->n ? c->n : 1, sizeof(*tl->p));
	if (!tl->t0_ns || !tl->dt_ns || !tl->p)
		goto nomem;
	for (i = 0; i < c->nr_iv; i++) {
		/* an interval ends at t_ns; a corrupt dt cannot start before 0 */
		tl->dt_ns[i] = c->iv[i].dt_ns <= c->iv[i].t_ns ?
			       c->iv[i].dt_ns : c->iv[i].t_ns;
		tl->t0_ns[i] = c->iv[i].t_ns - tl->dt_ns[i];
		if (c->iv[i].t_ns > tl->end_ns)
			tl->end_ns = c->iv[i].t_ns;
	}
	for (j = 0; j < c->n; j++) {
		struct kp_tl_probe *p = &tl->p[j];

		p->id = c->recs[j].id;
		p->latency = kp_type_latency(c->recs[j].type);
		snprintf(p->spec, sizeof(p->spec), "%s", c->recs[j].spec);
		p->cell = calloc(c->nr_iv, sizeof(*p->cell));
		if (!p->cell)
			goto nomem;
		for (i = 0; i < c->nr_iv; i++)
			if (fill_cell(&p->cell[i], &c->iv[i], p->id, p->latency,
				      tl->nr_cpus))
				goto nomem;
	}
	if (slow_calls(tl, c))
		goto nomem;
	return 0;
nomem:
	kp_timeline_free(tl);
	snprintf(err, len, "out of memory");
	return -1;
}

void kp_timeline_free(struct kp_timeline *tl)
{
	unsigned int i, j;

	for (j = 0; tl->p && j < tl->nr_probes; j++) {
		for (i = 0; tl->p[j].cell && i < tl->nr_iv; i++)
			free(tl->p[j].cell[i].cpu_count);
		free(tl->p[j].cell);
	}
	free(tl->p);
	free(tl->slow);
	free(tl->t0_ns);
	free(tl->dt_ns);
	memset(tl, 0, sizeof(*tl));
}
