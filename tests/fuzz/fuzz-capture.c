// SPDX-License-Identifier: GPL-2.0
/*
 * A capture file as every command reads it: opened, its metadata and
 * sections read, every chunk checked, every event decoded and symbolized
 * (binaries looked up under a scratch symfs that holds a FIFO at
 * /tmp/ff/app). fuzz-render takes the same inputs through report and
 * diff. Then the capture as ktprof sql and export see it: every table's
 * rows (table-fill), each value written as CSV and as JSON. And as ktprof
 * top --replay sees it: the model stepped and cut interval by interval,
 * each interval's figures written as text and as JSON.
 *
 * So that the fuzzer gets past the checksums, each complete chunk's CRC
 * and sequence number are set right before the file is written, unless bit
 * 0 of the file header's reserved field is set (then damage is kept).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tables/table-fill.h"
#include "tables/table-text.h"
#include "top/top-print.h"
#include "top/top-source.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Each row's values as CSV and JSON, into a sink that keeps nothing. */
static int row(void *ctx, enum table_id t, const struct table_value *v)
{
	const struct table_def *d = &table_defs[t];
	unsigned int i;

	for (i = 0; i < d->nr_cols; i++) {
		table_text_value(ctx, TABLE_FORMAT_CSV, &v[i], d->cols[i].type);
		table_text_value(ctx, TABLE_FORMAT_JSON, &v[i], d->cols[i].type);
	}
	return 0;
}

static void top(const char *path, FILE *null)
{
	struct top_source_config cfg = { .replay = path, .interval_ns = 1000000 };
	struct top_print_opts o = { .filter = "", .source = path };
	struct error err = { 0 };
	struct top_source *src = top_source_open(&cfg, &err);
	struct top_interval *iv;
	unsigned int n = 0;

	if (!src)
		return;
	while (n++ < 100000 && top_source_next(src, &iv, &err) == 1) {
		o.sort = n % TOP_NR_SORTS;
		top_print_text(null, iv, &o);
		top_print_json(null, iv, &o);
	}
	top_source_close(src);
}

static void tables(const char *path)
{
	static FILE *null;
	struct table_fill_config cfg = { .symfs = fuzz_symfs(), .symbols = 1 };
	struct table_sink sink = { NULL, row, NULL };
	struct error err = { 0 };

	if (!null)
		null = fopen("/dev/null", "w");
	if (!null)
		abort();
	sink.ctx = null;
	table_fill(path, &cfg, &sink, &err);
	top(path, null);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_capture_file(data, size);

	if (!path)
		return 0;
	fuzz_input(path, fuzz_symfs());
	tables(path);
	return 0;
}
