// SPDX-License-Identifier: GPL-2.0
/* The device, a capture and an interval as one source (source.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "capture.h"
#include "dev.h"
#include "pmu.h"
#include "profile.h"
#include "source.h"
#include "util.h"

void kp_src_interval(struct kp_dev *iv, const struct kp_dev *d,
		     const struct kp_map *m)
{
	*iv = *d;
	iv->frozen = 1;
	iv->map = NULL;
	iv->m = *m;
}

int kp_src_probe(struct kp_dev *d, uint32_t id, struct kprof_probe_info *out)
{
	struct kprof_probe_query q;
	unsigned int i;

	memset(&q, 0, sizeof(q));
	q.size = sizeof(q);
	q.id = id;
	if (d->cap) {
		for (i = 0; i < d->cap->n; i++)
			if (d->cap->recs[i].id == id)
				q.info = d->cap->recs[i];
		if (q.info.id != id)
			return -1;
	} else if (kp_ioctl(d, KPROF_IOC_INFO, &q)) {
		return -1;
	}
	*out = q.info;
	return 0;
}

/*
 * The kprobe core's miss counts are mirrored into the mapping by a
 * delayed work every 100 ms while probes run, so a show right after the
 * misses printed 0 where list (LIST fills them fresh) printed 72: take
 * them from LIST, one ioctl for every probe, which any reader of the
 * device may issue.  PMU window totals are refreshed only by STOP and
 * PMU_READ: issue PMU_READ (rate-limited without CAP_PERFMON; it then
 * keeps the last values) for running probes with counters.  An older
 * module without either just keeps the mapping's values.
 */
void kp_src_refresh(struct kp_dev *d, struct kprof_probe_info *recs,
		    unsigned int n)
{
	struct kprof_probe_info *live;
	unsigned int nlive, i, j;
	int pmu = 0;

	if (d->cap || d->frozen)	/* as saved, or an interval's */
		return;

	for (i = 0; i < n; i++)
		pmu |= recs[i].pmu_block && recs[i].state == KPROF_STATE_RUNNING;
	if (pmu && (d->ver.caps & KPROF_CAP_PMU))
		kp_id_cmd(d, KPROF_IOC_PMU_READ, 0);
	if (kp_list_probes(d, &live, &nlive))
		return;
	for (i = 0; i < n; i++)
		for (j = 0; j < nlive; j++)
			if (live[j].id == recs[i].id)
				recs[i].nmissed = live[j].nmissed;
	free(live);
}

void kp_src_topo(struct kp_dev *d, struct kp_topo *t)
{
	if (d->cap)
		*t = d->cap->topo;
	else
		kp_topo_load(t, kp_sysfs_root(), d->ver.nr_cpus);
}

static const struct kp_capture *gone_cap;

/* was a --pid/--tgid process gone when the capture was saved? */
static int cap_pid_gone(uint32_t pid)
{
	unsigned int i;

	for (i = 0; gone_cap && i < gone_cap->n; i++)
		if (gone_cap->p[i].pid_gone && gone_cap->recs[i].pid == pid)
			return 1;
	return 0;
}

kp_pid_gone_fn *kp_src_pid_gone(struct kp_dev *d)
{
	gone_cap = d->cap;
	return d->cap ? cap_pid_gone : kp_pid_gone;
}

int kp_src_profile(struct kp_dev *d, const struct kprof_probe_info *r,
		   struct kp_profile *p)
{
	const struct kp_cap_probe *cp;

	if (!d->cap)
		return kp_prof_load(d, r, p);
	cp = kp_cap_probe(d->cap, r->id);
	kp_prof_load_map(NULL, &d->m, r, p);
	if (cp && !cp->frames_err)
		kp_prof_set_frames(p, kp_cap_frame_cb, (void *)d->cap);
	else
		p->frames_err = cp ? cp->frames_err : ENODATA;
	return 0;
}

void kp_src_context(struct kp_dev *d, struct kp_src_context *c)
{
	struct utsname u;

	if (d->cap) {
		snprintf(c->kernel, sizeof(c->kernel), "%s", d->cap->kernel);
		snprintf(c->machine, sizeof(c->machine), "%s", d->cap->machine);
		snprintf(c->module_abi, sizeof(c->module_abi), "%u.%u",
			 d->cap->abi_major, d->cap->abi_minor);
		return;
	}
	snprintf(c->kernel, sizeof(c->kernel), "%s",
		 uname(&u) ? "" : u.release);
	kp_machine_model(c->machine, sizeof(c->machine));
	snprintf(c->module_abi, sizeof(c->module_abi), "%u.%u",
		 d->ver.abi_major, d->ver.abi_minor);
}
