// SPDX-License-Identifier: GPL-2.0
/*
 * A capture's probe list (META probes) as the analyses read it: the text
 * through probe_table_parse(), then each probe it takes written back by
 * probe_spec_format(), which must read back to the same probe and the same
 * text (the recorder keeps its probes that way: a list that does not read
 * back leaves every hit of the capture unnamed). Also each line through
 * probe_spec_parse() alone, as record --probe takes it.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/probe-spec.h"

/* @p's text, read back: the same probe, the same text; else abort. */
static void round_trip(const struct probe_spec *p)
{
	char text[4096], again[4096];
	struct probe_spec q;
	struct error err;

	probe_spec_format(p, text, sizeof(text));
	if (probe_spec_parse(text, &q, &err) || memcmp(p, &q, sizeof(q)))
		abort();
	probe_spec_format(&q, again, sizeof(again));
	if (strcmp(text, again))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), *line, *save = NULL;
	struct probe_table t;
	struct probe_spec p;
	struct error err;
	unsigned int i;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (!probe_table_parse(text, &t, &err)) {
		for (i = 0; i < t.n; i++)
			round_trip(probe_table_get(&t, i));
		probe_table_fini(&t);
	}
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (!probe_spec_parse(line, &p, &err))
			round_trip(&p);
	free(text);
	return 0;
}
