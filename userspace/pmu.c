// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "pmu.h"
#include "pmu-events.h"
#include "spec.h"
#include "kprofctl/pmu_events.h"


const char *kp_sysfs_root(void)
{
	const char *r = getenv("KPROFCTL_SYSFS_ROOT");

	return r ? r : "";
}

/* first line of root/path into buf; 0 or -1 */
static int read_line(const char *root, const char *path, char *buf,
		     size_t len)
{
	char full[512];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return -1;
	if (!fgets(buf, (int)len, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static const struct { unsigned int part; const char *name; } arm_parts[] = {
	{ 0xd03, "A53" }, { 0xd04, "A35" }, { 0xd05, "A55" }, { 0xd07, "A57" },
	{ 0xd08, "A72" }, { 0xd09, "A73" }, { 0xd0a, "A75" }, { 0xd0b, "A76" },
	{ 0xd0c, "N1" }, { 0xd0d, "A77" }, { 0xd40, "V1" }, { 0xd41, "A78" },
	{ 0xd44, "X1" }, { 0xd46, "A510" }, { 0xd47, "A710" }, { 0xd48, "X2" },
	{ 0xd4d, "A715" }, { 0xd4e, "X3" },
};

/* the core type named by a MIDR_EL1 value */
static void midr_name(uint64_t midr, char *buf, size_t len)
{
	unsigned int impl = (midr >> 24) & 0xff, part = (midr >> 4) & 0xfff;
	unsigned int i;

	if (impl == 0x41)
		for (i = 0; i < sizeof(arm_parts) / sizeof(arm_parts[0]); i++)
			if (arm_parts[i].part == part) {
				snprintf(buf, len, "%s", arm_parts[i].name);
				return;
			}
	snprintf(buf, len, "impl 0x%02x part 0x%03x", impl, part);
}

/* PMUs that list their CPUs: which one holds each CPU */
static void pmu_cpus(const char *root, unsigned int nr_cpus,
		     char (*pmu)[32])
{
	char dir[512], path[600], line[256], err[64];
	struct dirent *de;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/sys/bus/event_source/devices", root);
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		__u64 mask[KPROF_CPUMASK_WORDS];
		unsigned int c;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/cpus", de->d_name);
		if (read_line(root, path, line, sizeof(line)) ||
		    kp_parse_cpulist(line, KP_MAX_CPUS, mask, err, sizeof(err)))
			continue;
		for (c = 0; c < nr_cpus; c++)
			if ((mask[c / 64] >> (c % 64)) & 1)
				snprintf(pmu[c], sizeof(pmu[c]), "%.31s",
					 de->d_name);
	}
	closedir(d);
}

void kp_topo_load(struct kp_topo *t, const char *root, unsigned int nr_cpus)
{
	static char pmu[KP_MAX_CPUS][32];
	unsigned int c, k;

	memset(t, 0, sizeof(*t));
	memset(pmu, 0, sizeof(pmu));
	if (nr_cpus > KP_MAX_CPUS)
		nr_cpus = KP_MAX_CPUS;
	t->nr_cpus = nr_cpus;
	pmu_cpus(root, nr_cpus, pmu);
	for (c = 0; c < nr_cpus; c++) {
		char path[128], line[64], name[40];
		uint64_t midr;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%u/regs/identification/midr_el1",
			 c);
		if (!read_line(root, path, line, sizeof(line)) &&
		    !kp_parse_u64(line, 0, UINT64_MAX, &midr))
			midr_name(midr, name, sizeof(name));
		else if (pmu[c][0])
			snprintf(name, sizeof(name), "%.31s", pmu[c]);
		else
			snprintf(name, sizeof(name), "cpu");
		for (k = 0; k < t->nr_clusters; k++)
			if (!strcmp(t->cl[k].name, name))
				break;
		if (k == t->nr_clusters) {
			if (k == KP_MAX_CLUSTERS)
				k--;	/* absurdly many kinds: lump the rest */
			else
				t->nr_clusters++;
			snprintf(t->cl[k].name, sizeof(t->cl[k].name), "%s",
				 name);
			snprintf(t->cl[k].pmu, sizeof(t->cl[k].pmu), "%.31s",
				 pmu[c]);
		}
		t->cluster_of[c] = (int)k;
		t->cl[k].mask[c / 64] |= 1ULL << (c % 64);
	}
	for (c = nr_cpus; c < KP_MAX_CPUS; c++)
		t->cluster_of[c] = -1;
	for (k = 0; k < t->nr_clusters; k++)
		kp_format_cpulist(t->cl[k].mask, t->cl[k].cpus,
				  sizeof(t->cl[k].cpus));
}

static int event_number(const struct kprof_pmu_event *ev, unsigned int *num)
{
	const struct kprof_pmu_def *d;

	if (ev->type != PERF_TYPE_RAW)
		return -1;	/* generic perf events: nothing to look up */
	if (ev->flags & KPROF_PMU_EV_RAW) {
		*num = (unsigned int)ev->config;
		return 0;
	}
	d = kp_pmu_def(ev->name);
	if (!d)
		return -1;
	*num = d->arm;
	return 0;
}

static struct {
	char pmu[32], event[32];
	int counts;
} recorded[64];
static unsigned int nr_recorded;

void kp_pmu_counts_record(const char *pmu, const char *event, int counts)
{
	unsigned int i;

	for (i = 0; i < nr_recorded; i++)
		if (!strcmp(recorded[i].pmu, pmu) &&
		    !strcmp(recorded[i].event, event))
			break;
	if (i == nr_recorded) {
		if (nr_recorded == sizeof(recorded) / sizeof(recorded[0]))
			return;
		nr_recorded++;
	}
	snprintf(recorded[i].pmu, sizeof(recorded[i].pmu), "%s", pmu);
	snprintf(recorded[i].event, sizeof(recorded[i].event), "%s", event);
	recorded[i].counts = counts;
}

int kp_pmu_counts_event(const char *root, const char *pmu,
			const struct kprof_pmu_event *ev)
{
	char dir[512], path[600], line[64];
	unsigned int num, have, i;
	struct dirent *de;
	int pmuv3 = 0, found = 0;
	DIR *d;

	for (i = 0; i < nr_recorded; i++)
		if (!strcmp(recorded[i].pmu, pmu) &&
		    !strncmp(recorded[i].event, ev->name, sizeof(ev->name)))
			return recorded[i].counts;
	if (!pmu[0] || event_number(ev, &num))
		return 1;
	snprintf(dir, sizeof(dir), "%s/sys/bus/event_source/devices/%s/events",
		 root, pmu);
	d = opendir(dir);
	if (!d)
		return 1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path),
			 "/sys/bus/event_source/devices/%s/events/%s", pmu,
			 de->d_name);
		if (read_line(root, path, line, sizeof(line)) ||
		    sscanf(line, "event=%x", &have) != 1)
			continue;
		/* arm_pmu lists exactly the common events PMCEID reports */
		if (!strcmp(de->d_name, "cpu_cycles") ||
		    !strcmp(de->d_name, "inst_retired"))
			pmuv3 = 1;
		if (have == num)
			found = 1;
	}
	closedir(d);
	/* implementation-defined events (>= 0x40) are not listed */
	return !pmuv3 || found || (num >= 0x40 && num < 0x4000);
}

