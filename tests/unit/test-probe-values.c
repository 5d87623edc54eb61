// SPDX-License-Identifier: GPL-2.0
/*
 * An argument's values (report/probe-values.h): percentiles by nearest
 * rank over the distinct values and their counts, in the type's order;
 * the most frequent values with ties broken by that order; the rest
 * counted.
 */
#include "report/probe-values.h"
#include "unit.h"

static void arg_of(struct probe_arg *a, const char *type)
{
	struct probe_spec p;
	struct error err;
	char text[64];

	snprintf(text, sizeof(text), "k:f v=arg1:%s", type);
	if (probe_spec_parse(text, &p, &err))
		UNIT_FAIL("%s: %s", text, error_msg(&err));
	*a = p.args[0];
}

static void add_all(struct probe_values *pv, const uint64_t *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		CHECK_EQ(probe_values_add(pv, v[i], NULL, 0), 0);
	CHECK_EQ(probe_values_derive(pv), 0);
}

/* Each case: values as the module keeps them, and the figures as shown. */
UNIT_TEST(numbers)
{
	static const struct {
		const char *type;
		uint64_t v[12];
		size_t n;
		const char *min, *p50, *p99, *max, *top;
	} cases[] = {
		/* s32 kept masked: 0xfffffffe is -2, the smallest. */
		{ "s32", { 3, 3, 0xfffffffe, 4 }, 4, "-2", "3", "4", "4", "3:2 -2:1 4:1" },
		{ "u32", { 3, 3, 0xfffffffe, 4 }, 4, "3", "3", "4294967294", "4294967294",
		  "3:2 4:1 4294967294:1" },
		{ "x8", { 0x10, 0xff, 0x10 }, 3, "0x10", "0x10", "0xff", "0xff", "0x10:2 0xff:1" },
		/* rank ceil(0.5 * 9) = 5, ceil(0.99 * 9) = 9 */
		{ "u64", { 1, 1, 1, 1, 2, 2, 3, 5, 5 }, 9, "1", "2", "5", "5", "1:4 2:2 5:2 3:1" },
		{ "s8", { 0x80, 0x7f, 0xff, 0 }, 4, "-128", "-1", "127", "127",
		  "-128:1 -1:1 0:1 127:1" },
		/* 12 distinct values: the 10 smallest listed, the other 2 counted. */
		{ "u8", { 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 }, 12, "1", "6", "12", "12",
		  "1:1 2:1 3:1 4:1 5:1 6:1 7:1 8:1 9:1 10:1" },
	};
	char buf[256], b[40];
	struct probe_values pv;
	struct probe_arg a;
	size_t i, n;
	unsigned int k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		arg_of(&a, cases[i].type);
		probe_values_init(&pv, &a);
		add_all(&pv, cases[i].v, cases[i].n);
		CHECK_EQ(pv.n, cases[i].n);
		CHECK_STR(probe_value_str(&a, pv.min, b, sizeof(b)), cases[i].min);
		CHECK_STR(probe_value_str(&a, pv.p50, b, sizeof(b)), cases[i].p50);
		CHECK_STR(probe_value_str(&a, pv.p99, b, sizeof(b)), cases[i].p99);
		CHECK_STR(probe_value_str(&a, pv.max, b, sizeof(b)), cases[i].max);
		for (k = 0, n = 0, buf[0] = '\0'; k < pv.ntop; k++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s:%" PRIu64, k ? " " : "",
				      probe_value_str(&a, pv.top[k].v, b, sizeof(b)), pv.top[k].count);
		CHECK_STR(buf, cases[i].top);
		CHECK_EQ(pv.other, cases[i].n == 12 ? 2 : 0);
		probe_values_fini(&pv);
	}
}

UNIT_TEST(strings)
{
	static const char *const in[] = { "odd", "even", "odd", "", "zz", "odd", "" };
	struct probe_values pv;
	struct probe_arg a;
	size_t i;

	arg_of(&a, "str");
	probe_values_init(&pv, &a);
	for (i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		CHECK_EQ(probe_values_add(&pv, 0, in[i], strlen(in[i])), 0);
	/* Not NUL-terminated: only @len bytes are the value. */
	CHECK_EQ(probe_values_add(&pv, 0, "zzz", 2), 0);
	CHECK_EQ(probe_values_derive(&pv), 0);
	CHECK_EQ(pv.n, 8);
	CHECK_EQ(pv.ntop, 4);
	if (pv.ntop == 4) {
		CHECK_STR(pv.top[0].s, "odd");
		CHECK_EQ(pv.top[0].count, 3);
		CHECK_STR(pv.top[1].s, "");	/* ties: byte order */
		CHECK_EQ(pv.top[1].count, 2);
		CHECK_STR(pv.top[2].s, "zz");
		CHECK_EQ(pv.top[2].count, 2);
		CHECK_STR(pv.top[3].s, "even");
	}
	CHECK_STR(probe_value_type(&a), "string");
	probe_values_fini(&pv);
}

UNIT_TEST(nothing)
{
	struct probe_values pv;
	struct probe_arg a;

	arg_of(&a, "s64");
	probe_values_init(&pv, &a);
	CHECK_EQ(probe_values_derive(&pv), 0);
	CHECK_EQ(pv.n, 0);
	CHECK_EQ(pv.ntop, 0);
	CHECK_STR(probe_value_type(&a), "signed");
	probe_values_fini(&pv);
}

UNIT_MAIN()
