// SPDX-License-Identifier: GPL-2.0
/* record --probe's syntax: what it reads, what it writes back, what it refuses. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "decode/probe-spec.h"
#include "ktprof_abi.h"
#include "unit.h"

UNIT_TEST(parses_kprobe)
{
	struct probe_spec p;
	struct error err;
	char buf[512];

	CHECK_EQ(probe_spec_parse("open=k:do_sys_openat2 dfd=arg1:s32 path=arg2:ustr f=%dx",
				  &p, &err), 0);
	CHECK_STR(p.name, "open");
	CHECK_EQ(p.kind, KTP_PROBE_KPROBE);
	CHECK_STR(p.symbol, "do_sys_openat2");
	CHECK_EQ(p.nargs, 3);
	CHECK_EQ(p.args[0].k.src, KTP_ARG_FN);
	CHECK_EQ(p.args[0].k.index, 0);
	CHECK_EQ(p.args[0].k.fetch, KTP_FETCH_U32);
	CHECK_EQ(p.args[0].show, PROBE_SHOW_SIGNED);
	CHECK_EQ(p.args[1].k.fetch, KTP_FETCH_USTR);
	CHECK_EQ(p.args[2].k.src, KTP_ARG_REG);
	CHECK_EQ(p.args[2].k.index, KTP_REG_DX);
	CHECK_EQ(p.args[2].show, PROBE_SHOW_HEX);	/* the default type: x64 */
	CHECK_STR(probe_spec_format(&p, buf, sizeof(buf)),
		  "open=k:do_sys_openat2 dfd=arg1:s32 path=arg2:ustr f=%dx:x64");
}

UNIT_TEST(default_names)
{
	struct probe_spec p;
	struct error err;

	CHECK_EQ(probe_spec_parse("kr:vfs_read ret=ret:s64", &p, &err), 0);
	CHECK_STR(p.name, "vfs_read%return");
	CHECK_EQ(p.args[0].k.src, KTP_ARG_RET);
	CHECK_EQ(probe_spec_parse("k:vfs_read+0x10", &p, &err), 0);
	CHECK_STR(p.name, "vfs_read_0x10");
	CHECK_EQ(p.offset, 0x10);
	CHECK_EQ(probe_spec_parse("u:/opt/my-app:0x1234", &p, &err), 0);
	CHECK_STR(p.name, "my_app_0x1234");
	CHECK_STR(p.path, "/opt/my-app");
	CHECK_EQ(p.symbol[0], '\0');
	CHECK_EQ(probe_spec_parse("u:/opt/9lives:main", &p, &err), 0);
	CHECK_STR(p.name, "main");
	CHECK_EQ(probe_spec_parse("u:/opt/9lives:0x10", &p, &err), 0);
	CHECK_STR(p.name, "_9lives_0x10");
}

/* A uprobe's str is the process's memory: a user string. */
UNIT_TEST(uprobe_strings_are_user)
{
	struct probe_spec p;
	struct error err;

	CHECK_EQ(probe_spec_parse("ur:/bin/app:f s=%ax:str", &p, &err), 0);
	CHECK_EQ(p.kind, KTP_PROBE_URETPROBE);
	CHECK_EQ(p.args[0].k.fetch, KTP_FETCH_USTR);
}

/* What probe_spec_format() writes, probe_spec_parse() reads back the same. */
UNIT_TEST(round_trip)
{
	static const char *const specs[] = {
		"k:f a=arg6:u8 b=%r15:s16 c=%ip:x32 d=arg2:str",
		"x=u:/usr/lib/libc.so.6:malloc+0x4 n=%di:u64",
		"ur:/bin/app:0xabc r=ret:s8",
	};
	struct probe_spec p, q;
	struct error err;
	char a[512], b[512];
	unsigned int i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		CHECK_EQ(probe_spec_parse(specs[i], &p, &err), 0);
		probe_spec_format(&p, a, sizeof(a));
		CHECK_EQ(probe_spec_parse(a, &q, &err), 0);
		CHECK_STR(probe_spec_format(&q, b, sizeof(b)), a);
		CHECK_EQ(memcmp(&p.args, &q.args, sizeof(p.args)), 0);
	}
}

static void refused(const char *spec, const char *why)
{
	struct probe_spec p;
	struct error err = { 0 };

	CHECK_EQ(probe_spec_parse(spec, &p, &err), -EINVAL);
	if (!strstr(error_msg(&err), why))
		fprintf(stderr, "    %s: \"%s\", want \"%s\"\n", spec, error_msg(&err), why);
	CHECK(strstr(error_msg(&err), why) != NULL);
}

UNIT_TEST(refusals)
{
	refused("", "empty probe");
	refused("z:foo", "unknown probe kind");
	refused("foo", "want k:, kr:, u: or ur:");
	refused("k:", "no function named");
	refused("k:foo+bar", "bad offset");
	refused("kr:foo+4", "a return probe takes a function");
	refused("u:/bin/app", "want u:PATH:SYMBOL");
	refused("u:/my app:main", "want u:PATH:SYMBOL");	/* words split at spaces */
	refused("k:foo a=arg1:u7", "unknown type");
	refused("k:foo a=arg7", "unknown argument source");
	refused("k:foo a=%xyz", "unknown register");
	refused("k:foo a=ret", "for return probes");
	refused("kr:foo a=arg1", "no arguments left");
	refused("k:foo+8 a=arg1", "only known at a function's entry");
	refused("k:foo a=arg1 a=arg2", "named twice");
	refused("k:foo 1a=arg1", "bad argument name");
	refused("k:foo a", "want NAME=SRC");
	refused("bad-name=k:foo", "bad probe name");
	refused("k:foo a=arg1 b=arg1 c=arg1 d=arg1 e=arg1 f=arg1 g=arg1 h=arg1 i=arg1",
		"more than 8 arguments");
}

UNIT_TEST(table)
{
	struct probe_table t;
	struct error err;

	CHECK_EQ(probe_table_parse("a=k:f x=arg1:u32\n\nb=kr:f r=ret:s64\n", &t, &err), 0);
	CHECK_EQ(t.n, 2);
	CHECK_STR(probe_table_get(&t, 1)->name, "b");
	CHECK(probe_table_get(&t, 2) == NULL);
	probe_table_fini(&t);
	CHECK_EQ(probe_table_parse("a=k:f x=arg1:u7\n", &t, &err), -ERROR_BAD_META);
	CHECK(strstr(error_msg(&err), "probe 0") != NULL);
	CHECK_EQ(probe_table_parse(NULL, &t, &err), 0);
}

UNIT_MAIN()
