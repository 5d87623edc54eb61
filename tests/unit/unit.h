/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny table-driven unit-test harness. Each test file defines its cases
 * with UNIT_TEST(name) { ... } and ends with UNIT_MAIN(). Every case prints
 * one line: "PASS unit/<file>/<case>", "FAIL unit/<file>/<case>" (after
 * what failed), or "SKIP unit/<file>/<case>: <reason>" when the case needs
 * something this machine lacks (UNIT_SKIP), which counts neither as a pass
 * nor as a failure. A failure recorded before UNIT_SKIP still fails.
 *
 * `test-x NAME` runs case NAME only. UNIT_HELPER(name) cases run only when
 * named so: a test can run its own binary on one of them (unit_argv0) to
 * check what a case prints.
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
	int helper;		/* runs only when named on the command line */
};

extern struct unit_case unit_cases[];
extern int unit_failed_now;
extern char unit_skip_reason[256];	/* "" unless the case skipped */
extern const char *unit_argv0;

#define UNIT_MAX_CASES 256

#define UNIT_CASE(name, helper)                                            \
	static void unit_##name(void);                                     \
	__attribute__((constructor)) static void unit_reg_##name(void)     \
	{                                                                  \
		unit_register(#name, unit_##name, helper);                 \
	}                                                                  \
	static void unit_##name(void)

#define UNIT_TEST(name) UNIT_CASE(name, 0)
#define UNIT_HELPER(name) UNIT_CASE(name, 1)

void unit_register(const char *name, void (*fn)(void), int helper);

/*
 * The case cannot run here: say why and return from it. Only for what is
 * really absent (no procfs, no such tool), never to hide a failure.
 */
#define UNIT_SKIP(...)                                                     \
	do {                                                               \
		snprintf(unit_skip_reason, sizeof(unit_skip_reason),      \
			 __VA_ARGS__);                                     \
		if (!unit_skip_reason[0])                                  \
			unit_skip_reason[0] = '?';                         \
		return;                                                    \
	} while (0)

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
	char unit_skip_reason[256];                                        \
	const char *unit_argv0;                                            \
	static int unit_n;                                                 \
	void unit_register(const char *name, void (*fn)(void), int helper) \
	{                                                                  \
		if (unit_n < UNIT_MAX_CASES)                               \
			unit_cases[unit_n++] =                             \
				(struct unit_case){ name, fn, helper };    \
	}                                                                  \
	static void unit_report(const char *file, const char *name)       \
	{                                                                  \
		int n = (int)(strlen(file) - 2);                           \
									   \
		if (unit_failed_now)                                       \
			printf("FAIL unit/%.*s/%s\n", n, file, name);      \
		else if (unit_skip_reason[0])                              \
			printf("SKIP unit/%.*s/%s: %s\n", n, file, name,   \
			       unit_skip_reason);                          \
		else                                                       \
			printf("PASS unit/%.*s/%s\n", n, file, name);      \
		fflush(stdout);                                            \
	}                                                                  \
	int main(int argc, char **argv)                                    \
	{                                                                  \
		const char *file = strrchr(__FILE__, '/');                 \
		int i, failed = 0;                                         \
		unit_argv0 = argv[0];                                      \
		file = file ? file + 1 : __FILE__;                         \
		if (!strncmp(file, "test-", 5))                            \
			file += 5;                                         \
		for (i = 0; i < unit_n; i++) {                             \
			if (argc > 1 ? strcmp(argv[1], unit_cases[i].name) : \
			    unit_cases[i].helper)                          \
				continue;                                  \
			unit_failed_now = 0;                               \
			unit_skip_reason[0] = '\0';                        \
			unit_cases[i].fn();                                \
			unit_report(file, unit_cases[i].name);             \
			failed |= unit_failed_now;                         \
		}                                                          \
		return failed;                                             \
	}

#endif
