// SPDX-License-Identifier: GPL-2.0
/*
 * The "linux,kprofctl" device-tree node (dts/, binding in
 * dts/bindings/kprofctl.yaml): the module binds to it as a platform driver
 * and arms its probes, with its PMU events and slow-call threshold; its
 * sizing properties are read before the statistics area is laid out.
 * Without a node the module is a plain misc device.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/of.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "of.h"
#include "boot.h"

static const struct of_device_id kprof_of_match[] = {
	{ .compatible = "linux,kprofctl" },
	{ }
};
MODULE_DEVICE_TABLE(of, kprof_of_match);

/*
 * A board overlay puts its own compatible first.  Its probes name that
 * board's drivers and its sizing fits that SoC, so it is not armed on
 * another machine (an overlay applied to the wrong board's DTB).
 */
static const struct {
	const char *node;
	const char *const machines[3];
} kprof_of_boards[] = {
	{ "radxa,rock-5b-plus-kprofctl",
	  { "radxa,rock-5b-plus", "radxa,rock-5b", NULL } },
};

/*
 * Process context: module init and exit, driver core bind and unbind.
 * The node is referenced only while its device is bound (or, at init,
 * while one sizing property is read), so an overlay removed and applied
 * again is a new node that binds once the old one is gone.
 */
static struct {
	struct mutex lock;		/* node and origin across binds */
	struct device_node *node;	/* the bound node, referenced */
	char origin[KPROF_BOOT_ORIGIN_LEN];
	bool bad;			/* a sizing property was malformed */
	bool registered;
} kprof_of = { .lock = __MUTEX_INITIALIZER(kprof_of.lock) };

/* The first available node, referenced; sizing reads only this one. */
static struct device_node *kprof_of_first(void)
{
	struct device_node *np;

	for_each_matching_node(np, kprof_of_match) {
		if (of_device_is_available(np)) {
			snprintf(kprof_of.origin, sizeof(kprof_of.origin),
				 "%pOF", np);
			return np;	/* keeps the iterator's ref */
		}
	}
	return NULL;
}

/*
 * Sets *s->val from the node's property unless the module parameter was
 * given (differs from its default).  A malformed or out-of-range value
 * leaves it alone and marks the node bad: its probes are then not armed.
 */
void kprof_of_size(const struct kprof_size *s)
{
	struct device_node *np = kprof_of_first();
	u32 v;
	int len;

	if (!np)
		return;
	if (!of_find_property(np, s->prop, &len))
		goto out;
	if (len != sizeof(u32) || of_property_read_u32(np, s->prop, &v)) {
		kprof_of.bad = true;
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -EINVAL,
				"property %s: want one 32-bit cell, found %d bytes; no probe of the node armed",
				s->prop, len);
		goto out;
	}
	if (!kprof_size_ok(s, v)) {
		kprof_of.bad = true;
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -ERANGE,
				"property %s = <%u>: want %s%u-%u; no probe of the node armed",
				s->prop, v, s->pow2 ? "a power of two, " : "",
				s->min, s->max);
		goto out;
	}
	if (*s->val != s->dflt) {
		pr_info("%s: %s=%u from the module parameter wins over %s = <%u>\n",
			kprof_of.origin, s->param, *s->val, s->prop, v);
		goto out;
	}
	*s->val = v;
out:
	of_node_put(np);
}

static bool kprof_of_board_ok(struct device_node *np)
{
	unsigned int i, m;

	for (i = 0; i < ARRAY_SIZE(kprof_of_boards); i++) {
		if (!of_device_is_compatible(np, kprof_of_boards[i].node))
			continue;
		for (m = 0; kprof_of_boards[i].machines[m]; m++)
			if (of_machine_is_compatible(kprof_of_boards[i].machines[m]))
				return true;
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -ENODEV,
				"node for %s on a machine that is not %s: overlay for another board, no probe armed",
				kprof_of_boards[i].node,
				kprof_of_boards[i].machines[0]);
		return false;
	}
	return true;
}

/* "pmu-events": names joined with ',' into buf, checked like ADD's. */
static int kprof_of_pmu(struct device_node *np, char *buf, size_t size)
{
	const char *ev;
	size_t len = 0;
	int i, n, ret;
	u32 bad = 0;

	n = of_property_count_strings(np, "pmu-events");
	if (n == -EINVAL)
		return 0;		/* absent */
	if (n <= 0 || n > KPROF_PMU_MAX_EVENTS) {
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -EINVAL,
				"property pmu-events: want 1-%u strings; no probe of the node armed",
				KPROF_PMU_MAX_EVENTS);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		of_property_read_string_index(np, "pmu-events", i, &ev);
		ret = snprintf(buf + len, size - len, "%s%s", i ? "," : "",
			       ev);
		if (ret < 0 || (size_t)ret >= size - len) {
			kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -E2BIG,
					"property pmu-events: longer than %zu bytes joined; no probe of the node armed",
					size - 1);
			return -E2BIG;
		}
		len += ret;
	}
	ret = kprof_boot_check_pmu(buf, &bad);
	if (ret)
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, ret,
				"property pmu-events: event %u of \"%s\" is not known; no probe of the node armed",
				bad, buf);
	return ret;
}

