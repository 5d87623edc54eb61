// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>

#include "report/mann-whitney.h"
#include "unit.h"

static void fill(struct hist *h, const uint64_t *v, unsigned int n)
{
	unsigned int i;

	hist_init(h);
	for (i = 0; i < n; i++)
		hist_add(h, v[i]);
}

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

/*
 * A = 1 2 3 4 5, B = 3 4 6 7 8 9. Ranks of all 11: 1 2 (3 3) (4 4) 5 6 7 8
 * 9 -> 1 2 3.5 3.5 5.5 5.5 7 8 9 10 11. B's rank sum 3.5 + 5.5 + 8 + 9 + 10
 * + 11 = 47, U_B = 47 - 6*7/2 = 26 of n1 n2 = 30: effect 2*26/30 - 1 =
 * 0.7333. Two ties of 2: variance 30/12 (12 - 12/110) = 29.7273; z =
 * (26 - 15 - 0.5) / sqrt(29.7273) = 1.9258; p = erfc(z / sqrt 2) = 0.0541.
 */
UNIT_TEST(by_hand)
{
	static const uint64_t a[] = { 1, 2, 3, 4, 5 }, b[] = { 3, 4, 6, 7, 8, 9 };
	struct mann_whitney m;
	struct hist ha, hb;

	fill(&ha, a, 5);
	fill(&hb, b, 6);
	CHECK_EQ(mann_whitney(&ha, &hb, &m), 0);
	CHECK_EQ(m.n1, 5);
	CHECK_EQ(m.n2, 6);
	CHECK(NEAR(m.u, 26, 1e-9));
	CHECK(NEAR(m.effect, 0.733333, 1e-5));
	CHECK(NEAR(m.z, 1.925803, 1e-5));
	CHECK(NEAR(m.p, 0.054129, 1e-5));
	hist_fini(&ha);
	hist_fini(&hb);
}

/* The same values both sides: no difference at all. */
UNIT_TEST(identical)
{
	struct mann_whitney m;
	struct hist ha, hb;
	uint64_t i;

	hist_init(&ha);
	hist_init(&hb);
	for (i = 0; i < 10000; i++) {
		hist_add(&ha, 1000 + i * 13 % 5000);
		hist_add(&hb, 1000 + i * 13 % 5000);
	}
	CHECK_EQ(mann_whitney(&ha, &hb, &m), 0);
	CHECK(NEAR(m.effect, 0, 1e-12));
	CHECK(m.p > 0.99);
	hist_fini(&ha);
	hist_fini(&hb);
}

/* Every B above every A (bucketed): effect 1, p tiny; swapped: effect -1. */
UNIT_TEST(separated)
{
	struct mann_whitney m;
	struct hist ha, hb;
	uint64_t i;

	hist_init(&ha);
	hist_init(&hb);
	for (i = 0; i < 500; i++) {
		hist_add(&ha, 10000 + i);
		hist_add(&hb, 50000 + i);
	}
	CHECK_EQ(mann_whitney(&ha, &hb, &m), 0);
	CHECK(NEAR(m.effect, 1, 1e-12));
	CHECK(m.p < 1e-10);
	CHECK_EQ(mann_whitney(&hb, &ha, &m), 0);
	CHECK(NEAR(m.effect, -1, 1e-12));
	hist_fini(&hb);
	hist_init(&hb);
	CHECK_EQ(mann_whitney(&ha, &hb, &m), -EINVAL);
	hist_fini(&ha);
}

UNIT_MAIN()
