// SPDX-License-Identifier: GPL-2.0
/* Profiles: a sample probe's stack table, read and rendered (profile.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "profile.h"
#include "flame.h"
#include "util.h"

int kp_prof_is(const struct kp_map *m, const struct kprof_probe_info *r)
{
	uint64_t row;
	unsigned int nr_cpus = m->hdr->nr_cpus;

	if ((r->type != KPROF_TYPE_SAMPLE && r->type != KPROF_TYPE_OFFCPU) ||
	    !r->nr_funcs)
		return 0;
	/* a sample's count; off-CPU's waits and nanoseconds */
	if (r->nr_funcs > (1U << 20) || r->func_stride !=
	    (r->type == KPROF_TYPE_OFFCPU ? 2 : 1) * sizeof(__u64))
		return 0;
	row = (uint64_t)r->nr_funcs * r->func_stride;
	if ((nr_cpus > 1 && r->func_cpu_stride < row) ||
	    (r->func_cpu_stride && nr_cpus - 1 > m->size / r->func_cpu_stride))
		return 0;
	return kp_in_map(r->func_stats_off,
		      (uint64_t)(nr_cpus - 1) * r->func_cpu_stride + row,
		      m->size);
}

static void frames_load(struct kp_dev *d, struct kp_profile *p)
{
	p->frames_err = kp_key_frames(d, p->r.id, KPROF_KEY_FRAMES_STACK,
				      &p->pcs, &p->nr_pcs_ids, &p->depth);
	if (!p->pcs)
		return;
	p->names = calloc((size_t)p->nr_pcs_ids * p->depth, sizeof(*p->names));
	kp_syms_load(&p->syms, "/proc/kallsyms");
}

int kp_prof_load(struct kp_dev *d, const struct kprof_probe_info *r,
		 struct kp_profile *p)
{
	return kp_prof_load_map(d, &d->m, r, p);
}

void kp_prof_set_frames(struct kp_profile *p, kp_frame_fn *frame, void *ctx)
{
	p->frame = frame;
	p->frame_ctx = ctx;
	p->frames_err = 0;
}

int kp_prof_load_map(struct kp_dev *d, const struct kp_map *m,
		     const struct kprof_probe_info *r, struct kp_profile *p)
{
	struct kp_agg a;
	unsigned int c;

	memset(p, 0, sizeof(*p));
	if (!kp_prof_is(m, r)) {
		fprintf(stderr, "kprofctl: probe %u has no stack table (a "
			"sample: probe with --key stack alone has one)\n", r->id);
		return -1;
	}
	p->r = *r;
	p->nr_cpus = m->hdr->nr_cpus;
	p->nr_ids = r->nr_funcs;
	p->offcpu = r->type == KPROF_TYPE_OFFCPU;
	p->unit = p->offcpu ? "us" : "samples";
	p->counts = calloc((size_t)p->nr_cpus * p->nr_ids, sizeof(*p->counts));
	if (p->offcpu)
		p->ns = calloc((size_t)p->nr_cpus * p->nr_ids, sizeof(*p->ns));
	if (!p->counts || (p->offcpu && !p->ns)) {
		perror("kprofctl");
		kp_prof_free(p);
		return -1;
	}
	/* plain counters, each read once: a running probe reads as of now */
	for (c = 0; c < p->nr_cpus; c++) {
		const __u64 *row = (const void *)(m->base + r->func_stats_off +
						  (uint64_t)c * r->func_cpu_stride);
		uint32_t i;

		for (i = 0; i < p->nr_ids; i++) {
			size_t k = (size_t)c * p->nr_ids + i;

			p->counts[k] = p->offcpu ? row[2 * i] : row[i];
			if (p->offcpu)
				p->ns[k] = row[2 * i + 1];
		}
	}
	kp_aggregate(m, r, -1, &a);
	p->agg = a;
	p->samples = a.count + a.drops;
	p->dropped = a.drops;
	if (d)
		frames_load(d, p);
	return 0;
}

void kp_prof_free(struct kp_profile *p)
{
	size_t i;

	if (p->names)
		for (i = 0; i < (size_t)p->nr_pcs_ids * p->depth; i++)
			free(p->names[i]);
	free(p->names);
	free(p->pcs);
	free(p->counts);
	free(p->ns);
	kp_syms_free(&p->syms);
	memset(p, 0, sizeof(*p));
}

static int in_mask(const __u64 *mask, unsigned int cpu)
{
	return !mask || (mask[cpu / 64] >> (cpu % 64) & 1);
}

uint64_t kp_prof_count(const struct kp_profile *p, uint32_t id,
		       const __u64 *mask)
{
	uint64_t n = 0;
	unsigned int c;

	if (!id || id > p->nr_ids)
		return 0;
	for (c = 0; c < p->nr_cpus; c++)
		if (in_mask(mask, c))
			n += p->counts[(size_t)c * p->nr_ids + id - 1];
	return n;
}

