/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The probe table and its commands (core.c, layout.c, add.c, life.c,
 * query.c, modnotify.c), as the device (dev.c), the boot-time lists
 * (boot.c) and netlink (genl.c) use them.  Each command takes the core's
 * lock itself; none may be called from probe context.
 */
#ifndef KPROF_CORE_H
#define KPROF_CORE_H

#include <linux/types.h>

#include "../uapi/linux/kprofctl.h"

struct kprof_probe;
struct module;

int kprof_core_init(void);
void kprof_core_exit(void);
/* the core's module notifier (modnotify.c), right after its init */
int kprof_modnotify_init(void);
void kprof_modnotify_exit(void);

/* An object a mem: probe's module left allocated (KPROF_GENL_CMD_LEAK) */
struct kprof_leak {
	u64 size;			/* bytes asked for */
	u64 age_ns;
	u32 site;			/* the site's id */
	u32 kind;			/* KPROF_MEM_* */
	const char *name;		/* the site's kernel name, "" unknown */
};

/* Who hears of probes registered, gone, unregistered, losing events */
struct kprof_listener {
	void (*probe)(u32 event, const struct kprof_probe *p, u64 dropped,
		      u64 nmissed);
	void (*leak)(const struct kprof_probe *p, const struct kprof_leak *l);
	/* is what it sends closed to users without CAP_SYS_ADMIN? */
	bool (*restricted)(void);
};

/* Context: init, before any probe is added. */
void kprof_core_listen(const struct kprof_listener *l);
/* Context: process, under the core's lock. */
void kprof_tell_leak(const struct kprof_probe *p, const struct kprof_leak *l);

u64 kprof_caps(void);
u32 kprof_max_probes(void);
u32 kprof_max_pairs(void);
u32 kprof_pair_keys(void);
u32 kprof_max_pmus(void);
u32 kprof_max_sets(void);
u32 kprof_max_set_funcs(void);

/*
 * A function set's slot of the mapping, @size bytes of it backed (zeroed)
 * at *mem; returns the slot or -errno.  Caller holds the core's lock (a
 * backend callback).
 */
int kprof_set_slot_get(size_t size, void **mem);
void kprof_set_slot_put(int slot);
u64 kprof_set_slot_off(int slot);
/* bytes a set slot holds */
size_t kprof_set_slot_size(void);

int kprof_probe_add(struct kprof_probe_add *arg);
/* @owner: the file whose release deletes a KPROF_ADD_OWNED probe */
int kprof_probe_add_owned(struct kprof_probe_add *arg, const void *owner);
/* id 0: every probe */
int kprof_probe_del(u32 id);
void kprof_probe_del_owned(const void *owner);
int kprof_probe_start(u32 id);
int kprof_probe_stop(u32 id);
int kprof_probe_reset(u32 id);
int kprof_probe_exists(u32 id);
int kprof_probe_info(u32 id, struct kprof_probe_info *info);
int kprof_probe_list(struct kprof_probe_info __user *recs, u32 rec_size,
		     u32 *count);
int kprof_probe_pmu_read(u32 id);
/* Context: process.  "func+0x1c" of @pc, or "" (KPROF_SYM_LEN bytes) */
void kprof_sym_name(unsigned long pc, char *buf);
/* The caller ids' names (KPROF_KEY_FRAMES_SYMS), nr x KPROF_SYM_LEN */
int kprof_probe_key_syms(u32 id, char **buf, u32 *nr);
int kprof_probe_key_frames(u32 id, bool stack, u64 **buf, u32 *nr,
			   u32 *depth);

/* Tells the listener what probes lost since the last report. */
void kprof_report_losses(bool force);

/*
 * A module with tracepoints is coming or going: for tracepoints.c's hook.
 * Context: process, without the core's lock.
 */
void kprof_module_event(struct module *mod, bool coming);

/* for netlink dumps: each probe from *slot on (id/spec 0/NULL: any) */
struct kprof_info_walk {
	/* nonzero stops the walk at this probe */
	int (*fn)(struct kprof_info_walk *w, const struct kprof_probe_info *i,
		  u64 dropped);
};

int kprof_walk_infos(u32 *slot, u32 id, const char *spec,
		     struct kprof_info_walk *w);

/* Record @i of a caller's array of @rec_size-byte records */
int kprof_put_rec(void __user *recs, u32 i, u32 rec_size, const void *rec,
		  size_t size);

#endif /* KPROF_CORE_H */
