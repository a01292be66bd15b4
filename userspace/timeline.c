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
	free(tl->t0_ns);
	free(tl->dt_ns);
	memset(tl, 0, sizeof(*tl));
}
