// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/units.h"
#include "util/when.h"

static int at_clock_time(const char *s, uint64_t now_ns, uint64_t *at_ns)
{
	time_t now = now_ns / 1000000000ull, t;
	unsigned int h, m, sec = 0;
	struct tm tm;
	int end = -1;

	/* HH:MM:SS or HH:MM, and nothing after. */
	if (!(sscanf(s, "%u:%u:%u%n", &h, &m, &sec, &end) == 3 && !s[end])) {
		end = -1;
		sec = 0;
		if (!(sscanf(s, "%u:%u%n", &h, &m, &end) == 2 && !s[end]))
			return -EINVAL;
	}
	if (h > 23 || m > 59 || sec > 59)
		return -EINVAL;
	localtime_r(&now, &tm);
	tm.tm_hour = h;
	tm.tm_min = m;
	tm.tm_sec = sec;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	if (t < now) {
		tm.tm_mday++;
		tm.tm_isdst = -1;
		t = mktime(&tm);
	}
	*at_ns = (uint64_t)t * 1000000000ull;
	return 0;
}

int when_parse(const char *spec, uint64_t now_ns, uint64_t *at_ns)
{
	uint64_t d;

	if (!spec || !*spec)
		return -EINVAL;
	if (!strcmp(spec, "@now")) {
		*at_ns = now_ns;
		return 0;
	}
	if (spec[0] == '@')
		return at_clock_time(spec + 1, now_ns, at_ns);
	if (spec[0] == '+') {
		if (units_parse_duration(spec + 1, &d))
			return -EINVAL;
		*at_ns = now_ns + d;
		return 0;
	}
	if (spec[0] == '/') {
		if (units_parse_duration(spec + 1, &d) || !d)
			return -EINVAL;
		*at_ns = (now_ns / d + 1) * d;
		return 0;
	}
	return -EINVAL;
}
