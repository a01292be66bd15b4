// SPDX-License-Identifier: GPL-2.0
/*
 * diff --junit FILE: a <testsuite> of the gates for GitLab, Jenkins and
 * GitHub's test reporters: a case per gate and row it covers, a
 * <failure> with the reason where the gate failed.
 */
#include <stdio.h>

#include "diff-rows.h"
#include "junit.h"
#include "markup.h"

static void junit_case(FILE *f, const char *expr, const char *name,
		       int fail, const char *reason)
{
	fputs("  <testcase classname=\"", f);
	kp_xml(f, expr);
	fputs("\" name=\"", f);
	kp_xml(f, name);
	fputs("\">\n", f);
	fprintf(f, "    <%s", fail ? "failure message=\"" : "system-out>");
	kp_xml(f, reason);
	fputs(fail ? "\"/>\n" : "</system-out>\n", f);
	fputs("  </testcase>\n", f);
}

int kp_junit_write(FILE *f, const struct kp_gate_res *res, unsigned int n)
{
	unsigned int g, i, cases = 0, failures = 0;
	char label[512];

	for (g = 0; g < n; g++) {
		/* a gate covering nothing is a failed case of its own */
		cases += res[g].n + !res[g].n;
		failures += !res[g].n;
		for (i = 0; i < res[g].n; i++)
			failures += !!res[g].v[i].fail;
	}
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<testsuite name=\"kprofctl diff\" tests=\"%u\" "
		"failures=\"%u\" errors=\"0\">\n", cases, failures);
	for (g = 0; g < n; g++) {
		if (!res[g].n)
			junit_case(f, res[g].expr, res[g].expr, 1,
				   "covers nothing in BEFORE or AFTER");
		for (i = 0; i < res[g].n; i++) {
			kp_drow_label(res[g].v[i].w, label, sizeof(label));
			junit_case(f, res[g].expr, label, res[g].v[i].fail,
				   res[g].v[i].reason);
		}
	}
	fputs("</testsuite>\n", f);
	return ferror(f) ? -1 : 0;
}
