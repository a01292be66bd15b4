/* SPDX-License-Identifier: GPL-2.0 */
/* Text for a terminal: control bytes shown, never obeyed. */
#ifndef KPROFCTL_TERMSAFE_H
#define KPROFCTL_TERMSAFE_H

#include <stddef.h>

/*
 * s into buf (len bytes, cut to fit) with each control byte (ESC, BEL,
 * CR, DEL...) written as \xHH: a spec from a capture or a probe table
 * cannot move the cursor, clear the screen or set the title.  buf.
 */
char *kp_term_safe(const char *s, char *buf, size_t len);

/* does s hold a control byte? */
int kp_term_unsafe(const char *s);

#endif
