// SPDX-License-Identifier: GPL-2.0
/*
 * Guest-side timer for the benchmark: writes "nop N" to the test module's
 * trigger R times and prints the smallest CLOCK_MONOTONIC delta per call,
 * in milli-ns.  Under -icount shift=0 one ns is one guest instruction, so
 * this is instructions per call; the minimum over R drops timer ticks.
 *
 * usage: bench [-n CALLS] [-r ROUNDS] [-t TARGET] [-a ARG] [-f FILE]
 * writes "TARGET CALLS [ARG]", e.g. -t work -a 0 for "work 2000 0", to
 * FILE (the test module's trigger by default)
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TRIGGER "/sys/kernel/debug/kprof_test/trigger"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long calls = 20000, rounds = 7;
	const char *target = "nop", *arg = NULL, *file = TRIGGER;
	uint64_t best = UINT64_MAX;
	char cmd[64];
	int fd, len, opt;
	unsigned long r;

	while ((opt = getopt(argc, argv, "n:r:t:a:f:")) != -1) {
		switch (opt) {
		case 'n':
			calls = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 't':
			target = optarg;
			break;
		case 'a':
			arg = optarg;
			break;
		case 'f':
			file = optarg;
			break;
		default:
			fprintf(stderr, "usage: bench [-n CALLS] [-r ROUNDS] [-t TARGET] [-a ARG] [-f FILE]\n");
			return 2;
		}
	}
	if (!calls || !rounds)
		return 2;
	len = snprintf(cmd, sizeof(cmd), "%s %lu%s%s", target, calls,
		       arg ? " " : "", arg ? arg : "");
	if (len >= (int)sizeof(cmd))
		return 2;
	fd = open(file, O_WRONLY);
	if (fd < 0) {
		perror(file);
		return 1;
	}
	for (r = 0; r < rounds; r++) {
		uint64_t t0 = now_ns(), dt;

		if (write(fd, cmd, len) != len) {
			perror("write");
			return 1;
		}
		dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	close(fd);
	/* milli-ns per call: three decimals without floating point */
	printf("%llu\n", (unsigned long long)(best * 1000 / calls));
	return 0;
}