/* ---- window totals ---------------------------------------------------- */

static int block_ok(const struct kp_map *m, const struct kprof_probe_info *r)
{
	const struct kprof_mmap_header *h = m->hdr;
	uint64_t need = h->pmu_counts_off + (uint64_t)KPROF_PMU_MAX_EVENTS *
			h->nr_cpus * sizeof(struct kprof_pmu_count);

	return r->pmu_block && r->pmu_block <= h->max_pmus &&
	       h->pmu_max_events == KPROF_PMU_MAX_EVENTS &&
	       need <= h->pmu_stride &&
	       (uint64_t)h->pmu_stats_off + (uint64_t)KPROF_PMU_MAX_EVENTS *
	       h->nr_cpus * h->cpu_stride <= h->pmu_stride &&
	       h->pmus_off <= m->size &&
	       (uint64_t)h->max_pmus * h->pmu_stride <= m->size - h->pmus_off;
}

int kp_pmu_snap_read(const struct kp_map *m, const struct kprof_probe_info *r,
		     struct kp_pmu_snap *s)
{
	const struct kprof_mmap_header *h = m->hdr;
	const uint8_t *block;
	struct kp_seq sq = { 0 };
	size_t csize;
	unsigned int e;
	int stuck = 0;

	memset(s, 0, sizeof(*s));
	if (!block_ok(m, r))
		return -1;
	block = m->base + h->pmus_off + (uint64_t)(r->pmu_block - 1) *
		h->pmu_stride;
	s->nr_cpus = h->nr_cpus;
	csize = (size_t)KPROF_PMU_MAX_EVENTS * h->nr_cpus * sizeof(*s->c);
	s->c = malloc(csize);
	if (!s->c)
		return -1;
	do {
		stuck = kp_seq_begin(m, &sq);
		if (stuck)
			break;
		memcpy(s->ev, block, sizeof(s->ev));
		memcpy(s->c, block + h->pmu_counts_off, csize);
	} while (kp_seq_retry(m, &sq));
	if (stuck) {
		kp_pmu_snap_free(s);
		return -1;
	}
	for (e = 0; e < KPROF_PMU_MAX_EVENTS && s->ev[e].name[0]; e++)
		s->ev[e].name[sizeof(s->ev[e].name) - 1] = '\0';
	s->nr_events = e;
	for (e = 0; e < KPROF_PMU_MAX_EVENTS * s->nr_cpus; e++)
		s->c[e].pmu[sizeof(s->c[e].pmu) - 1] = '\0';
	return 0;
}

