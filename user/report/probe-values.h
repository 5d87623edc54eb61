/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One probe argument's values (report --probes): each distinct value
 * counted, so that memory follows the distinct values, not the hits; after
 * the pass, for numbers the minimum, p50, p99 and maximum by nearest rank
 * in the order of the argument's type (s-types as signed numbers of their
 * width), and for every type the most frequent values.
 */
#ifndef KTPROF_PROBE_VALUES_H
#define KTPROF_PROBE_VALUES_H

#include <stddef.h>
#include <stdint.h>

#include "decode/probe-spec.h"
#include "util/str-intern.h"
#include "util/u64-map.h"

#define PROBE_VALUES_TOP 10	/* values listed, the rest summed */

/* One of the most frequent values (or, for its callers, a busiest pid). */
struct probe_value {
	uint64_t v;		/* a number (as the module kept it), or an id */
	const char *s;		/* a string's value, else NULL */
	uint64_t count;
};

struct probe_values {
	const struct probe_arg *spec;
	uint64_t n;		/* values in the window */
	struct u64_map nums;	/* number -> count */
	struct str_intern strs;	/* strings, each once */
	uint64_t *str_counts;	/* by the string's id */
	uint32_t str_cap;
	/* After probe_values_derive(): numbers only (n > 0). */
	uint64_t min, p50, p99, max;
	struct probe_value top[PROBE_VALUES_TOP];
	unsigned int ntop;
	uint64_t other;		/* values not in top[] */
};

void probe_values_init(struct probe_values *pv, const struct probe_arg *spec);
void probe_values_fini(struct probe_values *pv);

/* A value: the number @v, or the string of @len bytes at @s. 0 or -ENOMEM. */
int probe_values_add(struct probe_values *pv, uint64_t v, const char *s, uint32_t len);

/* The figures, after the pass. 0 or -ENOMEM. */
int probe_values_derive(struct probe_values *pv);

/*
 * Keep @v among the PROBE_VALUES_TOP largest counts of @top, the rest's
 * count in *@other; equal counts keep the order they came in.
 */
void probe_value_top(struct probe_value *top, unsigned int *ntop, uint64_t *other,
		     struct probe_value v);

/* Number @v as @spec's type shows it: "-2", "0x1f", "17". */
const char *probe_value_str(const struct probe_arg *spec, uint64_t v, char *buf, size_t len);

/* "unsigned", "signed", "hex" or "string". */
const char *probe_value_type(const struct probe_arg *spec);

#endif
