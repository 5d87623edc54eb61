/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fisher's exact test on a 2x2 table: @k1 of @n1 values of A and @k2 of
 * @n2 of B have a property (here: lie above a threshold). Under the null
 * hypothesis (both share one rate) the count of A among the k1 + k2 is
 * hypergeometric; the two-sided p-value sums the probabilities of the
 * tables no likelier than the one observed (R's fisher.test).
 *
 * Why this test: tail counts are small (1% of a thousand values is ten),
 * where a normal approximation to two proportions is wrong; the exact
 * test is right at any count and costs O(sqrt(k1 + k2)) terms, summed
 * outward from the mode by the ratio of neighbouring probabilities.
 */
#ifndef KTPROF_FISHER_H
#define KTPROF_FISHER_H

#include <stdint.h>

/* The two-sided p-value; 1 when either side is empty or the property is in all or none. */
double fisher_exact_p(uint64_t k1, uint64_t n1, uint64_t k2, uint64_t n2);

#endif
