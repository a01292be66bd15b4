/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CLI's internal library: option tables that give getopt_long its
 * struct option array and each command its --help text, usage errors,
 * the workload launcher of run and stat, the interval loop, JSON strings.
 */
#ifndef KPROFCTL_UTIL_H
#define KPROFCTL_UTIL_H

#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/* the CLI's version: version, status, and every capture it writes */
#define KPROFCTL_VERSION	"0.1.0"

/* One option of a command. */
struct kp_opt {
	const char *name;	/* long name; NULL: an operand, help only */
	int short_name;		/* 0: none; shown instead of the long name */
	int has_arg;		/* no_argument, required_argument */
	const char *arg;	/* argument (or operand) name in the help */
	const char *help;	/* lines; NULL: described in the text only */
	int id;			/* what getopt_long returns for it */
	const char *label;	/* help column text, if not built from the above */
};

/*
 * A command's --help: usage, a blank line, text, options (their help at
 * column width + 3), after, a blank line, then the examples.
 */
struct kp_help {
	const char *usage;
	const char *text;
	const struct kp_opt *opts;	/* ends with an all-zero entry */
	int width;
	const char *after;
	const char *examples;
};

struct kp_dev;

/* One command of the table in commands.c. */
struct kp_cmd {
	const char *name;
	const char *args;	/* after the name in 'kprofctl --help' */
	const char *summary;	/* NULL: not listed there */
	int (*fn)(struct kp_dev *d, int argc, char **argv);
	int need_dev;		/* KP_DEV_*: open the device first? */
	const struct kp_help *help;
};

/* kp_cmd.need_dev */
enum { KP_DEV_NO, KP_DEV_YES, KP_DEV_UNLESS_FROM /* no device with --from */ };

extern const struct kp_cmd kp_commands[];
extern const unsigned int kp_nr_commands;

/* Long options ids start here, above any short option character. */
enum { KP_OPT_BASE = 256 };

/* Options a command may have; the getopt_long array has one more. */
#define KP_MAX_OPTS	24
/* Fills lo (KP_MAX_OPTS + 1 entries) for getopt_long from a table. */
void kp_opts_build(const struct kp_opt *opts, struct option *lo);
/* getopt_long's short options of a table ("+e:aI:d:"); buf of 40 */
void kp_opts_short(const struct kp_opt *opts, char *buf, size_t len);
void kp_help_print(FILE *f, const struct kp_help *h);

/* "kprofctl CMD: ...", the --help hint; returns 2 */
int __attribute__((format(printf, 2, 3)))
kp_bad_usage(const char *cmd, const char *fmt, ...);

/* ID argument: a probe id (1..UINT32_MAX), or "all" / absent for 0 */
int kp_parse_id(const char *cmd, const char *s, int allow_all, uint32_t *id);

/* SIGINT/SIGTERM of run and stat */
extern volatile sig_atomic_t kp_run_signal;
/* how many of them came */
extern volatile sig_atomic_t kp_run_signals;
void kp_on_run_signal(int sig);
/* SIGKILL to every process of session sid (one kp_launch_stopped made) */
void kp_kill_session(pid_t sid);

/*
 * FILE for a command's -o, truncated or made (0666 less the umask), or
 * NULL after saying why on stderr as "kprofctl CMD: cannot write ...".
 */
FILE *kp_open_output(const char *cmd, const char *path);
/*
 * Forks CMD stopped by SIGSTOP, so that the caller arms its probes first,
 * then resumes it with SIGCONT.  It dies with us; close_fd is closed in
 * it.  With new_session it calls setsid() first: CMD and the descendants
 * that do not setsid() themselves are session (and process group) "child
 * pid", without a controlling terminal (its fds stay).  The child's pid,
 * or -1 after a message of 'kprofctl WHO: '.
 */
pid_t kp_launch_stopped(const char *who, char **cmd, int close_fd,
			int new_session);
/*
 * Waits for CMD, a session kp_launch_stopped() made, forwarding signals:
 * the first Ctrl-C to its process group, a second one or SIGTERM kills
 * the session.  Its wait status.
 */
int kp_wait_session(const char *who, pid_t child);
/* Is there no process or thread pid (kill(pid, 0) says ESRCH)? */
int kp_pid_gone(uint32_t pid);
/* pid of option opt must exist: 0, or 2 after "kprofctl CMD: OPT: no such process P" */
int kp_need_pid(const char *cmd, const char *opt, uint32_t pid);

/* a wait status as an exit code: the code, or 128 + signal */
int kp_exit_code(int status);

/* CLOCK_MONOTONIC in ns: intervals and deadlines */
uint64_t kp_now_ns(void);

/* SIGCHLD's handler for a kp_tick's child: sets kp_child_exited */
extern volatile sig_atomic_t kp_child_exited;
void kp_on_child(int sig);

/* kp_tick.next when no tick is to come */
#define KP_TICK_NEVER	UINT64_MAX

/*
 * The periodic loop of stat -I, record, show -i, top and profile -d:
 * kp_tick_wait() sleeps to the next tick of interval ns, to end, or until
 * a signal or the child's exit.  A tick it fell behind on (the process
 * was stopped, the machine busy) is skipped, not caught up: the late tick
 * is returned once and the next is a whole interval after it, so a stall
 * never gives a burst of near-empty intervals.
 */
struct kp_tick {
	uint64_t interval;	/* ns; 0: no ticks, only end, sig or child */
	uint64_t start;		/* the clock at kp_tick_init() */
	uint64_t next;		/* the next tick's time, KP_TICK_NEVER */
	uint64_t end;		/* the end time (-d), 0: none */
	uint64_t due;		/* KP_TICK_DUE: the time it was due at */
	uint64_t skipped;	/* ticks passed over, behind, so far */
	/*
	 * A signal number set by a handler (kp_run_signal): forwarded to
	 * child (and cleared) when there is one, else the loop stops.
	 */
	volatile sig_atomic_t *sig;
	pid_t child;		/* > 0: KP_TICK_EXITED once it has exited */
	int status;		/* then its wait status */
	int reaped;		/* 1 once it was waited for */
	/*
	 * The clock and the sleep, for tests and for top (which sleeps in
	 * poll() on its terminal); NULL: kp_now_ns(), clock_nanosleep().
	 * sleep waits from now to at most until (KP_TICK_NEVER: no time
	 * bound): 0 to go on waiting, > 0 to return KP_TICK_WOKE, < 0
	 * KP_TICK_ERR.
	 */
	uint64_t (*now)(void *ctx);
	int (*sleep)(void *ctx, uint64_t now, uint64_t until);
	void *ctx;
};

/* kp_tick_wait()'s answers */
enum {
	KP_TICK_DUE,		/* a tick: due and skipped tell which */
	KP_TICK_END,		/* end has passed */
	KP_TICK_STOP,		/* *sig was set, and no child to pass it to */
	KP_TICK_EXITED,		/* the child exited: status */
	KP_TICK_WOKE,		/* t->sleep returned > 0 */
	KP_TICK_ERR,		/* t->sleep returned < 0 */
};

/* t's clock (now, or kp_now_ns()) */
uint64_t kp_tick_now(const struct kp_tick *t);
/* ticks from start every interval (0: none) until start + duration (0: none) */
void kp_tick_init(struct kp_tick *t, uint64_t start, uint64_t interval,
		  uint64_t duration);
/* Waits as struct kp_tick says; *now is the clock when it returns */
int kp_tick_wait(struct kp_tick *t, uint64_t *now);

/* s as a JSON string, quoted and escaped */
void kp_json_str(FILE *f, const char *s);

#endif
