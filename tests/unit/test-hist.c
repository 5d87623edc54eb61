// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>

#include "report/hist.h"
#include "unit.h"

/* Nearest rank on a few values: exact, every percentile by hand. */
UNIT_TEST(exact_nearest_rank)
{
	static const uint64_t v[] = { 500, 100, 400, 200, 300 };
	struct hist h;
	unsigned int i;

	hist_init(&h);
	for (i = 0; i < 5; i++)
		CHECK_EQ(hist_add(&h, v[i]), 0);
	CHECK(hist_is_exact(&h));
	CHECK_EQ(h.count, 5);
	CHECK_EQ(h.min, 100);
	CHECK_EQ(h.max, 500);
	CHECK_EQ(h.sum, 1500);
	/* rank ceil(p/100 * 5): p50 -> 3, p90 -> 5, p20 -> 1, p40 -> 2 */
	CHECK_EQ(hist_percentile(&h, 50), 300);
	CHECK_EQ(hist_percentile(&h, 90), 500);
	CHECK_EQ(hist_percentile(&h, 20), 100);
	CHECK_EQ(hist_percentile(&h, 40), 200);
	CHECK_EQ(hist_percentile(&h, 100), 500);
	hist_fini(&h);
	CHECK_EQ(hist_percentile(&h, 50), 0);
}

/* Past HIST_EXACT: every percentile within 1/128 of the true one. */
UNIT_TEST(buckets_error_bound)
{
	struct hist h;
	uint64_t i, n = 100000;
	double ps[] = { 1, 10, 50, 90, 99, 99.9 };
	unsigned int k;

	hist_init(&h);
	for (i = 1; i <= n; i++)
		CHECK_EQ(hist_add(&h, i * 37), 0);
	CHECK(!hist_is_exact(&h));
	CHECK_EQ(h.count, n);
	CHECK_EQ(h.min, 37);
	CHECK_EQ(h.max, n * 37);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		/* The value of rank ceil(p/100 n) is that rank times 37. */
		double want = (double)((llround(ps[k] * 10) * n + 999) / 1000) * 37;
		double got = hist_percentile(&h, ps[k]);

		if (fabs(got - want) / want > HIST_MAX_ERROR)
			UNIT_FAIL("p%g: %.0f, want %.0f within %g", ps[k], got, want,
				  HIST_MAX_ERROR);
	}
	hist_fini(&h);
}

/*
 * A count that is a multiple of 1000: 999 values of 100 us and one of 50 ms.
 * p99.9 is rank 999 (100 us), though 99.9/100 * 1000 in doubles is above
 * 999 and its ceiling 1000 would name the 50 ms.
 */
UNIT_TEST(rank_of_multiple_of_1000)
{
	struct hist h;
	unsigned int i;

	hist_init(&h);
	for (i = 0; i < 999; i++)
		CHECK_EQ(hist_add(&h, 100000), 0);
	CHECK_EQ(hist_add(&h, 50000000), 0);
	CHECK_EQ(hist_percentile(&h, 99.9), 100000);
	CHECK_EQ(hist_percentile(&h, 100), 50000000);
	hist_fini(&h);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * Random distributions, a tenth with counts that are multiples of 1000:
 * p50, p90, p99 and p99.9 stay within 1/128 of the exact nearest rank.
 */
UNIT_TEST(random_error_bound)
{
	static const unsigned int pm[] = { 500, 900, 990, 999 };
	unsigned int trial, k;
	uint64_t *v;

	srand48(42);
	v = malloc(5000 * sizeof(*v));
	CHECK(v != NULL);
	for (trial = 0; trial < 600; trial++) {
		size_t i, n = trial % 10 ? 65 + lrand48() % 4900 : 1000 * (1 + lrand48() % 5);
		struct hist h;

		hist_init(&h);
		for (i = 0; i < n; i++) {
			v[i] = (uint64_t)exp(drand48() * 20) + 1;
			CHECK_EQ(hist_add(&h, v[i]), 0);
		}
		qsort(v, n, sizeof(*v), cmp_u64);
		for (k = 0; k < 4; k++) {
			uint64_t want = v[(pm[k] * n + 999) / 1000 - 1];
			uint64_t got = hist_percentile(&h, pm[k] / 10.0);

			if (fabs((double)got - want) / want > HIST_MAX_ERROR)
				UNIT_FAIL("n %zu p%g: %llu, want %llu", n, pm[k] / 10.0,
					  (unsigned long long)got, (unsigned long long)want);
		}
		hist_fini(&h);
	}
	free(v);
}

/* Small values (below 64) stay exact in buckets too. */
UNIT_TEST(small_values_exact)
{
	struct hist h;
	unsigned int i;

	hist_init(&h);
	for (i = 0; i < 1000; i++)
		CHECK_EQ(hist_add(&h, i % 10), 0);
	/* 100 of each 0..9: rank 500 is the 500th value, 4. */
	CHECK_EQ(hist_percentile(&h, 50), 4);
	CHECK_EQ(hist_percentile(&h, 99), 9);
	hist_fini(&h);
}

/* A merge equals adding the values to one distribution. */
UNIT_TEST(merge)
{
	struct hist a, b, all;
	uint64_t i;

	hist_init(&a);
	hist_init(&b);
	hist_init(&all);
	for (i = 0; i < 300; i++) {
		hist_add(i % 2 ? &a : &b, 1000 + i * 11);
		hist_add(&all, 1000 + i * 11);
	}
	CHECK_EQ(hist_merge(&a, &b), 0);
	CHECK_EQ(a.count, all.count);
	CHECK_EQ(a.sum, all.sum);
	CHECK_EQ(a.min, all.min);
	CHECK_EQ(a.max, all.max);
	CHECK_EQ(hist_percentile(&a, 50), hist_percentile(&all, 50));
	CHECK_EQ(hist_percentile(&a, 99), hist_percentile(&all, 99));
	/* Exact into exact stays exact while it fits. */
	hist_fini(&b);
	hist_init(&b);
	hist_add(&b, 7);
	hist_fini(&all);
	hist_init(&all);
	hist_add(&all, 3);
	CHECK_EQ(hist_merge(&all, &b), 0);
	CHECK(hist_is_exact(&all));
	CHECK_EQ(all.count, 2);
	CHECK_EQ(hist_percentile(&all, 100), 7);
	hist_fini(&a);
	hist_fini(&b);
	hist_fini(&all);
}

/* The walk gives every value once, ascending, with counts summing to count. */
UNIT_TEST(walk)
{
	uint64_t value, count, total = 0, last = 0;
	size_t pos = 0;
	struct hist h;
	unsigned int i;

	hist_init(&h);
	for (i = 0; i < 5000; i++)
		hist_add(&h, (i * 7919) % 100000);
	while (hist_next(&h, &pos, &value, &count)) {
		CHECK(value >= last);
		last = value;
		total += count;
	}
	CHECK_EQ(total, 5000);
	hist_fini(&h);
}

UNIT_MAIN()
