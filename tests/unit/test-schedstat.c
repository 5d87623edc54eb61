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

UNIT_MAIN()
