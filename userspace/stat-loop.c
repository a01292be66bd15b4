// SPDX-License-Identifier: GPL-2.0
/*
 * stat -I's intervals: each tick the counts since the previous one,
 * printed as a table or a JSON line.
 */
#include <inttypes.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "stat-loop.h"

int kp_stat_loop(struct kp_stat_loop *l)
{
	struct kp_tick *tk = &l->tick;
	struct kp_pmu_snap prev = { 0 }, cur, keep;
	uint64_t next = tk->next == KP_TICK_NEVER ? 0 : tk->next;
	int ret = 0, have_prev = 0;

	for (;;) {
		uint64_t t = kp_tick_now(tk), wake = UINT64_MAX;
		struct timespec ts;

		if (tk->child > 0 && kp_child_exited &&
		    waitpid(tk->child, &tk->status, WNOHANG) == tk->child) {
			tk->reaped = 1;
			break;
		}
		if (*tk->sig) {
			if (tk->child <= 0)
				break;
			kill(tk->child, *tk->sig);
			*tk->sig = 0;
		}
		if (tk->end && t >= tk->end)
			break;
		if (next && t >= next) {
			if (l->snap(l->ctx, &cur) || kp_pmu_snap_dup(&keep, &cur)) {
				kp_pmu_snap_free(&cur);
				ret = 1;
				break;
			}
			l->n++;
			if (have_prev)
				kp_pmu_snap_sub(&cur, &prev);
			if (l->json) {
				fprintf(l->out, "{\"interval\":%u,\"t_ns\":%" PRIu64
					",\"pmu\":", l->n, t - tk->start);
				kp_pmu_print(l->out, &cur, l->topo, l->root, 1);
				fprintf(l->out, "}\n");
			} else {
				fprintf(l->out, "# interval %u at %.3f s\n", l->n,
					(t - tk->start) / 1e9);
				kp_pmu_print(l->out, &cur, l->topo, l->root, 0);
			}
			fflush(l->out);
			kp_pmu_snap_free(&cur);
			kp_pmu_snap_free(&prev);
			prev = keep;
			have_prev = 1;
			next += tk->interval;
			continue;
		}
		if (next)
			wake = next;
		if (tk->end && tk->end < wake)
			wake = tk->end;
		if (tk->sleep) {
			tk->sleep(tk->ctx, t, wake);
			continue;
		}
		/* the wait is the feature here: SIGCHLD/SIGINT cut it short */
		if (wake == UINT64_MAX) {
			pause();
			continue;
		}
		ts.tv_sec = (time_t)((wake - t) / 1000000000ull);
		ts.tv_nsec = (long)((wake - t) % 1000000000ull);
		nanosleep(&ts, NULL);
	}
	kp_pmu_snap_free(&prev);
	return ret;
}
