// SPDX-License-Identifier: GPL-2.0
/*
 * record --span's syntax: what it reads, what it writes back, what it
 * refuses; a capture's span list resolved against its probe list.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "decode/span-spec.h"
#include "unit.h"

/* A probe list of three: req_begin (0), req_end (1), vfs_read%return (2). */
static const char probes_text[] =
	"req_begin=u:/srv:handle_begin\n"
	"req_end=ur:/srv:handle\n"
	"vfs_read%return=kr:vfs_read\n";

UNIT_TEST(parses_and_formats)
{
	struct span_spec s;
	struct error err;
	char buf[256];

	CHECK_EQ(span_spec_parse("req=req_begin,req_end", &s, &err), 0);
	CHECK_STR(s.name, "req");
	CHECK_STR(s.begin, "req_begin");
	CHECK_STR(s.end, "req_end");
	CHECK_STR(span_spec_format(&s, buf, sizeof(buf)), "req=req_begin,req_end");
	/* Default names of return probes hold a %; a list's line its newline. */
	CHECK_EQ(span_spec_parse("rd.x=vfs_read,vfs_read%return\n", &s, &err), 0);
	CHECK_STR(s.end, "vfs_read%return");
	CHECK_STR(span_spec_format(&s, buf, sizeof(buf)), "rd.x=vfs_read,vfs_read%return");
}

static const struct {
	const char *text, *why;
} refused[] = {
	{ "req", "want NAME=BEGIN,END" },
	{ "req=a", "want NAME=BEGIN,END" },
	{ "=a,b", "bad span name \"\"" },
	{ "9req=a,b", "bad span name \"9req\"" },
	{ "r q=a,b", "bad span name \"r q\"" },
	{ "req=,b", "bad probe name \"\"" },
	{ "req=a,", "bad probe name \"\"" },
	{ "req=a,b,c", "bad probe name \"b,c\"" },
	{ "req=a b,c", "bad probe name \"a b\"" },
	{ "req=a,k:vfs_read", "bad probe name \"k:vfs_read\"" },
};

UNIT_TEST(refuses_with_reason)
{
	struct span_spec s;
	struct error err;
	unsigned int i;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		error_clear(&err);
		CHECK_EQ(span_spec_parse(refused[i].text, &s, &err), -EINVAL);
		if (!strstr(error_msg(&err), refused[i].why))
			fprintf(stderr, "%s: \"%s\"\n", refused[i].text, error_msg(&err));
		CHECK(strstr(error_msg(&err), refused[i].why) != NULL);
	}
}

UNIT_TEST(resolves_probe_names)
{
	struct probe_table probes;
	struct span_spec s;
	struct error err;

	CHECK_EQ(probe_table_parse(probes_text, &probes, &err), 0);
	CHECK_EQ(span_spec_parse("req=req_begin,req_end", &s, &err), 0);
	CHECK_EQ(span_spec_resolve(&s, &probes, &err), 0);
	CHECK_EQ(s.begin_id, 0);
	CHECK_EQ(s.end_id, 1);
	CHECK_EQ(span_spec_parse("r=vfs_read%return,req_begin", &s, &err), 0);
	CHECK_EQ(span_spec_resolve(&s, &probes, &err), 0);
	CHECK_EQ(s.begin_id, 2);
	CHECK_EQ(s.end_id, 0);
	CHECK_EQ(span_spec_parse("req=req_begin,handle", &s, &err), 0);
	CHECK_EQ(span_spec_resolve(&s, &probes, &err), -ENOENT);
	CHECK_STR(error_msg(&err), "no probe named handle");
	CHECK_EQ(span_spec_parse("req=req_end,req_end", &s, &err), 0);
	CHECK_EQ(span_spec_resolve(&s, &probes, &err), -EINVAL);
	CHECK(strstr(error_msg(&err), "not req_end twice") != NULL);
	probe_table_fini(&probes);
}

UNIT_TEST(table_of_a_capture)
{
	struct probe_table probes;
	struct span_table t;
	struct error err;

	CHECK_EQ(probe_table_parse(probes_text, &probes, &err), 0);
	CHECK_EQ(span_table_parse(NULL, &probes, &t, &err), 0);
	CHECK_EQ(t.n, 0);
	CHECK_EQ(span_table_parse("req=req_begin,req_end\nrd=vfs_read%return,req_end\n", &probes,
				  &t, &err), 0);
	CHECK_EQ(t.n, 2);
	CHECK_STR(span_table_get(&t, 1)->name, "rd");
	CHECK_EQ(span_table_get(&t, 1)->begin_id, 2);
	CHECK_EQ(span_table_get(&t, 1)->end_id, 1);
	CHECK(span_table_get(&t, 2) == NULL);
	span_table_fini(&t);
	/* A list without its last newline reads the same. */
	CHECK_EQ(span_table_parse("req=req_begin,req_end", &probes, &t, &err), 0);
	CHECK_EQ(t.n, 1);
	span_table_fini(&t);
	/* A damaged list: no table, the bad line named. */
	CHECK_EQ(span_table_parse("req=req_begin,req_end\nx=nope,req_end\n", &probes, &t, &err),
		 -EINVAL);
	CHECK_EQ(t.n, 0);
	CHECK_STR(error_msg(&err), "line 2: no probe named nope");
	CHECK_EQ(span_table_parse("req=req_begin,req_end\nreq=req_end,req_begin\n", &probes, &t,
				  &err), -EINVAL);
	CHECK_STR(error_msg(&err), "line 2: span req defined twice");
	probe_table_fini(&probes);
}

UNIT_MAIN()
