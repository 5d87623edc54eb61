// SPDX-License-Identifier: GPL-2.0
/*
 * record --probe's syntax: what it reads, what it writes back, what it
 * refuses. What probe_spec_format() writes must read back as the same
 * probe: a capture keeps its probe list that way, and a list that does not
 * read back leaves every hit of the capture unnamed.
 */
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

/* @text's canonical form, or the reason it was refused, in @buf. */
static int parse_format(const char *text, struct probe_spec *p, char *buf, unsigned int len)
{
	struct error err;
	int ret = probe_spec_parse(text, p, &err);

	if (ret)
		snprintf(buf, len, "refused: %s", error_msg(&err));
	else
		probe_spec_format(p, buf, len);
	return ret;
}

/* Each spelling, as the capture's list keeps it; that text reads back the same. */
UNIT_TEST(round_trips)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "k:do_sys_openat2 dfd=arg1:s32 name=arg2:str",
		  "do_sys_openat2=k:do_sys_openat2 dfd=arg1:s32 name=arg2:str" },
		{ "open=kr:do_sys_openat2 fd=ret:s64", "open=kr:do_sys_openat2 fd=ret:s64" },
		{ "kr:vfs_read", "vfs_read%return=kr:vfs_read" },
		/* The default type is x64; an offset's default name carries it. */
		{ "k:schedule+0x10 di=%di", "schedule_0x10=k:schedule+0x10 di=%di:x64" },
		{ "k:schedule+16", "schedule_0x10=k:schedule+0x10" },
		{ "k:schedule+0", "schedule=k:schedule" },
		/* perf's spellings of the sources. */
		{ "k:f a=$arg2:u8 b=%r15:x16", "f=k:f a=arg2:u8 b=%r15:x16" },
		{ "kr:f r=$retval:u32", "f%return=kr:f r=ret:u32" },
		/* A uprobe's strings are the process's memory. */
		{ "u:/usr/bin/app:main argc=arg1:u32 argv0=%si:str",
		  "main=u:/usr/bin/app:main argc=arg1:u32 argv0=%si:ustr" },
		{ "u:/usr/lib/libc.so.6:0x1234", "libc.so.6_0x1234=u:/usr/lib/libc.so.6:0x1234" },
		{ "ur:/bin/x:f r=ret:x32", "f%return=ur:/bin/x:f r=ret:x32" },
		/* The symbol is after the last colon; a name starts with no digit. */
		{ "u:/a:b/c:sym", "sym=u:/a:b/c:sym" },
		{ "u:/bin/9p:0x10", "_9p_0x10=u:/bin/9p:0x10" },
		{ "ur:/bin/x:0x0", "x_0x0%return=ur:/bin/x:0x0" },
		{ "w.x%y=k:f\tv=%ip:u64", "w.x%y=k:f v=%ip:u64" },
		{ "k:f a=arg6:u8 b=%r15:s16 c=%ip:x32 d=arg2:str",
		  "f=k:f a=arg6:u8 b=%r15:s16 c=%ip:x32 d=arg2:str" },
		{ "x=u:/usr/lib/libc.so.6:malloc+0x4 n=%di:u64",
		  "x=u:/usr/lib/libc.so.6:malloc+0x4 n=%di:u64" },
		{ "ur:/bin/app:0xabc r=ret:s8", "app_0xabc%return=ur:/bin/app:0xabc r=ret:s8" },
		{ "k:f a=arg1 b=arg2 c=arg3 d=arg4 e=arg5 f=arg6 g=%ax h=%bx",
		  "f=k:f a=arg1:x64 b=arg2:x64 c=arg3:x64 d=arg4:x64 e=arg5:x64 f=arg6:x64 "
		  "g=%ax:x64 h=%bx:x64" },		/* USDT: PROVIDER.PROBE by default, arguments up to arg12. */
		{ "usdt:/bin/srv:app:req_begin", "app.req_begin=usdt:/bin/srv:app:req_begin" },
		{ "r=usdt:/a:b/srv:app:req id=arg1:u64 last=arg12:s32",
		  "r=usdt:/a:b/srv:app:req id=arg1:u64 last=arg12:s32" },
		/* Untyped, a USDT argument waits for its note's type. */
		{ "usdt:/bin/x:p:n a=arg2 b=%di", "p.n=usdt:/bin/x:p:n a=arg2 b=%di" },
		/* Stacks: a kprobe's own is the kernel's, a uprobe's the user's. */
		{ "k:schedule stack", "schedule=k:schedule stack=k" },
		{ "k:schedule stack=ku a=arg1:u8", "schedule=k:schedule a=arg1:u8 stack=ku" },
		{ "k:schedule stack=uk", "schedule=k:schedule stack=ku" },
		{ "u:/bin/x:f stack", "f=u:/bin/x:f stack=u" },
		{ "usdt:/bin/x:p:n stack=u", "p.n=usdt:/bin/x:p:n stack=u" },
	};
	struct probe_spec p, q;
	char buf[2048], again[2048];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		parse_format(cases[i].in, &p, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].out);
		if (parse_format(buf, &q, again, sizeof(again)) || strcmp(again, buf) ||
		    memcmp(&p, &q, sizeof(p)))
			UNIT_FAIL("\"%s\" reads back as \"%s\"", buf, again);
	}
}

