// SPDX-License-Identifier: GPL-2.0
/* The CLI's internal library: see util.h. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/wait.h>

#include "units.h"
#include "util.h"

void kp_opts_build(const struct kp_opt *opts, struct option *lo)
{
	unsigned int i, k = 0;

	memset(lo, 0, (KP_MAX_OPTS + 1) * sizeof(*lo));
	for (i = 0; opts[i].name || opts[i].arg; i++) {
		if (!opts[i].name || k == KP_MAX_OPTS)
			continue;
		lo[k].name = opts[i].name;
		lo[k].has_arg = opts[i].has_arg;
		lo[k].val = opts[i].id;
		k++;
	}
}

void kp_opts_short(const struct kp_opt *opts, char *buf, size_t len)
{
	size_t n = 0;
	unsigned int i;

	if (len < 2)
		return;
	buf[n++] = '+';		/* stop at the first operand: "-- CMD" */
	for (i = 0; opts[i].name || opts[i].arg; i++) {
		if (!opts[i].short_name || n + 3 > len)
			continue;
		buf[n++] = (char)opts[i].short_name;
		if (opts[i].has_arg == required_argument)
			buf[n++] = ':';
	}
	buf[n] = '\0';
}

/* each line of the help after the first starts at the help column */
static void opt_print(FILE *f, const struct kp_opt *o, int width)
{
	char label[64];
	const char *p;

	if (o->label)
		snprintf(label, sizeof(label), "%s", o->label);
	else if (!o->name)
		snprintf(label, sizeof(label), "%s", o->arg);
	else if (o->short_name)
		snprintf(label, sizeof(label), "-%c%s%s", o->short_name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	else
		snprintf(label, sizeof(label), "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "  %-*s ", width, label);
	for (p = o->help; *p; p++) {
		fputc(*p, f);
		if (*p == '\n' && p[1])
			fprintf(f, "%*s", width + 3, "");
	}
	if (p[-1] != '\n')
		fputc('\n', f);
}

void kp_help_print(FILE *f, const struct kp_help *h)
{
	const struct kp_opt *o;
	int lines = 0;

	fprintf(f, "%s\n", h->usage);
	if (h->text)
		fprintf(f, "%s\n", h->text);
	for (o = h->opts; o && (o->name || o->arg); o++)
		if (o->help) {
			opt_print(f, o, h->width);
			lines++;
		}
	if (lines) {
		fputs(h->after ? h->after : "", f);
		fputc('\n', f);
	}
	fprintf(f, "Examples:\n%s", h->examples);
}

int kp_bad_usage(const char *cmd, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "kprofctl %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\ntry 'kprofctl %s --help'\n", cmd);
	return 2;
}

int kp_parse_id(const char *cmd, const char *s, int allow_all, uint32_t *id)
{
	uint64_t v;

	if (!s || (allow_all && !strcmp(s, "all"))) {
		*id = 0;
		return 0;
	}
	if (kp_parse_u64(s, 1, UINT32_MAX, &v))
		return kp_bad_usage(cmd, "'%s' is not a probe id", s);
	*id = (uint32_t)v;
	return 0;
}

volatile sig_atomic_t kp_run_signal, kp_run_signals;

void kp_on_run_signal(int sig)
{
	kp_run_signal = sig;
	kp_run_signals++;
}

/* one pass over /proc: SIGKILL to sid's session; how many live ones got it */
static int kill_session_pass(pid_t sid)
{
	char path[64], buf[512], *p;
	struct dirent *e;
	int n = 0, pid, s;
	ssize_t len;
	char st;
	DIR *dir;
	int fd;

	dir = opendir("/proc");
	if (!dir)
		return 0;
	while ((e = readdir(dir))) {
		pid = atoi(e->d_name);
		if (pid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/stat", pid);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		/* after the comm, which may hold anything: state ppid pgrp sid */
		p = strrchr(buf, ')');
		/* zombies are dead already, and would keep the passes going */
		if (p && sscanf(p + 1, " %c %*d %*d %d", &st, &s) == 2 &&
		    s == sid && st != 'Z' && st != 'X' && !kill(pid, SIGKILL))
			n++;
	}
	closedir(dir);
	return n;
}

void kp_kill_session(pid_t sid)
{
	int pass;

	/* the process group first (no /proc needed), then the stragglers */
	kill(-sid, SIGKILL);
	/* a killed process forks no more: passes end when nothing is new */
	for (pass = 0; pass < 8 && kill_session_pass(sid); pass++)
		;
}

pid_t kp_launch_stopped(const char *who, char **cmd, int close_fd,
			int new_session)
{
	char what[64];
	pid_t child;
	int status;

	fflush(NULL);
	child = fork();
	if (child < 0) {
		snprintf(what, sizeof(what), "kprofctl %s: fork", who);
		perror(what);
		return -1;
	}
	if (!child) {
		/*
		 * Stop until the probes are armed.  Waiting in read() on a
		 * pipe would itself be a vfs_read the probes could see.
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(close_fd);
		/* leader of a session (and process group) that is the tree */
		if (new_session)
			setsid();
		raise(SIGSTOP);
		execvp(cmd[0], cmd);
		fprintf(stderr, "kprofctl %s: cannot run '%s': %s\n", who,
			cmd[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(child, &status, WUNTRACED) != child || !WIFSTOPPED(status)) {
		fprintf(stderr, "kprofctl %s: the command's process did not start\n",
			who);
		return -1;
	}
	return child;
}

int kp_pid_gone(uint32_t pid)
{
	/* EPERM: it exists, owned by someone else; kill() takes a thread id */
	return kill((pid_t)pid, 0) && errno == ESRCH;
}

int kp_need_pid(const char *cmd, const char *opt, uint32_t pid)
{
	if (!kp_pid_gone(pid))
		return 0;
	fprintf(stderr, "kprofctl %s: %s: no such process %u\n", cmd, opt, pid);
	return 2;
}

int kp_exit_code(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void kp_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

int kp_wait_session(const char *who, pid_t child)
{
	int status = 0, seen = 0;
	pid_t w;

	for (;;) {
		/*
		 * CMD is in a session of its own, so the terminal's Ctrl-C
		 * reaches only us: the first goes on to CMD's process group,
		 * a second (CMD may ignore SIGINT) or SIGTERM kills the tree.
		 */
		if (kp_run_signals != seen) {
			seen = kp_run_signals;
			if (seen > 1 || kp_run_signal != SIGINT)
				kp_kill_session(child);
			else
				kill(-child, SIGINT);
		}
		w = waitpid(child, &status, 0);
		if (w == child)
			return status;
		if (w < 0 && errno != EINTR) {
			fprintf(stderr, "kprofctl %s: waitpid: %s\n", who,
				strerror(errno));
			return status;
		}
	}
}

uint64_t kp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

volatile sig_atomic_t kp_child_exited;

void kp_on_child(int sig)
{
	(void)sig;
	kp_child_exited = 1;
}

uint64_t kp_tick_now(const struct kp_tick *t)
{
	return t->now ? t->now(t->ctx) : kp_now_ns();
}

void kp_tick_init(struct kp_tick *t, uint64_t start, uint64_t interval,
		  uint64_t duration)
{
	t->interval = interval;
	t->start = start;
	t->next = interval ? start + interval : KP_TICK_NEVER;
	t->end = duration ? start + duration : 0;
	t->due = 0;
	t->skipped = 0;
}

/*
 * The flags are read before the sleep: a signal between the two would
 * not cut it short, so it is cut into naps of at most this long.
 */
#define KP_TICK_NAP	50000000ull

static void tick_nap(uint64_t now, uint64_t until)
{
	struct timespec ts;

	if (until - now > KP_TICK_NAP)
		until = now + KP_TICK_NAP;
	ts.tv_sec = (time_t)(until / 1000000000ull);
	ts.tv_nsec = (long)(until % 1000000000ull);
	/* EINTR (SIGINT, SIGCHLD) returns early: the flags are read again */
	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

int kp_tick_wait(struct kp_tick *t, uint64_t *now)
{
	for (;;) {
		uint64_t wake;
		int r;

		if (t->child > 0 && !t->reaped && kp_child_exited &&
		    waitpid(t->child, &t->status, WNOHANG) == t->child) {
			t->reaped = 1;
			*now = kp_tick_now(t);
			return KP_TICK_EXITED;
		}
		if (t->sig && *t->sig) {
			if (t->child <= 0 || t->reaped) {
				*now = kp_tick_now(t);
				return KP_TICK_STOP;
			}
			kill(t->child, *t->sig);
			*t->sig = 0;
		}
		*now = kp_tick_now(t);
		if (t->end && *now >= t->end)
			return KP_TICK_END;
		if (t->next != KP_TICK_NEVER && *now >= t->next) {
			t->due = t->next;
			t->next += t->interval;
			if (t->next <= *now) {	/* fell behind: skip, never burst */
				t->skipped += (*now - t->due) / t->interval;
				t->next = *now + t->interval;
			}
			return KP_TICK_DUE;
		}
		wake = t->next;
		if (t->end && t->end < wake)
			wake = t->end;
		if (!t->sleep) {
			tick_nap(*now, wake);
			continue;
		}
		r = t->sleep(t->ctx, *now, wake);
		if (r)
			return r > 0 ? KP_TICK_WOKE : KP_TICK_ERR;
	}
}

FILE *kp_open_output(const char *cmd, const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "w");

	if (!f) {
		fprintf(stderr, "kprofctl %s: cannot write '%s': %s\n", cmd,
			path, strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	return f;
}
