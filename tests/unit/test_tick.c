// SPDX-License-Identifier: GPL-2.0
/* The interval loop (kp_tick) on a fake clock: ticks, stalls, end, stop. */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "stat-loop.h"
#include "unit.h"
#include "util.h"

struct fake {
	uint64_t now;
	uint64_t stall_at, stall_to;	/* the clock jumps once, like SIGSTOP */
	int sleeps, wake_after, err_after, sig_after;
	volatile sig_atomic_t sig;
	int real;			/* a child runs: sleep a little for real */
};

static uint64_t fake_now(void *ctx)
{
	struct fake *f = ctx;

	return f->now;
}

static int fake_sleep(void *ctx, uint64_t now, uint64_t until)
{
	struct fake *f = ctx;

	CHECK(now == f->now, "sleep is given the clock");
	f->sleeps++;
	if (f->wake_after && f->sleeps == f->wake_after)
		return 1;
	if (f->err_after && f->sleeps == f->err_after)
		return -1;
	if (f->sig_after && f->sleeps == f->sig_after)
		f->sig = SIGINT;
	if (f->real) {
		usleep(1000);
		return 0;
	}
	f->now = until;
	if (f->stall_at && f->now >= f->stall_at) {
		f->now = f->stall_to;
		f->stall_at = 0;
	}
	return 0;
}

static void fake_tick(struct kp_tick *t, struct fake *f, uint64_t interval,
		      uint64_t duration)
{
	*t = (struct kp_tick){ .now = fake_now, .sleep = fake_sleep, .ctx = f };
	t->sig = &f->sig;
	kp_tick_init(t, f->now, interval, duration);
}

static void test_ticks(void)
{
	struct fake f = { .now = 1000 };
	struct kp_tick t;
	uint64_t now;
	int w;

	fake_tick(&t, &f, 10, 0);
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_DUE && now == 1010 && t.due == 1010,
	      "first tick at start + interval: %d at %llu", w,
	      (unsigned long long)now);
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_DUE && now == 1020 && t.due == 1020 && !t.skipped,
	      "second tick: %d at %llu", w, (unsigned long long)now);
	/* a little late: the grid holds */
	f.now = 1033;
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_DUE && now == 1033 && t.due == 1030 && !t.skipped,
	      "a late tick keeps the grid");
	CHECK(t.next == 1040, "next on the grid: %llu",
	      (unsigned long long)t.next);
}

/* stopped for 5 intervals: one tick for them, not a burst of 5 */
static void test_stall(void)
{
	struct fake f = { .now = 0 };
	struct kp_tick t;
	uint64_t now;
	int w, n = 0;

	fake_tick(&t, &f, 10, 0);
	f.stall_at = 20;
	f.stall_to = 70;
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_DUE && now == 10, "before the stall");
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_DUE && now == 70 && t.due == 20 && t.skipped == 5,
	      "the tick due at 20 (%llu) comes at 70 (%llu), 5 passed over "
	      "(%llu)", (unsigned long long)t.due, (unsigned long long)now,
	      (unsigned long long)t.skipped);
	/* the ticks it fell behind on are not returned */
	while ((w = kp_tick_wait(&t, &now)) == KP_TICK_DUE && now == 70)
		n++;
	CHECK(n == 0, "no burst after the stall: %d more at 70", n);
	CHECK(w == KP_TICK_DUE && now == 80,
	      "then a whole interval on: %llu", (unsigned long long)now);
}

static void test_end(void)
{
	struct fake f = { .now = 100 };
	struct kp_tick t;
	uint64_t now;
	int n = 0, w;

	fake_tick(&t, &f, 10, 25);
	while ((w = kp_tick_wait(&t, &now)) == KP_TICK_DUE)
		n++;
	CHECK(n == 2 && w == KP_TICK_END && now == 125,
	      "-d 25 of -I 10: 2 ticks (%d), then the end (%d at %llu)", n, w,
	      (unsigned long long)now);
	/* no interval (profile -d): the end only */
	f.now = 0;
	f.sleeps = 0;
	fake_tick(&t, &f, 0, 500);
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_END && now == 500 && f.sleeps == 1,
	      "no ticks: the end in one sleep (%d at %llu)", w,
	      (unsigned long long)now);
}