static int kprof_of_slow(struct device_node *np, u64 *slow)
{
	u32 v32;
	int len;

	if (!of_find_property(np, "slow-threshold-ns", &len))
		return 0;
	if (len == sizeof(u32) &&
	    !of_property_read_u32(np, "slow-threshold-ns", &v32)) {
		*slow = v32;
		return 0;
	}
	if (len == sizeof(u64) &&
	    !of_property_read_u64(np, "slow-threshold-ns", slow))
		return 0;
	kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -EINVAL,
			"property slow-threshold-ns: want one or two 32-bit cells, found %d bytes; no probe of the node armed",
			len);
	return -EINVAL;
}

/*
 * Claims np for this bind: refused while another node is bound (one list
 * of probes, one set of sizing properties).
 */
static int kprof_of_claim(struct device_node *np)
{
	char other[KPROF_BOOT_ORIGIN_LEN];
	int ret = 0;

	mutex_lock(&kprof_of.lock);
	if (kprof_of.node) {
		snprintf(other, sizeof(other), "%pOF", np);
		kprof_boot_fail(KPROF_BOOT_DT, other, -EBUSY,
				"only one kprofctl node is used, %s: no probe of this one armed",
				kprof_of.origin);
		ret = -EBUSY;
	} else {
		kprof_of.node = of_node_get(np);
		snprintf(kprof_of.origin, sizeof(kprof_of.origin), "%pOF", np);
	}
	mutex_unlock(&kprof_of.lock);
	return ret;
}

static void kprof_of_release(void)
{
	mutex_lock(&kprof_of.lock);
	of_node_put(kprof_of.node);
	kprof_of.node = NULL;
	mutex_unlock(&kprof_of.lock);
}

static int kprof_of_arm(struct platform_device *pdev)
{
	struct device_node *np = pdev->dev.of_node;
	char pmu[KPROF_PMU_SPEC_LEN] = "";
	const char *spec;
	int i, n, armed = 0, ret;
	u64 slow = 0;

	if (kprof_of.bad || !kprof_of_board_ok(np))
		return -EINVAL;

	n = of_property_count_strings(np, "probes");
	if (n == -EINVAL) {
		n = 0;		/* a node may only size things */
	} else if (n <= 0) {
		kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, -EINVAL,
				"property probes: not a list of strings; no probe of the node armed");
		return -EINVAL;
	}
	ret = kprof_of_pmu(np, pmu, sizeof(pmu));
	if (!ret)
		ret = kprof_of_slow(np, &slow);
	if (ret)
		return ret;

	for (i = 0; i < n; i++) {
		of_property_read_string_index(np, "probes", i, &spec);
		if (!*spec) {
			ret = -EINVAL;
			kprof_boot_fail(KPROF_BOOT_DT, kprof_of.origin, ret,
					"property probes: string %d is empty; every probe of the node disarmed",
					i + 1);
			break;
		}
		ret = kprof_boot_arm(KPROF_BOOT_DT, kprof_of.origin, spec,
				     *pmu ? pmu : NULL, slow);
		if (ret == -ENOMEM)
			return ret;	/* the list is disarmed */
		armed += !ret;
		ret = 0;
	}
	if (ret) {
		kprof_boot_disarm(KPROF_BOOT_DT, false);
		return ret;
	}
	dev_info(&pdev->dev, "%d of %d probes armed\n", armed, n);
	return 0;
}

static int kprof_of_probe(struct platform_device *pdev)
{
	int ret = kprof_of_claim(pdev->dev.of_node);

	if (ret)
		return ret;
	ret = kprof_of_arm(pdev);
	if (ret)
		kprof_of_release();	/* not bound: remove will not run */
	return ret;
}

static void kprof_of_unbind(void)
{
	kprof_boot_disarm(KPROF_BOOT_DT, true);
	kprof_of_release();
}

#ifdef KPROF_HAVE_PLATFORM_REMOVE_VOID
static void kprof_of_remove(struct platform_device *pdev)
{
	kprof_of_unbind();
}
#else
static int kprof_of_remove(struct platform_device *pdev)
{
	kprof_of_unbind();
	return 0;
}
#endif

static struct platform_driver kprof_of_driver = {
	.probe	= kprof_of_probe,
	.remove	= kprof_of_remove,
	.driver	= {
		.name		= "kprofctl",
		.of_match_table	= kprof_of_match,
	},
};

/* After the device exists: binding arms the node's probes at once. */
void kprof_of_init(void)
{
	int ret;

	ret = platform_driver_register(&kprof_of_driver);
	if (ret)
		pr_warn("platform driver not registered (%pe): device-tree probes unused\n",
			ERR_PTR(ret));
	else
		kprof_of.registered = true;
}

void kprof_of_exit(void)
{
	/* unbinds the node, which drops its reference */
	if (kprof_of.registered)
		platform_driver_unregister(&kprof_of_driver);
}
