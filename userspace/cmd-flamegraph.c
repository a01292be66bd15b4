// SPDX-License-Identifier: GPL-2.0
/*
 * kprofctl flamegraph: folded stacks (show --folded, perf script |
 * stackcollapse) into one interactive SVG.  Reads files only: no device.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "flame.h"
#include "flame-svg.h"
#include "spec.h"

enum { OPT_DIFF = KP_OPT_BASE, OPT_TITLE, OPT_WIDTH, OPT_COUNT_NAME };

#define LABEL_MAX	64
#define TEXT_MAX	256

static const struct kp_opt flame_opts[] = {
	{ "diff", 0, required_argument, "BEFORE",
	  "differential graph of one FILE (after) against BEFORE:\n"
	  "widths are FILE's; each frame is coloured by the change\n"
	  "of its self share (its own samples / all samples of its\n"
	  "input): red grew, blue shrank, deeper = larger change,\n"
	  "grey unchanged.  Frames only in BEFORE are not drawn.",
	  OPT_DIFF, NULL },
	{ "title", 0, required_argument, "TEXT",
	  "the title line (default \"Flame Graph\", with --diff\n"
	  "\"Differential Flame Graph\")", OPT_TITLE, NULL },
	{ "width", 0, required_argument, "PX",
	  "image width (200-100000, default 1200), shared by the\n"
	  "graphs side by side", OPT_WIDTH, NULL },
	{ "count-name", 0, required_argument, "NAME",
	  "what the counts are (default \"samples\"; \"ns\" for\n"
	  "show --folded=total)", OPT_COUNT_NAME, NULL },
	{ "output", 'o', required_argument, "FILE",
	  "write the SVG to FILE (only once every input has been\n"
	  "read), not to stdout", 'o', "-o, --output FILE" },
	{ NULL, 0, 0, NULL, NULL, 0, NULL },
};

const struct kp_help kp_help_flamegraph = {
	.usage =
"Usage: kprofctl flamegraph [--title TEXT] [--width PX] [--count-name NAME]\n"
"                           [-o FILE] [LABEL=]FILE...\n"
"       kprofctl flamegraph --diff BEFORE [OPTIONS] AFTER\n",
	.text =
"Render folded stacks (one \"outer;...;inner COUNT\" line per stack, as\n"
"'show --folded', flamegraph.pl and inferno read them; FILE - is stdin)\n"
"into one SVG with no external resources: frame widths proportional to\n"
"their counts, children sorted by name, colours by function name (the\n"
"same in every graph).  Up to 8 FILEs are drawn side by side, each titled\n"
"\"LABEL: N samples\" (LABEL defaults to the file's name; write ./a=b for a\n"
"file with '=' in its name).  In a browser: hover for a frame's counts,\n"
"click to zoom into it, Search (or Ctrl-F) highlights the frames matching\n"
"a regular expression and shows the share they match; Escape resets.\n"
"OUT.svg#search=REGEX and #zoom=NAME (joined by &, URI-encoded) do the\n"
"same on load.  A malformed line (a comment, a fractional count, over 2048\n"
"frames) is skipped and counted, as flamegraph.pl does; the first one is\n"
"named by its file and line.\n"
"Needs no module and no privilege.\n",
	.opts = flame_opts,
	.width = 18,
	.examples =
"  kprofctl show 3 --folded > xfer.folded && kprofctl flamegraph xfer.folded > xfer.svg\n"
"  kprofctl show 3 --folded=total | kprofctl flamegraph --count-name ns - > xfer.svg\n"
"  kprofctl flamegraph A55=a55.folded A76=a76.folded > clusters.svg\n"
"  kprofctl flamegraph --diff before.folded after.folded > diff.svg\n"
"  kprofctl flamegraph --title 'mydrv probe' -o probe.svg probe.folded\n",
};

struct input {
	const char *label, *path;
	struct kp_flame g;
};

/* "LABEL=FILE" (a LABEL has no '/') or "FILE" into in; 0 or 2 */
static int split_input(const char *arg, struct input *in, char *lab,
		       size_t lablen)
{
	const char *eq = strchr(arg, '=');

	in->label = NULL;
	in->path = arg;
	if (!eq || memchr(arg, '/', (size_t)(eq - arg)))
		return 0;
	if (eq == arg)
		return kp_bad_usage("flamegraph", "'%s': the label before '=' is "
				    "empty (LABEL=FILE, or ./%s for a file "
				    "named so)", arg, arg);
	if ((size_t)(eq - arg) >= lablen)
		return kp_bad_usage("flamegraph", "'%.*s...': a label has at most "
				    "%d characters", 20, arg, LABEL_MAX - 1);
	if (!eq[1])
		return kp_bad_usage("flamegraph", "'%s': no FILE after the label",
				    arg);
	memcpy(lab, arg, (size_t)(eq - arg));
	lab[eq - arg] = '\0';
	in->label = lab;
	in->path = eq + 1;
	return 0;
}