void kp_pmu_snap_free(struct kp_pmu_snap *s)
{
	free(s->c);
	s->c = NULL;
}

int kp_pmu_snap_dup(struct kp_pmu_snap *dst, const struct kp_pmu_snap *src)
{
	size_t n = (size_t)KPROF_PMU_MAX_EVENTS * src->nr_cpus * sizeof(*src->c);

	*dst = *src;
	dst->c = malloc(n);
	if (!dst->c)
		return -1;
	memcpy(dst->c, src->c, n);
	return 0;
}

void kp_pmu_snap_sub(struct kp_pmu_snap *s, const struct kp_pmu_snap *prev)
{
	unsigned int i;

	for (i = 0; i < s->nr_events * s->nr_cpus; i++) {
		s->c[i].value -= prev->c[i].value;
		s->c[i].enabled -= prev->c[i].enabled;
		s->c[i].running -= prev->c[i].running;
	}
}

int kp_pmu_call_ipc(const struct kp_map *m, const struct kprof_probe_info *r,
		    const struct kp_pmu_snap *s, const __u64 *mask, double *ipc)
{
	static const __u64 all[KPROF_CPUMASK_WORDS] = {
		~0ULL, ~0ULL, ~0ULL, ~0ULL
	};
	int ce = -1, ie = -1;
	unsigned int e;
	struct kp_agg c, i;

	for (e = 0; e < s->nr_events; e++) {
		if (!strcmp(s->ev[e].name, "cpu_cycles") && ce < 0)
			ce = (int)e;
		if (!strcmp(s->ev[e].name, "inst_retired") && ie < 0)
			ie = (int)e;
	}
	if (ce < 0 || ie < 0)
		return 0;
	kp_aggregate_mask(m, r, -1, ce, mask ? mask : all, &c);
	kp_aggregate_mask(m, r, -1, ie, mask ? mask : all, &i);
	if (!c.sum)
		return 0;
	*ipc = (double)i.sum / c.sum;
	return 1;
}

uint64_t kp_pmu_scaled(const struct kprof_pmu_count *c)
{
	if (!c->running || c->running >= c->enabled)
		return c->value;
	return (uint64_t)((long double)c->value * c->enabled / c->running);
}

static const struct kprof_pmu_count *cnt(const struct kp_pmu_snap *s,
					 unsigned int e, unsigned int cpu)
{
	return &s->c[e * s->nr_cpus + cpu];
}

static unsigned int kind_of(const struct kprof_pmu_event *ev)
{
	const struct kprof_pmu_def *d = kp_pmu_def(ev->name);

	return d ? d->kind : KPROF_PMU_KIND_OTHER;
}

/* the note a counter gets: "" if it counted normally */
static const char *note(const struct kp_pmu_snap *s, unsigned int e,
			unsigned int cpu, const char *root)
{
	const struct kprof_pmu_count *c = cnt(s, e, cpu);

	if (!(c->flags & KPROF_PMU_CNT_OPEN))
		return "no counter (CPU offline or not selected)";
	if (c->flags & KPROF_PMU_CNT_ERROR)
		return "not scheduled: hardware counters taken";
	if (!kp_pmu_counts_event(root, c->pmu, &s->ev[e]))
		return "not counted by this PMU";
	if (c->enabled && !c->running)
		return "never scheduled: multiplexed out";
	return "";
}

