/* SPDX-License-Identifier: GPL-2.0 */
/* The commands (cmd-*.c) and what they share. */
#ifndef KPROFCTL_BUILTIN_H
#define KPROFCTL_BUILTIN_H

#include <stdint.h>

#include "dev.h"
#include "stats.h"
#include "util.h"

#define KPROFCTL_VERSION	"0.1.0"

int cmd_add(struct kp_dev *d, int argc, char **argv);
int cmd_del(struct kp_dev *d, int argc, char **argv);
int cmd_start(struct kp_dev *d, int argc, char **argv);
int cmd_stop(struct kp_dev *d, int argc, char **argv);
int cmd_reset(struct kp_dev *d, int argc, char **argv);
int cmd_list(struct kp_dev *d, int argc, char **argv);
int cmd_show(struct kp_dev *d, int argc, char **argv);
int cmd_watch(struct kp_dev *d, int argc, char **argv);
int cmd_stat(struct kp_dev *d, int argc, char **argv);
int cmd_list_tp(struct kp_dev *d, int argc, char **argv);
int cmd_run(struct kp_dev *d, int argc, char **argv);
int cmd_status(struct kp_dev *d, int argc, char **argv);
int cmd_version(struct kp_dev *d, int argc, char **argv);

extern const struct kp_help kp_help_add, kp_help_del, kp_help_start,
	kp_help_stop, kp_help_reset, kp_help_list, kp_help_show,
	kp_help_watch, kp_help_stat, kp_help_list_tp, kp_help_run,
	kp_help_status, kp_help_version;

/* add, and run for each SPEC */
struct kp_add_opts {
	uint32_t flags, pid, maxactive;
	int per_pid;
	const char *pmu;		/* kretprobe: events per call */
	uint64_t slow_ns;		/* --slow */
	const char *cpulist;
};

int kp_add_one(struct kp_dev *d, const char *spec,
	       const struct kp_add_opts *o, uint32_t *id);
/* run and stat: their probes go with the process, however it ends */
uint32_t kp_owned_flag(const struct kp_dev *d);

/* show, and run at the end */
int kp_show_ids(struct kp_dev *d, const uint32_t *ids, unsigned int nids,
		const struct kp_show_opts *o);

/* list and status */
int kp_list_probes(struct kp_dev *d, struct kprof_probe_info **out,
		   unsigned int *n);
/* status and version */
const char *kp_events_group(const struct kprof_version *v);

#endif
