// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "unit.h"
#include "util/when.h"

#define S 1000000000ull

UNIT_TEST(relative_and_aligned)
{
	uint64_t now = 1700000003ull * S + 123, at = 0;

	CHECK_EQ(when_parse("@now", now, &at), 0);
	CHECK_EQ(at, now);
	CHECK_EQ(when_parse("+30s", now, &at), 0);
	CHECK_EQ(at, now + 30 * S);
	CHECK_EQ(when_parse("+1.5m", now, &at), 0);
	CHECK_EQ(at, now + 90 * S);
	CHECK_EQ(when_parse("/10s", now, &at), 0);
	CHECK_EQ(at, 1700000010ull * S);
	CHECK_EQ(when_parse("/1m", 1700000040ull * S, &at), 0);
	CHECK_EQ(at % (60 * S), 0);
	CHECK(at > 1700000040ull * S);
}

UNIT_TEST(clock_times)
{
	uint64_t now, at = 0;
	struct tm tm = { .tm_year = 123, .tm_mon = 10, .tm_mday = 14,
			 .tm_hour = 10, .tm_min = 0, .tm_sec = 0, .tm_isdst = -1 };

	setenv("TZ", "UTC", 1);
	tzset();
	now = (uint64_t)mktime(&tm) * S;
	CHECK_EQ(when_parse("@10:30", now, &at), 0);
	CHECK_EQ(at, now + 30 * 60 * S);
	CHECK_EQ(when_parse("@10:30:15", now, &at), 0);
	CHECK_EQ(at, now + (30 * 60 + 15) * S);
	/* Already past today: tomorrow. */
	CHECK_EQ(when_parse("@09:00", now, &at), 0);
	CHECK_EQ(at, now + 23 * 3600 * S);
}

UNIT_TEST(rejects)
{
	static const char *const bad[] = {
		"", "now", "@", "@25:00", "@10:60", "@10", "@10:00:00:00", "+",
		"+x", "/0s", "/", "30s", "@10:00x",
	};
	uint64_t at;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (when_parse(bad[i], 1000 * S, &at) != -EINVAL)
			UNIT_FAIL("'%s' accepted", bad[i]);
}

UNIT_MAIN()
