/* SPDX-License-Identifier: GPL-2.0 */
/* The CPU profile section of a report, over profile.c. */
#ifndef KTPROF_ANALYZE_PROFILE_H
#define KTPROF_ANALYZE_PROFILE_H

#include "report/profile.h"
#include "report/report.h"

/* The report's profile; NULL when it has none (no samples, or --profile not asked). */
const struct profile *analyze_profile(const struct report *r);

extern const struct analyzer analyzer_profile;

#endif