/* Every type: its fetch, how it is shown, and its name back. */
UNIT_TEST(types)
{
	static const struct {
		const char *type;
		enum ktp_probe_fetch fetch;
		enum probe_show show;
	} cases[] = {
		{ "u8", KTP_FETCH_U8, PROBE_SHOW_UNSIGNED },
		{ "u16", KTP_FETCH_U16, PROBE_SHOW_UNSIGNED },
		{ "u32", KTP_FETCH_U32, PROBE_SHOW_UNSIGNED },
		{ "u64", KTP_FETCH_U64, PROBE_SHOW_UNSIGNED },
		{ "s8", KTP_FETCH_U8, PROBE_SHOW_SIGNED },
		{ "s16", KTP_FETCH_U16, PROBE_SHOW_SIGNED },
		{ "s32", KTP_FETCH_U32, PROBE_SHOW_SIGNED },
		{ "s64", KTP_FETCH_U64, PROBE_SHOW_SIGNED },
		{ "x8", KTP_FETCH_U8, PROBE_SHOW_HEX },
		{ "x16", KTP_FETCH_U16, PROBE_SHOW_HEX },
		{ "x32", KTP_FETCH_U32, PROBE_SHOW_HEX },
		{ "x64", KTP_FETCH_U64, PROBE_SHOW_HEX },
		{ "str", KTP_FETCH_STR, PROBE_SHOW_STRING },
		{ "ustr", KTP_FETCH_USTR, PROBE_SHOW_STRING },
	};
	struct probe_spec p;
	char in[64], want[64], buf[256];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(in, sizeof(in), "k:f v=arg1:%s", cases[i].type);
		snprintf(want, sizeof(want), "f=k:f v=arg1:%s", cases[i].type);
		if (parse_format(in, &p, buf, sizeof(buf))) {
			UNIT_FAIL("%s: %s", in, buf);
			continue;
		}
		CHECK_STR(buf, want);
		CHECK_EQ(p.nargs, 1);
		CHECK_EQ(p.args[0].k.src, KTP_ARG_FN);
		CHECK_EQ(p.args[0].k.index, 0);
		CHECK_EQ(p.args[0].k.fetch, cases[i].fetch);
		CHECK_EQ(p.args[0].show, cases[i].show);
	}
}

