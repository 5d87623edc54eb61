// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tables/table-text.h"
#include "util/text.h"

int table_format_parse(const char *s, enum table_format *f)
{
	if (!strcmp(s, "text"))
		*f = TABLE_FORMAT_TEXT;
	else if (!strcmp(s, "csv"))
		*f = TABLE_FORMAT_CSV;
	else if (!strcmp(s, "json") || !strcmp(s, "ndjson"))
		*f = TABLE_FORMAT_JSON;
	else
		return -EINVAL;
	return 0;
}

/*
 * Whether @s (@n bytes) is printable ASCII without '"' (nor, for @json,
 * '\\'): what both CSV and JSON write as it is.
 */
static int plain(const char *s, size_t n, int json)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f || s[i] == '"' ||
		    (json && s[i] == '\\'))
			return 0;
	return 1;
}

/* @s inside a JSON string (util/text.h's rule), in one write when it can be. */
static void json_chars(const char *s, FILE *out)
{
	size_t n = strlen(s);

	if (plain(s, n, 1))
		fwrite_unlocked(s, 1, n, out);
	else
		text_json_fputs(s, out);
}

/* @s (@n bytes) as valid UTF-8, a CSV field's bytes, quotes doubled. */
static void csv_bytes(const char *s, size_t n, FILE *out)
{
	char small[512], *fixed;
	size_t i, len;

	/* Names and paths mostly: one write (the export's time was in fputc). */
	if (plain(s, n, 0)) {
		fwrite_unlocked(s, 1, n, out);
		return;
	}
	fixed = 2 * n + 1 <= sizeof(small) ? small : malloc(2 * n + 1);
	if (!fixed) {
		fputs("?", out);	/* out of memory: the stream's error says so */
		return;
	}
	len = text_utf8_fix(s, n, fixed);
	for (i = 0; i < len; i++) {
		if (fixed[i] == '"')
			fputc_unlocked('"', out);
		fputc_unlocked(fixed[i], out);
	}
	if (fixed != small)
		free(fixed);
}

void table_text_csv(const char *s, FILE *out)
{
	int quote = s[0] == '\0' || strpbrk(s, ",\"\r\n") != NULL;

	/* An empty string is "" so that it differs from NULL (nothing). */
	if (quote)
		fputc('"', out);
	csv_bytes(s, strlen(s), out);
	if (quote)
		fputc('"', out);
}

void table_text_json_key(FILE *out, const char *name, int first)
{
	if (!first)
		fputc(',', out);
	fputc('"', out);
	json_chars(name, out);
	fputs("\":", out);
}

/* @v in decimal: printf's formatting was a quarter of an export's time. */
static void put_int(int64_t v, FILE *out)
{
	char buf[24], *p = buf + sizeof(buf);
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	do {
		*--p = '0' + u % 10;
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	fwrite_unlocked(p, 1, buf + sizeof(buf) - p, out);
}

void table_text_value(FILE *out, enum table_format f, const struct table_value *v,
		      enum table_type t)
{
	if (v->null || (t == TABLE_TEXT && !v->s)) {
		if (f == TABLE_FORMAT_JSON)
			fputs("null", out);
		return;
	}
	switch (t) {
	case TABLE_INT:
		put_int(v->i, out);
		break;
	case TABLE_REAL:
		if (f == TABLE_FORMAT_JSON && !isfinite(v->r))
			fputs("null", out);
		else
			fprintf(out, "%.17g", v->r);
		break;
	case TABLE_TEXT:
		if (f == TABLE_FORMAT_JSON) {
			fputc('"', out);
			json_chars(v->s, out);
			fputc('"', out);
		} else if (f == TABLE_FORMAT_CSV) {
			table_text_csv(v->s, out);
		} else {
			text_fputs(v->s, out);
		}
		break;
	}
}
