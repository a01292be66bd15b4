// SPDX-License-Identifier: GPL-2.0
/*
 * The uapi structs are the ABI: their sizes and offsets are pinned here so
 * an accidental change fails the build's tests, on any architecture.
 */
#include <stddef.h>

#include "unit.h"
#include "uapi/linux/kprofctl.h"

#define PIN(type, member, off) \
	CHECK(offsetof(struct type, member) == (off), #type "." #member \
	      " at %zu, want %d", offsetof(struct type, member), (off))
#define SIZE(type, sz) \
	CHECK(sizeof(struct type) == (sz) && sizeof(struct type) % 8 == 0, \
	      "sizeof " #type " %zu, want %d", sizeof(struct type), (sz))

/* the newest KPROF_*_SIZE_VER of each struct is its size: at build time */
#define NEWEST(type, ver) \
	_Static_assert(sizeof(struct type) == (ver), \
		       "sizeof(struct " #type ") is not " #ver)
NEWEST(kprof_version, KPROF_VERSION_SIZE_VER0);
NEWEST(kprof_probe_add, KPROF_PROBE_ADD_SIZE_VER3);
NEWEST(kprof_probe_id, KPROF_PROBE_ID_SIZE_VER0);
NEWEST(kprof_probe_info, KPROF_PROBE_INFO_SIZE_VER3);
NEWEST(kprof_probe_query, KPROF_PROBE_QUERY_SIZE_VER3);
NEWEST(kprof_probe_list, KPROF_PROBE_LIST_SIZE_VER0);
NEWEST(kprof_tp_list, KPROF_TP_LIST_SIZE_VER0);
NEWEST(kprof_boot_rec, KPROF_BOOT_REC_SIZE_VER0);
NEWEST(kprof_boot_report, KPROF_BOOT_REPORT_SIZE_VER0);
NEWEST(kprof_key_frames, KPROF_KEY_FRAMES_SIZE_VER0);
NEWEST(kprof_mmap_header, KPROF_MMAP_HEADER_SIZE_VER1);

/* an older size ends exactly where the fields of the next minor begin */
#define OLDER(type, ver, first_new) \
	CHECK(offsetof(struct type, first_new) == (ver) && (ver) % 8 == 0, \
	      #ver " %d: " #type "." #first_new " at %zu", (ver), \
	      offsetof(struct type, first_new))

int main(void)
{
	SIZE(kprof_version, 88);
	PIN(kprof_version, size, 0);
	PIN(kprof_version, abi_major, 4);
	PIN(kprof_version, abi_minor, 8);
	PIN(kprof_version, nr_cpus, 12);
	PIN(kprof_version, caps, 16);
	PIN(kprof_version, max_probes, 24);
	PIN(kprof_version, hist_nr_buckets, 44);
	PIN(kprof_version, mmap_size, 48);
	PIN(kprof_version, max_pairs, 56);
	PIN(kprof_version, pair_keys, 60);
	PIN(kprof_version, max_pmus, 64);
	PIN(kprof_version, pmu_max_events, 68);
	PIN(kprof_version, event_ring, 72);
	PIN(kprof_version, max_sets, 76);	/* ABI 1.8 */
	PIN(kprof_version, max_set_funcs, 80);
	PIN(kprof_version, reserved1, 84);

	SIZE(kprof_probe_add, 784);
	PIN(kprof_probe_add, flags, 4);
	PIN(kprof_probe_add, id, 8);
	PIN(kprof_probe_add, maxactive, 12);
	PIN(kprof_probe_add, pid, 16);
	PIN(kprof_probe_add, cpus, 24);
	PIN(kprof_probe_add, spec, 56);
	PIN(kprof_probe_add, reserved, 312);
	PIN(kprof_probe_add, pmu, 344);	/* ABI 1.3; 1.2 callers pass 344 */
	PIN(kprof_probe_add, err_event, 536);
	PIN(kprof_probe_add, err_cpu, 540);
	PIN(kprof_probe_add, slow_ns, 544);	/* ABI 1.4 */
	PIN(kprof_probe_add, reserved2, 552);
	PIN(kprof_probe_add, key, 560);	/* ABI 1.9 */
	PIN(kprof_probe_add, nr_keys, 568);
	PIN(kprof_probe_add, objects, 572);
	PIN(kprof_probe_add, filter, 576);
	PIN(kprof_probe_add, ftrace, 712);	/* ABI 1.14 */
	PIN(kprof_probe_add, ftrace.flags, 712);
	PIN(kprof_probe_add, ftrace.max, 716);
	PIN(kprof_probe_add, ftrace.instance, 720);

	SIZE(kprof_term, 32);
	PIN(kprof_term, field, 0);
	PIN(kprof_term, op, 2);
	PIN(kprof_term, flags, 4);
	PIN(kprof_term, value, 8);
	PIN(kprof_term, comm, 16);
	SIZE(kprof_filter, 8 + 4 * 32);
	PIN(kprof_filter, nr, 0);
	PIN(kprof_filter, reserved0, 4);
	PIN(kprof_filter, term, 8);
	CHECK(KPROF_KEYSPEC(KPROF_KEY_ARG, 2, KPROF_KEYF_LOG2) == 0x10202,
	      "keyspec 0x%x", KPROF_KEYSPEC(KPROF_KEY_ARG, 2, KPROF_KEYF_LOG2));
	CHECK(KPROF_KEY_RETVAL == 1 && KPROF_KEY_ARG == 2 &&
	      KPROF_KEY_CALLER == 3 && KPROF_KEY_PID == 4 &&
	      KPROF_KEY_TGID == 5 && KPROF_KEY_COMM == 6 &&
	      KPROF_KEY_CPU == 7 && KPROF_KEY_STACK == 8, "key kinds");
	CHECK(KPROF_F_RETVAL == 1 && KPROF_F_ARG1 == 2 && KPROF_F_ARG6 == 7 &&
	      KPROF_F_PID == 8 && KPROF_F_TGID == 9 && KPROF_F_CPU == 10 &&
	      KPROF_F_LATENCY == 11 && KPROF_F_COMM == 12, "filter fields");
	CHECK(KPROF_OP_EQ == 1 && KPROF_OP_NE == 2 && KPROF_OP_LT == 3 &&
	      KPROF_OP_LE == 4 && KPROF_OP_GT == 5 && KPROF_OP_GE == 6 &&
	      KPROF_OP_AND == 7, "filter operators");

	SIZE(kprof_probe_id, 16);
	PIN(kprof_probe_id, id, 8);

	SIZE(kprof_probe_info, 576);
	PIN(kprof_probe_info, slot, 4);
	PIN(kprof_probe_info, type, 8);
	PIN(kprof_probe_info, state, 12);
	PIN(kprof_probe_info, reg_errno, 28);
	PIN(kprof_probe_info, nmissed, 32);
	PIN(kprof_probe_info, hits, 40);
	PIN(kprof_probe_info, cpus, 48);
	PIN(kprof_probe_info, stats_off, 80);
	PIN(kprof_probe_info, spec, 88);
	PIN(kprof_probe_info, keys_off, 344);
	PIN(kprof_probe_info, key_stats_off, 352);
	PIN(kprof_probe_info, key_stride, 360);
	PIN(kprof_probe_info, nr_keys, 368);
	PIN(kprof_probe_info, pmu_block, 372);
	PIN(kprof_probe_info, slow_ns, 376);	/* ABI 1.4 */
	PIN(kprof_probe_info, mech, 384);	/* ABI 1.8 */
	PIN(kprof_probe_info, nr_funcs, 388);
	PIN(kprof_probe_info, nr_probed, 392);
	PIN(kprof_probe_info, func_stride, 396);
	PIN(kprof_probe_info, funcs_off, 400);
	PIN(kprof_probe_info, func_stats_off, 408);
	PIN(kprof_probe_info, func_cpu_stride, 416);
	PIN(kprof_probe_info, key, 424);	/* ABI 1.9 */
	PIN(kprof_probe_info, key_rec_size, 432);
	PIN(kprof_probe_info, reserved1, 436);
	PIN(kprof_probe_info, filter, 440);

	SIZE(kprof_probe_query, 592);
	PIN(kprof_probe_query, info, 16);

	SIZE(kprof_probe_list, 24);
	PIN(kprof_probe_list, rec_size, 12);
	PIN(kprof_probe_list, ptr, 16);

	SIZE(kprof_mmap_header, 176);
	PIN(kprof_mmap_header, seq, 24);
	PIN(kprof_mmap_header, generation, 28);
	PIN(kprof_mmap_header, probes_off, 40);
	PIN(kprof_mmap_header, stats_off, 48);
	PIN(kprof_mmap_header, probe_stride, 56);
	PIN(kprof_mmap_header, cpu_stride, 64);
	PIN(kprof_mmap_header, hist_sub_bits, 72);
	PIN(kprof_mmap_header, mmap_size, 88);
	PIN(kprof_mmap_header, pairs_off, 96);
	PIN(kprof_mmap_header, pair_stride, 104);
	PIN(kprof_mmap_header, max_pairs, 112);
	PIN(kprof_mmap_header, pair_keys, 116);
	PIN(kprof_mmap_header, pmus_off, 120);
	PIN(kprof_mmap_header, pmu_stride, 128);
	PIN(kprof_mmap_header, max_pmus, 136);
	PIN(kprof_mmap_header, pmu_max_events, 140);
	PIN(kprof_mmap_header, pmu_counts_off, 144);
	PIN(kprof_mmap_header, pmu_stats_off, 148);
	PIN(kprof_mmap_header, sets_off, 152);	/* ABI 1.8 */
	PIN(kprof_mmap_header, set_stride, 160);
	PIN(kprof_mmap_header, max_sets, 168);
	PIN(kprof_mmap_header, max_set_funcs, 172);

	SIZE(kprof_func, 64);
	PIN(kprof_func, reason, 4);
	PIN(kprof_func, error, 6);
	PIN(kprof_func, name, 8);
	SIZE(kprof_func_hist, 32 + 433 * 4 + 4);
	PIN(kprof_func_hist, hist, 32);
	CHECK(KPROF_FHIST_NR_BUCKETS == 433, "433 set buckets");

	SIZE(kprof_pmu_event, 48);
	PIN(kprof_pmu_event, flags, 4);
	PIN(kprof_pmu_event, config, 8);
	PIN(kprof_pmu_event, name, 16);

	SIZE(kprof_pmu_count, 64);
	PIN(kprof_pmu_count, enabled, 8);
	PIN(kprof_pmu_count, running, 16);
	PIN(kprof_pmu_count, pmu_type, 24);
	PIN(kprof_pmu_count, flags, 28);
	PIN(kprof_pmu_count, pmu, 32);

	SIZE(kprof_tp_list, 40);
	PIN(kprof_tp_list, len, 16);
	PIN(kprof_tp_list, needed, 24);
	PIN(kprof_tp_list, ptr, 32);

	SIZE(kprof_boot_rec, 16 + 64 + 256);
	PIN(kprof_boot_rec, error, 12);
	PIN(kprof_boot_rec, origin, 16);
	PIN(kprof_boot_rec, text, 80);
	SIZE(kprof_key_frames, 32);
	PIN(kprof_key_frames, count, 12);
	PIN(kprof_key_frames, depth, 16);
	PIN(kprof_key_frames, ptr, 24);
	SIZE(kprof_boot_report, 48);
	PIN(kprof_boot_report, count, 12);
	PIN(kprof_boot_report, lost, 16);
	PIN(kprof_boot_report, ptr, 24);

	SIZE(kprof_key, 64);
	PIN(kprof_key, flags, 8);
	PIN(kprof_key, name, 16);
	/* kprof_key2 begins with a struct kprof_key */
	SIZE(kprof_key2, 72);
	PIN(kprof_key2, value, 0);
	PIN(kprof_key2, flags, 8);
	PIN(kprof_key2, reserved0, 12);
	PIN(kprof_key2, name, 16);
	CHECK(sizeof(((struct kprof_key2 *)0)->name) ==
	      sizeof(((struct kprof_key *)0)->name), "kprof_key2.name size");
	PIN(kprof_key2, value2, 64);	/* sizeof(struct kprof_key) */

	SIZE(kprof_cpu_stats, 64 + 625 * 8);
	PIN(kprof_cpu_stats, count, 0);
	PIN(kprof_cpu_stats, drops, 32);
	PIN(kprof_cpu_stats, unmatched, 40);
	PIN(kprof_cpu_stats, events, 48);
	PIN(kprof_cpu_stats, events_dropped, 56);
	PIN(kprof_cpu_stats, hist, 64);
	CHECK(KPROF_HIST_NR_BUCKETS == 625, "625 buckets");

	OLDER(kprof_probe_add, KPROF_PROBE_ADD_SIZE_VER0, pmu);
	OLDER(kprof_probe_add, KPROF_PROBE_ADD_SIZE_VER1, key);
	OLDER(kprof_probe_add, KPROF_PROBE_ADD_SIZE_VER2, ftrace);
	OLDER(kprof_probe_info, KPROF_PROBE_INFO_SIZE_VER0, slow_ns);
	OLDER(kprof_probe_info, KPROF_PROBE_INFO_SIZE_VER1, mech);
	OLDER(kprof_probe_info, KPROF_PROBE_INFO_SIZE_VER2, key);
	OLDER(kprof_mmap_header, KPROF_MMAP_HEADER_SIZE_VER0, set_stride);
	CHECK(offsetof(struct kprof_probe_query, info) +
	      KPROF_PROBE_INFO_SIZE_VER0 == KPROF_PROBE_QUERY_SIZE_VER0,
	      "query VER0 holds an info VER0");
	CHECK(offsetof(struct kprof_probe_query, info) +
	      KPROF_PROBE_INFO_SIZE_VER1 == KPROF_PROBE_QUERY_SIZE_VER1,
	      "query VER1 holds an info VER1");
	CHECK(offsetof(struct kprof_probe_query, info) +
	      KPROF_PROBE_INFO_SIZE_VER2 == KPROF_PROBE_QUERY_SIZE_VER2,
	      "query VER2 holds an info VER2");
	CHECK(offsetof(struct kprof_probe_query, info) +
	      KPROF_PROBE_INFO_SIZE_VER3 == KPROF_PROBE_QUERY_SIZE_VER3,
	      "query VER3 holds an info VER3");

	CHECK(KPROF_IOC_GET_VERSION == 0xc004b700, "GET_VERSION number 0x%x",
	      (unsigned int)KPROF_IOC_GET_VERSION);
	CHECK(KPROF_IOC_LIST == 0xc004b707, "LIST number 0x%x",
	      (unsigned int)KPROF_IOC_LIST);
	CHECK(KPROF_IOC_PMU_READ == 0xc004b709, "PMU_READ number 0x%x",
	      (unsigned int)KPROF_IOC_PMU_READ);
	CHECK(KPROF_IOC_BOOT_REPORT == 0xc004b70a, "BOOT_REPORT number 0x%x",
	      (unsigned int)KPROF_IOC_BOOT_REPORT);
	/* the netlink numbers are ABI too */
	CHECK(KPROF_GENL_CMD_GET_PROBES == 1 && KPROF_GENL_CMD_SLOW == 2 &&
	      KPROF_GENL_CMD_PROBE == 3 && KPROF_GENL_A_PROBE_ID == 2 &&
	      KPROF_GENL_A_LATENCY_NS == 14 && KPROF_GENL_A_EVENT == 18 &&
	      KPROF_GENL_EV_LOSSES == 4, "genl numbers");
	return unit_done("layout");
}