uint64_t kp_prof_weight(const struct kp_profile *p, uint32_t id,
			const __u64 *mask)
{
	uint64_t ns = 0;
	unsigned int c;

	if (!p->offcpu)
		return kp_prof_count(p, id, mask);
	if (!id || id > p->nr_ids)
		return 0;
	for (c = 0; c < p->nr_cpus; c++)
		if (in_mask(mask, c))
			ns += p->ns[(size_t)c * p->nr_ids + id - 1];
	return ns / 1000;
}

uint64_t kp_prof_total(const struct kp_profile *p, const __u64 *mask)
{
	uint64_t n = 0;
	uint32_t id;

	for (id = 1; id <= p->nr_ids; id++)
		n += kp_prof_weight(p, id, mask);
	return n;
}

const char *kp_prof_frame(struct kp_profile *p, uint32_t id, unsigned int i)
{
	const uint64_t *fr;
	const char *name;
	char **slot;

	if (p->frame)
		return p->frame(p->frame_ctx, &p->r, id, i);
	if (!p->pcs || !id || id > p->nr_pcs_ids || i >= p->depth)
		return NULL;
	fr = &p->pcs[(size_t)(id - 1) * p->depth];
	if (!fr[i])
		return NULL;
	/* a user-mode sample's process is read anew: not kept */
	slot = p->names && fr[0] != KPROF_FRAME_USER ?
	       &p->names[(size_t)(id - 1) * p->depth + i] : NULL;
	if (slot && *slot)
		return *slot;
	name = kp_frame_name(&p->syms, &p->r, fr, p->depth, i, KP_FRAME_FUNC,
			     p->buf, sizeof(p->buf));
	if (slot)
		*slot = strdup(name);
	return slot && *slot ? *slot : name;
}

/* Frames of id, innermost first, into v (copies, as frame names may share
 * p->buf); their number */
static unsigned int stack_frames(struct kp_profile *p, uint32_t id,
				 char **v, unsigned int max)
{
	const char *fr;
	unsigned int n;

	for (n = 0; n < max && (fr = kp_prof_frame(p, id, n)); n++)
		v[n] = strdup(fr);
	return n;
}

static void free_frames(char **v, unsigned int n)
{
	while (n--)
		free(v[n]);
}

#define KP_PROF_MAX_DEPTH	64

/* A stack by name ("outer;...;inner") and its samples */
struct line {
	char *s;
	uint64_t n;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->s, ((const struct line *)b)->s);
}

/*
 * The stacks over mask by name, merged: ids that differ only in offsets
 * within the same functions are one stack here.  Their number; *out is
 * to be freed with free_lines().
 */
static size_t collect(struct kp_profile *p, const __u64 *mask,
		      struct line **out)
{
	char *v[KP_PROF_MAX_DEPTH];
	struct line *l;
	size_t nl = 0, k, len, i;
	unsigned int n, j;
	uint32_t id;
	uint64_t c;

	*out = NULL;
	l = calloc(p->nr_ids, sizeof(*l));
	if (!l)
		return 0;
	for (id = 1; id <= p->nr_ids; id++) {
		c = kp_prof_weight(p, id, mask);
		if (!c)
			continue;
		n = stack_frames(p, id, v, KP_PROF_MAX_DEPTH);
		for (len = 1, j = 0; j < n; j++)
			len += (v[j] ? strlen(v[j]) : 1) + 1;
		l[nl].s = n ? malloc(len) : NULL;
		if (l[nl].s) {
			for (k = 0, j = n; j-- > 0;)
				k += (size_t)sprintf(l[nl].s + k, "%s%s",
						     v[j] ? v[j] : "?", j ? ";" : "");
			l[nl++].n = c;
		}
		free_frames(v, n);
	}
	qsort(l, nl, sizeof(*l), by_name);
	for (i = 0, k = 0; i < nl; i++) {
		if (k && !strcmp(l[k - 1].s, l[i].s)) {
			l[k - 1].n += l[i].n;
			free(l[i].s);
			continue;
		}
		l[k++] = l[i];
	}
	*out = l;
	return k;
}

static void free_lines(struct line *l, size_t n)
{
	while (n--)
		free(l[n].s);
	free(l);
}

unsigned long kp_prof_folded(FILE *f, struct kp_profile *p, const __u64 *mask,
			     const char *root)
{
	struct line *l;
	size_t n = collect(p, mask, &l), i;

	for (i = 0; i < n; i++)
		fprintf(f, "%s%s%s %" PRIu64 "\n", root ? root : "",
			root ? ";" : "", l[i].s, l[i].n);
	free_lines(l, n);
	return n;
}

