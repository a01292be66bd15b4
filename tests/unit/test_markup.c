// SPDX-License-Identifier: GPL-2.0
/*
 * The one escaper (markup.c) in both its modes: XML for the SVGs, HTML
 * keeping newlines and tabs for report's page, whose kp_rep_esc() hides
 * kernel addresses first and must print what it printed with its own
 * escaper (ref_rep_esc below, as it was).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"
#include "markup.h"
#include "report.h"

static char *out;
static size_t out_len;

static FILE *start(void)
{
	free(out);
	out = NULL;
	return open_memstream(&out, &out_len);
}

static const char *esc(const char *s, size_t len, unsigned int flags)
{
	FILE *f = start();

	kp_esc(f, s, len, flags);
	fclose(f);
	return out;
}

static const char *rep(const char *s)
{
	FILE *f = start();

	kp_rep_esc(f, s);
	fclose(f);
	return out;
}

#define HTML	(KP_ESC_HTML | KP_ESC_KEEP_WS)
#define ESC(in, flags, want) do {					\
		const char *got = esc(in, sizeof(in) - 1, flags);	\
									\
		CHECK(got && !strcmp(got, want), "%s %s: %s", #in,	\
		      #flags, got);					\
	} while (0)

static void test_esc(void)
{
	FILE *f;

	ESC("<a href=\"x\">&'</a>", 0,
	    "&lt;a href=&quot;x&quot;&gt;&amp;&apos;&lt;/a&gt;");
	ESC("<a href=\"x\">&'</a>", HTML,
	    "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
	ESC("'", KP_ESC_HTML, "&#39;");
	ESC("a\nb\tc\rd\x01" "e\x7f" "f\x1b", 0, "a?b?c?d?e?f?");
	ESC("a\nb\tc\rd\x01" "e\x7f" "f\x1b", HTML, "a\nb\tc?d?e?f?");
	ESC("a\nb\t", KP_ESC_KEEP_WS, "a\nb\t");
	ESC("a\0b", 0, "a?b");
	/* UTF-8 kept when valid and allowed in XML, else a '?' a byte */
	ESC("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0,
	    "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ESC("\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", HTML,
	    "\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	ESC("\xc3", 0, "?");
	ESC("\xc3<", HTML, "?&lt;");
	ESC("\xc0\xaf", 0, "??");			/* overlong '/' */
	ESC("\xe0\x80\xaf", HTML, "???");		/* overlong, 3 bytes */
	ESC("\xed\xa0\x80", 0, "???");			/* surrogate */
	ESC("\xef\xbf\xbe", HTML, "???");		/* U+FFFE */
	ESC("\xf4\x90\x80\x80", 0, "????");		/* past U+10FFFF */
	ESC("\xff\xfe\x80", HTML, "???");
	CHECK(!strcmp(esc("\xe2\x82\xac", 2, 0), "??"), "cut at len: %s", out);

	f = start();
	kp_xml(f, "<'\n\t\xc3>");
	kp_xml_n(f, "&\"xyz", 2);
	fclose(f);
	CHECK(out && !strcmp(out, "&lt;&apos;???&gt;&amp;&quot;"),
	      "kp_xml, kp_xml_n: %s", out);
}

static void test_rep(void)
{
	CHECK(!strcmp(rep(NULL), ""), "NULL");
	CHECK(!strcmp(rep("it's <b>\n\t&\x01"), "it&#39;s &lt;b&gt;\n\t&amp;?"),
	      "HTML, newline and tab kept: %s", out);
	CHECK(!strcmp(rep("pc ffffffff81234567\n<b>"),
		      "pc [address hidden]\n&lt;b&gt;"), "address: %s", out);
	CHECK(!strcmp(rep("0xFFFF888012345678,ffffffff81234567"),
		      "[address hidden],[address hidden]"), "0x, two: %s", out);
	CHECK(!strcmp(rep("affffffff81234567 _ffffffff81234567 "
			  "ffffffff812345678 ffffffff8123456g"),
		      "affffffff81234567 _ffffffff81234567 "
		      "ffffffff812345678 ffffffff8123456g"),
	      "inside a word, too long, not hex: %s", out);
	CHECK(!strcmp(rep("\xc3\xa9" "ffffffff81234567\xc3"),
		      "\xc3\xa9[address hidden]?"), "after UTF-8: %s", out);
}

/* ---- report.c's escaper before it used markup.c --------------------------- */

static size_t ref_kaddr_len(const char *s)
{
	size_t p = 0, i;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		p = 2;
	for (i = 0; i < 16; i++)
		if (!isxdigit((unsigned char)s[p + i]) ||
		    (i < 4 && tolower((unsigned char)s[p + i]) != 'f'))
			return 0;
	if (isalnum((unsigned char)s[p + 16]) || s[p + 16] == '_')
		return 0;
	return p + 16;
}

static void ref_rep_esc(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");
	size_t len = strlen((const char *)s), i = 0, l;

	while (i < len) {
		unsigned char c = s[i];
		const char *e = c == '&' ? "&amp;" : c == '<' ? "&lt;" :
				c == '>' ? "&gt;" : c == '"' ? "&quot;" :
				c == '\'' ? "&#39;" : NULL;

		if (e) {
			fputs(e, f);
			i++;
			continue;
		}
		l = !i || !(isalnum(s[i - 1]) || s[i - 1] == '_') ?
		    ref_kaddr_len((const char *)s + i) : 0;
		if (l) {
			fputs("[address hidden]", f);
			i += l;
			continue;
		}
		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
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

/* random strings of pieces that matter: both escapers print the same */
static void test_same_as_before(void)
{
	static const char *const piece[] = {
		"ffff", "ffffffff81234567", "0x", "0X", "FFFF", "8123", "a",
		"_", " ", ",", "&", "<", ">", "\"", "'", "\n", "\t", "\r",
		"\x01", "\x7f", "\xc3\xa9", "\xc3", "\xe2\x82\xac", "\xe2\x82",
		"\xf0\x9f\x98\x80", "\xed\xa0\x80", "\xef\xbf\xbe", "\x80",
		"\xff", "g", "0",
	};
	unsigned int t, k, n, bad = 0, hidden = 0;
	char in[256], *want = NULL;
	size_t want_len;

	for (t = 0; t < 20000; t++) {
		FILE *f;

		in[0] = 0;
		n = unit_rand() % 12;
		for (k = 0; k < n; k++)
			strcat(in, piece[unit_rand() % (sizeof(piece) /
							  sizeof(piece[0]))]);
		f = open_memstream(&want, &want_len);
		ref_rep_esc(f, in);
		fclose(f);
		if (strcmp(rep(in), want) && bad++ < 5)
			printf("# %s: %s, before %s\n", in, out, want);
		hidden += !!strstr(want, "[address hidden]");
		free(want);
		want = NULL;
	}
	CHECK(!bad, "%u of 20000 strings escaped otherwise than before", bad);
	CHECK(hidden > 1000, "%u of them with an address hidden", hidden);
}

int main(void)
{
	test_esc();
	test_rep();
	test_same_as_before();
	free(out);
	return unit_done("test_markup");
}
