// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture/sched-ext.h"
#include "unit.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A sysfs directory as a kernel with a BPF scheduler loaded shows it. */
UNIT_TEST(read_sysfs)
{
	char dir[] = "/tmp/ktprof-unit-scx.XXXXXX", sub[600], buf[128];
	struct sched_ext s;

	CHECK(mkdtemp(dir) != NULL);
	put(dir, "state", "enabled\n");
	snprintf(sub, sizeof(sub), "%s/root", dir);
	mkdir(sub, 0755);
	put(dir, "root/ops", "scx_simple\n");
	put(dir, "enable_seq", "3\n");
	put(dir, "switch_all", "1\n");
	put(dir, "root/events", "SCX_EV_SELECT_CPU_FALLBACK 7\nSCX_EV_DISPATCH_KEEP_LAST 12\n"
	    "SCX_EV_KEEP 4\n");
	CHECK_EQ(sched_ext_read(dir, &s), 0);
	CHECK(s.present);
	CHECK_STR(s.state, "enabled");
	CHECK_STR(s.ops, "scx_simple");
	CHECK_EQ(s.enable_seq, 3);
	CHECK_EQ(s.switch_all, 1);
	/* An event by its whole name: SCX_EV_KEEP is not SCX_EV_KEEP_LAST's prefix match. */
	CHECK_EQ(sched_ext_event(&s, "SCX_EV_DISPATCH_KEEP_LAST"), 12);
	CHECK_EQ(sched_ext_event(&s, "SCX_EV_SELECT_CPU_FALLBACK"), 7);
	CHECK_EQ(sched_ext_event(&s, "SCX_EV_KEEP"), 4);
	CHECK_EQ(sched_ext_event(&s, "SCX_EV_DISPATCH"), -1);
	CHECK_STR(sched_ext_str(&s, buf, sizeof(buf)), "enabled (scx_simple)");
	/* Nothing loaded: no ops. */
	snprintf(sub, sizeof(sub), "%s/root/ops", dir);
	unlink(sub);
	snprintf(sub, sizeof(sub), "%s/root/events", dir);
	unlink(sub);
	put(dir, "state", "disabled\n");
	CHECK_EQ(sched_ext_read(dir, &s), 0);
	CHECK_STR(sched_ext_str(&s, buf, sizeof(buf)), "disabled");
	snprintf(sub, sizeof(sub), "rm -rf %s", dir);
	CHECK_EQ(system(sub), 0);
	/* A kernel without sched_ext. */
	CHECK_EQ(sched_ext_read(dir, &s), 0);
	CHECK(!s.present);
}

UNIT_TEST(parse)
{
	struct sched_ext s;

	CHECK_EQ(sched_ext_parse("state=enabled\nops=scx_lavd\nenable_seq=12\n", &s), 0);
	CHECK_STR(s.state, "enabled");
	CHECK_STR(s.ops, "scx_lavd");
	CHECK_EQ(s.enable_seq, 12);
	CHECK_EQ(sched_ext_parse("garbage\n", &s), -EINVAL);
	CHECK(!s.present);
}

UNIT_MAIN()
