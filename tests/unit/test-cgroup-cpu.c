// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture/cgroup-cpu.h"
#include "unit.h"

/* Ids in no order, a repeated id (the first line wins), a key not known. */
UNIT_TEST(parse)
{
	static const char text[] =
		"4127 usage_usec=99 nr_periods=7 nr_throttled=2 throttled_usec=1500\n"
		"1 usage_usec=123456789 core_sched.force_idle_usec=5\n"
		"4127 usage_usec=1\n"
		"18446744073709551615 usage_usec=18446744073709551615\n"
		"8\n";
	const struct cgroup_cpu *c;
	struct cgroup_cpu_table t;

	CHECK_EQ(cgroup_cpu_parse(text, &t), 0);
	CHECK_EQ(t.nr, 4);
	c = cgroup_cpu_find(&t, 4127);
	CHECK(c && c->usage_us == 99 && c->nr_periods == 7 && c->nr_throttled == 2 &&
	      c->throttled_us == 1500 && c->has == (CGROUP_CPU_USAGE | CGROUP_CPU_BANDWIDTH));
	c = cgroup_cpu_find(&t, 1);
	CHECK(c && c->usage_us == 123456789 && c->has == CGROUP_CPU_USAGE);
	c = cgroup_cpu_find(&t, UINT64_MAX);
	CHECK(c && c->usage_us == UINT64_MAX);
	c = cgroup_cpu_find(&t, 8);
	CHECK(c && !c->has);
	CHECK(cgroup_cpu_find(&t, 2) == NULL);
	cgroup_cpu_free(&t);
	CHECK_EQ(cgroup_cpu_parse("", &t), 0);
	CHECK_EQ(t.nr, 0);
	CHECK(cgroup_cpu_find(&t, 1) == NULL);
}

UNIT_TEST(rejects)
{
	static const char *const bad[] = {
		"x usage_usec=1\n", "1 usage_usec\n", "1 usage_usec=-3\n", "1 usage_usec=1x\n",
		"1 usage_usec=\n", "1  usage_usec=1\n", "18446744073709551616 usage_usec=1\n",
		"1 usage_usec=99999999999999999999\n", "1 usage_usec=1\n2x\n",
	};
	struct cgroup_cpu_table t;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(cgroup_cpu_parse(bad[i], &t), -EINVAL);
		CHECK(t.nr == 0 && t.v == NULL);
	}
}

/* cpu.stat as the kernel writes it, with and without the cpu controller. */
UNIT_TEST(format)
{
	char dir[] = "/tmp/ktprof-cgroup-cpu.XXXXXX", path[256], line[CGROUP_CPU_LINE_MAX];
	struct cgroup_cpu_table t;
	int dfd;
	FILE *f;

	if (!mkdtemp(dir))
		UNIT_SKIP("mkdtemp: %s", strerror(errno));
	dfd = open(dir, O_RDONLY | O_DIRECTORY);
	CHECK(dfd >= 0);
	CHECK_EQ(cgroup_cpu_format(dfd, 5, line), 0);	/* no cpu.stat */
	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs("usage_usec 2500\nuser_usec 2000\nsystem_usec 500\nnr_periods 40\n"
		      "nr_throttled 6\nthrottled_usec 91000\nnr_bursts 0\nburst_usec 0\n", f);
		fclose(f);
	}
	CHECK_EQ(cgroup_cpu_format(dfd, 5, line),
		 strlen("5 usage_usec=2500 nr_periods=40 nr_throttled=6 throttled_usec=91000\n"));
	CHECK_STR(line, "5 usage_usec=2500 nr_periods=40 nr_throttled=6 throttled_usec=91000\n");
	CHECK_EQ(cgroup_cpu_parse(line, &t), 0);
	CHECK(t.nr == 1 && t.v[0].throttled_us == 91000);
	cgroup_cpu_free(&t);
	f = fopen(path, "w");
	if (f) {
		fputs("usage_usec 7\nuser_usec 7\nsystem_usec 0\n", f);
		fclose(f);
	}
	CHECK_STR((cgroup_cpu_format(dfd, 1, line), line), "1 usage_usec=7\n");
	f = fopen(path, "w");
	if (f) {
		fputs("user_usec x\n", f);
		fclose(f);
	}
	CHECK_EQ(cgroup_cpu_format(dfd, 1, line), 0);
	unlink(path);
	close(dfd);
	rmdir(dir);
}

UNIT_MAIN()
