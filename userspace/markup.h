/* SPDX-License-Identifier: GPL-2.0 */
/* Text into XML and HTML: UTF-8 checked, the markup characters escaped. */
#ifndef KPROFCTL_MARKUP_H
#define KPROFCTL_MARKUP_H

#include <stddef.h>
#include <stdio.h>

/*
 * Length of the valid UTF-8 character at s (at most n bytes) that XML
 * allows, or 0
 */
size_t kp_utf8_len(const unsigned char *s, size_t n);

/* kp_esc()'s flags: XML (SVG) by default */
#define KP_ESC_HTML	1	/* ' as &#39;: HTML 4 has no &apos; */
#define KP_ESC_KEEP_WS	2	/* \n and \t kept (an embedded SVG's lines) */

/*
 * len bytes of str with & < > " ' escaped, invalid UTF-8 and control
 * bytes as '?': the one escaper of the SVGs and of report's page
 */
void kp_esc(FILE *f, const char *str, size_t len, unsigned int flags);
/* for XML, kp_esc() without flags: s, or len bytes of str */
void kp_xml(FILE *f, const char *s);
void kp_xml_n(FILE *f, const char *str, size_t len);

#endif
