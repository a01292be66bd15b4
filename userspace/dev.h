/* SPDX-License-Identifier: GPL-2.0 */
/* /dev/kprofctl access with errors explained in words. */
#ifndef KPROFCTL_DEV_H
#define KPROFCTL_DEV_H

#include <stdbool.h>
#include <stdint.h>

#include "uapi/linux/kprofctl.h"
#include "map.h"

struct kp_capture;

/* the node: KPROF_DEVICE, or -d DEV / KPROFCTL_DEV (kprofctl.c) */
extern const char *kp_dev_path;

struct kp_dev {
	const struct kp_capture *cap;	/* show --from: a file, no device */
	int frozen;		/* m is a copy (an interval): nothing to refresh */
	const char *path;
	int fd;		/* O_RDONLY: reading, the mapping */
	int wfd;	/* O_RDWR, opened on the first control command */
	struct kprof_version ver;
	void *map;
	struct kp_map m;
};

/* Opens the node and checks the ABI; prints why not and returns -1. */
int kp_dev_open(struct kp_dev *d, const char *path);
/*
 * A device command parses its arguments first and opens the node only
 * then, so a bad value is a usage error (2) even without the module:
 * main hands it a late handle, the command calls kp_dev_ready() after
 * its parsing (ready for NULL, a capture or an open node).
 */
void kp_dev_late(struct kp_dev *d, const char *path);
int kp_dev_ready(struct kp_dev *d);
int kp_dev_map(struct kp_dev *d);
void kp_dev_close(struct kp_dev *d);

/*
 * ioctl returning 0 or -errno.  Commands that change state (ADD, DEL,
 * START, STOP, RESET) go through a descriptor opened for writing, which
 * the module requires; it is opened on first use, so reading commands
 * never open the node for writing.
 */
int kp_ioctl(struct kp_dev *d, unsigned long cmd, void *arg);
int kp_id_cmd(struct kp_dev *d, unsigned long cmd, uint32_t id);

/* LIST: every probe's record into *out (malloc'ed, *n of them); 0 or -errno */
int kp_list_probes(struct kp_dev *d, struct kprof_probe_info **out,
		   unsigned int *n);

/*
 * The addresses behind probe id's caller (or with KPROF_KEY_FRAMES_STACK
 * stack) ids: *nr ids of *depth each in *pcs (malloc'ed; NULL when there
 * are none).  0, or the errno (EPERM: no CAP_SYSLOG).
 */
/*
 * Caller ids' names as the kernel gives them (KPROF_KEY_FRAMES_SYMS):
 * *nr of KPROF_SYM_LEN chars in *names (free()); an errno.
 */
int kp_key_syms(struct kp_dev *d, uint32_t id, char **names, uint32_t *nr);
int kp_key_frames(struct kp_dev *d, uint32_t id, uint32_t flags,
		  uint64_t **pcs, uint32_t *nr, uint32_t *depth);

/* Explains a failed command; exits nothing. */
void kp_explain(const struct kp_dev *d, const char *what, const char *subject,
		int err);

/*
 * Explains a PMU counter that could not be set up: event err_event (1-based)
 * of the comma-separated events, on CPU err_cpu, failed with err.
 */
void kp_explain_pmu(const char *what, const char *events, uint32_t err_event,
		    uint32_t err_cpu, int err);

/*
 * Reads the boot-time capture report into *recs (malloc'd, *n records);
 * returns 0 or -errno (-ENOTTY: a module older than ABI 1.5).
 */
int kp_dev_boot_report(struct kp_dev *d, struct kprof_boot_rec **recs,
		       unsigned int *n, unsigned int *lost);

/* One line on why a boot-time spec was not armed. */
const char *kp_boot_reason(int err, const char *spec);

/*
 * Does the kernel have kprobes (offsets, notrace functions, --kretprobe)?
 * Without them the function kinds go through ftrace (ABI 1.13).
 */
bool kp_has_kprobe_core(const struct kprof_version *v);

#endif
