// SPDX-License-Identifier: GPL-2.0
/*
 * Boot-time capture: probe lists armed at load, from the probes= module
 * parameter (also kprofctl.probes= on the kernel command line) or from a
 * device-tree node (of.c), and the report of what became of each spec.
 *
 * A kprobe on "MOD:SYM" waits for MOD to load (KPROF_ADD_DEFER), so a
 * driver module's probe is caught whichever loads first.
 * A spec that does not resolve is reported and skipped; the rest of its
 * list still arms.  A failure of the list itself (malformed property,
 * wrong board, no memory) disarms every probe the list armed, so a list
 * is never half applied for a reason the user cannot see per spec.  None
 * of this fails the module load.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "boot.h"
#include "kprofctl/kinds.h"
#include "core.h"
#include "pmu.h"

static char *probes;
module_param(probes, charp, 0444);
MODULE_PARM_DESC(probes,
		 "Probes to add and start at load, comma-separated specs (boot-time capture)");

static char *pmu_events;
module_param(pmu_events, charp, 0444);
MODULE_PARM_DESC(pmu_events,
		 "PMU events per call for the kretprobes of probes=, comma-separated");

static unsigned long slow_ns;
module_param(slow_ns, ulong, 0444);
MODULE_PARM_DESC(slow_ns,
		 "Slow-call threshold for the kretprobes and pairs of probes=, 0: none");

#define KPROF_BOOT_MAX_RECS	64

/* process context only; kprof_boot.lock nests outside kprof.lock */
static struct {
	struct mutex lock;
	u32 nr;
	u32 lost;
	struct kprof_boot_rec rec[KPROF_BOOT_MAX_RECS];
} kprof_boot = {
	.lock = __MUTEX_INITIALIZER(kprof_boot.lock),
};

static struct kprof_boot_rec *kprof_boot_rec_new(u32 source,
						 const char *origin)
{
	struct kprof_boot_rec *r;

	lockdep_assert_held(&kprof_boot.lock);
	if (kprof_boot.nr == KPROF_BOOT_MAX_RECS) {
		kprof_boot.lost++;
		return NULL;
	}
	r = &kprof_boot.rec[kprof_boot.nr++];
	memset(r, 0, sizeof(*r));
	r->source = source;
	strscpy(r->origin, origin, sizeof(r->origin));
	return r;
}

/* Records a failure of the whole list; the caller disarms it. */
void kprof_boot_fail(u32 source, const char *origin, int error,
		     const char *fmt, ...)
{
	struct kprof_boot_rec *r;
	char text[KPROF_SPEC_LEN];
	va_list args;

	va_start(args, fmt);
	vsnprintf(text, sizeof(text), fmt, args);
	va_end(args);
	pr_err("%s: %s\n", origin, text);

	mutex_lock(&kprof_boot.lock);
	r = kprof_boot_rec_new(source, origin);
	if (r) {
		r->flags = KPROF_BOOT_LIST;
		r->error = error;
		strscpy(r->text, text, sizeof(r->text));
	}
	mutex_unlock(&kprof_boot.lock);
}

/*
 * Adds and starts one spec of list @origin.  @pmu (kretprobes) and
 * @slow (kretprobes and pairs) are the list's defaults.  Returns 0 or
 * the spec's error, which is also logged and recorded.  -ENOMEM fails
 * the whole list: every probe it armed is disarmed, and the caller stops.
 */
int kprof_boot_arm(u32 source, const char *origin, const char *spec,
		   const char *pmu, u64 slow)
{
	struct kprof_probe_add *a;
	struct kprof_boot_rec *r;
	int ret;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a) {
		ret = -ENOMEM;
		goto nomem;
	}
	a->size = sizeof(*a);
	a->flags = KPROF_ADD_START;
	if (strscpy(a->spec, spec, sizeof(a->spec)) < 0) {
		ret = -E2BIG;
	} else {
		/* the list's defaults go to the kinds that take them */
		const struct kprof_kind *k = kprof_kind_of_spec(spec);
		u32 acc = k ? k->accepts : 0;

		if (pmu && (acc & KPROF_ACCEPT_PMU))
			strscpy(a->pmu, pmu, sizeof(a->pmu));
		if (acc & KPROF_ACCEPT_SLOW)
			a->slow_ns = slow;
		/* "kprobe:MOD:SYM": wait for MOD, register before its init */
		if (k && (k->flags & KPROF_KIND_DEFER_MOD) &&
		    kprof_sym_has_mod(strchr(spec, ':') + 1))
			a->flags |= KPROF_ADD_DEFER;
		ret = kprof_probe_add(a);
	}
	if (ret) {
		pr_warn("%s: '%s' not armed: %pe\n", origin, spec,
			ERR_PTR(ret));
	} else {
		struct kprof_probe_info info = {};

		kprof_probe_info(a->id, &info);
		pr_info("%s: '%s' is probe %u, %s\n", origin, spec, a->id,
			info.state == KPROF_STATE_PENDING ?
			"pending until its module loads" : "running");
	}

	mutex_lock(&kprof_boot.lock);
	r = kprof_boot_rec_new(source, origin);
	if (r) {
		r->id = a->id;
		r->error = ret;
		strscpy(r->text, spec, sizeof(r->text));
	}
	mutex_unlock(&kprof_boot.lock);
	if (!r && !ret)
		pr_warn("%s: boot report full, probe %u not reported\n",
			origin, a->id);
	kfree(a);
	if (ret != -ENOMEM)
		return ret;
