// SPDX-License-Identifier: GPL-2.0
/*
 * The relay stream decoder on arbitrary bytes: what `cat cpuN` could give
 * after damage. The input is decoded twice, whole and fed in pieces whose
 * sizes the input's first byte sets; both must give the same events
 * (streaming invariance), and every event's fields are read.
 */
#include <stdlib.h>
#include <string.h>

#include "decode/record.h"
#include "decode/relay-decode.h"
#include "fuzz.h"

struct digest {
	uint64_t events, sum;
};

static void sink_u64(void *ctx, const char *key, uint64_t v)
{
	(void)key;
	*(uint64_t *)ctx = *(uint64_t *)ctx * 31 + v;
}

static void sink_s64(void *ctx, const char *key, int64_t v)
{
	sink_u64(ctx, key, (uint64_t)v);
}

static void sink_str(void *ctx, const char *key, const char *v)
{
	sink_u64(ctx, key, strlen(v));
}

static const struct record_sink sink = { sink_u64, sink_s64, sink_u64, sink_str };

static void take(struct relay_decoder *d, struct digest *g)
{
	struct event ev;

	while (relay_decoder_next(d, &ev) > 0) {
		g->events++;
		g->sum = g->sum * 131 + ev.type * 7 + ev.ts + ev.lost;
		record_fields(&ev, &sink, &g->sum);
	}
}

static void decode(const uint8_t *data, size_t size, size_t piece, struct digest *g)
{
	struct relay_decoder *d = relay_decoder_new(-1);
	size_t off;

	if (!d)
		abort();
	for (off = 0; off < size; off += piece) {
		if (relay_decoder_feed(d, data + off, size - off < piece ? size - off : piece))
			abort();
		take(d, g);
	}
	relay_decoder_set_eof(d);
	take(d, g);
	relay_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct digest whole = { 0 }, pieces = { 0 };
	size_t piece;

	if (!size)
		return 0;
	piece = 1 + data[0] % 97;
	decode(data + 1, size - 1, size, &whole);
	decode(data + 1, size - 1, piece, &pieces);
	if (whole.events != pieces.events || whole.sum != pieces.sum)
		abort();	/* the result depends on how the bytes came */
	return 0;
}
