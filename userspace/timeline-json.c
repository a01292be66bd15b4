// SPDX-License-Identifier: GPL-2.0
/*
 * A timeline as Trace Event Format JSON (the format of Chrome's
 * about:tracing, which Perfetto UI and speedscope read):
 *
 *   process 1 "kprofctl probes", a thread per probe (tid: its id): one
 *     complete event ("X") per interval with calls, args count and, for
 *     latency probes, p50/p99/max in ns; counters ("C") of each probe's
 *     rate (calls/s) and p99 (us);
 *   process 2 "kprofctl CPUs", a thread per CPU (tid: the CPU): each
 *     probe's calls on that CPU per interval, as complete events;
 *   process 3 "kprofctl slow calls", a thread per task (tid: its pid,
 *     plus KP_TL_LANE per further lane where its calls cross): each slow
 *     call the recording heard, from its entry to its return.
 *
 * Times are microseconds since the recording began (the format's unit),
 * written exactly from nanoseconds with three decimals.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "capture.h"
#include "json.h"
#include "timeline.h"
#include "ftrace-act.h"

#define KP_TL_PROBES	1
#define KP_TL_CPUS	2
#define KP_TL_SLOW	3
#define KP_TL_LANE	4194304ull	/* PID_MAX_LIMIT: above every pid */

/* ns as the format's microseconds, exactly */
static void us(struct kp_jw *w, const char *name, uint64_t ns)
{
	kp_jw_name(w, name);
	kp_jw_printf(w, "%" PRIu64 ".%03u", ns / 1000, (unsigned int)(ns % 1000));
}

static void head(struct kp_jw *w, const char *ph, const char *name,
		 unsigned int pid, uint64_t tid)
{
	kp_jw_start_object(w);
	kp_jw_string_field(w, "ph", ph);
	kp_jw_string_field(w, "name", name);
	kp_jw_u64_field(w, "pid", pid);
	kp_jw_u64_field(w, "tid", tid);
}

/* a process's or thread's name: metadata ("M") */
static void meta(struct kp_jw *w, const char *what, unsigned int pid,
		 uint64_t tid, const char *name)
{
	head(w, "M", what, pid, tid);
	kp_jw_name(w, "args");
	kp_jw_start_object(w);
	kp_jw_string_field(w, "name", name);
	kp_jw_end_object(w);
	kp_jw_end_object(w);
}

static void interval(struct kp_jw *w, const struct kp_timeline *tl,
		     unsigned int i, const struct kp_tl_probe *p,
		     unsigned int pid, uint64_t tid, uint64_t count,
		     const struct kp_tl_cell *c)
{
	head(w, "X", p->spec, pid, tid);
	us(w, "ts", tl->t0_ns[i]);
	us(w, "dur", tl->dt_ns[i]);
	kp_jw_name(w, "args");
	kp_jw_start_object(w);
	kp_jw_u64_field(w, "probe", p->id);
	kp_jw_u64_field(w, "count", count);
	if (c && p->latency) {
		kp_jw_u64_field(w, "p50_ns", c->p50_ns);
		kp_jw_u64_field(w, "p99_ns", c->p99_ns);
		kp_jw_u64_field(w, "max_ns", c->max_ns);
	}
	kp_jw_end_object(w);
	kp_jw_end_object(w);
}

/* counter series of probe p at interval i's start, value v */
static void counter(struct kp_jw *w, const struct kp_timeline *tl,
		    unsigned int i, const struct kp_tl_probe *p,
		    const char *series, double v)
{
	char name[KPROF_SPEC_LEN + 32];

	snprintf(name, sizeof(name), "%u %s %s", p->id, p->spec, series);
	head(w, "C", name, KP_TL_PROBES, p->id);
	us(w, "ts", tl->t0_ns[i]);
	kp_jw_name(w, "args");
	kp_jw_start_object(w);
	kp_jw_name(w, series);
	kp_jw_printf(w, "%.3f", v);
	kp_jw_end_object(w);
	kp_jw_end_object(w);
}

static void probe_events(struct kp_jw *w, const struct kp_timeline *tl,
			 const struct kp_tl_probe *p)
{
	char name[KPROF_SPEC_LEN + 16];
	unsigned int i;

	snprintf(name, sizeof(name), "%u %s", p->id, p->spec);
	meta(w, "thread_name", KP_TL_PROBES, p->id, name);
	for (i = 0; i < tl->nr_iv; i++) {
		const struct kp_tl_cell *c = &p->cell[i];
		double rate = tl->dt_ns[i] ?
			      (double)c->count * 1e9 / (double)tl->dt_ns[i] : 0;

		if (c->count)
			interval(w, tl, i, p, KP_TL_PROBES, p->id, c->count, c);
		counter(w, tl, i, p, "calls/s", rate);
		if (p->latency)
			counter(w, tl, i, p, "p99 us", (double)c->p99_ns / 1e3);
	}
}

