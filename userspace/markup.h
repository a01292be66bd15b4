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

/* s with & < > " ' escaped, invalid UTF-8 and control bytes as '?' */
void kp_xml(FILE *f, const char *s);
/* the same of len bytes of str */
void kp_xml_n(FILE *f, const char *str, size_t len);

#endif
