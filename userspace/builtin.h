/* SPDX-License-Identifier: GPL-2.0 */
/* The commands (cmd-*.c) and what they share. */
#ifndef KPROFCTL_BUILTIN_H
#define KPROFCTL_BUILTIN_H

#include <stdint.h>

#include "dev.h"
#include "agg.h"
#include "util.h"

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
int cmd_flamegraph(struct kp_dev *d, int argc, char **argv);
int cmd_profile(struct kp_dev *d, int argc, char **argv);
int cmd_save(struct kp_dev *d, int argc, char **argv);
int cmd_record(struct kp_dev *d, int argc, char **argv);
int cmd_diff(struct kp_dev *d, int argc, char **argv);
int cmd_top(struct kp_dev *d, int argc, char **argv);
int cmd_report(struct kp_dev *d, int argc, char **argv);
int cmd_export(struct kp_dev *d, int argc, char **argv);
int cmd_serve(struct kp_dev *d, int argc, char **argv);
int cmd_timeline(struct kp_dev *d, int argc, char **argv);
int cmd_mem(struct kp_dev *d, int argc, char **argv);

extern const struct kp_help kp_help_add, kp_help_del, kp_help_start,
	kp_help_stop, kp_help_reset, kp_help_list, kp_help_show,
	kp_help_watch, kp_help_stat, kp_help_list_tp, kp_help_run,
	kp_help_status, kp_help_version, kp_help_flamegraph,
	kp_help_profile, kp_help_save, kp_help_record, kp_help_diff, kp_help_top,
	kp_help_report, kp_help_export, kp_help_serve,
	kp_help_timeline, kp_help_mem;

#endif
