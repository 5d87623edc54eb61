/* SPDX-License-Identifier: GPL-2.0 */
/* Parsing of durations ("500ms", "2s", "1m") and sizes ("256K", "4M"). */
#ifndef KTPROF_UNITS_H
#define KTPROF_UNITS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a duration: a decimal number with a unit ns, us, ms, s, m or h (a
 * bare number is seconds). Returns 0 and stores nanoseconds, or -EINVAL.
 */
int units_parse_duration(const char *s, uint64_t *ns);

/* As units_parse_duration(), but the unit is required: "5" is refused. */
int units_parse_time(const char *s, uint64_t *ns);

/*
 * Parse a byte size: a number with an optional K, M or G suffix (powers of
 * 1024, an optional trailing 'B' or 'iB'). Returns 0 or -EINVAL/-ERANGE.
 */
int units_parse_size(const char *s, uint64_t *bytes);

/* "12.3 ms", "850 ns", "1.234 s": three significant digits and a unit, in @buf. */
const char *units_fmt_ns(uint64_t ns, char *buf, size_t len);

#endif
