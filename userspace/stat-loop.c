// SPDX-License-Identifier: GPL-2.0
/*
 * stat -I's intervals: each tick the counts since the previous one,
 * printed as a table or a JSON line.
 */
#include <inttypes.h>

#include "json.h"
#include "stat-loop.h"

int kp_stat_loop(struct kp_stat_loop *l)
{
	struct kp_pmu_snap prev = { 0 }, cur, keep;
	int ret = 0, have_prev = 0;
	uint64_t t;

	/*
	 * After a stall (the process stopped, a busy machine) the late
	 * tick's interval spans it, and the ticks missed are not printed
	 * as a burst of near-empty intervals.
	 */
	while (kp_tick_wait(&l->tick, &t) == KP_TICK_DUE) {
		if (l->snap(l->ctx, &cur) || kp_pmu_snap_dup(&keep, &cur)) {
			kp_pmu_snap_free(&cur);
			ret = 1;
			break;
		}
		l->n++;
		if (have_prev)
			kp_pmu_snap_sub(&cur, &prev);
		if (l->json) {
			struct kp_jw w;

			kp_jw_init(&w, l->out);
			kp_jw_start_object(&w);
			kp_jw_u64_field(&w, "interval", l->n);
			kp_jw_u64_field(&w, "t_ns", t - l->tick.start);
			kp_jw_name(&w, "pmu");
			kp_pmu_json(&w, &cur, l->topo, l->root);
			kp_jw_end_object(&w);
			fputc('\n', l->out);
		} else {
			fprintf(l->out, "# interval %u at %.3f s\n", l->n,
				(t - l->tick.start) / 1e9);
			kp_pmu_print(l->out, &cur, l->topo, l->root, 0);
		}
		fflush(l->out);
		kp_pmu_snap_free(&cur);
		kp_pmu_snap_free(&prev);
		prev = keep;
		have_prev = 1;
	}
	kp_pmu_snap_free(&prev);
	return ret;
}