struct sums {
	uint64_t v[KPROF_PMU_MAX_EVENTS];
	int any[KPROF_PMU_MAX_EVENTS];		/* some CPU counted it */
	int uncounted[KPROF_PMU_MAX_EVENTS];	/* some PMU does not count it */
};

/*
 * Cluster k's scaled sums of the CPUs with counters, and the PMU serving
 * them ("" if none).  0 if no CPU of it has one.  An event the PMU does
 * not count is left out of the sums: its zeros are not a measurement.
 */
static int cluster_sums(const struct kp_pmu_snap *s, const struct kp_topo *t,
			unsigned int k, struct sums *x, const char **pmu,
			const char *root)
{
	unsigned int c, e;
	int any = 0;

	memset(x, 0, sizeof(*x));
	*pmu = "";
	for (c = 0; c < s->nr_cpus && c < t->nr_cpus; c++) {
		if (t->cluster_of[c] != (int)k)
			continue;
		for (e = 0; e < s->nr_events; e++) {
			const struct kprof_pmu_count *y = cnt(s, e, c);

			if (!(y->flags & KPROF_PMU_CNT_OPEN))
				continue;
			any = 1;
			*pmu = y->pmu;
			if (!kp_pmu_counts_event(root, y->pmu, &s->ev[e])) {
				x->uncounted[e] = 1;
				continue;
			}
			x->v[e] += kp_pmu_scaled(y);
			x->any[e] = 1;
		}
	}
	return any;
}

/* IPC and misses per 1000 instructions: text into f, or JSON through jw */
static void derived(FILE *f, struct kp_jw *jw, const struct kp_pmu_snap *s,
		    const struct sums *x)
{
	uint64_t cycles = 0, instr = 0;
	int have_c = 0, have_i = 0, first = 1;
	unsigned int e;

	for (e = 0; e < s->nr_events; e++) {
		unsigned int k = kind_of(&s->ev[e]);

		if (k == KPROF_PMU_KIND_CYCLES && x->any[e] && !have_c) {
			cycles = x->v[e];
			have_c = 1;
		} else if (k == KPROF_PMU_KIND_INSTR && x->any[e] && !have_i) {
			instr = x->v[e];
			have_i = 1;
		}
	}
	if (have_c && have_i && cycles) {
		if (jw) {
			kp_jw_name(jw, "ipc");
			kp_jw_printf(jw, "%.4f", (double)instr / cycles);
		} else
			fprintf(f, "  IPC %.2f", (double)instr / cycles);
	}
	if (!have_i || !instr)
		return;
	for (e = 0; e < s->nr_events; e++) {
		if (kind_of(&s->ev[e]) != KPROF_PMU_KIND_MISS || !x->any[e])
			continue;
		if (jw) {
			if (first) {
				kp_jw_name(jw, "per_1000_instructions");
				kp_jw_start_object(jw);
			}
			kp_jw_name(jw, s->ev[e].name);
			kp_jw_printf(jw, "%.4f", 1000.0 * x->v[e] / instr);
		} else {
			fprintf(f, "  %s %.2f/1000 instr", s->ev[e].name,
				1000.0 * x->v[e] / instr);
		}
		first = 0;
	}
	if (jw && !first)
		kp_jw_end_object(jw);
}

