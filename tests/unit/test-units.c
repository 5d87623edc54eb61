// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "unit.h"
#include "util/units.h"

UNIT_TEST(durations)
{
	static const struct {
		const char *in;
		int ret;
		uint64_t ns;
	} cases[] = {
		{ "10", 0, 10000000000ull },
		{ "1.5s", 0, 1500000000ull },
		{ "250ms", 0, 250000000ull },
		{ "3us", 0, 3000ull },
		{ "7ns", 0, 7ull },
		{ "2m", 0, 120000000000ull },
		{ "1h", 0, 3600000000000ull },
		{ "", -EINVAL, 0 },
		{ "s", -EINVAL, 0 },
		{ "-1s", -EINVAL, 0 },
		{ "10x", -EINVAL, 0 },
		{ "10 s", -EINVAL, 0 },
		{ "99999999999h", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t ns = 0;
		int ret = units_parse_duration(cases[i].in, &ns);

		if (ret != cases[i].ret || (ret == 0 && ns != cases[i].ns))
			UNIT_FAIL("'%s': ret %d ns %llu, expected %d %llu",
				  cases[i].in, ret, (unsigned long long)ns,
				  cases[i].ret, (unsigned long long)cases[i].ns);
	}
}

UNIT_TEST(sizes)
{
	static const struct {
		const char *in;
		int ret;
		uint64_t bytes;
	} cases[] = {
		{ "4096", 0, 4096 },
		{ "256K", 0, 262144 },
		{ "256k", 0, 262144 },
		{ "1M", 0, 1048576 },
		{ "1MiB", 0, 1048576 },
		{ "2G", 0, 2147483648ull },
		{ "100B", 0, 100 },
		{ "1T", -EINVAL, 0 },
		{ "K", -EINVAL, 0 },
		{ "", -EINVAL, 0 },
		{ "18446744073709551615K", -ERANGE, 0 },
		{ "99999999999999999999999", -ERANGE, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t b = 0;
		int ret = units_parse_size(cases[i].in, &b);

		if (ret != cases[i].ret || (ret == 0 && b != cases[i].bytes))
			UNIT_FAIL("'%s': ret %d bytes %llu, expected %d %llu",
				  cases[i].in, ret, (unsigned long long)b,
				  cases[i].ret, (unsigned long long)cases[i].bytes);
	}
}

UNIT_MAIN()
