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
