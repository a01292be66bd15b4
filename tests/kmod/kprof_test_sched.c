// SPDX-License-Identifier: GPL-2.0
/*
 * kprof_test's scheduling scenarios: waits of each kind ps tells apart,
 * and a return preempted at a chosen point.
 *
 *   idle N MS     N x kprof_test_idle_wait(MS): a TASK_IDLE wait (ps: I)
 *   rtlock N      N x kprof_test_rtlock_wait(): takes a spinlock_t that a
 *                 preempted kworker on this CPU holds (PREEMPT_RT: a
 *                 sleeping-lock wait, ps: D; elsewhere no wait at all)
 *   park N        kprof_test_park() (N must be 1): sleeps until "unpark",
 *                 then wakes a SCHED_FIFO hog bound to this CPU with
 *                 preemption off and returns with the switch still due,
 *                 so that a preemptible kernel switches at the first
 *                 preempt_enable() after its return (a return hook's)
 *   unpark MS     lets the parked call return; the hog spins up to MS ms
 *                 (or until "hogstop"); returns once the hog runs
 *   hogstop N     ends the hog's spin
 */
#include <linux/module.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/completion.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/delay.h>
#include <linux/ktime.h>
#include <linux/preempt.h>

#include "kprof_test_sched.h"

noinline void kprof_test_idle_wait(u32 ms);
noinline void kprof_test_rtlock_wait(void);
noinline int kprof_test_park(struct task_struct *hog);

noinline void kprof_test_idle_wait(u32 ms)
{
	schedule_timeout_idle(msecs_to_jiffies(ms));
}

static DEFINE_SPINLOCK(kprof_test_rtlock);
static DECLARE_COMPLETION(kprof_test_rtlock_held);

static void kprof_test_rtlock_hold(struct work_struct *w)
{
	spin_lock(&kprof_test_rtlock);
	/* PREEMPT_RT: the FIFO waiter preempts this holder here */
	complete(&kprof_test_rtlock_held);
	mdelay(10);
	spin_unlock(&kprof_test_rtlock);
}

static DECLARE_WORK(kprof_test_rtlock_work, kprof_test_rtlock_hold);

noinline void kprof_test_rtlock_wait(void)
{
	spin_lock(&kprof_test_rtlock);
	spin_unlock(&kprof_test_rtlock);
}

/*
 * The lock taken by a kworker on this CPU, which this task, raised to
 * SCHED_FIFO, preempts while it holds the lock: on PREEMPT_RT the owner
 * is not running, so the lock's waiter sleeps rather than spins.  The
 * caller pins the task to one CPU.
 */
static int kprof_test_rtlocks(unsigned long n)
{
	unsigned long i;

	sched_set_fifo_low(current);
	for (i = 0; i < n; i++) {
		reinit_completion(&kprof_test_rtlock_held);
		queue_work_on(raw_smp_processor_id(), system_wq,
			      &kprof_test_rtlock_work);
		wait_for_completion(&kprof_test_rtlock_held);
		kprof_test_rtlock_wait();
		flush_work(&kprof_test_rtlock_work);
	}
	sched_set_normal(current, 0);
	return 0;
}

static struct {
	struct mutex lock;		/* one park at a time */
	struct completion go, running;
	struct task_struct *hog;
	u32 hog_ms;
	bool stop;
} kprof_test_pk = {
	.lock = __MUTEX_INITIALIZER(kprof_test_pk.lock),
	.go = COMPLETION_INITIALIZER(kprof_test_pk.go),
	.running = COMPLETION_INITIALIZER(kprof_test_pk.running),
};

static int kprof_test_hog_fn(void *data)
{
	u64 end = ktime_get_ns() + (u64)READ_ONCE(kprof_test_pk.hog_ms) *
				   NSEC_PER_MSEC;

	complete(&kprof_test_pk.running);
	while (!READ_ONCE(kprof_test_pk.stop) && ktime_get_ns() < end)
		cpu_relax();
	/* parked until kthread_stop() */
	set_current_state(TASK_INTERRUPTIBLE);
	while (!kthread_should_stop()) {
		schedule();
		set_current_state(TASK_INTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

noinline int kprof_test_park(struct task_struct *hog)
{
	if (!wait_for_completion_timeout(&kprof_test_pk.go, 30 * HZ))
		return -ETIMEDOUT;
	/*
	 * The hog is bound to this CPU and outranks this task: woken with
	 * preemption off, it is due to run at the next preempt_enable().
	 * Modules may not name preempt_enable_no_resched(): the count alone,
	 * where there is one (else preempt_disable() is a compiler barrier).
	 */
	preempt_disable();
	wake_up_process(hog);
	barrier();
	if (IS_ENABLED(CONFIG_PREEMPT_COUNT))
		__preempt_count_dec();
	return 0;
}

static int kprof_test_parks(void)
{
	struct task_struct *hog;
	int ret;

	if (!mutex_trylock(&kprof_test_pk.lock))
		return -EBUSY;
	reinit_completion(&kprof_test_pk.go);
	reinit_completion(&kprof_test_pk.running);
	WRITE_ONCE(kprof_test_pk.stop, false);
	hog = kthread_create(kprof_test_hog_fn, NULL, "kprof_hog");
	if (IS_ERR(hog)) {
		mutex_unlock(&kprof_test_pk.lock);
		return PTR_ERR(hog);
	}
	get_task_struct(hog);
	/* this task does not move (the caller pins it): nor does the hog */
	kthread_bind(hog, raw_smp_processor_id());
	sched_set_fifo(hog);
	WRITE_ONCE(kprof_test_pk.hog, hog);
	ret = kprof_test_park(hog);
	if (ret)
		wake_up_process(hog);
	kthread_stop(hog);
	put_task_struct(hog);
	WRITE_ONCE(kprof_test_pk.hog, NULL);
	mutex_unlock(&kprof_test_pk.lock);
	return ret;
}

static int kprof_test_unpark(unsigned long ms)
{
	WRITE_ONCE(kprof_test_pk.hog_ms, ms);
	complete(&kprof_test_pk.go);
	if (!wait_for_completion_timeout(&kprof_test_pk.running, 30 * HZ))
		return -ETIMEDOUT;
	return 0;
}

int kprof_test_sched_cmd(const char *cmd, int args, unsigned long n,
			 unsigned long a)
{
	unsigned long i;

	if (!strcmp(cmd, "idle") && args == 3 && a <= 1000) {
		for (i = 0; i < n; i++)
			kprof_test_idle_wait(a);
		return 0;
	}
	if (!strcmp(cmd, "rtlock") && args == 2 && n <= 1000)
		return kprof_test_rtlocks(n);
	if (!strcmp(cmd, "park") && args == 2 && n == 1)
		return kprof_test_parks();
	if (!strcmp(cmd, "unpark") && args == 2 && n <= 5000)
		return kprof_test_unpark(n);
	if (!strcmp(cmd, "hogstop") && args == 2) {
		WRITE_ONCE(kprof_test_pk.stop, true);
		return 0;
	}
	return -ENOENT;
}

void kprof_test_sched_exit(void)
{
	WRITE_ONCE(kprof_test_pk.stop, true);
	complete(&kprof_test_pk.go);
	flush_work(&kprof_test_rtlock_work);
}
