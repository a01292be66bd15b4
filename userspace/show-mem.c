// SPDX-License-Identifier: GPL-2.0
/*
 * show for a mem probe: its sites as a table, or as JSON, from one list
 * of fields, so a column and its JSON name cannot drift apart.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "mem.h"
#include "kprofctl/hist.h"
#include "show-mem.h"
#include "spec.h"
#include "units.h"

struct mem_field {
	const char *json;
	const char *head;
	int width;
	size_t off;		/* in struct kp_mem_site */
};

#define FIELD(j, h, w, m) { j, h, w, offsetof(struct kp_mem_site, m) }
static const struct mem_field fields[] = {
	FIELD("allocs", "ALLOCS", 8, allocs),
	FIELD("alloc_bytes", "BYTES", 10, bytes),
	FIELD("slab_bytes", "SLAB_B", 10, slab),
	FIELD("frees", "FREES", 8, frees),
	FIELD("live", "LIVE", 7, live),
	FIELD("live_bytes", "LIVE_B", 9, live_bytes),
	FIELD("peak_bytes", "PEAK_B", 9, peak_bytes),
	FIELD("leaks", "LEAKED", 7, leaks),
	FIELD("leak_bytes", "LEAKED_B", 9, leaked),
};
#define NR_FIELDS	(sizeof(fields) / sizeof(fields[0]))

static uint64_t field(const struct kp_mem_site *s, unsigned int i)
{
	return *(const uint64_t *)((const char *)s + fields[i].off);
}


static const char *raw_frame(const struct kprof_probe_info *r,
			     const struct kp_show_opts *o,
			     const struct kp_mem_site *s, unsigned int i)
{
	if (KPROF_KEYSPEC_KIND(r->key[0]) != KPROF_KEY_STACK || !s->id ||
	    !o->stack_frame || i >= KPROF_STACK_DEPTH)
		return NULL;
	return o->stack_frame(o->caller_ctx, r, s->id, i);
}

/* "[MOD]": a frame of MOD's text that is gone (frames.c) */
static int gone_frame(const struct kprof_probe_info *r, const char *fr)
{
	size_t n = strlen(r->spec + 4);

	return fr[0] == '[' && !strncmp(fr + 1, r->spec + 4, n) &&
	       !strcmp(fr + 1 + n, "]");
}

/* the index of site @s's first frame of MOD's gone, -1: none */
static int first_gone(const struct kprof_probe_info *r,
		      const struct kp_show_opts *o, const struct kp_mem_site *s)
{
	const char *fr;
	unsigned int k;

	for (k = 0; (fr = raw_frame(r, o, s, k)); k++)
		if (gone_frame(r, fr))
			return (int)k;
	return -1;
}

/*
 * By stack: frame i of site @s's stack, NULL past it or hidden (not
 * root).  The first of MOD's frames gone (index @gone) is the site, as
 * it was named.
 */
static const char *site_frame(const struct kprof_probe_info *r,
			      const struct kp_show_opts *o,
			      const struct kp_mem_site *s, unsigned int i,
			      int gone)
{
	const char *fr = raw_frame(r, o, s, i);

	return fr && (int)i == gone && s->name[0] ? s->name : fr;
}

static void site_label(const struct kp_mem_site *s, char *buf, size_t len)
{
	if (!s->id)
		snprintf(buf, len, "site ? (more sites than ids)");
	else if (s->name[0])
		snprintf(buf, len, "%s", s->name);
	else
		snprintf(buf, len, "site #%" PRIu64, s->id);
}

void kp_show_mem_text(FILE *f, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o)
{
	char label[160], life[32], kind[64];
	int wsite = 28, wkind = 10, gone;
	const char *fr;
	struct kp_mem mem;
	unsigned int i, j;

	fprintf(f, "probe %u: %s [%s%s]\n", r->id, r->spec,
		kp_state_name(r->state), kp_owned_label(r));
	if (kp_mem_build(m, r, o, &mem)) {
		fprintf(f, "  out of memory\n");
		kp_mem_free(&mem);
		return;
	}
	fprintf(f, "  %" PRIu64 " allocations (%" PRIu64 " bytes asked, %"
		PRIu64 " from the allocator), %" PRIu64 " freed, %" PRIu64
		" leaked (%" PRIu64 " bytes), %" PRIu64 " live (%" PRIu64
		" bytes, at most %" PRIu64 ")\n", mem.total.allocs,
		mem.total.bytes, mem.total.slab, mem.total.frees,
		mem.total.leaks, mem.total.leaked, mem.total.live,
		mem.total.live_bytes, mem.total.peak_bytes);
	if (mem.dropped)
		fprintf(f, "  %" PRIu64 " allocations not followed: the live "
			"table was full (add the probe again with a larger "
			"--objects)\n", mem.dropped);
	if (mem.forgotten)
		fprintf(f, "  %" PRIu64 " objects no longer followed: live "
			"when the probe stopped (or their free went "
			"unreported)\n", mem.forgotten);
	if (mem.other)
		fprintf(f, "  %" PRIu64 " events beyond the key table: load the "
			"kprofctl module again with pair_keys=%u\n",
			mem.other, r->nr_keys * 2);
	for (i = 0; i < mem.nr && mem.site[i].id; i++)
		if (!mem.site[i].name[0]) {
			fprintf(f, "  sites are ids: their names need "
				"CAP_SYSLOG (root)\n");
			break;
		}
	if (!mem.nr) {
		kp_mem_free(&mem);
		return;
	}
	/* the columns as wide as their longest cell: a table stays one */
	for (i = 0; i < mem.nr; i++) {
		site_label(&mem.site[i], label, sizeof(label));
		if ((int)strlen(label) > wsite)
			wsite = (int)strlen(label);
		kp_mem_kind_name(&mem.site[i], kind, sizeof(kind));
		if ((int)strlen(kind) > wkind)
			wkind = (int)strlen(kind);
	}
	fprintf(f, "  %-*s %-*s", wsite, "SITE", wkind, "KIND");
	for (j = 0; j < NR_FIELDS; j++)
		fprintf(f, " %*s", fields[j].width, fields[j].head);
	fprintf(f, " %10s\n", "LIFE_P50");
	for (i = 0; i < mem.nr; i++) {
		const struct kp_mem_site *s = &mem.site[i];

		site_label(s, label, sizeof(label));
		fprintf(f, "  %-*s %-*s", wsite, label, wkind,
			kp_mem_kind_name(s, kind, sizeof(kind)));
		for (j = 0; j < NR_FIELDS; j++)
			fprintf(f, " %*" PRIu64, fields[j].width, field(s, j));
		if (s->frees)
			kp_fmt_ns(s->life_p50, life, sizeof(life));
		else
			snprintf(life, sizeof(life), "-");
		fprintf(f, " %10s\n", life);
		gone = first_gone(r, o, s);
		for (j = 0; (fr = site_frame(r, o, s, j, gone)); j++)
			fprintf(f, "      %s\n", fr);
	}
	kp_mem_free(&mem);
}

