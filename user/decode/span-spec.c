// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode/span-spec.h"

/* What a probe's name may hold (decode/probe-spec.h), so that every output takes it. */
static int name_ok(const char *s, size_t len)
{
	size_t i;

	if (!len || len >= PROBE_NAME_MAX || isdigit((unsigned char)s[0]))
		return 0;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '.' && s[i] != '%')
			return 0;
	return 1;
}

/* @len bytes of @s into @dst as a name; -EINVAL naming @what otherwise. */
static int take_name(char *dst, const char *s, size_t len, const char *what,
		     struct error *err)
{
	if (!name_ok(s, len))
		return error_set(err, -EINVAL, "bad %s \"%.*s\" (letters, digits, _, . and %%)",
				 what, (int)(len < 80 ? len : 80), s);
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

int span_spec_parse(const char *text, struct span_spec *s, struct error *err)
{
	const char *eq = strchr(text, '='), *comma;
	size_t n = strlen(text);
	int ret;

	memset(s, 0, sizeof(*s));
	/* A line of the capture's list ends with its newline. */
	if (n && text[n - 1] == '\n')
		n--;
	comma = eq ? memchr(eq, ',', n - (size_t)(eq - text)) : NULL;
	if (!eq || !comma)
		return error_set(err, -EINVAL, "want NAME=BEGIN,END (two probes' names)");
	ret = take_name(s->name, text, (size_t)(eq - text), "span name", err);
	if (!ret)
		ret = take_name(s->begin, eq + 1, (size_t)(comma - eq - 1), "probe name", err);
	if (!ret)
		ret = take_name(s->end, comma + 1, n - (size_t)(comma + 1 - text), "probe name",
				err);
	return ret;
}

const char *span_spec_format(const struct span_spec *s, char *buf, unsigned int len)
{
	snprintf(buf, len, "%s=%s,%s", s->name, s->begin, s->end);
	return buf;
}

static int probe_id(const struct probe_table *probes, const char *name, unsigned int *id)
{
	unsigned int i;

	for (i = 0; i < probes->n; i++)
		if (!strcmp(probes->probes[i].name, name)) {
			*id = i;
			return 0;
		}
	return -ENOENT;
}

int span_spec_resolve(struct span_spec *s, const struct probe_table *probes,
		      struct error *err)
{
	if (probe_id(probes, s->begin, &s->begin_id))
		return error_set(err, -ENOENT, "no probe named %s", s->begin);
	if (probe_id(probes, s->end, &s->end_id))
		return error_set(err, -ENOENT, "no probe named %s", s->end);
	if (s->begin_id == s->end_id)
		return error_set(err, -EINVAL,
				 "a span's begin and end are two probes, not %s twice", s->begin);
	return 0;
}

void span_table_fini(struct span_table *t)
{
	free(t->spans);
	memset(t, 0, sizeof(*t));
}

/* Line @no of the list, @line, as span @t->n. */
static int take_line(struct span_table *t, const char *line, unsigned int no,
		     const struct probe_table *probes, struct error *err)
{
	struct span_spec *s = &t->spans[t->n];
	struct error why;
	unsigned int i;

	if (t->n == SPAN_TABLE_MAX)
		return error_set(err, -EINVAL, "line %u: more than %d spans", no, SPAN_TABLE_MAX);
	if (span_spec_parse(line, s, &why) || span_spec_resolve(s, probes, &why))
		return error_set(err, -EINVAL, "line %u: %s", no, error_msg(&why));
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->spans[i].name, s->name))
			return error_set(err, -EINVAL, "line %u: span %s defined twice", no,
					 s->name);
	t->n++;
	return 0;
}

int span_table_parse(const char *text, const struct probe_table *probes,
		     struct span_table *t, struct error *err)
{
	char line[3 * PROBE_NAME_MAX + 4];
	unsigned int no = 0;
	const char *nl;
	size_t len;
	int ret = 0;

	memset(t, 0, sizeof(*t));
	if (!text || !*text)
		return 0;
	t->spans = calloc(SPAN_TABLE_MAX, sizeof(*t->spans));
	if (!t->spans)
		return error_set(err, -ENOMEM, NULL);
	for (; !ret && *text; text = nl ? nl + 1 : text + len) {
		nl = strchr(text, '\n');
		len = nl ? (size_t)(nl - text) : strlen(text);
		no++;
		if (len >= sizeof(line)) {
			ret = error_set(err, -EINVAL, "line %u: too long for a span", no);
			break;
		}
		memcpy(line, text, len);
		line[len] = '\0';
		ret = take_line(t, line, no, probes, err);
	}
	if (ret)
		span_table_fini(t);
	return ret;
}
