// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/probe-values.h"
#include "util/array.h"

void probe_values_init(struct probe_values *pv, const struct probe_arg *spec)
{
	memset(pv, 0, sizeof(*pv));
	pv->spec = spec;
	u64_map_init(&pv->nums);
	str_intern_init(&pv->strs);
}

void probe_values_fini(struct probe_values *pv)
{
	u64_map_fini(&pv->nums);
	str_intern_fini(&pv->strs);
	free(pv->str_counts);
}

static int add_string(struct probe_values *pv, const char *s, uint32_t len)
{
	char *copy = strndup(s, len);
	uint32_t id;
	int is_new, ret;

	/* Room first: every interned string has its count. */
	if (!copy || array_reserve((void **)&pv->str_counts, &pv->str_cap, pv->strs.n,
				   sizeof(*pv->str_counts), 16)) {
		free(copy);
		return -ENOMEM;
	}
	ret = str_intern(&pv->strs, copy, &id, &is_new);
	free(copy);
	if (ret)
		return ret;
	if (is_new)
		pv->str_counts[id] = 0;
	pv->str_counts[id]++;
	return 0;
}

int probe_values_add(struct probe_values *pv, uint64_t v, const char *s, uint32_t len)
{
	uintptr_t had;
	int ret;

	if (s)
		ret = add_string(pv, s, len);
	else {
		had = (uintptr_t)u64_map_get(&pv->nums, v);
		ret = u64_map_put(&pv->nums, v, (void *)(had + 1));
	}
	if (!ret)
		pv->n++;
	return ret;
}

void probe_value_top(struct probe_value *top, unsigned int *ntop, uint64_t *other,
		     struct probe_value v)
{
	unsigned int i;

	if (*ntop == PROBE_VALUES_TOP && top[PROBE_VALUES_TOP - 1].count >= v.count) {
		*other += v.count;
		return;
	}
	if (*ntop == PROBE_VALUES_TOP) {
		*other += top[PROBE_VALUES_TOP - 1].count;
		(*ntop)--;
	}
	for (i = *ntop; i > 0 && top[i - 1].count < v.count; i--)
		top[i] = top[i - 1];
	top[i] = v;
	(*ntop)++;
}

/* A distinct number and its count, sorted as the type orders them. */
struct counted {
	int64_t key;		/* the value in the type's order (unsigned: as is) */
	uint64_t v, count;
};

static int cmp_signed(const void *x, const void *y)
{
	int64_t a = ((const struct counted *)x)->key, b = ((const struct counted *)y)->key;

	return a < b ? -1 : a > b;
}

static int cmp_unsigned(const void *x, const void *y)
{
	uint64_t a = ((const struct counted *)x)->v, b = ((const struct counted *)y)->v;

	return a < b ? -1 : a > b;
}

/* The value of nearest rank ceil(p/100 * n) (as hist_percentile()). */
static uint64_t rank(const struct counted *c, size_t nc, uint64_t n, unsigned int p)
{
	uint64_t k = (n * p + 99) / 100, seen = 0;
	size_t i;

	for (i = 0; i < nc; i++) {
		seen += c[i].count;
		if (seen >= k)
			return c[i].v;
	}
	return c[nc - 1].v;
}

static int numbers_derive(struct probe_values *pv)
{
	int is_signed = pv->spec->show == PROBE_SHOW_SIGNED;
	struct counted *c = NULL;
	size_t i = 0, nc = 0, cap = 0;
	uint64_t v;
	void *n;

	while (u64_map_next(&pv->nums, &i, &v, &n)) {
		if (array_reserve_n((void **)&c, &cap, nc, sizeof(*c), 64)) {
			free(c);
			return -ENOMEM;
		}
		c[nc++] = (struct counted){ is_signed ? probe_arg_signed(pv->spec, v) : 0, v,
					    (uintptr_t)n };
	}
	if (!nc)
		return 0;
	qsort(c, nc, sizeof(*c), is_signed ? cmp_signed : cmp_unsigned);
	pv->min = c[0].v;
	pv->max = c[nc - 1].v;
	pv->p50 = rank(c, nc, pv->n, 50);
	pv->p99 = rank(c, nc, pv->n, 99);
	/* In the type's order: among equal counts the smaller value first. */
	for (i = 0; i < nc; i++)
		probe_value_top(pv->top, &pv->ntop, &pv->other,
				(struct probe_value){ c[i].v, NULL, c[i].count });
	free(c);
	return 0;
}

static int by_bytes(const void *x, const void *y, void *arg)
{
	const struct str_intern *t = arg;

	return strcmp(str_intern_get(t, *(const uint32_t *)x), str_intern_get(t, *(const uint32_t *)y));
}

static int strings_derive(struct probe_values *pv)
{
	uint32_t *ids = malloc((pv->strs.n ? pv->strs.n : 1) * sizeof(*ids)), i;

	if (!ids)
		return -ENOMEM;
	for (i = 0; i < pv->strs.n; i++)
		ids[i] = i;
	qsort_r(ids, pv->strs.n, sizeof(*ids), by_bytes, &pv->strs);
	/* In byte order: among equal counts the first in byte order first. */
	for (i = 0; i < pv->strs.n; i++)
		probe_value_top(pv->top, &pv->ntop, &pv->other,
				(struct probe_value){ 0, str_intern_get(&pv->strs, ids[i]),
						      pv->str_counts[ids[i]] });
	free(ids);
	return 0;
}

int probe_values_derive(struct probe_values *pv)
{
	pv->ntop = 0;
	pv->other = 0;
	return pv->spec->show == PROBE_SHOW_STRING ? strings_derive(pv) : numbers_derive(pv);
}

const char *probe_value_str(const struct probe_arg *spec, uint64_t v, char *buf, size_t len)
{
	if (spec->show == PROBE_SHOW_SIGNED)
		snprintf(buf, len, "%" PRId64, probe_arg_signed(spec, v));
	else if (spec->show == PROBE_SHOW_HEX)
		snprintf(buf, len, "0x%" PRIx64, v);
	else
		snprintf(buf, len, "%" PRIu64, v);
	return buf;
}

const char *probe_value_type(const struct probe_arg *spec)
{
	static const char *const names[] = {
		[PROBE_SHOW_UNSIGNED] = "unsigned",
		[PROBE_SHOW_SIGNED] = "signed",
		[PROBE_SHOW_HEX] = "hex",
		[PROBE_SHOW_STRING] = "string",
	};

	return spec->show <= PROBE_SHOW_STRING ? names[spec->show] : "unsigned";
}
