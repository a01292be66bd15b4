/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of probe specs and command-line values: no I/O, unit-tested. */
#ifndef KPROFCTL_SPEC_H
#define KPROFCTL_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"
#include "kprofctl/kinds.h"
#include "kprofctl/filter.h"
#include "units.h"

/* Is name a pair kind ("irq", ...; kprof_pair_names())? */
int kp_is_pair(const char *name);

/* Every kind's syntax and the pair kinds, for messages */
void kp_kinds_help(char *buf, size_t len);

/* "kretprobes, kretprobe sets and pairs": the kinds that take @accept */
void kp_kinds_accepting(unsigned int accept, char *buf, size_t len);

/*
 * Validates a spec of any kind of kprof_kinds() (kprobe, kretprobe,
 * tracepoint, pair, pmu, and the sets "kprobe:[MOD:]GLOB" and
 * "kretprobe:[MOD:]GLOB").  Returns KPROF_TYPE_* or 0 with a reason in err.
 */
int kp_parse_spec(const char *spec, char *err, size_t errlen);

/*
 * The function a kprobe or kretprobe spec probes, "[MOD:]SYM" without
 * +OFF, into buf; 0, or -1 for other kinds.
 */
int kp_probe_func(const char *spec, char *buf, size_t len);
/* Do two such functions (kp_probe_func) name the same? MOD: only if both. */
int kp_same_func(const char *a, const char *b);

/* "ftrace", "kprobes"...: kprof_probe_info.mech */
/* Does a probe of this type time calls (kinds.h), not count hits? */
int kp_type_latency(uint32_t type);
const char *kp_mech_name(uint32_t mech);
/* the same, "kretprobes" for a kretprobe's (set's) kprobes */
const char *kp_mech_label(uint32_t type, uint32_t mech);
const char *kp_type_name(uint32_t type);
const char *kp_state_name(uint32_t state);
/* ", temporary" for a probe that goes with its process (run, stat) */
const char *kp_owned_label(const struct kprof_probe_info *r);

/*
 * An --if or --key error as the CLI prints it: "OPT: MSG ['PART']", then
 * TEXT and a line of carets under the part at fault, each line indented
 * by two spaces and ended by a newline; cut short to fit buf.
 */
void kp_parse_err_format(const char *opt, const char *text,
			 const struct kprof_parse_err *e, char *buf,
			 size_t len);

/*
 * nr_key --key values, --keys (nr_keys) and --if (filter, or NULL) into
 * a, checked against the kind @type (KPROF_TYPE_*) as the module checks
 * them: 0, or -1 with what is wrong in msg, one line or (a parse error)
 * kp_parse_err_format()'s three, each ending in a newline.
 */
int kp_keys_fill(const char *const *keys, unsigned int nr_key,
		 uint32_t nr_keys, const char *filter, unsigned int type,
		 struct kprof_probe_add *a, char *msg, size_t len);

/*
 * A key spec and a filter back as text that kprof_key_parse() and
 * kprof_filter_parse() read into the same value, without spaces (for the
 * FILTERS column of list): "arg2:log2", "retval<-EAGAIN&&comm==sh".  The
 * default width is left out, retval constants in the errno range are
 * named, & masks are hex.  Cut short to fit buf.
 */
void kp_key_format(__u32 spec, char *buf, size_t len);
void kp_filter_format(const struct kprof_filter *f, char *buf, size_t len);

/*
 * One key's value for display, as its spec makes it (name: the record's,
 * for comm keys): "-EPROBE_DEFER (-517)", "error", "4096..8191",
 * "kernel pointer".  kp_keyval_match(): is want that value, written as
 * show prints it, as a number (base 10 unless 0x), or as an errno name?
 */
#define KP_KEY_LABEL	96
/* "kmalloc", "kmem_cache", "free", "leak": a mem probe's row, or "?" */
const char *kp_mem_row_name(uint64_t row);
void kp_keyval_format(__u32 spec, uint64_t v, const char *name, char *buf,
		      size_t len);
int kp_keyval_match(__u32 spec, uint64_t v, const char *want);

#endif
