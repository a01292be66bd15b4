// SPDX-License-Identifier: GPL-2.0
/*
 * Every command of the table and every long option of its table must be
 * in the man page (in the command's item) and in the bash completion (in
 * its command list and the command's case arm).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "builtin.h"

#ifndef KP_DOCS_DIR
#define KP_DOCS_DIR "userspace"
#endif

static char *slurp(const char *name)
{
	char path[512];
	long len;
	char *buf;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", KP_DOCS_DIR, name);
	f = fopen(path, "r");
	if (!f) {
		printf("FAIL cannot read %s\n", path);
		exit(1);
	}
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	buf = calloc(1, len + 1);
	if (!buf || fread(buf, 1, len, f) != (size_t)len) {
		printf("FAIL cannot read %s\n", path);
		exit(1);
	}
	fclose(f);
	return buf;
}

/* roff: "\-" is a '-', font changes (\fB, \fI, \fR, \fP) go */
static void unescape(char *s)
{
	char *o = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'f' && s[2]) {
			s += 2;
			continue;
		}
		if (!(s[0] == '\\' && s[1] == '-'))
			*o++ = *s;
	}
	*o = '\0';
}

static int wordch(char c)
{
	return isalnum((unsigned char)c) || c == '-' || c == '_';
}

/* w in [s, end) as a whole word (words may hold '-') */
static int has_word(const char *s, const char *end, const char *w)
{
	size_t n = strlen(w);
	const char *p;

	for (p = s; p + n <= end; p++)
		if (!strncmp(p, w, n) && (p == s || !wordch(p[-1])) &&
		    (p + n == end || !wordch(p[n])))
			return 1;
	return 0;
}

/*
 * The man page item of cmd: from the .TP whose tag names it to the next
 * .TP, .PP or .SH; NULL if none.
 */
static const char *man_item(const char *man, const char *cmd, const char **end)
{
	const char *p = man, *tag, *eol, *q;

	while ((p = strstr(p, "\n.TP\n"))) {
		tag = p + 5;
		eol = strchr(tag, '\n');
		if (!eol)
			return NULL;
		p = eol;
		if (!has_word(tag, eol, cmd))
			continue;
		for (q = eol; *q; q++)
			if (q[0] == '\n' && (!strncmp(q + 1, ".TP\n", 4) ||
					     !strncmp(q + 1, ".PP\n", 4) ||
					     !strncmp(q + 1, ".SH ", 4)))
				break;
		*end = q;
		return tag;
	}
	return NULL;
}

/* The completion's case arm of cmd: "\tNAME|...)" up to ";;". */
static const char *comp_arm(const char *comp, const char *cmd, const char **end)
{
	const char *p = comp, *close;

	while ((p = strstr(p, "\n\t"))) {
		p += 2;
		close = p;
		while (*close && (wordch(*close) || *close == '|'))
			close++;
		if (*close != ')' || close == p || !has_word(p, close, cmd))
			continue;
		*end = strstr(close, ";;");
		if (!*end)
			*end = close + strlen(close);
		return close;
	}
	return NULL;
}

int main(void)
{
	char *man = slurp("kprofctl.8"), *comp = slurp("kprofctl.bash-completion");
	const char *cmds, *cmds_end;
	unsigned int i;

	unescape(man);
	cmds = strstr(comp, "commands=\"");
	CHECK(cmds, "completion: no commands= list");
	if (!cmds)
		return unit_done("test_docs");
	cmds += 10;
	cmds_end = strchr(cmds, '"');
	for (i = 0; i < kp_nr_commands; i++) {
		const struct kp_cmd *c = &kp_commands[i];
		const char *item, *item_end = NULL, *arm, *arm_end = NULL;
		const struct kp_opt *o;
		unsigned int nopts = 0;

		if (!c->summary)		/* "help": --help documents it */
			continue;
		item = man_item(man, c->name, &item_end);
		CHECK(item, "kprofctl.8: no item for command '%s'", c->name);
		CHECK(has_word(cmds, cmds_end, c->name),
		      "completion: command '%s' not in commands=", c->name);
		arm = comp_arm(comp, c->name, &arm_end);
		for (o = c->help->opts; o && (o->name || o->arg); o++) {
			char lo[64];

			if (!o->name)
				continue;
			nopts++;
			snprintf(lo, sizeof(lo), "--%s", o->name);
			CHECK(item && has_word(item, item_end, lo),
			      "kprofctl.8: '%s %s' not in the command's item",
			      c->name, lo);
			CHECK(arm && has_word(arm, arm_end, lo),
			      "completion: '%s %s' not in the command's case arm",
			      c->name, lo);
		}
		/* kp_opts_build() drops the options beyond */
		CHECK(nopts <= KP_MAX_OPTS, "'%s' has %u options, more than %d",
		      c->name, nopts, KP_MAX_OPTS);
		/* getopt returns a short option's character: its id must be it */
		for (o = c->help->opts; o && (o->name || o->arg); o++)
			CHECK(!o->short_name || o->id == o->short_name,
			      "'%s --%s': -%c returns id %d", c->name, o->name,
			      o->short_name, o->id);
	}
	{
		const struct kp_opt t[] = {
			{ "events", 'e', required_argument, "E", "", 'e', NULL },
			{ "all", 'a', no_argument, NULL, "", 'a', NULL },
			{ "cpus", 0, required_argument, "L", "", KP_OPT_BASE, NULL },
			{ "interval", 'I', required_argument, "T", "", 'I', NULL },
			{ NULL, 0, 0, "CMD", "", 0, NULL },
			{ 0 },
		};
		char buf[40];

		kp_opts_short(t, buf, sizeof(buf));
		CHECK(!strcmp(buf, "+e:aI:"), "short options: got '%s'", buf);
	}
	free(man);
	free(comp);
	return unit_done("test_docs");
}
