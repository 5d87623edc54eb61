/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny table-driven unit-test harness. Each test file defines its cases
 * with UNIT_TEST(name) { ... } and ends with UNIT_MAIN(). Every case prints
 * "PASS unit/<file>/<case>" or "FAIL unit/<file>/<case>: <what>".
 */
#ifndef KTPROF_UNIT_H
#define KTPROF_UNIT_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct unit_case {
	const char *name;
	void (*fn)(void);
};

extern struct unit_case unit_cases[];
extern int unit_failed_now;

#define UNIT_MAX_CASES 256

#define UNIT_TEST(name)                                                    \
	static void unit_##name(void);                                     \
	__attribute__((constructor)) static void unit_reg_##name(void)     \
	{                                                                  \
		unit_register(#name, unit_##name);                         \
	}                                                                  \
	static void unit_##name(void)

void unit_register(const char *name, void (*fn)(void));

#define UNIT_FAIL(...)                                                     \
	do {                                                               \
		printf("    %s:%d: ", __FILE__, __LINE__);                    \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		unit_failed_now = 1;                                       \
	} while (0)

#define CHECK(cond)                                                        \
	do {                                                               \
		if (!(cond))                                               \
			UNIT_FAIL("check failed: %s", #cond);              \
	} while (0)

#define CHECK_EQ(a, b)                                                     \
	do {                                                               \
		long long _a = (long long)(a), _b = (long long)(b);        \
		if (_a != _b)                                              \
			UNIT_FAIL("%s == %lld, expected %s == %lld", #a, _a, \
				  #b, _b);                                 \
	} while (0)

#define CHECK_STR(a, b)                                                    \
	do {                                                               \
		const char *_a = (a), *_b = (b);                           \
		if (!_a || !_b || strcmp(_a, _b))                          \
			UNIT_FAIL("%s == \"%s\", expected \"%s\"", #a,     \
				  _a ? _a : "(null)", _b ? _b : "(null)"); \
	} while (0)

#define UNIT_MAIN()                                                        \
	struct unit_case unit_cases[UNIT_MAX_CASES];                       \
	int unit_failed_now;                                               \
	static int unit_n;                                                 \
	void unit_register(const char *name, void (*fn)(void))             \
	{                                                                  \
		if (unit_n < UNIT_MAX_CASES)                               \
			unit_cases[unit_n++] = (struct unit_case){ name, fn }; \
	}                                                                  \
	int main(int argc, char **argv)                                    \
	{                                                                  \
		const char *file = strrchr(__FILE__, '/');                 \
		int i, failed = 0;                                         \
		file = file ? file + 1 : __FILE__;                         \
		if (!strncmp(file, "test-", 5))                            \
			file += 5;                                         \
		for (i = 0; i < unit_n; i++) {                             \
			if (argc > 1 && strcmp(argv[1], unit_cases[i].name)) \
				continue;                                  \
			unit_failed_now = 0;                               \
			unit_cases[i].fn();                                \
			printf("%s unit/%.*s/%s\n",                        \
			       unit_failed_now ? "FAIL" : "PASS",          \
			       (int)(strlen(file) - 2), file,              \
			       unit_cases[i].name);                        \
			failed |= unit_failed_now;                         \
		}                                                          \
		return failed;                                             \
	}

#endif
