// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "util/text.h"

static int plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '\\';
}

/* The escape of @c into @out (at least 5 bytes): its length. */
static size_t escape_byte(unsigned char c, char *out)
{
	static const char named[] = "\a\b\t\n\v\f\r", letters[] = "abtnvfr";
	const char *n = c ? memchr(named, c, sizeof(named) - 1) : NULL;

	if (c == '\\' || n) {
		out[0] = '\\';
		out[1] = c == '\\' ? '\\' : letters[n - named];
		return 2;
	}
	snprintf(out, 5, "\\x%02x", c);
	return 4;
}

const char *text_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;

	while (*p && plain(*p))
		p++;
	if (!*p)
		return s;
	if (!len)
		return "";
	for (p = (const unsigned char *)s; *p; p++) {
		char e[5];
		size_t k = plain(*p) ? (e[0] = (char)*p, 1) : escape_byte(*p, e);

		if (n + k >= len)
			break;
		memcpy(buf + n, e, k);
		n += k;
	}
	buf[n] = '\0';
	return buf;
}

const char *text_esc(const char *s)
{
	static char bufs[8][256];
	static unsigned int next;

	return text_escape(s, bufs[next++ % 8], sizeof(bufs[0]));
}

void text_fputs(const char *s, FILE *f)
{
	const unsigned char *p;

	for (p = (const unsigned char *)s; *p; p++) {
		char e[5];

		if (plain(*p))
			fputc(*p, f);
		else
			fwrite(e, 1, escape_byte(*p, e), f);
	}
}

size_t text_utf8_char(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;

	if (!n)
		return 0;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		lo = s[0] == 0xe0 ? 0xa0 : lo;		/* overlong */
		hi = s[0] == 0xed ? 0x9f : hi;		/* surrogates */
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		lo = s[0] == 0xf0 ? 0x90 : lo;		/* overlong */
		hi = s[0] == 0xf4 ? 0x8f : hi;		/* above U+10FFFF */
	} else {
		return 0;
	}
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

size_t text_utf8_fix(const char *s, size_t n, char *out)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, o = 0, c;

	while (i < n) {
		c = text_utf8_char(p + i, n - i);
		if (c) {
			memcpy(out + o, p + i, c);
			o += c;
			i += c;
		} else {
			/* U+0080..U+00FF in UTF-8: the byte read as Latin-1. */
			out[o++] = (char)(0xc0 | p[i] >> 6);
			out[o++] = (char)(0x80 | (p[i] & 0x3f));
			i++;
		}
	}
	out[o] = '\0';
	return o;
}

void text_json_fputs(const char *s, FILE *f)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, c;

	while (i < n) {
		c = p[i] >= 0x80 ? text_utf8_char(p + i, n - i) : 0;
		if (c) {
			fwrite(p + i, 1, c, f);
			i += c;
			continue;
		}
		if (p[i] == '"' || p[i] == '\\')
			fprintf(f, "\\%c", p[i]);
		else if (p[i] < 0x20 || p[i] >= 0x7f)
			fprintf(f, "\\u%04x", p[i]);
		else
			fputc(p[i], f);
		i++;
	}
}
