// SPDX-License-Identifier: GPL-2.0
/*
 * A usage error is a usage error (exit 2) even without the module: main
 * checks a device command's options and first operand before it opens
 * /dev/kprofctl, from the same table the command parses with.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "argcheck.h"

/* "SPEC [OPTIONS]", "ID|all", "FILE [ID...]": an operand is required */
static const char *required_operand(const struct kp_cmd *c, char *buf,
				    size_t len)
{
	size_t n;

	if (!c->args || c->args[0] == '[' || c->args[0] == '-')
		return NULL;
	n = strcspn(c->args, " ");
	snprintf(buf, len, "%.*s", (int)n, c->args);
	return buf;
}

int kp_args_check(const struct kp_cmd *c, int argc, char **argv)
{
	const struct kp_opt *opts = c->help ? c->help->opts : NULL;
	struct option lo[KP_MAX_OPTS + 1];
	char shorts[2 * KP_MAX_OPTS + 4], need[32];
	unsigned int operands = 0;
	int opt, err = opterr;

	if (opts) {
		kp_opts_build(opts, lo);
		/* "+:": stop at each operand, ':' for a missing value */
		shorts[0] = '+';
		shorts[1] = ':';
		kp_opts_short(opts, shorts + 1, sizeof(shorts) - 1);
		shorts[1] = ':';
	}
	opterr = 0;
	optind = 1;
	while (optind < argc) {
		if (!opts || argv[optind][0] != '-' || !argv[optind][1]) {
			if (!strcmp(argv[optind], "--"))
				break;
			operands++;
			optind++;
			continue;
		}
		if (!strcmp(argv[optind], "--"))
			break;
		opt = getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1)
			continue;
		if (opt == '?' || opt == ':') {
			const char *a = argv[optind - 1];

			opterr = err;
			optind = 1;
			if (opt == ':')
				return kp_bad_usage(c->name, "option '%s' needs a "
						    "value", a);
			return kp_bad_usage(c->name, "unknown option '%s'",
					    optopt && a[1] != '-' ?
					    (char[]){ '-', (char)optopt, 0 } : a);
		}
	}
	opterr = err;
	optind = 1;
	if (!operands && required_operand(c, need, sizeof(need)))
		return kp_bad_usage(c->name, "missing %s", need);
	return 0;
}