nomem:
	kprof_boot_disarm(source, false);
	kprof_boot_fail(source, origin, ret,
			"out of memory at '%s': every probe of the list disarmed",
			spec);
	return ret;
}

/*
 * Deletes every probe that list @source armed and drops its spec records;
 * with @forget the list's failure records go too (the node went away).
 */
void kprof_boot_disarm(u32 source, bool forget)
{
	u32 i, n = 0;

	mutex_lock(&kprof_boot.lock);
	for (i = 0; i < kprof_boot.nr; i++) {
		struct kprof_boot_rec *r = &kprof_boot.rec[i];

		if (r->source == source) {
			if (r->id)
				kprof_probe_del(r->id);
			if (forget || !(r->flags & KPROF_BOOT_LIST))
				continue;
		}
		kprof_boot.rec[n++] = *r;
	}
	kprof_boot.nr = n;
	mutex_unlock(&kprof_boot.lock);
}

/* Checks a PMU event list as ADD would; *bad: 1 + index of the culprit. */
int kprof_boot_check_pmu(const char *list, u32 *bad)
{
	struct kprof_pmu *pm = kprof_pmu_new(list, bad);

	if (IS_ERR(pm))
		return PTR_ERR(pm);
	kfree(pm);
	return 0;
}

void kprof_boot_params(void)
{
	const char *origin = "probes=";
	char *list, *s, *spec;
	u32 bad = 0;
	int ret;

	if (!probes || !*probes)
		return;
	if (pmu_events && *pmu_events) {
		if (strlen(pmu_events) >= KPROF_PMU_SPEC_LEN)
			ret = -E2BIG;
		else
			ret = kprof_boot_check_pmu(pmu_events, &bad);
		if (ret) {
			kprof_boot_fail(KPROF_BOOT_PARAM, origin, ret,
					"pmu_events=%s: event %u is not known (or the list is too long); no probe armed",
					pmu_events, bad);
			return;
		}
	}
	list = kstrdup(probes, GFP_KERNEL);
	if (!list) {
		kprof_boot_fail(KPROF_BOOT_PARAM, origin, -ENOMEM,
				"out of memory: no probe armed");
		return;
	}
	s = list;
	while ((spec = strsep(&s, ","))) {
		if (!*spec)
			continue;
		ret = kprof_boot_arm(KPROF_BOOT_PARAM, origin, spec,
				     pmu_events, slow_ns);
		if (ret == -ENOMEM)
			break;
	}
	kfree(list);
}

/*
 * KPROF_IOC_BOOT_REPORT: copies records out, ARMED as of now.  They are
 * copied under the lock and out after it, as kprof_probe_list() does: the
 * report needs no privilege, and a stalled buffer must not hold up a
 * list being armed or a node being unbound.
 */
int kprof_boot_report(void __user *ubuf, u32 rec_size, u32 *count,
		      u32 *lost)
{
	u32 i, n = min_t(u32, *count, KPROF_BOOT_MAX_RECS);
	struct kprof_boot_rec *buf = NULL;
	int ret = 0;

	if (n) {
		buf = kvcalloc(n, sizeof(*buf), GFP_KERNEL);
		if (!buf)
			return -ENOMEM;
	}
	mutex_lock(&kprof_boot.lock);
	*count = kprof_boot.nr;
	*lost = kprof_boot.lost;
	n = min(n, kprof_boot.nr);
	if (n)
		memcpy(buf, kprof_boot.rec, n * sizeof(*buf));
	mutex_unlock(&kprof_boot.lock);

	for (i = 0; i < n && !ret; i++) {
		struct kprof_probe_info info;

		if (buf[i].id && !kprof_probe_info(buf[i].id, &info))
			buf[i].flags |= KPROF_BOOT_ARMED;
		ret = kprof_put_rec(ubuf, i, rec_size, &buf[i], sizeof(buf[i]));
	}
	kvfree(buf);
	return ret;
}
