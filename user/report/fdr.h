/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The false discovery rate over many tests (Benjamini and Hochberg, 1995):
 * each p-value becomes a q-value, the smallest false discovery rate at
 * which its test would be called significant. Calling every test with
 * q < alpha significant keeps the expected share of false calls among
 * them at alpha or below (for independent or positively dependent tests,
 * as the same change seen in a thread, its process and the machine are);
 * when nothing changed at all, the chance of any call is at most alpha.
 *
 * Why: a diff runs hundreds of tests, and at alpha = 0.01 each, two
 * captures of one workload would show a few "significant" changes.
 */
#ifndef KTPROF_FDR_H
#define KTPROF_FDR_H

#include <stddef.h>

/* The q-values of @n p-values: q[i] for p[i]. 0 or -ENOMEM. */
int fdr_adjust(const double *p, size_t n, double *q);

#endif
