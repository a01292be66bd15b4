// SPDX-License-Identifier: GPL-2.0
/*
 * A module of many functions with known call counts, for kprofctl's
 * function sets ("kprobe:kprof_funcs:*", tests/vm/guest/funcs.sh).
 *
 *   kpf_f000 .. kpf_f299  called kpf_calls(i) = i + 1 times per round,
 *                         except every i with i % 50 == 49 (kpf_f049,
 *                         kpf_f099, ... kpf_f299): never called
 *   init                  calls once each kpf_f<i> with i % 3 == 0 (and
 *                         i % 50 != 49), and kpf_init_only (__init text)
 *   kpf_notrace           notrace: ftrace cannot hook it; once per round
 *   kpf_lat_0, kpf_lat_1us, kpf_lat_10us, kpf_lat_100us
 *                         busy-wait until ktime_get_ns() has advanced by
 *                         0, 1000, 10000, 100000 ns (under icount, that
 *                         many instructions): latency targets
 *
 * Writing to /sys/kernel/debug/kprof_funcs/trigger runs the calls in the
 * writer's task, one command at a time:
 *
 *   run N   N rounds
 *   lat N   N calls of each kpf_lat_*, each with interrupts off
 *
 * /sys/kernel/debug/kprof_funcs/counts lists "NAME CALLS" for every
 * target: the module's own tally since it loaded.
 */
#include <linux/module.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <linux/mutex.h>
#include <linux/ktime.h>
#include <linux/irqflags.h>

#define KPF_NR		300
#define KPF_MAX_ROUNDS	1000
#define KPF_MAX_LAT	10000

/* the module's own tally; written under kpf_lock (or by init, alone) */
static unsigned long kpf_hits[KPF_NR];
static unsigned long kpf_notrace_hits, kpf_init_hits, kpf_lat_hits[4];
static DEFINE_MUTEX(kpf_lock);

static unsigned int kpf_calls(unsigned int i)
{
	return i % 50 == 49 ? 0 : i + 1;
}