/* reads one input; 0 or 1 after the message */
static int read_input(struct input *in, const char *label)
{
	FILE *f = stdin;
	char err[512];
	int ret;

	if (kp_flame_init(&in->g, label)) {
		fprintf(stderr, "kprofctl flamegraph: out of memory\n");
		return 1;
	}
	if (strcmp(in->path, "-")) {
		f = fopen(in->path, "r");
		if (!f) {
			int e = errno;

			fprintf(stderr, "kprofctl flamegraph: %s: %s\n", in->path,
				strerror(e));
			if (e == ENOENT && in->label)
				fprintf(stderr, "(read as LABEL=FILE: for a file "
					"named %s=%s write ./%s=%s)\n", in->label,
					in->path, in->label, in->path);
			return 1;
		}
	}
	ret = kp_flame_parse(&in->g, f, strcmp(in->path, "-") ? in->path :
			     "<stdin>", err, sizeof(err));
	if (f != stdin)
		fclose(f);
	if (ret) {
		fprintf(stderr, "kprofctl flamegraph: %s\n", err);
		return 1;
	}
	if (in->g.nr_skipped)
		fprintf(stderr, "kprofctl flamegraph: skipped %lu malformed line%s, "
			"the first %s\n", in->g.nr_skipped,
			in->g.nr_skipped == 1 ? "" : "s", in->g.skip_why);
	if (!in->g.root->total)
		fprintf(stderr, "kprofctl flamegraph: %s: no samples (%s)\n",
			strcmp(in->path, "-") ? in->path : "<stdin>",
			in->g.nr_stacks ? "every count is 0" : "no stacks");
	return 0;
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	if (!strcmp(p, "-"))
		return "stdin";
	return s && s[1] ? s + 1 : p;
}

static int check_text(const char *opt, const char *s, size_t max)
{
	if (!*s)
		return kp_bad_usage("flamegraph", "%s needs a non-empty value", opt);
	if (strlen(s) > max)
		return kp_bad_usage("flamegraph", "%s: at most %zu characters", opt,
				    max);
	return 0;
}