int kp_prof_flame(struct kp_profile *p, const __u64 *mask, struct kp_flame *g,
		  char *err, size_t errlen)
{
	char *v[KP_PROF_MAX_DEPTH];
	const char *outer[KP_PROF_MAX_DEPTH];
	unsigned int n, j;
	uint32_t id;
	uint64_t c;
	int ret = 0;

	for (id = 1; !ret && id <= p->nr_ids; id++) {
		c = kp_prof_weight(p, id, mask);
		if (!c)
			continue;
		n = stack_frames(p, id, v, KP_PROF_MAX_DEPTH);
		for (j = 0; j < n; j++)
			outer[j] = v[n - 1 - j] ? v[n - 1 - j] : "?";
		if (n)
			ret = kp_flame_add_frames(g, outer, n, c, err, errlen);
		free_frames(v, n);
	}
	return ret;
}

struct named {
	char *name;
	uint64_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->name, y->name);
}

static int lines_by_count(const void *a, const void *b)
{
	const struct line *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->s, y->s);
}

static double pct(uint64_t n, uint64_t all)
{
	return all ? 100.0 * (double)n / (double)all : 0;
}

void kp_prof_report(FILE *f, struct kp_profile *p, const __u64 *mask,
		    unsigned int top)
{
	struct named *fn = NULL;
	struct line *st = NULL;
	size_t nfn = 0, nst, i;
	uint64_t all = kp_prof_total(p, mask);
	const char *leaf, *e;

	if (!all) {
		fprintf(f, "  no samples\n");
		return;
	}
	nst = collect(p, mask, &st);
	fn = calloc(nst ? nst : 1, sizeof(*fn));
	if (!fn)
		goto out;
	/* own samples: by the innermost frame's function */
	for (i = 0; i < nst; i++) {
		size_t k;

		leaf = strrchr(st[i].s, ';');
		leaf = leaf ? leaf + 1 : st[i].s;
		for (k = 0; k < nfn; k++)
			if (!strcmp(fn[k].name, leaf))
				break;
		if (k == nfn) {
			fn[nfn].name = strdup(leaf);
			if (!fn[nfn].name)
				continue;
			fn[nfn++].n = 0;
		}
		fn[k].n += st[i].n;
	}
	qsort(fn, nfn, sizeof(*fn), by_count);
	fprintf(f, "  %7s %9s  %s\n", "self%", p->unit, "function");
	for (i = 0; i < nfn && i < top; i++)
		fprintf(f, "  %7.2f %9" PRIu64 "  %s\n", pct(fn[i].n, all),
			fn[i].n, fn[i].name);
	if (nfn > top)
		fprintf(f, "  (%zu more function%s)\n", nfn - top,
			nfn - top > 1 ? "s" : "");
	qsort(st, nst, sizeof(*st), lines_by_count);
	fprintf(f, "  hottest stacks (innermost first):\n");
	for (i = 0; i < nst && i < top; i++) {
		fprintf(f, "  %6.2f%% %9" PRIu64 " ", pct(st[i].n, all), st[i].n);
		/* "a;b;c" printed "c <- b <- a" */
		for (e = st[i].s + strlen(st[i].s); e > st[i].s;) {
			const char *b = e;

			while (b > st[i].s && b[-1] != ';')
				b--;
			fprintf(f, "%s%.*s", e == st[i].s + strlen(st[i].s) ?
				" " : " <- ", (int)(e - b), b);
			e = b > st[i].s ? b - 1 : b;
		}
		fputc('\n', f);
	}
	if (nst > top)
		fprintf(f, "  (%zu more stack%s)\n", nst - top,
			nst - top > 1 ? "s" : "");
out:
	for (i = 0; fn && i < nfn; i++)
		free(fn[i].name);
	free(fn);
	free_lines(st, nst);
}

int kp_sample_late(const struct kprof_probe_info *r, const struct kp_agg *a,
		   char *buf, size_t len)
{
	const char *ev, *per;
	uint64_t period, expect;
	int evlen;

	if (r->type != KPROF_TYPE_SAMPLE || strncmp(r->spec, "sample:", 7))
		return 0;
	ev = r->spec + 7;
	evlen = (int)strcspn(ev, ":");
	per = strstr(ev, ":period=");
	/* with :hz= perf moves the period itself */
	if (!per)
		return 0;
	per += 8;
	period = strtoull(per, NULL, strncasecmp(per, "0x", 2) ? 10 : 16);
	if (!period)
		return 0;
	expect = a->sum / period;
	if (expect < 20 || a->events * 2 >= expect)
		return 0;
	snprintf(buf, len, "%.*s counted %" PRIu64 " events, about %" PRIu64
		 " overflows at one every %" PRIu64 ", but the PMU raised %"
		 PRIu64 ": it raises its interrupt late (QEMU does for "
		 "inst_retired), so these samples are not spread by %.*s",
		 evlen, ev, a->sum, expect, period, a->events, evlen, ev);
	return 1;
}