/* "NAME":[{LO,HI,"count"}...]: the buckets holding any */
static void hist_json(struct kp_jw *w, const char *name, const __u64 *h,
		      const char *lo, const char *hi)
{
	struct kprof_hist_iter it;

	kp_jw_name(w, name);
	kp_jw_start_array(w);
	for (kprof_hist_iter_init(&it, h); kprof_hist_iter_next(&it);) {
		kp_jw_start_object(w);
		kp_jw_u64_field(w, lo, it.lower);
		kp_jw_u64_field(w, hi, it.upper);
		kp_jw_u64_field(w, "count", it.count);
		kp_jw_end_object(w);
	}
	kp_jw_end_array(w);
}

static void site_json(struct kp_jw *w, const struct kprof_probe_info *r,
		      const struct kp_show_opts *o,
		      const struct kp_mem_site *s, int total)
{
	const char *fr;
	unsigned int j;
	char kind[64];
	int gone;

	kp_jw_start_object(w);
	if (!total) {
		/* 0: the sites beyond the id table, together */
		kp_jw_u64_field(w, "id", s->id);
		if (s->name[0])
			kp_jw_string_field(w, "site", s->name);
		kp_jw_string_field(w, "kind",
				   kp_mem_kind_name(s, kind, sizeof(kind)));
		gone = first_gone(r, o, s);
		if (site_frame(r, o, s, 0, gone)) {
			kp_jw_name(w, "stack");
			kp_jw_start_array(w);
			for (j = 0; (fr = site_frame(r, o, s, j, gone)); j++)
				kp_jw_string(w, fr);
			kp_jw_end_array(w);
		}
	}
	for (j = 0; j < NR_FIELDS; j++)
		kp_jw_u64_field(w, fields[j].json, field(s, j));
	/* the allocator's bytes of what is gone, for JSON only */
	kp_jw_u64_field(w, "free_bytes", s->freed);
	kp_jw_u64_field(w, "live_slab_bytes", s->live_slab);
	kp_jw_u64_field(w, "leak_slab_bytes", s->leaked_slab);
	if (!total) {
		kp_jw_u64_field(w, "size_min", s->size_min);
		kp_jw_u64_field(w, "size_max", s->size_max);
		if (s->frees)
			kp_jw_u64_field(w, "lifetime_p50_ns", s->life_p50);
		/* last: nested objects, after every plain field */
		hist_json(w, "size_buckets", s->sizes, "lo", "hi");
		hist_json(w, "lifetime_buckets", s->lives, "lo_ns", "hi_ns");
	}
	kp_jw_end_object(w);
}

void kp_show_mem_json(struct kp_jw *w, const struct kp_map *m,
		      const struct kprof_probe_info *r,
		      const struct kp_show_opts *o)
{
	struct kp_mem mem;
	unsigned int i;

	kp_jw_start_object(w);
	kp_jw_u64_field(w, "id", r->id);
	kp_jw_string_field(w, "spec", r->spec);
	kp_jw_string_field(w, "type", kp_type_name(r->type));
	kp_jw_string_field(w, "state", kp_state_name(r->state));
	if (kp_mem_build(m, r, o, &mem)) {
		kp_mem_free(&mem);
		kp_jw_string_field(w, "error", "out of memory");
		kp_jw_end_object(w);
		return;
	}
	kp_jw_name(w, "total");
	site_json(w, r, o, &mem.total, 1);
	kp_jw_u64_field(w, "dropped", mem.dropped);
	kp_jw_u64_field(w, "forgotten", mem.forgotten);
	kp_jw_u64_field(w, "other_keys", mem.other);
	kp_jw_name(w, "sites");
	kp_jw_start_array(w);
	for (i = 0; i < mem.nr; i++)
		site_json(w, r, o, &mem.site[i], 0);
	kp_jw_end_array(w);
	kp_jw_end_object(w);
	kp_mem_free(&mem);
}
