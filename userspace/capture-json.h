/* SPDX-License-Identifier: GPL-2.0 */
/* A probe's records as a capture's JSON (json-c objects), for save and record. */
#ifndef KPROFCTL_CAPTURE_JSON_H
#define KPROFCTL_CAPTURE_JSON_H

#include <stdint.h>

#include "capture.h"

struct json_object;

/* json-c with 64-bit values kept exact */
struct json_object *kp_json_u64(uint64_t v);
void kp_json_put(struct json_object *o, const char *k, struct json_object *v);
void kp_json_put_u64(struct json_object *o, const char *k, uint64_t v);
void kp_json_put_str(struct json_object *o, const char *k, const char *s);

/*
 * One probe's records; x: its frames and the like (NULL in a recording's
 * intervals), root the sysfs root its PMU notes read
 */
struct json_object *kp_cap_probe_json(const struct kp_map *m,
				      const struct kprof_probe_info *r,
				       const struct kp_cap_probe *x,
				       const char *root);

#endif
