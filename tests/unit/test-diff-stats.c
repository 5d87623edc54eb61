// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of `ktprof diff` beside Mann-Whitney: Fisher's exact test,
 * the Benjamini-Hochberg q-values and the tail test. The reference values
 * were computed with exact rational arithmetic (Python's fractions and
 * math.comb), summing every table no likelier than the observed one.
 */
#include <math.h>
#include <stdlib.h>

#include "report/fdr.h"
#include "report/fisher.h"
#include "report/tail-test.h"
#include "unit.h"

#define NEAR(a, b, rel) (fabs((a) - (b)) <= (rel) * fabs(b))

UNIT_TEST(fisher_known_answers)
{
	/* Fisher's lady tasting tea: [[3, 1], [1, 3]], two-sided 0.4857. */
	CHECK(NEAR(fisher_exact_p(3, 4, 1, 4), 0.4857142857142857, 1e-9));
	/* No tail in A, 20 of 1000 values above it in B. */
	CHECK(NEAR(fisher_exact_p(0, 1000, 20, 1000), 1.732866917218252e-06, 1e-6));
	CHECK(NEAR(fisher_exact_p(10, 1000, 25, 1000), 0.015749705522146423, 1e-6));
	CHECK(NEAR(fisher_exact_p(5, 20, 1, 20), 0.18176418176418177, 1e-9));
	/* The likeliest table, and the degenerate ones. */
	CHECK(NEAR(fisher_exact_p(10, 1000, 10, 1000), 1.0, 1e-9));
	CHECK(NEAR(fisher_exact_p(1, 100, 0, 100), 1.0, 1e-9));
	CHECK(fisher_exact_p(0, 100, 0, 100) == 1);
	CHECK(fisher_exact_p(100, 100, 100, 100) == 1);
	CHECK(fisher_exact_p(1, 0, 1, 5) == 1);
	/* Far in the tail of a large table: tiny, never negative or NaN. */
	{
		double p = fisher_exact_p(0, 10000000, 5000, 10000000);

		CHECK(p >= 0 && p < 1e-100);
	}
}

/*
 * p = 0.01 0.04 0.03 0.5 (n 4). Sorted: 0.01 0.03 0.04 0.5; p n / rank:
 * 0.04 0.06 0.0533 0.5; running minimum from the top: 0.04 0.0533 0.0533
 * 0.5. Back in the input order: 0.04 0.0533 0.0533 0.5.
 */
UNIT_TEST(fdr_by_hand)
{
	static const double p[] = { 0.01, 0.04, 0.03, 0.5 };
	double q[4];

	CHECK_EQ(fdr_adjust(p, 4, q), 0);
	CHECK(NEAR(q[0], 0.04, 1e-12));
	CHECK(NEAR(q[1], 0.16 / 3, 1e-12));
	CHECK(NEAR(q[2], 0.16 / 3, 1e-12));
	CHECK(NEAR(q[3], 0.5, 1e-12));
	CHECK_EQ(fdr_adjust(p, 0, q), 0);
}

/* Under the null, q < 0.01 for some of 300 uniform p-values about 1% of the time. */
UNIT_TEST(fdr_null_calls_little)
{
	double p[300], q[300];
	unsigned int trial, i, any = 0;

	srand48(7);
	for (trial = 0; trial < 1000; trial++) {
		for (i = 0; i < 300; i++)
			p[i] = drand48();
		CHECK_EQ(fdr_adjust(p, 300, q), 0);
		for (i = 0; i < 300 && q[i] >= 0.01; i++)
			;
		any += i < 300;
	}
	/* Binomial(1000, 0.01): mean 10, sd 3.1; 25 is beyond 4.7 sd. */
	if (any > 25)
		UNIT_FAIL("%u of 1000 null families had a call", any);
}

/*
 * A: 1000 values of 100 us. B: 980 of 100 us and 20 of 50 ms. A's p99 is
 * 100 us with nothing above it; 20 of B's lie above: p as in
 * fisher_known_answers, effect +1. At p99.9 too.
 */
UNIT_TEST(tail_only_change)
{
	struct hist a, b;
	struct tail_test t;
	unsigned int i;

	hist_init(&a);
	hist_init(&b);
	for (i = 0; i < 1000; i++) {
		CHECK_EQ(hist_add(&a, 100000), 0);
		CHECK_EQ(hist_add(&b, i < 980 ? 100000 : 50000000), 0);
	}
	CHECK_EQ(tail_test(&a, &b, 990, &t), 0);
	CHECK_EQ(t.threshold, 100000);
	CHECK_EQ(t.k1, 0);
	CHECK_EQ(t.k2, 20);
	CHECK(NEAR(t.share2, 0.02, 1e-12));
	CHECK(NEAR(t.effect, 1.0, 1e-12));
	CHECK(NEAR(t.p, 1.732866917218252e-06, 1e-6));
	CHECK_EQ(tail_test(&a, &b, 999, &t), 0);
	CHECK_EQ(t.k2, 20);
	/* The other way round: the tail went away. */
	CHECK_EQ(tail_test(&b, &a, 990, &t), 0);
	CHECK_EQ(t.threshold, 50000000);
	CHECK_EQ(t.k1, 0);
	CHECK_EQ(t.k2, 0);
	CHECK(t.p == 1);
	CHECK_EQ(tail_test_min_count(990), 100);
	CHECK_EQ(tail_test_min_count(999), 1000);
	hist_fini(&a);
	hist_fini(&b);
}

/* 1..1000 against itself: A's p99 is 990, 10 values above it on each side. */
UNIT_TEST(tail_same)
{
	struct hist a;
	struct tail_test t;
	unsigned int i;

	hist_init(&a);
	for (i = 1; i <= 1000; i++)
		CHECK_EQ(hist_add(&a, i * 1000), 0);
	CHECK_EQ(tail_test(&a, &a, 990, &t), 0);
	CHECK_EQ(t.k1, t.k2);
	CHECK(t.k1 >= 9 && t.k1 <= 10);
	CHECK(t.effect == 0);
	CHECK(NEAR(t.p, 1.0, 1e-9));
	hist_fini(&a);
}

UNIT_MAIN()
