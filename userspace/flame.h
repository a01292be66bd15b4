/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Flame graphs from folded stacks ("outer;inner;leaf COUNT" lines, as
 * show --folded, flamegraph.pl and inferno read them) into one
 * self-contained interactive SVG: one graph, up to KP_FLAME_MAX_GRAPHS
 * side by side, or the difference of two inputs.
 */
#ifndef KPROFCTL_FLAME_H
#define KPROFCTL_FLAME_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KP_FLAME_MAX_GRAPHS	8
/* frames in one stack: deeper ones are refused (the renderer recurses) */
#define KP_FLAME_MAX_DEPTH	2048
#define KP_FLAME_FRAME_H	16
#define KP_FLAME_MIN_WIDTH	200
#define KP_FLAME_MAX_WIDTH	100000
/* frames narrower than this (px) are not drawn; their samples stay in the parent */
#define KP_FLAME_MIN_PX		0.1

struct kp_flame_node {
	struct kp_flame_node *parent, *hnext;	/* hnext: hash chain */
	struct kp_flame_node **kids;		/* sorted by name once rendered */
	unsigned int nkids, cap, depth;
	uint64_t total, self;		/* samples with and without the kids */
	/* diff: the same path in BEFORE (0 if absent there) */
	uint64_t b_total, b_self;
	uint64_t hash;			/* of the name */
	char name[];
};

struct kp_flame {
	struct kp_flame_node *root;	/* "all": depth 0, total = every sample */
	const char *label;		/* column title; NULL: none */
	struct kp_flame_node **tab;	/* (parent, name) -> node */
	size_t tab_size, nr_nodes;
	unsigned int max_depth;
	unsigned long nr_stacks;	/* lines read */
	unsigned long nr_skipped;	/* malformed lines kp_flame_parse skipped */
	char skip_why[224];		/* the first one's "NAME:LINE: why" */
	int diff;			/* b_* filled by kp_flame_diff() */
	uint64_t b_all;			/* BEFORE's total samples */
};

/* FNV-1a of a frame name: the tree's hash, the SVG's colours */
uint64_t kp_flame_hash(const char *s, size_t len);

/* 0, or -1 (out of memory) */
int kp_flame_init(struct kp_flame *g, const char *label);
void kp_flame_free(struct kp_flame *g);

/*
 * Folded lines from f: frames joined by ';', outermost first, a space and
 * a decimal count after the last space (frames may hold spaces).  Blank
 * lines are skipped; the same stack on several lines adds up.  A
 * malformed line (a comment, a fractional count, over 2048 frames) is
 * skipped and counted in nr_skipped, the first one's why in skip_why.
 * 0, or -1 with "NAME:LINE: why" in err for what stops the parse: a NUL
 * byte, counts over 2^64 in all, out of memory, a read error.
 */
int kp_flame_parse(struct kp_flame *g, FILE *f, const char *name, char *err,
		   size_t errlen);
/*
 * One stack of len bytes ("a;b;c") with count; 0, or with why in err -1
 * (a malformed stack, the tree as it was) or -2 (out of memory, or the
 * counts overflow)
 */
int kp_flame_add(struct kp_flame *g, const char *stack, size_t len,
		 uint64_t count, char *err, size_t errlen);
/*
 * The same from n frame names, outermost first (show --svg's stacks:
 * names may hold ';' here); 0, or -1 with why in err.
 */
int kp_flame_add_frames(struct kp_flame *g, const char *const *frames,
			unsigned int n, uint64_t count, char *err, size_t errlen);
/* The node at path "a;b;c" (NULL: the root), or NULL */
struct kp_flame_node *kp_flame_find(const struct kp_flame *g, const char *path);

/*
 * Differential graph: each node of after learns the self and total
 * samples of the same path in before (widths stay after's).
 */
void kp_flame_diff(struct kp_flame *after, const struct kp_flame *before);

#endif
