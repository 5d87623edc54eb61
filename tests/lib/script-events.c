// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script-events.h"
#include "script.h"

struct mem_input {
	const uint8_t *p;
	size_t len, off;
};

struct script_events {
	struct script s;
	struct mem_input in[SCRIPT_MAX_CPUS];
	struct merge *m;
};

static ssize_t mem_read(void *ctx, void *buf, size_t len)
{
	struct mem_input *in = ctx;
	size_t n = in->len - in->off < len ? in->len - in->off : len;

	memcpy(buf, in->p + in->off, n);
	in->off += n;
	return n;
}

struct script_events *script_events_new(const char *text)
{
	struct script_events *e = calloc(1, sizeof(*e));
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	unsigned int i;
	int ret;

	if (!e || !f) {
		printf("    script: out of memory\n");
		goto fail;
	}
	ret = script_read(&e->s, f, SCRIPT_EVENTS_START, 0);
	if (ret) {
		printf("    script: %s\n", e->s.error);
		goto fail;
	}
	e->m = merge_new();
	if (!e->m)
		goto fail;
	for (i = 0; i < e->s.nr_cpus; i++) {
		e->in[i] = (struct mem_input){ e->s.cpu[i].buf, e->s.cpu[i].len, 0 };
		if (merge_add(e->m, i, mem_read, &e->in[i]))
			goto fail;
	}
	fclose(f);
	return e;
fail:
	if (f)
		fclose(f);
	script_events_free(e);
	return NULL;
}

void script_events_free(struct script_events *e)
{
	unsigned int i;

	if (!e)
		return;
	merge_free(e->m);
	for (i = 0; i < e->s.nr_cpus; i++)
		stream_writer_fini(&e->s.cpu[i]);
	free(e);
}

struct merge *script_events_merge(struct script_events *e)
{
	return e->m;
}

unsigned int script_events_nr_cpus(const struct script_events *e)
{
	return e->s.nr_cpus;
}
