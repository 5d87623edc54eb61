// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist.h"

#define SUB (1u << HIST_SUB_BITS)

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_fini(struct hist *h)
{
	free(h->buckets);
	free(h->exact);
	hist_init(h);
}

/* Octave 0 holds 0..SUB-1 one per bucket; octave k >= 1 holds [SUB << (k-1), SUB << k). */
static unsigned int octave_of(uint64_t v, unsigned int *sub)
{
	unsigned int e;

	if (v < SUB) {
		*sub = v;
		return 0;
	}
	e = 63 - __builtin_clzll(v);
	*sub = (v >> (e - HIST_SUB_BITS)) & (SUB - 1);
	return e - HIST_SUB_BITS + 1;
}

uint64_t hist_key(uint64_t v)
{
	unsigned int sub, k = octave_of(v, &sub);

	return (uint64_t)k * SUB + sub;
}

/* The middle of bucket @sub of octave @k. */
static uint64_t bucket_value(unsigned int k, unsigned int sub)
{
	uint64_t width;

	if (!k)
		return sub;
	width = 1ull << (k - 1);
	return ((uint64_t)(SUB + sub) << (k - 1)) + width / 2;
}

/* Make room for octave @k: the range [lo, hi) grows to hold it. */
static int grow(struct hist *h, unsigned int k)
{
	unsigned int lo = h->hi > h->lo && h->lo < k ? h->lo : k;
	unsigned int hi = h->hi > h->lo && h->hi > k + 1 ? h->hi : k + 1;
	uint64_t *b = calloc((size_t)(hi - lo) * SUB, sizeof(*b));

	if (!b)
		return -ENOMEM;
	if (h->buckets)
		memcpy(b + (size_t)(h->lo - lo) * SUB, h->buckets,
		       (size_t)(h->hi - h->lo) * SUB * sizeof(*b));
	free(h->buckets);
	h->buckets = b;
	h->lo = lo;
	h->hi = hi;
	return 0;
}

static int bucket_add(struct hist *h, uint64_t v, uint64_t n)
{
	unsigned int sub, k = octave_of(v, &sub);

	if ((k < h->lo || k >= h->hi) && grow(h, k))
		return -ENOMEM;
	h->buckets[(size_t)(k - h->lo) * SUB + sub] += n;
	return 0;
}

/* Leave exact mode: the kept values go into buckets. */
static int to_buckets(struct hist *h, uint64_t kept)
{
	uint64_t i;

	h->bucketed = 1;
	for (i = 0; i < kept; i++)
		if (bucket_add(h, h->exact[i], 1))
			return -ENOMEM;
	free(h->exact);
	h->exact = NULL;
	return 0;
}

static void note(struct hist *h, uint64_t v, uint64_t n, uint64_t sum)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (!h->count || v > h->max)
		h->max = v;
	h->count += n;
	h->sum += sum;
}

int hist_add(struct hist *h, uint64_t v)
{
	uint64_t i;

	if (h->bucketed) {
		if (bucket_add(h, v, 1))
			return -ENOMEM;
	} else if (h->count < HIST_EXACT) {
		if (!h->exact) {
			h->exact = malloc(HIST_EXACT * sizeof(*h->exact));
			if (!h->exact)
				return -ENOMEM;
		}
		/* Insertion keeps them sorted: at most HIST_EXACT moves. */
		for (i = h->count; i > 0 && h->exact[i - 1] > v; i--)
			h->exact[i] = h->exact[i - 1];
		h->exact[i] = v;
	} else if (to_buckets(h, h->count) || bucket_add(h, v, 1)) {
		return -ENOMEM;
	}
	note(h, v, 1, v);
	return 0;
}

int hist_merge(struct hist *dst, const struct hist *src)
{
	uint64_t min = src->min, max = src->max, value, n;
	size_t pos = 0;

	if (!src->count)
		return 0;
	if (hist_is_exact(src)) {
		uint64_t i;

		for (i = 0; i < src->count; i++)
			if (hist_add(dst, src->exact[i]))
				return -ENOMEM;
		return 0;
	}
	if (!dst->bucketed && to_buckets(dst, dst->count))
		return -ENOMEM;
	while (hist_next(src, &pos, &value, &n))
		if (bucket_add(dst, value, n))
			return -ENOMEM;
	if (!dst->count || min < dst->min)
		dst->min = min;
	if (!dst->count || max > dst->max)
		dst->max = max;
	dst->count += src->count;
	dst->sum += src->sum;
	return 0;
}

/*
 * ceil(p/100 * count) with @p in tenths of a percent, in integers: in
 * floating point 99.9/100 * 1000 is 1000.0000000000001 and the rank one
 * too high whenever the count is a multiple of 1000.
 */
static uint64_t nearest_rank(double p, uint64_t count)
{
	uint64_t pm = p <= 0 ? 0 : p >= 100 ? 1000 : (uint64_t)llround(p * 10);

	return count / 1000 * pm + ((count % 1000) * pm + 999) / 1000;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, value, n;
	size_t pos = 0;

	if (!h->count)
		return 0;
	rank = nearest_rank(p, h->count);
	if (rank < 1)
		rank = 1;
	if (rank >= h->count)
		return h->max;
	if (hist_is_exact(h))
		return h->exact[rank - 1];
	while (hist_next(h, &pos, &value, &n)) {
		seen += n;
		if (seen >= rank)
			break;
	}
	/* A bucket's middle may lie outside what was seen. */
	return value < h->min ? h->min : value > h->max ? h->max : value;
}

int hist_next(const struct hist *h, size_t *pos, uint64_t *value, uint64_t *count)
{
	size_t i = *pos;

	if (hist_is_exact(h)) {
		if (i >= h->count)
			return 0;
		*value = h->exact[i];
		*count = 1;
		/* Equal values as one entry. */
		while (++i < h->count && h->exact[i] == *value)
			(*count)++;
		*pos = i;
		return 1;
	}
	for (; i < (size_t)(h->hi - h->lo) * SUB; i++) {
		if (h->buckets[i]) {
			*value = bucket_value(h->lo + i / SUB, i % SUB);
			*count = h->buckets[i];
			*pos = i + 1;
			return 1;
		}
	}
	*pos = i;
	return 0;
}

uint64_t hist_count_above(const struct hist *h, uint64_t v)
{
	uint64_t key = hist_key(v), value, n, above = 0;
	size_t pos = 0;

	while (hist_next(h, &pos, &value, &n))
		if (hist_key(value) > key)
			above += n;
	return above;
}