/* The fields of each kind. */
UNIT_TEST(fields)
{
	struct probe_spec p;
	struct error err;

	CHECK_EQ(probe_spec_parse("n=k:vfs_write+0x8 a=%di:u32", &p, &err), 0);
	CHECK_STR(p.name, "n");
	CHECK_EQ(p.kind, KTP_PROBE_KPROBE);
	CHECK_STR(p.symbol, "vfs_write");
	CHECK_STR(p.path, "");
	CHECK_EQ(p.offset, 8);
	CHECK_EQ(p.args[0].k.src, KTP_ARG_REG);
	CHECK_EQ(p.args[0].k.index, KTP_REG_DI);
	CHECK(!probe_spec_is_return(&p) && !probe_spec_is_user(&p));

	CHECK_EQ(probe_spec_parse("ur:/lib/l.so:0x40 r=ret:s16", &p, &err), 0);
	CHECK_EQ(p.kind, KTP_PROBE_URETPROBE);
	CHECK_STR(p.path, "/lib/l.so");
	CHECK_STR(p.symbol, "");
	CHECK_EQ(p.offset, 0x40);
	CHECK_EQ(p.args[0].k.src, KTP_ARG_RET);
	CHECK(probe_spec_is_return(&p) && probe_spec_is_user(&p));

	CHECK_EQ(probe_spec_parse("k:f x=arg6", &p, &err), 0);
	CHECK_EQ(p.args[0].k.index, 5);

	CHECK_STR(probe_kind_name(KTP_PROBE_KPROBE), "kprobe");
	CHECK_STR(probe_kind_name(KTP_PROBE_KRETPROBE), "kretprobe");
	CHECK_STR(probe_kind_name(KTP_PROBE_UPROBE), "uprobe");
	CHECK_STR(probe_kind_name(KTP_PROBE_URETPROBE), "uretprobe");
	CHECK_STR(probe_kind_name(0), "probe");
	CHECK_STR(probe_kind_name(99), "probe");
	CHECK_EQ(probe_spec_parse("usdt:/bin/x:p:n", &p, &err), 0);
	CHECK_STR(probe_spec_kind(&p), "usdt");
	CHECK_EQ(probe_spec_parse("u:/bin/x:f", &p, &err), 0);
	CHECK_STR(probe_spec_kind(&p), "uprobe");
}

/*
 * A default name is cut to fit, and stays a name: the list a capture
 * keeps must read back whatever the target's name was.
 */
UNIT_TEST(long_default_names)
{
	char sym[KTP_PROBE_TARGET_MAX], in[600], buf[2048], again[2048];
	struct probe_spec p, q;

	memset(sym, 'a', sizeof(sym) - 1);
	sym[sizeof(sym) - 1] = '\0';
	sym[3] = '-';		/* not a name's character: becomes '_' */
	snprintf(in, sizeof(in), "kr:%.*s+0", (int)sizeof(sym) - 2, sym + 1);
	/* '-' is no function name's either, yet not refused: the kernel says. */
	if (parse_format(in, &p, buf, sizeof(buf))) {
		UNIT_FAIL("%s: %s", in, buf);
		return;
	}
	CHECK(strlen(p.name) < PROBE_NAME_MAX);
	CHECK(strstr(p.name, "%return") != NULL);
	CHECK(strchr(p.name, '-') == NULL);
	CHECK(parse_format(buf, &q, again, sizeof(again)) == 0 && !strcmp(buf, again));

	snprintf(in, sizeof(in), "u:/%.150s/%.60s:0x123456789abc", sym, sym);
	if (parse_format(in, &p, buf, sizeof(buf))) {
		UNIT_FAIL("%s: %s", in, buf);
		return;
	}
	CHECK(strlen(p.name) < PROBE_NAME_MAX);
	CHECK(strstr(p.name, "_0x123456789abc") != NULL);
	CHECK(parse_format(buf, &q, again, sizeof(again)) == 0 && !strcmp(buf, again));
}

