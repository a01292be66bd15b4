// SPDX-License-Identifier: GPL-2.0
/* Text for a terminal: control bytes as \xHH (termsafe.h). */
#include <stdio.h>

#include "termsafe.h"

static int ctl(unsigned char c)
{
	return c < 0x20 || c == 0x7f;
}

int kp_term_unsafe(const char *s)
{
	for (; *s; s++)
		if (ctl((unsigned char)*s))
			return 1;
	return 0;
}

char *kp_term_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	if (!len)
		return buf;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		size_t need = ctl(c) ? 4 : 1;

		if (o + need >= len)
			break;
		if (ctl(c))
			snprintf(buf + o, len - o, "\\x%02x", c);
		else
			buf[o] = (char)c;
		o += need;
	}
	buf[o] = '\0';
	return buf;
}
