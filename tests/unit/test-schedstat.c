// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "capture/schedstat.h"
#include "unit.h"

/* Version 16, as Debian's 6.12 prints it: two CPUs, a domain line each. */
static const char sample[] =
	"version 16\n"
	"timestamp 4294893066\n"
	"cpu0 1 0 2 3 4 5 1341992187 254924969 1163\n"
	"domain0 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n"
	"cpu1 0 0 7 1 9 2 100 200 3\n"
	"domain0 3 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";

UNIT_TEST(parse)
{
	struct schedstat s;
	const struct schedstat_cpu *c;

	CHECK_EQ(schedstat_parse(sample, &s), 0);
	CHECK_EQ(s.version, 16);
	CHECK_EQ(s.nr_cpus, 2);
	c = schedstat_cpu(&s, 1);
	CHECK(c != NULL);
	if (c) {
		CHECK_EQ(c->v[SCHEDSTAT_SCHED_COUNT], 7);
		CHECK_EQ(c->v[SCHEDSTAT_TTWU_COUNT], 9);
		CHECK_EQ(c->v[SCHEDSTAT_DELAY_NS], 200);
		CHECK_EQ(c->v[SCHEDSTAT_TIMESLICES], 3);
	}
	CHECK_EQ(schedstat_cpu(&s, 0)->v[SCHEDSTAT_RUN_NS], 1341992187);
	CHECK(schedstat_cpu(&s, 2) == NULL);
	schedstat_free(&s);
}

UNIT_TEST(rejects)
{
	struct schedstat s;

	/* Not schedstat; a CPU line cut short is left out. */
	CHECK_EQ(schedstat_parse("cpu0 1 2 3\n", &s), -EINVAL);
	CHECK_EQ(schedstat_parse("version 15\ncpu0 1 2 3\ncpuX 1\n", &s), 0);
	CHECK_EQ(s.nr_cpus, 0);
	schedstat_free(&s);
}

/*
 * Domain lines of each version, by hand: per idle type the kernel's columns
 * in its enum's order (15: IDLE, NOT_IDLE, NEWLY_IDLE; 16, 17: NOT_IDLE,
 * IDLE, NEWLY_IDLE), 8 columns (17: 11, the imbalance in four), then 12.
 * Type t's column c is 100 * (t + 1) + c; the last twelve are 1..12.
 */
static void check_domain(const struct schedstat_domain *d, const enum schedstat_idle *order,
			 int ncols)
{
	int t;

	CHECK(d != NULL);
	if (!d)
		return;
	for (t = 0; t < 3; t++) {
		const uint64_t *lb = d->lb[order[t]];
		int base = 100 * (t + 1);

		CHECK_EQ(lb[SCHEDSTAT_LB_COUNT], base + 0);
		CHECK_EQ(lb[SCHEDSTAT_LB_BALANCED], base + 1);
		CHECK_EQ(lb[SCHEDSTAT_LB_FAILED], base + 2);
		CHECK_EQ(lb[SCHEDSTAT_LB_GAINED], base + ncols - 4);
		CHECK_EQ(lb[SCHEDSTAT_LB_HOT_GAINED], base + ncols - 3);
		CHECK_EQ(lb[SCHEDSTAT_LB_NOBUSYQ], base + ncols - 2);
		CHECK_EQ(lb[SCHEDSTAT_LB_NOBUSYG], base + ncols - 1);
	}
	CHECK_EQ(d->v[SCHEDSTAT_ALB_COUNT], 1);
	CHECK_EQ(d->v[SCHEDSTAT_ALB_PUSHED], 3);
	CHECK_EQ(d->v[SCHEDSTAT_TTWU_WAKE_REMOTE], 10);
	CHECK_EQ(d->v[SCHEDSTAT_TTWU_MOVE_AFFINE], 11);
	CHECK_EQ(d->v[SCHEDSTAT_TTWU_MOVE_BALANCE], 12);
}

static void domain_text(char *buf, size_t len, int version, const char *head, int ncols)
{
	size_t n = snprintf(buf, len, "version %d\ntimestamp 1\ncpu3 1 0 2 3 4 5 6 7 8\n%s",
			    version, head);
	int t, c;

	for (t = 0; t < 3; t++)
		for (c = 0; c < ncols; c++)
			n += snprintf(buf + n, len - n, " %d", 100 * (t + 1) + c);
	for (c = 1; c <= 12; c++)
		n += snprintf(buf + n, len - n, " %d", c);
	snprintf(buf + n, len - n, "\n");
}

UNIT_TEST(domains)
{
	static const enum schedstat_idle v15[] = { SCHEDSTAT_IDLE, SCHEDSTAT_BUSY,
						   SCHEDSTAT_NEWIDLE };
	static const enum schedstat_idle v16[] = { SCHEDSTAT_BUSY, SCHEDSTAT_IDLE,
						   SCHEDSTAT_NEWIDLE };
	struct schedstat s;
	char text[1024];

	domain_text(text, sizeof(text), 15, "domain1 0f", 8);
	CHECK_EQ(schedstat_parse(text, &s), 0);
	CHECK_EQ(s.nr_domains, 1);
	check_domain(schedstat_domain(&s, 3, 1), v15, 8);
	CHECK(schedstat_domain(&s, 3, 0) == NULL);
	schedstat_free(&s);

	domain_text(text, sizeof(text), 16, "domain0 ff,ffffffff", 8);
	CHECK_EQ(schedstat_parse(text, &s), 0);
	check_domain(schedstat_domain(&s, 3, 0), v16, 8);
	CHECK_STR(schedstat_domain(&s, 3, 0)->name, "");
	schedstat_free(&s);

	domain_text(text, sizeof(text), 17, "domain0 MC 03", 11);
	CHECK_EQ(schedstat_parse(text, &s), 0);
	check_domain(schedstat_domain(&s, 3, 0), v16, 11);
	CHECK_STR(schedstat_domain(&s, 3, 0)->name, "MC");
	schedstat_free(&s);

	/* A line cut short, one of version 16 read as 17, one before any CPU: left out. */
	domain_text(text, sizeof(text), 17, "domain0 03", 11);
	CHECK_EQ(schedstat_parse(text, &s), 0);
	CHECK_EQ(s.nr_domains, 0);
	schedstat_free(&s);
	CHECK_EQ(schedstat_parse("version 16\ndomain0 3 1 2\ncpu0 1 0 2 3 4 5 6 7 8\n"
				 "domain0 3 1 2\n", &s), 0);
	CHECK_EQ(s.nr_cpus, 1);
	CHECK_EQ(s.nr_domains, 0);
	schedstat_free(&s);
}

UNIT_MAIN()