static void print_text(FILE *f, const struct kp_pmu_snap *s,
		       const struct kp_topo *t, const char *root)
{
	unsigned int e, c, k;

	fprintf(f, "  %4s  %-8s %-18s %20s %8s  %s\n", "CPU", "CLUSTER",
		"EVENT", "COUNT", "RUNNING", "NOTE");
	for (c = 0; c < s->nr_cpus; c++)
		for (e = 0; e < s->nr_events; e++) {
			const struct kprof_pmu_count *x = cnt(s, e, c);
			int cl = c < t->nr_cpus ? t->cluster_of[c] : -1;

			if (!(x->flags & KPROF_PMU_CNT_OPEN))
				continue;
			fprintf(f, "  %4u  %-8s %-18s %20" PRIu64 " %7.1f%%  %s\n",
				c, cl >= 0 ? t->cl[cl].name : "?",
				s->ev[e].name, kp_pmu_scaled(x),
				x->enabled ? 100.0 * x->running / x->enabled :
					     100.0,
				note(s, e, c, root));
		}
	for (k = 0; k < t->nr_clusters; k++) {
		struct sums x;
		const char *pmu;

		if (!cluster_sums(s, t, k, &x, &pmu, root))
			continue;
		fprintf(f, "  cluster %s (cpu%s, PMU %s):", t->cl[k].name,
			t->cl[k].cpus, pmu[0] ? pmu : "?");
		for (e = 0; e < s->nr_events; e++)
			if (x.any[e])
				fprintf(f, " %s %" PRIu64, s->ev[e].name, x.v[e]);
			else if (x.uncounted[e])
				fprintf(f, " %s not-counted", s->ev[e].name);
		derived(f, NULL, s, &x);
		fputc('\n', f);
	}
}

void kp_pmu_json(struct kp_jw *w, const struct kp_pmu_snap *s,
		 const struct kp_topo *t, const char *root)
{
	unsigned int e, c, k;

	kp_jw_start_object(w);
	kp_jw_name(w, "events");
	kp_jw_start_array(w);
	for (e = 0; e < s->nr_events; e++)
		kp_jw_string(w, s->ev[e].name);
	kp_jw_end_array(w);
	kp_jw_name(w, "cpus");
	kp_jw_start_array(w);
	for (c = 0; c < s->nr_cpus; c++) {
		int cl = c < t->nr_cpus ? t->cluster_of[c] : -1;
		const struct kprof_pmu_count *x0 = cnt(s, 0, c);

		if (!s->nr_events || !(x0->flags & KPROF_PMU_CNT_OPEN))
			continue;
		kp_jw_start_object(w);
		kp_jw_u64_field(w, "cpu", c);
		kp_jw_string_field(w, "cluster",
				   cl >= 0 ? t->cl[cl].name : "");
		kp_jw_string_field(w, "pmu", x0->pmu);
		kp_jw_u64_field(w, "pmu_type", x0->pmu_type);
		kp_jw_name(w, "counts");
		kp_jw_start_object(w);
		for (e = 0; e < s->nr_events; e++) {
			const struct kprof_pmu_count *x = cnt(s, e, c);
			const char *n = note(s, e, c, root);

			kp_jw_name(w, s->ev[e].name);
			kp_jw_start_object(w);
			kp_jw_u64_field(w, "value", x->value);
			kp_jw_u64_field(w, "scaled", kp_pmu_scaled(x));
			kp_jw_u64_field(w, "enabled_ns", x->enabled);
			kp_jw_u64_field(w, "running_ns", x->running);
			kp_jw_name(w, "counted");
			kp_jw_bool(w, !n[0]);
			kp_jw_string_field(w, "note", n);
			kp_jw_end_object(w);
		}
		kp_jw_end_object(w);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
	kp_jw_name(w, "clusters");
	kp_jw_start_array(w);
	for (k = 0; k < t->nr_clusters; k++) {
		struct sums x;
		const char *pmu;

		if (!cluster_sums(s, t, k, &x, &pmu, root))
			continue;
		kp_jw_start_object(w);
		kp_jw_string_field(w, "name", t->cl[k].name);
		kp_jw_string_field(w, "cpus", t->cl[k].cpus);
		kp_jw_name(w, "counts");
		kp_jw_start_object(w);
		for (e = 0; e < s->nr_events; e++) {
			kp_jw_name(w, s->ev[e].name);
			if (!x.any[e] && x.uncounted[e])
				kp_jw_null(w);
			else
				kp_jw_u64(w, x.v[e]);
		}
		kp_jw_end_object(w);
		derived(NULL, w, s, &x);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
	kp_jw_end_object(w);
}

void kp_pmu_print(FILE *f, const struct kp_pmu_snap *s,
		  const struct kp_topo *t, const char *root, int json)
{
	struct kp_jw jw;

	if (json) {
		kp_jw_init(&jw, f);
		kp_pmu_json(&jw, s, t, root);
	} else {
		print_text(f, s, t, root);
	}
}
