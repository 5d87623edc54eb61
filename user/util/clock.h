/* SPDX-License-Identifier: GPL-2.0 */
/* The time now on a clock, in nanoseconds: the one helper for it. */
#ifndef KTPROF_CLOCK_H
#define KTPROF_CLOCK_H

#include <stdint.h>
#include <time.h>

/* @clk: CLOCK_BOOTTIME (the records' clock), CLOCK_MONOTONIC, CLOCK_REALTIME. */
static inline uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

#endif
