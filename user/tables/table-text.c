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

/* @s (@n bytes) as valid UTF-8, a CSV field's bytes, quotes doubled. */
static void csv_bytes(const char *s, size_t n, FILE *out)
{
	char small[512], *fixed = 2 * n + 1 <= sizeof(small) ? small : malloc(2 * n + 1);
	size_t i, len;

	if (!fixed) {
		fputs("?", out);	/* out of memory: the stream's error says so */
		return;
	}
	len = text_utf8_fix(s, n, fixed);
	for (i = 0; i < len; i++) {
		if (fixed[i] == '"')
			fputc('"', out);
		fputc(fixed[i], out);
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
	text_json_fputs(name, out);
	fputs("\":", out);
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
		fprintf(out, "%" PRId64, v->i);
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
			text_json_fputs(v->s, out);
			fputc('"', out);
		} else if (f == TABLE_FORMAT_CSV) {
			table_text_csv(v->s, out);
		} else {
			text_fputs(v->s, out);
		}
		break;
	}
}
