/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON writer (after bpftool's json_writer): the commas between
 * members and elements, and their nesting, are its business, not each
 * printer's.  Output is compact (no whitespace), strings escaped by
 * kp_json_str.
 */
#ifndef KPROFCTL_JSON_H
#define KPROFCTL_JSON_H

#include <stdint.h>
#include <stdio.h>

#define KP_JW_DEPTH	32

struct kp_jw {
	FILE *f;
	unsigned int depth;	/* open objects and arrays */
	int named;		/* a name was written: its value comes next */
	unsigned char used[KP_JW_DEPTH];	/* something in this level */
};

void kp_jw_init(struct kp_jw *w, FILE *f);
void kp_jw_start_object(struct kp_jw *w);
void kp_jw_end_object(struct kp_jw *w);
void kp_jw_start_array(struct kp_jw *w);
void kp_jw_end_array(struct kp_jw *w);
/* a member's name; its value is what is written next */
void kp_jw_name(struct kp_jw *w, const char *name);
void kp_jw_u64(struct kp_jw *w, uint64_t v);
void kp_jw_string(struct kp_jw *w, const char *s);
void kp_jw_null(struct kp_jw *w);
void kp_jw_bool(struct kp_jw *w, int v);
/* a number as fmt prints it ("%.3f") */
void __attribute__((format(printf, 2, 3)))
kp_jw_printf(struct kp_jw *w, const char *fmt, ...);

/* name and value in one */
static inline void kp_jw_u64_field(struct kp_jw *w, const char *name,
				   uint64_t v)
{
	kp_jw_name(w, name);
	kp_jw_u64(w, v);
}

static inline void kp_jw_string_field(struct kp_jw *w, const char *name,
				      const char *s)
{
	kp_jw_name(w, name);
	kp_jw_string(w, s);
}

#endif