static void test_stop(void)
{
	struct fake f = { .now = 0, .sig_after = 3 };
	struct kp_tick t;
	uint64_t now;
	int n = 0, w;

	fake_tick(&t, &f, 10, 0);
	while ((w = kp_tick_wait(&t, &now)) == KP_TICK_DUE)
		n++;
	CHECK(w == KP_TICK_STOP && n == 2, "Ctrl-C stops: %d after %d", w, n);
	f = (struct fake){ .now = 0, .wake_after = 1 };
	fake_tick(&t, &f, 10, 0);
	CHECK(kp_tick_wait(&t, &now) == KP_TICK_WOKE, "the sleep woke it");
	f = (struct fake){ .now = 0, .err_after = 1 };
	fake_tick(&t, &f, 10, 0);
	CHECK(kp_tick_wait(&t, &now) == KP_TICK_ERR, "the sleep failed");
}

/* with a child, a signal goes to it, and its exit ends the loop */
static void test_child(void)
{
	struct fake f = { .now = 0, .real = 1 };
	struct kp_tick t;
	uint64_t now;
	pid_t pid = fork();
	int w;

	if (!pid) {
		pause();
		_exit(3);
	}
	fake_tick(&t, &f, 0, 0);
	t.child = pid;
	kp_child_exited = 1;	/* as SIGCHLD would */
	f.sig = SIGTERM;
	w = kp_tick_wait(&t, &now);
	CHECK(w == KP_TICK_EXITED && t.reaped && WIFSIGNALED(t.status) &&
	      WTERMSIG(t.status) == SIGTERM && !f.sig,
	      "SIGTERM passed to the child, its exit returned: %d", w);
	kp_child_exited = 0;
}

/* a counter block of no events: stat's loop prints its intervals */
static int fake_snap(void *ctx, struct kp_pmu_snap *s)
{
	(void)ctx;
	memset(s, 0, sizeof(*s));
	s->nr_cpus = 1;
	s->c = calloc(KPROF_PMU_MAX_EVENTS, sizeof(*s->c));
	return s->c ? 0 : -1;
}

/*
 * stat -I 10ms -d 95ms, stopped from 20 ms to 70 ms (SIGSTOP, a busy
 * machine): one interval for the stall, not one per interval missed.
 */
static void test_stat_stall(void)
{
	struct fake f = { .now = 0, .stall_at = 20000000, .stall_to = 70000000 };
	static struct kp_topo topo;
	struct kp_stat_loop l = { 0 };
	char *buf = NULL, *p, want[][8] = { "0.010", "0.070", "0.080", "0.090" };
	unsigned int i = 0, at70 = 0;
	size_t len = 0;
	int ret;

	kp_topo_load(&topo, "/nonexistent", 1);
	fake_tick(&l.tick, &f, 10000000, 95000000);
	l.snap = fake_snap;
	l.out = open_memstream(&buf, &len);
	l.topo = &topo;
	l.root = "/nonexistent";
	ret = kp_stat_loop(&l);
	fclose(l.out);
	CHECK(!ret, "stat's loop: %d", ret);
	for (p = buf; p && (p = strstr(p, "# interval ")); p++) {
		char at[16] = "";

		sscanf(p, "# interval %*u at %15s", at);
		at70 += !strcmp(at, "0.070");
		CHECK(i < 4 && !strcmp(at, want[i]), "interval %u at %s s, "
		      "not %s", i + 1, at, i < 4 ? want[i] : "(none)");
		i++;
	}
	CHECK(at70 == 1, "%u intervals at 0.070 s after the stall, not 1", at70);
	CHECK(l.n == 4 && i == 4, "4 intervals in 95 ms, not %u (%u printed)",
	      l.n, i);
	free(buf);
}

int main(void)
{
	test_ticks();
	test_stall();
	test_end();
	test_stop();
	test_child();
	test_stat_stall();
	return unit_done("test_tick");
}