int cmd_flamegraph(struct kp_dev *unused, int argc, char **argv)
{
	static char labels[KP_FLAME_MAX_GRAPHS + 1][LABEL_MAX];
	struct input in[KP_FLAME_MAX_GRAPHS + 1];	/* + BEFORE */
	struct kp_flame *gs[KP_FLAME_MAX_GRAPHS];
	struct kp_flame_opts o = { 0 };
	const char *args[KP_FLAME_MAX_GRAPHS + 1], *before = NULL, *out = NULL;
	unsigned int nargs = 0, nin = 0, i, stdin_uses = 0;
	struct option lo[KP_MAX_OPTS + 1];
	char shorts[40], subtitle[160];
	int opt, ret = 0, rest = 0;
	uint64_t v;
	FILE *f;

	(void)unused;
	kp_opts_build(flame_opts, lo);
	kp_opts_short(flame_opts, shorts, sizeof(shorts));
	optind = 1;
	for (;;) {
		opt = rest ? -1 : getopt_long(argc, argv, shorts, lo, NULL);
		if (opt == -1) {
			if (optind >= argc)
				break;
			/* after "--" every argument is a FILE */
			if (!rest && optind > 1 && !strcmp(argv[optind - 1], "--"))
				rest = 1;
			if (nargs == KP_FLAME_MAX_GRAPHS)
				return kp_bad_usage("flamegraph", "at most %d "
						    "inputs in one SVG",
						    KP_FLAME_MAX_GRAPHS);
			args[nargs++] = argv[optind++];
			continue;
		}
		switch (opt) {
		case OPT_DIFF:
			if (before)
				return kp_bad_usage("flamegraph", "%s",
						    "--diff given twice");
			if (!*optarg)
				return kp_bad_usage("flamegraph", "%s", "--diff "
						    "needs the BEFORE file");
			before = optarg;
			break;
		case OPT_TITLE:
			ret = check_text("--title", optarg, TEXT_MAX);
			if (ret)
				return ret;
			o.title = optarg;
			break;
		case OPT_WIDTH:
			if (kp_parse_u64(optarg, KP_FLAME_MIN_WIDTH,
					 KP_FLAME_MAX_WIDTH, &v))
				return kp_bad_usage("flamegraph", "--width takes "
						    "%d-%d (pixels), not '%s'",
						    KP_FLAME_MIN_WIDTH,
						    KP_FLAME_MAX_WIDTH, optarg);
			o.width = (unsigned int)v;
			break;
		case OPT_COUNT_NAME:
			ret = check_text("--count-name", optarg, 32);
			if (ret)
				return ret;
			o.count_name = optarg;
			break;
		case 'o':
			if (!*optarg)
				return kp_bad_usage("flamegraph", "%s",
						    "-o needs a FILE");
			out = optarg;
			break;
		default:
			return kp_bad_usage("flamegraph", "%s", "unknown option "
					    "or missing argument");
		}
	}
	if (!nargs)
		return kp_bad_usage("flamegraph", "%s", before ?
				    "--diff BEFORE needs the AFTER file too" :
				    "no input: give a folded FILE (- for stdin), "
				    "e.g. from 'kprofctl show ID --folded'");
	if (before && nargs > 1)
		return kp_bad_usage("flamegraph", "--diff compares BEFORE with one "
				    "AFTER file, not %u", nargs);
	if (!o.width)
		o.width = 1200;
	if ((o.width - 20 - (nargs - 1) * 10) / nargs < 50)
		return kp_bad_usage("flamegraph", "--width %u is too narrow for %u "
				    "graphs: give at least %u", o.width, nargs,
				    20 + (nargs - 1) * 10 + nargs * 50);
	for (i = 0; i < nargs; i++) {
		ret = split_input(args[i], &in[i], labels[i], LABEL_MAX);
		if (ret)
			return ret;
	}
	if (before) {
		in[nargs].label = NULL;
		in[nargs].path = before;
	}
	for (i = 0; i < nargs + !!before; i++)
		stdin_uses += !strcmp(in[i].path, "-");
	if (stdin_uses > 1)
		return kp_bad_usage("flamegraph", "%s", "stdin (-) can be read "
				    "only once");
	for (i = 0; i < nargs + !!before && !ret; i++) {
		const char *label = in[i].label;

		if (!label && nargs > 1)
			label = base(in[i].path);
		ret = read_input(&in[i], label);
		nin = i + 1;
	}
	if (ret)
		goto out;
	for (i = 0; i < nargs; i++)
		gs[i] = &in[i].g;
	if (before) {
		kp_flame_diff(&in[0].g, &in[nargs].g);
		if (!o.title)
			o.title = "Differential Flame Graph";
		snprintf(subtitle, sizeof(subtitle), "%s against %s: red grew, "
			 "blue shrank (self share)", base(in[0].path),
			 base(before));
		o.subtitle = subtitle;
	}
	f = stdout;
	if (out) {
		f = fopen(out, "w");
		if (!f) {
			fprintf(stderr, "kprofctl flamegraph: %s: %s\n", out,
				strerror(errno));
			ret = 1;
			goto out;
		}
	}
	if (kp_flame_svg(f, gs, nargs, &o) || fflush(f) ||
	    (f != stdout && fclose(f))) {
		fprintf(stderr, "kprofctl flamegraph: writing %s: %s\n",
			out ? out : "stdout", strerror(errno ? errno : EIO));
		ret = 1;
	} else if (f == stdout && ferror(f)) {
		ret = 1;
	}
out:
	for (i = 0; i < nin; i++)
		kp_flame_free(&in[i].g);
	return ret;
}
