/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The capture reader's checked getters (capture-get.c): every field of a
 * file checked for type and range, failures as "where: what" in x->err.
 * For capture-read.c and map-build.c only.
 */
#ifndef KPROFCTL_CAPTURE_GET_H
#define KPROFCTL_CAPTURE_GET_H

#include <stddef.h>
#include <stdint.h>
#include <json-c/json.h>

#include "uapi/linux/kprofctl.h"

#define CPU_STRIDE	sizeof(struct kprof_cpu_stats)
#define MAX_SLOTS	65536
#define MAX_IDS		(1U << 20)
#define MAX_DEPTH	64

struct rd {
	char *err;
	size_t errlen;
	const char *where;	/* "probe 3", "interval 2, probe 1" */
	unsigned int nr_cpus;
};

/*
 * The integer helpers store through void *: uapi fields are __u64
 * (unsigned long long), the CLI's uint64_t may be unsigned long.
 */
#define kp_rd_u64(x, o, k, max, def, out) \
	kp_rd_u64_(x, o, k, max, def, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))
#define kp_rd_arr_u64(x, a, i, max, what, out) \
	kp_rd_arr_u64_(x, a, i, max, what, out + 0 * sizeof(char[sizeof(*(out)) == 8 ? 1 : -1]))

int __attribute__((format(printf, 2, 3)))
kp_rd_bad(struct rd *x, const char *fmt, ...);
int kp_rd_u64_(struct rd *x, struct json_object *o, const char *k,
	       uint64_t max, int64_t def, void *outp);
int kp_rd_arr_u64_(struct rd *x, struct json_object *a, size_t i,
		   uint64_t max, const char *what, void *outp);
int kp_rd_u64_val(struct rd *x, struct json_object *o, const char *k,
		  uint64_t max, int64_t def, uint64_t *out);
struct json_object *kp_rd_member(struct json_object *o, const char *k);
void kp_rd_store64(void *out, uint64_t v);
int kp_rd_u32(struct rd *x, struct json_object *o, const char *k,
	      uint64_t max, int64_t def, uint32_t *out);
int kp_rd_str(struct rd *x, struct json_object *o, const char *k,
	      char *buf, size_t len, int opt);
struct json_object *kp_rd_arr(struct rd *x, struct json_object *o,
			      const char *k, int opt);
int kp_rd_buckets(struct rd *x, struct json_object *a, __u64 *hist,
		  __u32 *fhist, unsigned int nr, uint64_t count);
/* a block's "max" below its "min" refused (when it has both) */
int kp_rd_minmax(struct rd *x, struct json_object *o, uint64_t min,
		 uint64_t max);
int kp_rd_blocks(struct rd *x, struct json_object *a, uint8_t *dst);

#endif
