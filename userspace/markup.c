// SPDX-License-Identifier: GPL-2.0
/* Text into XML and HTML: UTF-8 checked, the markup characters escaped. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "markup.h"

size_t kp_utf8_len(const unsigned char *s, size_t n)
{
	size_t l, i;
	uint32_t c;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		l = 2;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		l = 3;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		l = 4;
	else
		return 0;
	if (l > n)
		return 0;
	c = s[0] & (0x7f >> l);
	for (i = 1; i < l; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	/* overlong, surrogates, above U+10FFFF, U+FFFE/FFFF: not XML */
	if ((l == 3 && c < 0x800) || (l == 4 && c < 0x10000) || c > 0x10ffff ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return l;
}

void kp_esc(FILE *f, const char *str, size_t len, unsigned int flags)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0, l;

	while (i < len) {
		unsigned char c = s[i];
		const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" :
				c == '>' ? "&gt;" : c == '"' ? "&quot;" :
				c == '\'' ? (flags & KP_ESC_HTML ? "&#39;" :
					     "&apos;") : NULL;

		if (e) {
			fputs(e, f);
			i++;
			continue;
		}
		if ((c < 0x20 && !((flags & KP_ESC_KEEP_WS) &&
				   (c == '\n' || c == '\t'))) || c == 0x7f) {
			fputc('?', f);
			i++;
			continue;
		}
		l = kp_utf8_len(s + i, len - i);
		if (!l) {
			fputc('?', f);
			i++;
			continue;
		}
		fwrite(s + i, 1, l, f);
		i += l;
	}
}

void kp_xml_n(FILE *f, const char *str, size_t len)
{
	kp_esc(f, str, len, 0);
}

void kp_xml(FILE *f, const char *s)
{
	kp_xml_n(f, s, strlen(s));
}

/* characters (not continuation bytes) in s */
