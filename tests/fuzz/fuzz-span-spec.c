// SPDX-License-Identifier: GPL-2.0
/*
 * A capture's span list (META spans) as the analyses read it: the input
 * is a probe list, a line "--", then the span list. The probe list
 * through probe_table_parse() (an empty table if it does not read), the
 * span list through span_table_parse() against it; each span it takes
 * written back by span_spec_format() must read back as the same span,
 * resolved to the same probes. Also each line of the span list through
 * span_spec_parse() alone, as record --span takes it.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/span-spec.h"

/* @s's text, read back: the same span, the same text; else abort. */
static void round_trip(const struct span_spec *s, const struct probe_table *probes,
		       int resolved)
{
	char text[512], again[512];
	struct span_spec q;
	struct error err;

	span_spec_format(s, text, sizeof(text));
	if (span_spec_parse(text, &q, &err))
		abort();
	if (resolved && span_spec_resolve(&q, probes, &err))
		abort();
	if (strcmp(s->name, q.name) || strcmp(s->begin, q.begin) || strcmp(s->end, q.end) ||
	    (resolved && (s->begin_id != q.begin_id || s->end_id != q.end_id)))
		abort();
	span_spec_format(&q, again, sizeof(again));
	if (strcmp(text, again))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *spans, *line, *save = NULL;
	struct probe_table probes;
	struct span_table t;
	struct span_spec s;
	struct error err;
	unsigned int i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	spans = strstr(text, "\n--\n");
	if (spans) {
		*spans = '\0';
		spans += 4;
	} else {
		spans = text + size;
	}
	if (probe_table_parse(text, &probes, &err))
		memset(&probes, 0, sizeof(probes));
	if (!span_table_parse(spans, &probes, &t, &err)) {
		for (i = 0; i < t.n; i++)
			round_trip(span_table_get(&t, i), &probes, 1);
		span_table_fini(&t);
	}
	for (line = strtok_r(spans, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!span_spec_parse(line, &s, &err))
			round_trip(&s, &probes, 0);
	probe_table_fini(&probes);
	free(text);
	return 0;
}