static void slow_calls(struct kp_jw *w, const struct kp_timeline *tl)
{
	char name[64], did[160];
	unsigned int i, k;

	for (i = 0; i < tl->nr_slow; i++) {
		const struct kp_tl_slow *s = &tl->slow[i];
		uint64_t tid = s->pid + s->lane * KP_TL_LANE;

		/* a track's name once, before its first call (by task) */
		for (k = i; k && tl->slow[k - 1].pid == s->pid &&
			    tl->slow[k - 1].lane != s->lane; k--)
			;
		if (!k || tl->slow[k - 1].pid != s->pid) {
			if (s->lane)
				snprintf(name, sizeof(name), "%s %u (lane %u)",
					 s->comm, s->pid, s->lane + 1);
			else
				snprintf(name, sizeof(name), "%s %u", s->comm,
					 s->pid);
			meta(w, "thread_name", KP_TL_SLOW, tid, name);
		}
		head(w, "X", s->spec, KP_TL_SLOW, tid);
		us(w, "ts", s->t0_ns);
		us(w, "dur", s->dur_ns);
		kp_jw_name(w, "args");
		kp_jw_start_object(w);
		kp_jw_u64_field(w, "probe", s->probe);
		kp_jw_u64_field(w, "latency_ns", s->latency_ns);
		kp_jw_u64_field(w, "cpu", s->cpu);
		kp_jw_u64_field(w, "pid", s->pid);
		kp_jw_u64_field(w, "tgid", s->tgid);
		kp_jw_string_field(w, "comm", s->comm);
		/* --snapshot, --trace-off, --mark: in watch's words */
		if (s->ftrace)
			kp_jw_string_field(w, "ftrace",
					   kp_ftrace_did(s->ftrace, did,
							 sizeof(did)));
		kp_jw_end_object(w);
		kp_jw_end_object(w);
	}
}

int kp_timeline_write(const struct kp_timeline *tl, FILE *f)
{
	struct kp_jw w;
	char name[32];
	unsigned int i, j, cpu;

	kp_jw_init(&w, f);
	kp_jw_start_object(&w);
	kp_jw_name(&w, "traceEvents");
	kp_jw_start_array(&w);
	meta(&w, "process_name", KP_TL_PROBES, 0, "kprofctl probes");
	meta(&w, "process_name", KP_TL_CPUS, 0, "kprofctl CPUs");
	for (j = 0; j < tl->nr_probes; j++)
		probe_events(&w, tl, &tl->p[j]);
	for (cpu = 0; cpu < tl->nr_cpus; cpu++) {
		snprintf(name, sizeof(name), "cpu %u", cpu);
		meta(&w, "thread_name", KP_TL_CPUS, cpu, name);
		for (j = 0; j < tl->nr_probes; j++)
			for (i = 0; i < tl->nr_iv; i++)
				if (tl->p[j].cell[i].cpu_count[cpu])
					interval(&w, tl, i, &tl->p[j], KP_TL_CPUS,
						 cpu,
						 tl->p[j].cell[i].cpu_count[cpu],
						 NULL);
	}
	if (tl->has_slow) {
		meta(&w, "process_name", KP_TL_SLOW, 0, "kprofctl slow calls");
		slow_calls(&w, tl);
	}
	kp_jw_end_array(&w);
	kp_jw_string_field(&w, "displayTimeUnit", "ns");
	kp_jw_name(&w, "otherData");
	kp_jw_start_object(&w);
	kp_jw_string_field(&w, "source", "kprofctl record");
	kp_jw_string_field(&w, "kernel", tl->kernel);
	kp_jw_string_field(&w, "machine", tl->machine);
	kp_jw_string_field(&w, "created", tl->created);
	us(&w, "duration_us", tl->end_ns);
	if (tl->has_slow) {
		kp_jw_u64_field(&w, "slow_calls", tl->nr_slow);
		kp_jw_u64_field(&w, "slow_lost", tl->slow_lost);
	}
	kp_jw_end_object(&w);
	kp_jw_end_object(&w);
	fputc('\n', f);
	return fflush(f) || ferror(f) ? -1 : 0;
}

int kp_timeline_convert(const char *cmd, const char *from, const char *out)
{
	struct kp_capture c;
	struct kp_timeline tl;
	char err[512];
	FILE *f = stdout;
	int ret;

	if (kp_capture_load(&c, from, err, sizeof(err))) {
		fprintf(stderr, "kprofctl %s: %s: %s\n", cmd, from, err);
		return 1;
	}
	ret = kp_timeline_build(&tl, &c, err, sizeof(err));
	kp_capture_free(&c);
	if (ret) {
		fprintf(stderr, "kprofctl %s: %s: %s\n", cmd, from, err);
		return 1;
	}
	if (out && strcmp(out, "-")) {
		f = fopen(out, "w");
		if (!f) {
			fprintf(stderr, "kprofctl %s: %s: %s\n", cmd, out,
				strerror(errno));
			kp_timeline_free(&tl);
			return 1;
		}
	}
	ret = kp_timeline_write(&tl, f);
	if (f != stdout && fclose(f))
		ret = -1;
	kp_timeline_free(&tl);
	if (ret) {
		fprintf(stderr, "kprofctl %s: writing %s failed\n", cmd,
			f != stdout ? out : "stdout");
		return 1;
	}
	return 0;
}
