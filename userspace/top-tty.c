// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl top's loop: a table or JSON line per interval, or on a
 * terminal the screen redrawn in place, with its keys.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "top.h"
#include "units.h"
#include "util.h"

static volatile sig_atomic_t top_quit, top_winch;

static void on_quit(int sig)
{
	(void)sig;
	top_quit = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	top_winch = 1;
}

struct screen {
	FILE *f;
	unsigned int rows, cols, used;
};

/* a line cut to the width, if the height has room for it */
static void emit_screen(void *ctx, const char *line)
{
	struct screen *s = ctx;
	size_t n = strlen(line);

	if (s->used >= s->rows)
		return;
	if (n > s->cols)
		n = s->cols;
	fwrite(line, 1, n, s->f);
	fputs("\033[K", s->f);
	if (++s->used < s->rows)
		fputs("\r\n", s->f);
}

static void screen_size(int fd, unsigned int *rows, unsigned int *cols)
{
	struct winsize ws;

	*rows = 24;
	*cols = 80;
	if (!ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_row && ws.ws_col) {
		*rows = ws.ws_row;
		*cols = ws.ws_col;
	}
}

static void draw(struct kp_top *t, int fd, int paused, int ended)
{
	struct screen s = { 0 };
	struct kp_top_view v = { .paused = paused, .ended = ended };
	char now[16];
	time_t wall = time(NULL);
	struct tm tm;
	char *buf = NULL;
	size_t len = 0;

	s.f = open_memstream(&buf, &len);
	if (!s.f)
		return;
	screen_size(fd, &s.rows, &s.cols);
	localtime_r(&wall, &tm);
	strftime(now, sizeof(now), "%H:%M:%S", &tm);
	v.rows = s.rows;
	v.cols = s.cols;
	v.now = now;
	fputs("\033[H", s.f);
	kp_top_screen(t, &v, emit_screen, &s);
	fputs("\033[J", s.f);
	fclose(s.f);
	fwrite(buf, 1, len, t->o.out);
	fflush(t->o.out);
	free(buf);
}

struct term {
	int fd, raw;
	struct termios saved;
	FILE *out;
};

static void term_restore(struct term *tm)
{
	if (!tm->raw)
		return;
	fputs("\033[?25h\033[?1049l", tm->out);
	fflush(tm->out);
	tcsetattr(tm->fd, TCSAFLUSH, &tm->saved);
	tm->raw = 0;
}

static int term_setup(struct term *tm)
{
	struct termios r;

	if (tcgetattr(tm->fd, &tm->saved))
		return -1;
	r = tm->saved;
	/* keys one by one, unechoed; Ctrl-C still raises SIGINT */
	r.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	r.c_cc[VMIN] = 1;
	r.c_cc[VTIME] = 0;
	if (tcsetattr(tm->fd, TCSAFLUSH, &r))
		return -1;
	tm->raw = 1;
	fputs("\033[?1049h\033[?25l\033[H\033[2J", tm->out);
	fflush(tm->out);
	return 0;
}

static int take(struct kp_top *t, const struct kp_top_src *src)
{
	const struct kprof_probe_info *recs;
	const struct kp_map *m;
	unsigned int n;
	uint64_t t_ns;
	int ret = src->next(src->ctx, &m, &recs, &n, &t_ns);

	if (ret)
		return ret;
	if (kp_top_update(t, m, recs, n, t_ns)) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return -1;
	}
	return 0;
}

/* kp_tick's sleep here: poll() on the terminal, reading its keys */
struct keys {
	struct kp_top *t;
	const struct kp_top_opts *o;
	int *paused, *dirty;
};

static int keys_wait(void *ctx, uint64_t now, uint64_t until)
{
	struct keys *k = ctx;
	struct pollfd pfd = { .fd = k->o->in_fd, .events = POLLIN };
	int ms = until == KP_TICK_NEVER ? -1 :
		 (int)((until - now + 999999) / 1000000);
	int r = poll(&pfd, k->o->interactive ? 1 : 0, ms);

	if (r < 0 && errno != EINTR) {
		fprintf(stderr, "kprofctl top: poll: %s\n", strerror(errno));
		return -1;
	}
	if (r > 0 && (pfd.revents & POLLIN)) {
		char c[16];
		ssize_t i, n = read(k->o->in_fd, c, sizeof(c));

		if (n == 0)	/* the terminal is gone */
			top_quit = 1;
		for (i = 0; i < n; i++)
			if (kp_top_key(k->t, c[i], k->paused))
				top_quit = 1;
		if (n > 0)
			*k->dirty = 1;
	} else if (r > 0 && (pfd.revents & (POLLHUP | POLLERR))) {
		top_quit = 1;
	}
	/* a key or a signal (SIGWINCH): back to the loop, which redraws */
	return r != 0;
}

int kp_top_run(const struct kp_top_src *src, const struct kp_top_opts *o)
{
	struct kp_top *t = kp_top_new(o);
	struct term tm = { .fd = o->in_fd, .out = o->out ? o->out : stdout };
	struct sigaction sa, old_int, old_term, old_winch;
	unsigned int tables = 0;
	int ret = 0, r, paused = 0, ended = 0, dirty = 0;
	struct keys k = { t, o, &paused, &dirty };
	struct kp_tick tk = { 0 };

	if (!t) {
		fprintf(stderr, "kprofctl top: out of memory\n");
		return 1;
	}
	top_quit = 0;
	top_winch = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_quit;	/* no SA_RESTART: poll() returns */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, &old_winch);
	if (o->interactive && term_setup(&tm)) {
		fprintf(stderr, "kprofctl top: cannot set up the terminal: %s\n",
			strerror(errno));
		ret = 1;
		goto out;
	}
	r = take(t, src);
	if (r) {
		ret = r < 0;
		goto out;
	}
	kp_tick_init(&tk, kp_now_ns(), o->interval_ns, o->duration_ns);
	tk.sig = &top_quit;
	tk.sleep = keys_wait;
	tk.ctx = &k;
	if (o->interactive)
		draw(t, o->out ? fileno(o->out) : STDOUT_FILENO, paused, ended);
	while (!top_quit) {
		uint64_t now;
		int w;

		if (dirty || top_winch) {
			top_winch = 0;
			dirty = 0;
			draw(t, fileno(tm.out), paused, ended);
		}
		w = kp_tick_wait(&tk, &now);
		if (w == KP_TICK_ERR) {
			ret = 1;
			break;
		}
		if (w != KP_TICK_DUE && w != KP_TICK_END)
			continue;
		if (!paused) {
			r = take(t, src);
			if (r < 0) {
				ret = 1;
				break;
			}
			if (r > 0) {
				if (!o->interactive)
					break;
				/* the replay is over: keys only, no more ticks */
				ended = 1;
				dirty = 1;
				tk.next = KP_TICK_NEVER;
				tk.end = 0;
				continue;
			}
		}
		if (o->interactive) {
			draw(t, fileno(tm.out), paused, ended);
		} else {
			if (o->json)
				kp_top_json(t, tm.out);
			else
				kp_top_print(t, tm.out);
			fflush(tm.out);
		}
		tables++;
		if ((o->count && tables >= o->count) || w == KP_TICK_END)
			break;
	}
out:
	term_restore(&tm);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGWINCH, &old_winch, NULL);
	kp_top_free(t);
	return ret;
}