/* a distinct body per function: nothing for the compiler to fold */
#define KPF_F(n)							\
noinline void kpf_f##n(void);						\
noinline void kpf_f##n(void)						\
{									\
	WRITE_ONCE(kpf_hits[1##n - 1000], kpf_hits[1##n - 1000] + 1);	\
}

/* kpf_f000 .. kpf_f299 */
KPF_F(000) KPF_F(001) KPF_F(002) KPF_F(003) KPF_F(004)
KPF_F(005) KPF_F(006) KPF_F(007) KPF_F(008) KPF_F(009)
KPF_F(010) KPF_F(011) KPF_F(012) KPF_F(013) KPF_F(014)
KPF_F(015) KPF_F(016) KPF_F(017) KPF_F(018) KPF_F(019)
KPF_F(020) KPF_F(021) KPF_F(022) KPF_F(023) KPF_F(024)
KPF_F(025) KPF_F(026) KPF_F(027) KPF_F(028) KPF_F(029)
KPF_F(030) KPF_F(031) KPF_F(032) KPF_F(033) KPF_F(034)
KPF_F(035) KPF_F(036) KPF_F(037) KPF_F(038) KPF_F(039)
KPF_F(040) KPF_F(041) KPF_F(042) KPF_F(043) KPF_F(044)
KPF_F(045) KPF_F(046) KPF_F(047) KPF_F(048) KPF_F(049)
KPF_F(050) KPF_F(051) KPF_F(052) KPF_F(053) KPF_F(054)
KPF_F(055) KPF_F(056) KPF_F(057) KPF_F(058) KPF_F(059)
KPF_F(060) KPF_F(061) KPF_F(062) KPF_F(063) KPF_F(064)
KPF_F(065) KPF_F(066) KPF_F(067) KPF_F(068) KPF_F(069)
KPF_F(070) KPF_F(071) KPF_F(072) KPF_F(073) KPF_F(074)
KPF_F(075) KPF_F(076) KPF_F(077) KPF_F(078) KPF_F(079)
KPF_F(080) KPF_F(081) KPF_F(082) KPF_F(083) KPF_F(084)
KPF_F(085) KPF_F(086) KPF_F(087) KPF_F(088) KPF_F(089)
KPF_F(090) KPF_F(091) KPF_F(092) KPF_F(093) KPF_F(094)
KPF_F(095) KPF_F(096) KPF_F(097) KPF_F(098) KPF_F(099)
KPF_F(100) KPF_F(101) KPF_F(102) KPF_F(103) KPF_F(104)
KPF_F(105) KPF_F(106) KPF_F(107) KPF_F(108) KPF_F(109)
KPF_F(110) KPF_F(111) KPF_F(112) KPF_F(113) KPF_F(114)
KPF_F(115) KPF_F(116) KPF_F(117) KPF_F(118) KPF_F(119)
KPF_F(120) KPF_F(121) KPF_F(122) KPF_F(123) KPF_F(124)
KPF_F(125) KPF_F(126) KPF_F(127) KPF_F(128) KPF_F(129)
KPF_F(130) KPF_F(131) KPF_F(132) KPF_F(133) KPF_F(134)
KPF_F(135) KPF_F(136) KPF_F(137) KPF_F(138) KPF_F(139)
KPF_F(140) KPF_F(141) KPF_F(142) KPF_F(143) KPF_F(144)
KPF_F(145) KPF_F(146) KPF_F(147) KPF_F(148) KPF_F(149)
KPF_F(150) KPF_F(151) KPF_F(152) KPF_F(153) KPF_F(154)
KPF_F(155) KPF_F(156) KPF_F(157) KPF_F(158) KPF_F(159)
KPF_F(160) KPF_F(161) KPF_F(162) KPF_F(163) KPF_F(164)
KPF_F(165) KPF_F(166) KPF_F(167) KPF_F(168) KPF_F(169)
KPF_F(170) KPF_F(171) KPF_F(172) KPF_F(173) KPF_F(174)
KPF_F(175) KPF_F(176) KPF_F(177) KPF_F(178) KPF_F(179)
KPF_F(180) KPF_F(181) KPF_F(182) KPF_F(183) KPF_F(184)
KPF_F(185) KPF_F(186) KPF_F(187) KPF_F(188) KPF_F(189)
KPF_F(190) KPF_F(191) KPF_F(192) KPF_F(193) KPF_F(194)
KPF_F(195) KPF_F(196) KPF_F(197) KPF_F(198) KPF_F(199)
KPF_F(200) KPF_F(201) KPF_F(202) KPF_F(203) KPF_F(204)
KPF_F(205) KPF_F(206) KPF_F(207) KPF_F(208) KPF_F(209)
KPF_F(210) KPF_F(211) KPF_F(212) KPF_F(213) KPF_F(214)
KPF_F(215) KPF_F(216) KPF_F(217) KPF_F(218) KPF_F(219)
KPF_F(220) KPF_F(221) KPF_F(222) KPF_F(223) KPF_F(224)
KPF_F(225) KPF_F(226) KPF_F(227) KPF_F(228) KPF_F(229)
KPF_F(230) KPF_F(231) KPF_F(232) KPF_F(233) KPF_F(234)
KPF_F(235) KPF_F(236) KPF_F(237) KPF_F(238) KPF_F(239)
KPF_F(240) KPF_F(241) KPF_F(242) KPF_F(243) KPF_F(244)
KPF_F(245) KPF_F(246) KPF_F(247) KPF_F(248) KPF_F(249)
KPF_F(250) KPF_F(251) KPF_F(252) KPF_F(253) KPF_F(254)
KPF_F(255) KPF_F(256) KPF_F(257) KPF_F(258) KPF_F(259)
KPF_F(260) KPF_F(261) KPF_F(262) KPF_F(263) KPF_F(264)
KPF_F(265) KPF_F(266) KPF_F(267) KPF_F(268) KPF_F(269)
KPF_F(270) KPF_F(271) KPF_F(272) KPF_F(273) KPF_F(274)
KPF_F(275) KPF_F(276) KPF_F(277) KPF_F(278) KPF_F(279)
KPF_F(280) KPF_F(281) KPF_F(282) KPF_F(283) KPF_F(284)
KPF_F(285) KPF_F(286) KPF_F(287) KPF_F(288) KPF_F(289)
KPF_F(290) KPF_F(291) KPF_F(292) KPF_F(293) KPF_F(294)
KPF_F(295) KPF_F(296) KPF_F(297) KPF_F(298) KPF_F(299)

static void (*const kpf_fns[KPF_NR])(void) = {
	kpf_f000, kpf_f001, kpf_f002, kpf_f003, kpf_f004, kpf_f005,
	kpf_f006, kpf_f007, kpf_f008, kpf_f009, kpf_f010, kpf_f011,
	kpf_f012, kpf_f013, kpf_f014, kpf_f015, kpf_f016, kpf_f017,
	kpf_f018, kpf_f019, kpf_f020, kpf_f021, kpf_f022, kpf_f023,
	kpf_f024, kpf_f025, kpf_f026, kpf_f027, kpf_f028, kpf_f029,
	kpf_f030, kpf_f031, kpf_f032, kpf_f033, kpf_f034, kpf_f035,
	kpf_f036, kpf_f037, kpf_f038, kpf_f039, kpf_f040, kpf_f041,
	kpf_f042, kpf_f043, kpf_f044, kpf_f045, kpf_f046, kpf_f047,
	kpf_f048, kpf_f049, kpf_f050, kpf_f051, kpf_f052, kpf_f053,
	kpf_f054, kpf_f055, kpf_f056, kpf_f057, kpf_f058, kpf_f059,
	kpf_f060, kpf_f061, kpf_f062, kpf_f063, kpf_f064, kpf_f065,
	kpf_f066, kpf_f067, kpf_f068, kpf_f069, kpf_f070, kpf_f071,
	kpf_f072, kpf_f073, kpf_f074, kpf_f075, kpf_f076, kpf_f077,
	kpf_f078, kpf_f079, kpf_f080, kpf_f081, kpf_f082, kpf_f083,
	kpf_f084, kpf_f085, kpf_f086, kpf_f087, kpf_f088, kpf_f089,
	kpf_f090, kpf_f091, kpf_f092, kpf_f093, kpf_f094, kpf_f095,
	kpf_f096, kpf_f097, kpf_f098, kpf_f099, kpf_f100, kpf_f101,
	kpf_f102, kpf_f103, kpf_f104, kpf_f105, kpf_f106, kpf_f107,
	kpf_f108, kpf_f109, kpf_f110, kpf_f111, kpf_f112, kpf_f113,
	kpf_f114, kpf_f115, kpf_f116, kpf_f117, kpf_f118, kpf_f119,
	kpf_f120, kpf_f121, kpf_f122, kpf_f123, kpf_f124, kpf_f125,
	kpf_f126, kpf_f127, kpf_f128, kpf_f129, kpf_f130, kpf_f131,
	kpf_f132, kpf_f133, kpf_f134, kpf_f135, kpf_f136, kpf_f137,
	kpf_f138, kpf_f139, kpf_f140, kpf_f141, kpf_f142, kpf_f143,
	kpf_f144, kpf_f145, kpf_f146, kpf_f147, kpf_f148, kpf_f149,
	kpf_f150, kpf_f151, kpf_f152, kpf_f153, kpf_f154, kpf_f155,
	kpf_f156, kpf_f157, kpf_f158, kpf_f159, kpf_f160, kpf_f161,
	kpf_f162, kpf_f163, kpf_f164, kpf_f165, kpf_f166, kpf_f167,
	kpf_f168, kpf_f169, kpf_f170, kpf_f171, kpf_f172, kpf_f173,
	kpf_f174, kpf_f175, kpf_f176, kpf_f177, kpf_f178, kpf_f179,
	kpf_f180, kpf_f181, kpf_f182, kpf_f183, kpf_f184, kpf_f185,
	kpf_f186, kpf_f187, kpf_f188, kpf_f189, kpf_f190, kpf_f191,
	kpf_f192, kpf_f193, kpf_f194, kpf_f195, kpf_f196, kpf_f197,
	kpf_f198, kpf_f199, kpf_f200, kpf_f201, kpf_f202, kpf_f203,
	kpf_f204, kpf_f205, kpf_f206, kpf_f207, kpf_f208, kpf_f209,
	kpf_f210, kpf_f211, kpf_f212, kpf_f213, kpf_f214, kpf_f215,
	kpf_f216, kpf_f217, kpf_f218, kpf_f219, kpf_f220, kpf_f221,
	kpf_f222, kpf_f223, kpf_f224, kpf_f225, kpf_f226, kpf_f227,
	kpf_f228, kpf_f229, kpf_f230, kpf_f231, kpf_f232, kpf_f233,
	kpf_f234, kpf_f235, kpf_f236, kpf_f237, kpf_f238, kpf_f239,
	kpf_f240, kpf_f241, kpf_f242, kpf_f243, kpf_f244, kpf_f245,
	kpf_f246, kpf_f247, kpf_f248, kpf_f249, kpf_f250, kpf_f251,
	kpf_f252, kpf_f253, kpf_f254, kpf_f255, kpf_f256, kpf_f257,
	kpf_f258, kpf_f259, kpf_f260, kpf_f261, kpf_f262, kpf_f263,
	kpf_f264, kpf_f265, kpf_f266, kpf_f267, kpf_f268, kpf_f269,
	kpf_f270, kpf_f271, kpf_f272, kpf_f273, kpf_f274, kpf_f275,
	kpf_f276, kpf_f277, kpf_f278, kpf_f279, kpf_f280, kpf_f281,
	kpf_f282, kpf_f283, kpf_f284, kpf_f285, kpf_f286, kpf_f287,
	kpf_f288, kpf_f289, kpf_f290, kpf_f291, kpf_f292, kpf_f293,
	kpf_f294, kpf_f295, kpf_f296, kpf_f297, kpf_f298, kpf_f299,
};

noinline void kpf_notrace(void);

/* matches "kpf_*" but has no ftrace entry: a set lists it as skipped */
notrace noinline void kpf_notrace(void)
{
	WRITE_ONCE(kpf_notrace_hits, kpf_notrace_hits + 1);
}

noinline void kpf_init_only(void);

/* __init text: probeable while init runs, freed after */
noinline void __init kpf_init_only(void)
{
	WRITE_ONCE(kpf_init_hits, kpf_init_hits + 1);
}

static __always_inline void kpf_spin(u64 ns)
{
	u64 start = ktime_get_ns();

	while (ktime_get_ns() - start < ns)
		cpu_relax();
}

#define KPF_LAT(name, i, ns)						\
noinline void kpf_lat_##name(void);					\
noinline void kpf_lat_##name(void)					\
{									\
	kpf_spin(ns);							\
	WRITE_ONCE(kpf_lat_hits[i], kpf_lat_hits[i] + 1);		\
}
KPF_LAT(0, 0, 0)
KPF_LAT(1us, 1, 1000)
KPF_LAT(10us, 2, 10000)
KPF_LAT(100us, 3, 100000)

static void (*const kpf_lats[4])(void) = {
	kpf_lat_0, kpf_lat_1us, kpf_lat_10us, kpf_lat_100us,
};
static const char *const kpf_lat_names[4] = {
	"kpf_lat_0", "kpf_lat_1us", "kpf_lat_10us", "kpf_lat_100us",
};

static void kpf_round(void)
{
	unsigned int i, j;

	for (i = 0; i < KPF_NR; i++)
		for (j = 0; j < kpf_calls(i); j++)
			kpf_fns[i]();
	kpf_notrace();
}

static void kpf_lat(unsigned long n)
{
	unsigned long i, flags;
	unsigned int k;

	for (i = 0; i < n; i++)
		for (k = 0; k < ARRAY_SIZE(kpf_lats); k++) {
			local_irq_save(flags);
			kpf_lats[k]();
			local_irq_restore(flags);
		}
}

static ssize_t kpf_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[32], cmd[8];
	unsigned long n, i;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %lu", cmd, &n) != 2)
		return -EINVAL;
	mutex_lock(&kpf_lock);
	if (!strcmp(cmd, "run") && n <= KPF_MAX_ROUNDS) {
		for (i = 0; i < n; i++)
			kpf_round();
	} else if (!strcmp(cmd, "lat") && n <= KPF_MAX_LAT) {
		kpf_lat(n);
	} else {
		len = -EINVAL;
	}
	mutex_unlock(&kpf_lock);
	return len;
}

static int kpf_counts_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&kpf_lock);
	for (i = 0; i < KPF_NR; i++)
		seq_printf(m, "kpf_f%03u %lu\n", i, kpf_hits[i]);
	seq_printf(m, "kpf_notrace %lu\n", kpf_notrace_hits);
	seq_printf(m, "kpf_init_only %lu\n", kpf_init_hits);
	for (i = 0; i < ARRAY_SIZE(kpf_lats); i++)
		seq_printf(m, "%s %lu\n", kpf_lat_names[i], kpf_lat_hits[i]);
	mutex_unlock(&kpf_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(kpf_counts);

static const struct file_operations kpf_trigger_fops = {
	.owner = THIS_MODULE,
	.write = kpf_write,
};

static struct dentry *kpf_dir;

static int __init kprof_funcs_init(void)
{
	unsigned int i;

	/* what a set added before the module loads sees, and one after not */
	for (i = 0; i < KPF_NR; i += 3)
		if (kpf_calls(i))
			kpf_fns[i]();
	kpf_init_only();
	kpf_dir = debugfs_create_dir("kprof_funcs", NULL);
	debugfs_create_file("trigger", 0200, kpf_dir, NULL, &kpf_trigger_fops);
	debugfs_create_file("counts", 0400, kpf_dir, NULL, &kpf_counts_fops);
	return 0;
}

static void __exit kprof_funcs_exit(void)
{
	debugfs_remove_recursive(kpf_dir);
}

module_init(kprof_funcs_init);
module_exit(kprof_funcs_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kprofctl test targets: 300 functions with known call counts");
