// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/units.h"

int units_parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double scale;
	} units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
		{ "m", 60e9 }, { "h", 3600e9 }, { "", 1e9 },
	};
	char *end;
	double v;
	size_t i;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || v < 0)
		return -EINVAL;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		v *= units[i].scale;
		if (v >= 1.8e19)
			return -ERANGE;
		*ns = (uint64_t)(v + 0.5);
		return 0;
	}
	return -EINVAL;
}

int units_parse_size(const char *s, uint64_t *bytes)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	switch (toupper((unsigned char)*end)) {
	case 'K': shift = 10; end++; break;
	case 'M': shift = 20; end++; break;
	case 'G': shift = 30; end++; break;
	}
	if (shift && !strcasecmp(end, "iB"))
		end += 2;
	else if (!strcasecmp(end, "B"))
		end++;
	if (*end)
		return -EINVAL;
	if (v > (UINT64_MAX >> shift))
		return -ERANGE;
	*bytes = (uint64_t)v << shift;
	return 0;
}

const char *units_fmt_ns(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } units[] = {
		{ 1000000000ull, "s" }, { 1000000ull, "ms" }, { 1000ull, "us" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		double v = (double)ns / units[i].div;

		if (ns < units[i].div)
			continue;
		snprintf(buf, len, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s",
			 v, units[i].unit);
		return buf;
	}
	snprintf(buf, len, "%" PRIu64 " ns", ns);
	return buf;
}

int units_parse_time(const char *s, uint64_t *ns)
{
	size_t n = s ? strlen(s) : 0;

	if (!n || isdigit((unsigned char)s[n - 1]) || s[n - 1] == '.')
		return -EINVAL;
	return units_parse_duration(s, ns);
}
