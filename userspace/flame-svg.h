/* SPDX-License-Identifier: GPL-2.0 */
/* A flame graph drawn: one SVG with its own style and script. */
#ifndef KPROFCTL_FLAME_SVG_H
#define KPROFCTL_FLAME_SVG_H

#include <stdio.h>

#include "flame.h"

struct kp_flame_opts {
	const char *title;		/* NULL: "Flame Graph" */
	unsigned int width;		/* whole image, px; 0: 1200 */
	const char *count_name;		/* NULL: "samples" */
	const char *subtitle;		/* an extra line under the title, or NULL */
};

/* Fill colour of a frame of that name: a warm shade from a hash of it */
void kp_flame_color(const char *name, char *buf, size_t len);
/*
 * Diff fill: by the change of the frame's self share (self / total
 * samples of its input) from before to after, relative to maxd (the
 * largest change in the graph): red grew, blue shrank, grey equal.
 */
void kp_flame_diff_color(const struct kp_flame *g,
			 const struct kp_flame_node *n, double maxd, char *buf,
			 size_t len);

/* n graphs (1..KP_FLAME_MAX_GRAPHS) side by side into f; 0 or -1 (errno) */
int kp_flame_svg(FILE *f, struct kp_flame **g, unsigned int n,
		 const struct kp_flame_opts *o);

#endif