/* Each mistake, refused with its reason. */
UNIT_TEST(refusals)
{
	static char nine[256], long_name[256], long_fn[400], long_path[400];
	struct {
		const char *in, *why;
	} cases[] = {
		{ "", "empty probe" },
		{ " \t", "empty probe" },
		{ "vfs_read", "want k:, kr:, u:, ur: or usdt:" },
		{ "usdt:/bin/x:p", "want usdt:PATH:PROVIDER:PROBE" },
		{ "usdt:/bin/x:p:", "want usdt:PATH:PROVIDER:PROBE" },
		{ "usdt::p:n", "want usdt:PATH:PROVIDER:PROBE" },
		{ "usdt:/bin/x:p:n a=arg13", "arguments arg1..arg12" },
		{ "usdt:/bin/x:p:n a=arg0", "arguments arg1..arg12" },
		{ "usdt:/bin/x:p:n a=ret", "\"ret\" is for return probes" },
		{ "k:f stack=x", "bad \"stack=x\"" },
		{ "k:f stackk", "want NAME=SRC" },
		{ "u:/bin/x:f stack=k", "a uprobe has a user stack only" },
		{ "x:vfs_read", "unknown probe kind \"x\"" },
		{ "kp:vfs_read", "unknown probe kind" },
		{ "K:vfs_read", "unknown probe kind" },
		{ "k:", "no function named" },
		{ "k:+4", "no function named" },
		{ "k:a/b", "bad function name" },
		{ "k:f+zz", "bad offset" },
		{ "k:f+-1", "bad offset" },
		{ "k:f+", "bad offset" },
		{ "kr:f+4", "a return probe takes a function" },
		{ "u:/bin/x", "want u:PATH:SYMBOL" },
		{ "u::main", "want u:PATH:SYMBOL" },
		{ "u:/bin/x:", "no function named" },
		{ "u:/bin/x:0xzz", "bad file offset" },
		{ "u:/bin/x:0x10+4", "a file offset takes no +OFF" },
		{ "u:/bin/x:0x10+0", "a file offset takes no +OFF" },
		/* White space separates words: a path cannot hold it. */
		{ "u:/a b:main", "want u:PATH:SYMBOL" },
		{ "k:f a=arg1:u128", "unknown type \"u128\"" },
		{ "k:f a=arg1:", "unknown type \"\"" },
		{ "k:f a=arg1:S32", "unknown type" },
		{ "k:f r=ret", "\"ret\" is for return probes" },
		{ "u:/bin/x:f r=$retval:u8", "\"ret\" is for return probes" },
		{ "kr:f a=arg1", "a return probe has no arguments" },
		{ "ur:/bin/x:f a=$arg2", "a return probe has no arguments" },
		{ "k:f+4 a=arg1", "only known at a function's entry" },
		{ "k:f a=arg0", "unknown argument source" },
		{ "k:f a=arg7", "unknown argument source" },
		{ "k:f a=arg12", "unknown argument source" },
		{ "k:f a=foo", "unknown argument source" },
		{ "k:f a=", "unknown argument source" },
		{ "k:f a=%xx", "unknown register \"%xx\"" },
		{ "k:f a=%", "unknown register" },
		{ "k:f arg1", "want NAME=SRC[:TYPE]" },
		{ "k:f a=arg1 a=arg2", "argument a named twice" },
		{ "k:f a=arg1 b=arg2 a=%ax:u8", "argument a named twice" },
		{ "1x=k:f", "bad probe name \"1x\"" },
		{ "a-b=k:f", "bad probe name" },
		{ "=k:f", "bad probe name \"\"" },
		{ "k:f 9a=arg1", "bad argument name \"9a\"" },
		{ "k:f a/b=arg1", "bad argument name" },
		{ "k:f =arg1", "bad argument name \"\"" },
		{ nine, "more than 8 arguments" },
		/* The count is checked first: nine sources, each named once. */
		{ "k:f a=arg1 b=arg1 c=arg1 d=arg1 e=arg1 f=arg1 g=arg1 h=arg1 a=arg1",
		  "more than 8 arguments" },
		{ long_name, "bad probe name" },
		{ long_fn, "function name too long" },
		{ long_path, "path too long" },
	};
	struct probe_spec p;
	struct error err;
	size_t i;
	int ret;

	snprintf(nine, sizeof(nine), "k:f a=arg1 b=arg2 c=arg3 d=arg4 e=arg5 f=arg6 "
		 "g=%%ax h=%%bx i=%%cx");
	snprintf(long_name, sizeof(long_name), "%0*d=k:f", PROBE_NAME_MAX, 0);
	long_name[0] = 'n';
	snprintf(long_fn, sizeof(long_fn), "k:%0*d", KTP_PROBE_TARGET_MAX, 0);
	long_fn[2] = 'f';
	snprintf(long_path, sizeof(long_path), "u:/%0*d:main", KTP_PROBE_TARGET_MAX, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		error_clear(&err);
		ret = probe_spec_parse(cases[i].in, &p, &err);
		if (ret != -EINVAL || !strstr(error_msg(&err), cases[i].why))
			UNIT_FAIL("\"%s\": %d \"%s\", expected -EINVAL \"%s\"", cases[i].in, ret,
				  error_msg(&err), cases[i].why);
	}
	/* The longest name that fits is taken. */
	snprintf(long_name, sizeof(long_name), "n%0*d=k:f", PROBE_NAME_MAX - 2, 0);
	CHECK_EQ(probe_spec_parse(long_name, &p, &err), 0);
	CHECK_EQ(strlen(p.name), PROBE_NAME_MAX - 1);
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

/* Probes by line, ids in order; a bad line fails it all, and says which. */
UNIT_TEST(table_errors)
{
	struct probe_table t;
	struct error err;
	size_t n = 0, last = 0;
	char big[4096];
	int i;

	CHECK_EQ(probe_table_parse("a=k:f x=arg1:u8\n\nb=kr:f r=ret:s32\nc=u:/bin/x:main", &t,
				   &err), 0);
	CHECK_EQ(t.n, 3);
	if (t.n == 3) {
		CHECK_STR(probe_table_get(&t, 0)->name, "a");
		CHECK_STR(probe_table_get(&t, 1)->name, "b");
		CHECK_EQ(probe_table_get(&t, 1)->args[0].show, PROBE_SHOW_SIGNED);
		CHECK_STR(probe_table_get(&t, 2)->path, "/bin/x");
	}
	CHECK(probe_table_get(&t, 3) == NULL);
	probe_table_fini(&t);
	CHECK_EQ(t.n, 0);

	CHECK_EQ(probe_table_parse("a=k:f\nb=k:g r=ret\n", &t, &err), -ERROR_BAD_META);
	CHECK(strstr(error_msg(&err), "probe 1:") != NULL);
	CHECK(strstr(error_msg(&err), "\"ret\" is for return probes") != NULL);
	CHECK_EQ(t.n, 0);
	CHECK(t.probes == NULL);

	/* More probes than the module takes. */
	for (i = 0; i <= KTP_MAX_PROBES; i++) {
		last = n;
		n += snprintf(big + n, sizeof(big) - n, "p%d=k:f\n", i);
	}
	CHECK_EQ(probe_table_parse(big, &t, &err), -ERROR_BAD_META);
	CHECK(strstr(error_msg(&err), "too long") != NULL);
	big[last] = '\0';
	CHECK_EQ(probe_table_parse(big, &t, &err), 0);
	CHECK_EQ(t.n, KTP_MAX_PROBES);
	probe_table_fini(&t);

	/* A line longer than any probe's text. */
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	memcpy(big, "k:", 2);
	CHECK_EQ(probe_table_parse(big, &t, &err), -ERROR_BAD_META);
	CHECK_EQ(t.n, 0);
}

UNIT_MAIN()
